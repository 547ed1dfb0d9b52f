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
import itertools
from dataclasses import dataclass
from typing import cast

from .game import Game, GameResult
from .model import cell_sizes
from .scoring import (
    ScoredColumns,
    Standing,
    add_extras,
    base_points,
    clouded_bids,
    rank_games,
    recorded_forbidden_bids,
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

    def rounds_left(self) -> list[tuple[int, int, list[int]]]:
        """:meth:`Game.rounds_left` by who sits when: the round in play's seated, a later
        round's listed (``joins`` and ``leaves``; an ``out`` is known only once recorded)."""
        in_play = self.in_play
        return [
            (
                number,
                self.hand_size(number),
                self.seated(number)
                if in_play is not None and number == in_play.number
                else self.seating.listed(number),
            )
            for number in self.remaining()
        ]


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

    def dealers_of(self) -> list[int]:
        return self.dealers

    def shown_points(self) -> list[int | None]:
        """A seat not seated in a round shows no points in it (SPEC §1)."""
        count = self.players
        return [
            point if cell % count in self.seated[cell // count] else None
            for cell, point in enumerate(self.points)
        ]

    def running_totals(self) -> list[tuple[int, ...]]:
        """From the start scores."""
        return list(
            zip(
                *(
                    itertools.accumulate(self.points[seat :: self.players], initial=start)
                    for seat, start in enumerate(self.start)
                )
            )
        )[1:]


def score_seated(game: SeatedGame) -> GameResult:
    """A valid game with seating scored by the rules one game is (SPEC §1), as a run of one in
    which a seat not seated in a round sits it out (bid 0, took 0, nothing earned): points by
    :func:`~wizard_cli.game.scoring.base_points`, ``balancedBidPenalty`` and
    ``finalRoundBonus`` by :func:`~wizard_cli.game.scoring.add_extras` (the player bidding last
    pays in the dealer's place), the forbidden dealer bid judged among the seated on their
    totals (start scores included), the standings by
    :func:`~wizard_cli.game.scoring.rank_games` with the start scores."""
    s = game.settings
    count = len(game.players)
    rounds = game.sheet.rounds
    played = game.rounds_played
    start = tuple(game.seating.start)
    numbers = range(1, len(rounds) + 1)
    sizes = tuple(map(game.hand_size, numbers))
    seated = [game.seated(number) for number in numbers]
    places = [game.bidding_order(number)[-1] for number in numbers]  # who bids last
    # a valid sheet's values are whole numbers or none: no BadValue is left (validation)
    bids = list(cast("list[int | None]", rounds.bids))
    clouds = rounds.clouds
    # The bids as scored: a Cloud's change counts, the bid as called stays (SPEC §1).
    made = bids if clouds is None else clouded_bids(bids, clouds, count)
    tricks = list(cast("list[int | None]", rounds.tricks[: played * count]))
    outs = [
        index * count + seat
        for index in range(played)
        for seat in sorted(set(range(count)) - set(seated[index]))
    ]
    # the played rounds with a seat sitting out as bid 0, took 0 (validation: every seated
    # player bid and took a whole number)
    run_bids, run_made, run_tricks = (
        [0 if value is None else value for value in column[: played * count]]
        for column in (bids, made, tricks)
    )
    points = list(
        map(
            base_points,
            run_made,
            run_tricks,
            cell_sizes(sizes[:played], count),
            itertools.repeat(s),
        )
    )
    for cell in outs:
        points[cell] = 0
    if s.balanced_bid_penalty or s.final_round_bonus:
        # the game's hand sizes to its last round: a game still going has none among the
        # played ones (a round of no cards after them stands for the rest)
        whole = sizes[:played] if game.finished else (*sizes[:played], 0)
        add_extras(
            points,
            run_bids,
            run_tricks,
            whole,
            count,
            game.first_dealer,
            s,
            made_bids=run_made,
            places=dict(enumerate(places)),
            outs=outs,
        )
    forbidden = (
        None
        if s.screw_the_dealer == "off"
        else recorded_forbidden_bids(bids, points, sizes, count, places, s, seated, start)
    )
    scored = SeatedColumns(
        count,
        game.first_dealer,
        sizes,
        bids,
        tricks,
        points,
        forbidden,
        None if clouds is None else made,
        rounds.bombs,
        clouds,
        dealers=[game.dealer(number) for number in numbers],
        seated=[frozenset(seats) for seats in seated],
        start=start,
    )
    ranked = rank_games(
        points,
        run_bids,
        run_tricks,
        count,
        played,
        1,
        s,
        game.finished,
        None if clouds is None else run_made,
        outs,
        start,
    )
    standings = tuple(
        map(
            Standing,
            ranked.ranks[0],
            ranked.places[0],
            map(game.players.__getitem__, ranked.places[0]),
            ranked.scores[0],
            ranked.bonuses[0],
        )
    )
    return GameResult(game, scored, standings)
