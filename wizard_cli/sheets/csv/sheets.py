"""CSV sheets: a long file (one row per round and player) or a wide one (a column per player)."""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterable, Iterator

from ...errors import Problem, WizardError
from ...game.model import GameRun, Sheet, SheetFormat
from ..cells import header_name, trim_trailing
from .long import read_long_sheets
from .rows import Chunks, CsvRows
from .rules import unknown_columns
from .wide import read_wide_sheet

Note = Callable[[Problem], None]


def read_csv_sheets(
    blocks: Iterable[str],
    source: str,
    bulk: bool = True,
    runs: bool = False,
    note: Note | None = None,
) -> Iterator[Sheet | GameRun]:
    """Long or wide CSV, as blocks of whole lines (a line each will do) → sheets; a long CSV
    with a ``game`` column gives one sheet per game, each as soon as its rows end.

    ``bulk=False`` is the general path, the reference every lane is tested against: csv.reader
    reads every line and each row is placed one by one (see CsvRows and read_long_sheets).
    ``runs=True`` is the season lane's: whole regular games of a long file may come as runs.
    ``note`` is told of a column a long file does not read (SPEC §3).
    """
    rows = CsvRows(blocks, split_plain_blocks=bulk)
    try:
        written = rows.header()
        if written is None:
            raise WizardError(Problem("empty file: no header and no rows", source))
        # A long file's plain blocks come as columns, as wide as its header (the lane).
        header = trim_trailing([cell.strip() for cell in written])
        width = len(header) if bulk and sheet_kind(header) == SheetFormat.CSV else None
        # In a file not delimited by ',', a decimal comma is a decimal point (SPEC §3).
        yield from sheets_from_rows(
            written,
            rows.number,
            rows.chunks(columns_of=width),
            source,
            comma=rows.delimiter != ",",
            bulk=bulk,
            runs=runs,
            note=note,
        )
    except csv.Error as error:
        reason = (
            f'a field longer than {csv.field_size_limit()} characters (a quote " left open?)'
            if "field limit" in str(error)
            else str(error)
        )
        raise WizardError(Problem(f"not readable as CSV: {reason}", source, rows.number)) from None


def sheet_kind(header: list[str]) -> SheetFormat | None:
    """``csv`` (long) or ``wide-csv`` by a header's cells, or None if it is neither."""
    names = [header_name(cell) for cell in header]
    if "player" in names and "bid" in names:
        return SheetFormat.CSV
    return SheetFormat.WIDE_CSV if names and names[0] == "round" else None


def sheets_from_rows(
    written: list[str],
    header_line: int,
    chunks: Chunks,
    source: str,
    comma: bool,
    bulk: bool = True,
    runs: bool = False,
    note: Note | None = None,
) -> Iterator[Sheet | GameRun]:
    """The sheets of rows of text after their header (a CSV's, a worksheet's): a header with
    ``player`` and ``bid`` is a long file, any other a wide one."""
    written = trim_trailing([cell.strip() for cell in written])
    header = list(map(header_name, written))
    if "player" in header and "bid" in header:
        if note is not None:  # a column it does not read: ignored, with a note (SPEC §3)
            for problem in unknown_columns(header, source, header_line):
                note(problem)
        yield from read_long_sheets(chunks, header, header_line, source, comma, bulk, runs)
    else:
        rows = (pair for rows, lines in chunks for pair in zip(rows, lines))
        yield read_wide_sheet(rows, written, header_line, source, comma)
