"""The anniversary editions' special cards (``specialCards``) and ``dealerRuleFrom`` (SPEC §1,
§2, §3, §4, §5): read from YAML and CSV, checked with located problems, scored by the one
engine, shown in the table and JSON, and kept by ``convert``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import problems, run, score_json
from hypothesis import given, settings
from hypothesis import strategies as st

from wizard_cli.game.game import score_game
from wizard_cli.game.model import RoundRecord, Sheet
from wizard_cli.game.settings import RawSetting
from wizard_cli.game.validation import check_sheet

ROOT = Path(__file__).resolve().parent.parent
ANNIVERSARY = ROOT / "sample_sheets" / "anniversary.yaml"

# Three rounds of three players: round 2 the Bomb (tricks add up to 1), round 3 Anna's Cloud
# (bid 1, +1, took 2: scored as a made 2, +40).
SHEET = """\
players: [Anna, Ben, Cara]
settings: {specialCards: true, roundMode: custom, customRoundCount: 3}
rounds:
  - bids:   [0, 1, 0]
    tricks: [0, 1, 0]
  - bids:   [1, 0, 0]
    tricks: [1, 0, 0]
    bomb: true
  - bids:   [1, 1, 1]
    cloud:  {Anna: +1}
    tricks: [2, 1, 0]
"""


# --- scoring and output ---------------------------------------------------------------------


def test_the_table_shows_the_cloud_and_the_bomb(write):
    path = write("s.yaml", SHEET)
    result = run("score", path)
    assert result.exit_code == 0, result.stderr
    rows = result.stdout.splitlines()
    assert rows[5].split() == [
        "2",
        "2,",
        "bomb",
        "Ben",
        "1/1",
        "→",
        "+30",
        "=",
        "50",
        "0/0",
        "→",
        "+20",
        "=",
        "50",
        "0/0",
        "→",
        "+20",
        "=",
        "40",
    ]
    assert "1+1/2 → +40 = 90" in rows[6]  # SPEC §5's cell: bid called, change, tricks
    assert "Game over — Anna wins" in result.stdout


def test_score_json_has_bomb_and_cloud_in_a_special_game(write):
    data = score_json(write("s.yaml", SHEET))
    assert [r["bomb"] for r in data["rounds"]] == [False, True, False]
    assert list(data["rounds"][0]) == ["round", "handSize", "dealer", "bomb", "results"]
    third = data["rounds"][2]["results"]
    assert third["Anna"] == {"bid": 1, "tricks": 2, "points": 40, "total": 90, "cloud": 1}
    assert third["Ben"]["cloud"] is None and third["Cara"]["cloud"] is None
    assert data["settings"]["specialCards"] is True


def test_a_classic_game_has_no_bomb_or_cloud_keys_but_the_two_settings(write):
    data = score_json(ROOT / "sample_sheets" / "worked-example.yaml")
    assert "bomb" not in data["rounds"][0]
    assert list(data["rounds"][0]["results"]["Anna"]) == ["bid", "tricks", "points", "total"]
    keys = list(data["settings"])
    assert keys[keys.index("canadianRule") + 1] == "dealerRuleFrom" and keys[-1] == "specialCards"
    assert (data["settings"]["dealerRuleFrom"], data["settings"]["specialCards"]) == (1, False)


def test_the_bid_as_called_stays_for_the_dealer_rule_and_the_penalty(write):
    """SPEC §1: the dealer restriction and balancedBidPenalty judge the bids as called; the
    round is scored with the changed bid. Round 1: Anna deals, bids called 0+1+0 = 1 = the hand
    size (the penalty), Ben's Cloud makes his 1 a 0 and he took none: a made zero."""
    path = write(
        "s.yaml",
        """\
players: [Anna, Ben, Cara]
settings: {specialCards: true, balancedBidPenalty: 10, roundMode: custom, customRoundCount: 1}
rounds:
  - bids: [0, 1, 0]
    tricks: [1, 0, 0]
    cloud: {Anna: 1}
""",
    )
    results = score_json(path)["rounds"][0]["results"]
    # Anna called 0, the Cloud made it 1, she took 1: 30, less the dealer's 10.
    assert [results[name]["points"] for name in ("Anna", "Ben", "Cara")] == [20, -10, 20]


def test_the_last_round_has_a_trump_with_special_cards(write):
    text = "players: [A, B, C, D, E, F]\nsettings: {roundMode: quickPlay%s}\nrounds:\n" + "".join(
        f"  - bids: [0, 0, 0, 0, 0, 0]\n    tricks: [{size}, 0, 0, 0, 0, 0]\n"
        for size in (2, 4, 6, 8)
    )
    classic = json.loads(run("next", write("c.yaml", text % ""), "-f", "json").stdout)
    special = json.loads(
        run("next", write("s.yaml", text % ", specialCards: true"), "-f", "json").stdout
    )
    assert (classic["handSize"], classic["noTrump"]) == (10, True)
    assert (special["handSize"], special["noTrump"]) == (10, False)
    human = run("next", write("s2.yaml", text % ", specialCards: true")).stdout
    assert "no trump" not in human and "Hand size:" in human


def test_score_sample_anniversary_sheet():
    data = score_json(ANNIVERSARY)
    assert data["status"]["finished"] is True
    assert sum(r["bomb"] for r in data["rounds"]) == 1
    assert (
        sum(res["cloud"] is not None for r in data["rounds"] for res in r["results"].values()) == 1
    )


# --- validation -----------------------------------------------------------------------------


def test_a_bomb_or_a_cloud_without_special_cards_names_the_setting(write):
    path = write("s.yaml", SHEET.replace("specialCards: true, ", ""))
    assert problems(path) == [
        f"{path}:8: round 2: a Bomb is recorded, but specialCards is off (set specialCards: true "
        "for the anniversary editions' special cards)",
        f"{path}:10: round 3, Anna: a Cloud is recorded, but specialCards is off (set "
        "specialCards: true for the anniversary editions' special cards)",
    ]
    assert run("check", path, "--set", "specialCards=true").exit_code == 0


def test_tricks_with_the_bomb_add_up_to_one_less(write):
    path = write("s.yaml", SHEET.replace("tricks: [1, 0, 0]", "tricks: [1, 1, 0]"))
    assert problems(path) == [
        f"{path}:7: round 2: tricks add up to 2, 1 more than the 1 of a hand size of 2 with the "
        "Bomb (nobody takes its trick)"
    ]


def test_every_problem_of_a_cloud_is_located(write):
    path = write(
        "s.yaml",
        """\
players: [Anna, Ben, Cara]
settings: {specialCards: true, roundMode: custom, customRoundCount: 6}
rounds:
  - bids: [0, 1, 0]
    tricks: [0, 1, 0]
    cloud: {Anna: 1}
  - bids: [2, 0, 0]
    tricks: [1, 1, 0]
    cloud: {Anna: 1}
  - bids: [0, 1, 0]
    tricks: [1, 1, 1]
    cloud: {Anna: 2}
  - bids: [0, 1, 0]
    tricks: [1, 1, 2]
    cloud: {Anna: 1, Ben: -1}
  - bids: [0, 1, 0]
    tricks: [1, 1, 3]
    cloud: {Ann: 1}
  - bids: {Anna: 1}
    cloud: {Anna: -1}
""",
    )
    assert problems(path) == [
        f"{path}:6: round 1, Anna: the Cloud goes to the player who took its trick, but this "
        "player took no trick",
        f"{path}:9: round 2, Anna: the Cloud changes the bid 2 to 3, outside 0..2 (the hand size)",
        f"{path}:12: round 3, Anna: the Cloud changes a bid by 1 or -1, not 2",
        f"{path}:15: round 4: cloud names 2 players; the Cloud changes one player's bid",
        f"{path}:18: round 5: cloud names unknown player 'Ann' (did you mean 'Anna'?)",
        f"{path}:20: round 6, Anna: the Cloud is recorded once every bid of the round is in",
    ]


@pytest.mark.parametrize(
    "written, change",
    [('"+1"', "+1"), ("'+1'", "+1"), ('"1"', "1"), ('"-1"', "-1"), ('"−1"', "-1")],
)
def test_a_quoted_cloud_change_reads_as_the_number(write, written, change):
    """SPEC §3: the Cloud's change is 1 or -1, ``+1`` read as 1; quoted, as the CSV readers take
    the text (the Unicode minus too). It was refused: "… by 1 or -1, not +1"."""
    quoted = write("quoted.yaml", SHEET.replace("{Anna: +1}", "{Anna: " + written + "}"))
    plain = write("plain.yaml", SHEET.replace("{Anna: +1}", "{Anna: " + change + "}"))
    assert score_json(quoted)["rounds"] == score_json(plain)["rounds"]


@pytest.mark.parametrize("written", ['"+2"', '"0"', '" +1"', '"+1.0"', '"one"', '""'])
def test_any_other_quoted_cloud_change_is_still_refused(write, written):
    path = write("s.yaml", SHEET.replace("{Anna: +1}", "{Anna: " + written + "}"))
    shown = written.strip('"')
    assert problems(path) == [
        f"{path}:10: round 3, Anna: the Cloud changes a bid by 1 or -1, not {shown}"
    ]


def test_a_bomb_in_the_round_in_play_and_a_bad_bomb_value(write):
    path = write(
        "s.yaml",
        """\
players: [Anna, Ben, Cara]
settings: {specialCards: true}
rounds:
  - bids: [0, 1, 0]
    tricks: [0, 0, 0]
    bomb: maybe
  - bids: [0, 1, 0]
    bomb: true
""",
    )
    assert problems(path) == [
        f"{path}:5: round 1: tricks add up to 0, 1 short of the hand size of 1",
        f"{path}:6: round 1: bomb must be true or false, not 'maybe'",
        f"{path}:8: round 2: the Bomb is recorded with the round's tricks, not before them",
    ]


def test_a_cloud_in_the_round_in_play_once_every_bid_is_in(write):
    path = write(
        "s.yaml",
        """\
players: [Anna, Ben, Cara]
settings: {specialCards: true}
rounds:
  - bids: [1, 0, 0]
    cloud: {Anna: -1}
""",
    )
    data = score_json(path)
    assert data["rounds"][0]["results"]["Anna"]["cloud"] == -1
    assert run("score", path).stdout.splitlines()[4].split()[3] == "1-1/?"


# --- dealerRuleFrom -------------------------------------------------------------------------


def test_the_dealer_rule_only_from_a_hand_size_on(write):
    text = """\
players: [Anna, Ben, Cara]
settings: {screwTheDealer: always, dealerRuleFrom: %d}
rounds:
  - bids: [1, 0, 0]
    tricks: [1, 0, 0]
  - bids: [1, 1, 0]
    tricks: [1, 1, 0]
"""
    path = write("s.yaml", text % 2)
    # Round 1 deals 1 card: no restriction; round 2 deals 2: Ben deals and may not bid 1.
    assert problems(path) == [
        f"{path}:6: round 2, Ben: the dealer may not bid 1 under screwTheDealer=always: the bids "
        "would add up to the hand size of 2"
    ]
    first = problems(write("t.yaml", text % 1))[0]
    assert first.startswith(f"{path.parent}/t.yaml:4: round 1, Anna")
    assert run("check", write("u.yaml", text % 3)).exit_code == 0
    first = json.loads(
        run(
            "next",
            write("n.yaml", text.split("rounds:")[0] % 2 + "rounds:\n  - bids: [null, 0, 0]\n"),
            "-f",
            "json",
        ).stdout
    )
    assert first["forbiddenDealerBid"] is None  # a one-card round, under dealerRuleFrom: 2


def test_dealer_rule_from_is_a_checked_setting(write):
    path = write("s.yaml", "players: [A, B, C]\nsettings: {dealerRuleFrom: 0}\n")
    assert problems(path) == [
        f"{path}:2: setting dealerRuleFrom: 0 is not allowed (allowed: 1–20 in steps of 1)"
    ]


# --- compare, rules -------------------------------------------------------------------------


def test_a_preset_naming_special_cards_is_refused(write):
    presets = write("p.yaml", "mine:\n  specialCards: true\n")
    result = run("compare", ANNIVERSARY, "--presets", presets, "--preset", "mine")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"{presets}:2: preset 'mine': specialCards cannot be set in a preset (presets change "
        "scoring and bidding rules, never how the cards were dealt)\n"
    )


def test_rules_lists_the_two_settings():
    doc = json.loads(run("rules", "-f", "json").stdout)
    by_key = {s["key"]: s for s in doc["settings"]}
    assert (
        by_key["dealerRuleFrom"]["default"],
        by_key["dealerRuleFrom"]["minimum"],
        by_key["dealerRuleFrom"]["maximum"],
    ) == (1, 1, 20)
    assert by_key["specialCards"]["type"] == "bool"


# --- CSV and convert ------------------------------------------------------------------------


def test_a_long_csv_in_german_carries_the_bomb_and_the_cloud(write):
    path = write(
        "s.csv",
        "Runde,Spieler,Ansage,Stiche,Bombe,Wolke\n"
        "1,A,0,0,,\n1,B,1,1,,\n1,C,0,0,,\n"
        "2,A,1,1,nein,\n2,B,0,0,ja,\n2,C,0,0,,\n"
        "3,A,1,2,,+1\n3,B,1,1,,\n3,C,1,0,,\n",
    )
    data = json.loads(
        run(
            "score", path, "--set", "roundMode=custom", "--set", "customRoundCount=3", "-f", "json"
        ).stdout
    )
    assert data["settings"]["specialCards"] is True  # implied by the Bomb (SPEC §3)
    assert [r["bomb"] for r in data["rounds"]] == [False, True, False]
    assert data["rounds"][2]["results"]["A"] == {
        "bid": 1,
        "tricks": 2,
        "points": 40,
        "total": 90,
        "cloud": 1,
    }
    refused = run(
        "check",
        path,
        "--set",
        "roundMode=custom",
        "--set",
        "customRoundCount=3",
        "--set",
        "specialCards=false",
    )
    assert refused.exit_code == 1
    assert refused.stderr.splitlines()[0] == (
        f"{path}:6: round 2: a Bomb is recorded, but specialCards is off (set specialCards: true "
        "for the anniversary editions' special cards)"
    )


def test_csv_special_cells_that_are_no_value_are_located(write):
    path = write(
        "s.csv", "round,player,bid,tricks,bomb,cloud\n1,A,0,0,maybe,\n1,B,1,1,,2\n1,C,0,0,,\n"
    )
    assert problems(path, "--set", "roundMode=custom", "--set", "customRoundCount=1") == [
        f"{path}:2: round 1, A: bomb 'maybe' is not yes or no (yes, y, x, 1, true, ja; no, n, "
        "0, false, nein or empty)",
        f"{path}:3: round 1, B: the Cloud changes a bid by +1 or -1, not '2'",
    ]


def test_convert_keeps_the_bomb_and_the_cloud_both_ways(tmp_path):
    want = run("standings", ANNIVERSARY, "-f", "json").stdout
    for target in ("yaml", "json", "csv", "wide-csv"):
        out = tmp_path / f"a.{target}"
        result = run("convert", ANNIVERSARY, "--to", target, "-o", out)
        assert result.exit_code == 0, result.stderr
        assert "specialCards" not in result.stderr  # implied by the CSV's Bomb, not dropped
        again = tmp_path / f"b.{target}"
        assert run("convert", out, "--to", target, "-o", again).exit_code == 0
        assert again.read_text() == out.read_text(), target
        got = json.loads(run("standings", out, "-f", "json").stdout)
        assert got["standings"] == json.loads(want)["standings"], target
        assert got["status"] == json.loads(want)["status"], target
    wide = (tmp_path / "a.wide-csv").read_text().splitlines()
    assert wide[0].endswith(",bomb") and ",1+1/2," in wide[9]


# --- the invariants (hypothesis) ------------------------------------------------------------


@st.composite
def games(draw):
    """A finished custom game of 3–6 players under drawn rules, with a Bomb and a Cloud drawn
    for some rounds (each legal), as rounds of (bids, tricks, bomb, cloud)."""
    count = draw(st.integers(3, 6))
    rounds = draw(st.integers(1, 60 // count if 60 // count < 6 else 6))
    rules = {
        "roundMode": "custom",
        "customRoundCount": rounds,
        "specialCards": True,
        "zeroBidScoring": draw(st.sampled_from(["flatBonus", "doubleBonus", "perCardBonus"])),
        "balancedBidPenalty": draw(st.sampled_from([0, 10])),
        "finalRoundBonus": draw(st.sampled_from([0, 20])),
        "perfectGameBonus": draw(st.sampled_from([0, 50])),
        "tieBreak": draw(st.sampled_from(["shareWin", "totalBids", "madeBids"])),
    }
    made = []
    for size in range(1, rounds + 1):
        bomb = draw(st.booleans())
        tricks = [0] * count
        for _ in range(size - bomb):
            tricks[draw(st.integers(0, count - 1))] += 1
        bids = [draw(st.integers(0, size)) for _ in range(count)]
        takers = [seat for seat in range(count) if tricks[seat]]
        cloud = None
        if takers and draw(st.booleans()):
            seat = draw(st.sampled_from(takers))
            changes = [c for c in (1, -1) if 0 <= bids[seat] + c <= size]
            cloud = (seat, draw(st.sampled_from(changes)))
        made.append((bids, tricks, bomb, cloud))
    return count, rules, made


def scored(count, rules, made, specials=True):
    """The game as the engine checks and scores it (the special cards left out unless
    ``specials``): its result, or the problems."""
    names = [f"P{seat}" for seat in range(count)]
    records = []
    for number, (bids, tricks, bomb, cloud) in enumerate(made, 1):
        record = RoundRecord(
            number, number, list(bids), [number] * count, list(tricks), [number] * count
        )
        if specials:
            record.bomb, record.cloud = bomb, cloud
        records.append(record)
    sheet = Sheet("g.yaml", players=names, rounds=records)
    checked = check_sheet(sheet, [[RawSetting(k, v) for k, v in rules.items()]])
    return checked.validated and score_game(checked.validated), checked.problems


@settings(max_examples=150, deadline=None)
@given(games())
def test_a_cloud_changes_only_its_players_points(game):
    count, rules, made = game
    with_clouds, found = scored(count, rules, made)
    assert not found, found
    for index, (_bids, _tricks, bomb, cloud) in enumerate(made):
        if cloud is None:
            continue
        without = [
            (b, t, bomb, c if i != index else None) for i, (b, t, bomb, c) in enumerate(made)
        ]
        other, _ = scored(count, rules, without)
        if other is None:
            continue
        mine = with_clouds.scored.points[index * count : (index + 1) * count]
        theirs = other.scored.points[index * count : (index + 1) * count]
        assert [seat for seat in range(count) if mine[seat] != theirs[seat]] in ([], [cloud[0]])
        # Every other round's points are the same.
        assert all(
            with_clouds.scored.points[i] == other.scored.points[i]
            for i in range(len(other.scored.points))
            if i // count != index
        )


@settings(max_examples=150, deadline=None)
@given(games())
def test_tricks_add_up_with_the_bomb(game):
    count, rules, made = game
    result, found = scored(count, rules, made)
    assert not found, found
    assert result is not None
    for size, (_, tricks, bomb, _) in enumerate(made, 1):
        assert sum(tricks) == size - bomb
    # Taking the Bomb away (its trick not given to anyone) leaves a round one short.
    bombed = [index for index, (_, _, bomb, _) in enumerate(made) if bomb]
    if bombed:
        index = bombed[0]
        unbombed = [(b, t, bomb and i != index, c) for i, (b, t, bomb, c) in enumerate(made)]
        _, found = scored(count, rules, unbombed)
        assert any(p.round == index + 1 and "short of the hand size" in p.message for p in found)


@settings(max_examples=150, deadline=None)
@given(games())
def test_a_game_with_no_special_card_scores_as_before(game):
    count, rules, made = game
    plain = []
    for bids, tricks, bomb, _ in made:
        tricks = list(tricks)
        tricks[0] += bomb  # the Bomb's trick given to seat 0: a classic round
        plain.append((bids, tricks, False, None))
    special, found = scored(count, rules, plain)
    assert not found
    classic, _ = scored(count, dict(rules, specialCards=False), plain)
    assert [(s.player, s.rank, s.score, s.bonus) for s in special.standings] == [
        (s.player, s.rank, s.score, s.bonus) for s in classic.standings
    ]
    assert special.scored.points == classic.scored.points
    assert classic.scored.clouds is None and special.scored.clouds is None


# --- add, edit, undo ----------------------------------------------------------------------

BLANK = """\
players: [Anna, Ben, Cara]
settings: {specialCards: true, roundMode: custom, customRoundCount: 3}
rounds: []
"""


def test_add_then_undo_the_bomb_and_the_cloud_restores_every_step(write):
    path = write("s.yaml", BLANK)
    steps = [
        ["--bids", "0,1,0"],
        ["--tricks", "0,0,0", "--bomb"],
        ["--bids", "1,1,0"],
        ["--cloud", "ben=+1"],
        ["--tricks", "0,2,0"],
        ["--bids", "1,1,1"],
        ["--tricks", "2,0,0", "--cloud", "Anna=1", "--bomb"],
    ]
    texts = [path.read_text()]
    for step in steps:
        result = run("add", path, *step, "-q")
        assert (result.exit_code, result.stderr) == (0, ""), (step, result.stderr)
        texts.append(path.read_text())
    assert texts[2].endswith("    tricks: [0, 0, 0]\n    bomb: true\n")
    assert "    cloud: {Ben: 1}\n    tricks: [0, 2, 0]\n" in texts[5]
    assert texts[7].endswith("    tricks: [2, 0, 0]\n    bomb: true\n    cloud: {Anna: 1}\n")
    data = score_json(path)
    assert data["rounds"][2]["results"]["Anna"] == {
        "bid": 1,
        "tricks": 2,
        "points": 40,
        "total": 50,
        "cloud": 1,
    }
    for text in reversed(texts[:-1]):
        said = run("undo", path, "-q")
        assert said.exit_code == 0, said.stderr
        assert path.read_text() == text
    assert run("undo", path).exit_code == 1


def test_undo_says_what_it_took_back(write):
    path = write("s.yaml", BLANK + "")
    run("add", path, "--bids", "1,0,0", "-q")
    run("add", path, "--cloud", "Anna=-1", "-q")
    result = run("undo", path, "-q")
    assert result.exit_code == 0 and "cloud" not in path.read_text()
    run("add", path, "--tricks", "1,0,0", "--cloud", "Anna=-1", "-q")
    assert "the Cloud goes to" not in path.read_text()
    result = run("undo", path)
    assert result.stderr.splitlines()[0] == (
        f"{path}: round 1: removed its tricks (Anna 1, Ben 0, Cara 0): the round is in play "
        "again, and the Cloud (Anna -1)"
    )


def test_a_refused_add_writes_nothing(write):
    path = write("s.yaml", BLANK)
    run("add", path, "--bids", "0,1,0", "-q")
    before = path.read_text()
    for options, message in [
        (
            ["--tricks", "0,1,0", "--bomb"],
            "round 1: tricks add up to 1, 1 more than the 0 "
            "of a hand size of 1 with the Bomb (nobody takes "
            "its trick)",
        ),
        (
            ["--cloud", "Anna=+1", "--tricks", "0,1,0"],
            "round 1, Anna: the Cloud goes to the player who took its trick, but this player "
            "took no trick",
        ),
        (
            ["--cloud", "Ben=+2"],
            "--cloud Ben=+2: give the player and the change of their bid, NAME=+1 or NAME=-1",
        ),
        (["--bomb", "--bids", "0,1,0"], "--bomb is recorded with the round's --tricks"),
    ]:
        result = run("add", path, *options)
        assert result.exit_code == 1, options
        assert result.stderr.splitlines()[0].endswith(message), result.stderr
        assert path.read_text() == before
    early = write("e.yaml", BLANK)
    run("add", early, "--bids", "Ben=1", "-q")
    result = run("add", early, "--cloud", "Ben=1")
    assert result.stderr == (
        f"{early}: round 1: the Cloud is recorded once every bid of the "
        "round is in (Cara bids next)\n"
    )
    classic = write("c.yaml", "players: [Anna, Ben, Cara]\nrounds:\n  - bids: [0, 1, 0]\n")
    result = run("add", classic, "--tricks", "0,0,0", "--bomb")
    assert result.exit_code == 1 and "specialCards: true" in result.stderr


def test_edit_gives_and_takes_the_bomb_and_the_cloud(write):
    path = write("s.yaml", SHEET)
    result = run("edit", path, "--round", "2", "--no-bomb", "--tricks", "1,1,0")
    assert result.exit_code == 0, result.stderr
    assert result.stderr.splitlines() == [
        f"{path}: round 2, Ben: tricks 0 → 1",
        f"{path}: round 2: bomb true → false",
    ]
    result = run("edit", path, "--round", "3", "--cloud", "Ben=-1", "-q")
    assert result.exit_code == 0, result.stderr
    assert "cloud:  {Ben: -1}" in path.read_text()
    before = path.read_text()
    refused = run("edit", path, "--round", "3", "--cloud", "Cara=1")
    assert refused.exit_code == 1 and path.read_text() == before
    assert "Cara: the Cloud goes to the player who took its trick" in refused.stderr
    result = run("edit", path, "--round", "3", "--no-cloud")
    assert result.stderr.splitlines() == [f"{path}: round 3: cloud Ben -1 → none"]
    assert "cloud" not in path.read_text()


def test_who_can_still_win_widens_for_a_cloud_in_the_round_in_play(write):
    """SPEC §1: with specialCards a bid recorded in the round in play may yet be scored as
    b − 1, b or b + 1 within the hand; the bound takes the widest. A recorded Cloud fixes it."""
    from wizard_cli.game.game import score_bounds
    from wizard_cli.sheets.formats import read_sheets

    class wizard_cli:  # noqa: N801 - one sheet read and checked, as the CLI does
        @staticmethod
        def load(path):
            return check_sheet(next(iter(read_sheets(str(path))))).validated

    text = (
        "players: [Anna, Ben, Cara]\nsettings: {roundMode: custom, customRoundCount: 2%s}\n"
        "rounds:\n  - bids: [1, 0, 0]\n    tricks: [1, 0, 0]\n  - bids: [1, 0, 1]\n%s"
    )
    classic = score_bounds(wizard_cli.load(write("c.yaml", text % ("", ""))).result)
    special = score_bounds(
        wizard_cli.load(write("s.yaml", text % (", specialCards: true", ""))).result
    )
    # Anna (bid 1 of 2): made 1 is 30, made 2 is 40; missed by 1 or 2 at most 10 or 20.
    assert (classic[0][0], special[0][0]) == (30 + 30, 30 + 40)
    assert (classic[1][0], special[1][0]) == (30 - 10, 30 - 20)
    clouded = score_bounds(
        wizard_cli.load(
            write("d.yaml", text % (", specialCards: true", "    cloud: {Ben: 1}\n"))
        ).result
    )
    assert clouded[0][1] == 20 + 30  # Ben's bid is 1 now: made, 30
    assert clouded[0][0] == 30 + 30  # the round's one Cloud is spent: Anna's bid stays 1


# --- play -----------------------------------------------------------------------------------

PLAYED = [
    "play",
    "g.yaml",
    "--players",
    "Anna,Ben,Cara",
    "--set",
    "specialCards=true",
    "--set",
    "roundMode=custom",
    "--set",
    "customRoundCount=2",
]


def test_play_asks_bomb_or_cloud_once_the_bids_are_in(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    # Round 1 (Anna deals 1): the Bomb, nobody takes a trick. Round 2 (Ben deals 2): the Cloud
    # to Cara (bid 0, +1), typed wrong first (no such player), then undone at the first trick
    # count and answered again; the tricks then add up to 2.
    typed = "0 1 0\nb\n0\n0\n\n1 0 1\nc Cora +1\nc cara +1\nundo\nc Cara 1\n1 1\n\n"
    result = run(*PLAYED, input=typed)
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "Bomb or Cloud? (b, c NAME +1|-1, Enter for neither): b\n" in out
    assert "Anna took [0]: \n" in out  # the rest offered counts the Bomb: 1 − 1 − 0 − 0
    assert result.stderr.splitlines()[0].startswith("unknown player 'Cora'")
    assert "round 2: removed the Cloud (Cara +1)" in result.stderr
    text = (tmp_path / "g.yaml").read_text()
    assert text.endswith(
        "    tricks: [0, 0, 0]\n    bomb: true\n"
        "  - bids:   [0, 1, 1]\n    cloud: {Cara: 1}\n    tricks: [1, 0, 1]\n"
    )
    assert "Game over" in out


def test_play_through_a_terminal_with_the_bomb_and_the_cloud(tmp_path):
    from helpers import Terminal

    with Terminal(PLAYED, cwd=tmp_path) as tty:
        tty.read_until(b"Ben bids: ")
        tty.type(b"0 1 0\n")
        tty.read_until(b"Bomb or Cloud? (b, c NAME +1|-1, Enter for neither): ")
        tty.type(b"b 0 0\n")
        tty.read_until(b"Anna took [0]: ")
        tty.type(b"\n")
        tty.read_until(b"Round 2 of 2: Ben deals 2")
        tty.type(b"1 0 1 b c Cara +1 1 0\n")  # the bids, the Bomb and the Cloud, two counts
        tty.read_until(b"Ben took [0]: ")  # the rest: 2 − 1 (the Bomb) − 1 − 0
        tty.type(b"\n")
        tty.read_until(b"Game over")
    assert tty.exit_code == 0, bytes(tty.seen)
    text = (tmp_path / "g.yaml").read_text()
    assert text.endswith(
        "  - bids:   [0, 1, 1]\n    cloud: {Cara: 1}\n    tricks: [0, 0, 1]\n    bomb: true\n"
    )


def test_stats_count_the_bid_as_the_cloud_changed_it(write):
    """SPEC §1: stats' made bids, accuracy and over/under use the changed bid."""
    path = write("s.yaml", SHEET)
    rows = {row["player"]: row for row in json.loads(run("stats", path, "-f", "json").stdout)}
    # Anna: round 1 0/0 made, round 2 1/1 made, round 3 1+1/2 made: every bid.
    assert rows["Anna"]["bidAccuracy"] == 1.0
    by_hand = json.loads(run("stats", path, "--by", "handSize", "-f", "json").stdout)
    anna = {row["handSize"]: row for row in by_hand if row["player"] == "Anna"}
    assert anna[3]["made"] == 1


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["", "", "x", "no", "ja", "maybe"]),
            st.sampled_from(["", "", "", "+1", "-1", "2"]),
        ),
        min_size=9,
        max_size=9,
    ),
    st.booleans(),
)
def test_a_long_csv_places_the_special_cards_in_bulk_as_row_by_row(cells, in_play):
    """A regular game's rows with bomb and cloud cells read in bulk exactly as one by one:
    the same rounds, lines, implied setting and problems (a season keeps its fast path)."""
    from wizard_cli.sheets.csv.sheets import read_csv_sheets

    rows = []
    for index, (bomb, cloud) in enumerate(cells):
        number, name = index // 3 + 1, "ABC"[index % 3]
        took = "" if in_play and number == 3 else str(number if name == "A" else 0)
        rows.append(f"g,{number},{name},0,{took},{bomb},{cloud}\n")
    text = "game,round,player,bid,tricks,bomb,cloud\n" + "".join(rows)
    (bulk,) = read_csv_sheets([text], "s.csv")
    (general,) = read_csv_sheets([text], "s.csv", bulk=False)
    assert bulk == general
    assert bulk.settings == general.settings
    assert bulk.problems == general.problems
    assert [(r.bomb, r.bomb_line, r.cloud, r.cloud_line) for r in bulk.rounds] == [
        (r.bomb, r.bomb_line, r.cloud, r.cloud_line) for r in general.rounds
    ]


def test_the_last_bids_and_the_cloud_in_one_add(write):
    path = write("s.yaml", BLANK)
    run("add", path, "--bids", "Ben=1", "-q")
    result = run("add", path, "--bids", "Cara=0,Anna=0", "--cloud", "Ben=-1", "-q")
    assert result.exit_code == 0, result.stderr
    assert path.read_text().endswith("  - bids:   [0, 1, 0]\n    cloud: {Ben: -1}\n")
