"""Escalier exports (the app of mayerwin/Escalier-Oh-Hell-Score-Keeper) read as sheets (SPEC §3
"Other apps' exports"): its JSON export (``"app": "L'Escalier"``, ``"schema": 2``), its CSV
export in English or German (the first block, a row per round and player in bidding order; the
seating from the second block's header), and a share link (``#g=`` then ``A`` and the
base64url of raw-deflated JSON, or ``B`` and the base64url of JSON: ``share.js``' positional
array). Read-only.

Each is first read into :class:`Table`, the game as Escalier holds it, then mapped once
(:func:`table_sheet`): the scoring to the points settings and ``banFrom`` to the dealer rule
(``dealerRuleFrom``), the seating to a sheet's (``carryIn`` → ``startScore``; a player sat out
→ ``joins``, ``leaves`` or the round's ``out``; a dealer off SPEC §1's rotation → the round's
``dealer``). What no wizard rule says (a staircase not 1..N, a skipped round, an adjustment,
``strict``) is a problem naming the field.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from ...errors import Problem, WizardError, shorten
from ...game.model import (
    PLAYERS_KEPT,
    ROUNDS_KEPT,
    RoundRecord,
    Sheet,
    SheetFormat,
    Truncated,
    Value,
)
from ...game.seating import Seating
from ...game.settings import DECK_SIZE, MAX_PLAYERS, MIN_PLAYERS, RawSetting, read_setting
from ..source import text_encoding
from .json_values import MAX_VALUE_BYTES, loads
from .kinds import ESCALIER_HEADERS, csv_language
from .kinds import ESCALIER_LINK as LINK
from .share_links import MAX_INFLATED_BYTES, MAX_LINK_CHARS, decoded, inflated, parameter, too_large
from .values import count, shown, utc_date

WHAT = "Escalier"
APP = "L'Escalier"
SCHEMA = 2
# The second block's first two columns (its header gives the seating).
SUMMARY = {"en": ("round", "cards"), "de": ("runde", "karten")}
STATUSES = ("played", "in_progress", "pending", "skipped")
PHASES = ("pending", "in_progress", "in_progress", "played", "skipped")  # share.js PHASE_ORDER
# Escalier's own defaults (model.js defaultConfig), for a share link that leaves one out.
DEFAULTS = {"ptsBid": 5, "ptsTrick": 5, "ptsMiss": 5, "strict": False, "banFrom": 3}
SCORING = (("ptsBid", "exactBonus"), ("ptsTrick", "pointsPerTrick"), ("ptsMiss", "missPenalty"))
_FORMULA_GUARD = re.compile(r"'(?=[\s\u00a0]*[=+\-@\t\r])")  # export.js csvField's apostrophe
NAME_CHARS = 60
MAX_CSV_ROWS = 20_000  # 10 players × 400 rounds, Escalier's own ceilings, and then some


@dataclass(slots=True)
class Entry:
    """A player's result in a round, as Escalier records it."""

    bid: Value = None
    tricks: Value = None
    out: bool = False
    adjustment: Any = 0
    points: Value = None
    line: int | None = None


@dataclass(slots=True)
class Dealt:
    """A round of Escalier's staircase: its cards, status, dealer and each seat's entry."""

    number: int
    cards: Any
    status: str
    dealer: str | None
    line: int | None
    entries: dict[int, Entry] = field(default_factory=dict)


@dataclass(slots=True)
class Table:
    """An Escalier game as exported, before it is mapped to a sheet."""

    what: str  # "Escalier export", "Escalier CSV", "Escalier link"
    names: list[str]
    claimed: int  # players the export lists (names keeps PLAYERS_KEPT at most)
    carry_in: list[Any]
    rounds: list[Dealt]
    scoring: dict | None = None  # None: the CSV carries none (the settings' defaults apply)
    id: Any = None
    name: Any = None
    created: Any = None
    first_dealer: str | None = None
    line: int | None = None
    name_lines: list[int | None] = field(default_factory=list)
    # rounds past those kept (a game has at most 20: SPEC §4), only counted: planned, dealt
    more_planned: int = 0
    more_dealt: int = 0

    def count_more(self, status: str) -> None:
        """A round past those kept, counted by its status."""
        self.more_planned += status in ("played", "in_progress", "pending")
        self.more_dealt += status in ("played", "in_progress")


def read_escalier_sheets(
    handle: IO[bytes], source: str, encoding: str | None = None
) -> Iterator[Sheet]:
    """The game of an Escalier export (the JSON export, the CSV export or a share link)."""
    head = handle.peek(64) if hasattr(handle, "peek") else b""
    start = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if start.startswith(b"{"):
        data = handle.read(MAX_VALUE_BYTES + 1)
        if len(data) > MAX_VALUE_BYTES:
            raise WizardError(
                Problem(
                    f"{WHAT} export: larger than {MAX_VALUE_BYTES >> 20} MB, "
                    "more than a game can be",
                    source,
                )
            )
        yield table_sheet(
            export_table(
                loads(data.removeprefix(b"\xef\xbb\xbf"), source, f"{WHAT} export"), source
            ),
            source,
        )
        return
    text = io.TextIOWrapper(handle, encoding=text_encoding(encoding), newline="")
    try:
        first = text.readline(MAX_LINK_CHARS * 2)
        if csv_language(first.split(",")) is None and LINK.search(first):
            rest = text.read(MAX_LINK_CHARS * 2)
            yield table_sheet(link_table(first + rest, source), source)
        else:
            yield table_sheet(csv_table(first, text, source), source)
    except UnicodeDecodeError as error:
        raise WizardError(
            Problem(f"{WHAT}: not {encoding or 'UTF-8'} text ({error.reason})", source)
        ) from None
    except csv.Error as error:
        raise WizardError(Problem(f"{WHAT} CSV: not readable as CSV: {error}", source)) from None
    finally:
        text.detach()


# --- the JSON export -------------------------------------------------------------------------


def _refuse(what: str, message: str, source: str, line: int | None = None) -> WizardError:
    """An export whose shape is not Escalier's: one problem naming the field."""
    return WizardError(Problem(f"{what}: {message}", source, line))


def export_table(data: Any, source: str) -> Table:
    """The JSON export (export.js gameToJson) as a Table."""
    what = f"{WHAT} export"
    if not isinstance(data, dict) or data.get("app") != APP:
        raise _refuse(what, f'no "app": "{APP}" in it', source)
    if data.get("schema") != SCHEMA:
        raise _refuse(
            what, f"schema {shown(data.get('schema'))}: this reads schema {SCHEMA}", source
        )
    game, players, rounds = data.get("game"), data.get("players"), data.get("rounds")
    if not isinstance(game, dict):
        raise _refuse(what, "game is not an object", source)
    if not isinstance(players, list) or not all(isinstance(p, dict) for p in players):
        raise _refuse(what, "players is not a list of players", source)
    if not isinstance(rounds, list) or not all(isinstance(r, dict) for r in rounds):
        raise _refuse(what, "rounds is not a list of rounds", source)
    seats = sorted(players, key=lambda p: p.get("seat") if isinstance(p.get("seat"), int) else 0)
    if [p.get("seat") for p in seats] != list(range(1, len(seats) + 1)):
        raise _refuse(what, "players' seats are not 1 to N", source)
    names = [_text(p.get("name"), f"#{i + 1}") for i, p in enumerate(seats[:PLAYERS_KEPT])]
    scoring = game.get("scoring")
    table = Table(
        what,
        names,
        len(seats),
        [p.get("carryIn", 0) for p in seats[:PLAYERS_KEPT]],
        [],
        scoring if isinstance(scoring, dict) else {},
        game.get("id"),
        game.get("name"),
        game.get("created"),
        line=1,
    )
    seat_of = {name: seat for seat, name in reversed(list(enumerate(names)))}
    for data_ in rounds[ROUNDS_KEPT * 2 :]:
        table.count_more(str(data_.get("status")))
    for index, data_ in enumerate(rounds[: ROUNDS_KEPT * 2]):
        results = data_.get("results")
        if not isinstance(results, list):
            raise _refuse(what, f"rounds[{index}].results is not a list", source)
        dealer = data_.get("dealer")
        dealt = Dealt(
            index + 1,
            data_.get("cards"),
            str(data_.get("status")),
            dealer if isinstance(dealer, str) else None,
            None,
        )
        for result in results[: PLAYERS_KEPT * 2]:
            player = result.get("player") if isinstance(result, dict) else None
            seat = seat_of.get(player) if isinstance(player, str) else None  # (a list: unhashable)
            if seat is None:
                raise _refuse(
                    what,
                    f"rounds[{index}].results: "
                    f"{shorten(shown(result), NAME_CHARS)} names no player",
                    source,
                )
            dealt.entries[seat] = Entry(
                count(result.get("bid")),
                count(result.get("tricks")),
                result.get("satOut") is True,
                result.get("adjustment", 0),
                count(result.get("points")),
            )
        table.rounds.append(dealt)
    table.first_dealer = table.rounds[0].dealer if table.rounds else None
    return table


def _text(value: Any, default: str) -> str:
    """A name as exported: text, else the app's own stand-in."""
    return value if isinstance(value, str) and value.strip() else default


# --- the share link --------------------------------------------------------------------------


def link_table(text: str, source: str) -> Table:
    """A share link's game (share.js packGame's positional array) as a Table."""
    what = f"{WHAT} link"
    payload = parameter(text, LINK)
    if payload is None or len(payload) < 2:
        raise _refuse(what, "no '#g=' game in it", source)
    if len(payload) > MAX_LINK_CHARS:
        raise _refuse(
            what,
            f"{len(payload):,} characters, more than the {MAX_LINK_CHARS:,} a shared game can have",
            source,
        )
    tag, body = payload[0], payload[1:]
    data = decoded(body, source, what)
    if tag == "A":
        data = inflated(data, source, what)
    elif tag != "B":
        raise _refuse(what, f"unknown payload format '{tag}' (A or B)", source)
    if len(data) > MAX_INFLATED_BYTES:
        raise too_large(source, what)
    packed = loads(data, source, what)
    if not isinstance(packed, list) or len(packed) < 8:
        raise _refuse(what, "not a packed game (a list of 8 fields)", source)
    _, name, created, _, config, players, first_dealer, rounds = packed[:8]
    if (
        not isinstance(config, list)
        or not isinstance(players, list)
        or not isinstance(rounds, list)
    ):
        raise _refuse(what, "its settings, players or rounds are not lists", source)
    if not players:
        raise _refuse(what, "no players", source)
    seats = [p if isinstance(p, list) else [] for p in players]
    names = [_text(p[0] if p else None, f"#{i + 1}") for i, p in enumerate(seats[:PLAYERS_KEPT])]
    carry = [p[2] if len(p) > 2 else 0 for p in seats[:PLAYERS_KEPT]]
    scoring = dict(zip(("ptsBid", "ptsTrick", "ptsMiss", "strict", "banFrom"), config))
    if "strict" in scoring:
        scoring["strict"] = scoring["strict"] == 1
    table = Table(
        what,
        names,
        len(seats),
        carry,
        [],
        scoring,
        None,
        name if isinstance(name, str) else None,
        created,
    )

    def name_at(seat: Any) -> str | None:
        """The name at a seat index of the link (-1 or anything else: none)."""
        whole = isinstance(seat, int) and not isinstance(seat, bool)
        return names[seat] if whole and 0 <= seat < len(names) else None

    for packed_round in rounds[ROUNDS_KEPT * 2 :]:
        phase = packed_round[1] if isinstance(packed_round, list) and len(packed_round) > 1 else 0
        table.count_more(PHASES[phase] if phase in range(len(PHASES)) else "pending")
    for index, packed_round in enumerate(rounds[: ROUNDS_KEPT * 2]):
        fields = packed_round if isinstance(packed_round, list) else []
        cards, phase, dealer, _, entries = (fields + [None] * 5)[:5]
        status = PHASES[phase] if isinstance(phase, int) and 0 <= phase < len(PHASES) else "pending"
        dealt = Dealt(index + 1, cards if cards is not None else 1, status, name_at(dealer), None)
        for seat, entry in enumerate((entries if isinstance(entries, list) else [])[: len(names)]):
            bid, tricks, out, adjustment = (
                (entry if isinstance(entry, list) else []) + [-1, -1, 0, 0]
            )[:4]
            dealt.entries[seat] = Entry(
                None if bid == -1 else count(bid),
                None if tricks == -1 else count(tricks),
                out == 1,
                adjustment if adjustment is not None else 0,
            )
        table.rounds.append(dealt)
    table.first_dealer = (
        table.rounds[0].dealer if table.rounds and table.rounds[0].dealer else name_at(first_dealer)
    )
    return table


# --- the CSV export --------------------------------------------------------------------------


def csv_table(first: str, rest: IO[str], source: str) -> Table:
    """The CSV export: its first block (a row per round and player, in bidding order) and the
    second block's header, which gives the seating; the rest is not read."""
    what = f"{WHAT} CSV"
    reader = csv.reader(rest)
    header = next(csv.reader([first]), [])
    language = csv_language(header)
    if language is None:
        raise _refuse(
            what,
            "its first line is not the export's header (" + ",".join(ESCALIER_HEADERS["en"]) + ")",
            source,
            1,
        )
    rows: list[tuple[int, list[str]]] = []
    summary = None
    for cells in reader:
        if not any(cell.strip() for cell in cells):
            summary = next(reader, None)
            break
        if len(rows) >= MAX_CSV_ROWS:
            raise _refuse(
                what,
                f"more than {MAX_CSV_ROWS:,} rows in its first block: more than any game has",
                source,
                reader.line_num + 1,
            )
        rows.append((reader.line_num + 1, cells))
    summary_line = reader.line_num + 1
    if summary is None or tuple(c.strip().lower() for c in summary[:2]) != SUMMARY[language]:
        raise _refuse(
            what,
            "no second block after a blank line (its header, "
            f"{','.join(SUMMARY[language])},<players>…, gives the seating)",
            source,
            summary_line,
        )
    seated = [_unguarded(cell) for cell in summary[2:]]
    names = seated[:PLAYERS_KEPT]
    table = Table(
        what,
        names,
        len(seated),
        [0] * len(names),
        [],
        None,
        line=1,
        name_lines=[summary_line] * len(names),
    )
    seat_of = {name: seat for seat, name in reversed(list(enumerate(names)))}
    running: dict[int, tuple[str, str, str]] = {}  # each seat's first row: status, points, running
    by_number: dict[int, Dealt] = {}
    more: set[int] = set()  # round numbers past those kept
    for line, cells in rows:
        cells = (cells + [""] * 11)[:11]
        number = count(_number(cells[0]))
        if not isinstance(number, int):
            raise _refuse(
                what, f"round '{shorten(cells[0], NAME_CHARS)}' is not a round number", source, line
            )
        player = _unguarded(cells[5])
        seat = seat_of.get(player)
        if seat is None:
            if len(seated) > PLAYERS_KEPT:
                continue
            raise _refuse(
                what,
                f"player '{shorten(player, NAME_CHARS)}' is not in the second block's header",
                source,
                line,
            )
        dealt = by_number.get(number)
        if dealt is None:
            if len(by_number) >= ROUNDS_KEPT:
                if number not in more:
                    more.add(number)
                    table.count_more(cells[2].strip())
                continue
            status = cells[2].strip()
            dealt = by_number[number] = Dealt(
                number, count(_number(cells[1])), status, _unguarded(cells[3]) or None, line
            )
            table.rounds.append(dealt)
        status = cells[2].strip()
        out = status == "sat_out"
        if not out and dealt.status == "sat_out":
            dealt.status = status
        dealt.entries[seat] = Entry(
            count(_number(cells[6])),
            count(_number(cells[7])),
            out,
            _number(cells[8]) or 0,
            count(_number(cells[9])),
            line,
        )
        running.setdefault(seat, (dealt.status if not out else "sat_out", cells[9], cells[10]))
    for seat, (status, points, total) in running.items():
        # `running` counts a start score in (model.js scoresAfter): the first row tells it.
        before = count(_number(total))
        earned = count(_number(points)) if status == "played" else 0
        if isinstance(before, int) and isinstance(earned, int):
            table.carry_in[seat] = before - earned
    table.first_dealer = table.rounds[0].dealer if table.rounds else None
    return table


def _unguarded(cell: str) -> str:
    """A name as typed: without the apostrophe the export puts before one a spreadsheet would
    run as a formula."""
    return _FORMULA_GUARD.sub("", cell, count=1) if cell.startswith("'") else cell


def _number(cell: str) -> Any:
    """A CSV cell's number (whole numbers only), or its text."""
    text = cell.strip()
    if re.fullmatch(r"-?\d{1,15}", text):
        return int(text)
    return text or None


# --- a Table → a sheet -----------------------------------------------------------------------


def table_sheet(table: Table, source: str) -> Sheet:
    """An Escalier game as the sheet it records (SPEC §3's mapping); what a sheet cannot say is
    a problem naming the field."""
    what = table.what
    sheet = Sheet(
        source=source,
        line=table.line,
        kind=SheetFormat.ESCALIER,
        game=table.id if isinstance(table.id, (str, int)) else None,
    )
    line = table.line
    if isinstance(table.name, str) and table.name.strip():
        sheet.title = table.name
    try:
        sheet.date = utc_date(table.created)
    except ValueError as bad:
        sheet.problem(f"{what}: created '{bad}' is not a date and time", line)
    names = table.names
    sheet.players = (
        names if table.claimed <= PLAYERS_KEPT else Truncated(names, claimed=table.claimed)
    )
    sheet.player_lines = table.name_lines or [line] * len(names)
    _scoring(sheet, table, line)
    if table.first_dealer is not None:
        sheet.first_dealer, sheet.first_dealer_line = table.first_dealer, line
    dealt: list[Dealt] = []  # played and in progress: the sheet's rounds, numbered from 1
    pending: list[Dealt] = []  # planned, not dealt yet: dropped, but they tell who has left
    for round_ in table.rounds:
        where = round_.line if round_.line is not None else line
        if round_.status == "skipped":
            sheet.problem(
                f"{what}: skipped in Escalier; no wizard rule skips a round", where, round_.number
            )
        elif round_.status not in STATUSES:
            sheet.problem(
                f"{what}: status '{shorten(round_.status, NAME_CHARS)}' is none of "
                f"{', '.join(STATUSES)}",
                where,
                round_.number,
            )
        else:
            (pending if round_.status == "pending" else dealt).append(round_)
    seating = _seating(sheet, table, dealt + pending, len(dealt))
    sheet.seating = seating
    for round_ in dealt:
        _round(sheet, table, round_, round_.line if round_.line is not None else line)
    if table.more_dealt:  # counted, not built (SPEC §4)
        sheet.problem(
            f"{what}: {len(sheet.rounds) + table.more_dealt} rounds dealt, more than a "
            f"game can have ({DECK_SIZE // MIN_PLAYERS} at most)",
            line,
        )
    planned = len(dealt) + len(pending) + table.more_planned
    seated = [
        len(seating.seated(number)) if seating is not None else len(names)
        for number in range(1, len(dealt) + len(pending) + 1)
    ]
    if (
        planned
        and seated
        and MIN_PLAYERS <= seated[0] <= MAX_PLAYERS
        and (planned != len(seated) or _whole_deck_end(seated) != planned)
    ):
        sheet.settings += [
            RawSetting("roundMode", "custom", source, line),
            RawSetting("customRoundCount", planned, source, line),
        ]
    return sheet


def _whole_deck_end(seated: list[int]) -> int | None:
    """The round that would end the game under ``wholeDeck`` (SPEC §1: the first dealing the
    whole deck to those seated in it), given each planned round's seated count."""
    return next(
        (
            number
            for number, count in enumerate(seated, start=1)
            if count and number == DECK_SIZE // count
        ),
        None,
    )


def _scoring(sheet: Sheet, table: Table, line: int | None) -> None:
    """``ptsBid``/``ptsTrick``/``ptsMiss`` → the points settings; ``banFrom`` → the dealer rule;
    ``strict`` has no wizard rule."""
    if table.scoring is None:
        return
    what = table.what
    scoring = {**DEFAULTS, **table.scoring}
    for key, setting in SCORING:
        _setting(sheet, what, key, scoring[key], setting, line)
    if scoring["strict"] not in (False, None, 0):
        sheet.problem(
            f"{what}: scoring strict: true (a missed bid still scores its tricks); no "
            "wizard rule says it",
            line,
        )
    ban = scoring["banFrom"]
    if ban == 0:
        sheet.settings.append(RawSetting("screwTheDealer", "off", sheet.source, line))
    elif isinstance(ban, int) and not isinstance(ban, bool) and ban > 0:
        # model.js banApplies: the last bidder is held from `banFrom` cards on (SPEC §3): the
        # rule always, from that many cards (banFrom 1: every round, dealerRuleFrom's default)
        sheet.settings.append(RawSetting("screwTheDealer", "always", sheet.source, line))
        _setting(sheet, what, "banFrom", ban, "dealerRuleFrom", line)
    else:
        sheet.problem(f"{what}: scoring banFrom {shown(ban)} is not a number of cards", line)


def _setting(sheet: Sheet, what: str, key: str, value: Any, setting: str, line: int | None) -> None:
    """An Escalier scoring value as the setting it maps to; one off the setting's range or step
    is a problem naming both."""
    raw = RawSetting(setting, value, sheet.source, line)
    _, problem = read_setting(raw)
    if problem is None:
        sheet.settings.append(raw)
    else:
        sheet.problem(
            f"{what}: scoring {key} {shown(value)} ({setting}): "
            f"{problem.message.removeprefix(f'setting {setting}: ')}",
            line,
        )


def _seating(sheet: Sheet, table: Table, rounds: list[Dealt], dealt: int) -> Seating | None:
    """Who sits when (SPEC §3): ``carryIn`` → ``startScore``; a seat sat out of every round from
    some round on has left, of every round before some round has joined, else sits that round
    out (``rounds``: the dealt ones, numbered 1..``dealt``, then those still pending); a dealer
    other than the one SPEC §1's rotation gives is the round's ``dealer``. None when there is
    none of these: the sheet is a classic one."""
    names = table.names
    seating = Seating.plain(len(names))
    seating.entry_lines = list(sheet.player_lines)
    for seat, carry in enumerate(table.carry_in[: len(names)]):
        value = count(carry)
        if isinstance(value, int):
            seating.start[seat] = value
        elif value is not None:
            sheet.problem(
                f"{table.what}: carryIn {shown(carry)} is not a whole number",
                sheet.player_lines[seat],
                player=names[seat],
            )
    for seat in range(len(names) if rounds else 0):
        out = [(entry := round_.entries.get(seat)) is not None and entry.out for round_ in rounds]
        sat = [number for number, away in enumerate(out, start=1) if not away]
        first, last = (sat[0], sat[-1]) if sat else (len(rounds) + 1, None)
        if first > 1:
            seating.joins[seat] = first
        if last is not None and last < len(rounds):
            seating.leaves[seat] = last
        for number in range(first, min(last or 0, dealt) + 1):
            if out[number - 1]:
                seating.out[number] = seating.out.get(number, frozenset()) | {seat}
                seating.out_lines[number] = rounds[number - 1].line or table.line
    _dealers(sheet, table, rounds[:dealt], seating)
    return seating if seating.changes or seating.dealers else None


def _dealers(sheet: Sheet, table: Table, rounds: list[Dealt], seating: Seating) -> None:
    """Each dealt round's dealer after the first, recorded where it is not the one the deal
    passing to the left among the seated gives (SPEC §1): Escalier passes the deal to players
    sitting out, and lets a dealer be pinned. Round 1's is the sheet's ``firstDealer``."""
    names = table.names
    seat_of = {name: seat for seat, name in reversed(list(enumerate(names)))}
    count_ = len(names)
    seated_one = seating.seated(1)
    previous = seat_of.get(table.first_dealer or "", seated_one[0] if seated_one else 0)
    for number, round_ in enumerate(rounds[1:], start=2):
        seated = seating.seated(number)
        expected = next(
            (
                seat
                for step in range(1, count_ + 1)
                if (seat := (previous + step) % count_) in seated
            ),
            previous,
        )
        previous = expected
        if round_.dealer is None or round_.dealer == names[expected]:
            continue
        where = round_.line if round_.line is not None else table.line
        pinned = seat_of.get(round_.dealer)
        if pinned is None:
            sheet.problem(
                f"{table.what}: dealt by {shorten(round_.dealer, NAME_CHARS)}, who is "
                "not one of the players",
                where,
                number,
            )
            continue
        seating.dealers[number], seating.dealer_lines[number] = pinned, where
        previous = pinned


def _round(sheet: Sheet, table: Table, dealt: Dealt, where: int | None) -> None:
    """A played round (or the one in progress) as the sheet's next round: the seated players'
    values, None for those not seated."""
    what, names = table.what, table.names
    number = len(sheet.rounds) + 1
    if dealt.cards != number:
        sheet.problem(
            f"{what}: deals {shown(dealt.cards)} cards where a Wizard game's round "
            f"{number} deals {number} (Escalier's staircase is not 1..N)",
            where,
            dealt.number,
        )
    count_ = len(names)
    bids: list[Value] = [None] * count_
    tricks: list[Value] = [None] * count_
    points: list[Value] = [None] * count_
    lines: list[int | None] = [where] * count_
    for seat, entry in dealt.entries.items():
        at = entry.line if entry.line is not None else where
        lines[seat] = at
        if entry.adjustment not in (0, None):
            sheet.problem(
                f"{what}: adjustment {shown(entry.adjustment)}; no wizard rule adjusts a score",
                at,
                dealt.number,
                names[seat],
            )
        if not entry.out:
            bids[seat], tricks[seat], points[seat] = entry.bid, entry.tricks, entry.points
    record = RoundRecord(number, where, bids, list(lines))
    if dealt.status == "played":
        record.tricks, record.trick_lines = tricks, list(lines)
        if any(value is not None for value in points):
            record.points, record.point_lines = points, list(lines)
    sheet.rounds.append(record)
