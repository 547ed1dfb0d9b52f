"""The season lane's output (issue 20): whole runs of a long CSV's finished games written at
once in the command's format, where the view has a way to: every view's JSON lines from its
template (json_lines.py), and score's table (score_runs.py reads a run's games into the records
score_table.py draws). Their modules are loaded when the first run comes: a lone sheet never
needs them (start-up matters)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .formats import Rendered, View


class SeasonLane:
    """The season lane's output for whole runs of games (``batch.Lane``), for one view in one
    format, made when the first run comes."""

    def __init__(self, view: View, fmt: str) -> None:
        self.view, self.fmt = view, fmt
        self.made: Callable[..., Rendered | None] | None = None

    def __call__(self, run: Any, standings: Any, scored: bool) -> Rendered | None:
        if self.made is None:
            if self.fmt == "jsonl":
                from .json_lines import RunLines

                self.made = RunLines(self.view)
            else:
                from .score_runs import ScoreRunTables

                self.made = ScoreRunTables()
        return self.made(run, standings, scored)


def season_lane(view: View, fmt: str) -> SeasonLane | None:
    """The season lane for ``view`` in ``fmt``, where there is one: every view's ``jsonl``, and
    the table of a view that draws whole runs in it (``draws_runs``); else None (every game
    the general way)."""
    if fmt == "jsonl" or (fmt == "table" and getattr(view, "draws_runs", False)):
        return SeasonLane(view, fmt)
    return None
