"""CSV sheets: a long file (one row per round and player) or a wide one (a column per player)."""

from __future__ import annotations

import csv
from typing import Iterable, Iterator

from ..errors import Problem, WizardError
from ..game.model import Sheet
from .cells import _trim_trailing, header_name
from .csv_long import read_long_sheets
from .csv_rows import CsvRows
from .csv_wide import read_wide_sheet


def read_csv_sheets(blocks: Iterable[str], source: str, bulk: bool = True) -> Iterator[Sheet]:
    """Long or wide CSV, as blocks of whole lines (a line each will do) → sheets; a long CSV
    with a ``game`` column gives one sheet per game, each as soon as its rows end (``bulk``:
    see read_long_sheets)."""
    rows = CsvRows(blocks)
    try:
        written = rows.header()
        if written is None:
            raise WizardError(Problem("empty file: no header and no rows", source))
        written = _trim_trailing([cell.strip() for cell in written])
        header = list(map(header_name, written))
        comma = rows.delimiter != ","  # then a decimal comma is a decimal point (SPEC §3)
        if "player" in header and "bid" in header:
            yield from read_long_sheets(rows.chunks(), header, rows.number, source, comma, bulk)
        else:
            yield read_wide_sheet(rows.rows(), written, rows.number, source, comma)
    except csv.Error as error:
        reason = (f"a field longer than {csv.field_size_limit()} characters (a quote \" left "
                  "open?)" if "field limit" in str(error) else str(error))
        raise WizardError(Problem(f"not readable as CSV: {reason}", source, rows.number)) from None
