"""A wide CSV's seating and special cells (SPEC §3 "Special cards and seating in a CSV"): ``out``
(``aus``) cells, the Cloud's ``1+1/2`` cells, a ``bomb`` column, a ``start`` (``Start``) row and
a ``dealer`` (``Geber``) column, read with located problems and written by ``convert``."""

from __future__ import annotations

import os
import re
import shlex

import pytest
from helpers import SAMPLES, problems, run, score_json
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

LATECOMER = SAMPLES / "latecomer.yaml"

# Four players: C joins in round 2 with -10 (out in round 1), B sits round 2 out, A's Cloud
# in round 3 (called 1, +1, took 2), a Bomb in round 3; C deals round 1 and B round 3, both
# off the rotation (round 1's would be A, the first seated; round 3's A, after D).
SEATED = """\
round,A,B,C,D,bomb,dealer
start,5,,-10,
1,0/0,1/1,out,0/0,,C
2,1/1,aus,1/0,0/1,no,
3,1+1/2,0/0,0/0,1/0,yes,B
"""


def converted(path, target, *options) -> str:
    result = run("convert", path, "--to", target, *options)
    assert result.exit_code == 0, result.stderr
    return result.stdout


# --- reading ---------------------------------------------------------------------------------


def test_out_cells_a_start_row_and_a_dealer_column_are_the_seating(write):
    path = write("s.csv", SEATED)
    assert (
        converted(path, "yaml")
        == """\
players: [{name: A, startScore: 5}, B, {name: C, joins: 2, startScore: -10}, D]
settings:
  specialCards: true
rounds:
  - dealer: C
    bids:   [0, 1, 0]
    tricks: [0, 1, 0]
  - out: [B]
    bids:   [1, 1, 0]
    tricks: [1, 0, 1]
  - dealer: B
    bids:   [1, 0, 0, 1]
    tricks: [2, 0, 0, 0]
    bomb: true
    cloud: {A: 1}
"""
    )
    data = score_json(path)
    assert [r["dealer"] for r in data["rounds"]] == ["C", "D", "B"]
    assert [r["results"]["C"]["seated"] for r in data["rounds"]] == [False, True, True]
    assert data["rounds"][0]["results"]["C"]["total"] == -10
    assert data["rounds"][2]["results"]["A"] == {
        "bid": 1,
        "tricks": 2,
        "points": 40,
        "total": 95,
        "cloud": 1,
        "seated": True,
    }
    assert data["rounds"][2]["bomb"] is True


def test_out_after_the_last_seated_round_is_leaving(write):
    text = "round,A,B,C,D\n1,0/0,0/1,0/0,0/0\n2,1/1,1/1,0/0,out\n3,1,1,0,out\n"
    yaml = converted(write("s.csv", text), "yaml")
    assert yaml.startswith("players: [A, B, C, {name: D, leaves: 1}]\n")
    assert "out:" not in yaml


def test_german_words_read_as_the_english(write):
    path = write(
        "s.csv",
        "Runde,A,B,C,D,Bombe,Geber\nStart,0,0,0,7\n"
        "1,0/0,0/0,AUS,0/0,ja,B\n2,1/1,0/0,1/1,0/0,nein,\n",
    )
    data = score_json(path)
    assert [r["bomb"] for r in data["rounds"]] == [True, False]
    assert data["rounds"][0]["dealer"] == "B"
    assert data["rounds"][0]["results"]["C"]["seated"] is False
    assert data["standings"][0] == {"rank": 1, "player": "A", "score": 50, "bonus": 0}
    assert {s["player"]: s["score"] for s in data["standings"]}["D"] == 47


@pytest.mark.parametrize("word", ["yes", "y", "x", "1", "true", "ja", "YES", " Ja "])
def test_every_word_that_marks_the_bomb(write, word):
    path = write("s.csv", f"round,A,B,C,bomb\n1,0/0,0/0,0/0,{word}\n")
    assert [r["bomb"] for r in score_json(path)["rounds"]] == [True]


@pytest.mark.parametrize("word", ["no", "n", "0", "false", "nein", ""])
def test_every_word_that_leaves_the_bomb_out(write, word):
    path = write("s.csv", f"round,A,B,C,bomb\n1,0/0,1/1,0/0,{word}\n")
    data = score_json(path)
    assert "bomb" not in data["rounds"][0]  # no special card recorded: a classic game
    assert data["settings"]["specialCards"] is False


@pytest.mark.parametrize(
    ("cell", "bid", "change", "tricks", "points"),
    [
        ("1+1/2", 1, 1, 2, 40),
        ("2-1/1", 2, -1, 1, 30),
        ("2−1/1", 2, -1, 1, 30),
        (" 1 + 1 / 2 ", 1, 1, 2, 40),
        ("1-1/0", 1, -1, 0, 20),
    ],
)
def test_the_cloud_cell_is_the_bid_called_the_change_and_the_tricks(
    write, cell, bid, change, tricks, points
):
    rest = 2 - tricks
    path = write("s.csv", f"round,A,B,C\n1,0/0,0/1,0/0\n2,{cell},0/{rest},0/0\n")
    if tricks == 0:  # the Cloud goes to a player who took a trick
        assert problems(path) == [
            f"{path}:3: round 2, A: the Cloud goes to the player who took "
            "its trick, but this player took no trick"
        ]
        return
    result = score_json(path)["rounds"][1]["results"]["A"]
    assert (result["bid"], result["cloud"], result["tricks"], result["points"]) == (
        bid,
        change,
        tricks,
        points,
    )


def test_a_cloud_in_the_round_in_play(write):
    path = write("s.csv", "round,A,B,C\n1,0/0,0/1,0/0\n2,1+1,0,1\n")
    data = score_json(path)
    assert data["rounds"][1]["results"]["A"]["cloud"] == 1
    assert data["status"]["next"]["bidsIn"] == {"C": 1, "A": 1, "B": 0}
    early = write("t.csv", "round,A,B,C\n1,0/0,0/1,0/0\n2,1+1,0,\n")
    assert problems(early) == [
        f"{early}:3: round 2, A: the Cloud is recorded once every bid of the round is in"
    ]


def test_a_bomb_or_a_cloud_means_special_cards_unless_a_setting_says_false(write):
    path = write("s.csv", "round,A,B,C,bomb\n1,0/0,0/0,0/0,x\n2,1+1/2,0/0,0/0,\n")
    assert score_json(path)["settings"]["specialCards"] is True
    assert problems(path, "--set", "specialCards=false") == [
        f"{path}:2: round 1: a Bomb is recorded, but specialCards is off (set specialCards: true "
        "for the anniversary editions' special cards)",
        f"{path}:3: round 2, A: a Cloud is recorded, but specialCards is off (set specialCards: "
        "true for the anniversary editions' special cards)",
    ]


def test_every_problem_of_the_cells_is_located_at_once(write):
    path = write(
        "s.csv",
        "round,A,B,C,D,bomb,dealer\n"
        "start,5,x,,\n"
        "1,0/0,1/1,out,0/0,maybe,Zed\n"
        "Start,1,1,1,1\n"
        "2,1+1/1,1-1/1,0/0,out,,\n"
        "3,1/1,0/1,out,out,,\n",
    )
    assert problems(path) == [
        f"{path}:2: B: start score 'x' is not a whole number",
        f"{path}:3: round 1: bomb 'maybe' is not yes or no (yes, y, x, 1, true, ja; no, n, 0, "
        "false, nein or empty)",
        f"{path}:3: round 1: dealer 'Zed' is not one of the players",
        f"{path}:4: a second start row (the first is on line 2): a game has one row of start "
        "scores",
        f"{path}:5: round 2: cloud in 2 cells of round 2; the Cloud changes one player's bid",
        f"{path}:6: round 3: 2 players seated: a round seats 3 to 6",
    ]


def test_a_start_rows_marks_and_a_change_that_is_no_clouds_are_said(write):
    """Before: a Bomb or a dealer on the start row was dropped without a word, and ``0+2/0``
    said "bid '0+2' is not a whole number" where a long CSV says what is wrong."""
    path = write(
        "s.csv",
        "round,A,B,C,bomb,dealer\nstart,5,0,0,yes,B\n1,0+2/0,0−0/0,1/1,,\n",
    )
    assert problems(path) == [
        f"{path}:2: bomb 'yes' on the start row: a bomb belongs to a round",
        f"{path}:2: dealer 'B' on the start row: a dealer belongs to a round",
        f"{path}:3: round 1, A: the Cloud changes a bid by +1 or -1, not '+2'",
        f"{path}:3: round 1, B: the Cloud changes a bid by +1 or -1, not '−0'",
    ]


def test_a_dealer_name_close_to_a_player_gets_a_suggestion(write):
    path = write("s.csv", "round,Anna,Ben,Cara,dealer\n1,0/0,0/1,0/0,Bne\n")
    assert problems(path) == [
        f"{path}:2: round 1: dealer 'Bne' is not one of the players (did you mean 'Ben'?)"
    ]


def test_a_classic_wide_csv_reads_as_before(write):
    text = (SAMPLES / "worked-example-wide.csv").read_text(encoding="utf-8")
    sheet = write("w.csv", text)
    assert run("score", sheet).stdout == run(
        "score", SAMPLES / "worked-example-wide.csv"
    ).stdout.replace(str(SAMPLES / "worked-example-wide.csv"), str(sheet))


# --- writing ---------------------------------------------------------------------------------


def test_convert_writes_out_the_start_row_and_off_rotation_dealers(write):
    source = write("s.csv", SEATED)
    yaml = write("s.yaml", converted(source, "yaml"))
    assert converted(yaml, "wide-csv") == SEATED.replace(",aus,", ",out,").replace(
        "start,5,,-10,", "start,5,0,-10,0,,"
    ).replace(",no,", ",,")


def test_a_dealer_the_rotation_gives_is_not_written(write):
    text = """\
players: [A, B, C, D]
rounds:
  - dealer: A
    bids: [0, 0, 0, 1]
    tricks: [0, 0, 0, 1]
  - dealer: C
    bids: [1, 1, 0, 0]
    tricks: [1, 1, 0, 0]
  - dealer: D
    bids: [1, 1, 1, 0]
    tricks: [1, 1, 1, 0]
"""
    assert converted(write("s.yaml", text), "wide-csv") == (
        "round,A,B,C,D,dealer\n1,0/0,0/0,0/0,1/1,\n2,1/1,1/1,0/0,0/0,C\n3,1/1,1/1,1/1,0/0,\n"
    )


def test_the_latecomer_sample_goes_to_a_wide_csv_and_back(tmp_path):
    out = tmp_path / "late.csv"
    result = run("convert", LATECOMER, "--to", "wide-csv", "-o", out)
    assert result.exit_code == 0, result.stderr
    assert (
        "dropped title 'Latecomer night'; settings roundMode=custom, customRoundCount=6 "
        "(score it the same with --set roundMode=custom --set customRoundCount=6)" in result.stderr
    )
    assert out.read_text().splitlines()[:2] == ["round,Anna,Ben,Cara,Dan,Eva", "start,0,0,0,0,30"]
    flags = ["--set", "roundMode=custom", "--set", "customRoundCount=6"]
    expected = score_json(LATECOMER)
    back = score_json(out, *flags)
    assert back == {**expected, "title": None, "source": str(out)}


def test_a_seating_the_cells_cannot_carry_is_refused_naming_the_player(write):
    text = """\
players: [A, B, C, D]
rounds:
  - bids: [0, 0, 0, 1]
    tricks: [0, 0, 0, 1]
  - out: [D]
    bids: [1, 1, 0]
"""
    path = write("s.yaml", text)
    result = run("convert", path, "--to", "wide-csv")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"{path}: D's seating (joins, leaves, out) would read back otherwise from a CSV, which "
        "knows who joins, leaves and sits out only from the 'out' cells of the 2 rounds "
        "recorded: convert to yaml or json instead\n"
    )


# --- round trips of generated games (``WIZARD_SLOW=1``: 300 of them) -----------------------

NAMES = ["Anna", "Ben", "Cara", "Dan", "Eva", "Finn", "Gus"]
SLOW = os.environ.get("WIZARD_SLOW") == "1"


@st.composite
def seated_games(draw) -> str:
    """A valid single game as YAML with seating changes and the anniversary cards, of a seating
    a CSV's ``out`` cells can carry: each player seated from their ``joins`` to their last
    recorded round or ``leaves``, sitting out only rounds between two seated ones."""
    count = draw(st.integers(3, 7))
    rounds = draw(st.integers(1, 7))
    spans = []
    for seat in range(count):
        if seat < 3:  # three who play every round: each round seats at least 3
            first, last = 1, rounds
        else:
            first = draw(st.integers(1, rounds))
            last = draw(st.integers(first, rounds))
        between = list(range(first + 1, last)) if seat >= 3 else []
        out = set(draw(st.lists(st.sampled_from(between), unique=True))) if between else set()
        spans.append((first, last, out))
    seated = [
        [
            seat
            for seat, (first, last, out) in enumerate(spans)
            if first <= number <= last and number not in out
        ]
        for number in range(1, rounds + 1)
    ]
    assume(all(len(s) <= 6 for s in seated))
    names = NAMES[:count]
    entries = []
    for seat, (first, last, _) in enumerate(spans):
        entry = {"joins": first} if first > 1 else {}
        if last < rounds:
            entry["leaves"] = last
        start = draw(st.sampled_from([0, 0, 0, 30, -10, 5]))
        if start:
            entry["startScore"] = start
        entries.append(
            names[seat]
            if not entry
            else "{"
            + ", ".join(
                [f"name: {names[seat]}"] + [f"{key}: {value}" for key, value in entry.items()]
            )
            + "}"
        )
    lines = [
        f"players: [{', '.join(entries)}]",
        "settings: {specialCards: true, roundMode: custom, "
        f"customRoundCount: {draw(st.integers(rounds, 8))}}}",
        "rounds:",
    ]
    in_play = draw(st.booleans())
    for number, sitting in enumerate(seated, 1):
        size = number
        fields = []
        if draw(st.integers(0, 4)) == 0:
            fields.append(f"dealer: {names[draw(st.integers(0, count - 1))]}")
        out = [names[seat] for seat, span in enumerate(spans) if number in span[2]]
        if out:
            fields.append(f"out: [{', '.join(out)}]")
        bids = {seat: draw(st.integers(0, size)) for seat in sitting}
        last = number == rounds
        if last and in_play:
            waiting = draw(st.lists(st.sampled_from(sitting), unique=True))
            shown = {seat: bid for seat, bid in bids.items() if seat not in waiting}
            fields.append("bids: {" + ", ".join(f"{names[s]}: {b}" for s, b in shown.items()) + "}")
            if not waiting and draw(st.booleans()):
                seat = draw(st.sampled_from(sitting))
                change = draw(
                    st.sampled_from([c for c in (1, -1) if 0 <= bids[seat] + c <= size] or [1])
                )
                if 0 <= bids[seat] + change <= size:
                    fields.append(f"cloud: {{{names[seat]}: {change}}}")
        else:
            bomb = draw(st.booleans())
            taken = draw(
                st.lists(st.sampled_from(sitting), min_size=size - bomb, max_size=size - bomb)
            )
            tricks = {seat: taken.count(seat) for seat in sitting}
            fields.append("bids: [" + ", ".join(str(bids[s]) for s in sitting) + "]")
            fields.append("tricks: [" + ", ".join(str(tricks[s]) for s in sitting) + "]")
            if bomb:
                fields.append("bomb: true")
            clouded = [
                seat
                for seat in sitting
                if tricks[seat] and any(0 <= bids[seat] + c <= size for c in (1, -1))
            ]
            if clouded and draw(st.booleans()):
                seat = draw(st.sampled_from(clouded))
                change = draw(st.sampled_from([c for c in (1, -1) if 0 <= bids[seat] + c <= size]))
                fields.append(f"cloud: {{{names[seat]}: {change}}}")
        lines.append("  - " + fields[0])
        lines += ["    " + field for field in fields[1:]]
    return "\n".join(lines) + "\n"


def without_source(data: dict) -> dict:
    return {key: value for key, value in data.items() if key not in ("source", "title")}


def as_read(text: str) -> dict:
    """A YAML sheet as data, without the dealers the rotation gives anyway (a CSV writes only
    those off it; each round's dealer is compared in the scores)."""
    import yaml

    data = yaml.safe_load(text)
    for record in data.get("rounds") or []:
        record.pop("dealer", None)
    return data


@settings(
    max_examples=300 if SLOW else 15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(seated_games())
def test_a_seated_game_with_special_cards_survives_a_wide_csv(tmp_path_factory, text):
    folder = tmp_path_factory.mktemp("trip")
    source = folder / "game.yaml"
    source.write_text(text)
    checked = run("check", source)
    assert checked.exit_code == 0, checked.stderr + text
    expected = score_json(source)
    canonical = converted(source, "yaml")
    wide = folder / "game.csv"
    result = run("convert", source, "--to", "wide-csv", "-o", wide)
    assert result.exit_code == 0, result.stderr + text
    # What a wide CSV drops is said, with the options that score it the same (SPEC §3).
    hint = re.search(r"score it the same with (.*)\)$", result.stderr.strip())
    assert hint is not None, result.stderr
    flags = shlex.split(hint[1])
    assert without_source(score_json(wide, *flags)) == without_source(expected)
    assert as_read(converted(wide, "yaml", *flags)) == as_read(canonical)
    # The same through YAML text and JSON, losing nothing at all.
    for target in ("yaml", "json"):
        copy = folder / f"copy.{target}"
        assert run("convert", source, "--to", target, "-o", copy).exit_code == 0
        assert score_json(copy) == {**expected, "source": str(copy)}
        assert converted(copy, "yaml") == canonical


def test_the_wide_sample_is_what_convert_writes(tmp_path):
    """The README's wide sample, with every seating and special cell, goes to YAML and back to
    the same text: what the reader takes, the writer gives."""
    sample = SAMPLES / "latecomer-anniversary-wide.csv"
    yaml = tmp_path / "s.yaml"
    assert run("convert", sample, "--to", "yaml", "-o", yaml).exit_code == 0
    assert "out: [Dan]" in yaml.read_text() and "dealer: Dan" in yaml.read_text()
    assert converted(yaml, "wide-csv") == sample.read_text(encoding="utf-8")


def test_the_readme_shows_the_wide_sample_as_it_is():
    readme = (SAMPLES.parent / "README.md").read_text(encoding="utf-8")
    text = (SAMPLES / "latecomer-anniversary-wide.csv").read_text(encoding="utf-8")
    assert f"`sample_sheets/latecomer-anniversary-wide.csv`:\n\n```csv\n{text}```\n" in readme


@pytest.mark.parametrize(
    "name, column", [("Dealer", "dealer"), ("GEBER", "dealer"), ("bomb", "bomb"), ("Bombe", "bomb")]
)
def test_a_player_named_as_a_wide_column_is_refused(write, name, column):
    """A wide header reads ``dealer``/``Geber`` and ``bomb``/``Bombe`` as those columns (SPEC
    §3), so a player of that name could not be read back as a player: refused, not lost."""
    path = write(
        "s.yaml", f"players: [A, B, {name}]\nrounds:\n  - bids: [1, 0, 0]\n    tricks: [1, 0, 0]\n"
    )
    result = run("convert", path, "--to", "wide-csv")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"{path}: a player named {name!r} would read back as the wide CSV's {column} column: "
        "convert to csv, yaml or json instead\n"
    )
