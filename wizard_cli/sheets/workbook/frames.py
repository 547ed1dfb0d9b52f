"""The framed stream in which a workbook's child process (:mod:`~wizard_cli.sheets.workbook.child`) sends its
worksheets' rows to the reading process (:mod:`~wizard_cli.sheets.workbook.reader`).

A frame is one byte of kind, four of length (big-endian) and that many bytes of payload. A
payload is UTF-8 text in fields: ``0xFF`` ends a field and ``0xFE`` a row, two bytes that UTF-8
never holds, so no cell's text can be taken for either. Kinds:

- ``H`` a worksheet's first row that is not blank: its index, name, row number, cells;
- ``D`` every such row has been sent (the reader then writes the indices it wants, one line);
- ``R`` rows of the worksheet being sent, from its first row that is not blank: number, cells;
- ``E`` the end of that worksheet; ``Z`` the end of the workbook;
- ``P`` a problem: its message, its location.

The child's bytes are not trusted: :func:`rows` and :func:`fields` raise :class:`Garbled` on
anything that is not such a payload. This module imports nothing of the rest of the package.
"""

from __future__ import annotations

import re
import struct

HEAD = struct.Struct(">cI")
MAX_ROW = 8 << 20  # characters of a row's text and of a frame's rows (a longer row: refused)
MAX_FRAME = 4 * MAX_ROW  # bytes of one frame's payload (UTF-8 takes up to four a character)
BATCH = 64 << 10  # the child sends its rows in frames of about this many characters
FIELD, ROW = b"\xff", b"\xfe"
# The two bytes as text: what surrogateescape decodes them to and encodes back to them. Text
# from calamine (Rust strings) never holds a lone surrogate, so none is taken for either.
FIELD_TEXT, ROW_TEXT = "\udcff", "\udcfe"
_GARBLED = re.compile("[\udc80-\udcfd]")  # any other byte that is not UTF-8


class Refusal(Exception):
    """A workbook refused by the child: ``message``, and where (a path, a worksheet, a row);
    sent as a ``P`` frame."""

    def __init__(self, message: str, location: str, line: int | None = None) -> None:
        super().__init__(message)
        self.message, self.location, self.line = message, location, line


class Garbled(Exception):
    """The child sent what is not a frame of this stream."""


def frame(kind: bytes, payload: bytes = b"") -> bytes:
    """One frame."""
    return HEAD.pack(kind, len(payload)) + payload


def encode(fields) -> bytes:
    """Texts (or numbers) as one payload's fields."""
    return FIELD.join(str(field).encode("utf-8") for field in fields)


def _text(payload: bytes) -> str:
    text = payload.decode("utf-8", "surrogateescape")
    if _GARBLED.search(text):
        raise Garbled("not UTF-8")
    return text


def fields(payload: bytes) -> list[str]:
    """A payload's fields."""
    return _text(payload).split(FIELD_TEXT)


def rows(payload: bytes, after: int) -> list[tuple[int, list[str]]]:
    """An ``R`` payload's rows, each (number, cells); numbers rise from past ``after``."""
    found = []
    for row in _text(payload).split(ROW_TEXT):
        number, *cells = row.split(FIELD_TEXT)
        if not (number.isdigit() and number.isascii()) or int(number) <= after:
            raise Garbled(f"row number {number[:20]!r}")
        after = int(number)
        found.append((after, cells))
    return found
