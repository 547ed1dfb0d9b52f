"""``python -m wizard_cli``."""

from .launcher import main

main()
