"""Wide CSV (``round,<player>,<player>,…`` with ``bid/tricks`` cells): one game per file, read
and written (:class:`WideCsvWriter`)."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Iterator
from dataclasses import replace

from ...errors import Problem, WizardError
from ...game.model import (
    PLAYERS_KEPT,
    ROUNDS_KEPT,
    BadValue,
    RoundRecord,
    Sheet,
    SheetFormat,
    Truncated,
    Value,
)
from ...game.settings import suggest
from ..cells import (
    DATE_LIKE,
    DATE_WHY,
    ERROR_CODE,
    ERROR_WHY,
    count_cell,
    header_name,
    is_blank,
    is_total,
    mark_cell,
    shown_value,
    trim_trailing,
    whole_number,
)
from ..writing import Portable, SheetWriter, csv_cell
from .rows import Rows
from .seating import SeatCells, is_out, off_rotation_dealers, read_back_seating
from .specials import MARKS, imply_special_cards


def read_wide_sheet(
    rows: Rows, header: list[str], header_line: int, source: str, comma: bool = False
) -> Sheet:
    """Wide CSV: ``round,<player>…`` with ``bid/tricks`` cells (just ``bid`` in the round in
    play), ``out`` for a player not seated; optional ``bomb`` and ``dealer`` columns and a
    ``start`` row of start scores (SPEC §3)."""
    sheet = Sheet(source=source, line=header_line, kind=SheetFormat.WIDE_CSV)
    if not header or header_name(header[0]) != "round":
        sheet.problem(
            "not a score sheet: a long CSV has 'round,player,bid,tricks' columns, a wide "
            "one 'round,<player>,<player>,…'",
            header_line,
        )
        return sheet
    named = set(map(header_name, header[1:]))
    if "player" in named and named & {"tricks", "took", "bids"}:  # a long CSV, misnamed 'bid'
        sheet.problem(
            "the header has a 'player' column but no 'bid' column: a long CSV has "
            "'round,player,bid,tricks' columns",
            header_line,
        )
        return sheet
    layout = _WideLayout(header)
    names = [header[col] for col in layout.players]
    # More players or rounds than a game has: one more is kept (validation says so), the rest
    # counted, not built (SPEC §4).
    sheet.players = (
        names if len(names) <= PLAYERS_KEPT else Truncated(names[:PLAYERS_KEPT], claimed=len(names))
    )
    sheet.player_lines = [header_line] * len(sheet.players)
    seats = SeatCells()
    start_line: int | None = None
    for row, line in rows:
        if is_blank(row) or is_total(row[0]) or len(sheet.rounds) >= ROUNDS_KEPT:
            continue
        if row[0].strip().lower() in _START:
            if start_line is not None:
                sheet.problem(
                    f"a second start row (the first is on line {start_line}): a game "
                    "has one row of start scores",
                    line,
                )
            else:
                start_line = line
                _read_start(layout.cells(row, len(sheet.players)), line, sheet, seats, comma)
                for kind in ("bomb", "dealer"):  # a round's marks: the start row is no round
                    cell = layout.mark(row, kind)
                    if cell is not None and cell.strip():
                        sheet.problem(
                            f"{kind} '{shown_value(cell.strip())}' on the start row: a {kind} "
                            "belongs to a round",
                            line,
                        )
            continue
        _read_wide_row(layout, row, line, sheet, seats, comma, len(header))
    sheet.seating = seats.seating(len(sheet.players), len(sheet.rounds), header_line)
    return sheet


_START = frozenset({"start"})  # a row of start scores (German `Start`, SPEC §3)
_MARK_COLUMNS = {"bomb": "bomb", "dealer": "dealer", "geber": "dealer"}  # header_name: its kind


class _WideLayout:
    """Which column of a wide CSV holds what: the ``round`` column, the first ``bomb`` and
    ``dealer`` (``Geber``) columns if any, and a column for each player."""

    def __init__(self, header: list[str]) -> None:
        self.marks: dict[str, int] = {}
        for col, name in enumerate(header):
            kind = _MARK_COLUMNS.get(header_name(name))
            if col and kind is not None and kind not in self.marks:
                self.marks[kind] = col
        taken = set(self.marks.values())
        self.players = [col for col in range(1, len(header)) if col not in taken]

    def cells(self, row: list[str], count: int) -> list[str]:
        """A row's cells of the first ``count`` players (empty where the row is short)."""
        return [row[col] if col < len(row) else "" for col in self.players[:count]]

    def mark(self, row: list[str], kind: str) -> str | None:
        """A row's ``bomb`` or ``dealer`` cell (None: the file has no such column)."""
        col = self.marks.get(kind)
        return None if col is None else row[col] if col < len(row) else ""


def _read_start(cells: list[str], line: int, sheet: Sheet, seats: SeatCells, comma: bool) -> None:
    """The ``start`` row: each player's start score, a whole number (empty: 0)."""
    for seat, cell in enumerate(cells):
        score = whole_number(cell, comma)
        if isinstance(score, BadValue):
            sheet.problem(
                f"start score '{score.text}' {score.why or 'is not a whole number'}",
                line,
                player=sheet.players[seat],
            )
        elif score:
            seats.start[seat] = score


def _read_wide_row(
    layout: _WideLayout,
    row: list[str],
    line: int,
    sheet: Sheet,
    seats: SeatCells,
    comma: bool,
    width: int,
) -> None:
    """One round of a wide CSV."""
    count = len(sheet.players)
    expected = len(sheet.rounds) + 1
    number = whole_number(row[0], comma)
    if number != expected:
        shown = number.text if isinstance(number, BadValue) else number
        sheet.problem(
            f"round '{shown}' where round {expected} was expected: rounds run 1..N in order", line
        )
        return
    if len(trim_trailing(row)) > width and not isinstance(sheet.players, Truncated):
        sheet.problem(f"{len(trim_trailing(row))} fields, but the header has {width}", line, number)
    cells = layout.cells(row, count)
    bids: list[Value] = []
    tricks: list[Value] = []
    clouds: list[tuple[int, int]] = []
    for seat, cell in enumerate(cells):
        if is_out(cell):  # not seated in this round (SPEC §3)
            seats.sits_out(number, seat, line)
            bids.append(None)
            tricks.append(None)
            continue
        clouded = _CLOUDED.fullmatch(cell)
        if clouded:  # the Cloud: the bid called, the change, the tricks (`1+1/2`, SPEC §3)
            cell = clouded["bid"] + (clouded["rest"] or "")
            clouds.append((seat, 1 if clouded["sign"] == "+" else -1))
        else:
            changed = _CHANGED.fullmatch(cell)
            if changed:  # a change that is no Cloud's: said as the long CSV says it
                sheet.problem(
                    "the Cloud changes a bid by +1 or -1, not "
                    f"'{changed['sign']}{shown_value(changed['change'])}'",
                    line,
                    number,
                    sheet.players[seat],
                )
                cell = changed["bid"] + (changed["rest"] or "")
        bid, took = _wide_cell(cell, comma)
        bids.append(bid)
        tricks.append(took)
    record = RoundRecord(number, line, bids, [line] * count)
    if len(clouds) > 1:
        sheet.problem(
            f"cloud in {len(clouds)} cells of round {number}; the Cloud changes one player's bid",
            line,
            number,
        )
    elif clouds:
        record.cloud, record.cloud_line = clouds[0], line
        imply_special_cards(sheet, line)
    marked = layout.mark(row, "bomb")
    if marked is not None:
        _mark_bomb(marked, line, number, record, sheet)
    dealer = layout.mark(row, "dealer")
    if dealer is not None and dealer.strip():
        _take_dealer(dealer.strip(), line, number, sheet, seats)
    # A date-shaped cell was a bid/tricks cell a spreadsheet turned into a date: it had tricks.
    if any("/" in cell for cell in cells) or any(isinstance(t, BadValue) for t in tricks):
        record.tricks, record.trick_lines = tricks, [line] * count
    sheet.rounds.append(record)


def _mark_bomb(text: str, line: int, number: int, record: RoundRecord, sheet: Sheet) -> None:
    """A round's ``bomb`` cell (values as in a long CSV, SPEC §3)."""
    marked = mark_cell(text)
    if marked is None:
        sheet.problem(f"bomb '{text.strip()}' is not yes or no ({MARKS})", line, number)
    elif marked:
        record.bomb, record.bomb_line = True, line
        imply_special_cards(sheet, line)


def _take_dealer(name: str, line: int, number: int, sheet: Sheet, seats: SeatCells) -> None:
    """A round's ``dealer`` cell: who dealt it, one of the players (SPEC §3)."""
    if name in sheet.players:
        seats.dealers[number], seats.dealer_lines[number] = sheet.players.index(name), line
    else:
        sheet.problem(
            f"dealer '{shown_value(name)}' is not one of the players{suggest(name, sheet.players)}",
            line,
            number,
        )


_CLOUDED = re.compile(r"\s*(?P<bid>[0-9]{1,2})\s*(?P<sign>[+\-−])\s*1\s*(?P<rest>/[^/]*)?")
_CHANGED = re.compile(
    r"\s*(?P<bid>[0-9]+)\s*(?P<sign>[+\-−])\s*(?P<change>[0-9]+)\s*(?P<rest>/[^/]*)?"
)


def _wide_cell(cell: str, comma: bool) -> tuple[Value, Value]:
    """``bid/tricks``, or ``bid`` alone, or empty; a date-looking cell says what happened to it."""
    text = cell.strip()
    if DATE_LIKE.fullmatch(text):
        return BadValue(text, DATE_WHY), BadValue(text, DATE_WHY, quiet=True)
    if ERROR_CODE.fullmatch(text):  # the whole cell (#DIV/0! has a slash of its own)
        return BadValue(text, ERROR_WHY), BadValue(text, ERROR_WHY, quiet=True)
    if text.count("/") == 1:  # str methods, not a regex: a long cell must not backtrack for ages
        bid, _, took = text.partition("/")
        return count_cell(bid, comma), count_cell(took, comma)
    return count_cell(text, comma), None


# --- writing ---------------------------------------------------------------------------------


class WideCsvWriter(SheetWriter):
    """``round,<player>…`` with ``bid/tricks`` cells: one game only (a wide CSV has no game
    column), and no game id, date or typed points. Seating as ``out`` cells, a ``start`` row
    and a ``dealer`` column for the dealers off the rotation; the Bomb as a ``bomb`` column, the
    Cloud in its player's cell (SPEC §3)."""

    carries_rules = False
    carries_seating = True

    def learn(self, p: Portable) -> None:
        super().learn(p)
        if p.seating is not None:
            _fits_cells(p)

    def check(self) -> None:
        if self.count != 1:
            raise WizardError(
                Problem(
                    f"a wide CSV holds one game and this source has {self.count}: convert the season "
                    "to csv (long, with a game column), yaml or json instead",
                    self.source,
                )
            )

    def pieces(self, sheets: Iterable[Portable]) -> Iterator[str]:
        for p in sheets:
            lowered = {name.lower() for name in p.players}
            if {"player", "bid"} <= lowered:
                raise WizardError(
                    Problem(
                        "players named 'player' and 'bid' would make the wide "
                        "CSV read as a long one: convert to csv, yaml or json "
                        "instead",
                        p.source,
                    )
                )
            marks = [name for name in p.players if header_name(name) in _MARK_COLUMNS]
            if marks:
                raise WizardError(
                    Problem(
                        f"a player named {marks[0]!r} would read back as the wide CSV's "
                        f"{_MARK_COLUMNS[header_name(marks[0])]} column: convert to csv, yaml "
                        "or json instead",
                        p.source,
                    )
                )
            yield _wide_text(p)

    def carried(self, p: Portable) -> Portable:
        rounds = tuple(replace(r, points=None, point_lines=None) for r in p.rounds)
        seating = p.seating
        if seating is not None:  # a recorded dealer the rotation gives anyway is not written
            seating = replace(seating, dealers=_dealers(p))
        return replace(p, game=None, date=None, rounds=rounds, seating=seating)


def _wide_text(p: Portable) -> str:
    """One game as a wide CSV."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    seating = p.seating
    bombs = any(record.bomb for record in p.rounds)
    dealers = _dealers(p) if seating is not None else {}
    marks = (["bomb"] if bombs else []) + (["dealer"] if dealers else [])
    writer.writerow(["round", *p.players, *marks])
    if seating is not None and any(seating.start):
        writer.writerow(["start", *seating.start, *([""] * len(marks))])
    for record in p.rounds:
        seated = range(len(p.players)) if seating is None else set(seating.seated(record.number))
        cells = []
        for seat in range(len(p.players)):
            bid = csv_cell(record.bids[seat])
            if seat not in seated:
                cells.append("out")
                continue
            if record.cloud is not None and record.cloud[0] == seat:
                bid = f"{bid}{record.cloud[1]:+d}"
            cells.append(f"{bid}/{csv_cell(record.tricks[seat])}" if record.tricks else f"{bid}")
        dealer = dealers.get(record.number)
        writer.writerow(
            [
                record.number,
                *cells,
                *(["yes" if record.bomb else ""] if bombs else []),
                *([p.players[dealer] if dealer is not None else ""] if dealers else []),
            ]
        )
    return out.getvalue()


def _dealers(p: Portable) -> dict[int, int]:
    """The recorded dealers a wide CSV writes: those off the sheet's rotation (SPEC §3)."""
    seating = p.seating
    if seating is None:
        return {}
    seated = seating.seated(1)
    first = (
        p.players.index(p.first_dealer)
        if p.first_dealer is not None
        else seated[0]
        if seated
        else 0
    )
    return off_rotation_dealers(seating, first)


def _fits_cells(p: Portable) -> None:
    """Refuse a seating a wide CSV's cells would read back otherwise: a player's joining and
    leaving are known only from ``out`` cells in the rounds recorded (SPEC §3)."""
    seating = p.seating
    assert seating is not None
    back = read_back_seating(seating, len(p.rounds))
    if back is None and not seating.changes:
        return
    for seat, name in enumerate(p.players):
        written = (
            seating.joins[seat],
            seating.leaves[seat],
            [n for n, seats in sorted(seating.out.items()) if seat in seats],
        )
        read = (
            (1, None, [])
            if back is None
            else (
                back.joins[seat],
                back.leaves[seat],
                [n for n, seats in sorted(back.out.items()) if seat in seats],
            )
        )
        if written != read:
            raise WizardError(
                Problem(
                    f"{name}'s seating (joins, leaves, out) would read back otherwise from a CSV, "
                    "which knows who joins, leaves and sits out only from the 'out' cells of the "
                    f"{len(p.rounds)} rounds recorded: convert to yaml or json instead",
                    p.source,
                )
            )
