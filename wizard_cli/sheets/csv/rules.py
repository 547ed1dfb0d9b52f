"""A long CSV's rule columns (SPEC §3 "A long CSV carries its rules"): a setting of §2 by its
name, ``title``, ``firstDealer``, ``place`` and ``notes``, one value a game, given on each of
its rows; and the header cells that name no column a long CSV reads (a note each).

A setting's cell is text, read as ``--set`` reads it, by the settings module
(:func:`~wizard_cli.game.settings.read_setting`, when the sheet is checked): the columns become
the sheet's own ``settings:``, the lowest layer, below ``--settings`` and ``--set``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...errors import Problem
from ...game.model import Sheet
from ...game.settings import KEYS, RawSetting, suggest
from ..cells import shown_value

TEXT_KEYS = ("title", "firstDealer", "place", "notes")  # a game's metadata, as written
RULE_KEYS = (*TEXT_KEYS, *KEYS)
# Columns a long CSV reads besides its rules, by the English names header_name gives them
# (``startscore``: a player's start score; ``dealer``/``Geber``: a round's dealer, SPEC §3).
READ_COLUMNS = (
    "game",
    "date",
    "round",
    "player",
    "bid",
    "tricks",
    "took",
    "points",
    "bomb",
    "cloud",
    "dealer",
    "startScore",
)
GERMAN = {"geber": "dealer"}  # header names of the seating columns in German (SPEC §3)
_BY_LOWER = {key.lower(): key for key in RULE_KEYS}
_KNOWN = {name.lower() for name in READ_COLUMNS} | set(GERMAN) | set(_BY_LOWER)
NAMED_NOTES = 10  # unknown columns noted by name; the rest are counted in one more note


def rule_columns(header: Sequence[str]) -> tuple[tuple[int, str], ...]:
    """Each rule column's index and key, from a header's lower-case names (a name given twice:
    its first column, as for every column)."""
    found: dict[str, int] = {}
    for index, name in enumerate(header):
        key = _BY_LOWER.get(name)
        if key is not None:
            found.setdefault(key, index)
    return tuple((index, key) for key, index in found.items())


def unknown_columns(header: Sequence[str], source: str, line: int) -> list[Problem]:
    """A note for each header cell that names no column a long CSV reads (it is ignored); a
    near miss of a known name gets "did you mean"; past NAMED_NOTES of them, the others are
    counted in one note (a header of 10,000 cells makes no 10,000 lines). A known column named
    twice is noted too: only its first column is read, and a second value must not be dropped
    without a word."""
    notes = []
    named = Counter(name for name in header if name in _KNOWN)
    for name, times in named.items():
        if times > 1:
            notes.append(
                Problem(
                    f"note: column '{_spelt(name)}' is given {times} times: only the first is read",
                    source,
                    line,
                )
            )
    unknown = [name for name in dict.fromkeys(header) if name and name not in _KNOWN]
    for name in unknown[:NAMED_NOTES]:
        hint = suggest(name, sorted(_KNOWN))
        if hint:  # the name as a sheet would spell it: 'exactBonus', not 'exactbonus'
            close = hint.split("'")[1]
            hint = hint.replace(f"'{close}'", f"'{_spelt(close)}'")
        notes.append(
            Problem(f"note: column '{shown_value(name)}' is not read, ignored{hint}", source, line)
        )
    if len(unknown) > NAMED_NOTES:
        more = len(unknown) - NAMED_NOTES
        notes.append(
            Problem(
                f"note: {more} more column{'s' if more > 1 else ''} not read, ignored",
                source,
                line,
            )
        )
    return notes


def _spelt(name: str) -> str:
    """A known column's lower-case name as it is spelt in SPEC §2 and §3."""
    return _BY_LOWER.get(name) or next(
        (column for column in READ_COLUMNS if column.lower() == name), name
    )


def other_value(
    held: dict[Any, tuple[str, int]], clashed: set, where: Any, text: str, line: int
) -> tuple[str, int] | None:
    """A value that must be the same wherever it is given (a game's rule, a player's start
    score, a round's dealer): the first is kept in ``held``; for a different one, the first
    and its line are returned, once for each ``where`` (its rows would repeat it)."""
    first = held.setdefault(where, (text, line))
    if first[0] == text or where in clashed:
        return None
    clashed.add(where)
    return first


@dataclass
class GameRules:
    """One game's rule cells as its rows give them: each key's value and the line it stands on.
    An empty cell repeats the value above (merged cells); a second value is a problem naming
    both lines, said once a key."""

    values: dict[str, tuple[str, int]] = field(default_factory=dict)
    clashed: set[str] = field(default_factory=set)

    def take(self, sheet: Sheet, cells: Iterable[tuple[str, str]], line: int) -> None:
        """One row's rule cells, as (key, text) pairs."""
        for key, text in cells:
            if not text.strip():
                continue
            held = other_value(self.values, self.clashed, key, text, line)
            if held is not None:
                sheet.problem(
                    f"{key} '{shown_value(text)}' where the game's earlier rows say "
                    f"'{shown_value(held[0])}' (line {held[1]}): a game has one {key}",
                    line,
                )

    def take_columns(
        self, columns: Sequence[Sequence[str]], keys: Iterable[tuple[int, str]], line: int
    ) -> bool:
        """A regular game's rule columns at once, when each holds one value on every row (or is
        empty throughout); else False, and nothing is taken (the rows are read one by one)."""
        found = []
        for index, key in keys:
            cells = columns[index]
            if cells.count(cells[0]) != len(cells):
                return False
            if cells[0].strip():
                found.append((key, cells[0]))
        for key, text in found:
            self.values[key] = (text, line)
        return True

    def apply(self, sheet: Sheet) -> None:
        """The game's values into its sheet: settings as its own ``settings:`` (checked with
        the rest of its settings), the metadata as written."""
        for key, (text, line) in self.values.items():
            if key == "firstDealer":
                sheet.first_dealer, sheet.first_dealer_line = text.strip(), line
            elif key in TEXT_KEYS:
                setattr(sheet, key, text)
            else:
                sheet.settings.append(RawSetting(key, text, sheet.where, line, from_text=True))
