"""The score table of whole runs of games (the season lane, issue 20), drawn from the run's
columns: what :class:`~wizard_cli.output.game_views.ScoreOutput` draws in the ``table`` style for
each finished game, byte for byte (tests/test_lanes.py holds the two equal), with no Python
step per cell.

Each cell's text is looked up (its ``bid/tricks → points = `` part, made once per distinct
bid, tricks and points) and its running total added; each seat's column is as wide as its
widest cell or its name and two spaces, as a plain table's column is (output/formats.py); and
each game is its table shape's template filled with its values. A run with a name a plain
table would not draw as it is (a control character, a wide character, a space at an end) is
left to the general path.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Sequence

from ..game.model import RUN_FIRST_DEALER, GameRun
from ..game.runs import RunStandings
from ..game.scoring import dealer_seat, running_totals
from ..game.settings import hand_sizes
from .formats import KEPT_TABLES, Rendered, heading, plain_fields, plain_texts
from .game_views import STANDING_FIELDS, game_over_line, played_cell

_ROUND, _CARDS, _DEALER, _TOTAL = "Round", "Cards", "Dealer", "Total"
# The standings block's column headers (every standing field has one)
_HEADERS = [field.header for field in STANDING_FIELDS if field.header is not None]
assert len(_HEADERS) == len(STANDING_FIELDS)


class _PlayedCells(dict):
    """A played cell's text up to its total, by ``(bid, tricks, points)``, made when first
    asked for (a season has a few hundred of them)."""

    def __missing__(self, key: tuple[int, int, int]) -> str:
        text = self[key] = played_cell(*key)
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
        self.cells = _PlayedCells()
        # (table, sizes) → its games' template, forgotten when KEPT_TABLES are kept
        self.shapes: dict[tuple, str | None] = {}
        self.standings: dict[tuple[int, ...], tuple[str, str]] = {}  # widths → format, top

    def __call__(self, run: GameRun, standings: RunStandings, scored: bool) -> Rendered | None:
        if not scored or run.bombs or run.clouds or run.outs:  # drawn one by one (batch: pieces)
            return None
        count, rounds, games = run.players, run.rounds, len(run)
        sizes = tuple(hand_sizes(standings.settings, count))
        templates: dict[tuple[str, ...], str] = {}
        if len(self.shapes) > KEPT_TABLES:
            self.shapes.clear()
        for table in set(run.tables):
            key = (table, sizes)
            if key not in self.shapes:
                self.shapes[key] = _game_template(table, sizes)
            template = self.shapes[key]
            if template is None:
                return None
            templates[table] = template
        totals = running_totals(standings.points, count, rounds)
        texts = list(
            map(
                operator.add,
                map(self.cells.__getitem__, zip(run.bids, run.tricks, standings.points)),
                map(str, totals),
            )
        )
        lengths = list(map(len, texts))
        widest = list(
            zip(*(map(max, zip(*[iter(lengths[seat::count])] * rounds)) for seat in range(count)))
        )  # per game, each seat's widest cell
        tables = run.tables
        least = {table: tuple(len(name) + 2 for name in table) for table in templates}
        widths = list(
            map(tuple, map(map, itertools.repeat(max), widest, map(least.__getitem__, tables)))
        )
        padded = list(
            map(
                str.rjust,
                texts,
                itertools.chain.from_iterable(map(operator.mul, widths, itertools.repeat(rounds))),
            )
        )
        size = count * rounds
        blocks = []
        for game in range(games):
            table, width = tables[game], widths[game]
            start = game * size
            finals = map(str, totals[start + size - count : start + size])
            values = (
                heading(_Label(run.source, run.ids[game]), "table"),
                *map(str.rjust, table, width),
                *map("-".__mul__, width),
                *padded[start : start + size],
                *map(str.rjust, finals, width),
                self._standings(standings, game, table),
                self._status(standings, game, table),
            )
            blocks.append(templates[table] % values)
        return Rendered("\n".join(blocks))

    def _standings(self, standings: RunStandings, game: int, table: Sequence[str]) -> str:
        """Game ``game``'s standings block, as ``standings_block`` draws it."""
        scores, bonuses = standings.scores[game], standings.bonuses[game]
        columns = [
            standings.ranks[game],
            list(map(table.__getitem__, standings.places[game])),
            scores,
        ]
        # each column as wide as its widest value or its header and two spaces (a rank is 1–6)
        widths: tuple[int, ...] = (
            len(_HEADERS[0]) + 2,
            max(len(_HEADERS[1]) + 2, *map(len, table)),
            max(len(_HEADERS[2]) + 2, *map(len, map(str, scores))),
        )
        if any(bonuses):
            widths += (max(len(_HEADERS[3]) + 2, *map(len, map(str, bonuses))),)
            columns.append(bonuses)
        made = self.standings.get(widths)
        if made is None:
            fields = STANDING_FIELDS[: len(widths)]
            line = "  ".join(plain_fields([field.align for field in fields], widths))
            top = (
                line.format(*(field.header for field in fields)).rstrip()
                + "\n"
                + "  ".join("-" * width for width in widths)
            )
            made = self.standings[widths] = (line, top)
        line, top = made
        return (
            top + "\n" + "\n".join(map(str.rstrip, itertools.starmap(line.format, zip(*columns))))
        )

    @staticmethod
    def _status(standings: RunStandings, game: int, table: Sequence[str]) -> str:
        """A finished game's status line: who won."""
        return game_over_line(
            [
                table[seat]
                for seat, rank in zip(standings.places[game], standings.ranks[game])
                if rank == 1
            ]
        )


def _game_template(table: tuple[str, ...], sizes: Sequence[int]) -> str | None:
    """A finished game's text blocks at ``table`` with ``sizes`` hands, as a template: its
    heading, then the score table's seat headers, rules, cells (round after round, in seating
    order) and totals, then its standings block and status line are ``%s`` holes. None when a
    name is not plain (a plain table would not draw it as it is)."""
    if not plain_texts(list(table)) or not all(table):
        return None
    count = len(table)
    dealers = [
        table[dealer_seat(RUN_FIRST_DEALER, number, count)] for number in range(1, len(sizes) + 1)
    ]  # (in a short game, not everyone deals)
    widths = (
        max(len(_ROUND) + 2, len(str(len(sizes)))),
        max(len(_CARDS) + 2, *map(len, map(str, sizes))),
        max(len(_DEALER) + 2, *map(len, dealers)),
    )
    start = "  ".join(plain_fields(["right", "right", "left"], widths)) + "  "
    holes = "  ".join(["%s"] * count) + "\n"
    escape = lambda text: text.replace("%", "%%")  # noqa: E731
    lines = [
        "%s\n\n",
        escape(start.format(_ROUND, _CARDS, _DEALER)) + holes,
        "  ".join("-" * width for width in widths) + "  " + holes,
    ]
    for number, (size, dealer) in enumerate(zip(sizes, dealers), 1):
        lines.append(escape(start.format(number, size, dealer)) + holes)
    lines += [start.format(_TOTAL, "", "") + holes, "\n%s\n\n%s\n"]
    return "".join(lines)
