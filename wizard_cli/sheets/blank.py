"""The blank sheet of ``wizard new`` (and of ``wizard play`` starting a game): every setting
written out with its meaning, commented, ready for ``wizard add``."""

from __future__ import annotations

import dataclasses
import datetime
import re
from collections.abc import Callable, Iterable, Sequence

from ..errors import Problem, WizardError
from ..game.model import Sheet
from ..game.settings import SPEC_BY_KEY, Settings
from ..game.validation import check_sheet
from .yaml.text import flow_list, setting_text, yaml_scalar

_PLAIN_WORD = re.compile(r"[\w./+-]+")


def _header(players: Sequence[str], file: str | None) -> list[str]:
    """The comment at the top of a new sheet: how to record rounds, with its own names."""
    count = len(players)
    shown = file if file and _PLAIN_WORD.fullmatch(file) else "FILE"
    by_name = ",".join(f"{name}={bid}" for name, bid in zip(players[:2], (1, 0)))
    if not all(_PLAIN_WORD.fullmatch(name) for name in players[:2]):
        by_name = "NAME=1,NAME=0"
    bids = ",".join(["1", "0", "2", "1", "0", "1"][:count])
    tricks = ",".join(["1", "0", "1", "2", "0", "0"][:count])
    commands = [
        (f"wizard add {shown} --bids {bids}", "the bids, in seating order"),
        (f"wizard add {shown} --bids {by_name}", "or some of them, by name"),
        (f"wizard add {shown} --tricks {tricks}", "the tricks taken: completes the round"),
        (f"wizard next {shown}", "who deals, who bids next, what the dealer may not bid"),
        (f"wizard score {shown}", "the scores so far"),
    ]
    width = max(len(command) for command, _ in commands) + 2
    return ["# A Wizard score sheet. Record each round as it is played:"] + [
        f"#   {command:<{width}}{note}" for command, note in commands
    ]


def sheet_date(text: str | None, today: Callable[[], datetime.date] = datetime.date.today) -> str:
    """The ``date:`` of a new sheet (SPEC §5 "Games are dated"): ``--date``'s (ISO
    ``YYYY-MM-DD``, a real day) when given, else ``today()``'s, the local date. A bad ``--date``
    is one line naming the option, exit 1, as a bad ``--set`` is."""
    from .cells import parse_date

    if text is None:
        return today().isoformat()
    date = parse_date(text, dotted=False)
    if isinstance(date, str):
        return date
    if date is None:
        raise WizardError(Problem("--date: is empty: give YYYY-MM-DD"))
    raise WizardError(Problem(f"--date: '{date.text}' {date.why}"))


def new_sheet(
    players: Sequence[str],
    layers: Sequence[Iterable] = (),
    first_dealer: str | None = None,
    title: str | None = None,
    file: str | None = None,
    date: str | None = None,
    place: str | None = None,
) -> str:
    """``wizard new``: check the players and rules like a sheet's, then the blank sheet's text
    (``date``: ISO text, see :func:`sheet_date`)."""
    sheet = Sheet(source="--players", players=list(players), player_lines=[None] * len(players))
    checked = check_sheet(sheet, layers, first_dealer)
    if checked.problems:  # an option's own problem names the option, not "--players"
        raise WizardError(
            *(
                dataclasses.replace(p, path=None) if p.message.startswith("--") else p
                for p in checked.problems
            )
        )
    return blank_sheet(
        players, checked.settings, players[checked.first_dealer], title, file, date, place
    )


def blank_sheet(
    players: Sequence[str],
    settings: Settings,
    first_dealer: str,
    title: str | None = None,
    file: str | None = None,
    date: str | None = None,
    place: str | None = None,
) -> str:
    """A blank, commented YAML sheet with every setting written out (``wizard new``); the
    optional keys in SPEC §3's order: title, date, place."""
    body: list[tuple[str, str]] = []
    if title is not None:
        body.append((f"title: {yaml_scalar(title, flow=False)}", ""))
    if date is not None:
        body.append((f"date: {date}", ""))
    if place is not None:
        body.append((f"place: {yaml_scalar(place, flow=False)}", ""))
    body.append((f"players: {flow_list(players)}", "seating order, clockwise"))
    body.append(
        (
            f"firstDealer: {yaml_scalar(first_dealer, flow=False)}",
            "deals round 1; the deal passes to the left",
        )
    )
    body.append(("settings:", "the house rules: `wizard rules` explains each"))
    for key, value in settings.as_dict().items():
        spec = SPEC_BY_KEY[key]
        body.append((f"  {key}: {setting_text(key, value)}", spec.allowed()))
    width = max(len(text) for text, _ in body) + 2
    lines = _header(players, file)
    lines += [f"{text:<{width}}# {note}" if note else text for text, note in body]
    example = [1] + [0] * (len(players) - 1)
    lines += [
        "# one entry per round, values in seating order; the last may be still in play:",
        f"#   - bids:   {flow_list(example)}",
        f"#     tricks: {flow_list(example)}",
        "rounds: []",
    ]
    return "\n".join(lines) + "\n"
