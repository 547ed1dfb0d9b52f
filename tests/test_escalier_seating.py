"""SPEC §3 "Other apps' exports", Escalier's seating: ``carryIn`` → ``startScore``, a seat sat
out → ``joins``, ``leaves`` or the round's ``out``, ``banFrom`` → ``screwTheDealer`` with
``dealerRuleFrom``, round 1's dealer → ``firstDealer`` and a later round's dealer → its
``dealer`` where it is not SPEC §1's rotation's; in the JSON export, the CSV export (English and
German) and the share link.

The fixtures are Escalier's own output: ``tests/imports/escalier_seating.mjs`` drives the app's
``model.js`` (``addPlayer`` with a carry-in, a seat's ``out``, ``setDealer``, ``setWithdrawn``)
and writes them with its ``export.js`` and ``share.js``. A five-player club night on 1..7: Eva
joins after round 2 with 30 carried in, Dan sits round 3 out and deals it, round 4's dealer is
pinned to Anna, Cara withdraws after round 5 and is dealt round 6; ``banFrom`` 2.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from helpers import run
from test_other_apps import FIXTURES, IMPORTS

EXPORT = IMPORTS / "escalier-seating.json"
LINK = IMPORTS / "escalier-seating-link.txt"
CSV = FIXTURES / "escalier-seating.csv"
CSV_DE = FIXTURES / "escalier-seating-de.csv"
POINTS = ["--set", "exactBonus=10", "--set", "pointsPerTrick=5", "--set", "missPenalty=5"]
PLAYERS = [
    "Anna",
    "Ben",
    {"name": "Cara", "leaves": 5},
    "Dan",
    {"name": "Eva", "joins": 3, "startScore": 30},
]
# Each round as mapped: the recorded dealer and out, then the seated players' bids and tricks.
ROUNDS = [
    {"bids": [0, 1, 0, 0], "tricks": [0, 1, 0, 0]},
    {"bids": [1, 0, 0, 0], "tricks": [1, 0, 1, 0]},
    {"dealer": "Dan", "out": ["Dan"], "bids": [1, 1, 0, 0], "tricks": [1, 2, 0, 0]},
    {"dealer": "Anna", "bids": [1, 1, 0, 1, 0], "tricks": [1, 1, 1, 1, 0]},
    {"bids": [1, 2, 1, 0, 0], "tricks": [1, 2, 1, 0, 1]},
    {"dealer": "Cara", "bids": [2, 1, 2, 2], "tricks": [2, 1, 2, 1]},
    {"bids": [3, 0, 2, 1], "tricks": [3, 1, 2, 1]},
]


def converted(path: Path, *args: str) -> dict:
    """The one sheet a source holds, as ``wizard convert --to yaml`` writes it."""
    result = run("convert", path, "--to", "yaml", *args)
    assert result.exit_code == 0, result.stderr
    [sheet] = yaml.safe_load_all(result.stdout)
    return sheet


def scored(path: Path, *args: str) -> dict:
    """``wizard score -f json`` of a source's one game (exit 0 asserted)."""
    result = run("score", path, "-f", "json", *args)
    assert result.exit_code == 0, result.stderr
    [game] = (
        json.loads(result.stdout) if result.stdout.startswith("[") else [json.loads(result.stdout)]
    )
    return game


def without_points(rounds: list[dict]) -> list[dict]:
    return [{key: value for key, value in r.items() if key != "points"} for r in rounds]


def export(change=None, name: str = "export.json", tmp_path: Path | None = None) -> Path:
    """The JSON export, changed by ``change`` and written to ``tmp_path``; else the sample."""
    if change is None:
        return EXPORT
    data = json.loads(EXPORT.read_text())
    change(data)
    path = tmp_path / name
    path.write_text(json.dumps(data, indent=2))
    return path


def test_the_json_export_maps_every_seating_field():
    sheet = converted(EXPORT)
    assert sheet["players"] == PLAYERS
    assert sheet["firstDealer"] == "Ben"
    assert sheet["settings"] == {
        "roundMode": "custom",
        "customRoundCount": 7,
        "exactBonus": 10,
        "pointsPerTrick": 5,
        "missPenalty": 5,
        "screwTheDealer": "always",
        "dealerRuleFrom": 2,
    }
    assert without_points(sheet["rounds"]) == ROUNDS
    # the app's own points, for the seated players only, audit clean
    assert sheet["rounds"][2]["points"] == [15, -5, 10, 10]
    result = run("check", EXPORT)
    assert (result.exit_code, result.stderr) == (0, ""), result.stderr


def test_the_game_scores_as_escalier_scored_it():
    """Every player's final total is the one Escalier exported (its ``total``, the start score
    counted in), and every round's dealer the one Escalier recorded, the recorded ones and the
    rotation's alike; Dan and Cara, not seated, score nothing in their rounds."""
    data = json.loads(EXPORT.read_text())
    game = scored(EXPORT)
    totals = {row["player"]: row["score"] for row in game["standings"]}
    assert totals == {player["name"]: player["total"] for player in data["players"]}
    assert [r["dealer"] for r in game["rounds"]] == [r["dealer"] for r in data["rounds"]]
    assert game["status"]["finished"] is True
    third = game["rounds"][2]["results"]
    assert third["Dan"] == {
        "bid": None,
        "tricks": None,
        "points": None,
        "total": 20,
        "seated": False,
    }
    assert game["rounds"][0]["results"]["Eva"]["total"] == 30


@pytest.mark.parametrize("path", [LINK, CSV, CSV_DE], ids=["link", "csv", "csv-de"])
def test_the_share_link_and_the_csv_exports_are_the_same_game(path):
    """The link carries the scoring and no points; the CSV (English or German) no scoring, so
    its typed points check under Escalier's 10/5/5 given with ``--set`` (its seating from the
    second block, its carry-in from the running totals)."""
    sheet = converted(path)
    assert sheet["players"] == PLAYERS and sheet["firstDealer"] == "Ben"
    assert without_points(sheet["rounds"]) == ROUNDS
    if path == LINK:
        assert "points" not in sheet["rounds"][0]
        assert sheet["settings"] == converted(EXPORT)["settings"]
    else:
        assert sheet["settings"] == {"roundMode": "custom", "customRoundCount": 7}
        assert run("check", path, *POINTS).exit_code == 0
        assert path.read_bytes().count(b"\r\n") > 35  # the app's CRLF


@pytest.mark.parametrize(
    "ban, settings",
    [
        (0, {"screwTheDealer": "off"}),
        (1, {"screwTheDealer": "always", "dealerRuleFrom": 1}),
        (2, {"screwTheDealer": "always", "dealerRuleFrom": 2}),
        (7, {"screwTheDealer": "always", "dealerRuleFrom": 7}),
    ],
)
def test_banfrom_is_the_dealer_rule_from_that_many_cards(tmp_path, ban, settings):
    """``banFrom`` N ≥ 1 holds the last bidder from N cards on (model.js ``banApplies``):
    ``dealerRuleFrom: N``. Round 1 (one card) has Ben dealing and making the bids add up to 1:
    allowed from 2 cards on, refused when the rule holds from 1 card (banFrom 1)."""
    path = export(lambda e: e["game"]["scoring"].update(banFrom=ban), tmp_path=tmp_path)
    if ban == 1:
        result = run("check", path)
        assert result.exit_code == 1
        assert (
            f"{path}:1: game g_mjclub7seat01, round 1, Ben: the dealer may not bid 1 under "
            "screwTheDealer=always: "
            "the bids would add up to the hand size of 1"
        ) in result.stderr
        return
    effective = scored(path)["settings"]
    assert {key: effective[key] for key in settings} == settings
    assert effective["dealerRuleFrom"] == settings.get("dealerRuleFrom", 1)


def test_the_last_bidder_takes_the_place_of_a_dealer_sitting_out(tmp_path):
    """Round 3 is dealt by Dan, who sits it out: Cara bids last (Escalier's constrained bidder,
    SPEC §1's player in the dealer's place), so a bid of hers that makes the bids add up to 3 is
    the forbidden one, said for her."""

    def change(data):
        results = {r["player"]: r for r in data["rounds"][2]["results"]}
        results["Cara"].update(bid=1)  # 1 + 1 + 1 + 0 = 3

    path = export(change, tmp_path=tmp_path)
    result = run("check", path)
    assert result.exit_code == 1
    assert "round 3, Cara: the dealer may not bid 1 under screwTheDealer=always" in result.stderr


def test_a_round_in_progress_keeps_its_out_and_pending_rounds_tell_who_left(tmp_path):
    """Round 7 in progress with Ben sitting it out: the round in play's ``out``; Cara, out of
    every round from 6 on, has left after round 5 (the pending rounds' outs count, the rounds
    themselves are dropped); ``next`` names the seated only, in bidding order."""

    def change(data):
        last = data["rounds"][6]
        last["status"] = "in_progress"
        for result in last["results"]:
            result.update(tricks=None, points=None)
            if result["player"] == "Ben":
                result.update(satOut=True, bid=None)
        pending = json.loads(json.dumps(last))
        for result in pending["results"]:
            result.update(satOut=result["player"] == "Cara", bid=None)
        data["rounds"].append(dict(pending, number=8, cards=8, status="pending"))

    path = export(change, tmp_path=tmp_path)
    sheet = converted(path)
    assert sheet["players"][2] == {"name": "Cara", "leaves": 5}
    assert sheet["settings"]["customRoundCount"] == 8
    assert sheet["rounds"][6] == {"out": ["Ben"], "bids": [3, 2, 1]}
    result = run("next", path, "-f", "json")
    assert result.exit_code == 0, result.stderr
    [step] = json.loads(result.stdout)
    assert (step["round"], step["dealer"], step["biddingOrder"]) == (
        7,
        "Dan",
        ["Eva", "Anna", "Dan"],
    )


def test_a_classic_escalier_game_has_no_seating():
    """No carry-in, nobody sat out, every dealer the rotation's: plain players, no round's
    ``dealer`` or ``out`` (the sheet and its scores as before seating was mapped)."""
    sheet = converted(IMPORTS / "escalier-export.json")
    assert sheet["players"] == ["Anna", "Ben", "Cara"]
    assert not any({"dealer", "out"} & set(r) for r in sheet["rounds"])
    assert all(
        "seated" not in cell
        for r in scored(IMPORTS / "escalier-export.json")["rounds"]
        for cell in r["results"].values()
    )


def test_a_player_who_never_sat_is_a_located_problem(tmp_path):
    """Out of every round: joined after the game's last round, which no sheet can say."""

    def change(data):
        for round_ in data["rounds"]:
            for result in round_["results"]:
                if result["player"] == "Eva":
                    result.update(satOut=True, bid=None, tricks=None, points=0)

    lines = run("check", export(change, tmp_path=tmp_path)).stderr.splitlines()
    assert any(
        line.endswith("Eva: joins in round 8, past the 7 rounds the game can have")
        for line in lines
    ), lines


@pytest.mark.parametrize(
    "change, message",
    [
        (
            lambda e: e["rounds"][3].update(cards=5),
            "round 4: Escalier export: deals 5 cards where a Wizard game's round 4 deals 4 "
            "(Escalier's staircase is not 1..N)",
        ),
        (
            lambda e: e["rounds"][6].update(status="skipped"),
            "round 7: Escalier export: skipped in Escalier; no wizard rule skips a round",
        ),
        (
            lambda e: e["rounds"][2]["results"][3].update(adjustment=-5),
            "round 3, Dan: Escalier export: adjustment -5; no wizard rule adjusts a score",
        ),
        (
            lambda e: e["game"]["scoring"].update(strict=True),
            "Escalier export: scoring strict: true (a missed bid still scores its tricks); no wizard "
            "rule says it",
        ),
    ],
)
def test_what_no_wizard_rule_says_is_still_refused_with_seating(tmp_path, change, message):
    """The refusals that remain, in a game with seating (an adjustment on a seat sitting out
    too: Escalier credits it)."""
    lines = run("check", export(change, tmp_path=tmp_path)).stderr.splitlines()
    assert any(line.endswith(message) for line in lines), lines
    assert not any("Traceback" in line for line in lines)
