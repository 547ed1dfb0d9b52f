"""Who sits at the table, as a long CSV records it (SPEC §3 "Special cards and seating in a
CSV", §1): a row with ``out`` (German ``aus``, :func:`.csv_seating.is_out`) in its bid cell for
a player not seated, a player's ``startScore`` on any of their rows, a round's ``dealer``
(``Geber``) on any of its, each of them text with its line, checked here.

A player's ``out`` rows before their first seated round say they joined late, after their last
one that they left, and between the two that they sat that round out alone. Nothing here reads
a file: the long reader hands each row's cells over, and gets the sheet's Seating back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...game.model import BadValue, Sheet
from ...game.seating import Seating
from ...game.settings import suggest
from ..cells import shown_value, whole_number
from .rules import other_value


@dataclass
class LongSeatCells:
    """One game's seating cells as its rows give them: ``outs[round][seat]`` the line of an
    ``out`` row, ``starts[seat]`` a start score and its line, ``dealers[round]`` a dealer's
    name and its line. A second, different value is a problem naming both lines."""

    outs: dict[int, dict[int, int]] = field(default_factory=dict)
    starts: dict[int, tuple[str, int]] = field(default_factory=dict)
    dealers: dict[int, tuple[str, int]] = field(default_factory=dict)
    clashed: dict[str, set[int]] = field(
        default_factory=lambda: {"startScore": set(), "dealer": set()}
    )

    def out(
        self, sheet: Sheet, number: int, seat: int, name: str, values: dict[str, str], line: int
    ) -> None:
        """An ``out`` row: the player is not seated in round ``number``; a tricks or points
        value on it is a problem (a player sitting out takes no tricks)."""
        self.outs.setdefault(number, {})[seat] = line
        for what, text in values.items():
            if text.strip():
                sheet.problem(
                    f"{what} '{shown_value(text.strip())}' on an 'out' row: a player "
                    "sitting a round out has no value in it",
                    line,
                    number,
                    name,
                )

    def start(self, sheet: Sheet, seat: int, name: str, text: str, line: int) -> None:
        """A ``startScore`` cell of a player's row (an empty one says nothing)."""
        self._one(
            sheet, "startScore", seat, text, line, f"{name}'s earlier rows", "a player", None, name
        )

    def dealer(self, sheet: Sheet, number: int, text: str, line: int) -> None:
        """A ``dealer`` cell of a round's row (an empty one says nothing)."""
        self._one(
            sheet, "dealer", number, text, line, "the round's earlier rows", "a round", number, None
        )

    def _one(
        self,
        sheet: Sheet,
        key: str,
        where: int,
        text: str,
        line: int,
        earlier: str,
        whose: str,
        number: int | None,
        name: str | None,
    ) -> None:
        """A value that must be the same wherever it is given: the first kept, a different
        one said once, with both lines."""
        text = text.strip()
        if not text:
            return
        held = self.starts if key == "startScore" else self.dealers
        first = other_value(held, self.clashed[key], where, text, line)
        if first is not None:
            sheet.problem(
                f"{key} '{shown_value(text)}' where {earlier} say "
                f"'{shown_value(first[0])}' (line {first[1]}): {whose} has one {key}",
                line,
                number,
                name,
            )

    def seating(self, sheet: Sheet, seated_rows: dict[int, set[int]]) -> Seating | None:
        """The sheet's Seating from its cells (None when they record nothing): ``seated_rows``
        gives each recorded round's seats with a row that is not ``out``."""
        starts = self._start_scores(sheet)
        dealers = self._dealer_seats(sheet)
        if not self.outs and not any(starts.values()) and not dealers:
            return None
        count = len(sheet.players)
        seating = Seating.plain(count)
        rounds = len(seated_rows)
        for seat in range(count):
            seating.start[seat] = starts.get(seat, 0)
            outs = sorted(number for number, seats in self.outs.items() if seat in seats)
            if not outs:
                continue
            seated = [number for number in range(1, rounds + 1) if seat in seated_rows[number]]
            first, last = (seated[0], seated[-1]) if seated else (rounds + 1, None)
            seating.entry_lines[seat] = self.outs[outs[0]][seat]
            if outs[0] < first:
                seating.joins[seat] = first
            if last is not None and outs[-1] > last:
                seating.leaves[seat] = last
            for number in outs:
                if first < number < (last or 0):
                    seating.out[number] = seating.out.get(number, frozenset()) | {seat}
                    seating.out_lines.setdefault(number, self.outs[number][seat])
        for number, (seat, line) in dealers.items():
            seating.dealers[number], seating.dealer_lines[number] = seat, line
        return seating

    def seat(self, sheet: Sheet, rounds: dict[int, dict[int, Any]], lines: dict[int, int]) -> None:
        """The sheet's seating from its cells (:meth:`seating`), and each listed player's row
        in every recorded round checked (:meth:`every_row`). ``rounds``: each recorded round's
        cells by seat; ``lines``: each round's first line."""
        outs = self.outs
        sheet.seating = self.seating(
            sheet,
            {
                number: set(cells).difference(outs.get(number, ()))
                for number, cells in rounds.items()
            },
        )
        if sheet.seating is not None:
            self.every_row(sheet, rounds, lines)

    def every_row(
        self, sheet: Sheet, rounds: dict[int, dict[int, Any]], lines: dict[int, int]
    ) -> None:
        """In a game with seating changes every listed player has a row in every recorded round
        (``out`` where not seated, SPEC §3): a missing one is a problem, not a seat left empty
        (which would read as joining later or leaving earlier than the sheet says)."""
        players = sheet.players
        for number, cells in rounds.items():
            for seat in range(len(players)):
                if seat not in cells:
                    sheet.problem(
                        "no row in this round: in a game whose seating changes every player "
                        "has a row in every round ('out' where not seated)",
                        lines[number],
                        number,
                        players[seat],
                    )

    def _start_scores(self, sheet: Sheet) -> dict[int, int]:
        """Each player's start score, whole numbers (a bad one is a problem, and 0)."""
        scores = {}
        for seat, (text, line) in self.starts.items():
            value = whole_number(text)
            if isinstance(value, BadValue) or value is None:
                why = value.why if isinstance(value, BadValue) and value.why else None
                sheet.problem(
                    f"startScore '{shown_value(text)}' {why or 'is not a whole number'}",
                    line,
                    None,
                    sheet.players[seat],
                )
            else:
                scores[seat] = value
        return scores

    def _dealer_seats(self, sheet: Sheet) -> dict[int, tuple[int, int]]:
        """Each recorded dealer's seat and line (a name not among the players is a problem)."""
        seats = {name: seat for seat, name in enumerate(sheet.players)}
        found = {}
        for number, (name, line) in self.dealers.items():
            if name in seats:
                found[number] = (seats[name], line)
            else:
                sheet.problem(
                    f"dealer '{shown_value(name)}' is not one of the players"
                    f"{suggest(name, sheet.players)}",
                    line,
                    number,
                )
        return found
