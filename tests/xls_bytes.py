"""Legacy ``.xls`` workbooks written byte by byte (no xlwt): a BIFF8 ``Workbook`` stream in a
version 4 compound file (4096-byte sectors), enough for calamine to read a worksheet of
labels, numbers and shared strings, and to be made hostile (a huge DIMENSIONS, a huge or lying
SST, far cells, a great many cell records). Used by test_xls_limits.py and, by hand, to measure
a case's peak memory."""

from __future__ import annotations

import struct
from collections.abc import Iterable
from pathlib import Path

SECTOR = 4096
END, FREE, FAT_SECTOR = 0xFFFFFFFE, 0xFFFFFFFF, 0xFFFFFFFD


def record(kind: int, data: bytes = b"") -> bytes:
    return struct.pack("<HH", kind, len(data)) + data


def bof(kind: int) -> bytes:  # 0x0005 the workbook's globals, 0x0010 a worksheet
    return record(0x0809, struct.pack("<HHHHII", 0x0600, kind, 0x0DBB, 0x07CC, 0, 0x0206))


EOF = record(0x000A)


def label(row: int, col: int, text: str) -> bytes:
    raw = text.encode("utf-16-le")
    return record(0x0204, struct.pack("<HHHHB", row, col, 0, len(text), 1) + raw)


def rstring(row: int, col: int, text: str) -> bytes:
    """An RSTRING (0x00D6): a label with formatting runs (none here), read as a LABEL."""
    raw = text.encode("latin-1")
    return record(
        0x00D6, struct.pack("<HHHHB", row, col, 0, len(text), 0) + raw + struct.pack("<H", 0)
    )


def formula(row: int, col: int, rgce: bytes, value: float = 0.0) -> bytes:
    """A FORMULA (0x0006) holding ``value``, its parsed expression ``rgce``."""
    return record(0x0006, struct.pack("<HHHdHIH", row, col, 0, value, 0, 0, len(rgce)) + rgce)


def ref3d(sheet: int, row: int = 0, col: int = 0) -> bytes:
    """A PtgRef3d token: ``Sheet!A1`` through the EXTERNSHEET entry ``sheet``."""
    return struct.pack("<BHHH", 0x3A, sheet, row, col)


def extern_sheet(count: int) -> bytes:
    """An EXTERNSHEET (0x0017) whose ``count`` entries all point at the first worksheet."""
    return record(0x0017, struct.pack("<H", count) + struct.pack("<HHH", 0, 0, 0) * count)


def chart(records: bytes) -> bytes:
    """A substream embedded in a worksheet (a chart): calamine skips what it holds."""
    return bof(0x0020) + records + EOF


def number(row: int, col: int, value: float) -> bytes:
    return record(0x0203, struct.pack("<HHHd", row, col, 0, value))


def label_sst(row: int, col: int, index: int) -> bytes:
    return record(0x00FD, struct.pack("<HHHI", row, col, 0, index))


def mul_rk(row: int, first: int, values: list[int]) -> bytes:
    """One MULRK: whole numbers in consecutive columns of a row."""
    cells = b"".join(struct.pack("<Hi", 0, (value << 2) | 2) for value in values)
    return record(
        0x00BD, struct.pack("<HH", row, first) + cells + struct.pack("<H", first + len(values) - 1)
    )


def dimensions(first_row: int, last_row_plus: int, first_col: int, last_col_plus: int) -> bytes:
    return record(
        0x0200, struct.pack("<IIHHH", first_row, last_row_plus, first_col, last_col_plus, 0)
    )


def sst(strings: list[str], count: int | None = None) -> bytes:
    """A shared-string table (plain 16-bit characters), carried on in CONTINUE records at
    string boundaries past 8,224 bytes; ``count`` may lie about how many there are."""
    total = len(strings) if count is None else count
    pieces = [struct.pack("<ii", total, total)]
    out, size = b"", 8
    kind = 0x00FC
    for text in strings:
        piece = struct.pack("<HB", len(text), 1) + text.encode("utf-16-le")
        if size + len(piece) > 8224:
            out += record(kind, b"".join(pieces))
            kind, pieces, size = 0x003C, [], 0
        pieces.append(piece)
        size += len(piece)
    return out + record(kind, b"".join(pieces))


def sst_continued(text_chars: int, count: int = 1) -> bytes:
    """An SST of ``count`` copies... of one long 8-bit string of ``text_chars`` characters,
    carried on in CONTINUE records (each starting with its own flags byte)."""
    parts = [struct.pack("<iiHB", count, count, text_chars, 0)]
    first = min(text_chars, 8214)
    parts.append(b"x" * first)
    out = record(0x00FC, b"".join(parts))
    left = text_chars - first
    while left:
        piece = min(left, 8223)
        out += record(0x003C, b"\x00" + b"x" * piece)
        left -= piece
    return out


def game_cells(rows: Iterable[list[object]]) -> bytes:
    out = b""
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            out += label(r, c, value) if isinstance(value, str) else number(r, c, value)
    return out


GAME = [
    ["round", "player", "bid", "tricks"],
    [1, "Anna", 0, 0],
    [1, "Ben", 1, 1],
    [1, "Cara", 0, 0],
]


def workbook_stream(sheet_records: bytes, globals_extra: bytes = b"", name: str = "Game") -> bytes:
    """The BIFF8 stream: the globals (one BOUNDSHEET8 pointing at the worksheet), then the
    worksheet's substream."""
    return workbook_of([(name, sheet_records)], globals_extra)


def workbook_of(
    sheets: list[tuple[str, bytes]], globals_extra: bytes = b"", at: list[int] | None = None
) -> bytes:
    """The BIFF8 stream of several worksheets: the globals (a BOUNDSHEET8 for each, pointing
    at its substream, or at the index into ``sheets`` of each of ``at``: worksheets that share
    their records), then each worksheet's substream."""

    def globals_(positions: list[int]) -> bytes:
        boundsheets = b"".join(
            record(
                0x0085,
                struct.pack("<IBBBB", positions[i], 0, 0, len(name), wide)
                + name.encode("utf-16-le" if wide else "latin-1"),
            )
            for i, (name, _) in enumerate(sheets)
            for wide in [int(any(ord(c) > 255 for c in name))]
        )
        return (
            bof(0x0005)
            + record(0x0042, struct.pack("<H", 1200))
            + boundsheets
            + globals_extra
            + EOF
        )

    bodies = [bof(0x0010) + records + EOF for _, records in sheets]
    starts, here = [], len(globals_([0] * len(sheets)))
    for body in bodies:
        starts.append(here)
        here += len(body)
    positions = starts if at is None else [starts[i] for i in at]
    return globals_(positions) + b"".join(bodies)


def compound_file(stream: bytes, name: str = "Workbook") -> bytes:
    """A version 4 compound file holding ``stream`` (padded past the 4096-byte cutoff, so it
    lives in sectors, not in the mini stream)."""
    stream = stream + b"\x00" * max(0, SECTOR + 1 - len(stream))
    data_sectors = -(-len(stream) // SECTOR)
    fat_sectors = 1
    while fat_sectors * (SECTOR // 4) < fat_sectors + 2 + data_sectors:
        fat_sectors += 1
    assert fat_sectors <= 109, "no DIFAT sectors written: a stream up to ~440 MB"
    # then the directory's sector, and an empty mini stream's (a version 4 root must have one)
    fat = [FAT_SECTOR] * fat_sectors + [END, END]
    first = len(fat)
    fat += [first + i + 1 for i in range(data_sectors - 1)] + [END]
    fat += [FREE] * (fat_sectors * (SECTOR // 4) - len(fat))
    difat = list(range(fat_sectors)) + [FREE] * (109 - fat_sectors)
    header = struct.pack(
        "<8s16sHHHHH6sIIIIIIIII",
        bytes.fromhex("D0CF11E0A1B11AE1"),
        b"\0" * 16,
        0x3E,
        4,
        0xFFFE,
        12,
        6,
        b"\0" * 6,
        1,
        fat_sectors,
        fat_sectors,
        0,
        4096,
        END,
        0,
        END,
        0,
    ) + struct.pack("<109I", *difat)
    header += b"\0" * (SECTOR - len(header))

    def entry(entry_name: str, kind: int, start: int, size: int, child: int = FREE) -> bytes:
        raw = (entry_name.encode("utf-16-le") + b"\0\0") if entry_name else b""
        return struct.pack(
            "<64sHBBIII16sIQQIQ",
            raw,
            len(raw),
            kind,
            1,
            FREE,
            FREE,
            child,
            b"\0" * 16,
            0,
            0,
            0,
            start,
            size,
        )

    directory = entry("Root Entry", 5, fat_sectors + 1, 0, child=1) + entry(
        name, 2, first, len(stream)
    )
    directory += entry("", 0, 0, 0) * (SECTOR // 128 - 2)
    return (
        header
        + struct.pack(f"<{len(fat)}I", *fat)
        + directory
        + b"\0" * SECTOR
        + stream
        + b"\0" * (-len(stream) % SECTOR)
    )


def xls(path: Path, sheet_records: bytes, globals_extra: bytes = b"") -> Path:
    path.write_bytes(compound_file(workbook_stream(sheet_records, globals_extra)))
    return path
