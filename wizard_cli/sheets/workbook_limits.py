"""What a workbook may ask of memory, found out before python-calamine reads it (SPEC §4).

calamine builds a worksheet's whole used range in memory and holds each text run of the XML
whole; past what it can allocate it aborts the process (SIGABRT), taking a whole batch with it.
So an ``.xlsx``/``.xlsm``/``.ods`` archive is checked first, in flat memory (issue 21, items 2
and 3):

1. **The archive's declared sizes** (its directory, nothing decompressed): no part may unpack to
   more than :data:`MAX_PART`, nor all of them to more than :data:`MAX_UNPACKED`, nor a large
   part be compressed more than :data:`MAX_RATIO` times (text compresses 5–20×; 1,000× is
   whitespace, a zip bomb).
2. **The worksheets' true extent**: each worksheet's XML (and the shared strings) is streamed
   through a bounded byte scan, never built: the cells that hold a value (an empty styled cell,
   a ``<dimension>`` and ODS's repeated *empty* cells cost calamine nothing) span at most
   :data:`MAX_CELLS`, counting ODS's ``number-columns-repeated``/``number-rows-repeated``
   copies; no run of text between two tags is longer than :data:`MAX_TEXT`; the shared strings
   are at most :data:`MAX_CELLS`, and the bytes of them copied into the cells that show them
   at most :data:`MAX_COPIED_TEXT` (a 5 KB .xlsx showing a million-character string in 1,000
   cells peaked at 1.9 GB). calamine builds every table of an .ods before one is read, so
   their spans are also counted together; and what it writes out beyond the file's own bytes,
   a repeated cell's copies (content and attributes) and ``text:s`` spaces, at most
   :data:`MAX_COPIED_TEXT` (a 1.1 KB .ods of a 100 KB string in 10,000 copies peaked at
   2.9 GB).

Why a scan here rather than calamine in a child process under a memory limit (both measured,
README "Workbooks and memory"): the child costs less on a huge worksheet (0.3 s against the
scan's 2.5 s on two million cells), but the scan refuses before anything is allocated, names
what is wrong (``PATH[WORKSHEET]: the worksheet spans A1:XFD1048576``) where a killed child only
says that it died, and keeps one process (no fork beside ``serve``'s threads, no rows pickled
across a pipe). Python's ``zipfile`` reads no more than a part's declared size, so the scan sees
what the directory promises. An ``.xls`` (a compound file of BIFF8 records) has a scan of its
own, :mod:`.xls_limits`.
"""

from __future__ import annotations

import posixpath
import re
from array import array
import zipfile
from typing import IO, Any
from xml.etree import ElementTree

from ..errors import Problem, WizardError

MAX_CELLS = 2_000_000  # calamine holds a worksheet's whole used range, ~32 bytes a cell
MAX_TEXT = 1 << 20  # one run of text (a cell, whitespace) between two tags: 1 MiB
MAX_PART = 80 << 20  # what one part may unpack to: calamine holds a worksheet's text whole
# (80 MiB of inline strings peak at 194 MiB; a 2-million-cell season's worksheet is 70 MiB)
MAX_UNPACKED = 160 << 20  # ... and all of them together
MAX_COPIED_TEXT = 32 << 20  # what calamine copies: shared strings into an .xlsx's cells; an
# .ods's repeated cells and text:s spaces
MAX_RATIO = 100  # for a part of more than RATIO_FLOOR bytes
RATIO_FLOOR = 8 << 20
_CHUNK = 256 << 10  # must stay below MAX_TEXT (a run inside one chunk is not measured)
_MAX_SMALL_PART = 16 << 20  # the workbook's own index (names of its worksheets), read whole

MAX_ERRORS = 10_000  # error cells remembered in one worksheet (past that, read as calamine has them)
ERROR_UNKNOWN = "#ERROR!"  # an error cell whose code could not be found after it

ErrorCells = dict[str, dict[tuple[int, int], str]]


def check_workbook(path: str) -> ErrorCells:
    """Raise WizardError (one located line) if reading the workbook at ``path`` could take more
    memory than SPEC §4 allows; else return its error cells (``#DIV/0!``, ``#N/A``…), which
    calamine reads as empty or as 0, by worksheet name and ``(row, column)`` from 1.

    A workbook that is not a zip archive (an ``.xls``, checked by :mod:`.xls_limits`, or a
    damaged file, which calamine then reports) is not checked here."""
    errors: ErrorCells = {}
    if not zipfile.is_zipfile(path):
        return errors
    try:
        with zipfile.ZipFile(path) as archive:
            _check_sizes(archive, path)
            # calamine picks its reader by the file's suffix, or tries each in turn: an archive
            # is scanned as every reader would read it
            if any(_normal(part).endswith("workbook.bin") for part in archive.namelist()):
                raise WizardError(Problem("not readable as a workbook: an .xlsb (binary) "
                                          "workbook is not read; save it as .xlsx", path))
            if "content.xml" in archive.NameToInfo:
                with archive.open("content.xml") as xml:
                    _OdsScan(path, errors).run(xml)
            strings = array("I")
            for part in archive.namelist():
                if _normal(part).endswith("sharedstrings.xml"):
                    with archive.open(part) as xml:
                        scan = _SharedStringsScan(path)
                        scan.run(xml)
                    strings = _longer(strings, scan.lengths)
            for part, name in _xlsx_worksheets(archive, path):
                _scan_worksheet(archive, part, f"{path}[{name}]", errors.setdefault(name, {}),
                                strings)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, EOFError,
            RuntimeError, OSError, ValueError) as error:
        raise WizardError(Problem(f"not readable as a workbook: {error}", path)) from None
    return errors


def _scan_worksheet(archive: zipfile.ZipFile, part: str, location: str,
                    errors: dict[tuple[int, int], str], strings: array) -> None:
    """Scan one worksheet of an .xlsx: by blocks, unless a cell has no place (then tag by tag);
    the shared strings its cells show counted roughly (each as the longest), and exactly when
    the rough count is too much."""
    placed, exact = True, False
    while True:
        errors.clear()
        try:
            with archive.open(part) as xml:
                _XlsxScan(location, errors, strings, placed, exact).run(xml)
            return
        except _Unplaced:
            placed, exact = False, True
        except _Inexact:
            exact = True


def _longer(first: array, second: array) -> array:
    """Each string's length, the longer of two tables' (a workbook may hold more than one)."""
    if not first:
        return second
    longer = array("I", map(max, first, second))
    return longer + (first if len(first) > len(second) else second)[len(longer):]


def _check_sizes(archive: zipfile.ZipFile, path: str) -> None:
    """Refuse by the archive's directory alone, before anything is decompressed."""
    total = 0
    for info in archive.infolist():
        total += info.file_size
        ratio = info.file_size / max(info.compress_size, 1)
        if info.file_size > MAX_PART or (info.file_size > RATIO_FLOOR and ratio > MAX_RATIO):
            raise WizardError(Problem(
                f"its part {info.filename} unpacks to {_mib(info.file_size)} ({ratio:,.0f}× "
                f"its packed size): too large for a score sheet workbook (at most "
                f"{_mib(MAX_PART)}, {MAX_RATIO}×)", path))
    if total > MAX_UNPACKED:
        raise WizardError(Problem(f"it unpacks to {_mib(total)}: too large for a score sheet "
                                  f"workbook (at most {_mib(MAX_UNPACKED)})", path))


def _mib(size: int) -> str:
    return f"{size / (1 << 20):,.0f} MiB" if size >= 1 << 20 else f"{size:,} bytes"


def _xlsx_worksheets(archive: zipfile.ZipFile, path: str) -> list[tuple[str, str]]:
    """(part, worksheet name) of every part calamine might read as a worksheet: each XML part
    but the shared strings and an .ods's content, named as the workbook part names it, else by
    its file name. calamine finds the workbook through ``_rels/.rels`` (anywhere, not only in
    ``xl/``) and looks parts up in any case and with ``\\`` for ``/``; a part that is no
    worksheet holds no cell, and scanning it is on the safe side."""
    names: dict[str, str] = {}
    try:
        book = ElementTree.fromstring(_small(archive, "xl/workbook.xml"))
        rels = ElementTree.fromstring(_small(archive, "xl/_rels/workbook.xml.rels"))
        targets = {rel.get("Id"): rel.get("Target", "") for rel in rels}
        for sheet in book.iter("{http://schemas.openxmlformats.org/spreadsheetml/2006/main}sheet"):
            rid = next((value for key, value in sheet.attrib.items() if key.endswith("}id")), None)
            target = targets.get(rid, "")
            part = target.lstrip("/") if target.startswith("/") else \
                posixpath.normpath(posixpath.join("xl", target))
            names[_normal(part)] = sheet.get("name", part)
    except (KeyError, ElementTree.ParseError):
        pass
    parts = [part for part in archive.namelist() if _normal(part).endswith(".xml")
             and not _normal(part).endswith("sharedstrings.xml") and part != "content.xml"]
    return [(part, names.get(_normal(part), posixpath.basename(part))) for part in parts]


def _normal(part: str) -> str:
    """A part's name as calamine looks it up: any case, ``\\`` as ``/``."""
    return part.replace("\\", "/").lower()


def _small(archive: zipfile.ZipFile, part: str) -> bytes:
    """A small part read whole (KeyError if absent or not small)."""
    if archive.getinfo(part).file_size > _MAX_SMALL_PART:
        raise KeyError(part)
    return archive.read(part)


def _column_name(number: int) -> str:
    letters = ""
    while number:
        number, rest = divmod(number - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def _column(letters: bytes) -> int:
    """A column's number from its letters: A is 1, Z 26, AA 27 (either case)."""
    number = 0
    for letter in letters.upper():
        number = number * 26 + letter - 64
    return number


class _Scan:
    """A bounded pass over one XML part: chunks of it, the tags of interest in each (a tag cut
    by a chunk's end is carried over), and the longest run between two tags measured."""

    TAGS: re.Pattern[bytes]

    def __init__(self, location: str) -> None:
        self.location = location
        self.offset = 0  # where in the part the data being fed starts
        self.end = 0  # the part's size, once read

    def run(self, xml: IO[bytes]) -> None:
        carry, base, last_open = b"", 0, 0
        while chunk := xml.read(_CHUNK):
            first = chunk.find(b"<")
            if (base + (len(chunk) if first < 0 else first)) - last_open > MAX_TEXT:
                self.refuse(f"its XML holds more than {_mib(MAX_TEXT)} of text in one run (a "
                            "cell or whitespace): too large for a score sheet")
            if first >= 0:
                last_open = base + chunk.rfind(b"<")
            base += len(chunk)
            data = carry + chunk
            self.offset = base - len(data)  # base counts the chunk already
            cut = data.rfind(b"<")  # the tag from here on may be cut off: carried over
            if cut > 0:
                self.feed(data[:cut])
                self.offset += cut
                data = data[cut:]
            carry = data
        self.feed(carry)
        self.end = base
        self.done()

    def feed(self, data: bytes) -> None:
        """Take the tags of interest in ``data`` (whole tags only)."""
        for match in self.TAGS.finditer(data):
            self.tag(match)

    def tag(self, match: re.Match[bytes]) -> None:
        raise NotImplementedError

    def done(self) -> None:
        pass

    def refuse(self, message: str) -> None:
        raise WizardError(Problem(message, self.location))


def _text_after(match: re.Match[bytes], pattern: re.Pattern[bytes]) -> str:
    """The text ``pattern`` finds right after a tag (an error cell's code)."""
    found = pattern.match(match.string, match.end())
    if found is None:
        return ERROR_UNKNOWN
    return found.group(1).decode("utf-8", "replace").strip()[:40] or ERROR_UNKNOWN


class Extent:
    """The span of the cells holding a value, one worksheet's."""

    def __init__(self) -> None:
        self.top = self.left = 1 << 62
        self.bottom = self.right = 0

    def add(self, top: int, left: int, bottom: int, right: int) -> None:
        self.top, self.left = min(self.top, top), min(self.left, left)
        self.bottom, self.right = max(self.bottom, bottom), max(self.right, right)

    def cells(self) -> int:
        """How many cells the span holds (0 for none)."""
        if not self.bottom:
            return 0
        return (self.bottom - self.top + 1) * (self.right - self.left + 1)

    @staticmethod
    def check_all(cells: int, path: str) -> None:
        """Refuse worksheets that span more than MAX_CELLS cells in all, when calamine builds
        every one before any is read (.ods, .xls)."""
        if cells > MAX_CELLS:
            raise WizardError(Problem(
                f"its worksheets span more than {MAX_CELLS:,} cells in all: too large to read as "
                "a score sheet (save it as CSV, or clear the far cells)", path))

    def check(self, scan: Any, what: str = "the worksheet") -> None:
        """Refuse (``scan.refuse``) a span of more than MAX_CELLS cells."""
        cells = self.cells()
        if cells > MAX_CELLS:
            span = (f"{_column_name(self.left)}{self.top}:"
                    f"{_column_name(self.right)}{self.bottom}")
            scan.refuse(f"{what} spans {span} ({cells:,} cells): too large to read as a score "
                        f"sheet (at most {MAX_CELLS:,}; save it as CSV, or clear the far cells)")


# A cell's or row's place as calamine reads it: either quote, letters of either case, the
# digits however many (a number past a worksheet's rows still spans them)
_REF = re.compile(rb'\br=["\']([A-Za-z]{1,3})0*([0-9]{1,12})["\']')
_ROW_REF = re.compile(rb'\br=["\']0*([0-9]{1,12})["\']')


_VALUED_CELL = re.compile(rb'<(?:[\w.-]+:)?c\s[^>]*?\br=["\']([A-Za-z]{1,3})0*([0-9]{1,12})["\']'
                          rb'[^>]*(?<!/)>')
_ERROR_CELL = re.compile(rb'<(?:[\w.-]+:)?c\s([^>]*\bt="e"[^>]*)(?<!/)>')
_BEFORE_VALUE = rb"(?:\s|<(?:[\w.-]+:)?f\b[^>]*/>|<(?:[\w.-]+:)?f\b[^>]*>[^<]*</[^>]*>)*"  # a formula
_XLSX_VALUE = re.compile(_BEFORE_VALUE + rb"<(?:[\w.-]+:)?v>([^<]*)")
_SHARED_CELL = re.compile(rb'\bt=["\']s["\'][^>]*(?<!/)>')  # a cell showing a shared string
_SHARED_INDEX = re.compile(_BEFORE_VALUE + rb"<(?:[\w.-]+:)?v\b[^>]*>\s*([0-9]{1,10})\s*<")
_UNPLACED_CELL = re.compile(rb"<(?:[\w.-]+:)?c(?=[\s/>])(?:(?!\sr=)[^>])*>")


class _XlsxScan(_Scan):
    """An .xlsx worksheet: ``<row r=…>`` and ``<c r=…>``. Every writer (Excel, LibreOffice,
    openpyxl) names each cell's place, so a block's valued cells are found by one regular
    expression; a cell without ``r`` (it follows the one before it, in a row that follows the
    row before it, as calamine places them) sends the whole worksheet to the tag-by-tag scan."""

    TAGS = re.compile(rb"<(?:[\w.-]+:)?(row|c)(?=[\s/>])([^>]*)>")

    def __init__(self, location: str, errors: dict[tuple[int, int], str],
                 strings: array | None = None, placed: bool = True, exact: bool = False) -> None:
        super().__init__(location)
        self.errors = errors
        self.extent = Extent()
        self.placed = placed  # every cell has its r (until one is found without)
        self.row, self.column = 0, 0
        # calamine copies a shared string into each cell that shows it: their bytes, counted
        # each as the longest string (raising _Inexact past the limit), or exactly
        self.strings = strings or array("I")
        self.longest = max(self.strings, default=0)
        self.exact, self.copied = exact, 0

    def feed(self, data: bytes) -> None:
        if not self.placed:
            super().feed(data)
            return
        found = _VALUED_CELL.findall(data)
        if _UNPLACED_CELL.search(data):
            raise _Unplaced
        if b't="e"' in data:
            for match in _ERROR_CELL.finditer(data):
                place = _REF.search(match.group(1))
                if place and len(self.errors) < MAX_ERRORS:
                    self.errors[int(place.group(2)), _column(place.group(1))] = \
                        _text_after(match, _XLSX_VALUE)
        if self.longest and (b't="s"' in data or b"t='s'" in data):
            if self.exact:
                for cell in _SHARED_CELL.finditer(data):
                    self.add_copied(self.shown(data, cell.end()))
            else:
                self.copied += (data.count(b't="s"') + data.count(b"t='s'")) * self.longest
                if self.copied > MAX_COPIED_TEXT:
                    raise _Inexact
        if found:
            letters = {column for column, _ in found}
            columns = [_column(column) for column in letters]
            rows = list(map(int, (row for _, row in found)))
            self.extent.add(min(rows), min(columns), max(rows), max(columns))

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
        if not attributes.endswith(b"/"):  # an empty cell (``<c r="X9" s="1"/>``) costs nothing
            self.extent.add(row, self.column, row, self.column)
            if self.longest and _SHARED_CELL.search(match.group(0)):
                self.add_copied(self.shown(match.string, match.end()))

    def shown(self, data: bytes, at: int) -> int:
        """The bytes of the shared string a cell whose content starts at ``at`` shows: the
        longest where its index is not plain (calamine reads ``<v>x</v>`` as string 0)."""
        value = _SHARED_INDEX.match(data, at)
        index = int(value.group(1)) if value else -1
        return self.strings[index] if 0 <= index < len(self.strings) else self.longest

    def add_copied(self, size: int) -> None:
        """Count ``size`` more bytes of shared strings copied into cells; refuse past
        MAX_COPIED_TEXT."""
        self.copied += size
        if self.copied > MAX_COPIED_TEXT:
            self.refuse(f"its cells show more than {_mib(MAX_COPIED_TEXT)} of shared strings' "
                        "text: too large for a score sheet")

    def done(self) -> None:
        self.extent.check(self)


class _Unplaced(Exception):
    """A worksheet has a cell without ``r``: scan it again, tag by tag."""


class _Inexact(Exception):
    """A worksheet's cells may show too much shared text, by the rough count: count exactly."""


class _SharedStringsScan(_Scan):
    """The shared strings: how many there are (each is held as a string of its own), and how
    long each may be: the bytes from its ``<si>`` to the next, less the least markup of one
    (``<si><t></t></si>``)."""

    TAGS = re.compile(rb"<(?:[\w.-]+:)?(si|sst)(?=[\s/>])([^>]*)")

    def __init__(self, location: str) -> None:
        super().__init__(location)
        self.lengths = array("I")
        self.start = -1  # where the string being read began

    def tag(self, match: re.Match[bytes]) -> None:
        if match.group(1) == b"sst":  # calamine reserves room for its uniqueCount
            claimed = _UNIQUE_COUNT.search(match.group(2))
            if claimed and _count(claimed.group(1)) > MAX_CELLS:
                self.refuse(f"its shared strings number more than {MAX_CELLS:,}: too many for "
                            "a score sheet")
            return
        at = self.offset + match.start()
        if self.start >= 0:
            self.lengths.append(max(at - self.start - 16, 0))
        self.start = at
        if len(self.lengths) >= MAX_CELLS:
            self.refuse(f"its shared strings number more than {MAX_CELLS:,}: too many for a "
                        "score sheet")

    def done(self) -> None:
        if self.start >= 0:
            self.lengths.append(min(max(self.end - self.start - 16, 0), 0xFFFFFFFF))


# counts as calamine parses them (Rust's usize: a + sign, leading zeros), in either quote
_REPEAT_COLUMNS = re.compile(rb'number-columns-repeated=["\']\+?0*([0-9]*)["\']')
_REPEAT_ROWS = re.compile(rb'number-rows-repeated=["\']\+?0*([0-9]*)["\']')
_UNIQUE_COUNT = re.compile(rb'\buniqueCount=["\']\+?0*([0-9]*)["\']')


_ODS_TEXT = re.compile(rb"\s*<(?:[\w.-]+:)?p\b[^>]*>([^<]*)")
_TABLE_NAME = re.compile(rb'\bname="([^"]*)"')
_SPACES = re.compile(rb'\btext:c="0*([0-9]*)"')


def _count(digits: bytes) -> int:
    """A count's digits as a number; more than 12 of them as more than any limit."""
    return int(digits or b"0") if len(digits) <= 12 else 10**12


def _spaces(attributes: bytes) -> int:
    """How many spaces a ``text:s`` stands for (calamine: its ``text:c``, else 1)."""
    found = _SPACES.search(attributes)
    return 1 if found is None else _count(found.group(1))


class _OdsScan(_Scan):
    """An .ods's ``content.xml``: each table (worksheet), its rows and cells with their repeat
    counts; a cell holds a value when it has a value type or content (not self-closing)."""

    TAGS = re.compile(rb"<(/?)(?:[\w.-]+:)?(table|table-row|table-cell|covered-table-cell|s)"
                      rb"(?=[\s/>])((?:[^>\"']|\"[^\"]*\"|'[^']*')*)>")  # a quoted '>' too

    def __init__(self, path: str, errors: ErrorCells) -> None:
        super().__init__(path)
        self.path, self.errors = path, errors
        self.table_errors: dict[tuple[int, int], str] = {}
        self.extent: Extent | None = None
        self.depth = 0  # of tables: one inside a cell is part of the worksheet around it
        self.row = self.row_repeat = self.column = self.row_right = 0
        self.pending: list[tuple[int, int, str]] = []  # error cells of the row: column, repeat, code
        self.span = 0  # of the tables finished: calamine builds them all before one is read
        self.copy_start = self.copies = 0  # a repeated cell's content starts there; its copies
        self.copied_text = 0  # bytes of content in the extra copies of repeated cells, so far

    def tag(self, match: re.Match[bytes]) -> None:
        closing, name, attributes = match.groups()
        if name == b"s":  # text:s, spaces: calamine writes text:c of them out, in each copy
            if self.extent is not None and not closing:
                self.add_copied(_spaces(attributes) * (self.copies + 1))
            return
        if self.copies:  # the repeated cell's content ends where this tag starts
            self.add_copied((self.offset + match.start() - self.copy_start) * self.copies)
            self.copies = 0
        if name == b"table":
            if attributes.endswith(b"/"):
                return
            self.depth += -1 if closing else 1
            if closing and self.depth == 0:
                self.finish_table()
            elif not closing and self.depth == 1:
                found = _TABLE_NAME.search(attributes)
                name_text = found.group(1).decode("utf-8", "replace") if found else "?"
                self.location = f"{self.path}[{name_text}]"
                self.extent, self.row = Extent(), 0
                self.table_errors = self.errors.setdefault(name_text, {})
        elif self.extent is None:
            return
        elif name == b"table-row":
            if closing:
                self.finish_row()
            else:
                found = _REPEAT_ROWS.search(attributes)
                self.row_repeat = max(_count(found.group(1)), 1) if found else 1
                self.column, self.row_right = 0, 0
                self.pending = []
                if attributes.endswith(b"/"):
                    self.finish_row()
        elif not closing:
            found = _REPEAT_COLUMNS.search(attributes)
            repeat = max(_count(found.group(1)), 1) if found else 1
            valued = not attributes.endswith(b"/") or b"value-type=" in attributes
            if valued and name == b"table-cell" and b'value-type="error"' in attributes:
                self.pending.append((self.column, repeat, _text_after(match, _ODS_TEXT)))
            if valued and repeat * self.row_repeat > 1:
                # calamine copies the cell (its attributes' values, its content) into each place
                self.add_copied(len(attributes) * (repeat * self.row_repeat - 1))
                if not attributes.endswith(b"/"):
                    self.copy_start = self.offset + match.end()
                    self.copies = repeat * self.row_repeat - 1
            if valued and name == b"table-cell":
                self.row_right = self.column + repeat
            self.column += repeat

    def add_copied(self, size: int) -> None:
        """Count ``size`` more bytes of text that calamine writes out beyond the file's own
        (a repeated cell's copies, spaces); judged once the table's span is (check_copied)."""
        self.copied_text += size

    def check_copied(self) -> None:
        """Refuse past MAX_COPIED_TEXT."""
        if self.copied_text > MAX_COPIED_TEXT:
            raise WizardError(Problem(
                f"its repeated cells and spaces (text:s) come to more than "
                f"{_mib(MAX_COPIED_TEXT)} of text: too large for a score sheet", self.path))

    def finish_row(self) -> None:
        for column, repeat, text in self.pending:  # error cells, each copy of them
            for row in range(self.row + 1, self.row + 1 + min(self.row_repeat, 100)):
                for copy in range(column + 1, column + 1 + min(repeat, 100)):
                    if len(self.table_errors) < MAX_ERRORS:
                        self.table_errors[row, copy] = text
        self.pending = []
        if self.row_right:  # from column A: calamine keeps the empty cells before the first
            self.extent.add(self.row + 1, 1, self.row + self.row_repeat,  # valued one too
                            self.row_right)
        self.row += self.row_repeat
        self.row_repeat, self.row_right = 0, 0

    def done(self) -> None:
        """A table left open at the end: judged as if closed (calamine builds it as it goes)."""
        self.finish_table()
        self.check_copied()

    def finish_table(self) -> None:
        if self.extent is not None:
            self.extent.check(self)
            self.span += self.extent.cells()
            Extent.check_all(self.span, self.path)
            self.check_copied()
        self.extent = None
        self.location = self.path

