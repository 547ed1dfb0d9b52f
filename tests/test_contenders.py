"""Who can still win (SPEC §1): `status.contenders`, exactly the bound, and the status line."""

from __future__ import annotations

import itertools
import json

import pytest
from helpers import WORKED, run
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from wizard_cli.game.game import contenders, score_bounds, score_game
from wizard_cli.game.model import RoundRecord, Sheet
from wizard_cli.game.scoring import base_points, dealer_seat
from wizard_cli.game.settings import RawSetting, hand_sizes
from wizard_cli.game.validation import check_sheet


def game(players: int, rounds: list[tuple[list, list | None]], **settings) -> object:
    """A scored game of ``players`` (A, B, C…) with these (bids, tricks) rounds."""
    names = "ABCDEF"[:players]
    sheet = Sheet(
        source="g.yaml",
        players=list(names),
        player_lines=[None] * players,
        settings=[RawSetting(k, v) for k, v in settings.items()],
        rounds=[
            RoundRecord(
                n, None, list(b), [None] * players, None if t is None else list(t), [None] * players
            )
            for n, (b, t) in enumerate(rounds, start=1)
        ],
    )
    checked = check_sheet(sheet)
    assert checked.valid, checked.problems
    return score_game(checked.validated)


# --- the bound, worked out by hand ----------------------------------------------------------


def test_the_bound_by_hand():
    # 3 players, 3 rounds (hands 1, 2, 3). After round 1: A 30, B 20, C -10 (C bid 1, took 0).
    result = game(3, [([1, 0, 1], [1, 0, 0])], roundMode="custom", customRoundCount=3)
    greatest, least = score_bounds(result)
    # left: hands 2 and 3; best made bid 20 + 10h, worst miss 10h
    assert greatest == [30 + 40 + 50, 20 + 40 + 50, -10 + 40 + 50]
    assert least == [30 - 20 - 30, 20 - 20 - 30, -10 - 20 - 30]
    assert contenders(result) == ["A", "B", "C"]


def test_a_recorded_bid_bounds_its_round():
    # round 2 in play, B has bid 0 of 2: at best 20 (made zero), at worst -20 (took 2)
    result = game(
        3, [([1, 0, 1], [1, 0, 0]), ([None, 0, None], None)], roundMode="custom", customRoundCount=2
    )
    greatest, least = score_bounds(result)
    assert greatest == [30 + 40, 20 + 20, -10 + 40]
    assert least == [30 - 20, 20 - 20, -10 - 20]
    # C's best (30) is not above A's least (10)... C is still in; B too
    assert contenders(result) == ["A", "B", "C"]


def test_a_player_too_far_behind_is_out():
    # A bid of 1 in round 2 (hand 2) in play: A's least is 30 - 10·max(1, 1) = 20, and C's
    # greatest -10 + 40 = 30 is not below it: C is still in
    close = game(
        3, [([1, 0, 1], [1, 0, 0]), ([1, None, None], None)], roundMode="custom", customRoundCount=2
    )
    assert contenders(close) == ["A", "B", "C"]
    # nothing to win per trick, nothing to lose: A 40, B 40, C 0 with one round worth 20 left
    out = game(3, TWO_ROUNDS, **FLAT)
    assert score_bounds(out) == ([60, 60, 20], [40, 40, 0])
    assert contenders(out) == ["A", "B"]


TWO_ROUNDS = [([1, 0, 1], [1, 0, 0]), ([2, 0, 1], [2, 0, 0])]
FLAT = dict(roundMode="custom", customRoundCount=3, pointsPerTrick=0, missPenalty=0)


def test_the_extras_widen_the_bound():
    # a final-round bonus of 20 lifts C's greatest to 40: not below A's least of 40
    assert contenders(game(3, TWO_ROUNDS, finalRoundBonus=20, **FLAT)) == ["A", "B", "C"]
    # a perfect-game bonus counts only for players who made every bid so far (C did not)
    perfect = game(3, TWO_ROUNDS, perfectGameBonus=50, **FLAT)
    assert score_bounds(perfect)[0] == [40 + 20 + 50, 40 + 20 + 50, 0 + 20]
    assert contenders(perfect) == ["A", "B"]
    # the balanced-bid penalty comes off the least of round 3's dealer (C)
    assert score_bounds(game(3, TWO_ROUNDS, balancedBidPenalty=30, **FLAT))[1] == [40, 40, -30]


def test_once_finished_the_contenders_are_the_winners():
    result = game(3, [([0, 0, 0], [1, 0, 0])], roundMode="custom", customRoundCount=1)
    assert contenders(result) == result.winners == ["B", "C"]


def test_a_game_with_no_rounds_keeps_everyone():
    assert contenders(game(4, [])) == ["A", "B", "C", "D"]


# --- the bound never names out a player who can still win ----------------------------------


def brute_force_can_win(result) -> set[str]:
    """Every player who comes first (alone or shared) in some way of finishing the game: all
    bids and tricks of the rounds left, the dealer restriction ignored (more ways, not fewer)."""
    s = result.settings
    count = len(result.players)
    sizes = hand_sizes(s, count)
    played = result.rounds_played
    last_number = result.rounds_total
    in_play = result.rounds[-1].bids if len(result.rounds) > played else None
    scored = result.scored
    made = [
        all(
            b == t
            for b, t in zip(
                scored.bids[seat : len(scored.tricks) : count], scored.tricks[seat::count]
            )
        )
        for seat in range(count)
    ]
    outcomes_per_round = []
    for number in range(played + 1, last_number + 1):
        size = sizes[number - 1]
        known = in_play if number == played + 1 and in_play else [None] * count
        dealer = dealer_seat(result.first_dealer, number, count)
        outcomes = set()
        bid_choices = [[b] if b is not None else range(size + 1) for b in known]
        splits = [t for t in itertools.product(range(size + 1), repeat=count) if sum(t) == size]
        for bids in itertools.product(*bid_choices):
            for tricks in splits:
                points = [base_points(b, t, size, s) for b, t in zip(bids, tricks)]
                if s.balanced_bid_penalty and sum(bids) == size:
                    points[dealer] -= s.balanced_bid_penalty
                if number == last_number:
                    points = [
                        p + (s.final_round_bonus if b == t else 0)
                        for p, b, t in zip(points, bids, tricks)
                    ]
                outcomes.add((tuple(points), tuple(b == t for b, t in zip(bids, tricks))))
        outcomes_per_round.append(outcomes)
    winners = set()
    for path in itertools.product(*outcomes_per_round):
        scores = list(result.totals)
        all_made = list(made)
        for points, made_now in path:
            scores = [a + b for a, b in zip(scores, points)]
            all_made = [a and b for a, b in zip(all_made, made_now)]
        scores = [
            score + (s.perfect_game_bonus if ok else 0) for score, ok in zip(scores, all_made)
        ]
        best = max(scores)
        winners.update(name for name, score in zip(result.players, scores) if score == best)
    return winners


@st.composite
def small_games(draw):
    """A short game of 3 players stopped part way: 1 or 2 rounds left (hands up to 3)."""
    total = draw(st.integers(1, 3))
    settings = dict(
        roundMode="custom",
        customRoundCount=total,
        exactBonus=draw(st.sampled_from([0, 10, 20])),
        pointsPerTrick=draw(st.sampled_from([0, 10])),
        missPenalty=draw(st.sampled_from([0, 10, 30])),
        zeroBidScoring=draw(st.sampled_from(["flatBonus", "doubleBonus", "perCardBonus"])),
        perfectGameBonus=draw(st.sampled_from([0, 50])),
        finalRoundBonus=draw(st.sampled_from([0, 20])),
        balancedBidPenalty=draw(st.sampled_from([0, 20])),
    )
    played = draw(st.integers(max(0, total - 2), total - 1))
    rounds = []
    for size in range(1, played + 1):
        bids = draw(st.lists(st.integers(0, size), min_size=3, max_size=3))
        first = draw(st.integers(0, size))
        second = draw(st.integers(0, size - first))
        rounds.append((bids, [first, second, size - first - second]))
    if draw(st.booleans()):
        size = played + 1
        rounds.append(([draw(st.one_of(st.none(), st.integers(0, size))) for _ in range(3)], None))
    return rounds, settings


@given(small_games())
@hypothesis_settings(max_examples=200, deadline=None)
def test_the_bound_never_names_out_a_player_who_can_still_win(case):
    rounds, settings = case
    result = game(3, rounds, **settings)
    can_win = brute_force_can_win(result)
    assert can_win <= set(contenders(result))
    assert contenders(result)  # someone can always still win


# --- on the command line --------------------------------------------------------------------

OUT_OF_REACH = (
    "players: [Anna, Ben, Cara, Dan]\n"
    "settings: {roundMode: custom, customRoundCount: 3, pointsPerTrick: 0, "
    "missPenalty: 0}\n"
    "rounds:\n"
    "  - bids:   [1, 0, 0, 1]\n"
    "    tricks: [1, 0, 0, 0]\n"
)


def test_contenders_in_every_json_status(write):
    path = write("g.yaml", OUT_OF_REACH)
    # Anna 20, Ben 20, Cara 20, Dan 0; 2 rounds left worth at most 20 each, nothing to lose:
    # Dan's greatest, 40, is above their least, 20: everyone can still win
    data = json.loads(run("score", path, "-f", "json").stdout)
    assert data["status"]["contenders"] == ["Anna", "Ben", "Cara", "Dan"]
    assert list(data["status"]) == [
        "finished",
        "roundsPlayed",
        "roundsTotal",
        "winners",
        "contenders",
        "next",
    ]
    standings = json.loads(run("standings", path, "-f", "json").stdout)
    assert standings["status"] == data["status"]


def test_the_status_line_says_who_can_no_longer_win(write):
    text = OUT_OF_REACH + "  - bids:   [1, 0, 0, 1]\n    tricks: [1, 1, 0, 0]\n"
    path = write("g.yaml", text)
    # Anna 40, Ben 20, Cara 40, Dan 0; one round left worth at most 20: Dan can no longer win
    assert run("score", path).stdout.endswith(
        "\n\nRound 3 of 3 next: Cara deals 3 — Dan can no longer win\n"
    )
    assert json.loads(run("score", path, "-f", "json").stdout)["status"]["contenders"] == [
        "Anna",
        "Ben",
        "Cara",
    ]


def test_the_status_line_when_nobody_can_catch_the_leader(write):
    text = (
        OUT_OF_REACH.replace("[1, 0, 0, 1]", "[1, 1, 1, 1]")
        + "  - bids:   [2, 1, 1, 1]\n    tricks: [2, 0, 0, 0]\n"
    )
    path = write("g.yaml", text)
    # Anna 40, the others 0, with one round worth 20 left: nobody can catch Anna
    assert run("standings", path).stdout.endswith(
        "\n\nRound 3 of 3 next: Cara deals 3 — nobody can catch Anna\n"
    )
    data = json.loads(run("standings", path, "-f", "jsonl").stdout)
    assert data["status"]["contenders"] == ["Anna"]


def test_a_finished_games_lines_are_unchanged():
    assert run("score", WORKED).stdout.endswith("\n\nGame over — Ben wins\n")
    line = run("standings", WORKED, "-f", "jsonl").stdout
    assert '"winners":["Ben"],"contenders":["Ben"],"next":null}}\n' in line
    assert json.loads(line) == json.loads(run("standings", WORKED, "-f", "json").stdout)


@pytest.mark.parametrize("fmt", ["json", "jsonl"])
def test_the_fast_standings_line_has_the_same_keys_as_json(fmt):
    data = json.loads(run("standings", WORKED, "-f", fmt).stdout)
    assert list(data["status"]) == [
        "finished",
        "roundsPlayed",
        "roundsTotal",
        "winners",
        "contenders",
        "next",
    ]
