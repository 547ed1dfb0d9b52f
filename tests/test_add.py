"""`wizard add`: record bids, then tricks, in a YAML sheet in place — keeping every other byte."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from helpers import ONE_ROUND, SAMPLES, WORKED, run
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from wizard_cli.app.batch import SheetRules
from wizard_cli.app.recording import record
from wizard_cli.app.typed_values import parse_values
from wizard_cli.editing import round_edits as editing
from wizard_cli.errors import WizardError
from wizard_cli.game.settings import RawSetting, Settings, hand_sizes
from wizard_cli.sheets.yaml.sheets import read_yaml_sheets
from wizard_cli.sheets.yaml.text import json_text, yaml_scalar

COMMENTED = """\
# Friday at Anna's: keep this comment
title: Friday night   # the usual crowd
players: [Anna, Ben, Cara, Dan]

settings:
  roundMode: custom      # a short game
  customRoundCount: 3
  screwTheDealer: always # house rule

rounds:
  # round 1
  - bids:   [1, 0, 0, 1]   # Anna dealt
    tricks: [1, 0, 0, 0]

# end of sheet
"""
OLD = 1_000_000_000 * 1_600_000_000  # a fixed mtime (ns) to see that nothing was written


def sheet_file(tmp_path: Path, text: str | bytes, name: str = "game.yaml") -> Path:
    """A sheet on disk with an old, known mtime."""
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_bytes(text.encode("utf-8"))
    os.utime(path, ns=(OLD, OLD))
    return path


def untouched(path: Path, content: bytes) -> bool:
    """Same bytes and the same mtime as before, and no temporary file beside it."""
    return (
        path.read_bytes() == content
        and path.stat().st_mtime_ns == OLD
        and os.listdir(path.parent) == [path.name]
    )


# --- keeping the file as it was ------------------------------------------------------------


def test_bids_then_tricks_keep_every_comment_and_line_byte_for_byte(tmp_path):
    path = sheet_file(tmp_path, COMMENTED)
    bids = run("add", path, "--bids", "1,1,0,1")
    assert bids.exit_code == 0, bids.stderr
    after_bids = COMMENTED.replace(
        "    tricks: [1, 0, 0, 0]\n", "    tricks: [1, 0, 0, 0]\n  - bids:   [1, 1, 0, 1]\n"
    )
    assert path.read_text(encoding="utf-8") == after_bids
    assert bids.stdout == run("next", path).stdout
    assert bids.stderr == ""

    tricks = run("add", path, "--tricks", "0,1,1,0")
    assert tricks.exit_code == 0, tricks.stderr
    after_tricks = after_bids.replace(
        "  - bids:   [1, 1, 0, 1]\n", "  - bids:   [1, 1, 0, 1]\n    tricks: [0, 1, 1, 0]\n"
    )
    assert path.read_text(encoding="utf-8") == after_tricks
    assert tricks.stdout == run("score", path).stdout
    assert tricks.stdout.rstrip().endswith("Round 3 of 3 next: Cara deals 3")
    assert os.listdir(tmp_path) == ["game.yaml"]


def test_output_follows_the_chosen_format(tmp_path):
    path = sheet_file(tmp_path, COMMENTED)
    bids = run("add", path, "--bids", "Cara=0,Dan=1", "-f", "json")
    assert json.loads(bids.stdout) == json.loads(run("next", path, "-f", "json").stdout)
    assert json.loads(bids.stdout)["nextBidder"] == "Anna"
    more = run("add", path, "--bids", "Anna=1,Ben=1", "-f", "csv")
    assert more.stdout == run("next", path, "-f", "csv").stdout
    tricks = run("add", path, "--tricks", "Anna=0,Ben=1,Cara=1,Dan=0", "-f", "json")
    assert json.loads(tricks.stdout) == json.loads(run("score", path, "-f", "json").stdout)
    assert json.loads(tricks.stdout)["status"]["roundsPlayed"] == 2


def test_partial_bids_fill_in_the_round_in_play(tmp_path):
    path = sheet_file(tmp_path, COMMENTED)
    assert run("add", path, "--bids", "Cara=0,Dan=1").exit_code == 0
    step1 = COMMENTED.replace(
        "    tricks: [1, 0, 0, 0]\n", "    tricks: [1, 0, 0, 0]\n  - bids:   [null, null, 0, 1]\n"
    )
    assert path.read_text(encoding="utf-8") == step1
    assert run("add", path, "--bids", "1,-,,").exit_code == 0  # Anna, in seating order
    step2 = step1.replace("[null, null, 0, 1]", "[1, null, 0, 1]")
    assert path.read_text(encoding="utf-8") == step2
    shown = run("add", path, "--bids", " ben =1")  # names ignore case and surrounding spaces
    assert shown.exit_code == 0, shown.stderr
    assert path.read_text(encoding="utf-8") == step2.replace("[1, null, 0, 1]", "[1, 1, 0, 1]")
    assert "Next to bid:        nobody: waiting for the tricks" in shown.stdout


def test_restating_a_bid_changes_nothing(tmp_path):
    path = sheet_file(
        tmp_path,
        COMMENTED.replace(
            "    tricks: [1, 0, 0, 0]\n", "    tricks: [1, 0, 0, 0]\n  - bids: {Ben: 1}\n"
        ),
    )
    content = path.read_bytes()
    result = run("add", path, "--bids", "Ben=1")
    assert result.exit_code == 0
    assert untouched(path, content)


def test_mapping_bids_are_filled_in_by_name(tmp_path):
    original = (SAMPLES / "six-players-in-progress.yaml").read_text(encoding="utf-8")
    path = sheet_file(tmp_path, original)
    result = run("add", path, "--bids", "Olga=2,Pete=0")
    assert result.exit_code == 0, result.stderr
    expected = original.replace(
        "  - bids: {Mia: 3, Noah: 1}       # round 7",
        "  - bids: {Mia: 3, Noah: 1, Olga: 2, Pete: 0}       # round 7",
    )
    assert path.read_text(encoding="utf-8") == expected
    assert "Next to bid:        Quinn" in result.stdout


# --- refusing a bad round, file untouched ---------------------------------------------------


def in_play(*bids: str) -> str:
    """COMMENTED with round 2 in play with these bids (a flow list)."""
    return COMMENTED.replace(
        "    tricks: [1, 0, 0, 0]\n", f"    tricks: [1, 0, 0, 0]\n  - bids:   [{', '.join(bids)}]\n"
    )


REFUSALS = [
    (
        COMMENTED,
        ["--bids", "1,0,0,1"],
        "{path}:14: round 2, Ben: the dealer may not bid 0 under screwTheDealer=always: the bids "
        "would add up to the hand size of 2",
    ),
    (
        in_play("1", "1", "0", "1"),
        ["--tricks", "1,1,1,1"],
        "{path}:15: round 2: tricks add up to 4, 2 more than the hand size of 2",
    ),
    (
        in_play("1", "1", "0", "1"),
        ["--tricks", "1,1,0"],
        "--tricks 1,1,0: 3 values for 4 players (one per player in seating order: Anna, Ben, Cara, "
        "Dan; or by name, e.g. Anna=1)",
    ),
    (
        in_play("1", "1", "0", "1"),
        ["--tricks", "Anna=2"],
        "{path}: round 2: the tricks of every player complete a round; missing: Ben, Cara and Dan",
    ),
    (
        COMMENTED,
        ["--tricks", "1,0,0,1"],
        "{path}: round 2: no round in play: record its bids first with --bids",
    ),
    (
        in_play("1", "null", "null", "1"),
        ["--tricks", "1,0,0,1"],
        "{path}: round 2: still waiting for the bids of Ben and Cara: record them with --bids first",
    ),
    (
        in_play("1", "1", "0", "1"),
        ["--bids", "1,1,0,1"],
        "{path}: round 2: every bid is in: record the tricks with --tricks",
    ),
    (
        in_play("1", "null", "null", "1"),
        ["--bids", "Anna=2"],
        "{path}: round 2, Anna: has already bid 1 (change a recorded bid with wizard edit --round 2)",
    ),
    (
        COMMENTED,
        ["--bids", "3,1,0,1"],
        "{path}:14: round 2, Anna: bid 3 is more than the hand size of 2",
    ),
    (COMMENTED, ["--bids=-1,1,0,1"], "{path}:14: round 2, Anna: bid -1 is negative"),
    (
        COMMENTED,
        ["--bids", "1,0"],
        "--bids 1,0: 2 values for 4 players (one per player in seating order: Anna, Ben, Cara, Dan; "
        "or by name, e.g. Anna=1)",
    ),
    (
        COMMENTED,
        ["--bids", "Ana=1"],
        "--bids: unknown player 'Ana' (did you mean 'Anna'?) (players: Anna, Ben, Cara, Dan)",
    ),
    (COMMENTED, ["--bids", "Anna=1,Anna=2"], "--bids: Anna is given twice"),
    (COMMENTED, ["--bids", "x,0,0,1"], "--bids: Anna's 'x' is not a whole number"),
    (COMMENTED, ["--bids", "1.5,0,0,1"], "--bids: Anna's '1.5' is not a whole number"),
    (
        COMMENTED,
        ["--bids", "Anna=1,0"],
        "--bids Anna=1,0: give every value by name (Anna=1,Ben=0) or none (1,0,2 in seating order), "
        "not a mix",
    ),
    (COMMENTED, ["--bids", "-,-,-,-"], "--bids -,-,-,-: no values given"),
    (
        COMMENTED,
        ["--bids", "1,1,0,1", "--set", "exactBonus=7"],
        "--set exactBonus=7: 7 is not allowed (allowed: 0–50 in steps of 5)",
    ),
    (
        COMMENTED,
        ["--bids", "1,1,0,1", "--first-dealer", "Zed"],
        "{path}: --first-dealer 'Zed' is not one of the players",
    ),
    (
        WORKED.read_text(encoding="utf-8"),
        ["--bids", "1,0,0,0"],
        "{path}: the game is over: all 5 rounds are recorded, so there is no round to bid",
    ),
    (
        WORKED.read_text(encoding="utf-8"),
        ["--tricks", "1,0,0,0"],
        "{path}: the game is over: all 5 rounds are recorded",
    ),
    (
        "players: [A, B, C]\nrounds:\n  - bids: [1, 0, 0]\n",
        ["--bids", "1,0,0"],
        "{path}: round 1: every bid is in: record the tricks with --tricks",
    ),
    (
        "players: [A, B]\n",
        ["--bids", "1,0"],
        "{path}:1: a game has 3 to 6 players, this sheet has 2",
    ),
    (
        "players: [A, B, C\n",
        ["--bids", "1,0,0"],
        "{path}:2: not valid YAML: did not find expected ',' or ']' (line 2, column 1)",
    ),
]


@pytest.mark.parametrize(("text", "args", "message"), REFUSALS)
def test_a_bad_round_is_refused_and_the_file_is_untouched(tmp_path, text, args, message):
    path = sheet_file(tmp_path, text)
    content = path.read_bytes()
    result = run("add", path, *args)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == message.format(path=path) + "\n"
    assert untouched(path, content)


def test_settings_given_on_the_command_line_apply(tmp_path):
    path = sheet_file(tmp_path, "players: [A, B, C]\nrounds: []\n")
    content = path.read_bytes()
    refused = run("add", path, "--bids", "0,0,1", "--set", "screwTheDealer=always")
    assert refused.exit_code == 1
    assert refused.stderr == (
        f"{path}:3: round 1, A: the dealer may not bid 0 under "
        "screwTheDealer=always: the bids would add up to the hand size of 1\n"
    )
    assert untouched(path, content)
    assert run("add", path, "--bids", "1,0,1").exit_code == 0


def test_an_invalid_sheet_is_refused_with_all_its_problems(tmp_path):
    text = (SAMPLES / "friday-broken.yaml").read_text(encoding="utf-8")
    path = sheet_file(tmp_path, text)
    content = path.read_bytes()
    result = run("add", path, "--bids", "1,0,0,1")
    assert result.exit_code == 1
    assert result.stderr == run("check", path).stderr
    assert len(result.stderr.splitlines()) == 8
    assert untouched(path, content)


def test_a_csv_sheet_is_refused(tmp_path):
    path = sheet_file(tmp_path, (SAMPLES / "worked-example-long.csv").read_text(), "game.csv")
    content = path.read_bytes()
    result = run("add", path, "--bids", "1,0,0,1")
    assert result.exit_code == 1
    assert result.stderr == (
        f"{path}: add edits YAML sheets only; make one from this CSV with "
        f"`wizard convert {path} --to yaml -o NEW.yaml`\n"
    )
    assert untouched(path, content)


@pytest.mark.parametrize(
    ("where", "args"),
    [
        ("-", ["--bids", "1,0,0,1"]),  # add edits a file: not standard input
        ("missing.yaml", ["--bids", "1,0,0,1"]),  # no such file
        ("game.yaml", []),  # neither --bids nor --tricks
        ("game.yaml", ["--bids", "1,0,0,1", "--colour", "red"]),
    ],
)
def test_usage_errors_exit_2_and_touch_nothing(tmp_path, where, args):
    path = sheet_file(tmp_path, COMMENTED)
    content = path.read_bytes()
    target = where if where == "-" else tmp_path / where
    result = run("add", target, *args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert untouched(path, content)


# --- a whole game, from `wizard new` to "Game over" --------------------------------------


def test_a_whole_game_from_new_to_game_over(tmp_path):
    path = tmp_path / "friday.yaml"
    made = run(
        "new",
        "--players",
        "Anna,Ben,Cara",
        "--set",
        "roundMode=custom",
        "--set",
        "customRoundCount=3",
        "--set",
        "screwTheDealer=always",
        "-o",
        path,
    )
    assert made.exit_code == 0, made.stderr
    blank = path.read_text(encoding="utf-8")
    steps = [
        (["--bids", "Ben=0,Cara=1"], "next"),
        (["--bids", "Anna=1"], "next"),
        (["--tricks", "0,0,1"], "score"),
        (["--bids", "1,1,1"], "next"),
        (["--tricks", "1,1,0"], "score"),
        (["--bids", "1,0,1", "--tricks", "2,0,1"], "score"),
    ]
    for args, command in steps:
        result = run("add", path, *args)
        assert result.exit_code == 0, (args, result.stderr)
        assert result.stdout == run(command, path).stdout
    # Anna -10, 30, -10; Ben 20, 30, 20; Cara 30, -10, 30
    assert result.stdout.rstrip().endswith("Game over — Ben wins")
    assert [
        s["score"] for s in json.loads(run("standings", path, "-f", "json").stdout)["standings"]
    ] == [70, 50, 10]
    rounds = (
        "rounds:\n"
        "  - bids:   [1, 0, 1]\n"
        "    tricks: [0, 0, 1]\n"
        "  - bids:   [1, 1, 1]\n"
        "    tricks: [1, 1, 0]\n"
        "  - bids:   [1, 0, 1]\n"
        "    tricks: [2, 0, 1]\n"
    )
    assert path.read_text(encoding="utf-8") == blank.replace("rounds: []\n", rounds)
    assert run("check", path).stdout == f"{path}: ok\n"
    assert os.listdir(tmp_path) == ["friday.yaml"]
    over = run("add", path, "--bids", "0,0,0")
    assert over.exit_code == 1
    assert (
        over.stderr
        == f"{path}: the game is over: all 3 rounds are recorded, so there is no round to bid\n"
    )


# --- every layout a sheet may have ---------------------------------------------------------

LAYOUTS = [
    # no `rounds:` key, no final newline: the key, and one flow mapping per round (so that undo
    # knows to take the key back out with the first round)
    (
        "players: [A, B, C]  # us",
        [("1,0,0", None), (None, "1,0,0"), ("0,1,1", None)],
        "players: [A, B, C]  # us\nrounds:\n  - {bids: [1, 0, 0], tricks: [1, 0, 0]}\n"
        "  - {bids: [0, 1, 1]}",
    ),
    # `rounds:` with nothing after it: the dashes at the key's column (undo keeps the bare key)
    (
        "players: [A, B, C]\nrounds:   # none yet\n",
        [("1,0,0", None), (None, "1,0,0"), ("0,1,1", None)],
        "players: [A, B, C]\nrounds:   # none yet\n- bids:   [1, 0, 0]\n  tricks: [1, 0, 0]\n"
        "- bids:   [0, 1, 1]\n",
    ),
    # `rounds: null`
    (
        "players: [A, B, C]\nrounds: null\n",
        [("1,0,0", None)],
        "players: [A, B, C]\nrounds:\n  - bids:   [1, 0, 0]\n",
    ),
    # indentless rounds, mappings by name, unaligned
    (
        "players: [A, B, C]\nrounds:\n- bids: {A: 1, B: 0, C: 0}\n  tricks: {A: 1, B: 0, C: 0}\n",
        [("B=1", None), ("A=0,C=1", None), (None, "1,1,0")],
        "players: [A, B, C]\nrounds:\n- bids: {A: 1, B: 0, C: 0}\n  tricks: {A: 1, B: 0, C: 0}\n"
        "- bids: {B: 1, A: 0, C: 1}\n  tricks: {A: 1, B: 1, C: 0}\n",
    ),
    # one flow mapping per round
    (
        "players: [A, B, C]\nrounds:\n  - {bids: [1, 0, 0], tricks: [1, 0, 0]}\n",
        [("0,1,-", None), ("C=1", None), (None, "0,1,1")],
        "players: [A, B, C]\nrounds:\n  - {bids: [1, 0, 0], tricks: [1, 0, 0]}\n"
        "  - {bids: [0, 1, 1], tricks: [0, 1, 1]}\n",
    ),
    # block lists
    (
        "players: [A, B, C]\nrounds:\n  - bids:\n      - 1\n      - 0\n      - 0\n"
        "    tricks:\n      - 1\n      - 0\n      - 0\n",
        [("0,1,1", None), (None, "0,1,1")],
        "players: [A, B, C]\nrounds:\n  - bids:\n      - 1\n      - 0\n      - 0\n"
        "    tricks:\n      - 1\n      - 0\n      - 0\n"
        "  - bids:\n      - 0\n      - 1\n      - 1\n    tricks:\n      - 0\n      - 1\n      - 1\n",
    ),
    # block mappings, filled in by name
    (
        "players: [A, B, C]\nrounds:\n  - bids:\n      A: 1\n    # B has not bid yet\n",
        [("B=0,C=0", None), (None, "A=1,B=0,C=0")],
        "players: [A, B, C]\nrounds:\n  - bids:\n      A: 1\n      B: 0\n      C: 0\n"
        "    tricks:\n      - 1\n      - 0\n      - 0\n    # B has not bid yet\n",
    ),
    # a tricks key already there, empty
    (
        "players: [A, B, C]\nrounds:\n  - bids:   [1, 0, 0]\n    tricks:\n",
        [(None, "1,0,0")],
        "players: [A, B, C]\nrounds:\n  - bids:   [1, 0, 0]\n    tricks: [1, 0, 0]\n",
    ),
    # nulls and tildes in a list, and an empty block item
    (
        "players: [A, B, C]\nrounds:\n  - bids: [1, ~, null]\n",
        [("B=0,C=1", None)],
        "players: [A, B, C]\nrounds:\n  - bids: [1, 0, 1]\n",
    ),
    (
        "players: [A, B, C]\nrounds:\n  - bids:\n    - 1\n    -\n    - 0\n",
        [("B=0", None)],
        "players: [A, B, C]\nrounds:\n  - bids:\n    - 1\n    - 0\n    - 0\n",
    ),
    # JSON, one key per line: stays JSON
    (
        '{\n  "players": ["A", "B", "C"],\n  "rounds": [\n    {"bids": [1, 0, 0], "tricks": [1, 0, 0]}\n'
        "  ]\n}\n",
        [("A=0,B=1", None), ("C=1", None), (None, "0,1,1")],
        '{\n  "players": ["A", "B", "C"],\n  "rounds": [\n    {"bids": [1, 0, 0], "tricks": [1, 0, 0]},\n'
        '    {"bids": [0, 1, 1], "tricks": [0, 1, 1]}\n  ]\n}\n',
    ),
    # JSON on one line, no rounds yet
    (
        '{"players": ["A", "B", "No"]}',
        [("No=1", None), ("0,0,-", None), (None, "0,0,1")],
        '{"players": ["A", "B", "No"], "rounds": [\n  {"bids": [0, 0, 1], "tricks": [0, 0, 1]}\n]}',
    ),
    # names YAML would misread get quoted
    (
        "players: ['No', '1', 'a: b']\nrounds: []\n",
        [("a: b=1", None)],
        "players: ['No', '1', 'a: b']\nrounds:\n  - bids:   [null, null, 1]\n",
    ),
    # a season: the last game is the one played
    (
        "players: [A, B, C]\nrounds: []\n---\nplayers: [D, E, F]\nrounds: []\n",
        [("1,0,0", None)],
        "players: [A, B, C]\nrounds: []\n---\nplayers: [D, E, F]\nrounds:\n  - bids:   [1, 0, 0]\n",
    ),
]


@pytest.mark.parametrize(("before", "steps", "after"), LAYOUTS)
def test_layouts_are_kept_and_copied(tmp_path, before, steps, after):
    path = sheet_file(tmp_path, before)
    for bids, tricks in steps:
        args = (["--bids", bids] if bids else []) + (["--tricks", tricks] if tricks else [])
        result = run("add", path, *args, "--set", "bidding=hidden")  # bids in any order
        assert result.exit_code == 0, result.stderr
    assert path.read_text(encoding="utf-8") == after
    assert run("check", path).exit_code == 0


def test_crlf_a_byte_order_mark_and_no_final_newline_are_kept(tmp_path):
    before = "\ufeffplayers: [A, B, C]\r\nrounds: []   # to come\r\n# end".encode("utf-8")
    path = sheet_file(tmp_path, before)
    assert run("add", path, "--bids", "1,0,0").exit_code == 0
    assert run("add", path, "--tricks", "1,0,0").exit_code == 0
    assert path.read_bytes() == (
        "\ufeffplayers: [A, B, C]\r\nrounds:      # to come\r\n"
        "  - bids:   [1, 0, 0]\r\n    tricks: [1, 0, 0]\r\n# end"
    ).encode("utf-8")


def test_another_encoding_is_written_back_in_it(tmp_path):
    path = sheet_file(
        tmp_path, "title: Soirée\nplayers: [Zoë, Ben, Cara]\nrounds: []\n".encode("latin-1")
    )
    result = run("add", path, "--bids", "Zoë=1", "--encoding", "latin-1", "--set", "bidding=hidden")
    assert result.exit_code == 0, result.stderr
    assert path.read_bytes() == (
        "title: Soirée\nplayers: [Zoë, Ben, Cara]\nrounds:\n  - bids:   [1, null, null]\n"
    ).encode("latin-1")


def test_a_symlinked_sheet_is_edited_through_its_link(tmp_path):
    real = sheet_file(tmp_path, "players: [A, B, C]\nrounds: []\n", "real.yaml")
    link = tmp_path / "link.yaml"
    link.symlink_to(real)
    assert run("add", link, "--bids", "1,0,0").exit_code == 0
    assert link.is_symlink()
    assert real.read_text() == "players: [A, B, C]\nrounds:\n  - bids:   [1, 0, 0]\n"


# --- the pure core ----------------------------------------------------------------------


def test_parse_values_in_seating_order_and_by_name():
    players = ["Anna", "Ben", "Cara", "Dan"]
    assert parse_values("1, 0,2 ,1", players, "bids") == {0: 1, 1: 0, 2: 2, 3: 1}
    assert parse_values("1,-,,2.0", players, "bids") == {0: 1, 3: 2}
    assert parse_values("Dan=1, ben=0", players, "bids") == {3: 1, 1: 0}
    assert parse_values("a=b=3", ["a=b", "c", "d"], "bids") == {0: 3}
    with pytest.raises(WizardError):
        parse_values("Anna=1,anna=2", players, "bids")


def test_editing_functions_edit_only_what_they_must():
    text = "players: [A, B, C]   # c\nrounds:\n  - bids: [1, 0, 0]\n    tricks: [1, 0, 0]\n"
    started = editing.start_round(text, ["A", "B", "C"], [None, 1, None])
    assert started == text + "  - bids: [null, 1, null]\n"
    filled = editing.fill_bids(started, ["A", "B", "C"], {0: 0, 2: 1})
    assert filled == text + "  - bids: [0, 1, 1]\n"
    done = editing.add_tricks(filled, ["A", "B", "C"], [0, 1, 1])
    assert done == text + "  - bids: [0, 1, 1]\n    tricks: [0, 1, 1]\n"


def test_record_validates_before_returning(tmp_path):
    text = "players: [A, B, C]\nrounds: []\n"
    recorded = record(text, "g.yaml", bids="1,0,0", tricks="1,0,0")
    assert (
        recorded.text
        == "players: [A, B, C]\nrounds:\n  - bids:   [1, 0, 0]\n    tricks: [1, 0, 0]\n"
    )
    assert recorded.game.rounds_played == 1
    with pytest.raises(WizardError) as excinfo:
        record(text, "g.yaml", bids="1,0,0", tricks="1,1,0")
    assert (
        str(excinfo.value)
        == "g.yaml:4: round 1: tricks add up to 2, 1 more than the hand size of 1"
    )


# --- property: any game recorded step by step reads back as played --------------------------

BASES = [
    "players: [{names}]\nrounds: []\n",
    "# a comment\nplayers: [{names}]   # seats\n",
    "players: [{names}]\r\nrounds:\r\n",
    '{{"players": [{quoted}], "rounds": []}}',
    "players:\n  - {first}\n{rest}\nrounds:\n",
]
NAMES = [
    "Anna",
    "No",
    "1",
    "null",
    "a: b",
    "#x",
    "yes",
    "~",
    "[z]",
    "'q'",
    '"d"',
    "Zoë",
    "- a",
    "{k}",
    "off",
    "x y",
]


@st.composite
def games(draw):
    """A base layout, players, and the rounds of a short game to record in random steps."""
    count = draw(st.integers(3, 5))
    names = draw(st.lists(st.sampled_from(NAMES), min_size=count, max_size=count, unique=True))
    rounds_total = draw(st.integers(1, 4))
    sizes = hand_sizes(
        Settings().replace({"roundMode": "custom", "customRoundCount": rounds_total}), count
    )
    played = []
    for size in sizes[: draw(st.integers(1, rounds_total))]:
        bids = draw(st.lists(st.integers(0, size), min_size=count, max_size=count))
        cuts = sorted(draw(st.lists(st.integers(0, size), min_size=count - 1, max_size=count - 1)))
        tricks = [b - a for a, b in zip([0] + cuts, cuts + [size])]
        order = draw(st.permutations(range(count)))
        split = draw(st.integers(1, count))
        by_name = draw(st.booleans())
        played.append((bids, tricks, [order[:split], order[split:]], by_name))
    base = draw(st.sampled_from(BASES))
    return base, names, rounds_total, played


def some_bids(names: list[str], bids: list[int], seats: list[int], by_name: bool) -> str:
    """``--bids`` for some seats: by name, or in seating order with ``-`` for the others."""
    if by_name:
        return ",".join(f"{names[s]}={bids[s]}" for s in seats)
    return ",".join(str(bids[s]) if s in seats else "-" for s in range(len(names)))


@given(games())
@hypothesis_settings(max_examples=60, deadline=None)
def test_any_game_recorded_step_by_step_reads_back_as_played(game):
    base, names, rounds_total, played = game
    text = base.format(
        names=", ".join(yaml_scalar(n) for n in names),
        quoted=", ".join(json_text(n) for n in names),
        first=yaml_scalar(names[0], flow=False),
        rest="\n".join(f"  - {yaml_scalar(n, flow=False)}" for n in names[1:]),
    )
    rules = SheetRules(
        [
            [
                RawSetting("roundMode", "custom"),  # bids in any order
                RawSetting("customRoundCount", rounds_total),
                RawSetting("bidding", "hidden"),
            ]
        ]
    )
    original = text
    for bids, tricks, chunks, by_name in played:
        for chunk in chunks:
            if chunk:
                text = record(
                    text, "g.yaml", rules, bids=some_bids(names, bids, chunk, by_name)
                ).text
        text = record(text, "g.yaml", rules, tricks=",".join(map(str, tricks))).text
    sheet = next(read_yaml_sheets(text, "g.yaml"))
    assert sheet.players == names
    assert [(r.bids, r.tricks) for r in sheet.rounds] == [(b, t) for b, t, _, _ in played]
    # everything before the rounds is kept as it was
    head = original.split('"rounds"' if original.startswith("{") else "rounds:")[0]
    assert text.startswith(head)


def test_add_reads_parses_validates_and_scores_the_sheet_once(tmp_path, monkeypatch):
    """One `wizard add --bids`: the text as it stands is parsed and validated once, the text as
    changed once, and the changed game scored once (counted through the named seams)."""
    from collections import Counter

    from wizard_cli.app import recording
    from wizard_cli.game import game as game_module

    calls: Counter = Counter()

    def counted(name, real):
        def call(*args, **kwargs):
            calls[name] += 1
            return real(*args, **kwargs)

        return call

    monkeypatch.setattr(recording, "parse_last_sheet", counted("parse", recording.parse_last_sheet))
    monkeypatch.setattr(recording, "validated_game", counted("validate", recording.validated_game))
    monkeypatch.setattr(game_module, "score_game", counted("score", game_module.score_game))
    path = tmp_path / "g.yaml"
    path.write_text(ONE_ROUND.read_text())
    result = run("add", str(path), "--bids", "0,1,1")
    assert result.exit_code == 0, result.stderr
    assert calls == {"parse": 2, "validate": 2, "score": 1}


def test_a_game_read_from_a_file_knows_where_it_stands(tmp_path):
    from wizard_cli.app.amending import take_back_bid
    from wizard_cli.app.recording import change_file, read_game, record_values

    path = tmp_path / "g.yaml"
    text = (SAMPLES / "six-players-in-progress.yaml").read_text()
    path.write_text(text)
    game = read_game(str(path))
    assert (game.current_round, game.in_play.number, game.rounds_played) == (7, 7, 6)
    assert (game.bids_in, game.next_bidder, game.forbidden_bid) == ({0: 3, 1: 1}, 2, None)
    assert game.bidding_order() == [0, 1, 2, 3, 4, 5] and game.dealer() == 5
    assert game.status().next.next_bidder == "Olga" and not game.status().finished
    done = change_file(str(path), lambda now: record_values(now, bids={2: 1}), "add")
    assert (done.game.bids_in, done.game.next_bidder) == ({0: 3, 1: 1, 2: 1}, 3)
    back = change_file(str(path), lambda now: take_back_bid(now, 2), "undo")
    assert back.game.bids_in == {0: 3, 1: 1} and path.read_text() == text
