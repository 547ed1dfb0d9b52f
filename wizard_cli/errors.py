"""The one domain error type, and the located problem it carries.

Core modules never print: they raise :class:`WizardError` (or return a list of
:class:`Problem`), and the CLI edge turns that into stderr lines and exit code 1.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum

# A name or value with a line break, NUL, escape or other control character in it would split a
# problem's one line or garble the terminal: such characters are shown escaped (\n, \x1b), and
# so are the bidirectional overrides that reorder what a terminal shows (SPEC §8).
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _escape(match: re.Match) -> str:
    """A control character as a visible escape."""
    return match.group().encode("unicode_escape").decode("ascii")


def visible(text: str) -> str:
    """Text from a sheet as a terminal may show it: every control character escaped (SPEC §8)."""
    return _CONTROL.sub(_escape, text) if _CONTROL.search(text) else text


ELLIPSIS = "…"


def shorten(text: str, width: int, *, fit: bool = False) -> str:
    """Text cut short for a message, an echo or a label, so that a 50 MB value makes no 50 MB
    line: text of at most ``width`` characters as it is; longer text cut to its first ``width``
    characters with "…" after them (the mark beyond the width: the reader sees all ``width``
    characters kept), or, with ``fit``, cut so that the mark too falls within ``width`` (a
    chart's label, where the width is the room there is)."""
    if len(text) <= width:
        return text
    return text[: width - 1] + ELLIPSIS if fit else text[:width] + ELLIPSIS


def game_label(source: str, game: object = None) -> str:
    """Where a result comes from: ``SOURCE``, or ``SOURCE, game N`` for a game of a season."""
    return source if game is None else f"{source}, game {game}"


def one_line(text: str) -> str:
    """Text for a one-line message: every run of whitespace and line breaks one space."""
    return " ".join(text.split())


class ExitCode(IntEnum):
    """The tool's exit statuses (SPEC §4), the one list of them."""

    OK = 0
    DATA = 1  # a sheet, a setting or a file is wrong (or the output could not be written)
    USAGE = 2  # the command line is wrong (Click's usage errors)
    INTERRUPTED = 130  # Ctrl-C
    PIPE_CLOSED = 141  # the reader of the output went away


def name_list(names: Sequence[str]) -> str:
    """'Anna', 'Anna and Ben', 'Anna, Ben and Cara': names in a message or a status line (as a
    terminal may show them: SPEC §8)."""
    names = [visible(name) for name in names]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with an input, with where it stands (every part optional): the source
    it was read from (``path``, also named ``source``; a workbook's worksheet as
    ``PATH[WORKSHEET]``), the game of a season it is in (``game``, set where the game is known),
    the line, round and player."""

    message: str
    path: str | None = None
    line: int | None = None
    round: int | None = None
    player: str | None = None
    game: str | int | None = None

    @property
    def source(self) -> str | None:
        """Where the problem was read from (the library's name for ``path``, SPEC §10)."""
        return self.path

    def as_json(self) -> dict[str, object]:
        """The problem as ``check --format json`` (and serve's JSON) gives it: where and what."""
        return {
            "line": self.line,
            "round": self.round,
            "player": self.player,
            "message": self.message,
        }

    def __str__(self) -> str:
        """Render as ``PATH:LINE: game G, round R, PLAYER: message``, leaving out missing parts
        (the game is named where a line does not tell it: another app's export, SPEC §3)."""
        where = ":".join(str(part) for part in (self.path, self.line) if part is not None)
        what = ", ".join(
            part
            for part in (
                f"game {self.game}" if self.game is not None else None,
                f"round {self.round}" if self.round is not None else None,
                self.player,
            )
            if part is not None
        )
        prefix = "".join(f"{part}: " for part in (where, what) if part)
        return visible(prefix + self.message)


class WizardError(Exception):
    """A domain error: bad input, bad settings, a file that may not be written.

    Carries one or more located problems; ``str()`` gives them one per line.
    """

    def __init__(self, *problems: Problem | str) -> None:
        self.problems: list[Problem] = [
            p if isinstance(p, Problem) else Problem(p) for p in problems
        ]
        super().__init__("\n".join(str(p) for p in self.problems))


class UsageError(Exception):
    """The command's shape is wrong (a missing file, an unknown encoding): exit 2 with the usage.

    Raised below the CLI, which turns it into Click's own usage error for ``param_hint``.
    """

    def __init__(self, message: str, param_hint: str | None = None) -> None:
        self.message = message
        self.param_hint = param_hint
        super().__init__(message)
