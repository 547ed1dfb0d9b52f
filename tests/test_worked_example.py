"""SPEC §6: the worked example, end to end through the CLI."""

from __future__ import annotations

import json

from helpers import SAMPLES, WORKED, run


def standings_of(stdout: str) -> list[tuple[str, int, int]]:
    data = json.loads(stdout)
    return [(s["player"], s["score"], s["rank"]) for s in data["standings"]]


def test_worked_example_standings_and_game_over():
    result = run("score", WORKED, "-f", "json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert standings_of(result.stdout) == [
        ("Ben", 140, 1),
        ("Anna", 90, 2),
        ("Cara", 40, 3),
        ("Dan", -60, 4),
    ]
    assert data["status"] == {
        "finished": True,
        "roundsPlayed": 5,
        "roundsTotal": 5,
        "winners": ["Ben"],
        "contenders": ["Ben"],
        "next": None,
    }
    assert data["rounds"][0]["results"]["Anna"] == {
        "bid": 1,
        "tricks": 1,
        "points": 30,
        "total": 30,
    }


def test_worked_example_double_zero_bonus_moves_only_made_zeros():
    result = run("standings", WORKED, "--zero-bid", "doubleBonus", "-f", "json")
    assert standings_of(result.stdout) == [
        ("Ben", 180, 1),
        ("Anna", 90, 2),
        ("Cara", 80, 3),
        ("Dan", -60, 4),
    ]


def test_all_three_input_forms_agree():
    outputs = [
        json.loads(
            run(
                "standings",
                SAMPLES / name,
                "--set",
                "roundMode=custom",
                "--set",
                "customRoundCount=5",
                "-f",
                "json",
            ).stdout
        )["standings"]
        for name in ("worked-example.yaml", "worked-example-long.csv", "worked-example-wide.csv")
    ]
    assert outputs[0] == outputs[1] == outputs[2]


def test_table_shows_the_game_over_line():
    result = run("score", WORKED)
    assert result.exit_code == 0
    assert result.stdout.rstrip().endswith("Game over — Ben wins")
