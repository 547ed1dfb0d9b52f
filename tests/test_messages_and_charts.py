"""Issue 18's rough edges: a YAML indentation slip said as one, `score` pointing to `check` for
typed points that disagree, `convert -o x.xlsx`, the install hints that work from the checkout,
the game chart's whole axis and the ratings chart's dates."""

from __future__ import annotations

import pytest
from helpers import SAMPLES, run

CLUB = SAMPLES / "club-season.yaml"


@pytest.mark.parametrize(
    ("text", "line", "parser"),
    [
        (
            "players: [A, B, C]\nrounds:\n  - bids: [0, 0, 1]\n   tricks: [0, 0, 1]\n",
            4,
            "column 4: did not find expected '-' indicator",
        ),
        (
            "players: [A, B, C]\nrounds:\n  - bids: [0, 0, 1]\n    tricks: [0, 0, 1]\n - bids: [1, 0, 0]\n",
            5,
            "column 2: did not find expected key",
        ),
        (
            "title: x\n  players: [A, B, C]\n",
            2,
            "column 10: mapping values are not allowed in this context",
        ),
    ],
)
def test_an_indentation_slip_points_to_the_lines_indentation(write, text, line, parser):
    path = write("slip.yaml", text)
    result = run("check", path)
    assert result.exit_code == 1
    assert result.stderr == (
        f"{path}:{line}: not valid YAML: look at the indentation of line "
        f"{line}: it does not line up with the lines it belongs with "
        f"(line {line}, {parser})\n"
    )


def test_other_yaml_mistakes_keep_the_parsers_words(write):
    path = write("flow.yaml", "players: [A, B\nrounds: []\n")
    assert run("check", path).stderr == (
        f"{path}:2: not valid YAML: did not find expected ',' or ']' (line 2, column 7)\n"
    )


POINTS = (
    "round,player,bid,tricks,points\n1,A,1,1,30\n1,B,0,0,20\n1,C,0,0,25\n"
    "2,A,1,1,30\n2,B,0,1,-10\n2,C,1,0,-5\n"
)
RULES = ["--set", "roundMode=custom", "--set", "customRoundCount=2"]


def test_score_says_once_when_typed_points_disagree_and_points_to_check(write):
    path = write("typed.csv", POINTS)
    result = run("score", path, *RULES)
    assert result.exit_code == 0
    assert result.stderr == (
        f"{path}: typed points disagree with those derived from bids and "
        f"tricks in 2 cells (the table shows the derived ones): wizard check "
        f"{path} lists them\n"
    )
    assert "1/0 → -10 = 10" in result.stdout  # the derived points
    assert run("check", path, *RULES).stderr.count("typed points") == 2
    agreeing = write("agree.csv", POINTS.replace(",25\n", ",20\n").replace(",-5\n", ",-10\n"))
    assert run("score", agreeing, *RULES).stderr == ""


def test_convert_to_a_workbook_says_workbooks_are_read_not_written(tmp_path):
    for options in (["-o", tmp_path / "x.xlsx"], ["--to", "csv", "-o", tmp_path / "x.ods"]):
        result = run("convert", SAMPLES / "worked-example.yaml", *options)
        assert result.exit_code == 2
        assert (
            "workbooks (.xlsx, .xlsm, .xls, .ods) are read, not written; convert writes "
            "yaml, json, csv or wide-csv" in result.stderr
        )
    assert not (tmp_path / "x.xlsx").exists() and not (tmp_path / "x.ods").exists()


def test_the_readme_gives_install_commands_that_work_from_the_checkout():
    readme = (SAMPLES.parent / "README.md").read_text(encoding="utf-8")
    assert "wizard-cli[" not in readme  # the package is installed from its folder
    assert "pip install '.[plot]'" in readme and "pip install '.[xlsx]'" in readme


def _figure_of(sheet_text: str, write):
    from wizard_cli.app.batch import RuleOptions
    from wizard_cli.cli.reading import Reading
    from wizard_cli.output.chart import draw_chart

    [result] = Reading([str(write("g.yaml", sheet_text))], RuleOptions()).scored()
    return draw_chart(result)


def test_the_chart_of_an_unfinished_game_spans_the_whole_game(write):
    pytest.importorskip("matplotlib", reason="the plot extra is not installed")
    figure = _figure_of(
        "players: [A, B, C, D, E]\nrounds:\n  - bids: [1, 0, 0, 0, 0]\n"
        "    tricks: [1, 0, 0, 0, 0]\n",
        write,
    )
    assert figure.axes[0].get_xlim() == (0.0, 12.0)  # 12 rounds for 5 players, 1 played


def test_the_ratings_chart_shows_the_games_dates():
    pytest.importorskip("matplotlib", reason="the plot extra is not installed")
    from wizard_cli.app.batch import RuleOptions
    from wizard_cli.cli.reading import Reading
    from wizard_cli.game.ratings import rating_history
    from wizard_cli.output.chart import draw_ratings_chart

    history = list(rating_history(Reading([str(CLUB)], RuleOptions()).scored()))
    axes = draw_ratings_chart(history, "Club").axes[0]
    labels = [tick.get_text() for tick in axes.get_xticklabels()]
    assert labels == sorted({row.date for row in history})
    assert labels[0] == "2026-01-09" and axes.get_xlabel() == "Game date"
    undated = [
        type(row)(**{**{f: getattr(row, f) for f in row.__slots__}, "date": None})
        for row in history
    ]
    assert draw_ratings_chart(undated, "Club").axes[0].get_xlabel() == "Rated game"


def test_the_readme_tour_runs_as_written_in_a_fresh_clone(tmp_path, monkeypatch):
    """Every `$ wizard …` of the README, in order, in a folder holding what a clone holds: a
    command shown without output succeeds (the ratings chart was written over docs/, which a
    clone already has: 'already exists')."""
    import re
    import shlex
    import shutil
    import subprocess

    root = SAMPLES.parent
    for name in subprocess.run(
        ["git", "ls-files", "sample_sheets", "docs"],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(root / name, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    readme = (root / "README.md").read_text(encoding="utf-8")
    ran = 0
    for block in re.findall(r"```console\n(.*?)```", readme, re.S):
        for command, output in re.findall(
            r"^\$ (wizard [^\n]*)\n((?:(?!\$ )[^\n]*\n)*)", block, re.M
        ):
            if "|" in command or "<" in command:
                continue
            words = shlex.split(command, comments=True)
            if words[1] in ("plot", "serve"):
                if words[1] == "serve":
                    continue
                pytest.importorskip("matplotlib", reason="the plot extra is not installed")
            result = run(*words[1:])
            ran += 1
            if not output:
                assert result.exit_code == 0, (command, result.stderr)
    assert ran >= 20
