"""Start-up builds only the command asked for (issue 20): the app it runs must behave exactly as
the whole app does — the same help, usage errors, output and exit codes."""

from __future__ import annotations

import pytest
import typer
from helpers import WORKED
from typer.testing import CliRunner

from wizard_cli.cli import app, app_for, command_asked

NAMES = [
    info.name or typer.main.get_command_name(info.callback.__name__)
    for info in app.registered_commands
]


def invoke(typer_app: typer.Typer, args: list[str]):
    result = CliRunner().invoke(typer_app, args, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_every_command_is_registered_once():
    assert len(NAMES) == len(set(NAMES)) == 19  # join and leave (SPEC §5)


@pytest.mark.parametrize("name", NAMES)
def test_the_single_command_app_shows_the_same_help_and_usage_errors(name):
    single = app_for([name])
    assert single is not app and len(single.registered_commands) == 1
    for args in ([name, "--help"], [name, "--no-such-option"], ["--debug", name, "-h"]):
        assert invoke(single, args) == invoke(app, args)


def test_the_single_command_app_scores_as_the_whole_app():
    for args in (
        ["score", str(WORKED)],
        ["standings", str(WORKED), "-f", "jsonl"],
        ["next", str(WORKED), "--zero-bid", "nope"],
    ):
        assert invoke(app_for(args), args) == invoke(app, args)


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["--help"],
        ["-h", "score"],
        ["--version"],
        ["scor"],
        ["--install-completion"],
        ["--debug"],
        ["--debug", "--help"],
    ],
)
def test_the_group_itself_is_the_whole_app(args):
    assert app_for(args) is app


def test_the_command_asked_for_skips_debug_alone():
    assert command_asked(["--debug", "score", "x.yaml"]) == "score"
    assert command_asked(["score", "--help"]) == "score"
    assert command_asked(["--version", "score"]) is None
    assert command_asked([]) is None


def test_completion_builds_the_whole_app(monkeypatch):
    monkeypatch.setenv("_WIZARD_COMPLETE", "complete_bash")
    assert app_for(["score"]) is app
