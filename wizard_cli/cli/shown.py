"""How a command shows its arguments in its usage line and help: one rendering of our own, the
same under every Typer that pyproject.toml allows.

Typer 0.29 draws an argument as ``{SHEET}...`` in the usage line and ``SHEET <list[str]>`` in
the help; Typer 0.28 as ``{SHEET}`` and ``SHEET`` (it shows a given metavar alone). The help and
usage errors stay as they were first shipped (Typer 0.29's form), whichever is installed.
Options are left to Typer: both draw them alike.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer.core

if TYPE_CHECKING:  # Typer's own Click, as its commands' methods take it
    from typer._click import Context, HelpFormatter


def argument_usage(argument: typer.core.TyperArgument) -> str:
    """``{SHEET}`` for a required argument, ``[SHEET]`` for an optional one; ``...`` after it
    when it takes many values."""
    name = argument.metavar or argument.name or ""
    shown = f"{{{name}}}" if argument.required else f"[{name}]"
    return shown + ("..." if argument.nargs != 1 else "")


def argument_row(argument: typer.core.TyperArgument) -> tuple[str, str]:
    """The argument's line of the help's Arguments section: its name and the kind of value
    (``<str>``, or ``<list[str]>`` for many), then its help and ``[required]``. Every
    argument of ours is text, and none has a default to show."""
    kind = "list[str]" if argument.nargs != 1 else "str"
    name = f"{argument.metavar or argument.name} <{kind}>"
    help = argument.help or ""
    if argument.required:
        help = f"{help}  [required]" if help else "[required]"
    return name, help


class ShownCommand(typer.core.TyperCommand):
    """A command whose usage line and help show its arguments as :func:`argument_usage` and
    :func:`argument_row` do."""

    def collect_usage_pieces(self, ctx: Context) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if isinstance(param, typer.core.TyperArgument):
                pieces.append(argument_usage(param))
            else:
                pieces.extend(param.get_usage_pieces(ctx))
        return pieces

    def format_options(self, ctx: Context, formatter: HelpFormatter) -> None:
        arguments, options = [], []
        for param in self.get_params(ctx):
            if getattr(param, "hidden", False):  # Typer's arguments and Click's options have it
                continue
            if isinstance(param, typer.core.TyperArgument):
                arguments.append(argument_row(param))
            elif (row := param.get_help_record(ctx)) is not None:
                options.append(row)
        if arguments:
            with formatter.section("Arguments"):
                formatter.write_dl(arguments)
        if options:
            with formatter.section("Options"):
                formatter.write_dl(options)
