"""The anniversary editions' special cards in one recorded round (SPEC §1, §4): the Bomb and the
Cloud, judged against the round's bids and tricks and the house rules, every problem at once."""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import Problem
from .model import RoundRecord, Sheet
from .scoring import cloud_fits
from .settings import Settings


def special_card_problems(sheet: Sheet, record: RoundRecord, size: int, s: Settings,
                          seated: Sequence[int] | None = None) -> list[Problem]:
    """A round's Bomb and Cloud (SPEC §1, §4): only with ``specialCards: true``; the Bomb only
    with the round's tricks; the Cloud once every bid is in (every ``seated`` player's, when
    given), to a seated player who took a trick, with a changed bid in 0..hand size. (Its
    shape, one listed player and ±1, is the reader's.)"""
    found: list[Problem] = []
    at = lambda message, line, player=None: found.append(  # noqa: E731
        Problem(message, sheet.where, line, record.number, player))
    cloud = record.cloud
    if not s.special_cards:
        if record.bomb:
            at("a Bomb is recorded, but specialCards is off (set specialCards: true for the "
               "anniversary editions' special cards)", record.bomb_line)
        if cloud is not None:
            at("a Cloud is recorded, but specialCards is off (set specialCards: true for the "
               "anniversary editions' special cards)", record.cloud_line, sheet.players[cloud[0]])
        return found
    if record.bomb and record.tricks is None:
        at("the Bomb is recorded with the round's tricks, not before them", record.bomb_line)
    if cloud is None:
        return found
    seat, change = cloud
    name = sheet.players[seat]
    if seated is not None and seat not in seated:
        assert sheet.seating is not None  # a round's seated players are a seated sheet's
        at("the Cloud goes to a player seated in the round, and this player is "
           f"{sheet.seating.why_not_seated(seat, record.number)}", record.cloud_line, name)
        return found
    bid = record.bids[seat]
    bids = record.bids if seated is None else [record.bids[other] for other in seated]
    if record.tricks is None and any(value is None for value in bids):
        at("the Cloud is recorded once every bid of the round is in", record.cloud_line, name)
    elif isinstance(bid, int) and not cloud_fits(bid, change, size):
        at(f"the Cloud changes the bid {bid} to {bid + change}, outside 0..{size} (the hand "
           "size)", record.cloud_line, name)
    if record.tricks is not None and record.tricks[seat] == 0:
        at("the Cloud goes to the player who took its trick, but this player took no trick",
           record.cloud_line, name)
    return found
