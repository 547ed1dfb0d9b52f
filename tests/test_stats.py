"""`wizard stats`: per-player figures across games, checked against numbers worked out by hand."""

from __future__ import annotations

import dataclasses
import json
import tracemalloc

from helpers import SAMPLES, WORKED, run
from hypothesis import given, settings
from hypothesis import strategies as st

from wizard_cli.game.game import score_game
from wizard_cli.game.model import RoundRecord, Sheet
from wizard_cli.game.settings import RawSetting
from wizard_cli.game.stats import PlayerStats, season_stats
from wizard_cli.game.validation import check_sheet

SEASON = SAMPLES / "season.csv"

# sample_sheets/season.csv: three finished 4-player games of 15 rounds (default rules: made bid
# 20 + 10 a trick, missed -10 a trick away). Tallied from the file row by row, per game
# 2026-01-09 / 2026-01-16 / 2026-01-23:
#   Anna  made 9/11/13 = 33 of 45; zero bids made/tried 3/4, 0/1, 4/4; over 5/3/1, under 1/1/1;
#         scores 300, 450 (won), 480 (won)
#   Ben   made 11/11/9 = 31; zeros 5/5, 2/2, 2/2; over 1/2/5, under 3/2/1; scores 280, 400, 260
#   Cara  made 10/9/8 = 27; zeros 0/1, 3/3, 0/2; over 4/3/3, under 1/3/4; 440 (won), 240, 310
#   Dan   made 10/12/11 = 33; zeros 3/4, 6/6, 3/3; over 1/2/3, under 4/1/1; scores 370, 390, 380
# Every missed bid in the file is missed by exactly one trick, so each average miss is 1.
SEASON_STATS = [
    {
        "player": "Anna",
        "games": 3,
        "wins": 2,
        "averageScore": 410.0,
        "bestScore": 480,
        "rounds": 45,
        "bidAccuracy": 0.7333,
        "zeroBidsMade": 7,
        "zeroBidsTried": 9,
        "averageMiss": 1.0,
        "overbids": 9,
        "underbids": 3,
    },
    {
        "player": "Cara",
        "games": 3,
        "wins": 1,
        "averageScore": 330.0,
        "bestScore": 440,
        "rounds": 45,
        "bidAccuracy": 0.6,
        "zeroBidsMade": 3,
        "zeroBidsTried": 6,
        "averageMiss": 1.0,
        "overbids": 10,
        "underbids": 8,
    },
    {
        "player": "Dan",
        "games": 3,
        "wins": 0,
        "averageScore": 380.0,
        "bestScore": 390,
        "rounds": 45,
        "bidAccuracy": 0.7333,
        "zeroBidsMade": 12,
        "zeroBidsTried": 13,
        "averageMiss": 1.0,
        "overbids": 6,
        "underbids": 6,
    },
    {
        "player": "Ben",
        "games": 3,
        "wins": 0,
        "averageScore": 313.33,
        "bestScore": 400,
        "rounds": 45,
        "bidAccuracy": 0.6889,
        "zeroBidsMade": 9,
        "zeroBidsTried": 9,
        "averageMiss": 1.0,
        "overbids": 8,
        "underbids": 6,
    },
]

SEASON_TABLE = """\
3 games, 3 finished

Player      Games    Wins    Avg score    Best    Rounds    Bid accuracy    Zero bids    Avg miss    Over    Under
--------  -------  ------  -----------  ------  --------  --------------  -----------  ----------  ------  -------
Anna            3       2       410.00     480        45           73.3%          7/9        1.00       9        3
Cara            3       1       330.00     440        45           60.0%          3/6        1.00      10        8
Dan             3       0       380.00     390        45           73.3%        12/13        1.00       6        6
Ben             3       0       313.33     400        45           68.9%          9/9        1.00       8        6
"""

SEASON_CSV = """\
player,games,wins,averageScore,bestScore,rounds,bidAccuracy,zeroBidsMade,zeroBidsTried,averageMiss,overbids,underbids
Anna,3,2,410.0,480,45,0.7333,7,9,1.0,9,3
Cara,3,1,330.0,440,45,0.6,3,6,1.0,10,8
Dan,3,0,380.0,390,45,0.7333,12,13,1.0,6,6
Ben,3,0,313.33,400,45,0.6889,9,9,1.0,8,6
"""

# Game 1 (finished, 2 rounds): Ann 1/1 → 30, 0/0 → 20 = 50; Bob 0/0 → 20, 2/1 → -10 = 10;
# Cy 0/0 → 20, 1/1 → 30 = 50: Ann and Cy share first place.
# Game 2 (3 rounds, 2 done, the third in play): Ann 0/1 (under by 1), 2/0 (over by 2);
# Bob 1/0 (over by 1), 0/2 (under by 2); Dee 0/0, 0/0. Ann's zero bid in play does not count.
MIXED_SEASON = """\
players: [Ann, Bob, Cy]
settings: {roundMode: custom, customRoundCount: 2}
rounds:
  - bids: [1, 0, 0]
    tricks: [1, 0, 0]
  - bids: [0, 2, 1]
    tricks: [0, 1, 1]
---
players: [Ann, Bob, Dee]
settings: {roundMode: custom, customRoundCount: 3}
rounds:
  - bids: [0, 1, 0]
    tricks: [1, 0, 0]
  - bids: [2, 0, 0]
    tricks: [0, 2, 0]
  - bids: {Ann: 0, Bob: 1}
"""

MIXED_STATS = [
    {
        "player": "Ann",
        "games": 1,
        "wins": 1,
        "averageScore": 50.0,
        "bestScore": 50,
        "rounds": 4,
        "bidAccuracy": 0.5,
        "zeroBidsMade": 1,
        "zeroBidsTried": 2,
        "averageMiss": 1.5,
        "overbids": 1,
        "underbids": 1,
    },
    {
        "player": "Cy",
        "games": 1,
        "wins": 1,
        "averageScore": 50.0,
        "bestScore": 50,
        "rounds": 2,
        "bidAccuracy": 1.0,
        "zeroBidsMade": 1,
        "zeroBidsTried": 1,
        "averageMiss": None,
        "overbids": 0,
        "underbids": 0,
    },
    {
        "player": "Bob",
        "games": 1,
        "wins": 0,
        "averageScore": 10.0,
        "bestScore": 10,
        "rounds": 4,
        "bidAccuracy": 0.25,
        "zeroBidsMade": 1,
        "zeroBidsTried": 2,
        "averageMiss": 1.33,
        "overbids": 2,
        "underbids": 1,
    },
    {
        "player": "Dee",
        "games": 0,
        "wins": 0,
        "averageScore": None,
        "bestScore": None,
        "rounds": 2,
        "bidAccuracy": 1.0,
        "zeroBidsMade": 2,
        "zeroBidsTried": 2,
        "averageMiss": None,
        "overbids": 0,
        "underbids": 0,
    },
]


def stats_json(*args: object) -> list[dict]:
    result = run("stats", *args, "-f", "json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


# --- the season sample, every format -------------------------------------------------------


def test_season_json_matches_the_hand_count():
    assert stats_json(SEASON) == SEASON_STATS


def test_season_table():
    result = run("stats", SEASON)
    assert (result.exit_code, result.stdout, result.stderr) == (0, SEASON_TABLE, "")


def test_season_markdown():
    result = run("stats", SEASON, "-f", "markdown")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "3 games, 3 finished",
        "",
        "| Player   |   Games |   Wins |   Avg score |   Best |   Rounds |   Bid accuracy |   Zero bids |   Avg miss |   Over |   Under |",
        "|----------|---------|--------|-------------|--------|----------|----------------|-------------|------------|--------|---------|",
        "| Anna     |       3 |      2 |      410.00 |    480 |       45 |          73.3% |         7/9 |       1.00 |      9 |       3 |",
        "| Cara     |       3 |      1 |      330.00 |    440 |       45 |          60.0% |         3/6 |       1.00 |     10 |       8 |",
        "| Dan      |       3 |      0 |      380.00 |    390 |       45 |          73.3% |       12/13 |       1.00 |      6 |       6 |",
        "| Ben      |       3 |      0 |      313.33 |    400 |       45 |          68.9% |         9/9 |       1.00 |      8 |       6 |",
    ]


def test_season_csv():
    result = run("stats", SEASON, "-f", "csv")
    assert (result.exit_code, result.stdout) == (0, SEASON_CSV)


def test_season_tsv():
    result = run("stats", SEASON, "-f", "tsv")
    assert (result.exit_code, result.stdout) == (0, SEASON_CSV.replace(",", "\t"))


def test_season_jsonl_is_one_player_per_line():
    result = run("stats", SEASON, "-f", "jsonl")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert [json.loads(line) for line in lines] == SEASON_STATS
    assert lines[0].startswith('{"player":"Anna","games":3,"wins":2,')


def test_season_from_separate_files_adds_up(write):
    """The same games given as three files count the same as the multi-game CSV."""
    rows = SEASON.read_text(encoding="utf-8").splitlines()
    files = []
    for game in ("2026-01-09", "2026-01-16", "2026-01-23"):
        body = [",".join(row.split(",")[1:]) for row in rows[1:] if row.startswith(game)]
        files.append(write(f"{game}.csv", "round,player,bid,tricks\n" + "\n".join(body) + "\n"))
    assert stats_json(*files) == SEASON_STATS


# --- what counts -----------------------------------------------------------------------------


def test_shared_win_and_unfinished_game_counted_for_bids_only(write):
    assert stats_json(write("mixed.yaml", MIXED_SEASON)) == MIXED_STATS


def test_mixed_season_table_shows_dashes_for_undefined(write):
    result = run("stats", write("mixed.yaml", MIXED_SEASON))
    assert result.exit_code == 0
    assert (
        result.stdout
        == """\
2 games, 1 finished

Player      Games    Wins    Avg score    Best    Rounds    Bid accuracy    Zero bids    Avg miss    Over    Under
--------  -------  ------  -----------  ------  --------  --------------  -----------  ----------  ------  -------
Ann             1       1        50.00      50         4           50.0%          1/2        1.50       1        1
Cy              1       1        50.00      50         2          100.0%          1/1           -       0        0
Bob             1       0        10.00      10         4           25.0%          1/2        1.33       2        1
Dee             0       0            -       -         2          100.0%          2/2           -       0        0
"""
    )


def test_mixed_season_csv_leaves_undefined_cells_empty(write):
    result = run("stats", write("mixed.yaml", MIXED_SEASON), "-f", "csv")
    assert result.stdout.splitlines()[1:] == [
        "Ann,1,1,50.0,50,4,0.5,1,2,1.5,1,1",
        "Cy,1,1,50.0,50,2,1.0,1,1,,0,0",
        "Bob,1,0,10.0,10,4,0.25,1,2,1.33,2,1",
        "Dee,0,0,,,2,1.0,2,2,,0,0",
    ]


ONE_ROUND = """\
players: [Ann, Bob, Cy]
settings: {roundMode: custom, customRoundCount: 1}
rounds:
  - bids: [1, 0, 0]
    tricks: [1, 0, 0]
"""


def test_three_way_tie_is_a_win_for_each(write):
    # perCardBonus: a made zero scores 20 + 10 × 1 card = 30, the same as Ann's made 1.
    data = stats_json(write("tie.yaml", ONE_ROUND), "--zero-bid", "perCardBonus")
    assert [(p["player"], p["wins"], p["averageScore"]) for p in data] == [
        ("Ann", 1, 30.0),
        ("Bob", 1, 30.0),
        ("Cy", 1, 30.0),
    ]


def test_wins_follow_the_tie_break_rule(write):
    # totalBids: Ann bid 1 against the others' 0, so she alone ranks first.
    data = stats_json(
        write("tie.yaml", ONE_ROUND), "--zero-bid", "perCardBonus", "--set", "tieBreak=totalBids"
    )
    assert [(p["player"], p["wins"]) for p in data] == [("Ann", 1), ("Bob", 0), ("Cy", 0)]


def test_rule_options_change_scores_not_bid_figures():
    plain, double = stats_json(WORKED), stats_json(WORKED, "--zero-bid", "doubleBonus")
    assert [(p["player"], p["averageScore"]) for p in plain] == [
        ("Ben", 140.0),
        ("Anna", 90.0),
        ("Cara", 40.0),
        ("Dan", -60.0),
    ]
    assert [(p["player"], p["averageScore"]) for p in double] == [
        ("Ben", 180.0),
        ("Anna", 90.0),
        ("Cara", 80.0),
        ("Dan", -60.0),
    ]
    drop = {"averageScore", "bestScore"}
    assert [{k: v for k, v in p.items() if k not in drop} for p in plain] == [
        {k: v for k, v in p.items() if k not in drop} for p in double
    ]


def test_worked_example_bid_figures():
    # SPEC §6: Dan bids 1, 2, 1, 1, 0 and takes 0, 0, 0, 0, 1: every bid missed, four over, one
    # under, misses 1 + 2 + 1 + 1 + 1 = 6 over 5. Cara's zeros: 0/0, 0/1, 0/0 → 2 of 3.
    by_name = {p["player"]: p for p in stats_json(WORKED)}
    assert by_name["Dan"] == {
        "player": "Dan",
        "games": 1,
        "wins": 0,
        "averageScore": -60.0,
        "bestScore": -60,
        "rounds": 5,
        "bidAccuracy": 0.0,
        "zeroBidsMade": 0,
        "zeroBidsTried": 1,
        "averageMiss": 1.2,
        "overbids": 4,
        "underbids": 1,
    }
    assert (by_name["Cara"]["zeroBidsMade"], by_name["Cara"]["zeroBidsTried"]) == (2, 3)
    assert by_name["Ben"]["bidAccuracy"] == 1.0 and by_name["Ben"]["averageMiss"] is None


def test_equal_wins_and_average_sort_by_name(write):
    sheet = """\
players: [Cy, ann, Bob]
settings: {roundMode: custom, customRoundCount: 1}
rounds:
  - bids: [0, 0, 0]
    tricks: [1, 0, 0]
"""
    # Cy misses (-10); ann and Bob make zero (20 each) and share the win: sorted by name.
    data = stats_json(write("names.yaml", sheet))
    assert [p["player"] for p in data] == ["ann", "Bob", "Cy"]


def test_a_blank_sheet_lists_its_players_with_nothing_counted(write):
    data = stats_json(write("blank.yaml", "players: [A, B, C]\n"))
    assert data[0] == {
        "player": "A",
        "games": 0,
        "wins": 0,
        "averageScore": None,
        "bestScore": None,
        "rounds": 0,
        "bidAccuracy": None,
        "zeroBidsMade": 0,
        "zeroBidsTried": 0,
        "averageMiss": None,
        "overbids": 0,
        "underbids": 0,
    }


# --- bad input -----------------------------------------------------------------------------

BROKEN = """\
players: [Ann, Bob, Cy]
rounds:
  - bids: [1, 0, 0]
    tricks: [1, 1, 0]
"""


def test_invalid_sheet_reported_and_the_valid_ones_still_counted(write):
    broken = write("broken.yaml", BROKEN)
    result = run("stats", broken, SEASON, "-f", "json")
    assert result.exit_code == 1
    assert json.loads(result.stdout) == SEASON_STATS
    assert (
        result.stderr
        == f"{broken}:4: round 1: tricks add up to 2, 1 more than the hand size of 1\n"
    )


def test_only_invalid_sheets_give_an_empty_list(write):
    result = run("stats", write("broken.yaml", BROKEN), "-f", "json")
    assert (result.exit_code, result.stdout) == (1, "[]\n")
    assert result.stderr.endswith("tricks add up to 2, 1 more than the hand size of 1\n")


def test_only_invalid_sheets_csv_has_just_the_header(write):
    result = run("stats", write("broken.yaml", BROKEN), "-f", "csv")
    assert (result.exit_code, result.stdout) == (1, SEASON_CSV.splitlines()[0] + "\n")


def test_missing_file_is_a_usage_error():
    result = run("stats", SAMPLES / "no-such-file.yaml")
    assert result.exit_code == 2
    assert "no such file" in result.stderr


def test_bad_setting_is_a_data_error():
    result = run("stats", SEASON, "--set", "exactBonus=7")
    assert result.exit_code == 1
    assert "exactBonus" in result.stderr and result.stdout == ""


def test_stats_from_stdin():
    result = run("stats", "-", "-f", "json", input=SEASON.read_text(encoding="utf-8"))
    assert result.exit_code == 0
    assert json.loads(result.stdout) == SEASON_STATS


# --- the pure core -------------------------------------------------------------------------


def test_player_stats_accumulator():
    tally = PlayerStats("Ann")
    for bid, tricks in [(0, 0), (0, 2), (3, 1), (2, 2), (1, 4)]:
        tally.add_round(bid, tricks)
    tally.add_game(50, True)
    tally.add_game(-10, False)
    assert (tally.rounds, tally.made, tally.zero_bids_tried, tally.zero_bids_made) == (5, 2, 2, 1)
    assert (tally.overbids, tally.underbids, tally.missed, tally.miss_sum) == (1, 2, 3, 7)
    assert tally.average_miss == 7 / 3 and tally.bid_accuracy == 0.4
    assert (tally.games, tally.wins, tally.best_score, tally.average_score) == (2, 1, 50, 20.0)


def test_undefined_averages_are_none():
    tally = PlayerStats("Ann")
    assert (tally.average_score, tally.bid_accuracy, tally.average_miss) == (None, None, None)


def worked_result():
    from wizard_cli.sheets.formats import read_sheets

    checked = check_sheet(next(read_sheets(str(WORKED))))
    return score_game(checked.validated)


def test_season_consumes_a_stream_in_flat_memory():
    """A long season keeps per-player tallies only: memory does not grow with the games."""
    result = worked_result()

    def stream(count: int):
        """A fresh result object for every game, as a reader would produce them."""
        game = result.validated
        return (
            dataclasses.replace(
                result,
                validated=dataclasses.replace(
                    game, sheet=dataclasses.replace(game.sheet, game=number)
                ),
            )
            for number in range(count)
        )

    season_stats(stream(100))  # warm up caches before measuring
    tracemalloc.start()
    try:
        season = season_stats(stream(5_000))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert season.games == season.finished == 5_000
    assert season.players["Ben"].wins == 5_000 and season.players["Ben"].rounds == 25_000
    assert peak < 200_000  # bytes: a few small objects, nothing per game


# --- properties ------------------------------------------------------------------------------


@st.composite
def games(draw: st.DrawFn) -> Sheet:
    """A valid game of 3-4 players from a pool of names, 0-4 rounds of a 4-round custom game."""
    pool = ["Ann", "Bob", "Cy", "Dee", "Eve"]
    players = draw(st.lists(st.sampled_from(pool), min_size=3, max_size=4, unique=True))
    count = len(players)
    sheet = Sheet(source="generated", players=players, player_lines=[None] * count)
    for number in range(1, draw(st.integers(0, 4)) + 1):
        bids = draw(st.lists(st.integers(0, number), min_size=count, max_size=count))
        cuts = sorted(
            draw(st.lists(st.integers(0, number), min_size=count - 1, max_size=count - 1))
        )
        tricks = [b - a for a, b in zip([0, *cuts], [*cuts, number])]
        sheet.rounds.append(RoundRecord(number, None, bids, [None] * count, tricks, [None] * count))
    return sheet


def scored(sheet: Sheet):
    checked = check_sheet(sheet)
    assert checked.valid, checked.problems
    return score_game(checked.validated)


def custom(sheet: Sheet) -> Sheet:
    """Play it as a 4-round custom game."""
    sheet.settings = [RawSetting("roundMode", "custom"), RawSetting("customRoundCount", 4)]
    return sheet


@settings(max_examples=60, deadline=None)
@given(st.lists(games().map(custom), max_size=6))
def test_figures_are_consistent(sheets: list[Sheet]):
    results = [scored(sheet) for sheet in sheets]
    season = season_stats(iter(results))
    assert season.games == len(results)
    assert season.finished == sum(r.finished for r in results)
    for tally in season.players.values():
        assert tally.made + tally.overbids + tally.underbids == tally.rounds
        assert tally.zero_bids_made <= tally.zero_bids_tried <= tally.rounds
        assert tally.wins <= tally.games <= season.finished
        assert tally.missed == tally.overbids + tally.underbids
        assert tally.miss_sum >= tally.missed
        if tally.games:
            assert tally.average_score <= tally.best_score
    assert sum(t.rounds for t in season.players.values()) == sum(
        len(r.players) * r.rounds_played for r in results
    )
    assert sum(t.wins for t in season.players.values()) >= season.finished


@settings(max_examples=40, deadline=None)
@given(st.lists(games().map(custom), max_size=4), st.lists(games().map(custom), max_size=4))
def test_order_of_games_does_not_matter(first: list[Sheet], second: list[Sheet]):
    results = [scored(sheet) for sheet in first + second]
    forward = season_stats(results)
    backward = season_stats(reversed(results))
    assert sorted(forward.players.values(), key=lambda t: t.player) == sorted(
        backward.players.values(), key=lambda t: t.player
    )
    assert [t.player for t in forward.ranked()] == [t.player for t in backward.ranked()]
