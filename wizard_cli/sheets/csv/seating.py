"""Seating in a CSV (SPEC §3 "Special cards and seating in a CSV"): who sits when, as a CSV's
cells give it — ``out`` (German ``aus``) for a player not seated in a round, start scores, a
round's recorded dealer — made into the sheet's :class:`~wizard_cli.game.seating.Seating`; and
which recorded dealers a CSV writes (those off the rotation)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ...game.seating import Seating

OUT_WORDS = frozenset({"out", "aus"})  # a player not seated in the round


def is_out(cell: str) -> bool:
    """An ``out`` (``aus``) cell: the player is not seated in the round (any case)."""
    return cell.strip().lower() in OUT_WORDS


@dataclass
class SeatCells:
    """A CSV game's seating as its cells give it, gathered as the rows come: the seats with
    ``out`` in each round, the start scores, each round's recorded dealer."""

    out: dict[int, set[int]] = field(default_factory=dict)
    out_lines: dict[int, int] = field(default_factory=dict)
    start: dict[int, int] = field(default_factory=dict)
    dealers: dict[int, int] = field(default_factory=dict)
    dealer_lines: dict[int, int] = field(default_factory=dict)

    def sits_out(self, number: int, seat: int, line: int) -> None:
        """``seat`` has ``out`` in round ``number`` (on ``line``)."""
        self.out.setdefault(number, set()).add(seat)
        self.out_lines.setdefault(number, line)

    def seating(self, count: int, rounds: int, line: int | None) -> Seating | None:
        """The seating of a game of ``count`` players and ``rounds`` recorded rounds (None when
        the cells record none). A player with ``out`` before their first seated round joins
        late, after their last one has left, between them sits that round out (SPEC §3); one
        seated in no recorded round joins with the next. ``line``: where the players stand."""
        if not (self.out or any(self.start.values()) or self.dealers):
            return None
        seating = Seating.plain(count)
        seating.entry_lines = [line] * count
        for seat, score in self.start.items():
            seating.start[seat] = score
        for seat in range(count):
            seated = [
                number for number in range(1, rounds + 1) if seat not in self.out.get(number, ())
            ]
            if not seated:
                seating.joins[seat] = rounds + 1
                continue
            first, last = seated[0], seated[-1]
            seating.joins[seat] = first
            seating.leaves[seat] = last if last < rounds else None
            for number in range(first + 1, last):
                if seat in self.out.get(number, ()):
                    seating.out[number] = seating.out.get(number, frozenset()) | {seat}
                    seating.out_lines[number] = self.out_lines[number]
        seating.dealers = dict(self.dealers)
        seating.dealer_lines = dict(self.dealer_lines)
        return seating


def read_back_seating(seating: Seating, rounds: int) -> Seating | None:
    """The seating a CSV's cells read back as, for a sheet recording ``seating`` over
    ``rounds`` rounds: ``out`` where a player is not seated, the start scores and dealers as
    they are (what a writer cannot carry shows as a difference from ``seating``)."""
    cells = SeatCells(start=dict(enumerate(seating.start)), dealers=dict(seating.dealers))
    count = len(seating.joins)
    for number in range(1, rounds + 1):
        seated = seating.seated(number)
        for seat in range(count):
            if seat not in seated:
                cells.sits_out(number, seat, 0)
    return cells.seating(count, rounds, None)


def off_rotation_dealers(seating: Seating, first_dealer: int) -> dict[int, int]:
    """The recorded dealers that are not the ones the rotation gives (SPEC §1): what a CSV
    writes (SPEC §3), each judged on the rotation as the dealers before it leave it."""
    kept: dict[int, int] = {}
    for number, seat in sorted(seating.dealers.items()):
        trial = replace(seating, dealers=kept)
        if trial.rotation(first_dealer, number, trial.seated)[-1] != seat:
            kept[number] = seat
    return kept
