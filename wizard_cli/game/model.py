"""What a sheet says, as read: players, settings as written, and each round's bids and tricks.

Values are kept as read (an ``int``, ``None`` for "not there", or a :class:`BadValue` for text
that is no whole number) with the line each stands on, so validation can judge and place them.
"""

from __future__ import annotations

import functools
import itertools
import operator
from dataclasses import dataclass, field
from typing import Iterator, NamedTuple, Sequence, Union, overload

from ..errors import Problem
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


class RoundColumns(Sequence[RoundRecord]):
    """Every round of a regular sheet, all complete, kept as flat columns (round after round, in
    seating order); the RoundRecords are made only if something asks for them.

    Validation and scoring read the columns directly: a season archive of a million rows would
    otherwise make a quarter of a million RoundRecords just to read their values back.
    """

    __slots__ = ("players", "bids", "tricks", "points", "lines", "_records")

    def __init__(self, players: int, bids: list[Value], tricks: list[Value],
                 points: list[Value] | None, lines: Sequence[int]) -> None:
        self.players = players
        self.bids = bids
        self.tricks = tricks
        self.points = points  # the user's own typed scores, if the sheet has them
        self.lines = lines  # each value's line
        self._records: list[RoundRecord] | None = None

    def records(self) -> list[RoundRecord]:
        """The rounds as RoundRecords (made once)."""
        if self._records is None:
            count = self.players
            each = lambda values: map(list, by_round(values, count))  # noqa: E731
            self._records = list(map(RoundRecord, range(1, len(self) + 1), self.lines[::count],
                                     each(self.bids), each(self.lines),
                                     each(self.tricks), each(self.lines)))
            if self.points is not None:
                for record, points, lines in zip(self._records, each(self.points),
                                                 each(self.lines)):
                    record.points, record.point_lines = points, lines
        return self._records

    def __len__(self) -> int:
        return len(self.bids) // self.players

    @overload
    def __getitem__(self, index: int) -> RoundRecord: ...

    @overload
    def __getitem__(self, index: slice) -> list[RoundRecord]: ...

    def __getitem__(self, index: int | slice) -> RoundRecord | list[RoundRecord]:
        return self.records()[index]

    def __iter__(self) -> Iterator[RoundRecord]:
        return iter(self.records())

    def __eq__(self, other: object) -> bool:
        """Equal to the same rounds, whether kept as columns or as a list of RoundRecords."""
        if isinstance(other, (RoundColumns, list)):
            return self.records() == list(other)
        return NotImplemented

    def __repr__(self) -> str:
        return repr(self.records())


@dataclass(slots=True)
class Sheet:
    """One game as read from a file (one document of a YAML stream, one game of a CSV)."""

    source: str
    game: str | int | None = None
    title: str | None = None
    date: str | None = None  # ISO YYYY-MM-DD once read (SPEC §3); a bad one is a reading problem
    date_line: int | None = None
    place: str | None = None
    notes: str | None = None
    players: list[str] = field(default_factory=list)
    player_lines: list[int | None] = field(default_factory=list)
    players_line: int | None = None  # where `players:` stands (YAML), for problems with the list
    first_dealer: str | None = None
    first_dealer_line: int | None = None
    settings: list[RawSetting] = field(default_factory=list)
    rounds: list[RoundRecord] | RoundColumns = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)  # found while reading
    line: int | None = None
    kind: str = "yaml"  # "yaml", "csv" (long) or "wide-csv": how it was written

    def problem(self, message: str, line: int | None = None, round: int | None = None,
                player: str | None = None) -> None:
        """Record a problem found while reading, located in this sheet's file."""
        self.problems.append(Problem(message, self.source, line, round, player))


# --- the layout: a flat column holds round after round, each round in seating order ---------
# These are the only functions that know it; everything else reads columns through them.

def by_round(flat: Sequence, count: int) -> Iterator[tuple]:
    """Each round's values from a flat column of ``count`` players (round after round)."""
    return zip(*[iter(flat)] * count)


def round_of(flat: Sequence, index: int, count: int) -> Sequence:
    """Round ``index``'s values (0-based) from a flat column of ``count`` players."""
    return flat[index * count:(index + 1) * count]


def by_seat(flat: Sequence, count: int) -> Iterator[Sequence]:
    """Each seat's values from a flat column (round after round, in seating order)."""
    return map(flat.__getitem__, _seat_slices(count))


@functools.lru_cache(maxsize=8)
def _seat_slices(count: int) -> tuple[slice, ...]:
    """Where each of ``count`` seats' values stand in a flat column."""
    return tuple(slice(seat, None, count) for seat in range(count))


def cell_sizes(sizes: tuple[int, ...], count: int) -> tuple[int, ...]:
    """Each cell's hand size, for columns of ``count`` players."""
    return tuple(size for size in sizes for _ in range(count))


_BIDS = operator.attrgetter("bids")
_TRICKS = operator.attrgetter("tricks")


def value_columns(rounds: Sequence[RoundRecord]) -> tuple[list[Value], list[Value]] | None:
    """Every round's bids and its tricks, flat (round after round, in seating order); None if a
    round has no tricks recorded (a round in play)."""
    if isinstance(rounds, RoundColumns):
        return rounds.bids, rounds.tricks
    tricks = list(map(_TRICKS, rounds))
    if None in tricks:
        return None
    return (list(itertools.chain.from_iterable(map(_BIDS, rounds))),
            list(itertools.chain.from_iterable(tricks)))
