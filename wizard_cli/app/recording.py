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
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass

from ..editing import round_edits as editing
from ..editing.spliced import Text, digest
from ..errors import Problem, WizardError, name_list
from ..game.game import Game, GameResult
from ..game.model import RoundRecord, Sheet
from ..game.validation import repairable_game, validated_game
from ..sheets.yaml.positions import line_offset
from ..sheets.yaml.sheets import read_yaml_sheets
from ..sheets.yaml.text import LONG_TEXT, yaml_scalar
from .batch import SheetRules
from .typed_values import parse_cloud, parse_values, player_seat


def parse_last_sheet(text: Text, source: str, first_line: int = 1) -> Sheet:
    """The last sheet of a YAML sheet's text: the one place a change reads a text (once for
    the text as it stands, once for the text as changed), a seam tests count calls through.

    A season is read a sheet at a time and only the last is kept (SPEC §4: a 60 MB stream is
    edited in flat memory); ``first_line`` is the line of the file the text starts on."""
    last = None
    for last in read_yaml_sheets(text, source, first_line):  # noqa: B007 -- the last one
        pass
    assert last is not None  # the reader raises on a text with no sheet in it
    return last


@dataclass(frozen=True)
class SheetText:
    """A YAML sheet's text, read and validated once: its last game as a validated Game, and
    the rules given outside it. A change edits the last game only, from the line its mapping
    starts on (``game.sheet.line``): the text before that line, and the games in it, stay."""

    text: Text  # as read, or as changed (kept as pieces of the text read: see editing/spliced.py)
    source: str
    game: Game
    rules: SheetRules = SheetRules()

    @property
    def line(self) -> int:
        """The line the last sheet's mapping starts on, where every edit of it starts."""
        line = self.game.sheet.line
        assert line is not None  # the YAML reader places every sheet it reads
        return line


def read_text(
    text: Text,
    source: str,
    rules: SheetRules = SheetRules(),
    repair: bool = False,
    light: bool = False,
) -> SheetText:
    """The text read once, its last game validated; every problem raised as the usual error
    (with ``repair``, for edit and undo, a game whose rounds break a rule is taken as it is:
    the change is checked whole). ``light``: a long place or notes is kept as its
    fingerprint (:func:`lightened`)."""
    sheet = parse_last_sheet(text, source)
    if light:
        _lighten(sheet)
    game = (repairable_game if repair else validated_game)(sheet, rules.layers, rules.first_dealer)
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


def record(
    text: str,
    source: str,
    rules: SheetRules = SheetRules(),
    bids: str | None = None,
    tricks: str | None = None,
    in_order: bool = False,
) -> Recorded:
    """Add ``--bids`` and/or ``--tricks`` to the last game in a YAML sheet's text (``in_order``:
    a list gives the values in bidding order, from the dealer's left)."""
    return record_steps(read_text(text, source, rules), bids, tricks, in_order)


def record_steps(
    current: SheetText,
    bids: str | None = None,
    tricks: str | None = None,
    in_order: bool = False,
    out: str | None = None,
    bomb: bool = False,
    cloud: str | None = None,
) -> Recorded:
    """``wizard add``'s change: ``--bids`` and/or ``--tricks`` as typed, to the sheet read
    (``out``: who sits out the round these bids start); ``--bomb`` with the tricks,
    ``--cloud NAME=±1`` with them or on its own (SPEC §5)."""
    done = Recorded(current)
    players = current.game.players
    if bomb and tricks is None:
        raise WizardError(Problem("--bomb is recorded with the round's --tricks"))
    if bomb or cloud is not None:
        try:
            given = parse_cloud(cloud, players) if cloud is not None else None
            done = record_steps(current, bids, None, in_order, out) if bids is not None else done
            if is_light(current.game.sheet):
                done = dataclasses.replace(done, sheet=lightened(done.sheet))
            if tricks is None:  # the Cloud on its own, once every bid is in
                return record_special(done.sheet, False, given, before_tricks=True)
            return record_special(
                done.sheet,
                bomb,
                given,
                tricks=seated_values(done.game, tricks, "tricks", in_order),
            )
        except WizardError as error:
            raise located(error, current.source) from None
    try:
        if out is not None:
            done = Recorded(_sitting_out(current, out, bids))
        if bids is not None:
            done = record_values(done.sheet, bids=seated_values(done.game, bids, "bids", in_order))
        if tricks is not None:
            if is_light(current.game.sheet):  # the bids' read-back held the long texts whole
                done = dataclasses.replace(done, sheet=lightened(done.sheet))
            done = record_values(
                done.sheet, tricks=seated_values(done.game, tricks, "tricks", in_order)
            )
    except WizardError as error:  # an edit that could not be made: placed in the sheet
        raise located(error, current.source) from None
    return done


def seats_now(game: Game) -> list[int]:
    """The seats seated in the current round: every seat, or with seating those the round
    seats (SPEC §1: only they bid and take tricks)."""
    if game.sheet.seating is None:
        return list(range(len(game.players)))
    from ..game.seated import SeatedGame  # (loaded already: the sheet was validated as one)

    assert isinstance(game, SeatedGame)  # a sheet with seating is validated as a SeatedGame
    return game.seated()


def seated_values(game: Game, text: str, what: str, in_order: bool = False) -> dict[int, int]:
    """``--bids``/``--tricks`` as typed (:func:`parse_values`) for the players seated in the
    current round: a list holds their values only, in seating (or bidding) order."""
    order = game.bidding_order() if in_order else None
    if game.sheet.seating is None:
        return parse_values(text, game.players, what, order)
    seats = seats_now(game)
    names = [game.players[seat] for seat in seats]
    places = None if order is None else [seats.index(seat) for seat in order]
    return {seats[place]: value for place, value in parse_values(text, names, what, places).items()}


def _sitting_out(current: SheetText, out: str, bids: str | None) -> SheetText:
    """``add --out``: only with a round's first bids (SPEC §5); the round is started with
    :func:`sitting_out`, and the bids then go in as usual."""
    game = current.game
    if bids is None or game.in_play is not None:
        number = game.in_play.number if game.in_play is not None else game.current_round
        raise WizardError(
            Problem(
                f"--out goes with a round's first --bids (round {number}"
                f"{' is in play' if game.in_play is not None else ''})"
            )
        )
    players = game.players
    seats = {player_seat(name.strip(), players, "--out") for name in out.split(",") if name.strip()}
    if not seats:
        raise WizardError(Problem(f"--out {out!r}: name the players sitting the round out"))
    return sitting_out(current, seats)


def sitting_out(current: SheetText, seats: Collection[int]) -> SheetText:
    """The next round started with no bid yet and ``out: [NAMES]`` (``add --out``, ``play``'s
    ``out NAME``, the page's ``"out"``: SPEC §5), read back and checked."""
    from ..editing.seat_edits import put_out

    game = current.game
    _not_finished(game, ", so there is no round to sit out")
    players = game.players
    number = game.current_round
    seating = game.sheet.seating
    listed = range(len(players)) if seating is None else seating.listed(number)
    away = [seat for seat in sorted(seats) if seat not in listed]
    if away:  # not at the table that round at all: joins later, or has left
        assert seating is not None  # without seating every seat is listed
        raise _state_error(
            game,
            f"cannot sit round {number} out: {seating.why_not_seated(away[0], number)}",
            number,
            players[away[0]],
        )
    seated = [players[seat] for seat in listed if seat not in seats]
    line = current.line
    text = editing.start_round(current.text, seated, [None] * len(seated), line)
    text = put_out(text, [players[seat] for seat in sorted(seats)], line)
    return read_text(text, current.source, current.rules)


def located(error: WizardError, source: str) -> WizardError:
    """The error with its problems placed in the sheet (a mistake in --bids/--tricks themselves
    is the command line's, and stays unplaced): every message is one located line. The error
    keeps its kind (serve tells a stale request from a refused value by it)."""
    return type(error)(
        *(
            problem
            if problem.path or problem.message.startswith("--")
            else dataclasses.replace(problem, path=source)
            for problem in error.problems
        )
    )


def record_values(
    current: SheetText,
    bids: Mapping[int, int] | None = None,
    tricks: Mapping[int, int] | None = None,
) -> Recorded:
    """Add bids (seat → bid) to the round in play (or start the next round with them), or
    complete the round in play with its tricks: the one function that records a step."""
    game = current.game
    rounds = expected_rounds(game)
    count = len(game.players)
    if bids is not None:
        edited = _with_bids(current, bids)
        if game.in_play is not None:
            old = rounds[-1]
            rounds[-1] = dataclasses.replace(
                old, bids=[bids.get(s, old.bids[s]) for s in range(count)]
            )
        else:
            rounds.append(bare_round(game.current_round, [bids.get(s) for s in range(count)]))
    else:
        assert tricks is not None, "a step records bids or tricks"
        edited = _with_tricks(current, tricks)
        rounds[-1] = with_specials(
            bare_round(
                game.current_round,
                rounds[-1].bids,
                [tricks.get(s) for s in range(count)],
                rounds[-1].points,
            ),
            rounds[-1].bomb,
            rounds[-1].cloud,
        )
    if edited == current.text:
        return Recorded(current)
    return Recorded(checked_change(current, edited, rounds))


def record_in_file(
    path: str,
    rules: SheetRules = SheetRules(),
    bids: str | None = None,
    tricks: str | None = None,
    in_order: bool = False,
    out: str | None = None,
    bomb: bool = False,
    cloud: str | None = None,
) -> Recorded:
    """Record bids and/or tricks (and who sits out, and the special cards) in a YAML sheet
    file in place; written only if all is valid."""
    return change_file(
        path,
        lambda current: record_steps(current, bids, tricks, in_order, out, bomb, cloud),
        "add",
        rules,
    )


def record_special(
    current: SheetText,
    bomb: bool,
    cloud: tuple[int, int] | None,
    before_tricks: bool = False,
    tricks: Mapping[int, int] | None = None,
) -> Recorded:
    """Write the Bomb and/or the Cloud into the last round: with its ``tricks`` (one change,
    checked once: they add up only with the Bomb), or (``before_tricks``) the Cloud alone in
    the round in play once every bid is in (SPEC §5)."""
    game = current.game
    number = len(game.rounds)
    if not game.settings.special_cards:
        raise _state_error(
            game,
            "the Bomb and the Cloud need specialCards: true (the "
            "anniversary editions' special cards)",
            number or None,
        )
    if before_tricks:
        if game.in_play is None:
            raise _state_error(
                game,
                "no round in play: the Cloud is recorded with a round's "
                "tricks or once its bids are in",
                game.current_round,
            )
        if game.next_bidder is not None:
            raise _state_error(
                game,
                "the Cloud is recorded once every bid of the round is in "
                f"({game.players[game.next_bidder]} bids next)",
                number,
            )
    last = game.rounds[-1]
    if cloud is not None and last.cloud is not None:
        raise _state_error(
            game,
            f"the round already records the Cloud (change it with wizard "
            f"edit --round {number} --cloud)",
            number,
        )
    edited = current.text
    rounds = expected_rounds(game)
    if tricks is not None:
        edited = _with_tricks(current, tricks)
        rounds[-1] = bare_round(  # (a player not seated has no tricks: SPEC §1)
            number, last.bids, [tricks.get(s) for s in range(len(game.players))], rounds[-1].points
        )
    if bomb:
        edited = editing.set_round_key(edited, number, "bomb", "true", current.line)
    if cloud is not None:
        edited = editing.set_round_key(
            edited, number, "cloud", cloud_text(game.players, cloud), current.line
        )
    rounds[-1] = with_specials(
        rounds[-1], bomb or last.bomb, cloud if cloud is not None else last.cloud
    )
    return Recorded(checked_change(current, edited, rounds))


def cloud_text(players: Sequence[str], cloud: tuple[int, int]) -> str:
    """A round's ``cloud`` value as a sheet writes it: ``{Ben: 1}``."""
    return "{" + f"{yaml_scalar(players[cloud[0]])}: {cloud[1]}" + "}"


def change_file(
    path: str,
    change: Change,
    command: str = "add",
    rules: SheetRules = SheetRules(),
    repair: bool = False,
    whole: bool = True,
    fingerprint: Callable[[bytes], None] | None = None,
    stopping: threading.Event | None = None,
    follow: bool = True,
) -> Recorded:
    """Read a YAML sheet file once, validate its last game, change it, and write it back in
    place if the change is valid: the one way every command that changes a sheet (add, edit,
    undo, play) writes it.

    Through :func:`~wizard_cli.editing.atomic.update_in_place` (SPEC §7): locked against a second
    writer for the whole read-check-write, atomic, keeping the file's encoding, byte-order mark,
    line ends, mode and owner; a read-only sheet is refused. With ``repair`` (edit, undo) the
    sheet as it stands may break a rule in its rounds: the change may be what mends it.

    The change starts from a sheet whose long texts are fingerprints (:func:`lightened`), and
    the new text is pieces of the text read (:mod:`~..sheets.spliced`): a 60 MB sheet is held
    once. The game returned has its texts whole (for what the command prints); ``whole=False``
    (``play``, which prints no place or notes) keeps them as fingerprints. ``fingerprint`` and
    ``stopping`` are ``serve``'s, and ``follow`` (see
    :func:`~wizard_cli.editing.atomic.update_in_place`).
    """
    from ..editing.atomic import update_in_place
    from ..sheets.source import display_name

    source = display_name(path)
    _not_a_workbook(path, source, command, follow)
    done: list[Recorded] = []

    def edit(text: str) -> Text:
        _yaml_only(path, text, source, command)
        try:
            done.append(change(read_text(text, source, rules, repair, light=True)))
        except WizardError as error:  # every message of an edit names the sheet (play's too)
            raise located(error, source) from None
        return done[-1].sheet.text

    update_in_place(path, edit, rules.encoding, fingerprint, stopping, follow)
    changed = done.pop()
    if not whole:
        lightened(changed.sheet)
    elif is_light(changed.game.sheet):  # nothing was read back: read the texts whole
        changed = dataclasses.replace(
            changed, sheet=read_text(changed.sheet.text, source, rules, repair)
        )
    return changed


_WORKBOOK_MAGIC = (b"PK\x03\x04", b"\xd0\xcf\x11\xe0")  # a zip (.xlsx, .ods), an OLE file (.xls)


def _not_a_workbook(path: str, source: str, command: str, follow: bool = True) -> None:
    """Refuse a workbook (by its name or its first bytes) before decoding it as text: it is no
    text, and an encoding hint would send the user the wrong way (issue 21, item 14)."""
    from ..sheets.formats import WORKBOOK_SUFFIXES
    from ..sheets.source import open_regular

    try:
        with os.fdopen(open_regular(path, follow=follow), "rb") as handle:  # (never blocks)
            start = handle.read(4)
    except (OSError, WizardError):
        start = b""  # the locked read says why
    if path.lower().endswith(WORKBOOK_SUFFIXES) or start.startswith(_WORKBOOK_MAGIC):
        raise WizardError(
            Problem(
                f"{command} edits YAML sheets only, and this is a workbook; "
                f"make one from it with `wizard convert {path} --to yaml -o "
                "NEW.yaml`",
                source,
            )
        )


def _yaml_only(path: str, text: str, source: str, command: str) -> None:
    """Refuse a sheet that is not YAML (a CSV, a workbook), as the reader would take it (from
    its name, else its first line: the text is not read a second time)."""
    from ..sheets.formats import WORKBOOK_SUFFIXES, sniff_format

    if (
        path.lower().endswith(WORKBOOK_SUFFIXES)
        or sniff_format(path, text[:8192].encode("utf-8", "replace")) != "yaml"
    ):
        raise WizardError(
            Problem(
                f"{command} edits YAML sheets only; make one from this CSV "
                f"with `wizard convert {path} --to yaml -o NEW.yaml`",
                source,
            )
        )


def read_game(path: str, rules: SheetRules = SheetRules(), data: bytes | None = None) -> Game:
    """The last game of a sheet file (of any format), validated: the game ``add`` and ``play``
    change; every problem raised as the usual error. ``data``: the file's bytes, already read."""
    from ..sheets.formats import read_sheets

    last = None
    for last in read_sheets(path, None, rules.encoding, data=data):  # noqa: B007 -- the last
        pass
    assert isinstance(last, Sheet)  # no runs asked for; a file with no sheet is refused
    return validated_game(last, rules.layers, rules.first_dealer)


def checked_last(text: str, source: str, rules: SheetRules = SheetRules()) -> Game:
    """The last game of the text, validated; every problem raised as the usual error."""
    return read_text(text, source, rules).game


# --- what to add -------------------------------------------------------------------------


def _state_error(
    game: Game, message: str, number: int | None = None, player: str | None = None
) -> WizardError:
    """Why nothing can be added now, placed in the sheet."""
    return WizardError(Problem(message, game.source, None, number, player))


def _not_finished(game: Game, over: str = "") -> None:
    """A finished game refuses anything more."""
    if game.finished:
        raise _state_error(
            game, f"the game is over: all {game.rounds_total} rounds are recorded{over}"
        )


def _with_bids(current: SheetText, values: Mapping[int, int]) -> Text:
    """Start the next round with these bids, or fill in bids of the round in play."""
    game, text = current.game, current.text
    players = game.players
    _not_finished(game, ", so there is no round to bid")
    in_play = game.in_play
    number = game.current_round
    known = game.bids
    seats = seats_now(game)
    if in_play is not None and all(known[seat] is not None for seat in seats):
        raise _state_error(game, "every bid is in: record the tricks with --tricks", number)
    for seat, bid in values.items():
        if known[seat] is not None and known[seat] != bid:
            raise _state_error(
                game,
                f"has already bid {known[seat]} (change a recorded bid "
                f"with wizard edit --round {number})",
                number,
                players[seat],
            )
    if game.settings.bidding == "open":
        _in_turn(game, known, values)
    names = [players[seat] for seat in seats]  # a list in the sheet holds the seated's values
    if in_play is None:
        return editing.start_round(text, names, [values.get(s) for s in seats], current.line)
    new = {
        place: values[seat]
        for place, seat in enumerate(seats)
        if seat in values and known[seat] is None
    }
    return editing.fill_bids(text, names, new, current.line) if new else text


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
        late = next((s for s in order[position + 1 :] if s in values and known[s] is None), None)
        if late is not None:
            raise _state_error(
                game,
                f"{players[seat]} bids first (bidding order: "
                f"{', '.join(players[s] for s in order)})",
                number,
                players[late],
            )
        return


def _with_tricks(current: SheetText, values: Mapping[int, int]) -> Text:
    """Complete the round in play with every player's tricks."""
    game = current.game
    players = game.players
    _not_finished(game)
    in_play = game.in_play
    if in_play is None:
        raise _state_error(
            game, "no round in play: record its bids first with --bids", game.current_round
        )
    seats = seats_now(game)
    waiting = [players[s] for s in seats if in_play.bids[s] is None]
    if waiting:
        raise _state_error(
            game,
            f"still waiting for the bids of {name_list(waiting)}: record them with --bids first",
            in_play.number,
        )
    missing = [players[s] for s in seats if s not in values]
    if missing:
        raise _state_error(
            game,
            f"the tricks of every player complete a round; missing: {name_list(missing)}",
            in_play.number,
        )
    return editing.add_tricks(
        current.text, [players[s] for s in seats], [values[s] for s in seats], current.line
    )


# --- after the change --------------------------------------------------------------------

UNSAFE = (
    "could not edit the sheet safely (its layout is unusual): nothing was written; "
    "change it by hand"
)


def bare_round(
    number: int, bids: Sequence, tricks: Sequence | None = None, points: Sequence | None = None
) -> RoundRecord:
    """A round's values without the lines they stand on: what a change expects to read back."""
    count = len(bids)
    return RoundRecord(
        number,
        None,
        list(bids),
        [None] * count,
        None if tricks is None else list(tricks),
        None if tricks is None else [None] * count,
        None,
        None if points is None else list(points),
        None if points is None else [None] * count,
    )


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
    line = before.line
    start = line_offset(text, line)
    if start != line_offset(before.text, line) or not _same_start(text, before.text, start):
        raise WizardError(Problem(UNSAFE, before.source))
    changed = parse_last_sheet(text[start:] if start else text, before.source, line)
    if changed.game is None:
        changed.game = before.game.sheet.game  # a season numbers a sheet without an id of its own
    # a sheet read with problems (a cell that is no number) may keep them: the check says so
    clean = not before.game.sheet.problems
    if (
        changed.line != line
        or left_as_it_was(changed) != left_as_it_was(before.game.sheet)
        or bare_rounds(changed) != rounds
        or (clean and changed.problems)
    ):
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
    return all(
        text[at : min(at + block, end)] == other[at : min(at + block, end)]
        for at in range(0, end, block)
    )


def left_as_it_was(sheet: Sheet) -> tuple:
    """What a change of the rounds must leave as it was in a sheet: its metadata, players,
    first dealer and settings, as written (a setting's key and value as typed, not its effect:
    the text is what is kept), a long title, place or notes by its fingerprint (as the sheet a
    change starts from holds them, :func:`lightened`).

    Not ``convert``'s proof (``sheets/formats.py``, :func:`~..sheets.formats.conversion_content`):
    that compares a sheet with its copy in another format, as far as that format carries it;
    this compares one sheet's own text before and after a change, everything in it but the
    rounds (compared as :func:`bare_rounds`) and the lines."""
    return (
        (
            _remembered(sheet.title),
            sheet.game,
            sheet.date,
            _remembered(sheet.place),
            _remembered(sheet.notes),
        ),
        sheet.players,
        sheet.first_dealer,
        [(raw.key, raw.value) for raw in sheet.settings],
    )


def bare_rounds(sheet: Sheet) -> list[RoundRecord]:
    """Every round of a sheet as :func:`bare_round`: its values without the lines they stand on
    (and its special cards, SPEC §1)."""
    return [
        with_specials(bare_round(r.number, r.bids, r.tricks, r.points), r.bomb, r.cloud)
        for r in sheet.rounds
    ]


def with_specials(record: RoundRecord, bomb: bool, cloud: tuple[int, int] | None) -> RoundRecord:
    """A bare round with the Bomb and the Cloud it records."""
    if bomb or cloud is not None:
        record.bomb, record.cloud = bomb, cloud
    return record
