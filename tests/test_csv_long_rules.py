"""A long CSV carries its rules and its seating (SPEC §3 "A long CSV carries its rules",
"Special cards and seating in a CSV"; issues 32 item 1 and 31 item 4): rule columns read as
``--set`` reads text, merged cells, the problems located, unknown columns noted, ``out`` rows,
``startScore`` and ``dealer``, German headers; ``convert --to csv`` writing them all, so a
season goes to long CSV and back as the same games."""

from __future__ import annotations

import io
import json
import os

import pytest
from helpers import run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wizard_cli.sheets.csv.sheets import read_csv_sheets

# Two 3-player one-round games: game a sets exactBonus 30 (its second row's cell is empty:
# merged), game b sets nothing.
RULED = """\
game,round,player,bid,tricks,exactBonus,roundMode,customRoundCount,title
a,1,Anna,1,1,30,custom,1,Friday
a,1,Ben,0,0,,custom,1,Friday
a,1,Cara,0,0,30,,1,
b,1,Anna,1,1,,custom,1,
b,1,Ben,0,0,,custom,1,
b,1,Cara,0,0,,custom,1,
"""


def score_json(path, *options, input=None):
    result = run("score", path, "-f", "json", *options, input=input)
    assert (result.exit_code, result.stderr) == (0, ""), result.stderr
    data = json.loads(result.stdout)
    return data if isinstance(data, list) else [data]


def problems(path, *options) -> list[str]:
    result = run("check", path, *options)
    assert result.exit_code == 1, result.stdout
    assert "Traceback" not in result.stderr
    return [line for line in result.stderr.splitlines() if ": " in line]


def totals(game: dict) -> dict[str, int]:
    return {row["player"]: row["score"] for row in game["standings"]}


# --- reading the rule columns ---------------------------------------------------------------


def test_rule_columns_set_each_games_rules_and_an_empty_cell_repeats_the_one_above(write):
    a, b = score_json(write("s.csv", RULED))
    assert a["settings"]["exactBonus"] == 30 and a["title"] == "Friday"
    assert a["settings"]["roundMode"] == "custom" and a["status"]["finished"]
    assert totals(a) == {"Anna": 40, "Ben": 30, "Cara": 30}
    # an empty cell repeats nothing into the next game: b has the defaults and no title
    assert b["settings"]["exactBonus"] == 20 and b["title"] is None
    assert totals(b) == {"Anna": 30, "Ben": 20, "Cara": 20}


def test_the_general_reader_and_the_bulk_one_read_rule_columns_alike():
    for text in (RULED, RULED.replace(",,custom,1,\n", ",30,custom,1,\n")):
        assert list(read_csv_sheets([text], "s.csv")) == list(
            read_csv_sheets([text], "s.csv", bulk=False)
        )


def test_a_rule_given_twice_differently_in_a_game_names_both_lines(write):
    path = write("s.csv", RULED.replace("a,1,Cara,0,0,30,,1,", "a,1,Cara,0,0,25,,1,Sat"))
    assert problems(path) == [
        f"{path}:4: exactBonus '25' where the game's earlier rows say '30' (line 2): a game "
        "has one exactBonus",
        f"{path}:4: title 'Sat' where the game's earlier rows say 'Friday' (line 2): a game has "
        "one title",
    ]


def test_a_bad_setting_cell_is_a_located_settings_problem(write):
    path = write(
        "s.csv", RULED.replace("30,custom", "3x,custom").replace("a,1,Cara,0,0,30", "a,1,Cara,0,0,")
    )
    assert problems(path) == [
        f"{path}:2: setting exactBonus: '3x' is not a whole number (allowed: 0–50 in steps of 5)"
    ]
    path = write(
        "t.csv", "round,player,bid,tricks,screwTheDealer\n1,A,1,1,sometimes\n1,B,0,0,\n1,C,0,0,\n"
    )
    assert problems(path)[0].startswith(
        f"{path}:2: setting screwTheDealer: 'sometimes' is not an option"
    )


def test_rule_columns_are_read_as_set_reads_text(write):
    text = (
        "round,player,bid,tricks,canadianRule,screwTheDealer,specialCards,zeroBidScoring\n"
        "1,A,1,1, yes ,on,no,perCardBonus\n1,B,1,0,,,,\n1,C,0,0,,,,\n"
    )
    (game,) = score_json(write("s.csv", text))
    assert {
        key: game["settings"][key]
        for key in ("canadianRule", "screwTheDealer", "specialCards", "zeroBidScoring")
    } == {
        "canadianRule": True,
        "screwTheDealer": "always",
        "specialCards": False,
        "zeroBidScoring": "perCardBonus",
    }


def test_columns_layer_below_settings_files_and_set(write):
    path = write("s.csv", RULED)
    assert score_json(path)[0]["settings"]["exactBonus"] == 30
    assert score_json(path, "--set", "exactBonus=10")[0]["settings"]["exactBonus"] == 10
    rules = write("rules.yaml", "exactBonus: 40\n")
    (a, b) = score_json(path, "--settings", rules)
    assert (a["settings"]["exactBonus"], b["settings"]["exactBonus"]) == (40, 40)
    assert (
        score_json(path, "--settings", rules, "--set", "exactBonus=0")[0]["settings"]["exactBonus"]
        == 0
    )


def test_metadata_columns_and_the_first_dealer(write):
    text = (
        "round,player,bid,tricks,place,notes,firstDealer,roundMode,customRoundCount\n"
        '1,Anna,1,1,Anna\'s,"cake,\nand tea",Cara,custom,2\n1,Ben,0,0,,,,,\n1,Cara,0,0,,,,,\n'
        "2,Anna,1,1,,,,,\n2,Ben,1,1,,,,,\n2,Cara,0,0,,,,,\n"
    )
    (game,) = score_json(write("s.csv", text))
    assert (game["place"], game["notes"]) == ("Anna's", "cake,\nand tea")
    assert [r["dealer"] for r in game["rounds"]] == ["Cara", "Anna"]


def test_a_column_named_twice_is_noted_not_dropped_without_a_word(write):
    """Only a column's first occurrence is read: a second startScore or roundMode column
    would change nothing, so stderr says so (a second value is never dropped silently)."""
    text = (
        "game,round,player,bid,tricks,roundMode,roundMode,startScore,startScore\n"
        "g,1,A,0,0,custom,wholeDeck,0,500\ng,1,B,1,1,custom,,,\ng,1,C,0,0,custom,,,\n"
    )
    path = write("d.csv", text)
    result = run("check", path, "--set", "customRoundCount=1")
    assert (result.exit_code, result.stdout) == (0, f"{path}, game g: ok\n")
    assert result.stderr == (
        f"{path}:1: note: column 'roundMode' is given 2 times: only the first is read\n"
        f"{path}:1: note: column 'startScore' is given 2 times: only the first is read\n"
    )


def test_an_unknown_column_is_ignored_with_one_note_naming_it(write):
    path = write(
        "s.csv",
        RULED.replace("title\n", "title,comment,exactbonsu\n").replace("Friday\n", "Friday,x,5\n"),
    )
    result = run("standings", path)
    assert result.exit_code == 0
    assert result.stderr == (
        f"{path}:1: note: column 'comment' is not read, ignored\n"
        f"{path}:1: note: column 'exactbonsu' is not read, ignored (did you "
        "mean 'exactBonus'?)\n"
    )


def test_a_header_of_thousands_of_columns_makes_a_few_notes(write):
    """Before: a note per unknown column (3,000 lines for 3,000 cells), and counting a column
    named 20,000 times took quadratic time. Now ten are named and the rest counted."""
    header = "game,round,player,bid,tricks" + "".join(f",c{i}" for i in range(3000))
    rows = "".join(f"g,1,{name},{bid},{bid}" + "," * 3000 + "\n" for name, bid in zip("ABC", "010"))
    path = write("wide.csv", header + ",bid" * 20000 + "\n" + rows)
    result = run("check", path, "--set", "roundMode=custom", "--set", "customRoundCount=1")
    assert result.exit_code == 0, result.stderr
    assert result.stderr.splitlines() == [
        f"{path}:1: note: column 'bid' is given 20001 times: only the first is read",
        *(f"{path}:1: note: column 'c{i}' is not read, ignored" for i in range(10)),
        f"{path}:1: note: 2990 more columns not read, ignored",
    ]


def test_a_long_value_is_quoted_short_and_a_huge_start_score_is_far_too_large(write):
    """Before: a rule cell's (or ``--set``'s) value was echoed whole into its message, and a
    start score of 10 digits or more was "not a whole number" where YAML says far too large."""
    path = write(
        "s.csv",
        "game,round,player,bid,tricks,zeroBidScoring,startScore\n"
        f"g,1,A,0,0,{'x' * 5000},12345678901\ng,1,B,1,1,,\ng,1,C,0,0,,\n",
    )
    found = problems(path)
    assert any(
        line.startswith(f"{path}:2: setting zeroBidScoring: '{'x' * 40}…' is not an option")
        for line in found
    ), found
    assert f"{path}:2: A: startScore '12345678901' is far too large" in found
    option = problems(path, "--set", f"exactBonus={'9' * 5000}")
    assert option[0].startswith(f"--set exactBonus={'9' * 40}…: '{'9' * 40}…' is not"), option
    assert max(map(len, found + option)) < 300


def test_a_classic_long_csv_says_nothing_new(write):
    path = write("s.csv", "round,player,bid,tricks,points\n1,A,1,1,30\n1,B,0,0,20\n1,C,0,0,20\n")
    assert run("check", path).stderr == ""


# --- reading the seating ------------------------------------------------------------------------

SEATED = """\
round,player,bid,tricks,startScore,dealer
1,Anna,1,1,,
1,Ben,0,0,,
1,Cara,0,0,,
1,Dan,0,0,,
1,Eva,out,,30,
2,Anna,1,1,,Dan
2,Ben,1,0,,
2,Cara,0,1,,
2,Dan,out,,,
2,Eva,0,0,30,
3,Anna,1,1,,
3,Ben,0,0,,
3,Cara,out,,,
3,Dan,1,1,,
3,Eva,1,1,,
4,Anna,2,,,
4,Ben,,,,
4,Cara,out,,,
4,Dan,1,,,
4,Eva,0,,,
"""


def test_out_rows_start_scores_and_dealers_make_the_seating(write):
    (game,) = score_json(write("s.csv", SEATED))
    seated = [
        [name for name, cell in r["results"].items() if cell["seated"]] for r in game["rounds"]
    ]
    assert seated == [
        ["Anna", "Ben", "Cara", "Dan"],
        ["Anna", "Ben", "Cara", "Eva"],
        ["Anna", "Ben", "Dan", "Eva"],
        ["Anna", "Ben", "Dan", "Eva"],
    ]
    assert [r["dealer"] for r in game["rounds"]] == ["Anna", "Dan", "Eva", "Anna"]
    assert game["rounds"][0]["results"]["Eva"]["total"] == 30  # her start score, not repeated
    # round 4's out row does not make it the round in play: Ben's empty bid does
    assert game["status"]["roundsPlayed"] == 3 and not game["status"]["finished"]
    back = run("convert", write("s.csv", SEATED), "--to", "yaml")
    assert back.stdout.splitlines()[:4] == [
        "players: [Anna, Ben, {name: Cara, leaves: 2}, Dan, {name: Eva, joins: 2, startScore: 30}]",
        "rounds:",
        "  - bids:   [1, 0, 0, 0]",
        "    tricks: [1, 0, 0, 0]",
    ]
    assert "  - dealer: Dan\n    out: [Dan]\n" in back.stdout


def test_german_headers_and_aus(write):
    german = SEATED.replace(
        "round,player,bid,tricks,startScore,dealer", "Runde;Spieler;Ansage;Stiche;startScore;Geber"
    ).replace(",", ";")
    german = german.replace("out", "aus")
    assert (
        score_json(write("g.csv", german))[0]["rounds"]
        == score_json(write("s.csv", SEATED))[0]["rounds"]
    )
    text = (
        "Spiel,Runde,Spieler,Tipp,Stiche,exactBonus,Titel\n"
        "x,1,A,1,1,30,T\nx,1,B,0,0,,\nx,1,C,0,0,,\n"
    )
    result = run("score", write("t.csv", text), "-f", "json")
    assert json.loads(result.stdout)[0]["standings"][0]["score"] == 40
    assert "column 'titel' is not read, ignored (did you mean 'title'?)" in result.stderr


def test_seating_problems_are_all_located_at_once(write):
    text = (
        SEATED.replace("1,Eva,out,,30,", "1,Eva,out,1,30,")
        .replace("2,Eva,0,0,30,", "2,Eva,0,0,40,")
        .replace("2,Ben,1,0,,", "2,Ben,1,0,,Cara")
        .replace("3,Anna,1,1,,", "3,Anna,1,1,x,Zed")
    )
    path = write("s.csv", text)
    assert problems(path) == [
        f"{path}:6: round 1, Eva: tricks '1' on an 'out' row: a player sitting a round out "
        "has no value in it",
        f"{path}:8: round 2: dealer 'Cara' where the round's earlier rows say 'Dan' (line 7): "
        "a round has one dealer",
        f"{path}:11: Eva: startScore '40' where Eva's earlier rows say '30' (line 6): a player "
        "has one startScore",
        f"{path}:12: Anna: startScore 'x' is not a whole number",
        f"{path}:12: round 3: dealer 'Zed' is not one of the players",
    ]


# --- the season lane ------------------------------------------------------------------------------


def test_the_season_lane_reads_rule_columns_as_the_general_reader(tmp_path, write):
    """A season whose games differ in rules: every season command prints what reading each
    game alone prints (games with other rules cannot share a run, which has one Settings)."""
    from test_lanes import both

    rows = ["game,round,player,bid,tricks,exactBonus,roundMode,customRoundCount"]
    for game in range(60):
        bonus = ("", "30", "0")[game % 3]
        rows += [
            f"g{game},1,{name},{bid},{bid}," + (bonus if not seat else "") + ",custom,1"
            for seat, (name, bid) in enumerate(zip("ABC", (1, 0, 0)))
        ]
    path = write("season.csv", "\n".join(rows) + "\n")
    for command in (["standings", "-f", "jsonl"], ["stats"], ["ratings"], ["check"]):
        lane, general = both([command[0], path, *command[1:]])
        assert lane == general and lane[0] == 0, command


# --- writing --------------------------------------------------------------------------------------

SEASON = """\
title: Friday
players: [Anna, Ben, Cara, Dan]
settings: {roundMode: custom, customRoundCount: 8}
rounds:
"""


def eight_round_game(title: str) -> str:
    rounds = "".join(f"  - {{bids: [{r}, 0, 0, 0], tricks: [{r}, 0, 0, 0]}}\n" for r in range(1, 9))
    return SEASON.replace("Friday", title) + rounds


def test_the_issues_season_goes_to_csv_and_stats_counts_its_games_finished(tmp_path, write):
    """Issue 32: `convert season.yaml --to csv` dropped the settings, and `stats season.csv`
    then said `4 games, 0 finished`."""
    source = write("season.yaml", "---\n".join(eight_round_game(f"Night {n}") for n in range(4)))
    out = tmp_path / "season.csv"
    assert run("convert", source, "--to", "csv", "-o", out).exit_code == 0
    result = run("stats", out)
    assert result.exit_code == 0 and result.stderr == ""
    assert result.stdout.splitlines()[0] == "4 games, 4 finished"
    assert run("stats", source).stdout == result.stdout


def test_convert_writes_only_the_columns_some_game_sets(write):
    result = run(
        "convert",
        write(
            "s.yaml",
            eight_round_game("Friday")
            + "---\n"
            + (
                "players: [A, B, C]\nsettings: {exactBonus: 20, missPenalty: 5}\n"
                "rounds:\n  - {bids: [1, 0, 0], tricks: [1, 0, 0]}\n"
            ),
        ),
        "--to",
        "csv",
    )
    rows = result.stdout.splitlines()
    # exactBonus is at its default: no column; missPenalty is not
    assert rows[0] == "game,round,player,bid,tricks,title,roundMode,customRoundCount,missPenalty"
    assert rows[1] == "1,1,Anna,1,1,Friday,custom,8,"
    assert rows[-1] == "2,1,C,0,0,,,,5"
    # from standard input every column is written (SPEC §3), a default as an empty cell
    piped = run(
        "convert",
        "-",
        "--input-format",
        "yaml",
        "--to",
        "csv",
        input=(write("s.yaml", eight_round_game("Friday"))).read_text(),
    )
    header, first = piped.stdout.splitlines()[:2]
    assert header == (
        "round,player,bid,tricks,startScore,title,firstDealer,place,notes,roundMode,"
        "customRoundCount,exactBonus,pointsPerTrick,missPenalty,zeroBidScoring,screwTheDealer,"
        "canadianRule,dealerRuleFrom,bidding,perfectGameBonus,tieBreak,finalRoundBonus,"
        "balancedBidPenalty,specialCards"
    )
    assert first == "1,Anna,1,1,,Friday,,,,custom,8,,,,,,,,,,,,,"
    back = score_json("-", "--input-format", "csv", input=piped.stdout)
    direct = score_json(write("s.yaml", eight_round_game("Friday")))
    assert back == [{**game, "source": "<stdin>"} for game in direct]


def test_a_dealer_is_written_only_off_the_rotation(write):
    text = (
        "players: [A, B, C]\nrounds:\n  - {dealer: A, bids: [1, 0, 0], tricks: [1, 0, 0]}\n"
        "  - {dealer: C, bids: [1, 0, 1], tricks: [1, 0, 1]}\n"
        "  - {bids: [1, 1, 1], tricks: [1, 1, 1]}\n"
    )
    rows = run("convert", write("s.yaml", text), "--to", "csv").stdout.splitlines()
    assert rows[0] == "round,player,bid,tricks,dealer"
    assert [row.rsplit(",", 1)[1] for row in rows[1:]] == ["", "", "", "C", "C", "C", "", "", ""]


def test_a_seating_a_long_csv_cannot_tell_is_refused(write):
    text = (
        "players: [A, B, C, {name: D, leaves: 1}]\n"
        "rounds:\n  - {bids: [1, 0, 0, 0], tricks: [1, 0, 0, 0]}\n"
    )
    result = run("convert", write("s.yaml", text), "--to", "csv")
    assert result.exit_code == 1 and result.stdout == ""
    assert "D's seating would read back otherwise from a long CSV" in result.stderr


# --- the round trip -------------------------------------------------------------------------------

SLOW = os.environ.get("WIZARD_SLOW") == "1"
NAMES = ("Anna", "Ben", "Cara", "Dan", "Eva", "Finn", "Gus")
TEXT = st.text(alphabet="ab Zé,;\"'\n", min_size=1, max_size=10).filter(
    lambda text: text == text.strip()
)


def _split(draw, total: int, count: int) -> list[int]:
    """``total`` tricks dealt out to ``count`` players."""
    parts = []
    for _ in range(count - 1):
        parts.append(draw(st.integers(0, total - sum(parts))))
    return parts + [total - sum(parts)]


@st.composite
def games(draw, number: int, dated: bool) -> dict:
    """A valid game as a JSON document (JSON is YAML): every setting may be set, any metadata,
    seating changes a long CSV can tell, or the special cards."""
    kind = draw(st.sampled_from(("plain", "seated", "special", "seated special")))
    seats_change, cards = kind.startswith("seated"), kind.endswith("special")
    rounds = draw(st.integers(2, 4) if seats_change else st.integers(1, 4))
    listed = draw(st.integers(4 if seats_change else 3, 6))
    players: list = list(NAMES[:listed])
    joins, leaves, out = [1] * listed, [None] * listed, {}
    if seats_change:  # three or four always seated, the others coming and going
        changing = draw(
            st.sets(st.integers(0, listed - 1), min_size=listed - 4, max_size=min(2, listed - 3))
        )
        for seat in sorted(changing):
            if draw(st.booleans()):
                joins[seat] = draw(st.integers(1, rounds))
            if draw(st.booleans()) and joins[seat] < rounds:
                leaves[seat] = draw(st.integers(joins[seat], rounds - 1))
            last = min(leaves[seat] or rounds, rounds)
            for r in range(joins[seat] + 1, last):
                if draw(st.booleans()):
                    out.setdefault(r, []).append(seat)
    seated = [
        [
            s
            for s in range(listed)
            if joins[s] <= r and (leaves[s] or 99) >= r and s not in out.get(r, ())
        ]
        for r in range(1, rounds + 1)
    ]
    first = len(seated[0])
    mode = draw(st.sampled_from(("wholeDeck", "custom", "quickPlay")))
    rules: dict = {}
    if mode != "wholeDeck" or draw(st.booleans()):
        rules["roundMode"] = mode
    if mode == "custom":
        rules["customRoundCount"] = draw(st.integers(rounds, min(10, 60 // first)))
    for key, values in (
        ("exactBonus", range(0, 55, 5)),
        ("pointsPerTrick", range(0, 25, 5)),
        ("missPenalty", range(0, 35, 5)),
        ("perfectGameBonus", range(0, 110, 10)),
        ("finalRoundBonus", range(0, 55, 5)),
        ("balancedBidPenalty", range(0, 35, 5)),
        ("dealerRuleFrom", range(1, 21)),
        ("zeroBidScoring", ("flatBonus", "doubleBonus", "perCardBonus")),
        ("tieBreak", ("shareWin", "totalBids", "madeBids")),
        ("canadianRule", (False, True)),
        ("screwTheDealer", ("off", "always", "leaderOnly", "unlessTiedLead")),
    ):
        if draw(st.integers(0, 2)) == 0:
            rules[key] = draw(st.sampled_from(values))
    if rules.get("screwTheDealer", "off") == "off" and draw(st.booleans()):
        rules["bidding"] = draw(st.sampled_from(("open", "hidden", "delayed")))
    if cards:
        rules["specialCards"] = True
    if mode == "quickPlay":
        sizes = list(range(60 // first, 0, -2))[::-1]
    else:
        sizes = list(range(1, 21))
    doc: dict = {"game": draw(st.sampled_from((number, f"g{number}")))}
    for key in ("title", "place", "notes"):
        if draw(st.booleans()):
            doc[key] = draw(TEXT)
    if dated:
        doc["date"] = f"2026-01-{number + 1:02d}"
    if seats_change:
        starts = [draw(st.sampled_from((0, 0, 30, -10))) for _ in players]
        players = [
            {
                "name": name,
                **({"joins": joins[s]} if joins[s] != 1 else {}),
                **({"leaves": leaves[s]} if leaves[s] else {}),
                **({"startScore": starts[s]} if starts[s] else {}),
            }
            for s, name in enumerate(players)
        ]
    doc["players"] = players
    names = [p if isinstance(p, str) else p["name"] for p in players]
    if draw(st.booleans()):
        doc["firstDealer"] = names[draw(st.sampled_from(seated[0]))]
    doc["settings"] = rules
    in_play = draw(st.booleans())
    doc["rounds"] = []
    for index, seats in enumerate(seated):
        number_ = index + 1
        size = sizes[index]
        record: dict = {}
        if seats_change and draw(st.integers(0, 3)) == 0:
            record["dealer"] = names[draw(st.integers(0, len(names) - 1))]
        if out.get(number_):
            record["out"] = [names[s] for s in out[number_]]
        bids = [draw(st.integers(0, size)) for _ in seats]
        if sum(bids) == size:  # never the bid a dealer rule forbids
            bids[0] += 1 if bids[0] < size else -1
        last = index == len(seated) - 1
        if last and in_play:
            record["bids"] = {names[s]: b for s, b in zip(seats, bids) if draw(st.booleans())}
        else:
            bomb = cards and draw(st.booleans())
            tricks = _split(draw, size - bomb, len(seats))
            record["bids"] = {names[s]: b for s, b in zip(seats, bids)}
            record["tricks"] = {names[s]: t for s, t in zip(seats, tricks)}
            if bomb:
                record["bomb"] = True
            took = [i for i, t in enumerate(tricks) if t]
            if cards and took and draw(st.booleans()):
                i = draw(st.sampled_from(took))
                change = (
                    1 if bids[i] == 0 else -1 if bids[i] == size else draw(st.sampled_from((1, -1)))
                )
                record["cloud"] = {names[seats[i]]: change}
        doc["rounds"].append(record)
    return doc


@st.composite
def seasons(draw) -> str:
    dated = draw(st.booleans())
    count = draw(st.integers(1, 4))
    return "---\n".join(json.dumps(draw(games(n, dated))) + "\n" for n in range(1, count + 1))


def _same(game: dict) -> dict:
    return {**game, "source": None, "game": str(game["game"])}


@settings(max_examples=300 if SLOW else 40, deadline=None, suppress_health_check=list(HealthCheck))
@given(season=seasons())
def test_a_season_goes_to_long_csv_and_back_as_the_same_games(season):
    expected = run("score", "-", "--input-format", "yaml", "-f", "json", input=season)
    assert expected.exit_code == 0, (expected.stderr, season)
    games = json.loads(expected.stdout)
    games = games if isinstance(games, list) else [games]
    as_csv = run("convert", "-", "--input-format", "yaml", "--to", "csv", input=season)
    assert as_csv.exit_code == 0, (as_csv.stderr, season)
    # the long CSV itself scores the same: every score, setting, dealer, seat and metadata
    read = score_json("-", "--input-format", "csv", input=as_csv.stdout)
    assert list(map(_same, read)) == list(map(_same, games)), as_csv.stdout
    back = run("convert", "-", "--input-format", "csv", "--to", "yaml", input=as_csv.stdout)
    assert back.exit_code == 0, back.stderr
    again = score_json("-", "--input-format", "yaml", input=back.stdout)
    assert list(map(_same, again)) == list(map(_same, games))
    # the bulk reader reads what the general one reads, row by row
    assert list(read_csv_sheets(io.StringIO(as_csv.stdout), "s.csv")) == list(
        read_csv_sheets(io.StringIO(as_csv.stdout), "s.csv", bulk=False)
    )


@pytest.mark.parametrize("target", ["csv"])
def test_the_sample_seasons_go_to_long_csv_and_back(tmp_path, target):
    from helpers import SAMPLES

    for sample in ("club-season.yaml", "latecomer.yaml", "anniversary.yaml"):
        source = SAMPLES / sample
        as_csv = run("convert", source, "--to", target)
        assert as_csv.exit_code == 0, as_csv.stderr
        read = score_json("-", "--input-format", "csv", input=as_csv.stdout)
        assert list(map(_same, read)) == [
            _same({**g, "game": g["game"]}) for g in score_json(source)
        ]


def test_a_title_a_spreadsheet_may_run_as_a_formula_is_warned_of_in_a_long_csv(write):
    """SPEC §8: the long CSV now writes the title as a cell; the wide one drops it."""
    path = write(
        "s.yaml",
        'title: "=1+1"\nplayers: [A, B, C]\nrounds:\n  - {bids: [1, 0, 0], tricks: [1, 0, 0]}\n',
    )
    long = run("convert", path, "--to", "csv")
    assert long.stderr == (
        f"{path}: warning: a cell begins with '=' (=1+1): a spreadsheet may "
        "run it as a formula; it is written as it is\n"
    )
    assert "warning" not in run("convert", path, "--to", "wide-csv").stderr


def test_a_player_out_of_every_recorded_round_joins_with_the_next(write):
    """`wizard join` seats a player from the next round: every recorded row of theirs is
    `out`, so they joined late, with the round after the last recorded one."""
    text = (
        "players: [A, B, C, {name: D, joins: 3, startScore: 20}]\nrounds:\n"
        "  - {bids: [1, 0, 0], tricks: [1, 0, 0]}\n  - {bids: [1, 0, 0], tricks: [1, 1, 0]}\n"
    )
    as_csv = run("convert", write("j.yaml", text), "--to", "csv")
    assert as_csv.stdout.splitlines()[4] == "1,D,out,,20"
    back = run("convert", "-", "--input-format", "csv", "--to", "yaml", input=as_csv.stdout)
    assert back.stdout == text.replace(
        "  - {bids: [1, 0, 0], tricks: [1, 0, 0]}\n  - {bids: [1, 0, 0], tricks: [1, 1, 0]}\n",
        "  - bids:   [1, 0, 0]\n    tricks: [1, 0, 0]\n"
        "  - bids:   [1, 0, 0]\n    tricks: [1, 1, 0]\n",
    )


def test_a_missing_row_in_a_game_whose_seating_changes_is_a_problem(write):
    """SPEC §3: in a game with seating changes every listed player has a row in every recorded
    round. Before: a missing row read as joining later (or leaving earlier), exit 0."""
    late = write(
        "late.csv",
        "round,player,bid,tricks\n1,A,1,1\n1,B,0,0\n1,C,0,0\n"
        "2,A,1,1\n2,B,1,1\n2,C,0,0\n2,D,out,\n3,A,1,1\n3,B,1,1\n3,C,0,1\n3,D,0,0\n",
    )
    early = write(
        "early.csv",
        "round,player,bid,tricks\n1,A,1,1\n1,B,0,0\n1,C,0,0\n1,D,0,0\n"
        "2,A,1,1\n2,B,1,1\n2,C,0,0\n2,D,out,\n3,A,1,1\n3,B,1,1\n3,C,0,1\n",
    )
    rule = "no row in this round: in a game whose seating changes every player has a row in "
    assert f"{late}:2: round 1, D: {rule}every round ('out' where not seated)" in problems(late)
    assert any(line.startswith(f"{early}:10: round 3, D: {rule}") for line in problems(early))
    assert run("convert", late, "--to", "yaml").exit_code == 1
