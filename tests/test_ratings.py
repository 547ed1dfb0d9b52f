"""`wizard ratings`: openskill's Plackett–Luce at its defaults, exactly as SPEC §5 says — checked
against openskill called directly here, on random seasons (ties included) — and its outputs."""

from __future__ import annotations

import json

import pytest
from helpers import SAMPLES, run
from hypothesis import HealthCheck, given, settings
from openskill.models import PlackettLuce
from seasonmaker import Game, season_yaml, seasons
from sheetmaker import make_sheet, rules, score_sheet

from wizard_cli.game.ratings import SeasonRatings, season_ratings

CLUB = SAMPLES / "club-season.yaml"


def by_openskill(season: list[Game]) -> dict[str, dict]:
    """What openskill itself says: each finished game one model.rate of its players in seating
    order with their standings ranks; a new player starts at model.rating()."""
    model = PlackettLuce()
    ratings, games = {}, {}
    for game in season:
        if not game.finished:
            continue
        teams = [[ratings[name] if name in ratings else model.rating()] for name in game.players]
        for name, (rating,) in zip(game.players, model.rate(teams, ranks=game.ranks())):
            ratings[name] = rating
            games[name] = games.get(name, 0) + 1
    return {
        name: {"games": games[name], "mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()}
        for name, r in ratings.items()
    }


def by_openskill_afresh(season: list[Game]) -> dict[str, dict]:
    """The same, each player's rating built afresh from its (mu, sigma) before every game, as
    the tool once did: the ratings the tool keeps and passes back in give the same numbers."""
    model = PlackettLuce()
    kept: dict[str, tuple[float, float, int]] = {}
    for game in season:
        if not game.finished:
            continue
        teams = [
            [model.rating(*kept[name][:2]) if name in kept else model.rating()]
            for name in game.players
        ]
        for name, (rating,) in zip(game.players, model.rate(teams, ranks=game.ranks())):
            kept[name] = (rating.mu, rating.sigma, kept.get(name, (0, 0, 0))[2] + 1)
    return {
        name: {
            "games": games,
            "mu": mu,
            "sigma": sigma,
            "ordinal": model.rating(mu, sigma).ordinal(),
        }
        for name, (mu, sigma, games) in kept.items()
    }


def results(season: list[Game]):
    """The games scored by the tool's core."""
    for game in season:
        yield score_sheet(
            make_sheet(game.players, game.rounds),
            rules(roundMode="custom", customRoundCount=game.total),
        )


def competition(values: list[float]) -> list[int]:
    return [1 + sum(other > mine for other in values) for mine in values]


@settings(max_examples=150, deadline=None)
@given(seasons(max_size=8))
def test_the_core_rates_as_openskill_does(season):
    expected = by_openskill(season)
    assert by_openskill_afresh(season) == expected
    table = season_ratings(results(season)).table()
    assert {
        row.player: {"games": row.games, "mu": row.mu, "sigma": row.sigma, "ordinal": row.ordinal}
        for row in table
    } == expected
    ordinals = [row.ordinal for row in table]
    assert ordinals == sorted(ordinals, reverse=True)
    assert [row.rank for row in table] == competition(ordinals)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(season=seasons(max_size=6))
def test_the_command_rates_as_openskill_does(tmp_path, season):
    path = tmp_path / "season.yaml"
    path.write_text(season_yaml(season), encoding="utf-8")
    result = run("ratings", path, "-f", "json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    expected = by_openskill(season)
    assert {
        row["player"]: {k: row[k] for k in ("games", "mu", "sigma", "ordinal")} for row in data
    } == expected
    assert [row["rank"] for row in data] == competition([row["ordinal"] for row in data])
    assert all(list(row) == ["rank", "player", "games", "mu", "sigma", "ordinal"] for row in data)


def test_ties_share_a_rank_in_the_game_and_in_the_table():
    # Anna and Ben make their zero bids (20 each), Cara misses hers (-10).
    tied = Game(["Anna", "Ben", "Cara"], 1, [([0, 0, 0], [0, 0, 1])])
    assert tied.ranks() == [1, 1, 3]
    table = season_ratings(results([tied])).table()
    assert [(row.rank, row.player) for row in table] == [(1, "Anna"), (1, "Ben"), (3, "Cara")]
    assert table[0].ordinal == table[1].ordinal


def test_unfinished_games_are_left_out_and_counted():
    finished = Game(["Anna", "Ben", "Cara"], 1, [([1, 0, 0], [1, 0, 0])])
    open_game = Game(["Anna", "Ben", "Dan"], 2, [([1, 0, 0], [1, 0, 0])])
    ratings = SeasonRatings()
    for result in results([finished, open_game]):
        ratings.add(result)
    assert (ratings.rated, ratings.unfinished) == (1, 1)
    assert {row.player for row in ratings.table()} == {"Anna", "Ben", "Cara"}  # Dan: no row


def test_the_order_given_is_the_order_rated(tmp_path, write):
    one = write("a.yaml", season_yaml([Game(["Anna", "Ben", "Cara"], 1, [([1, 0, 0], [1, 0, 0])])]))
    two = write("b.yaml", season_yaml([Game(["Anna", "Ben", "Cara"], 1, [([0, 1, 0], [0, 1, 0])])]))
    forward = json.loads(run("ratings", one, two, "-f", "json").stdout)
    backward = json.loads(run("ratings", two, one, "-f", "json").stdout)
    assert forward != backward
    games = [
        Game(["Anna", "Ben", "Cara"], 1, [([1, 0, 0], [1, 0, 0])]),
        Game(["Anna", "Ben", "Cara"], 1, [([0, 1, 0], [0, 1, 0])]),
    ]
    assert {row["player"]: row["mu"] for row in forward} == {
        name: value["mu"] for name, value in by_openskill(games).items()
    }


# --- outputs --------------------------------------------------------------------------------

TWO = season_yaml(
    [
        Game(["Anna", "Ben", "Cara"], 1, [([1, 0, 0], [1, 0, 0])], "2026-01-09"),
        Game(["Cara", "Ben", "Dan"], 1, [([0, 1, 0], [0, 1, 0])], "2026-01-16"),
        Game(["Anna", "Ben", "Dan"], 2, [([1, 0, 0], [1, 0, 0])]),
    ]
)


def expected_two() -> tuple[dict, list[tuple]]:
    """openskill's figures for TWO, and its per-game history."""
    model = PlackettLuce()
    anna, ben, cara = (
        r for (r,) in model.rate([[model.rating()] for _ in range(3)], ranks=[1, 2, 2])
    )
    cara2, ben2, dan = (
        r for (r,) in model.rate([[cara], [ben], [model.rating()]], ranks=[2, 1, 2])
    )
    final = {"Anna": anna, "Ben": ben2, "Cara": cara2, "Dan": dan}
    history = [
        ("2026-01-09", "Anna", anna),
        ("2026-01-09", "Ben", ben),
        ("2026-01-09", "Cara", cara),
        ("2026-01-16", "Cara", cara2),
        ("2026-01-16", "Ben", ben2),
        ("2026-01-16", "Dan", dan),
    ]
    return final, history


def stopped_note(path) -> str:
    """TWO's third game stops after round 1 of 2: the unfinished-games line (SPEC §5)."""
    return (
        f"note: 1 game in {path} stops after a complete round 1 of 2 (custom); if it was a "
        "1-round game: --set roundMode=custom --set customRoundCount=1\n"
    )


def test_table_format_is_rounded_to_two_decimals(write):
    path = write("two.yaml", TWO)
    final, _ = expected_two()
    order = sorted(final, key=lambda name: -final[name].ordinal())
    result = run("ratings", path)
    assert result.exit_code == 0 and result.stderr == stopped_note(path)
    lines = result.stdout.splitlines()
    assert lines[:2] == ["2 games rated (openskill Plackett–Luce), 1 unfinished left out", ""]
    assert lines[2].split() == ["Rank", "Player", "Games", "Mu", "Sigma", "Ordinal"]
    body = [line.split() for line in lines[4:]]
    assert [row[1] for row in body] == order
    for row in body:
        rating = final[row[1]]
        assert row[3:] == [f"{rating.mu:.2f}", f"{rating.sigma:.2f}", f"{rating.ordinal():.2f}"]
    assert [row[2] for row in body] == [
        str({"Anna": 1, "Ben": 2, "Cara": 2, "Dan": 1}[n]) for n in order
    ]


def test_json_jsonl_csv_carry_the_numbers_as_computed(write):
    path = write("two.yaml", TWO)
    final, _ = expected_two()
    data = json.loads(run("ratings", path, "-f", "json").stdout)
    assert [row["player"] for row in data] == sorted(final, key=lambda n: -final[n].ordinal())
    for row in data:
        assert (row["mu"], row["sigma"], row["ordinal"]) == (
            final[row["player"]].mu,
            final[row["player"]].sigma,
            final[row["player"]].ordinal(),
        )
    lines = run("ratings", path, "-f", "jsonl").stdout.splitlines()
    assert [json.loads(line) for line in lines] == data
    csv_text = run("ratings", path, "-f", "csv").stdout
    assert csv_text.splitlines()[0] == "rank,player,games,mu,sigma,ordinal"
    first = data[0]
    assert csv_text.splitlines()[1] == ",".join(
        str(first[k]) for k in ("rank", "player", "games", "mu", "sigma", "ordinal")
    )
    assert run("ratings", path, "-f", "tsv").stdout == csv_text.replace(",", "\t")
    markdown = run("ratings", path, "-f", "markdown").stdout.splitlines()
    assert markdown[2].startswith("|   Rank | Player") and markdown[3].startswith("|---")


def test_every_format_exactly(write):
    path = write("two.yaml", TWO)
    final, history = expected_two()
    order = sorted(final, key=lambda name: -final[name].ordinal())
    games = {"Anna": 1, "Ben": 2, "Cara": 2, "Dan": 1}
    ranks = [
        1 + sum(final[other].ordinal() > final[name].ordinal() for other in final) for name in order
    ]
    result = run("ratings", path, "-f", "csv")
    assert (result.exit_code, result.stderr) == (0, stopped_note(path))
    assert result.stdout == "rank,player,games,mu,sigma,ordinal\n" + "".join(
        f"{rank},{name},{games[name]},{final[name].mu},{final[name].sigma},"
        f"{final[name].ordinal()}\n"
        for rank, name in zip(ranks, order)
    )
    table = [
        f"{rank:>6}  {name:<8}  {games[name]:>7}  {final[name].mu:>5.2f}  "
        f"{final[name].sigma:>7.2f}  {final[name].ordinal():>9.2f}"
        for rank, name in zip(ranks, order)
    ]
    assert run("ratings", path).stdout == (
        "2 games rated (openskill Plackett–Luce), 1 unfinished left out\n\n"
        "  Rank  Player      Games     Mu    Sigma    Ordinal\n"
        "------  --------  -------  -----  -------  ---------\n" + "\n".join(table) + "\n"
    )
    history_csv = run("ratings", path, "--history", "-f", "csv").stdout
    assert history_csv == "source,game,date,player,mu,sigma,ordinal\n" + "".join(
        f"{path},{1 + (date == '2026-01-16')},{date},{name},{r.mu},{r.sigma},{r.ordinal()}\n"
        for date, name, r in history
    )


def test_history_is_one_row_per_player_per_rated_game(write):
    path = write("two.yaml", TWO)
    _, history = expected_two()
    data = json.loads(run("ratings", path, "--history", "-f", "json").stdout)
    assert [(row["source"], row["game"], row["date"], row["player"]) for row in data] == [
        (str(path), 1 + (date == "2026-01-16"), date, name) for date, name, _ in history
    ]
    assert [(row["mu"], row["sigma"], row["ordinal"]) for row in data] == [
        (r.mu, r.sigma, r.ordinal()) for _, _, r in history
    ]
    assert all(
        list(row) == ["source", "game", "date", "player", "mu", "sigma", "ordinal"] for row in data
    )
    csv_lines = run("ratings", path, "--history", "-f", "csv").stdout.splitlines()
    assert csv_lines[0] == "source,game,date,player,mu,sigma,ordinal"
    date, name, rating = history[0]
    assert csv_lines[1] == f"{path},1,{date},{name},{rating.mu},{rating.sigma},{rating.ordinal()}"
    assert len(csv_lines) == 1 + len(history)
    table = run("ratings", path, "--history").stdout.splitlines()
    assert table[0].split() == ["Source", "Game", "Date", "Player", "Mu", "Sigma", "Ordinal"]
    assert table[2].split() == [
        str(path),
        "1",
        date,
        name,
        f"{rating.mu:.2f}",
        f"{rating.sigma:.2f}",
        f"{rating.ordinal():.2f}",
    ]


def test_nothing_to_rate(write):
    path = write("open.yaml", season_yaml([Game(["Anna", "Ben", "Cara"], 2, [])]))
    assert run("ratings", path, "-f", "json").stdout == "[]\n"
    assert run("ratings", path, "--history", "-f", "json").stdout == "[]\n"
    assert (
        run("ratings", path, "--history", "-f", "csv").stdout
        == "source,game,date,player,mu,sigma,ordinal\n"
    )
    assert (
        run("ratings", path).stdout
        == "0 games rated (openskill Plackett–Luce), 1 unfinished left out\n\n(no rows)\n"
    )


def test_an_invalid_sheet_is_reported_and_the_rest_rated(write):
    good = write("good.yaml", TWO)
    bad = write("bad.yaml", "players: [A, B]\nrounds: []\n")
    result = run("ratings", good, bad, "-f", "json")
    assert result.exit_code == 1
    assert "bad.yaml" in result.stderr
    assert len(json.loads(result.stdout)) == 4


def test_the_sample_season_rates(monkeypatch):
    result = run("ratings", CLUB, "-f", "json")
    assert result.exit_code == 0, result.stderr
    assert [row["player"] for row in json.loads(result.stdout)] == [
        "Anna",
        "Ben",
        "Eva",
        "Cara",
        "Dan",
    ]


# --- the chart --------------------------------------------------------------------------------


def test_plot_ratings_writes_a_chart(tmp_path):
    pytest.importorskip("matplotlib", reason="the plot extra is not installed")
    target = tmp_path / "ratings.svg"
    result = run("plot", CLUB, "--ratings", "-o", target)
    assert result.exit_code == 0, result.stderr
    text = target.read_text(encoding="utf-8")
    assert text.startswith("<?xml") and all(name in text for name in ("Anna", "Eva", "Dan"))
    png = tmp_path / "ratings.png"
    assert run("plot", CLUB, CLUB, "--ratings", "--since", "2026-02-01", "-o", png).exit_code == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plot_ratings_lines_follow_the_history():
    from wizard_cli.game.ratings import rating_history
    from wizard_cli.output.chart import rating_lines

    games = [
        Game(["Anna", "Ben", "Cara"], 1, [([1, 0, 0], [1, 0, 0])]),
        Game(["Cara", "Ben", "Dan"], 1, [([0, 1, 0], [0, 1, 0])]),
    ]
    rows = list(rating_history(results(games)))
    count, lines = rating_lines(rows)
    assert count == 2
    assert lines["Anna"] == ([1], [rows[0].ordinal])
    assert lines["Ben"] == ([1, 2], [rows[1].ordinal, rows[4].ordinal])
    assert lines["Dan"][0] == [2]


def test_plot_without_ratings_still_draws_one_game(tmp_path):
    result = run("plot", CLUB, CLUB, "-o", tmp_path / "x.png")
    assert result.exit_code == 2 and "plot draws one game" in result.stderr
    result = run("plot", CLUB, "--since", "2026-01-01", "-o", tmp_path / "x.png")
    assert result.exit_code == 2


def test_plot_ratings_with_nothing_finished(write, tmp_path):
    pytest.importorskip("matplotlib", reason="the plot extra is not installed")
    path = write("open.yaml", season_yaml([Game(["Anna", "Ben", "Cara"], 2, [])]))
    result = run("plot", path, "--ratings", "-o", tmp_path / "r.png")
    assert result.exit_code == 1
    assert result.stderr == "no finished game to rate: nothing to chart\n"
    assert not (tmp_path / "r.png").exists()
