"""Long CSV (``round,player,bid,tricks``, optional ``game`` and ``points``), streamed a game at a time."""

from __future__ import annotations

import functools
import itertools
from typing import Iterable, Iterator, Sequence

from ..errors import Problem
from ..game.model import BadValue, RoundColumns, RoundRecord, Sheet, Value


from .cells import _PLAIN_NUMBERS, _is_blank, _trim_trailing, parse_date, whole_number
from .csv_rows import Batch

class _LongReader:
    """Long CSV (one row per round and player), streamed: one sheet per contiguous game.

    For speed, rows as wide as the header whose game cell reads exactly as the game's first
    row are only gathered, and placed when the game ends (in bulk if the game is regular); any
    other row sends the game's rows the general way, one by one, in file order.
    """

    def __init__(self, source: str, header: list[str], header_line: int) -> None:
        self.source = source
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
        self.header_problems = [
            Problem(f"the header has no '{name}' column", source, header_line)
            for name, col in (("round", self.round_col), ("tricks", self.tricks_col)) if col is None]
        self.game: _LongGame | None = None
        self.written: str | None = None  # the game's cell in its first row, while gathering
        self.finished_games: set[str | None] = set()
        self.done: list[Sheet] = []  # games ended by the rows taken so far, not yet handed out

    def sheets(self, batches: Iterable[Batch]) -> Iterator[Sheet]:
        """Take the rows a batch at a time, yielding each game's sheet once its rows end."""
        width, game_col = self.width, self.game_col
        for rows, lines, columns in batches:
            if columns is None and rows and list(map(len, rows)).count(width) == len(rows):
                columns = list(map(list, zip(*rows)))
            if columns is not None and game_col is not None:
                self._take_runs(columns, lines, game_col)
            else:
                for row, line in zip(rows if rows is not None else _rows(columns, 0, None), lines):
                    self._take(row, line)
            yield from self.done
            self.done.clear()
        if self.game is None:
            self.game = _LongGame(self, None, self.header_line)
        yield self.game.finish()

    def _take_runs(self, columns: list[list[str]], lines: Sequence[int], game_col: int) -> None:
        """Rows all as wide as the header, taken a run of equal game cells at a time."""
        start = 0
        for cell, run in itertools.groupby(columns[game_col]):
            stop = start + len(list(run))
            game_id = cell.strip()
            if cell == self.written and self._room(stop - start):
                self._gather(columns, start, stop, lines)
            elif game_id and (self.game is None or game_id != self.game.sheet.game):
                self._start(game_id, lines[start])
                if self._room(stop - start):
                    self.written = cell
                    self._gather(columns, start, stop, lines)
                else:
                    self._take_each(columns, start, stop, lines)
            else:
                self._take_each(columns, start, stop, lines)
            start = stop

    def _take_each(self, columns: list[list[str]], start: int, stop: int,
                   lines: Sequence[int]) -> None:
        """Rows ``start:stop`` of the columns, one by one, the general way."""
        for row, line in zip(_rows(columns, start, stop), lines[start:stop]):
            self._take(row, line)

    def _take(self, row: list[str], line: int) -> None:
        """One row, the general way (a row that may be gathered still is)."""
        if (self.written is not None and len(row) == self.width
                and row[self.game_col] == self.written and self._room(1)):
            self._gather([[cell] for cell in row], 0, 1, [line])
            return
        if _is_blank(row):
            return
        game_col = self.game_col
        game_id = (row[game_col].strip() or None
                   if game_col is not None and game_col < len(row) else None)
        if self.game is None or game_id != self.game.sheet.game:
            self._start(game_id, line)
            if game_col is not None and len(row) == self.width:  # (one game with no column: no hurry)
                self.written = row[game_col]
                self._gather([[cell] for cell in row], 0, 1, [line])
                return
        self.game.add_gathered()
        self.written = None  # the rest of this game goes the general way, in file order
        self.game.add(row, line)

    def _room(self, count: int) -> bool:
        """Whether ``count`` more rows may be gathered: more than any game has go the general way,
        so memory stays flat whatever the file."""
        return len(self.game.gathered_lines) + count <= _MAX_GATHERED

    def _gather(self, columns: list[list[str]], start: int, stop: int,
                lines: Sequence[int]) -> None:
        """Keep rows ``start:stop`` of the current game, to be placed when it ends."""
        for kept, column in zip(self.game.gathered, columns):
            kept += column[start:stop]
        self.game.gathered_lines += lines[start:stop]

    def _start(self, game_id: str | None, line: int) -> None:
        """A new game begins on ``line``; the one before is finished."""
        if self.game is not None:
            self.finished_games.add(self.game.sheet.game)
            self.done.append(self.game.finish())
        self.game = _LongGame(self, game_id, line)
        self.written = None
        if game_id in self.finished_games:
            self.game.sheet.problem(f"game '{game_id}' continues here after other games "
                                    "(a game's rows must be together)", line)


_MAX_GATHERED = 1000  # more rows than any game has (6 players × 20 rounds): memory stays flat


class _LongGame:
    """The rows of one game of a long CSV, gathered into rounds."""

    def __init__(self, layout: _LongReader, game_id: str | None, line: int) -> None:
        self.layout = layout
        self.sheet = Sheet(source=layout.source, game=game_id, line=line, kind="csv",
                           problems=list(layout.header_problems))
        self.seats: dict[str, int] = {}
        self.rounds: dict[int, dict[int, tuple[Value, Value, Value, int]]] = {}
        self.round_lines: dict[int, int] = {}
        self.date_changed = False
        self.bad_dates: set[str] = set()
        # Rows not placed yet, kept as columns (see _LongReader), and their lines.
        self.gathered: list[list[str]] = [[] for _ in range(layout.width)]
        self.gathered_lines: list[int] = []

    def add_gathered(self) -> None:
        """Place the gathered rows the general way, one by one (blank ones are skipped)."""
        for row, line in zip(_rows(self.gathered, 0, None), self.gathered_lines):
            if not _is_blank(row):
                self.add(row, line)
        for column in self.gathered:
            column.clear()
        self.gathered_lines.clear()

    def add(self, row: list[str], line: int) -> None:
        """One row: check its shape, place it by round and player."""
        layout, sheet = self.layout, self.sheet
        if len(_trim_trailing(row)) > layout.width:
            sheet.problem(f"{len(_trim_trailing(row))} fields, but the header has {layout.width}", line)
        if layout.round_col is None:
            return  # the header's missing 'round' column is reported once, not on every row
        cell = lambda col: row[col] if col is not None and col < len(row) else ""  # noqa: E731
        number = whole_number(cell(layout.round_col))
        name = cell(layout.player_col).strip()
        if not isinstance(number, int) or number < 1:
            shown = number.text if isinstance(number, BadValue) else number
            sheet.problem(f"round '{'' if shown is None else shown}' is not a round number", line,
                          player=name or None)
            return
        if not name:
            sheet.problem("empty player name", line, number)
            return
        if layout.date_col is not None:
            self._take_date(cell(layout.date_col), line)
        if number != len(self.rounds) and not self._round_in_order(number, line, name):
            return
        seat = self.seats.setdefault(name, len(self.seats))
        cells = self.rounds.setdefault(number, {})
        self.round_lines.setdefault(number, line)
        if seat in cells:
            sheet.problem(f"{name} appears twice in round {number} (first on line {cells[seat][3]})",
                          line, number, name)
            return
        cells[seat] = (whole_number(cell(layout.bid_col)), whole_number(cell(layout.tricks_col)),
                       whole_number(cell(layout.points_col)) if layout.points_col is not None else None,
                       line)

    def _take_date(self, text: str, line: int) -> None:
        """A row's ``date`` cell: the game's date, the same on every row (SPEC §3). An empty
        cell says nothing (as a merged cell exports); a bad or different date is located."""
        date = parse_date(text)
        sheet = self.sheet
        if date is None or date == sheet.date:
            return
        if isinstance(date, BadValue):
            if date.text not in self.bad_dates:  # once a game: its rows repeat it
                self.bad_dates.add(date.text)
                sheet.problem(f"date '{date.text}' {date.why}", line)
        elif sheet.date is None:
            sheet.date, sheet.date_line = date, line
        elif not self.date_changed:
            self.date_changed = True  # said once: every later row would repeat it
            sheet.problem(f"date {date} where the game's earlier rows say {sheet.date} (line "
                          f"{sheet.date_line}): a game has one date", line)

    def _round_in_order(self, number: int, line: int, name: str) -> bool:
        """Rounds run 1..N in order: a new round must be the one after the last."""
        expected = len(self.rounds) + 1
        if number == expected:
            return True
        sheet = self.sheet
        if number in self.rounds or number < expected:
            sheet.problem(f"round {number} appears again after round {expected - 1} (a round's "
                          "rows must be together)", line, number, name)
        else:
            sheet.problem(f"round {number} follows round {expected - 1}: rounds run 1..N in order",
                          line, number, name)
        return False

    def finish(self) -> Sheet:
        """The game's sheet, with each round's values in seating order."""
        if self.gathered_lines and self._place_regular():
            return self.sheet
        self.add_gathered()
        sheet = self.sheet
        sheet.players = list(self.seats)
        sheet.player_lines = [None] * len(sheet.players)
        count = len(sheet.players)
        for number, cells in self.rounds.items():
            first_line = self.round_lines[number]
            lines = [cells[s][3] if s in cells else first_line for s in range(count)]
            column = lambda i: [cells[s][i] if s in cells else None for s in range(count)]  # noqa: E731
            record = RoundRecord(number, first_line, column(0), lines)
            tricks = column(1)
            if any(t is not None for t in tricks):
                record.tricks, record.trick_lines = tricks, list(lines)
            if self.layout.points_col is not None:
                record.points, record.point_lines = column(2), list(lines)
            sheet.rounds.append(record)
        return sheet

    def _place_regular(self) -> bool:
        """Place the gathered rows in bulk if they read as they would one by one, with no problem.

        That is when every round lists every player in the seating order of round 1 (names as
        written, no spaces around them) and the rounds are numbered 1..N in plain digits, each
        round's rows together. Otherwise nothing is placed and False is returned.
        """
        layout, columns, lines = self.layout, self.gathered, self.gathered_lines
        if layout.header_problems:
            return False
        numbers = columns[layout.round_col]
        count = numbers.count("1")
        if not count or len(lines) % count:
            return False
        rounds = len(lines) // count
        names = columns[layout.player_col]
        players = names[:count]
        if (numbers != _round_labels(count, rounds) or names != players * rounds
                or not _plain_names(tuple(players))):
            return False
        if layout.date_col is not None:
            dates = columns[layout.date_col]
            date = parse_date(dates[0])
            if dates.count(dates[0]) != len(dates) or isinstance(date, BadValue):
                return False  # judged row by row, to say where
            sheet_date, date_line = date, lines[0]
        bids = _whole_numbers(columns[layout.bid_col])
        tricks = _whole_numbers(columns[layout.tricks_col])
        points = _whole_numbers(columns[layout.points_col]) if layout.points_col is not None else None
        sheet = self.sheet
        if layout.date_col is not None and sheet_date is not None:
            sheet.date, sheet.date_line = sheet_date, date_line
        sheet.players = list(players)
        sheet.player_lines = [None] * count
        sheet.rounds = RoundColumns(count, bids, tricks, points, lines)
        if None in tricks:  # a round in play: tricks not recorded (an empty one is a problem)
            records = sheet.rounds.records()
            for record in records:
                if record.tricks.count(None) == count:
                    record.tricks = record.trick_lines = None
            sheet.rounds = RoundColumns.of(records)
        return True


@functools.lru_cache(maxsize=64)
def _round_labels(players: int, rounds: int) -> list[str]:
    """The round column of a regular game as written: '1' for each player, then '2', … (shared:
    never changed)."""
    return [str(number) for number in range(1, rounds + 1) for _ in range(players)]


def _rows(columns: list[list[str]], start: int, stop: int | None) -> Iterator[list[str]]:
    """Rows ``start:stop`` of columns of equal length."""
    return map(list, zip(*(column[start:stop] for column in columns)))


@functools.lru_cache(maxsize=256)
def _plain_names(players: tuple[str, ...]) -> bool:
    """Distinct names, none empty or with spaces around it: read as written (a season's tables
    are few, so each is judged once)."""
    return len(set(players)) == len(players) and all(name and name == name.strip()
                                                     for name in players)



def _whole_numbers(cells: Sequence[str]) -> list[Value]:
    """A column of cells as whole numbers (see whole_number), looked up when all are plain."""
    try:
        return list(map(_PLAIN_NUMBERS.__getitem__, cells))
    except KeyError:
        return list(map(whole_number, cells))

