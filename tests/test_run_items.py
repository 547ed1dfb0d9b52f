"""A long CSV's whole runs of games as data items (issue 30): the batch hands a checked run
out as one :class:`CheckedRun` (scored: :class:`ScoredRun`) when asked for runs, with no
callback; whoever cannot take one whole asks it for its parts, and the parts, taken apart
down to single games, are exactly the games read without runs, in order."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest
from test_lanes_special import sit_out_season_text

from wizard_cli.app.batch import RuleOptions, inputs
from wizard_cli.game.runs import CheckedRun, ScoredRun

PACKAGE = Path(__file__).resolve().parent.parent / "wizard_cli"


def apart(items, runs: tuple[type, ...]) -> tuple[list, int]:
    """Every run among ``items`` taken apart down to single games, and how many runs came."""
    games: list = []
    taken = 0
    for item in items:
        if isinstance(item, runs):
            taken += 1
            parts, inner = apart(item.parts(), runs)
            games += parts
            taken += inner
        else:
            games.append(item)
    return games, taken


@pytest.fixture(scope="module")
def season(tmp_path_factory) -> str:
    """A season of special-card games, about a third with someone sitting a round out."""
    path = tmp_path_factory.mktemp("runs") / "season.csv"
    path.write_text(sit_out_season_text(random.Random(30), 120))
    return str(path)


@pytest.mark.parametrize("rules", [[], ["screwTheDealer=always", "specialCards=true"]])
def test_scored_runs_taken_apart_are_the_games_read_without_runs(season, rules):
    """Every scored run taken apart (its sit-out pieces whole again, then game by game) gives
    the results of reading game by game, in order, and the same problems said."""
    said: list[list] = [[], []]
    options = RuleOptions(assignments=rules)
    alone = list(inputs([season], options, said[0].extend).scored())
    items = list(inputs([season], options, said[1].extend).scored(runs=True))
    assert any(isinstance(item, ScoredRun) and item.run.outs for item in items)
    games, taken = apart(items, (ScoredRun,))
    if not rules:  # the sit-out runs' pieces without one came whole again
        assert taken > len([item for item in items if isinstance(item, ScoredRun)])
    assert [game.as_json() for game in games] == [game.as_json() for game in alone]
    assert said[0] == said[1] and said[0]


def test_checked_runs_taken_apart_are_the_sheets_checked_without_runs(season):
    """The same for ``check``: a checked run's parts, down to single sheets, are the sheets
    checked one by one (their sources, games, validity and problems)."""
    alone = list(inputs([season], RuleOptions()).audited())
    items = list(inputs([season], RuleOptions()).audited(runs=True))
    assert any(isinstance(item, CheckedRun) for item in items)
    games, _ = apart(items, (CheckedRun,))

    def shown(checked) -> tuple:
        return checked.source, checked.game, checked.valid, checked.problems

    assert list(map(shown, games)) == list(map(shown, alone))


def test_the_batch_takes_no_lane_callback():
    """Runs are asked for with a plain flag: app/batch.py defines no lane, and no method of
    the batch takes a ``lane`` (a callback threaded through every layer, issue 30)."""
    tree = ast.parse((PACKAGE / "app" / "batch.py").read_text())
    names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    assert not names & {"Lane", "LANE_ITEMS", "from_lane"}
    parameters = {
        argument.arg
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef)
        for argument in node.args.args + node.args.kwonlyargs
    }
    assert "runs" in parameters and "lane" not in parameters
