"""`wizard rules` (SPEC §5): every setting and every preset, in every format."""

from __future__ import annotations

import csv
import io
import json

from helpers import run

from wizard_cli.game.settings import KEYS

RULES_TABLE = """\
Settings

Setting             Default    Allowed               In the app        Meaning
------------------  ---------  --------------------  ----------------  --------------------------------------------
roundMode           wholeDeck  wholeDeck, custom,    Number of rounds  how many rounds, and the hand sizes: deal
                               quickPlay                               out the whole deck (1 card, 2, … up to 60 //
                                                                       players); a custom count of rounds; or quick
                                                                       play (hand sizes grow by 2)
customRoundCount    10         1–20 in steps of 1    Rounds to play    rounds to play when roundMode is custom
                                                                       (hand sizes 1..N); at most 60 // players
exactBonus          20         0–50 in steps of 5    Bonus for an      flat bonus for taking exactly the tricks bid
                                                     exact bid
pointsPerTrick      10         0–20 in steps of 5    Points per trick  points per trick taken, on an exact bid only
                                                     when correct
missPenalty         10         0–30 in steps of 5    Penalty per       lost per trick away from the bid, either
                                                     trick missed by   direction
zeroBidScoring      flatBonus  flatBonus,            Made bid of zero  a made bid of zero scores exactBonus
                               doubleBonus,                            (flatBonus), 2 × exactBonus (doubleBonus),
                               perCardBonus                            or exactBonus + pointsPerTrick × hand size
                                                                       (perCardBonus)
screwTheDealer      off        off, always,          Screw the dealer  the dealer may not bid so that the bids add
                               leaderOnly,                             up to the hand size: never (off), always,
                               unlessTiedLead                          only when the dealer alone leads
                                                                       (leaderOnly, the even bid rule), or unless
                                                                       two or more share the lead (unlessTiedLead,
                                                                       the killer rule)
canadianRule        false      true or false                           with a dealer restriction on, a dealer bid
                                                                       of 0 is always allowed
dealerRuleFrom      1          1–20 in steps of 1                      a dealer restriction applies only in rounds
                                                                       dealing at least this many cards (2: never
                                                                       in a one-card round)
bidding             open       open, hidden,                           open bids; hidden (revealed together);
                               delayed                                 delayed (revealed after the hand); hidden
                                                                       and delayed rule out screwTheDealer
perfectGameBonus    0          0–100 in steps of 10  Bonus for         end of game: added to every player who made
                                                     bidding right     every bid
                                                     every round
tieBreak            shareWin   shareWin, totalBids,  Tie-break         equal scores share the rank (shareWin), or
                               madeBids                                the higher sum of bids (totalBids) or more
                                                                       made bids (madeBids) ranks first
finalRoundBonus     0          0–50 in steps of 5                      added to each made bid in the last round of
                                                                       a finished game
balancedBidPenalty  0          0–30 in steps of 5                      subtracted from the dealer in each round
                                                                       whose bids add up to the hand size
specialCards        false      true or false                           the anniversary editions' special cards are
                                                                       in the deck: the last round has a trump, and
                                                                       rounds may record the Bomb and the Cloud

Presets

Preset          Sets                                               Meaning
--------------  -------------------------------------------------  ----------------------------------------
official        exactBonus=20, pointsPerTrick=10, missPenalty=10,  the published rules (round count and
                zeroBidScoring=flatBonus, screwTheDealer=off,      bidding untouched)
                canadianRule=false, perfectGameBonus=0,
                finalRoundBonus=0, balancedBidPenalty=0,
                tieBreak=totalBids
doubleZero      zeroBidScoring=doubleBonus                         a made bid of zero scores twice the
                                                                   exact bonus
screwTheDealer  screwTheDealer=always                              the dealer may never make the bids add
                                                                   up to the hand size
canadian        screwTheDealer=leaderOnly, canadianRule=true       the even bid rule, where a dealer bid of
                                                                   zero is always allowed
perfectGame     perfectGameBonus=50                                50 points at the end for everyone who
                                                                   made every bid
"""

RULES_MARKDOWN_PRESETS = """\
## Presets

| Preset         | Sets                                                                                                                                                                                                | Meaning                                                         |
|----------------|-----------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------|-----------------------------------------------------------------|
| official       | exactBonus=20, pointsPerTrick=10, missPenalty=10, zeroBidScoring=flatBonus, screwTheDealer=off, canadianRule=false, perfectGameBonus=0, finalRoundBonus=0, balancedBidPenalty=0, tieBreak=totalBids | the published rules (round count and bidding untouched)         |
| doubleZero     | zeroBidScoring=doubleBonus                                                                                                                                                                          | a made bid of zero scores twice the exact bonus                 |
| screwTheDealer | screwTheDealer=always                                                                                                                                                                               | the dealer may never make the bids add up to the hand size      |
| canadian       | screwTheDealer=leaderOnly, canadianRule=true                                                                                                                                                        | the even bid rule, where a dealer bid of zero is always allowed |
| perfectGame    | perfectGameBonus=50                                                                                                                                                                                 | 50 points at the end for everyone who made every bid            |
"""


def test_rules_table_lists_every_setting_and_preset():
    result = run("rules")
    assert (result.exit_code, result.stdout, result.stderr) == (0, RULES_TABLE, "")


def test_rules_markdown():
    result = run("rules", "-f", "markdown")
    assert result.exit_code == 0
    assert result.stdout.startswith("## Settings\n\n| Setting            | Default   | Allowed ")
    assert (
        "\n| zeroBidScoring     | flatBonus | flatBonus, doubleBonus, perCardBonus    | Made bid of zero "
        in result.stdout
    )
    assert result.stdout.endswith("\n\n" + RULES_MARKDOWN_PRESETS)


def test_rules_json_shape():
    result = run("rules", "-f", "json")
    assert result.exit_code == 0
    doc = json.loads(result.stdout)
    assert list(doc) == ["settings", "presets"]
    assert [s["key"] for s in doc["settings"]] == list(KEYS)
    by_key = {s["key"]: s for s in doc["settings"]}
    assert by_key["zeroBidScoring"] == {
        "key": "zeroBidScoring",
        "type": "option",
        "default": "flatBonus",
        "allowed": "flatBonus, doubleBonus, perCardBonus",
        "minimum": None,
        "maximum": None,
        "step": None,
        "options": ["flatBonus", "doubleBonus", "perCardBonus"],
        "meaning": "a made bid of zero scores exactBonus (flatBonus), 2 × exactBonus "
        "(doubleBonus), or exactBonus + pointsPerTrick × hand size (perCardBonus)",
        "appName": "Made bid of zero",
    }
    assert by_key["exactBonus"] == {
        "key": "exactBonus",
        "type": "int",
        "default": 20,
        "allowed": "0–50 in steps of 5",
        "minimum": 0,
        "maximum": 50,
        "step": 5,
        "options": None,
        "meaning": "flat bonus for taking exactly the tricks bid",
        "appName": "Bonus for an exact bid",
    }
    assert by_key["canadianRule"]["default"] is False and by_key["canadianRule"]["appName"] is None
    assert {s["key"]: s["default"] for s in doc["settings"]} == {
        "roundMode": "wholeDeck",
        "customRoundCount": 10,
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
    assert [(p["name"], p["builtIn"], p["settings"]) for p in doc["presets"]] == [
        (
            "official",
            True,
            {
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
        ),
        ("doubleZero", True, {"zeroBidScoring": "doubleBonus"}),
        ("screwTheDealer", True, {"screwTheDealer": "always"}),
        ("canadian", True, {"screwTheDealer": "leaderOnly", "canadianRule": True}),
        ("perfectGame", True, {"perfectGameBonus": 50}),
    ]


def test_rules_csv_has_a_row_per_setting_and_preset():
    result = run("rules", "-f", "csv")
    rows = list(csv.reader(io.StringIO(result.stdout)))
    assert rows[0] == ["kind", "name", "default", "allowed", "appName", "meaning", "settings"]
    assert [row[1] for row in rows[1:]] == [
        *KEYS,
        "official",
        "doubleZero",
        "screwTheDealer",
        "canadian",
        "perfectGame",
    ]
    assert rows[6] == [
        "setting",
        "zeroBidScoring",
        "flatBonus",
        "flatBonus, doubleBonus, perCardBonus",
        "Made bid of zero",
        "a made bid of zero scores exactBonus (flatBonus), 2 × exactBonus "
        "(doubleBonus), or exactBonus + pointsPerTrick × hand size (perCardBonus)",
        "",
    ]
    assert rows[-2] == [
        "preset",
        "canadian",
        "",
        "",
        "",
        "the even bid rule, where a dealer bid of zero is always allowed",
        "screwTheDealer=leaderOnly, canadianRule=true",
    ]


def test_rules_lists_the_users_presets_too(write, monkeypatch):
    monkeypatch.chdir(
        write("presets.yaml", "house:\n  exactBonus: 30\n  screwTheDealer: on\n").parent
    )
    path = "presets.yaml"
    doc = json.loads(run("rules", "--presets", path, "-f", "json").stdout)
    assert doc["presets"][-1] == {
        "name": "house",
        "builtIn": False,
        "meaning": f"from {path}",
        "settings": {"exactBonus": 30, "screwTheDealer": "always"},
    }
    result = run("rules", "--presets", path)
    assert result.stdout.endswith(
        "\nhouse           exactBonus=30, screwTheDealer=always               from presets.yaml\n"
    )


def test_rules_with_a_bad_presets_file_fails(write):
    path = write("presets.yaml", "house:\n  exactBonus: 33\n")
    result = run("rules", "--presets", path)
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"{path}:2: preset 'house': setting exactBonus: 33 is not allowed "
        "(allowed: 0–50 in steps of 5)\n"
    )
