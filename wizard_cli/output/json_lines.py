"""JSON lines for whole runs of games (the season lane, issue 20), each line filled into a template.

A template is the view's own line: the view's ``as_json``, written by the ``jsonl`` encoder, for a
probe game whose varying values (the source, the game id, each seat's name, and at each place of
the standings its seat, player, rank, score and bonus) are marks; each mark is then a hole. So a
line says exactly what the view says, in its order and spelling, and a change to the view's
shape changes the template with it. A view that shows a value in a way a hole cannot stand for
(a name inside a longer text, a number worked out from a score) leaves a mark behind: it has no
template, and its games go the general way.
"""

from __future__ import annotations

import dataclasses
import operator
import re
from typing import Any, Callable

from ..game.game import Game
from ..game.model import GameRun
from ..game.scoring import RunStandings, Standing, score_game
from ..game.validation import Checked
from .formats import Rendered, View, json_line_encoder

_MARK, _END = "\ue000", "\ue001"  # private-use characters: a text mark is \ue000<kind><index>\ue001
_NUMBER = 739_100_000_000_000  # + kind * 1000 + index: a number mark, larger than any score
_TEXT_HOLE = re.compile(f'"{_MARK}([sgpq])([0-9]+){_END}"')
_NUMBER_HOLE = re.compile(r"(?<![0-9.\-])73910000000([1-4])([0-9]{3})(?![0-9.eE])")
# The values a line is filled with, in this order: source, game, then per seat or place.
_TEXTS = {"s": 0, "g": 1}
_PER_SEAT = ("p", "q", "1", "2", "3", "4")  # seat name; at a place: player, rank, score, bonus, seat


def _text(kind: str, index: int = 0) -> str:
    return f"{_MARK}{kind}{index}{_END}"


def _number(kind: int, index: int) -> int:
    return _NUMBER + kind * 1000 + index


def run_lines(output: View, fmt: str) -> RunLines | None:
    """The season lane's lines for ``output`` in ``fmt``: only ``jsonl`` has them."""
    return RunLines(output) if fmt == "jsonl" else None


class RunLines:
    """One view's JSON lines for runs of finished, valid games, each shown as a scored
    :class:`~wizard_cli.game.scoring.GameResult` (standings) or, not ``scored``, as a
    :class:`~wizard_cli.game.validation.Checked` (check)."""

    def __init__(self, output: View) -> None:
        self.output = output
        self.encode = json_line_encoder()
        self.templates: dict[tuple, tuple[str, Callable] | None] = {}
        self.names: dict[tuple[str, ...], tuple[str, ...]] = {}  # players → their JSON texts

    def __call__(self, run: GameRun, standings: RunStandings, scored: bool) -> Rendered | None:
        """The run's lines, or None when the view has no template for its games."""
        encode, names = self.encode, self.names
        source = encode(run.source)
        shape = (scored, run.players, run.rounds, standings.settings)
        by_winners: dict[int, tuple[str, Callable] | None] = {}  # this run's templates
        lines = []
        for index, (game_id, table) in enumerate(zip(run.ids, run.tables)):
            ranks = standings.ranks[index]
            winners = ranks.count(1) if scored else 0
            made = by_winners.get(winners, False)
            if made is False:
                key = (*shape, winners)
                if key not in self.templates:
                    self.templates[key] = self._template(run, standings, scored, winners)
                made = by_winners[winners] = self.templates[key]
            if made is None:
                return None
            template, pick = made
            seat_names = names.get(table)
            if seat_names is None:
                seat_names = names[table] = tuple(map(encode, table))
            values = [source, encode(game_id), *seat_names]
            if scored:
                place = standings.places[index]
                values += map(seat_names.__getitem__, place)
                values += ranks
                values += standings.scores[index]
                values += standings.bonuses[index]
                values += place
            lines.append(template % pick(values))
        return Rendered("".join(lines))

    def _template(self, run: GameRun, standings: RunStandings, scored: bool,
                  winners: int) -> tuple[str, Callable] | None:
        """The view's line for a probe game of the run's shape, marks made holes (None if a
        mark is left over), and what picks a game's values into its holes."""
        count = run.players
        sheet = dataclasses.replace(run.sheet(0), source=_text("s"), game=_text("g"),
                                    players=[_text("p", seat) for seat in range(count)])
        game = Game(sheet, standings.settings, 0)
        item: Any
        if scored:
            result = score_game(game)
            places = tuple(Standing(1 if place < winners else _number(1, place),
                                    _number(4, place), _text("q", place), _number(2, place),
                                    _number(3, place)) for place in range(count))
            item = dataclasses.replace(result, standings=places)
        else:
            item = Checked(sheet, standings.settings, 0, [], game)
        line = self.encode(self.output.as_json(item)) + "\n"
        holes: list[tuple[int, int, int]] = []  # (where, value index, length)

        def position(kind: str, index: int) -> int | None:
            if kind in _TEXTS:
                return _TEXTS[kind] if index == 0 else None
            return 2 + _PER_SEAT.index(kind) * count + index if index < count else None

        for found in _TEXT_HOLE.finditer(line):
            holes.append((found.start(), position(found[1], int(found[2])), len(found[0])))
        for found in _NUMBER_HOLE.finditer(line):
            holes.append((found.start(), position(found[1], int(found[2])), len(found[0])))
        holes.sort()
        if any(at is None for _, at, _ in holes):
            return None
        template, end = [], 0
        for start, _, length in holes:
            template.append(line[end:start].replace("%", "%%") + "%s")
            end = start + length
        template.append(line[end:].replace("%", "%%"))
        text = "".join(template)
        if _MARK in text or _END in text or "73910000000" in text or not holes:
            return None
        picked = [at for _, at, _ in holes]
        pick = operator.itemgetter(*picked) if len(picked) > 1 else (lambda v: (v[picked[0]],))
        return text, pick
