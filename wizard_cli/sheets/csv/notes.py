"""What a CSV cannot carry of a sheet (``wizard convert``), said in one line on stderr: a wide
CSV drops a title, firstDealer, settings, place and notes (with the options that score it the
same), typed points and the date; a long CSV carries them all (SPEC §3), but a game without a
date below a dated one reads back with the date above. Gathered one sheet at a time."""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING

from ...errors import one_line, shorten
from ...game.model import SheetFormat
from ...game.settings import DEFAULTS, value_text

if TYPE_CHECKING:
    from ..writing import Portable


QUOTED = 200  # characters of a dropped title, place or notes quoted in the line


def quoted(text: str) -> str:
    """A dropped text as the line quotes it: on one line, and cut short with "…" past QUOTED
    characters (a 60 MB notes makes no 60 MB line, nor a word list of it: issue 21)."""
    return one_line(shorten(text, QUOTED))


class DropNotes:
    """What a CSV target drops, gathered one sheet at a time (a season streams through
    ``convert``: no sheet is kept, only what the line will say)."""

    def __init__(self, target: SheetFormat) -> None:
        self.target = target
        self.parts: list[tuple[str | int | None, str]] = []
        self.needs: set[tuple[str, ...]] = set()
        self.count = 0
        self.more = False  # a place, notes (wide: a date or game id) to name in the line
        self.date_above: str | None = None  # the last date written (long CSV)
        self.numbers: list[int] = []  # the first game ids that are numbers (long CSV)
        self.number_count = 0

    def add(self, p: Portable) -> None:
        """Note what this sheet loses in the CSV."""
        target = self.target
        self.count += 1
        wide = target == SheetFormat.WIDE_CSV  # a long CSV carries the rules (SPEC §3)
        flags = _scoring_flags(p) if wide else []
        dropped = [f"title '{quoted(p.title)}'"] if p.title is not None and wide else []
        if wide and p.first_dealer is not None and p.first_dealer != p.players[0]:
            dropped.append(f"firstDealer {one_line(p.first_dealer)}")
        changed = [flag.replace("--set ", "") for flag in flags if flag.startswith("--set ")]
        if changed:
            dropped.append("settings " + ", ".join(changed))
        if target == SheetFormat.WIDE_CSV and p.has_points:
            dropped.append("typed points")
        if target == SheetFormat.WIDE_CSV and p.date is not None:
            dropped.append(f"date {p.date}")
        if (
            target == SheetFormat.WIDE_CSV and p.game is not None
        ):  # one game only: a wide CSV has no ids
            dropped.append(f"game id '{one_line(str(p.game))}'")
        if target == SheetFormat.CSV and p.date is None and self.date_above is not None:
            # An empty date cell repeats the date above (merged cells, SPEC §3): read back,
            # this game would have the date of the game before it.
            dropped.append(f"no date (read back, it has the date above, {self.date_above})")
        self.date_above = p.date or self.date_above
        if target == "csv" and isinstance(p.game, int):
            self.number_count += 1
            if len(self.numbers) < _NUMBERS_SHOWN:
                self.numbers.append(p.game)
        dropped += [
            f"{key} '{quoted(getattr(p, key))}'"
            for key in ("place", "notes")
            if getattr(p, key) is not None and wide
        ]
        if not wide:  # a text longer than a CSV cell may be (SPEC §4's limits)
            from .long_columns import TEXT_MOST, too_long

            dropped += [
                f"{key} of {len(getattr(p, key)):,} characters (a CSV cell holds at most "
                f"{TEXT_MOST:,})"
                for key in ("title", "place", "notes")
                if too_long(getattr(p, key))
            ]
        if dropped:
            self.parts.append((p.game, "; ".join(dropped)))
        self.needs.add(tuple(flags))
        self.more = (
            self.more
            or wide
            and (
                p.place is not None
                or p.notes is not None
                or p.date is not None
                or p.game is not None
            )
        )

    def note(self) -> str | None:
        """The one line, or None when nothing is dropped."""
        if not self.parts:
            return None
        target = self.target
        parts = [(f"game {game}: " if self.count > 1 else "") + text for game, text in self.parts]
        if target == SheetFormat.CSV:  # a missing date (read back as the one above), a long text
            return (
                f"note: a long CSV cannot carry a game without a date below a dated one, nor "
                f"a text longer than a cell; dropped {' / '.join(parts)}"
            )
        kind = "a wide CSV"
        what = "a title, firstDealer, settings or typed points"
        if self.more:  # named only when there is one, so older notes read as before
            what = what.replace(" or ", ", ") + ", a game id, date, place or notes"
        if len(self.needs) > 1:
            hint = " (its games differ in rules: score each with its own --set/--first-dealer)"
        else:
            flags = next(iter(self.needs))
            hint = f" (score it the same with {' '.join(flags)})" if flags else ""
        return f"note: {kind} cannot carry {what}; dropped {' / '.join(parts)}{hint}"

    def id_note(self) -> str | None:
        """The line for game ids that are numbers (``game: 7``, or a stream's numbered
        documents): a CSV cell is text, so each reads back as text, ``'7'`` (issue 21, item 9).
        None when there is none."""
        count, shown = self.number_count, [str(number) for number in self.numbers]
        if not count:
            return None
        if count == 1:
            changed = f"game {shown[0]} reads back as '{shown[0]}'"
        else:
            listed = (
                f"{', '.join(shown)} and {count - len(shown)} more"
                if count > len(shown)
                else f"{', '.join(shown[:-1])} and {shown[-1]}"
            )
            changed = f"games {listed} read back as text ('{shown[0]}', …)"
        return (
            f"note: a long CSV holds game ids as text: {changed}; yaml and json keep "
            f"{'it a number' if count == 1 else 'them numbers'}"
        )


_NUMBERS_SHOWN = 3


def _scoring_flags(p: Portable) -> list[str]:
    """The options that make a CSV of this sheet score as the sheet does: settings off their
    default, and the first dealer when it is not the first player."""
    defaults = DEFAULTS.as_dict()
    # A Bomb or a Cloud in the CSV says specialCards: true by itself (SPEC §3).
    implied = (
        {"specialCards": True}
        if any(record.bomb or record.cloud is not None for record in p.rounds)
        else {}
    )
    flags = [
        f"--set {key}={value_text(value)}"
        for key, value in p.effective.as_dict().items()
        if defaults[key] != value and implied.get(key, defaults[key]) != value
    ]
    if p.first_dealer is not None and p.first_dealer != p.players[0]:
        flags.append(f"--first-dealer {shlex.quote(p.first_dealer)}")
    return flags
