"""One validated game that knows where it stands (SPEC §1, §5).

:func:`~wizard_cli.game.validation.check_sheet` makes a :class:`Game` of a sheet with no problem:
its players, effective settings, first dealer and metadata, and the rounds as columns. It is the
one place that knows the round in play, its bidding order, the bids in, who bids next, the bid
the dealer may not make, and the status (finished, who can still win, what happens next).
Scoring (:func:`~wizard_cli.game.scoring.score_game`) takes a Game; views render what it says.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass

from .contenders import contenders
from .model import HoldsSheet, RoundColumns, RoundRecord, Sheet
from .scoring import GameResult, bidding_order, dealer_seat, no_trump, score_game
from .settings import Settings, hand_sizes


@dataclass(frozen=True, eq=False)
class Game(HoldsSheet):
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

    @property
    def bids(self) -> list[int | None]:
        """The current round's bids by seat (None: not in yet; all None before the deal)."""
        in_play = self.in_play
        return list(in_play.bids) if in_play is not None else [None] * len(self.players)

    @property
    def bids_in(self) -> dict[int, int]:
        """The current round's bids so far, seat → bid, in bidding order."""
        bids = self.bids
        return {seat: bids[seat] for seat in self.bidding_order() if bids[seat] is not None}

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


@dataclass(frozen=True, slots=True)
class Status:
    """Where a scored game stands: what score and standings show as ``status``."""

    finished: bool
    rounds_played: int
    rounds_total: int
    winners: tuple[str, ...]
    contenders: tuple[str, ...]
    next: NextStep | None  # None once finished


def next_step(result: GameResult) -> NextStep:
    """The next thing to happen in a scored game (bidding starts at the dealer's left)."""
    game = result.validated
    if game.finished:
        return NextStep(None, None, None, None, None, None, None, None, None, True,
                        tuple(result.winners))
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
        no_trump=no_trump(game.hand_size(), len(players)),
        # only while the dealer is the one player still to bid (SPEC §5): null once they have
        forbidden_dealer_bid=(forbidden[-1] if game.in_play is not None and forbidden
                              and waiting == [dealer] else None),
        finished=False,
    )


def game_status(result: GameResult) -> Status:
    """The ``status`` of a scored game."""
    game = result.validated
    return Status(game.finished, game.rounds_played, game.rounds_total, tuple(result.winners),
                  tuple(contenders(result)), None if game.finished else next_step(result))
