"""`wizard new`: a blank, commented sheet that `check` accepts and `add` can fill in."""

from __future__ import annotations

import json
import os

import pytest
from helpers import run

from wizard_cli.game.settings import DEFAULTS, Settings
from wizard_cli.sheets.blank import blank_sheet
from wizard_cli.sheets.yaml.sheets import read_yaml_sheets

THREE = """\
# A Wizard score sheet. Record each round as it is played:
#   wizard add FILE --bids 1,0,2         the bids, in seating order
#   wizard add FILE --bids Anna=1,Ben=0  or some of them, by name
#   wizard add FILE --tricks 1,0,1       the tricks taken: completes the round
#   wizard next FILE                     who deals, who bids next, what the dealer may not bid
#   wizard score FILE                    the scores so far
date: 2026-12-06
players: [Anna, Ben, Cara]   # seating order, clockwise
firstDealer: Anna            # deals round 1; the deal passes to the left
settings:                    # the house rules: `wizard rules` explains each
  roundMode: wholeDeck       # wholeDeck, custom, quickPlay
  customRoundCount: 10       # 1–20 in steps of 1
  exactBonus: 20             # 0–50 in steps of 5
  pointsPerTrick: 10         # 0–20 in steps of 5
  missPenalty: 10            # 0–30 in steps of 5
  zeroBidScoring: flatBonus  # flatBonus, doubleBonus, perCardBonus
  screwTheDealer: off        # off, always, leaderOnly, unlessTiedLead
  canadianRule: false        # true or false
  dealerRuleFrom: 1          # 1–20 in steps of 1
  bidding: open              # open, hidden, delayed
  perfectGameBonus: 0        # 0–100 in steps of 10
  tieBreak: shareWin         # shareWin, totalBids, madeBids
  finalRoundBonus: 0         # 0–50 in steps of 5
  balancedBidPenalty: 0      # 0–30 in steps of 5
  specialCards: false        # true or false
# one entry per round, values in seating order; the last may be still in play:
#   - bids:   [1, 0, 0]
#     tricks: [1, 0, 0]
rounds: []
"""


def test_new_prints_a_blank_commented_sheet():
    result = run("new", "--players", "Anna,Ben,Cara", "--date", "2026-12-06")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == THREE
    assert result.stderr == ""


def test_the_blank_sheet_checks_and_scores_as_an_empty_game(write):
    path = write("new.yaml", run("new", "--players", "Anna, Ben ,Cara,Dan").stdout)
    assert run("check", path).stdout == f"{path}: ok\n"
    data = json.loads(run("score", path, "-f", "json").stdout)
    assert data["players"] == ["Anna", "Ben", "Cara", "Dan"]
    assert data["settings"] == DEFAULTS.as_dict()
    assert data["rounds"] == []
    assert data["status"]["finished"] is False
    assert data["status"]["next"]["dealer"] == "Anna"
    assert [s["rank"] for s in data["standings"]] == [1, 1, 1, 1]


def test_every_setting_is_written_with_its_effective_value(write):
    rules = write("rules.yaml", "settings:\n  exactBonus: 30\n  screwTheDealer: always\n")
    result = run(
        "new",
        "--players",
        "Anna,Ben,Cara,Dan",
        "--settings",
        rules,
        "--set",
        "roundMode=custom",
        "--set",
        "customRoundCount=5",
        "--zero-bid",
        "doubleBonus",
        "--set",
        "canadianRule=yes",
        "--first-dealer",
        "Cara",
        "--title",
        "Friday night",
    )
    assert result.exit_code == 0, result.stderr
    text = result.stdout
    assert "\ntitle: Friday night\n" in text
    assert "\nfirstDealer: Cara " in text
    assert "\n  screwTheDealer: always " in text
    sheet = next(read_yaml_sheets(text, "new.yaml"))
    assert sheet.title == "Friday night"
    assert sheet.first_dealer == "Cara"
    assert [raw.key for raw in sheet.settings] == list(DEFAULTS.as_dict())
    path = write("new.yaml", text)
    data = json.loads(run("score", path, "-f", "json").stdout)
    assert (
        data["settings"]
        == DEFAULTS.replace(
            {
                "roundMode": "custom",
                "customRoundCount": 5,
                "exactBonus": 30,
                "screwTheDealer": "always",
                "zeroBidScoring": "doubleBonus",
                "canadianRule": True,
            }
        ).as_dict()
    )
    assert data["status"]["roundsTotal"] == 5
    assert data["status"]["next"]["dealer"] == "Cara"


@pytest.mark.parametrize(
    "names",
    [
        ["No", "1", "null"],
        ["yes", "a: b", "#x"],
        ["~", "[x]", "'q'", '"d"', "Zoë"],
        ["-", "?", "@at", "off"],
    ],
)
def test_names_yaml_would_misread_survive(write, names):
    result = run("new", "--players", ",".join(names), "--first-dealer", names[1])
    assert result.exit_code == 0, result.stderr
    path = write("new.yaml", result.stdout)
    assert run("check", path).exit_code == 0
    data = json.loads(run("score", path, "-f", "json").stdout)
    assert data["players"] == names
    assert data["status"]["next"]["dealer"] == names[1]


def test_players_may_be_given_in_several_options():
    result = run("new", "--players", "Anna,Ben", "--players", "Cara", "--date", "2026-12-06")
    assert result.stdout == THREE


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "Anna,Ben"], "--players: a game has 3 to 6 players, this sheet has 2"),
        (["--players", "A,B,C,D,E,F,G"], "--players: a game has 3 to 6 players, this sheet has 7"),
        (["--players", "Anna,Ben,Anna"], "--players: player 'Anna' is listed twice"),
        (["--players", "Anna,,Ben"], "--players: a player's name is empty"),
        (
            ["--players", "A,B,C", "--first-dealer", "Q"],
            "--first-dealer 'Q' is not one of the players",
        ),
        (
            ["--players", "A,B,C", "--set", "exactBonus=7"],
            "--set exactBonus=7: 7 is not allowed (allowed: 0–50 in steps of 5)",
        ),
        (
            ["--players", "A,B,C,D", "--set", "roundMode=custom", "--set", "customRoundCount=16"],
            "--set customRoundCount=16: customRoundCount 16 is more rounds than 4 players can be dealt "
            "(at most 15)",
        ),
        (
            ["--players", "A,B,C", "--set", "exactbonus=30"],
            "--set exactbonus=30: unknown setting 'exactbonus' (did you mean 'exactBonus'?)",
        ),
    ],
)
def test_bad_players_or_settings_exit_1(args, message, tmp_path):
    target = tmp_path / "new.yaml"
    result = run("new", *args, "-o", target)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == message + "\n"
    assert not target.exists()


def test_missing_players_is_a_usage_error():
    result = run("new")
    assert result.exit_code == 2
    assert "--players" in result.stderr


def test_output_file_is_written_and_never_overwritten_without_force(tmp_path):
    target = tmp_path / "friday.yaml"
    first = run("new", "--players", "Anna,Ben,Cara", "-o", target, "--date", "2026-12-06")
    assert first.exit_code == 0
    assert first.stdout == ""
    written = target.read_text(encoding="utf-8")
    assert written.splitlines()[6:] == THREE.splitlines()[6:]
    assert f"#   wizard add {target} --bids 1,0,2" in written
    assert next(read_yaml_sheets(written, "x")).players == ["Anna", "Ben", "Cara"]

    again = run("new", "--players", "Dan,Eve,Fay", "-o", target)
    assert again.exit_code == 1
    assert again.stderr == f"{target}: already exists; use --force to overwrite\n"
    assert target.read_text(encoding="utf-8") == written

    forced = run("new", "--players", "Dan,Eve,Fay", "-o", target, "--force")
    assert forced.exit_code == 0
    assert next(read_yaml_sheets(target.read_text(encoding="utf-8"), "x")).players == [
        "Dan",
        "Eve",
        "Fay",
    ]
    assert os.listdir(tmp_path) == ["friday.yaml"]


def test_dash_output_is_standard_output():
    assert (
        run("new", "--players", "Anna,Ben,Cara", "-o", "-", "--date", "2026-12-06").stdout == THREE
    )


def test_blank_sheet_core_reads_back_every_setting():
    settings = Settings().replace({"tieBreak": "madeBids", "screwTheDealer": "unlessTiedLead"})
    text = blank_sheet(["A", "B", "C"], settings, "B", title="No")
    sheet = next(read_yaml_sheets(text, "x"))
    assert sheet.title == "No"
    assert sheet.first_dealer == "B"
    assert {raw.key: raw.value for raw in sheet.settings}["screwTheDealer"] == "unlessTiedLead"
    assert {raw.key: raw.value for raw in sheet.settings}["tieBreak"] == "madeBids"
    assert {raw.key: raw.value for raw in sheet.settings}["canadianRule"] is False
