"""Who sits at the table in each round (SPEC §1 "Who sits at the table"): a sheet's ``joins``,
``leaves`` and ``startScore`` per player, and each round's ``out`` and recorded ``dealer``.

A sheet with none of these has no :class:`Seating` at all (``Sheet.seating`` is None) and is
checked and scored exactly as before; one with any of them is checked and scored by
:mod:`wizard_cli.game.seated`. Nothing here reads a file: readers fill a Seating, seat by seat.
"""

from __future__ import annotations

from dataclasses import dataclass, field

MAX_LISTED = 12  # a sheet with seating changes may list up to 12 players (SPEC §1, §4)


@dataclass(slots=True)
class Seating:
    """The seating a sheet records, by seat (its ``players`` order) and by round number.

    ``joins[seat]`` is the first round the player is seated in (1 by default), ``leaves[seat]``
    the last (None: never leaves), ``start[seat]`` their start score; ``out[round]`` the seats
    sitting that round out alone, ``dealers[round]`` the seat recorded as having dealt it.
    Values a reader could not take (text, out of range) are reported by it and left at their
    defaults, so the rest of the sheet is still checked.
    """

    joins: list[int] = field(default_factory=list)
    leaves: list[int | None] = field(default_factory=list)
    start: list[int] = field(default_factory=list)
    entry_lines: list[int | None] = field(default_factory=list)  # each `players` entry's line
    # where a seat's `joins` / `leaves` value stands, when it has a line of its own (SPEC §4)
    value_lines: dict[tuple[int, str], int] = field(default_factory=dict)
    out: dict[int, frozenset[int]] = field(default_factory=dict)
    out_lines: dict[int, int | None] = field(default_factory=dict)
    dealers: dict[int, int] = field(default_factory=dict)
    dealer_lines: dict[int, int | None] = field(default_factory=dict)

    @classmethod
    def plain(cls, count: int) -> Seating:
        """Everyone seated from round 1 on, with no start score: a table with nothing recorded
        yet, to which a reader adds what the sheet says."""
        return cls([1] * count, [None] * count, [0] * count, [None] * count)

    def add_player(self, line: int | None = None) -> None:
        """One more seat, seated from round 1 with no start score."""
        self.joins.append(1)
        self.leaves.append(None)
        self.start.append(0)
        self.entry_lines.append(line)

    @property
    def changes(self) -> bool:
        """Anyone joins after round 1, leaves, sits out, or has a start score (SPEC §5: what
        makes a result carry ``seated``; :attr:`moves` is what lets a sheet list more than 6)."""
        return self.moves or any(self.start)

    @property
    def moves(self) -> bool:
        """Anyone joins after round 1, leaves or sits out: a seating change (SPEC §1), which
        lets a sheet list more than 6; a start score is not one."""
        return any(joins != 1 for joins in self.joins) or any(self.leaves) or any(self.out.values())

    def line_of(self, seat: int, key: str) -> int | None:
        """The line of a seat's ``joins`` or ``leaves`` value, else of its entry (SPEC §4:
        LINE is where the value stands)."""
        return self.value_lines.get((seat, key), self.entry_lines[seat])

    def listed(self, number: int) -> list[int]:
        """The seats joined by round ``number`` and not yet left (an ``out`` not counted: the
        seating as far as it is known before the round is recorded)."""
        return [
            seat
            for seat, (joins, leaves) in enumerate(zip(self.joins, self.leaves))
            if joins <= number and (leaves is None or number <= leaves)
        ]

    def seated(self, number: int) -> list[int]:
        """The seats seated in round ``number``, in seating order."""
        out = self.out.get(number, ())
        return [seat for seat in self.listed(number) if seat not in out]

    def why_not_seated(self, seat: int, number: int) -> str:
        """Why ``seat`` is not seated in round ``number``, as a predicate of the player ("has
        not joined yet (joins in round 4)", "left after round 1", "sits this round out")."""
        if self.joins[seat] > number:
            return f"has not joined yet (joins in round {self.joins[seat]})"
        leaves = self.leaves[seat]
        if leaves is not None and number > leaves:
            return f"left after round {leaves}"
        return "sits this round out"

    def rotation(self, first_dealer: int, rounds: int, seated_of) -> list[int]:
        """The dealer of rounds 1..``rounds``: round 1's is ``first_dealer``; round r's the first
        player seated in it found going left from the seat after round r − 1's dealer; a
        recorded ``dealer`` deals its round and the rotation goes on from them (SPEC §1).
        ``seated_of(r)`` gives round r's seated seats."""
        count = len(self.joins)
        dealers: list[int] = []
        for number in range(1, rounds + 1):
            if number in self.dealers:
                dealer = self.dealers[number]
            elif number == 1:
                dealer = first_dealer
            else:
                seated = set(seated_of(number))
                previous = dealers[-1]
                dealer = next(
                    (
                        seat
                        for step in range(1, count + 1)
                        if (seat := (previous + step) % count) in seated
                    ),
                    (previous + 1) % count,
                )
            dealers.append(dealer)
        return dealers


def bidding_order(dealer: int, seated: list[int], count: int) -> list[int]:
    """The seated seats from the dealer's left, the dealer last (when seated: else the player
    bidding last takes the dealer's place, SPEC §1)."""
    return [seat for step in range(1, count + 1) if (seat := (dealer + step) % count) in seated]
