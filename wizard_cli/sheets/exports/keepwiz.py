"""KeepWiz exports (the app of jkrumboe/wizard-tracker) read as sheets (SPEC §3 "Other apps'
exports"): a game record of version 3.0, the v2 server record, the old record with a nested
``gameState``; a map of such records keyed by game id (the app's "export games": a season,
read a record at a time and given in ``created_at`` order); one record alone; and an
``?importGame=`` link or its base64. Read-only: ``wizard convert`` writes what it holds as YAML
or CSV.

The record shapes, as the app writes them (``localGameStorage.js``, ``wizardGameMigration.js``,
``App.jsx``)::

    v3.0      {id, version: "3.0", created_at, total_rounds, name,
               players: [{id, name, isDealer}], round_data: [{players: [{id, call, made, score}]}]}
    v2        {id, created_at, total_rounds, player_ids, players: [{id, name}],
               round_data: [{round, cards, players: [{id, name, call, made, score, totalScore}]}]}
    gameState {id, name, savedAt, gameState: {players, roundData, maxRounds, created_at, …}}
"""

from __future__ import annotations

import io
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack
from datetime import UTC, datetime
from itertools import chain
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
from ...game.settings import DECK_SIZE, MAX_PLAYERS, MIN_PLAYERS, RawSetting
from .json_values import MAX_VALUE_BYTES, Member, loads, members, value_at
from .kinds import KEEPWIZ_BARE as BARE
from .kinds import KEEPWIZ_LINK as LINK
from .kinds import KEEPWIZ_MARKS
from .share_links import MAX_INFLATED_BYTES, MAX_LINK_CHARS, decoded, parameter, too_large
from .values import count, shown, utc_date

WHAT = "KeepWiz"
# A record's own fields: a top-level object whose first key is one of them is a single record,
# any other is a map of records keyed by game id.
FIELDS = frozenset(
    (
        "id",
        "version",
        "created_at",
        "duration_seconds",
        "total_rounds",
        "players",
        "round_data",
        "gameState",
        "player_ids",
        "name",
        "gameFinished",
        "winner_id",
        "final_scores",
        "savedAt",
        "lastPlayed",
        "userId",
        "game_mode",
        "roundData",
    )
)
NAME_CHARS = 60  # of a name or id in a message


def read_keepwiz_sheets(
    handle: IO[bytes], source: str, encoding: str | None = None
) -> Iterator[Sheet]:
    """Every game of a KeepWiz export, one at a time (a map's in ``created_at`` order)."""
    head = handle.peek(64) if hasattr(handle, "peek") else b""
    if not head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith((b"{", b"[")):
        yield _link_sheet(handle, source)
        return
    with ExitStack() as stack:
        handle = _seekable_utf8(handle, source, encoding, stack)
        opener, items = members(handle, source, f"{WHAT} export")
        first = next(items, None)
        if first is None:
            raise WizardError(Problem(f"{WHAT} export: no games in it", source))
        if opener == "{" and not _is_record(first):  # one record, not a map of them
            handle.seek(0)
            raw = handle.read(MAX_VALUE_BYTES + 1).removeprefix(b"\xef\xbb\xbf")
            if len(raw) > MAX_VALUE_BYTES:
                raise WizardError(
                    Problem(
                        f"{WHAT} record: larger than {MAX_VALUE_BYTES >> 20} "
                        "MB, more than a game record can be",
                        source,
                    )
                )
            yield record_sheet(loads(raw, source, f"{WHAT} record"), source, None, 1)
            return
        # A season: a record at a time, twice — first only to learn each one's created_at and
        # where it stands (an index of a few dozen bytes a game), then in that order.
        index = []
        for seq, member in enumerate(chain([first], items), 1):  # an array's: numbered 1..N
            key = member.key if member.key is not None else seq
            index.append((_created(member.value), seq, member.offset, member.line, key))
        index.sort()
        for _, _, offset, line, key in index:
            record = value_at(handle, offset, line, source, f"{WHAT} record")
            yield record_sheet(record, source, key, line)


def _is_record(member: Member) -> bool:
    """Whether a top-level member is a game record keyed by its id (a map of records), not one
    field of a single record."""
    value = member.value
    return (
        member.key not in FIELDS
        and isinstance(value, dict)
        and any(mark in value for mark in KEEPWIZ_MARKS + ("players",))
    )


def _seekable_utf8(
    handle: IO[bytes], source: str, encoding: str | None, stack: ExitStack
) -> IO[bytes]:
    """The export as a seekable UTF-8 file: a regular UTF-8 file itself; anything else (a pipe,
    another encoding) copied to a temporary file first, a block at a time."""
    utf8 = encoding is None or encoding.lower().replace("_", "-") in ("utf-8", "utf8", "utf-8-sig")
    try:
        seekable = handle.seekable() and utf8
    except (OSError, ValueError):
        seekable = False
    if seekable:
        return handle
    spool = stack.enter_context(tempfile.TemporaryFile())  # noqa: SIM115 -- the stack closes it
    if utf8:
        shutil.copyfileobj(handle, spool, 1 << 16)
    else:
        reader = io.TextIOWrapper(handle, encoding=encoding, newline="")
        try:
            while block := reader.read(1 << 16):
                spool.write(block.encode("utf-8"))
        except UnicodeDecodeError as error:
            raise WizardError(
                Problem(f"{WHAT} export: not {encoding} text ({error.reason})", source)
            ) from None
        finally:
            reader.detach()
    spool.seek(0)
    return spool


def _created(record: Any) -> tuple:
    """Where a record sorts in a season: by its ``created_at`` (UTC), records without one after
    those with one, in file order."""
    when = None
    if isinstance(record, dict):
        when = record.get("created_at")
        state = record.get("gameState")
        if when is None and isinstance(state, dict):
            when = state.get("created_at")
    if isinstance(when, str) and len(when) <= 64:
        try:
            moment = datetime.fromisoformat(when.strip())
            if moment.tzinfo is None:
                moment = moment.replace(tzinfo=UTC)
            return (0, moment.timestamp())
        except ValueError:
            pass
    return (1, 0.0)


def _link_sheet(handle: IO[bytes], source: str) -> Sheet:
    """The game of an ``?importGame=`` link (or its bare base64), a text file's content."""
    data = handle.read(MAX_LINK_CHARS * 2 + 4096)
    text = data.decode("utf-8", "replace").lstrip("\ufeff")
    payload = parameter(text, LINK)
    what = f"{WHAT} link"
    if payload is None:
        payload = text.strip()
        if not BARE.fullmatch(payload):
            raise WizardError(
                Problem(f"{what}: no '?importGame=' link and no base64 game in it", source)
            )
    if len(data) > MAX_LINK_CHARS * 2 or len(payload) > MAX_LINK_CHARS:
        raise WizardError(
            Problem(
                f"{what}: more than the {MAX_LINK_CHARS:,} characters a shared game can have",
                source,
            )
        )
    raw = decoded(payload, source, what)
    if len(raw) > MAX_INFLATED_BYTES:
        raise too_large(source, what)
    return record_sheet(loads(raw, source, what), source, None, None)


# --- a record → a sheet ----------------------------------------------------------------------


def record_sheet(record: Any, source: str, key: str | int | None, line: int | None) -> Sheet:
    """One KeepWiz game record as the sheet it records (SPEC §3's mapping); what does not fit
    is a problem naming the field."""
    sheet = Sheet(source=source, game=key, line=line, kind=SheetFormat.KEEPWIZ)
    if not isinstance(record, dict):
        sheet.problem(f"{WHAT}: a game record is an object, not {shown(record)}", line)
        return sheet
    state = record.get("gameState")
    body, where = record, ""
    if state is not None:  # the old record: the game is in gameState (even with v2's fields)
        if not isinstance(state, dict):
            sheet.problem(f"{WHAT}: gameState is not an object", line)
            return sheet
        body, where = state, "gameState."
    game_id = record.get("id", body.get("id"))
    if isinstance(game_id, (str, int)) and not isinstance(game_id, bool):
        sheet.game = game_id
    elif game_id is not None:
        sheet.problem(f"{WHAT}: id {shown(game_id)} is not text or a number", line)
    _metadata(sheet, record, body, line)
    ids = _players(sheet, body, where, line)
    if ids is None:
        return sheet
    _rounds(sheet, body, where, ids, line)
    if _round_list(body) is None:  # no rounds where KeepWiz keeps them: said, not dropped
        others = [str(key) for key in body if key not in FIELDS]
        if others:
            named = ", ".join(f"'{shorten(key, NAME_CHARS)}'" for key in others[:3])
            sheet.problem(
                f"{WHAT}: {where}round_data is missing and {named} "
                f"{'is' if len(others) == 1 else 'are'} not KeepWiz's: not read (another "
                "app's export?)",
                line,
            )
    total = body.get("total_rounds") or (body.get("maxRounds") if state is not None else None)
    _round_count(sheet, total, line)
    return sheet


def _metadata(sheet: Sheet, record: dict, body: dict, line: int | None) -> None:
    """``name`` → title, ``created_at`` → date (its calendar date in UTC)."""
    name = record.get("name", body.get("name"))
    if isinstance(name, str) and name.strip():
        sheet.title = name
    elif name is not None and not isinstance(name, str):
        sheet.problem(f"{WHAT}: name {shown(name)} is not text", line)
    created = record.get("created_at", body.get("created_at"))
    try:
        sheet.date = utc_date(created)
    except ValueError as bad:
        sheet.problem(f"{WHAT}: created_at '{bad}' is not a date and time", line)
    sheet.date_line = line


def _players(sheet: Sheet, body: dict, where: str, line: int | None) -> dict | None:
    """The players in listed order (names, the first dealer); their ids → seats. None when the
    record has no list of players to read."""
    players = body.get("players")
    if not players and isinstance(body.get("player_ids"), list):  # v2 with its ids only
        first = _round_list(body)
        named = {}
        if first and isinstance(first[0], dict) and isinstance(first[0].get("players"), list):
            named = {p.get("id"): p.get("name") for p in first[0]["players"] if isinstance(p, dict)}
        players = [{"id": pid, "name": named.get(pid, pid)} for pid in body["player_ids"]]
    if not isinstance(players, list):
        sheet.problem(f"{WHAT}: {where}players is not a list of players", line)
        return None
    names, ids = [], {}
    for seat, player in enumerate(players[:PLAYERS_KEPT]):
        if not isinstance(player, dict):
            sheet.problem(f"{WHAT}: {where}players[{seat}] is not a player", line)
            return None
        name, pid = player.get("name"), player.get("id", player.get("name"))
        if not isinstance(name, str):
            sheet.problem(f"{WHAT}: {where}players[{seat}].name {shown(name)} is not text", line)
            name = str(pid) if isinstance(pid, (str, int)) else f"#{seat + 1}"
        if not isinstance(pid, (str, int)) or isinstance(pid, bool):
            sheet.problem(
                f"{WHAT}: {where}players[{seat}] ({shorten(name, NAME_CHARS)}) has no id", line
            )
        elif pid in ids:
            sheet.problem(
                f"{WHAT}: {where}players[{seat}] has the id "
                f"'{shorten(str(pid), NAME_CHARS)}' of another player",
                line,
            )
        else:
            ids[pid] = seat
        names.append(name)
        if player.get("isDealer") is True and sheet.first_dealer is None:
            sheet.first_dealer, sheet.first_dealer_line = name, line
    sheet.players = (
        names if len(players) <= PLAYERS_KEPT else Truncated(names, claimed=len(players))
    )
    sheet.player_lines = [line] * len(names)
    return ids


def _round_list(body: dict) -> Any:
    """The record's rounds: ``round_data`` (v3, v2) or ``roundData`` (an old gameState)."""
    return body["round_data"] if "round_data" in body else body.get("roundData")


def _rounds(sheet: Sheet, body: dict, where: str, ids: dict, line: int | None) -> None:
    """``round_data[i]`` is round i + 1: ``call`` → bid, ``made`` → tricks, ``score`` → typed
    points, matched by player id. Trailing rounds with no call and no made (the planned rounds
    a paused game saves) are dropped."""
    rounds = _round_list(body)
    field = "round_data" if "round_data" in body else "roundData"
    if rounds is None:
        return
    if not isinstance(rounds, list):
        sheet.problem(f"{WHAT}: {where}{field} is not a list of rounds", line)
        return
    last = len(rounds)
    while last and _empty(rounds[last - 1]):
        last -= 1
    count_ = len(sheet.players)
    for index, data in enumerate(rounds[: min(last, ROUNDS_KEPT)]):
        number = index + 1
        label = f"{where}{field}[{index}]"
        bids: list[Value] = [None] * count_
        tricks: list[Value] = [None] * count_
        points: list[Value] = [None] * count_
        entries = data.get("players") if isinstance(data, dict) else None
        if not isinstance(entries, list):
            sheet.problem(f"{WHAT}: {label}.players is not a list", line, number)
            entries = []
        stated = data.get("round") if isinstance(data, dict) else None
        if stated is not None and stated != number:
            sheet.problem(
                f"{WHAT}: {label}.round says {shown(stated)}, but it is round {number} "
                "(the rounds' places number them)",
                line,
                number,
            )
        seen = set()
        for entry in entries[: PLAYERS_KEPT * 2]:
            pid = entry.get("id") if isinstance(entry, dict) else None
            seat = ids.get(pid) if isinstance(pid, (str, int)) else None
            if seat is None or seat >= count_:
                if not isinstance(sheet.players, Truncated):
                    sheet.problem(
                        f"{WHAT}: {label}.players: no player with the id "
                        f"{shorten(shown(pid), NAME_CHARS)} in {where}players",
                        line,
                        number,
                    )
                continue
            if seat in seen:
                sheet.problem(
                    f"{WHAT}: {label}.players has two entries for one player",
                    line,
                    number,
                    sheet.players[seat],
                )
                continue
            seen.add(seat)
            bids[seat], tricks[seat] = count(entry.get("call")), count(entry.get("made"))
            points[seat] = count(entry.get("score"))
        played = any(value is not None for value in tricks)
        record = RoundRecord(number, line, bids, [line] * count_)
        if played:
            record.tricks, record.trick_lines = tricks, [line] * count_
            if any(value is not None for value in points):
                record.points, record.point_lines = points, [line] * count_
        sheet.rounds.append(record)


def _empty(data: Any) -> bool:
    """A round with no call and no made (planned, not yet played)."""
    if not isinstance(data, dict) or not isinstance(data.get("players"), list):
        return False
    return all(
        isinstance(e, dict) and e.get("call") is None and e.get("made") is None
        for e in data["players"]
    )


def _round_count(sheet: Sheet, total: Any, line: int | None) -> None:
    """``total_rounds`` other than the whole deck's ``60 // players`` → ``roundMode: custom``."""
    players = len(sheet.players)
    if total is None or total == 0 or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        return
    if not isinstance(total, int) or isinstance(total, bool):
        sheet.problem(f"{WHAT}: total_rounds '{shown(total)}' is not a whole number", line)
        return
    if total != DECK_SIZE // players:
        sheet.settings += [
            RawSetting("roundMode", "custom", sheet.source, line),
            RawSetting("customRoundCount", total, sheet.source, line),
        ]
