"""The season lane over seasons with the anniversary cards (SPEC §1, §3; issue 31's speed):
a long CSV's ``bomb`` and ``cloud`` columns ride in the runs (a Bomb per round, a Cloud per
cell), scored by the rules a single game is scored by. Every command through the lane prints
exactly what the general path prints (each game read alone, row by row: tests/test_lanes.py's
``both``), over generated seasons some of whose special cards are spoilt the ways a run must
not take: a mark that is no mark, two Clouds in a round, a Cloud to a player who took no trick
or past the hand, a Bomb round whose tricks add up to the hand size. ``WIZARD_SLOW=1`` runs
many more.
"""

from __future__ import annotations

import io
import json
import os
import random

import pytest
from test_lanes import NAMES, RULES, as_sheets, both, game_rows

from wizard_cli.game.model import GameRun
from wizard_cli.sheets import source
from wizard_cli.sheets.csv.sheets import read_csv_sheets

SLOW = os.environ.get("WIZARD_SLOW") == "1"
SEEDS = range(30 if SLOW else 3)
SPECIAL_RULES = [
    *RULES,
    ["--set", "specialCards=true"],
    ["--set", "specialCards=false"],
    [
        "--set",
        "specialCards=true",
        "--set",
        "finalRoundBonus=10",
        "--set",
        "balancedBidPenalty=5",
        "--set",
        "screwTheDealer=always",
    ],
    ["--set", "tieBreak=madeBids", "--set", "perfectGameBonus=20"],
]
COMMANDS = [
    ["standings", "-f", "jsonl"],
    ["check", "-f", "jsonl"],
    ["score", "-f", "jsonl"],
    ["score"],
    ["stats"],
    ["stats", "--by", "handSize"],
    ["stats", "--by", "position"],
    ["ratings"],
    ["standings", "-f", "csv"],
]


def special_rounds(
    rng: random.Random, players: list[str], rounds: int, share: float, spoil: bool
) -> list[list[str]]:
    """A game's rows (round, player, bid, tricks, bomb, cloud): Bombs and Clouds in about
    ``share`` of its rounds, each cell as the general reader reads it; ``spoil`` breaks one
    special card a way a run must not take."""
    rows = [[*row, "", ""] for row in game_rows(rng, players, rounds)]
    count = len(players)
    for index in range(rounds):
        cells = rows[index * count : (index + 1) * count]
        size = index + 1
        if rng.random() < share:  # the Bomb: one trick goes to nobody
            holder = [row for row in cells if int(row[3])]
            row = rng.choice(holder)
            row[3] = str(int(row[3]) - 1)
            rng.choice(cells)[4] = rng.choice(["yes", "x", "1", "ja", "Y"])
            for other in cells:  # a mark on a second row, or an unmarked one, says the same
                if not other[4] and rng.random() < 0.2:
                    other[4] = rng.choice(["no", "", "0", "yes"])
        if rng.random() < share:  # the Cloud, to a player who took a trick
            takers = [row for row in cells if int(row[3])]
            if takers:
                row = rng.choice(takers)
                change = rng.choice([1, -1])
                if rng.random() < 0.5:
                    row[2] = str(int(row[3]) - change)  # the changed bid made
                row[2] = str(min(max(int(row[2]), 0), size))
                if not 0 <= int(row[2]) + change <= size:
                    change = -change
                row[5] = rng.choice(["+1", "1"] if change > 0 else ["-1", "\u22121"])
    if spoil:
        at = rng.randrange(len(rows))
        kind = rng.randrange(5)
        if kind == 0:
            rows[at][4] = "maybe"
        elif kind == 1:
            rows[at][5] = rng.choice(["+2", "x"])
        elif kind == 2:  # two Clouds in one round, or a Cloud to whoever took no trick
            first = at - at % count
            for row in rows[first : first + count][:2]:
                row[5] = "+1"
        elif kind == 3:  # a Cloud past the hand
            rows[at][5] = "+1"
            rows[at][2] = str(int(rows[at][0]))
        else:  # a Bomb where every trick was taken
            rows[at][4] = "yes"
    return rows


def special_season_text(
    rng: random.Random, games: int, share: float = 0.1, spoilt: float = 0.15
) -> str:
    """A long CSV with ``bomb`` and ``cloud`` columns (English or German), mostly whole
    regular games, tables often playing many games in a row."""
    header = rng.choice(
        ["game,round,player,bid,tricks,bomb,cloud", "Spiel,Runde,Spieler,Ansage,Stiche,Bombe,Wolke"]
    )
    lines = [header]
    players: list[str] = []
    for number in range(games):
        if not players or rng.random() < 0.3:
            players = rng.sample(NAMES[:6], rng.choice([3, 4, 4, 5, 6]))
        whole = 60 // len(players)
        rounds = whole if rng.random() < 0.9 else rng.randint(1, whole)
        spoil = rng.random() < spoilt
        for row in special_rounds(rng, players, rounds, share if rng.random() < 0.8 else 0, spoil):
            lines.append(",".join([f"g{number}", *row]))
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("seed", SEEDS)
def test_a_season_with_bombs_and_clouds_prints_through_the_lane_what_the_general_path_prints(
    tmp_path, seed
):
    rng = random.Random(4000 + seed)
    path = tmp_path / "season.csv"
    path.write_bytes(special_season_text(rng, rng.randint(150, 300)).encode())
    cases = [(command, rules) for command in COMMANDS for rules in SPECIAL_RULES]
    for command, rules in cases if SLOW else rng.sample(cases, 14):
        args = [command[0], path, *command[1:], *rules]
        lane, general = both(args)
        assert lane == general, args


@pytest.mark.parametrize("seed", SEEDS)
def test_a_season_with_bombs_and_clouds_reads_as_the_general_path_in_any_block_size(seed):
    """Runs that carry the Bombs and Clouds give back each game's sheet exactly as the general
    reader reads it (its special cards, and the ``specialCards: true`` they imply)."""
    rng = random.Random(5000 + seed)
    data = special_season_text(rng, rng.randint(20, 60)).encode()
    expected = list(
        read_csv_sheets(source.decoded_blocks(io.BytesIO(data), "s.csv", None), "s.csv", bulk=False)
    )
    for block_bytes in (64, 1000, 4096, 1 << 16):
        blocks = source.decoded_blocks(io.BytesIO(data), "s.csv", None, block_bytes=block_bytes)
        assert as_sheets(read_csv_sheets(blocks, "s.csv", runs=True)) == expected, block_bytes


def test_a_clean_season_with_bombs_and_clouds_takes_the_season_lane(tmp_path):
    """Games recording a Bomb or a Cloud join runs (so the comparisons above compare
    something), the runs hold their cards, and standings, stats and ratings print through the
    lane what the general path prints, with and without ``specialCards`` set."""
    rng = random.Random(11)
    data = special_season_text(rng, 300, share=0.2, spoilt=0).encode()
    items = list(
        read_csv_sheets(source.decoded_blocks(io.BytesIO(data), "s.csv", None), "s.csv", runs=True)
    )
    runs = [item for item in items if type(item) is GameRun]
    assert sum(map(len, runs)) > 200
    assert sum(len(run.bombs) for run in runs) > 100 and sum(len(run.clouds) for run in runs) > 100
    path = tmp_path / "season.csv"
    path.write_bytes(data)
    for command in (
        ["standings", "-f", "jsonl"],
        ["check", "-f", "jsonl"],
        ["ratings"],
        ["stats", "--by", "handSize"],
        ["stats"],
    ):
        for rules in ([], ["--set", "specialCards=true"]):
            lane, general = both([command[0], path, *command[1:], *rules])
            assert lane == general and lane[0] == 0, command


def test_a_clouds_changed_bid_is_what_the_run_scores_and_counts(tmp_path):
    """One game through the lane: Ben's bid of 1 taken to 2 by the Cloud is made (2 tricks),
    so scored 40 and counted as made; the Bomb's round adds up to one less than its hand."""
    rows = ["game,round,player,bid,tricks,bomb,cloud"]
    game = [
        ["1", "Anna", "1", "1", "", ""],
        ["1", "Ben", "0", "0", "", ""],
        ["1", "Cara", "0", "0", "", ""],
        ["2", "Anna", "0", "0", "yes", ""],
        ["2", "Ben", "1", "1", "", ""],
        ["2", "Cara", "0", "0", "", ""],
        ["3", "Anna", "0", "1", "", ""],
        ["3", "Ben", "1", "2", "", "+1"],
        ["3", "Cara", "0", "0", "", ""],
    ]
    for number in range(40):
        rows += [",".join([f"g{number}", *row]) for row in game]
    path = tmp_path / "season.csv"
    path.write_bytes(("\n".join(rows) + "\n").encode())
    args = [
        "standings",
        path,
        "-f",
        "jsonl",
        "--set",
        "roundMode=custom",
        "--set",
        "customRoundCount=3",
    ]
    lane, general = both(args)
    assert lane == general and lane[0] == 0
    assert '{"rank":1,"player":"Ben","score":90,"bonus":0}' in lane[1].splitlines()[20]
    lane, general = both(["stats", path, "--by", "handSize", "-f", "csv", *args[4:]])
    assert lane == general and "Ben,3,40,40,1.0,40.0" in lane[1]


# --- players sitting a round out (an ``out`` row, SPEC §1, §3) ----------------------------------

OUT_CELLS = ["out", "out", "out", "aus", "Out", "AUS"]
SIT_OUT_RULES = [
    [],
    ["--set", "specialCards=true"],
    ["--set", "screwTheDealer=always"],
    ["--set", "screwTheDealer=leaderOnly", "--set", "specialCards=true"],
    ["--set", "screwTheDealer=unlessTiedLead", "--set", "dealerRuleFrom=3"],
    ["--set", "balancedBidPenalty=5", "--set", "finalRoundBonus=10"],
    ["--set", "tieBreak=madeBids", "--set", "perfectGameBonus=20"],
    ["--set", "tieBreak=totalBids", "--set", "perfectGameBonus=20"],
    ["--set", "roundMode=quickPlay"],
    ["--zero-bid", "doubleBonus"],
]


def sit_out(rng: random.Random, rows: list[list[str]], count: int, spoil: bool) -> None:
    """One or two players sit a round out (most in the middle of the game, some in its first
    or last round: joining late, leaving early): the ``out`` row's tricks go to a seated
    player, its Bomb mark and Cloud go with them. ``spoil`` makes one a run must not hold as it
    is: tricks on an ``out`` row, a Bomb or Cloud left on it, too few seated, ``out`` spaced."""
    rounds = len(rows) // count
    if rounds < 1 or count < 4:
        return
    index = rng.randrange(1, rounds - 1) if rounds > 2 and rng.random() < 0.85 else 0
    if rng.random() < 0.5 and rounds > 1:
        index = rounds - 1 if rng.random() < 0.1 else index
    cells = rows[index * count : (index + 1) * count]
    away = rng.sample(range(count), 2 if count >= 5 and rng.random() < 0.3 else 1)
    seated = [seat for seat in range(count) if seat not in away]
    for seat in away:
        row = cells[seat]
        taker = cells[rng.choice(seated)]
        taker[3] = str(int(taker[3]) + int(row[3]))
        if row[4].strip().lower() not in ("", "no", "0", "n", "false", "nein"):
            taker[4] = row[4]
        if row[5]:
            taker[5] = ""
        row[2], row[3], row[4], row[5] = rng.choice(OUT_CELLS), "", "", ""
    if spoil:
        row = cells[away[0]]
        kind = rng.randrange(4)
        if kind == 0:
            row[3] = "0"
        elif kind == 1:
            row[rng.choice([4, 5])] = rng.choice(["yes", "+1"])
        elif kind == 2:
            for other in cells[: count - 2]:
                other[2], other[3] = "out", ""
        else:
            row[2] = " out"


def sit_out_season_text(rng: random.Random, games: int) -> str:
    """A season of special-card games some of whose players sit a round out (in about a
    third of the games), now and then a way a run must not take."""
    lines = ["game,round,player,bid,tricks,bomb,cloud"]
    players: list[str] = []
    for number in range(games):
        if not players or rng.random() < 0.3:
            players = rng.sample(NAMES[:6], rng.choice([3, 4, 4, 5, 6]))
        whole = 60 // len(players)
        rounds = whole if rng.random() < 0.9 else rng.randint(1, whole)
        rows = special_rounds(rng, players, rounds, 0.1, rng.random() < 0.05)
        if rng.random() < 0.35:
            sit_out(rng, rows, len(players), rng.random() < 0.2)
        lines += [",".join([f"g{number}", *row]) for row in rows]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("seed", SEEDS)
def test_a_season_with_sit_outs_reads_as_the_general_path_in_any_block_size(seed):
    """Runs that hold players sitting a round out give back each game's sheet, its seating
    included, exactly as the general reader reads it."""
    rng = random.Random(6000 + seed)
    data = sit_out_season_text(rng, rng.randint(30, 80)).encode()
    expected = list(
        read_csv_sheets(source.decoded_blocks(io.BytesIO(data), "s.csv", None), "s.csv", bulk=False)
    )
    for block_bytes in (64, 1000, 4096, 1 << 16):
        blocks = source.decoded_blocks(io.BytesIO(data), "s.csv", None, block_bytes=block_bytes)
        assert as_sheets(read_csv_sheets(blocks, "s.csv", runs=True)) == expected, block_bytes


@pytest.mark.parametrize("seed", SEEDS)
def test_a_season_with_sit_outs_prints_through_the_lane_what_the_general_path_prints(
    tmp_path, seed
):
    rng = random.Random(7000 + seed)
    path = tmp_path / "season.csv"
    path.write_bytes(sit_out_season_text(rng, rng.randint(150, 300)).encode())
    cases = [(command, rules) for command in COMMANDS for rules in SIT_OUT_RULES]
    taken = [
        (["standings", "-f", "jsonl"], rng.choice(SIT_OUT_RULES)),
        (["check", "-f", "jsonl"], rng.choice(SIT_OUT_RULES)),
    ]
    for command, rules in cases if SLOW else taken + rng.sample(cases, 12):
        args = [command[0], path, *command[1:], *rules]
        lane, general = both(args)
        assert lane == general, args


def test_games_with_a_sit_out_join_runs_and_standings_score_them_there(tmp_path):
    """Games in which a player sits a middle round out ride in the runs (so the comparisons
    above compare something); standings and check take them there, every other command cuts
    the run around them; each prints what the general path prints. Anna sits out round 2 of
    every game: she scores nothing in it, and the round's tricks add up without her."""
    rows = ["game,round,player,bid,tricks,bomb,cloud"]
    game = [
        ["1", "Anna", "1", "1", "", ""],
        ["1", "Ben", "0", "0", "", ""],
        ["1", "Cara", "0", "0", "", ""],
        ["1", "Dan", "0", "0", "", ""],
        ["2", "Anna", "out", "", "", ""],
        ["2", "Ben", "1", "1", "", ""],
        ["2", "Cara", "1", "1", "", ""],
        ["2", "Dan", "0", "0", "", ""],
        ["3", "Anna", "0", "0", "", ""],
        ["3", "Ben", "2", "2", "", ""],
        ["3", "Cara", "0", "0", "", ""],
        ["3", "Dan", "1", "1", "", ""],
    ]
    plain = [[*row[:2], "0", "0", "", ""] if row[2] == "out" else row for row in game]
    for number in range(600):
        rows += [",".join([f"g{number}", *row]) for row in (game if number % 3 else plain)]
    text = "\n".join(rows) + "\n"
    items = list(
        read_csv_sheets(
            source.decoded_blocks(io.BytesIO(text.encode()), "s.csv", None), "s.csv", runs=True
        )
    )
    runs = [item for item in items if type(item) is GameRun]
    assert (
        sum(map(len, runs)) > 250 and sum(len(run.outs) for run in runs) > 150
    )  # (not the first block)
    path = tmp_path / "season.csv"
    path.write_bytes(text.encode())
    args = [
        "standings",
        path,
        "-f",
        "jsonl",
        "--set",
        "roundMode=custom",
        "--set",
        "customRoundCount=3",
    ]
    lane, general = both(args)
    assert lane == general and lane[0] == 0
    # g1: Anna 1/1 (30), out (0), 0/0 (20) = 50; Ben 20 + 30 + 40 = 90
    assert '{"rank":1,"player":"Ben","score":90,"bonus":0}' in lane[1].splitlines()[1]
    assert '{"rank":4,"player":"Anna","score":50,"bonus":0}' in lane[1].splitlines()[1]
    for command in (["check", "-f", "jsonl"], ["score"], ["stats"], ["ratings"]):
        lane, general = both([command[0], path, *command[1:], *args[4:]])
        assert lane == general and lane[0] == 0, command


def test_a_dealer_sitting_out_passes_the_deal_on_and_the_last_bidder_pays(tmp_path):
    """Ben would deal round 2 but sits it out: Cara deals it (the first seated after Anna),
    bids last and pays ``balancedBidPenalty``; round 3 goes on from her, to Dan. Through the
    run exactly as one game alone (the rotation's dealers, Ben and Cara, would pay wrongly)."""
    game = [
        ["1", "Anna", "0", "0"],
        ["1", "Ben", "1", "1"],
        ["1", "Cara", "0", "0"],
        ["1", "Dan", "0", "0"],
        ["2", "Anna", "1", "1"],
        ["2", "Ben", "out", ""],
        ["2", "Cara", "1", "1"],
        ["2", "Dan", "0", "0"],
        ["3", "Anna", "1", "1"],
        ["3", "Ben", "1", "1"],
        ["3", "Cara", "0", "0"],
        ["3", "Dan", "1", "1"],
    ]
    rows = ["game,round,player,bid,tricks"]
    for number in range(600):
        rows += [",".join([f"g{number}", *row]) for row in game]
    path = tmp_path / "season.csv"
    path.write_text("\n".join(rows) + "\n")
    rules = ["--set", "roundMode=custom", "--set", "customRoundCount=3"]
    args = ["standings", path, "-f", "jsonl", *rules, "--set", "balancedBidPenalty=5"]
    lane, general = both(args)
    assert lane == general and lane[0] == 0
    last = json.loads(lane[1].splitlines()[-1])
    assert [(s["player"], s["score"]) for s in last["standings"]] == [
        ("Anna", 75),  # 20 - 5 (dealt round 1, balanced) + 30 + 30
        ("Cara", 65),  # 20 + 30 - 5 (in Ben's place in round 2) + 20
        ("Dan", 65),  # 20 + 20 + 30 - 5 (dealt round 3)
        ("Ben", 60),  # 30 + nothing (out) + 30
    ]
    for more in (["--set", "screwTheDealer=always"], ["--set", "tieBreak=madeBids"]):
        lane, general = both(["standings", path, "-f", "jsonl", *rules, *more])
        assert lane == general, more
