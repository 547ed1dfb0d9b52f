"""The command line, the only place that knows Typer and Click: the commands (commands.py), the
options they share (options.py), what completion offers (completion.py) and the one error
boundary (boundary.py). Below it the application layer knows nothing of a command line.

:func:`main` is the console script's entry point (``wizard_cli.cli:main``); :data:`app` is the
whole Typer app.
"""

from __future__ import annotations

import gc
import os
import sys

import typer

from ..arguments import command_asked
from ..errors import ExitCode
from .boundary import exit_status
from .commands import APP_SETTINGS, app
from .console import ClosedOutput, buffer_output

__all__ = ["app", "app_for", "command_asked", "main"]


def app_for(args: list[str]) -> typer.Typer:
    """The app to run for these arguments: with only the command they name, when they name one.

    Typer turns every command into its Click command at every start (the 16 cost 18 ms, a tenth
    of a start; the one asked for, 1 ms). The group's own help, completion and a name that is no
    command (with Click's suggestion) need them all: then the whole app.
    """
    name = command_asked(args)
    if name is None or "_WIZARD_COMPLETE" in os.environ:
        return app
    for info in app.registered_commands:
        assert info.callback is not None  # each was registered by @app.command()
        if (info.name or typer.main.get_command_name(info.callback.__name__)) == name:
            single = typer.Typer(**APP_SETTINGS)
            single.registered_callback = app.registered_callback
            single.registered_commands = [info]
            return single
    return app


def main() -> None:
    """Console entry point: run the app; a closed pipe or Ctrl-C ends quietly."""
    # What start-up built (Typer, Click, Pydantic) lives until exit: keep the garbage
    # collector from walking it again and again while a season streams through.
    gc.freeze()
    # A season streams a million short-lived rows through, a block of thousands at a time: a
    # collection every 700 new objects would walk each block's rows while they are still in
    # use. They form no cycles; a larger first generation lets them die unwalked.
    gc.set_threshold(100_000, 10, 10)
    status: int | str | None = ExitCode.OK
    if sys.stdout is None:
        sys.stdout = ClosedOutput()
    buffer_output()
    if hasattr(sys.stdout, "reconfigure"):  # a name or '→' the terminal cannot show: \u2192
        sys.stdout.reconfigure(errors="backslashreplace")
    try:
        app_for(sys.argv[1:])(prog_name="wizard")
    except SystemExit as exit_:
        status = exit_.code
    except (KeyboardInterrupt, OSError) as error:  # outside a command: Click's own output
        status = exit_status(error)
    try:
        sys.stdout.flush()
    except OSError as error:
        status = exit_status(error)
    sys.exit(status)
