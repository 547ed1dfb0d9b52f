"""Tables that fit the terminal (SPEC §5): widths in terminal columns, and the terminal's width.

A table goes to a file or a pipe unchanged, whatever ``COLUMNS`` says; only standard output
that is a terminal gets a width to fit.
"""

from __future__ import annotations

import os
import unicodedata
from typing import TextIO


def terminal_width(stream: TextIO) -> int | None:
    """The width to fit a table to: None unless ``stream`` is a terminal; then ``COLUMNS`` when
    that is a positive number, else the terminal's own width."""
    try:
        if not stream.isatty():
            return None
    except (AttributeError, ValueError, OSError):
        return None
    columns = os.environ.get("COLUMNS", "").strip()
    if columns.isascii() and columns.isdigit() and int(columns) > 0:
        return int(columns)
    try:
        return os.get_terminal_size(stream.fileno()).columns or None
    except (AttributeError, ValueError, OSError):
        return None


def text_width(text: str) -> int:
    """How many terminal columns ``text`` takes: East Asian wide and full-width characters two,
    combining marks and zero-width characters none, everything else one."""
    if text.isascii():
        return len(text)
    width = 0
    for char in text:
        if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


def fits(drawn: str, width: int) -> bool:
    """Whether every line of a drawn table is at most ``width`` terminal columns."""
    return all(text_width(line) <= width for line in drawn.split("\n"))
