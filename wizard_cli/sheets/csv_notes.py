"""What a CSV cannot carry of a sheet (``wizard convert``), said in one line on stderr with the
options that score the CSV the same: a title, firstDealer, settings, place and notes (a wide CSV
also typed points and the date; SPEC §3)."""

from __future__ import annotations

import shlex
from typing import Sequence

from ..game.settings import DEFAULTS, value_text
from .writing import Portable

def csv_drops(sheets: Sequence[Portable], target: str) -> str | None:
    """One line saying what a CSV target cannot carry and how to score it the same, or None."""
    parts = []
    needs = set()
    for p in sheets:
        flags = _scoring_flags(p)
        dropped = [f"title '{_one_line(p.title)}'"] if p.title is not None else []
        if p.first_dealer is not None and p.first_dealer != p.players[0]:
            dropped.append(f"firstDealer {_one_line(p.first_dealer)}")
        changed = [flag.replace("--set ", "") for flag in flags if flag.startswith("--set ")]
        if changed:
            dropped.append("settings " + ", ".join(changed))
        if target == "wide-csv" and p.has_points:
            dropped.append("typed points")
        if target == "wide-csv" and p.date is not None:
            dropped.append(f"date {p.date}")
        if target == "wide-csv" and p.game is not None:  # one game only: a wide CSV has no ids
            dropped.append(f"game id '{_one_line(str(p.game))}'")
        dropped += [f"{key} '{_one_line(getattr(p, key))}'" for key in ("place", "notes")
                    if getattr(p, key) is not None]
        if dropped:
            parts.append((f"game {p.game}: " if len(sheets) > 1 else "") + "; ".join(dropped))
        needs.add(tuple(flags))
    if not parts:
        return None
    kind = "a long CSV" if target == "csv" else "a wide CSV"
    what = ("a title, firstDealer, settings or typed points" if target == "wide-csv"
            else "a title, firstDealer or settings")
    if any(p.place is not None or p.notes is not None
           or (target == "wide-csv" and (p.date or p.game is not None)) for p in sheets):  # named only when there is one, so older notes read as before
        what = what.replace(" or ", ", ") + (", a game id, date, place or notes"
                                             if target == "wide-csv" else ", place or notes")
    if len(needs) > 1:
        hint = " (its games differ in rules: score each with its own --set/--first-dealer)"
    else:
        flags = next(iter(needs))
        hint = f" (score it the same with {' '.join(flags)})" if flags else ""
    return f"note: {kind} cannot carry {what}; dropped {' / '.join(parts)}{hint}"


def _scoring_flags(p: Portable) -> list[str]:
    """The options that make a CSV of this sheet score as the sheet does: settings off their
    default, and the first dealer when it is not the first player."""
    defaults = DEFAULTS.as_dict()
    flags = [f"--set {key}={value_text(value)}" for key, value in p.effective.as_dict().items()
             if defaults[key] != value]
    if p.first_dealer is not None and p.first_dealer != p.players[0]:
        flags.append(f"--first-dealer {shlex.quote(p.first_dealer)}")
    return flags


def _one_line(text: str) -> str:
    """Text for a one-line message: runs of whitespace and line breaks as one space."""
    return " ".join(text.split())
