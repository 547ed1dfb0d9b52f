"""The values of a round as typed on the command line (``add``, ``edit``, ``play``): ``--bids``
and ``--tricks`` (a list in seating or bidding order, or by name) and ``--cloud NAME=±1``, read
into seats and whole numbers.

Apart from recording because they are about what was typed, not about the sheet: a mistake here
is the command line's (its message starts with the option and names no sheet), and whether a
value fits the round is checked later, with the whole sheet (:mod:`.recording`).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import Problem, WizardError
from ..game.model import BadValue
from ..game.settings import suggest
from ..sheets.cells import whole_number

NOT_YET = ("", "-")  # in a seating-order list: this player has not bid yet


def parse_values(
    text: str, players: Sequence[str], what: str, order: Sequence[int] | None = None
) -> dict[int, int]:
    """``1,0,2,1`` in seating order (``-`` or nothing: not yet), or ``Anna=1,Ben=0``: seat → value.

    With ``order`` (the seats in bidding order, ``--bidding-order``) a list is in that order, and
    a shorter one gives the first bidders' values."""
    parts = [part.strip() for part in text.split(",")]
    option = f"--{what}"
    named = [part for part in parts if "=" in part]
    if named and len(named) != len([p for p in parts if p]):
        raise WizardError(
            Problem(
                f"{option} {text}: give every value by name (Anna=1,Ben=0) or "
                "none (1,0,2 in seating order), not a mix"
            )
        )
    values: dict[int, int] = {}
    if named:
        for part in named:
            name, _, value = part.rpartition("=")
            seat = player_seat(name.strip(), players, option)
            if seat in values:
                raise WizardError(Problem(f"{option}: {players[seat]} is given twice"))
            values[seat] = _number(value, option, players[seat])
    elif order is not None:
        if len(parts) > len(players):
            raise WizardError(
                Problem(
                    f"{option} {text}: {len(parts)} values for {len(players)} players (in bidding "
                    f"order: {', '.join(players[seat] for seat in order)})"
                )
            )
        values = {
            order[index]: _number(part, option, players[order[index]])
            for index, part in enumerate(parts)
            if part not in NOT_YET
        }
    else:
        if len(parts) != len(players):
            raise WizardError(
                Problem(
                    f"{option} {text}: {len(parts)} values for {len(players)} players (one per player "
                    f"in seating order: {', '.join(players)}; or by name, e.g. {players[0]}=1)"
                )
            )
        values = {
            seat: _number(part, option, players[seat])
            for seat, part in enumerate(parts)
            if part not in NOT_YET
        }
    if not values:
        raise WizardError(Problem(f"{option} {text}: no values given"))
    return values


def player_seat(name: str, players: Sequence[str], option: str) -> int:
    """A player's seat from a name as typed: exact, else the one name equal ignoring case and
    surrounding spaces."""
    if name in players:
        return players.index(name)
    folded = [
        seat
        for seat, player in enumerate(players)
        if player.strip().casefold() == name.strip().casefold()
    ]
    if len(folded) == 1:
        return folded[0]
    said = f"{option}: " if option else ""  # play's prompts name no option
    raise WizardError(
        Problem(
            f"{said}unknown player '{name}'{suggest(name, players)} (players: {', '.join(players)})"
        )
    )


def _number(text: str, option: str, player: str) -> int:
    """A whole number typed on the command line (range is checked with the whole sheet)."""
    value = whole_number(text)
    if value is None or isinstance(value, BadValue):
        raise WizardError(Problem(f"{option}: {player}'s '{text.strip()}' is not a whole number"))
    return value


def parse_cloud(text: str, players: Sequence[str], option: str = "--cloud") -> tuple[int, int]:
    """``--cloud NAME=+1`` (or ``-1``): (seat, change); ``option`` "" for ``play``'s answer
    ``c NAME +1``, which names no option."""
    name, equals, change = text.rpartition("=")
    if not equals or change.strip().replace("−", "-") not in ("+1", "1", "-1"):
        raise WizardError(
            Problem(
                f"{option} {text}: give the player and the change of their bid, NAME=+1 or NAME=-1"
                if option
                else f"the Cloud changes a bid by +1 or -1, not '{change.strip()}'"
            )
        )
    return (
        player_seat(name.strip(), players, option),
        -1 if "-" in change or "−" in change else 1,
    )
