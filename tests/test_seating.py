"""Who sits at the table (SPEC §1 "Who sits at the table", §3, §4, §5): joining, leaving,
sitting out, start scores and a recorded dealer, through the CLI and the pure core."""

from __future__ import annotations

import json
import textwrap

from helpers import SAMPLES, run
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from sheetmaker import make_sheet, rules, score_sheet

from wizard_cli.game.game import game_status
from wizard_cli.game.model import Sheet
from wizard_cli.game.seated import SeatedGame
from wizard_cli.game.seating import Seating
from wizard_cli.game.validation import check_sheet

LATECOMER = SAMPLES / "latecomer.yaml"


def sheet_file(tmp_path, text: str, name: str = "s.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def score_json(path) -> dict:
    result = run("score", "-f", "json", path)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


# --- the sample: a latecomer with a start score, a player leaving, one sitting out ----------


def test_latecomer_totals_carry_over_and_start_scores_count():
    data = score_json(LATECOMER)
    eva = [r["results"]["Eva"] for r in data["rounds"]]
    assert eva[0] == {"bid": None, "tricks": None, "points": None, "total": 30, "seated": False}
    assert eva[2]["seated"] is True and eva[2]["total"] == 60
    dan = data["rounds"][2]["results"]["Dan"]  # out in round 3: total carried
    assert dan == {"bid": None, "tricks": None, "points": None, "total": 50, "seated": False}
    cara = data["rounds"][4]["results"]["Cara"]  # left after round 4: keeps her total
    assert cara["seated"] is False and cara["total"] == 90
    scores = {s["player"]: s["score"] for s in data["standings"]}
    assert scores == {"Anna": 160, "Eva": 120, "Dan": 110, "Ben": 90, "Cara": 90}
    assert [r["handSize"] for r in data["rounds"]] == [1, 2, 3, 4, 5]


def test_the_deal_passes_among_the_seated():
    data = score_json(LATECOMER)
    assert [r["dealer"] for r in data["rounds"]] == ["Anna", "Ben", "Cara", "Dan", "Eva"]
    step = data["status"]["next"]
    assert step["dealer"] == "Anna" and step["biddingOrder"] == ["Ben", "Dan", "Eva", "Anna"]


def test_the_table_says_out_for_a_player_not_seated():
    result = run("score", LATECOMER)
    assert result.exit_code == 0
    row = next(line for line in result.stdout.splitlines() if line.strip().startswith("3 "))
    assert "out = 50" in row  # Dan, out in round 3, his total carried


def test_next_names_the_seated_only():
    result = run("next", "-f", "json", LATECOMER)
    assert json.loads(result.stdout)["biddingOrder"] == ["Ben", "Dan", "Eva", "Anna"]


def test_a_classic_game_has_no_seated_key():
    data = score_json(SAMPLES / "worked-example.yaml")
    assert all("seated" not in values for r in data["rounds"] for values in r["results"].values())


def test_convert_keeps_the_seating_both_ways(tmp_path):
    as_json = run("convert", LATECOMER, "--to", "json")
    assert as_json.exit_code == 0, as_json.stderr
    path = tmp_path / "l.json"
    path.write_text(as_json.stdout)
    assert '{"name": "Eva", "joins": 3, "startScore": 30}' in as_json.stdout
    assert '"out": ["Dan"]' in as_json.stdout
    back = run("convert", path, "--to", "yaml")
    assert back.exit_code == 0, back.stderr
    again = tmp_path / "l.yaml"
    again.write_text(back.stdout)
    assert score_json(again)["rounds"] == score_json(LATECOMER)["rounds"]


# --- the rules of §1 in the core ---------------------------------------------------------


def seated_sheet(players, seating: Seating, rounds) -> Sheet:
    """A sheet whose rounds give a value for every listed seat (None where not seated)."""
    sheet = make_sheet(players, rounds)
    sheet.seating = seating
    return sheet


def test_whole_deck_ends_with_the_deal_of_the_whole_deck_to_those_seated():
    # 4 seated from round 1, a fifth joins in round 3: round 12 deals 60 to 5 and ends it.
    seating = Seating.plain(5)
    seating.joins[4] = 3
    rounds = []
    for number in range(1, 13):
        seated = 4 if number < 3 else 5
        bids = [0] * seated + [None] * (5 - seated)
        tricks = [number] + [0] * (seated - 1) + [None] * (5 - seated)
        rounds.append((bids, tricks))
    checked = check_sheet(seated_sheet("ABCDE", seating, rounds))
    assert checked.valid, checked.problems
    game = checked.validated
    assert game.finished and game.rounds_total == 12
    more = seated_sheet("ABCDE", seating, rounds + [([0] * 5, [13] + [0] * 4)])
    problems = check_sheet(more).problems
    assert any(
        "more rounds than the game has: it ends after round 12" in p.message for p in problems
    )


def test_rounds_total_follows_who_is_seated():
    seating = Seating.plain(5)
    seating.joins[4] = 3
    game = check_sheet(
        seated_sheet("ABCDE", seating, [([0] * 4 + [None], [1, 0, 0, 0, None])])
    ).validated
    assert game.rounds_total == 15  # round 2 is next, seating 4: 60 // 4


def test_a_round_that_does_not_fit_the_deck_is_named(tmp_path):
    path = sheet_file(
        tmp_path,
        "players: [A, B, C, D, E, {name: F, joins: 11}]\nrounds:\n"
        + "".join(
            f"  - bids: [{', '.join(['0'] * 5)}]\n    tricks: [{n}, 0, 0, 0, 0]\n"
            for n in range(1, 12)
        ),
    )
    result = run("check", path)
    assert result.exit_code == 1
    assert "round 11: does not fit the deck: 6 seated need 66 cards" in result.stderr


def test_the_dealer_sitting_out_gives_the_last_bidder_the_dealers_place(tmp_path):
    # Round 2: Ben deals but sits out; Anna bids last and may not make the bids add up.
    path = sheet_file(
        tmp_path,
        """\
        players: [Anna, Ben, Cara, Dan]
        settings: {screwTheDealer: always}
        rounds:
          - bids: [0, 0, 0, 0]
            tricks: [1, 0, 0, 0]
          - dealer: Ben
            out: [Ben]
            bids: {Cara: 1, Dan: 0, Anna: 1}
    """,
    )
    result = run("check", path)
    assert result.exit_code == 1
    assert "round 2, Anna: the dealer may not bid 1" in result.stderr
    path.write_text(path.read_text().replace("Anna: 1}", "}"))
    step = json.loads(run("next", "-f", "json", path).stdout)
    assert step["dealer"] == "Ben" and step["biddingOrder"] == ["Cara", "Dan", "Anna"]
    assert step["nextBidder"] == "Anna" and step["forbiddenDealerBid"] == 1


def test_a_recorded_dealer_deals_and_the_rotation_goes_on_from_them(tmp_path):
    path = sheet_file(
        tmp_path,
        """\
        players: [Anna, Ben, Cara, Dan]
        rounds:
          - bids: [0, 0, 0, 0]
            tricks: [1, 0, 0, 0]
          - dealer: Dan
            bids: [0, 0, 0, 0]
            tricks: [2, 0, 0, 0]
    """,
    )
    data = score_json(path)
    assert [r["dealer"] for r in data["rounds"]] == ["Anna", "Dan"]
    assert data["status"]["next"]["dealer"] == "Anna"
    assert all("seated" not in v for v in data["rounds"][0]["results"].values())


def test_perfect_game_bonus_counts_the_rounds_sat_in(tmp_path):
    path = sheet_file(
        tmp_path,
        """\
        players: [A, B, C, {name: D, joins: 2}]
        settings: {roundMode: custom, customRoundCount: 2, perfectGameBonus: 50}
        rounds:
          - bids: [1, 0, 0]
            tricks: [1, 0, 0]
          - bids: [1, 0, 0, 1]
            tricks: [1, 1, 0, 0]
    """,
    )
    data = score_json(path)
    bonus = {s["player"]: s["bonus"] for s in data["standings"]}
    assert bonus == {"A": 50, "B": 0, "C": 50, "D": 0}
    assert data["status"]["finished"]


def test_leading_before_the_round_counts_start_scores(tmp_path):
    # leaderOnly: Cara deals round 1 and leads alone on her start score, so she is bound.
    path = sheet_file(
        tmp_path,
        """\
        players: [Anna, Ben, {name: Cara, startScore: 10}]
        firstDealer: Cara
        settings: {screwTheDealer: leaderOnly}
        rounds:
          - bids: [0, 0, 1]
    """,
    )
    result = run("check", path)
    assert result.exit_code == 1 and "Cara: the dealer may not bid 1" in result.stderr


# --- bad input: located, exit 1, bounded ----------------------------------------------


def check_fails(tmp_path, text: str, *expected: str) -> str:
    path = sheet_file(tmp_path, text, f"s{len(list(tmp_path.iterdir()))}.yaml")
    result = run("check", path)
    assert result.exit_code == 1, result.stdout
    for message in expected:
        assert message in result.stderr, result.stderr
    assert "Traceback" not in result.stderr
    return result.stderr


def test_a_value_for_a_player_not_seated_says_why(tmp_path):
    check_fails(
        tmp_path,
        """\
        players: [A, B, C, {name: D, joins: 2}, {name: E, leaves: 1}]
        rounds:
          - out: [B]
            bids: {A: 0, B: 0, C: 0, D: 0, E: 1}
            tricks: [1, 0, 0, 0]
          - bids: {A: 0, B: 0, C: 0, D: 0, E: 1}
    """,
        "s0.yaml:4: round 1, B: a value for a player not seated: sits this round out",
        "s0.yaml:4: round 1, D: a value for a player not seated: has not joined yet (joins in round 2)",
        "s0.yaml:6: round 2, E: a value for a player not seated: left after round 1",
    )


def test_seating_problems_are_located(tmp_path):
    check_fails(
        tmp_path,
        """\
        players: [A, B, C, {name: D, joins: 5, leaves: 2}]
        rounds:
          - dealer: Zed
            bids: [0, 0, 0]
            tricks: [1, 0, 0]
    """,
        "s0.yaml:1: D: joins in round 5, after leaving in round 2",
        "s0.yaml:3: round 1: dealer 'Zed' is not one of the players",
    )


def test_a_round_seats_three_to_six(tmp_path):
    check_fails(
        tmp_path,
        """\
        players: [A, B, C, {name: D, leaves: 1}]
        rounds:
          - bids: [0, 0, 0, 0]
            tricks: [1, 0, 0, 0]
          - out: [C]
            bids: [0, 0]
            tricks: [2, 0]
    """,
        "round 2: 2 players seated: a round seats 3 to 6",
    )
    check_fails(
        tmp_path,
        """\
        players: [A, B, C, D, E, F, {name: G, joins: 2}]
        rounds:
          - bids: [0, 0, 0, 0, 0, 0]
            tricks: [1, 0, 0, 0, 0, 0]
          - bids: [0, 0, 0, 0, 0, 0, 0]
            tricks: [2, 0, 0, 0, 0, 0, 0]
    """,
        "round 2: 7 players seated: a round seats 3 to 6",
    )


def test_more_than_six_without_seating_changes_is_still_refused(tmp_path):
    check_fails(
        tmp_path,
        "players: [A, B, C, D, E, F, G]\nrounds: []\n",
        "a game has 3 to 6 players, this sheet has 7",
    )
    check_fails(
        tmp_path,
        "players: [A, B, C, D, E, F, G, H, I, J, K, L, {name: M, joins: 2}]\nrounds: []\n",
        "a game lists 3 to 12 players with seating changes, this sheet has 13",
    )


def test_absurd_claims_are_bounded(tmp_path):
    check_fails(
        tmp_path,
        """\
        players: [A, B, C, {name: D, joins: 1000000000}]
        rounds: []
    """,
        "D: joins '1000000000' is far too large",
    )
    check_fails(
        tmp_path,
        """\
        players: [A, B, C, {name: D, joins: 999999999}]
        rounds: []
    """,
        "D: joins in round 999999999, past the 20 rounds the game can have",
    )
    names = ", ".join(["A", "B"] * 5_000 + ["Zed"] * 2_000)
    stderr = check_fails(
        tmp_path,
        f"players: [A, B, C, D]\nrounds:\n  - out: [{names}]\n    bids: [0, 0]\n",
        "round 1: 2 players seated",
        "is not one of the players",
    )
    assert len(stderr) < 2000


def test_a_list_gives_the_seated_players_values(tmp_path):
    check_fails(
        tmp_path,
        """\
        players: [A, B, C, D]
        rounds:
          - out: [D]
            bids: [0, 0, 0, 0]
            tricks: [1, 0, 0]
    """,
        "round 1: 4 bids for 3 players seated",
    )


# --- invariants ----------------------------------------------------------------------------


@st.composite
def classic_games(draw):
    count = draw(st.integers(3, 6))
    mode = draw(st.sampled_from(["wholeDeck", "custom", "quickPlay"]))
    s = rules(
        roundMode=mode,
        customRoundCount=min(5, 60 // count),
        screwTheDealer=draw(st.sampled_from(["off", "always", "leaderOnly", "unlessTiedLead"])),
        balancedBidPenalty=draw(st.sampled_from([0, 10])),
        finalRoundBonus=draw(st.sampled_from([0, 20])),
        perfectGameBonus=draw(st.sampled_from([0, 50])),
        tieBreak=draw(st.sampled_from(["shareWin", "totalBids", "madeBids"])),
    )
    from wizard_cli.game.settings import hand_sizes

    sizes = hand_sizes(s, count)
    played = draw(st.integers(0, min(len(sizes), 6)))
    rounds = []
    for size in sizes[:played]:
        bids = draw(st.lists(st.integers(0, size), min_size=count, max_size=count))
        winner = draw(st.integers(0, count - 1))
        rounds.append((bids, [size if seat == winner else 0 for seat in range(count)]))
    if played < len(sizes) and draw(st.booleans()):
        rounds.append(
            (
                draw(
                    st.lists(
                        st.one_of(st.none(), st.integers(0, sizes[played])),
                        min_size=count,
                        max_size=count,
                    )
                ),
                None,
            )
        )
    return count, s, rounds, draw(st.integers(0, count - 1))


def status_of(result) -> tuple:
    status = game_status(result)
    return (status.finished, status.rounds_total, status.winners, status.contenders, status.next)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(classic_games())
def test_a_game_with_no_seating_change_scores_exactly_as_before(game):
    count, s, rounds, dealer = game
    players = [f"P{seat}" for seat in range(count)]
    classic = score_sheet(make_sheet(players, rounds), s, dealer)
    sheet = make_sheet(players, rounds)
    sheet.seating = Seating.plain(count)
    seated = SeatedGame(sheet, s, dealer).result
    assert seated.standings == classic.standings
    assert seated.rounds == classic.rounds
    assert status_of(seated) == status_of(classic)


@st.composite
def seated_games(draw):
    count = draw(st.integers(3, 9))
    seating = Seating.plain(count)
    for seat in range(count):
        if draw(st.booleans()):
            seating.joins[seat] = draw(st.integers(1, 6))
        if draw(st.booleans()):
            seating.leaves[seat] = draw(st.integers(seating.joins[seat], 8))
        seating.start[seat] = draw(st.sampled_from([0, 0, 10, -20]))
    played = draw(st.integers(1, 8))
    for number in range(1, played + 1):
        if draw(st.booleans()):
            seating.out[number] = frozenset(draw(st.sets(st.integers(0, count - 1), max_size=2)))
        if draw(st.integers(0, 5)) == 0:
            seating.dealers[number] = draw(st.integers(0, count - 1))
    rounds = []
    for number in range(1, played + 1):
        seated = seating.seated(number)
        bids = [draw(st.integers(0, number)) if seat in seated else None for seat in range(count)]
        winner = draw(st.sampled_from(seated)) if seated else 0
        tricks = [
            (number if seat == winner else 0) if seat in seated else None for seat in range(count)
        ]
        rounds.append((bids, tricks))
    return count, seating, rounds, draw(st.sampled_from(["wholeDeck", "custom"]))


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(seated_games())
def test_hand_sizes_fit_the_deck_and_the_last_bidder_deals_or_takes_the_place(game):
    count, seating, rounds, mode = game
    sheet = seated_sheet([f"P{seat}" for seat in range(count)], seating, rounds)
    checked = check_sheet(sheet)
    assume(checked.valid)
    valid = checked.validated
    s = valid.settings.replace({"roundMode": mode}) if mode != "wholeDeck" else valid.settings
    game_ = SeatedGame(sheet, s, valid.first_dealer)
    for number in range(1, len(rounds) + 2):
        if number > len(rounds) and game_.finished:
            break
        seated = game_.seated(number)
        if number > len(rounds) and not seated:
            break  # everyone has left: no round is dealt (nothing to check)
        assert game_.hand_size(number) * len(seated) <= 60 or number > len(rounds)
        order = game_.bidding_order(number)
        assert sorted(order) == seated
        dealer = game_.dealer(number)
        assert order[-1] == dealer or dealer not in seated
    result = valid.result
    totals = list(seating.start)
    for scored in result.rounds:
        for seat in range(count):
            if seat not in seating.seated(scored.number):
                assert scored.points[seat] is None and scored.bids[seat] is None
            else:
                totals[seat] += scored.points[seat]
    assert list(result.totals) == totals


# --- at the table: add, join, leave ---------------------------------------------------------


def new_sheet(tmp_path, players="Anna,Ben,Cara", rounds=1):
    path = tmp_path / "f.yaml"
    assert run("new", "--players", players, "-o", path).exit_code == 0
    count = len(players.split(","))
    for number in range(1, rounds + 1):
        assert run("add", path, "--bids", ",".join(["0"] * count), "-q").exit_code == 0
        tricks = ",".join([str(number)] + ["0"] * (count - 1))
        assert run("add", path, "--tricks", tricks, "-q").exit_code == 0
    return path


def test_join_writes_a_mapping_entry_and_keeps_the_layout(tmp_path):
    path = new_sheet(tmp_path)
    before = path.read_text()
    result = run("join", path, "Dan", "--after", "Ben", "--start-score", "lowest")
    assert result.exit_code == 0, result.stderr
    assert "Dan joins from round 2" in result.stderr
    text = path.read_text()
    assert "players: [Anna, Ben, {name: Dan, joins: 2, startScore: -10}, Cara]" in text
    assert text.replace("{name: Dan, joins: 2, startScore: -10}, ", "") == before
    step = json.loads(run("next", "-f", "json", path).stdout)
    assert step["biddingOrder"] == ["Dan", "Cara", "Anna", "Ben"]  # Ben deals round 2


def test_add_takes_the_seated_players_values_only(tmp_path):
    path = new_sheet(tmp_path)
    assert run("join", path, "Dan", "-q").exit_code == 0
    assert run("add", path, "--bids", "0,1,0,1", "-q").exit_code == 0
    assert run("leave", path, "Dan", "-q").exit_code == 1  # round 2 in play
    assert run("add", path, "--tricks", "0,1,0,1", "-q").exit_code == 0
    result = run("leave", path, "Anna")
    assert result.exit_code == 0, result.stderr
    assert "{name: Anna, leaves: 2}" in path.read_text()
    result = run("add", path, "--bids", "1,1,1")  # Ben, Cara, Dan seated in round 3
    assert result.exit_code == 0, result.stderr
    data = score_json(path)
    assert data["rounds"][2]["results"]["Anna"]["seated"] is False
    assert data["rounds"][1]["results"]["Dan"] == {
        "bid": 1,
        "tricks": 1,
        "points": 30,
        "total": 30,
        "seated": True,
    }


def test_join_and_leave_refusals_write_nothing(tmp_path):
    path = new_sheet(tmp_path)
    before = path.read_text()
    for args, message in [
        (("join", path, "Ben"), "'Ben' is already listed"),
        (("leave", path, "Cara"), "round 2 would seat 2 players"),
        (("join", path, "Dan", "--start-score", "lots"), "--start-score 'lots'"),
        (("join", path, "Dan", "--after", "Zed"), "--after 'Zed' is not one of the players"),
    ]:
        result = run(*args)
        assert result.exit_code == 1 and message in result.stderr, (args, result.stderr)
        assert "Traceback" not in result.stderr
    assert run("add", path, "--bids", "0,0,0", "-q").exit_code == 0
    result = run("join", path, "Dan")
    assert result.exit_code == 1 and "finish round 2 first" in result.stderr
    assert path.read_text() == before + "  - bids:   [0, 0, 0]\n"


def test_names_are_matched_ignoring_case_and_surrounding_spaces(tmp_path):
    """As --bids NAME=V matches a name (SPEC §5): 'ben' is Ben, so it cannot join beside him,
    and leave takes ' ben '; a joining name is written without its surrounding spaces."""
    path = new_sheet(tmp_path)
    before = path.read_text()
    for name in ("ben", " Ben ", "BEN"):
        result = run("join", path, name)
        assert result.exit_code == 1, name
        assert "is already listed (as 'Ben')" in result.stderr or name == "Ben"
    assert path.read_text() == before
    assert run("join", path, " Dan ", "-q").exit_code == 0
    assert "{name: Dan, joins: 2}" in path.read_text()
    assert run("add", path, "--bids", "0,1,0,1", "-q").exit_code == 0
    assert run("add", path, "--tricks", "0,1,0,1", "-q").exit_code == 0
    result = run("leave", path, " anna ")
    assert result.exit_code == 0, result.stderr
    assert "{name: Anna, leaves: 2}" in path.read_text()


def test_join_is_refused_when_the_round_would_not_fit_the_deck(tmp_path):
    path = new_sheet(tmp_path, "A,B,C,D,E", rounds=10)
    result = run("join", path, "F")
    assert result.exit_code == 1
    assert "round 11 would not fit the deck: 6 seated need 66 cards" in result.stderr


def test_undo_takes_back_a_leave_then_a_join_then_the_tricks(tmp_path):
    # Dan's join came first: taken back before Cara's leave it would leave round 2 with two
    # seated (SPEC §1), so the leave, the later step, goes first.
    path = new_sheet(tmp_path)
    before = path.read_text()
    assert run("join", path, "Dan", "-q").exit_code == 0
    assert run("leave", path, "Cara", "-q").exit_code == 0
    result = run("undo", path)
    assert result.exit_code == 0 and "took back Cara leaving after round 1" in result.stderr
    result = run("undo", path)
    assert result.exit_code == 0 and "took back Dan joining from round 2" in result.stderr
    assert path.read_text() == before
    result = run("undo", path)
    assert "removed its tricks" in result.stderr


def test_undo_of_a_join_waits_for_no_later_round(tmp_path):
    path = new_sheet(tmp_path)
    assert run("join", path, "Dan", "-q").exit_code == 0
    assert run("add", path, "--bids", "0,0,0,0", "-q").exit_code == 0
    result = run("undo", path)
    assert "removed the round in play" in result.stderr
    assert "{name: Dan, joins: 2}" in path.read_text()


def test_add_out_records_who_sits_the_round_out(tmp_path):
    path = new_sheet(tmp_path, "Anna,Ben,Cara,Dan")
    result = run("add", path, "--bids", "1,1,0", "--out", "cara")  # a name as typed
    assert result.exit_code == 0, result.stderr
    assert path.read_text().endswith("  - out: [Cara]\n    bids:   [1, 1, 0]\n")
    assert json.loads(run("next", "-f", "json", path).stdout)["biddingOrder"] == [
        "Dan",
        "Anna",
        "Ben",
    ]
    refused = run("add", path, "--bids", "1", "--out", "Dan")
    assert refused.exit_code == 1 and "--out goes with a round's first --bids" in refused.stderr
    assert run("undo", path, "-q").exit_code == 0  # the round in play goes with its out
    assert "out:" not in path.read_text()


def test_add_out_refusals_write_nothing(tmp_path):
    path = new_sheet(tmp_path)
    before = path.read_text()
    for args, message in [
        ((path, "--bids", "0,0", "--out", "Cara"), "2 players seated"),
        ((path, "--bids", "0,0,0", "--out", "Zed"), "--out"),
        ((path, "--tricks", "1,0,0", "--out", "Ben"), "--out goes with"),
    ]:
        result = run("add", *args)
        assert result.exit_code == 1 and message in result.stderr, (args, result.stderr)
        assert "Traceback" not in result.stderr
    assert path.read_text() == before


def test_stats_count_only_the_rounds_a_player_sat_in():
    result = run("stats", "-f", "json", LATECOMER)
    assert result.exit_code == 0, result.stderr
    rows = {row["player"]: row for row in json.loads(result.stdout)}
    assert rows["Eva"]["rounds"] == 3 and rows["Cara"]["rounds"] == 4
    by = run("stats", "--by", "position", "-f", "json", LATECOMER)
    assert by.exit_code == 0, by.stderr
    anna = {
        row["position"]: row["rounds"] for row in json.loads(by.stdout) if row["player"] == "Anna"
    }
    assert anna == {1: 1, 2: 2, 3: 1, 4: 1}  # Eva bids before Anna in rounds 3 and 4


def test_a_long_csv_carries_the_seating(tmp_path):
    """SPEC §3: out rows, a startScore column; read back, the same seating and scores."""
    result = run("convert", LATECOMER, "--to", "csv")
    assert (result.exit_code, result.stderr) == (0, "")
    rows = result.stdout.splitlines()
    assert rows[0] == "round,player,bid,tricks,startScore,title,roundMode,customRoundCount"
    assert rows[5] == "1,Eva,out,,30,Latecomer night,custom,6"  # joins in round 3, with 30
    assert rows[14] == "3,Dan,out,,,Latecomer night,custom,6"  # sits round 3 out
    assert rows[23] == "5,Cara,out,,,Latecomer night,custom,6"  # left after round 4
    back = run("convert", "-", "--to", "yaml", input=result.stdout)
    assert back.stdout.splitlines()[1:] == LATECOMER.read_text().splitlines()[1:2] + [
        "settings:",
        "  roundMode: custom",
        "  customRoundCount: 6",
        "rounds:",
        "  - bids:   [1, 0, 0, 0]",
        "    tricks: [1, 0, 0, 0]",
        "  - bids:   [1, 1, 0, 1]",
        "    tricks: [1, 0, 0, 1]",
        "  - out: [Dan]",
        "    bids:   [1, 1, 0, 1]",
        "    tricks: [1, 1, 0, 1]",
        "  - bids:   [1, 0, 1, 1, 1]",
        "    tricks: [1, 0, 1, 1, 1]",
        "  - bids:   [2, 1, 1, 1]",
        "    tricks: [2, 1, 1, 1]",
    ]


def test_the_table_screen_shows_out_for_a_player_not_seated():
    import pytest

    pytest.importorskip("starlette", reason="the serve extra is not installed")
    from starlette.testclient import TestClient

    from wizard_cli.app.batch import RuleOptions, inputs
    from wizard_cli.web.app import create_app
    from wizard_cli.web.server import allowed_hosts
    from wizard_cli.web.watch import SheetWatch

    watch = SheetWatch(inputs([str(LATECOMER)], RuleOptions()))
    app = create_app(watch, None, allowed_hosts("127.0.0.1", 8000))
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:
        page = client.get("/")
        data = client.get("/game.json").json()
    assert page.status_code == 200 and '<span class="bt">out' in page.text
    assert data["rounds"][0]["results"]["Eva"]["seated"] is False


# --- a game with seating scored as a run of one (issue 30: one scorer) ----------------------

TWELVE = """\
    players: [Anna, Ben, Cara, {name: Dan, leaves: 1}, {name: Eva, leaves: 1},
      {name: Fay, leaves: 1}, {name: Gus, joins: 2, leaves: 2}, {name: Hal, joins: 2, leaves: 2},
      {name: Ida, joins: 2, leaves: 2}, {name: Jo, joins: 3}, {name: Kim, joins: 3, startScore: 10},
      {name: Lou, joins: 3, startScore: 500}]
    settings: {roundMode: custom, customRoundCount: 3, perfectGameBonus: 20, tieBreak: madeBids}
    rounds:
      - bids: {Anna: 1, Ben: 0, Cara: 0, Dan: 0, Eva: 0, Fay: 0}
        tricks: {Anna: 1, Ben: 0, Cara: 0, Dan: 0, Eva: 0, Fay: 0}
      - bids: {Anna: 1, Ben: 0, Cara: 0, Gus: 1, Hal: 0, Ida: 0}
        tricks: {Anna: 1, Ben: 0, Cara: 0, Gus: 1, Hal: 0, Ida: 0}
      - out: [Kim]
        bids: {Anna: 1, Ben: 1, Cara: 0, Jo: 1, Lou: 0}
        tricks: {Anna: 1, Ben: 1, Cara: 0, Jo: 1, Lou: 0}
"""


def test_twelve_listed_rank_by_score_with_the_last_seat_first(tmp_path):
    """Twelve listed (SPEC §1's most), the last of them winning on a start score: the one
    ranking of every game holds a seat past 7 under its score (it sorted seats in 3 bits)."""
    import wizard_cli as wizard

    result = wizard.score(wizard.load(sheet_file(tmp_path, TWELVE)))
    got = [(s.rank, s.player, s.score, s.bonus) for s in result.standings]
    assert got[:5] == [
        (1, "Lou", 540, 20),  # 500 + 20 (0/0 in round 3) + the perfect game
        (2, "Anna", 110, 20),
        (3, "Ben", 90, 20),
        (4, "Cara", 80, 20),
        (5, "Gus", 50, 20),  # 30 + 20; madeBids breaks no tie with Jo (one made bid each)
    ]
    assert got[5] == (5, "Jo", 50, 20)
    assert [s.player for s in result.standings[6:11]] == ["Dan", "Eva", "Fay", "Hal", "Ida"]
    assert {s.rank for s in result.standings[6:11]} == {7}


def test_a_player_seated_in_no_round_makes_no_perfect_game(tmp_path):
    """Kim joins for the last round and sits it out: no bid of hers to make, so no
    ``perfectGameBonus`` (SPEC §1: every bid of the rounds sat in, of which there is one)."""
    import wizard_cli as wizard

    result = wizard.score(wizard.load(sheet_file(tmp_path, TWELVE)))
    assert result.standings[-1].player == "Kim"
    assert (result.standings[-1].score, result.standings[-1].bonus) == (10, 0)
    assert result.standings[-1].rank == 12
