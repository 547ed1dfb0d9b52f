"""`--since`, `--until`, `--player` on `stats` and `ratings` (SPEC §5): games, not rows, are
filtered; what is left out for want of a date is counted on stderr; look-alike names warned."""

from __future__ import annotations

import json

import pytest
from helpers import SAMPLES, run
from seasonmaker import Game, season_yaml

CLUB = SAMPLES / "club-season.yaml"

SEASON = season_yaml(
    [
        Game(["Anna", "Ben", "Cara"], 1, [([1, 0, 0], [1, 0, 0])], "2026-01-09"),
        Game(["Anna", "Ben", "Dan"], 1, [([0, 1, 0], [0, 1, 0])], "2026-01-16"),
        Game(["Ben", "Cara", "Dan"], 1, [([0, 0, 1], [0, 0, 1])], "2026-02-01"),
        Game(["Cara", "Dan", "Eva"], 1, [([1, 0, 0], [1, 0, 0])]),
    ]
)


def games(path, *options, command="stats"):
    """The players' game counts (`stats`), or who was rated in how many games (`ratings`)."""
    result = run(command, path, *options, "-f", "json")
    assert result.exit_code == 0, result.stderr
    return {row["player"]: row["games"] for row in json.loads(result.stdout)}, result.stderr


@pytest.mark.parametrize("command", ["stats", "ratings"])
def test_since_and_until_are_inclusive_and_count_the_undated(write, command):
    path = write("s.yaml", SEASON)
    counted, stderr = games(path, "--since", "2026-01-16", "--until", "2026-02-01", command=command)
    assert counted == {"Anna": 1, "Ben": 2, "Dan": 2, "Cara": 1}
    assert stderr == "note: 1 game without a date left out (--since/--until)\n"
    counted, stderr = games(path, "--since", "2026-01-10", command=command)
    assert counted == {"Anna": 1, "Ben": 2, "Cara": 1, "Dan": 2}
    counted, _ = games(path, "--until", "09.01.2026", command=command)  # the German form too
    assert counted == {"Anna": 1, "Ben": 1, "Cara": 1}
    counted, stderr = games(path, command=command)  # no date filter: undated games count
    assert counted["Eva"] == 1 and stderr == ""


@pytest.mark.parametrize("command", ["stats", "ratings"])
def test_player_keeps_the_games_every_named_player_sat_in(write, command):
    path = write("s.yaml", SEASON)
    counted, _ = games(path, "--player", "dan", command=command)
    assert counted == {"Anna": 1, "Ben": 2, "Cara": 2, "Dan": 3, "Eva": 1}
    counted, _ = games(path, "--player", " DAN ", "--player", "anna", command=command)
    assert counted == {"Anna": 1, "Ben": 1, "Dan": 1}
    counted, _ = games(path, "--player", "Eva", "--player", "Anna", command=command)
    assert counted == {}


@pytest.mark.parametrize("command", ["stats", "ratings"])
def test_a_player_in_no_game_is_an_error(write, command):
    path = write("s.yaml", SEASON)
    result = run(command, path, "--player", "Zed", "--player", "Anna", "--player", "Finn")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == (
        "--player 'Zed': no game has this player\n--player 'Finn': no game has this player\n"
    )
    result = run(command, path, "--player", "Eva", "--since", "2026-01-01")  # sat, but undated
    assert result.exit_code == 0


def test_history_with_a_player_in_no_game_prints_nothing(write):
    path = write("s.yaml", SEASON)
    result = run("ratings", path, "--history", "-f", "json", "--player", "Zed")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == "--player 'Zed': no game has this player\n"


@pytest.mark.parametrize("option", ["--since", "--until"])
@pytest.mark.parametrize(
    ("value", "why"),
    [
        (
            "2026-13-01",
            "is not a date (month must be in 1..12): give an ISO date YYYY-MM-DD or DD.MM.YYYY",
        ),
        ("yesterday", "is not an ISO date YYYY-MM-DD or DD.MM.YYYY"),
        ("2026-1-9", "is not an ISO date YYYY-MM-DD or DD.MM.YYYY"),
    ],
)
def test_a_bad_date_is_one_clear_line(option, value, why):
    for command in ("stats", "ratings"):
        result = run(command, CLUB, option, value)
        assert result.exit_code == 1
        assert result.stderr == f"{option}: '{value}' {why}\n"
        assert result.stdout == ""


def test_an_empty_player_name_is_an_error():
    result = run("stats", CLUB, "--player", " ")
    assert (result.exit_code, result.stderr) == (1, "--player: an empty name\n")


def test_names_differing_only_by_case_or_spaces_are_warned_once(write):
    path = write(
        "s.yaml",
        season_yaml(
            [
                Game(["Anna", "Ben", "Cara"], 1, [([1, 0, 0], [1, 0, 0])]),
                Game(["anna", "Ben", "Cara"], 1, [([1, 0, 0], [1, 0, 0])]),
                Game(["anna", "B en", "Cara"], 1, [([1, 0, 0], [1, 0, 0])]),
            ]
        ),
    )
    for command in ("stats", "ratings"):
        result = run(command, path, "-f", "json")
        assert result.exit_code == 0
        assert result.stderr == (
            "warning: 'Anna' and 'anna' differ only by case or spaces: they count as two players\n"
            "warning: 'Ben' and 'B en' differ only by case or spaces: they count as two players\n"
        )
        assert {"Anna", "anna"} <= {row["player"] for row in json.loads(result.stdout)}


def test_filters_go_with_by(write):
    path = write("s.yaml", SEASON)
    result = run("stats", path, "--by", "opponent", "--since", "2026-02-01", "-f", "csv")
    assert result.stdout.splitlines() == [
        "player,opponent,games,ahead,behind,level",
        "Ben,Cara,1,0,0,1",
        "Ben,Dan,1,0,1,0",
        "Cara,Ben,1,0,0,1",
        "Cara,Dan,1,0,1,0",
        "Dan,Ben,1,1,0,0",
        "Dan,Cara,1,1,0,0",
    ]
    assert result.stderr == "note: 1 game without a date left out (--since/--until)\n"


def test_stats_table_counts_the_games_kept(write):
    path = write("s.yaml", SEASON)
    assert run("stats", path, "--player", "Eva").stdout.splitlines()[0] == "1 game, 1 finished"


def test_a_name_with_a_space_around_it_is_another_player_and_is_warned(write):
    """Names are taken as written (SPEC §3): "Anna " is not "Anna" (SPEC §5's warning)."""
    game = (
        "players: [{}, Ben, Cara]\nsettings: {{roundMode: custom, customRoundCount: 1}}\n"
        "rounds:\n  - {{bids: [1, 0, 0], tricks: [1, 0, 0]}}\n"
    )
    path = write("spaced.yaml", game.format("Anna") + "---\n" + game.format('"Anna "'))
    result = run("stats", path, "-f", "csv")
    assert result.exit_code == 0
    assert [line.split(",")[0] for line in result.stdout.splitlines()[1:]] == [
        "Anna",
        "Anna ",
        "Ben",
        "Cara",
    ]
    assert result.stderr == (
        "warning: 'Anna' and 'Anna ' differ only by case or spaces: they count as two players\n"
    )
