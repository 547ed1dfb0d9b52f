"""``python -m wizard_cli``."""

from .cli import main

main()
