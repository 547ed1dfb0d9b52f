"""One validated game that knows where it stands (SPEC §1, §5), and that game scored.

:func:`~wizard_cli.game.validation.check_sheet` makes a :class:`Game` of a sheet with no problem:
its players, effective settings, first dealer and metadata, and the rounds as columns. It is the
one place that knows the round in play, its bidding order, the bids in, who bids next, the bid
the dealer may not make, and the status (finished, who can still win, what happens next).
:func:`score_game` scores a Game into a :class:`GameResult` (the rules over columns are
:mod:`~wizard_cli.game.scoring`'s, which never names a Game); views render what it says.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import Any, cast

from .model import HoldsSheet, RoundColumns, RoundRecord, Sheet, by_seat
from .scoring import (
    ScoredColumns,
    ScoredRound,
    Standing,
    base_points,
    bidding_order,
    dealer_seat,
    no_trump,
    score_columns,
    standings,
)
from .settings import Settings, hand_sizes


class _Frozen:
    """No attribute of a record is set after it is made, whatever its class (SPEC §10: a Game
    is frozen). A frozen dataclass refuses its fields only, and in a subclass (the library's
    Game, a SeatedGame) nothing at all; its worked-out values (cached properties) are stored
    by ``functools.cached_property`` itself, which sets no attribute this way."""

    __slots__ = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")


@dataclass(frozen=True, eq=False)
class Game(HoldsSheet, _Frozen):
    """A valid sheet under its effective settings, from its first dealer's seat (read-only).

    Made by validation; a Game is never changed (a change to the sheet makes a new one).
    """

    sheet: Sheet
    settings: Settings
    first_dealer: int = 0

    # --- what the sheet says (its source and game id: HoldsSheet) ----------------------------

    @functools.cached_property
    def players(self) -> tuple[str, ...]:
        """The players in seating order."""
        return tuple(self.sheet.players)

    @property
    def rounds(self) -> RoundColumns:
        """Every recorded round, as columns (the round in play last, if there is one)."""
        return self.sheet.rounds

    def with_settings(self, settings: Settings) -> Game:
        """The same sheet under other settings (``wizard compare``'s rule sets)."""
        return dataclasses.replace(self, settings=settings)

    # --- where the game stands ------------------------------------------------------------

    @functools.cached_property
    def hand_sizes(self) -> tuple[int, ...]:
        """Every round's hand size, the last round's last."""
        return hand_sizes(self.settings, len(self.players))

    @property
    def rounds_total(self) -> int:
        """How many rounds the game has under its settings."""
        return len(self.hand_sizes)

    @functools.cached_property
    def in_play(self) -> RoundRecord | None:
        """The round in play: the last recorded round while its tricks are not in (only it may
        be, SPEC §4); None when every recorded round is complete."""
        rounds = self.sheet.rounds
        return rounds[-1] if rounds and not rounds.has_tricks[-1] else None

    @property
    def rounds_played(self) -> int:
        """Rounds with their tricks recorded."""
        return len(self.sheet.rounds) - (self.in_play is not None)

    @property
    def finished(self) -> bool:
        """True exactly when the configured last round has its tricks (SPEC §1)."""
        return self.rounds_played == self.rounds_total

    @property
    def current_round(self) -> int:
        """The round bids or tricks go to now: the one in play, else the next to deal (one past
        the last round once the game is finished)."""
        return self.rounds_played + 1

    def hand_size(self, number: int | None = None) -> int:
        """Round ``number``'s hand size (the current round's by default; within the game)."""
        return self.hand_sizes[(number or self.current_round) - 1]

    def dealer(self, number: int | None = None) -> int:
        """The seat dealing round ``number`` (the current round by default)."""
        return dealer_seat(self.first_dealer, number or self.current_round, len(self.players))

    def bidding_order(self, number: int | None = None) -> list[int]:
        """The seats in round ``number``'s bidding order (the current round's by default): from
        the dealer's left, the dealer last."""
        return bidding_order(self.first_dealer, number or self.current_round, len(self.players))

    def rounds_left(self) -> list[tuple[int, int, list[int]]]:
        """The rounds not yet complete that the game may still have, the round in play first,
        each as its number, hand size and the seats that play it (SPEC §1's bound)."""
        seats = list(range(len(self.players)))
        return [
            (number, self.hand_size(number), seats)
            for number in range(self.rounds_played + 1, self.rounds_total + 1)
        ]

    @property
    def bids(self) -> list[int | None]:
        """The current round's bids by seat (None: not in yet; all None before the deal)."""
        in_play = self.in_play
        if in_play is None:
            return [None] * len(self.players)
        # a valid sheet's values are whole numbers or none: no BadValue is left (validation)
        return list(cast("list[int | None]", in_play.bids))

    @property
    def bids_in(self) -> dict[int, int]:
        """The current round's bids so far, seat → bid, in bidding order."""
        bids = self.bids
        return {seat: bid for seat in self.bidding_order() if (bid := bids[seat]) is not None}

    @property
    def next_bidder(self) -> int | None:
        """The seat to bid next; None once every bid is in, or the game is finished."""
        if self.finished:
            return None
        bids = self.bids
        return next((seat for seat in self.bidding_order() if bids[seat] is None), None)

    # --- what the scores decide -----------------------------------------------------------

    @functools.cached_property
    def result(self) -> GameResult:
        """The game scored (once, when first asked)."""
        return score_game(self)

    @property
    def forbidden_bid(self) -> int | None:
        """The bid the dealer may not make (``screwTheDealer``), while the dealer is the one
        player still to bid (SPEC §5); None otherwise."""
        return next_step(self.result).forbidden_dealer_bid

    def contenders(self) -> list[str]:
        """The players, in seating order, who can still win; once finished, the winners."""
        return contenders(self.result)

    def next_step(self) -> NextStep:
        """What happens next at the table (``wizard next``)."""
        return next_step(self.result)

    def status(self) -> Status:
        """Finished or not, rounds played, winners, contenders and what happens next."""
        return game_status(self.result)


@dataclass(eq=False)
class GameResult:
    """A validated game scored: its rounds (made from ``scored`` when asked for) and standings.

    What the game itself says (players, settings, metadata, where it stands) is the ``validated``
    :class:`Game`'s. Not frozen, to be cheap to build (a season builds one per game): treat it
    as read-only.
    """

    validated: Game
    scored: ScoredColumns
    standings: tuple[Standing, ...]

    @property
    def source(self) -> str:
        return self.validated.sheet.source

    @property
    def game(self) -> str | int | None:
        """The sheet's game id in a season (None for a lone sheet)."""
        return self.validated.sheet.game

    @property
    def title(self) -> str | None:
        return self.validated.sheet.title

    @property
    def date(self) -> str | None:
        """The sheet's optional metadata (SPEC §3), shown with its title."""
        return self.validated.sheet.date

    @property
    def place(self) -> str | None:
        return self.validated.sheet.place

    @property
    def notes(self) -> str | None:
        return self.validated.sheet.notes

    @property
    def players(self) -> tuple[str, ...]:
        return self.validated.players

    @property
    def settings(self) -> Settings:
        return self.validated.settings

    @property
    def first_dealer(self) -> int:
        return self.validated.first_dealer

    @property
    def rounds_total(self) -> int:
        return self.validated.rounds_total

    @functools.cached_property
    def rounds(self) -> tuple[ScoredRound, ...]:
        """Every recorded round, scored."""
        return self.scored.rounds()

    @property
    def rounds_played(self) -> int:
        """Rounds with their tricks recorded (the game's own count: it alone knows where it
        stands, and it was scored up to there)."""
        return self.validated.rounds_played

    @property
    def finished(self) -> bool:
        """True exactly when the configured last round has its tricks (SPEC §1): the game's."""
        return self.validated.finished

    @property
    def winners(self) -> list[str]:
        """Everyone ranked first, once the game is finished; nobody before."""
        return [s.player for s in self.standings if s.rank == 1] if self.finished else []

    @property
    def totals(self) -> tuple[int, ...]:
        """Running totals after the last completed round (0 for all before any)."""
        return self.scored.totals()

    def status(self) -> Status:
        """Finished or not, rounds played, winners, contenders and what happens next."""
        return game_status(self)

    def as_json(self) -> dict[str, Any]:
        """The game as ``score --format json`` prints it (SPEC §5), as Python values."""
        players = self.players
        rounds = [round_json(players, record) for record in round_records(self)]
        seated, seating = seated_rounds(self), self.validated.sheet.seating
        if seated is not None and seating is not None and seating.changes:  # SPEC §5: "seated"
            for data, here in zip(rounds, seated):
                for seat, values in enumerate(data["results"].values()):
                    values["seated"] = seat in here
        return {
            "source": self.source,
            "game": self.game,
            **metadata_json(self),
            "players": list(players),
            "settings": self.settings.as_dict(),
            "rounds": rounds,
            "standings": standings_json(self),
            "status": game_status(self).as_json(),
        }

    def standings_json(self) -> dict[str, Any]:
        """The standings and status as ``standings --format json`` prints them."""
        return {
            "source": self.source,
            "game": self.game,
            **metadata_json(self),
            "standings": standings_json(self),
            "status": game_status(self).as_json(),
        }


def score_game(game: Game) -> GameResult:
    """A validated game scored under its settings: rounds, standings and status."""
    if game.sheet.seating is not None:  # a SeatedGame scores itself (game/seated.py)
        return game.result
    count = len(game.players)
    played = game.rounds_played
    scored = score_columns(game.rounds, count, game.settings, game.first_dealer, played)
    return GameResult(
        game, scored, standings(game.players, game.settings, scored, played == game.rounds_total)
    )


@dataclass(frozen=True, slots=True)
class NextStep:
    """The ``wizard next`` answer; every field but ``finished``/``winners`` is None once finished."""

    round: int | None
    hand_size: int | None
    dealer: str | None
    bidding_order: tuple[str, ...] | None
    bids_in: dict[str, int] | None
    bid_total: int | None
    next_bidder: str | None
    no_trump: bool | None
    forbidden_dealer_bid: int | None
    finished: bool
    winners: tuple[str, ...] = ()

    def as_json(self) -> dict[str, Any]:
        """The ``wizard next`` object: the keys of SPEC §5; once the game is over, also its
        winners (issue 4: "after the last round, finished: true and the winners")."""
        data = dict(
            zip(
                NEXT_KEYS,
                (
                    self.round,
                    self.hand_size,
                    self.dealer,
                    list(self.bidding_order) if self.bidding_order is not None else None,
                    self.bids_in,
                    self.bid_total,
                    self.next_bidder,
                    self.no_trump,
                    self.forbidden_dealer_bid,
                    self.finished,
                ),
            )
        )
        if self.finished:
            data["winners"] = list(self.winners)
        return data


@dataclass(frozen=True, slots=True)
class Status:
    """Where a scored game stands: what score and standings show as ``status``."""

    finished: bool
    rounds_played: int
    rounds_total: int
    winners: tuple[str, ...]
    contenders: tuple[str, ...]
    next: NextStep | None  # None once finished

    def as_json(self) -> dict[str, Any]:
        """``status`` of score and standings JSON."""
        return {
            "finished": self.finished,
            "roundsPlayed": self.rounds_played,
            "roundsTotal": self.rounds_total,
            "winners": list(self.winners),
            "contenders": list(self.contenders),
            "next": None if self.next is None else self.next.as_json(),
        }


# --- the JSON records (SPEC §5), each built in one place ---------------------------------------
# Each part of a game's record is made once, as its values in the order of its keys, and every
# format is drawn from those values (output/game_views.py): JSON pairs them with the keys, a CSV
# row is them, and a table's cells are made from them.

NEXT_KEYS = (
    "round",
    "handSize",
    "dealer",
    "biddingOrder",
    "bidsIn",
    "bidTotal",
    "nextBidder",
    "noTrump",
    "forbiddenDealerBid",
    "finished",
)
STANDING_KEYS = ("rank", "player", "score", "bonus")
_standing_values = attrgetter(*STANDING_KEYS)
RESULT_KEYS = ("bid", "tricks", "points", "total")  # a player's part of a round
ROUND_KEYS = ("round", "handSize", "dealer", "results")  # one entry of ``rounds``
# With ``specialCards: true`` (SPEC §5): a round's ``bomb``, a result's ``cloud`` (±1 or null).
SPECIAL_RESULT_KEYS = (*RESULT_KEYS, "cloud")
SPECIAL_ROUND_KEYS = ("round", "handSize", "dealer", "bomb", "results")


def metadata_json(result: GameResult) -> dict[str, Any]:
    """``title`` and, right after it, ``date``, ``place`` and ``notes`` (SPEC §3; null when
    absent)."""
    return {
        "title": result.title,
        "date": result.date,
        "place": result.place,
        "notes": result.notes,
    }


def standing_records(result: GameResult) -> list[tuple[Any, ...]]:
    """Each place of the standings as its values under ``STANDING_KEYS``: rank, player, score
    (with end bonuses) and the bonus part."""
    return list(map(_standing_values, result.standings))


def standings_json(result: GameResult) -> list[dict[str, Any]]:
    """``standings``: one object per place."""
    return [dict(zip(STANDING_KEYS, record)) for record in standing_records(result)]


def round_records(result: GameResult) -> list[tuple[Any, ...]]:
    """Every recorded round as its values under ``ROUND_KEYS``: number, hand size, dealer, and
    the results as one column per key of ``RESULT_KEYS``, in seating order (in play: the bids
    alone, the rest None). Columns, not a tuple per seat: a table's cell is made from them
    directly, and a season's score table has a million of them."""
    players = result.players
    unplayed = (None,) * len(players)
    if result.settings.special_cards:
        return _special_round_records(result)
    return [
        (
            scored.number,
            scored.hand_size,
            players[scored.dealer],
            (
                scored.bids,
                scored.tricks or unplayed,
                scored.points or unplayed,
                scored.totals or unplayed,
            ),
        )
        for scored in result.rounds
    ]


def _special_round_records(result: GameResult) -> list[tuple[Any, ...]]:
    """:func:`round_records` of a game with the special cards: under ``SPECIAL_ROUND_KEYS``,
    with the round's Bomb and each seat's Cloud change (None for the others)."""
    players = result.players
    unplayed = (None,) * len(players)
    records = []
    for scored in result.rounds:
        clouds: list[int | None] = [None] * len(players)
        if scored.cloud is not None:
            clouds[scored.cloud[0]] = scored.cloud[1]
        records.append(
            (
                scored.number,
                scored.hand_size,
                players[scored.dealer],
                scored.bomb,
                (
                    scored.bids,
                    scored.tricks or unplayed,
                    scored.points or unplayed,
                    scored.totals or unplayed,
                    tuple(clouds),
                ),
            )
        )
    return records


def seated_rounds(result: GameResult) -> list[frozenset[int]] | None:
    """Each recorded round's seated seats, in a game with seating (else None)."""
    seated = getattr(result.scored, "seated", None)
    return list(seated) if seated is not None else None


def seat_results(record: tuple[Any, ...]) -> Iterator[tuple[Any, ...]]:
    """A round record's results seat by seat: each seat's values under ``RESULT_KEYS``."""
    return zip(*record[-1])


def round_json(players: Sequence[str], record: tuple[Any, ...]) -> dict[str, Any]:
    """One entry of ``rounds`` from its record: the results by player's name."""
    special = len(record) == len(SPECIAL_ROUND_KEYS)
    data = dict(zip(SPECIAL_ROUND_KEYS if special else ROUND_KEYS, record))
    keys = SPECIAL_RESULT_KEYS if special else RESULT_KEYS
    data["results"] = {
        name: dict(zip(keys, values)) for name, values in zip(players, seat_results(record))
    }
    return data


def next_step(result: GameResult) -> NextStep:
    """The next thing to happen in a scored game (bidding starts at the dealer's left)."""
    game = result.validated
    if game.finished:
        return NextStep(
            None, None, None, None, None, None, None, None, None, True, tuple(result.winners)
        )
    players = game.players
    dealer = game.dealer()
    order = game.bidding_order()
    bids_in = game.bids_in
    waiting = [seat for seat in order if seat not in bids_in]
    forbidden = result.scored.forbidden
    return NextStep(
        round=game.current_round,
        hand_size=game.hand_size(),
        dealer=players[dealer],
        bidding_order=tuple(players[seat] for seat in order),
        bids_in={players[seat]: bid for seat, bid in bids_in.items()},
        bid_total=sum(bids_in.values()),
        next_bidder=players[waiting[0]] if waiting else None,
        no_trump=no_trump(game.hand_size(), len(order), game.settings.special_cards),
        # only while the dealer is the one player still to bid (SPEC §5): null once they have
        forbidden_dealer_bid=(
            forbidden[-1]
            if game.in_play is not None and forbidden and waiting == order[-1:]
            else None
        ),
        finished=False,
    )


def game_status(result: GameResult) -> Status:
    """The ``status`` of a scored game."""
    game = result.validated
    return Status(
        game.finished,
        game.rounds_played,
        game.rounds_total,
        tuple(result.winners),
        tuple(contenders(result)),
        None if game.finished else next_step(result),
    )


# --- who can still win (SPEC §1) -----------------------------------------------------------


def contenders(result: GameResult) -> list[str]:
    """The players, in seating order, who can still win; once finished, the winners."""
    if result.finished:
        return list(result.winners)
    greatest, least = score_bounds(result)
    return [
        name
        for seat, name in enumerate(result.players)
        if not any(
            least[other] > greatest[seat] for other in range(len(result.players)) if other != seat
        )
    ]


def score_bounds(result: GameResult) -> tuple[list[int], list[int]]:
    """Each player's greatest and least possible final score, by SPEC §1's bound.

    A player can no longer win when some other player's *least* possible final score is above
    the player's *greatest*. The bound is exactly SPEC §1's, never a tighter one: a player it
    names out truly cannot win, but one it keeps may already be unable to (it does not, for
    instance, see that two players cannot both make the largest bid of one round). In a game
    with seating, every player plays every remaining round from their ``joins`` to their
    ``leaves`` (an ``out`` counts only for the round in play): :meth:`Game.rounds_left`.
    """
    game = result.validated
    s = result.settings
    count = len(result.players)
    scored = result.scored
    in_play = game.in_play
    cloud = None  # a Cloud recorded in the round in play: that bid is scored changed
    if in_play is not None and scored.clouds is not None:
        cloud = scored.clouds[in_play.number - 1]
    # every completed bid made so far (a seat not seated in a round has neither bid nor tricks)
    made_all = [
        bids == tricks
        for bids, tricks in zip(
            by_seat(scored.made[: len(scored.tricks)], count), by_seat(scored.tricks, count)
        )
    ]
    greatest, least = list(result.totals), list(result.totals)
    for number, size, seats in game.rounds_left():
        bids = game.bids if in_play is not None and number == in_play.number else (None,) * count
        for seat in seats:
            greatest[seat], least[seat] = bid_bounds(
                greatest[seat], least[seat], bids[seat], seat, size, cloud, s
            )
        if seats:  # the dealer, or the player bidding last in the dealer's place, may pay
            least[game.bidding_order(number)[-1]] -= s.balanced_bid_penalty
    for seat in range(count):
        greatest[seat] += s.final_round_bonus  # the last round is not complete yet
        if made_all[seat]:
            greatest[seat] += s.perfect_game_bonus
    return greatest, least


def bid_bounds(
    greatest: int,
    least: int,
    bid: int | None,
    seat: int,
    size: int,
    cloud: tuple[int, int] | None,
    s: Settings,
) -> tuple[int, int]:
    """A player's greatest and least possible score after one round not yet complete, from
    those before it: with the round's bid ``bid`` (None: not in yet) and the Cloud recorded in
    it (``cloud``), as SPEC §1's bound takes them."""
    options: Sequence[int | None] = (bid,)
    if bid is not None and cloud is not None:
        options = (bid + cloud[1],) if cloud[0] == seat else options
    elif bid is not None and s.special_cards:
        # SPEC §1: a Cloud may yet change the bid by one; the bound takes the widest.
        options = [value for value in (bid - 1, bid, bid + 1) if 0 <= value <= size]
    return (
        greatest + max(_best(value, size, s) for value in options),
        least - max(_worst(value, size, s) for value in options),
    )


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
