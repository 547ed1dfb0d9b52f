"""Workbooks (``.xlsx .xlsm .xls .ods``), read through python-calamine (the optional ``xlsx`` extra).

Each worksheet that holds a sheet is read as one CSV file would be (long or wide, SPEC §3): its
cells become text as a spreadsheet shows them (``2.0`` is ``2``, a formula its computed value,
a date cell an ISO date, which a bid or tricks cell reports as a date) and go through the CSV
readers. Messages place a value as ``PATH[WORKSHEET]:ROW:``; ``source`` stays PATH.
"""

from __future__ import annotations

import datetime
import itertools
import os
import re
import zipfile
from contextlib import contextmanager
from typing import Callable, Iterator

from ..errors import Problem, WizardError
from ..game.model import Sheet
from .cells import _is_blank
from .csv_rows import Chunks
from .csv_sheets import sheet_kind, sheets_from_rows
from .source import MAX_YAML_BYTES

INSTALL = "reading a workbook needs the xlsx extra: pip install 'wizard-cli[xlsx]'"
NO_SHEET = ("skipped: no score sheet in this worksheet (a long one has 'round,player,bid,tricks' "
            "columns, a wide one 'round,<player>,<player>,…')")

Note = Callable[[Problem], None]


def read_workbook_sheets(path: str, note: Note | None = None) -> Iterator[Sheet]:
    """Every sheet in a workbook's worksheets, in order; a worksheet that holds none is skipped
    (with a note when it is not empty). With more than one worksheet holding a sheet, a game's
    id is its worksheet's name (``WORKSHEET/ID`` for the games of a ``game`` column).

    A worksheet's rows are read as they are needed (a long season streams a game at a time).
    """
    book = _open(path)
    holding = []  # (worksheet name, its header's row number) of those holding a sheet
    for name in book.sheet_names:
        found = next(((number, row) for number, row in _rows(book, path, name)
                      if not _is_blank(row)), None)
        if found is None:
            continue  # an empty worksheet
        if sheet_kind(found[1]) is None:
            if note is not None:
                note(Problem(NO_SHEET, f"{path}[{name}]"))
            continue
        holding.append((name, found[0]))
    if not holding:
        raise WizardError(Problem("no worksheet holds a score sheet", path))
    named = len(holding) > 1
    for name, header_line in holding:
        location = f"{path}[{name}]"
        rows = _rows(book, path, name)
        header = next(row for number, row in rows if number == header_line)
        # A typed cell has no delimiter to mistake: a decimal comma in a text cell is a point.
        for sheet in sheets_from_rows(header, header_line, _chunks(rows), location, comma=True):
            sheet.source, sheet.location = path, location
            if named:
                sheet.game = name if sheet.game is None else f"{name}/{sheet.game}"
            yield sheet


def _open(path: str):  # -> python_calamine.CalamineWorkbook
    """The workbook, through python-calamine (imported only now: the optional extra)."""
    try:
        import python_calamine
    except ImportError:
        raise WizardError(Problem(INSTALL, path)) from None
    with _unreadable(path):
        if os.path.getsize(path) > MAX_YAML_BYTES:
            raise WizardError(Problem(f"larger than {MAX_YAML_BYTES >> 20} MB: too large for a "
                                      "score sheet workbook", path))
        _check_extent(path)
        return python_calamine.CalamineWorkbook.from_path(path)


MAX_CELLS = 2_000_000  # calamine holds a worksheet's whole used range, ~32 bytes a cell (SPEC §4)
_DIMENSION = re.compile(rb'<(?:\w+:)?dimension\s+ref="([A-Z]{1,3})(\d{1,7})(?::([A-Z]{1,3})(\d{1,7}))?"')


def _check_extent(path: str) -> None:
    """Refuse an .xlsx/.xlsm whose worksheet claims a used range too large to hold (one stray
    cell at XFD1048576 would make calamine ask for 512 GB and abort the process): each
    worksheet's ``<dimension>`` is read from the start of its XML before calamine loads it."""
    if not path.lower().endswith((".xlsx", ".xlsm")) or not zipfile.is_zipfile(path):
        return
    with zipfile.ZipFile(path) as archive:
        for part in archive.namelist():
            if not (part.startswith("xl/worksheets/") and part.endswith(".xml")):
                continue
            with archive.open(part) as xml:
                found = _DIMENSION.search(xml.read(4096))
            if found and found.group(3):
                first, last = (int(found.group(2)), _column(found.group(1))), \
                              (int(found.group(4)), _column(found.group(3)))
                cells = (abs(last[0] - first[0]) + 1) * (abs(last[1] - first[1]) + 1)
                if cells > MAX_CELLS:
                    span = found.group(0).split(b'"')[1].decode("ascii")
                    raise WizardError(Problem(
                        f"a worksheet spans {span} ({cells:,} cells): too large to read as a "
                        f"score sheet (at most {MAX_CELLS:,}; save it as CSV, or clear the far "
                        "cells)", path))


def _column(letters: bytes) -> int:
    """A column's number from its letters: A is 1, Z 26, AA 27."""
    number = 0
    for letter in letters:
        number = number * 26 + letter - 64
    return number


def _rows(book, path: str, name: str) -> Iterator[tuple[int, list[str]]]:
    """A worksheet's rows of text, each with its row number (from 1; the columns start at the
    first one used)."""
    with _unreadable(path):
        worksheet = book.get_sheet_by_name(name)
        for number, row in enumerate(worksheet.iter_rows(), start=1):
            yield number, list(map(cell_text, row))


def _chunks(rows: Iterator[tuple[int, list[str]]], size: int = 1024) -> Chunks:
    """Numbered rows a thousand or so at a time, as the CSV readers take them."""
    while chunk := list(itertools.islice(rows, size)):
        numbers, cells = zip(*chunk)
        yield list(cells), numbers


@contextmanager
def _unreadable(path: str) -> Iterator[None]:
    """calamine's errors (zip, XML, a password) and the file's own as one located line."""
    try:
        yield
    except WizardError:
        raise
    except Exception as error:  # noqa: BLE001 -- calamine raises its own error types
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
