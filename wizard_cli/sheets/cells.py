"""A cell's text as a whole number, and what messages quote of it; shared by every reader."""

from __future__ import annotations

import re

from ..game.model import BadValue, Value


SHOWN = 40  # characters of a cell's text quoted in a message
_WHOLE = re.compile(r"[+-]?\d{1,9}(?:\.0*)?")
_DATE_LIKE = re.compile(
    r"\d{1,2}[-.][A-Za-z]{3,9}\.?|[A-Za-z]{3,9}[-.]\d{1,4}|\d{4}-\d{1,2}-\d{1,2}(?:[ T].*)?"
    r"|\d{1,2}\.\d{1,2}\.(?:\d{2,4})?|\d{1,2}/\d{1,2}/\d{2,4}")


def whole_number(text: str) -> Value:
    """A cell's text as a whole number: '' is None, '2.0' is 2, anything else a BadValue."""
    if text.isdecimal() and len(text) < 10:  # the common case, exactly what _WHOLE takes as is
        return int(text)
    text = text.strip()
    if not text:
        return None
    if _WHOLE.fullmatch(text):
        return int(text.partition(".")[0])
    if len(text) > 12 and text.lstrip("+-").isdigit():
        return BadValue(text[:12] + "…", "is far too large")
    return BadValue(_shown(text))


def _shown(text: str) -> str:
    """A value as quoted in a message: cut short, so a 100 kB cell makes no 100 kB line."""
    return text if len(text) <= SHOWN else text[:SHOWN] + "…"


_PLAIN_NUMBERS = {str(number): number for number in range(100)}  # as whole_number reads them


def _trim_trailing(row: list[str]) -> list[str]:
    """A row without the empty cells a spreadsheet leaves after the last real column."""
    end = len(row)
    while end and not row[end - 1].strip():
        end -= 1
    return row[:end]


def _is_blank(row: list[str]) -> bool:
    """A row with no cells, or only empty ones."""
    return not any(cell.strip() for cell in row)

