"""The one error boundary: what becomes of whatever a command raises (SPEC §4, §7).

Domain errors are located lines on stderr and exit 1; a usage error is Click's (exit 2); Ctrl-C
exits 130 and a closed pipe 141, both quietly; output that cannot be written is one line and
exit 1; anything else is one "internal error" line and exit 1, or its traceback with
``--debug`` (which reaches the boundary through Click's context, ``ctx.meta``).
:func:`edge` wraps each command; :func:`exit_status` is the mapping itself, which the console
entry point also uses for what happens outside a command (Click's own output, the last flush).
"""

from __future__ import annotations

import functools
import inspect
import sys
from collections.abc import Callable

import typer

from ..errors import ExitCode, UsageError, WizardError, one_line, shorten
from .console import output_failed, report, silence_stdout

DEBUG = "wizard.debug"  # the key of ``--debug`` in the context's meta (shared by every command)


def exit_status(error: BaseException, debug: bool = False) -> ExitCode | None:
    """Say what went wrong (one line each) and give the exit status; None: let it through
    (Click's and Typer's own exceptions, ``typer.Exit``, anything under ``--debug``)."""
    if isinstance(error, WizardError):
        report(error.problems)
        return ExitCode.DATA
    if isinstance(error, BrokenPipeError):
        silence_stdout()
        return ExitCode.PIPE_CLOSED
    if isinstance(error, KeyboardInterrupt):
        # What is still buffered is dropped: Ctrl-C means stop, and an interrupt inside a
        # flush leaves the buffer holding bytes already sent (they would go out twice).
        silence_stdout()
        return ExitCode.INTERRUPTED
    if isinstance(error, OSError):  # reading is the core's (WizardError): this is the output
        output_failed(error)
        return ExitCode.DATA
    # Typer ≥ 0.16 vendors Click as typer._click, so both module names are Click's own.
    if (
        debug
        or not isinstance(error, Exception)
        or type(error).__module__.split(".")[0] in ("click", "typer")
    ):
        return None
    sys.stderr.write(
        f"wizard: internal error: {type(error).__name__}: {shorten(one_line(str(error)), 200)} "
        "(rerun as `wizard --debug …` to see the traceback)\n"
    )
    return ExitCode.DATA


def edge(command: Callable) -> Callable:
    """A command behind the boundary: what it raises becomes its exit status."""
    signature = inspect.signature(command, eval_str=True)

    @functools.wraps(command)
    def run(*args, ctx: typer.Context, **kwargs):
        try:
            return command(*args, **kwargs)
        except UsageError as error:  # Click prints it with the usage line and exits 2
            raise typer.BadParameter(error.message, param_hint=error.param_hint) from None
        except BaseException as error:
            status = exit_status(error, ctx.meta.get(DEBUG, False))
            if status is None:
                raise
            raise typer.Exit(status) from None

    context = inspect.Parameter("ctx", inspect.Parameter.KEYWORD_ONLY, annotation=typer.Context)
    # typeshed's functions have no __signature__, which inspect.signature (so Typer) reads first
    run.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=[*signature.parameters.values(), context]
    )
    return run
