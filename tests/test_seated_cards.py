"""The anniversary cards in a game whose seating changes (SPEC §1: "Every other rule applies
unchanged, with the changed bid wherever a bid is scored"): a Cloud's changed bid is what the
seated game scores and counts, a Bomb round's tricks add up to one less than its hand, and a
recorded card without ``specialCards`` is the usual problem, exactly as in a game with no
seating change."""

from __future__ import annotations

import json

from helpers import run

SEATED_CARDS = """\
players: [Anna, Ben, Cara, {name: Dan, joins: 2}]
settings:
  specialCards: true
  roundMode: custom
  customRoundCount: 3
rounds:
  - bids: {Anna: 0, Ben: 0, Cara: 0}
    tricks: {Anna: 1, Ben: 0, Cara: 0}
    cloud: {Anna: 1}
  - bids: [0, 1, 0, 1]
    tricks: [0, 0, 0, 1]
    bomb: true
  - bids: [1, 0, 0, 1]
    tricks: [1, 0, 0, 2]
"""


def test_a_seated_game_scores_the_clouds_changed_bid_and_takes_the_bombs_round(tmp_path):
    path = tmp_path / "cards.yaml"
    path.write_text(SEATED_CARDS)
    result = run("score", path, "-f", "json")
    assert result.exit_code == 0, result.output
    game = json.loads(result.stdout)
    first, second = game["rounds"][0], game["rounds"][1]
    assert first["results"]["Anna"] == {"bid": 0, "tricks": 1, "points": 30, "total": 30,
                                        "cloud": 1, "seated": True}
    assert second["bomb"] is True and second["results"]["Ben"]["points"] == -10
    assert [(s["player"], s["score"]) for s in game["standings"]] == [
        ("Anna", 80), ("Cara", 60), ("Ben", 30), ("Dan", 20)]
    table = run("score", path)
    assert table.exit_code == 0 and "0+1/1 → +30 = 30" in table.stdout
    assert "out = 0" in table.stdout and "2, bomb" in table.stdout
    stats = run("stats", path, "-f", "json")
    anna = next(row for row in json.loads(stats.stdout) if row["player"] == "Anna")
    assert anna["bidAccuracy"] == 1.0  # the Cloud's changed bid, made


def test_a_seated_games_card_without_special_cards_is_the_usual_problem(tmp_path):
    path = tmp_path / "cards.yaml"
    path.write_text(SEATED_CARDS.replace("specialCards: true", "specialCards: false"))
    result = run("check", path)
    assert result.exit_code == 1
    assert f"{path}:9: round 1, Anna: a Cloud is recorded, but specialCards is off" in result.stderr
    assert f"{path}:12: round 2: a Bomb is recorded, but specialCards is off" in result.stderr
    assert result.stderr.count("\n") == 2  # the two problems and nothing else, as unseated
