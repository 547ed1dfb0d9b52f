"""`wizard compare` (SPEC §5): the same game under several rule sets, through the CLI and the core."""

from __future__ import annotations

import json

import pytest
from helpers import SAMPLES, run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wizard_cli.errors import WizardError
from wizard_cli.game.compare import (
    BUILT_IN_PRESETS,
    DEAL_KEYS,
    RuleSet,
    choose_rule_sets,
    command_line_layer,
    command_line_name,
    compare_sheet,
    preset_catalogue,
    user_presets,
)
from wizard_cli.game.settings import KEYS, SPECS
from wizard_cli.game.validation import check_sheet
from wizard_cli.sheets.yaml.sheets import read_yaml_sheets

W = "sample_sheets/worked-example.yaml"
SIX = "sample_sheets/six-players-in-progress.yaml"

WORKED_SETTINGS = {
    "roundMode": "custom",
    "customRoundCount": 5,
    "exactBonus": 20,
    "pointsPerTrick": 10,
    "missPenalty": 10,
    "zeroBidScoring": "flatBonus",
    "screwTheDealer": "off",
    "canadianRule": False,
    "dealerRuleFrom": 1,
    "bidding": "open",
    "perfectGameBonus": 0,
    "tieBreak": "shareWin",
    "finalRoundBonus": 0,
    "balancedBidPenalty": 0,
    "specialCards": False,
}


@pytest.fixture(autouse=True)
def in_project(monkeypatch):
    """Run from the project folder so sources read ``sample_sheets/…`` in every output."""
    monkeypatch.chdir(SAMPLES.parent)


def data(*args, input=None):
    """``wizard compare ARGS… -f json``, checked for success, as parsed JSON."""
    result = run("compare", *args, "-f", "json", input=input)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def scores(doc) -> dict[str, list[int]]:
    return {p["player"]: p["scores"] for p in doc["players"]}


def ranks(doc) -> dict[str, list[int]]:
    return {p["player"]: p["ranks"] for p in doc["players"]}


# --- the worked example with --zero-bid doubleBonus, in every format ----------------------

DOUBLE_ZERO_TABLE = """\
Worked example (sample_sheets/worked-example.yaml)

Rule set                    From                   Winners
--------------------------  ---------------------  ---------
sheet                       the sheet's own rules  Ben
zeroBidScoring=doubleBonus  --set/--zero-bid       Ben

Player      sheet    Rank    zeroBidScoring=doubleBonus    Rank  Δ
--------  -------  ------  ----------------------------  ------  ---
Ben           140       1                           180       1  +40
Anna           90       2                            90       2  0
Cara           40       3                            80       3  +40
Dan           -60       4                           -60       4  0
"""

DOUBLE_ZERO_MARKDOWN = """\
## Worked example (sample_sheets/worked-example.yaml)

| Rule set                   | From                  | Winners   |
|----------------------------|-----------------------|-----------|
| sheet                      | the sheet's own rules | Ben       |
| zeroBidScoring=doubleBonus | --set/--zero-bid      | Ben       |

| Player   |   sheet |   Rank |   zeroBidScoring=doubleBonus |   Rank | Δ   |
|----------|---------|--------|------------------------------|--------|-----|
| Ben      |     140 |      1 |                          180 |      1 | +40 |
| Anna     |      90 |      2 |                           90 |      2 | 0   |
| Cara     |      40 |      3 |                           80 |      3 | +40 |
| Dan      |     -60 |      4 |                          -60 |      4 | 0   |
"""

DOUBLE_ZERO_CSV = """\
ruleset,player,score,rank,delta
sheet,Anna,90,2,0
sheet,Ben,140,1,0
sheet,Cara,40,3,0
sheet,Dan,-60,4,0
zeroBidScoring=doubleBonus,Anna,90,2,0
zeroBidScoring=doubleBonus,Ben,180,1,40
zeroBidScoring=doubleBonus,Cara,80,3,40
zeroBidScoring=doubleBonus,Dan,-60,4,0
"""

DOUBLE_ZERO_JSON = {
    "source": W,
    "game": None,
    "rulesets": [
        {"name": "sheet", "settings": WORKED_SETTINGS},
        {
            "name": "zeroBidScoring=doubleBonus",
            "settings": {**WORKED_SETTINGS, "zeroBidScoring": "doubleBonus"},
        },
    ],
    "players": [
        {"player": "Anna", "scores": [90, 90], "ranks": [2, 2]},
        {"player": "Ben", "scores": [140, 180], "ranks": [1, 1]},
        {"player": "Cara", "scores": [40, 80], "ranks": [3, 3]},
        {"player": "Dan", "scores": [-60, -60], "ranks": [4, 4]},
    ],
    "warnings": [],
}


def test_double_zero_table():
    result = run("compare", W, "--zero-bid", "doubleBonus")
    assert (result.exit_code, result.stdout, result.stderr) == (0, DOUBLE_ZERO_TABLE, "")


def test_double_zero_markdown():
    result = run("compare", W, "--zero-bid", "doubleBonus", "-f", "markdown")
    assert (result.exit_code, result.stdout, result.stderr) == (0, DOUBLE_ZERO_MARKDOWN, "")


def test_double_zero_csv_and_tsv():
    result = run("compare", W, "--zero-bid", "doubleBonus", "-f", "csv")
    assert (result.exit_code, result.stdout) == (0, DOUBLE_ZERO_CSV)
    result = run("compare", W, "--zero-bid", "doubleBonus", "-f", "tsv")
    assert (result.exit_code, result.stdout) == (0, DOUBLE_ZERO_CSV.replace(",", "\t"))


def test_double_zero_json_and_jsonl():
    result = run("compare", W, "--zero-bid", "doubleBonus", "-f", "json")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == DOUBLE_ZERO_JSON
    assert list(json.loads(result.stdout)) == ["source", "game", "rulesets", "players", "warnings"]
    lines = run("compare", W, "--zero-bid", "doubleBonus", "-f", "jsonl").stdout.splitlines()
    assert [json.loads(line) for line in lines] == [DOUBLE_ZERO_JSON]


def test_set_zero_bid_is_the_same_rule_set_as_the_zero_bid_option():
    assert data(W, "--set", "zeroBidScoring=doubleBonus") == DOUBLE_ZERO_JSON


def test_rounds_shows_only_the_points_that_differ():
    result = run("compare", W, "--zero-bid", "doubleBonus", "--rounds")
    assert result.exit_code == 0
    assert (
        result.stdout
        == DOUBLE_ZERO_TABLE
        + """
  Round  Player      sheet    zeroBidScoring=doubleBonus
-------  --------  -------  ----------------------------
      1  Ben           +20                           +40
      1  Cara          +20                           +40
      3  Ben           +20                           +40
      4  Cara          +20                           +40
"""
    )


def test_rounds_shows_a_changed_end_bonus():
    result = run("compare", W, "--preset", "perfectGame", "--rounds")
    assert result.stdout.endswith("""
  Round  Player      sheet    perfectGameBonus=50
-------  --------  -------  ---------------------
  bonus  Ben            +0                    +50
""")


def test_rounds_says_so_when_nothing_differs():
    result = run("compare", W, "--set", "exactBonus=20", "--rounds")
    assert "\n\nEvery round scores the same under every rule set.\n" in result.stdout


# --- which rule sets, and their names -----------------------------------------------------


def test_nothing_but_the_sheet_compares_against_official():
    doc = data(W)
    # official differs from the worked example's rules only in tieBreak (SPEC §5: named by that)
    assert [r["name"] for r in doc["rulesets"]] == ["sheet", "tieBreak=totalBids"]
    official = doc["rulesets"][1]["settings"]
    assert official == {**WORKED_SETTINGS, "tieBreak": "totalBids"}  # round count untouched
    assert scores(doc) == {"Anna": [90, 90], "Ben": [140, 140], "Cara": [40, 40], "Dan": [-60, -60]}


def test_official_table_names_what_it_changes():
    result = run("compare", W)
    assert result.stdout.startswith("""\
Worked example (sample_sheets/worked-example.yaml)

Rule set            From                   Winners
------------------  ---------------------  ---------
sheet               the sheet's own rules  Ben
tieBreak=totalBids  preset official        Ben
""")


def test_set_and_zero_bid_do_not_touch_rule_set_0():
    doc = data(W, "--zero-bid", "doubleBonus", "--set", "exactBonus=30")
    assert doc["rulesets"][0]["settings"] == WORKED_SETTINGS
    assert [r["name"] for r in doc["rulesets"]] == [
        "sheet",
        "zeroBidScoring=doubleBonus, exactBonus=30",
    ]
    assert doc["rulesets"][1]["settings"] == {
        **WORKED_SETTINGS,
        "exactBonus": 30,
        "zeroBidScoring": "doubleBonus",
    }


def test_settings_file_applies_to_rule_set_0_and_under_every_other(write):
    path = write("house.yaml", "exactBonus: 30\n")
    doc = data(W, "--settings", path, "--zero-bid", "doubleBonus")
    assert doc["rulesets"][0]["settings"]["exactBonus"] == 30
    assert doc["rulesets"][1]["settings"]["exactBonus"] == 30
    # exact 30: Ben 140 + 5 made bids × 10 = 190; made zeros at 2 × 30 score 30 more each
    assert scores(doc)["Ben"] == [190, 250]


def test_rule_set_names_use_each_settings_own_value():
    assert (
        command_line_name(command_line_layer(["screwTheDealer=true", "canadianRule=yes"], None))
        == "screwTheDealer=always, canadianRule=true"
    )
    # a repeated key names the value that takes effect; --zero-bid leads and wins
    assert (
        command_line_name(
            command_line_layer(
                ["exactBonus=30", "zeroBidScoring=perCardBonus", "exactBonus=40"], "doubleBonus"
            )
        )
        == "zeroBidScoring=doubleBonus, exactBonus=40"
    )


def test_presets_come_in_order_then_the_command_line_rule_set():
    doc = data(W, "--set", "missPenalty=20", "--preset", "perfectGame", "--preset", "doubleZero")
    assert [r["name"] for r in doc["rulesets"]] == [
        "sheet",
        "perfectGameBonus=50",
        "zeroBidScoring=doubleBonus",
        "missPenalty=20",
    ]
    # Anna misses twice by 1, Cara by 1 and 2, Dan by 1+2+1+1+1: each tricks-off costs 10 more
    assert scores(doc) == {
        "Anna": [90, 90, 90, 70],
        "Ben": [140, 190, 180, 140],
        "Cara": [40, 40, 80, 10],
        "Dan": [-60, -60, -60, -120],
    }


def test_a_rule_set_changing_nothing_says_so():
    result = run("compare", W, "--set", "exactBonus=20")
    assert "\nexactBonus=20  --set/--zero-bid (changes nothing here)  Ben\n" in result.stdout


def test_a_preset_is_named_by_what_it_changes_on_the_sheet():
    # SPEC §5: a rule set's name is what it changes; doubleZero sets zeroBidScoring, which the
    # worked example leaves at flatBonus
    assert data(W, "--preset", "doubleZero")["rulesets"][1]["name"] == "zeroBidScoring=doubleBonus"


def test_a_preset_changing_nothing_on_the_sheet_keeps_its_own_name(write):
    path = write(
        "double.yaml",
        (SAMPLES / "worked-example.yaml")
        .read_text()
        .replace(
            "  customRoundCount: 5\n", "  customRoundCount: 5\n  zeroBidScoring: doubleBonus\n"
        ),
    )
    doc = data(path, "--preset", "doubleZero")
    assert [r["name"] for r in doc["rulesets"]] == ["sheet", "doubleZero"]
    assert doc["rulesets"][0]["settings"] == doc["rulesets"][1]["settings"]
    result = run("compare", path, "--preset", "doubleZero")
    assert (
        result.stdout.split("\n\n")[1]
        == """\
Rule set    From                                      Winners
----------  ----------------------------------------  ---------
sheet       the sheet's own rules                     Ben
doubleZero  preset doubleZero (changes nothing here)  Ben"""
    )


# --- each built-in preset ------------------------------------------------------------------


def test_built_in_presets_are_those_of_the_spec():
    catalogue = {p.name: p.values() for p in BUILT_IN_PRESETS}
    assert catalogue == {
        "official": {
            "exactBonus": 20,
            "pointsPerTrick": 10,
            "missPenalty": 10,
            "zeroBidScoring": "flatBonus",
            "screwTheDealer": "off",
            "canadianRule": False,
            "perfectGameBonus": 0,
            "finalRoundBonus": 0,
            "balancedBidPenalty": 0,
            "tieBreak": "totalBids",
        },
        "doubleZero": {"zeroBidScoring": "doubleBonus"},
        "screwTheDealer": {"screwTheDealer": "always"},
        "canadian": {"screwTheDealer": "leaderOnly", "canadianRule": True},
        "perfectGame": {"perfectGameBonus": 50},
    }
    assert not any(
        key in DEAL_KEYS or key == "bidding" for values in catalogue.values() for key in values
    )


def test_preset_double_zero():
    doc = data(W, "--preset", "doubleZero")
    assert doc["rulesets"][1] == {
        "name": "zeroBidScoring=doubleBonus",
        "settings": {**WORKED_SETTINGS, "zeroBidScoring": "doubleBonus"},
    }
    assert scores(doc) == {"Anna": [90, 90], "Ben": [140, 180], "Cara": [40, 80], "Dan": [-60, -60]}


def test_preset_perfect_game_rewards_ben_who_made_every_bid():
    doc = data(W, "--preset", "perfectGame")
    assert doc["rulesets"][1]["settings"]["perfectGameBonus"] == 50
    assert scores(doc) == {"Anna": [90, 90], "Ben": [140, 190], "Cara": [40, 40], "Dan": [-60, -60]}


def test_preset_screw_the_dealer_warns_about_dans_bid_in_round_4():
    # Round 4 (4 cards), Dan deals: the others bid 1 + 2 + 0 = 3, so 1 was forbidden and Dan
    # bid 1. Rounds 1, 3 and 5 forbid 0, 0 and 1 (bid: 1, 1, 2); round 2's others bid 3 > 2.
    result = run("compare", W, "--preset", "screwTheDealer", "-f", "json")
    doc = json.loads(result.stdout)
    assert (result.exit_code, result.stderr) == (0, "")
    assert doc["warnings"] == [
        "under screwTheDealer=always, round 4: Dan's bid of 1 would have been forbidden"
    ]
    assert doc["rulesets"][1]["settings"]["screwTheDealer"] == "always"
    assert scores(doc)["Dan"] == [-60, -60]  # still scored, unchanged


def test_set_screw_the_dealer_names_the_rule_in_the_warning():
    doc = data(W, "--set", "screwTheDealer=always")
    assert doc["warnings"] == [
        "under screwTheDealer=always, round 4: Dan's bid of 1 would have been forbidden"
    ]


def test_warnings_go_to_stderr_in_the_human_views_located_at_the_bid():
    for fmt in ("table", "markdown", "csv"):
        result = run("compare", W, "--preset", "screwTheDealer", "-f", fmt)
        assert result.exit_code == 0
        assert result.stderr == (
            f"{W}:14: under screwTheDealer=always, round 4: Dan's bid of 1 "
            "would have been forbidden\n"
        )


def test_warnings_follow_the_first_dealer():
    # Ben deals first, so Anna deals round 4: the others bid 2 + 0 + 1 = 3 of 4, and she bid 1.
    doc = data(W, "--preset", "screwTheDealer", "--first-dealer", "Ben")
    assert doc["warnings"] == [
        "under screwTheDealer=always, round 4: Anna's bid of 1 would have been forbidden"
    ]


def test_preset_canadian_forbids_nothing_here():
    # leaderOnly: Ben leads alone from round 3 on, but never deals while leading (he deals 2).
    doc = data(W, "--preset", "canadian")
    assert doc["rulesets"][1]["settings"]["screwTheDealer"] == "leaderOnly"
    assert doc["rulesets"][1]["settings"]["canadianRule"] is True
    assert doc["warnings"] == []


def test_six_player_game_in_progress_two_dealer_warnings():
    # Rosa deals first: Noah deals round 3 (others 1+1+1+0+0 = 3 of 3, he bid 0) and Olga
    # round 4 (others 0+0+1+1+2 = 4 of 4, she bid 0). Canadian allows a dealer's 0.
    result = run("compare", SIX, "--preset", "screwTheDealer", "--preset", "canadian")
    assert result.exit_code == 0
    assert result.stderr == (
        f"{SIX}:11: under screwTheDealer=always, round 3: Noah's bid of 0 would have been "
        "forbidden\n"
        f"{SIX}:13: under screwTheDealer=always, round 4: Olga's bid of 0 would have been "
        "forbidden\n"
    )
    assert (
        result.stdout
        == """\
Saturday, big table (sample_sheets/six-players-in-progress.yaml)

Rule set                                      From
--------------------------------------------  ---------------------
sheet                                         the sheet's own rules
screwTheDealer=always                         preset screwTheDealer
screwTheDealer=leaderOnly, canadianRule=true  preset canadian

Player      sheet    Rank    screwTheDealer=always    Rank  Δ      screwTheDealer=leaderOnly, canadianRule=true    Rank  Δ
--------  -------  ------  -----------------------  ------  ---  ----------------------------------------------  ------  ---
Quinn         170       1                      170       1  0                                               170       1  0
Mia           150       2                      150       2  0                                               150       2  0
Olga          120       3                      120       3  0                                               120       3  0
Rosa           80       4                       80       4  0                                                80       4  0
Pete           70       5                       70       5  0                                                70       5  0
Noah           10       6                       10       6  0                                                10       6  0

Game in progress: standings after 6 of 10 rounds
"""
    )


# --- ordering and rank moves --------------------------------------------------------------

THREE = """\
players: [Ann, Bob, Cid]
settings: {roundMode: custom, customRoundCount: 2}
rounds:
  - bids: [1, 0, 0]
    tricks: [1, 0, 0]
  - bids: [2, 0, 1]
    tricks: [1, 0, 1]
"""


def test_rows_follow_the_last_rule_sets_ranks_and_show_the_moves(write):
    # sheet: Ann 30-10 = 20, Bob 20+20 = 40, Cid 20+30 = 50. Double zero: Bob 80, Cid 70.
    path = write("three.yaml", THREE)
    result = run("compare", path, "--zero-bid", "doubleBonus")
    assert result.exit_code == 0
    assert (
        result.stdout.split("\n\n")[2]
        == """\
Player      sheet    Rank    zeroBidScoring=doubleBonus    Rank  Δ
--------  -------  ------  ----------------------------  ------  ------
Bob            40       2                            80       1  +40 ▲1
Cid            50       1                            70       2  +20 ▼1
Ann            20       3                            20       3  0
"""
    )
    doc = data(path, "--zero-bid", "doubleBonus")
    assert [p["player"] for p in doc["players"]] == ["Ann", "Bob", "Cid"]  # seating order


def test_official_tie_break_splits_a_shared_rank(write):
    # exactBonus 30, no points per trick: Ann's made 1 and Bob's made 0 both score 30.
    path = write(
        "tie.yaml",
        """\
players: [Ann, Bob, Cid]
settings: {roundMode: custom, customRoundCount: 1, exactBonus: 30, pointsPerTrick: 0}
rounds:
  - bids: [1, 0, 1]
    tricks: [1, 0, 0]
""",
    )
    doc = data(path)
    # official changes three of this sheet's rules, named in the spec's order of settings
    assert [r["name"] for r in doc["rulesets"]] == [
        "sheet",
        "exactBonus=20, pointsPerTrick=10, tieBreak=totalBids",
    ]
    # official: Ann 20 + 10 for her trick = 30, Bob's zero 20: the tie is gone
    assert scores(doc) == {"Ann": [30, 30], "Bob": [30, 20], "Cid": [-10, -10]}
    assert ranks(doc) == {"Ann": [1, 1], "Bob": [1, 2], "Cid": [3, 3]}
    # the same scores, the tie broken by total bids: Ann bid 1, Bob 0
    doc = data(path, "--set", "tieBreak=totalBids")
    assert ranks(doc) == {"Ann": [1, 1], "Bob": [1, 2], "Cid": [3, 3]}
    result = run("compare", path, "--set", "tieBreak=totalBids")
    assert (
        result.stdout.split("\n\n", 1)[1]
        == """\
Rule set            From                   Winners
------------------  ---------------------  -----------
sheet               the sheet's own rules  Ann and Bob
tieBreak=totalBids  --set/--zero-bid       Ann

Player      sheet    Rank    tieBreak=totalBids    Rank  Δ
--------  -------  ------  --------------------  ------  ----
Ann            30       1                    30       1  0
Bob            30       1                    30       2  0 ▼1
Cid           -10       3                   -10       3  0
"""
    )


# --- rule sets that cannot apply --------------------------------------------------------


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ["--set", "customRoundCount=3"],
            f"{W}: rule set 'customRoundCount=3' cannot apply: its game ends after round 3, but the "
            "sheet records 5 rounds",
        ),
        (
            ["--set", "customRoundCount=16"],
            f"{W}: rule set 'customRoundCount=16' cannot apply: customRoundCount 16 is more rounds than "
            "4 players can be dealt (at most 15)",
        ),
        (
            ["--set", "roundMode=quickPlay"],
            f"{W}: rule set 'roundMode=quickPlay' cannot apply: it changes the deal: round 2 would deal "
            "3 cards each, but 2 were dealt",
        ),
        (
            ["--set", "bidding=hidden", "--set", "screwTheDealer=always"],
            f"{W}: rule set 'bidding=hidden, screwTheDealer=always' cannot apply: screwTheDealer=always "
            "needs open bids, but bidding is hidden (a dealer restriction makes no sense with hidden "
            "bids)",
        ),
    ],
)
def test_a_rule_set_that_cannot_apply_is_an_error_naming_it(args, message):
    result = run("compare", W, *args)
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", message + "\n")


ANNIVERSARY = "sample_sheets/anniversary.yaml"


def test_a_rule_set_switching_special_cards_off_on_a_bomb_and_cloud_sheet_cannot_apply():
    """SPEC §1: a Bomb or a Cloud needs specialCards: true; §5: a rule set that cannot apply is
    an error naming it, where score places the same problem (it was scored, exit 0)."""
    result = run("compare", "-f", "json", "--set", "specialCards=false", ANNIVERSARY)
    score = run("score", "--set", "specialCards=false", ANNIVERSARY)
    assert (result.exit_code, result.stdout, score.exit_code) == (1, "", 1)
    prefix = "rule set 'specialCards=false' cannot apply: "
    assert result.stderr.splitlines() == [
        line.replace("round 7: ", "round 7: " + prefix).replace("Ben: ", "Ben: " + prefix)
        for line in score.stderr.splitlines()
    ]
    assert result.stderr.splitlines()[0] == (
        f"{ANNIVERSARY}:22: round 7: {prefix}a Bomb is recorded, but specialCards is off (set "
        "specialCards: true for the anniversary editions' special cards)"
    )


def test_a_preset_naming_special_cards_is_still_refused_as_a_preset(write):
    presets = write("presets.yaml", "plain:\n  specialCards: false\n")
    result = run("compare", "--presets", presets, "--preset", "plain", ANNIVERSARY)
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"{presets}:2: preset 'plain': specialCards cannot be set in a preset (presets change "
        "scoring and bidding rules, never how the cards were dealt)\n"
    )


def test_switching_special_cards_on_or_leaving_them_on_still_compares():
    assert run("compare", "--set", "specialCards=true", ANNIVERSARY).exit_code == 0
    assert run("compare", "--set", "specialCards=true", W).exit_code == 0


def test_a_preset_clashing_with_the_sheets_own_settings_cannot_apply(write):
    path = write("hidden.yaml", "players: [A, B, C]\nsettings:\n  bidding: hidden\nrounds: []\n")
    result = run("compare", path, "--preset", "screwTheDealer")
    assert result.exit_code == 1
    assert result.stderr == (
        f"{path}: rule set 'screwTheDealer' cannot apply: "
        "screwTheDealer=always needs open bids, but bidding is hidden (a "
        "dealer restriction makes no sense with hidden bids)\n"
    )


def test_a_longer_game_still_applies_but_is_not_finished():
    result = run("compare", W, "--set", "roundMode=wholeDeck")
    assert result.exit_code == 0
    assert "roundMode=wholeDeck  --set/--zero-bid       not finished\n" in result.stdout
    assert not result.stdout.endswith("rounds\n")  # the sheet's own game is over


def test_an_invalid_sheet_is_reported_as_score_reports_it_and_the_others_still_compare():
    broken = "sample_sheets/friday-broken.yaml"
    result = run("compare", broken, W, "--zero-bid", "doubleBonus", "-f", "csv")
    assert result.exit_code == 1
    assert result.stderr == run("score", broken).stderr
    rows = result.stdout.splitlines()
    assert rows[0] == "source,game,ruleset,player,score,rank,delta"
    assert rows[1:] == [f"{W},,{line}" for line in DOUBLE_ZERO_CSV.splitlines()[1:]]


def test_several_sheets_make_a_json_array():
    doc = data(W, W, "--zero-bid", "doubleBonus")
    assert doc == [DOUBLE_ZERO_JSON, DOUBLE_ZERO_JSON]


def test_a_season_gives_one_result_per_game():
    lines = run("compare", "sample_sheets/season.csv", "-f", "jsonl").stdout.splitlines()
    games = [json.loads(line)["game"] for line in lines]
    assert games == ["2026-01-09", "2026-01-16", "2026-01-23"]


def test_a_cannot_apply_error_names_the_game_of_a_season():
    result = run(
        "compare",
        "sample_sheets/season.csv",
        "--set",
        "customRoundCount=3",
        "--set",
        "roundMode=custom",
    )
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == (
        "sample_sheets/season.csv: rule set 'customRoundCount=3, roundMode=custom' cannot apply "
        "to game 2026-01-09: its game ends after round 3, but the sheet records 15 rounds"
    )


# --- bad options ---------------------------------------------------------------------------


def test_unknown_preset_suggests_the_closest():
    result = run("compare", W, "--preset", "doubelZero")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        "--preset doubelZero: unknown preset (did you mean 'doubleZero'?) "
        "(presets: official, doubleZero, screwTheDealer, canadian, "
        "perfectGame)\n"
    )


def test_bad_set_and_zero_bid_values_are_settings_errors():
    result = run("compare", W, "--set", "exactBonus=7", "--zero-bid", "triple")
    assert result.exit_code == 1
    assert result.stderr == (
        "--set exactBonus=7: 7 is not allowed (allowed: 0–50 in steps of 5)\n"
        "--set zeroBidScoring=triple: 'triple' is not an option (allowed: flatBonus, doubleBonus, "
        "perCardBonus)\n"
    )


# --- user presets --------------------------------------------------------------------------

GOOD_PRESETS = """\
# our house rules, and a strict table
house:
  exactBonus: 30
  zeroBidScoring: perCardBonus
strict:
  screwTheDealer: on
  canadianRule: yes
"""


def test_user_presets_from_a_file(write):
    path = write("presets.yaml", GOOD_PRESETS)
    result = run("compare", W, "--presets", path, "--preset", "house", "--preset", "strict")
    assert result.exit_code == 0
    # house: exact 30; a made zero scores 30 + 10 × cards (Cara's round-4 zero: 70)
    assert (
        result.stdout
        == """\
Worked example (sample_sheets/worked-example.yaml)

Rule set                                    From                   Winners
------------------------------------------  ---------------------  ---------
sheet                                       the sheet's own rules  Ben
exactBonus=30, zeroBidScoring=perCardBonus  preset house           Ben
screwTheDealer=always, canadianRule=true    preset strict          Ben

Player      sheet    Rank    exactBonus=30, zeroBidScoring=perCardBonus    Rank  Δ         screwTheDealer=always, canadianRule=true    Rank  Δ
--------  -------  ------  --------------------------------------------  ------  ------  ------------------------------------------  ------  ---
Ben           140       1                                           230       1  +90                                            140       1  0
Anna           90       2                                           120       2  +30                                             90       2  0
Cara           40       3                                           120       2  +80 ▲1                                          40       3  0
Dan           -60       4                                           -60       4  0                                              -60       4  0
"""
    )
    assert result.stderr == (
        f"{W}:14: under screwTheDealer=always, canadianRule=true, round 4: "
        "Dan's bid of 1 would have been forbidden\n"
    )
    doc = data(W, "--presets", path, "--preset", "strict")
    assert doc["rulesets"][1] == {
        "name": "screwTheDealer=always, canadianRule=true",
        "settings": {**WORKED_SETTINGS, "screwTheDealer": "always", "canadianRule": True},
    }


def test_a_presets_file_alone_still_compares_against_official(write):
    path = write("presets.yaml", GOOD_PRESETS)
    assert [r["name"] for r in data(W, "--presets", path)["rulesets"]] == [
        "sheet",
        "tieBreak=totalBids",
    ]


def test_every_problem_of_a_bad_presets_file_with_its_line(write):
    path = write(
        "bad.yaml",
        """\
house:
  exactBonus: 35
  roundMode: custom
  exactbonus: 3
official:
  tieBreak: madeBids
empty:
loose: 3
silly:
  bidding: hidden
  screwTheDealer: always
bad:
  missPenalty: 7
  tieBreak: coin
""",
    )
    result = run("compare", W, "--presets", path, "--preset", "house")
    assert (result.exit_code, result.stdout) == (1, "")
    assert (
        result.stderr
        == f"""\
{path}:3: preset 'house': roundMode cannot be set in a preset (presets change scoring and bidding rules, never how the cards were dealt)
{path}:4: preset 'house': unknown setting 'exactbonus' (did you mean 'exactBonus'?)
{path}:5: preset 'official' is built in; give yours another name
{path}:7: preset 'empty' must be a mapping of setting: value, not nothing
{path}:8: preset 'loose' must be a mapping of setting: value, not '3'
{path}:11: preset 'silly': screwTheDealer=always needs open bids, but bidding is hidden (a dealer restriction makes no sense with hidden bids)
{path}:13: preset 'bad': setting missPenalty: 7 is not allowed (allowed: 0–30 in steps of 5)
{path}:14: preset 'bad': setting tieBreak: 'coin' is not an option (allowed: shareWin, totalBids, madeBids)
"""
    )


@pytest.mark.parametrize(
    "content, message",
    [
        ("- house\n", "1: a presets file must be one YAML mapping"),
        ("house: [\n", "2: not valid YAML: did not find expected node content (line 2, column 1)"),
        (
            "house:\n  customRoundCount: 3\n",
            "2: preset 'house': customRoundCount cannot be set in a preset (presets change scoring and "
            "bidding rules, never how the cards were dealt)",
        ),
    ],
)
def test_a_presets_file_that_is_no_presets_mapping(write, content, message):
    path = write("p.yaml", content)
    result = run("compare", W, "--presets", path)
    assert (result.exit_code, result.stderr) == (1, f"{path}:{message}\n")


def test_a_missing_presets_file_is_a_usage_error():
    result = run("compare", W, "--presets", "no-such-presets.yaml")
    assert result.exit_code == 2
    assert "no such file: no-such-presets.yaml" in result.stderr


def test_an_unknown_user_preset_is_suggested_from_the_file(write):
    path = write("presets.yaml", GOOD_PRESETS)
    result = run("compare", W, "--presets", path, "--preset", "hous")
    assert result.exit_code == 1
    assert result.stderr == (
        "--preset hous: unknown preset (did you mean 'house'?) (presets: "
        "official, doubleZero, screwTheDealer, canadian, perfectGame, house, "
        "strict)\n"
    )


# --- the pure core ---------------------------------------------------------------------------


def checked_worked():
    sheet = next(read_yaml_sheets((SAMPLES / "worked-example.yaml").read_text(), "w.yaml"))
    return check_sheet(sheet).validated


def test_core_compare_sheet_scores_each_rule_set_and_lists_changes():
    rule_sets = choose_rule_sets(
        ["doubleZero"], preset_catalogue(), command_line_layer(["screwTheDealer=always"], None)
    )
    comparison = compare_sheet(checked_worked(), rule_sets)
    assert [s.name for s in comparison.scored] == [
        "sheet",
        "zeroBidScoring=doubleBonus",
        "screwTheDealer=always",
    ]
    assert [s.changes for s in comparison.scored] == [
        {},
        {"zeroBidScoring": "doubleBonus"},
        {"screwTheDealer": "always"},
    ]
    assert comparison.scores(1) == [140, 180, 140]
    assert [(w.rule_set, w.round, w.dealer, w.bid, w.line) for w in comparison.warnings] == [
        ("screwTheDealer=always", 4, "Dan", 1, 14)
    ]


def test_core_rule_set_that_cannot_apply_raises():
    with pytest.raises(
        WizardError,
        match="rule set 'short' cannot apply: its game ends after "
        "round 2, but the sheet records 5 rounds",
    ):
        compare_sheet(
            checked_worked(),
            [
                RuleSet("sheet"),
                RuleSet("short", tuple(command_line_layer(["customRoundCount=2"], None))),
            ],
        )


def test_core_user_presets_keep_their_lines():
    (preset,) = user_presets([("mine", 1, command_line_layer(["exactBonus=25"], None))], "p.yaml")
    assert (preset.name, preset.values(), preset.source) == ("mine", {"exactBonus": 25}, "p.yaml")


# --- properties ------------------------------------------------------------------------------


@st.composite
def games(draw):
    """A valid finished-or-not game as YAML text, with random scoring settings."""
    players = draw(st.integers(3, 6))
    rounds_total = draw(st.integers(1, 5))
    played = draw(st.integers(0, rounds_total))
    lines = [
        f"players: [{', '.join(f'P{i}' for i in range(players))}]",
        "settings:",
        "  roundMode: custom",
        f"  customRoundCount: {rounds_total}",
    ]
    for spec in SPECS:
        if spec.kind == "int" and spec.key != "customRoundCount" and draw(st.booleans()):
            value = draw(st.sampled_from(range(spec.minimum, spec.maximum + 1, spec.step)))
            lines.append(f"  {spec.key}: {value}")
    lines.append(
        f"  zeroBidScoring: {draw(st.sampled_from(['flatBonus', 'doubleBonus', 'perCardBonus']))}"
    )
    lines.append(f"  tieBreak: {draw(st.sampled_from(['shareWin', 'totalBids', 'madeBids']))}")
    lines.append("rounds:")
    for size in range(1, played + 1):
        bids = [draw(st.integers(0, size)) for _ in range(players)]
        cuts = sorted(
            draw(st.lists(st.integers(0, size), min_size=players - 1, max_size=players - 1))
        )
        tricks = [b - a for a, b in zip([0, *cuts], [*cuts, size])]
        lines += [f"  - bids: {bids}", f"    tricks: {tricks}"]
    return "\n".join(lines) + "\n"


def own_value(text: str, key: str) -> str:
    for line in text.splitlines():
        if line.strip().startswith(f"{key}:"):
            return line.split(":", 1)[1].strip()
    return str(next(spec.default for spec in SPECS if spec.key == key))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_property_no_change_reproduces_scores_standings(text):
    doc = data("-", "--set", f"exactBonus={own_value(text, 'exactBonus')}", input=text)
    standings = json.loads(run("standings", "-", "-f", "json", input=text).stdout)["standings"]
    by_player = {s["player"]: (s["score"], s["rank"]) for s in standings}
    assert doc["rulesets"][0]["settings"] == doc["rulesets"][1]["settings"]
    assert doc["warnings"] == []
    for player in doc["players"]:
        expected = by_player[player["player"]]
        assert list(zip(player["scores"], player["ranks"])) == [expected, expected]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    games(),
    st.sampled_from(["flatBonus", "doubleBonus", "perCardBonus"]),
    st.sampled_from(range(0, 51, 5)),
)
def test_property_each_rule_set_scores_as_score_would(text, zero, bonus):
    doc = data("-", "--zero-bid", zero, "--set", f"exactBonus={bonus}", input=text)
    standings = json.loads(
        run(
            "standings",
            "-",
            "-f",
            "json",
            "--zero-bid",
            zero,
            "--set",
            f"exactBonus={bonus}",
            input=text,
        ).stdout
    )["standings"]
    by_player = {s["player"]: (s["score"], s["rank"]) for s in standings}
    assert {p["player"]: (p["scores"][1], p["ranks"][1]) for p in doc["players"]} == by_player
    assert set(doc["rulesets"][1]["settings"]) == set(KEYS)
