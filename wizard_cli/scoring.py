"""The rules of scoring (SPEC §1–2) as pure functions over a validated sheet.

Nothing here reads files or prints; every total, rank and "game over" is derived from the bids,
the tricks and the settings, so changing a setting rescores a game already in progress.
"""

from __future__ import annotations

import functools
import operator
from dataclasses import dataclass
from typing import Sequence

from .model import Sheet
from .settings import DECK_SIZE, MIN_PLAYERS, Settings, hand_sizes


@dataclass(slots=True)
class ScoredRound:
    """One round with what it earned; ``tricks``/``points``/``totals`` are None while in play.

    ``forbidden`` is the bid the dealer may not make under ``screwTheDealer``, once every other
    player has bid (None when no restriction applies). Not frozen, to be cheap to build (a
    season builds one per round; a frozen dataclass's __init__ costs three times more): treat
    it as read-only.
    """

    number: int
    hand_size: int
    dealer: int
    bids: tuple[int | None, ...]
    tricks: tuple[int, ...] | None
    points: tuple[int, ...] | None
    totals: tuple[int, ...] | None
    forbidden: int | None


@dataclass(slots=True)
class Standing:
    """A player's place: ``score`` is the last total plus the end-of-game ``bonus`` (read-only)."""

    rank: int
    seat: int
    player: str
    score: int
    bonus: int


@dataclass(frozen=True, slots=True)
class GameResult:
    """A sheet scored under one rule set."""

    source: str
    game: str | int | None
    title: str | None
    players: tuple[str, ...]
    settings: Settings
    first_dealer: int
    rounds: tuple[ScoredRound, ...]
    standings: tuple[Standing, ...]
    rounds_total: int

    @property
    def rounds_played(self) -> int:
        """Rounds with their tricks recorded."""
        return len(self.rounds) - list(map(_TRICKS, self.rounds)).count(None)

    @property
    def finished(self) -> bool:
        """True exactly when the configured last round has its tricks (SPEC §1)."""
        return self.rounds_played == self.rounds_total

    @property
    def winners(self) -> list[str]:
        """Everyone ranked first, once the game is finished; nobody before."""
        return [s.player for s in self.standings if s.rank == 1] if self.finished else []

    @property
    def totals(self) -> tuple[int, ...]:
        """Running totals after the last completed round (0 for all before any)."""
        for scored in reversed(self.rounds):
            if scored.totals is not None:
                return scored.totals
        return (0,) * len(self.players)


_TRICKS = operator.attrgetter("tricks")


def base_points(bid: int, tricks: int, hand_size: int, s: Settings) -> int:
    """A player's points for one round before any house-rule extras."""
    if bid != tricks:
        # Distance only: tricks taken on a missed bid earn nothing (SPEC §1).
        return -s.miss_penalty * abs(bid - tricks)
    if bid:
        return s.exact_bonus + s.points_per_trick * tricks
    if s.zero_bid_scoring == "doubleBonus":
        return 2 * s.exact_bonus
    if s.zero_bid_scoring == "perCardBonus":
        return s.exact_bonus + s.points_per_trick * hand_size
    return s.exact_bonus


def dealer_seat(first_dealer: int, number: int, players: int) -> int:
    """The deal passes to the left: round r is dealt r - 1 seats after the first dealer."""
    return (first_dealer + number - 1) % players


def no_trump(hand_size: int, players: int) -> bool:
    """The whole deck is dealt, so no card is left to turn up for trump."""
    return hand_size * players == DECK_SIZE


def restriction_applies(mode: str, dealer: int, totals_before: Sequence[int]) -> bool:
    """Whether ``screwTheDealer`` binds the dealer this round, given the totals before it."""
    if mode == "off":
        return False
    if mode == "always":
        return True
    best = max(totals_before)
    leaders = sum(1 for total in totals_before if total == best)
    if mode == "leaderOnly":  # the even bid rule: only a dealer who leads alone
        return leaders == 1 and totals_before[dealer] == best
    return leaders == 1  # unlessTiedLead, the killer rule: off while the lead is shared


def forbidden_dealer_bid(bids: Sequence[int | None], dealer: int, hand_size: int, s: Settings,
                         totals_before: Sequence[int]) -> int | None:
    """The one bid the dealer may not make, once every other player has bid (SPEC §1)."""
    if not restriction_applies(s.screw_the_dealer, dealer, totals_before):
        return None
    others = [bid for seat, bid in enumerate(bids) if seat != dealer]
    if any(bid is None for bid in others):
        return None
    forbidden = hand_size - sum(others)
    if forbidden < 0 or (forbidden == 0 and s.canadian_rule):
        return None
    return forbidden


def score_rounds(sheet: Sheet, s: Settings, first_dealer: int) -> list[ScoredRound]:
    """Score every recorded round in order (the sheet's values must already be valid)."""
    count = len(sheet.players)
    sizes = hand_sizes(s, count)
    last = len(sizes)
    restricted = s.screw_the_dealer != "off"
    tables = points_tables(s)
    totals = (0,) * count
    scored: list[ScoredRound] = []
    balanced, final = s.balanced_bid_penalty, s.final_round_bonus
    for record in sheet.rounds:
        number = record.number
        size = sizes[number - 1]
        dealer = dealer_seat(first_dealer, number, count)
        bids = tuple(record.bids)
        forbidden = forbidden_dealer_bid(bids, dealer, size, s, totals) if restricted else None
        if record.tricks is None:
            scored.append(ScoredRound(number, size, dealer, bids, None, None, None, forbidden))
            continue
        tricks = tuple(record.tricks)
        try:  # looked up, no Python code per cell: a season has a million of them
            points = list(map(operator.getitem, map(tables[size].__getitem__, bids), tricks))
        except LookupError:  # a value outside the hand (or no table): base_points decides
            points = round_points(bids, tricks, size, s)
        if balanced and sum(bids) == size:
            points[dealer] -= balanced
        if final and number == last:
            points = [p + final if b == t else p for p, b, t in zip(points, bids, tricks)]
        totals = tuple(map(operator.add, totals, points))
        scored.append(ScoredRound(number, size, dealer, bids, tricks, tuple(points), totals,
                                  forbidden))
    return scored


def round_points(bids: Sequence[int], tricks: Sequence[int], hand_size: int,
                 s: Settings) -> list[int]:
    """Every player's base_points for one round."""
    return [base_points(b, t, hand_size, s) for b, t in zip(bids, tricks)]


@functools.lru_cache(maxsize=32)
def points_tables(s: Settings) -> tuple[dict[int, dict[int, int]], ...]:
    """base_points under ``s`` by hand size, then bid, then tricks: worked out once per rule set.

    Dictionaries, not lists: a value outside the hand is a KeyError, never a wrapped index.
    """
    return tuple({bid: {took: base_points(bid, took, size, s) for took in range(size + 1)}
                  for bid in range(size + 1)}
                 for size in range(DECK_SIZE // MIN_PLAYERS + 1))


def competition_ranks(keys: Sequence[tuple]) -> list[int]:
    """"1, 1, 3" ranking: one more than the number of strictly better keys."""
    best_first = sorted(keys, reverse=True)
    return [1 + best_first.index(key) for key in keys]  # the keys before it are the better ones


def tie_break_key(s: Settings, rounds: Sequence[ScoredRound], seat: int) -> int:
    """What decides equal scores: total bids, made bids, or nothing (shared rank)."""
    if s.tie_break == "shareWin":
        return 0
    done = [r for r in rounds if r.tricks is not None]
    if s.tie_break == "totalBids":
        return sum(r.bids[seat] for r in done)
    if s.tie_break == "madeBids":
        return sum(1 for r in done if r.bids[seat] == r.tricks[seat])
    return 0


def standings(players: Sequence[str], s: Settings, rounds: Sequence[ScoredRound],
              finished: bool) -> tuple[Standing, ...]:
    """Scores (with the perfect-game bonus once finished) ranked by score, then ``tieBreak``."""
    count = len(players)
    totals = next((r.totals for r in reversed(rounds) if r.totals is not None), (0,) * count)
    bonuses = [0] * count
    if finished and s.perfect_game_bonus:
        bonuses = [s.perfect_game_bonus
                   if all(r.bids[seat] == r.tricks[seat] for r in rounds) else 0
                   for seat in range(count)]
    scores = [total + bonus for total, bonus in zip(totals, bonuses)]
    ranks = competition_ranks([(scores[seat], tie_break_key(s, rounds, seat))
                               for seat in range(count)])
    table = [Standing(ranks[seat], seat, players[seat], scores[seat], bonuses[seat])
             for seat in range(count)]
    return tuple(sorted(table, key=_RANK))  # stable: equal ranks stay in seat order


_RANK = operator.attrgetter("rank")


def score_game(sheet: Sheet, s: Settings, first_dealer: int = 0) -> GameResult:
    """A valid sheet scored under the settings: rounds, standings and status."""
    rounds = score_rounds(sheet, s, first_dealer)
    total = len(hand_sizes(s, len(sheet.players)))
    finished = len(rounds) - list(map(_TRICKS, rounds)).count(None) == total
    return GameResult(sheet.source, sheet.game, sheet.title, tuple(sheet.players), s,
                      first_dealer, tuple(rounds), standings(sheet.players, s, rounds, finished),
                      total)
