"""`stats --by handSize|position|opponent` (SPEC §5): checked against a small count made here,
on random seasons, and the exact output of each format."""

from __future__ import annotations

import json
from collections import defaultdict

from helpers import SAMPLES, run
from hypothesis import HealthCheck, given, settings
from seasonmaker import Game, season_yaml, seasons
from sheetmaker import make_sheet, rules, score_sheet

from wizard_cli.game.breakdown import bidding_positions, season_breakdown

CLUB = SAMPLES / "club-season.yaml"


def count_groups(season: list[Game], by: str) -> dict[tuple[str, int], dict]:
    """Rounds, made bids and points per player per hand size or bidding position, by hand."""
    tally = defaultdict(lambda: [0, 0, 0])
    for game in season:
        count = len(game.players)
        for index, ((bids, tricks), points) in enumerate(zip(game.rounds, game.points())):
            dealer = index % count  # the first player deals round 1; the deal passes left
            for seat, name in enumerate(game.players):
                position = 1 + (seat - dealer - 1) % count  # 1 at the dealer's left
                key = index + 1 if by == "handSize" else position
                cell = tally[name, key]
                cell[0] += 1
                cell[1] += bids[seat] == tricks[seat]
                cell[2] += points[seat]
    return {
        key: {
            "rounds": r,
            "made": m,
            "bidAccuracy": round(m / r, 4),
            "averagePoints": round(p / r, 2),
        }
        for key, (r, m, p) in tally.items()
    }


def count_opponents(season: list[Game]) -> dict[tuple[str, str], dict]:
    """Head to head over finished games, by final score, by hand."""
    tally = defaultdict(lambda: {"games": 0, "ahead": 0, "behind": 0, "level": 0})
    for game in season:
        if not game.finished:
            continue
        scores = dict(zip(game.players, game.scores()))
        for player in game.players:
            for opponent in game.players:
                if player != opponent:
                    row = tally[player, opponent]
                    row["games"] += 1
                    mine, theirs = scores[player], scores[opponent]
                    row["ahead" if mine > theirs else "behind" if mine < theirs else "level"] += 1
    return dict(tally)


def results(season: list[Game]):
    for game in season:
        yield score_sheet(
            make_sheet(game.players, game.rounds),
            rules(roundMode="custom", customRoundCount=game.total),
        )


def core_groups(season, by):
    return {
        (row.player, row.key): {
            "rounds": row.rounds,
            "made": row.made,
            "bidAccuracy": round(row.bid_accuracy, 4),
            "averagePoints": round(row.average_points, 2),
        }
        for row in season_breakdown(results(season), by).rows()
    }


@settings(max_examples=150, deadline=None)
@given(seasons(max_size=8))
def test_the_core_counts_as_a_hand_count(season):
    for by in ("handSize", "position"):
        assert core_groups(season, by) == count_groups(season, by)
    rows = season_breakdown(results(season), "opponent").rows()
    assert {
        (r.player, r.opponent): {
            "games": r.games,
            "ahead": r.ahead,
            "behind": r.behind,
            "level": r.level,
        }
        for r in rows
    } == count_opponents(season)
    # in name order (case aside, then as written), player before opponent
    assert [(r.player, r.opponent) for r in rows] == sorted(
        ((r.player, r.opponent) for r in rows),
        key=lambda pair: (pair[0].casefold(), pair[0], pair[1].casefold(), pair[1]),
    )


@settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(season=seasons(max_size=5))
def test_the_command_counts_as_a_hand_count(tmp_path, season):
    path = tmp_path / "season.yaml"
    path.write_text(season_yaml(season), encoding="utf-8")
    for by in ("handSize", "position"):
        result = run("stats", path, "--by", by, "-f", "json")
        assert result.exit_code == 0, result.stderr
        data = json.loads(result.stdout)
        assert all(
            list(row) == ["player", by, "rounds", "made", "bidAccuracy", "averagePoints"]
            for row in data
        )
        assert {
            (row["player"], row[by]): {k: row[k] for k in list(row)[2:]} for row in data
        } == count_groups(season, by)
        keys = [(row["player"].casefold(), row[by]) for row in data]
        assert keys == sorted(keys)
    data = json.loads(run("stats", path, "--by", "opponent", "-f", "json").stdout)
    assert {
        (row["player"], row["opponent"]): {k: row[k] for k in list(row)[2:]} for row in data
    } == count_opponents(season)


def test_bidding_positions_end_with_the_dealer():
    assert bidding_positions(4, 0, 4) == ((4, 3, 2, 1), (1, 4, 3, 2), (2, 1, 4, 3), (3, 2, 1, 4))
    assert bidding_positions(3, 2, 1) == ((1,), (2,), (3,))


def test_position_follows_the_first_dealer(write):
    path = write(
        "g.yaml",
        "players: [A, B, C]\nfirstDealer: C\nsettings: {roundMode: custom, "
        "customRoundCount: 1}\nrounds:\n  - {bids: [1, 0, 0], tricks: [1, 0, 0]}\n",
    )
    data = json.loads(run("stats", path, "--by", "position", "-f", "json").stdout)
    assert [(row["player"], row["position"]) for row in data] == [("A", 1), ("B", 2), ("C", 3)]


# --- exact output ----------------------------------------------------------------------------

SMALL = season_yaml(
    [
        Game(["Anna", "Ben", "Cara"], 2, [([1, 0, 0], [1, 0, 0]), ([2, 0, 1], [1, 0, 1])]),
        Game(["Cara", "Ben", "Anna"], 2, [([0, 1, 0], [0, 1, 0])]),
    ]
)


def test_hand_size_table(write):
    path = write("small.yaml", SMALL)
    assert (
        run("stats", path, "--by", "handSize").stdout
        == """\
2 games, 1 finished

Player      Hand size    Rounds    Made    Bid accuracy    Avg points
--------  -----------  --------  ------  --------------  ------------
Anna                1         2       2          100.0%         25.00
Anna                2         1       0            0.0%        -10.00
Ben                 1         2       2          100.0%         25.00
Ben                 2         1       1          100.0%         20.00
Cara                1         2       2          100.0%         20.00
Cara                2         1       1          100.0%         30.00
"""
    )


def test_position_csv_tsv_json_jsonl_markdown(write):
    path = write("small.yaml", SMALL)
    csv_text = run("stats", path, "--by", "position", "-f", "csv").stdout
    assert (
        csv_text
        == """\
player,position,rounds,made,bidAccuracy,averagePoints
Anna,2,2,1,0.5,5.0
Anna,3,1,1,1.0,30.0
Ben,1,2,2,1.0,25.0
Ben,3,1,1,1.0,20.0
Cara,1,1,1,1.0,30.0
Cara,2,1,1,1.0,20.0
Cara,3,1,1,1.0,20.0
"""
    )
    assert run("stats", path, "--by", "position", "-f", "tsv").stdout == csv_text.replace(",", "\t")
    data = json.loads(run("stats", path, "--by", "position", "-f", "json").stdout)
    assert data[0] == {
        "player": "Anna",
        "position": 2,
        "rounds": 2,
        "made": 1,
        "bidAccuracy": 0.5,
        "averagePoints": 5.0,
    }
    lines = run("stats", path, "--by", "position", "-f", "jsonl").stdout.splitlines()
    assert [json.loads(line) for line in lines] == data
    assert lines[0] == (
        '{"player":"Anna","position":2,"rounds":2,"made":1,"bidAccuracy":0.5,"averagePoints":5.0}'
    )
    markdown = run("stats", path, "--by", "position", "-f", "markdown").stdout.splitlines()
    assert markdown[:4] == [
        "2 games, 1 finished",
        "",
        "| Player   |   Position |   Rounds |   Made |   Bid accuracy |   Avg points |",
        "|----------|------------|----------|--------|----------------|--------------|",
    ]


def test_opponent_table_and_json(write):
    path = write("small.yaml", SMALL)
    assert (
        run("stats", path, "--by", "opponent").stdout
        == """\
2 games, 1 finished

Player    Opponent      Games    Ahead    Behind    Level
--------  ----------  -------  -------  --------  -------
Anna      Ben               1        0         1        0
Anna      Cara              1        0         1        0
Ben       Anna              1        1         0        0
Ben       Cara              1        0         1        0
Cara      Anna              1        1         0        0
Cara      Ben               1        1         0        0
"""
    )
    data = json.loads(run("stats", path, "--by", "opponent", "-f", "json").stdout)
    assert data[0] == {
        "player": "Anna",
        "opponent": "Ben",
        "games": 1,
        "ahead": 0,
        "behind": 1,
        "level": 0,
    }
    assert run("stats", path, "--by", "opponent", "-f", "csv").stdout.splitlines()[:2] == [
        "player,opponent,games,ahead,behind,level",
        "Anna,Ben,1,0,1,0",
    ]


def test_a_pair_without_a_finished_game_has_no_row(write):
    path = write(
        "open.yaml", season_yaml([Game(["Anna", "Ben", "Cara"], 2, [([1, 0, 0], [1, 0, 0])])])
    )
    assert run("stats", path, "--by", "opponent", "-f", "json").stdout == "[]\n"
    assert run("stats", path, "--by", "opponent").stdout == "1 game, 0 finished\n\n(no rows)\n"


def test_an_unknown_by_key_lists_the_allowed_ones(write):
    result = run("stats", CLUB, "--by", "colour")
    assert result.exit_code == 2
    assert "'colour' is not one of 'handSize', 'position', 'opponent'" in result.stderr
    assert result.stdout == ""


def test_the_sample_season_breaks_down():
    data = json.loads(run("stats", CLUB, "--by", "handSize", "-f", "json").stdout)
    assert {row["handSize"] for row in data} == {1, 2, 3, 4, 5, 6}
    assert sum(row["rounds"] for row in data if row["player"] == "Anna") == 30
