"""Invariants of the engine over generated games (issue 31), through the library's public names:
a game with no special card and no seating change scores as it did before either existed; a
Bomb round's tricks add up to one less than its hand; a Cloud changes only its player's points;
no round deals more cards than the deck has; the last bidder is the dealer, or takes the place
of a dealer who is not seated. The games are :mod:`test_engine`'s (the oracle's generator).
``WIZARD_SLOW=1`` runs many more.
"""

from __future__ import annotations

import copy
import io
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracle import DEFAULTS, SeatedTable, judge_seated
from test_engine import SLOW, make_game, random_rules, seated_rules, seated_table, table_yaml

import wizard_cli as wizard

EXAMPLES = 200 if SLOW else 8
CHECKS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
SEEDS = st.integers(0, 2**32 - 1)


def given_settings(rules: dict) -> dict:
    """The rules as the library takes them: what differs from the defaults, and the mode."""
    return {
        key: value
        for key, value in rules.items()
        if value is not None and (value != DEFAULTS[key] or key == "roundMode")
    }


def loaded(text: str, rules: dict) -> wizard.Game | wizard.Problems:
    [item] = wizard.read(io.StringIO(text), settings=given_settings(rules))
    return item


def scored(text: str, rules: dict) -> dict:
    game = loaded(text, rules)
    assert isinstance(game, wizard.Game), list(game)
    return wizard.score(game).as_json()


def valid_tables(seed: int, count: int = 4) -> tuple[dict, list[SeatedTable]]:
    """Valid games with seating (and, often, the Bomb and the Cloud) under one rule set."""
    rng = random.Random(seed)
    rules = seated_rules(rng)
    tables = [seated_table(rng, f"g{number}", rules) for number in range(count)]
    return rules, [table for table in tables if not judge_seated(table, rules).problems]


@CHECKS
@given(seed=SEEDS)
def test_a_game_without_special_cards_or_seating_changes_scores_as_before(seed):
    """The same classic game read plainly, with every player written as a mapping (a sheet with
    seating that changes nothing: the seated engine), and with ``specialCards: true`` and no
    card recorded: the same scores, rounds and status (``specialCards`` itself aside, the trump
    the special cards leave in a round dealing the whole 60, and who can still win, which a
    Cloud yet to fall in the round in play can only widen)."""
    rng = random.Random(seed)
    rules = dict(random_rules(rng), specialCards=None)
    players = rng.sample(["Anna", "Ben", "Cara", "Dan", "Eva", "Finn"], rng.randint(3, 6))
    rows = make_game(rng, "g", players, rules, specials=False)
    rounds = {}
    for _, number, name, bid, tricks, _, _ in rows:
        rounds.setdefault(number, ({}, {}))
        rounds[number][0][name] = bid
        if tricks is not None:
            rounds[number][1][name] = tricks

    def sheet(entries: list[str]) -> str:
        lines = [f"players: [{', '.join(entries)}]", "rounds:" if rounds else "rounds: []"]
        for bids, tricks in rounds.values():
            lines.append(
                "  - bids: {"
                + ", ".join(f"{n}: {b}" for n, b in bids.items() if b is not None)
                + "}"
            )
            if tricks:
                lines.append(
                    "    tricks: {" + ", ".join(f"{n}: {t}" for n, t in tricks.items()) + "}"
                )
        return "\n".join(lines) + "\n"

    plain = loaded(sheet(players), rules)
    if not isinstance(plain, wizard.Game):
        return  # a spoilt game: the oracle's tests judge those
    before = wizard.score(plain).as_json()
    seated = scored(sheet([f"{{name: {name}}}" for name in players]), rules)
    assert seated == before
    special = scored(sheet(players), dict(rules, specialCards=True))
    assert special["settings"].pop("specialCards") is True
    before["settings"].pop("specialCards")
    for data in special["rounds"]:
        assert data.pop("bomb") is False
        for result in data["results"].values():
            assert result.pop("cloud") is None
    if before["status"]["next"] is not None:  # the special cards leave a trump (SPEC §1)
        assert special["status"]["next"].pop("noTrump") is False
        before["status"]["next"].pop("noTrump")
    # A Cloud may yet change a bid in play: the bound of who can still win only widens.
    assert set(special["status"].pop("contenders")) >= set(before["status"].pop("contenders"))
    assert special == before


@CHECKS
@given(seed=SEEDS)
def test_tricks_add_up_with_the_bomb_and_hands_fit_the_deck(seed):
    """In every valid game: a round's seated players' tricks add up to its hand size, one less
    with the Bomb; a recorded round deals at most the deck (hand size × seated ≤ 60). (The next
    round to deal may not fit, where a sheet's own ``joins`` or ``leaves`` says so: SPEC §4
    judges the rounds recorded.)"""
    rules, tables = valid_tables(seed)
    for table in tables:
        game = scored(table_yaml(table), rules)
        for data in game["rounds"]:
            seated = [
                name for name, result in data["results"].items() if result.get("seated", True)
            ]
            assert data["handSize"] * len(seated) <= 60
            if data["results"][seated[0]]["tricks"] is not None:
                took = sum(data["results"][name]["tricks"] for name in seated)
                assert took == data["handSize"] - bool(data.get("bomb"))


@CHECKS
@given(seed=SEEDS)
def test_a_cloud_changes_only_its_players_points(seed):
    """The same game without one of its Clouds: every point the same but the Cloud player's in
    that round (under a dealer rule that does not look at the totals, which the Cloud moves)."""
    rng = random.Random(seed)
    rules, tables = valid_tables(seed)
    rules = dict(rules, screwTheDealer=rng.choice(["off", "always"]), specialCards=True)
    for table in tables:
        clouds = [
            index
            for index, dealt in enumerate(table.rounds)
            if dealt.cloud is not None and dealt.tricks is not None
        ]
        if not clouds or judge_seated(table, rules).problems:
            continue
        index = rng.choice(clouds)
        without = copy.deepcopy(table)
        name, _ = without.rounds[index].cloud
        without.rounds[index].cloud = None
        with_cloud, plain = scored(table_yaml(table), rules), scored(table_yaml(without), rules)
        moved = {
            (number, player)
            for number, (one, other) in enumerate(zip(with_cloud["rounds"], plain["rounds"]))
            for player, result in one["results"].items()
            if result["points"] != other["results"][player]["points"]
        }
        assert moved <= {(index, name)}
        assert with_cloud["rounds"][index]["results"][name]["cloud"] in (1, -1)
        assert plain["rounds"][index]["results"][name]["cloud"] is None
        scores = {(row["player"], row["score"]) for row in with_cloud["standings"]}
        assert {
            player
            for player, _ in scores - {(row["player"], row["score"]) for row in plain["standings"]}
        } <= {name}


@CHECKS
@given(seed=SEEDS)
def test_the_last_bidder_is_the_dealer_or_takes_the_dealers_place(seed):
    """Each recorded round of a valid game, put back to its first bid: the bidding order starts
    at the dealer's left among the seated and ends with the dealer when seated, else with the
    seated player the deal would have reached last; with every other bid in, that player is the
    one still to bid and is offered the forbidden bid under ``screwTheDealer: always``."""
    rules, tables = valid_tables(seed, 2)
    rules = dict(rules, screwTheDealer="always", dealerRuleFrom=1, canadianRule=False)
    for table in tables:
        names = [listed.name for listed in table.players]
        for index in range(len(table.rounds)):
            prefix = copy.deepcopy(table)
            prefix.rounds = prefix.rounds[: index + 1]
            dealt = prefix.rounds[-1]
            dealt.tricks, dealt.bomb, dealt.cloud = None, False, None
            dealt.bids = {}
            game = loaded(table_yaml(prefix), rules)
            if not isinstance(game, wizard.Game):
                continue  # an earlier round breaks the rule now held
            step = wizard.next_step(game).as_json()
            order, dealer = step["biddingOrder"], step["dealer"]
            seated = table.seated(index + 1)
            assert sorted(order) == sorted(seated)
            seat = names.index(dealer)
            going_left = [names[(seat + k) % len(names)] for k in range(1, len(names) + 1)]
            assert order == [name for name in going_left if name in seated]
            assert order[-1] == dealer if dealer in seated else dealer not in order
            others = {name: 0 for name in order[:-1]}
            dealt.bids = dict(others)
            game = loaded(table_yaml(prefix), rules)
            if not isinstance(game, wizard.Game):
                continue
            step = wizard.next_step(game).as_json()
            assert step["nextBidder"] == order[-1]
            assert step["forbiddenDealerBid"] == step["handSize"]
