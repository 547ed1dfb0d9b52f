"""What happens next at the table: the round to deal or bid, who deals, who bids, what is forbidden."""

from __future__ import annotations

from dataclasses import dataclass

from .scoring import GameResult, bidding_order, dealer_seat, no_trump
from .settings import hand_sizes


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


def next_step(result: GameResult) -> NextStep:
    """The next thing to happen in a scored game (bidding starts at the dealer's left)."""
    if result.finished:
        return NextStep(None, None, None, None, None, None, None, None, None, True, tuple(result.winners))
    players = result.players
    count = len(players)
    in_play = result.rounds[-1] if result.rounds and result.rounds[-1].tricks is None else None
    number = in_play.number if in_play else result.rounds_played + 1
    size = hand_sizes(result.settings, count)[number - 1]
    dealer = dealer_seat(result.first_dealer, number, count)
    order = bidding_order(result.first_dealer, number, count)
    bids = in_play.bids if in_play else (None,) * count
    waiting = [seat for seat in order if bids[seat] is None]
    return NextStep(
        round=number,
        hand_size=size,
        dealer=players[dealer],
        bidding_order=tuple(players[seat] for seat in order),
        bids_in={players[seat]: bids[seat] for seat in order if bids[seat] is not None},
        bid_total=sum(bid for bid in bids if bid is not None),
        next_bidder=players[waiting[0]] if waiting else None,
        no_trump=no_trump(size, count),
        # only while the dealer is the one player still to bid (SPEC §5): null once they have
        forbidden_dealer_bid=in_play.forbidden if in_play and waiting == [dealer] else None,
        finished=False,
    )
