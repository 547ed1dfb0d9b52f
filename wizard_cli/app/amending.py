"""Fixing what a sheet records (``wizard edit``) and taking back the latest step (``wizard undo``,
and ``wizard play``'s undo of one bid).

Like ``add`` (``recording``), each change is made to the text in place, read back, and the whole
sheet validated before anything is written: an edit that makes a later round break a rule (a
dealer bid under ``leaderOnly`` once the lead has changed) is refused with every problem.
"""

from __future__ import annotations

import dataclasses

from ..editing import round_edits as editing
from ..editing.spliced import Text
from ..errors import Problem, WizardError, name_list
from ..game.game import Game
from ..game.model import RoundRecord
from .batch import SheetRules
from .recording import (
    Recorded,
    SheetText,
    bare_round,
    change_file,
    checked_change,
    cloud_text,
    expected_rounds,
    with_specials,
)
from .round_seating import moved, seat_moves, seats_checked
from .seat_changes import seat_to_take_back, take_back_seat
from .typed_values import parse_cloud, parse_values


def edit_file(
    path: str,
    rules: SheetRules,
    number: int,
    bids: str | None,
    tricks: str | None,
    in_order: bool = False,
    bomb: bool | None = None,
    cloud: str | None = None,
    no_cloud: bool = False,
    out: str | None = None,
    seated: str | None = None,
) -> Recorded:
    """``wizard edit``: change round ``number``'s values in a sheet file, in place if valid;
    ``bomb`` True/False sets or takes away its Bomb, ``cloud``/``no_cloud`` its Cloud;
    ``out``/``seated`` (names) who sits it out (SPEC §5)."""
    return change_file(
        path,
        lambda current: amend(
            current, number, bids, tricks, in_order, bomb, cloud, no_cloud, out, seated
        ),
        "edit",
        rules,
        repair=True,
    )


def undo_file(path: str, rules: SheetRules = SheetRules()) -> Recorded:
    """``wizard undo``: take back a sheet file's latest step, in place."""
    return change_file(path, take_back, "undo", rules, repair=True)


def amend(
    current: SheetText,
    number: int = 0,
    bids: str | None = None,
    tricks: str | None = None,
    in_order: bool = False,
    bomb: bool | None = None,
    cloud: str | None = None,
    no_cloud: bool = False,
    out: str | None = None,
    seated: str | None = None,
) -> Recorded:
    """Change values already recorded in round ``number`` (``--bids``/``--tricks`` as for add);
    ``out`` takes players' values out of the round and sits them out, ``seated`` seats players
    sitting it out with the values ``--bids``/``--tricks`` give them (SPEC §5)."""
    game, source, text = current.game, current.source, current.text
    players = game.players
    recorded = len(game.rounds)
    if not 1 <= number <= recorded:
        where = (
            f"the sheet records rounds 1 to {recorded}"
            if recorded > 1
            else "the sheet records round 1 only"
            if recorded
            else "no round is recorded yet"
        )
        raise WizardError(
            Problem(
                f"round {number}: no such round to edit ({where}; record a "
                "new one with wizard add)",
                source,
            )
        )
    record = game.rounds[number - 1]
    order = game.bidding_order(number) if in_order else None
    new_bids = parse_values(bids, players, "bids", order) if bids is not None else {}
    new_tricks = parse_values(tricks, players, "tricks", order) if tricks is not None else {}
    moves = None
    if out is not None or seated is not None:
        moves = seat_moves(game, number, out, seated, new_bids, new_tricks)
        new_bids = {s: v for s, v in new_bids.items() if s not in moves.seated}
        new_tricks = {s: v for s, v in new_tricks.items() if s not in moves.seated}
    for seat in new_bids:
        if record.bids[seat] is None:
            raise WizardError(
                Problem(
                    "has not bid yet: record a new bid with wizard add --bids",
                    source,
                    None,
                    number,
                    players[seat],
                )
            )
    if new_tricks and record.tricks is None:
        raise WizardError(
            Problem(
                "no tricks recorded yet: record them with wizard add --tricks", source, None, number
            )
        )
    old_tricks = record.tricks or ()  # (none given for a round without them: refused above)
    changed_bids = {s: v for s, v in new_bids.items() if record.bids[s] != v}
    changed_tricks = {s: v for s, v in new_tricks.items() if old_tricks[s] != v}
    new_bomb = record.bomb if bomb is None else bomb
    new_cloud = (
        None if no_cloud else parse_cloud(cloud, players) if cloud is not None else record.cloud
    )
    specials = (new_bomb, new_cloud) != (record.bomb, record.cloud)
    if not changed_bids and not changed_tricks and not specials and not moves:
        return Recorded(current)
    edited = text
    names, places = _seated_places(game, number)
    if changed_bids:
        edited = editing.set_values(
            edited, number, "bids", names, places(changed_bids), _line(game)
        )
    if changed_tricks:
        edited = editing.set_values(
            edited, number, "tricks", names, places(changed_tricks), _line(game)
        )
    changes = tuple(
        Problem(f"{label} {old[seat]} → {new[seat]}", source, None, number, players[seat])
        for label, old, new in (
            ("bid", record.bids, changed_bids),
            ("tricks", old_tricks, changed_tricks),
        )
        for seat in sorted(new)
    )
    rounds = expected_rounds(game)
    now = rounds[number - 1]
    after = with_specials(
        bare_round(
            number,
            [changed_bids.get(s, v) for s, v in enumerate(now.bids)],
            None
            if now.tricks is None
            else [changed_tricks.get(s, v) for s, v in enumerate(now.tricks)],
            now.points,
        ),
        new_bomb,
        new_cloud,
    )
    if moves:
        edited, after, said = moved(game, edited, after, moves)
        changes += said
    if specials:
        edited, said = _amend_specials(game, edited, record, new_bomb, new_cloud)
        changes += said
    rounds[number - 1] = after
    checked = checked_change(current, edited, rounds)
    if moves:
        seats_checked(current, checked, number, moves)
    return Recorded(checked, changes=changes)


def _line(game: Game) -> int:
    """The line the sheet's mapping starts on, where an edit of its text looks (a YAML sheet,
    the only kind edited in place, always has one; 1, the editor's default, is the whole text)."""
    return game.sheet.line or 1


def _seated_places(game: Game, number: int):
    """The names a round's values are written for (its seated players, in seating order, in a
    sheet with seating: a list holds theirs only) and seat → value made place → value."""
    seating = game.sheet.seating
    if seating is None:
        return list(game.players), lambda values: dict(values)
    seats = seating.seated(number)
    return (
        [game.players[seat] for seat in seats],
        lambda values: {seats.index(seat): value for seat, value in values.items()},
    )


def _amend_specials(
    game: Game, edited: Text, record: RoundRecord, bomb: bool, cloud: tuple[int, int] | None
) -> tuple[Text, tuple[Problem, ...]]:
    """``edit --bomb/--no-bomb``, ``--cloud NAME=±1``/``--no-cloud`` (SPEC §5): the text
    changed, and a line for each change (``round 2: bomb false → true``)."""
    number, line, source = record.number, _line(game), game.source
    said = []
    if bomb != record.bomb:
        edited = editing.set_round_key(edited, number, "bomb", "true" if bomb else None, line)
        said.append(
            Problem(f"bomb {str(record.bomb).lower()} → {str(bomb).lower()}", source, None, number)
        )
    if cloud != record.cloud:
        shown = lambda c: "none" if c is None else f"{game.players[c[0]]} {c[1]:+d}"  # noqa: E731
        edited = editing.set_round_key(
            edited,
            number,
            "cloud",
            None if cloud is None else cloud_text(game.players, cloud),
            line,
        )
        said.append(Problem(f"cloud {shown(record.cloud)} → {shown(cloud)}", source, None, number))
    return edited, tuple(said)


def take_back(current: SheetText) -> Recorded:
    """Remove the round in play with its bids, or else the last round's tricks; the note says
    what was removed."""
    game, source, text = current.game, current.source, current.text
    seat_taken_back = take_back_seat(current)  # a join or a leave, the last step (SPEC §5)
    if seat_taken_back is not None:
        return seat_taken_back
    if not game.rounds:
        raise WizardError(Problem("nothing to undo: no round is recorded yet", source))
    rounds = expected_rounds(game)
    in_play = game.in_play
    if in_play is not None and in_play.cloud is not None:
        return _take_back_cloud(current)
    if in_play is not None:
        edited = editing.remove_last_round(text, _line(game))
        rounds.pop()
        given = ", ".join(
            f"{game.players[s]} {in_play.bids[s]}"
            for s in game.bidding_order()
            if in_play.bids[s] is not None
        )
        what = (
            f"removed the round in play with its bids ({given})"
            if given
            else "removed the round in play (no bid was in)"
        ) + _sitting_out(game, in_play.number)
        number = in_play.number
    else:
        last = rounds[-1]
        assert last.tricks is not None  # rounds recorded, none in play: the last is complete
        edited = editing.remove_tricks(text, _line(game))
        rounds[-1] = bare_round(last.number, last.bids, None, last.points)
        taken = ", ".join(
            f"{name} {took}" for name, took in zip(game.players, last.tricks) if took is not None
        )  # the seated players' (SPEC §1)
        what = f"removed its tricks ({taken}): the round is in play again"
        number = last.number
        if last.bomb or last.cloud is not None:
            edited, what = _take_back_specials(game, edited, rounds, what)
    after = checked_change(current, edited, rounds)
    return Recorded(after, Problem(what, source, None, number))


def _take_back_specials(
    game: Game, edited: Text, rounds: list[RoundRecord], what: str
) -> tuple[Text, str]:
    """The Bomb and the Cloud given with a round's tricks go with them (SPEC §5); a Cloud
    recorded on its own before the tricks (it stands before them) stays in the round in play."""
    record = game.rounds[-1]
    number = record.number
    if record.bomb:
        edited = editing.set_round_key(edited, number, "bomb", None, _line(game))
        what += ", and the Bomb"
    cloud = record.cloud
    if cloud is not None and (record.cloud_line or 0) >= (record.tricks_line or 0):
        edited = editing.set_round_key(edited, number, "cloud", None, _line(game))
        what += f", and the Cloud ({game.players[cloud[0]]} {cloud[1]:+d})"
        cloud = None
    rounds[-1] = with_specials(rounds[-1], False, cloud)
    return edited, what


def _take_back_cloud(current: SheetText) -> Recorded:
    """Take back a Cloud recorded on its own in the round in play (SPEC §5: ``undo``)."""
    game = current.game
    record = game.in_play
    assert record is not None and record.cloud is not None  # (as both callers have found)
    edited = editing.set_round_key(current.text, record.number, "cloud", None, _line(game))
    rounds = expected_rounds(game)
    rounds[-1] = with_specials(
        bare_round(record.number, record.bids, None, rounds[-1].points), record.bomb, None
    )
    seat, change = record.cloud
    return Recorded(
        checked_change(current, edited, rounds),
        Problem(
            f"removed the Cloud ({game.players[seat]} {change:+d})",
            current.source,
            None,
            record.number,
        ),
    )


def take_back_bid(current: SheetText, seat: int) -> Recorded:
    """Remove one player's bid from the round in play; a round left with no bid is removed."""
    game, source, text = current.game, current.source, current.text
    in_play = game.in_play
    if in_play is None or in_play.bids[seat] is None:
        raise WizardError(Problem(f"{game.players[seat]} has no bid in play to take back", source))
    rounds = expected_rounds(game)
    removed = ""
    if sum(bid is not None for bid in in_play.bids) == 1:
        edited = editing.remove_last_round(text, _line(game))
        rounds.pop()
        removed = _sitting_out(game, in_play.number)  # the round's out goes with it
    else:
        names, places = _seated_places(game, in_play.number)  # a list holds the seated's
        (place,) = places({seat: 0})
        edited = editing.remove_bid(text, names, place, _line(game))
        rounds[-1] = dataclasses.replace(
            rounds[-1], bids=[None if s == seat else bid for s, bid in enumerate(in_play.bids)]
        )
    after = checked_change(current, edited, rounds)
    return Recorded(
        after,
        Problem(
            f"took back {game.players[seat]}'s bid of {in_play.bids[seat]}{removed}",
            source,
            None,
            in_play.number,
        ),
    )


def _sitting_out(game: Game, number: int) -> str:
    """`` and Dan sitting it out``: the round's ``out``, taken back with the round (SPEC §5:
    undo says what it removed); empty when nobody sits it out."""
    seating = game.sheet.seating
    out = sorted(seating.out.get(number, ())) if seating is not None else []
    return f" and {name_list([game.players[seat] for seat in out])} sitting it out" if out else ""


def latest_entry(game: Game) -> tuple[int, int | None] | None:
    """Where the last value written stands, as ``play``'s undo and the entry page's see it:
    (round, seat) for the round in play's latest bid in bidding order, (round, None) for the
    last round's tricks (or a round in play with no bid yet); None when nothing is recorded."""
    seat = seat_to_take_back(game)
    if seat is not None:  # a join or a leave, the last step (SPEC §5): in the round to come
        return game.current_round, None
    if not game.rounds:
        return None
    given = list(game.bids_in)
    in_play = game.in_play
    if given and in_play is not None:  # (bids are in only in a round in play)
        return in_play.number, given[-1]
    return game.rounds[-1].number, None


def take_back_latest(current: SheetText) -> Recorded:
    """Take back the last value written: the round in play's latest bid, else the last round's
    tricks (``play``'s undo, and the entry page's)."""
    latest = latest_entry(current.game)
    in_play = current.game.in_play
    if in_play is not None and in_play.cloud is not None:  # the Cloud came after every bid
        return _take_back_cloud(current)
    if latest is None:
        raise WizardError(Problem("nothing to undo: no round is recorded yet", current.source))
    if seat_to_take_back(current.game) is not None:
        return take_back(current)
    if latest[1] is not None:
        return take_back_bid(current, latest[1])
    return take_back(current)
