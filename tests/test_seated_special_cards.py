"""A game with both seating changes and the anniversary cards (SPEC §1 "Who sits at the table"
and "The anniversary editions' special cards"): checked and scored by the seated engine with the
Bomb and the Cloud, shown in the table, and kept by ``convert`` to YAML and JSON and back."""

from __future__ import annotations

from helpers import run, score_json

# Cara leaves after round 4, Eva joins in round 3 with 30, Dan sits round 3 out and Anna deals
# it off the rotation; round 1 has the Bomb (tricks add up to 0), round 2 Ben's Cloud (called
# 1, +1, took 1: scored as a missed 2, -10); round 5 is in play.
BOTH = """\
title: Both
players: [Anna, Ben, {name: Cara, leaves: 4}, Dan, {name: Eva, joins: 3, startScore: 30}]
settings:
  specialCards: true
  roundMode: custom
  customRoundCount: 6
rounds:
  - bids:   [1, 0, 0, 0]
    tricks: [0, 0, 0, 0]
    bomb: true
  - bids:   [1, 1, 0, 1]
    cloud: {Ben: 1}
    tricks: [1, 1, 0, 0]
  - out: [Dan]
    dealer: Anna
    bids:   {Anna: 1, Ben: 1, Cara: 0, Eva: 1}
    tricks: {Anna: 1, Ben: 1, Cara: 0, Eva: 1}
  - bids:   [1, 0, 1, 1, 1]
    tricks: [1, 0, 1, 1, 1]
  - bids:   [2, 1, 1, 1]
"""


def test_a_seated_game_scores_the_bomb_and_the_cloud(write):
    data = score_json(write("both.yaml", BOTH))
    assert [r["bomb"] for r in data["rounds"]] == [True, False, False, False, False]
    ben = data["rounds"][1]["results"]["Ben"]
    assert (ben["bid"], ben["cloud"], ben["tricks"], ben["points"]) == (1, 1, 1, -10)
    assert data["rounds"][0]["results"]["Eva"]["seated"] is False
    assert {s["player"]: s["score"] for s in data["standings"]} == {
        "Anna": 80,
        "Ben": 60,
        "Cara": 90,
        "Dan": 40,
        "Eva": 90,
    }


def test_the_table_of_a_seated_game_shows_the_bomb_the_cloud_and_out(write):
    result = run("score", write("both.yaml", BOTH))
    assert result.exit_code == 0, result.stderr
    rows = result.stdout.splitlines()
    assert "1, bomb" in rows[4] and "out = 30" in rows[4]
    assert "1+1/1 → -10 = 10" in rows[5]


def test_a_seated_game_checks_the_bomb_and_the_cloud(write):
    text = BOTH.replace("tricks: [0, 0, 0, 0]", "tricks: [1, 0, 0, 0]").replace(
        "cloud: {Ben: 1}", "cloud: {Eva: 1}"
    )
    result = run("check", write("both.yaml", text))
    assert result.exit_code == 1
    path = result.stderr.split(":")[0]
    assert result.stderr.splitlines() == [
        f"{path}:9: round 1: tricks add up to 1, 1 more than the 0 of a hand size of 1 with "
        "the Bomb (nobody takes its trick)",
        f"{path}:12: round 2, Eva: the Cloud goes to a player seated in the round, and this "
        "player has not joined yet (joins in round 3)",
    ]


def test_a_seated_game_without_special_cards_names_the_setting(write):
    result = run(
        "check", write("both.yaml", BOTH.replace("specialCards: true", "specialCards: false"))
    )
    assert result.exit_code == 1
    assert "a Bomb is recorded, but specialCards is off" in result.stderr
    assert "a Cloud is recorded, but specialCards is off" in result.stderr


def test_a_cloud_in_play_in_a_seated_game_counts_for_who_can_still_win(write):
    """The bound takes the Cloud recorded in the round in play (SPEC §1): Ben's bid of 1 in a
    1-card round, changed to 0, can earn at most 20 there, where a bid of 1 not yet clouded may
    still be scored as 1 (+30)."""
    from wizard_cli.game.game import score_bounds
    from wizard_cli.game.validation import check_sheet
    from wizard_cli.sheets.formats import read_sheets

    text = """\
players: [Anna, Ben, Cara, {name: Dan, joins: 2}]
settings: {specialCards: true, roundMode: custom, customRoundCount: 2}
rounds:
  - bids: [0, 1, 0]
    cloud: {Ben: -1}
"""
    bounds = []
    for sheet_text in (text, text.replace("    cloud: {Ben: -1}\n", "")):
        (sheet,) = read_sheets(str(write("s.yaml", sheet_text)))
        checked = check_sheet(sheet)
        assert checked.problems == []
        bounds.append(score_bounds(checked.validated.result))
    (clouded, clouded_least), (open_, open_least) = bounds
    assert open_[1] - clouded[1] == 10
    assert clouded_least[1] == open_least[1]


def test_convert_to_yaml_and_json_and_back_keeps_everything(write, tmp_path):
    source = write("both.yaml", BOTH)
    expected = score_json(source)
    for target in ("yaml", "json"):
        out = tmp_path / f"back.{target}"
        result = run("convert", source, "--to", target, "-o", out)
        assert (result.exit_code, result.stderr) == (0, ""), result.stderr
        text = out.read_text()
        assert "bomb" in text and "Ben" in text and "cloud" in text
        assert score_json(out) == {**expected, "source": str(out)}
        again = tmp_path / f"again.{target}"
        assert run("convert", out, "--to", target, "-o", again).exit_code == 0
        assert again.read_text() == text


IN_PLAY_WITH_ONE_OUT = """\
players: [Anna, Ben, Cara, Dan, Eva]
settings: {specialCards: true}
rounds:
  - out: [Eva]
    bids: [1, 0, 0, 0]
"""


def test_add_records_the_bomb_and_the_cloud_with_the_seated_players_tricks(tmp_path):
    """Before: ``--tricks`` by name with ``--bomb`` or ``--cloud`` in a round someone sat out
    was an internal error (KeyError), and a list of the seated players' tricks was refused as
    "4 values for 5 players" (SPEC §5: a list of every seated player's values)."""
    by_name, listed, cloud = (tmp_path / f"{name}.yaml" for name in ("a", "b", "c"))
    for path in (by_name, listed, cloud):
        path.write_text(IN_PLAY_WITH_ONE_OUT)
    result = run("add", by_name, "--tricks", "Anna=0,Ben=0,Cara=0,Dan=0", "--bomb", "-q")
    assert (result.exit_code, result.stderr) == (0, "")
    result = run("add", listed, "--tricks", "0,0,0,0", "--bomb", "-q")
    assert (result.exit_code, result.stderr) == (0, "")
    assert (
        by_name.read_text()
        == listed.read_text()
        == IN_PLAY_WITH_ONE_OUT + ("    tricks: [0, 0, 0, 0]\n    bomb: true\n")
    )
    result = run("add", cloud, "--tricks", "1,0,0,0", "--cloud", "Anna=-1", "-q")
    assert (result.exit_code, result.stderr) == (0, "")
    anna = score_json(cloud)["rounds"][0]["results"]["Anna"]
    assert (anna["bid"], anna["cloud"], anna["tricks"], anna["points"]) == (1, -1, 1, -10)
    fresh = tmp_path / "d.yaml"
    fresh.write_text(IN_PLAY_WITH_ONE_OUT)
    refused = run("add", fresh, "--tricks", "0,0,0,0,0", "--bomb")
    assert refused.exit_code == 1 and "5 values for 4 players" in refused.stderr
