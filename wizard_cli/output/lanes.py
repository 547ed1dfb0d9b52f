"""The season lane's output (issues 20 and 30): whole runs of a long CSV's finished games
written at once in the command's format, where the view has a way to: every view's JSON lines
from its template (json_lines.py), and score's table (score_runs.py reads a run's games into the
records score_table.py draws). A run the drawing cannot take whole is asked for its parts (the
core checks and scores them; output only draws). Their modules are loaded when the first run
comes: a lone sheet never needs them (start-up matters)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from .formats import Rendered, View


def draws_runs(view: View, fmt: str) -> bool:
    """Whether ``view`` draws whole runs of games in ``fmt`` (so a batch should hand them out
    whole): every view's ``jsonl``, and the table of a view that draws whole runs in it
    (``draws_runs``); else every game is drawn the general way."""
    return fmt == "jsonl" or (fmt == "table" and getattr(view, "draws_runs", False))


class RunDrawing:
    """The runs among a batch's items drawn whole (as :class:`Rendered`) for one view in one
    format, where they can be, else taken apart into what they hold; every other item passed
    on as it is, in order."""

    def __init__(self, view: View, fmt: str) -> None:
        self.view, self.fmt = view, fmt
        self.made: Callable[..., Rendered | None] | None = None

    def __call__(self, items: Iterable[Any]) -> Iterator[Any]:
        from ..game.runs import CheckedRun, ScoredRun

        runs = (CheckedRun, ScoredRun)
        for item in items:
            if type(item) in runs:
                yield from self._drawn(item, runs)
            else:
                yield item

    def _drawn(self, item: Any, runs: tuple[type, ...]) -> Iterator[Any]:
        """A run drawn whole, or its parts (each run among them drawn whole where it can be)."""
        drawn = self._drawer()(item.run, item.standings, type(item) is runs[1])
        if drawn is not None:
            yield drawn
            return
        for part in item.parts():
            if type(part) in runs:
                yield from self._drawn(part, runs)
            else:
                yield part

    def _drawer(self) -> Callable[..., Rendered | None]:
        """The format's drawing of a run (``run, standings, scored`` → text or None), made
        when the first run comes."""
        if self.made is None:
            if self.fmt == "jsonl":
                from .json_lines import RunLines

                self.made = RunLines(self.view)
            else:
                from .score_runs import ScoreRunTables

                self.made = ScoreRunTables()
        return self.made
