"""Recording a round at the table (``wizard add``), and the one way a sheet is changed.

Bids come first (all at once, a few players at a time, or in the order they are called out),
then the tricks complete the round. The edited text is read back and validated whole, with the
same rules as ``wizard check``, before anything is written; a round that breaks a rule is the
usual located error and no edit. :func:`change_file` is the read-change-check-write that
``add``, ``edit``, ``undo`` and ``play`` all go through.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Callable, Iterable, Mapping, Sequence

from ..sheets import editing
from ..errors import Problem, WizardError, name_list
from ..game.model import BadValue, RoundRecord, Sheet
from ..sheets.yaml_sheets import read_yaml_sheets
from ..sheets.cells import whole_number
from ..game.scoring import GameResult, bidding_order, score_game
from ..game.settings import RawSetting, suggest
from ..game.validation import Checked, check_sheet

NOT_YET = ("", "-")  # in a seating-order list: this player has not bid yet


@dataclass(frozen=True, slots=True)
class Recorded:
    """The sheet's new text and the changed game, validated; ``note`` says what was done
    (``undo`` reports what it removed)."""

    text: str
    checked: Checked
    note: Problem | None = None

    def result(self) -> GameResult:
        """The changed game, scored."""
        return score_game(self.checked.sheet, self.checked.settings, self.checked.first_dealer)


Change = Callable[[str, str], Recorded]  # (the sheet's text, its name) → the changed text, checked


def record(text: str, source: str, layers: Sequence[Iterable[RawSetting]] = (),
           first_dealer: str | None = None, bids: str | None = None,
           tricks: str | None = None, in_order: bool = False) -> Recorded:
    """Add ``--bids`` and/or ``--tricks`` to the last game in a YAML sheet's text (``in_order``:
    a list gives the values in bidding order, from the dealer's left)."""
    checked = checked_last(text, source, layers, first_dealer)
    players = checked.sheet.players
    try:
        if bids is not None:
            order = bidding_seats(checked, _next_number(checked)) if in_order else None
            recorded = record_values(text, checked, layers, first_dealer,
                                     bids=parse_values(bids, players, "bids", order))
            text, checked = recorded.text, recorded.checked
        if tricks is not None:
            order = bidding_seats(checked, _next_number(checked)) if in_order else None
            recorded = record_values(text, checked, layers, first_dealer,
                                     tricks=parse_values(tricks, players, "tricks", order))
            text, checked = recorded.text, recorded.checked
    except WizardError as error:  # an edit that could not be made: placed in the sheet
        raise located(error, source) from None
    return Recorded(text, checked)


def located(error: WizardError, source: str) -> WizardError:
    """The error with its problems placed in the sheet (a mistake in --bids/--tricks themselves
    is the command line's, and stays unplaced): every message is one located line."""
    return WizardError(*(problem if problem.path or problem.message.startswith("--")
                         else dataclasses.replace(problem, path=source)
                         for problem in error.problems))


def record_values(text: str, checked: Checked, layers: Sequence[Iterable[RawSetting]],
                  first_dealer: str | None, bids: Mapping[int, int] | None = None,
                  tricks: Mapping[int, int] | None = None) -> Recorded:
    """Add bids (seat → bid) or a round's tricks to a sheet's text, whose ``checked`` is given."""
    rounds = [(r.bids, r.tricks, r.points) for r in checked.sheet.rounds]
    count = len(checked.sheet.players)
    if bids is not None:
        edited = _with_bids(text, checked, bids)
        if rounds and rounds[-1][1] is None:
            old = rounds.pop()
            rounds.append(([bids.get(s, old[0][s]) for s in range(count)], None, old[2]))
        else:
            rounds.append(([bids.get(s) for s in range(count)], None, None))
    else:
        edited = _with_tricks(text, checked, tricks)
        old = rounds.pop()
        rounds.append((old[0], [tricks[s] for s in range(count)], old[2]))
    if edited == text:
        return Recorded(text, checked)
    return Recorded(edited, checked_change(text, edited, checked, layers, first_dealer, rounds))


def record_in_file(path: str, encoding: str | None, layers: Sequence[Iterable[RawSetting]] = (),
                   first_dealer: str | None = None, bids: str | None = None,
                   tricks: str | None = None, in_order: bool = False) -> Recorded:
    """Record bids and/or tricks in a YAML sheet file in place; written only if all is valid."""
    return change_file(path, encoding, lambda text, source: record(
        text, source, layers, first_dealer, bids, tricks, in_order), "add")


def change_file(path: str, encoding: str | None, change: Change, command: str = "add") -> Recorded:
    """Read a YAML sheet file, change its text, and write it back in place if the change is
    valid: the one way every command that changes a sheet (add, edit, undo, play) writes it.

    Through :func:`~wizard_cli.sheets.atomic.update_in_place` (SPEC §7): locked against a second
    writer for the whole read-check-write, atomic, keeping the file's encoding, byte-order mark,
    line ends, mode and owner; a read-only sheet is refused.
    """
    from ..sheets.atomic import update_in_place
    from ..sheets.source import display_name, read_sheets

    source = display_name(path)
    done: list[Recorded] = []

    def edit(text: str) -> str:
        if any(found.kind != "yaml" for found in read_sheets(path, None, encoding)):
            raise WizardError(Problem(f"{command} edits YAML sheets only; make one from this CSV "
                                      f"with `wizard convert {path} --to yaml -o NEW.yaml`", source))
        done.append(change(text, source))
        return done[-1].text

    update_in_place(path, edit, encoding)
    return done[-1]


def checked_last(text: str, source: str, layers: Sequence[Iterable[RawSetting]],
                 first_dealer: str | None) -> Checked:
    """The last sheet of the text, validated; every problem raised as the usual error."""
    sheets = list(read_yaml_sheets(text, source))
    checked = check_sheet(sheets[-1], layers, first_dealer)
    if checked.problems:
        raise WizardError(*checked.problems)
    return checked


def bidding_seats(checked: Checked, number: int) -> list[int]:
    """The seats in round ``number``'s bidding order: from the dealer's left, the dealer last."""
    return bidding_order(checked.first_dealer, number, len(checked.sheet.players))


def _next_number(checked: Checked) -> int:
    """The round bids or tricks go to now: the one in play, else the next."""
    rounds = checked.sheet.rounds
    return len(rounds) if rounds and rounds[-1].tricks is None else len(rounds) + 1


# --- the values on the command line ------------------------------------------------------

def parse_values(text: str, players: Sequence[str], what: str,
                 order: Sequence[int] | None = None) -> dict[int, int]:
    """``1,0,2,1`` in seating order (``-`` or nothing: not yet), or ``Anna=1,Ben=0``: seat → value.

    With ``order`` (the seats in bidding order, ``--bidding-order``) a list is in that order, and
    a shorter one gives the first bidders' values."""
    parts = [part.strip() for part in text.split(",")]
    option = f"--{what}"
    named = [part for part in parts if "=" in part]
    if named and len(named) != len([p for p in parts if p]):
        raise WizardError(Problem(f"{option} {text}: give every value by name (Anna=1,Ben=0) or "
                                  "none (1,0,2 in seating order), not a mix"))
    values: dict[int, int] = {}
    if named:
        for part in named:
            name, _, value = part.rpartition("=")
            seat = _seat(name.strip(), players, option)
            if seat in values:
                raise WizardError(Problem(f"{option}: {players[seat]} is given twice"))
            values[seat] = _number(value, option, players[seat])
    elif order is not None:
        if len(parts) > len(players):
            raise WizardError(Problem(
                f"{option} {text}: {len(parts)} values for {len(players)} players (in bidding "
                f"order: {', '.join(players[seat] for seat in order)})"))
        values = {order[index]: _number(part, option, players[order[index]])
                  for index, part in enumerate(parts) if part not in NOT_YET}
    else:
        if len(parts) != len(players):
            raise WizardError(Problem(
                f"{option} {text}: {len(parts)} values for {len(players)} players (one per player "
                f"in seating order: {', '.join(players)}; or by name, e.g. {players[0]}=1)"))
        values = {seat: _number(part, option, players[seat])
                  for seat, part in enumerate(parts) if part not in NOT_YET}
    if not values:
        raise WizardError(Problem(f"{option} {text}: no values given"))
    return values


def _seat(name: str, players: Sequence[str], option: str) -> int:
    """A player's seat from a name as typed: exact, else the one name equal ignoring case and
    surrounding spaces."""
    if name in players:
        return players.index(name)
    folded = [seat for seat, player in enumerate(players)
              if player.strip().casefold() == name.strip().casefold()]
    if len(folded) == 1:
        return folded[0]
    raise WizardError(Problem(f"{option}: unknown player '{name}'{suggest(name, players)} "
                              f"(players: {', '.join(players)})"))


def _number(text: str, option: str, player: str) -> int:
    """A whole number typed on the command line (range is checked with the whole sheet)."""
    value = whole_number(text)
    if value is None or isinstance(value, BadValue):
        raise WizardError(Problem(f"{option}: {player}'s '{text.strip()}' is not a whole number"))
    return value


# --- what to add -------------------------------------------------------------------------

def _state_error(checked: Checked, message: str, number: int | None = None,
                 player: str | None = None) -> WizardError:
    """Why nothing can be added now, placed in the sheet."""
    return WizardError(Problem(message, checked.source, None, number, player))


def _round_in_play(checked: Checked, over: str = "") -> RoundRecord | None:
    """The round still in play (None if the last one is complete); a finished game refuses."""
    sheet = checked.sheet
    result = score_game(sheet, checked.settings, checked.first_dealer)
    if result.finished:
        raise _state_error(checked, f"the game is over: all {result.rounds_total} rounds are "
                                    f"recorded{over}")
    return sheet.rounds[-1] if sheet.rounds and sheet.rounds[-1].tricks is None else None


def _with_bids(text: str, checked: Checked, values: Mapping[int, int]) -> str:
    """Start the next round with these bids, or fill in bids of the round in play."""
    players = checked.sheet.players
    in_play = _round_in_play(checked, ", so there is no round to bid")
    number = in_play.number if in_play else len(checked.sheet.rounds) + 1
    known = in_play.bids if in_play else [None] * len(players)
    if in_play is not None and all(bid is not None for bid in known):
        raise _state_error(checked, "every bid is in: record the tricks with --tricks", number)
    for seat, bid in values.items():
        if known[seat] is not None and known[seat] != bid:
            raise _state_error(checked, f"has already bid {known[seat]} (change a recorded bid "
                                        f"with wizard edit --round {number})", number, players[seat])
    if checked.settings.bidding == "open":
        _in_turn(checked, number, known, values)
    if in_play is None:
        return editing.start_round(text, players, [values.get(s) for s in range(len(players))])
    new = {seat: bid for seat, bid in values.items() if known[seat] is None}
    return editing.fill_bids(text, players, new) if new else text


def _in_turn(checked: Checked, number: int, known: Sequence, values: Mapping[int, int]) -> None:
    """Open bids are called out in turn (SPEC §5): no bid while an earlier bidder has not bid,
    in the sheet or in the same command."""
    players = checked.sheet.players
    order = bidding_seats(checked, number)
    given = {seat for seat in order if known[seat] is not None or seat in values}
    for position, seat in enumerate(order):
        if seat in given:
            continue
        late = next((s for s in order[position + 1:] if s in values and known[s] is None), None)
        if late is not None:
            raise _state_error(checked, f"{players[seat]} bids first (bidding order: "
                                        f"{', '.join(players[s] for s in order)})",
                               number, players[late])
        return


def _with_tricks(text: str, checked: Checked, values: Mapping[int, int]) -> str:
    """Complete the round in play with every player's tricks."""
    sheet = checked.sheet
    players = sheet.players
    in_play = _round_in_play(checked)
    if in_play is None:
        raise _state_error(checked, "no round in play: record its bids first with --bids",
                           len(sheet.rounds) + 1)
    waiting = [players[s] for s, bid in enumerate(in_play.bids) if bid is None]
    if waiting:
        raise _state_error(checked, f"still waiting for the bids of {name_list(waiting)}: record "
                                    "them with --bids first", in_play.number)
    missing = [players[s] for s in range(len(players)) if s not in values]
    if missing:
        raise _state_error(checked, f"the tricks of every player complete a round; missing: "
                                    f"{name_list(missing)}", in_play.number)
    return editing.add_tricks(text, players, [values[s] for s in range(len(players))])


# --- after the change --------------------------------------------------------------------

UNSAFE = ("could not edit the sheet safely (its layout is unusual): nothing was written; "
          "change it by hand")


def checked_change(old_text: str, text: str, before: Checked,
                   layers: Sequence[Iterable[RawSetting]], first_dealer: str | None,
                   rounds: list[tuple]) -> Checked:
    """Read the changed text back and validate it: it must hold exactly the ``rounds`` expected
    ((bids, tricks, points) each) and everything else as before, or nothing is written (an
    edit that went wrong is said to be one, not reported as problems of the user's sheet)."""
    sheets = list(read_yaml_sheets(text, before.source))
    earlier = lambda found: [_essence(sheet) for sheet in found[:-1]]  # noqa: E731
    expected = _essence(before.sheet)[:4] + (rounds, True)
    if (not sheets or _essence(sheets[-1]) != expected
            or earlier(sheets) != earlier(list(read_yaml_sheets(old_text, before.source)))):
        raise WizardError(Problem(UNSAFE, before.source))
    checked = check_sheet(sheets[-1], layers, first_dealer)
    if checked.problems:
        raise WizardError(*checked.problems)
    return checked


def _essence(sheet: Sheet) -> tuple:
    """A sheet's content without line numbers (the rounds next to last, as ``checked_change``
    compares them)."""
    return ((sheet.title, sheet.game, sheet.date, sheet.place, sheet.notes), sheet.players,
            sheet.first_dealer, [(raw.key, raw.value) for raw in sheet.settings],
            [(r.bids, r.tricks, r.points) for r in sheet.rounds], sheet.problems == [])
