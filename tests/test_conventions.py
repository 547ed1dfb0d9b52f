"""The conventions of a well-made CLI (issue 14): shell completion, help that ends with real
examples, a bad choice named with the allowed values, nothing heavy imported at start, and
names taken as written (a player called `null`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from helpers import SAMPLES, run

from wizard_cli.cli.options import EXAMPLES

ROOT = SAMPLES.parent


def commands() -> list[str]:
    """The commands `wizard --help` lists, in its order."""
    listed = run("--help").stdout.split("Commands:\n")[1]
    return [
        line.split()[0]
        for line in listed.splitlines()
        if line.startswith("  ") and not line.startswith("   ")
    ]


COMMANDS = commands()


def complete(words: str, shell: str = "bash") -> list[str]:
    """What the shell would be offered for the command line ``words`` (the last word is being
    typed), asked of a real process as Typer's completion script asks it."""
    env = dict(
        os.environ,
        _WIZARD_COMPLETE=f"complete_{shell}",
        COMP_WORDS=words,
        COMP_CWORD=str(len(words.split(" ")) - 1),
        _TYPER_COMPLETE_ARGS=words,
    )
    process = subprocess.run(
        [sys.executable, "-m", "wizard_cli"],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert process.returncode == 0, process.stderr
    return process.stdout.split()


# --- completion ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "words, offered",
    [
        ("wizard s", ["score", "standings", "stats", "serve"]),
        ("wizard score --z", ["--zero-bid"]),
        ("wizard score -f j", ["json", "jsonl"]),
        ("wizard convert x --to w", ["wide-csv"]),
        ("wizard score --input-format ", ["yaml", "csv", "keepwiz", "escalier"]),
        ("wizard score --set zero", ["zeroBidScoring="]),
        ("wizard score --set zeroBidScoring=d", ["zeroBidScoring=doubleBonus"]),
        ("wizard score --set canadianRule=", ["canadianRule=true", "canadianRule=false"]),
        ("wizard score --set exactBonus=4", ["exactBonus=40", "exactBonus=45"]),
        ("wizard score --zero-bid p", ["perCardBonus"]),
        (
            "wizard compare x --preset ",
            ["official", "doubleZero", "screwTheDealer", "canadian", "perfectGame"],
        ),
    ],
)
def test_completion_offers_commands_options_formats_settings_and_presets(words, offered):
    assert complete(words) == offered


def test_completion_for_zsh_describes_the_choices():
    assert '"json"' in "".join(complete("wizard score -f j", "zsh"))


def test_install_and_show_completion_are_typers_own():
    listed = run("--help").stdout
    assert "--install-completion" in listed and "--show-completion" in listed
    env = dict(os.environ, _TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION="1")
    process = subprocess.run(
        [sys.executable, "-m", "wizard_cli", "--show-completion", "bash"],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert process.returncode == 0, process.stderr
    assert "_WIZARD_COMPLETE=complete_bash" in process.stdout


# --- help ------------------------------------------------------------------------------------


def test_every_command_has_examples():
    assert len(COMMANDS) >= 12 and "score" in COMMANDS
    assert sorted(EXAMPLES) == sorted(COMMANDS)


@pytest.mark.parametrize("command", COMMANDS)
def test_each_commands_help_ends_with_one_to_three_examples(command):
    result = run(command, "--help")
    assert result.exit_code == 0
    lines = result.stdout.rstrip("\n").splitlines()
    at = lines.index("  Examples:")
    shown = [line.strip() for line in lines[at + 1 :] if line.strip()]
    assert 1 <= len(shown) <= 3
    assert shown == EXAMPLES[command]  # whole, one a line: not rewrapped by Click
    assert all(
        line.startswith(f"wizard {command} ") or line == f"wizard {command}" for line in shown
    )


def test_every_example_runs(tmp_path, monkeypatch):
    """Each example, as written, in a folder holding the sample sheets (new before add; play
    told to quit at its first prompt; plot's only with the plot extra; serve's, which run until
    stopped, in tests/test_serve_process.py)."""
    import importlib.util
    import shlex

    drawing = importlib.util.find_spec("matplotlib") is not None
    (tmp_path / "sample_sheets").symlink_to(SAMPLES)
    monkeypatch.chdir(tmp_path)
    for command, lines in EXAMPLES.items():
        for line in lines:
            if command == "plot" and not drawing or command == "serve":
                continue
            result = run(*shlex.split(line)[1:], input="q\n" if command == "play" else None)
            assert result.exit_code == 0, (line, result.stderr)
    assert (tmp_path / "season.yaml").exists() and (tmp_path / "saturday.yaml").exists()
    assert not drawing or (tmp_path / "game.png").exists() and (tmp_path / "ratings.svg").exists()


@pytest.mark.parametrize(
    "args, option, allowed",
    [
        (
            ["score", "x.yaml", "-f", "xml"],
            "'--format' / '-f'",
            "'table', 'markdown', 'csv', 'tsv', 'json', 'jsonl'",
        ),
        (["convert", "x.yaml", "--to", "xml"], "'--to'", "'yaml', 'json', 'csv', 'wide-csv'"),
        (
            ["score", "-", "--input-format", "xml"],
            "'--input-format'",
            "'yaml', 'csv', 'keepwiz', 'escalier'",
        ),
    ],
)
def test_a_bad_choice_names_the_allowed_values(args, option, allowed):
    result = run(*args)
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == (
        f"Error: Invalid value for {option}: 'xml' is not one of {allowed}."
    )
    assert "Value error" not in result.stderr


# --- start-up --------------------------------------------------------------------------------


def test_nothing_heavy_is_imported_at_start():
    """Completion, workbooks, presets, the chart and the web server are imported only when used;
    so are the season lane's JSON lines and the views of compare and rules."""
    heavy = [
        "python_calamine",
        "openpyxl",
        "matplotlib",
        "openskill",
        "wizard_cli.game.compare",
        "wizard_cli.output.json_lines",
        "wizard_cli.output.rules_views",
        "starlette",
        "uvicorn",
        "jinja2",
        "segno",
        "wizard_cli.web.app",
        "wizard_cli.app.serving",
        "wizard_cli.sheets.workbook.reader",
        "wizard_cli.sheets.csv.sheets",
    ]
    code = f"import sys, wizard_cli.cli; print([m for m in {heavy!r} if m in sys.modules])"
    process = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert process.stdout.strip() == "[]", process.stderr


# --- names as written ------------------------------------------------------------------------


def test_first_dealer_null_names_the_player_called_null(write):
    path = write(
        "n.yaml",
        "players: [Anna, 'null', Cara]\nfirstDealer: null\nrounds:\n"
        "  - bids: [0, 0, 1]\n    tricks: [0, 0, 1]\n",
    )
    data = json.loads(run("score", path, "-f", "json").stdout)
    assert data["rounds"][0]["dealer"] == "null"
    assert json.loads(run("next", path, "-f", "json").stdout)["dealer"] == "Cara"


def test_first_dealer_null_without_such_a_player_is_the_default(write):
    path = write("n.yaml", "players: [Anna, Ben, Cara]\nfirstDealer: null\n")
    assert json.loads(run("next", path, "-f", "json").stdout)["dealer"] == "Anna"
