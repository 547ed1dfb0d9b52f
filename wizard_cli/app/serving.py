"""What ``wizard serve`` asks of a sheet: the game it holds now, and a bid, a round's tricks or
an undo entered from a phone (SPEC §9).

The page is a view: reading is the same read-and-check as ``score`` (the last game of the file,
the one ``add`` records into), and every write goes through :func:`~.recording.change_file`,
the locked, atomic, layout-keeping edit of ``add``, ``undo`` and ``play``, with the same
validation and messages. What is new here is only the question a second phone raises: is the
round (and player) the request names still the one in turn? That is asked inside the lock, on
the text about to be changed, so two phones can never both record into one slot.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ..errors import Problem, WizardError
from ..game.game import Game, GameResult
from ..game.seating import MAX_LISTED
from .amending import latest_entry, take_back_latest
from .batch import Inputs
from .recording import (
    UNSAFE,
    Recorded,
    SheetText,
    change_file,
    read_game,
    read_text,
    record_special,
    record_values,
    sitting_out,
)
from .seat_changes import join, leave


@dataclass(frozen=True, slots=True)
class Reading:
    """The sheet as it stands: its game scored, or, when it cannot be, every problem.
    ``fingerprint``: of the bytes it was made from (None: none could be read); ``failed``: the
    file could not be read at all (missing, not a regular file, an I/O error), so it is read
    again soon whether or not it changes."""

    result: GameResult | None
    problems: tuple[Problem, ...] = ()
    fingerprint: bytes | None = None
    failed: bool = False


def fingerprint(data: bytes) -> bytes:
    """What a sheet's bytes are known by: an undo is made only against the bytes the phone's
    game was read from (SPEC §9 "Undo names what it takes back")."""
    import hashlib

    return hashlib.blake2b(data, digest_size=16).digest()


def game_now(inputs: Inputs) -> Reading:
    """The last game of the (one) sheet ``inputs`` names, validated and scored as ``score``
    scores it (the game ``add`` records into); a missing, unreadable, half-written or invalid
    sheet gives its problems instead.

    The file is opened so that the open cannot block (a FIFO or device put in its place is a
    problem, not a hung server) and read once: the game shown and its fingerprint are of the
    same bytes."""
    from ..sheets.source import MAX_YAML_BYTES, display_name, open_regular

    path = inputs.paths[0]
    source = display_name(path)
    try:
        with os.fdopen(open_regular(path, follow=inputs.follow_links), "rb") as handle:
            data = handle.read(MAX_YAML_BYTES + 1)
    except OSError as error:
        return Reading(
            None, (Problem(f"cannot read: {error.strerror or error}", source),), failed=True
        )
    except WizardError as error:
        return Reading(None, tuple(error.problems), failed=True)
    known = fingerprint(data)
    try:
        game = read_game(path, inputs.rules, data)
    except WizardError as error:
        return Reading(None, tuple(error.problems), known)
    return Reading(game.result, (), known)


# --- entry from a phone ----------------------------------------------------------------------


class NotInTurn(WizardError):
    """The request names a round or player that is not the one in turn (a second phone was
    quicker, or the sheet changed meanwhile): nothing was written."""


class Refused(WizardError):
    """The value itself is refused by the sheet's rules (the message is ``add``'s)."""


class CannotWrite(WizardError):
    """The sheet could not be changed (locked, read-only, invalid as it stands, not YAML, a
    failed write): nothing was written."""


def enter_bid(
    path: str,
    inputs: Inputs,
    number: object,
    player: object,
    bid: object,
    stopping: threading.Event | None = None,
    out: object = None,
) -> Recorded:
    """Record ``player``'s bid in round ``number`` if that is the bid the table waits for;
    ``out`` (names) who sits the round out, with a round's first bid only (SPEC §5).
    ``stopping``: the server is shutting down (a wait for the lock ends, nothing written)."""
    number, bid = _whole(number, "round"), _whole(bid, "bid")
    names = _names(out)

    def change(current: SheetText) -> Recorded:
        game = current.game
        _a_round(game, number)
        seat = _seat(game, player)
        if names:
            if game.finished:
                raise NotInTurn("the game is over: no bid is wanted")
            if game.in_play is not None:  # a second phone was quicker
                raise NotInTurn(
                    f'not in turn: "out" goes with a round\'s first bid, and '
                    f"round {game.current_round} has begun"
                )
            current = sitting_out(current, {_seat(game, name) for name in names})
            game = current.game
        _in_hand(game, bid, "bid", player)
        if game.finished:
            raise NotInTurn("the game is over: no bid is wanted")
        if number != game.current_round or seat != game.next_bidder:
            waiting = game.next_bidder
            wanted = (
                f"{game.players[waiting]} bids in round {game.current_round}"
                if waiting is not None
                else f"round {game.current_round} waits for the tricks"
            )
            raise NotInTurn(f"not in turn: {wanted}")
        return record_values(current, bids={seat: bid})

    return _change_in_turn(path, inputs, change, stopping=stopping)


def enter_tricks(
    path: str,
    inputs: Inputs,
    number: object,
    tricks: object,
    bomb: object = None,
    cloud: object = None,
    stopping: threading.Event | None = None,
) -> Recorded:
    """Complete round ``number`` with every player's tricks if it is the round waiting for them;
    ``bomb`` (true) and ``cloud`` (``{NAME: ±1}``) record the special cards with them
    (SPEC §5)."""
    number = _whole(number, "round")
    if not isinstance(tricks, Mapping):
        raise Refused('"tricks" must be an object of every player\'s tricks: {"Anna": 1, …}')
    values = {name: _whole(value, f"{name}'s tricks") for name, value in tricks.items()}
    if bomb is not None and not isinstance(bomb, bool):
        raise Refused('"bomb" must be true or false')
    if cloud is not None and (not isinstance(cloud, Mapping) or len(cloud) != 1):
        raise Refused('"cloud" must name one player and the change of their bid: {"Ben": 1}')

    def change(current: SheetText) -> Recorded:
        game = current.game
        _a_round(game, number)
        for name, value in values.items():
            _in_hand(game, value, "tricks", name)
        if (
            game.finished
            or number != game.current_round
            or game.in_play is None
            or game.next_bidder is not None
        ):
            bidder = game.next_bidder
            if game.finished:
                wanted = "the game is over"
            elif game.in_play is None:
                wanted = f"round {game.current_round} has no bids yet"
            elif bidder is not None:
                wanted = (
                    f"round {game.current_round} is still bidding ({game.players[bidder]} is next)"
                )
            else:  # every bid is in, but for another round than the one given
                wanted = f"round {game.current_round} waits for the tricks"
            raise NotInTurn(f"not in turn: {wanted}")
        by_seat = {_seat(game, name): value for name, value in values.items()}
        if bomb or cloud is not None:
            given = None
            if cloud is not None:
                ((name, step),) = cloud.items()
                given = (_seat(game, name), _change(step))
            return record_special(current, bool(bomb), given, tricks=by_seat)
        return record_values(current, tricks=by_seat)

    return _change_in_turn(path, inputs, change, stopping=stopping)


def enter_cloud(
    path: str,
    inputs: Inputs,
    number: object,
    player: object,
    change: object,
    stopping: threading.Event | None = None,
) -> Recorded:
    """Record the Cloud (``player``'s bid changed by ``change``, ±1) in round ``number`` once
    every bid of it is in, before its tricks (SPEC §5 ``POST /api/cloud``)."""
    number, step = _whole(number, "round"), _change(change)

    def record(current: SheetText) -> Recorded:
        game = current.game
        if (
            game.finished
            or number != game.current_round
            or game.in_play is None
            or game.next_bidder is not None
        ):
            raise NotInTurn(
                f"not in turn: round {game.current_round} is not waiting for its tricks"
            )
        return record_special(current, False, (_seat(game, player), step), before_tricks=True)

    return _change_in_turn(path, inputs, record, stopping=stopping)


def _change(value: object) -> int:
    """The Cloud's change of a bid from a JSON body: 1 or -1."""
    if isinstance(value, bool) or value not in (1, -1):
        raise Refused("the Cloud changes a bid by 1 or -1")
    return value


def enter_undo(
    path: str,
    inputs: Inputs,
    number: object,
    version: object,
    shown: tuple[int, bytes | None],
    stopping: threading.Event | None = None,
) -> Recorded:
    """Take back the last value written (what ``play``'s undo takes back) if it is in round
    ``number`` and the phone's game is the sheet as it stands; the note says what was taken
    back.

    ``version`` is the version of the game the phone shows; ``shown`` the server's current
    version and the fingerprint of the bytes it was read from. The version must be the current
    one, and, inside the lock, the file must still be those bytes: a double tap, or a second
    phone, finds the file changed by the first and is refused (NotInTurn), so an undo never
    takes back a step its phone did not show (SPEC §9 "Undo names what it takes back")."""
    number = _whole(number, "round")
    same_bytes = _same_version(version, shown)

    def change(current: SheetText) -> Recorded:
        _a_round(current.game, number)
        latest = latest_entry(current.game)
        if latest is None:
            raise NotInTurn("nothing to undo: no round is recorded yet")
        if number != latest[0]:
            raise NotInTurn(f"not in turn: the last step is in round {latest[0]}")
        return take_back_latest(current)

    return _change_in_turn(path, inputs, change, same_bytes, stopping)


def _same_version(
    version: object, shown: tuple[int, bytes | None], required: bool = True
) -> Callable[[bytes], None] | None:
    """The phone's ``version`` must be the server's current one, and the file still the bytes
    it was read from (checked inside the lock by the check returned): else 409, nothing
    written (SPEC §9 "Undo names what it takes back"). Without ``required``, no version given
    is no check."""
    if version is None and not required:
        return None
    if version is None:
        raise Refused('"version" is missing: send the version of the game the phone shows')
    version = _whole(version, "version")
    current_version, known = shown
    if version != current_version:
        raise NotInTurn(
            f"not in turn: the phone shows version {version}, the sheet is at "
            f"version {current_version}"
        )

    def same_bytes(data: bytes) -> None:
        if known is None or fingerprint(data) != known:
            raise NotInTurn(f"not in turn: the sheet changed since version {version}")

    return same_bytes


def _change_in_turn(
    path: str,
    inputs: Inputs,
    step: Callable[[SheetText], Recorded],
    same_bytes: Callable[[bytes], None] | None = None,
    stopping: threading.Event | None = None,
) -> Recorded:
    """One change through ``add``'s write path: inside the lock the sheet is read and validated
    (an invalid sheet cannot be written to), the request asked whether it is in turn, then the
    value recorded and the whole sheet validated. The errors say which refusal it was."""

    def change(current: SheetText) -> Recorded:
        try:
            return step(current)
        except (NotInTurn, Refused):
            raise
        except WizardError as error:
            if any(problem.message == UNSAFE for problem in error.problems):
                raise CannotWrite(*error.problems) from None
            raise Refused(*error.problems) from None

    try:
        return change_file(
            path,
            change,
            "serve",
            inputs.rules,
            fingerprint=same_bytes,
            stopping=stopping,
            follow=inputs.follow_links,
        )
    except (NotInTurn, Refused):
        raise
    except WizardError as error:  # the lock, a read-only or invalid sheet, a failed write
        raise CannotWrite(*error.problems) from None


def _names(value: object) -> list[str]:
    """``"out"``: a list of player names (null or absent: none)."""
    if value is None:
        return []
    if (
        not isinstance(value, list)
        or not all(isinstance(name, str) for name in value)
        or len(value) > MAX_LISTED
    ):
        raise Refused('"out" must be a list of the names of the players sitting the round out')
    return value


def enter_join(
    path: str,
    inputs: Inputs,
    player: object,
    after: object,
    start: object,
    version: object,
    shown: tuple[int, bytes | None],
    stopping: threading.Event | None = None,
) -> Recorded:
    """``player`` joins from the next round to be dealt (``wizard join``'s change, SPEC §5):
    after ``after`` (default last), with ``start`` (a whole number, ``"lowest"`` or
    ``"average"``; default 0). ``version``, when given, is checked as undo checks it."""
    if not isinstance(player, str) or not player.strip():
        raise Refused('"player" must be the name of the player joining')
    if after is not None and not isinstance(after, str):
        raise Refused('"after" must be a player\'s name')
    if (
        start is not None
        and start not in ("lowest", "average")
        and (isinstance(start, bool) or not isinstance(start, int))
    ):
        raise Refused('"startScore" must be a whole number, "lowest" or "average"')
    given = None if start is None else str(start)
    return _change_in_turn(
        path,
        inputs,
        lambda current: join(current, player, after, given),
        _same_version(version, shown, required=False),
        stopping,
    )


def enter_leave(
    path: str,
    inputs: Inputs,
    player: object,
    version: object,
    shown: tuple[int, bytes | None],
    stopping: threading.Event | None = None,
) -> Recorded:
    """``player`` leaves after the last complete round (``wizard leave``'s change, SPEC §5);
    ``version``, when given, is checked as undo checks it."""
    if not isinstance(player, str):
        raise Refused('"player" must be the name of the player leaving')
    return _change_in_turn(
        path,
        inputs,
        lambda current: leave(current, player),
        _same_version(version, shown, required=False),
        stopping,
    )


def preview_out(inputs: Inputs, names: list[str]) -> tuple[GameResult | None, str | None]:
    """The round to come as it would be dealt with ``names`` sitting it out (read, checked,
    nothing written: the entry page's sit-out choice, before the round's first bid); else
    None and why not."""
    from ..sheets.source import MAX_YAML_BYTES, decode_all, display_name, open_regular

    path = inputs.paths[0]
    source = display_name(path)
    try:
        with os.fdopen(open_regular(path, follow=inputs.follow_links), "rb") as handle:
            data = handle.read(MAX_YAML_BYTES + 1)
        current = read_text(
            decode_all(data.removeprefix(b"\xef\xbb\xbf"), source, inputs.rules.encoding),
            source,
            inputs.rules,
        )
        game = current.game
        if game.in_play is not None or game.finished:
            return None, None  # no round to come: nothing to preview
        return sitting_out(current, {_seat(game, name) for name in names}).game.result, None
    except OSError as error:
        return None, str(error.strerror or error)
    except WizardError as error:
        return None, "; ".join(problem.message for problem in error.problems)


def _whole(value: object, what: str) -> int:
    """A whole number from a JSON body (not a boolean, not a string)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise Refused(f"{what} must be a whole number")
    return value


def _a_round(game: Game, number: int) -> None:
    """A round number past the game's rounds (or below 1), however large, is refused as a
    value (422), not as a round out of turn: no such round will ever be in turn."""
    if not 1 <= number <= game.rounds_total:
        raise Refused(
            Problem(
                f"round {number} is not a round of this game (1 to {game.rounds_total})",
                game.source,
            )
        )


def _in_hand(game: Game, value: int, what: str, player: object) -> None:
    """A count below 0 or past the hand size is refused with ``add``'s message before it goes
    near the sheet's text (a bid of 2**63 would otherwise reach the YAML writer)."""
    if game.finished:
        return  # nothing is in turn: said as such
    size = game.hand_size()
    name = player if isinstance(player, str) else None
    if value < 0:
        raise Refused(
            Problem(f"{what} {value} is negative", game.source, None, game.current_round, name)
        )
    if value > size:
        raise Refused(
            Problem(
                f"{what} {value} is more than the hand size of {size}",
                game.source,
                None,
                game.current_round,
                name,
            )
        )


def _seat(game: Game, name: object) -> int:
    """A player's seat by the name as the sheet writes it."""
    players = game.players
    if not isinstance(name, str) or name not in players:
        raise Refused(f"unknown player {name!r} (players: {', '.join(players)})")
    return players.index(name)
