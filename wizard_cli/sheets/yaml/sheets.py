"""YAML (and JSON) sheets, read and written: each document of a stream is one sheet, every value
with its line; written (``wizard convert``) in the sample sheets' layout, JSON one line per key
and per round."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from ...errors import Problem, WizardError
from ...game.model import BadValue, RoundRecord, Sheet, Truncated
from ...game.settings import RawSetting, suggest

if TYPE_CHECKING:
    from ...editing.spliced import Text
    from ...game.seating import Seating
    from .tree import Node

from ..cells import SHOWN, cloud_change, parse_date, shown_value
from ..writing import Portable, SheetWriter, cell_value, has_values
from .text import (
    block_scalar_pieces,
    flow_list,
    flow_map,
    json_text,
    json_text_pieces,
    setting_text,
    yaml_scalar,
)
from .values import per_player, per_seated, present, yaml_number

SHEET_KEYS = (
    "game",
    "title",
    "date",
    "place",
    "notes",
    "players",
    "firstDealer",
    "settings",
    "rounds",
)
ROUND_KEYS = ("bids", "tricks", "points", "bomb", "cloud")
SEATING_KEYS = ("out", "dealer")  # a round's seating (SPEC §3), read by _read_round_seating
ENTRY_KEYS = ("name", "joins", "leaves", "startScore")  # a `players` entry written as a mapping


# --- YAML sheets ---------------------------------------------------------------------------


def read_yaml_sheets(text: Text, source: str, first_line: int = 1) -> Iterator[Sheet]:
    """Each document of a YAML (or JSON) stream as a sheet; several make a season.

    ``first_line``: the line of the file the text starts on (the text is a sheet's tail)."""
    from .plain_block import plain_block_tree  # PyYAML only for YAML: a CSV season starts
    from .tree import documents  # sooner

    # One sheet at a time (SPEC §4): only the next document is looked at, to know whether
    # there are several (then each is numbered). A JSON array of sheets is a season too
    # (`convert --to json`): documents() hands its sheets out one by one. A plain block-style
    # sheet is read without the parser's events (plain_block: the very same tree).
    plain = plain_block_tree(text, first_line) if type(text) is str else None
    docs = (
        iter((plain,))
        if plain is not None
        else (doc for doc in documents(text, source, first_line) if not _empty_document(doc))
    )
    root = next(docs, None)
    if root is None:
        raise WizardError(Problem("empty file: no sheet in it", source))
    following = next(docs, None)
    several = following is not None
    number = 1
    while root is not None:
        sheet = sheet_from_node(root, source)
        if sheet.game is None and several:  # no `game:` of its own (SPEC §3)
            sheet.game = number
        root, following = following, None
        yield sheet
        if root is not None:
            following = next(docs, None)
        number += 1


def _empty_document(node: Node) -> bool:
    """A document with nothing in it: what a stray ``---`` at the end of a stream makes."""
    return node.kind == "scalar" and node.plain and node.text == ""


def sheet_from_node(root: Node, source: str) -> Sheet:
    """A sheet from a YAML mapping; what does not fit is recorded as a problem, not raised."""
    sheet = Sheet(source=source, line=root.line)
    if root.kind != "map":
        sheet.problem("a sheet is a mapping with 'players' and 'rounds'", root.line)
        return sheet
    fields = {}
    for key, value in root.pairs:
        if key.kind == "scalar" and key.text in SHEET_KEYS:
            fields[key.text] = value
        else:
            sheet.problem(
                f"unknown key {key.describe()}{suggest(key.text, SHEET_KEYS)} "
                f"(a sheet has {', '.join(SHEET_KEYS)})",
                key.line,
            )
    if "game" in fields:
        sheet.game = _game_id(fields["game"], sheet)
    for name in ("title", "place", "notes"):
        if name in fields:
            setattr(sheet, name, _scalar_text(fields[name], sheet, name))
    if "date" in fields:
        _read_date(fields["date"], sheet)
    _read_players(fields.get("players"), sheet, root.line)
    if "firstDealer" in fields:
        node = fields["firstDealer"]
        sheet.first_dealer = _scalar_text(node, sheet, "firstDealer")
        if sheet.first_dealer is None and node.kind == "scalar" and node.text in sheet.players:
            sheet.first_dealer = node.text  # names as written: a player may be called `null`
        sheet.first_dealer_line = node.line
    sheet.settings = settings_from_node(fields.get("settings"), source, sheet.problems)
    _read_rounds(fields.get("rounds"), sheet)
    return sheet


def _scalar_text(node: Node, sheet: Sheet, what: str) -> str | None:
    """A scalar's text as written (a name stays a name: ``No`` is not false); null is None."""
    if node.kind != "scalar":
        sheet.problem(f"{what} must be text, not {node.describe()}", node.line)
        return None
    if node.plain and node.value() is None:
        return None
    return node.text


def _game_id(node: Node, sheet: Sheet) -> str | int | None:
    """``game:`` — a game's id in a season: a whole number stays one, anything else is its text."""
    if node.kind != "scalar":
        sheet.problem(f"game must be an id (text or a number), not {node.describe()}", node.line)
        return None
    if not node.plain:
        return node.text
    try:
        value = node.value()
    except ValueError:
        return node.text
    if value is None:
        return None
    return value if type(value) is int else node.text


def _read_date(node: Node, sheet: Sheet) -> None:
    """``date:`` — an ISO date, as a YAML date or a string (SPEC §3); null is no date."""
    import datetime

    sheet.date_line = node.line
    if node.kind != "scalar":
        sheet.problem(f"date must be an ISO date YYYY-MM-DD, not {node.describe()}", node.line)
        return
    try:
        value = node.value()
    except ValueError:
        value = node.text
    if value is None:
        return
    if type(value) is datetime.date:
        sheet.date = value.isoformat()
        return
    date = parse_date(node.text, dotted=False) if isinstance(value, str) else None
    if isinstance(date, str):
        sheet.date = date
        return
    why = date.why if date is not None else "is not an ISO date YYYY-MM-DD"
    sheet.problem(f"date {node.describe()} {why}", node.line)


def _read_players(node: Node | None, sheet: Sheet, line: int) -> None:
    """``players:`` — a list of names in seating order (clockwise)."""
    sheet.players_line = node.line if node else line
    if node is None or node.kind != "seq":
        sheet.problem("'players' must be a list of 3 to 6 names", sheet.players_line)
        return
    dropped = getattr(node.items, "dropped", 0)  # past the most a game can have: not built
    if dropped:
        sheet.players = Truncated(claimed=len(node.items) + dropped)
    for item in node.items:
        if item.kind == "map":  # name, joins, leaves, startScore (SPEC §3)
            _read_entry(item, sheet)
            continue
        name = item.text if item.kind == "scalar" else ""  # as written: "anna " is not "Anna"
        if item.kind != "scalar":
            sheet.problem(f"a player's name must be text, not {item.describe()}", item.line)
        sheet.players.append(name)
        sheet.player_lines.append(item.line)
        if sheet.seating is not None:
            sheet.seating.add_player(item.line)


def _read_entry(node: Node, sheet: Sheet) -> None:
    """A ``players`` entry as a mapping: ``name`` and any of ``joins``, ``leaves`` (whole numbers
    from 1) and ``startScore`` (a whole number)."""
    from ...game.seating import Seating

    if sheet.seating is None:
        sheet.seating = Seating.plain(len(sheet.players))
    seating = sheet.seating
    seating.add_player(node.line)
    fields = {}
    for key_node, value_node in node.pairs:
        if key_node.kind == "scalar" and key_node.text in ENTRY_KEYS:
            fields[key_node.text] = value_node
        else:
            sheet.problem(
                f"unknown key {key_node.describe()}{suggest(key_node.text, ENTRY_KEYS)} "
                f"(a player has {', '.join(ENTRY_KEYS)})",
                key_node.line,
            )
    name = fields.get("name")
    if name is None or name.kind != "scalar":
        sheet.problem("a player written as a mapping needs a 'name'", node.line)
        text = ""
    else:
        text = name.text
    sheet.players.append(text)
    sheet.player_lines.append(node.line)
    for key, least in (("joins", 1), ("leaves", 1), ("startScore", None)):
        if key not in fields:
            continue
        value = yaml_number(fields[key])
        if isinstance(value, BadValue) or value is None:
            why = (
                value.why if isinstance(value, BadValue) and value.why else "is not a whole number"
            )
            sheet.problem(f"{key} {fields[key].describe()} {why}", fields[key].line, None, text)
        elif least is not None and value < least:
            sheet.problem(
                f"{key} {value} is not a round: rounds count from 1", fields[key].line, None, text
            )
        elif key == "joins":
            seating.joins[-1] = value
            seating.value_lines[len(seating.joins) - 1, key] = fields[key].line
        elif key == "leaves":
            seating.leaves[-1] = value
            seating.value_lines[len(seating.joins) - 1, key] = fields[key].line
        else:
            seating.start[-1] = value


def settings_from_node(node: Node | None, source: str, problems: list[Problem]) -> list[RawSetting]:
    """A ``settings:`` mapping as raw settings with their lines (checked later, in layers)."""
    if node is None or (node.kind == "scalar" and node.plain and node.value() is None):
        return []
    if node.kind != "map":
        problems.append(
            Problem("'settings' must be a mapping of setting: value", source, node.line)
        )
        return []
    raws = []
    for key, value in node.pairs:
        raws.append(
            RawSetting(
                key.text if key.kind == "scalar" else key.describe(),
                _setting_value(value),
                source,
                value.line,
            )
        )
    return raws


def _setting_value(node: Node) -> object:
    """A setting's YAML value, or its text when it is something that cannot be read."""
    if node.kind != "scalar":
        return node.describe()
    if len(node.text) > SHOWN:  # no setting's value is that long: quote it short
        return shown_value(node.text)
    try:
        return node.value()
    except ValueError:
        return node.text


def _read_rounds(node: Node | None, sheet: Sheet) -> None:
    """``rounds:`` — a list of ``{bids, tricks}`` mappings, the last possibly without tricks."""
    if node is None or (node.kind == "scalar" and node.plain and node.value() is None):
        return
    if node.kind != "seq":
        sheet.problem("'rounds' must be a list of rounds", node.line)
        return
    for number, item in enumerate(node.items, start=1):
        sheet.rounds.append(_read_round(item, number, sheet))


def _read_round(node: Node, number: int, sheet: Sheet) -> RoundRecord:
    """One round's mapping: bids (and tricks, points) as lists in seating order or by name."""
    fields: dict[str, Node] = {}
    key_lines: dict[str, int] = {}  # where `bids:` / `tricks:` stand: the line of values left out
    if node.kind != "map":
        sheet.problem(
            f"a round is a mapping with 'bids' and 'tricks', not {node.describe()}",
            node.line,
            number,
        )
    for key, value in node.pairs:
        if key.kind == "scalar" and (key.text in ROUND_KEYS or key.text in SEATING_KEYS):
            fields[key.text] = value
            key_lines[key.text] = key.line
        else:
            sheet.problem(
                f"unknown key {key.describe()}{suggest(key.text, ROUND_KEYS)} "
                f"(a round has {', '.join(ROUND_KEYS)})",
                key.line,
                number,
            )
    if "out" in fields or "dealer" in fields:
        _read_round_seating(fields, number, sheet)
    per = per_player if sheet.seating is None else per_seated
    bids, bid_lines = per(
        fields.get("bids"), "bids", number, key_lines.get("bids", node.line), sheet
    )
    record = RoundRecord(number, node.line, bids, bid_lines)
    if present(fields.get("tricks")):
        record.tricks, record.trick_lines = per(
            fields["tricks"], "tricks", number, key_lines["tricks"], sheet
        )
        record.tricks_line = key_lines["tricks"]
    if present(fields.get("points")):
        record.points, record.point_lines = per(
            fields["points"], "points", number, key_lines["points"], sheet
        )
    if present(fields.get("bomb")):
        record.bomb = _read_bomb(fields["bomb"], number, sheet)
        record.bomb_line = fields["bomb"].line
    if present(fields.get("cloud")):
        record.cloud, record.cloud_line = _read_cloud(fields["cloud"], number, sheet)
    return record


def _read_bomb(node: Node, number: int, sheet: Sheet) -> bool:
    """A round's ``bomb``: ``true`` or ``false`` (SPEC §3)."""
    value = node.value() if node.kind == "scalar" else None
    if isinstance(value, bool):
        return value
    sheet.problem(f"bomb must be true or false, not {node.describe()}", node.line, number)
    return False


def _read_cloud(node: Node, number: int, sheet: Sheet) -> tuple[tuple[int, int] | None, int]:
    """A round's ``cloud``: a mapping of one listed player to the change of their bid, 1 or
    -1 (``+1`` reads as 1; SPEC §3). A problem where it is not one."""
    if node.kind != "map" or not node.pairs:
        sheet.problem(
            f"cloud must name one player and the change of their bid ({{NAME: 1}} or "
            f"{{NAME: -1}}), not {node.describe()}",
            node.line,
            number,
        )
        return None, node.line
    if len(node.pairs) > 1:
        sheet.problem(
            f"cloud names {len(node.pairs)} players; the Cloud changes one player's bid",
            node.line,
            number,
        )
        return None, node.line
    key, item = node.pairs[0]
    if key.kind != "scalar" or key.text not in sheet.players:
        sheet.problem(
            f"cloud names unknown player {key.describe()}{suggest(key.text, sheet.players)}",
            key.line,
            number,
        )
        return None, key.line
    seat = sheet.players.index(key.text)
    change = yaml_number(item)
    if isinstance(change, BadValue) and item.kind == "scalar" and not item.plain:
        change = cloud_change(item.text) or change  # a quoted "+1" is 1, as in a CSV cell
    if change not in (1, -1):
        shown = change.text if isinstance(change, BadValue) else change
        shown = "null" if shown is None else shown  # YAML's word (SPEC §3)
        sheet.problem(
            f"the Cloud changes a bid by 1 or -1, not {shown}",
            item.line,
            number,
            sheet.players[seat],
        )
        return None, item.line
    return (seat, change), item.line


def _read_round_seating(fields: dict[str, Node], number: int, sheet: Sheet) -> None:
    """A round's ``out`` (names sitting it out alone) and ``dealer`` (who dealt it), by name."""
    from ...game.seating import Seating

    if sheet.seating is None:
        sheet.seating = Seating.plain(len(sheet.players))
    seating = sheet.seating
    seats = {name: seat for seat, name in enumerate(sheet.players)}
    node = fields.get("dealer")
    if present(node):
        seat = seats.get(node.text) if node.kind == "scalar" else None
        if seat is None:
            sheet.problem(
                f"dealer {node.describe()} is not one of the players"
                f"{suggest(node.text, sheet.players)}",
                node.line,
                number,
            )
        else:
            seating.dealers[number], seating.dealer_lines[number] = seat, node.line
    node = fields.get("out")
    if not present(node):
        return
    items = node.items if node.kind == "seq" else [node] if node.kind == "scalar" else None
    if items is None:
        sheet.problem(f"out must be a list of names, not {node.describe()}", node.line, number)
        return
    out: set[int] = set()
    unknown: set[str] = set()  # each named once: a list of 10,000 makes one line, not 10,000
    for item in items:
        seat = seats.get(item.text) if item.kind == "scalar" else None
        if seat is None and item.describe() not in unknown:
            unknown.add(item.describe())
            sheet.problem(
                f"out: {item.describe()} is not one of the players"
                f"{suggest(item.text, sheet.players)}",
                item.line,
                number,
            )
        elif seat is not None:
            out.add(seat)
    seating.out[number], seating.out_lines[number] = frozenset(out), node.line


# --- writing ---------------------------------------------------------------------------------


class YamlWriter(SheetWriter):
    """YAML: one sheet, or a season as a stream of documents (``---`` between games)."""

    carries_seating = True

    def pieces(self, sheets: Iterable[Portable]) -> Iterator[str]:
        for index, p in enumerate(sheets):
            if index:
                yield "---\n"
            yield from sheet_yaml_pieces(p)


class JsonWriter(SheetWriter):
    """JSON: one sheet as an object; any other number as an array (read back as a season)."""

    carries_seating = True

    def pieces(self, sheets: Iterable[Portable]) -> Iterator[str]:
        if self.count == 1:
            for p in sheets:
                yield from sheet_json_pieces(p)
                yield "\n"
            return
        yield "[\n"
        for index, p in enumerate(sheets):
            yield ",\n  " if index else "  "
            yield from sheet_json_pieces(p, "  ")
        yield "\n]\n"


def sheet_yaml_pieces(p: Portable) -> Iterator[str]:
    """One sheet as a YAML document, in the readable layout of the sample sheets, a piece at a
    time: a 60 MB ``notes`` is written a slice at a time, never copied into a whole text."""
    if p.game is not None:  # the id survives the way back (SPEC §3)
        yield f"game: {yaml_scalar(p.game, flow=False)}\n"
    for key in ("title", "date", "place", "notes"):
        value = getattr(p, key)
        if key == "date" and value is not None:
            yield f"date: {value}\n"  # ISO already: a plain YAML date
        elif value is not None:
            yield f"{key}: "
            yield from block_scalar_pieces(value)
            yield "\n"
    lines = [
        f"players: {flow_list(p.players)}"
        if p.seating is None
        else "players: [" + ", ".join(map(_entry_yaml, _entries(p.players, p.seating))) + "]"
    ]
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
            lines += (
                _round_yaml(record, p.players)
                if p.seating is None
                else _seated_round_yaml(record, p.players, p.seating)
            )
    yield "\n".join(lines) + "\n"


def _entries(players: Sequence[str], seating: Seating) -> Iterator[str | dict[str, Any]]:
    """Each ``players`` entry: a name, or a mapping with what differs from the defaults."""
    for seat, name in enumerate(players):
        entry: dict[str, Any] = {}
        if seating.joins[seat] != 1:
            entry["joins"] = seating.joins[seat]
        if seating.leaves[seat] is not None:
            entry["leaves"] = seating.leaves[seat]
        if seating.start[seat]:
            entry["startScore"] = seating.start[seat]
        yield {"name": name, **entry} if entry else name


def _entry_yaml(entry: str | dict[str, Any]) -> str:
    return yaml_scalar(entry) if isinstance(entry, str) else flow_map(entry.items())


def _seated_values(
    record: RoundRecord, players: Sequence[str], seating
) -> tuple[list[int], str | None, list[str]]:
    """A round's seated seats, its recorded dealer's name and the names sitting it out."""
    number = record.number
    seated = seating.seated(number)
    dealer = seating.dealers.get(number)
    out = sorted(seating.out.get(number, ()))
    return seated, None if dealer is None else players[dealer], [players[seat] for seat in out]


def _seated_round_yaml(record: RoundRecord, players: Sequence[str], seating) -> list[str]:
    """A round of a sheet with seating: its ``dealer`` and ``out`` first, then the seated
    players' values only (SPEC §3)."""
    seated, dealer, out = _seated_values(record, players, seating)
    lines = []
    if dealer is not None:
        lines.append(f"dealer: {yaml_scalar(dealer)}")
    if out:
        lines.append(f"out: {flow_list(out)}")
    bids = [cell_value(record.bids[seat]) for seat in seated]
    if any(b is None for b in bids):
        lines.append(
            "bids:   "
            + flow_map((players[seat], bid) for seat, bid in zip(seated, bids) if bid is not None)
        )
    else:
        lines.append(f"bids:   {flow_list(bids)}")
    if record.tricks is not None:
        lines.append(f"tricks: {flow_list(cell_value(record.tricks[s]) for s in seated)}")
    if has_values(record.points):
        lines.append(f"points: {flow_list(cell_value(record.points[s]) for s in seated)}")
    lines += _special_lines(record, players)
    return ["  - " + lines[0], *("    " + line for line in lines[1:])]


def _round_yaml(record: RoundRecord, players: Sequence[str]) -> list[str]:
    """``  - bids:   [..]`` / ``    tricks: [..]`` (partial bids of the round in play by name)."""
    bids = [cell_value(v) for v in record.bids]
    if any(b is None for b in bids):
        shown = flow_map((name, bid) for name, bid in zip(players, bids) if bid is not None)
    else:
        shown = flow_list(bids)
    lines = [f"  - bids:   {shown}"]
    if record.tricks is not None:
        lines.append(f"    tricks: {flow_list(cell_value(v) for v in record.tricks)}")
    if has_values(record.points):
        lines.append(f"    points: {flow_list(cell_value(v) for v in record.points)}")
    return lines + ["    " + line for line in _special_lines(record, players)]


def _special_lines(record: RoundRecord, players: Sequence[str]) -> list[str]:
    """A round's Bomb and Cloud, when recorded, as YAML lines (SPEC §3)."""
    lines = ["bomb: true"] if record.bomb else []
    if record.cloud is not None:
        lines.append(f"cloud: {flow_map([(players[record.cloud[0]], record.cloud[1])])}")
    return lines


def sheet_json_pieces(p: Portable, indent: str = "") -> Iterator[str]:
    """One sheet as a JSON object (one line per key, one line per round), a piece at a time:
    a 60 MB ``notes`` is written a slice at a time, never copied into a whole text (SPEC §4)."""
    pairs: list[tuple[str, Any]] = [
        (key, getattr(p, key))
        for key in ("game", "title", "date", "place", "notes")
        if getattr(p, key) is not None
    ]
    pairs.append(
        ("players", list(p.players) if p.seating is None else list(_entries(p.players, p.seating)))
    )
    if p.first_dealer is not None:
        pairs.append(("firstDealer", p.first_dealer))
    if p.settings:
        pairs.append(("settings", p.settings))
    inner = indent + "  "
    yield "{\n"
    for index, (key, value) in enumerate(pairs):
        yield (",\n" if index else "") + f'{inner}"{key}": '
        yield from json_text_pieces(value)
    rounds = [
        json_text(
            _round_object(r, p.players)
            if p.seating is None
            else _seated_round_object(r, p.players, p.seating)
        )
        for r in p.rounds
    ]
    yield f',\n{inner}"rounds": ' + (
        "[]"
        if not rounds
        else "[\n" + ",\n".join(inner + "  " + r for r in rounds) + "\n" + inner + "]"
    )
    yield "\n" + indent + "}"


def _seated_round_object(record: RoundRecord, players: Sequence[str], seating) -> dict:
    """A round of a sheet with seating as JSON: ``dealer`` and ``out`` when recorded, then the
    seated players' values (null for one still to bid)."""
    seated, dealer, out = _seated_values(record, players, seating)
    data: dict[str, Any] = {}
    if dealer is not None:
        data["dealer"] = dealer
    if out:
        data["out"] = out
    data["bids"] = [cell_value(record.bids[seat]) for seat in seated]
    if record.tricks is not None:
        data["tricks"] = [cell_value(record.tricks[seat]) for seat in seated]
    if has_values(record.points):
        data["points"] = [cell_value(record.points[seat]) for seat in seated]
    _special_keys(data, record, players)
    return data


def _special_keys(data: dict[str, Any], record: RoundRecord, players: Sequence[str]) -> None:
    """A round's Bomb and Cloud, when recorded, as JSON keys (SPEC §3)."""
    if record.bomb:
        data["bomb"] = True
    if record.cloud is not None:
        data["cloud"] = {players[record.cloud[0]]: record.cloud[1]}


def _round_object(record: RoundRecord, players: Sequence[str]) -> dict:
    """A round as JSON: bids (null for a player still to bid), tricks and typed points if any."""
    data: dict[str, Any] = {"bids": [cell_value(v) for v in record.bids]}
    if record.tricks is not None:
        data["tricks"] = [cell_value(v) for v in record.tricks]
    if has_values(record.points):
        data["points"] = [cell_value(v) for v in record.points]
    _special_keys(data, record, players)
    return data
