"""A game whose seating changes (SPEC §1 "Who sits at the table"), checked and scored.

A sheet with a :class:`~wizard_cli.game.seating.Seating` keeps its columns a full table wide
(every listed player, round after round, a player not seated holding None), so every reader
and writer sees the usual shape; this module knows which cells are seated. The rules are those
of :mod:`~wizard_cli.game.scoring` (points, the dealer restriction, competition ranks), applied
round by round to the seated players: hand sizes follow who is seated, the deal passes among
the seated, and the player bidding last takes the dealer's place.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import cast

from .game import Game, GameResult, bid_bounds
from .model import filled
from .scoring import (
    ScoredColumns,
    ScoredRound,
    Standing,
    base_points,
    clouded_bids,
    competition_ranks,
    forbidden_dealer_bid,
)
from .seating import Seating, bidding_order
from .settings import DECK_SIZE, MIN_PLAYERS, Settings, hand_sizes


def round_sizes(s: Settings, first_seated: int) -> tuple[int, ...] | None:
    """The hand sizes of ``custom`` and ``quickPlay`` (``quickPlay``'s for the players seated
    in round 1); None under ``wholeDeck``, where round r deals r and the game ends with the
    round that deals the whole deck to those seated in it."""
    if s.round_mode == "wholeDeck":
        return None
    return hand_sizes(s, max(first_seated, MIN_PLAYERS))


def most_rounds(s: Settings, first_seated: int) -> int:
    """The most rounds the game can have: 20 under ``wholeDeck`` (3 seated), else its count."""
    sizes = round_sizes(s, first_seated)
    return DECK_SIZE // MIN_PLAYERS if sizes is None else len(sizes)


@dataclass(frozen=True, eq=False)
class SeatedGame(Game):
    """A valid sheet with seating (read-only): who is seated, deals and bids each round."""

    @property
    def seating(self) -> Seating:
        seating = self.sheet.seating
        assert seating is not None  # a SeatedGame is made only of a sheet with seating
        return seating

    def seated(self, number: int | None = None) -> list[int]:
        """Round ``number``'s seated seats (the current round's by default): a recorded round's
        as recorded, a later one's as far as known (``joins`` and ``leaves``, no ``out``)."""
        number = number or self.current_round
        if number <= len(self.sheet.rounds):
            return self.seating.seated(number)
        return self.seating.listed(number)

    @functools.cached_property
    def _sizes(self) -> tuple[int, ...] | None:
        return round_sizes(self.settings, len(self.seating.seated(1)))

    def hand_size(self, number: int | None = None) -> int:
        number = number or self.current_round
        return number if self._sizes is None else self._sizes[number - 1]

    def is_last(self, number: int) -> bool:
        """Round ``number`` ends the game (it deals the whole deck to those seated, or it is the
        count's last)."""
        if self._sizes is not None:
            return number == len(self._sizes)
        seated = len(self.seated(number))
        return bool(seated) and number == DECK_SIZE // seated

    @property
    def finished(self) -> bool:
        played = self.rounds_played
        return bool(played) and self.in_play is None and self.is_last(played)

    @property
    def rounds_total(self) -> int:
        if self._sizes is not None:
            return len(self._sizes)
        if self.finished:
            return self.rounds_played
        return DECK_SIZE // max(len(self.seated(self.current_round)), 1)

    @functools.cached_property
    def dealers(self) -> list[int]:
        """The seat dealing each round, the recorded ones and the next to deal."""
        return self.seating.rotation(self.first_dealer, len(self.sheet.rounds) + 1, self.seated)

    def dealer(self, number: int | None = None) -> int:
        number = number or self.current_round
        if number > len(self.dealers):
            return self.seating.rotation(self.first_dealer, number, self.seated)[-1]
        return self.dealers[number - 1]

    def bidding_order(self, number: int | None = None) -> list[int]:
        number = number or self.current_round
        return bidding_order(self.dealer(number), self.seated(number), len(self.players))

    @functools.cached_property
    def result(self) -> GameResult:
        return score_seated(self)

    def remaining(self) -> list[int]:
        """The rounds not yet complete that the game may still have, the round in play
        included: to the count's last, or under ``wholeDeck`` to the first that would deal the
        whole deck to the players listed for it (at most 20)."""
        numbers = []
        number = self.rounds_played + 1
        while number <= most_rounds(self.settings, len(self.seating.seated(1))):
            numbers.append(number)
            if self.is_last(number):
                break
            number += 1
        return numbers

    def bounds(self, result: GameResult) -> tuple[list[int], list[int]]:
        """Each player's greatest and least possible final score (SPEC §1's bound): every
        player plays every remaining round from their ``joins`` to their ``leaves`` (an ``out``
        counts only for its own round, here the round in play's)."""
        s = self.settings
        count = len(self.players)
        in_play = self.in_play
        clouds = self.sheet.rounds.clouds
        cloud = None  # a Cloud recorded in the round in play: that bid is scored changed
        if in_play is not None and clouds is not None:
            cloud = clouds[in_play.number - 1]
        greatest, least = list(result.totals), list(result.totals)
        for number in self.remaining():
            size = self.hand_size(number)
            playing = (
                self.seated(number)
                if in_play is not None and number == in_play.number
                else self.seating.listed(number)
            )
            bids = (
                self.bids  # the round in play's
                if in_play is not None and number == in_play.number
                else (None,) * count
            )
            order = bidding_order(self.dealer(number), playing, count)
            for seat in playing:
                greatest[seat], least[seat] = bid_bounds(
                    greatest[seat], least[seat], bids[seat], seat, size, cloud, s
                )
            if order:
                least[order[-1]] -= s.balanced_bid_penalty
        scored = result.scored
        assert isinstance(scored, SeatedColumns)  # the result of this game (score_seated)
        made_all = [True] * count
        for index in range(scored.played):
            for seat in scored.seated[index]:
                at = index * count + seat
                made_all[seat] = made_all[seat] and scored.made[at] == scored.tricks[at]
        for seat in range(count):
            greatest[seat] += s.final_round_bonus
            if made_all[seat]:
                greatest[seat] += s.perfect_game_bonus
        return greatest, least


@dataclass(slots=True, kw_only=True)
class SeatedColumns(ScoredColumns):
    """:class:`ScoredColumns` of a game with seating: every listed seat a column, a seat not
    seated holding None (bids, tricks) or 0 (points) in its rounds; totals start from the
    start scores. ``dealers`` is each recorded round's dealer, ``seated`` its seated seats."""

    dealers: list[int]
    seated: list[frozenset[int]]
    start: tuple[int, ...]

    def totals(self) -> tuple[int, ...]:
        return tuple(
            start + sum(self.points[seat :: self.players]) for seat, start in enumerate(self.start)
        )

    def rounds(self) -> tuple[ScoredRound, ...]:
        count, played = self.players, self.played
        totals = list(self.start)
        made = []
        for index, size in enumerate(self.sizes):
            cut = slice(index * count, (index + 1) * count)
            seated = self.seated[index]
            bids = tuple(self.bids[cut])
            if index < played:
                points = self.points[cut]
                totals = [total + point for total, point in zip(totals, points)]
                made.append(
                    ScoredRound(
                        index + 1,
                        size,
                        self.dealers[index],
                        bids,
                        tuple(self.tricks[cut]),
                        tuple(
                            point if seat in seated else None for seat, point in enumerate(points)
                        ),
                        tuple(totals),
                        self.forbidden[index] if self.forbidden else None,
                        *self._specials(index),
                    )
                )
            else:
                made.append(
                    ScoredRound(
                        index + 1,
                        size,
                        self.dealers[index],
                        bids,
                        None,
                        None,
                        None,
                        self.forbidden[index] if self.forbidden else None,
                        *self._specials(index),
                    )
                )
        return tuple(made)

    def _specials(self, index: int) -> tuple[bool, tuple[int, int] | None]:
        """Round ``index``'s Bomb and Cloud (SPEC §1), when the game records any."""
        if self.bombs is None or self.clouds is None:
            return False, None
        return self.bombs[index], self.clouds[index]


def score_seated(game: SeatedGame) -> GameResult:
    """A valid game with seating scored round by round (SPEC §1): each seated player's points
    by :func:`~wizard_cli.game.scoring.base_points`, ``balancedBidPenalty`` to the player
    bidding last, ``finalRoundBonus`` in the round that ends the game, the forbidden dealer bid
    judged on the seated players' totals (start scores included)."""
    s = game.settings
    count = len(game.players)
    rounds = game.sheet.rounds
    played = game.rounds_played
    seating = game.seating
    # a valid sheet's values are whole numbers or none: no BadValue is left (validation)
    bids = list(cast("list[int | None]", rounds.bids))
    clouds = rounds.clouds
    # The bids as scored: a Cloud's change counts, the bid as called stays (SPEC §1).
    made = bids if clouds is None else clouded_bids(bids, clouds, count)
    tricks = list(cast("list[int | None]", rounds.tricks[: played * count]))
    points = [0] * (played * count)
    totals = list(seating.start)
    sizes, forbidden, seated_by_round, dealers = [], [], [], []
    for index in range(len(rounds)):
        number = index + 1
        size = game.hand_size(number)
        seated = game.seated(number)
        order = game.bidding_order(number)
        last = order[-1]  # the dealer, or the player bidding last in the dealer's place
        cells = [bids[index * count + seat] for seat in seated]
        before = [totals[seat] for seat in seated]
        place = seated.index(last)
        forbidden.append(forbidden_dealer_bid(cells, place, size, s, before))
        sizes.append(size)
        seated_by_round.append(frozenset(seated))
        dealers.append(game.dealer(number))
        if index >= played:
            continue
        assert filled(cells)  # a played round: every seated player has bid (validation)
        for seat in seated:
            at = index * count + seat
            bid, took = made[at], tricks[at]
            assert bid is not None and took is not None  # seated in a played round
            points[at] = base_points(bid, took, size, s)
        if s.balanced_bid_penalty and sum(cells) == size:
            points[index * count + last] -= s.balanced_bid_penalty
        if s.final_round_bonus and game.is_last(number):
            for seat in seated:
                at = index * count + seat
                points[at] += s.final_round_bonus * (made[at] == tricks[at])
        totals = [total + points[index * count + seat] for seat, total in enumerate(totals)]
    scored = SeatedColumns(
        count,
        game.first_dealer,
        tuple(sizes),
        bids,
        tricks,
        points,
        None if s.screw_the_dealer == "off" else forbidden,
        None if clouds is None else made,
        rounds.bombs,
        clouds,
        dealers=dealers,
        seated=seated_by_round,
        start=tuple(seating.start),
    )
    return GameResult(game, scored, seated_standings(game, scored, totals))


def seated_standings(
    game: SeatedGame, scored: SeatedColumns, totals: list[int]
) -> tuple[Standing, ...]:
    """Every listed player ranked by score, whoever left included (a player who left keeps
    their total), then ``tieBreak``; ``perfectGameBonus`` once finished to a player who made
    every bid of the rounds they sat in (at least one)."""
    s = game.settings
    count = len(game.players)
    played = scored.played
    sat = [0] * count
    made = [0] * count
    bid_sums = [0] * count
    for index in range(played):
        for seat in scored.seated[index]:
            at = index * count + seat
            sat[seat] += 1
            made[seat] += scored.made[at] == scored.tricks[at]
            bid = scored.bids[at]
            assert bid is not None  # seated in a played round (validation)
            bid_sums[seat] += bid
    finished = game.finished
    bonuses = [
        s.perfect_game_bonus if finished and sat[seat] and made[seat] == sat[seat] else 0
        for seat in range(count)
    ]
    scores = [total + bonus for total, bonus in zip(totals, bonuses)]
    ties = (
        bid_sums
        if s.tie_break == "totalBids"
        else made
        if s.tie_break == "madeBids"
        else [0] * count
    )
    ranks = competition_ranks([(score, tie) for score, tie in zip(scores, ties)])
    order = sorted(range(count), key=lambda seat: (ranks[seat], seat))
    return tuple(
        Standing(ranks[seat], seat, game.players[seat], scores[seat], bonuses[seat])
        for seat in order
    )
