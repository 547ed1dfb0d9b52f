"""Hypothesis: valid sheets under random settings, and the invariants every score must keep."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from sheetmaker import make_sheet

from wizard_cli.game.game import Game, score_game
from wizard_cli.game.scoring import base_points, competition_ranks
from wizard_cli.game.settings import SPECS, RawSetting, Settings, hand_sizes
from wizard_cli.game.validation import check_sheet
from wizard_cli.sheets.csv.sheets import read_csv_sheets
from wizard_cli.sheets.yaml.sheets import read_yaml_sheets

NAMES = ["Anna", "Ben", "Cara", "Dan", "Eve", "Finn"]
FAST = settings(max_examples=60, deadline=None)


def int_values(key: str) -> st.SearchStrategy[int]:
    spec = next(s for s in SPECS if s.key == key)
    return st.sampled_from(range(spec.minimum, spec.maximum + 1, spec.step))


@st.composite
def rule_sets(draw, players: int) -> Settings:
    """Any consistent rule set for a table of ``players``."""
    mode = draw(st.sampled_from(["wholeDeck", "custom", "quickPlay"]))
    screw = draw(st.sampled_from(["off", "always", "leaderOnly", "unlessTiedLead"]))
    return Settings().replace(
        {
            "roundMode": mode,
            "customRoundCount": draw(st.integers(1, 60 // players)),
            "exactBonus": draw(int_values("exactBonus")),
            "pointsPerTrick": draw(int_values("pointsPerTrick")),
            "missPenalty": draw(int_values("missPenalty")),
            "zeroBidScoring": draw(st.sampled_from(["flatBonus", "doubleBonus", "perCardBonus"])),
            "screwTheDealer": screw,
            "canadianRule": draw(st.booleans()),
            "bidding": "open"
            if screw != "off"
            else draw(st.sampled_from(["open", "hidden", "delayed"])),
            "perfectGameBonus": draw(int_values("perfectGameBonus")),
            "tieBreak": draw(st.sampled_from(["shareWin", "totalBids", "madeBids"])),
            "finalRoundBonus": draw(int_values("finalRoundBonus")),
            "balancedBidPenalty": draw(int_values("balancedBidPenalty")),
        }
    )


@st.composite
def tricks_for(draw, players: int, size: int) -> list[int]:
    """Who took the ``size`` tricks: every trick is won by someone."""
    winners = draw(st.lists(st.integers(0, players - 1), min_size=size, max_size=size))
    return [winners.count(seat) for seat in range(players)]


@st.composite
def games(draw):
    """(players, settings, first dealer, rounds): a valid sheet under its settings.

    Bids are kept clear of the dealer bid that ``always`` forbids, so the sheet is valid under
    every screwTheDealer mode (leaderOnly and unlessTiedLead forbid it in fewer rounds).
    """
    count = draw(st.integers(3, 6))
    s = draw(rule_sets(count))
    first = draw(st.integers(0, count - 1))
    sizes = hand_sizes(s, count)
    played = draw(st.integers(0, min(len(sizes), 8)) | st.just(len(sizes)))
    rounds = []
    for number in range(1, played + 1):
        size = sizes[number - 1]
        dealer = (first + number - 1) % count
        bids = draw(st.lists(st.integers(0, size), min_size=count, max_size=count))
        forbidden = size - sum(b for seat, b in enumerate(bids) if seat != dealer)
        if (
            s.screw_the_dealer != "off"
            and bids[dealer] == forbidden
            and not (forbidden == 0 and s.canadian_rule)
        ):
            bids[dealer] = forbidden + 1 if forbidden < size else forbidden - 1
        rounds.append((bids, draw(tricks_for(count, size))))
    if played < len(sizes) and draw(st.booleans()):  # the round in play, bids partly in
        size = sizes[played]
        rounds.append(
            (
                [
                    draw(st.none() | st.integers(0, size))
                    if seat != (first + played) % count
                    else None
                    for seat in range(count)
                ],
                None,
            )
        )
    return NAMES[:count], s, first, rounds


def scored(game):
    names, s, first, rounds = game
    return score_game(Game(make_sheet(names, rounds), s, first))


@FAST
@given(games())
def test_a_generated_sheet_is_valid_and_scores(game):
    names, s, first, rounds = game
    layer = [RawSetting(key, value) for key, value in s.as_dict().items()]
    sheet = make_sheet(names, rounds)
    checked = check_sheet(sheet, [layer], names[first])
    assert checked.problems == []
    assert checked.settings == s
    result = score_game(Game(sheet, s, first))
    assert len(result.rounds) == len(rounds)


@FAST
@given(games())
def test_totals_are_the_running_sum_of_round_points(game):
    result = scored(game)
    running = [0] * len(result.players)
    for r in result.rounds:
        if r.points is None:
            assert r.totals is None and r is result.rounds[-1]
            continue
        running = [total + p for total, p in zip(running, r.points)]
        assert list(r.totals) == running
    assert list(result.totals) == running
    assert [s.score - s.bonus for s in sorted(result.standings, key=lambda s: s.seat)] == running


@FAST
@given(games())
def test_missed_bids_never_gain_and_made_bids_earn_at_least_the_bonus(game):
    result = scored(game)
    s = result.settings
    for r in result.rounds:
        if r.tricks is None:
            continue
        for bid, took in zip(r.bids, r.tricks):
            points = base_points(bid, took, r.hand_size, s)
            if bid == took:
                assert points >= s.exact_bonus
            else:
                assert points <= 0
                assert points == -s.miss_penalty * abs(bid - took)


@FAST
@given(games(), st.integers(-10, 10))
def test_exact_bonus_under_flat_bonus_moves_each_total_by_k_per_made_bid(game, steps):
    names, s, first, rounds = game
    s = s.replace({"zeroBidScoring": "flatBonus"})
    k = 5 * steps
    if not 0 <= s.exact_bonus + k <= 50:
        k = -k if 0 <= s.exact_bonus - k <= 50 else 0
    before = score_game(Game(make_sheet(names, rounds), s, first))
    after = score_game(
        Game(make_sheet(names, rounds), s.replace({"exactBonus": s.exact_bonus + k}), first)
    )
    made = [
        sum(1 for r in before.rounds if r.tricks is not None and r.bids[seat] == r.tricks[seat])
        for seat in range(len(names))
    ]
    assert [a - b for a, b in zip(after.totals, before.totals)] == [k * m for m in made]


@FAST
@given(games())
def test_ranks_are_competition_ranks_consistent_with_scores(game):
    result = scored(game)
    standings = result.standings
    assert [(s.rank, s.seat) for s in standings] == sorted((s.rank, s.seat) for s in standings)
    for a in standings:
        better = sum(1 for b in standings if b.score > a.score)
        equal = sum(1 for b in standings if b.score == a.score and b is not a)
        assert better + 1 <= a.rank <= better + 1 + equal  # a tie-break only orders equals
        for b in standings:
            if a.score > b.score:
                assert a.rank < b.rank
            if a.score == b.score and result.settings.tie_break == "shareWin":
                assert a.rank == b.rank
    assert competition_ranks([(s.score,) for s in standings])[0] == 1
    assert min(s.rank for s in standings) == 1


@FAST
@given(games())
def test_finished_exactly_when_every_round_is_played(game):
    result = scored(game)
    assert result.finished == (result.rounds_played == result.rounds_total)
    assert result.rounds_total == len(hand_sizes(result.settings, len(result.players)))
    assert (result.winners != []) == result.finished
    if not result.finished:
        assert all(s.bonus == 0 for s in result.standings)


def yaml_text(names, first, s, rounds) -> str:
    lines = [f"players: [{', '.join(names)}]", f"firstDealer: {names[first]}", "settings:"]
    lines += [
        f"  {key}: {str(value).lower() if isinstance(value, bool) else value}"
        for key, value in s.as_dict().items()
    ]
    lines.append("rounds:" if rounds else "rounds: []")
    for bids, tricks in rounds:
        lines.append(f"  - bids: [{', '.join('null' if b is None else str(b) for b in bids)}]")
        if tricks is not None:
            lines.append(f"    tricks: [{', '.join(map(str, tricks))}]")
    return "\n".join(lines) + "\n"


def long_csv_lines(names, rounds) -> list[str]:
    lines = ["round,player,bid,tricks\n"]
    for number, (bids, tricks) in enumerate(rounds, start=1):
        for seat, name in enumerate(names):
            bid = "" if bids[seat] is None else bids[seat]
            took = "" if tricks is None else tricks[seat]
            lines.append(f"{number},{name},{bid},{took}\n")
    return lines


@settings(max_examples=40, deadline=None)
@given(games())
def test_yaml_and_long_csv_read_back_to_the_same_scores(game):
    names, s, first, rounds = game
    expected = scored(game)
    (from_yaml,) = read_yaml_sheets(yaml_text(names, first, s, rounds), "g.yaml")
    checked = check_sheet(from_yaml)
    assert checked.problems == [] and checked.settings == s
    assert (
        score_game(Game(from_yaml, checked.settings, checked.first_dealer)).rounds
        == expected.rounds
    )
    layer = [RawSetting(key, value) for key, value in s.as_dict().items()]
    if rounds:  # every round lists every player, so seating is the order of round 1
        (from_csv,) = read_csv_sheets(long_csv_lines(names, rounds), "g.csv")
        checked = check_sheet(from_csv, [layer], names[first])
        assert checked.problems == []
        assert score_game(Game(from_csv, s, first)).rounds == expected.rounds
        assert score_game(Game(from_csv, s, first)).standings == expected.standings
