"""Validation (SPEC §4): every problem, its exact message, its LINE, round and player; all at once."""

from __future__ import annotations

import json

import pytest
from helpers import WORKED, run

HEAD = "players: [A, B, C]\nrounds:\n"  # rounds start on line 3


def problems(write, content: str, *args, name: str = "s.yaml") -> list[str]:
    """``check`` a sheet: asserts exit 1 and the stdout summary, returns the stderr lines."""
    path = write(name, content)
    result = run("check", path, *args)
    lines = result.stderr.splitlines()
    assert result.exit_code == 1, result.stdout
    count = len(lines)
    assert result.stdout == f"{path}: {count} problem{'s' if count != 1 else ''}\n"
    return [line.replace(str(path), "PATH") for line in lines]


def is_valid(write, content: str, *args, name: str = "s.yaml") -> bool:
    path = write(name, content)
    result = run("check", path, *args)
    assert result.stderr == "" and result.stdout == f"{path}: ok\n"
    return result.exit_code == 0


# --- players -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "count"), [("[A, B]", 2), ("[A, B, C, D, E, F, G]", 7), ("[]", 0)]
)
def test_three_to_six_players(write, players, count):
    assert problems(write, f"title: t\nplayers: {players}\nrounds: []\n") == [
        f"PATH:2: a game has 3 to 6 players, this sheet has {count}"
    ]


@pytest.mark.parametrize("count", [3, 4, 5, 6])
def test_three_to_six_players_are_fine(write, count):
    names = ", ".join("ABCDEF"[:count])
    assert is_valid(write, f"players: [{names}]\nrounds: []\n")


def test_duplicate_and_empty_names(write):
    assert problems(write, "players:\n  - A\n  - B\n  - A\n  - ''\n  - '  '\nrounds: []\n") == [
        "PATH:4: player 'A' is listed twice",
        "PATH:5: a player's name is empty",
        "PATH:6: a player's name is empty",
    ]


def test_bad_names_in_csv_headers(write):
    assert problems(write, "round,A,,A\n1,0/0,0/0,1/1\n", name="w.csv") == [
        "PATH:1: a player's name is empty",
        "PATH:1: player 'A' is listed twice",
    ]
    assert problems(write, "round,player,bid,tricks\n1,A,1,1\n1,B,0,0\n", name="l.csv") == [
        "PATH:2: a game has 3 to 6 players, this sheet has 2"
    ]


def test_an_unknown_player_in_a_round_with_a_suggestion(write):
    assert problems(
        write,
        "players: [Anna, Ben, Cara]\nrounds:\n"
        "  - bids: {Anna: 1, Ben: 0, Cora: 0}\n    tricks: [1, 0, 0]\n",
    ) == [
        "PATH:3: round 1: unknown player 'Cora' (did you mean 'Cara'?)",
        "PATH:3: round 1, Cara: missing bid",
    ]
    assert problems(write, HEAD + "  - bids: {A: 1, B: 0, Zed: 0}\n    tricks: [1, 0, 0]\n") == [
        "PATH:3: round 1: unknown player 'Zed'",
        "PATH:3: round 1, C: missing bid",
    ]
    assert problems(
        write,
        "players: [Anna, Ben, Cara]\nrounds:\n  - bids: [1, 0, 0]\n"
        "    tricks:\n      Anna: 1\n      Bne: 0\n      Cara: 0\n",
    ) == [
        "PATH:4: round 1, Ben: missing tricks",
        "PATH:6: round 1: unknown player 'Bne' (did you mean 'Ben'?)",
    ]


def test_an_unknown_first_dealer(write):
    assert problems(write, "players: [Anna, Ben, Cara]\nfirstDealer: Bne\nrounds: []\n") == [
        "PATH:2: firstDealer 'Bne' is not one of the players (did you mean 'Ben'?)"
    ]
    assert problems(write, "players: [Anna, Ben, Cara]\nrounds: []\n", "--first-dealer", "Zed") == [
        "PATH: --first-dealer 'Zed' is not one of the players"
    ]


# --- bids and tricks -----------------------------------------------------------------------


def test_a_missing_bid_in_a_completed_round(write):
    assert problems(write, HEAD + "  - bids: [1, null, 0]\n    tricks: [1, 0, 0]\n") == [
        "PATH:3: round 1, B: missing bid"
    ]
    assert problems(write, HEAD + "  - bids:\n      A: 1\n      C: 0\n    tricks: [1, 0, 0]\n") == [
        "PATH:3: round 1, B: missing bid"
    ]
    assert problems(write, "round,player,bid,tricks\n1,A,1,1\n1,B,,0\n1,C,0,0\n", name="l.csv") == [
        "PATH:3: round 1, B: missing bid"
    ]
    assert problems(write, "round,A,B,C\n1,1/1,/0,0/0\n", name="w.csv") == [
        "PATH:2: round 1, B: missing bid"
    ]


def test_missing_bids_are_allowed_only_in_the_round_in_play(write):
    assert is_valid(
        write, HEAD + "  - bids: [1, 0, 0]\n    tricks: [1, 0, 0]\n  - bids: [null, 1, null]\n"
    )
    assert is_valid(write, HEAD + "  - bids: {}\n")
    assert problems(
        write, HEAD + "  - bids: [null, 1, null]\n  - bids: [1, 1, 1]\n    tricks: [1, 1, 0]\n"
    ) == [
        "PATH:3: round 1: no tricks recorded, but only the last recorded round may be still in play",
        "PATH:3: round 1, A: missing bid",
        "PATH:3: round 1, C: missing bid",
    ]


def test_missing_tricks_in_a_completed_round(write):
    assert problems(write, HEAD + "  - bids: [1, 0, 0]\n    tricks: [1, null, 0]\n") == [
        "PATH:4: round 1, B: missing tricks"
    ]
    assert problems(write, "round,A,B,C\n1,1/1,0,0/0\n", name="w.csv") == [
        "PATH:2: round 1, B: missing tricks"
    ]


@pytest.mark.parametrize(
    ("bids", "tricks", "expected"),
    [
        ("[1.5, 0, 0]", "[1, 1, 0]", ["BIDS: round 2, A: bid '1.5' is not a whole number"]),
        ("[one, 0, 0]", "[1, 1, 0]", ["BIDS: round 2, A: bid 'one' is not a whole number"]),
        ("[true, 0, 0]", "[1, 1, 0]", ["BIDS: round 2, A: bid 'true' is not a whole number"]),
        ("[-1, 0, 0]", "[1, 1, 0]", ["BIDS: round 2, A: bid -1 is negative"]),
        ("[3, 0, 0]", "[1, 1, 0]", ["BIDS: round 2, A: bid 3 is more than the hand size of 2"]),
        (
            "[1, 0, 0]",
            "[1, 0.5, 0.5]",
            [
                "TRICKS: round 2, B: tricks '0.5' is not a whole number",
                "TRICKS: round 2, C: tricks '0.5' is not a whole number",
            ],
        ),
        (
            "[1, 0, 0]",
            "[3, -1, 0]",
            [
                "TRICKS: round 2, A: tricks 3 is more than the hand size of 2",
                "TRICKS: round 2, B: tricks -1 is negative",
            ],
        ),
        (
            "[1, 0, 0]",
            "[2, 1, 0]",
            ["TRICKS: round 2: tricks add up to 3, 1 more than the hand size of 2"],
        ),
        (
            "[1, 0, 0]",
            "[0, 0, 0]",
            ["TRICKS: round 2: tricks add up to 0, 2 short of the hand size of 2"],
        ),
    ],
)
def test_bid_and_tricks_values(write, bids, tricks, expected):
    content = HEAD + "  - bids: [0, 0, 1]\n    tricks: [0, 0, 1]\n"  # round 1 is fine
    lines = problems(write, content + f"  - bids: {bids}\n    tricks: {tricks}\n")
    assert lines == [
        line.replace("BIDS", "PATH:5").replace("TRICKS", "PATH:6") for line in expected
    ]


def test_bid_and_tricks_values_in_csv(write):
    long = "round,player,bid,tricks\n1,A,0,0\n1,B,0,0\n1,C,1,1\n2,A,x,1\n2,B,-1,3\n2,C,3,0.5\n"
    assert problems(write, long, name="l.csv") == [
        "PATH:5: round 2, A: bid 'x' is not a whole number",
        "PATH:6: round 2, B: bid -1 is negative",
        "PATH:6: round 2, B: tricks 3 is more than the hand size of 2",
        "PATH:7: round 2, C: bid 3 is more than the hand size of 2",
        "PATH:7: round 2, C: tricks '0.5' is not a whole number",
    ]
    wide = "round,A,B,C\n1,0/0,0/0,1/1\n2,x/1,-1/3,3/0.5\n"
    assert problems(write, wide, name="w.csv") == [
        "PATH:3: round 2, A: bid 'x' is not a whole number",
        "PATH:3: round 2, B: bid -1 is negative",
        "PATH:3: round 2, B: tricks 3 is more than the hand size of 2",
        "PATH:3: round 2, C: bid 3 is more than the hand size of 2",
        "PATH:3: round 2, C: tricks '0.5' is not a whole number",
    ]


def test_a_csv_cell_of_2_0_is_2(write):
    assert is_valid(
        write, "round,player,bid,tricks\n1,A,1.0,1.00\n1,B,0,0\n1,C,0.0,0\n", name="l.csv"
    )


def test_tricks_adding_up_wrong_in_csv(write):
    assert problems(
        write, "round,player,bid,tricks\n1,A,1,1\n1,B,0,1\n1,C,0,0\n", name="l.csv"
    ) == ["PATH:2: round 1: tricks add up to 2, 1 more than the hand size of 1"]
    assert problems(write, "round,A,B,C\n1,1/0,0/0,0/0\n", name="w.csv") == [
        "PATH:2: round 1: tricks add up to 0, 1 short of the hand size of 1"
    ]


def test_tricks_with_no_bids(write):
    assert problems(write, HEAD + "  - tricks: [1, 0, 0]\n") == [
        "PATH:3: round 1: tricks with no bids"
    ]
    assert problems(write, HEAD + "  - bids: [null, null, null]\n    tricks: [1, 0, 0]\n") == [
        "PATH:3: round 1: tricks with no bids"
    ]
    assert problems(write, "round,player,bid,tricks\n1,A,,1\n1,B,,0\n1,C,,0\n", name="l.csv") == [
        "PATH:2: round 1: tricks with no bids"
    ]


def test_a_round_without_tricks_that_is_not_the_last(write):
    assert problems(
        write, HEAD + "  - bids: [1, 0, 0]\n  - bids: [1, 0, 0]\n    tricks: [1, 1, 0]\n"
    ) == [
        "PATH:3: round 1: no tricks recorded, but only the last recorded round may be still in play"
    ]
    assert problems(
        write,
        "round,player,bid,tricks\n1,A,1,\n1,B,0,\n1,C,0,\n2,A,1,1\n2,B,0,1\n2,C,0,0\n",
        name="l.csv",
    ) == [
        "PATH:2: round 1: no tricks recorded, but only the last recorded round may be still in play"
    ]


@pytest.mark.parametrize(
    ("settings", "last", "mode"),
    [
        ("{roundMode: custom, customRoundCount: 1}", 1, "custom"),
        ("{roundMode: quickPlay}", 10, "quickPlay"),
        ("{}", 20, "wholeDeck"),
    ],
)
def test_more_rounds_than_the_game_has(write, settings, last, mode):
    sizes = {"custom": [1], "quickPlay": list(range(2, 21, 2)), "wholeDeck": list(range(1, 21))}
    rounds = "".join(f"  - bids: [0, 0, 0]\n    tricks: [{size}, 0, 0]\n" for size in sizes[mode])
    content = f"players: [A, B, C]\nsettings: {settings}\nrounds:\n" + rounds
    assert is_valid(write, content)
    line = 4 + 2 * len(sizes[mode])
    assert problems(write, content + "  - bids: [0, 0, 0]\n") == [
        f"PATH:{line}: round {last + 1}: more rounds than the game has: it ends after round "
        f"{last} (roundMode={mode} with 3 players)"
    ]


ROUND_ONE_DEALER_ZERO = (
    "players: [A, B, C]\nsettings:\n  screwTheDealer: MODE\nrounds:\n"
    "  - bids: [0, 1, 0]\n    tricks: [0, 1, 0]\n"
)  # A deals: 0 + 1 + 0 = 1


def test_a_forbidden_dealer_bid_says_which_bid(write):
    assert problems(write, ROUND_ONE_DEALER_ZERO.replace("MODE", "always")) == [
        "PATH:5: round 1, A: the dealer may not bid 0 under screwTheDealer=always: the bids would "
        "add up to the hand size of 1"
    ]


@pytest.mark.parametrize("mode", ["off", "leaderOnly", "unlessTiedLead"])
def test_before_round_one_only_always_binds_the_dealer(write, mode):
    assert is_valid(write, ROUND_ONE_DEALER_ZERO.replace("MODE", mode))


@pytest.mark.parametrize("mode", ["leaderOnly", "unlessTiedLead"])
def test_forbidden_dealer_bids_follow_the_lead(write, mode):
    content = (
        "players: [A, B, C]\nsettings:\n  screwTheDealer: MODE\nrounds:\n"
        "  - bids: [0, 1, 0]\n    tricks: [0, 1, 0]\n"  # B leads alone with 30
        "  - bids: [0, 1, 1]\n    tricks: [0, 1, 1]\n"  # B deals: 0 + 1 + 1 = 2
        "  - bids: [1, 0, 1]\n"
    ).replace("MODE", mode)  # C deals, in play: 2 is forbidden
    assert problems(write, content) == [
        f"PATH:7: round 2, B: the dealer may not bid 1 under screwTheDealer={mode}: the bids "
        "would add up to the hand size of 2"
    ]


def test_the_canadian_rule_allows_a_dealer_zero(write):
    content = ROUND_ONE_DEALER_ZERO.replace("MODE", "always")
    assert is_valid(write, content, "--set", "canadianRule=true")
    assert is_valid(write, content.replace("always", "always\n  canadianRule: true"))


def test_a_forbidden_dealer_bid_in_the_round_in_play(write):
    content = (
        "players: [A, B, C]\nsettings: {screwTheDealer: always}\nrounds:\n"
        "  - bids: {B: 0, C: 0, A: 1}\n"
    )
    assert problems(write, content) == [
        "PATH:4: round 1, A: the dealer may not bid 1 under screwTheDealer=always: the bids would "
        "add up to the hand size of 1"
    ]


def test_a_forbidden_bid_after_a_bad_round_is_still_found_under_always(write):
    content = (
        "players: [A, B, C]\nsettings: {screwTheDealer: always}\nrounds:\n"
        "  - bids: [0, 0, 0]\n    tricks: [1, 0, 0]\n"
        "  - bids: [0, 0, 9]\n    tricks: [1, 1, 0]\n"
        "  - bids: [1, 1, 1]\n    tricks: [1, 1, 1]\n"
    )
    assert problems(write, content) == [
        "PATH:6: round 2, C: bid 9 is more than the hand size of 2",
        "PATH:8: round 3, C: the dealer may not bid 1 under screwTheDealer=always: the bids would "
        "add up to the hand size of 3",
    ]


def test_settings_problems_in_a_sheet(write):
    content = (
        "players: [A, B, C]\nsettings:\n  exactbonus: 20\n  missPenalty: 12\n"
        "  roundMode: custom\n  customRoundCount: 21\n  bidding: hidden\n"
        "  screwTheDealer: always\nrounds: []\n"
    )
    assert problems(write, content) == [
        "PATH:3: unknown setting 'exactbonus' (did you mean 'exactBonus'?)",
        "PATH:4: setting missPenalty: 12 is not allowed (allowed: 0–30 in steps of 5)",
        "PATH:6: setting customRoundCount: 21 is not allowed (allowed: 1–20 in steps of 1)",
        "PATH:8: screwTheDealer=always needs open bids, but bidding is hidden (a dealer "
        "restriction makes no sense with hidden bids)",
    ]
    assert problems(
        write,
        "players: [A, B, C, D, E, F]\nsettings:\n  roundMode: custom\n"
        "  customRoundCount: 11\nrounds: []\n",
    ) == ["PATH:4: customRoundCount 11 is more rounds than 6 players can be dealt (at most 10)"]


def test_unparsable_yaml_has_line_and_column(write):
    assert problems(write, "players: [A, B, C\nrounds: []\n") == [
        "PATH:2: not valid YAML: did not find expected ',' or ']' (line 2, column 7)"
    ]


def test_sheet_structure_problems(write):
    assert problems(
        write, HEAD + "  - bids: [1, 0, 0]\n    trick: [1, 0, 0]\n  - 5\ncolour: red\n"
    ) == [
        "PATH:3: round 1: no tricks recorded, but only the last recorded round may be still in play",
        "PATH:4: round 1: unknown key 'trick' (did you mean 'tricks'?) (a round has bids, tricks, "
        "points, bomb, cloud)",
        "PATH:5: round 2: a round is a mapping with 'bids' and 'tricks', not '5'",
        "PATH:6: unknown key 'colour' (a sheet has game, title, date, place, notes, players, "
        "firstDealer, settings, rounds)",
    ]
    assert problems(write, HEAD + "  - bids: [1, 0]\n    tricks: [1, 0, 0]\n") == [
        "PATH:3: round 1: 2 bids for 3 players (a list gives one per player in seating order; "
        "use null for one still to come)",
        "PATH:3: round 1, C: missing bid",
    ]


# --- everything at once, in file order -----------------------------------------------------

EVERYTHING = """\
title: Everything wrong
players: [Anna, Ben, Cara]
settings:
  roundMode: custom
  customRoundCount: 4
  missPenalty: 12
  screwTheDealer: always
rounds:
  - bids: [1, 0, 0]
    tricks: [1, 0, 0]
  - bids: [1, -1, x]
    tricks: [1, 1, 1]
  - bids: {Anna: 0, Bem: 1}
    tricks: {Anna: 0, Ben: 4, Cara: 1}
  - tricks: [1, 1, 2]
  - bids: [0, 0, 5]
"""

EVERYTHING_PROBLEMS = [
    (6, None, None, "setting missPenalty: 12 is not allowed (allowed: 0–30 in steps of 5)"),
    (
        9,
        1,
        "Anna",
        "the dealer may not bid 1 under screwTheDealer=always: the bids would add up "
        "to the hand size of 1",
    ),
    (11, 2, "Ben", "bid -1 is negative"),
    (11, 2, "Cara", "bid 'x' is not a whole number"),
    (12, 2, None, "tricks add up to 3, 1 more than the hand size of 2"),
    (13, 3, None, "unknown player 'Bem' (did you mean 'Ben'?)"),
    (13, 3, "Ben", "missing bid"),
    (13, 3, "Cara", "missing bid"),
    (14, 3, "Ben", "tricks 4 is more than the hand size of 3"),
    (14, 3, None, "tricks add up to 5, 2 more than the hand size of 3"),
    (15, 4, None, "tricks with no bids"),
    (
        16,
        5,
        None,
        "more rounds than the game has: it ends after round 4 (roundMode=custom with 3 players)",
    ),
]


def render(line, round_, player, message) -> str:
    what = ", ".join(p for p in (f"round {round_}" if round_ else None, player) if p)
    return f"PATH:{line}: " + (f"{what}: " if what else "") + message


def test_every_problem_of_a_sheet_in_one_run_in_file_order(write):
    assert problems(write, EVERYTHING) == [render(*p) for p in EVERYTHING_PROBLEMS]


def test_check_json_lists_the_same_problems(write):
    path = write("e.yaml", EVERYTHING)
    result = run("check", path, "-f", "json")
    assert result.exit_code == 1
    assert json.loads(result.stdout) == {
        "source": str(path),
        "game": None,
        "valid": False,
        "problems": [
            {"line": line, "round": round_, "player": player, "message": message}
            for line, round_, player, message in EVERYTHING_PROBLEMS
        ],
    }


def test_every_problem_of_a_long_csv_in_one_run(write):
    content = (
        "round,player,bid,tricks\n1,Anna,1,1\n1,Ben,0,0\n1,Cara,0,0\n"
        "2,Anna,1,1\n2,Ben,-1,1\n2,Cara,x,1\n"
        "3,Anna,0,0\n3,Ben,1,4\n3,Cara,,1\n"
        "4,Anna,,1\n4,Ben,,1\n4,Cara,,2\n5,Anna,0,\n"
    )
    assert problems(
        write,
        content,
        "--set",
        "roundMode=custom",
        "--set",
        "customRoundCount=4",
        "--set",
        "screwTheDealer=always",
        name="e.csv",
    ) == [
        "PATH:2: round 1, Anna: the dealer may not bid 1 under screwTheDealer=always: the bids "
        "would add up to the hand size of 1",
        "PATH:5: round 2: tricks add up to 3, 1 more than the hand size of 2",
        "PATH:6: round 2, Ben: bid -1 is negative",
        "PATH:7: round 2, Cara: bid 'x' is not a whole number",
        "PATH:8: round 3: tricks add up to 5, 2 more than the hand size of 3",
        "PATH:9: round 3, Ben: tricks 4 is more than the hand size of 3",
        "PATH:10: round 3, Cara: missing bid",
        "PATH:11: round 4: tricks with no bids",
        "PATH:14: round 5: more rounds than the game has: it ends after round 4 (roundMode=custom "
        "with 3 players)",
    ]


# --- several sheets ------------------------------------------------------------------------


def test_valid_sheets_are_still_printed_when_others_are_not(write):
    bad = write("bad.yaml", HEAD + "  - bids: [1, 0, 0]\n    tricks: [1, 1, 0]\n")
    message = f"{bad}:4: round 1: tricks add up to 2, 1 more than the hand size of 1\n"
    result = run("standings", WORKED, bad, "-f", "json")
    assert (result.exit_code, result.stderr) == (1, message)
    data = json.loads(result.stdout)
    assert [d["source"] for d in data] == [str(WORKED)]
    result = run("score", bad, WORKED, "-f", "csv")
    assert (result.exit_code, result.stderr) == (1, message)
    assert result.stdout.splitlines()[:2] == [
        "source,game,round,player,bid,tricks,points,total",
        f"{WORKED},,1,Anna,1,1,30,30",
    ]
    result = run("check", WORKED, bad)
    assert (result.exit_code, result.stdout, result.stderr) == (
        1,
        f"{WORKED}: ok\n{bad}: 1 problem\n",
        message,
    )


def test_a_season_with_an_invalid_game(write):
    game = HEAD + "  - bids: [1, 0, 0]\n    tricks: [1, 0, 0]\n"
    path = write("season.yaml", game + "---\nplayers: [A, B]\n---\n" + game)
    result = run("standings", path, "-f", "jsonl")
    assert result.exit_code == 1
    assert [json.loads(line)["game"] for line in result.stdout.splitlines()] == [1, 3]
    assert result.stderr == f"{path}:6: a game has 3 to 6 players, this sheet has 2\n"
    result = run("check", path)
    assert result.stdout == (f"{path}, game 1: ok\n{path}, game 2: 1 problem\n{path}, game 3: ok\n")


def test_no_traceback_for_nonsense(write):
    for name, content in [
        ("a.yaml", "[[[["),
        ("b.yaml", "players: {a: 1}\nrounds: {b: 2}\n"),
        ("c.yaml", "- - - -\n"),
        ("d.csv", '"unterminated\n1,2\n'),
        ("e.yaml", "players: [A, B, C]\nrounds: [[1, 2], {bids: 7}]\n"),
        ("f.csv", "round,player,bid,tricks\n,,,\nx,y,z,w\n"),
        ("g.yaml", b"\xff\xfe\x00"),
    ]:
        path = write(name, content)
        for command in ("score", "standings", "check", "next"):
            result = run(command, path)
            assert result.exit_code == 1, (name, command, result.stdout)
            assert "Traceback" not in result.stderr and "internal error" not in result.stderr
            assert result.stderr.startswith(str(path))
