"""``stats --by``: a player's figures per hand size or bidding position, and head to head.

Pure and streaming, like :mod:`.stats`: each game is folded into small tallies keyed by player
and group, never kept. SPEC §5: ``handSize`` and ``position`` rows count completed rounds (also
of unfinished games); ``opponent`` rows count finished games both players sat in, by final score.
"""

from __future__ import annotations

import functools
import operator
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .game import GameResult
from .model import RUN_FIRST_DEALER
from .runs import ScoredRun, fold_in
from .scoring import ScoredColumns, dealer_seat
from .settings import hand_sizes
from .stats import WAITING_LIMIT

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
    return tuple(
        tuple((seat - dealer - 1) % players + 1 for dealer in dealers) for seat in range(players)
    )


def _name_key(name: str) -> tuple[str, str]:
    """Players in name order (case aside), then as written."""
    return name.casefold(), name


@dataclass
class Breakdown:
    """Tallies one ``--by`` grouping over a stream of games."""

    by: str
    groups: dict[tuple[str, int], GroupRow] = field(default_factory=dict)
    # What :meth:`add` holds before adding it into ``groups`` (issue 20: a million-row
    # season's rounds, counted one by one, took longer than reading them): per player and run of
    # keys (the hand sizes of the rounds played, or one seat's bidding positions), the games'
    # columns of made bids and of points, to be summed in C (``sum`` over ``zip``) and added
    # into ``groups`` once per run of keys. At most ``waiting_limit`` players' games are held at
    # a time, so memory stays as flat as the rows.
    waiting: dict[tuple[str, tuple[int, ...]], tuple[list, list]] = field(default_factory=dict)
    # What :meth:`add_run` holds, per player and run of keys: made bids and points as two flat
    # columns, game after game (round r of every game every len(keys) cells from r).
    waiting_runs: dict[tuple[str, tuple[int, ...]], tuple[list, list]] = field(default_factory=dict)
    waiting_count: int = 0
    waiting_limit: int = WAITING_LIMIT
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
        """Fold one scored game in: each seat's played rounds as whole columns (the fast path;
        the tests' round-by-round fold is the reference it must agree with)."""
        played = self._count(result)
        if not played:
            return
        if getattr(result.scored, "seated", None) is not None:  # seating: round by round
            self._add_seated(result, played)
            return
        scored = result.scored
        count, points = scored.players, scored.points
        made = list(map(operator.eq, scored.made, scored.tricks))  # (not the round in play's)
        waiting = self.waiting
        for seat, (name, keys) in enumerate(zip(result.players, self._keys(scored, played))):
            columns = waiting.get((name, keys))
            if columns is None:
                columns = waiting[name, keys] = ([], [])
            columns[0].append(made[seat::count])
            columns[1].append(points[seat::count])
        self.waiting_count += count
        if self.waiting_count >= self.waiting_limit:
            self._add_waiting()

    def add_run(self, games: ScoredRun) -> None:
        """Fold the kept games of a checked run in, as :meth:`add` folds each one's result (the
        season lane: every game finished, no result object per game). Each seat's cells of
        games at one table in a row wait as two flat columns per player and run of keys (made
        bids, points: a game's rounds after the game before's), summed round by round when
        added in (:meth:`_add_waiting`)."""
        run, standings = games.run, games.standings
        kept = len(games.kept)
        self.games += kept
        self.finished += kept
        if self.by == "opponent":
            places, scores = standings.places, standings.scores
            for table, start, stop in games.segments():
                for place, score in zip(places[start:stop], scores[start:stop]):
                    self._add_pairs(list(map(table.__getitem__, place)), score)
            return
        count, rounds = run.players, run.rounds
        size = count * rounds
        made = list(map(operator.eq, standings.made_bids or run.bids, run.tricks))  # as scored
        points = standings.points
        keys: Sequence[tuple[int, ...]]  # each seat's key in each round
        if self.by == "handSize":
            keys = [hand_sizes(standings.settings, count)] * count
        else:
            keys = bidding_positions(count, RUN_FIRST_DEALER, rounds)
        waiting = self.waiting_runs
        for table, start, stop in games.segments():
            for seat, name in enumerate(table):
                columns = waiting.get((name, keys[seat]))
                if columns is None:
                    columns = waiting[name, keys[seat]] = ([], [])
                columns[0].extend(made[start * size + seat : stop * size : count])
                columns[1].extend(points[start * size + seat : stop * size : count])
            self.waiting_count += count * (stop - start)
        if self.waiting_count >= self.waiting_limit:
            self._add_waiting()

    def _add_seated(self, result: GameResult, played: int) -> None:
        """A game with seating (SPEC §1): each played round of each player seated in it, keyed
        by its hand size or the player's place in that round's bidding order (the last
        bidder, in the dealer's place, at n)."""
        scored, game, groups = result.scored, result.validated, self.groups
        count = len(result.players)
        for index in range(played):
            order = game.bidding_order(index + 1)
            for place, seat in enumerate(order, 1):
                at = index * count + seat
                key = scored.sizes[index] if self.by == "handSize" else place
                row = groups.get((result.players[seat], key))
                if row is None:
                    row = groups[result.players[seat], key] = GroupRow(result.players[seat], key)
                row.rounds += 1
                row.made += scored.made[at] == scored.tricks[at]  # the Cloud counts (§1)
                row.points += scored.points[at]

    def _count(self, result: GameResult) -> int:
        """Count the game; the rounds of it to fold in by hand size or position (head to head:
        its scores are added here, and no rounds)."""
        self.games += 1
        self.finished += result.finished
        if self.by == "opponent":
            if result.finished:
                self._add_scores(result)
            return 0
        return result.scored.played

    def _keys(self, scored: ScoredColumns, played: int) -> Sequence[tuple[int, ...]]:
        """Per seat, the key of each played round: its hand size, or the seat's bidding position."""
        if self.by == "handSize":
            return [scored.sizes[:played]] * scored.players
        return bidding_positions(scored.players, scored.first_dealer, played)

    def _add_waiting(self) -> None:
        """Sum the columns :meth:`add` holds, round by round of each run, into ``groups``."""
        groups = self.groups
        for (name, keys), (made, points) in self.waiting.items():
            games = len(made)
            for key, made_here, points_here in zip(
                keys, map(sum, zip(*made)), map(sum, zip(*points))
            ):
                row = groups.get((name, key))
                if row is None:
                    row = groups[name, key] = GroupRow(name, key)
                row.rounds += games
                row.made += made_here
                row.points += points_here
        for (name, keys), (made, points) in self.waiting_runs.items():
            rounds = len(keys)
            games = len(made) // rounds
            for at, key in enumerate(keys):
                row = groups.get((name, key))
                if row is None:
                    row = groups[name, key] = GroupRow(name, key)
                row.rounds += games
                row.made += sum(made[at::rounds])
                row.points += sum(points[at::rounds])
        self.waiting.clear()
        self.waiting_runs.clear()
        self.waiting_count = 0

    def _add_scores(self, result: GameResult) -> None:
        """Head to head: every ordered pair of the game's players, by final score."""
        self._add_pairs(
            [standing.player for standing in result.standings],
            [standing.score for standing in result.standings],
        )

    def _add_pairs(self, players: Sequence[str], finals: Sequence[int]) -> None:
        """Head to head: every ordered pair of one finished game's players (in standings
        order), by their final scores."""
        numbers, names, slots, counts = self.numbers, self.names, self.slots, self.counts
        scores = []
        for player, final in zip(players, finals):
            number = numbers.get(player)
            if number is None:
                number = numbers[player] = len(names)
                names.append(player)
            scores.append((number, final))
        for own, score in scores:
            for opponent, other in scores:
                if opponent == own:
                    continue
                key = own << 32 | opponent
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
            ahead, behind, level = counts[slot : slot + 3]
            rows.append(
                OpponentRow(
                    names[key >> 32],
                    names[key & 0xFFFFFFFF],
                    ahead + behind + level,
                    ahead,
                    behind,
                    level,
                )
            )
        return rows

    def rows(self) -> list[GroupRow] | list[OpponentRow]:
        """The rows by player (name order), then group (ascending) or opponent (name order)."""
        if self.by == "opponent":
            return self.opponent_rows()
        self._add_waiting()
        return sorted(self.groups.values(), key=lambda r: (_name_key(r.player), r.key))


def season_breakdown(results: Iterable[GameResult | ScoredRun], by: str) -> Breakdown:
    """Group a stream of scored games (and checked runs of them) by ``by`` (one of BY_KEYS)
    without keeping any of them."""
    if by not in BY_KEYS:
        raise ValueError(f"unknown grouping {by!r}")
    breakdown = Breakdown(by)
    fold_in(results, breakdown.add, breakdown.add_run)
    return breakdown
