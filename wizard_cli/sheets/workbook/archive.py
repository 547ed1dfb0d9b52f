"""What is read from a zipped workbook (``.xlsx .xlsm .ods``) beside calamine, in the child
process that reads it (:mod:`~wizard_cli.sheets.workbook.child`): the archive's declared sizes, and its error cells.

1. **A zip bomb is refused by the archive's directory alone**, before anything is inflated: no
   part may unpack to more than :data:`MAX_PART`, nor all of them to more than
   :data:`MAX_UNPACKED`, nor a large part be packed more than :data:`MAX_RATIO` times (text
   packs 5–20×; 1,000× is whitespace). Python's ``zipfile`` reads no more than a part's declared
   size, and calamine is not asked to read until these hold.
2. **Error cells** (``#DIV/0!``, ``#N/A``…), which calamine reads as empty or as 0, are found in
   the worksheets' XML by a streaming scan of bounded memory (a chunk and a carried-over tag of
   at most :data:`MAX_CARRY`), so that a CSV reader can name them (SPEC §3).

Nothing here predicts what calamine will allocate: the child's memory and CPU limits fence it.
This module imports nothing of the rest of the package (the child starts fast).
"""

from __future__ import annotations

import posixpath
import re
import zipfile
from xml.etree import ElementTree

from .frames import Refusal

MAX_PART = 80 << 20  # what one part may unpack to
MAX_UNPACKED = 160 << 20  # ... and all of them together
MAX_RATIO = 100  # for a part of more than RATIO_FLOOR bytes
RATIO_FLOOR = 8 << 20
_CHUNK = 256 << 10
MAX_CARRY = 1 << 20  # a tag cut by a chunk's end, carried into the next; past this, dropped
_MAX_SMALL_PART = 16 << 20  # the workbook's own index (names of its worksheets), read whole

MAX_ERRORS = 10_000  # error cells kept for one worksheet (past that, read as calamine reads them)
ERROR_UNKNOWN = "#ERROR!"  # an error cell whose code could not be found after it

ErrorCells = dict[str, dict[tuple[int, int], str]]  # worksheet → (row, column) from 1 → code


def check_archive(path: str) -> ErrorCells:
    """Refuse (:class:`Refusal`) a zip archive whose directory declares too much, or an
    ``.xlsb``; else its error cells by worksheet name. A file that is no zip archive (an
    ``.xls``, a damaged file: calamine says so) has none found here."""
    errors: ErrorCells = {}
    if not zipfile.is_zipfile(path):
        return errors
    try:
        with zipfile.ZipFile(path) as archive:
            _check_sizes(archive, path)
            if any(_normal(part).endswith("workbook.bin") for part in archive.namelist()):
                raise Refusal(
                    "not readable as a workbook: an .xlsb (binary) workbook is not "
                    "read; save it as .xlsx",
                    path,
                )
            if "content.xml" in archive.NameToInfo:
                with archive.open("content.xml") as xml:
                    if _holds(xml, b'value-type="error"'):
                        with archive.open("content.xml") as again:
                            _OdsScan(errors).run(again)
            for part, name in _xlsx_worksheets(archive):
                _scan_worksheet(archive, part, errors.setdefault(name, {}))
    except (
        zipfile.BadZipFile,
        zipfile.LargeZipFile,
        NotImplementedError,
        EOFError,
        RuntimeError,
        OSError,
        ValueError,
    ) as error:
        raise Refusal(f"not readable as a workbook: {error}", path) from None
    return errors


def _check_sizes(archive: zipfile.ZipFile, path: str) -> None:
    """Refuse by the archive's directory alone, before anything is decompressed."""
    total = 0
    for info in archive.infolist():
        total += info.file_size
        ratio = info.file_size / max(info.compress_size, 1)
        if info.file_size > MAX_PART or (info.file_size > RATIO_FLOOR and ratio > MAX_RATIO):
            raise Refusal(
                f"its part {info.filename} unpacks to {_mib(info.file_size)} ({ratio:,.0f}× "
                f"its packed size): too large for a score sheet workbook (at most "
                f"{_mib(MAX_PART)}, {MAX_RATIO}×)",
                path,
            )
    if total > MAX_UNPACKED:
        raise Refusal(
            f"it unpacks to {_mib(total)}: too large for a score sheet workbook (at "
            f"most {_mib(MAX_UNPACKED)})",
            path,
        )


def _mib(size: int) -> str:
    return f"{size / (1 << 20):,.0f} MiB" if size >= 1 << 20 else f"{size:,} bytes"


def _holds(xml, needle: bytes) -> bool:
    """Whether a part holds ``needle``, read a chunk at a time."""
    tail = b""
    while chunk := xml.read(_CHUNK):
        if needle in tail + chunk[: len(needle)] or needle in chunk:
            return True
        tail = chunk[-len(needle) :]
    return False


def _xlsx_worksheets(archive: zipfile.ZipFile) -> list[tuple[str, str]]:
    """(part, worksheet name) of the worksheets the workbook part names, looked up as calamine
    looks parts up (any case, ``\\`` for ``/``)."""
    try:
        book = ElementTree.fromstring(_small(archive, "xl/workbook.xml"))
        rels = ElementTree.fromstring(_small(archive, "xl/_rels/workbook.xml.rels"))
    except (KeyError, ElementTree.ParseError):
        return []
    parts = {_normal(part): part for part in archive.namelist()}
    targets = {rel.get("Id"): rel.get("Target", "") for rel in rels}
    found = []
    for sheet in book.iter("{http://schemas.openxmlformats.org/spreadsheetml/2006/main}sheet"):
        rid = next((value for key, value in sheet.attrib.items() if key.endswith("}id")), None)
        target = targets.get(rid, "")
        part = (
            target.lstrip("/")
            if target.startswith("/")
            else posixpath.normpath(posixpath.join("xl", target))
        )
        if _normal(part) in parts:
            found.append((parts[_normal(part)], sheet.get("name", part)))
    return found


def _normal(part: str) -> str:
    """A part's name as calamine looks it up: any case, ``\\`` as ``/``."""
    return part.replace("\\", "/").lower()


def _small(archive: zipfile.ZipFile, part: str) -> bytes:
    """A small part read whole (KeyError if absent or not small)."""
    if archive.getinfo(part).file_size > _MAX_SMALL_PART:
        raise KeyError(part)
    return archive.read(part)


def _column(letters: bytes) -> int:
    """A column's number from its letters: A is 1, Z 26, AA 27 (either case)."""
    number = 0
    for letter in letters.upper():
        number = number * 26 + letter - 64
    return number


class _Scan:
    """A bounded pass over one XML part: chunks of it, and the tags of interest in each (a tag
    cut by a chunk's end is carried over, up to MAX_CARRY: a longer run is text, not a tag)."""

    TAGS: re.Pattern[bytes]

    def run(self, xml) -> None:
        carry = b""
        while chunk := xml.read(_CHUNK):
            data = carry + chunk
            cut = data.rfind(b"<")  # the tag from here on may be cut off: carried over
            if cut > 0:
                self.feed(data[:cut])
                data = data[cut:]
            carry = data if len(data) <= MAX_CARRY else b""
        self.feed(carry)

    def feed(self, data: bytes) -> None:
        """Take the tags of interest in ``data`` (whole tags only)."""
        for match in self.TAGS.finditer(data):
            self.tag(match)

    def tag(self, match: re.Match[bytes]) -> None:
        raise NotImplementedError


def _text_after(match: re.Match[bytes], pattern: re.Pattern[bytes]) -> str:
    """The text ``pattern`` finds right after a tag (an error cell's code)."""
    found = pattern.match(match.string, match.end())
    if found is None:
        return ERROR_UNKNOWN
    return found.group(1).decode("utf-8", "replace").strip()[:40] or ERROR_UNKNOWN


# A cell's or row's place as calamine reads it: either quote, letters of either case, the
# digits however many
_REF = re.compile(rb'\br=["\']([A-Za-z]{1,3})0*([0-9]{1,12})["\']')
_ROW_REF = re.compile(rb'\br=["\']0*([0-9]{1,12})["\']')
_ERROR_CELL = re.compile(rb'<(?:[\w.-]+:)?c\s([^>]*\bt=["\']e["\'][^>]*)(?<!/)>')
# a formula before a cell's value
_BEFORE_VALUE = rb"(?:\s|<(?:[\w.-]+:)?f\b[^>]*/>|<(?:[\w.-]+:)?f\b[^>]*>[^<]*</[^>]*>)*"
_XLSX_VALUE = re.compile(_BEFORE_VALUE + rb"<(?:[\w.-]+:)?v>([^<]*)")


def _scan_worksheet(
    archive: zipfile.ZipFile, part: str, errors: dict[tuple[int, int], str]
) -> None:
    """An .xlsx worksheet's error cells: by blocks while each has its place (``r``), else
    again tag by tag (a cell without ``r`` follows the one before it, as calamine places it)."""
    try:
        with archive.open(part) as xml:
            _XlsxScan(errors).run(xml)
    except _Unplaced:
        errors.clear()
        with archive.open(part) as xml:
            _XlsxScan(errors, placed=False).run(xml)


class _Unplaced(Exception):
    """An error cell without ``r``: scan the worksheet again, tag by tag."""


class _XlsxScan(_Scan):
    """An .xlsx worksheet's error cells (``t="e"``) and the code each shows."""

    TAGS = re.compile(rb"<(?:[\w.-]+:)?(row|c)(?=[\s/>])([^>]*)>")

    def __init__(self, errors: dict[tuple[int, int], str], placed: bool = True) -> None:
        self.errors, self.placed = errors, placed
        self.row = self.column = 0

    def feed(self, data: bytes) -> None:
        if not self.placed:
            super().feed(data)
        elif b't="e"' in data or b"t='e'" in data:
            for match in _ERROR_CELL.finditer(data):
                place = _REF.search(match.group(1))
                if place is None:
                    raise _Unplaced
                self.add(int(place.group(2)), _column(place.group(1)), match)

    def tag(self, match: re.Match[bytes]) -> None:
        name, attributes = match.groups()
        if name == b"row":
            found = _ROW_REF.search(attributes)
            self.row = int(found.group(1)) if found else self.row + 1
            self.column = 0
            return
        found = _REF.search(attributes)
        if found:
            self.column, row = _column(found.group(1)), int(found.group(2))
        else:
            self.column, row = self.column + 1, max(self.row, 1)
        if re.search(rb'\bt=["\']e["\']', attributes) and not attributes.endswith(b"/"):
            self.add(row, self.column, match)

    def add(self, row: int, column: int, match: re.Match[bytes]) -> None:
        if len(self.errors) < MAX_ERRORS:
            self.errors[row, column] = _text_after(match, _XLSX_VALUE)


# counts as calamine parses them (Rust's usize: a + sign, leading zeros), in either quote
_REPEAT_COLUMNS = re.compile(rb'number-columns-repeated=["\']\+?0*([0-9]*)["\']')
_REPEAT_ROWS = re.compile(rb'number-rows-repeated=["\']\+?0*([0-9]*)["\']')
_ODS_TEXT = re.compile(rb"\s*<(?:[\w.-]+:)?p\b[^>]*>([^<]*)")
_TABLE_NAME = re.compile(rb'\bname="([^"]*)"')


def _count(digits: bytes) -> int:
    """A count's digits as a number; more than 12 of them as more than any worksheet holds."""
    return int(digits or b"0") if len(digits) <= 12 else 10**12


class _OdsScan(_Scan):
    """An .ods's ``content.xml``: each table (worksheet), its rows and cells with their repeat
    counts, and where the error cells (``calcext:value-type="error"``) fall."""

    TAGS = re.compile(
        rb"<(/?)(?:[\w.-]+:)?(table|table-row|table-cell|covered-table-cell)"
        rb"(?=[\s/>])((?:[^>\"']|\"[^\"]*\"|'[^']*')*)>"
    )  # a quoted '>' too

    def __init__(self, errors: ErrorCells) -> None:
        self.errors = errors
        self.table: dict[tuple[int, int], str] | None = None
        self.depth = 0  # of tables: one inside a cell is part of the worksheet around it
        self.row = self.row_repeat = self.column = 0
        self.pending: list[tuple[int, int, str]] = []  # the row's error cells: column, repeat, code

    def tag(self, match: re.Match[bytes]) -> None:
        closing, name, attributes = match.groups()
        if name == b"table":
            if attributes.endswith(b"/"):
                return
            self.depth += -1 if closing else 1
            if closing and self.depth == 0:
                self.table = None
            elif not closing and self.depth == 1:
                found = _TABLE_NAME.search(attributes)
                table = found.group(1).decode("utf-8", "replace") if found else "?"
                self.table, self.row = self.errors.setdefault(table, {}), 0
        elif self.table is None:
            return
        elif name == b"table-row":
            if closing:
                self.finish_row()
            else:
                found = _REPEAT_ROWS.search(attributes)
                self.row_repeat = max(_count(found.group(1)), 1) if found else 1
                self.column, self.pending = 0, []
                if attributes.endswith(b"/"):
                    self.finish_row()
        elif not closing:
            found = _REPEAT_COLUMNS.search(attributes)
            repeat = max(_count(found.group(1)), 1) if found else 1
            if name == b"table-cell" and b'value-type="error"' in attributes:
                self.pending.append((self.column, repeat, _text_after(match, _ODS_TEXT)))
            self.column += repeat

    def finish_row(self) -> None:
        table = self.table
        assert table is not None  # a row is finished only inside a table
        for column, repeat, text in self.pending:  # error cells, each copy of them
            for row in range(self.row + 1, self.row + 1 + min(self.row_repeat, 100)):
                for copy in range(column + 1, column + 1 + min(repeat, 100)):
                    if len(table) < MAX_ERRORS:
                        table[row, copy] = text
        self.pending = []
        self.row += self.row_repeat
        self.row_repeat = 0
