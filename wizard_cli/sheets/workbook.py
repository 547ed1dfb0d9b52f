"""Workbooks (``.xlsx .xlsm .xls .ods``), read through python-calamine (the optional ``xlsx`` extra).

Each worksheet that holds a sheet is read as one CSV file would be (long or wide, SPEC §3): its
cells become text as a spreadsheet shows them (``2.0`` is ``2``, a formula its computed value,
a date cell an ISO date, which a bid or tricks cell reports as a date) and go through the CSV
readers. Messages place a value as ``PATH[WORKSHEET]:ROW:``; ``source`` stays PATH.
"""

from __future__ import annotations

import datetime
import os
from typing import Callable, Iterator

from ..errors import Problem, WizardError
from ..game.model import Sheet
from .cells import _is_blank
from .csv_sheets import sheet_kind, sheets_from_rows
from .source import MAX_YAML_BYTES

INSTALL = "reading a workbook needs the xlsx extra: pip install 'wizard-cli[xlsx]'"
NO_SHEET = ("skipped: no score sheet in this worksheet (a long one has 'round,player,bid,tricks' "
            "columns, a wide one 'round,<player>,<player>,…')")

Note = Callable[[Problem], None]


def read_workbook_sheets(path: str, note: Note | None = None) -> Iterator[Sheet]:
    """Every sheet in a workbook's worksheets, in order; a worksheet that holds none is skipped
    (with a note when it is not empty). With more than one worksheet holding a sheet, a game's
    id is its worksheet's name (``WORKSHEET/ID`` for the games of a ``game`` column)."""
    worksheets = [(name, rows, kind) for name, rows in _worksheets(path)
                  if (kind := _kind(path, name, rows, note)) is not None]
    if not worksheets:
        raise WizardError(Problem("no worksheet holds a score sheet", path))
    named = len(worksheets) > 1
    for name, rows, _ in worksheets:
        location = f"{path}[{name}]"
        header_at = next(at for at, row in enumerate(rows) if not _is_blank(row))
        lines = range(header_at + 2, len(rows) + 1)  # a worksheet's rows are numbered from 1
        body = rows[header_at + 1:]
        # A typed cell has no delimiter to mistake: a decimal comma in a text cell is a point.
        for sheet in sheets_from_rows(rows[header_at], header_at + 1, iter([(body, lines)]),
                                      location, comma=True):
            sheet.source, sheet.location = path, location
            if named:
                sheet.game = name if sheet.game is None else f"{name}/{sheet.game}"
            yield sheet


def _kind(path: str, name: str, rows: list[list[str]], note: Note | None) -> str | None:
    """The kind of sheet a worksheet holds (None: empty, or no sheet, which is noted)."""
    header = next((row for row in rows if not _is_blank(row)), None)
    if header is None:
        return None
    kind = sheet_kind(header)
    if kind is None and note is not None:
        note(Problem(NO_SHEET, f"{path}[{name}]"))
    return kind


def _worksheets(path: str) -> Iterator[tuple[str, list[list[str]]]]:
    """Each worksheet's name and its rows of text from row 1 (columns before the first used
    one dropped: they are empty)."""
    try:
        import python_calamine
    except ImportError:
        raise WizardError(Problem(INSTALL, path)) from None
    try:
        if os.path.getsize(path) > MAX_YAML_BYTES:
            raise WizardError(Problem(f"larger than {MAX_YAML_BYTES >> 20} MB: too large for a "
                                      "score sheet workbook", path))
        book = python_calamine.CalamineWorkbook.from_path(path)
        for name in book.sheet_names:
            worksheet = book.get_sheet_by_name(name)
            first = worksheet.start[1] if worksheet.start is not None else 0
            rows = worksheet.to_python(skip_empty_area=False)
            yield name, [[cell_text(value) for value in row[first:]] for row in rows]
    except WizardError:
        raise
    except Exception as error:  # noqa: BLE001 -- calamine's errors (zip, XML, password) and OSError
        reason = getattr(error, "strerror", None) or str(error) or type(error).__name__
        raise WizardError(Problem(f"not readable as a workbook: {reason}", path)) from None


def cell_text(value: object) -> str:
    """A cell's value as its text in a CSV export: ``2.0`` is ``2``, a date is ISO."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    if isinstance(value, datetime.datetime):
        return (value.date().isoformat() if value.time() == datetime.time()
                else value.isoformat(sep=" "))
    if isinstance(value, datetime.date):
        return value.isoformat()
    return str(value)
