"""The anniversary editions' special cards in a CSV (SPEC §3 "Special cards and seating in a
CSV"): a long CSV's ``bomb`` (``Bombe``) and ``cloud`` (``Wolke``) cells, gathered row by row
or, for a regular game, from its columns at once; a game recording either means
``specialCards: true`` unless a setting says otherwise."""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from ...game.model import BadValue, RoundRecord, Sheet, Specials
from ..cells import cloud_cell, mark_cell

MARKS = "yes, y, x, 1, true, ja; no, n, 0, false, nein or empty"


@dataclass
class SpecialCells:
    """A long CSV game's special cards as its rows give them: each round's first line marking
    its Bomb, and its Clouds as (seat, change, line) (more than one is a problem)."""

    bombs: dict[int, int] = field(default_factory=dict)
    clouds: dict[int, list[tuple[int, int, int]]] = field(default_factory=dict)

    def take(
        self,
        sheet: Sheet,
        bomb: str | None,
        cloud: str | None,
        number: int,
        seat: int,
        name: str,
        line: int,
    ) -> None:
        """One row's ``bomb`` and ``cloud`` cells (None: the file has no such column)."""
        if bomb is not None:
            marked = mark_cell(bomb)
            if marked is None:
                sheet.problem(
                    f"bomb '{bomb.strip()}' is not yes or no ({MARKS})", line, number, name
                )
            elif marked:
                self.bombs.setdefault(number, line)
        if cloud is not None:
            change = cloud_cell(cloud)
            if isinstance(change, BadValue):
                sheet.problem(
                    f"the Cloud changes a bid by +1 or -1, not '{change.text}'", line, number, name
                )
            elif change is not None:
                self.clouds.setdefault(number, []).append((seat, change, line))

    def place(self, sheet: Sheet, record: RoundRecord) -> None:
        """A round's Bomb and Cloud from its rows, into its record."""
        number = record.number
        if number in self.bombs:
            record.bomb, record.bomb_line = True, self.bombs[number]
        clouds = self.clouds.get(number, [])
        if len(clouds) > 1:
            sheet.problem(
                f"cloud on {len(clouds)} rows of round {number}; the Cloud changes one "
                "player's bid",
                clouds[1][2],
                number,
            )
        elif clouds:
            seat, change, line = clouds[0]
            record.cloud, record.cloud_line = (seat, change), line
        if record.bomb or record.cloud is not None:
            imply_special_cards(sheet, record.bomb_line if record.bomb else record.cloud_line)


def bulk_specials(
    bombs: Sequence[str] | None,
    clouds: Sequence[str] | None,
    count: int,
    rounds: int,
    lines: Sequence[int],
) -> list[Specials] | Literal[False] | None:
    """A regular game's special cards from its ``bomb`` and ``cloud`` columns (None: no such
    column), as ``RoundColumns.specials`` holds them; None when no row records one; False when a
    cell is no mark or change or a round has two Clouds (the rows are then read one by one,
    which says where)."""
    cells = special_cells(bombs, clouds, count, 0, len(lines))
    if cells is None:
        return False
    marked, changed = cells
    if not marked and not changed:
        return None
    specials: list[Specials] = [(False, None, None, None)] * rounds
    for cell in marked:
        specials[cell // count] = (True, lines[cell], None, None)
    for cell, change in changed:
        bomb, bomb_line, _, _ = specials[cell // count]
        specials[cell // count] = (bomb, bomb_line, (cell % count, change), lines[cell])
    return specials


def special_cells(
    bombs: Sequence[str] | None, clouds: Sequence[str] | None, count: int, start: int, stop: int
) -> tuple[list[int], list[tuple[int, int]]] | None:
    """The Bombs and Clouds of rows ``start:stop`` of regular games of ``count`` players (whole
    rounds from ``start``), from their ``bomb`` and ``cloud`` columns (None: no such column):
    each Bomb as the row (from ``start``) first marking its round, each Cloud as (its row, its
    change), both ascending (as :class:`~wizard_cli.game.model.GameRun` keeps them); None when
    a cell is no mark or change or a round has two Clouds. Only cells with something in them
    are looked at, column by column (a season's empty cells cost next to nothing)."""
    marked: list[int] = []
    changed: list[tuple[int, int]] = []
    if bombs is not None:
        rows, marks = _filled(bombs[start:stop], mark_cell, _MARKS_READ)
        if None in marks:
            return None
        rows = list(itertools.compress(rows, marks))
        # each round's first marking row: later rows of a round give way to earlier ones
        firsts = dict(
            zip(map(operator.floordiv, reversed(rows), itertools.repeat(count)), reversed(rows))
        )
        marked = sorted(firsts.values())
    if clouds is not None:
        rows, changes = _filled(clouds[start:stop], cloud_cell, _CHANGES_READ)
        if not _CHANGE_TYPES.issuperset(map(type, changes)):
            return None  # a change that is no change (a BadValue)
        kept = list(map(operator.is_not, changes, itertools.repeat(None)))
        rows = list(itertools.compress(rows, kept))
        if len(set(map(operator.floordiv, rows, itertools.repeat(count)))) != len(rows):
            return None  # two Clouds in a round
        changed = list(zip(rows, itertools.compress(changes, kept)))
    return marked, changed


_MARKS_READ: dict[str, bool | None] = {}  # a cell's text → what it reads as (a few, bounded)
_CHANGES_READ: dict[str, int | BadValue | None] = {}
_CHANGE_TYPES = frozenset((int, type(None)))


def _filled(cells: Sequence[str], read: Callable, known: dict) -> tuple[list[int], list]:
    """The rows of ``cells`` with something in them, and each one's text as ``read`` reads it
    (each distinct short text read once, up to 256 of them kept: memory stays bounded)."""
    rows = list(itertools.compress(range(len(cells)), cells))
    texts = list(itertools.compress(cells, cells))
    try:
        return rows, list(map(known.__getitem__, texts))
    except KeyError:
        values = list(map(read, texts))
        if len(known) < 256:
            known.update((text, value) for text, value in zip(texts, values) if len(text) < 16)
        return rows, values


def first_special_line(specials: Sequence[Specials]) -> int | None:
    """The line of the first round's special card (its Bomb's, else its Cloud's)."""
    first = next(special for special in specials if special[0] or special[2] is not None)
    return first[1] if first[0] else first[3]


def imply_special_cards(sheet: Sheet, line: int | None) -> None:
    """A Bomb or a Cloud recorded in a CSV game means ``specialCards: true`` unless a setting
    says otherwise (SPEC §3): :meth:`Sheet.imply_special_cards` (a run's games say it too)."""
    sheet.imply_special_cards(line)
