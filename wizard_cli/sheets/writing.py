"""Every sheet file format is written here (``wizard convert``): YAML (one sheet or a season
stream), JSON, long and wide CSV, whole or a sheet at a time (:func:`season_pieces`).

Writers work from validated sheets and write only what the reader reads back to the same
scores: :func:`read_back` re-reads what was written and :func:`same_sheets` compares, so
``wizard convert`` can refuse to write anything that would not come back unchanged.
"""

from __future__ import annotations


import csv
import io
from dataclasses import dataclass, replace
from typing import Any, Iterable, Iterator, Sequence


from ..errors import Problem, WizardError
from ..game.model import BadValue, RoundRecord, Sheet, Value
from .csv_sheets import read_csv_sheets
from .formats import serialize
from .yaml_sheets import read_yaml_sheets
from .yaml_text import flow_list, flow_map, json_text, setting_text, yaml_scalar
from ..game.settings import DEFAULTS, SPECS, Settings, resolve
from ..game.validation import Checked

CSV_TARGETS = ("csv", "wide-csv")


@dataclass(frozen=True, slots=True)
class Portable:
    """A validated sheet as a file carries it: what was written, with the rules made explicit.

    ``settings`` holds every key set anywhere (the sheet, ``--settings``, ``--set``) with its
    effective value, so the written sheet scores the same without any option.
    """

    source: str
    game: str | int | None
    title: str | None
    players: tuple[str, ...]
    first_dealer: str | None
    settings: dict[str, Any]
    rounds: tuple[RoundRecord, ...]
    effective: Settings = DEFAULTS
    date: str | None = None  # ISO text
    place: str | None = None
    notes: str | None = None

    @property
    def has_points(self) -> bool:
        """Some round carries the user's own typed points."""
        return any(_has_values(r.points) for r in self.rounds)


def portable(checked: Checked, layers: Sequence[Iterable] = (), dealer_given: bool = False) -> Portable:
    """A checked (valid) sheet with its effective rules, ready to be written in any format."""
    sheet = checked.sheet
    keys = resolve([sheet.settings, *layers], len(sheet.players)).sources
    effective = checked.settings.as_dict()
    settings = {spec.key: effective[spec.key] for spec in SPECS if spec.key in keys}
    named_dealer = sheet.first_dealer is not None or dealer_given
    return Portable(sheet.source, sheet.game, sheet.title, tuple(sheet.players),
                    sheet.players[checked.first_dealer] if named_dealer else None,
                    settings, tuple(sheet.rounds), checked.settings, sheet.date, sheet.place,
                    sheet.notes)


def _has_values(values: Sequence[Value] | None) -> bool:
    """A per-player list with at least one value in it."""
    return values is not None and any(v is not None for v in values)


def _cell_value(value: Value) -> Any:
    """A bid/tricks/points value as written: an int, None, or a bad value's text as typed."""
    return value.text if isinstance(value, BadValue) else value


# --- YAML --------------------------------------------------------------------------------

def sheet_yaml(p: Portable) -> str:
    """One sheet as a YAML document, in the readable layout of the sample sheets."""
    lines = []
    if p.game is not None:  # the id survives the way back (SPEC §3)
        lines.append(f"game: {yaml_scalar(p.game, flow=False)}")
    for key in ("title", "date", "place", "notes"):
        value = getattr(p, key)
        if key == "date" and value is not None:
            lines.append(f"date: {value}")  # ISO already: a plain YAML date
        elif value is not None:
            lines.append(f"{key}: {yaml_scalar(value, flow=False)}")
    lines.append(f"players: {flow_list(p.players)}")
    if p.first_dealer is not None:
        lines.append(f"firstDealer: {yaml_scalar(p.first_dealer, flow=False)}")
    if p.settings:
        lines.append("settings:")
        lines += [f"  {key}: {setting_text(key, value)}" for key, value in p.settings.items()]
    if not p.rounds:
        lines.append("rounds: []")
    else:
        lines.append("rounds:")
        for record in p.rounds:
            lines += _round_yaml(record, p.players)
    return "\n".join(lines) + "\n"


def _round_yaml(record: RoundRecord, players: Sequence[str]) -> list[str]:
    """``  - bids:   [..]`` / ``    tricks: [..]`` (partial bids of the round in play by name)."""
    bids = [_cell_value(v) for v in record.bids]
    if any(b is None for b in bids):
        shown = flow_map((name, bid) for name, bid in zip(players, bids) if bid is not None)
    else:
        shown = flow_list(bids)
    lines = [f"  - bids:   {shown}"]
    if record.tricks is not None:
        lines.append(f"    tricks: {flow_list(_cell_value(v) for v in record.tricks)}")
    if _has_values(record.points):
        lines.append(f"    points: {flow_list(_cell_value(v) for v in record.points)}")
    return lines


def season_yaml(sheets: Sequence[Portable]) -> str:
    """One sheet, or a season as a multi-document stream (``---`` between games)."""
    return "---\n".join(sheet_yaml(p) for p in sheets)


# --- JSON --------------------------------------------------------------------------------

def sheet_json(p: Portable, indent: str = "") -> str:
    """One sheet as a JSON object: one line per key, one line per round."""
    pairs: list[tuple[str, str]] = []
    for key in ("game", "title", "date", "place", "notes"):
        value = getattr(p, key)
        if value is not None:
            pairs.append((key, json_text(value)))
    pairs.append(("players", json_text(list(p.players))))
    if p.first_dealer is not None:
        pairs.append(("firstDealer", json_text(p.first_dealer)))
    if p.settings:
        pairs.append(("settings", json_text(p.settings)))
    rounds = [json_text(_round_object(r)) for r in p.rounds]
    inner = indent + "  "
    pairs.append(("rounds", "[]" if not rounds else
                  "[\n" + ",\n".join(inner + "  " + r for r in rounds) + "\n" + inner + "]"))
    body = ",\n".join(f'{inner}"{key}": {value}' for key, value in pairs)
    return "{\n" + body + "\n" + indent + "}"


def _round_object(record: RoundRecord) -> dict:
    """A round as JSON: bids (null for a player still to bid), tricks and typed points if any."""
    data: dict[str, Any] = {"bids": [_cell_value(v) for v in record.bids]}
    if record.tricks is not None:
        data["tricks"] = [_cell_value(v) for v in record.tricks]
    if _has_values(record.points):
        data["points"] = [_cell_value(v) for v in record.points]
    return data


def season_json(sheets: Sequence[Portable]) -> str:
    """One sheet as an object; several as an array (our reader takes an array as a season)."""
    if len(sheets) == 1:
        return sheet_json(sheets[0]) + "\n"
    return "[\n" + ",\n".join("  " + sheet_json(p, "  ") for p in sheets) + "\n]\n"


# --- CSV ---------------------------------------------------------------------------------

def long_csv(sheets: Sequence[Portable]) -> str:
    """``[game,][date,]round,player,bid,tricks[,points]``: one row per round and player."""
    columns = csv_columns(sheets)
    return "".join([long_csv_header(*columns), *(long_csv_rows(p, *columns) for p in sheets)])


def csv_columns(sheets: Iterable[Portable]) -> tuple[bool, bool, bool]:
    """Whether a long CSV of these sheets has a ``game``, a ``date`` and a ``points`` column."""
    with_game = with_date = with_points = False
    for p in sheets:
        with_game = with_game or p.game is not None
        with_date = with_date or p.date is not None
        with_points = with_points or p.has_points
    return with_game, with_date, with_points


def long_csv_header(with_game: bool, with_date: bool, with_points: bool) -> str:
    """The header line of a long CSV."""
    return ",".join((["game"] if with_game else []) + (["date"] if with_date else [])
                    + ["round", "player", "bid", "tricks"]
                    + (["points"] if with_points else [])) + "\n"


def long_csv_rows(p: Portable, with_game: bool, with_date: bool, with_points: bool) -> str:
    """One game's rows of a long CSV (a game with no rounds cannot be written: it would lose
    its players)."""
    if not p.rounds:
        which = "the sheet" if p.game is None else f"game {p.game}"
        raise WizardError(Problem(
            f"{which} has no rounds yet, and a long CSV names the players only in its rows: "
            "convert it to yaml, json or wide-csv instead", p.source))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    game = [] if not with_game else ["" if p.game is None else p.game]
    if with_date:
        game.append("" if p.date is None else p.date)
    for record in p.rounds:
        for seat, name in enumerate(p.players):
            row = game + [record.number, name, _csv_cell(record.bids[seat]),
                          _csv_cell(record.tricks[seat] if record.tricks else None)]
            if with_points:
                row.append(_csv_cell(record.points[seat] if record.points else None))
            writer.writerow(row)
    return out.getvalue()


def _csv_cell(value: Value) -> Any:
    """A CSV cell: empty for a value not there."""
    value = _cell_value(value)
    return "" if value is None else value


def wide_csv(sheets: Sequence[Portable]) -> str:
    """``round,<player>…`` with ``bid/tricks`` cells; one game only (a wide CSV has no game column)."""
    if len(sheets) != 1:
        raise WizardError(Problem(
            f"a wide CSV holds one game and this source has {len(sheets)}: convert the season to "
            "csv (long, with a game column), yaml or json instead", sheets[0].source))
    p = sheets[0]
    lowered = {name.lower() for name in p.players}
    if {"player", "bid"} <= lowered:
        raise WizardError(Problem("players named 'player' and 'bid' would make the wide CSV read "
                                  "as a long one: convert to csv, yaml or json instead", p.source))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["round", *p.players])
    for record in p.rounds:
        cells = []
        for seat in range(len(p.players)):
            bid = _csv_cell(record.bids[seat])
            cells.append(f"{bid}/{_csv_cell(record.tricks[seat])}" if record.tricks else f"{bid}")
        writer.writerow([record.number, *cells])
    return out.getvalue()


# --- conversion --------------------------------------------------------------------------

def season_pieces(sheets: Iterable[Portable], target: str, count: int,
                  columns: tuple[bool, bool, bool]) -> Iterator[str]:
    """The text of ``count`` sheets in the target format, a sheet at a time: the same text as
    :func:`serialize` gives for them all at once."""
    if target == "csv":
        yield long_csv_header(*columns)  # what csv_columns says of all the sheets
        for p in sheets:
            yield long_csv_rows(p, *columns)
        return
    if target == "wide-csv":
        yield from (wide_csv([p]) for p in sheets)
        return
    for index, p in enumerate(sheets):
        if target == "yaml":
            yield ("---\n" if index else "") + sheet_yaml(p)
        elif count == 1:
            yield sheet_json(p) + "\n"
        else:
            yield ("[\n  " if not index else ",\n  ") + sheet_json(p, "  ")
    if target == "json" and count > 1:
        yield "\n]\n"


def read_back(text: str, target: str, source: str = "<converted>") -> list[Sheet]:
    """What our reader makes of text we wrote (to prove a conversion lost nothing)."""
    if target in CSV_TARGETS:
        return list(read_csv_sheets(io.StringIO(text), source))
    return list(read_yaml_sheets(text, source))


def _essence(sheet: Sheet | Portable, carries_rules: bool) -> tuple:
    """What must survive a conversion: players and every value, the game's id and date (and the
    rules and the rest of its metadata, where carried). A CSV's ids are text: compared as text."""
    values = lambda row: None if row is None else tuple(_cell_value(v) for v in row)  # noqa: E731
    rounds = tuple((values(r.bids), values(r.tricks), values(r.points) if _has_values(r.points)
                    else None) for r in sheet.rounds)
    core = (tuple(sheet.players), rounds)
    if not carries_rules:
        return core + (None if sheet.game is None else str(sheet.game), sheet.date)
    core += (sheet.game, sheet.date, sheet.place, sheet.notes)
    if isinstance(sheet, Portable):
        settings = tuple(sheet.settings.items())
    else:
        resolved = resolve([sheet.settings], len(sheet.players))
        effective = resolved.settings.as_dict()
        settings = tuple((k, v) for k, v in effective.items() if k in resolved.sources)
    return core + (sheet.title, sheet.first_dealer, settings)


def same_sheets(written: Sequence[Portable], read: Sequence[Sheet], target: str) -> bool:
    """True when the sheets read back carry everything the format can carry, unchanged."""
    rules = target not in CSV_TARGETS
    if target == "wide-csv":  # one game: no id, no date, no typed points
        written = [replace(_without_points(p), game=None, date=None) for p in written]
    if len(written) != len(read) or any(sheet.problems for sheet in read):
        return False
    return all(_essence(w, rules) == _essence(r, rules) for w, r in zip(written, read))


def _without_points(p: Portable) -> Portable:
    """The sheet as a wide CSV carries it: no typed points."""
    rounds = tuple(replace(r, points=None, point_lines=None) for r in p.rounds)
    return replace(p, rounds=rounds)


def convert(sheets: Sequence[Portable], target: str) -> str:
    """Serialize and prove the text reads back the same; refuse rather than lose anything."""
    text = serialize(sheets, target)
    if not same_sheets(sheets, read_back(text, target), target):
        raise cannot_convert(target, sheets[0].source if sheets else None)
    return text


def cannot_convert(target: str, source: str | None) -> WizardError:
    """The refusal of a conversion that would change the sheet."""
    return WizardError(Problem(f"cannot write this as {target} without changing it (its "
                               "names or values do not fit the format): try yaml or json", source))


def check_convertible(p: Portable, target: str) -> None:
    """Prove that one sheet, written alone in the target format, reads back the same (a season
    is written one sheet at a time, each proved alone: no season is held whole)."""
    text = serialize([p], target)
    if not same_sheets([p], read_back(text, target), target):
        raise cannot_convert(target, p.source)
