"""JSON lines for whole runs of games (the season lane, issue 20), each line filled into a template.

A template is the view's own line: the view's ``as_json``, written by the ``jsonl`` encoder, for a
probe game whose varying values (the source, the game id, each seat's name, at each place of
the standings its seat, player, rank, score and bonus, and in each cell of the rounds its bid,
tricks, points and running total) are marks; each mark is then a hole. So a
line says exactly what the view says, in its order and spelling, and a change to the view's
shape changes the template with it. A view that shows a value in a way a hole cannot stand for
(a name inside a longer text, a number worked out from a score) leaves a mark behind: it has no
template, and its games go the general way.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import operator
import re
from typing import Any

from ..game.game import Game, score_game
from ..game.model import RUN_FIRST_DEALER, GameRun, filled
from ..game.runs import RunStandings
from ..game.scoring import ScoredRound, Standing, running_totals
from ..game.settings import Settings
from ..game.validation import Checked
from .formats import KEPT_TABLES, Rendered, View, json_line_encoder

_MARK, _END = "\ue000", "\ue001"  # private-use characters: a text mark is \ue000<kind><index>\ue001
_NUMBER = 739_100_000_000_000  # + kind * 1000 + index: a number mark, larger than any score
_TEXT_HOLE = re.compile(f'"{_MARK}([sgpq])([0-9]+){_END}"')
_NUMBER_HOLE = re.compile(r"(?<![0-9.\-])73910000000([1-8])([0-9]{3})(?![0-9.eE])")
# The values a line is filled with, in this order: source, game, then per seat or place, then
# per cell (round after round, in seating order).
_TEXTS = {"s": 0, "g": 1}
_PER_SEAT = (
    "p",
    "q",
    "1",
    "2",
    "3",
    "4",
)  # seat name; at a place: player, rank, score, bonus, seat
_PER_CELL = ("5", "6", "7", "8")  # a cell's bid, tricks, points and running total
_MARKED = 1 << 8  # above a count of winners: a game recording a Bomb or a Cloud (RunLines)


def _text(kind: str, index: int = 0) -> str:
    return f"{_MARK}{kind}{index}{_END}"


def _number(kind: int, index: int) -> int:
    return _NUMBER + kind * 1000 + index


class RunLines:
    """One view's JSON lines for runs of finished, valid games, each shown as a scored
    :class:`~wizard_cli.game.game.GameResult` (standings) or, not ``scored``, as a
    :class:`~wizard_cli.game.validation.Checked` (check)."""

    def __init__(self, output: View) -> None:
        self.output = output
        self.encode = json_line_encoder()
        self.templates: dict[tuple, tuple[str, list[int], bool] | None] = {}
        self.names: dict[tuple[str, ...], tuple[str, ...]] = {}  # players → their JSON texts

    def __call__(self, run: GameRun, standings: RunStandings, scored: bool) -> Rendered | None:
        """The run's lines, or None when the view has no template for its games.

        Filled column by column, with no Python step per game: each hole's values for every
        game (a column), zipped into each game's values, each line its template % them. Games
        of one count of winners share a template; the others (ties for first) are filled
        again with theirs."""
        count, games = run.players, len(run)
        winners = (
            list(map(operator.countOf, standings.ranks, itertools.repeat(1)))
            if scored
            else [0] * games
        )
        marked, marked_settings = standings.marked, standings.marked_settings
        if marked_settings is not None:  # games of two settings (SPEC §3): a template each
            assert marked is not None  # (marked_settings are the settings of the games marked)
            winners = list(
                map(
                    operator.or_,
                    winners,
                    map(operator.mul, marked, itertools.repeat(_MARKED)),
                )
            )
        usual = max(set(winners), key=winners.count)
        made = {}
        for won in sorted(set(winners)):
            settings = standings.settings
            if won & _MARKED:
                assert marked_settings is not None  # (only then are games marked, above)
                settings = marked_settings
            key = (scored, count, run.rounds, settings, won & ~_MARKED)
            if key not in self.templates:
                self.templates[key] = self._template(run, settings, scored, won & ~_MARKED)
            found = self.templates[key]
            if found is None or (found[2] and (run.bombs or run.clouds or run.outs)):
                return None  # (a view showing rounds: special cards and sit-outs one by one)
            made[won] = found[:2]
        columns = _Columns(self, run, standings)
        template, picked = made[usual]
        lines = list(map(template.__mod__, zip(*map(columns.__getitem__, picked))))
        for won in made.keys() - {usual}:
            template, picked = made[won]
            chosen = [index for index, first in enumerate(winners) if first == won]
            values = [list(map(columns[at].__getitem__, chosen)) for at in picked]
            for index, line in zip(chosen, map(template.__mod__, zip(*values))):
                lines[index] = line
        return Rendered("".join(lines))

    def seat_names(self, tables: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
        """Each game's players as JSON texts (each table encoded once: a season has few)."""
        names = self.names
        found = list(map(names.get, tables))
        if filled(found):
            return found
        if len(names) > KEPT_TABLES:  # a club that reseats every game: forgotten when full
            names.clear()
        for table in set(tables):
            if table not in names:
                names[table] = tuple(map(self.encode, table))
        return list(map(names.__getitem__, tables))

    def _template(
        self, run: GameRun, settings: Settings, scored: bool, winners: int
    ) -> tuple[str, list[int], bool] | None:
        """The view's line for a probe game of the run's shape (no Bomb, no Cloud, no one out), marks made
        holes (None if a mark is left over), which value (see :class:`_Columns`) fills each
        hole, and whether any is a round's value (the view shows rounds)."""
        count = run.players
        sheet = dataclasses.replace(
            run.sheet(0),
            source=_text("s"),
            game=_text("g"),
            players=[_text("p", seat) for seat in range(count)],
        )
        sheet.rounds.specials = None
        if sheet.seating is not None:  # a probe at a full table: no one sits a round out
            rounds, sheet.seating = sheet.rounds, None
            rounds.bids = [0 if value is None else value for value in rounds.bids]
            rounds.tricks = [0 if value is None else value for value in rounds.tricks]
        game = Game(sheet, settings, RUN_FIRST_DEALER)
        item: Any
        if scored:
            result = score_game(game)
            places = tuple(
                Standing(
                    1 if place < winners else _number(1, place),
                    _number(4, place),
                    _text("q", place),
                    _number(2, place),
                    _number(3, place),
                )
                for place in range(count)
            )
            item = dataclasses.replace(result, standings=places)
            item.rounds = tuple(_marked_round(played, count) for played in result.rounds)
        else:
            item = Checked(sheet, settings, 0, [], game)
        line = self.encode(self.output.as_json(item)) + "\n"
        holes: list[tuple[int, int | None, int]] = []  # (where, value index, length)

        cells = count * run.rounds

        def position(kind: str, index: int) -> int | None:
            if kind in _TEXTS:
                return _TEXTS[kind] if index == 0 else None
            if kind in _PER_CELL:
                return (
                    2 + len(_PER_SEAT) * count + _PER_CELL.index(kind) * cells + index
                    if index < cells
                    else None
                )
            return 2 + _PER_SEAT.index(kind) * count + index if index < count else None

        for found in _TEXT_HOLE.finditer(line):
            holes.append((found.start(), position(found[1], int(found[2])), len(found[0])))
        for found in _NUMBER_HOLE.finditer(line):
            holes.append((found.start(), position(found[1], int(found[2])), len(found[0])))
        holes.sort()
        picked = [at for _, at, _ in holes]
        if not filled(picked):
            return None
        template, end = [], 0
        for start, _, length in holes:
            template.append(line[end:start].replace("%", "%%") + "%s")
            end = start + length
        template.append(line[end:].replace("%", "%%"))
        text = "".join(template)
        if _MARK in text or _END in text or "73910000000" in text or not holes:
            return None
        return text, picked, max(picked) >= 2 + len(_PER_SEAT) * count


def _marked_round(scored: ScoredRound, count: int) -> ScoredRound:
    """A probe game's round with each cell's bid, tricks, points and total a number mark."""
    first = (scored.number - 1) * count
    bids, tricks, points, totals = (
        tuple(_number(kind, first + seat) for seat in range(count)) for kind in range(5, 9)
    )
    return ScoredRound(
        scored.number,
        scored.hand_size,
        scored.dealer,
        bids,
        tricks,
        points,
        totals,
        scored.forbidden,
    )


class _Columns:
    """A run's values for the holes of its lines, a column (every game's value) for each, made
    when a template asks for it: 0 the source, 1 the game id, then per seat its name, then per
    place its player, rank, score, bonus and seat (the order of ``_PER_SEAT``), then per cell its
    bid, tricks, points and running total (the order of ``_PER_CELL``)."""

    def __init__(self, lines: RunLines, run: GameRun, standings: RunStandings) -> None:
        self.lines, self.run, self.standings = lines, run, standings
        self.made: dict[int, list] = {}
        self._tables: list[tuple[str, ...]] | None = None

    def tables(self) -> list[tuple[str, ...]]:
        """Each game's players as JSON texts, in seat order."""
        if self._tables is None:
            self._tables = self.lines.seat_names(self.run.tables)
        return self._tables

    def __getitem__(self, at: int) -> list:
        column = self.made.get(at)
        if column is None:
            column = self.made[at] = self._column(at)
        return column

    def _column(self, at: int) -> list:
        run, standings, count = self.run, self.standings, self.run.players
        if at == 0:
            return [self.lines.encode(run.source)] * len(run)
        if at == 1:
            return list(map(json_string, run.ids))
        cells = count * run.rounds
        kind, index = divmod(at - 2, count)
        if kind >= len(_PER_SEAT):  # a cell's: every cell's column of this kind made at once
            first = 2 + len(_PER_SEAT) * count
            kind = (at - first) // cells
            values = (
                (run.bids, run.tricks, standings.points)[kind]
                if kind < 3
                else running_totals(standings.points, count, run.rounds)
            )
            start = first + kind * cells
            self.made.update(
                zip(range(start, start + cells), [values[cell::cells] for cell in range(cells)])
            )
            return self.made[at]
        if kind == 0:  # a seat's name
            return list(map(operator.itemgetter(index), self.tables()))
        place = operator.itemgetter(index)
        if kind == 1:  # the player at a place
            return list(map(operator.getitem, self.tables(), map(place, standings.places)))
        per_game = (standings.ranks, standings.scores, standings.bonuses, standings.places)
        return list(map(place, per_game[kind - 2]))


json_string = (
    json.encoder.encode_basestring
)  # a text as json_line_encoder writes it (no ASCII escapes)
