"""Unfinished games explained (SPEC §5 "Seasons"): `stats` and `ratings` leave them out of
wins, scores and ratings with one line on stderr counting them; games that stop after a complete
round short of their count get the `--set` that would score them as shorter games, one clause
per distinct count, naming the games' files when they are not all of the input."""

from __future__ import annotations

import pytest
from helpers import run

PLAYERS = "players: [Anna, Ben, Cara, Dan]\n"  # wholeDeck: 15 rounds of 1..15 cards


def game(rounds: int, settings: str = "", in_play: bool = False, game_id: str = "") -> str:
    """A valid game of ``rounds`` complete rounds (Dan bids and takes every trick), with a
    round in play after them if asked."""
    text = (f"game: {game_id}\n" if game_id else "") + PLAYERS + settings + "rounds:\n"
    for size in range(1, rounds + 1):
        text += f"  - bids: [0, 0, 0, {size}]\n    tricks: [0, 0, 0, {size}]\n"
    if in_play:
        text += "  - bids: {Ben: 0, Cara: 1}\n"  # (Anna deals round 9: Ben bids first)
    return text


EIGHT = (
    "stop after a complete round 8 of 15 (wholeDeck); if they were 8-round games: "
    "--set roundMode=custom --set customRoundCount=8"
)


@pytest.mark.parametrize("command", ["stats", "ratings"])
def test_games_of_one_count_get_the_set_that_scores_them(write, command):
    season = write("season.yaml", "---\n".join(game(8, game_id=f"g{n}") for n in range(4)))
    result = run(command, season)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == f"note: 4 games {EIGHT}\n"  # the words of SPEC §5, exactly
    scored = run(command, season, "--set", "roundMode=custom", "--set", "customRoundCount=8")
    assert scored.stderr == ""  # the --set given does finish them
    assert scored.stdout.startswith(("4 games, 4 finished\n", "4 games rated"))


def test_two_counts_give_two_clauses_naming_the_files(write):
    a = write("a.yaml", game(8))
    b = write("b.yaml", game(8))
    c = write("c.yaml", game(5))
    result = run("stats", a, b, c)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("3 games, 0 finished\n")
    assert result.stderr == (
        f"note: 2 games in {a}, {b} {EIGHT}; 1 game in {c} stops after a complete round 5 of 15 "
        "(wholeDeck); if it was a 5-round game: --set roundMode=custom --set customRoundCount=5\n"
    )


def test_the_files_are_named_when_the_games_are_not_all_of_the_input(write):
    finished = write(
        "finished.yaml", game(5, "settings: {roundMode: custom, customRoundCount: 5}\n")
    )
    files = [write(f"g{n}.yaml", game(8)) for n in range(5)]
    result = run("ratings", finished, *files)
    assert result.exit_code == 0, result.stderr
    shown = ", ".join(map(str, files[:3]))
    assert result.stderr == f"note: 5 games in {shown} and more {EIGHT}\n"
    # all of the input: no file named, in stats and ratings alike
    assert run("stats", *files).stderr == f"note: 5 games {EIGHT}\n"
    # one game: "it was an 8-round game"
    assert run("stats", finished, files[0]).stderr == (
        f"note: 1 game in {files[0]} stops after a complete round 8 of 15 (wholeDeck); if it "
        "was an 8-round game: --set roundMode=custom --set customRoundCount=8\n"
    )


def test_a_game_stopped_mid_round_is_counted_with_no_clause(write):
    mid = write("mid.yaml", game(8, in_play=True))
    result = run("stats", mid)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == "note: 1 unfinished game left out\n"
    eight = write("eight.yaml", game(8))
    both = run("ratings", mid, eight)
    assert both.stderr == (
        f"note: 2 unfinished games left out; 1 game in {eight} stops after a "
        "complete round 8 of 15 (wholeDeck); if it was an 8-round game: "
        "--set roundMode=custom --set customRoundCount=8\n"
    )


def test_a_quick_play_game_has_no_clause_custom_could_not_score_it(write):
    quick = (
        PLAYERS
        + "settings: {roundMode: quickPlay}\nrounds:\n"
        + "".join(
            f"  - bids: [0, 0, 0, {size}]\n    tricks: [0, 0, 0, {size}]\n" for size in (1, 3, 5)
        )
    )
    result = run("stats", write("quick.yaml", quick))
    assert result.stderr == "note: 1 unfinished game left out\n"


def test_finished_games_and_stats_by_say_nothing(write, tmp_path):
    done = write("done.yaml", game(5, "settings: {roundMode: custom, customRoundCount: 5}\n"))
    assert run("stats", done).stderr == ""
    assert run("ratings", done, "--history").stderr == ""
    # --by counts every completed round, also of unfinished games: nothing is left out
    assert run("stats", write("eight.yaml", game(8)), "--by", "handSize").stderr == ""


def test_the_note_follows_the_undated_note_of_since(write):
    dated = write("dated.yaml", "date: 2026-01-05\n" + game(8))
    undated = write("undated.yaml", game(8))
    result = run("ratings", dated, undated, "--history", "--since", "2026-01-01")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == (
        "note: 1 game without a date left out (--since/--until)\n"
        f"note: 1 game {EIGHT.replace('stop ', 'stops ')}\n".replace(
            "if they were 8-round games", "if it was an 8-round game"
        )
    )


def test_the_issue_a_season_of_8_round_games_converted_to_a_long_csv(write, tmp_path):
    """The issue: a season of 8-round custom games converted to a CSV read as 4 games, 0
    finished, and nothing said why. A long CSV now carries the settings (SPEC §3); one without
    them (cut to its first five columns, as another program may keep it) gets the note."""
    custom = "settings: {roundMode: custom, customRoundCount: 8}\n"
    season = write("season.yaml", "---\n".join(game(8, custom, game_id=f"g{n}") for n in range(4)))
    ruled = tmp_path / "ruled.csv"
    assert run("convert", season, "--to", "csv", "-o", ruled).exit_code == 0
    carried = run("stats", ruled)
    assert carried.stdout.startswith("4 games, 4 finished\n") and carried.stderr == ""
    csv = tmp_path / "season.csv"
    lines = ruled.read_text().splitlines()
    assert lines[0].startswith("game,round,player,bid,tricks,")
    csv.write_text("".join(",".join(line.split(",")[:5]) + "\n" for line in lines))
    stats = run("stats", csv)
    assert stats.stdout.startswith("4 games, 0 finished\n")
    assert stats.stderr == f"note: 4 games {EIGHT}\n"
    assert run("ratings", csv).stderr == f"note: 4 games {EIGHT}\n"
    assert run(
        "stats", csv, "--set", "roundMode=custom", "--set", "customRoundCount=8"
    ).stdout.startswith("4 games, 4 finished\n")
