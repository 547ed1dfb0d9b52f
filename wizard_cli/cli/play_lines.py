"""What ``play`` says at the table (SPEC §5 "`play`, quick at the table"): a round's opening
line, the bid prompt with the bids so far, and the bids already in when play resumes."""

from __future__ import annotations

from ..errors import visible
from ..game.game import Game


def opening_line(game: Game) -> str:
    """``Round 9 of 20: Ben deals 9`` (``, no trump`` when the whole deck is dealt)."""
    step = game.next_step()
    trump = ", no trump" if step.no_trump else ""
    return (
        f"Round {step.round} of {game.rounds_total}: {visible(step.dealer or '')} deals "
        f"{step.hand_size}{trump}"
    )


def bids_so_far(game: Game) -> str:
    """The round's opening line and the bids already in, in bidding order, as a resumed
    ``play`` shows them: ``Round 3 of 10: Ben deals 3`` / ``Bids so far: Cara 1, Anna 0``."""
    bids = game.bids_in
    shown = ", ".join(
        f"{visible(game.players[seat])} {bids[seat]}"
        for seat in game.bidding_order()
        if seat in bids
    )
    return f"{opening_line(game)}\nBids so far: {shown}"


def bid_prompt(game: Game) -> str:
    """``Ben bids: ``; from the second bidder on with the bids so far, ``Ben bids (3 of 5 so
    far): ``, and the dealer's forbidden bid, ``Ben bids (4 of 5 so far, not 1): ``."""
    seat = game.next_bidder
    assert seat is not None  # asked only while a bid is wanted
    name = visible(game.players[seat])
    bids_in = game.bids_in
    if not bids_in:
        return f"{name} bids: "
    forbidden = game.forbidden_bid
    shown = f", not {forbidden}" if forbidden is not None else ""
    return f"{name} bids ({sum(bids_in.values())} of {game.hand_size()} so far{shown}): "
