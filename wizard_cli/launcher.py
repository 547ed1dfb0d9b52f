"""The console script's entry point: it imports nothing heavy before it knows the command, so
that ``wizard serve`` catches a SIGTERM from its first moment (SPEC §9; see
:mod:`~wizard_cli.stop_signal`), then runs the command line."""

from __future__ import annotations

import sys

from .arguments import command_asked


def main() -> None:
    """Console entry point (``wizard``, ``python -m wizard_cli``)."""
    if command_asked(sys.argv[1:]) == "serve":
        from .stop_signal import catch_early

        catch_early()
    from .cli import main as run

    run()
