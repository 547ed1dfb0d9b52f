"""What ``score``, ``standings``, ``check``, ``next`` and ``trick`` show: one view each.

Each JSON record is built from one list of its keys (``ROUND_KEYS``, ``RESULT_KEYS``,
``STANDING_KEYS``, …); the tidy CSV rows are those records' values, under the same names, and
the tables and Markdown are drawn from the same records (a score table's cells from each seat's
values under ``RESULT_KEYS``, the standings table from ``standing_records``, both by
score_table.py, which draws a season's runs too; ``next``'s lines from its JSON object).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
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
from .formats import grid, heading
from .score_table import (
    ScoreRecord,
    compact_cell,
    score_blocks,
    score_grid,
    score_record,
    seat_cells,
    standings_table,
)

if TYPE_CHECKING:
    from ..game.trick import TrickResult

# --- score, standings --------------------------------------------------------------------

# Each part of a game's record is made once, as its values in the order of its keys
# (game/game.py, where the JSON records are built), and every format is drawn from those values:
# JSON pairs them with the keys, a CSV row is them, and a table's cells are made from them. So a
# table can show nothing the JSON does not say.


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
    return standings_table(standing_records(result), style)


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
        """The game's blocks as :func:`~.score_table.score_blocks` draws them, the table drawn
        to fit ``width`` when it is wider (SPEC §5): compact cells first, then the players
        split in seating order over several tables."""
        records = round_records(result)
        record = score_record(result, records, status_line(result))
        blocks = score_blocks(record, style)
        if self.width is not None and style == "table" and not fits(blocks[1], self.width):
            blocks[1:2] = self._fitted(_Fitting(record, records, seated_rounds(result), style))
        return blocks

    def tables(self, result: GameResult, style: str) -> list[str]:
        """The round-by-round table, or the tables it is split into to fit ``width``."""
        return self.text_blocks(result, style)[1:-2]

    def _fitted(self, grid_of: _Fitting) -> list[str]:
        """The table in compact cells, over as few tables as fit ``width``."""
        assert self.width is not None
        seats = range(len(grid_of.record.players))
        compact = grid_of(seats)
        if fits(compact, self.width):
            return [compact]
        tables: list[str] = []
        start = 0
        while start < len(seats):  # as many players a table as fit (at least one)
            end = start + 1
            drawn = grid_of(seats[start:end])
            while end < len(seats):
                wider = grid_of(seats[start : end + 1])
                if not fits(wider, self.width):
                    break
                drawn, end = wider, end + 1
            tables.append(drawn)
            start = end
        return (
            (_balanced(grid_of, self.width, len(tables)) or tables) if len(tables) > 1 else tables
        )


def _balanced(grid_of: _Fitting, width: int, count: int) -> list[str] | None:
    """The players over ``count`` tables as evenly as they go (3 and 3 rather than 5 and 1),
    if each still fits; else None."""
    players = len(grid_of.record.players)
    size = -(-players // count)
    drawn = [grid_of(range(start, min(start + size, players))) for start in range(0, players, size)]
    return drawn if len(drawn) == count and all(fits(table, width) for table in drawn) else None


class _Fitting:
    """A game's score table in compact cells, for the players at some seats, drawn by
    :func:`~.score_table.score_grid` as the whole table is."""

    def __init__(
        self,
        record: ScoreRecord,
        records: list[tuple],
        seated: list[frozenset[int]] | None,
        style: str,
    ) -> None:
        self.record, self.records, self.seated, self.style = record, records, seated, style

    def __call__(self, seats: Sequence[int]) -> str:
        record = self.record
        return score_grid(
            record.shape,
            [record.players[seat] for seat in seats],
            seat_cells(self.records, self.seated, seats, compact_cell),
            [record.totals[seat] for seat in seats],
            self.style,
        )


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
