"""The command line reads and shows the same under every Typer pyproject.toml allows (0.28 and
0.29 differ in how they hand over an option's parsed value, check whole numbers and draw
arguments). One venv holds one Typer, so these pin the behaviour itself: each passes on both.
"""

from __future__ import annotations

import pytest
from helpers import WORKED, run

from wizard_cli.cli.options import By, Format, InputFormat, whole_number
from wizard_cli.game.model import SheetFormat


@pytest.mark.parametrize("kind", [Format, By, InputFormat, SheetFormat])
def test_an_option_value_is_found_again_by_its_text(kind):
    """Typer 0.28 turns an Enum option's parsed value back into its member by ``str()``:
    ``str(Format.table)`` must be ``'table'`` (not ``'Format.table'``), or the default is
    lost and the command fails with an internal error."""
    for member in kind:
        assert str(member) == member.value
        assert kind(str(member)) is member


def test_the_default_format_and_a_given_one_both_reach_the_command():
    table = run("score", WORKED)
    assert table.exit_code == 0 and table.stderr == ""
    assert table.stdout.splitlines()[0].startswith("Worked example")
    lines = run("standings", WORKED, "-f", "jsonl")
    assert lines.exit_code == 0 and lines.stdout.startswith('{"source":"')
    assert run("stats", WORKED, "--by", "handSize", "-f", "csv").stdout.startswith("player,")


def test_arguments_show_as_they_always_have_in_usage_and_help():
    help = run("score", "--help").stdout
    assert help.startswith("Usage: wizard score [OPTIONS] {SHEET}...\n")
    assert (
        "Arguments:\n"
        "  SHEET <list[str]>  Score sheets: YAML/JSON (a --- stream is a season) or CSV\n"
        "                     (long or wide); - for stdin.  [required]\n"
    ) in help
    assert run("trick", "--help").stdout.startswith("Usage: wizard trick [OPTIONS] {CARD...}...\n")
    assert (
        "Arguments:\n  SHEET <str>  The score sheet to show (a season: its last game).  "
        "[required]\n"
    ) in run("serve", "--help").stdout
    wrong = run("next", "--no-such-option")
    assert wrong.exit_code == 2
    assert wrong.stderr.startswith("Usage: wizard next [OPTIONS] {SHEET}\n")


def test_the_port_shows_its_default_and_range():
    assert (
        "  --port P             The port to listen on; 0 picks a free one.  [default:\n"
        "                       8000; 0<=x<=65535]\n"
    ) in run("serve", "--help").stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["edit", "x.yaml", "--round", "x", "--bids", "1"],
            "Invalid value for '--round': Input should be a valid integer, unable to parse string as an integer",
        ),
        (
            ["edit", "x.yaml", "--round", "1.5", "--bids", "1"],
            "Invalid value for '--round': Input should be a valid integer, unable to parse string as an integer",
        ),
        (
            ["serve", "x.yaml", "--port", "abc"],
            "Invalid value for '--port': Input should be a valid integer, unable to parse string as an integer",
        ),
        (
            ["serve", "x.yaml", "--port", "65536"],
            "Invalid value for '--port': Input should be less than or equal to 65535",
        ),
        (
            ["serve", "x.yaml", "--port", "-1"],
            "Invalid value for '--port': Input should be greater than or equal to 0",
        ),
        (
            ["edit", "x.yaml", "--round", "1" * 5000, "--bids", "1"],  # past int()'s 4,300 digits
            "Invalid value for '--round': Input should be a valid integer, unable to parse string as an integer",
        ),
    ],
)
def test_a_bad_whole_number_is_a_usage_error_in_the_same_words(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert result.stderr.endswith(f"Error: {message}\n")


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("7", 7),
        (" 7 ", 7),
        ("+7", 7),
        ("-7", -7),
        ("07", 7),
        ("1_000", 1000),
        ("1.0", 1),
        ("1.00", 1),
        ("-0.0", 0),
        ("65535", 65535),
    ],
)
def test_a_whole_number_is_read_as_typer_0_29_read_it(text, number):
    assert whole_number()(text) == number


@pytest.mark.parametrize(
    "text",
    [
        "",
        "x",
        "1.5",
        "1.",
        ".0",
        "1e3",
        "0x10",
        "1 000",
        "_1",
        "1__0",
        "1_",
        "+-1",
        "- 1",
        "1.0_0",
        "\u0663",
        "\uff11",
    ],
)
def test_what_is_no_whole_number_is_refused(text):
    with pytest.raises(
        Exception, match="^Input should be a valid integer, unable to parse string as an integer$"
    ):
        whole_number()(text)
