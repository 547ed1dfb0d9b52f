"""CSV sheets: a long file (one row per round and player) or a wide one (a column per player)."""

from __future__ import annotations

import csv
from typing import Iterable, Iterator

from ..errors import Problem, WizardError
from ..game.model import BadValue, RoundRecord, Sheet, Value


from .cells import _is_blank, _trim_trailing, whole_number, _DATE_LIKE
from .csv_long import _LongReader
from .csv_rows import _CsvRows

def read_csv_sheets(blocks: Iterable[str], source: str) -> Iterator[Sheet]:
    """Long or wide CSV, as blocks of whole lines (a line each will do) → sheets; a long CSV
    with a ``game`` column gives one sheet per game, each as soon as its rows end."""
    rows = _CsvRows(blocks)
    try:
        written = rows.header()
        if written is None:
            raise WizardError(Problem("empty file: no header and no rows", source))
        written = _trim_trailing([cell.strip() for cell in written])
        header = [cell.lower() for cell in written]
        if "player" in header and "bid" in header:
            yield from _LongReader(source, header, rows.number).sheets(rows.batches(len(header)))
        else:
            yield _read_wide(rows.each(), written, rows.number, source)
    except csv.Error as error:
        reason = (f"a field longer than {csv.field_size_limit()} characters (a quote \" left "
                  "open?)" if "field limit" in str(error) else str(error))
        raise WizardError(Problem(f"not readable as CSV: {reason}", source, rows.number)) from None


def _read_wide(rows: Iterator[tuple[list[str], int]], header: list[str], header_line: int,
               source: str) -> Sheet:
    """Wide CSV: ``round,<player>…`` with ``bid/tricks`` cells (just ``bid`` in the round in play)."""
    sheet = Sheet(source=source, line=header_line, kind="wide-csv")
    if not header or header[0].lower() != "round":
        sheet.problem("not a score sheet: a long CSV has 'round,player,bid,tricks' columns, a wide "
                      "one 'round,<player>,<player>,…'", header_line)
        return sheet
    named = {cell.lower() for cell in header[1:]}
    if "player" in named and named & {"tricks", "took", "bids"}:  # a long CSV, misnamed 'bid'
        sheet.problem("the header has a 'player' column but no 'bid' column: a long CSV has "
                      "'round,player,bid,tricks' columns", header_line)
        return sheet
    sheet.players = header[1:]
    sheet.player_lines = [header_line] * len(sheet.players)
    for row, line in rows:
        if _is_blank(row) or row[0].strip().lower() == "total":
            continue
        _read_wide_row(row, line, sheet)
    return sheet


def _read_wide_row(row: list[str], line: int, sheet: Sheet) -> None:
    """One round of a wide CSV."""
    count = len(sheet.players)
    expected = len(sheet.rounds) + 1
    number = whole_number(row[0])
    if number != expected:
        shown = number.text if isinstance(number, BadValue) else number
        sheet.problem(f"round '{shown}' where round {expected} was expected: rounds run 1..N in "
                      "order", line)
        return
    if len(_trim_trailing(row)) > count + 1:
        sheet.problem(f"{len(_trim_trailing(row))} fields, but the header has {count + 1}", line,
                      number)
    cells = [(row[seat + 1] if seat + 1 < len(row) else "") for seat in range(count)]
    bids: list[Value] = []
    tricks: list[Value] = []
    for cell in cells:
        bid, took = _wide_cell(cell)
        bids.append(bid)
        tricks.append(took)
    record = RoundRecord(number, line, bids, [line] * count)
    if any("/" in cell for cell in cells):
        record.tricks, record.trick_lines = tricks, [line] * count
    sheet.rounds.append(record)


def _wide_cell(cell: str) -> tuple[Value, Value]:
    """``bid/tricks``, or ``bid`` alone, or empty; a date-looking cell says what happened to it."""
    text = cell.strip()
    if _DATE_LIKE.fullmatch(text):
        why = ("looks like a date: a spreadsheet probably turned a bid/tricks cell such as "
               "'1/1' into a date (format the column as text and type it again)")
        return BadValue(text, why), BadValue(text, why, quiet=True)
    if text.count("/") == 1:  # str methods, not a regex: a long cell must not backtrack for ages
        bid, _, took = text.partition("/")
        return whole_number(bid), whole_number(took)
    return whole_number(text), None


