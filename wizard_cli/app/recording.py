"""Recording a round at the table (``wizard add``): decide what to add, edit, check it all.

Bids come first (all at once, or a few players at a time), then the tricks complete the round.
The edited text is read and validated whole, with the same rules as ``wizard check``, before the
caller writes anything; a round that breaks a rule is the usual located error and no edit.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass
from typing import Iterable, Sequence

from ..sheets import editing
from ..errors import Problem, WizardError, name_list
from ..game.model import BadValue, RoundRecord, Sheet
from ..sheets.yaml_sheets import read_yaml_sheets
from ..sheets.cells import whole_number
from ..game.scoring import score_game
from ..game.settings import RawSetting, suggest
from ..game.validation import Checked, check_sheet

NOT_YET = ("", "-")  # in a seating-order list: this player has not bid yet


@dataclass(frozen=True, slots=True)
class Recorded:
    """The sheet's new text and the edited game, validated."""

    text: str
    checked: Checked


def record(text: str, source: str, layers: Sequence[Iterable[RawSetting]] = (),
           first_dealer: str | None = None, bids: str | None = None,
           tricks: str | None = None) -> Recorded:
    """Add ``--bids`` and/or ``--tricks`` to the last game in a YAML sheet's text."""
    checked = checked_last(text, source, layers, first_dealer)
    if bids is not None:
        values = parse_values(bids, checked.sheet.players, "bids")
        edited = _with_bids(text, checked, values)
        text, checked = edited, _checked_edit(text, edited, checked, layers, first_dealer)
        _landed(checked, checked.sheet.rounds[-1].bids, values)
    if tricks is not None:
        values = parse_values(tricks, checked.sheet.players, "tricks")
        edited = _with_tricks(text, checked, values)
        text, checked = edited, _checked_edit(text, edited, checked, layers, first_dealer)
        _landed(checked, checked.sheet.rounds[-1].tricks, values)
    return Recorded(text, checked)


def record_in_file(path: str, encoding: str | None, layers: Sequence[Iterable[RawSetting]] = (),
                   first_dealer: str | None = None, bids: str | None = None,
                   tricks: str | None = None) -> Checked:
    """Record bids and/or tricks in a YAML sheet file in place; written only if all is valid.

    The file keeps its encoding and byte-order mark; the write is atomic (``files``).
    """
    from ..sheets.atomic import write_atomically
    from ..sheets.source import display_name, open_binary, read_sheets, text_encoding

    source = display_name(path)
    if any(found.kind != "yaml" for found in read_sheets(path, None, encoding)):
        raise WizardError(Problem("add edits YAML sheets only; make one from this CSV with "
                                  f"`wizard convert {path} --to yaml -o NEW.yaml`", source))
    with open_binary(path) as handle:
        raw = handle.read()
    codec = text_encoding(encoding)
    bom = codecs.BOM_UTF8 if codec == "utf-8-sig" and raw.startswith(codecs.BOM_UTF8) else b""
    text = raw.decode(codec)
    recorded = record(text, source, layers, first_dealer, bids, tricks)
    if recorded.text != text:
        write_atomically(path, bom + recorded.text.encode("utf-8" if codec == "utf-8-sig" else codec),
                         force=True)
    return recorded.checked


def checked_last(text: str, source: str, layers: Sequence[Iterable[RawSetting]],
                 first_dealer: str | None) -> Checked:
    """The last sheet of the text, validated; every problem raised as the usual error."""
    sheets = list(read_yaml_sheets(text, source))
    checked = check_sheet(sheets[-1], layers, first_dealer)
    if checked.problems:
        raise WizardError(*checked.problems)
    return checked


# --- the values on the command line ------------------------------------------------------

def parse_values(text: str, players: Sequence[str], what: str) -> dict[int, int]:
    """``1,0,2,1`` in seating order (``-`` or nothing: not yet), or ``Anna=1,Ben=0``: seat → value."""
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
    """A player's seat from a name as typed: exact, else the one name equal ignoring case."""
    if name in players:
        return players.index(name)
    folded = [seat for seat, player in enumerate(players) if player.casefold() == name.casefold()]
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


def _with_bids(text: str, checked: Checked, values: dict[int, int]) -> str:
    """Start the next round with these bids, or fill in bids of the round in play."""
    players = checked.sheet.players
    in_play = _round_in_play(checked, ", so there is no round to bid")
    if in_play is None:
        return editing.start_round(text, players, [values.get(s) for s in range(len(players))])
    if all(bid is not None for bid in in_play.bids):
        raise _state_error(checked, "every bid is in: record the tricks with --tricks",
                           in_play.number)
    for seat, bid in values.items():
        known = in_play.bids[seat]
        if known is not None and known != bid:
            raise _state_error(checked, f"has already bid {known} (edit the file to change it)",
                               in_play.number, players[seat])
    new = {seat: bid for seat, bid in values.items() if in_play.bids[seat] is None}
    return editing.fill_bids(text, players, new) if new else text


def _with_tricks(text: str, checked: Checked, values: dict[int, int]) -> str:
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


# --- after the edit ----------------------------------------------------------------------

def _checked_edit(old_text: str, text: str, before: Checked,
                  layers: Sequence[Iterable[RawSetting]], first_dealer: str | None) -> Checked:
    """Validate the edited sheet, and make sure the edit changed only the round recorded."""
    after = checked_last(text, before.source, layers, first_dealer)
    earlier = lambda t: [_essence(s) for s in list(read_yaml_sheets(t, before.source))[:-1]]  # noqa: E731
    if not _only_last_round_changed(before.sheet, after.sheet) or earlier(old_text) != earlier(text):
        raise WizardError(Problem("could not edit the sheet safely (its layout is unusual): "
                                  "nothing was written; add the round by hand", before.source))
    return after


def _landed(checked: Checked, row: list | None, values: dict[int, int]) -> None:
    """The values read back from the edited text are the ones given."""
    if row is None or any(row[seat] != value for seat, value in values.items()):
        raise WizardError(Problem("could not edit the sheet safely (its layout is unusual): "
                                  "nothing was written; add the round by hand", checked.source))


def _essence(sheet: Sheet) -> tuple:
    """A sheet's content without line numbers."""
    return (sheet.title, sheet.players, sheet.first_dealer,
            [(raw.key, raw.value) for raw in sheet.settings],
            [(r.bids, r.tricks, r.points) for r in sheet.rounds], sheet.problems == [])


def _only_last_round_changed(before: Sheet, after: Sheet) -> bool:
    """Everything but the round in play (or the new one) reads exactly as before; that round
    keeps the bids it had."""
    old, new = _essence(before), _essence(after)
    kept = old[4]
    if kept and before.rounds[-1].tricks is None:
        kept = kept[:-1]
        known = before.rounds[-1].bids
        if any(b is not None and b != a for b, a in zip(known, after.rounds[-1].bids)):
            return False
    return old[:4] == new[:4] and new[4][:len(kept)] == kept and len(new[4]) == len(kept) + 1
