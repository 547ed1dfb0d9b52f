"""The season lane's part of reading a long CSV (issue 20): which games of a plain block come
as one :class:`~wizard_cli.game.model.GameRun` instead of a sheet each.

A game joins a run when it is regular (every round lists every player in round 1's seating
order, rounds 1..N in plain digits, plain distinct names), its id plain and new, its bids and
tricks plain numbers but for players sitting a middle round out (``out`` and an empty tricks
cell, at least 3 seated), its Bombs and Clouds (if the file has the columns) one of each a
round at most, each cell a mark or a change, none on an ``out`` row, and the rows after it
start another game: then it reads exactly as the general reader would read it and has nothing
to say. Games of one shape are judged many at
once, column by column; the long reader (sheets/csv/long.py) hands every other game the general way.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import operator
from typing import Any

from ...game.model import ROUNDS_KEPT, GameRun
from ...game.settings import MAX_PLAYERS, MIN_PLAYERS
from ..cells import PLAIN_NUMBERS
from .rows import BlockColumns
from .seating import OUT_WORDS
from .specials import special_cells

# More rows than any game has (6 players × 20 rounds): a game's rows are kept until it ends only
# up to this many, so memory stays flat whatever the file; the rest are placed as they come.
MOST_ROWS = 1000
NO_SPECIALS: tuple[list[int], list[tuple[int, int]]] = ([], [])  # (never changed)
# A player sitting a round out (SPEC §3): ``out`` (``aus``) in the bid cell as is_out reads it
# but for spaces around it, the tricks cell empty; looked up as OUT, a value no cell has.
OUT = -1
BID_CELLS = {
    **PLAIN_NUMBERS,
    **{form: OUT for word in OUT_WORDS for form in (word, word.capitalize(), word.upper())},
}
TRICK_CELLS = {**PLAIN_NUMBERS, "": OUT}


class RunLane:
    """Which games wholly inside one plain block join a :class:`GameRun` (the season lane): a
    regular game (see :meth:`_LongGame._place_regular`) of plain ids, names and numbers whose
    id is new, read exactly as the general reader would read it, with nothing to say."""

    def __init__(self, games: Any, columns: BlockColumns, lines: range) -> None:
        layout = games.layout
        self.games, self.columns, self.first_line = games, columns, lines[0]
        self.numbers = columns[layout.round_col]
        self.names = columns[layout.player_col]
        # the whole block's, if all plain (or ``out`` rows), and where the ``out`` rows stand
        self.bids = looked_up(columns[layout.bid_col], BID_CELLS)
        self.tricks = looked_up(columns[layout.tricks_col], TRICK_CELLS)
        self.bid_outs, self.trick_outs = places_of(self.bids), places_of(self.tricks)
        self.bomb_cells = None if layout.bomb_col is None else columns[layout.bomb_col]
        self.cloud_cells = None if layout.cloud_col is None else columns[layout.cloud_col]

        self.singles_until = 0  # groups before this one are judged one by one (take)

    def take_many(self, groups: list[tuple[str, int, int]], index: int, last: int) -> int:
        """How many groups from ``index`` on join a run at once (0 if they do not all): the
        groups of one length after it, none the last, judged together, column by column."""
        if index < self.singles_until:
            return 0
        cell, start, stop = groups[index]
        length = stop - start
        end = index + 1
        while end < last and groups[end][2] - groups[end][1] == length:
            end += 1
        self.singles_until = end  # if they do not join at once, each is judged alone
        if end - index < 2:
            return 0
        cells = [group[0] for group in groups[index:end]]
        stop = groups[end - 1][2]
        numbers, names, games = self.numbers, self.names, self.games
        count = numbers[start : start + min(length, MAX_PLAYERS + 1)].count("1")
        if not MIN_PLAYERS <= count <= MAX_PLAYERS or length % count:
            return 0
        rounds, games_in = length // count, end - index
        following = groups[end][0].strip()
        if (
            rounds > ROUNDS_KEPT
            or not self._new(cells[0])
            or not following
            or following == cells[-1]
            or "" in cells
            or list(map(str.strip, cells)) != cells
            or len(set(cells)) != games_in
        ):
            return 0
        tables = list(zip(*[names[start + seat : stop : length] for seat in range(count)]))
        # Regular games (see regular_table): rounds 1..N, each listing round 1's players. The
        # span's cells compared as one text (no cell of a block's columns holds an LF).
        if "\n".join(numbers[start:stop]) != _span_labels_text(
            count, rounds, games_in
        ) or "\n".join(names[start:stop]) != _names_text(tables, rounds):
            return 0
        values = self._numbers(start, stop, count, length)
        specials = self._specials(start, stop, count)
        if (
            not all(map(plain_names, tables))
            or values is None
            or specials is None
            or self._in_hand() in cells
            or not games.finished.add_new(cells)
        ):  # (remembered only if all are new)
            return 0
        self._join(count, rounds, start, cells, tables, *values, specials)
        return games_in

    def take(self, groups: list[tuple[str, int, int]], index: int) -> int:
        """1 if the group at ``index`` (a game: game cells ``cell``, rows ``start:stop``) joins
        a run alone, else 0: it must be a new game, the rows after it another one."""
        cell, start, stop = groups[index]
        following = groups[index + 1][0].strip()
        if (
            not cell
            or cell != cell.strip()
            or not self._new(cell)
            or not following
            or following == cell
            or cell in self.games.finished
            or cell == self._in_hand()
        ):
            return 0
        table = regular_table(self.numbers, self.names, start, stop)
        if table is None:
            return 0
        values = self._numbers(start, stop, len(table), stop - start)
        specials = self._specials(start, stop, len(table)) if values is not None else None
        if values is None or specials is None:
            return 0
        self.games.finished.add(cell)
        self._join(
            len(table), (stop - start) // len(table), start, [cell], [table], *values, specials
        )
        return 1

    def _new(self, cell: str) -> bool:
        """Whether game cells ``cell`` start a game (not the one before, which they continue)."""
        games = self.games
        before = (
            games.pending.ids[-1]
            if games.pending is not None
            else games.game.sheet.game
            if games.game is not None
            else None
        )
        return cell != before

    def _in_hand(self) -> str | None:
        """The id of the game being read the general way, not yet among the finished ones
        (a run that repeats it must go the general way, which says where it continues)."""
        game = self.games.game
        return game.sheet.game if game is not None else None

    def _numbers(
        self, start: int, stop: int, count: int, length: int
    ) -> tuple[list[int], list[int], list[int]] | None:
        """The bids and tricks of rows ``start:stop`` (games of ``count`` players, ``length``
        rows each), if all are plain numbers but for players sitting a round out, and those
        players' rows (from ``start``): None when an ``out`` row is not one a run can hold."""
        if self.bids is not None and self.tricks is not None:
            bids, tricks = self.bids[start:stop], self.tricks[start:stop]
            outs = _between(self.bid_outs, start, stop)
            if outs != _between(self.trick_outs, start, stop):
                return None
            outs = [cell - start for cell in outs]
        else:
            layout = self.games.layout
            found_bids = looked_up(self.columns[layout.bid_col][start:stop], BID_CELLS)
            found_tricks = looked_up(self.columns[layout.tricks_col][start:stop], TRICK_CELLS)
            if found_bids is None or found_tricks is None:
                return None
            bids, tricks, outs = found_bids, found_tricks, places_of(found_bids)
            if outs != places_of(tricks):
                return None
        if outs and not self._sits_out(outs, start, count, length):
            return None
        for cell in outs:
            bids[cell] = tricks[cell] = 0
        return bids, tricks, outs

    def _sits_out(self, outs: list[int], start: int, count: int, length: int) -> bool:
        """Whether the ``out`` rows ``outs`` (from ``start``) are players sitting out a round
        a run can hold: not a game's first or last (joining, leaving), at least 3 seated in
        it, no Bomb or Cloud on the row (each said the general way)."""
        rounds = length // count
        per_round: dict[int, int] = {}
        for cell in outs:
            index = cell % length // count
            if not 0 < index < rounds - 1:
                return False
            key = cell // count
            per_round[key] = per_round.get(key, 0) + 1
            if per_round[key] > count - MIN_PLAYERS:
                return False
            for cells in (self.bomb_cells, self.cloud_cells):
                if cells is not None and cells[start + cell]:
                    return False
        return True

    def _specials(
        self, start: int, stop: int, count: int
    ) -> tuple[list[int], list[tuple[int, int]]] | None:
        """The Bombs and Clouds of rows ``start:stop`` (see :func:`special_cells`); none when
        the file has no such column; None when one must be read row by row, to say where."""
        if self.bomb_cells is None and self.cloud_cells is None:
            return NO_SPECIALS
        return special_cells(self.bomb_cells, self.cloud_cells, count, start, stop)

    def _join(
        self,
        players: int,
        rounds: int,
        start: int,
        ids: list[str],
        tables: list[tuple[str, ...]],
        bids: list[int],
        tricks: list[int],
        outs: list[int],
        specials: tuple[list[int], list[tuple[int, int]]],
    ) -> None:
        """Games from row ``start`` on join the run (a new one if their shape differs)."""
        games = self.games
        run = games.pending
        if run is None or (run.players, run.rounds) != (players, rounds):
            games.end_run()
            games.end_game()
            run = games.pending = GameRun(
                games.layout.source, players, rounds, self.first_line + start
            )
        marked, changed = specials
        offset = len(run.bids)
        if outs:
            run.outs += [offset + row for row in outs]
        if marked or changed:
            run.bombs += [offset + row for row in marked]
            run.clouds += [(offset + row, change) for row, change in changed]
        run.ids += ids
        run.tables += tables
        run.bids += bids
        run.tricks += tricks

    def may_carry(self, cell: str, rows: int) -> bool:
        """Whether the block's last group (game cells ``cell``, ``rows`` rows) is a new game
        that may wait for the next block's rows (a run may take it whole there)."""
        return bool(cell) and cell == cell.strip() and self._new(cell) and rows <= MOST_ROWS


@functools.lru_cache(maxsize=64)
def _span_labels_text(players: int, rounds: int, games: int) -> str:
    """The round column of ``games`` regular games one after another, its cells joined by LF."""
    return "\n".join(round_labels(players, rounds) * games)


def _names_text(tables: list[tuple[str, ...]], rounds: int) -> str:
    """The player column of regular games of these tables, ``rounds`` rounds each, its cells
    joined by LF."""
    return "".join(
        map(
            operator.mul,
            map(operator.add, map("\n".join, tables), itertools.repeat("\n")),
            itertools.repeat(rounds),
        )
    )[:-1]


def regular_table(
    numbers: list[str], names: list[str], start: int, stop: int
) -> tuple[str, ...] | None:
    """The players of rows ``start:stop`` when they are one regular game (every round lists
    every player in round 1's order, rounds 1..N in plain digits, plain distinct names, at most
    a game's players and rounds); else None."""
    count = numbers[start : min(stop, start + MAX_PLAYERS + 1)].count("1")
    if not MIN_PLAYERS <= count <= MAX_PLAYERS or (stop - start) % count:
        return None
    rounds = (stop - start) // count
    table = tuple(names[start : start + count])
    if (
        rounds > ROUNDS_KEPT
        or tuple(numbers[start:stop]) != round_labels(count, rounds)
        or names[start:stop] != list(table) * rounds
        or not plain_names(table)
    ):
        return None
    return table


def plain_numbers(cells: list[str]) -> list[int] | None:
    """Cells that are all plain numbers as those numbers (as whole_number reads them); else None."""
    return looked_up(cells, PLAIN_NUMBERS)


def looked_up(cells: list[str], table: dict[str, int]) -> list[int] | None:
    """Every cell's value in ``table``, or None if one has none. (One itemgetter looks them
    all up: no call per cell.)"""
    if len(cells) < 2:  # (itemgetter of one cell gives no tuple)
        numbers = list(map(table.get, cells))
        return None if None in numbers else numbers  # type: ignore[return-value]
    try:
        return list(operator.itemgetter(*cells)(table))
    except KeyError:
        return None


def places_of(values: list[int] | None) -> list[int]:
    """Where ``values`` holds OUT (ascending; none when ``values`` is None), found in C."""
    found: list[int] = []
    if values is None:
        return found
    at = -1
    try:
        while True:
            at = values.index(OUT, at + 1)
            found.append(at)
    except ValueError:
        return found


def _between(cells: list[int], start: int, stop: int) -> list[int]:
    """The ascending ``cells`` from ``start`` up to ``stop``."""
    return cells[bisect.bisect_left(cells, start) : bisect.bisect_left(cells, stop)]


@functools.lru_cache(maxsize=64)
def round_labels(players: int, rounds: int) -> tuple[str, ...]:
    """The round column of a regular game as written: '1' for each player, then '2', …"""
    return tuple(str(number) for number in range(1, rounds + 1) for _ in range(players))


@functools.lru_cache(maxsize=256)
def plain_names(players: tuple[str, ...]) -> bool:
    """Distinct names, none empty or with spaces around it: read as written (a season's tables
    are few, so each is judged once)."""
    return len(set(players)) == len(players) and all(
        name and name == name.strip() for name in players
    )
