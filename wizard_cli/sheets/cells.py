"""What every tabular reader (long and wide CSV, workbooks) and the YAML reader share about one
cell: a whole number (ASCII digits, a decimal comma where allowed), a date, a date-shaped cell,
a spreadsheet's error code,
header names (German too), rows of totals, and how much of a cell a message quotes."""

from __future__ import annotations

import datetime
import functools
import re

from ..errors import shorten
from ..game.model import BadValue, Value

SHOWN = 40  # characters of a cell's text quoted in a message
_WHOLE = re.compile(r"[+-]?[0-9]{1,9}(?:\.0*)?")  # ASCII digits only: "١" is no bid
_WHOLE_OR_COMMA = re.compile(r"[+-]?[0-9]{1,9}(?:[.,]0*)?")
# What a spreadsheet makes of `1/1`, `1.1` or `1-1` typed into a cell (SPEC §3): `01-Jan`,
# `1. Jan`, `Jan 2`, `2. Jan 2026`, `Jan-01`, `2026-01-02`, `01.01.`, `02.01.2026`, `1/1/2026`.
_MONTH = r"[^\W\d_]{3,9}\.?"  # a month's name, in any language (`Jan`, `Mär`, `März`)
DATE_LIKE = re.compile(
    rf"\d{{1,2}}(?:[-.]|\.? +){_MONTH}(?:[-. ] *\d{{2,4}})?"
    rf"|{_MONTH}(?:[-.]| +)\d{{1,4}}(?:,? +\d{{4}})?"
    r"|\d{4}-\d{1,2}-\d{1,2}(?:[ T].*)?|\d{1,2}\.\d{1,2}\.(?:\d{2,4})?|\d{1,2}/\d{1,2}/\d{2,4}"
)
DATE_WHY = (
    "looks like a date: a spreadsheet probably turned a bid/tricks cell such as '1/1' "
    "into a date (format the column as text and type it again)"
)
DATE_SERIALS = range(20000, 80001)
# A formula a spreadsheet could not compute shows (and exports) as an error code: Excel's and
# LibreOffice's, in English and German (#NV, #BEZUG!, #WERT!, #ZAHL!), and LibreOffice's Err:NNN.
ERROR_CODE = re.compile(
    r"#(?:DIV/0!|N/A|NV|REF!|BEZUG!|VALUE!|WERT!|NAME\?|NUM!|ZAHL!|NULL!|"
    r"SPILL!|CALC!|FIELD!|BLOCKED!|CONNECT!|BUSY!|UNKNOWN!|GETTING_DATA|"
    r"ERROR!)|Err:\d{3}",
    re.IGNORECASE,
)
ERROR_WHY = (
    "is a spreadsheet error: its formula could not be computed (fix the formula, or "
    "type the number)"
)  # a spreadsheet's day numbers for the years 1954 to 2119

# A header's names in the languages spreadsheets are kept in (SPEC §3), as the English name.
HEADER_NAMES = {
    "spiel": "game",
    "runde": "round",
    "spieler": "player",
    "ansage": "bid",
    "gebot": "bid",
    "tipp": "bid",
    "stiche": "tricks",
    "punkte": "points",
    "datum": "date",
    "bombe": "bomb",
    "wolke": "cloud",
}
TOTALS = frozenset({"total", "sum", "summe", "gesamt"})  # a total row's round cell, any case


def header_name(cell: str) -> str:
    """A header cell as the English column name it stands for (lower case)."""
    name = cell.strip().lower()
    return HEADER_NAMES.get(name, name)


_MARKED = frozenset({"yes", "y", "x", "1", "true", "ja"})
_UNMARKED = frozenset({"no", "n", "0", "false", "nein", ""})


def mark_cell(text: str) -> bool | None:
    """A ``bomb`` cell (SPEC §3): True marked, False not, None neither (a problem)."""
    word = text.strip().lower()
    return True if word in _MARKED else False if word in _UNMARKED else None


def cloud_change(text: str) -> int | None:
    """The Cloud's change written as text (SPEC §3): ``+1`` or ``1`` is 1, ``-1`` (or with the
    Unicode minus, ``−1``) is -1; anything else None."""
    return _CLOUD_CHANGES.get(text.replace("−", "-"))


_CLOUD_CHANGES = {"+1": 1, "1": 1, "-1": -1}


def cloud_cell(text: str) -> int | None | BadValue:
    """A ``cloud`` cell (SPEC §3): the change, +1 or -1; None when empty; else a BadValue."""
    word = text.strip().replace("−", "-")
    if not word:
        return None
    change = cloud_change(word)
    return BadValue(shown_value(word)) if change is None else change


def is_total(cell: str) -> bool:
    """Whether a round cell marks a row of totals (ignored)."""
    return cell.strip().lower() in TOTALS


def whole_number(text: str, comma: bool = False) -> Value:
    """A cell's text as a whole number: '' is None, '2.0' is 2 (also '2,0' with ``comma``, in a
    file not delimited by ','), anything else a BadValue."""
    if (
        text.isascii() and text.isdecimal() and len(text) < 10
    ):  # the common case, exactly what _WHOLE takes as is
        return int(text)
    text = text.strip()
    if not text:
        return None
    if (_WHOLE_OR_COMMA if comma else _WHOLE).fullmatch(text):
        return int(text.replace(",", ".").partition(".")[0])
    if text.isascii() and text.lstrip("+-").isdigit():  # digits, but 10**9 or more
        return BadValue(shorten(text, 12), "is far too large")
    return BadValue(shown_value(text))


def count_cell(text: str, comma: bool = False) -> Value:
    """A bid or tricks cell: a whole number, or a BadValue; a date-shaped cell (a date serial
    among them) says what a spreadsheet did to it."""
    value = whole_number(text, comma)
    if isinstance(value, int):
        return BadValue(str(value), DATE_WHY) if value in DATE_SERIALS else value
    if isinstance(value, BadValue) and DATE_LIKE.fullmatch(text.strip()):
        return BadValue(shown_value(text.strip()), DATE_WHY)
    if isinstance(value, BadValue) and ERROR_CODE.fullmatch(text.strip()):
        return BadValue(text.strip(), ERROR_WHY)
    return value


def shown_value(text: str) -> str:
    """A value as quoted in a message: cut short, so a 100 kB cell makes no 100 kB line."""
    return shorten(text, SHOWN)


PLAIN_NUMBERS = {str(number): number for number in range(100)}  # as whole_number reads them


def trim_trailing(row: list[str]) -> list[str]:
    """A row without the empty cells a spreadsheet leaves after the last real column."""
    end = len(row)
    while end and not row[end - 1].strip():
        end -= 1
    return row[:end]


def is_blank(row: list[str]) -> bool:
    """A row with no cells, or only empty ones."""
    return not any(cell.strip() for cell in row)


# ASCII digits only, as in a bid or tricks cell: `١٠.٠١.٢٠٢٦` is no date.
_ISO_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
_DOTTED_DATE = re.compile(r"([0-9]{1,2})\.([0-9]{1,2})\.([0-9]{4})")
DATE_FORMS = "an ISO date YYYY-MM-DD"
DATE_FORMS_CSV = "an ISO date YYYY-MM-DD or DD.MM.YYYY"


@functools.lru_cache(maxsize=256)
def parse_date(text: str, dotted: bool = True) -> str | BadValue | None:
    """A game's date as ISO ``YYYY-MM-DD`` text (SPEC §3): '' is None, a text that is no real
    date a BadValue. ``DD.MM.YYYY`` (German spreadsheets) is read too unless ``dotted`` is off
    (a YAML sheet's date is ISO only). Cached: a season's games repeat few dates many times."""
    text = text.strip()
    if not text:
        return None
    iso = _ISO_DATE.fullmatch(text)
    german = _DOTTED_DATE.fullmatch(text) if dotted and iso is None else None
    if iso is None and german is None:
        return BadValue(shown_value(text), f"is not {DATE_FORMS_CSV if dotted else DATE_FORMS}")
    found = iso or german
    assert found is not None  # one of the two matched (above)
    parts = found.groups() if iso else tuple(reversed(found.groups()))
    year, month, day = map(int, parts)
    try:
        return datetime.date(year, month, day).isoformat()
    except ValueError as error:  # 2026-02-30
        return BadValue(shown_value(text), f"is not a date ({error})")
