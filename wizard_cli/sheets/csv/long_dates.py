"""A long CSV's ``date`` column (SPEC §3): a game has one date, written on every row of it or
on its first; an empty cell says nothing, so a date cell merged over an evening's games (which
exports as the first game's date and empty cells after) dates every game below it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from ...game.model import BadValue, Sheet
from ..cells import parse_date


class GameDate:
    """One game's date cells, taken row by row (located problems) or as a whole column."""

    __slots__ = ("dated", "changed", "bad")

    def __init__(self) -> None:
        self.dated = False  # a date cell of this game's rows holds something
        self.changed = False  # a second date was said (once: every later row would repeat it)
        self.bad: set[str] = set()  # bad dates said (once a game: its rows repeat them)

    def take(self, sheet: Sheet, text: str, line: int) -> None:
        """A row's ``date`` cell: the game's date, the same on every row. An empty cell says
        nothing (it repeats the date above, as a merged cell exports); a bad or different date
        is located."""
        date = parse_date(text)
        self.dated = self.dated or bool(text.strip())
        if date is None or date == sheet.date:
            return
        if isinstance(date, BadValue):
            if date.text not in self.bad:
                self.bad.add(date.text)
                sheet.problem(f"date '{date.text}' {date.why}", line)
        elif sheet.date is None:
            sheet.date, sheet.date_line = date, line
        elif not self.changed:
            self.changed = True
            sheet.problem(
                f"date {date} where the game's earlier rows say {sheet.date} (line "
                f"{sheet.date_line}): a game has one date",
                line,
            )

    def column(self, dates: Sequence[str]) -> str | None | Literal[False]:
        """The game's date from its whole column, when every cell says the same good date or
        every cell is empty (None); False when the rows must be judged one by one, to say
        where."""
        date = parse_date(dates[0])
        self.dated = bool(dates[0].strip())
        if dates.count(dates[0]) != len(dates) or isinstance(date, BadValue):
            return False
        return date


class DateAbove:
    """The date of the last dated game, for the games after it whose date cells are empty."""

    __slots__ = ("date",)

    def __init__(self) -> None:
        self.date: str | None = None

    def finish(self, sheet: Sheet, game: GameDate) -> None:
        """A finished game's sheet: dated from above when its own cells said nothing."""
        if not game.dated and sheet.date is None:
            sheet.date = self.date
        self.date = sheet.date if game.dated or sheet.date else self.date
