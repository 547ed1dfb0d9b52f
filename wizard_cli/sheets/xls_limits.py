"""What a legacy ``.xls`` workbook may ask of memory, found out before python-calamine reads it
(SPEC §4; issue 21, item 3) — the BIFF8 counterpart of :mod:`.workbook_limits`.

calamine reads an ``.xls`` whole and trusts it: a worksheet's DIMENSIONS record is reserved as
it says (``A1:XFD4294967296`` aborts the process: "memory allocation of … bytes failed"), every
cell record becomes a cell, the cells' span becomes a grid (a cell at ``A1`` and one at
``IV65536`` are 16.8 million cells, 1 GiB), and each shared-string cell is a copy of its string
(one 60,000-character string shown in 1,000 cells is 207 MiB). So the ``Workbook`` stream is
taken out of its compound file and its records are walked once, as calamine walks them,
counting what it would build; the first limit passed is refused with one located line:

- a DIMENSIONS past what a BIFF8 worksheet can hold (65,536 rows × 256 columns), or upside down;
- more than :data:`~.workbook_limits.MAX_CELLS` cell records, or cells spanning more than that,
  in one worksheet or in all of them together: calamine builds and holds every worksheet before
  any is asked for (an 11 MB workbook naming one worksheet's 1.9 million cells twenty times
  peaked at 1.3 GB);
- more than :data:`MAX_TEXT` bytes of text (as calamine writes it, in UTF-8, up to three bytes
  a character, six for a 16-bit one in another code page) in the cells of one worksheet (a shared
  string counts once per cell that shows it), or of all of them together;
- formulas and defined names that could be written out as more than :data:`MAX_FORMULA_TEXT`
  (calamine writes every formula out as text: a token of a few bytes naming a worksheet spells
  its name out, so 800 formulas in a 6.5 MB workbook became 644 MiB);
- more than :data:`~.workbook_limits.MAX_CELLS` shared strings, or more than :data:`MAX_TEXT`
  characters in them (as many as the table holds, whatever count it claims: calamine reads
  them all);
- formulas whose spaces calamine would take long to write out (:data:`MAX_SPACING_WORK`);
- more than :data:`MAX_SHEETS` worksheets, or worksheets whose records overlap (each name
  given to the same records builds them again);
- runs of CONTINUE records that calamine would take too long over (:data:`MAX_CONTINUE_WORK`).

A scan rather than calamine in a child process under a memory limit, as for the zipped formats
(see workbook_limits): it refuses before anything is built and says what is wrong. A file
whose sectors do not hold together (one past the end, a chain that runs in a circle) is refused
too: calamine would read on (a directory in a circle, without end).
"""

from __future__ import annotations

import struct
from typing import IO, Iterator

from ..errors import Problem, WizardError
from .workbook_limits import MAX_CELLS, Extent

MAX_SHEETS = 10_000  # worksheets a workbook may name (calamine builds each, however empty)
MAX_TEXT = 32 << 20  # bytes of text (as calamine's UTF-8 may make them) in one worksheet's cells
MAX_FORMULA_TEXT = 64 << 20  # bytes the formulas and defined names may be written out as, at most
# calamine writes a formula's spaces in one at a time, each moving the text after it: a formula
# of 2,000 space tokens took 2.8 s. What the spaces may cost, as spaces × the formula's bytes
# (both upper bounds) summed over the formulas: about a second of calamine's time.
MAX_SPACING_WORK = 10**11
# Σ (a run of CONTINUE records)², over the runs: a 64 MB shared-string table is ~8,000 in one
MAX_CONTINUE_WORK = 4 * 10**8
SHEET_ROWS, SHEET_COLUMNS = 65_536, 256  # the most a BIFF8 worksheet holds
MAGIC = bytes.fromhex("D0CF11E0A1B11AE1")
DAMAGED = ("not readable as a workbook: its compound file does not hold together (a sector "
           "past its end, or a chain of sectors in a circle)")
STREAM_NAMES = ("Workbook", "Book", "WORKBOOK", "BOOK")  # calamine's, in its order
END_OF_CHAIN = 0xFFFFFFFE
MINI_CUTOFF = 4096  # a stream shorter than this lives in the mini stream (calamine's rule too)

_CELL_RECORDS = {0x0203, 0x0204, 0x00D6, 0x0205, 0x027E, 0x00FD, 0x0006}
# NUMBER LABEL RSTRING BOOLERR RK LABELSST FORMULA: a cell each (calamine xls.rs)
_EOF, _BOF, _CONTINUE, _BOUNDSHEET, _SST, _CODEPAGE = 0x000A, 0x0809, 0x003C, 0x0085, 0x00FC, 0x0042
_DIMENSIONS, _MULRK, _LABELSST, _STRING, _FORMULA, _LBL, _MERGED = (
    0x0200, 0x00BD, 0x00FD, 0x0207, 0x0006, 0x0018, 0x00E5)
_LABELS = {0x0204, 0x00D6}  # LABEL, RSTRING: their text's length after row, column and format
# a formula's tokens that write a name out: PtgRef3d, PtgArea3d, PtgRefErr3d, PtgAreaErr3d (a
# worksheet's) and PtgName (a defined name's), in each of their classes
_NAMING_TOKENS = bytes([*range(0x3A, 0x3E), *range(0x5A, 0x5E), *range(0x7A, 0x7E),
                        0x23, 0x43, 0x63])
_SPACE_TOKENS = (b"\x19\x40", b"\x19\x41")  # PtgAttrSpace, PtgAttrSpaceSemi
# a defined name is its name and its formula naming a worksheet twice (parse_lbl), in two
# strings and a tuple: this, and three times the longest name
_NAME_COST = 160


class _Damaged(Exception):
    """The compound file does not hold together: calamine is left to say so."""


def check_xls(path: str) -> None:
    """Raise WizardError (one located line) if calamine reading the ``.xls`` at ``path`` could
    take more memory than SPEC §4 allows."""
    try:
        with open(path, "rb") as handle:
            stream = _workbook_stream(handle)
    except _Damaged:  # calamine may read on (a directory in a circle, it would without end)
        raise WizardError(Problem(DAMAGED, path)) from None
    except OSError as error:
        raise WizardError(Problem(f"not readable as a workbook: {error.strerror or error}",
                                  path)) from None
    if stream is not None:
        _BiffScan(path, stream).run()


def is_compound_file(path: str) -> bool:
    """Whether the file starts as a compound file (an ``.xls``) does."""
    try:
        with open(path, "rb") as handle:
            return handle.read(len(MAGIC)) == MAGIC
    except OSError:
        return False  # calamine says why


# --- the compound file (MS-CFB) ------------------------------------------------------------

def _workbook_stream(handle: IO[bytes]) -> bytearray | None:
    """The ``Workbook`` (else ``Book``) stream of a compound file, or None if it has none."""
    header = handle.read(512)
    if len(header) < 512 or header[:8] != MAGIC:
        raise _Damaged
    shift = struct.unpack_from("<H", header, 30)[0]
    if shift not in (9, 12):
        raise _Damaged
    size = 1 << shift
    handle.seek(0, 2)
    count = max(-(-handle.tell() // size) - 1, 0)  # sectors after the header, the last cut short

    def sector(number: int) -> bytes:
        if number >= count:
            raise _Damaged
        handle.seek((number + 1) * size)
        return handle.read(size)

    fat_count, dir_start = struct.unpack_from("<II", header, 44)
    mini_start, _, difat_start = struct.unpack_from("<III", header, 60)
    fat_ids = list(struct.unpack_from("<109I", header, 76))
    seen: set[int] = set()
    while difat_start < END_OF_CHAIN:  # the DIFAT: where the FAT's own sectors are
        if difat_start in seen:
            raise _Damaged
        seen.add(difat_start)
        entries = struct.unpack(f"<{size // 4}I", sector(difat_start))
        fat_ids += entries[:-1]
        difat_start = entries[-1]
    fat: list[int] = []
    for number in fat_ids[:fat_count]:
        if number < END_OF_CHAIN:
            fat += struct.unpack(f"<{size // 4}I", sector(number))

    def chain(start: int, table: list[int], read, length: int | None = None) -> bytearray:
        data, seen, number = bytearray(), set(), start  # one buffer: no second copy of it
        while number < END_OF_CHAIN and (length is None or len(data) < length):
            if number in seen or number >= len(table):  # a circle, or past the table
                raise _Damaged
            seen.add(number)
            data += read(number)
            number = table[number]
        if length is not None:
            del data[length:]
        return data

    directory = chain(dir_start, fat, sector)
    entries = [_entry(directory[at:at + 128], shift) for at in range(0, len(directory) - 127, 128)]
    if not entries:
        raise _Damaged
    named = {}
    for name, start, length in entries:
        named.setdefault(name, (start, length))
    found = next((named[name] for name in STREAM_NAMES if name in named), None)
    if found is None:
        return None
    start, length = found
    if length >= MINI_CUTOFF:  # (a length past the file's end: read to the chain's end)
        return chain(start, fat, sector, length)
    mini = chain(entries[0][1], fat, sector)  # the root's stream holds the mini sectors
    mini_fat = chain(mini_start, fat, sector) if mini_start < END_OF_CHAIN else b""
    table = list(struct.unpack(f"<{len(mini_fat) // 4}I", mini_fat[:len(mini_fat) // 4 * 4]))
    return chain(start, table, lambda number: mini[number * 64:number * 64 + 64], length)


def _entry(raw: bytes, shift: int) -> tuple[str, int, int]:
    """A directory entry's name (to its first NUL, whatever length it claims, as calamine
    reads it), first sector and stream size."""
    name = raw[:64].decode("utf-16-le", "ignore").split("\0")[0]
    start = struct.unpack_from("<I", raw, 116)[0]
    length = struct.unpack_from("<Q" if shift == 12 else "<I", raw, 120)[0]
    return name, start, length


# --- the BIFF8 records -------------------------------------------------------------------------

class _BiffScan:
    """One pass over the workbook's globals, then over each worksheet's records.

    calamine builds every worksheet before any is asked for, and holds them all (calamine
    xls.rs, ``parse_workbook``), so what one worksheet may ask of memory is also what all of
    them may ask together: the cells, their span and their text are counted per worksheet and
    over the workbook, against the same limits. The text counted is what calamine builds as
    strings: the cells' (a shared string once per cell that shows it), and apart from them the
    shared strings themselves; and, against a limit of its own, an upper bound of what the
    formulas and defined names are written out as (a reference to a worksheet or a name spells
    that name out: a few bytes of a record become hundreds)."""

    def __init__(self, path: str, stream: bytearray) -> None:
        self.path, self.stream = path, stream
        self.location = path
        self.strings: list[int] = []  # each shared string's length, in bytes (weights)
        self.sheets: list[tuple[int, str]] = []  # (where its records start, its name)
        self.codec = "latin-1"
        self.longest_name = 8  # bytes of the longest worksheet or defined name, as UTF-8
        self.cells = self.span = self.text = self.formulas = 0  # over what was walked so far
        self.spacing = 0  # what writing the formulas' spaces costs calamine, so far
        self.continued = 0  # what taking the CONTINUE records costs calamine, so far

    def refuse(self, message: str) -> None:
        raise WizardError(Problem(message, self.location))

    def _records(self, at: int) -> Iterator[tuple[int, int, int]]:
        """(type, start of data, end of data) of each record from ``at`` to the stream's end;
        refusing, as they come, runs of CONTINUE records that would cost calamine too much."""
        stream, end, run = self.stream, len(self.stream), 0
        while at + 4 <= end:
            kind, size = struct.unpack_from("<HH", stream, at)
            if kind == _CONTINUE:
                run += 1
                if self.continued + run * run > MAX_CONTINUE_WORK:
                    self._continued(run)
            elif run:
                self._continued(run)
                run = 0
            yield kind, at + 4, min(at + 4 + size, end)
            at += 4 + size
        if run:
            self._continued(run)

    def _continued(self, run: int) -> None:
        """Count a run of ``run`` CONTINUE records. calamine gathers a record's CONTINUEs into
        a list (16 bytes each) and takes them from its front, one move of the list each
        (xls.rs, ``RecordIter``, ``Record::continue_record``): 15 million empty ones in a 60 MB
        workbook peaked at 370 MiB, 2 million in an SST stalled it for minutes."""
        self.continued += run * run
        if self.continued > MAX_CONTINUE_WORK:
            self.refuse_workbook("not readable as a workbook: its records go on in too many "
                                 "CONTINUE records; the workbook is damaged or made to stall "
                                 "its reader")

    def refuse_workbook(self, message: str) -> None:
        raise WizardError(Problem(message, self.path))

    def run(self) -> None:
        parts: list[bytes] | None = None  # the SST's data and its CONTINUEs', while they come
        names = 0  # defined names
        for kind, start, end in self._records(0):
            if parts is not None:
                if kind == _CONTINUE:
                    parts.append(self.stream[start:end])
                    continue
                self.strings = shared_string_lengths(parts, MAX_CELLS + 1, *self.weights())
                parts = None
            if kind == _EOF:
                break
            if kind == _CODEPAGE and end - start >= 2:
                page = struct.unpack_from("<H", self.stream, start)[0]
                self.codec = "latin-1" if page in (1200, 367) else f"cp{page}"
            elif kind == _BOUNDSHEET and end - start >= 8:
                name = self._name(start + 6, end)
                self.sheets.append((struct.unpack_from("<I", self.stream, start)[0], name))
                if len(self.sheets) > MAX_SHEETS:
                    self.refuse(f"it names more than {MAX_SHEETS:,} worksheets: too many for a "
                                "score sheet workbook")
                self.longest_name = max(self.longest_name, len(name.encode()))
            elif kind == _LBL and end - start >= 4:
                names += 1
                self.longest_name = max(self.longest_name, 3 * self.stream[start + 3])
                if names * _NAME_COST > MAX_FORMULA_TEXT:  # too many, however short
                    self.add_formula(names * _NAME_COST)
            elif kind == _SST:
                parts = [self.stream[start + 8:end]]
        if parts is not None:
            self.strings = shared_string_lengths(parts, MAX_CELLS + 1, *self.weights())
        if len(self.strings) > MAX_CELLS:
            self.refuse(f"its shared strings number more than {MAX_CELLS:,}: too many for a "
                        "score sheet")
        if sum(self.strings) > MAX_TEXT:
            self.refuse(f"its shared strings hold more than {MAX_TEXT >> 20} MiB of text: too "
                        "large for a score sheet")
        self.add_formula(names * (3 * self.longest_name + _NAME_COST))
        walked = 0  # where the worksheet before ended: worksheets do not share records
        for position, name in sorted(self.sheets):
            self.location = f"{self.path}[{name}]"
            if position > len(self.stream):  # calamine would panic
                self.refuse("not readable as a workbook: the worksheet's records would start "
                            "past the end of the workbook's stream")
            if position < walked:  # the same records built again, as often as they are named
                self.refuse("not readable as a workbook: the worksheet's records overlap "
                            "another worksheet's; the workbook is damaged or made to exhaust "
                            "memory")
            walked = self._worksheet(position)

    def weights(self) -> tuple[int, int]:
        """The most bytes calamine may make of an 8-bit and of a 16-bit character, as the
        code page stands: UTF-8 of Latin-1 or UTF-16 (codepage 1200); in any other code page
        each byte of a 16-bit character is decoded as a character of its own."""
        return (2, 3) if self.codec == "latin-1" else (3, 6)

    def add_text(self, characters: int, sheet_text: int = 0) -> None:
        """Count ``characters`` more of text; refuse past MAX_TEXT in the worksheet being walked
        (``sheet_text`` is its own so far) or in the workbook."""
        self.text += characters
        if sheet_text > MAX_TEXT:
            self.refuse(f"its cells hold more than {MAX_TEXT >> 20} MiB of text: too large for "
                        "a score sheet")
        if self.text > MAX_TEXT:
            self.refuse_workbook(f"its worksheets' cells hold more than {MAX_TEXT >> 20} MiB of "
                                 "text in all: too large for a score sheet")

    def add_formula(self, size: int) -> None:
        """Count ``size`` more bytes of formulas as calamine writes them out (it holds every
        worksheet's); refuse past MAX_FORMULA_TEXT."""
        self.formulas += size
        if self.formulas > MAX_FORMULA_TEXT:
            self.refuse_workbook(f"its formulas would be written out as more than "
                                 f"{MAX_FORMULA_TEXT >> 20} MiB of text: too large for a score "
                                 "sheet")

    def _name(self, start: int, end: int) -> str:
        """A worksheet's name (ShortXLUnicodeString)."""
        data = self.stream[start:end]
        if len(data) < 2:
            return ""
        count, wide = data[0], data[1] & 1
        raw = data[2:2 + count * (2 if wide else 1)]
        try:
            return raw.decode("utf-16-le" if wide else self.codec, "replace").replace("\0", "")
        except LookupError:
            return raw.decode("latin-1").replace("\0", "")

    def _worksheet(self, position: int) -> int:
        """Count what calamine builds of one worksheet, refusing past the limits; return where
        its records end. An embedded substream (a chart: BOF … EOF) is skipped, as calamine
        skips it."""
        stream, strings, known = self.stream, self.strings, len(self.strings)
        extent, cells, text = Extent(), 0, 0
        seen_bof, depth, end = False, 0, position
        weights = self.weights()
        formula_row = formula_column = 0
        for kind, start, end in self._records(position):
            if depth:
                depth += (kind == _BOF) - (kind == _EOF)
                continue
            if kind == _EOF:
                break
            size, more = end - start, 0
            if kind == _BOF:
                depth, seen_bof = (1, True) if seen_bof else (0, True)
            elif kind in _CELL_RECORDS and size >= 4:
                row, column = struct.unpack_from("<HH", stream, start)
                if kind == _LABELSST:
                    index = struct.unpack_from("<I", stream, start + 6)[0] if size >= 10 else -1
                    if not 0 <= index < known:
                        continue  # calamine makes no cell of an unknown shared string
                    more = strings[index]
                elif kind in _LABELS and size >= 8:
                    more = struct.unpack_from("<H", stream, start + 6)[0] * weights[
                        size > 8 and stream[start + 8] & 1]
                elif kind == _FORMULA:  # its text, or why it could not be read
                    self.add_formula(self._formula_text(start + 22, end))
                    formula_row, formula_column = row, column
                extent.add(row + 1, column + 1, row + 1, column + 1)
                cells += 1
            elif kind == _MULRK and size >= 6:
                row, first = struct.unpack_from("<HH", stream, start)
                count = (size - 6) // 6
                extent.add(row + 1, first + 1, row + 1, first + count)
                cells += count
            elif kind == _MERGED and size >= 2:  # merged ranges, each kept (16 bytes): as cells
                cells += min(struct.unpack_from("<H", stream, start)[0], (size - 2) // 8)
            elif kind == _STRING and size >= 2:  # a formula's text: a cell where the last
                more = struct.unpack_from("<H", stream, start)[0] * weights[  # formula was (A1)
                    size > 2 and stream[start + 2] & 1]
                extent.add(formula_row + 1, formula_column + 1, formula_row + 1, formula_column + 1)
                cells += 1
            elif kind == _DIMENSIONS:
                self._dimensions(start, end)
            if more:
                text += more
                self.add_text(more, text)
            if cells > MAX_CELLS:
                self.refuse(f"the worksheet holds more than {MAX_CELLS:,} cells: too large to "
                            "read as a score sheet (save it as CSV)")
            if self.cells + cells > MAX_CELLS:
                self.refuse_workbook(f"its worksheets hold more than {MAX_CELLS:,} cells in all: "
                                     "too large to read as a score sheet (save it as CSV)")
        extent.check(self)
        self.cells += cells
        self.span += extent.cells()
        Extent.check_all(self.span, self.path)
        return end

    def _formula_text(self, start: int, end: int) -> int:
        """An upper bound of the bytes calamine writes the formula whose expression is at
        ``start:end`` out as (xls.rs, ``parse_formula``): a token writes at most 8 bytes for
        each of its own (an error's 2 bytes ``#GETTING_DATA``), but one naming a worksheet or a
        defined name writes that name, and a PtgAttrSpace up to 255 spaces. Every byte (pair)
        that could begin such a token is counted as one, wherever it stands. The spaces' cost in
        time is counted too (MAX_SPACING_WORK)."""
        expression = self.stream[start:end]
        naming = len(expression) - len(expression.translate(None, _NAMING_TOKENS))
        spaces = sum(map(expression.count, _SPACE_TOKENS)) * 255
        text = 64 + 8 * len(expression) + naming * self.longest_name + spaces
        self.spacing += spaces * text
        if self.spacing > MAX_SPACING_WORK:
            self.refuse_workbook("its formulas' spaces would take calamine minutes to write out: "
                                 "the workbook is damaged or made to stall its reader")
        return text

    def _dimensions(self, start: int, end: int) -> None:
        """A DIMENSIONS record as calamine reads it (and reserves room for): refused when it
        declares more than a worksheet can hold."""
        data = self.stream[start:end]
        if len(data) == 14:
            first_row, last_row, first_col, last_col = struct.unpack_from("<IIHH", data)
        elif len(data) == 10:
            first_row, last_row, first_col, last_col = struct.unpack_from("<HHHH", data)
        else:
            return  # calamine refuses it itself
        if first_col > 0xFF or last_col < first_col:
            first_col = 0  # calamine's reading (MS-XLS 2.5.53: a column is at most 0xFF)
        if last_row < 1 or last_col < 1:
            return  # read as the one cell where it starts
        rows = (last_row - 1 - first_row + 1) % (1 << 32)  # calamine's u32 arithmetic
        columns = (last_col - 1 - first_col + 1) % (1 << 32)
        if rows * columns > SHEET_ROWS * SHEET_COLUMNS:
            self.refuse(f"its DIMENSIONS record declares {rows:,} rows × {columns:,} columns: "
                        f"more than a worksheet holds ({SHEET_ROWS:,} × {SHEET_COLUMNS}); the "
                        "workbook is damaged or made to exhaust memory")


def shared_string_lengths(parts: list[bytes], most: int, narrow: int = 1,
                          wide: int = 1) -> list[int]:
    """The length (in characters) of each string of an SST whose data is ``parts`` (the SST
    record's after its counts, then each CONTINUE's), up to ``most`` of them, read as calamine
    reads them (xls.rs, ``parse_sst``): every string the data holds, whatever count the SST
    claims; a string at the start of an empty part is an empty one. A string's characters go
    on in the next part after a flags byte of their own; its formatting runs and extension
    after it, without one. Where calamine would fail on the table (so on the workbook), the
    strings read so far are kept. Each 8-bit character counts ``narrow``, each 16-bit one
    ``wide`` (the bytes it may become; 1 and 1: characters)."""
    lengths: list[int] = []
    index, at = 0, 0
    data = parts[0] if parts else b""
    while len(lengths) < most:
        if at >= len(data):  # calamine: `while !r.data.is_empty() || r.continue_record()`
            index += 1
            if index >= len(parts):
                break
            data, at = parts[index], 0
            if not data:
                lengths.append(0)
                continue
        if at + 3 > len(data):
            break
        count, flags = struct.unpack_from("<HB", data, at)
        at += 3
        runs = extension = 0
        if flags & 8 and at + 2 <= len(data):
            runs = struct.unpack_from("<H", data, at)[0]
            at += 2
        if flags & 4 and at + 4 <= len(data):
            extension = struct.unpack_from("<i", data, at)[0]
            at += 4
        left, width, length = count, 2 if flags & 1 else 1, 0
        while left:
            take = min(left, (len(data) - at) // width)
            at += take * width
            length += take * (wide if width == 2 else narrow)
            left -= take
            if left:
                index += 1
                if index >= len(parts) or not parts[index]:
                    return lengths + [length + left * max(narrow, wide)]
                data = parts[index]
                width, at = (2 if data[0] & 1 else 1), 1
        skip = runs * 4 + max(extension, 0)
        while skip:
            take = min(skip, len(data) - at)
            at += take
            skip -= take
            if skip:
                index += 1
                if index >= len(parts):
                    return lengths + [length]
                data, at = parts[index], 0
        lengths.append(length)
    return lengths
