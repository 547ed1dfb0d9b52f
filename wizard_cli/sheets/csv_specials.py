"""The anniversary editions' special cards in a CSV (SPEC §3 "Special cards and seating in a
CSV"): a long CSV's ``bomb`` (``Bombe``) and ``cloud`` (``Wolke``) cells, gathered row by row
or, for a regular game, from its columns at once; a game recording either means
``specialCards: true`` unless a setting says otherwise."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..game.model import BadValue, RoundRecord, Sheet, Specials
from ..game.settings import RawSetting
from .cells import cloud_cell, mark_cell

MARKS = "yes, y, x, 1, true, ja; no, n, 0, false, nein or empty"


@dataclass
class SpecialCells:
    """A long CSV game's special cards as its rows give them: each round's first line marking
    its Bomb, and its Clouds as (seat, change, line) (more than one is a problem)."""

    bombs: dict[int, int] = field(default_factory=dict)
    clouds: dict[int, list[tuple[int, int, int]]] = field(default_factory=dict)

    def take(self, sheet: Sheet, bomb: str | None, cloud: str | None, number: int, seat: int,
             name: str, line: int) -> None:
        """One row's ``bomb`` and ``cloud`` cells (None: the file has no such column)."""
        if bomb is not None:
            marked = mark_cell(bomb)
            if marked is None:
                sheet.problem(f"bomb '{bomb.strip()}' is not yes or no ({MARKS})", line, number,
                              name)
            elif marked:
                self.bombs.setdefault(number, line)
        if cloud is not None:
            change = cloud_cell(cloud)
            if isinstance(change, BadValue):
                sheet.problem(f"the Cloud changes a bid by +1 or -1, not '{change.text}'", line,
                              number, name)
            elif change is not None:
                self.clouds.setdefault(number, []).append((seat, change, line))

    def place(self, sheet: Sheet, record: RoundRecord) -> None:
        """A round's Bomb and Cloud from its rows, into its record."""
        number = record.number
        if number in self.bombs:
            record.bomb, record.bomb_line = True, self.bombs[number]
        clouds = self.clouds.get(number, [])
        if len(clouds) > 1:
            sheet.problem(f"cloud on {len(clouds)} rows of round {number}; the Cloud changes one "
                          "player's bid", clouds[1][2], number)
        elif clouds:
            seat, change, line = clouds[0]
            record.cloud, record.cloud_line = (seat, change), line
        if record.bomb or record.cloud is not None:
            imply_special_cards(sheet, record.bomb_line if record.bomb else record.cloud_line)


def bulk_specials(bombs: Sequence[str] | None, clouds: Sequence[str] | None, count: int,
                  rounds: int, lines: Sequence[int]) -> list[Specials] | None | bool:
    """A regular game's special cards from its ``bomb`` and ``cloud`` columns (None: no such
    column), as ``RoundColumns.specials`` holds them; None when no row records one; False when a
    cell is no mark or change or a round has two Clouds (the rows are then read one by one,
    which says where). Only cells with something in them are looked at (a season's empty
    columns cost next to nothing)."""
    found: dict[int, list] = {}
    for index in itertools.compress(range(len(bombs or ())), bombs or ()):
        marked = mark_cell(bombs[index])
        if marked is None:
            return False
        special = found.setdefault(index // count, [False, None, None, None])
        if marked and not special[0]:
            special[0], special[1] = True, lines[index]
    for index in itertools.compress(range(len(clouds or ())), clouds or ()):
        change = cloud_cell(clouds[index])
        if isinstance(change, BadValue):
            return False
        if change is None:
            continue
        special = found.setdefault(index // count, [False, None, None, None])
        if special[2] is not None:
            return False
        special[2], special[3] = (index % count, change), lines[index]
    specials: list[Specials] = [(False, None, None, None)] * rounds
    for number, special in found.items():
        specials[number] = tuple(special)
    return specials if any(s[0] or s[2] is not None for s in specials) else None


def first_special_line(specials: Sequence[Specials]) -> int | None:
    """The line of the first round's special card (its Bomb's, else its Cloud's)."""
    first = next(special for special in specials if special[0] or special[2] is not None)
    return first[1] if first[0] else first[3]


def imply_special_cards(sheet: Sheet, line: int | None) -> None:
    """A Bomb or a Cloud recorded in a CSV game means ``specialCards: true`` unless a setting
    says otherwise (SPEC §3): the lowest layer of the game's settings."""
    if not any(raw.key == "specialCards" for raw in sheet.settings):
        sheet.settings.insert(0, RawSetting("specialCards", True, sheet.where, line))
