"""What a sheet says, as read: players, settings as written, and each round's bids and tricks.

Values are kept as read (an ``int``, ``None`` for "not there", or a :class:`BadValue` for text
that is no whole number) with the line each stands on, so validation can judge and place them.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import operator
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import NamedTuple, TypeGuard, TypeVar, overload

from ..errors import Problem
from .seating import MAX_LISTED, Seating
from .settings import DECK_SIZE, MIN_PLAYERS, RawSetting

# A game has at most 6 players and 20 rounds (3 players, 60 cards). A file claiming more is
# read only as far as one more of each (so validation reports it) and the rest is counted,
# not built: memory stays bounded whatever the file claims (SPEC §4).
_T = TypeVar("_T")

PLAYERS_KEPT = MAX_LISTED + 1  # up to 12 listed with seating changes (SPEC §1)
ROUNDS_KEPT = DECK_SIZE // MIN_PLAYERS + 1


class SheetFormat(str, Enum):
    """The sheet file formats, the one list of their names (``--to``, ``--input-format``, how a
    sheet was written); each is read, written and detected as :mod:`wizard_cli.sheets.formats`
    registers it."""

    YAML = "yaml"
    JSON = "json"
    CSV = "csv"  # long: a row per player and round
    WIDE_CSV = "wide-csv"  # a row per round
    KEEPWIZ = "keepwiz"  # another app's export, read only (SPEC §3 "Other apps' exports")
    ESCALIER = "escalier"

    def __str__(self) -> str:
        return self.value


class Truncated(list):
    """A list of players or rounds read only in part: ``claimed`` is how many the file has
    (at least, unless ``exact``)."""

    claimed: int = 0
    exact: bool = True

    def __init__(self, kept=(), claimed: int = 0, exact: bool = True) -> None:
        super().__init__(kept)
        self.claimed, self.exact = claimed, exact


class BadValue(NamedTuple):
    """A cell that is not a whole number, kept as text for the message.

    ``why`` replaces the usual "is not a whole number"; a ``quiet`` one was already reported
    through its twin (a date-mangled wide cell holds both the bid and the tricks).
    """

    text: str
    why: str | None = None
    quiet: bool = False


Value = int | None | BadValue
# A round's special cards and their lines: (bomb, bomb line, cloud as (seat, change), cloud line).
Specials = tuple[bool, int | None, tuple[int, int] | None, int | None]


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
    # The anniversary cards (SPEC §1): the Bomb, and the Cloud as (seat, change of ±1).
    bomb: bool = False
    bomb_line: int | None = None
    cloud: tuple[int, int] | None = None
    cloud_line: int | None = None


class RoundColumns(Sequence[RoundRecord]):
    """A game's rounds, the one shape every reader fills: each value in a flat column (round after
    round, in seating order) with the line it stands on, and what each round has recorded.

    Validation and scoring read the columns; a :class:`RoundRecord` per round is a view, made
    only when something asks for that round (a season of a million rows would otherwise make a
    quarter of a million records just to read their values back). A reader appends a round at
    a time (:meth:`append`), or hands over whole columns of complete rounds at once.
    """

    __slots__ = (
        "players",
        "bids",
        "tricks",
        "points",
        "bid_lines",
        "trick_lines",
        "point_lines",
        "round_lines",
        "tricks_lines",
        "has_tricks",
        "has_points",
        "seating",
        "specials",
    )

    def __init__(
        self,
        players: int = 0,
        bids: list[Value] | None = None,
        tricks: list[Value] | None = None,
        points: list[Value] | None = None,
        lines: Sequence[int | None] = (),
    ) -> None:
        """Complete rounds of ``players`` seats as columns; ``lines`` gives each value's line
        (a CSV row holds a player's bid, tricks and points on one line)."""
        self.players = players
        self.seating: Seating | None = None  # the sheet's (Sheet.seating)
        self.bids: list[Value] = bids if bids is not None else []
        self.tricks: list[Value] = tricks if tricks is not None else []
        self.points = points  # the user's own typed scores (audited by `check`), if any
        self.bid_lines = self.trick_lines = lines  # one sequence for both until rounds are added
        self.point_lines = lines if points is not None else None
        rounds = len(self.bids) // players if players else 0
        self.round_lines: list[int | None] = list(lines[::players]) if players else []
        self.tricks_lines: list[int | None] = [None] * rounds  # where `tricks:` stands (YAML)
        self.has_tricks: list[bool] = [True] * rounds
        # None: no round has typed points; else which rounds have them
        self.has_points: list[bool] | None = [True] * rounds if points is not None else None
        # None while no round records a special card; else each round's (bomb, bomb line,
        # cloud, cloud line), so a game without them costs nothing more (SPEC §1).
        self.specials: list[Specials] | None = None
        assert len(self.round_lines) == rounds

    @classmethod
    def of(cls, records: Iterable[RoundRecord]) -> RoundColumns:
        """The columns of rounds given one by one."""
        columns = cls()
        for record in records:
            columns.append(record)
        return columns

    def append(self, record: RoundRecord) -> None:
        """Add the next round (its values are copied into the columns)."""
        count = len(record.bids)
        if not self.round_lines:
            self.players = count
            self.bids, self.tricks, self.bid_lines, self.trick_lines = [], [], [], []
        elif count != self.players:
            raise ValueError(f"a round of {count} values in a game of {self.players} players")
        if (
            self.bid_lines is self.trick_lines
            or not isinstance(self.bid_lines, list)
            or not isinstance(self.trick_lines, list)
        ):
            self.bid_lines, self.trick_lines = list(self.bid_lines), list(self.trick_lines)
        index = len(self.round_lines)
        self.round_lines.append(record.line)
        self.bids += record.bids
        self.bid_lines += record.bid_lines
        self.tricks += record.tricks if record.tricks is not None else [None] * count
        self.trick_lines += record.trick_lines if record.trick_lines is not None else [None] * count
        self.tricks_lines.append(record.tricks_line)
        self.has_tricks.append(record.tricks is not None)
        if record.points is not None and self.points is None:  # the first round with points
            self.points, self.point_lines = [None] * (index * count), [None] * (index * count)
            self.has_points = [False] * index
        if self.points is not None:
            # (points, point_lines and has_points are set together, in __init__ and above)
            assert self.point_lines is not None and self.has_points is not None
            if not isinstance(self.point_lines, list):
                self.point_lines = list(self.point_lines)
            self.points += record.points if record.points is not None else [None] * count
            self.point_lines += record.point_lines or [None] * count
            self.has_points.append(record.points is not None)
        if (record.bomb or record.cloud is not None) and self.specials is None:
            self.specials = [(False, None, None, None)] * index
        if self.specials is not None:
            self.specials.append((record.bomb, record.bomb_line, record.cloud, record.cloud_line))

    @property
    def bombs(self) -> list[bool] | None:
        """Each round's Bomb, or None when no round records a special card."""
        return None if self.specials is None else [special[0] for special in self.specials]

    @property
    def clouds(self) -> list[tuple[int, int] | None] | None:
        """Each round's Cloud as (seat, change), or None when no round records a special card."""
        return None if self.specials is None else [special[2] for special in self.specials]

    @property
    def complete(self) -> bool:
        """Every round has its tricks recorded."""
        return all(self.has_tricks)

    def value_columns(self, rounds: int | None = None) -> tuple[list[Value], list[Value]] | None:
        """The bids and tricks of the first ``rounds`` rounds (all by default), flat; None if
        one of them has no tricks recorded."""
        count = len(self.round_lines) if rounds is None else rounds
        if not all(self.has_tricks[:count]):
            return None
        if count == len(self.round_lines):
            return self.bids, self.tricks
        return self.bids[: count * self.players], self.tricks[: count * self.players]

    def records(self) -> list[RoundRecord]:
        """The rounds as RoundRecords (a view: changing one changes no column)."""
        return list(map(self._record, range(len(self.round_lines))))

    def _record(self, index: int) -> RoundRecord:
        """Round ``index`` (0-based) as a RoundRecord."""
        count = self.players
        cut = slice(index * count, (index + 1) * count)
        record = RoundRecord(
            index + 1, self.round_lines[index], self.bids[cut], list(self.bid_lines[cut])
        )
        if self.has_tricks[index]:
            record.tricks, record.trick_lines = self.tricks[cut], list(self.trick_lines[cut])
            record.tricks_line = self.tricks_lines[index]
        if self.has_points is not None and self.has_points[index]:
            assert self.points is not None and self.point_lines is not None  # set together
            record.points, record.point_lines = self.points[cut], list(self.point_lines[cut])
        if self.specials is not None:
            record.bomb, record.bomb_line, record.cloud, record.cloud_line = self.specials[index]
        return record

    def __len__(self) -> int:
        return len(self.round_lines)

    @overload
    def __getitem__(self, index: int) -> RoundRecord: ...

    @overload
    def __getitem__(self, index: slice) -> RoundColumns: ...

    def __getitem__(self, index: int | slice) -> RoundRecord | RoundColumns:
        if isinstance(index, slice):
            return RoundColumns.of(map(self._record, range(len(self.round_lines))[index]))
        return self._record(range(len(self.round_lines))[index])  # IndexError past the end

    def __iter__(self) -> Iterator[RoundRecord]:
        return map(self._record, range(len(self.round_lines)))

    def __eq__(self, other: object) -> bool:
        """Equal to the same rounds, as columns or as a list of RoundRecords."""
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
    rounds: RoundColumns = field(default_factory=RoundColumns)
    problems: list[Problem] = field(default_factory=list)  # found while reading
    line: int | None = None
    kind: SheetFormat = SheetFormat.YAML  # how it was written (a JSON sheet reads as YAML)
    location: str | None = None  # how messages name the source, if not by it: `PATH[WORKSHEET]`
    problems_dropped: int = 0  # found past MAX_READ_PROBLEMS: counted, not kept

    @property
    def seating(self) -> Seating | None:
        """Who sits when (SPEC §1): joins, leaves, start scores, a round's out and dealer; None
        for a sheet that records none. Held by the rounds' columns, which a season's games
        share with their copies, so a Sheet stays as small as it was (flat memory, SPEC §4)."""
        return self.rounds.seating

    @seating.setter
    def seating(self, seating: Seating | None) -> None:
        self.rounds.seating = seating

    @property
    def where(self) -> str:
        """The source as messages name it (SPEC §3: a workbook's worksheet is `PATH[WORKSHEET]`)."""
        return self.location or self.source

    def __post_init__(self) -> None:
        if not isinstance(self.rounds, RoundColumns):  # rounds given one by one (tests, edits)
            self.rounds = RoundColumns.of(self.rounds)

    def imply_special_cards(self, line: int | None) -> None:
        """A Bomb or a Cloud recorded in a CSV game means ``specialCards: true`` unless a
        setting says otherwise (SPEC §3): the lowest layer of the game's settings."""
        if not any(raw.key == "specialCards" for raw in self.settings):
            self.settings.insert(0, RawSetting("specialCards", True, self.where, line))

    def problem(
        self,
        message: str,
        line: int | None = None,
        round: int | None = None,
        player: str | None = None,
    ) -> None:
        """Record a problem found while reading, located in this sheet's file (past
        MAX_READ_PROBLEMS only counted: a file of a million bad rows stays bounded, SPEC §4)."""
        if len(self.problems) < MAX_READ_PROBLEMS:
            self.problems.append(Problem(message, self.where, line, round, player))
        else:
            self.problems_dropped += 1


class HoldsSheet:
    """A record of one sheet, which it holds as ``sheet`` (a checked sheet, a Game): where the
    sheet came from and its game id, said once for every such record."""

    __slots__ = ()
    sheet: Sheet

    @property
    def source(self) -> str:
        """Where the sheet was read from."""
        return self.sheet.source

    @property
    def game(self) -> str | int | None:
        """The sheet's game id in a season (None for a lone sheet)."""
        return self.sheet.game


MAX_READ_PROBLEMS = 1000


RUN_FIRST_DEALER = 0  # a run's games are dealt first by seat 0 (no --first-dealer, no column)


@dataclass(slots=True, eq=False)
class GameRun:
    """Whole games of a long CSV side by side, as columns (the season lane, issue 20).

    Consecutive games of one block of the file, each of ``players`` players and ``rounds``
    rounds, every round listing every player in the seating order of round 1, every bid and
    trick a plain number (or a player sitting a middle round out: ``outs``), no other column read but the anniversary cards' (no date, no
    points), and no problem found in reading them. Their rows stand on consecutive lines from ``first_line``; ``bids`` and
    ``tricks`` run game after game, each game's as :class:`RoundColumns` holds them. Only the
    season lane asks for runs; :meth:`sheet` is a game exactly as the general reader reads it.
    """

    source: str
    players: int
    rounds: int
    first_line: int
    ids: list[str] = field(default_factory=list)
    tables: list[tuple[str, ...]] = field(default_factory=list)  # each game's players
    bids: list[int] = field(default_factory=list)
    tricks: list[int] = field(default_factory=list)
    # The anniversary cards (SPEC §1, §3), few in a season, so kept by where they stand: each
    # Bomb as the cell (index into ``bids``) of the first row marking it, one per round at most;
    # each Cloud as (its player's cell, its change of ±1), one per round at most. Ascending.
    bombs: list[int] = field(default_factory=list)
    clouds: list[tuple[int, int]] = field(default_factory=list)
    # The cells of players sitting a round out (an ``out`` row, SPEC §1, §3), ascending: never
    # in a game's first or last round (that is joining or leaving, read the general way), at
    # most all but 3 of a round's players. Their bid and tricks stand in ``bids`` and
    # ``tricks`` as 0 and 0, which add nothing to a round's sums; their points are none.
    outs: list[int] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.ids)

    def seated_games(self) -> list[int]:
        """The games (indices, ascending) in which someone sits a round out."""
        size = self.players * self.rounds
        return sorted({cell // size for cell in self.outs})

    def pieces(self) -> Iterator[GameRun]:
        """The run cut where a game with someone sitting a round out begins or ends: each
        piece's games either all have one or none has (for output that draws no seating)."""
        seated = set(self.seated_games())
        start = 0
        for index in range(1, len(self.ids) + 1):
            if index == len(self.ids) or (index in seated) != (start in seated):
                yield self._piece(start, index)
                start = index

    def _piece(self, start: int, stop: int) -> GameRun:
        """Games ``start:stop`` as a run of their own."""
        size = self.players * self.rounds
        first, last = start * size, stop * size
        piece = GameRun(self.source, self.players, self.rounds, self.first_line + first)
        piece.ids, piece.tables = self.ids[start:stop], self.tables[start:stop]
        piece.bids, piece.tricks = self.bids[first:last], self.tricks[first:last]
        bombs, outs, clouds = self.bombs, self.outs, self.clouds  # (ascending: cut, not scanned)
        piece.bombs = [
            cell - first
            for cell in bombs[bisect.bisect_left(bombs, first) : bisect.bisect_left(bombs, last)]
        ]
        piece.outs = [
            cell - first
            for cell in outs[bisect.bisect_left(outs, first) : bisect.bisect_left(outs, last)]
        ]
        piece.clouds = [
            (cell - first, change)
            for cell, change in clouds[
                bisect.bisect_left(clouds, (first,)) : bisect.bisect_left(clouds, (last,))
            ]
        ]
        return piece

    def marked_games(self) -> list[bool] | None:
        """Whether each game records a Bomb or a Cloud (so has ``specialCards: true`` unless a
        setting says otherwise, SPEC §3); None when no game does."""
        if not self.bombs and not self.clouds:
            return None
        size = self.players * self.rounds
        marked = [False] * len(self.ids)
        for cell in itertools.chain(self.bombs, map(operator.itemgetter(0), self.clouds)):
            marked[cell // size] = True
        return marked

    def sheet(self, index: int) -> Sheet:
        """Game ``index`` of the run as its own sheet."""
        size = self.players * self.rounds
        start = index * size
        lines = list(range(self.first_line + start, self.first_line + start + size))
        sheet = Sheet(
            source=self.source,
            game=self.ids[index],
            line=lines[0],
            kind=SheetFormat.CSV,
            players=list(self.tables[index]),
            player_lines=[None] * self.players,
        )
        # (copies that can hold None: a seat out of a round has no bid nor tricks)
        bids: list[Value] = list(self.bids[start : start + size])
        tricks: list[Value] = list(self.tricks[start : start + size])
        outs = self.outs[
            bisect.bisect_left(self.outs, start) : bisect.bisect_left(self.outs, start + size)
        ]
        for cell in outs:
            bids[cell - start] = tricks[cell - start] = None
        sheet.rounds = RoundColumns(self.players, bids, tricks, None, lines)
        if self.bombs or self.clouds:
            self._place_specials(sheet, start, start + size)
        if outs:
            sheet.seating = self._seating([cell - start for cell in outs], lines)
        return sheet

    def _seating(self, outs: list[int], lines: list[int]) -> Seating:
        """A game's seating from its ``out`` cells (from its first), as the long reader makes
        it (sheets/csv/long_seating.py): each round's seats out, the round's line the first
        ``out`` row's, each such player's entry line their first ``out`` row's."""
        count = self.players
        seating = Seating.plain(count)
        out: dict[int, set[int]] = {}
        for cell in outs:  # (ascending: a round's lowest seat first)
            number, seat = cell // count + 1, cell % count
            out.setdefault(number, set()).add(seat)
            seating.out_lines.setdefault(number, lines[cell])
            if seating.entry_lines[seat] is None:
                seating.entry_lines[seat] = lines[cell]
        seating.out = {number: frozenset(seats) for number, seats in out.items()}
        return seating

    def _place_specials(self, sheet: Sheet, start: int, stop: int) -> None:
        """The Bombs and Clouds of cells ``start:stop`` (one game) into its sheet, as the
        general reader places them (SPEC §3: recording one means ``specialCards: true``)."""
        count, first_line = self.players, self.first_line
        found: dict[int, list] = {}
        for cell in self.bombs[
            bisect.bisect_left(self.bombs, start) : bisect.bisect_left(self.bombs, stop)
        ]:
            found[(cell - start) // count] = [True, first_line + cell, None, None]
        for cell, change in self.clouds[
            bisect.bisect_left(self.clouds, (start,)) : bisect.bisect_left(self.clouds, (stop,))
        ]:
            special = found.setdefault((cell - start) // count, [False, None, None, None])
            special[2], special[3] = ((cell - start) % count, change), first_line + cell
        if not found:
            return
        specials: list[Specials] = [(False, None, None, None)] * self.rounds
        for number, special in found.items():
            specials[number] = (special[0], special[1], special[2], special[3])
        sheet.rounds.specials = specials
        first = specials[min(found)]
        sheet.imply_special_cards(first[1] if first[0] else first[3])

    def sheets(self) -> Iterator[Sheet]:
        """Every game of the run as its own sheet, in file order."""
        return map(self.sheet, range(len(self.ids)))


# --- the layout: a flat column holds round after round, each round in seating order ---------
# These are the only functions that know it; everything else reads columns through them.


def by_round(flat: Sequence, count: int) -> Iterator[tuple]:
    """Each round's values from a flat column of ``count`` players (round after round)."""
    return zip(*[iter(flat)] * count)


def round_sums(flat: Sequence, count: int, cells: int | None = None) -> list:
    """Each round's sum from a flat column of ``count`` players (its first ``cells`` cells, all
    by default): a round's bids, or the tricks that must add up to its hand size. Seat columns
    added in C, no Python step per round (a season has a quarter of a million rounds)."""
    stop = len(flat) if cells is None else cells
    if not stop:
        return []
    seats: list[Iterable[int]] = [flat[seat:stop:count] for seat in range(count)]
    return list(functools.reduce(functools.partial(map, operator.add), seats))


def filled(values: list[_T | None]) -> TypeGuard[list[_T]]:
    """Whether no value is None (in a column: a seat not seated, SPEC §1, or a bid not in)."""
    return None not in values


def round_of(flat: Sequence, index: int, count: int) -> Sequence:
    """Round ``index``'s values (0-based) from a flat column of ``count`` players."""
    return flat[index * count : (index + 1) * count]


def by_seat(flat: Sequence, count: int) -> Iterator[Sequence]:
    """Each seat's values from a flat column (round after round, in seating order)."""
    return map(flat.__getitem__, _seat_slices(count))


@functools.lru_cache(maxsize=8)
def _seat_slices(count: int) -> tuple[slice, ...]:
    """Where each of ``count`` seats' values stand in a flat column."""
    return tuple(slice(seat, None, count) for seat in range(count))


@functools.lru_cache(maxsize=64)
def cell_sizes(sizes: tuple[int, ...], count: int) -> tuple[int, ...]:
    """Each cell's hand size, for columns of ``count`` players."""
    return tuple(size for size in sizes for _ in range(count))
