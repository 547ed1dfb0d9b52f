"""Who can still win (SPEC §1): a sound bound on each player's best and worst final score.

A player can no longer win when some other player's *least* possible final score is above the
player's *greatest*. The bound is exactly SPEC §1's, never a tighter one: a player it names out
truly cannot win, but one it keeps may already be unable to (it does not, for instance, see that
two players cannot both make the largest bid of one round).
"""

from __future__ import annotations

from typing import Sequence

from .model import by_seat
from .scoring import GameResult, base_points, dealer_seat
from .settings import Settings, hand_sizes


def contenders(result: GameResult) -> list[str]:
    """The players, in seating order, who can still win; once finished, the winners."""
    if result.finished:
        return list(result.winners)
    greatest, least = score_bounds(result)
    return [name for seat, name in enumerate(result.players)
            if not any(least[other] > greatest[seat]
                       for other in range(len(result.players)) if other != seat)]


def score_bounds(result: GameResult) -> tuple[list[int], list[int]]:
    """Each player's greatest and least possible final score, by SPEC §1's bound."""
    s = result.settings
    count = len(result.players)
    sizes = hand_sizes(s, count)
    played = result.rounds_played
    totals = result.totals
    in_play = result.validated.bids  # the round in play's (all None before the next deal)
    scored = result.scored
    made_all = [bids == tricks  # every completed bid made, so far
                for bids, tricks in zip(by_seat(scored.bids[:len(scored.tricks)], count),
                                        by_seat(scored.tricks, count))]
    greatest, least = list(totals), list(totals)
    for number in range(played + 1, result.rounds_total + 1):
        size = sizes[number - 1]
        bids: Sequence[int | None] = in_play if number == played + 1 else (None,) * count
        dealer = dealer_seat(result.first_dealer, number, count)
        for seat in range(count):
            greatest[seat] += _best(bids[seat], size, s)
            least[seat] -= _worst(bids[seat], size, s)
            if seat == dealer:
                least[seat] -= s.balanced_bid_penalty
    for seat in range(count):
        greatest[seat] += s.final_round_bonus  # the last round is not complete yet
        if made_all[seat]:
            greatest[seat] += s.perfect_game_bonus
    return greatest, least


def _best(bid: int | None, size: int, s: Settings) -> int:
    """The most a round can earn: the made value of the bid, or of the best bid when none is in."""
    if bid is not None:
        return base_points(bid, bid, size, s)
    return max(base_points(size, size, size, s), base_points(0, 0, size, s))


def _worst(bid: int | None, size: int, s: Settings) -> int:
    """The most a round can cost (before a dealer's balanced-bid penalty)."""
    if bid is None:
        return s.miss_penalty * size
    return s.miss_penalty * max(bid, size - bid)
