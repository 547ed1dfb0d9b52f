"""The pure scoring core (SPEC §1–2): points, dealers, hand sizes, the end, extras, ranks, dealer bids."""

from __future__ import annotations

import pytest
from sheetmaker import rules, score, table, zero_rounds

from wizard_cli.game.scoring import (
    base_points,
    competition_ranks,
    dealer_seat,
    forbidden_dealer_bid,
    no_trump,
    restriction_applies,
)
from wizard_cli.game.settings import Settings, hand_sizes

ABC = ["Anna", "Ben", "Cara"]
ABCD = ["Anna", "Ben", "Cara", "Dan"]


# --- base points --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bid", "tricks", "size", "expected"),
    [
        (1, 1, 1, 30),  # made: exactBonus + pointsPerTrick × tricks
        (3, 3, 5, 50),
        (5, 5, 5, 70),
        (2, 0, 3, -20),  # missed: -missPenalty × distance …
        (0, 2, 3, -20),  # … whichever direction
        (1, 3, 4, -20),  # tricks taken on a missed bid earn nothing
        (3, 1, 4, -20),
        (0, 5, 5, -50),
        (0, 0, 5, 20),  # made zero, flatBonus: exactBonus
    ],
)
def test_base_points_under_the_default_rules(bid, tricks, size, expected):
    assert base_points(bid, tricks, size, Settings()) == expected


@pytest.mark.parametrize(
    ("mode", "size", "expected"),
    [
        ("flatBonus", 1, 20),
        ("flatBonus", 7, 20),
        ("doubleBonus", 1, 40),
        ("doubleBonus", 7, 40),
        ("perCardBonus", 1, 30),
        ("perCardBonus", 7, 90),  # exactBonus + pointsPerTrick × handSize
    ],
)
def test_a_made_zero_scores_by_zero_bid_scoring(mode, size, expected):
    assert base_points(0, 0, size, rules(zeroBidScoring=mode)) == expected


@pytest.mark.parametrize("mode", ["flatBonus", "doubleBonus", "perCardBonus"])
def test_zero_bid_scoring_touches_only_made_zeros(mode):
    s = rules(zeroBidScoring=mode)
    assert base_points(2, 2, 5, s) == 40
    assert base_points(0, 1, 5, s) == -10
    assert base_points(1, 0, 5, s) == -10


def test_base_points_follow_the_numbers_in_the_settings():
    s = rules(exactBonus=30, pointsPerTrick=5, missPenalty=15)
    assert base_points(2, 2, 4, s) == 40
    assert base_points(0, 0, 4, s) == 30
    assert base_points(0, 0, 4, s.replace({"zeroBidScoring": "doubleBonus"})) == 60
    assert base_points(0, 0, 4, s.replace({"zeroBidScoring": "perCardBonus"})) == 50
    assert base_points(3, 1, 4, s) == -30
    free = rules(exactBonus=0, pointsPerTrick=0, missPenalty=0)
    assert [base_points(b, t, 3, free) for b, t in ((2, 2), (0, 0), (0, 3))] == [0, 0, 0]


# --- dealers, hand sizes, no trump ---------------------------------------------------------


def test_the_deal_passes_to_the_left_from_the_first_dealer():
    assert [dealer_seat(2, number, 4) for number in range(1, 7)] == [2, 3, 0, 1, 2, 3]
    result = score(
        ABCD, zero_rounds(4, range(1, 6)), first_dealer=2, roundMode="custom", customRoundCount=5
    )
    assert [r.dealer for r in result.rounds] == [2, 3, 0, 1, 2]
    default = score(ABCD, zero_rounds(4, range(1, 6)), roundMode="custom", customRoundCount=5)
    assert [r.dealer for r in default.rounds] == [0, 1, 2, 3, 0]


@pytest.mark.parametrize(("players", "rounds"), [(3, 20), (4, 15), (5, 12), (6, 10)])
def test_whole_deck_deals_one_more_card_each_round(players, rounds):
    assert hand_sizes(Settings(), players) == tuple(range(1, rounds + 1))


@pytest.mark.parametrize(
    ("players", "sizes"),
    [
        (3, (2, 4, 6, 8, 10, 12, 14, 16, 18, 20)),
        (4, (1, 3, 5, 7, 9, 11, 13, 15)),
        (5, (2, 4, 6, 8, 10, 12)),
        (6, (2, 4, 6, 8, 10)),
    ],
)
def test_quick_play_grows_by_two_and_ends_on_the_whole_deck(players, sizes):
    assert hand_sizes(rules(roundMode="quickPlay"), players) == sizes
    assert no_trump(sizes[-1], players)
    assert not any(no_trump(size, players) for size in sizes[:-1])


@pytest.mark.parametrize("count", [1, 5, 12, 20])
def test_custom_deals_one_to_the_round_count(count):
    s = rules(roundMode="custom", customRoundCount=count)
    assert hand_sizes(s, 3) == tuple(range(1, count + 1))


def test_custom_round_count_is_ignored_outside_custom():
    assert hand_sizes(rules(customRoundCount=3), 4) == tuple(range(1, 16))
    assert hand_sizes(rules(roundMode="quickPlay", customRoundCount=3), 6) == (2, 4, 6, 8, 10)


# --- the end of the game -----------------------------------------------------------------


def test_a_custom_five_round_game_is_finished_after_round_five_exactly():
    rounds = zero_rounds(4, range(1, 6))
    custom = {"roundMode": "custom", "customRoundCount": 5}
    four = score(ABCD, rounds[:4], **custom)
    assert (four.finished, four.rounds_played, four.rounds_total, four.winners) == (False, 4, 5, [])
    in_play = score(ABCD, rounds[:4] + [([1, 1, None, None], None)], **custom)
    assert (in_play.finished, in_play.rounds_played, in_play.winners) == (False, 4, [])
    five = score(ABCD, rounds, **custom)
    assert (five.finished, five.rounds_played, five.rounds_total) == (True, 5, 5)
    assert five.winners == ["Ben", "Cara", "Dan"]  # Anna took every trick on a zero bid


@pytest.mark.parametrize(("players", "rounds"), [(3, 20), (4, 15), (5, 12), (6, 10)])
def test_a_whole_deck_game_is_finished_after_its_last_round(players, rounds):
    names = ABCD + ["Eve", "Finn"]
    sheet_rounds = zero_rounds(players, range(1, rounds + 1))
    assert not score(names[:players], sheet_rounds[:-1]).finished
    done = score(names[:players], sheet_rounds)
    assert done.finished and done.rounds_played == done.rounds_total == rounds


def test_a_quick_play_game_is_finished_after_its_last_round():
    rounds = zero_rounds(6, (2, 4, 6, 8, 10))
    names = ABCD + ["Eve", "Finn"]
    assert not score(names, rounds[:4], roundMode="quickPlay").finished
    assert score(names, rounds, roundMode="quickPlay").finished


def test_a_sheet_with_no_rounds_is_all_zero_all_first_and_not_finished():
    for tie_break in ("shareWin", "totalBids", "madeBids"):
        result = score(ABCD, [], tieBreak=tie_break)
        assert table(result) == [
            (1, "Anna", 0, 0),
            (1, "Ben", 0, 0),
            (1, "Cara", 0, 0),
            (1, "Dan", 0, 0),
        ]
        assert result.totals == (0, 0, 0, 0)
        assert (result.finished, result.rounds_played, result.rounds_total, result.winners) == (
            False,
            0,
            15,
            [],
        )


# --- the extras: where each one goes -----------------------------------------------------

TWO_ROUNDS = [
    ([0, 0, 1], [0, 0, 1]),  # 1 card: all made → 20, 20, 30 (bids add up to 1)
    ([1, 0, 0], [1, 1, 0]),  # 2 cards: Anna made 1 → 30, Ben missed → -10, Cara made 0 → 20
]


def test_perfect_game_bonus_is_the_bonus_and_only_once_finished():
    custom2 = {"roundMode": "custom", "customRoundCount": 2, "perfectGameBonus": 50}
    after_one = score(ABC, TWO_ROUNDS[:1], **custom2)
    assert table(after_one) == [(1, "Cara", 30, 0), (2, "Anna", 20, 0), (2, "Ben", 20, 0)]
    in_play = score(ABC, TWO_ROUNDS[:1] + [([1, 0, 0], None)], **custom2)
    assert [s.bonus for s in in_play.standings] == [0, 0, 0]
    done = score(ABC, TWO_ROUNDS, **custom2)
    assert done.rounds[-1].totals == (50, 10, 50)  # the bonus is not in any round's points
    assert table(done) == [(1, "Anna", 100, 50), (1, "Cara", 100, 50), (3, "Ben", 10, 0)]
    assert done.winners == ["Anna", "Cara"]


def test_final_round_bonus_is_in_the_last_rounds_points_for_made_bids():
    done = score(ABC, TWO_ROUNDS, roundMode="custom", customRoundCount=2, finalRoundBonus=10)
    assert [r.points for r in done.rounds] == [(20, 20, 30), (40, -10, 30)]
    assert done.totals == (60, 10, 60)
    assert [s.bonus for s in done.standings] == [0, 0, 0]
    not_last = score(ABC, TWO_ROUNDS, roundMode="custom", customRoundCount=3, finalRoundBonus=10)
    assert [r.points for r in not_last.rounds] == [(20, 20, 30), (30, -10, 20)]


def test_balanced_bid_penalty_is_taken_from_the_dealer_in_that_rounds_points():
    result = score(ABC, TWO_ROUNDS, roundMode="custom", customRoundCount=2, balancedBidPenalty=10)
    # Round 1 (Anna deals) has bids adding up to 1; round 2's add up to 1 of 2: no penalty.
    assert [r.points for r in result.rounds] == [(10, 20, 30), (30, -10, 20)]
    moved = score(
        ABC,
        TWO_ROUNDS,
        first_dealer=2,
        roundMode="custom",
        customRoundCount=2,
        balancedBidPenalty=30,
    )
    assert moved.rounds[0].points == (20, 20, 0)


def test_totals_are_the_running_sum_of_round_points():
    result = score(ABC, TWO_ROUNDS, roundMode="custom", customRoundCount=2)
    assert [r.totals for r in result.rounds] == [(20, 20, 30), (50, 10, 50)]


# --- ranks ------------------------------------------------------------------------------

# Anna and Ben tie on 60: Anna bid 4 in all and made 2; Ben bid 0 and made 3.
TIED = [
    ([1, 0, 1, 1], [1, 0, 0, 0]),  # Anna 30, Ben 20, Cara -10, Dan -10
    ([2, 0, 1, 0], [2, 0, 0, 0]),  # Anna 40, Ben 20, Cara -10, Dan 20
    ([1, 0, 1, 0], [0, 0, 2, 1]),  # Anna -10, Ben 20, Cara -10, Dan -10
]


@pytest.mark.parametrize(
    ("tie_break", "expected"),
    [
        (
            "shareWin",
            [(1, "Anna", 60, 0), (1, "Ben", 60, 0), (3, "Dan", 0, 0), (4, "Cara", -30, 0)],
        ),
        (
            "totalBids",
            [(1, "Anna", 60, 0), (2, "Ben", 60, 0), (3, "Dan", 0, 0), (4, "Cara", -30, 0)],
        ),
        (
            "madeBids",
            [(1, "Ben", 60, 0), (2, "Anna", 60, 0), (3, "Dan", 0, 0), (4, "Cara", -30, 0)],
        ),
    ],
)
def test_tie_break_and_competition_ranking(tie_break, expected):
    result = score(ABCD, TIED, roundMode="custom", customRoundCount=3, tieBreak=tie_break)
    assert table(result) == expected
    assert result.winners == [name for rank, name, _, _ in expected if rank == 1]


def test_tie_break_applies_at_any_point_of_the_game():
    first_two = TIED[:2]  # Anna 70, Ben 40, Cara -20, Dan 10: no tie yet
    assert table(score(ABCD, first_two, tieBreak="madeBids"))[:2] == [
        (1, "Anna", 70, 0),
        (2, "Ben", 40, 0),
    ]
    equal = [([0, 0, 0], [1, 0, 0]), ([1, 1, 1], [2, 0, 0])]  # Anna -20, Ben 10, Cara 10
    for tie_break in ("totalBids", "madeBids"):  # Ben and Cara bid 1 and made 1: still equal
        assert table(score(ABC, equal, tieBreak=tie_break)) == [
            (1, "Ben", 10, 0),
            (1, "Cara", 10, 0),
            (3, "Anna", -20, 0),
        ]


def test_competition_ranks_skip_after_a_shared_place():
    assert competition_ranks([(10,), (10,), (5,)]) == [1, 1, 3]
    assert competition_ranks([(5,), (10,), (10,), (1,)]) == [3, 1, 1, 4]
    assert competition_ranks([(7, 1), (7, 2), (7, 2)]) == [3, 1, 1]


def test_standings_are_sorted_by_rank_then_seat():
    rounds = [([0, 0, 0, 1], [0, 0, 0, 1])]  # Dan 30, the others 20 each
    assert [(s.rank, s.seat) for s in score(ABCD, rounds).standings] == [
        (1, 3),
        (2, 0),
        (2, 1),
        (2, 2),
    ]


# --- screwTheDealer and the forbidden dealer bid ------------------------------------------


@pytest.mark.parametrize(
    ("mode", "dealer", "totals", "applies"),
    [
        ("off", 0, (30, 20, 10), False),
        ("always", 0, (0, 0, 0), True),
        ("always", 1, (30, 20, 10), True),
        ("leaderOnly", 0, (30, 20, 10), True),  # the dealer leads alone
        ("leaderOnly", 1, (30, 20, 10), False),  # someone else leads
        ("leaderOnly", 0, (30, 30, 10), False),  # a shared lead is no lead
        ("leaderOnly", 0, (0, 0, 0), False),  # before round 1 everyone is tied
        ("unlessTiedLead", 1, (30, 20, 10), True),  # one leader: the dealer is bound, whoever it is
        ("unlessTiedLead", 2, (30, 30, 10), False),  # two share the lead
        ("unlessTiedLead", 0, (0, 0, 0), False),
    ],
)
def test_when_the_dealer_restriction_applies(mode, dealer, totals, applies):
    assert restriction_applies(mode, dealer, totals) is applies


@pytest.mark.parametrize(
    ("bids", "dealer", "size", "canadian", "expected"),
    [
        ([None, 1, 1, 1], 0, 5, False, 2),  # handSize − sum of the other bids
        ([3, 1, 0, 0], 0, 4, False, 3),  # the dealer's own bid does not count
        ([1, 2, None, 1], 2, 4, False, 0),
        ([1, 2, None, 1], 2, 4, True, None),  # canadianRule: a zero is always allowed
        ([1, 2, None, 1], 2, 5, True, 1),
        ([3, 3, None], 2, 5, False, None),  # negative: nothing is forbidden
        ([None, 1, None, 1], 0, 5, False, None),  # someone besides the dealer still to bid
    ],
)
def test_forbidden_dealer_bid(bids, dealer, size, canadian, expected):
    s = rules(screwTheDealer="always", canadianRule=canadian)
    assert forbidden_dealer_bid(bids, dealer, size, s, (0,) * len(bids)) == expected
    assert forbidden_dealer_bid(bids, dealer, size, rules(), (0,) * len(bids)) is None


@pytest.mark.parametrize(
    ("mode", "expected"),
    [("off", None), ("always", 1), ("leaderOnly", None), ("unlessTiedLead", None)],
)
def test_before_round_one_everyone_is_tied(mode, expected):
    result = score(ABC, [([None, 0, 0], None)], screwTheDealer=mode)
    assert result.rounds[0].forbidden == expected


@pytest.mark.parametrize(
    ("round_one", "mode", "expected"),
    [
        # Ben (dealer of round 2) leads alone after round 1.
        (([0, 1, 0], [0, 1, 0]), "leaderOnly", 1),
        (([0, 1, 0], [0, 1, 0]), "unlessTiedLead", 1),
        # Anna leads alone: leaderOnly spares Ben, unlessTiedLead does not.
        (([1, 0, 0], [1, 0, 0]), "leaderOnly", None),
        (([1, 0, 0], [1, 0, 0]), "unlessTiedLead", 1),
        # Anna and Ben share the lead on 20; then Ben and Cara do.
        (([0, 0, 0], [0, 0, 1]), "leaderOnly", None),
        (([0, 0, 0], [1, 0, 0]), "unlessTiedLead", None),
    ],
)
def test_the_leader_is_judged_on_the_totals_before_the_round(round_one, mode, expected):
    result = score(ABC, [round_one, ([0, None, 1], None)], screwTheDealer=mode)
    assert result.rounds[1].dealer == 1
    assert result.rounds[1].forbidden == expected


def test_penalties_count_when_judging_the_lead():
    # Cara deals round 1 and makes it (30) but the bids add up to 1: the penalty ties her with
    # the others, so in round 2 (Anna deals) unlessTiedLead no longer binds the dealer.
    rounds = [([0, 0, 1], [0, 0, 1]), ([None, 1, 0], None)]
    plain = score(ABC, rounds, first_dealer=2, screwTheDealer="unlessTiedLead")
    assert plain.rounds[1].dealer == 0 and plain.rounds[1].forbidden == 1
    penalised = score(
        ABC, rounds, first_dealer=2, screwTheDealer="unlessTiedLead", balancedBidPenalty=10
    )
    assert penalised.rounds[0].totals == (20, 20, 20)
    assert penalised.rounds[1].forbidden is None


def test_canadian_rule_in_a_scored_round():
    rounds = [([None, 1, 0], None)]  # hand size 1: Anna (dealer) may not bid 0 …
    assert score(ABC, rounds, screwTheDealer="always").rounds[0].forbidden == 0
    assert (
        score(
            ABC,
            rounds,
            screwTheDealer="always",  # … unless canadianRule
            canadianRule=True,
        )
        .rounds[0]
        .forbidden
        is None
    )
    over = [([None, 1, 1], None)]  # the others already bid more than the hand
    assert score(ABC, over, screwTheDealer="always").rounds[0].forbidden is None


def test_tie_break_counts_completed_rounds_only():
    """The round in play's bids do not break a tie (its tricks are not in yet)."""
    rounds = [([0, 0, 1], [0, 0, 1]), ([2, 0, None], None)]
    for tie_break in ("totalBids", "madeBids"):
        assert table(score(["Anna", "Ben", "Cara"], rounds, tieBreak=tie_break)) == [
            (1, "Cara", 30, 0),
            (2, "Anna", 20, 0),
            (2, "Ben", 20, 0),
        ]
