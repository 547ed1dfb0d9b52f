"""``stats --by``: a player's figures per hand size or bidding position, and head to head.

Pure and streaming, like :mod:`.stats`: each game is folded into small tallies keyed by player
and group, never kept. SPEC §5: ``handSize`` and ``position`` rows count completed rounds (also
of unfinished games); ``opponent`` rows count finished games both players sat in, by final score.
"""

from __future__ import annotations

import functools
from array import array
from dataclasses import dataclass, field
from typing import Iterable

from .scoring import GameResult, by_seat, dealer_seat

BY_KEYS = ("handSize", "position", "opponent")


@dataclass(slots=True)
class GroupRow:
    """One player's rounds in one group (a hand size, or a bidding position 1..n)."""

    player: str
    key: int
    rounds: int = 0
    made: int = 0
    points: int = 0

    @property
    def bid_accuracy(self) -> float:
        """Made bids per round, 0..1."""
        return self.made / self.rounds

    @property
    def average_points(self) -> float:
        """Mean points per round (a round's extras included)."""
        return self.points / self.rounds


@dataclass(slots=True)
class OpponentRow:
    """A player's finished games against one opponent: ahead, behind or level on final score."""

    player: str
    opponent: str
    games: int = 0
    ahead: int = 0
    behind: int = 0
    level: int = 0


@functools.lru_cache(maxsize=64)
def bidding_positions(players: int, first_dealer: int, rounds: int) -> tuple[tuple[int, ...], ...]:
    """Per seat, its bidding position in each round: 1 at the dealer's left … n, the dealer."""
    dealers = [dealer_seat(first_dealer, number, players) for number in range(1, rounds + 1)]
    return tuple(tuple((seat - dealer - 1) % players + 1 for dealer in dealers)
                 for seat in range(players))


def _name_key(name: str) -> tuple[str, str]:
    """Players in name order (case aside), then as written."""
    return name.casefold(), name


@dataclass
class Breakdown:
    """Tallies one ``--by`` grouping over a stream of games."""

    by: str
    groups: dict[tuple[str, int], GroupRow] = field(default_factory=dict)
    # Head to head in flat memory (issue 21, item 5: 30,000 games of distinct players held
    # 180,000 pair objects): players are numbered as they come, an ordered pair of numbers is
    # one int key to its slot, and a slot is three counters (ahead, behind, level) in one array.
    names: list[str] = field(default_factory=list)
    numbers: dict[str, int] = field(default_factory=dict)
    slots: dict[int, int] = field(default_factory=dict)
    counts: array = field(default_factory=lambda: array("q"))
    games: int = 0
    finished: int = 0

    def add(self, result: GameResult) -> None:
        """Fold one scored game in."""
        self.games += 1
        self.finished += result.finished
        if self.by == "opponent":
            if result.finished:
                self._add_scores(result)
            return
        scored, count = result.scored, len(result.players)
        played = scored.played
        if not played:
            return
        if self.by == "handSize":
            keys = [scored.sizes[:played]] * count
        else:
            keys = bidding_positions(count, scored.first_dealer, played)
        groups = self.groups
        for name, seat_keys, bids, tricks, points in zip(
                result.players, keys, by_seat(scored.bids, count), by_seat(scored.tricks, count),
                by_seat(scored.points, count)):
            for key, bid, took, earned in zip(seat_keys, bids, tricks, points):
                row = groups.get((name, key))
                if row is None:
                    row = groups[name, key] = GroupRow(name, key)
                row.rounds += 1
                row.made += bid == took
                row.points += earned

    def _add_scores(self, result: GameResult) -> None:
        """Head to head: every ordered pair of the game's players, by final score."""
        numbers, names, slots, counts = self.numbers, self.names, self.slots, self.counts
        scores = []
        for standing in result.standings:
            number = numbers.get(standing.player)
            if number is None:
                number = numbers[standing.player] = len(names)
                names.append(standing.player)
            scores.append((number, standing.score))
        for player, score in scores:
            for opponent, other in scores:
                if opponent == player:
                    continue
                key = player << 32 | opponent
                slot = slots.get(key)
                if slot is None:
                    slot = slots[key] = len(counts)
                    counts.extend((0, 0, 0))
                counts[slot + (0 if score > other else 1 if score < other else 2)] += 1

    def opponent_rows(self) -> list[OpponentRow]:
        """Head to head rows, by player then opponent (name order)."""
        names, counts = self.names, self.counts
        order = sorted(range(len(names)), key=lambda number: _name_key(names[number]))
        place = array("q", bytes(8 * len(names)))
        for at, number in enumerate(order):
            place[number] = at
        rows = []
        for key in sorted(self.slots, key=lambda key: (place[key >> 32], place[key & 0xFFFFFFFF])):
            slot = self.slots[key]
            ahead, behind, level = counts[slot:slot + 3]
            rows.append(OpponentRow(names[key >> 32], names[key & 0xFFFFFFFF],
                                    ahead + behind + level, ahead, behind, level))
        return rows

    def rows(self) -> list[GroupRow] | list[OpponentRow]:
        """The rows by player (name order), then group (ascending) or opponent (name order)."""
        if self.by == "opponent":
            return self.opponent_rows()
        return sorted(self.groups.values(), key=lambda r: (_name_key(r.player), r.key))


def season_breakdown(results: Iterable[GameResult], by: str) -> Breakdown:
    """Group a stream of scored games by ``by`` (one of BY_KEYS) without keeping any of them."""
    if by not in BY_KEYS:
        raise ValueError(f"unknown grouping {by!r}")
    breakdown = Breakdown(by)
    for result in results:
        breakdown.add(result)
    return breakdown
