"""SPEC §4 for legacy ``.xls`` workbooks (issue 21, item 3): calamine reads an ``.xls`` whole
and trusts it, so a hostile one is refused with one located line before calamine builds
anything (sheets/xls_limits.py). The workbooks are BIFF8 records in a compound file written
byte by byte (tests/xls_bytes.py); each is read by a real ``wizard`` process whose own peak
memory is measured. Before (MiB): a far cell 1,063; a huge DIMENSIONS aborted (SIGABRT);
2.5 million cell records 238; a long shared string in 2,000 cells 379; a worksheet past the
stream's end a traceback (a panic inside calamine).
"""

from __future__ import annotations

import struct

import pytest

import xls_bytes as x
from helpers import run
from test_memory import peak_mib

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
    refused(path, f"{path}[Game]: its cells hold more than 32 Mi characters of text: too large "
                  "for a score sheet")
    few = x.xls(tmp_path / "few.xls", GAME + cells[:14 * 100], x.sst_continued(60_000))
    code, peak, err = peak_mib("check", few)  # 6 million characters: read (and found wrong)
    assert code == 1 and err.startswith(f"{few}[Game]:6: 100 fields, but the header has 4\n")
    assert peak < 250, f"{peak:.0f} MiB"


def test_too_many_shared_strings_are_refused(tmp_path):
    path = x.xls(tmp_path / "sst.xls", GAME, x.sst([], count=2_000_001))
    refused(path, f"{path}: its shared strings number more than 2,000,000: too many for a "
                  "score sheet")


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


def test_a_damaged_compound_file_is_left_to_calamine(tmp_path):
    """Sectors in a circle: calamine says so (and so it did before the scan)."""
    data = bytearray(x.compound_file(x.workbook_stream(GAME + b"\0" * 9000)))
    fat = list(struct.unpack_from("<1024I", data, x.SECTOR))
    fat[4] = 3  # the stream's second sector leads back to its first
    struct.pack_into("<1024I", data, x.SECTOR, *fat)
    path = tmp_path / "circle.xls"
    path.write_bytes(bytes(data))
    refused(path, f"{path}: not readable as a workbook: End of stream 'record length'")
