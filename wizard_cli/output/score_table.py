"""``wizard score``'s text (SPEC §5), drawn in one place for a lone game and a season's runs.

A game is read into a :class:`ScoreRecord` (a :class:`~wizard_cli.game.game.GameResult` by
:func:`score_record`, a game of a long CSV's run by output/score_runs.py) and
:func:`score_blocks` draws it: its heading, the round-by-round table, the standings block and
the status line. The layout is written here once: the ``Round``, ``Cards`` and ``Dealer``
columns, the rules line, the ``Total`` row, each column as wide as its widest cell or its
header and two spaces (as a plain table's column is, output/formats.py), the standings' columns.
A ``table`` whose names are plain is filled into a ``%`` template of its shape's left columns
(:class:`GridShape`, which a run of games of one table shares) and its players' column widths,
each hole padding its text as the plain table does; any other goes through
:func:`~.formats.grid`.
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple

from ..game.game import RESULT_KEYS, STANDING_KEYS, GameResult, seated_rounds, standing_records
from .formats import Field, grid, heading, plain_fields, plain_texts

# The score table's columns before the players', and its last row (SPEC §5)
LEFT_HEADERS = ("Round", "Cards", "Dealer")
LEFT_ALIGN = ("right", "right", "left")
TOTAL_ROW = ("Total", "", "")

STANDING_FIELDS = tuple(
    Field(key, key.capitalize(), align)
    for key, align in zip(STANDING_KEYS, ("right", "left", "right", "right"))
)
_HEADERS = [field.header or "" for field in STANDING_FIELDS]
_HEADER_WIDTHS = [len(header) + 2 for header in _HEADERS]
_LAST = operator.itemgetter(-1)


class GridShape:
    """A score table's rows before the players' cells: each round's number, ``Cards`` cell and
    dealer. For a table whose texts are plain (``plain``), its left columns are drawn when
    first asked for and kept: every game of a run at one table is filled into them."""

    __slots__ = ("rounds", "plain", "_lefts", "_plain_names")

    def __init__(self, rounds: Sequence[tuple[int, int | str, str]]) -> None:
        self.rounds = rounds
        self.plain = plain_texts([str(cell) for row in rounds for cell in row])
        self._lefts: list[str] | None = None
        self._plain_names: dict[tuple[str, ...], bool] = {}

    def draws_plain(self, players: tuple[str, ...]) -> bool:
        """Whether the table with ``players``' columns is drawn from the template: every
        text of it plain (else, as a plain table is not, by :func:`~.formats.grid`)."""
        known = self._plain_names.get(players)
        if known is None:
            known = self._plain_names[players] = (
                self.plain and all(players) and plain_texts(list(players))
            )
        return known

    def template(self, widths: Sequence[int]) -> str:
        """The table with players' columns this wide as a ``%`` template: the left columns
        drawn, each player's header, rule, cells (round after round) and total a ``%Ns``
        hole, which pads its text on the left to the column's width as ``str.rjust`` does."""
        lefts = self._lefts
        if lefts is None:
            lefts = self._lefts = self._made()
        holes = "  ".join(map("%%%ds".__mod__, widths))
        return (holes + "\n").join(lefts) + holes

    def _made(self) -> list[str]:
        """Each line's left columns, drawn, ``%`` escaped, up to the players' first column."""
        columns = zip(*self.rounds, TOTAL_ROW)  # each column's texts, the Total row's too
        widths = [
            column_width(header, map(len, map(str, column)))
            for header, column in zip(LEFT_HEADERS, columns)
        ]
        start = "  ".join(plain_fields(LEFT_ALIGN, widths)) + "  "
        lines = [
            start.format(*LEFT_HEADERS),
            "  ".join("-" * width for width in widths) + "  ",
            *(start.format(*row) for row in self.rounds),
            start.format(*TOTAL_ROW),
        ]
        return [line.replace("%", "%%") for line in lines]


def column_width(header: str, lengths: Iterable[int]) -> int:
    """A plain table's column: as wide as its widest text (of these ``lengths``), and its
    header and two spaces."""
    return max([len(header) + 2, *lengths])


class ScoreRecord(NamedTuple):
    """What ``wizard score``'s text shows of one game: ``label``, what its heading names (the
    source, the game, a title, date and place); the players; the table's ``shape``; each
    player's cell text, round after round in seating order; the totals; the standings'
    values under ``STANDING_KEYS``; the status line; and, when the reading has measured them
    (a run does, over its columns), each player's widest text in the table (None: measured
    here)."""

    label: Any
    players: Sequence[str]
    shape: GridShape
    cells: Sequence[str]
    totals: Sequence[int]
    standings: Sequence[Sequence[Any]]
    status: str
    widest: Sequence[int] | None = None


def score_blocks(record: ScoreRecord, style: str) -> list[str]:
    """The game's text blocks (a blank line apart): heading, table, standings, status."""
    shape, players = record.shape, record.players
    plain = style == "table" and shape.draws_plain(tuple(players))
    return [
        heading(record.label, style),
        score_grid(shape, players, record.cells, record.totals, style, record.widest),
        standings_table(record.standings, style, plain),
        record.status,
    ]


def score_grid(
    shape: GridShape,
    players: Sequence[str],
    cells: Sequence[str],
    totals: Sequence[int],
    style: str,
    widest: Sequence[int] | None = None,
) -> str:
    """The round-by-round table: ``Round``, ``Cards`` and ``Dealer``, a column each, then the
    ``players``' columns of ``cells`` (round after round, in seating order), and the Total
    row. ``widest``: each player's widest text, cells and total, when already measured."""
    count = len(players)
    if style != "table" or not shape.draws_plain(tuple(players)):
        rows: list[list[Any]] = [
            [*row, *cells[at : at + count]]
            for row, at in zip(shape.rounds, range(0, len(cells), count))
        ]
        rows.append([*TOTAL_ROW, *totals])
        return grid([*LEFT_HEADERS, *players], rows, style, [*LEFT_ALIGN, *["right"] * count])
    finals = list(map(str, totals))
    if widest is None:
        lengths = list(map(len, cells))
        widest = [max([len(final), *lengths[seat::count]]) for seat, final in enumerate(finals)]
    # each column as wide as its widest text or its name and two spaces (column_width)
    widths = list(map(max, map((2).__add__, map(len, players)), widest))
    # (every line ends in a player's right-aligned text, never empty: nothing to strip from
    # its end, as a plain table's line is stripped)
    return shape.template(widths) % (*players, *map("-".__mul__, widths), *cells, *finals)


@functools.lru_cache(maxsize=256)
def _standing_lines(widths: tuple[int, ...], rows: int) -> tuple[str, str, str]:
    """The standings block's line as a ``%`` template (``%6s``, ``%-8s``: padded as str.rjust
    and str.ljust do), its ``rows`` lines as one, and its header and rules lines, for column
    ``widths``."""
    fields = STANDING_FIELDS[: len(widths)]
    line = "  ".join(
        f"%{'-' if field.align == 'left' else ''}{width}s" for field, width in zip(fields, widths)
    )
    top = (line % tuple(field.header for field in fields)).rstrip()
    return line, "\n".join([line] * rows), top + "\n" + "  ".join("-" * width for width in widths)


def standings_table(records: Sequence[Sequence[Any]], style: str, plain: bool | None = None) -> str:
    """The standings as a small table, from their values under ``STANDING_KEYS``; a Bonus
    column only when someone has one. ``plain``: whether the names are known to be plain
    text (None: looked at here)."""
    # the bonus is the last field
    fields = STANDING_FIELDS if any(map(_LAST, records)) else STANDING_FIELDS[:-1]
    count = len(fields)
    rows = records if count == len(STANDING_KEYS) else [record[:count] for record in records]
    if plain is None:
        names = [record[1] for record in records]
        plain = style == "table" and all(names) and plain_texts(names)
    if not plain or not rows:
        return grid(_HEADERS[:count], rows, style, [field.align for field in fields])
    texts = list(map(str, itertools.chain.from_iterable(rows)))  # row after row
    # each column as wide as its widest text or its header and two spaces (column_width)
    widths = tuple(map(max, _HEADER_WIDTHS, *zip(*[iter(map(len, texts))] * count)))
    line, lines, top = _standing_lines(widths, len(rows))
    last = texts[count - 1 :: count]
    if all(last) and list(map(str.rstrip, last)) == last:  # (a number): no line to strip
        return top + "\n" + lines % tuple(texts)
    return top + "\n" + "\n".join(map(str.rstrip, map(line.__mod__, zip(*[iter(texts)] * count))))


# --- a lone game's record ------------------------------------------------------------------


def score_record(result: GameResult, records: list[tuple], status: str) -> ScoreRecord:
    """A scored game's record, from its rounds' ``records`` (``round_records``): every
    player's full cell (``bid/tricks → points = total``)."""
    return ScoreRecord(
        result,
        result.players,
        grid_shape(records),
        seat_cells(records, seated_rounds(result), range(len(result.players)), round_cell),
        result.totals,
        standing_records(result),
        status,
    )


def grid_shape(records: list[tuple]) -> GridShape:
    """The shape of a game's table, from its rounds' records: number, ``Cards`` cell (the hand
    size, ``7, bomb`` for a Bomb round: SPEC §5) and dealer."""
    return GridShape(
        [
            (number, f"{size}, bomb" if bomb and bomb[0] else size, dealer)
            for number, size, dealer, *bomb, _ in records
        ]
    )


def seat_cells(
    records: list[tuple],
    seated: list[frozenset[int]] | None,
    seats: Sequence[int],
    cell: Callable[..., str],
) -> list[str]:
    """The cells of the players at ``seats``, round after round: ``cell`` of each one's values
    under ``RESULT_KEYS``. A player not seated in a round reads ``out`` (SPEC §5), in a full
    cell with their total carried on (``out = 90``)."""
    cells: list[str] = []
    for index, record in enumerate(records):
        results = record[-1]  # after the round, size, dealer (and the Bomb, SPEC §5)
        if len(seats) != len(results[0]):
            results = [[column[seat] for seat in seats] for column in results]
        texts = list(map(cell, *results))
        if seated is not None:
            here, totals = seated[index], record[-1][RESULT_KEYS.index("total")]
            for at, seat in enumerate(seats):
                if seat not in here:
                    total = totals[seat]
                    full = cell is round_cell and total is not None
                    texts[at] = f"out = {total}" if full else "out"
        cells += texts
    return cells


def compact_cell(
    bid: int | None,
    tricks: int | None,
    points: int | None,
    total: int | None,
    cloud: int | None = None,
) -> str:
    """``bid/tricks ±points`` (the Total row gives each total); in play as ``round_cell``."""
    if cloud is not None:
        return f"{_clouded(bid, cloud)}/{'?' if tricks is None else tricks}" + (
            "" if tricks is None else f" {points:+d}"
        )
    return _bid_cell(bid) if tricks is None else f"{bid}/{tricks} {points:+d}"


def round_cell(
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
