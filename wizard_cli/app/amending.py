"""Fixing what a sheet records (``wizard edit``) and taking back the latest step (``wizard undo``,
and ``wizard play``'s undo of one bid).

Like ``add`` (``recording``), each change is made to the text in place, read back, and the whole
sheet validated before anything is written: an edit that makes a later round break a rule (a
dealer bid under ``leaderOnly`` once the lead has changed) is refused with every problem.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from ..errors import Problem, WizardError
from ..game.settings import RawSetting
from ..game.validation import Checked
from ..sheets import amending
from .recording import (Recorded, bidding_seats, change_file, checked_change, checked_last,
                        parse_values)


def edit_file(path: str, encoding: str | None, layers: Sequence[Iterable[RawSetting]],
              first_dealer: str | None, number: int, bids: str | None, tricks: str | None,
              in_order: bool = False) -> Recorded:
    """``wizard edit``: change round ``number``'s values in a sheet file, in place if valid."""
    return change_file(path, encoding, lambda text, source: amend(
        text, source, layers, first_dealer, number, bids, tricks, in_order), "edit")


def undo_file(path: str, encoding: str | None, layers: Sequence[Iterable[RawSetting]] = (),
              first_dealer: str | None = None) -> Recorded:
    """``wizard undo``: take back a sheet file's latest step, in place."""
    return change_file(path, encoding, lambda text, source: take_back(
        text, source, layers, first_dealer), "undo")


def amend(text: str, source: str, layers: Sequence[Iterable[RawSetting]] = (),
          first_dealer: str | None = None, number: int = 0, bids: str | None = None,
          tricks: str | None = None, in_order: bool = False) -> Recorded:
    """Change values already recorded in round ``number`` (``--bids``/``--tricks`` as for add)."""
    checked = checked_last(text, source, layers, first_dealer)
    sheet = checked.sheet
    players = sheet.players
    recorded = len(sheet.rounds)
    if not 1 <= number <= recorded:
        where = (f"the sheet records rounds 1 to {recorded}" if recorded > 1 else
                 "the sheet records round 1 only" if recorded else "no round is recorded yet")
        raise WizardError(Problem(f"round {number}: no such round to edit ({where}; record a "
                                  "new one with wizard add)", source))
    record = sheet.rounds[number - 1]
    order = bidding_seats(checked, number) if in_order else None
    new_bids = parse_values(bids, players, "bids", order) if bids is not None else {}
    new_tricks = parse_values(tricks, players, "tricks", order) if tricks is not None else {}
    for seat in new_bids:
        if record.bids[seat] is None:
            raise WizardError(Problem("has not bid yet: record a new bid with wizard add --bids",
                                      source, None, number, players[seat]))
    if new_tricks and record.tricks is None:
        raise WizardError(Problem("no tricks recorded yet: record them with wizard add --tricks",
                                  source, None, number))
    changed_bids = {s: v for s, v in new_bids.items() if record.bids[s] != v}
    changed_tricks = {s: v for s, v in new_tricks.items() if record.tricks[s] != v}
    if not changed_bids and not changed_tricks:
        return Recorded(text, checked)
    edited = text
    if changed_bids:
        edited = amending.set_values(edited, number, "bids", players, changed_bids)
    if changed_tricks:
        edited = amending.set_values(edited, number, "tricks", players, changed_tricks)
    rounds = _rounds(checked)
    bids_now, tricks_now, points = rounds[number - 1]
    rounds[number - 1] = ([changed_bids.get(s, v) for s, v in enumerate(bids_now)],
                          None if tricks_now is None else
                          [changed_tricks.get(s, v) for s, v in enumerate(tricks_now)], points)
    return Recorded(edited, checked_change(text, edited, checked, layers, first_dealer, rounds))


def take_back(text: str, source: str, layers: Sequence[Iterable[RawSetting]] = (),
              first_dealer: str | None = None) -> Recorded:
    """Remove the round in play with its bids, or else the last round's tricks; the note says
    what was removed."""
    checked = checked_last(text, source, layers, first_dealer)
    sheet = checked.sheet
    if not sheet.rounds:
        raise WizardError(Problem("nothing to undo: no round is recorded yet", source))
    last = sheet.rounds[-1]
    rounds = _rounds(checked)
    if last.tricks is None:
        edited = amending.remove_last_round(text)
        rounds.pop()
        given = ", ".join(f"{sheet.players[s]} {last.bids[s]}"
                          for s in bidding_seats(checked, last.number) if last.bids[s] is not None)
        what = (f"removed the round in play with its bids ({given})" if given
                else "removed the round in play (no bid was in)")
    else:
        edited = amending.remove_tricks(text)
        rounds[-1] = (rounds[-1][0], None, rounds[-1][2])
        taken = ", ".join(f"{name} {took}" for name, took in zip(sheet.players, last.tricks))
        what = f"removed its tricks ({taken}): the round is in play again"
    after = checked_change(text, edited, checked, layers, first_dealer, rounds)
    return Recorded(edited, after, Problem(what, source, None, last.number))


def take_back_bid(text: str, source: str, seat: int, layers: Sequence[Iterable[RawSetting]] = (),
                  first_dealer: str | None = None) -> Recorded:
    """Remove one player's bid from the round in play; a round left with no bid is removed."""
    checked = checked_last(text, source, layers, first_dealer)
    sheet = checked.sheet
    last = sheet.rounds[-1] if sheet.rounds else None
    if last is None or last.tricks is not None or last.bids[seat] is None:
        raise WizardError(Problem(f"{sheet.players[seat]} has no bid in play to take back", source))
    rounds = _rounds(checked)
    if sum(bid is not None for bid in last.bids) == 1:
        edited = amending.remove_last_round(text)
        rounds.pop()
    else:
        edited = amending.remove_bid(text, sheet.players, seat)
        rounds[-1] = ([None if s == seat else bid for s, bid in enumerate(last.bids)], None,
                      rounds[-1][2])
    after = checked_change(text, edited, checked, layers, first_dealer, rounds)
    return Recorded(edited, after, Problem(f"took back {sheet.players[seat]}'s bid of "
                                           f"{last.bids[seat]}", source, None, last.number))


def _rounds(checked: Checked) -> list[tuple]:
    """Every round's (bids, tricks, points), as ``checked_change`` compares them."""
    return [(list(r.bids), None if r.tricks is None else list(r.tricks), r.points)
            for r in checked.sheet.rounds]

