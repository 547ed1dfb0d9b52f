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

from wizard_cli.app.batch import RuleOptions
from wizard_cli.cli.reading import Reading
from wizard_cli.game.runs import CheckedRun, ScoredRun
from wizard_cli.game.validation import Checked

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
def test_scored_runs_taken_apart_are_the_games_read_without_runs(season, rules, capsys):
    """Every scored run taken apart (its sit-out pieces whole again, then game by game) gives
    the results of reading game by game, in order, and the same problems said."""
    options = RuleOptions(assignments=rules)
    alone = list(Reading([season], options).scored())
    said = capsys.readouterr().err
    items = list(Reading([season], options).scored(runs=True))
    assert capsys.readouterr().err == said and said
    assert any(isinstance(item, ScoredRun) and item.run.outs for item in items)
    games, taken = apart(items, (ScoredRun,))
    if not rules:  # the sit-out runs' pieces without one came whole again
        assert taken > len([item for item in items if isinstance(item, ScoredRun)])
    assert [game.as_json() for game in games] == [game.as_json() for game in alone]


def test_checked_runs_taken_apart_are_the_sheets_checked_without_runs(season):
    """The same for ``check``: a checked run's parts, down to single sheets, are the sheets
    checked one by one (their sources, games, validity and problems)."""
    alone = list(Reading([season], RuleOptions()).audited())
    items = list(Reading([season], RuleOptions()).audited(runs=True))
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


def test_the_library_reads_runs_with_the_command_lines_options(season, tmp_path):
    """``read(..., runs=True)`` (keyword-only, as the commands read) yields whole runs whose
    games, taken apart, are the games ``read`` gives without runs; ``layers``, ``encoding``,
    ``notes`` and ``waiting`` are the command line's rules, encoding, notes and hook."""
    import wizard_cli as wizard
    from wizard_cli.game.settings import command_line_settings

    layers = [command_line_settings(["screwTheDealer=always"], None)]
    alone = list(wizard.read(season, layers=layers))
    items = list(wizard.read(season, layers=layers, runs=True))
    assert any(isinstance(item, CheckedRun) for item in items)
    games, _ = apart(items, (CheckedRun,))

    def shown(item) -> tuple:
        """A game's source, id and scores (a part is a checked sheet: its validated game)."""
        game = item.validated if isinstance(item, Checked) else item
        if isinstance(game, wizard.Problems):
            return item.source, item.game, list(game)
        return item.source, item.game, wizard.score(game).as_json()

    assert list(map(shown, games)) == list(map(shown, alone))
    assert any(isinstance(item, wizard.Problems) for item in alone)
    with pytest.raises(TypeError):
        wizard.read(season, None, layers)  # (keyword-only)

    path = tmp_path / "noted.csv"
    path.write_bytes(
        b"game,round,player,bid,tricks,Kommentar\ng1,1,Zo\xeb,1,1,\ng1,1,Ben,0,0,\ng1,1,Cara,0,0,\n"
    )
    notes, waited = [], []
    [item] = wizard.read(
        str(path), encoding="cp1252", notes=notes.append, waiting=lambda: waited.append(1)
    )
    assert isinstance(item, wizard.Game) and item.players == ("Zoë", "Ben", "Cara")
    assert [note.message for note in notes] == ["note: column 'kommentar' is not read, ignored"]
    with pytest.raises(wizard.WizardError, match="encoding"):
        wizard.read(str(path), encoding="rot13")
    assert waited == []  # (no source here waits on standard input)


def test_a_file_object_read_with_runs_names_every_game_as_its_file(season):
    """A file object is spooled to a temporary copy that is gone once read: its games come one
    by one, each named as the file object is, never a run that would keep the copy's name."""
    import wizard_cli as wizard

    with open(season, encoding="utf-8") as handle:
        items = list(wizard.read(handle, runs=True))
    assert items and not any(isinstance(item, CheckedRun) for item in items)
    assert {item.source for item in items} == {season}
    with open(season, encoding="utf-8") as handle:
        alone = list(wizard.read(handle))
    assert [(item.source, item.game) for item in items] == [
        (item.source, item.game) for item in alone
    ]


def test_a_seated_game_pickles(tmp_path):
    """The library's game with seating is made when first needed, yet found by its module and
    name: a seated game goes to another process as any game does (multiprocessing)."""
    import pickle

    from helpers import SAMPLES

    import wizard_cli as wizard

    game = wizard.load(SAMPLES / "latecomer.yaml")
    again = pickle.loads(pickle.dumps(game))
    assert type(again) is type(game) and isinstance(again, wizard.Game)
    assert wizard.score(again).as_json() == wizard.score(game).as_json()
