"""Workbooks (``.xlsx .xlsm .xls .ods``), read through python-calamine (the optional ``xlsx`` extra).

Each worksheet that holds a sheet is read as one CSV file would be (long or wide, SPEC §3): its
cells become text as a spreadsheet shows them (``2.0`` is ``2``, a formula its computed value,
a date cell an ISO date, which a bid or tricks cell reports as a date) and go through the CSV
readers. Messages place a value as ``PATH[WORKSHEET]:ROW:``; ``source`` stays PATH.
"""

from __future__ import annotations

import datetime
import os
from contextlib import contextmanager
from typing import Callable, Iterator

from ..errors import Problem, WizardError
from ..game.model import Sheet
from .cells import is_blank
from .csv_rows import Chunks
from .csv_sheets import sheet_kind, sheets_from_rows
from .source import MAX_YAML_BYTES
from .workbook_limits import check_workbook
from .xls_limits import check_xls, is_compound_file

INSTALL = ("reading a workbook needs python-calamine, the xlsx extra: pip install '.[xlsx]' in "
           "the wizard checkout")
NO_SHEET = ("skipped: no score sheet in this worksheet (a long one has 'round,player,bid,tricks' "
            "columns, a wide one 'round,<player>,<player>,…')")

Note = Callable[[Problem], None]


def read_workbook_sheets(path: str, note: Note | None = None) -> Iterator[Sheet]:
    """Every sheet in a workbook's worksheets, in order; a worksheet that holds none is skipped
    (with a note when it is not empty). With more than one worksheet holding a sheet, a game's
    id is its worksheet's name (``WORKSHEET/ID`` for the games of a ``game`` column).

    A worksheet's rows are read as they are needed (a long season streams a game at a time).
    """
    book, errors = _open(path)
    holding = []  # (worksheet name, its header's row number) of those holding a sheet
    for name in book.sheet_names:
        found = next(((number, row) for number, row in _rows(book, path, name, errors.get(name))
                      if not is_blank(row)), None)
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
        rows = _rows(book, path, name, errors.get(name))
        header = next(row for number, row in rows if number == header_line)
        # A typed cell has no delimiter to mistake: a decimal comma in a text cell is a point.
        for sheet in sheets_from_rows(header, header_line, _chunks(rows), location, comma=True):
            sheet.source, sheet.location = path, location
            if named:
                sheet.game = name if sheet.game is None else f"{name}/{sheet.game}"
            yield sheet


def _open(path: str):  # -> (python_calamine.CalamineWorkbook, ErrorCells)
    """The workbook, through python-calamine (imported only now: the optional extra), once it
    is known to fit in memory; and its error cells, which calamine reads as empty or 0."""
    try:
        import python_calamine
    except ImportError:
        raise WizardError(Problem(INSTALL, path)) from None
    with _unreadable(path):
        if os.path.getsize(path) > MAX_YAML_BYTES:
            raise WizardError(Problem(f"larger than {MAX_YAML_BYTES >> 20} MB: too large for a "
                                      "score sheet workbook", path))
        # never let calamine abort the process (SPEC §4): an .xls (a compound file, whatever
        # its name) has a scan of its own
        if is_compound_file(path):
            check_xls(path)
            errors: dict = {}
        else:
            errors = check_workbook(path)
        return python_calamine.CalamineWorkbook.from_path(path), errors


def _rows(book, path: str, name: str,
          errors: dict[tuple[int, int], str] | None = None) -> Iterator[tuple[int, list[str]]]:
    """A worksheet's rows of text, each with its row number (from 1; the columns start at the
    first one used); an error cell reads as its code (``#DIV/0!``), as a CSV export has it."""
    with _unreadable(path):
        worksheet = book.get_sheet_by_name(name)
        first_column = (worksheet.start or (0, 0))[1] + 1
        for number, row in enumerate(worksheet.iter_rows(), start=1):
            cells = list(map(cell_text, row))
            if errors:
                for index in range(len(cells)):
                    code = errors.get((number, first_column + index))
                    if code is not None:
                        cells[index] = code
            yield number, cells


CHUNK_TEXT = 1 << 20  # characters of a chunk's cells (a text with one emoji in it is 4 bytes a
# character in Python: 800 cells of 80,000 characters, held at once, peaked at 331 MiB)


def _chunks(rows: Iterator[tuple[int, list[str]]], size: int = 1024) -> Chunks:
    """Numbered rows a thousand or so at a time, as the CSV readers take them, and fewer when
    their text passes CHUNK_TEXT."""
    chunk: list[tuple[int, list[str]]] = []
    text = 0
    for row in rows:
        chunk.append(row)
        text += sum(map(len, row[1]))
        if len(chunk) >= size or text >= CHUNK_TEXT:
            numbers, cells = zip(*chunk)
            yield list(cells), numbers
            chunk, text = [], 0
    if chunk:
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
    except BaseException as error:
        if type(error).__name__ != "PanicException":  # pyo3's, for a panic inside calamine
            raise
        raise WizardError(Problem(f"not readable as a workbook: calamine failed on it "
                                  f"({error})", path)) from None


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
