"""The engine against the oracle (tests/oracle.py): generated seasons as long CSVs, through the
CLI, every rule of SPEC §2 the package has, finished, unfinished, in-play and invalid games.

``standings -f jsonl`` must give, for each valid game, the oracle's standings and status (and
no line for an invalid one), and ``check -f jsonl`` each game's validity and exactly the
oracle's problems. A season often seats one table for many games of one length, so whole runs
of regular games go through the season's columns, not only one sheet at a time.
Seasons of games whose seating changes (SPEC §1 "Who sits at the table": joins, leaves, a
round's out, start scores, recorded dealers, with the Bomb and the Cloud) go as YAML streams,
through the CLI and the library alike, against :func:`oracle.judge_seated`.
``WIZARD_SLOW=1`` runs many more seasons.
"""

from __future__ import annotations

import json
import os
import random

from helpers import run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracle import (
    DEFAULTS,
    Dealt,
    Listed,
    OracleGame,
    Row,
    SeatedTable,
    _points,
    forbidden_bid,
    hand_sizes,
    judge,
    judge_seated,
)

SLOW = os.environ.get("WIZARD_SLOW") == "1"
NAMES = ["Anna", "Ben", "Cara", "Dan", "Eva", "Finn", "Gus", "Hal"]

CHOICES = {
    "roundMode": ["custom", "quickPlay"],
    "customRoundCount": list(range(1, 11)),
    "exactBonus": [0, 5, 30, 50],
    "pointsPerTrick": [0, 5, 20],
    "missPenalty": [0, 5, 30],
    "zeroBidScoring": ["doubleBonus", "perCardBonus"],
    "screwTheDealer": ["always", "leaderOnly", "unlessTiedLead"],
    "canadianRule": [True],
    "perfectGameBonus": [10, 100],
    "tieBreak": ["totalBids", "madeBids"],
    "finalRoundBonus": [5, 50],
    "balancedBidPenalty": [5, 30],
    "dealerRuleFrom": [2, 3, 5],
    "specialCards": [True, False],  # else not set: implied by a game's Bomb or Cloud (SPEC §3)
}
HEAVY = {"balancedBidPenalty": 10, "screwTheDealer": "always", "finalRoundBonus": 10}


def random_rules(rng: random.Random) -> dict:
    """Every setting at its default, or (often) another of its values; now and then the
    rule-heavy set of the bench."""
    rules = dict(DEFAULTS)
    for key, values in CHOICES.items():
        if rng.random() < 0.3:
            rules[key] = rng.choice(values)
    if rng.random() < 0.15:
        rules.update(HEAVY)
    return rules


def set_options(rules: dict) -> list[str]:
    """The ``--set`` options that give ``rules``."""
    options = []
    for key, value in rules.items():
        if value is None:  # not set
            continue
        if value != DEFAULTS[key] or key == "roundMode":
            text = str(value).lower() if isinstance(value, bool) else str(value)
            options += ["--set", f"{key}={text}"]
    return options


def make_game(
    rng: random.Random, game: str, players: list[str], rules: dict, specials: bool = True
) -> list[list]:
    """A game's (game, round, player, bid, tricks, bomb, cloud) rows: whole, cut short, in
    play, or spoilt; with ``specials`` (and unless ``specialCards`` is off, now and then even
    then) some rounds have the Bomb or the Cloud (SPEC §1), now and then one that breaks a
    rule of §4."""
    count = len(players)
    sizes = hand_sizes(rules, count)
    shape = rng.choices(["whole", "short", "in play", "spoilt"], [6, 1, 1, 2])[0]
    rounds = len(sizes) if shape in ("whole", "spoilt") else rng.randint(1, len(sizes))
    made: list[list] = []  # per round: [bids, tricks, bomb, cloud as (seat, change) or None]
    totals = [0] * count
    with_specials = specials and (rules["specialCards"] is not False or rng.random() < 0.1)
    for index in range(rounds):
        size, number, dealer = sizes[index], index + 1, index % count
        bomb = with_specials and rng.random() < 0.25
        tricks = [0] * count
        for _ in range(size - bomb):
            tricks[rng.randrange(count)] += 1
        if bomb and rng.random() < 0.05:
            tricks[rng.randrange(count)] += 1  # the Bomb's trick counted: a problem
        bids = [took if rng.random() < 0.5 else rng.randint(0, size) for took in tricks]
        cloud = None
        if with_specials and rng.random() < 0.25:
            takers = [seat for seat in range(count) if tricks[seat]]
            seat = rng.choice(takers) if takers and rng.random() < 0.95 else rng.randrange(count)
            change = rng.choice([1, -1])
            if rng.random() < 0.9 and not 0 <= bids[seat] + change <= size:
                change = -change
            if rng.random() < 0.5 and 0 <= tricks[seat] - change <= size:
                bids[seat] = tricks[seat] - change  # the changed bid made
            cloud = (seat, change)
        if rng.random() < 0.85:  # mostly a dealer who keeps the rule
            forbidden = forbidden_bid(rules, bids, dealer, size, totals)
            if forbidden is not None and bids[dealer] == forbidden:
                bids[dealer] = forbidden + 1 if forbidden < size else forbidden - 1
        cells = [
            Row(
                0,
                number,
                name,
                bid,
                took,
                False,
                cloud[1] if cloud is not None and cloud[0] == seat else None,
            )
            for seat, (name, bid, took) in enumerate(zip(players, bids, tricks))
        ]
        totals = [
            total + points
            for total, points in zip(totals, _points(cells, size, dealer, number, sizes, rules))
        ]
        made.append([bids, tricks, bomb, cloud])
    if shape == "in play":
        bids, tricks, bomb, cloud = made[-1]
        made[-1] = [
            [bid if rng.random() < 0.7 else None for bid in bids],
            [None] * count,
            bomb and rng.random() < 0.1,
            cloud,
        ]
    if shape == "spoilt":
        index = rng.randrange(len(made))
        bids, tricks, _, _ = made[index]
        seat = rng.randrange(count)
        kind = rng.randrange(4)
        if kind == 0:
            tricks[seat] += 1
        elif kind == 1 and tricks[seat]:
            tricks[seat] -= 1
        elif kind == 2:
            bids[seat] = sizes[index] + rng.randint(1, 3)
        else:
            made.append([[0] * count, [0] * count, False, None])  # a round past the game's
    rows = []
    for index, (bids, tricks, bomb, cloud) in enumerate(made):
        marked = rng.randrange(count)  # the Bomb is marked on any one of its round's rows
        for seat, name in enumerate(players):
            rows.append(
                [
                    game,
                    index + 1,
                    name,
                    bids[seat],
                    tricks[seat],
                    bomb and (seat == marked or rng.random() < 0.2),
                    cloud[1] if cloud is not None and cloud[0] == seat else None,
                ]
            )
    return rows


def season(rng: random.Random, rules: dict) -> tuple[str, list[OracleGame]]:
    """A long CSV of several games (often one table for all) and the oracle's reading of it."""
    table = rng.sample(NAMES[:6], rng.randint(3, 6)) if rng.random() < 0.6 else None
    specials = rng.random() < 0.3  # else no bomb or cloud column: the season lane's seasons
    lines = ["game,round,player,bid,tricks" + (",bomb,cloud" if specials else "")]
    games = []
    for number in range(rng.randint(2, 25)):
        players = table or rng.sample(NAMES[:6], rng.randint(3, 6))
        if rng.random() < 0.03:  # more players than a game has
            players = rng.sample(NAMES, rng.randint(7, 8))
        game = OracleGame(f"g{number}")
        for row in make_game(rng, game.game, players, rules, specials):
            cells = row[:5] + (
                [
                    rng.choice(["x", "yes", "ja", "1"])
                    if row[5]
                    else rng.choice(["", "", "no", "0"]),
                    "" if row[6] is None else f"{row[6]:+d}",
                ]
                if specials
                else []
            )
            lines.append(",".join("" if cell is None else str(cell) for cell in cells))
            game.rows.append(Row(len(lines), *row[1:]))
        games.append(game)
    return "\n".join(lines) + "\n", games


def check_season(path, seed: int) -> None:
    """One generated season through ``standings`` and ``check``, against the oracle."""
    rng = random.Random(seed)
    rules = random_rules(rng)
    text, games = season(rng, rules)
    path.write_text(text)
    verdicts = {game.game: judge(game, rules) for game in games}
    options = set_options(rules)

    result = run("standings", path, "-f", "jsonl", *options)
    shown = [json.loads(line) for line in result.stdout.splitlines()]
    valid = [game for game, verdict in verdicts.items() if not verdict.problems]
    assert [line["game"] for line in shown] == valid, options
    for line in shown:
        verdict = verdicts[line["game"]]
        assert line["standings"] == verdict.standings, (line["game"], options)
        status = {key: line["status"][key] for key in verdict.status}
        assert status == verdict.status, (line["game"], options)
    assert result.exit_code == (0 if len(valid) == len(games) else 1)

    result = run("check", path, "-f", "jsonl", *options)
    checked = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["game"] for line in checked] == list(verdicts)
    for line in checked:
        verdict = verdicts[line["game"]]
        found = sorted(
            ((p["line"], p["round"], p["player"], p["message"]) for p in line["problems"]), key=repr
        )
        assert (line["valid"], found) == (
            not verdict.problems,
            sorted(verdict.problems, key=repr),
        ), (line["game"], options)
    assert result.exit_code == (0 if len(valid) == len(games) else 1)


@settings(
    max_examples=400 if SLOW else 40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_engine_scores_and_checks_seasons_as_the_oracle_does(tmp_path, seed):
    check_season(tmp_path / "season.csv", seed)


def test_the_oracle_is_not_the_engine_echoed():
    """The oracle's own figures for a small game worked by hand (SPEC §1): so a disagreement
    points at the engine, not at a shared mistake."""
    rules = dict(
        DEFAULTS,
        balancedBidPenalty=10,
        finalRoundBonus=10,
        perfectGameBonus=20,
        roundMode="custom",
        customRoundCount=2,
    )
    game = OracleGame(
        "g",
        [
            Row(2, 1, "A", 1, 1),
            Row(3, 1, "B", 0, 0),
            Row(4, 1, "C", 0, 0),
            Row(5, 2, "A", 0, 1),
            Row(6, 2, "B", 1, 1),
            Row(7, 2, "C", 0, 0),
        ],
    )
    verdict = judge(game, rules)
    # Round 1 (A deals; the bids add up to the hand size of 1): A 30 - 10, B 20, C 20. Round 2,
    # the last (bids 1 of 2): A misses by 1 (-10), B 30 + 10, C 20 + 10. B and C made every
    # bid: + 20 each.
    assert verdict.standings == [
        {"rank": 1, "player": "B", "score": 80, "bonus": 20},
        {"rank": 2, "player": "C", "score": 70, "bonus": 20},
        {"rank": 3, "player": "A", "score": 10, "bonus": 0},
    ]
    rules = dict(rules, screwTheDealer="always", canadianRule=True)
    assert judge(game, rules).problems == [
        (
            2,
            1,
            "A",
            "the dealer may not bid 1 under screwTheDealer=always: the bids would add "
            "up to the hand size of 1",
        )
    ]


def test_a_rule_heavy_season_is_scored_as_runs_as_each_game_alone(tmp_path):
    """Every rule of §2 is the run scorer's as well as a lone game's: a season of regular games
    under balancedBidPenalty, screwTheDealer and finalRoundBonus (its dealers keeping the rule)
    comes as runs that check_run scores, each game's standings those of the game alone; and a
    run holding a forbidden dealer bid is not scored (its games go the way that says so)."""
    from wizard_cli.game.game import score_game
    from wizard_cli.game.model import GameRun
    from wizard_cli.game.runs import check_run
    from wizard_cli.game.settings import command_line_settings
    from wizard_cli.game.validation import check_sheet
    from wizard_cli.sheets.formats import read_sheets

    rng = random.Random(11)
    rules = dict(DEFAULTS, **HEAVY, perfectGameBonus=20, tieBreak="madeBids")
    players = NAMES[:4]
    lines = ["game,round,player,bid,tricks"]
    for number in range(40):
        rows = [
            row[:5]
            for row in make_game(
                rng, f"g{number}", players, dict(rules, screwTheDealer="off"), False
            )
        ]
        sizes = hand_sizes(rules, 4)
        if len(rows) != 4 * len(sizes) or any(row[4] is None for row in rows):
            continue  # the run's games are whole
        for index, size in enumerate(sizes):  # every dealer keeps screwTheDealer=always
            cells = rows[index * 4 : index * 4 + 4]
            if sum(row[3] for row in cells) == size:
                dealer = cells[index % 4]
                dealer[3] += 1 if dealer[3] < size else -1
        game = OracleGame("", [Row(0, *row[1:]) for row in rows])
        if judge(game, rules).problems:
            continue  # a spoilt game
        lines += [",".join(map(str, row)) for row in rows]
    path = tmp_path / "season.csv"
    path.write_text("\n".join(lines) + "\n")
    layers = [command_line_settings(set_options(rules)[1::2], None)]
    runs = [item for item in read_sheets(str(path), runs=True) if type(item) is GameRun]
    assert runs and sum(map(len, runs)) >= 10
    for run_ in runs:
        standings = check_run(run_, layers)
        assert standings is not None
        for index, sheet in enumerate(run_.sheets()):
            alone = score_game(check_sheet(sheet, layers).validated)
            places = tuple(standing.seat for standing in alone.standings)
            assert (
                standings.places[index],
                standings.ranks[index],
                standings.scores[index],
                standings.bonuses[index],
            ) == (
                places,
                tuple(s.rank for s in alone.standings),
                tuple(s.score for s in alone.standings),
                tuple(s.bonus for s in alone.standings),
            )
        # One forbidden dealer bid (round 1: the dealer, seat 0, makes the bids add up to 1).
        run_.bids[:4] = [1, 0, 0, 0]
        assert check_run(run_, layers) is None
        assert not check_sheet(run_.sheet(0), layers).valid


def test_a_long_csv_says_how_many_players_it_has_on_every_path(tmp_path):
    """SPEC §4: "a game has 3 to 6 players, this sheet has 8", as the YAML and wide readers
    say it, whether the game's rows are regular (placed in bulk) or not (row by row: here a
    quoted cell and a row out of place), and with more players than any reader keeps."""

    def rows(names: list[str], messy: bool) -> list[str]:
        lines = [f"1,{name},0,{int(seat == 0)}" for seat, name in enumerate(names)]
        lines += [f"2,{name},0,{int(seat < 2)}" for seat, name in enumerate(names)]
        if messy:
            lines[1] = lines[1].replace("0,0", '"0",0')
            lines[-1], lines[-2] = lines[-2], lines[-1]
        return lines

    for names in (NAMES, [f"P{number}" for number in range(40)]):
        for messy in (False, True):
            path = tmp_path / "many.csv"
            path.write_text("\n".join(["round,player,bid,tricks", *rows(names, messy)]) + "\n")
            result = run("check", path)
            assert result.exit_code == 1
            assert result.stderr.splitlines()[0] == (
                f"{path}:2: a game has 3 to 6 players, this sheet has {len(names)}"
            ), messy
    yaml = tmp_path / "many.yaml"
    yaml.write_text(f"players: [{', '.join(NAMES)}]\n")
    assert "this sheet has 8" in run("check", yaml).stderr


# --- seasons whose seating changes -----------------------------------------------------------


def seated_table(rng: random.Random, game: str, rules: dict) -> SeatedTable:
    """A game with seating: 3 to 8 listed, some joining late, leaving early, starting with a
    score, sitting a round out, dealing a round off the rotation; rounds dealt until the game
    ends (``wholeDeck``: the round dealing the whole deck to those seated), or cut short, left
    in play or spoilt as :func:`make_game`'s; round 1 seats 3 to 6, and every round fits."""
    for _ in range(50):
        players = [Listed(name) for name in rng.sample(NAMES, rng.randint(3, 8))]
        for listed in players:
            if rng.random() < 0.2:
                listed.joins = rng.randint(2, 8)
            elif rng.random() < 0.2:
                listed.leaves = rng.randint(1, 12)
            if rng.random() < 0.2:
                listed.start = rng.choice([-20, 10, 30, 55])
        table = SeatedTable(game, players, rng.choice(players).name if rng.random() < 0.3 else None)
        if 3 <= len(table.listed(1)) <= 6:
            break
    else:
        table = SeatedTable(game, [Listed(name) for name in NAMES[:4]])
    shape = rng.choices(["whole", "short", "in play", "spoilt"], [6, 1, 1, 2])[0]
    cut = rng.randint(1, 20) if shape in ("short", "in play") else 20
    specials = rules["specialCards"] and rng.random() < 0.7
    sizes = None
    for number in range(1, cut + 1):
        listed = table.listed(number)
        out = {rng.choice(listed)} if len(listed) > 3 and rng.random() < 0.15 else set()
        seated = [name for name in listed if name not in out]
        if number == 1 and rules["roundMode"] != "wholeDeck":  # those seated in round 1's
            sizes = hand_sizes(rules, max(len(seated), 3))
        if sizes is not None and number > len(sizes):
            break
        size = number if sizes is None else sizes[number - 1]
        if not 3 <= len(seated) <= 6 or size * len(seated) > 60:
            break  # the game stops short of a round it could not deal
        names = [p.name for p in table.players]
        dealer = None
        if rng.random() < 0.15:  # a recorded dealer, often one not seated (SPEC §1)
            away = [name for name in names if name not in seated]
            dealer = rng.choice(away if away and rng.random() < 0.6 else names)
        bomb = specials and rng.random() < 0.25
        tricks = dict.fromkeys(seated, 0)
        for _ in range(size - bomb):
            tricks[rng.choice(seated)] += 1
        bids: dict[str, int | None] = {
            name: took if rng.random() < 0.5 else rng.randint(0, size)
            for name, took in tricks.items()
        }
        cloud = None
        if specials and rng.random() < 0.25:
            takers = [name for name in seated if tricks[name]] or seated
            name = rng.choice(takers)
            change = rng.choice([1, -1])
            if not 0 <= bids[name] + change <= size:
                change = -change
            cloud = (name, change)
        table.rounds.append(Dealt(out, dealer, bids, tricks, bomb, cloud))
        verdict = judge_seated(table, rules)
        forbidden = [p for p in verdict.problems if p[0] == number and "may not bid" in p[2]]
        if forbidden and rng.random() < 0.85:  # mostly a dealer who keeps the rule
            last = forbidden[0][1]
            bids[last] += 1 if bids[last] < size else -1
            if cloud is not None and cloud[0] == last and not 0 <= bids[last] + cloud[1] <= size:
                table.rounds[-1].cloud = None
        if sizes is None and number == 60 // len(seated):
            break  # it deals the whole deck to those seated: the game's last round
    if shape == "in play" and table.rounds:
        last = table.rounds[-1]
        last.tricks, last.bomb = None, False
        for name in last.bids:
            if rng.random() < 0.3:
                last.bids[name] = None
        if None in last.bids.values():
            last.cloud = None
    if shape == "spoilt" and table.rounds:
        number = len(table.rounds)
        ended = number == (60 // len(table.seated(number)) if sizes is None else len(sizes))
        dealt = rng.choice(table.rounds)
        name = rng.choice(list(dealt.tricks))
        kind = rng.randrange(4)
        if kind == 0:
            dealt.tricks[name] += 1
        elif kind == 1 and dealt.tricks[name]:
            dealt.tricks[name] -= 1
        elif kind == 2 or not ended:
            dealt.bids[name] = rng.randint(len(table.rounds) + 1, 25)
        else:  # one more round, past the game's end
            listed = table.listed(number + 1)
            table.rounds.append(
                Dealt(set(), None, dict.fromkeys(listed, 0), dict.fromkeys(listed, 0))
            )
    return table


def table_yaml(table: SeatedTable) -> str:
    """The game as a YAML sheet (SPEC §3): ``players`` entries, each round's ``dealer``,
    ``out``, ``bomb`` and ``cloud``, the seated players' values by name."""

    def entry(listed: Listed) -> str:
        fields = [f"name: {listed.name}"] + [
            f"{key}: {value}"
            for key, value, default in (
                ("joins", listed.joins, 1),
                ("leaves", listed.leaves, None),
                ("startScore", listed.start, 0),
            )
            if value != default
        ]
        return "{" + ", ".join(fields) + "}" if len(fields) > 1 else listed.name

    def mapping(values: dict) -> str:
        return (
            "{"
            + ", ".join(f"{name}: {value}" for name, value in values.items() if value is not None)
            + "}"
        )

    lines = [f"game: {table.game}", f"players: [{', '.join(map(entry, table.players))}]"]
    if table.first_dealer is not None:
        lines.append(f"firstDealer: {table.first_dealer}")
    lines.append("rounds:" if table.rounds else "rounds: []")
    for dealt in table.rounds:
        lines.append(f"  - bids: {mapping(dealt.bids)}")
        if dealt.dealer is not None:
            lines.append(f"    dealer: {dealt.dealer}")
        if dealt.out:
            lines.append(f"    out: [{', '.join(sorted(dealt.out))}]")
        if dealt.tricks is not None:
            lines.append(f"    tricks: {mapping(dealt.tricks)}")
        if dealt.bomb:
            lines.append("    bomb: true")
        if dealt.cloud is not None:
            lines.append(f"    cloud: {{{dealt.cloud[0]}: {dealt.cloud[1]}}}")
    return "\n".join(lines) + "\n"


def seated_rules(rng: random.Random) -> dict:
    """:func:`random_rules` with ``specialCards`` set (a YAML sheet does not imply it)."""
    rules = random_rules(rng)
    rules["specialCards"] = rules["specialCards"] is not False and rng.random() < 0.8
    return rules


def check_seated_season(path, seed: int) -> None:
    """A generated season of games with seating through ``standings``, ``check`` and the
    library's ``read`` and ``score``, against the oracle."""
    import wizard_cli as wizard

    rng = random.Random(seed)
    rules = seated_rules(rng)
    tables = [seated_table(rng, f"g{number}", rules) for number in range(rng.randint(1, 8))]
    path.write_text("---\n".join(map(table_yaml, tables)))
    verdicts = {table.game: judge_seated(table, rules) for table in tables}
    valid = [game for game, verdict in verdicts.items() if not verdict.problems]
    options = set_options(rules)

    result = run("standings", path, "-f", "jsonl", *options)
    shown = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["game"] for line in shown] == valid, (options, result.stderr)
    for line in shown:
        verdict = verdicts[line["game"]]
        assert line["standings"] == verdict.standings, (line["game"], options)
        assert {key: line["status"][key] for key in verdict.status} == verdict.status, (
            line["game"],
            options,
        )
    assert result.exit_code == (0 if len(valid) == len(tables) else 1)

    result = run("check", path, "-f", "jsonl", *options)
    for line in map(json.loads, result.stdout.splitlines()):
        found = [(p["round"], p["player"], p["message"]) for p in line["problems"]]
        assert sorted(found, key=repr) == sorted(verdicts[line["game"]].problems, key=repr), (
            line["game"],
            options,
        )

    given = {
        key: value for key, value in rules.items() if value != DEFAULTS[key] or key == "roundMode"
    }
    for item in wizard.read(str(path), settings=given):
        verdict = verdicts[item.game if isinstance(item, wizard.Game) else item[0].game]
        assert isinstance(item, wizard.Game) == (not verdict.problems), verdict.problems
        if isinstance(item, wizard.Game):
            scored = wizard.score(item).as_json()
            assert scored["standings"] == verdict.standings
            assert {key: scored["status"][key] for key in verdict.status} == verdict.status


@settings(
    max_examples=300 if SLOW else 15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_engine_scores_and_checks_seated_seasons_as_the_oracle_does(tmp_path, seed):
    check_seated_season(tmp_path / "season.yaml", seed)
