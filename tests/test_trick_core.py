"""Tests for wizard_cli.game.trick: parsing cards and trumps, and deciding who wins a trick."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wizard_cli.errors import WizardError
from wizard_cli.game.trick import Card, TrickResult, parse_card, parse_trump, winning_card

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANK_TEXT = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
SUITED_DECK = [rank + suit for suit in "SHDC" for rank in RANK_TEXT]


def win(cards: list[str], trump: str | None = None) -> tuple[int, str, str]:
    """The winner as (position, canonical card, reason), for compact assertions."""
    result = winning_card(cards, trump)
    return result.position, str(result.card), result.reason


def messages(excinfo: pytest.ExceptionInfo[WizardError]) -> list[str]:
    """The problem messages a WizardError carries."""
    return [problem.message for problem in excinfo.value.problems]


# --- parsing cards -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("10H", Card("suited", 10, "H")),
        ("QS", Card("suited", 12, "S")),
        ("qs", Card("suited", 12, "S")),
        ("j♣", Card("suited", 11, "C")),
        ("JS", Card("suited", 11, "S")),
        ("2d", Card("suited", 2, "D")),
        ("A♥", Card("suited", 14, "H")),
        ("K♦", Card("suited", 13, "D")),
        ("  10♠ ", Card("suited", 10, "S")),
        ("W", Card("wizard", None, None)),
        ("w", Card("wizard", None, None)),
        ("Z", Card("wizard", None, None)),
        ("z", Card("wizard", None, None)),
        ("J", Card("jester", None, None)),
        ("j", Card("jester", None, None)),
        ("N", Card("jester", None, None)),
        (" n ", Card("jester", None, None)),
    ],
)
def test_parse_card(text: str, card: Card) -> None:
    assert parse_card(text) == card


@pytest.mark.parametrize(
    ("text", "canonical"),
    [("10h", "10H"), ("q♠", "QS"), ("js", "JS"), ("a♣", "AC"), ("Z", "W"), ("N", "J"), ("j", "J")],
)
def test_card_str_is_canonical(text: str, canonical: str) -> None:
    assert str(parse_card(text)) == canonical


@pytest.mark.parametrize(
    "text", ["1H", "11S", "QX", "", "   ", "H", "10", "WS", "NS", "ZZ", "Q S", "1OH", "♠Q"]
)
def test_malformed_card_is_named(text: str) -> None:
    with pytest.raises(WizardError) as excinfo:
        parse_card(text)
    assert messages(excinfo) == [
        f"not a card: '{text.strip()}' "
        "(a rank 2-10, J, Q, K, A and a suit S, H, D, C; or W/Z for a Wizard, J/N for a Jester)"
    ]


# --- parsing trumps ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "suit"),
    [
        (None, None),
        ("none", None),
        ("NONE", None),
        (" None ", None),
        ("s", "S"),
        ("H", "H"),
        ("♦", "D"),
        (" c ", "C"),
    ],
)
def test_parse_trump(text: str | None, suit: str | None) -> None:
    assert parse_trump(text) == suit


@pytest.mark.parametrize("text", ["X", "", "QS", "spades", "W"])
def test_bad_trump(text: str) -> None:
    with pytest.raises(WizardError) as excinfo:
        parse_trump(text)
    assert messages(excinfo) == [f"not a trump suit: '{text}' (S, H, D, C or none)"]


# --- deciding the winner -------------------------------------------------------------


def test_wizard_led_wins() -> None:
    assert win(["W", "AS", "KS"], "S") == (1, "W", "first Wizard")


def test_first_of_several_wizards_wins() -> None:
    assert win(["2H", "W", "AH", "Z", "W"], "H") == (2, "W", "first Wizard")


def test_wizard_beats_trump_and_led_suit_when_played_last() -> None:
    assert win(["AS", "AH", "W"], "H") == (3, "W", "first Wizard")


def test_jester_led_then_trump() -> None:
    assert win(["J", "AS", "2H"], "H") == (3, "2H", "highest trump")


def test_jester_led_then_plain_card_sets_the_suit() -> None:
    assert win(["N", "3D", "AS", "9D"]) == (4, "9D", "highest of the suit led")


def test_jesters_led_then_plain_card_sets_the_suit() -> None:
    assert win(["J", "N", "5C", "KS", "J"]) == (3, "5C", "highest of the suit led")


def test_all_jesters_first_wins() -> None:
    assert win(["J", "n", "N", "j"], "S") == (1, "J", "all Jesters")


def test_single_jester() -> None:
    assert win(["J"]) == (1, "J", "all Jesters")


def test_single_card() -> None:
    assert win(["7C"], "S") == (1, "7C", "highest of the suit led")


def test_off_suit_high_cards_lose_to_low_card_of_suit_led() -> None:
    assert win(["2C", "AS", "AH", "AD"]) == (1, "2C", "highest of the suit led")


def test_highest_of_suit_led_wins() -> None:
    assert win(["9S", "10S", "JS", "8S"], "none") == (3, "JS", "highest of the suit led")


def test_ten_beats_nine() -> None:
    assert win(["9H", "10H"]) == (2, "10H", "highest of the suit led")


def test_trump_beats_led_suit() -> None:
    assert win(["AS", "KS", "2D"], "D") == (3, "2D", "highest trump")


def test_highest_trump_wins() -> None:
    assert win(["AS", "3D", "QD", "JD"], "♦") == (3, "QD", "highest trump")


def test_trump_led_is_still_highest_trump() -> None:
    assert win(["5H", "KH"], "h") == (2, "KH", "highest trump")


def test_trump_not_played_falls_back_to_suit_led() -> None:
    assert win(["4C", "KC", "AS"], "D") == (2, "KC", "highest of the suit led")


def test_jesters_lose_to_any_card() -> None:
    assert win(["J", "J", "2S", "J"], "H") == (3, "2S", "highest of the suit led")


def test_german_wizard_and_jester() -> None:
    assert win(["N", "Z", "AS"], "S") == (2, "W", "first Wizard")
    assert win(["n", "N"]) == (1, "J", "all Jesters")


def test_symbols_and_case() -> None:
    assert win(["q♠", "K♠", "a♥"], "♠") == (2, "KS", "highest trump")


def test_jack_is_not_a_jester() -> None:
    assert win(["JS", "10S"]) == (1, "JS", "highest of the suit led")
    assert win(["J", "10S"]) == (2, "10S", "highest of the suit led")


def test_six_cards_allowed() -> None:
    assert win(["2S", "3S", "4S", "5S", "6S", "7S"]) == (6, "7S", "highest of the suit led")


def test_accepts_tuple_of_cards() -> None:
    assert win(("W",)) == (1, "W", "first Wizard")


def test_result_as_json() -> None:
    from wizard_cli.output.game_views import TrickOutput

    result = winning_card(["3H", "10H"], "S")
    assert result == TrickResult(2, Card("suited", 10, "H"), "highest of the suit led")
    assert TrickOutput().as_json(result) == {"winner": 2, "card": "10H",
                                             "reason": "highest of the suit led"}
    assert list(TrickOutput().rows(result)) == [(2, "10H", "highest of the suit led")]


# --- errors --------------------------------------------------------------------------


@pytest.mark.parametrize("count", [0, 7, 8])
def test_wrong_number_of_cards(count: int) -> None:
    with pytest.raises(WizardError) as excinfo:
        winning_card(SUITED_DECK[:count])
    assert messages(excinfo) == [f"a trick has one to six cards, got {count}"]


def test_same_card_twice() -> None:
    with pytest.raises(WizardError) as excinfo:
        winning_card(["QS", "2H", "QS"])
    assert messages(excinfo) == ["card 'QS' is played twice"]


@pytest.mark.parametrize("other", ["qs", "Q♠", " q♠ "])
def test_same_card_twice_spelled_differently(other: str) -> None:
    with pytest.raises(WizardError) as excinfo:
        winning_card(["QS", other])
    assert messages(excinfo) == [f"card 'QS' is played twice (also as '{other.strip()}')"]


def test_same_card_three_times() -> None:
    with pytest.raises(WizardError) as excinfo:
        winning_card(["10h", "10H", "10♥"])
    assert messages(excinfo) == ["card '10h' is played 3 times (also as '10H', '10♥')"]


def test_wizards_and_jesters_may_repeat() -> None:
    assert win(["J", "J", "W", "W"]) == (3, "W", "first Wizard")


def test_more_than_four_wizards() -> None:
    with pytest.raises(WizardError) as excinfo:
        winning_card(["W", "Z", "w", "z", "W"])
    assert messages(excinfo) == ["more than four Wizards"]


def test_more_than_four_jesters() -> None:
    with pytest.raises(WizardError) as excinfo:
        winning_card(["J", "N", "j", "n", "J", "2S"])
    assert messages(excinfo) == ["more than four Jesters"]


def test_four_of_each_special_is_fine() -> None:
    assert win(["J", "J", "J", "J", "2S"]) == (5, "2S", "highest of the suit led")
    assert win(["W", "W", "W", "W", "J"]) == (1, "W", "first Wizard")


def test_every_malformed_card_reported() -> None:
    with pytest.raises(WizardError) as excinfo:
        winning_card(["1H", "QS", "11S", "QX", ""])
    assert [m.split(" (")[0] for m in messages(excinfo)] == [
        "not a card: '1H'",
        "not a card: '11S'",
        "not a card: 'QX'",
        "not a card: ''",
    ]


def test_bad_trump_in_trick() -> None:
    with pytest.raises(WizardError) as excinfo:
        winning_card(["QS"], "X")
    assert messages(excinfo) == ["not a trump suit: 'X' (S, H, D, C or none)"]


def test_all_problems_reported_together() -> None:
    with pytest.raises(WizardError) as excinfo:
        winning_card(["QS", "qs", "1H", "W", "W", "W", "W", "W"], "X")
    assert [m.split(" (")[0] for m in messages(excinfo)] == [
        "not a trump suit: 'X'",
        "a trick has one to six cards, got 8",
        "not a card: '1H'",
        "card 'QS' is played twice",
        "more than four Wizards",
    ]


def test_error_str_is_one_line_per_problem() -> None:
    with pytest.raises(WizardError) as excinfo:
        winning_card(["1H", "QX"])
    assert len(str(excinfo.value).splitlines()) == 2


def test_single_string_is_a_programming_error() -> None:
    with pytest.raises(TypeError):
        winning_card("QS")  # type: ignore[arg-type]


# --- properties ----------------------------------------------------------------------

SPECIAL_TEXTS = ["W", "Z", "w", "z", "J", "N", "j", "n"]
trumps = st.sampled_from([None, "none", "S", "H", "D", "C"])


@st.composite
def tricks(draw: st.DrawFn) -> list[str]:
    """A legal trick: 1-6 cards, suited cards unique, at most four of each special card."""
    suited = draw(st.lists(st.sampled_from(SUITED_DECK), unique=True, max_size=6))
    wizards = draw(st.lists(st.sampled_from(["W", "Z", "w", "z"]), max_size=4))
    jesters = draw(st.lists(st.sampled_from(["J", "N", "j", "n"]), max_size=4))
    cards = draw(st.permutations(suited + wizards + jesters))
    size = draw(st.integers(min_value=1, max_value=6))
    cards = cards[:size]
    return cards if cards else [draw(st.sampled_from(SUITED_DECK + SPECIAL_TEXTS))]


def kinds(cards: list[str]) -> list[str]:
    """The kind of each card, in order."""
    return [parse_card(text).kind for text in cards]


@given(tricks(), trumps)
def test_winner_is_the_card_at_its_position(cards: list[str], trump: str | None) -> None:
    result = winning_card(cards, trump)
    assert 1 <= result.position <= len(cards)
    assert result.card == parse_card(cards[result.position - 1])


@given(tricks(), trumps)
def test_any_wizard_means_first_wizard_wins(cards: list[str], trump: str | None) -> None:
    result = winning_card(cards, trump)
    if "wizard" in kinds(cards):
        assert result.position == kinds(cards).index("wizard") + 1
        assert result.reason == "first Wizard"
    else:
        assert result.reason != "first Wizard"


@given(tricks(), trumps)
def test_jester_wins_only_when_all_are_jesters(cards: list[str], trump: str | None) -> None:
    result = winning_card(cards, trump)
    all_jesters = set(kinds(cards)) == {"jester"}
    assert (result.card.kind == "jester") == all_jesters
    if all_jesters:
        assert (result.position, result.reason) == (1, "all Jesters")


@given(tricks(), trumps)
def test_winner_beats_every_other_card_of_its_suit(cards: list[str], trump: str | None) -> None:
    result = winning_card(cards, trump)
    if result.card.kind == "suited":
        same_suit = [c for c in map(parse_card, cards) if c.kind == "suited" and c.suit == result.card.suit]
        assert result.card.rank == max(c.rank for c in same_suit)


@given(tricks(), trumps)
def test_spelling_does_not_matter(cards: list[str], trump: str | None) -> None:
    respelled = [
        text.lower() if len(text) == 1 else text[:-1].lower() + SUIT_SYMBOLS[text[-1]] for text in cards
    ]
    assert winning_card(respelled, trump) == winning_card(cards, trump)


@given(tricks(), trumps)
def test_trailing_jester_changes_nothing(cards: list[str], trump: str | None) -> None:
    if len(cards) < 6 and kinds(cards).count("jester") < 4:
        assert winning_card([*cards, "N"], trump) == winning_card(cards, trump)


@given(st.sampled_from(SUITED_DECK + SPECIAL_TEXTS))
def test_canonical_text_round_trips(text: str) -> None:
    card = parse_card(text)
    assert parse_card(str(card)) == card
