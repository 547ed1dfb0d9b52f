"""``play``'s seat entries (SPEC §5 "Special cards and seating at the table"): at a round's
first bid prompt ``join NAME``, ``leave NAME`` and ``out NAME`` do what ``wizard join``,
``wizard leave`` and ``add --out`` do, and the round is asked again.

A join or a leave is written at once (``app/seat_changes.py``, the same change and refusals as
the commands); who sits the round out is kept until its first bid, then written with it, as
``add --bids … --out NAME`` writes both (``app/recording.py``); meanwhile the round is shown as
it will be dealt."""

from __future__ import annotations

from typing import Protocol

from ..app.recording import Change, Recorded, SheetText, change_file, record_values, sitting_out
from ..app.seat_changes import join, leave
from ..app.typed_values import player_seat
from ..errors import WizardError
from ..game.game import Game

WORDS = ("join", "leave", "out")


class Table(Protocol):
    """What these entries ask of ``play``'s table (``cli/play.py``)."""

    path: str
    game: Game
    start_score: str | None
    out: list[int]  # who sits out the round to come, not written yet
    opened: int | None  # the round whose opening line was last shown

    @property
    def line(self) -> _Line | None: ...  # read only: play's own Line is one

    def refuse(self, *reasons: str) -> None: ...
    def warn(self, text: str) -> None: ...
    def write(self, change: Change, what: str) -> Recorded | None: ...


class _Line(Protocol):
    def take(self) -> str | None: ...


def seat_word(table: Table, word: str, seats: bool) -> tuple[str, str] | None:
    """``join``/``leave``/``out`` and the name that follows it (the line's next word), or None
    when refused (not at a round's first bid, or no name)."""
    if not seats:
        table.refuse(
            f"'{word}' is taken at a round's first bid prompt (join NAME, leave NAME, out NAME)"
        )
        return None
    name = table.line.take() if table.line is not None else None
    if name is None:
        table.refuse(f"{word} takes the player's name on the same line: {word} NAME")
        return None
    return word, name


def seat_entry(table: Table, word: str, name: str) -> None:
    """Act on ``join NAME``, ``leave NAME`` or ``out NAME``; the round is asked again (its
    opening line shown again) after each one taken."""
    if word == "out":
        try:
            seat = player_seat(name, table.game.players, "out")
        except WizardError as error:
            table.refuse(*(problem.message for problem in error.problems))
            return
        if seat in table.out:
            table.refuse(f"{table.game.players[seat]} sits this round out already")
            return
        table.out.append(seat)
        if previewed(table) is table.game:  # refused: said, and the out taken back
            return
        table.warn(f"{table.game.players[seat]} sits round {table.game.current_round} out")
    else:
        change: Change = (
            (lambda current: join(current, name, None, table.start_score))
            if word == "join"
            else (lambda current: leave(current, name))
        )
        done = table.write(change, f"{name} did not {word}")
        if done is None:
            return
        if done.note is not None:
            table.warn(done.note.message)
    table.opened = None


def take_back_out(table: Table) -> None:
    """``undo`` at a round's first bid while someone is to sit it out: the last ``out`` is
    taken back (nothing of it was written yet)."""
    seat = table.out.pop()
    table.warn(f"took back {table.game.players[seat]} sitting round {table.game.current_round} out")
    table.opened = None


def previewed(table: Table) -> Game:
    """The round to come as it will be dealt with ``table.out`` sitting it out (read, checked
    and nothing written); refused (too few seated, a round that does not fit the deck) it is
    said, the ``out`` entries dropped and the game as it stands returned."""
    seen: list[Game] = []

    def look(current: SheetText) -> Recorded:
        seen.append(sitting_out(current, table.out).game)
        return Recorded(current)  # the text as read: nothing is written

    try:
        change_file(table.path, look, "play", whole=False)
    except WizardError as error:
        table.out.pop()
        table.refuse(*(problem.message for problem in error.problems))
        return table.game
    return seen[-1]


def first_bid(table: Table, seat: int, bid: int) -> Change:
    """The change a round's first bid makes: with ``out`` (who sits the round out) when any."""
    out = list(table.out)
    if not out:
        return lambda current: record_values(current, bids={seat: bid})
    return lambda current: record_values(sitting_out(current, out), bids={seat: bid})
