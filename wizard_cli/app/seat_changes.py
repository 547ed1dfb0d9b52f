"""``wizard join`` and ``wizard leave`` (SPEC §5): a player joins from the next round to be
dealt, or leaves after the last complete round, written into the sheet's ``players`` list in
place (its layout kept, as ``add`` keeps it) and checked whole before anything is written."""

from __future__ import annotations

import dataclasses

from ..editing.seat_edits import insert_player, remove_player, replace_name, replace_player
from ..editing.spliced import Text
from ..errors import Problem, WizardError, shorten
from ..game.game import Game
from ..game.settings import DECK_SIZE, MAX_PLAYERS, MIN_PLAYERS
from ..game.validation import validated_game
from .batch import SheetRules
from .recording import UNSAFE, Recorded, SheetText, bare_rounds, change_file, parse_last_sheet

START_LIMIT = 10**9  # a start score a sheet reads (sheets/yaml/values.py: "far too large")


def _refuse(
    game: Game, message: str, number: int | None = None, player: str | None = None
) -> WizardError:
    return WizardError(Problem(message, game.source, None, number, player))


def _between_rounds(game: Game, what: str) -> None:
    """A seat changes only between rounds, and never in a finished game (SPEC §1, §5)."""
    if game.finished:
        raise _refuse(game, f"the game is over: no player can {what} a finished game")
    if game.in_play is not None:
        raise _refuse(
            game,
            f"round {game.in_play.number} is in play: finish round {game.in_play.number} first",
        )


def start_score(game: Game, given: str | None) -> int:
    """``--start-score``: a whole number, ``lowest`` (the lowest total among the players seated
    in the last complete round) or ``average`` (the mean of their totals, rounded down)."""
    if given is None:
        return 0
    if given in ("lowest", "average"):
        totals = game.result.totals
        played = game.rounds_played
        seated = _seated(game, played) if played else list(range(len(game.players)))
        values = [totals[seat] for seat in seated]
        return min(values) if given == "lowest" else sum(values) // len(values)
    try:
        value = int(given)
    except ValueError:
        raise WizardError(
            Problem(f"--start-score {given!r}: give a whole number, lowest or average")
        ) from None
    if abs(value) >= START_LIMIT:  # a sheet reads no larger number (§4: absurd claims)
        raise WizardError(Problem(f"--start-score {shorten(given, 12)} is far too large"))
    return value


def _seated(game: Game, number: int) -> list[int]:
    seating = game.sheet.seating
    return list(range(len(game.players))) if seating is None else seating.seated(number)


def _fits(game: Game, number: int, seated: int, name: str) -> None:
    """The round the change makes seats 3 to 6 and fits the deck (SPEC §5: refused, naming it)."""
    if not MIN_PLAYERS <= seated <= MAX_PLAYERS:
        raise _refuse(
            game,
            f"round {number} would seat {seated} players: a round seats "
            f"{MIN_PLAYERS} to {MAX_PLAYERS}",
            number,
            name,
        )
    size = game.hand_size(number) if number <= game.rounds_total else number
    if size * seated > DECK_SIZE:
        raise _refuse(
            game,
            f"round {number} would not fit the deck: {seated} seated need {size * seated} cards",
            number,
            name,
        )


def join(
    current: SheetText, name: str, after: str | None = None, start: str | None = None
) -> Recorded:
    """NAME joins from the next round to be dealt, after ``after`` in seating order (default
    last), with a start score; refused while a round is in play, for a name already listed."""
    game = current.game
    players = list(game.players)
    _between_rounds(game, "join")
    # A name is matched ignoring case and surrounding spaces, as --bids NAME=V matches it (SPEC
    # §5): 'anna' beside 'Anna' could not be told apart.
    listed = [player for player in players if player.strip().casefold() == name.strip().casefold()]
    if listed:
        also = f" (as '{listed[0]}')" if listed[0] != name else ""
        raise _refuse(
            game,
            f"'{name}' is already listed{also} (a player joins once and leaves once)",
            None,
            name,
        )
    if not name.strip():
        raise WizardError(Problem("a player's name is empty"))
    name = name.strip()  # as new --players writes a name
    if after is not None and after not in players:
        raise WizardError(Problem(f"--after '{after}' is not one of the players"))
    place = players.index(after) + 1 if after is not None else len(players)
    number = game.current_round
    score = start_score(game, start)
    seating = game.sheet.seating
    at_table = len(players) if seating is None else len(seating.listed(number))
    _fits(game, number, at_table + 1, name)
    entry: dict[str, object] = {"name": name, "joins": number}
    if score:
        entry["startScore"] = score
    text = insert_player(current.text, place, entry, current.line)
    players.insert(place, name)
    return _checked(current, text, players, f"{name} joins from round {number}")


def leave(current: SheetText, name: str) -> Recorded:
    """NAME leaves after the last complete round; refused while a round is in play, or when
    fewer than 3 would be left seated."""
    game = current.game
    _between_rounds(game, "leave")
    players = list(game.players)
    listed = [player for player in players if player.strip().casefold() == name.strip().casefold()]
    if name not in players and len(listed) != 1:
        raise WizardError(Problem(f"'{name}' is not one of the players"))
    name = name if name in players else listed[0]
    seat = players.index(name)
    last = game.rounds_played
    if not last:
        raise _refuse(
            game, "no round is complete yet: take the player out of the players list", None, name
        )
    seating = game.sheet.seating
    if seating is not None and seating.leaves[seat] is not None:
        raise _refuse(game, f"has already left after round {seating.leaves[seat]}", None, name)
    if seating is not None and seating.joins[seat] > last:
        raise _refuse(
            game, f"has not joined yet (joins in round {seating.joins[seat]})", None, name
        )
    following = (len(players) if seating is None else len(seating.listed(last + 1))) - 1
    _fits(game, last + 1, following, name)
    entry: dict[str, object] = {"name": name}
    if seating is not None and seating.joins[seat] != 1:
        entry["joins"] = seating.joins[seat]
    entry["leaves"] = last
    if seating is not None and seating.start[seat]:
        entry["startScore"] = seating.start[seat]
    text = replace_player(current.text, seat, entry, current.line)
    return _checked(current, text, players, f"{name} leaves after round {last}")


def _checked(before: SheetText, text: Text, players: list[str], said: str) -> Recorded:
    """The changed text read back: the players as expected, every round's values as before,
    and the sheet valid, or nothing is written."""
    changed = parse_last_sheet(text, before.source, 1)
    old = before.game
    if changed.players != players or changed.problems:
        raise WizardError(Problem(UNSAFE, before.source))
    both = [
        (old.players.index(name), players.index(name)) for name in players if name in old.players
    ]
    olds, news = bare_rounds(old.sheet), bare_rounds(changed)
    if len(olds) != len(news):
        raise WizardError(Problem(UNSAFE, before.source))
    for was, now in zip(olds, news):
        if (
            any(now.bids[new] != was.bids[former] for former, new in both)
            or ((was.tricks is None) != (now.tricks is None))
            or (
                was.tricks is not None
                and now.tricks is not None  # (both, or the line above has refused it)
                and any(now.tricks[new] != was.tricks[former] for former, new in both)
            )
        ):
            raise WizardError(Problem(UNSAFE, before.source))
    if changed.game is None:
        changed.game = old.sheet.game
    game = validated_game(changed, before.rules.layers, before.rules.first_dealer)
    return Recorded(dataclasses.replace(before, text=text, game=game), Problem(said, before.source))


def seat_to_take_back(game: Game) -> tuple[bool, int] | None:
    """The join (True, seat) or leave (False, seat) ``undo`` takes back now, if any: a
    ``joins`` equal to the next round to be dealt, else a ``leaves`` equal to the last complete
    round, while no later round (not even one in play) is recorded (SPEC §5)."""
    seating = game.sheet.seating
    if seating is None or game.in_play is not None:
        return None
    number = game.current_round
    joined = [
        seat
        for seat, joins in enumerate(seating.joins)
        if joins == number and (number > 1 or seating.entry_lines[seat] is not None)
    ]
    left = [seat for seat, leaves in enumerate(seating.leaves) if leaves == game.rounds_played]
    # The later of a join and a leave is the one whose taking back leaves round ``number``
    # seating 3 to 6 (each was refused otherwise, SPEC §1): a leave after a join, if the join
    # alone taken back would leave too few.
    if joined and (not left or len(seating.listed(number)) > MIN_PLAYERS):
        return True, joined[-1]
    return (False, left[-1]) if left else None


def take_back_seat(current: SheetText) -> Recorded | None:
    """``undo`` of a join or a leave, while no later round (not even one in play) is recorded:
    a ``joins`` equal to the next round to be dealt takes the player out of ``players``, else a
    ``leaves`` equal to the last complete round is taken off (SPEC §5); None when neither."""
    game = current.game
    found = seat_to_take_back(game)
    if found is None:
        return None
    joined, seat = found
    seating = game.sheet.seating
    assert seating is not None  # a seat to take back is one the seating names
    players = list(game.players)
    line = current.line
    number = game.current_round
    if joined:
        text = remove_player(current.text, seat, line)
        name = players.pop(seat)
        return _checked(current, text, players, f"took back {name} joining from round {number}")
    entry: dict[str, object] = {"name": players[seat]}
    if seating.joins[seat] != 1:
        entry["joins"] = seating.joins[seat]
    if seating.start[seat]:
        entry["startScore"] = seating.start[seat]
    text = (
        replace_player(current.text, seat, entry, line)
        if len(entry) > 1
        else replace_name(current.text, seat, players[seat], line)
    )
    return _checked(
        current,
        text,
        players,
        f"took back {players[seat]} leaving after round {game.rounds_played}",
    )


def join_in_file(
    path: str, rules: SheetRules, name: str, after: str | None, start: str | None
) -> Recorded:
    """``wizard join``: written in place, only if the sheet stays valid."""
    return change_file(path, lambda current: join(current, name, after, start), "join", rules)


def leave_in_file(path: str, rules: SheetRules, name: str) -> Recorded:
    """``wizard leave``: written in place, only if the sheet stays valid."""
    return change_file(path, lambda current: leave(current, name), "leave", rules)
