"""What ``score``, ``standings``, ``check``, ``next`` and ``trick`` show: one view each.

Each JSON record is built from one list of its keys (``ROUND_KEYS``, ``RESULT_KEYS``,
``STANDING_KEYS``, …); the tidy CSV rows are those records' values, under the same names, and
the tables and Markdown are drawn from the same records (a score table's cells from each seat's
values under ``RESULT_KEYS``, the standings table from ``standing_records``, ``next``'s lines
from its JSON object).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING

from ..errors import Problem, game_label, name_list, visible
from ..game.game import (
    NEXT_KEYS,
    RESULT_KEYS,
    STANDING_KEYS,
    GameResult,
    NextStep,
    game_status,
    next_step,
    round_records,
    seat_results,
    seated_rounds,
    standing_records,
)
from ..game.validation import Checked
from .fitting import fits
from .formats import Field, grid, heading

if TYPE_CHECKING:
    from ..game.trick import TrickResult

# --- score, standings --------------------------------------------------------------------

# Each part of a game's record is made once, as its values in the order of its keys
# (game/game.py, where the JSON records are built), and every format is drawn from those values:
# JSON pairs them with the keys, a CSV row is them, and a table's cells are made from them. So a
# table can show nothing the JSON does not say.

STANDING_FIELDS = tuple(
    Field(key, key.capitalize(), align)
    for key, align in zip(STANDING_KEYS, ("right", "left", "right", "right"))
)


def status_line(result: GameResult) -> str:
    """'Game over — Ben wins', or what happens next ('Round 6 of 15 next: Dan deals 6'), and who
    can no longer win ('— Dan can no longer win'; '— nobody can catch Ben' once one is left)."""
    status = game_status(result)
    if status.next is None:
        return game_over_line(status.winners)
    still = status.contenders
    out = [name for name in result.players if name not in still]
    line = _next_line(status.next, status.rounds_total)
    if not out:
        return line
    if len(still) == 1:
        return f"{line} — nobody can catch {still[0]}"
    return f"{line} — {name_list(out)} can no longer win"


def game_over_line(winners: Sequence[str]) -> str:
    """'Game over — Ben wins', or 'Game over — Ben and Cara share the win'."""
    verb = "wins" if len(winners) == 1 else "share the win"
    return f"Game over — {name_list(winners)} {verb}"


def _next_line(step: NextStep, rounds_total: int) -> str:
    """What happens next in a game in progress."""
    where = f"Round {step.round} of {rounds_total}"
    if not step.bids_in:
        assert step.dealer is not None  # a game in progress has a dealer
        return f"{where} next: {visible(step.dealer)} deals {step.hand_size}"
    if step.next_bidder is None:
        return f"{where} in play: all bids in, waiting for the tricks"
    forbidden = (
        "" if step.forbidden_dealer_bid is None else f" (may not bid {step.forbidden_dealer_bid})"
    )
    return f"{where} in play: {visible(step.next_bidder)} to bid{forbidden}"


def standings_block(result: GameResult, style: str) -> str:
    """The standings as a small table, from their records; a Bonus column only when someone
    has one."""
    records = standing_records(result)
    # the bonus is the last field
    fields = STANDING_FIELDS if any(record[-1] for record in records) else STANDING_FIELDS[:-1]
    count = len(fields)
    return grid(
        [field.header or "" for field in fields],
        [record[:count] for record in records],
        style,
        [field.align for field in fields],
    )


class ScoreOutput:
    """``wizard score``: every round, the totals, the standings and the status."""

    columns = ("round", "player", *RESULT_KEYS)

    def __init__(self, width: int | None = None) -> None:
        self.width = width  # the terminal's width to fit the table to (None: drawn as it is)

    @property
    def draws_runs(self) -> bool:
        """Whether the season lane draws this table for whole runs of finished games
        (output/score_runs.py): when it is drawn as it is, with no terminal to fit it to."""
        return self.width is None

    def as_json(self, result: GameResult) -> dict:
        return result.as_json()

    def rows(self, result: GameResult) -> Iterator[tuple]:
        players = result.players
        for record in round_records(result):
            number = record[0]
            for name, values in zip(players, seat_results(record)):
                yield (number, name, *values[: len(RESULT_KEYS)])

    def as_text(self, result: GameResult, style: str) -> str:
        return "\n\n".join(self.text_blocks(result, style))

    def text_blocks(self, result: GameResult, style: str) -> list[str]:
        return [
            heading(result, style),
            *self.tables(result, style),
            standings_block(result, style),
            status_line(result),
        ]

    def tables(self, result: GameResult, style: str) -> list[str]:
        """The round-by-round table, from the rounds' records; drawn to fit ``width`` when it is
        wider (SPEC §5): compact cells first, then the players split in seating order over
        several tables."""
        grid_of = _ScoreGrid(
            result.players, round_records(result), style, result.totals, seated_rounds(result)
        )
        seats = range(len(result.players))
        full = grid_of(seats, _round_cell)
        if self.width is None or style != "table" or fits(full, self.width):
            return [full]
        compact = grid_of(seats, _compact_cell)
        if fits(compact, self.width):
            return [compact]
        tables: list[str] = []
        start = 0
        while start < len(seats):  # as many players a table as fit (at least one)
            end = start + 1
            drawn = grid_of(seats[start:end], _compact_cell)
            while end < len(seats):
                wider = grid_of(seats[start : end + 1], _compact_cell)
                if not fits(wider, self.width):
                    break
                drawn, end = wider, end + 1
            tables.append(drawn)
            start = end
        return (
            (_balanced(grid_of, self.width, len(tables)) or tables) if len(tables) > 1 else tables
        )


def _balanced(grid_of: _ScoreGrid, width: int, count: int) -> list[str] | None:
    """The players over ``count`` tables as evenly as they go (3 and 3 rather than 5 and 1),
    if each still fits; else None."""
    players = len(grid_of.players)
    size = -(-players // count)
    drawn = [
        grid_of(range(start, min(start + size, players)), _compact_cell)
        for start in range(0, players, size)
    ]
    return drawn if len(drawn) == count and all(fits(table, width) for table in drawn) else None


class _ScoreGrid:
    """The score table of a game's round records, for the players at some seats."""

    def __init__(
        self,
        players: Sequence[str],
        records: list[tuple],
        style: str,
        totals: Sequence[int],
        seated: list[frozenset[int]] | None = None,
    ) -> None:
        self.players, self.records, self.style = players, records, style
        # The game's totals, start scores included before any round is played (SPEC §1)
        self.totals = totals
        self.seated = seated

    def _out(self, rows: list[list], seats: Sequence[int], full: bool) -> list[list]:
        """A player not seated in a round reads ``out`` (SPEC §5), in a full cell with their
        total carried on (``out = 90``)."""
        if self.seated is None:
            return rows
        for row, record, here in zip(rows, self.records, self.seated):
            results = record[-1]  # after the round, size, dealer (and the Bomb, SPEC §5)
            for column, seat in enumerate(seats, 3):
                if seat not in here:
                    total = results[3][seat]
                    row[column] = f"out = {total}" if full and total is not None else "out"
        return rows

    def __call__(self, seats: Sequence[int], cell: Callable[..., str]) -> str:
        """Round, Cards and Dealer, a column each, then the players at ``seats`` (each one's
        values under ``RESULT_KEYS`` shown by ``cell``), and a Total row."""
        players = self.players
        headers = ["Round", "Cards", "Dealer", *(players[seat] for seat in seats)]
        if len(seats) == len(players):
            rows = [
                [number, _cards_cell(size, bomb), dealer, *map(cell, *results)]
                for number, size, dealer, *bomb, results in self.records
            ]
        else:
            rows = [
                [
                    number,
                    _cards_cell(size, bomb),
                    dealer,
                    *map(cell, *([column[seat] for seat in seats] for column in results)),
                ]
                for number, size, dealer, *bomb, results in self.records
            ]
        rows = self._out(rows, seats, cell is _round_cell)
        rows.append(["Total", "", "", *(self.totals[seat] for seat in seats)])
        return grid(headers, rows, self.style, ["right", "right", "left"] + ["right"] * len(seats))


def _cards_cell(size: int, bomb: list[bool]) -> int | str:
    """The ``Cards`` cell: the hand size, ``7, bomb`` for a Bomb round (SPEC §5)."""
    return f"{size}, bomb" if bomb and bomb[0] else size


def _compact_cell(
    bid: int | None,
    tricks: int | None,
    points: int | None,
    total: int | None,
    cloud: int | None = None,
) -> str:
    """``bid/tricks ±points`` (the Total row gives each total); in play as ``_round_cell``."""
    if cloud is not None:
        return f"{_clouded(bid, cloud)}/{'?' if tricks is None else tricks}" + (
            "" if tricks is None else f" {points:+d}"
        )
    return _bid_cell(bid) if tricks is None else f"{bid}/{tricks} {points:+d}"


def _round_cell(
    bid: int | None,
    tricks: int | None,
    points: int | None,
    total: int | None,
    cloud: int | None = None,
) -> str:
    """``bid/tricks → points = total``; in play as :func:`_bid_cell`; a Cloud's player's
    ``1+1/2 → +40 = 90`` (the bid called, the change, the tricks: SPEC §5)."""
    if cloud is not None:
        if tricks is None:
            return f"{_clouded(bid, cloud)}/?"
        return f"{_clouded(bid, cloud)}/{tricks} → {points:+d} = {total}"
    if tricks is None:
        return _bid_cell(bid)
    assert bid is not None and points is not None  # a played round has both
    return f"{played_cell(bid, tricks, points)}{total}"


def _clouded(bid: int | None, cloud: int) -> str:
    """A bid the Cloud changed: ``1+1``, ``2-1``."""
    return f"{bid}{cloud:+d}"


def played_cell(bid: int, tricks: int, points: int) -> str:
    """A played round's cell up to its total: ``bid/tricks → points = ``."""
    return f"{bid}/{tricks} → {points:+d} = "


def _bid_cell(bid: int | None) -> str:
    """A cell of the round in play: ``bid/?``, or ``?`` before the bid."""
    return "?" if bid is None else f"{bid}/?"


class StandingsOutput:
    """``wizard standings``: the standings and status alone."""

    columns = STANDING_KEYS

    def as_json(self, result: GameResult) -> dict:
        return result.standings_json()

    def rows(self, result: GameResult) -> Iterator[tuple]:
        return iter(standing_records(result))

    def as_text(self, result: GameResult, style: str) -> str:
        return "\n\n".join(self.text_blocks(result, style))

    def text_blocks(self, result: GameResult, style: str) -> list[str]:
        return [heading(result, style), standings_block(result, style), status_line(result)]


class ChangedOutput(StandingsOutput):
    """``wizard edit``: the standings after the change and the status line (SPEC §5)."""

    def text_blocks(self, result: GameResult, style: str) -> list[str]:
        return [standings_block(result, style), status_line(result)]


PROBLEM_KEYS = ("line", "round", "player", "message")


def problem_json(problem: Problem) -> dict:
    """A problem as ``check --format json`` (and serve's JSON) shows it: where and what."""
    return problem.as_json()


class CheckOutput:
    """``wizard check``: ok, or every problem found (the problems also go to stderr)."""

    columns = ("valid", *PROBLEM_KEYS)
    spaced = False  # one line per sheet

    def as_json(self, checked: Checked) -> dict:
        return {
            "source": checked.source,
            "game": checked.game,
            "valid": checked.valid,
            "problems": [problem_json(p) for p in checked.problems],
        }

    def rows(self, checked: Checked) -> Iterator[tuple]:
        if checked.valid:
            yield (True, None, None, None, "ok")
        for p in checked.problems:
            yield (False, *problem_json(p).values())

    def as_text(self, checked: Checked, style: str) -> str:
        label = visible(game_label(checked.source, checked.game))
        if checked.valid:
            return f"{label}: ok"
        count = len(checked.problems)
        return f"{label}: {count} problem{'s' if count != 1 else ''}"


# --- next --------------------------------------------------------------------------------


def next_json(step: NextStep) -> dict:
    """The ``wizard next`` object (SPEC §5), as the step builds it."""
    return step.as_json()


NEXT_LABEL_WIDTH = len("Dealer may not bid: ")  # the longest label, colon and a space


class NextOutput:
    """``wizard next``: the next thing to happen at the table."""

    columns = NEXT_KEYS

    def as_json(self, result: GameResult) -> dict:
        return next_json(next_step(result))

    def rows(self, result: GameResult) -> Iterator[tuple]:
        data = next_json(next_step(result))
        data["biddingOrder"] = " ".join(data["biddingOrder"] or [])
        data["bidsIn"] = " ".join(f"{k}={v}" for k, v in (data["bidsIn"] or {}).items())
        yield tuple(data[c] for c in self.columns)

    def as_text(self, result: GameResult, style: str) -> str:
        record = next_json(next_step(result))
        if record["finished"]:
            return status_line(result)
        rows = next_lines(record, result.rounds_total)
        return (
            grid(["", ""], rows, style, ["left", "left"], escaped=True)
            if style == "markdown"
            else "\n".join(f"{label + ':':<{NEXT_LABEL_WIDTH}}{value}" for label, value in rows)
        )


def next_lines(record: dict, rounds_total: int) -> list[tuple[str, object]]:
    """The labelled lines of ``wizard next``'s text, from its JSON record (a game in progress)."""
    hand_size, bids_in = record["handSize"], record["bidsIn"]
    rows: list[tuple[str, object]] = [
        ("Round", f"{record['round']} of {rounds_total}"),
        ("Hand size", f"{hand_size}" + (" (whole deck: no trump)" if record["noTrump"] else "")),
        ("Dealer", visible(record["dealer"])),
        ("Bidding order", ", ".join(map(visible, record["biddingOrder"]))),
        ("Bids in", ", ".join(f"{visible(k)} {v}" for k, v in bids_in.items()) or "none yet"),
        *([("Bids so far", f"{record['bidTotal']} of {hand_size}")] if bids_in else []),
        ("Next to bid", visible(record["nextBidder"] or "nobody: waiting for the tricks")),
    ]
    if record["forbiddenDealerBid"] is not None:
        rows.append(("Dealer may not bid", record["forbiddenDealerBid"]))
    return rows


# --- trick -------------------------------------------------------------------------------


class TrickOutput:
    """``wizard trick``: the winning position, card and rule; who leads next and who must change
    their bid (the anniversary cards' Bomb and Cloud, SPEC §5). Every trick has every key: a
    classic trick's ``leadsNext`` is its winner and its ``cloud`` null."""

    columns = ("winner", "card", "reason", "leadsNext", "cloud")

    def as_json(self, result: TrickResult) -> dict:
        taken = not result.bomb  # with the Bomb nobody takes it: winner and card null
        return dict(
            zip(
                self.columns,
                (
                    result.position if taken else None,
                    str(result.card) if taken else None,
                    result.reason,
                    result.position,
                    result.cloud,
                ),
            )
        )

    def rows(self, result: TrickResult) -> Iterator[tuple]:
        yield tuple(self.as_json(result).values())

    def as_text(self, result: TrickResult, style: str) -> str:
        played = f"card {result.position} ({result.card})"
        if result.bomb:
            line = f"Nobody takes the trick (the Bomb); {played} leads next: {result.reason}"
            return line + ("; the Cloud changes no bid" if result.with_cloud else "")
        line = f"Card {result.position} ({result.card}) wins: {result.reason}"
        if result.cloud is not None:
            line += "; its player must change their bid by one (the Cloud)"
        return line


class UndoneOutput(NextOutput):
    """``wizard undo``: what comes next; when it took back a round's tricks, the standings
    before it (SPEC §5)."""

    def __init__(self, standings: bool) -> None:
        self.standings = standings

    def as_text(self, result: GameResult, style: str) -> str:
        upcoming = super().as_text(result, style)
        return f"{standings_block(result, style)}\n\n{upcoming}" if self.standings else upcoming
