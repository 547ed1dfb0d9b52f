"""Who sits a recorded round, changed by ``wizard edit --round N --out NAME`` (their values
taken out, NAME sits the round out) and ``--seated NAME`` (a player sitting it out seated, with
the bid, and in a complete round the tricks, given in the same command) — SPEC §5 "Special
cards and seating at the table". The change is one edit of the round's text, checked whole
like any edit (``app/amending.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..editing.spliced import Text
from ..errors import Problem, WizardError
from ..game.game import Game
from ..game.model import RoundRecord
from ..game.seating import Seating
from .recording import UNSAFE, SheetText, bare_round, with_specials
from .typed_values import player_seat


@dataclass(frozen=True)
class SeatMoves:
    """Who leaves the round's seats (``out``) and who takes one, with their values (seat →
    bid, seat → tricks, tricks only in a complete round)."""

    out: frozenset[int]
    seated: Mapping[int, int]
    tricks: Mapping[int, int]

    def __bool__(self) -> bool:
        return bool(self.out or self.seated)


def _seating(game: Game) -> Seating:
    return game.sheet.seating or Seating.plain(len(game.players))


def _names(text: str | None, game: Game, option: str) -> set[int]:
    if text is None:
        return set()
    seats = {
        player_seat(name.strip(), game.players, option) for name in text.split(",") if name.strip()
    }
    if not seats:
        raise WizardError(Problem(f"{option} {text!r}: name the players"))
    return seats


def seat_moves(
    game: Game,
    number: int,
    out: str | None,
    seated: str | None,
    bids: Mapping[int, int],
    tricks: Mapping[int, int],
) -> SeatMoves:
    """``--out``/``--seated`` as typed, checked against round ``number`` as recorded: each
    refusal names the round and the player, and nothing is written."""
    players, source = game.players, game.source
    seating = _seating(game)
    record = game.rounds[number - 1]
    outs, seats = _names(out, game, "--out"), _names(seated, game, "--seated")

    def refuse(message: str, seat: int) -> WizardError:
        return WizardError(Problem(message, source, None, number, players[seat]))

    sitting = seating.seated(number)
    for seat in sorted(outs):
        if seat in seats:
            raise refuse("--out and --seated both name this player", seat)
        if seat not in sitting:
            raise refuse(
                f"is not seated in round {number}: {seating.why_not_seated(seat, number)}", seat
            )
        if seat in bids or seat in tricks:
            raise refuse(f"sits round {number} out: give no --bids or --tricks for them", seat)
    for seat in sorted(seats):
        if seat in sitting:
            raise refuse(f"is seated in round {number} already", seat)
        if seat not in seating.out.get(number, ()):
            raise refuse(
                f"cannot be seated in round {number}: {seating.why_not_seated(seat, number)}", seat
            )
        if seat not in bids:
            raise refuse(
                f"give their bid with --bids {players[seat]}=N (--seated {players[seat]})", seat
            )
        if record.tricks is not None and seat not in tricks:
            raise refuse(
                f"round {number} is complete: give their tricks too with --tricks "
                f"{players[seat]}=N",
                seat,
            )
        if record.tricks is None and seat in tricks:
            raise refuse("no tricks recorded yet: record them with wizard add --tricks", seat)
        if record.points is not None:
            raise refuse(f"round {number} records its points: seat the player by hand", seat)
    return SeatMoves(
        frozenset(outs),
        {seat: bids[seat] for seat in seats},
        {seat: tricks[seat] for seat in seats if seat in tricks},
    )


def moved(
    game: Game, text: Text, after: RoundRecord, moves: SeatMoves
) -> tuple[Text, RoundRecord, tuple[Problem, ...]]:
    """The round's text with the players moved (values out, then in, then ``out`` itself),
    the round as it must read back, and a line for each player moved, in seating order."""
    from ..editing.round_seats import drop_values, put_values, set_out

    players, line, number = game.players, game.sheet.line or 1, after.number
    seating = _seating(game)
    before = seating.seated(number)
    keys = (
        ["bids"] + ["tricks"] * (after.tricks is not None) + ["points"] * (after.points is not None)
    )
    text = drop_values(text, number, keys, {players[s]: before.index(s) for s in moves.out}, line)
    now = [
        seat
        for seat in range(len(players))
        if (seat in before and seat not in moves.out) or seat in moves.seated
    ]
    values = {"bids": {players[s]: v for s, v in moves.seated.items()}}
    if after.tricks is not None:
        values["tricks"] = {players[s]: v for s, v in moves.tricks.items()}
    if moves.seated:
        text = put_values(text, number, values, [players[seat] for seat in now], line)
    sitting_out = sorted((set(seating.out.get(number, ())) - set(moves.seated)) | moves.out)
    text = set_out(text, number, [players[seat] for seat in sitting_out], line)

    def changed(values: list | None, given: Mapping[int, int]) -> list | None:
        if values is None:
            return None
        return [
            None if seat in moves.out else given.get(seat, value)
            for seat, value in enumerate(values)
        ]

    record = with_specials(
        bare_round(
            number,
            changed(after.bids, moves.seated) or [],
            changed(after.tricks, moves.tricks),
            changed(after.points, {}),
        ),
        after.bomb,
        after.cloud,
    )
    said = []
    for seat in sorted(moves.out | set(moves.seated)):
        if seat in moves.out:
            taken = [
                f"{what} {values[seat]}"
                for what, values in (("bid", after.bids), ("tricks", after.tricks))
                if values is not None and values[seat] is not None
            ]
            gone = f" ({', '.join(taken)} taken out)" if taken else ""
            said.append(
                Problem(f"sits the round out{gone}", game.source, None, number, players[seat])
            )
        else:
            given = f"bid {moves.seated[seat]}" + (
                f", tricks {moves.tricks[seat]}" if seat in moves.tricks else ""
            )
            said.append(Problem(f"seated ({given})", game.source, None, number, players[seat]))
    return text, record, tuple(said)


def seats_checked(before: SheetText, after: SheetText, number: int, moves: SeatMoves) -> None:
    """The text read back sits out exactly those expected in round ``number``, and every other
    seat of the sheet is as it was; else nothing is written (an edit gone wrong)."""
    old, new = _seating(before.game), _seating(after.game)
    expected = (set(old.out.get(number, ())) - set(moves.seated)) | moves.out
    others = lambda seating: (  # noqa: E731
        {r: v for r, v in seating.out.items() if r != number and v},
        seating.joins,
        seating.leaves,
        seating.start,
        seating.dealers,
    )
    if set(new.out.get(number, ())) != expected or others(old) != others(new):
        raise WizardError(Problem(UNSAFE, before.source))
