"""Long CSV (``round,player,bid,tricks``; optional ``game``, ``date`` and ``points``, the special
cards, seating and rule columns; the header's names may be German, see cells.HEADER_NAMES),
read a game at a time, and written (:class:`LongCsvWriter`)."""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Literal, overload

from ...errors import Problem
from ...game.model import (
    PLAYERS_KEPT,
    ROUNDS_KEPT,
    BadValue,
    GameRun,
    RoundColumns,
    RoundRecord,
    Sheet,
    SheetFormat,
    Specials,
    Truncated,
    Value,
)
from ..cells import (
    PLAIN_NUMBERS,
    count_cell,
    is_blank,
    is_total,
    trim_trailing,
    whole_number,
)
from ..game_ids import GameIds
from ..writing import Portable, SheetWriter
from .long_dates import DateAbove, GameDate
from .long_seating import LongSeatCells
from .rows import BlockColumns, Chunks, cell_runs
from .rules import GERMAN, GameRules, rule_columns
from .runs import MOST_ROWS, RunLane, plain_names, round_labels
from .seating import is_out
from .specials import SpecialCells, bulk_specials, first_special_line, imply_special_cards

MOST_KEPT_TEXT = 1 << 20  # characters of a game's rows kept before they are placed as they come


class LongLayout:
    """Which column holds what, from a long CSV's header (names already lower case)."""

    def __init__(
        self,
        source: str,
        header: list[str],
        header_line: int,
        comma: bool,
        bulk: bool,
        runs: bool = False,
    ) -> None:
        self.source = source
        self.comma = comma  # a decimal comma is a decimal point (a file not delimited by ',')
        self.bulk = bulk  # whether a regular game may be placed in bulk (tests turn it off)
        self.width = len(header)
        self.header_line = header_line
        column = {name: i for i, name in reversed(list(enumerate(header)))}
        self.round_col = column.get("round")
        self.player_col = column["player"]
        self.bid_col = column["bid"]
        self.tricks_col = column.get("tricks", column.get("took"))
        self.game_col = column.get("game")
        self.points_col = column.get("points")
        self.date_col = column.get("date")
        self.bomb_col = column.get("bomb")  # the anniversary cards (SPEC §3), German Bombe
        self.cloud_col = column.get("cloud")  # German Wolke
        # Rules and seating (SPEC §3): a game's settings and metadata, a player's start score,
        # a round's dealer (German Geber)
        self.rules = rule_columns(header)
        self.start_col = column.get("startscore")
        self.dealer_col = column.get("dealer", column.get(next(iter(GERMAN))))
        self.problems = [
            Problem(f"the header has no '{name}' column", source, header_line)
            for name, col in (("round", self.round_col), ("tricks", self.tricks_col))
            if col is None
        ]
        # Whole regular games inside a block may come as one GameRun (the season lane): only
        # when asked, and only where a game's rows say nothing but rounds, names, bids, tricks.
        self.runs = (
            runs
            and bulk
            and not self.problems
            and self.game_col is not None
            and self.date_col is None
            and self.points_col is None
            and not self.rules
            and self.start_col is None
            and self.dealer_col is None
        )


def read_long_sheets(
    chunks: Chunks,
    header: list[str],
    header_line: int,
    source: str,
    comma: bool = False,
    bulk: bool = True,
    runs: bool = False,
) -> Iterator[Sheet | GameRun]:
    """A long CSV's rows (a block at a time) → one sheet per game, each handed out as soon as
    its rows end.

    Rows are grouped by their ``game`` cell (an empty one repeats the game above: merged
    cells); without a ``game`` column the file is one game. A row of totals is ignored.
    ``bulk=False`` places every row one by one (the general path, which a regular game's bulk
    placement must match exactly). ``runs=True`` (the season lane) hands out the regular games
    wholly inside a plain block as runs instead (:class:`~wizard_cli.game.model.GameRun`),
    each game of which reads as its sheet would.
    """
    games = _Games(LongLayout(source, header, header_line, comma, bulk, runs))
    col = games.layout.game_col
    for rows, lines in chunks:
        if type(rows) is BlockColumns:  # a plain block as columns (CsvRows.chunks: the lane)
            assert isinstance(lines, range)  # (CsvRows.chunks gives a plain block's lines so)
            games.columns(rows, lines)
            yield from games.done
            games.done.clear()
            continue
        games.end_carried()
        if col is None:
            games.each(rows, lines)
            continue
        try:
            game_cells = list(map(operator.itemgetter(col), rows))  # at C speed...
        except IndexError:  # ...unless a row is too short to have a game cell (a blank line)
            game_cells = [row[col] if col < len(row) else "" for row in rows]
        start = 0
        for cell, run in itertools.groupby(game_cells):
            stop = start + len(list(run))
            games.run(cell.strip(), rows[start:stop], lines[start:stop])
            start = stop
        yield from games.done
        games.done.clear()
    games.end_carried()
    yield from games.done
    yield games.finished_sheet(games.game or _LongGame(games.layout, None, header_line))


class _Games:
    """The game being read and the games before it, as runs of rows with one game cell come."""

    def __init__(self, layout: LongLayout) -> None:
        self.layout = layout
        self.game: _LongGame | None = None
        self.finished = GameIds()  # every game id before this one, 8 bytes each
        self.done: list[
            Sheet | GameRun
        ] = []  # games ended by the rows taken so far, not yet handed out
        self.pending: GameRun | None = None  # the run being gathered (the season lane)
        # A block's last game, held for the next block's rows (the season lane): its columns, lines
        self.carried: tuple[BlockColumns, range] | None = None
        self.date_above = DateAbove()  # for a game whose date cells are empty (merged cells)

    def run(self, game_id: str, rows: Sequence[list[str]], lines: Sequence[int]) -> None:
        """Rows whose game cells read ``game_id`` (stripped; empty: the game above)."""
        game = self.game
        if game is not None and (not game_id or game_id == game.sheet.game):
            game.take(rows, lines)
        elif game_id:
            self._start(game_id, lines[0]).take(rows, lines)
        else:  # no game yet: the first row that is not blank starts one, with no id
            self.each(rows, lines)

    def columns(self, columns: BlockColumns, lines: range) -> None:
        """A plain block's rows as columns, every row as wide as the header: each run of one
        game cell handed to its game as column slices (rows are made only where a game is not
        regular). Without a game column the block is the file's one game."""
        col = self.layout.game_col
        if col is None:
            if self.game is None:
                self.each(columns.rows(), lines)  # starts the file's game where rows begin
            else:
                self.game.take_columns(columns, lines)
            return
        carried, self.carried = self.carried, None
        if carried is not None:  # the last game of the block before begins this one
            columns = BlockColumns(map(operator.add, carried[0], columns))
            lines = range(carried[1].start, lines.stop)
        groups = cell_runs(columns[col])
        lane = RunLane(self, columns, lines) if self.layout.runs else None
        first = 0 if carried is not None else 1  # the first group whose game begins here
        index, last = 0, len(groups) - 1
        while index <= last:
            cell, start, stop = groups[index]
            # A game wholly in the block (begun here, another after it) may join a run; the
            # last one begun here may wait for the next block's rows.
            if lane is not None and first <= index < last:
                taken = lane.take_many(groups, index, last) or lane.take(groups, index)
                if taken:
                    index += taken
                    continue
            index += 1
            self.end_run()
            if lane is not None and index > last >= first and lane.may_carry(cell, stop - start):
                self.carried = (
                    BlockColumns(column[start:stop] for column in columns),
                    lines[start:stop],
                )
                break
            self._general(
                cell, BlockColumns(column[start:stop] for column in columns), lines[start:stop]
            )
        self.end_run()

    def _general(self, cell: str, part: BlockColumns, lines: Sequence[int]) -> None:
        """Rows of one game cell, as columns, to their game, the general way."""
        game_id = cell.strip()
        game = self.game
        if game is not None and (not game_id or game_id == game.sheet.game):
            game.take_columns(part, lines)
        elif game_id:
            self._start(game_id, lines[0]).take_columns(part, lines)
        else:
            self.each(part.rows(), lines)

    def end_carried(self) -> None:
        """The game held for the next block's rows (if any) goes the general way: the next
        rows are not a plain block, or there are none."""
        if self.carried is not None:
            part, lines = self.carried
            self.carried = None
            col = self.layout.game_col
            assert col is not None  # a game is carried only by a block's game column
            self._general(part[col][0], part, lines)

    def end_run(self) -> None:
        """The run being gathered (if any) is done: handed out after the games before it."""
        if self.pending is not None:
            self.done.append(self.pending)
            self.pending = None

    def end_game(self) -> None:
        """The game being read (if any) is finished: handed out, its id remembered."""
        if self.game is not None:
            self.finished.add(self.game.sheet.game)
            self.done.append(self.finished_sheet(self.game))
            self.game = None

    def each(self, rows: Sequence[list[str]], lines: Sequence[int]) -> None:
        """Rows of the game being read, or starting the file's game (a file with no game column)."""
        game = self.game
        if game is None:
            start = next((at for at, row in enumerate(rows) if not is_blank(row)), len(rows))
            if start == len(rows):
                return
            game = self._start(None, lines[start])
            rows, lines = rows[start:], lines[start:]
        game.take(rows, lines)

    def _start(self, game_id: str | None, line: int) -> _LongGame:
        """A new game begins on ``line`` (the game returned); the one before is finished."""
        self.end_game()
        game = self.game = _LongGame(self.layout, game_id, line)
        if game_id in self.finished:
            game.sheet.problem(
                f"game '{game_id}' continues here after other games "
                "(a game's rows must be together)",
                line,
            )
        return game

    def finished_sheet(self, game: _LongGame) -> Sheet:
        """A game's sheet once its rows end. A game whose date cells are all empty has the date
        above it: one date cell merged over an evening's games exports as that (SPEC §3)."""
        sheet = game.finish()
        if self.layout.date_col is not None:
            self.date_above.finish(sheet, game.date)
        return sheet


class _LongGame:
    """The rows of one game of a long CSV, gathered into rounds.

    Its rows are kept as they come (up to MOST_ROWS, and MOST_KEPT_TEXT characters: a long
    text with one emoji in it is 4 bytes a character in Python) and placed when the game ends:
    in bulk, as columns, when the game is regular (see :meth:`_place_regular`), else one by one
    in file order.
    """

    def __init__(self, layout: LongLayout, game_id: str | None, line: int) -> None:
        self.layout = layout
        self.sheet = Sheet(
            source=layout.source,
            game=game_id,
            line=line,
            kind=SheetFormat.CSV,
            problems=list(layout.problems),
        )
        self.seats: dict[str, int] = {}
        self.rounds: dict[int, dict[int, tuple[Value, Value, Value, int]]] = {}
        self.round_lines: dict[int, int] = {}
        self.specials = SpecialCells()  # the Bomb and the Cloud, as the rows give them
        # The game's settings and metadata, and its out rows, start scores and dealers, as its
        # rows give them (made only for a file that has them: a season has many games)
        self.rules = GameRules() if layout.rules else None
        self.seat_cells: LongSeatCells | None = None
        self.last_round: int | None = None  # the round of the row placed last
        self.date = GameDate()
        self.kept: list[list[str]] | None = []  # rows not placed yet (None: placed as they come)
        self.kept_columns: list[BlockColumns] = []  # or, before any rows, blocks' columns
        self.kept_lines: list[int] = []
        self.kept_text = 0  # characters in the kept rows' cells
        self.rounds_dropped = 0  # the last round past ROUNDS_KEPT seen (not kept: SPEC §4)
        # Names past PLAYERS_KEPT: not seated, only counted (SPEC §4: "this sheet has 8", as
        # every reader says), as far as MOST_KEPT_TEXT characters of them go.
        self.players_dropped: set[str] = set()
        self.dropped_text = 0
        self.dropped_exact = True

    def take_columns(self, columns: BlockColumns, lines: Sequence[int]) -> None:
        """Rows of the game as columns (see :meth:`_Games.columns`), kept as they are while the
        game has no other rows; else taken as rows."""
        if self.kept == [] and len(self.kept_lines) + len(lines) <= MOST_ROWS:
            self.kept_columns.append(columns)
            self.kept_lines += lines
        else:
            self.take(columns.rows(), lines)

    def _rows_of_columns(self) -> None:
        """The columns kept so far as the rows they were split from (for the general path)."""
        if self.kept_columns:
            self.kept = [row for part in self.kept_columns for row in part.rows()] + (
                self.kept or []
            )
            self.kept_columns = []

    def take(self, rows: Sequence[list[str]], lines: Sequence[int]) -> None:
        """Rows of the game, kept to be placed when it ends (past MOST_ROWS, placed as they come)."""
        self._rows_of_columns()
        if self.kept is None:
            for row, line in zip(rows, lines):
                self.add(row, line)
            return
        self.kept += rows
        self.kept_lines += lines
        self.kept_text += sum(len(cell) for row in rows for cell in row)
        if len(self.kept) > MOST_ROWS or self.kept_text > MOST_KEPT_TEXT:
            self.place_kept()

    def place_kept(self) -> None:
        """Place the kept rows the general way, one by one; the rest are placed as they come."""
        kept, self.kept = self.kept or [], None
        for row, line in zip(kept, self.kept_lines):
            self.add(row, line)
        self.kept_lines = []

    def add(self, row: list[str], line: int) -> None:
        """One row: check its shape, place it by round and player (a blank row is skipped)."""
        layout, sheet = self.layout, self.sheet
        cell = lambda col: row[col] if col is not None and col < len(row) else ""  # noqa: E731
        if is_blank(row) or is_total(cell(layout.round_col)):
            return
        if len(trim_trailing(row)) > layout.width:
            sheet.problem(
                f"{len(trim_trailing(row))} fields, but the header has {layout.width}", line
            )
        if layout.round_col is None:
            return  # the header's missing 'round' column is reported once, not on every row
        written = cell(layout.round_col)
        # An empty round cell repeats the round above (what merged cells export as, SPEC §3).
        number = (
            whole_number(written, layout.comma)
            if written.strip() or not self.rounds
            else self.last_round
        )
        name = cell(layout.player_col).strip()
        if not isinstance(number, int) or number < 1:
            shown = number.text if isinstance(number, BadValue) else number
            sheet.problem(
                f"round '{'' if shown is None else shown}' is not a round number",
                line,
                player=name or None,
            )
            return
        if not name:
            sheet.problem("empty player name", line, number)
            return
        if layout.date_col is not None:
            self.date.take(sheet, cell(layout.date_col), line)
        if self.rules is not None:
            self.rules.take(sheet, [(key, cell(col)) for col, key in layout.rules], line)
        if number != len(self.rounds) and not self._round_in_order(number, line, name):
            return
        self.last_round = number
        if number > ROUNDS_KEPT:  # more rounds than any game has: counted, not kept (SPEC §4)
            self.rounds_dropped = number
            return
        seat = self.seats.get(name)
        if seat is None:
            if len(self.seats) >= PLAYERS_KEPT:  # more players than a game has: not kept
                self._count_dropped(name)
                return
            seat = self.seats[name] = len(self.seats)
        cells = self.rounds.setdefault(number, {})
        self.round_lines.setdefault(number, line)
        if seat in cells:
            sheet.problem(
                f"{name} appears twice in round {number} (first on line {cells[seat][3]})",
                line,
                number,
                name,
            )
            return
        comma = layout.comma
        bid = cell(layout.bid_col)
        if is_out(bid):  # not seated in this round (SPEC §3): no values
            cells[seat] = (None, None, None, line)
            self._seating().out(
                sheet,
                number,
                seat,
                name,
                {"tricks": cell(layout.tricks_col), "points": cell(layout.points_col)},
                line,
            )
        else:
            cells[seat] = (
                count_cell(bid, comma),
                count_cell(cell(layout.tricks_col), comma),
                whole_number(cell(layout.points_col), comma)
                if layout.points_col is not None
                else None,
                line,
            )
        if layout.start_col is not None:
            self._seating().start(sheet, seat, name, cell(layout.start_col), line)
        if layout.dealer_col is not None:
            self._seating().dealer(sheet, number, cell(layout.dealer_col), line)
        if layout.bomb_col is not None or layout.cloud_col is not None:
            self.specials.take(
                sheet,
                None if layout.bomb_col is None else cell(layout.bomb_col),
                None if layout.cloud_col is None else cell(layout.cloud_col),
                number,
                seat,
                name,
                line,
            )

    def _seating(self) -> LongSeatCells:
        """The game's seating cells, made when the first comes."""
        if self.seat_cells is None:
            self.seat_cells = LongSeatCells()
        return self.seat_cells

    def _count_dropped(self, name: str) -> None:
        """A name past the players a game can have: counted, not seated."""
        if name in self.players_dropped or not self.dropped_exact:
            return
        self.dropped_text += len(name)
        if self.dropped_text > MOST_KEPT_TEXT:
            self.dropped_exact = False  # "more than" the names counted so far
            return
        self.players_dropped.add(name)

    def _round_in_order(self, number: int, line: int, name: str) -> bool:
        """Rounds run 1..N in order: a new round must be the one after the last."""
        expected = len(self.rounds) + 1
        if number == expected or (
            self.rounds_dropped  # rounds past the kept ones, in order
            and number in (self.rounds_dropped, self.rounds_dropped + 1)
        ):
            return True
        sheet = self.sheet
        if number in self.rounds or number < expected:
            sheet.problem(
                f"round {number} appears again after round {expected - 1} (a round's "
                "rows must be together)",
                line,
                number,
                name,
            )
        else:
            sheet.problem(
                f"round {number} follows round {expected - 1}: rounds run 1..N in order",
                line,
                number,
                name,
            )
        return False

    def finish(self) -> Sheet:
        """The game's sheet, with each round's values in seating order."""
        if self.kept_columns and self.layout.bulk and not self.layout.problems:
            parts = self.kept_columns
            columns = (
                list(map(tuple, parts[0]))
                if len(parts) == 1
                else [tuple(itertools.chain.from_iterable(c)) for c in zip(*parts)]
            )
            if self._place_regular(columns):
                return self.sheet
        self._rows_of_columns()
        if self.kept and self.layout.bulk and self._place_regular_rows():
            return self.sheet
        self.place_kept()
        sheet = self.sheet
        if self.rules is not None:  # before the special cards: a setting says specialCards first
            self.rules.apply(sheet)
        dropped = len(self.players_dropped)
        sheet.players = (
            Truncated(self.seats, claimed=PLAYERS_KEPT + dropped, exact=self.dropped_exact)
            if dropped or not self.dropped_exact
            else list(self.seats)
        )
        sheet.player_lines = [None] * len(sheet.players)
        count = len(sheet.players)
        for number, cells in self.rounds.items():
            first_line = self.round_lines[number]
            lines: list[int | None] = [
                cells[s][3] if s in cells else first_line for s in range(count)
            ]
            column = lambda i, cells=cells: [  # noqa: E731
                cells[s][i] if s in cells else None for s in range(count)
            ]
            record = RoundRecord(number, first_line, column(0), lines)
            tricks = column(1)
            if any(t is not None for t in tricks):
                record.tricks, record.trick_lines = tricks, list(lines)
            if self.layout.points_col is not None:
                record.points, record.point_lines = column(2), list(lines)
            self.specials.place(sheet, record)
            sheet.rounds.append(record)
        if self.seat_cells is not None:
            self.seat_cells.seat(sheet, self.rounds, self.round_lines)
        return sheet

    def _place_regular_rows(self) -> bool:
        """The kept rows placed in bulk (:meth:`_place_regular`) when every one is as wide as
        the header."""
        layout, rows = self.layout, self.kept or []
        if layout.problems or list(map(len, rows)).count(layout.width) != len(rows):
            return False
        return self._place_regular(list(zip(*rows)))

    def _place_regular(self, columns: list[tuple[str, ...]]) -> bool:
        """Place the kept rows, given as columns, in bulk if they read as they would one by
        one, with no problem.

        That is when every round lists every player in the seating order of round 1 (names as
        written, no spaces around them) and the rounds are numbered 1..N in plain digits, each
        round's rows together. Otherwise nothing is placed and False is returned.
        """
        layout, lines = self.layout, self.kept_lines
        round_col, tricks_col = layout.round_col, layout.tricks_col
        assert round_col is not None and tricks_col is not None  # else a layout problem
        numbers = columns[round_col]
        count = numbers.count("1")
        if not count or len(lines) % count:
            return False
        rounds = len(lines) // count
        names = columns[layout.player_col]
        players = names[:count]
        if (
            numbers != round_labels(count, rounds)
            or names != players * rounds
            or not plain_names(players)
        ):
            return False
        sheet_date = date_line = None
        if layout.date_col is not None:
            date = self.date.column(columns[layout.date_col])
            if date is False:
                return False  # judged row by row, to say where
            sheet_date, date_line = date, lines[0]
        if (layout.start_col is not None or layout.dealer_col is not None) and any(
            any(columns[col]) for col in (layout.start_col, layout.dealer_col) if col is not None
        ):
            return False  # seating (SPEC §3): placed row by row
        specials: list[Specials] | None = None
        if layout.bomb_col is not None or layout.cloud_col is not None:
            found = bulk_specials(
                None if layout.bomb_col is None else columns[layout.bomb_col],
                None if layout.cloud_col is None else columns[layout.cloud_col],
                count,
                rounds,
                lines,
            )
            if found is False:
                return False  # a cell that is no mark or change: judged row by row, to say where
            specials = found
        comma = layout.comma
        bids = _whole_numbers(columns[layout.bid_col], count_cell, comma, out=True)
        if bids is None:
            return False  # an out row (SPEC §3): placed row by row
        tricks = _whole_numbers(columns[tricks_col], count_cell, comma)
        points = (
            _whole_numbers(columns[layout.points_col], whole_number, comma)
            if layout.points_col is not None
            else None
        )
        if self.rules is not None:
            if not self.rules.take_columns(columns, layout.rules, lines[0]):
                return False  # a rule written differently on some row: judged row by row
            self.rules.apply(self.sheet)
        sheet = self.sheet
        if sheet_date is not None:
            sheet.date, sheet.date_line = sheet_date, date_line
        sheet.players = list(players)
        sheet.player_lines = [None] * count
        sheet.rounds = RoundColumns(count, bids, tricks, points, lines)
        if specials:
            sheet.rounds.specials = specials
            imply_special_cards(sheet, first_special_line(specials))
        if None in tricks:  # a round in play: tricks not recorded (an empty one is a problem)
            records = sheet.rounds.records()
            for record in records:
                assert record.tricks is not None  # (RoundColumns of whole columns: every round)
                if record.tricks.count(None) == count:
                    record.tricks = record.trick_lines = None
            sheet.rounds = RoundColumns.of(records)
        self.kept, self.kept_columns, self.kept_lines = None, [], []
        return True


@overload
def _whole_numbers(
    cells: Sequence[str],
    read: Callable[[str, bool], Value],
    comma: bool,
    out: Literal[False] = False,
) -> list[Value]: ...


@overload
def _whole_numbers(
    cells: Sequence[str], read: Callable[[str, bool], Value], comma: bool, out: bool
) -> list[Value] | None: ...


def _whole_numbers(
    cells: Sequence[str], read: Callable[[str, bool], Value], comma: bool, out: bool = False
) -> list[Value] | None:
    """A column of cells as ``read`` reads each, looked up when all are plain numbers; with
    ``out``, None when a cell is a bid cell's ``out`` (SPEC §3)."""
    try:
        return list(map(PLAIN_NUMBERS.__getitem__, cells))
    except KeyError:
        if out and any(map(is_out, cells)):
            return None
        return [read(cell, comma) for cell in cells]


class LongCsvWriter(SheetWriter):
    """A long CSV: one row per round and player, a column for everything some sheet learnt
    records (see :class:`~.csv_long_columns.LongColumns`)."""

    carries_seating = True

    def __init__(self) -> None:
        from .long_columns import LongColumns  # (not loaded to read a CSV)

        super().__init__()
        self.columns = LongColumns()

    def learn(self, p: Portable) -> None:
        super().learn(p)
        self.columns.learn(p)

    def pieces(self, sheets: Iterable[Portable]) -> Iterator[str]:
        yield self.columns.header()
        for p in sheets:
            yield self.columns.rows(p)

    def carried(self, p: Portable) -> Portable:
        from .long_columns import carried

        return carried(p)
