"""SPEC §4 for legacy ``.xls`` workbooks (issue 21, item 3): calamine reads an ``.xls`` whole
and trusts it, so a hostile one is refused with one located line before calamine builds
anything (sheets/xls_limits.py). The workbooks are BIFF8 records in a compound file written
byte by byte (tests/xls_bytes.py); each is read by a real ``wizard`` process whose own peak
memory is measured. Before (MiB): a far cell 1,063; a huge DIMENSIONS aborted (SIGABRT);
2.5 million cell records 238; a long shared string in 2,000 cells 379; a worksheet past the
stream's end a traceback (a panic inside calamine); one worksheet's 1.9 million cells named
twenty times 1,295; 800 formulas naming a long worksheet name 644.
"""

from __future__ import annotations

import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import xls_bytes as x
from helpers import run
from test_memory import peak_mib
from wizard_cli.sheets.xls_limits import shared_string_lengths

pytest.importorskip("python_calamine", reason="the xlsx extra (python-calamine) is not installed")

LIMIT_MIB = 100
GAME = x.game_cells(x.GAME)


def refused(path, message: str) -> None:
    """``wizard check PATH`` exits 1 with the one line ``message``, within LIMIT_MIB."""
    code, peak, err = peak_mib("check", path)
    assert (code, err) == (1, message + "\n")
    assert peak < LIMIT_MIB, f"{peak:.0f} MiB"


def test_a_workbook_written_byte_by_byte_reads_as_its_csv(tmp_path):
    """What the hostile cases below are made from: calamine reads it, and wizard scores it."""
    path = x.xls(tmp_path / "game.xls", x.dimensions(0, 4, 0, 4) + GAME)
    csv = tmp_path / "game.csv"
    csv.write_text("".join(",".join(map(str, row)) + "\n" for row in x.GAME))
    assert run("check", path).stdout == f"{path}: ok\n"
    assert run("score", path).stdout.replace(str(path), "G") == \
        run("score", csv).stdout.replace(str(csv), "G")
    shared = x.xls(tmp_path / "shared.xls", b"".join(
        x.label_sst(r, c, r * 4 + c) if isinstance(v, str) else x.number(r, c, v)
        for r, row in enumerate(x.GAME) for c, v in enumerate(row)),
        x.sst([v if isinstance(v, str) else "" for row in x.GAME for v in row]))
    assert run("check", shared).stdout == f"{shared}: ok\n"


def test_a_far_cell_is_refused_before_calamine_builds_the_grid(tmp_path):
    path = x.xls(tmp_path / "far.xls", GAME + x.number(65535, 255, 1))
    refused(path, f"{path}[Game]: the worksheet spans A1:IV65536 (16,777,216 cells): too large "
                  "to read as a score sheet (at most 2,000,000; save it as CSV, or clear the far "
                  "cells)")


def test_a_huge_dimensions_record_is_refused_not_an_abort(tmp_path):
    path = x.xls(tmp_path / "dim.xls", x.dimensions(0, 0xFFFFFFFF, 0, 0xFFFF) + GAME)
    refused(path, f"{path}[Game]: its DIMENSIONS record declares 4,294,967,295 rows × 65,535 "
                  "columns: more than a worksheet holds (65,536 × 256); the workbook is damaged "
                  "or made to exhaust memory")
    upside_down = x.xls(tmp_path / "upside.xls", x.dimensions(5, 2, 0, 4) + GAME)
    refused(upside_down, f"{upside_down}[Game]: its DIMENSIONS record declares 4,294,967,293 "
                         "rows × 4 columns: more than a worksheet holds (65,536 × 256); the "
                         "workbook is damaged or made to exhaust memory")
    whole = x.xls(tmp_path / "whole.xls", x.dimensions(0, 65536, 0, 256) + GAME)
    assert run("check", whole).exit_code == 0  # a worksheet's own size: reserved, never filled


def test_a_great_many_cell_records_are_counted_before_they_are_built(tmp_path):
    path = x.xls(tmp_path / "many.xls", GAME + b"".join(x.mul_rk(4 + r, 0, [1] * 250)
                                                        for r in range(8_100)))
    refused(path, f"{path}[Game]: the worksheet holds more than 2,000,000 cells: too large to "
                  "read as a score sheet (save it as CSV)")


def test_a_long_shared_string_counts_in_every_cell_that_shows_it(tmp_path):
    cells = b"".join(x.label_sst(5 + i // 200, i % 200, 0) for i in range(2_000))
    path = x.xls(tmp_path / "text.xls", GAME + cells, x.sst_continued(60_000))
    refused(path, f"{path}[Game]: its cells hold more than 32 MiB of text: too large for a "
                  "score sheet")
    few = x.xls(tmp_path / "few.xls", GAME + cells[:14 * 100], x.sst_continued(60_000))
    code, peak, err = peak_mib("check", few)  # 6 million characters: read (and found wrong)
    assert code == 1 and err.startswith(f"{few}[Game]:6: 100 fields, but the header has 4\n")
    assert peak < 250, f"{peak:.0f} MiB"


def test_too_many_shared_strings_are_refused(tmp_path):
    """calamine reads every string the table holds: 2,000,001 empty ones are too many (6 MB)."""
    body = b"\0\0\1" * 2_000_001  # 8-bit strings of no characters
    pieces = [body[at:at + 8223] for at in range(0, len(body), 8223)]
    table = x.record(0x00FC, struct.pack("<ii", 1, 1) + pieces[0]) + b"".join(
        x.record(0x003C, piece) for piece in pieces[1:])
    path = x.xls(tmp_path / "sst.xls", GAME, table)
    refused(path, f"{path}: its shared strings number more than 2,000,000: too many for a "
                  "score sheet")
    claimed = x.xls(tmp_path / "claimed.xls", GAME, x.sst([], count=2_000_001))
    assert run("check", claimed).stdout == f"{claimed}: ok\n"  # a count alone builds nothing


def test_a_shared_string_the_table_does_not_count_is_counted(tmp_path):
    """An SST claiming no strings still holds its one long string, which calamine reads and
    copies into each of 2,000 cells (before: not counted, 369 MiB)."""
    cells = b"".join(x.label_sst(5 + i // 200, i % 200, 0) for i in range(2_000))
    path = x.xls(tmp_path / "uncounted.xls", GAME + cells, x.sst_continued(60_000, count=0))
    refused(path, f"{path}[Game]: its cells hold more than 32 MiB of text: too large for a "
                  "score sheet")


def test_an_empty_shared_string_is_a_cell(tmp_path):
    """calamine keeps an empty shared string as a cell, so a far one spans the grid (before:
    not counted, 1,054 MiB)."""
    path = x.xls(tmp_path / "far.xls", GAME + x.label_sst(65535, 255, 1), x.sst(["Anna", ""]))
    refused(path, f"{path}[Game]: the worksheet spans A1:IV65536 (16,777,216 cells): too large "
                  "to read as a score sheet (at most 2,000,000; save it as CSV, or clear the far "
                  "cells)")


def test_a_formatted_label_is_a_cell(tmp_path):
    """An RSTRING is read as a LABEL (before: not counted, a far one 1,054 MiB)."""
    path = x.xls(tmp_path / "far.xls", GAME + x.rstring(65535, 255, "x"))
    refused(path, f"{path}[Game]: the worksheet spans A1:IV65536 (16,777,216 cells): too large "
                  "to read as a score sheet (at most 2,000,000; save it as CSV, or clear the far "
                  "cells)")
    near = x.xls(tmp_path / "near.xls", GAME + x.rstring(4, 1, "Dan"))
    assert run("check", near).stderr == f"{near}[Game]:5: round 1, Dan: missing bid\n" \
        f"{near}[Game]:5: round 1, Dan: missing tricks\n"


def test_a_chart_inside_a_worksheet_is_skipped_as_calamine_skips_it(tmp_path):
    """The cells after an embedded chart's substream are the worksheet's (before: the scan
    stopped at the chart's EOF, and 2.4 million cells after it peaked at 231 MiB); the cells
    inside it are not."""
    many = b"".join(x.mul_rk(4 + r, 0, [1] * 250) for r in range(8_100))
    path = x.xls(tmp_path / "after.xls", GAME + x.chart(b"") + many)
    refused(path, f"{path}[Game]: the worksheet holds more than 2,000,000 cells: too large to "
                  "read as a score sheet (save it as CSV)")
    inside = x.xls(tmp_path / "inside.xls", GAME + x.chart(x.number(65535, 255, 1)))
    assert run("check", inside).stdout == f"{inside}: ok\n"


BLOCK = GAME + b"".join(x.mul_rk(4 + r, 0, [1] * 250) for r in range(600))  # 150,012 cells


def test_the_worksheets_count_together(tmp_path):
    """calamine builds every worksheet before one is read: twenty of 150,012 cells each are
    3 million (before: read, 158 MiB; twice the cells in a 36 MB workbook, twice that)."""
    path = tmp_path / "twenty.xls"
    path.write_bytes(x.compound_file(x.workbook_of([(f"S{i}", BLOCK) for i in range(20)])))
    refused(path, f"{path}: its worksheets hold more than 2,000,000 cells in all: too large to "
                  "read as a score sheet (save it as CSV)")
    spans = tmp_path / "spans.xls"  # two cells each, far apart: the grids are the cost
    far = GAME + x.number(1999, 200, 1)
    spans.write_bytes(x.compound_file(x.workbook_of([(f"S{i}", far) for i in range(6)])))
    refused(spans, f"{spans}: its worksheets span more than 2,000,000 cells in all: too large "
                   "to read as a score sheet (save it as CSV, or clear the far cells)")
    cells = b"".join(x.label_sst(5 + i // 100, i % 100, 0) for i in range(100))
    text = tmp_path / "text.xls"  # 2 million characters each
    text.write_bytes(x.compound_file(x.workbook_of([(f"S{i}", GAME + cells) for i in range(20)],
                                                   x.sst_continued(20_000))))
    refused(text, f"{text}: its worksheets' cells hold more than 32 MiB of text in all: "
                  "too large for a score sheet")
    fine = tmp_path / "fine.xls"
    fine.write_bytes(x.compound_file(x.workbook_of([(f"S{i}", GAME) for i in range(20)])))
    assert run("check", fine).stdout == "".join(f"{fine}, game S{i}: ok\n" for i in range(20))


def test_one_worksheet_named_twenty_times_is_refused(tmp_path):
    """Twenty BOUNDSHEETs pointing at one worksheet's 1.9 million cells: calamine builds them
    twenty times (before: an 11 MB workbook peaked at 1,295 MiB in 22 s)."""
    big = GAME + b"".join(x.mul_rk(4 + r, 0, [1] * 250) for r in range(7_600))
    path = tmp_path / "named.xls"
    path.write_bytes(x.compound_file(x.workbook_of(
        [(f"S{i}", big if i == 0 else b"") for i in range(20)], at=[0] * 20)))
    refused(path, f"{path}[S1]: not readable as a workbook: the worksheet's records overlap "
                  "another worksheet's; the workbook is damaged or made to exhaust memory")


def test_formulas_are_counted_as_what_calamine_writes_them_out_as(tmp_path):
    """Each reference to a worksheet spells its 255-character name out: 800 formulas of 1,021
    references in a 6.5 MB workbook (before: 644 MiB; at the 64 MB limit, ten times that)."""
    name = "語" * 255
    expression = x.ref3d(0) + (x.ref3d(0) + b"\x10") * 1020  # Sheet!A1,Sheet!A1,…
    formulas = b"".join(x.formula(10 + i, 0, expression) for i in range(800))
    path = tmp_path / "formulas.xls"
    path.write_bytes(x.compound_file(x.workbook_of([(name, GAME + formulas)],
                                                   x.extern_sheet(1))))
    refused(path, f"{path}: its formulas would be written out as more than 64 MiB of text: too "
                  "large for a score sheet")
    some = tmp_path / "some.xls"  # a total under each column: read, and scored as ever
    total = b"".join(x.formula(4, c, x.ref3d(0, 1, c), 1) for c in (2, 3))
    some.write_bytes(x.compound_file(x.workbook_of([("Game", GAME + total)], x.extern_sheet(1))))
    assert run("check", some).stderr.startswith(f"{some}[Game]:5:")


def test_a_worksheet_past_the_end_of_the_stream_is_one_line_not_a_traceback(tmp_path):
    stream = x.workbook_stream(GAME)
    at = stream.index(struct.pack("<H", 0x0085)) + 4  # BOUNDSHEET8: where the worksheet starts
    path = tmp_path / "past.xls"
    path.write_bytes(x.compound_file(stream[:at] + struct.pack("<I", 10**7) + stream[at + 4:]))
    refused(path, f"{path}[Game]: not readable as a workbook: the worksheet's records would "
                  "start past the end of the workbook's stream")


def test_a_panic_inside_calamine_is_one_located_line(tmp_path):
    """A record calamine cannot take (a defined name of 2 bytes: it indexes byte 3) panics in
    Rust; the panic is the usual refusal, exit 1, no traceback."""
    path = x.xls(tmp_path / "name.xls", GAME, x.record(0x0018, b"\0\0"))
    result = run("check", path)
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1] == (
        f"{path}: not readable as a workbook: calamine failed on it (index out of bounds: the "
        "len is 2 but the index is 3)")


def test_a_damaged_compound_file_is_refused(tmp_path):
    """Sectors in a circle: calamine would read on (a directory in a circle, without end: 6 GB
    in 23 s), so the scan refuses it."""
    data = bytearray(x.compound_file(x.workbook_stream(GAME + b"\0" * 9000)))
    fat = list(struct.unpack_from("<1024I", data, x.SECTOR))
    fat[4] = 3  # the stream's second sector leads back to its first
    struct.pack_into("<1024I", data, x.SECTOR, *fat)
    path = tmp_path / "circle.xls"
    path.write_bytes(bytes(data))
    refused(path, f"{path}: not readable as a workbook: its compound file does not hold "
                  "together (a sector past its end, or a chain of sectors in a circle)")


@st.composite
def shared_string_tables(draw):
    """An SST's data (8- or 16-bit strings, with formatting runs and an extension or not) as
    the parts a writer may cut it into: between strings, inside a string's characters (the
    next part starts with a flags byte of its own, which may change the width), inside its runs
    or extension; now and then an empty part."""
    parts, current = [], bytearray()

    def cut() -> None:
        parts.append(bytes(current))
        current.clear()

    for _ in range(draw(st.integers(0, 12))):
        text = draw(st.text(alphabet="ab語", max_size=30))
        wide = any(ord(ch) > 255 for ch in text) or draw(st.booleans())
        runs, extension = draw(st.integers(0, 2)), draw(st.integers(0, 9))
        flags = wide | (8 if runs else 0) | (4 if extension else 0)
        current += struct.pack("<HB", len(text), flags)
        current += (struct.pack("<H", runs) if runs else b"") \
            + (struct.pack("<i", extension) if extension else b"")
        for at, ch in enumerate(text):
            if draw(st.integers(0, 7)) == 0:  # the rest of the characters in the next part
                cut()
                wide = any(ord(rest) > 255 for rest in text[at:]) or draw(st.booleans())
                current.append(wide)
            current += ch.encode("utf-16-le" if wide else "latin-1")
        for _ in range(runs * 4 + extension):
            if draw(st.integers(0, 7)) == 0:
                cut()
            current += b"r"
        if draw(st.integers(0, 4)) == 0:
            cut()
            if draw(st.integers(0, 3)) == 0:
                parts.append(b"")  # an empty CONTINUE: calamine reads an empty string there
    cut()
    return parts


@settings(max_examples=80, deadline=None)
@given(shared_string_tables())
def test_shared_strings_are_read_as_calamine_reads_them(tmp_path_factory, table):
    """The scan's lengths of an SST's strings are those calamine reads, however the table is
    cut into CONTINUE records (xls_limits.shared_string_lengths)."""
    from python_calamine import CalamineWorkbook
    parts = table
    lengths = shared_string_lengths(parts, 10_000)
    records = x.record(0x00FC, struct.pack("<ii", 1, 1) + parts[0]) + b"".join(
        x.record(0x003C, part) for part in parts[1:])
    cells = b"".join(x.number(row, 0, row) + x.label_sst(row, 1, row)
                     for row in range(len(lengths) + 2))
    path = x.xls(tmp_path_factory.mktemp("sst") / "sst.xls", cells, records)
    rows = CalamineWorkbook.from_path(str(path)).get_sheet_by_name("Game").to_python()
    read = [len(row[1]) if len(row) > 1 else 0 for row in rows]
    assert read[:len(lengths)] == lengths
    assert read[len(lengths):] == [0, 0]  # no string past those found


def test_formulas_that_would_stall_calamine_are_refused(tmp_path):
    """calamine writes a formula's spaces in one at a time, moving the text after each: 2,000
    space tokens in one formula take it 2.8 s, forty such formulas (340 KB) two minutes."""
    spaced = struct.pack("<BHH", 0x24, 0, 0) + bytes([0x19, 0x40, 0x00, 0xFF]) * 2_000
    path = tmp_path / "spaced.xls"
    path.write_bytes(x.compound_file(x.workbook_stream(
        GAME + b"".join(x.formula(10 + i, 0, spaced) for i in range(40)))))
    refused(path, f"{path}: its formulas' spaces would take calamine minutes to write out: the "
                  "workbook is damaged or made to stall its reader")


def test_runs_of_continue_records_that_would_stall_calamine_are_refused(tmp_path):
    """calamine gathers a record's CONTINUEs into a list and takes them from its front, one
    move of the list each: 15 million empty ones in a 60 MB workbook peaked at 370 MiB, and
    30 strings carried on a character a CONTINUE (12 MB) stalled it past two minutes."""
    message = ("not readable as a workbook: its records go on in too many CONTINUE records; the "
               "workbook is damaged or made to stall its reader")
    empty = x.xls(tmp_path / "empty.xls", GAME + x.record(0x003C) * 30_000)
    refused(empty, f"{empty}: {message}")
    def carried(characters: int) -> bytes:  # one string, a character a record
        return x.record(0x00FC, struct.pack("<iiHB", 1, 1, characters, 0) + b"x") \
            + x.record(0x003C, b"\0x") * (characters - 1)

    table = x.xls(tmp_path / "table.xls", GAME, carried(30_000))
    refused(table, f"{table}: {message}")
    few = x.xls(tmp_path / "few.xls", GAME, carried(8_000))
    assert run("check", few).stdout == f"{few}: ok\n"  # a 64 MB table's 8,000: read


def test_what_the_globals_name_is_counted(tmp_path):
    """Worksheets, defined names and merged ranges cost calamine memory however empty (before,
    at 50-60 MB: 4 million worksheets 475 MiB, 3 million names 506, 7 million merged ranges
    301)."""
    stream = x.workbook_stream(GAME)
    at = stream.index(struct.pack("<H", 0x0085))
    end = at + 4 + struct.unpack_from("<H", stream, at + 2)[0]
    nowhere = x.record(0x0085, struct.pack("<IBBBB", len(stream), 0, 0, 1, 0) + b"s")
    sheets = tmp_path / "sheets.xls"
    sheets.write_bytes(x.compound_file(stream[:end] + nowhere * 10_000 + stream[end:]))
    refused(sheets, f"{sheets}: it names more than 10,000 worksheets: too many for a score "
                    "sheet workbook")
    name = x.record(0x0018, struct.pack("<HBBHHHBBBBB", 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0) + b"n")
    names = x.xls(tmp_path / "names.xls", GAME, name * 420_000)
    refused(names, f"{names}: its formulas would be written out as more than 64 MiB of text: "
                   "too large for a score sheet")
    merged = x.record(0x00E5, struct.pack("<H", 1027) + struct.pack("<HHHH", 0, 0, 0, 0) * 1027)
    merges = x.xls(tmp_path / "merges.xls", GAME + merged * 1_950)
    refused(merges, f"{merges}[Game]: the worksheet holds more than 2,000,000 cells: too large "
                    "to read as a score sheet (save it as CSV)")
    few = x.xls(tmp_path / "few.xls", GAME + merged, name * 10)
    assert run("check", few).stdout == f"{few}: ok\n"


FAR = f"[Game]: the worksheet spans A1:IV65536 (16,777,216 cells): too large to read as a score " \
      "sheet (at most 2,000,000; save it as CSV, or clear the far cells)"


def test_the_compound_file_is_read_as_calamine_reads_it(tmp_path):
    """A stream named WORKBOOK, a name whose length field says 0, a size past the file's end,
    a file cut inside its last sector: calamine reads each, so the scan does (before: each
    unscanned, 1,053 MiB); a directory in a circle, which calamine reads without end (6 GB in
    23 s), is refused."""
    stream = x.workbook_stream(GAME + x.number(65535, 255, 1))
    upper = tmp_path / "upper.xls"
    upper.write_bytes(x.compound_file(stream, name="WORKBOOK"))
    refused(upper, f"{upper}{FAR}")
    data = x.compound_file(stream)
    entry = x.SECTOR * 2 + 128  # the Workbook stream's directory entry (after one FAT sector)
    unnamed = tmp_path / "unnamed.xls"
    unnamed.write_bytes(data[:entry + 64] + b"\0\0" + data[entry + 66:])
    refused(unnamed, f"{unnamed}{FAR}")
    sized = tmp_path / "sized.xls"
    sized.write_bytes(data[:entry + 120] + struct.pack("<Q", 1 << 30) + data[entry + 128:])
    refused(sized, f"{sized}{FAR}")
    cut = tmp_path / "cut.xls"
    cut.write_bytes(data[:-100])
    refused(cut, f"{cut}{FAR}")
    circle = bytearray(data)
    struct.pack_into("<I", circle, x.SECTOR + 4 * 1, 1)  # the directory's sector leads to itself
    looped = tmp_path / "looped.xls"
    looped.write_bytes(bytes(circle))
    refused(looped, f"{looped}: not readable as a workbook: its compound file does not hold "
                    "together (a sector past its end, or a chain of sectors in a circle)")


def test_records_are_placed_as_calamine_places_them(tmp_path):
    """A DIMENSIONS whose first column is past 0xFF starts at column A (calamine; before: an
    abort); a formula's STRING is a cell where the last formula was, else at A1 (before: a
    game at IV65536 read past 1 GiB)."""
    dims = x.xls(tmp_path / "dims.xls", x.dimensions(0, 0xFFFFFFFF, 0xFFFF, 0xFFFF) + GAME)
    refused(dims, f"{dims}[Game]: its DIMENSIONS record declares 4,294,967,295 rows × 65,535 "
                  "columns: more than a worksheet holds (65,536 × 256); the workbook is damaged "
                  "or made to exhaust memory")
    far_game = b"".join(x.label(65532 + r, 252 + c, v) if isinstance(v, str)
                        else x.number(65532 + r, 252 + c, v)
                        for r, row in enumerate(x.GAME) for c, v in enumerate(row))
    string = x.xls(tmp_path / "string.xls", x.record(0x0207, struct.pack("<HB", 0, 1)) + far_game)
    refused(string, f"{string}{FAR}")


def test_ordinary_formulas_are_not_refused(tmp_path):
    """45,000 formulas like IF(C2=D2, 20+10*D2, -10*ABS(C2-D2)), their PtgAttr tokens (if,
    goto) no spaces: read (before: refused as more than 64 MiB of formula text)."""
    def ref(row: int, col: int) -> bytes:
        return struct.pack("<BHH", 0x24, row, col)

    attr = struct.pack("<BBH", 0x19, 0x02, 9) + struct.pack("<BBH", 0x19, 0x08, 3)
    expression = ref(1, 2) + ref(1, 3) + b"\x0b" + attr + ref(1, 3) + b"\x05" + attr + \
        ref(1, 2) + ref(1, 3) + b"\x04" + struct.pack("<BBH", 0x19, 0x08, 3)
    formulas = b"".join(x.formula(5 + i // 200, 10 + i % 200, expression) for i in range(45_000))
    path = x.xls(tmp_path / "formulas.xls", GAME + formulas)
    code, peak, err = peak_mib("check", path)
    assert code == 1 and err.startswith(f"{path}[Game]:6: 210 fields"), err[:300]  # read
    assert peak < 250, f"{peak:.0f} MiB"


def test_text_is_counted_in_the_bytes_calamine_makes_of_it(tmp_path):
    """A 16-bit character becomes up to three bytes of UTF-8, and in another code page than
    UTF-16 each of its bytes a character of its own (before, just under the old 32 Mi
    characters: 282 and 409 MiB)."""
    table = x.sst([chr(0x8080) * 8192])
    cells = b"".join(x.label_sst(5 + i // 100, i % 100, 0) for i in range(1_400))
    wide = x.xls(tmp_path / "wide.xls", GAME + cells, table)
    refused(wide, f"{wide}[Game]: its cells hold more than 32 MiB of text: too large for a "
                  "score sheet")
    page = x.xls(tmp_path / "page.xls", GAME + cells[:14 * 700],
                 x.record(0x0042, struct.pack("<H", 1252)) + table)
    refused(page, f"{page}[Game]: its cells hold more than 32 MiB of text: too large for a "
                  "score sheet")
    fewer = x.xls(tmp_path / "fewer.xls", GAME + cells[:14 * 1_300], table)
    code, peak, err = peak_mib("check", fewer)  # 32 MiB of three-byte characters: read
    assert code == 1 and err.startswith(f"{fewer}[Game]:6: 100 fields"), err[:200]
    assert peak < 250, f"{peak:.0f} MiB"
