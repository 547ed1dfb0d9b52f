"""SPEC §4 for legacy ``.xls`` workbooks (issue 21, item 3): calamine reads an ``.xls`` whole
and trusts it, so it reads in a fenced child (sheets/workbook/child.py): a hostile one is one
line naming the workbook, exit 1, or is read within the fence; the reading process stays small.
The workbooks are BIFF8 records in a compound file written byte by byte (tests/xls_bytes.py);
each is read by a real ``wizard`` process whose own peak memory is measured. Read in one process
(MiB): a far cell 1,063; a huge DIMENSIONS aborted (SIGABRT); 2.5 million cell records 238; a
long shared string in 2,000 cells 379; a worksheet past the stream's end a traceback (a panic
inside calamine); one worksheet's 1.9 million cells named twenty times 1,295; 800 formulas
naming a long worksheet name 644.
"""

from __future__ import annotations

import struct

import pytest
import xls_bytes as x
from helpers import run
from workbook_runs import fenced, parent_peak_mib, read_within, refused

from wizard_cli.sheets.workbook import reader as workbook

pytest.importorskip("python_calamine", reason="the xlsx extra (python-calamine) is not installed")

GAME = x.game_cells(x.GAME)


def test_a_workbook_written_byte_by_byte_reads_as_its_csv(tmp_path):
    """What the hostile cases below are made from: calamine reads it, and wizard scores it."""
    path = x.xls(tmp_path / "game.xls", x.dimensions(0, 4, 0, 4) + GAME)
    csv = tmp_path / "game.csv"
    csv.write_text("".join(",".join(map(str, row)) + "\n" for row in x.GAME))
    assert run("check", path).stdout == f"{path}: ok\n"
    assert run("score", path).stdout.replace(str(path), "G") == run("score", csv).stdout.replace(
        str(csv), "G"
    )
    shared = x.xls(
        tmp_path / "shared.xls",
        b"".join(
            x.label_sst(r, c, r * 4 + c) if isinstance(v, str) else x.number(r, c, v)
            for r, row in enumerate(x.GAME)
            for c, v in enumerate(row)
        ),
        x.sst([v if isinstance(v, str) else "" for row in x.GAME for v in row]),
    )
    assert run("check", shared).stdout == f"{shared}: ok\n"


def test_a_far_cell_is_fenced(tmp_path):
    path = x.xls(tmp_path / "far.xls", GAME + x.number(65535, 255, 1))
    fenced(path)


def test_a_huge_dimensions_record_is_refused_not_an_abort(tmp_path):
    path = x.xls(tmp_path / "dim.xls", x.dimensions(0, 0xFFFFFFFF, 0, 0xFFFF) + GAME)
    fenced(path)
    upside_down = x.xls(tmp_path / "upside.xls", x.dimensions(5, 2, 0, 4) + GAME)
    fenced(upside_down)
    # a worksheet's own size: calamine reserves it (never filled), past the fence's address space
    fenced(x.xls(tmp_path / "whole.xls", x.dimensions(0, 65536, 0, 256) + GAME))


def test_a_great_many_cell_records_are_read_within_the_fence(tmp_path):
    path = x.xls(
        tmp_path / "many.xls", GAME + b"".join(x.mul_rk(4 + r, 0, [1] * 250) for r in range(8_100))
    )
    read_within(path, 1)  # 2 million cells: each row a problem


def test_a_long_shared_string_shown_in_many_cells_is_fenced(tmp_path):
    cells = b"".join(x.label_sst(5 + i // 200, i % 200, 0) for i in range(2_000))
    path = x.xls(tmp_path / "text.xls", GAME + cells, x.sst_continued(60_000))
    fenced(path)
    few = x.xls(tmp_path / "few.xls", GAME + cells[: 14 * 100], x.sst_continued(60_000))
    code, peak, err = parent_peak_mib("check", few)  # 6 million characters: read (and found wrong)
    assert code == 1 and err.startswith(f"{few}[Game]:6: 100 fields, but the header has 4\n")
    assert peak < 250, f"{peak:.0f} MiB"


def test_many_shared_strings_are_read_within_the_fence(tmp_path):
    """calamine reads every string the table holds: 2,000,001 empty ones (6 MB) fit."""
    body = b"\0\0\1" * 2_000_001  # 8-bit strings of no characters
    pieces = [body[at : at + 8223] for at in range(0, len(body), 8223)]
    table = x.record(0x00FC, struct.pack("<ii", 1, 1) + pieces[0]) + b"".join(
        x.record(0x003C, piece) for piece in pieces[1:]
    )
    path = x.xls(tmp_path / "sst.xls", GAME, table)
    read_within(path, 0)
    claimed = x.xls(tmp_path / "claimed.xls", GAME, x.sst([], count=2_000_001))
    assert run("check", claimed).stdout == f"{claimed}: ok\n"  # a count alone builds nothing


def test_a_shared_string_the_table_does_not_count_is_fenced(tmp_path):
    """An SST claiming no strings still holds its one long string, which calamine reads and
    copies into each of 2,000 cells (before: not counted, 369 MiB)."""
    cells = b"".join(x.label_sst(5 + i // 200, i % 200, 0) for i in range(2_000))
    path = x.xls(tmp_path / "uncounted.xls", GAME + cells, x.sst_continued(60_000, count=0))
    fenced(path)


def test_an_empty_shared_string_is_a_cell(tmp_path):
    """calamine keeps an empty shared string as a cell, so a far one spans the grid (before:
    not counted, 1,054 MiB)."""
    path = x.xls(tmp_path / "far.xls", GAME + x.label_sst(65535, 255, 1), x.sst(["Anna", ""]))
    fenced(path)


def test_a_formatted_label_is_a_cell(tmp_path):
    """An RSTRING is read as a LABEL (before: not counted, a far one 1,054 MiB)."""
    path = x.xls(tmp_path / "far.xls", GAME + x.rstring(65535, 255, "x"))
    fenced(path)
    near = x.xls(tmp_path / "near.xls", GAME + x.rstring(4, 1, "Dan"))
    assert (
        run("check", near).stderr == f"{near}[Game]:5: round 1, Dan: missing bid\n"
        f"{near}[Game]:5: round 1, Dan: missing tricks\n"
    )


def test_a_chart_inside_a_worksheet_is_skipped_as_calamine_skips_it(tmp_path):
    """The cells after an embedded chart's substream are the worksheet's (2.4 million cells after
    it, read within the fence, each row a problem); the cells inside it are not."""
    many = b"".join(x.mul_rk(4 + r, 0, [1] * 250) for r in range(8_100))
    path = x.xls(tmp_path / "after.xls", GAME + x.chart(b"") + many)
    read_within(path, 1)
    inside = x.xls(tmp_path / "inside.xls", GAME + x.chart(x.number(65535, 255, 1)))
    assert run("check", inside).stdout == f"{inside}: ok\n"


BLOCK = GAME + b"".join(x.mul_rk(4 + r, 0, [1] * 250) for r in range(600))  # 150,012 cells


def test_many_worksheets_are_read_within_the_fence(tmp_path):
    """calamine builds every worksheet before one is read: twenty of 150,012 cells each are
    3 million (read in one process: 158 MiB; twice the cells in a 36 MB workbook, twice that);
    each worksheet's rows come to the reading process as it reads them."""
    path = tmp_path / "twenty.xls"
    path.write_bytes(x.compound_file(x.workbook_of([(f"S{i}", BLOCK) for i in range(20)])))
    read_within(path, 1)
    spans = tmp_path / "spans.xls"  # two cells each, far apart: the grids are the cost
    far = GAME + x.number(1999, 200, 1)
    spans.write_bytes(x.compound_file(x.workbook_of([(f"S{i}", far) for i in range(6)])))
    read_within(spans, 1)
    cells = b"".join(x.label_sst(5 + i // 100, i % 100, 0) for i in range(100))
    text = tmp_path / "text.xls"  # 2 million characters each
    text.write_bytes(
        x.compound_file(
            x.workbook_of([(f"S{i}", GAME + cells) for i in range(20)], x.sst_continued(20_000))
        )
    )
    read_within(text, 1)
    fine = tmp_path / "fine.xls"
    fine.write_bytes(x.compound_file(x.workbook_of([(f"S{i}", GAME) for i in range(20)])))
    assert run("check", fine).stdout == "".join(f"{fine}, game S{i}: ok\n" for i in range(20))


def test_one_worksheet_named_twenty_times_is_refused(tmp_path):
    """Twenty BOUNDSHEETs pointing at one worksheet's 1.9 million cells: calamine builds them
    twenty times (before: an 11 MB workbook peaked at 1,295 MiB in 22 s)."""
    big = GAME + b"".join(x.mul_rk(4 + r, 0, [1] * 250) for r in range(7_600))
    path = tmp_path / "named.xls"
    path.write_bytes(
        x.compound_file(
            x.workbook_of([(f"S{i}", big if i == 0 else b"") for i in range(20)], at=[0] * 20)
        )
    )
    fenced(path)


def test_formulas_calamine_writes_out_long_are_fenced(tmp_path):
    """Each reference to a worksheet spells its 255-character name out: 800 formulas of 1,021
    references in a 6.5 MB workbook (before: 644 MiB; at the 64 MB limit, ten times that)."""
    name = "語" * 255
    expression = x.ref3d(0) + (x.ref3d(0) + b"\x10") * 1020  # Sheet!A1,Sheet!A1,…
    formulas = b"".join(x.formula(10 + i, 0, expression) for i in range(800))
    path = tmp_path / "formulas.xls"
    path.write_bytes(x.compound_file(x.workbook_of([(name, GAME + formulas)], x.extern_sheet(1))))
    fenced(path)
    some = tmp_path / "some.xls"  # a total under each column: read, and scored as ever
    total = b"".join(x.formula(4, c, x.ref3d(0, 1, c), 1) for c in (2, 3))
    some.write_bytes(x.compound_file(x.workbook_of([("Game", GAME + total)], x.extern_sheet(1))))
    assert run("check", some).stderr.startswith(f"{some}[Game]:5:")


def test_a_worksheet_past_the_end_of_the_stream_is_one_line_not_a_traceback(tmp_path):
    stream = x.workbook_stream(GAME)
    at = stream.index(struct.pack("<H", 0x0085)) + 4  # BOUNDSHEET8: where the worksheet starts
    path = tmp_path / "past.xls"
    path.write_bytes(x.compound_file(stream[:at] + struct.pack("<I", 10**7) + stream[at + 4 :]))
    fenced(path)


def test_a_panic_inside_calamine_is_one_located_line(tmp_path):
    """A record calamine cannot take (a defined name of 2 bytes: it indexes byte 3) panics in
    Rust; the panic is the usual refusal, exit 1, no traceback."""
    path = x.xls(tmp_path / "name.xls", GAME, x.record(0x0018, b"\0\0"))
    result = run("check", path)
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1] == (
        f"{path}: not readable as a workbook: calamine failed on it (index out of bounds: the "
        "len is 2 but the index is 3)"
    )


def test_a_damaged_compound_file_is_refused(tmp_path):
    """Sectors in a circle: calamine would read on (a directory in a circle, without end: 6 GB
    in 23 s): the child's fence stops it (its memory limit, or its CPU time)."""
    data = bytearray(x.compound_file(x.workbook_stream(GAME + b"\0" * 9000)))
    fat = list(struct.unpack_from("<1024I", data, x.SECTOR))
    fat[4] = 3  # the stream's second sector leads back to its first
    struct.pack_into("<1024I", data, x.SECTOR, *fat)
    path = tmp_path / "circle.xls"
    path.write_bytes(bytes(data))
    fenced(path)


def test_formulas_that_would_stall_calamine_are_stopped_by_the_cpu_limit(tmp_path, monkeypatch):
    """calamine writes a formula's spaces in one at a time, moving the text after each: 2,000
    space tokens in one formula take it 2.8 s, forty such formulas (340 KB) two minutes. The
    child's CPU limit (set to 2 s here) stops it."""
    monkeypatch.setattr(workbook, "CPU_SECONDS", 2)
    spaced = struct.pack("<BHH", 0x24, 0, 0) + bytes([0x19, 0x40, 0x00, 0xFF]) * 2_000
    path = tmp_path / "spaced.xls"
    path.write_bytes(
        x.compound_file(
            x.workbook_stream(GAME + b"".join(x.formula(10 + i, 0, spaced) for i in range(40)))
        )
    )
    result = run("check", path)
    assert (result.exit_code, result.stderr) == (
        1,
        f"{path}: not readable as a workbook: reading it took more than 2 s of CPU time\n",
    )


def test_runs_of_continue_records_are_read_within_the_fence(tmp_path):
    """calamine gathers a record's CONTINUEs into a list and takes them from its front, one
    move of the list each: 15 million empty ones in a 60 MB workbook peaked at 370 MiB, and
    30 strings carried on a character a CONTINUE (12 MB) stalled it past two minutes."""
    empty = x.xls(tmp_path / "empty.xls", GAME + x.record(0x003C) * 30_000)
    read_within(empty, 0)

    def carried(characters: int) -> bytes:  # one string, a character a record
        return x.record(0x00FC, struct.pack("<iiHB", 1, 1, characters, 0) + b"x") + x.record(
            0x003C, b"\0x"
        ) * (characters - 1)

    table = x.xls(tmp_path / "table.xls", GAME, carried(30_000))
    read_within(table, 0)
    few = x.xls(tmp_path / "few.xls", GAME, carried(8_000))
    assert run("check", few).stdout == f"{few}: ok\n"  # a 64 MB table's 8,000: read


def test_what_the_globals_name_is_read_within_the_fence(tmp_path):
    """Worksheets, defined names and merged ranges cost calamine memory however empty (before,
    at 50-60 MB: 4 million worksheets 475 MiB, 3 million names 506, 7 million merged ranges
    301)."""
    stream = x.workbook_stream(GAME)
    at = stream.index(struct.pack("<H", 0x0085))
    end = at + 4 + struct.unpack_from("<H", stream, at + 2)[0]
    nowhere = x.record(0x0085, struct.pack("<IBBBB", len(stream), 0, 0, 1, 0) + b"s")
    sheets = tmp_path / "sheets.xls"
    sheets.write_bytes(x.compound_file(stream[:end] + nowhere * 10_000 + stream[end:]))
    refused(sheets, f"{sheets}: no worksheet holds a score sheet")
    name = x.record(0x0018, struct.pack("<HBBHHHBBBBB", 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0) + b"n")
    names = x.xls(tmp_path / "names.xls", GAME, name * 420_000)
    read_within(names, 0)
    merged = x.record(0x00E5, struct.pack("<H", 1027) + struct.pack("<HHHH", 0, 0, 0, 0) * 1027)
    merges = x.xls(tmp_path / "merges.xls", GAME + merged * 1_950)
    read_within(merges, 0)
    few = x.xls(tmp_path / "few.xls", GAME + merged, name * 10)
    assert run("check", few).stdout == f"{few}: ok\n"


FAR = (
    "[Game]: the worksheet spans A1:IV65536 (16,777,216 cells): too large to read as a score "
    "sheet (at most 2,000,000; save it as CSV, or clear the far cells)"
)


def test_compound_files_however_written_are_fenced(tmp_path):
    """A stream named WORKBOOK, a name whose length field says 0, a size past the file's end,
    a file cut inside its last sector, each with a far cell: calamine reads each (once missed
    by a scan, 1,053 MiB in one process), within its fence; a directory in a circle, which
    calamine reads without end (6 GB in 23 s), is stopped by the fence."""
    stream = x.workbook_stream(GAME + x.number(65535, 255, 1))
    upper = tmp_path / "upper.xls"
    upper.write_bytes(x.compound_file(stream, name="WORKBOOK"))
    fenced(upper)
    data = x.compound_file(stream)
    entry = x.SECTOR * 2 + 128  # the Workbook stream's directory entry (after one FAT sector)
    unnamed = tmp_path / "unnamed.xls"
    unnamed.write_bytes(data[: entry + 64] + b"\0\0" + data[entry + 66 :])
    fenced(unnamed)
    sized = tmp_path / "sized.xls"
    sized.write_bytes(data[: entry + 120] + struct.pack("<Q", 1 << 30) + data[entry + 128 :])
    fenced(sized)
    cut = tmp_path / "cut.xls"
    cut.write_bytes(data[:-100])
    fenced(cut)
    circle = bytearray(data)
    struct.pack_into("<I", circle, x.SECTOR + 4 * 1, 1)  # the directory's sector leads to itself
    looped = tmp_path / "looped.xls"
    looped.write_bytes(bytes(circle))
    fenced(looped)


def test_records_placed_far_off_are_fenced(tmp_path):
    """A DIMENSIONS whose first column is past 0xFF starts at column A (calamine; before: an
    abort); a formula's STRING is a cell where the last formula was, else at A1 (before: a
    game at IV65536 read past 1 GiB)."""
    dims = x.xls(tmp_path / "dims.xls", x.dimensions(0, 0xFFFFFFFF, 0xFFFF, 0xFFFF) + GAME)
    fenced(dims)
    far_game = b"".join(
        x.label(65532 + r, 252 + c, v) if isinstance(v, str) else x.number(65532 + r, 252 + c, v)
        for r, row in enumerate(x.GAME)
        for c, v in enumerate(row)
    )
    string = x.xls(tmp_path / "string.xls", x.record(0x0207, struct.pack("<HB", 0, 1)) + far_game)
    fenced(string)


def test_ordinary_formulas_are_not_refused(tmp_path):
    """45,000 formulas like IF(C2=D2, 20+10*D2, -10*ABS(C2-D2)), their PtgAttr tokens (if,
    goto) no spaces: read (before: refused as more than 64 MiB of formula text)."""

    def ref(row: int, col: int) -> bytes:
        return struct.pack("<BHH", 0x24, row, col)

    attr = struct.pack("<BBH", 0x19, 0x02, 9) + struct.pack("<BBH", 0x19, 0x08, 3)
    expression = (
        ref(1, 2)
        + ref(1, 3)
        + b"\x0b"
        + attr
        + ref(1, 3)
        + b"\x05"
        + attr
        + ref(1, 2)
        + ref(1, 3)
        + b"\x04"
        + struct.pack("<BBH", 0x19, 0x08, 3)
    )
    formulas = b"".join(x.formula(5 + i // 200, 10 + i % 200, expression) for i in range(45_000))
    path = x.xls(tmp_path / "formulas.xls", GAME + formulas)
    code, peak, err = parent_peak_mib("check", path)
    assert code == 1 and err.startswith(f"{path}[Game]:6: 210 fields"), err[:300]  # read
    assert peak < 250, f"{peak:.0f} MiB"


def test_text_in_other_code_pages_is_read_within_the_fence(tmp_path):
    """A 16-bit character becomes up to three bytes of UTF-8, and in another code page than
    UTF-16 each of its bytes a character of its own (before, just under the old 32 Mi
    characters: 282 and 409 MiB)."""
    table = x.sst([chr(0x8080) * 8192])
    cells = b"".join(x.label_sst(5 + i // 100, i % 100, 0) for i in range(1_400))
    wide = x.xls(tmp_path / "wide.xls", GAME + cells, table)
    read_within(wide, 1)
    page = x.xls(
        tmp_path / "page.xls",
        GAME + cells[: 14 * 700],
        x.record(0x0042, struct.pack("<H", 1252)) + table,
    )
    read_within(page, 1)
    fewer = x.xls(tmp_path / "fewer.xls", GAME + cells[: 14 * 1_300], table)
    code, peak, err = parent_peak_mib("check", fewer)  # 32 MiB of three-byte characters: read
    assert code == 1 and err.startswith(f"{fewer}[Game]:6: 100 fields"), err[:200]
    assert peak < 250, f"{peak:.0f} MiB"
