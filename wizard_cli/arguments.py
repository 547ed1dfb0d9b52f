"""What the command line's arguments ask for, read before anything heavy is imported (by the
entry point, :mod:`~wizard_cli.launcher`, and by the command line picking its app)."""

from __future__ import annotations


def command_asked(args: list[str]) -> str | None:
    """The command the arguments name, when nothing before it is for the group itself
    (``--help``, ``--version``, completion): None otherwise."""
    for arg in args:
        if arg != "--debug":
            return None if arg.startswith("-") else arg
    return None
