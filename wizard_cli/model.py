"""What a sheet says, as read: players, settings as written, and each round's bids and tricks.

Values are kept as read (an ``int``, ``None`` for "not there", or a :class:`BadValue` for text
that is no whole number) with the line each stands on, so validation can judge and place them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple, Union

from .errors import Problem
from .settings import RawSetting


class BadValue(NamedTuple):
    """A cell that is not a whole number, kept as text for the message.

    ``why`` replaces the usual "is not a whole number"; a ``quiet`` one was already reported
    through its twin (a date-mangled wide cell holds both the bid and the tricks).
    """

    text: str
    why: str | None = None
    quiet: bool = False


Value = Union[int, None, BadValue]


@dataclass(slots=True)
class RoundRecord:
    """One round as recorded; ``tricks`` is None for the round in play.

    Lists are in seating order; the ``*_lines`` lists give each value's line in the file.
    """

    number: int
    line: int | None
    bids: list[Value]
    bid_lines: list[int | None]
    tricks: list[Value] | None = None
    trick_lines: list[int | None] | None = None
    tricks_line: int | None = None  # where the round's tricks are written (YAML: `tricks:`)
    points: list[Value] | None = None  # the user's own typed scores (audited by `check`)
    point_lines: list[int | None] | None = None


@dataclass(slots=True)
class Sheet:
    """One game as read from a file (one document of a YAML stream, one game of a CSV)."""

    source: str
    game: str | int | None = None
    title: str | None = None
    players: list[str] = field(default_factory=list)
    player_lines: list[int | None] = field(default_factory=list)
    players_line: int | None = None  # where `players:` stands (YAML), for problems with the list
    first_dealer: str | None = None
    first_dealer_line: int | None = None
    settings: list[RawSetting] = field(default_factory=list)
    rounds: list[RoundRecord] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)  # found while reading
    line: int | None = None
    kind: str = "yaml"  # "yaml", "csv" (long) or "wide-csv": how it was written

    def problem(self, message: str, line: int | None = None, round: int | None = None,
                player: str | None = None) -> None:
        """Record a problem found while reading, located in this sheet's file."""
        self.problems.append(Problem(message, self.source, line, round, player))
