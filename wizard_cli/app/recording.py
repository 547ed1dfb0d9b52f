"""Recording a round at the table (``wizard add``), and the one way a sheet is changed.

Bids come first (all at once, a few players at a time, or in the order they are called out),
then the tricks complete the round. The edited text is read back and validated whole, with the
same rules as ``wizard check``, before anything is written; a round that breaks a rule is the
usual located error and no edit. :func:`change_file` is the read-change-check-write that
``add``, ``edit``, ``undo`` and ``play`` all go through.
"""

from __future__ import annotations

import dataclasses
import os
import threading
from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

from ..sheets import editing
from ..sheets.spliced import Text, digest
from ..errors import Problem, WizardError, name_list
from ..game.game import Game, GameResult
from ..game.model import BadValue, RoundRecord, Sheet
from ..sheets.yaml_sheets import read_yaml_sheets
from ..sheets.yaml_text import LONG_TEXT
from ..sheets.cells import whole_number
from ..game.settings import suggest
from ..game.validation import repairable_game, validated_game
from .batch import SheetRules

NOT_YET = ("", "-")  # in a seating-order list: this player has not bid yet


def parse_last_sheet(text: Text, source: str, first_line: int = 1) -> Sheet:
    """The last sheet of a YAML sheet's text: the one place a change reads a text (once for
    the text as it stands, once for the text as changed), a seam tests count calls through.

    A season is read a sheet at a time and only the last is kept (SPEC §4: a 60 MB stream is
    edited in flat memory); ``first_line`` is the line of the file the text starts on."""
    last = None
    for last in read_yaml_sheets(text, source, first_line):
        pass
    return last


@dataclass(frozen=True)
class SheetText:
    """A YAML sheet's text, read and validated once: its last game as a validated Game, and
    the rules given outside it. A change edits the last game only, from the line its mapping
    starts on (``game.sheet.line``): the text before that line, and the games in it, stay."""

    text: Text  # as read, or as changed (kept as pieces of the text read: see sheets/spliced.py)
    source: str
    game: Game
    rules: SheetRules = SheetRules()


def read_text(text: Text, source: str, rules: SheetRules = SheetRules(),
              repair: bool = False, light: bool = False) -> SheetText:
    """The text read once, its last game validated; every problem raised as the usual error
    (with ``repair``, for edit and undo, a game whose rounds break a rule is taken as it is:
    the change is checked whole). ``light``: a long place or notes is kept as its
    fingerprint (:func:`lightened`)."""
    sheet = parse_last_sheet(text, source)
    if light:
        _lighten(sheet)
    game = (repairable_game if repair else validated_game)(sheet, rules.layers,
                                                            rules.first_dealer)
    return SheetText(text, source, game, rules)


# --- long texts while a sheet is changed --------------------------------------------------
# A change holds the text read; the sheet read from it, the edited text read back, and the
# read itself (the parser's buffer, then the value) each hold a long ``notes`` again: a 60 MB
# sheet that is one long text peaked at 325 MiB for ``add`` (SPEC §4: 250; issue 21, item 4).
# So the sheet a change starts from remembers a long title, place or notes by its fingerprint
# only (they take no part in a game's rules), the change's read-back is compared by fingerprints,
# and the sheet a command prints from has them whole again.

_LIGHT_KEYS = ("title", "place", "notes")


@dataclass(frozen=True)
class LongText:
    """A long text remembered by its fingerprint (:func:`~..sheets.spliced.digest`)."""

    fingerprint: bytes


def _remembered(value: object) -> object:
    """A value as a change compares it: a long text by its fingerprint."""
    if isinstance(value, str) and len(value) >= LONG_TEXT:  # (a YAML writer's long text too)
        return LongText(digest(value))
    return value


def _lighten(sheet: Sheet) -> None:
    """Hold the sheet's long title, place and notes as fingerprints."""
    for key in _LIGHT_KEYS:
        setattr(sheet, key, _remembered(getattr(sheet, key)))


def lightened(current: SheetText) -> SheetText:
    """The sheet a change starts from, its long texts held as fingerprints (the sheet read back
    after one step of ``add --bids … --tricks …`` is where the next starts)."""
    _lighten(current.game.sheet)
    return current


def is_light(sheet: Sheet) -> bool:
    """Whether a long text of the sheet is held as its fingerprint only."""
    return any(isinstance(getattr(sheet, key), LongText) for key in _LIGHT_KEYS)


@dataclass(frozen=True)
class Recorded:
    """The sheet's new text and the changed game, validated; ``note`` says what was done
    (``undo`` reports what it removed)."""

    sheet: SheetText
    note: Problem | None = None
    changes: tuple[Problem, ...] = ()  # edit: each value changed, ``round 4, Anna: tricks 2 → 1``

    @property
    def text(self) -> str:
        """The sheet's text after the change (made whole: the file path keeps it as pieces)."""
        return str(self.sheet.text)

    @property
    def game(self) -> Game:
        """The changed game, validated."""
        return self.sheet.game

    def result(self) -> GameResult:
        """The changed game, scored (once)."""
        return self.sheet.game.result


Change = Callable[[SheetText], Recorded]  # the sheet as it stands → the change, checked


def record(text: str, source: str, rules: SheetRules = SheetRules(), bids: str | None = None,
           tricks: str | None = None, in_order: bool = False) -> Recorded:
    """Add ``--bids`` and/or ``--tricks`` to the last game in a YAML sheet's text (``in_order``:
    a list gives the values in bidding order, from the dealer's left)."""
    return record_steps(read_text(text, source, rules), bids, tricks, in_order)


def record_steps(current: SheetText, bids: str | None = None, tricks: str | None = None,
                 in_order: bool = False) -> Recorded:
    """``wizard add``'s change: ``--bids`` and/or ``--tricks`` as typed, to the sheet read."""
    done = Recorded(current)
    players = current.game.players
    try:
        if bids is not None:
            order = done.game.bidding_order() if in_order else None
            done = record_values(done.sheet, bids=parse_values(bids, players, "bids", order))
        if tricks is not None:
            if is_light(current.game.sheet):  # the bids' read-back held the long texts whole
                done = dataclasses.replace(done, sheet=lightened(done.sheet))
            order = done.game.bidding_order() if in_order else None
            done = record_values(done.sheet, tricks=parse_values(tricks, players, "tricks", order))
    except WizardError as error:  # an edit that could not be made: placed in the sheet
        raise located(error, current.source) from None
    return done


def located(error: WizardError, source: str) -> WizardError:
    """The error with its problems placed in the sheet (a mistake in --bids/--tricks themselves
    is the command line's, and stays unplaced): every message is one located line. The error
    keeps its kind (serve tells a stale request from a refused value by it)."""
    return type(error)(*(problem if problem.path or problem.message.startswith("--")
                         else dataclasses.replace(problem, path=source)
                         for problem in error.problems))


def record_values(current: SheetText, bids: Mapping[int, int] | None = None,
                  tricks: Mapping[int, int] | None = None) -> Recorded:
    """Add bids (seat → bid) to the round in play (or start the next round with them), or
    complete the round in play with its tricks: the one function that records a step."""
    game = current.game
    rounds = expected_rounds(game)
    count = len(game.players)
    if bids is not None:
        edited = _with_bids(current, bids)
        if game.in_play is not None:
            old = rounds[-1]
            rounds[-1] = dataclasses.replace(old, bids=[bids.get(s, old.bids[s])
                                                        for s in range(count)])
        else:
            rounds.append(bare_round(game.current_round, [bids.get(s) for s in range(count)]))
    else:
        edited = _with_tricks(current, tricks)
        rounds[-1] = bare_round(game.current_round, rounds[-1].bids,
                                [tricks[s] for s in range(count)], rounds[-1].points)
    if edited == current.text:
        return Recorded(current)
    return Recorded(checked_change(current, edited, rounds))


def record_in_file(path: str, rules: SheetRules = SheetRules(), bids: str | None = None,
                   tricks: str | None = None, in_order: bool = False) -> Recorded:
    """Record bids and/or tricks in a YAML sheet file in place; written only if all is valid."""
    return change_file(path, lambda current: record_steps(current, bids, tricks, in_order),
                       "add", rules)


def change_file(path: str, change: Change, command: str = "add",
                rules: SheetRules = SheetRules(), repair: bool = False,
                whole: bool = True, fingerprint: Callable[[bytes], None] | None = None,
                stopping: threading.Event | None = None) -> Recorded:
    """Read a YAML sheet file once, validate its last game, change it, and write it back in
    place if the change is valid: the one way every command that changes a sheet (add, edit,
    undo, play) writes it.

    Through :func:`~wizard_cli.sheets.atomic.update_in_place` (SPEC §7): locked against a second
    writer for the whole read-check-write, atomic, keeping the file's encoding, byte-order mark,
    line ends, mode and owner; a read-only sheet is refused. With ``repair`` (edit, undo) the
    sheet as it stands may break a rule in its rounds: the change may be what mends it.

    The change starts from a sheet whose long texts are fingerprints (:func:`lightened`), and
    the new text is pieces of the text read (:mod:`~..sheets.spliced`): a 60 MB sheet is held
    once. The game returned has its texts whole (for what the command prints); ``whole=False``
    (``play``, which prints no place or notes) keeps them as fingerprints. ``fingerprint`` and
    ``stopping`` are ``serve``'s (see :func:`~wizard_cli.sheets.atomic.update_in_place`).
    """
    from ..sheets.atomic import update_in_place
    from ..sheets.source import display_name

    source = display_name(path)
    _not_a_workbook(path, source, command)
    done: list[Recorded] = []

    def edit(text: str) -> Text:
        _yaml_only(path, text, source, command)
        try:
            done.append(change(read_text(text, source, rules, repair, light=True)))
        except WizardError as error:  # every message of an edit names the sheet (play's too)
            raise located(error, source) from None
        return done[-1].sheet.text

    update_in_place(path, edit, rules.encoding, fingerprint, stopping)
    changed = done.pop()
    if not whole:
        lightened(changed.sheet)
    elif is_light(changed.game.sheet):  # nothing was read back: read the texts whole
        changed = dataclasses.replace(changed, sheet=read_text(changed.sheet.text, source,
                                                               rules, repair))
    return changed


_WORKBOOK_MAGIC = (b"PK\x03\x04", b"\xd0\xcf\x11\xe0")  # a zip (.xlsx, .ods), an OLE file (.xls)


def _not_a_workbook(path: str, source: str, command: str) -> None:
    """Refuse a workbook (by its name or its first bytes) before decoding it as text: it is no
    text, and an encoding hint would send the user the wrong way (issue 21, item 14)."""
    from ..sheets.formats import WORKBOOK_SUFFIXES

    from ..sheets.source import open_regular

    try:
        with os.fdopen(open_regular(path), "rb") as handle:  # a FIFO put there never blocks
            start = handle.read(4)
    except (OSError, WizardError):
        start = b""  # the locked read says why
    if path.lower().endswith(WORKBOOK_SUFFIXES) or start.startswith(_WORKBOOK_MAGIC):
        raise WizardError(Problem(f"{command} edits YAML sheets only, and this is a workbook; "
                                  f"make one from it with `wizard convert {path} --to yaml -o "
                                  "NEW.yaml`", source))


def _yaml_only(path: str, text: str, source: str, command: str) -> None:
    """Refuse a sheet that is not YAML (a CSV, a workbook), as the reader would take it (from
    its name, else its first line: the text is not read a second time)."""
    from ..sheets.formats import WORKBOOK_SUFFIXES, sniff_format

    if (path.lower().endswith(WORKBOOK_SUFFIXES)
            or sniff_format(path, text[:8192].encode("utf-8", "replace")) != "yaml"):
        raise WizardError(Problem(f"{command} edits YAML sheets only; make one from this CSV "
                                  f"with `wizard convert {path} --to yaml -o NEW.yaml`", source))


def read_game(path: str, rules: SheetRules = SheetRules(), data: bytes | None = None) -> Game:
    """The last game of a sheet file (of any format), validated: the game ``add`` and ``play``
    change; every problem raised as the usual error. ``data``: the file's bytes, already read."""
    from ..sheets.formats import read_sheets

    last = None
    for last in read_sheets(path, None, rules.encoding, data=data):
        pass
    return validated_game(last, rules.layers, rules.first_dealer)


def checked_last(text: str, source: str, rules: SheetRules = SheetRules()) -> Game:
    """The last game of the text, validated; every problem raised as the usual error."""
    return read_text(text, source, rules).game


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

def _state_error(game: Game, message: str, number: int | None = None,
                 player: str | None = None) -> WizardError:
    """Why nothing can be added now, placed in the sheet."""
    return WizardError(Problem(message, game.source, None, number, player))


def _not_finished(game: Game, over: str = "") -> None:
    """A finished game refuses anything more."""
    if game.finished:
        raise _state_error(game, f"the game is over: all {game.rounds_total} rounds are "
                                 f"recorded{over}")


def _with_bids(current: SheetText, values: Mapping[int, int]) -> str:
    """Start the next round with these bids, or fill in bids of the round in play."""
    game, text = current.game, current.text
    players = game.players
    _not_finished(game, ", so there is no round to bid")
    in_play = game.in_play
    number = game.current_round
    known = game.bids
    if in_play is not None and all(bid is not None for bid in known):
        raise _state_error(game, "every bid is in: record the tricks with --tricks", number)
    for seat, bid in values.items():
        if known[seat] is not None and known[seat] != bid:
            raise _state_error(game, f"has already bid {known[seat]} (change a recorded bid "
                                     f"with wizard edit --round {number})", number, players[seat])
    if game.settings.bidding == "open":
        _in_turn(game, known, values)
    if in_play is None:
        return editing.start_round(text, players, [values.get(s) for s in range(len(players))],
                                   game.sheet.line)
    new = {seat: bid for seat, bid in values.items() if known[seat] is None}
    return editing.fill_bids(text, players, new, game.sheet.line) if new else text


def _in_turn(game: Game, known: Sequence, values: Mapping[int, int]) -> None:
    """Open bids are called out in turn (SPEC §5): no bid while an earlier bidder has not bid,
    in the sheet or in the same command."""
    players = game.players
    number = game.current_round
    order = game.bidding_order()
    given = {seat for seat in order if known[seat] is not None or seat in values}
    for position, seat in enumerate(order):
        if seat in given:
            continue
        late = next((s for s in order[position + 1:] if s in values and known[s] is None), None)
        if late is not None:
            raise _state_error(game, f"{players[seat]} bids first (bidding order: "
                                     f"{', '.join(players[s] for s in order)})",
                               number, players[late])
        return


def _with_tricks(current: SheetText, values: Mapping[int, int]) -> str:
    """Complete the round in play with every player's tricks."""
    game = current.game
    players = game.players
    _not_finished(game)
    in_play = game.in_play
    if in_play is None:
        raise _state_error(game, "no round in play: record its bids first with --bids",
                           game.current_round)
    waiting = [players[s] for s, bid in enumerate(in_play.bids) if bid is None]
    if waiting:
        raise _state_error(game, f"still waiting for the bids of {name_list(waiting)}: record "
                                 "them with --bids first", in_play.number)
    missing = [players[s] for s in range(len(players)) if s not in values]
    if missing:
        raise _state_error(game, f"the tricks of every player complete a round; missing: "
                                 f"{name_list(missing)}", in_play.number)
    return editing.add_tricks(current.text, players, [values[s] for s in range(len(players))],
                              game.sheet.line)


# --- after the change --------------------------------------------------------------------

UNSAFE = ("could not edit the sheet safely (its layout is unusual): nothing was written; "
          "change it by hand")


def bare_round(number: int, bids: Sequence, tricks: Sequence | None = None,
               points: Sequence | None = None) -> RoundRecord:
    """A round's values without the lines they stand on: what a change expects to read back."""
    count = len(bids)
    return RoundRecord(number, None, list(bids), [None] * count,
                       None if tricks is None else list(tricks),
                       None if tricks is None else [None] * count, None,
                       None if points is None else list(points),
                       None if points is None else [None] * count)


def expected_rounds(game: Game) -> list[RoundRecord]:
    """Every round of the game as it stands, as :func:`bare_round` (a change edits the list)."""
    return bare_rounds(game.sheet)


def checked_change(before: SheetText, text: Text, rounds: list[RoundRecord]) -> SheetText:
    """Read the changed text back (once) and validate it: it must hold exactly the ``rounds``
    expected and everything else as before, or nothing is written (an edit that went wrong is
    said to be one, not reported as problems of the user's sheet).

    An edit changes the last sheet only, from the line its mapping starts on: the text before
    that line is checked to be the same (so are the sheets in it), and only the last sheet's
    lines are read back (a 60 MB season is not read again whole for one round)."""
    line = before.game.sheet.line
    start = editing.line_offset(text, line)
    if start != editing.line_offset(before.text, line) or not _same_start(
            text, before.text, start):
        raise WizardError(Problem(UNSAFE, before.source))
    changed = parse_last_sheet(text[start:] if start else text, before.source, line)
    if changed is not None and changed.game is None:
        changed.game = before.game.sheet.game  # a season numbers a sheet without an id of its own
    # a sheet read with problems (a cell that is no number) may keep them: the check says so
    clean = not before.game.sheet.problems
    if (changed is None or changed.line != line
            or left_as_it_was(changed) != left_as_it_was(before.game.sheet)
            or bare_rounds(changed) != rounds or (clean and changed.problems)):
        raise WizardError(Problem(UNSAFE, before.source))
    game = validated_game(changed, before.rules.layers, before.rules.first_dealer)
    if any(before.rules.layers) or before.rules.first_dealer is not None:
        # Rules from the command line may add to the check of a write, never relax it: the
        # sheet written must stay valid under its own rules too (issue 18).
        validated_game(changed)
    return dataclasses.replace(before, text=text, game=game)


def _same_start(text: Text, other: Text, end: int, block: int = 1 << 20) -> bool:
    """Whether two texts are the same up to ``end`` (compared a block at a time: no copy of
    a season's head)."""
    return all(text[at:min(at + block, end)] == other[at:min(at + block, end)]
               for at in range(0, end, block))


def left_as_it_was(sheet: Sheet) -> tuple:
    """What a change of the rounds must leave as it was in a sheet: its metadata, players,
    first dealer and settings, as written (a setting's key and value as typed, not its effect:
    the text is what is kept), a long title, place or notes by its fingerprint (as the sheet a
    change starts from holds them, :func:`lightened`).

    Not ``convert``'s proof (``sheets/formats.py``, :func:`~..sheets.formats.conversion_content`):
    that compares a sheet with its copy in another format, as far as that format carries it;
    this compares one sheet's own text before and after a change, everything in it but the
    rounds (compared as :func:`bare_rounds`) and the lines."""
    return ((_remembered(sheet.title), sheet.game, sheet.date, _remembered(sheet.place),
             _remembered(sheet.notes)), sheet.players,
            sheet.first_dealer, [(raw.key, raw.value) for raw in sheet.settings])


def bare_rounds(sheet: Sheet) -> list[RoundRecord]:
    """Every round of a sheet as :func:`bare_round`: its values without the lines they stand on."""
    return [bare_round(r.number, r.bids, r.tricks, r.points) for r in sheet.rounds]
