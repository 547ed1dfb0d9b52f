"""The season tallies' fast path against their general one (issue 20): ``stats`` and ``stats
--by handSize|position`` add each seat's rounds up as whole columns, held a while and summed in C
(``Season.add``, ``Breakdown.add``); the test oracles here (``stats_round_by_round``,
``breakdown_round_by_round``) count one round of one player at a time, as the figures are
defined. Random games under every rule that changes points or positions (zero-bid scoring, the dealer's restriction, round extras, bonuses, round
modes, first dealers), unfinished ones and rounds in play among them, go through both, added up
after every game or after many, and every figure must be the same."""

from __future__ import annotations

from helpers import run
from hypothesis import given, settings
from hypothesis import strategies as st
from sheetmaker import make_sheet, rules, score_sheet

from wizard_cli.game.breakdown import Breakdown, GroupRow
from wizard_cli.game.scoring import by_seat
from wizard_cli.game.settings import hand_sizes
from wizard_cli.game.stats import Season

POOL = ["Anna", "Ben", "Cara", "Dan", "Eva", "Finn", "ida", "Ida"]
RULES = st.fixed_dictionaries(
    {},
    optional={
        "zeroBidScoring": st.sampled_from(["standard", "doubleBonus", "perCardBonus"]),
        "screwTheDealer": st.sampled_from(["off", "always", "leaderOnly", "unlessTiedLead"]),
        "finalRoundBonus": st.integers(0, 20),
        "balancedBidPenalty": st.integers(0, 10),
        "perfectGameBonus": st.integers(0, 50),
        "tieBreak": st.sampled_from(["shareWin", "totalBids", "madeBids"]),
        "roundMode": st.sampled_from(["standard", "quickPlay", "custom"]),
        "customRoundCount": st.integers(1, 4),
    },
)


@st.composite
def scored_games(draw):
    """One game scored as the batch would give it: any rules, 3-6 players, any first dealer,
    finished or stopped at any round (sometimes with the next round's bids in)."""
    count = draw(st.integers(3, 6))
    players = draw(st.permutations(POOL))[:count]
    settings_ = rules(**draw(RULES))
    sizes = hand_sizes(settings_, count)[:5]  # a standard game's first rounds are enough
    played = draw(st.sampled_from([len(sizes)] * 3 + list(range(len(sizes)))))
    rounds = []
    for size in sizes[:played]:
        tricks = [0] * count
        for _ in range(size):
            tricks[draw(st.integers(0, count - 1))] += 1
        bids = [draw(st.integers(0, size)) for _ in range(count)]
        rounds.append((bids, tricks))
    if played < len(sizes) and draw(st.booleans()):  # the round in play: its bids only
        rounds.append(([draw(st.integers(0, sizes[played])) for _ in range(count)], None))
    if draw(st.booleans()):  # the sheet's own count: a game of these rounds is finished
        settings_ = settings_.replace({"roundMode": "custom", "customRoundCount": max(1, played)})
    return score_sheet(make_sheet(players, rounds), settings_, draw(st.integers(0, count - 1)))


def stats_round_by_round(season, result) -> None:
    """The test oracle: one scored game folded into ``season`` one round of one player at a
    time, as the figures are defined; ``Season.add`` must agree with it."""
    tallies = season._count(result)
    scored, count = result.scored, len(tallies)
    seats = zip(tallies, by_seat(scored.made, count), by_seat(scored.tricks, count))
    for tally, bids, tricks in seats:  # (the round in play has no tricks: zip skips it)
        for bid, took in zip(bids, tricks):
            if bid is not None:  # None: a round the player did not sit in (SPEC §1)
                tally.add_round(bid, took)
    season._add_scores(result, tallies)


def breakdown_round_by_round(breakdown, result) -> None:
    """The test oracle: one scored game folded into ``breakdown`` one round of one player at a
    time; ``Breakdown.add`` must agree with it."""
    played = breakdown._count(result)
    if not played:
        return
    scored, count = result.scored, len(result.players)
    groups = breakdown.groups
    for name, seat_keys, bids, tricks, points in zip(
        result.players,
        breakdown._keys(scored, played),
        by_seat(scored.made, count),
        by_seat(scored.tricks, count),
        by_seat(scored.points, count),
    ):
        for key, bid, took, earned in zip(seat_keys, bids, tricks, points):
            row = groups.get((name, key))
            if row is None:
                row = groups[name, key] = GroupRow(name, key)
            row.rounds += 1
            row.made += bid == took
            row.points += earned


@settings(max_examples=200, deadline=None)
@given(st.lists(scored_games(), max_size=8), st.sampled_from([1, 3, 1024]))
def test_stats_columns_add_up_as_round_by_round(results, limit):
    fast, general = Season(waiting_limit=limit), Season()
    for result in results:
        fast.add(result)
        stats_round_by_round(general, result)
    assert fast.ranked() == general.ranked()
    assert (fast.games, fast.finished) == (general.games, general.finished)
    assert fast.players == general.players


@settings(max_examples=200, deadline=None)
@given(
    st.lists(scored_games(), max_size=8),
    st.sampled_from([1, 3, 1024]),
    st.sampled_from(["handSize", "position"]),
)
def test_breakdown_columns_add_up_as_round_by_round(results, limit, by):
    fast, general = Breakdown(by, waiting_limit=limit), Breakdown(by)
    for result in results:
        fast.add(result)
        breakdown_round_by_round(general, result)
    assert fast.rows() == general.rows()
    assert (fast.games, fast.finished) == (general.games, general.finished)
    assert all(type(row.made) is int for row in fast.rows())  # never a bool summed alone


# --- what the commands print -----------------------------------------------------------------

# House rules (the dealer pays for balanced bids, a bonus for the last round, zero bids doubled)
# in a finished game, then an unfinished one with the next round's bids in (not counted).
HOUSE = """\
players: [Anna, Ben, Cara]
firstDealer: Ben
settings: {roundMode: custom, customRoundCount: 3, zeroBidScoring: doubleBonus,
           finalRoundBonus: 10, balancedBidPenalty: 5}
rounds:
  - {bids: [0, 1, 0], tricks: [0, 1, 0]}
  - {bids: [1, 1, 1], tricks: [2, 0, 0]}
  - {bids: [1, 0, 2], tricks: [1, 0, 2]}
---
players: [Cara, Anna, Dan, Ben]
settings: {roundMode: custom, customRoundCount: 3, screwTheDealer: always}
rounds:
  - {bids: [1, 0, 0, 1], tricks: [1, 0, 0, 0]}
  - {bids: [0, 2, 0, 1], tricks: [0, 2, 0, 0]}
  - {bids: [1, 1, 0, 0]}
"""


def test_stats_of_a_house_rules_season_exactly(write):
    path = write("house.yaml", HOUSE)
    result = run("stats", path, "-f", "csv")
    assert (result.exit_code, result.stderr) == (0, "note: 1 unfinished game left out\n")
    assert (
        result.stdout
        == """\
player,games,wins,averageScore,bestScore,rounds,bidAccuracy,zeroBidsMade,zeroBidsTried,\
averageMiss,overbids,underbids
Cara,1,1,80.0,80,5,0.8,2,2,1.0,1,0
Anna,1,0,65.0,65,5,0.8,2,2,1.0,0,1
Ben,1,0,65.0,65,5,0.4,1,1,1.0,3,0
Dan,0,0,,,2,1.0,2,2,,0,0
"""
    )


def test_stats_by_hand_size_of_a_house_rules_season_exactly(write):
    path = write("house.yaml", HOUSE)
    assert (
        run("stats", path, "--by", "handSize").stdout
        == """\
2 games, 1 finished

Player      Hand size    Rounds    Made    Bid accuracy    Avg points
--------  -----------  --------  ------  --------------  ------------
Anna                1         2       2          100.0%         30.00
Anna                2         2       1           50.0%         15.00
Anna                3         1       1          100.0%         35.00
Ben                 1         2       1           50.0%          7.50
Ben                 2         2       0            0.0%        -10.00
Ben                 3         1       1          100.0%         50.00
Cara                1         2       2          100.0%         35.00
Cara                2         2       1           50.0%          5.00
Cara                3         1       1          100.0%         50.00
Dan                 1         1       1          100.0%         20.00
Dan                 2         1       1          100.0%         20.00
"""
    )


def test_stats_by_position_of_a_house_rules_season_exactly(write):
    path = write("house.yaml", HOUSE)
    assert (
        run("stats", path, "--by", "position", "-f", "csv").stdout
        == """\
player,position,rounds,made,bidAccuracy,averagePoints
Anna,1,2,1,0.5,5.0
Anna,2,1,1,1.0,40.0
Anna,3,1,1,1.0,35.0
Anna,4,1,1,1.0,40.0
Ben,1,1,1,1.0,50.0
Ben,2,2,0,0.0,-10.0
Ben,3,2,1,0.5,7.5
Cara,1,1,1,1.0,40.0
Cara,2,1,1,1.0,50.0
Cara,3,2,1,0.5,5.0
Cara,4,1,1,1.0,30.0
Dan,1,1,1,1.0,20.0
Dan,2,1,1,1.0,20.0
"""
    )
