"""The rules of scoring (SPEC §1–2) as pure functions over a validated game's columns.

Nothing here reads files or prints; every total, rank and "game over" is derived from the bids,
the tricks and the settings, so changing a setting rescores a game already in progress. Nothing
here names a :class:`~wizard_cli.game.game.Game` either: game/game.py scores one with these
rules (:func:`~wizard_cli.game.game.score_game`), so the import goes one way.
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple, cast

from .model import (
    RoundColumns,
    by_round,
    by_seat,
    cell_sizes,
    round_of,
    round_sums,
)
from .settings import DECK_SIZE, MIN_PLAYERS, Settings, hand_sizes


@dataclass(slots=True)
class ScoredRound:
    """One round with what it earned; ``tricks``/``points``/``totals`` are None while in play
    (in a game with seating, a seat not seated has None tricks and points, SPEC §1).

    ``forbidden`` is the bid the dealer may not make under ``screwTheDealer``, once every other
    player has bid (None when no restriction applies). Not frozen, to be cheap to build (a
    season builds one per round; a frozen dataclass's __init__ costs three times more): treat
    it as read-only.
    """

    number: int
    hand_size: int
    dealer: int
    bids: tuple[int | None, ...]
    tricks: tuple[int | None, ...] | None
    points: tuple[int | None, ...] | None
    totals: tuple[int, ...] | None
    forbidden: int | None
    bomb: bool = False  # the anniversary cards (SPEC §1): the Bomb fell in this round
    cloud: tuple[int, int] | None = None  # the Cloud: (seat, change of its bid)


@dataclass(slots=True)
class Standing:
    """A player's place: ``score`` is the last total plus the end-of-game ``bonus`` (read-only)."""

    rank: int
    seat: int
    player: str
    score: int
    bonus: int


@dataclass(slots=True)
class ScoredColumns:
    """A game's recorded rounds scored, as flat columns (round after round, in seating order).

    Standings need only sums over these; a ScoredRound per round is made only when something
    asks for the rounds (a season archive has a quarter of a million of them). Not frozen, to
    be cheap to build, like ScoredRound: treat it as read-only.
    """

    players: int
    first_dealer: int
    sizes: tuple[int, ...]  # each recorded round's hand size
    bids: list[int | None]  # every recorded round's bids, the round in play's too
    tricks: list[int | None]  # the played rounds' tricks (None: a seat not seated, SPEC §1)
    points: list[int]  # the played rounds' points
    forbidden: list[int | None] | None  # per recorded round; None when screwTheDealer is off
    scored_bids: list[int | None] | None = None  # the bids as the Cloud changed them, if any did
    bombs: list[bool] | None = None  # per recorded round, when a round records a special card
    clouds: list[tuple[int, int] | None] | None = None

    @property
    def made(self) -> list[int | None]:
        """The bids as scored (SPEC §1: the Cloud's change counts, the bid as called stays)."""
        return self.bids if self.scored_bids is None else self.scored_bids

    @property
    def played(self) -> int:
        """Rounds with their tricks recorded."""
        return len(self.tricks) // self.players

    def totals(self) -> tuple[int, ...]:
        """Each player's total after the last played round (0 for all before any)."""
        return tuple(map(sum, by_seat(self.points, self.players)))

    def rounds(self) -> tuple[ScoredRound, ...]:
        """The rounds one by one, with their running totals."""
        count, recorded, played = self.players, len(self.sizes), self.played
        each = lambda flat: list(by_round(flat, count))  # noqa: E731
        later = [None] * (recorded - played)  # the round in play
        return tuple(
            map(
                ScoredRound,
                range(1, recorded + 1),
                self.sizes,
                self.dealers_of(),
                each(self.bids),
                each(self.tricks) + later,
                each(self.shown_points()) + later,
                self.running_totals() + later,
                self.forbidden or [None] * recorded,
                self.bombs or [False] * recorded,
                self.clouds or [None] * recorded,
            )
        )

    def dealers_of(self) -> list[int]:
        """Each recorded round's dealer: the deal passes to the left."""
        count = self.players
        return [
            dealer_seat(self.first_dealer, number, count)
            for number in range(1, len(self.sizes) + 1)
        ]

    def shown_points(self) -> Sequence[int | None]:
        """The played rounds' points as a round shows them."""
        return self.points

    def running_totals(self) -> list[tuple[int, ...]]:
        """Each played round's totals after it."""
        if not self.played:
            return []
        return list(zip(*map(itertools.accumulate, by_seat(self.points, self.players))))


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


def bidding_order(first_dealer: int, number: int, players: int) -> list[int]:
    """The seats in round ``number``'s bidding order: from the dealer's left, the dealer last."""
    dealer = dealer_seat(first_dealer, number, players)
    return [(dealer + offset) % players for offset in range(1, players + 1)]


def no_trump(hand_size: int, players: int, special_cards: bool = False) -> bool:
    """The whole deck is dealt, so no card is left to turn up for trump; with the anniversary
    editions' special cards some are always left (SPEC §1)."""
    return hand_size * players == DECK_SIZE and not special_cards


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


def forbidden_dealer_bid(
    bids: Sequence[int | None],
    dealer: int,
    hand_size: int,
    s: Settings,
    totals_before: Sequence[int],
) -> int | None:
    """The one bid the dealer may not make, once every other player has bid (SPEC §1); none in
    a round dealing fewer cards than ``dealerRuleFrom`` (SPEC §2)."""
    if hand_size < s.dealer_rule_from:
        return None
    if not restriction_applies(s.screw_the_dealer, dealer, totals_before):
        return None
    others = [bid for seat, bid in enumerate(bids) if seat != dealer]
    known = [bid for bid in others if bid is not None]
    if len(known) != len(others):
        return None
    forbidden = hand_size - sum(known)
    if forbidden < 0 or (forbidden == 0 and s.canadian_rule):
        return None
    return forbidden


def seated_forbidden_bid(
    bids: Sequence[int | None],
    dealer: int,
    hand_size: int,
    s: Settings,
    totals_before: Sequence[int],
    seats: Sequence[int] | None,
) -> int | None:
    """:func:`forbidden_dealer_bid` in a round where only ``seats`` are seated (None: all):
    only they bid, and only their totals say who leads (SPEC §1); ``dealer`` is the seat in
    the dealer's place, one of them."""
    if seats is None:
        return forbidden_dealer_bid(bids, dealer, hand_size, s, totals_before)
    return forbidden_dealer_bid(
        [bids[seat] for seat in seats],
        seats.index(dealer),
        hand_size,
        s,
        [totals_before[seat] for seat in seats],
    )


def score_columns(
    rounds: RoundColumns, count: int, s: Settings, first_dealer: int, played: int
) -> ScoredColumns:
    """Score valid rounds of ``count`` players as columns: the first ``played`` complete, the
    one after them (if any) in play, its bids known and its tricks not."""
    sizes = hand_sizes(s, count)[: len(rounds)]
    # A valid game's values (validation proved it): whole numbers in the played rounds, the
    # round in play's bids whole numbers or None (still to bid).
    columns = rounds.value_columns(played)
    assert columns is not None  # the first ``played`` rounds have their tricks
    bids = cast(list[int | None], columns[0])
    tricks = cast(list[int], columns[1])
    if played < len(rounds):
        bids = bids + cast(list[int | None], list(round_of(rounds.bids, played, count)))
    clouds = rounds.clouds
    made = bids if clouds is None else clouded_bids(bids, clouds, count)
    played_made = cast(list[int], made)  # (zipped with the tricks: the played rounds' only)
    try:  # looked up, no Python code per cell: a season has a million of them
        points: list[int] = list(
            map(
                operator.getitem,
                map(operator.getitem, _cell_tables(s, sizes[:played], count), played_made),
                tricks,
            )
        )
    except LookupError:  # a value outside the hand (or no table): base_points decides
        points = list(
            map(
                base_points,
                played_made,
                tricks,
                cell_sizes(sizes[:played], count),
                itertools.repeat(s),
            )
        )
    if s.balanced_bid_penalty or s.final_round_bonus:  # (reads the played rounds' bids)
        add_extras(
            points,
            cast(list[int], bids),
            tricks,
            hand_sizes(s, count),
            count,
            first_dealer,
            s,
            made_bids=played_made,
        )
    forbidden = (
        None
        if s.screw_the_dealer == "off"
        else recorded_forbidden_bids(
            bids,
            points,
            sizes,
            count,
            [dealer_seat(first_dealer, number, count) for number in range(1, len(sizes) + 1)],
            s,
        )
    )
    column = cast(list[int | None], tricks)  # (as ScoredColumns holds them, seated or not)
    if clouds is None:
        return ScoredColumns(count, first_dealer, sizes, bids, column, points, forbidden)
    return ScoredColumns(
        count,
        first_dealer,
        sizes,
        bids,
        column,
        points,
        forbidden,
        made,
        (rounds.bombs or [])[: len(sizes)],
        clouds[: len(sizes)],
    )


def clouded_bids(
    bids: Sequence[int | None], clouds: Sequence[tuple[int, int] | None], count: int
) -> list[int | None]:
    """The bids as scored (:func:`changed_bids`), a game's Clouds given per round as (seat,
    change) or None."""
    return changed_bids(
        bids,
        [
            (index * count + cloud[0], cloud[1])
            for index, cloud in enumerate(clouds[: len(bids) // count])
            if cloud is not None and bids[index * count + cloud[0]] is not None
        ],
    )


def changed_bids(bids: Sequence[int | None], changes: Iterable[tuple[int, int]]) -> list:
    """The bids as scored: each Cloud's player's bid changed by its change, the Clouds given as
    (cell, change) (SPEC §1); the bids as called stay for the dealer restriction, ``bidTotal``
    and ``balancedBidPenalty``. One game's cells or a run's."""
    made = list(bids)
    for cell, change in changes:  # (a Cloud's player has bid: never None here)
        made[cell] = cast(int, made[cell]) + change
    return made


def tricks_taken(size: int, bomb: bool) -> int:
    """What a complete round's tricks add up to: its hand size, one less with the Bomb (nobody
    takes the trick it falls in, SPEC §1)."""
    return size - 1 if bomb else size


def cloud_fits(bid: int, change: int, size: int) -> bool:
    """The Cloud's changed bid lies in 0..the hand size (SPEC §1)."""
    return 0 <= bid + change <= size


def add_extras(
    points: list[int],
    bids: Sequence[int],
    tricks: Sequence[int],
    sizes: Sequence[int],
    count: int,
    first_dealer: int,
    s: Settings,
    balanced: list[int] | None = None,
    made_bids: Sequence[int] | None = None,
    places: Mapping[int, int] | None = None,
    outs: Sequence[int] = (),
) -> None:
    """``balancedBidPenalty`` (the dealer pays when the bids add up to the hand size) and
    ``finalRoundBonus`` (a made bid in the game's last round), added into ``points``: the
    complete rounds of one game, or of a run of whole games one after another (``sizes`` is
    a game's every hand size; the rounds count again from 1 after each game's last).
    ``balanced`` is :func:`balanced_rounds`, if already known; ``made_bids`` the bids as
    scored, when a Cloud changed one (the bonus judges them; the penalty the bids as called);
    ``places`` the seat in the dealer's place in rounds (by index) where it is not the
    rotation's dealer: someone sits out, so the deal passes on among the seated (SPEC §1);
    ``outs`` the cells of players sitting a round out (bid 0, took 0), who earn nothing in it."""
    played = len(tricks)
    rounds = len(sizes)
    if s.balanced_bid_penalty:
        if balanced is None:
            balanced = balanced_rounds(bids, sizes, count, played)
        for index in balanced:
            seat = places.get(index) if places else None
            if seat is None:
                seat = dealer_seat(first_dealer, index % rounds + 1, count)
            points[index * count + seat] -= s.balanced_bid_penalty
    if s.final_round_bonus:
        made = bids if made_bids is None else made_bids
        bonus = itertools.repeat(s.final_round_bonus)
        for seat in range(count):  # each game's last round, seat by seat
            last = slice((rounds - 1) * count + seat, played, rounds * count)
            points[last] = list(
                map(
                    operator.add,
                    points[last],
                    map(operator.mul, map(operator.eq, made[last], tricks[last]), bonus),
                )
            )
        for cell in outs:  # nobody earns the bonus of a round they sat out (SPEC §1)
            points[cell] = 0


def balanced_rounds(
    bids: Sequence[int], sizes: Sequence[int], count: int, played: int
) -> list[int]:
    """The indices of the complete rounds (the first ``played`` cells' rounds) whose bids add
    up to the hand size, in one game or a run of whole games (``sizes`` a game's hand sizes).
    Only in these may the dealer pay ``balancedBidPenalty``, and only in these can the dealer's
    bid be the forbidden one (it is exactly the one that makes the bids add up, SPEC §1)."""
    return list(
        itertools.compress(
            itertools.count(),
            map(operator.eq, round_sums(bids, count, played), itertools.cycle(sizes)),
        )
    )


def forbidden_bids_made(
    bids: Sequence[int],
    points: Sequence[int],
    sizes: Sequence[int],
    count: int,
    first_dealer: int,
    s: Settings,
    balanced: list[int],
    places: Mapping[int, int] | None = None,
    seated: Mapping[int, Sequence[int]] | None = None,
) -> list[int]:
    """The indices of the complete rounds of a run of whole games (one after another, each of
    ``sizes`` hand sizes) in which the dealer made the bid ``screwTheDealer`` forbids, judged
    by :func:`forbidden_dealer_bid` on the game's totals before the round; ``balanced`` is
    :func:`balanced_rounds` (no other round can hold a forbidden bid). In a round in which
    someone sits out (``seated``: its seated seats, by index), only the seated bid and lead,
    and ``places`` gives the seat in the dealer's place (as for :func:`add_extras`)."""
    if s.screw_the_dealer == "off":
        return []
    rounds = len(sizes)
    totals = None if s.screw_the_dealer == "always" else running_totals(points, count, rounds)
    zeros = (0,) * count
    found = []
    for index in balanced:
        number = index % rounds + 1
        dealer = places.get(index) if places else None
        if dealer is None:
            dealer = dealer_seat(first_dealer, number, count)
        before = (
            zeros if totals is None or number == 1 else totals[(index - 1) * count : index * count]
        )
        cells = round_of(bids, index, count)
        seats = seated.get(index) if seated else None
        forbidden = seated_forbidden_bid(cells, dealer, sizes[number - 1], s, before, seats)
        if cells[dealer] == forbidden:
            found.append(index)
    return found


def recorded_forbidden_bids(
    bids: Sequence[int | None],
    points: Sequence[int],
    sizes: Sequence[int],
    count: int,
    places: Sequence[int],
    s: Settings,
    seated: Sequence[Sequence[int]] | None = None,
    start: Sequence[int] | None = None,
) -> list[int | None]:
    """The dealer's forbidden bid in each recorded round of one game (:func:`forbidden_dealer_bid`),
    judged on the totals before it (from ``start``, the start scores, if any). ``places`` is
    each round's seat in the dealer's place; ``seated`` each round's seated seats, in a game
    whose seating changes: only they bid and lead (SPEC §1)."""
    forbidden = []
    totals = tuple(start) if start is not None else (0,) * count
    for index, size in enumerate(sizes):
        cells = round_of(bids, index, count)
        dealer = places[index]
        seats = None if seated is None else seated[index]
        forbidden.append(seated_forbidden_bid(cells, dealer, size, s, totals, seats))
        totals = tuple(map(operator.add, totals, round_of(points, index, count) or (0,) * count))
    return forbidden


@functools.lru_cache(maxsize=64)
def _cell_tables(
    s: Settings, sizes: tuple[int, ...], count: int
) -> tuple[dict[int, dict[int, int]], ...]:
    """Each cell's points table (bid, then tricks), for columns of ``count`` players."""
    tables = points_tables(s)
    return tuple(tables[size] for size in cell_sizes(sizes, count))


@functools.lru_cache(maxsize=32)
def points_tables(s: Settings) -> tuple[dict[int, dict[int, int]], ...]:
    """base_points under ``s`` by hand size, then bid, then tricks: worked out once per rule set.

    Dictionaries, not lists: a value outside the hand is a KeyError, never a wrapped index.
    """
    return tuple(
        {
            bid: {took: base_points(bid, took, size, s) for took in range(size + 1)}
            for bid in range(size + 1)
        }
        for size in range(DECK_SIZE // MIN_PLAYERS + 1)
    )


def competition_ranks(keys: Sequence[tuple]) -> list[int]:
    """ "1, 1, 3" ranking: one more than the number of strictly better keys."""
    # Each key's place is where it first appears best first: one sort, no scan per key (a
    # season's ratings rank every player; a scan each was quadratic, 386 s for 90,000 players).
    first: dict[tuple, int] = {}
    for place, key in enumerate(sorted(keys, reverse=True), 1):
        first.setdefault(key, place)
    return [first[key] for key in keys]


def standings(
    players: Sequence[str], s: Settings, scored: ScoredColumns, finished: bool
) -> tuple[Standing, ...]:
    """Scores (with the perfect-game bonus once finished) ranked by score, then ``tieBreak``:
    the game ranked as a run of one (:func:`rank_games`, the one ranking of every game)."""
    played = len(scored.tricks)
    # (a game with no seating: the played rounds' values are whole numbers, only the round in
    # play's bids may be None)
    ranked = rank_games(
        scored.points,
        cast(list[int], scored.bids[:played]),
        cast(list[int], scored.tricks),
        len(players),
        scored.played,
        1,
        s,
        finished,
        None if scored.scored_bids is None else cast(list[int], scored.scored_bids[:played]),
    )
    return tuple(
        map(
            Standing,
            ranked.ranks[0],
            ranked.places[0],
            map(players.__getitem__, ranked.places[0]),
            ranked.scores[0],
            ranked.bonuses[0],
        )
    )


_RANK = operator.attrgetter("rank")


# --- ranking games as columns: one game, or a run of a season's games (game/runs.py) ---------


class Ranked(NamedTuple):
    """Games ranked (:func:`rank_games`): ``places[g]`` is game g's seats in standings order
    (best first), ``ranks[g]``, ``scores[g]`` and ``bonuses[g]`` what stands at each place
    (tuples, read-only)."""

    places: list[tuple[int, ...]]
    ranks: list[tuple[int, ...]]
    scores: list[tuple[int, ...]]
    bonuses: list[tuple[int, ...]]


def rank_games(
    points: list[int],
    bids: Sequence[int],
    tricks: Sequence[int],
    count: int,
    rounds: int,
    games: int,
    s: Settings,
    finished: bool,
    made_bids: Sequence[int] | None = None,
    outs: Sequence[int] = (),
    start: Sequence[int] | None = None,
) -> Ranked:
    """The standings of ``games`` games of ``count`` seats, each of ``rounds`` complete rounds,
    their cells one game after another in flat columns: each seat's score (its points, and
    ``perfectGameBonus`` once ``finished`` for a seat that made every bid), ranked by score,
    then ``tieBreak`` (total or made bids), competition ranks, equal ones in seat order. The
    one ranking of every game: a lone game is a run of one. ``made_bids``: the bids as scored
    where a Cloud changed one (made bids count them; ``totalBids`` sums the bids as called).
    ``outs``: the cells of players sitting a round out (bid 0, took 0, no points): no bid made
    for ``madeBids``, and no bid missed for ``perfectGameBonus`` (every bid of the rounds sat
    in, SPEC §1, of which there is at least one). ``start``: each seat's start score, added to
    its score in every game (a game whose seating gives start scores, SPEC §1).

    Column by column, with no Python step per game: each seat's game sums, a sort key per seat
    that holds the seat under its score (so one ``sorted`` per game gives the standings order,
    equal keys in seat order), and the ranks read off which neighbours are equal."""
    totals = _seat_sums(points, count, rounds, games)  # per seat, each game's
    if start is not None:
        totals = [[total + first for total in seat] for seat, first in zip(totals, start)]
    made = made_ties = None
    if s.perfect_game_bonus or s.tie_break == "madeBids":
        made_cells = list(map(operator.eq, bids if made_bids is None else made_bids, tricks))
        for cell in outs:
            made_cells[cell] = True
        made = made_ties = _seat_sums(made_cells, count, rounds, games)
        if outs and s.tie_break == "madeBids":
            for cell in outs:
                made_cells[cell] = False
            made_ties = _seat_sums(made_cells, count, rounds, games)
    bonuses = None
    if finished and s.perfect_game_bonus:
        bonus = s.perfect_game_bonus
        bonuses = [
            list(
                map(
                    operator.mul,
                    map(operator.eq, seat, itertools.repeat(rounds)),
                    itertools.repeat(bonus),
                )
            )
            for seat in made or ()
        ]
        if outs:  # a seat that sat out every round made no bid at all: no perfect game
            sat_out = [0] * len(points)
            for cell in outs:
                sat_out[cell] = 1
            for seat, out in enumerate(_seat_sums(sat_out, count, rounds, games)):
                bonuses[seat] = [
                    0 if sat == rounds else extra for sat, extra in zip(out, bonuses[seat])
                ]
        totals = [list(map(operator.add, total, extra)) for total, extra in zip(totals, bonuses)]
    ties = (
        _seat_sums(bids, count, rounds, games)
        if s.tie_break == "totalBids"
        else made_ties
        if s.tie_break == "madeBids"
        else None
    )
    # A seat's key: its score, then (below _TIE_BITS) what breaks a tie; its sort key, the key
    # negated and the seat below it (_SEAT_BITS), so ascending order is standings order.
    keys = (
        totals
        if ties is None
        else [
            list(map(operator.add, map(operator.lshift, total, itertools.repeat(_TIE_BITS)), tie))
            for total, tie in zip(totals, ties)
        ]
    )
    sort_keys = [
        list(
            map(
                operator.add,
                map(operator.mul, key, itertools.repeat(-1 << _SEAT_BITS)),
                itertools.repeat(seat),
            )
        )
        for seat, key in enumerate(keys)
    ]
    ordered = list(itertools.chain.from_iterable(map(sorted, zip(*sort_keys))))
    seats = list(map(operator.and_, ordered, itertools.repeat((1 << _SEAT_BITS) - 1)))
    negated = list(map(operator.rshift, ordered, itertools.repeat(_SEAT_BITS)))  # -key
    scores = list(map(operator.neg, negated))
    if ties is not None:
        scores = list(map(operator.rshift, scores, itertools.repeat(_TIE_BITS)))
    # Ranks: 1 + how many stand strictly above, from which places hold a key equal to the one
    # above them.
    equal = [
        map(operator.eq, negated[place::count], negated[place - 1 :: count])
        for place in range(1, count)
    ]
    ranks = list(map(_ranks_of(count).__getitem__, zip(*equal)))
    places = list(zip(*[iter(seats)] * count))
    if bonuses is None:
        extras = [(0,) * count] * games
    else:
        flat = list(itertools.chain.from_iterable(zip(*bonuses)))  # game after game, by seat
        firsts = itertools.chain.from_iterable(
            map(itertools.repeat, range(0, len(flat), count), itertools.repeat(count))
        )
        extras = list(zip(*[map(flat.__getitem__, map(operator.add, firsts, seats))] * count))
    return Ranked(places, ranks, list(zip(*[iter(scores)] * count)), extras)


def running_totals(points: Sequence[int], count: int, rounds: int) -> list[int]:
    """Each cell's running total within its game, for a run's flat column of ``points`` (game
    after game of ``rounds`` rounds of ``count`` seats, the last one perhaps not over): each
    seat's column cut into games, each game's summed along (no Python step per cell)."""
    totals = [0] * len(points)
    for seat in range(count):
        column = points[seat::count]
        games = zip(*[iter(column)] * rounds)  # the whole games; then the rounds after them
        rest = itertools.accumulate(column[len(column) - len(column) % rounds :])
        totals[seat::count] = [
            *itertools.chain.from_iterable(map(itertools.accumulate, games)),
            *rest,
        ]
    return totals


_SEAT_BITS = 4  # a seat (0–11: a sheet with seating lists up to 12, SPEC §1) below a sort key
_TIE_BITS = 16  # a tie-break sum (total or made bids: at most 20 rounds × 20) below a score


@functools.lru_cache(maxsize=8)
def _ranks_of(count: int) -> dict[tuple[bool, ...], tuple[int, ...]]:
    """Competition ranks of ``count`` places in standings order, by which places hold a key
    equal to the one above them: (False, True, False) is 1, 2, 2, 4."""
    table = {}
    for equal in itertools.product((False, True), repeat=count - 1):
        ranks = [1]
        for place, same in enumerate(equal, 1):
            ranks.append(ranks[-1] if same else place + 1)
        table[equal] = tuple(ranks)
    return table


def _seat_sums(flat: Sequence[int], count: int, rounds: int, games: int) -> list[list[int]]:
    """Each seat's sum in each of ``games`` games of a run's flat column (game after game of
    ``rounds`` rounds of ``count`` seats): a seat's column cut into games, each summed (in C,
    with no int made per running sum)."""
    if not rounds:  # games with no complete round yet
        return [[0] * games for _ in range(count)]
    return [list(map(sum, zip(*[iter(flat[seat::count])] * rounds))) for seat in range(count)]
