"""One round's recorded values judged (SPEC §4): each bid and tricks value a whole number in
the hand, the tricks adding up to the hand size (one less with the Bomb), and the anniversary
cards' own rules (SPEC §1). Shared by the checks of every sheet and of a sheet with seating
(:mod:`~wizard_cli.game.validation`)."""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import Problem
from .model import BadValue, RoundRecord, Sheet, Value
from .scoring import cloud_fits, tricks_taken
from .settings import DECK_SIZE, Settings

IN_HAND = tuple(frozenset(range(size + 1)) for size in range(DECK_SIZE + 1))  # 0..size


def values_problems(sheet: Sheet, record: RoundRecord, size: int, is_last: bool) -> list[Problem]:
    """Bids and tricks: present where needed, whole, from 0 to the hand size, tricks adding up."""
    tricks = record.tricks
    in_hand = IN_HAND[size]
    taken = tricks_taken(size, record.bomb)
    if (
        tricks is not None
        and in_hand.issuperset(record.bids)
        and in_hand.issuperset(tricks)
        and sum(tricks) == taken  # type: ignore[arg-type]  # (whole numbers: in the hand)
    ):
        return []  # the common case, at once: every value a whole number in the hand, sum right
    found: list[Problem] = []
    at = lambda message, line, player=None: found.append(  # noqa: E731
        Problem(message, sheet.where, line, record.number, player)
    )
    if tricks is None and not is_last:
        at("no tricks recorded, but only the last recorded round may be still in play", record.line)
    no_bids = all(bid is None for bid in record.bids)
    if no_bids and tricks is not None:
        at("tricks with no bids", record.line)
    trick_lines = record.trick_lines or []
    for seat, name in enumerate(sheet.players):
        bid = record.bids[seat]
        if bid is None and not no_bids and not (tricks is None and is_last):
            at("missing bid", record.bid_lines[seat], name)
        check_value(at, "bid", bid, size, record.bid_lines[seat], name)
        if tricks is not None:
            took = tricks[seat]
            if took is None:
                at("missing tricks", trick_lines[seat], name)
            check_value(at, "tricks", took, size, trick_lines[seat], name)
    whole = [took for took in tricks or () if isinstance(took, int)]
    if tricks is not None and len(whole) == len(tricks) and sum(whole) != taken:
        line = record.tricks_line or (trick_lines[0] if len(set(trick_lines)) == 1 else record.line)
        at(tricks_sum_message(sum(whole), size, record.bomb), line)
    return found


def tricks_sum_message(total: int, size: int, bomb: bool) -> str:
    """Tricks that do not add up to the hand size, or with the Bomb to one less (SPEC §4: say
    by how much)."""
    taken = tricks_taken(size, bomb)
    gap = f"{total - taken} more than" if total > taken else f"{taken - total} short of"
    if bomb:
        return (
            f"tricks add up to {total}, {gap} the {taken} of a hand size of {size} with the "
            "Bomb (nobody takes its trick)"
        )
    return f"tricks add up to {total}, {gap} the hand size of {size}"


def special_card_problems(
    sheet: Sheet, record: RoundRecord, size: int, s: Settings, seated: Sequence[int] | None = None
) -> list[Problem]:
    """A round's Bomb and Cloud (SPEC §1, §4): only with ``specialCards: true``; the Bomb only
    with the round's tricks; the Cloud once every bid is in, to a player who took a trick,
    with a changed bid in 0..hand size; in a game with seating (``seated``: the round's seated
    seats), to a player seated in the round, once every seated player's bid is in. (Its
    shape, one listed player and ±1, is the reader's.)"""
    found: list[Problem] = []
    at = lambda message, line, player=None: found.append(  # noqa: E731
        Problem(message, sheet.where, line, record.number, player)
    )
    cloud = record.cloud
    if not s.special_cards:
        if record.bomb:
            at(
                "a Bomb is recorded, but specialCards is off (set specialCards: true for the "
                "anniversary editions' special cards)",
                record.bomb_line,
            )
        if cloud is not None:
            at(
                "a Cloud is recorded, but specialCards is off (set specialCards: true for the "
                "anniversary editions' special cards)",
                record.cloud_line,
                sheet.players[cloud[0]],
            )
        return found
    if record.bomb and record.tricks is None:
        at("the Bomb is recorded with the round's tricks, not before them", record.bomb_line)
    if cloud is None:
        return found
    seat, change = cloud
    name = sheet.players[seat]
    bid = record.bids[seat]
    if seated is not None and sheet.seating is not None and seat not in seated:
        at(
            "the Cloud goes to a player seated in the round, and this player "
            f"{sheet.seating.why_not_seated(seat, record.number)}",
            record.cloud_line,
            name,
        )
        return found
    bids = record.bids if seated is None else [record.bids[other] for other in seated]
    if record.tricks is None and any(value is None for value in bids):
        at("the Cloud is recorded once every bid of the round is in", record.cloud_line, name)
    elif isinstance(bid, int) and not cloud_fits(bid, change, size):
        at(
            f"the Cloud changes the bid {bid} to {bid + change}, outside 0..{size} (the hand size)",
            record.cloud_line,
            name,
        )
    if record.tricks is not None and record.tricks[seat] == 0:
        at(
            "the Cloud goes to the player who took its trick, but this player took no trick",
            record.cloud_line,
            name,
        )
    return found


def check_value(at, what: str, value: Value, size: int, line: int | None, name: str) -> None:
    """One bid or tricks value: a whole number from 0 to the hand size."""
    if isinstance(value, BadValue):
        if not value.quiet:
            at(f"{what} '{value.text}' {value.why or 'is not a whole number'}", line, name)
    elif value is not None and value < 0:
        at(f"{what} {value} is negative", line, name)
    elif value is not None and value > size:
        at(f"{what} {value} is more than the hand size of {size}", line, name)
