"""Wide CSV (``round,<player>,<player>,…`` with ``bid/tricks`` cells): one game per file, read
and written (:class:`WideCsvWriter`)."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Iterator
from dataclasses import replace

from ..errors import Problem, WizardError
from ..game.model import (
    PLAYERS_KEPT,
    ROUNDS_KEPT,
    BadValue,
    RoundRecord,
    Sheet,
    SheetFormat,
    Truncated,
    Value,
)
from .cells import (
    DATE_LIKE,
    DATE_WHY,
    ERROR_CODE,
    ERROR_WHY,
    count_cell,
    header_name,
    is_blank,
    is_total,
    mark_cell,
    trim_trailing,
    whole_number,
)
from .csv_rows import Rows
from .csv_specials import MARKS, imply_special_cards
from .writing import Portable, SheetWriter, csv_cell


def read_wide_sheet(rows: Rows, header: list[str], header_line: int, source: str,
                    comma: bool = False) -> Sheet:
    """Wide CSV: ``round,<player>…`` with ``bid/tricks`` cells (just ``bid`` in the round in play)."""
    sheet = Sheet(source=source, line=header_line, kind=SheetFormat.WIDE_CSV)
    if not header or header_name(header[0]) != "round":
        sheet.problem("not a score sheet: a long CSV has 'round,player,bid,tricks' columns, a wide "
                      "one 'round,<player>,<player>,…'", header_line)
        return sheet
    named = set(map(header_name, header[1:]))
    if "player" in named and named & {"tricks", "took", "bids"}:  # a long CSV, misnamed 'bid'
        sheet.problem("the header has a 'player' column but no 'bid' column: a long CSV has "
                      "'round,player,bid,tricks' columns", header_line)
        return sheet
    names = header[1:]
    # An optional `bomb` column (German `Bombe`) marks the rounds of the Bomb (SPEC §3).
    bomb_col = next((col for col, name in enumerate(header) if col and
                     header_name(name) == "bomb"), None)
    if bomb_col is not None:
        names = [name for col, name in enumerate(header) if col and col != bomb_col]
    # More players or rounds than a game has: one more is kept (validation says so), the rest
    # counted, not built (SPEC §4).
    sheet.players = (names if len(names) <= PLAYERS_KEPT
                     else Truncated(names[:PLAYERS_KEPT], claimed=len(names)))
    sheet.player_lines = [header_line] * len(sheet.players)
    for row, line in rows:
        if is_blank(row) or is_total(row[0]) or len(sheet.rounds) >= ROUNDS_KEPT:
            continue
        if bomb_col is not None:
            marked = row[bomb_col] if bomb_col < len(row) else ""
            row = [cell for col, cell in enumerate(row) if col != bomb_col]
        _read_wide_row(row, line, sheet, comma)
        if bomb_col is not None and sheet.rounds and sheet.rounds[-1].line == line:
            _mark_bomb(marked, line, sheet)
    return sheet


def _mark_bomb(text: str, line: int, sheet: Sheet) -> None:
    """The `bomb` cell of the round just read (values as in a long CSV, SPEC §3)."""
    marked = mark_cell(text)
    number = len(sheet.rounds)
    if marked is None:
        sheet.problem(f"bomb '{text.strip()}' is not yes or no ({MARKS})", line, number)
    elif marked:
        record = sheet.rounds[-1]
        record.bomb, record.bomb_line = True, line
        sheet.rounds = type(sheet.rounds).of([*sheet.rounds[:-1], record])
        imply_special_cards(sheet, line)


def _read_wide_row(row: list[str], line: int, sheet: Sheet, comma: bool) -> None:
    """One round of a wide CSV."""
    count = len(sheet.players)
    expected = len(sheet.rounds) + 1
    number = whole_number(row[0], comma)
    if number != expected:
        shown = number.text if isinstance(number, BadValue) else number
        sheet.problem(f"round '{shown}' where round {expected} was expected: rounds run 1..N in "
                      "order", line)
        return
    if len(trim_trailing(row)) > count + 1 and not isinstance(sheet.players, Truncated):
        sheet.problem(f"{len(trim_trailing(row))} fields, but the header has {count + 1}", line,
                      number)
    cells = [(row[seat + 1] if seat + 1 < len(row) else "") for seat in range(count)]
    bids: list[Value] = []
    tricks: list[Value] = []
    clouds: list[tuple[int, int]] = []
    for seat, cell in enumerate(cells):
        clouded = _CLOUDED.fullmatch(cell)
        if clouded:  # the Cloud: the bid called, the change, the tricks (`1+1/2`, SPEC §3)
            cell = clouded["bid"] + (clouded["rest"] or "")
            clouds.append((seat, 1 if clouded["sign"] == "+" else -1))
        bid, took = _wide_cell(cell, comma)
        bids.append(bid)
        tricks.append(took)
    record = RoundRecord(number, line, bids, [line] * count)
    if len(clouds) > 1:
        sheet.problem(f"cloud in {len(clouds)} cells of round {number}; the Cloud changes one "
                      "player's bid", line, number)
    elif clouds:
        record.cloud, record.cloud_line = clouds[0], line
        imply_special_cards(sheet, line)
    # A date-shaped cell was a bid/tricks cell a spreadsheet turned into a date: it had tricks.
    if any("/" in cell for cell in cells) or any(isinstance(t, BadValue) for t in tricks):
        record.tricks, record.trick_lines = tricks, [line] * count
    sheet.rounds.append(record)


_CLOUDED = re.compile(r"\s*(?P<bid>[0-9]{1,2})\s*(?P<sign>[+\-−])\s*1\s*(?P<rest>/[^/]*)?")


def _wide_cell(cell: str, comma: bool) -> tuple[Value, Value]:
    """``bid/tricks``, or ``bid`` alone, or empty; a date-looking cell says what happened to it."""
    text = cell.strip()
    if DATE_LIKE.fullmatch(text):
        return BadValue(text, DATE_WHY), BadValue(text, DATE_WHY, quiet=True)
    if ERROR_CODE.fullmatch(text):  # the whole cell (#DIV/0! has a slash of its own)
        return BadValue(text, ERROR_WHY), BadValue(text, ERROR_WHY, quiet=True)
    if text.count("/") == 1:  # str methods, not a regex: a long cell must not backtrack for ages
        bid, _, took = text.partition("/")
        return count_cell(bid, comma), count_cell(took, comma)
    return count_cell(text, comma), None


# --- writing ---------------------------------------------------------------------------------

class WideCsvWriter(SheetWriter):
    """``round,<player>…`` with ``bid/tricks`` cells: one game only (a wide CSV has no game
    column), and no game id, date or typed points."""

    carries_rules = False

    def check(self) -> None:
        if self.count != 1:
            raise WizardError(Problem(
                f"a wide CSV holds one game and this source has {self.count}: convert the season "
                "to csv (long, with a game column), yaml or json instead", self.source))

    def pieces(self, sheets: Iterable[Portable]) -> Iterator[str]:
        for p in sheets:
            lowered = {name.lower() for name in p.players}
            if {"player", "bid"} <= lowered:
                raise WizardError(Problem("players named 'player' and 'bid' would make the wide "
                                          "CSV read as a long one: convert to csv, yaml or json "
                                          "instead", p.source))
            out = io.StringIO()
            writer = csv.writer(out, lineterminator="\n")
            bombs = any(record.bomb for record in p.rounds)
            writer.writerow(["round", *p.players, *(["bomb"] if bombs else [])])
            for record in p.rounds:
                cells = []
                for seat in range(len(p.players)):
                    bid = csv_cell(record.bids[seat])
                    if record.cloud is not None and record.cloud[0] == seat:
                        bid = f"{bid}{record.cloud[1]:+d}"
                    cells.append(f"{bid}/{csv_cell(record.tricks[seat])}" if record.tricks
                                 else f"{bid}")
                writer.writerow([record.number, *cells,
                                 *(["yes" if record.bomb else ""] if bombs else [])])
            yield out.getvalue()

    def carried(self, p: Portable) -> Portable:
        rounds = tuple(replace(r, points=None, point_lines=None) for r in p.rounds)
        return replace(p, game=None, date=None, rounds=rounds)
