"""The season lane's reading of whole runs of games (issue 20) into score's table records:
each finished game of a run as the :class:`~wizard_cli.output.score_table.ScoreRecord` that
:func:`~wizard_cli.output.score_table.score_blocks` draws, as it draws a lone game's
(tests/test_lanes.py holds the two equal), with no Python step per cell.

Each cell's whole text is looked up by its bid, tricks, points and running total (made once
for each, from its ``bid/tricks → points = `` part), over the whole run; each table's shape
(its rounds' numbers, hand sizes and dealers) is made once; each seat's widest cell in each
game is measured over the run's columns at once. A run with a name a plain table
would not draw as it is (a control character, a wide character, a space at an end) is left to
the general path.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..game.model import RUN_FIRST_DEALER, GameRun
from ..game.runs import RunStandings
from ..game.scoring import dealer_seat, running_totals
from ..game.settings import hand_sizes
from .formats import KEPT_TABLES, Rendered, plain_texts
from .game_views import game_over_line
from .score_table import GridShape, ScoreRecord, played_cell, score_blocks

# The cells' texts kept at once: a season has about ten thousand (bid, tricks, points, total)
# (SPEC §4: flat, whatever a file holds).
KEPT_CELLS = 1 << 15


class _PlayedCells(dict):
    """A played cell's text up to its total, by ``(bid, tricks, points)``, made when first
    asked for (a season has a few hundred of them)."""

    def __missing__(self, key: tuple[int, int, int]) -> str:
        text = self[key] = played_cell(*key)
        return text


class _Cells(dict):
    """A played cell's whole text, by ``(bid, tricks, points, total)``, made when first asked
    for from its part up to the total: a season of a million cells has about ten thousand of
    them, so each cell is one look-up (forgotten past ``KEPT_CELLS``: SPEC §4, flat)."""

    def __init__(self) -> None:
        super().__init__()
        self.played = _PlayedCells()

    def __missing__(self, key: tuple[int, int, int, int]) -> str:
        bid, tricks, points, total = key
        text = self[key] = self.played[bid, tricks, points] + str(total)
        return text


class _Label:
    """What :func:`~wizard_cli.output.formats.heading` reads of a run's game: no title, date
    or place (a run's file has no such column)."""

    __slots__ = ("source", "game")
    title = date = place = None

    def __init__(self, source: str, game: str) -> None:
        self.source, self.game = source, game


class ScoreRunTables:
    """The season lane's score tables (``batch.Lane``): a run's games as their text blocks,
    a blank line apart, or None to leave the run to the general path."""

    def __init__(self) -> None:
        self.cells = _Cells()
        # (table, sizes) → its games' shape, forgotten when KEPT_TABLES are kept
        self.shapes: dict[tuple, GridShape | None] = {}
        # the winners' names → the game's status line, forgotten past KEPT_TABLES of them
        self.over_lines: dict[tuple[str, ...], str] = {}

    def __call__(self, run: GameRun, standings: RunStandings, scored: bool) -> Rendered | None:
        records = self.records(run, standings) if scored else None
        if records is None:
            return None
        return Rendered(
            "\n\n".join(["\n\n".join(score_blocks(record, "table")) for record in records]) + "\n"
        )

    def records(self, run: GameRun, standings: RunStandings) -> list[ScoreRecord] | None:
        """The run's games as score's table records, or None to leave the run to the general
        path."""
        if run.bombs or run.clouds or run.outs:  # drawn one by one (batch: pieces)
            return None
        count, rounds = run.players, run.rounds
        sizes = tuple(hand_sizes(standings.settings, count))
        shapes: dict[tuple[str, ...], GridShape] = {}
        if len(self.shapes) > KEPT_TABLES:
            self.shapes.clear()
        if len(self.over_lines) > KEPT_TABLES:
            self.over_lines.clear()
        if len(self.cells) > KEPT_CELLS:
            self.cells.clear()
        for table in set(run.tables):
            key = (table, sizes)
            if key not in self.shapes:
                self.shapes[key] = _shape(table, sizes)
            shape = self.shapes[key]
            if shape is None:
                return None
            shapes[table] = shape
        totals = running_totals(standings.points, count, rounds)
        texts = list(
            map(self.cells.__getitem__, zip(run.bids, run.tricks, standings.points, totals))
        )
        lengths = list(map(len, texts))
        # per game, each seat's widest text: its widest cell (the Total row's text ends the
        # seat's last cell, so it is never wider)
        widest = list(
            zip(*(map(max, zip(*[iter(lengths[seat::count])] * rounds)) for seat in range(count)))
        )
        size = count * rounds
        ranked, over = standings.ranked, self.over_lines
        records = []
        for game, table, start, places, ranks, scores, bonuses, widths in zip(
            run.ids,
            run.tables,
            range(0, len(texts), size),
            ranked.places,
            ranked.ranks,
            ranked.scores,
            ranked.bonuses,
            widest,
        ):
            # the winners: the places ranked first, which come first
            winners = tuple(map(table.__getitem__, places[: ranks.count(1)]))
            status = over.get(winners)
            if status is None:
                status = over[winners] = game_over_line(winners)
            records.append(
                ScoreRecord(
                    _Label(run.source, game),
                    table,
                    shapes[table],
                    texts[start : start + size],
                    totals[start + size - count : start + size],
                    list(zip(ranks, map(table.__getitem__, places), scores, bonuses)),
                    status,
                    widths,
                )
            )
        return records


def _shape(table: tuple[str, ...], sizes: Sequence[int]) -> GridShape | None:
    """The shape of a finished game's table at ``table`` with ``sizes`` hands; None when a
    name is not plain (a plain table would not draw it as it is)."""
    if not plain_texts(list(table)) or not all(table):
        return None
    count = len(table)
    return GridShape(
        [
            (number, size, table[dealer_seat(RUN_FIRST_DEALER, number, count)])
            for number, size in enumerate(sizes, 1)
        ]  # (in a short game, not everyone deals)
    )
