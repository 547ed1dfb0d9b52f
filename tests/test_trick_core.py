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
        "(a rank 2-10, J, Q, K, A and a suit S, H, D, C; W/Z for a Wizard, J/N for a Jester; "
        "Dragon, Fairy, Bomb, Shapeshifter:W or Shapeshifter:J; 7.5 or 9.75 and a suit for the "
        "Juggler or the Cloud)"
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
    assert TrickOutput().as_json(result) == {
        "winner": 2,
        "card": "10H",
        "reason": "highest of the suit led",
        "leadsNext": 2,
        "cloud": None,
    }
    assert list(TrickOutput().rows(result)) == [(2, "10H", "highest of the suit led", 2, None)]


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
        same_suit = [
            c for c in map(parse_card, cards) if c.kind == "suited" and c.suit == result.card.suit
        ]
        assert result.card.rank == max(c.rank for c in same_suit)


@given(tricks(), trumps)
def test_spelling_does_not_matter(cards: list[str], trump: str | None) -> None:
    respelled = [
        text.lower() if len(text) == 1 else text[:-1].lower() + SUIT_SYMBOLS[text[-1]]
        for text in cards
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


# --- the anniversary cards (SPEC §5 trick) --------------------------------------------


def taken(
    cards: list[str], trump: str | None = None
) -> tuple[int | None, str | None, int, int | None]:
    """(winner, card, leads next, cloud) as the JSON says them: winner and card None with the
    Bomb."""
    from wizard_cli.output.game_views import TrickOutput

    record = TrickOutput().as_json(winning_card(cards, trump))
    return record["winner"], record["card"], record["leadsNext"], record["cloud"]


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("Dragon", Card("dragon", None, None)),
        ("drache", Card("dragon", None, None)),
        (" DRAGON ", Card("dragon", None, None)),
        ("Fairy", Card("fairy", None, None)),
        ("FEE", Card("fairy", None, None)),
        ("bomb", Card("bomb", None, None)),
        ("Bombe", Card("bomb", None, None)),
        ("7.5H", Card("suited", 7.5, "H")),
        ("7½h", Card("suited", 7.5, "H")),
        ("7.5♣", Card("suited", 7.5, "C")),
        ("9.75S", Card("suited", 9.75, "S")),
        ("9¾d", Card("suited", 9.75, "D")),
        ("Shapeshifter:W", Card("wizard", None, None, shapeshifter=True)),
        ("shapeshifter:j", Card("jester", None, None, shapeshifter=True)),
        ("Gestaltwandler:Z", Card("wizard", None, None, shapeshifter=True)),
        ("GESTALTWANDLER:n", Card("jester", None, None, shapeshifter=True)),
        ("Shapeshifter : W", Card("wizard", None, None, shapeshifter=True)),
    ],
)
def test_parse_anniversary_card(text: str, card: Card) -> None:
    assert parse_card(text) == card


@pytest.mark.parametrize(
    ("text", "canonical", "special"),
    [
        ("drache", "Dragon", "Dragon"),
        ("fee", "Fairy", "Fairy"),
        ("BOMBE", "Bomb", "Bomb"),
        ("7½♥", "7.5H", "Juggler"),
        ("9¾s", "9.75S", "Cloud"),
        ("gestaltwandler:z", "Shapeshifter:W", "Shapeshifter"),
        ("Shapeshifter:N", "Shapeshifter:J", "Shapeshifter"),
        ("W", "W", None),
        ("10H", "10H", None),
    ],
)
def test_anniversary_card_text_and_name(text: str, canonical: str, special: str | None) -> None:
    card = parse_card(text)
    assert (str(card), card.special) == (canonical, special)
    assert parse_card(canonical) == card


@pytest.mark.parametrize(
    "text",
    [
        "Dragons",
        "Drachen",
        "Fairies",
        "7.5",
        "9.75",
        "7.25H",
        "9.5S",
        "7,5H",
        "8.5H",
        "Juggler",
        "Cloud",
        "Wolke",
        "Dräche",
        "Faıry",
        "Bomb!",
    ],
)
def test_malformed_anniversary_card_is_not_a_card(text: str) -> None:
    with pytest.raises(WizardError) as excinfo:
        parse_card(text)
    assert messages(excinfo) == [
        f"not a card: '{text}' "
        "(a rank 2-10, J, Q, K, A and a suit S, H, D, C; W/Z for a Wizard, J/N for a Jester; "
        "Dragon, Fairy, Bomb, Shapeshifter:W or Shapeshifter:J; 7.5 or 9.75 and a suit for the "
        "Juggler or the Cloud)"
    ]


@pytest.mark.parametrize(
    "text",
    ["Shapeshifter", "Shapeshifter:", "Shapeshifter:X", "Gestaltwandler:QS", "shapeshifter:wizard"],
)
def test_shapeshifter_must_say_what_it_plays_as(text: str) -> None:
    with pytest.raises(WizardError) as excinfo:
        parse_card(text)
    assert messages(excinfo) == [
        f"not a card: '{text}' (the Shapeshifter is played as a Wizard or a Jester: "
        "Shapeshifter:W or Shapeshifter:J)"
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Werewolf", "the Werewolf is played before bidding, not in a trick: 'Werewolf'"),
        ("werwolf", "the Werewolf is played before bidding, not in a trick: 'werwolf'"),
        ("Witch", "the Witch of the 2026 edition is not supported yet: 'Witch'"),
        ("HEXE", "the Witch of the 2026 edition is not supported yet: 'HEXE'"),
        ("vampire", "the Vampire of the 2026 edition is not supported yet: 'vampire'"),
        ("Vampir", "the Vampire of the 2026 edition is not supported yet: 'Vampir'"),
    ],
)
def test_unsupported_cards_say_why(text: str, message: str) -> None:
    with pytest.raises(WizardError) as excinfo:
        parse_card(text)
    assert messages(excinfo) == [message]
    with pytest.raises(WizardError) as excinfo:
        winning_card(["QS", text, "W"])
    assert messages(excinfo) == [message]


def test_dragon_beats_wizards_and_trumps() -> None:
    assert win(["W", "AH", "Dragon", "Z"], "H") == (3, "Dragon", "Dragon beats every card")
    assert win(["Shapeshifter:W", "drache"]) == (2, "Dragon", "Dragon beats every card")


def test_dragon_led_wins() -> None:
    assert win(["Drache", "AS", "W"], "S") == (1, "Dragon", "Dragon beats every card")


@pytest.mark.parametrize(
    "cards", [["Dragon", "W", "Fairy"], ["fee", "AS", "drache", "W"], ["W", "Fairy", "J", "Dragon"]]
)
def test_fairy_beats_the_dragon(cards: list[str]) -> None:
    position = [c.lower() for c in cards].index("fairy" if "Fairy" in cards else "fee") + 1
    assert win(cards, "S") == (position, "Fairy", "Fairy beats the Dragon")


def test_fairy_without_the_dragon_loses_to_any_card() -> None:
    assert win(["Fairy", "2S"], "H") == (2, "2S", "highest of the suit led")
    assert win(["AS", "Fairy"], "none") == (1, "AS", "highest of the suit led")
    assert win(["Fairy", "W"]) == (2, "W", "first Wizard")


def test_fairy_led_leaves_the_suit_to_the_next_card() -> None:
    assert win(["Fairy", "3C", "KS", "5C"]) == (4, "5C", "highest of the suit led")
    assert win(["Fee", "J", "2D", "AS"]) == (3, "2D", "highest of the suit led")


def test_fairy_with_jesters_only_goes_to_the_first_jester() -> None:
    assert win(["Fairy", "J", "N"], "S") == (2, "J", "first Jester, above the Fairy")
    assert win(["N", "Fairy"]) == (1, "J", "first Jester, above the Fairy")
    assert win(["Fairy", "Shapeshifter:J", "J"]) == (
        2,
        "Shapeshifter:J",
        "first Jester, above the Fairy",
    )


def test_fairy_alone_takes_a_one_card_trick() -> None:
    assert win(["Fairy"], "H") == (1, "Fairy", "Fairy alone")


def test_bomb_nobody_takes_it_without_trump() -> None:
    # the Bomb counts as a Jester: hearts led, the king would have taken it and leads next
    assert taken(["5H", "Bomb", "KH", "AS"]) == (None, None, 3, None)


def test_bomb_nobody_takes_it_with_trump() -> None:
    assert taken(["5H", "KH", "Bombe", "2S"], "S") == (None, None, 4, None)
    result = winning_card(["5H", "KH", "Bombe", "2S"], "S")
    assert (result.position, str(result.card), result.reason, result.bomb) == (
        4,
        "2S",
        "highest trump",
        True,
    )


def test_bomb_led_leaves_the_suit_like_a_jester() -> None:
    assert taken(["Bomb", "3D", "AS", "9D"]) == (None, None, 4, None)


def test_bomb_as_the_first_jester_leads_next() -> None:
    assert taken(["Bomb", "J", "N"]) == (None, None, 1, None)
    assert taken(["J", "Bomb"]) == (None, None, 1, None)
    assert taken(["Fairy", "Bomb"]) == (None, None, 2, None)
    assert taken(["bomb"]) == (None, None, 1, None)


def test_bomb_with_the_dragon_and_the_fairy() -> None:
    assert taken(["W", "Bomb", "Dragon"]) == (None, None, 3, None)
    assert taken(["Dragon", "Bomb", "Fairy"]) == (None, None, 3, None)
    assert taken(["Bomb", "Shapeshifter:W", "W"]) == (None, None, 2, None)


def test_classic_trick_leads_next_is_the_winner_and_no_cloud() -> None:
    assert taken(["3H", "10H"], "S") == (2, "10H", 2, None)


def test_juggler_between_seven_and_eight_of_its_suit() -> None:
    assert win(["7.5H", "7H"]) == (1, "7.5H", "highest of the suit led")
    assert win(["7H", "7½H", "8H"]) == (3, "8H", "highest of the suit led")
    assert win(["7.5H", "AS"], "none") == (1, "7.5H", "highest of the suit led")
    assert win(["7S", "7.5H"]) == (1, "7S", "highest of the suit led")


def test_cloud_between_nine_and_ten_of_its_suit() -> None:
    assert win(["9S", "9.75S"]) == (2, "9.75S", "highest of the suit led")
    assert win(["9¾S", "10S"]) == (2, "10S", "highest of the suit led")
    assert win(["9.75S", "7.5S"]) == (1, "9.75S", "highest of the suit led")


def test_juggler_and_cloud_as_trump() -> None:
    assert win(["AS", "7.5H"], "H") == (2, "7.5H", "highest trump")
    assert win(["AS", "7.5H", "9.75H"], "H") == (3, "9.75H", "highest trump")
    assert win(["9.75H", "10H", "AS"], "H") == (2, "10H", "highest trump")
    assert win(["9¾H", "9H", "AS"], "♥") == (1, "9.75H", "highest trump")


def test_juggler_and_cloud_lose_off_suit_and_to_a_trump() -> None:
    assert win(["2C", "9.75S", "7.5D"]) == (1, "2C", "highest of the suit led")
    assert win(["9.75S", "2C"], "C") == (2, "2C", "highest trump")


def test_cloud_taker_must_change_their_bid() -> None:
    assert taken(["9.75S", "AS", "2H"]) == (2, "AS", 2, 2)
    assert taken(["J", "9¾C", "KD"]) == (2, "9.75C", 2, 2)
    assert taken(["9.75S", "W"]) == (2, "W", 2, 2)
    assert winning_card(["9.75S", "W"]).with_cloud


def test_cloud_in_the_bombs_trick_changes_no_bid() -> None:
    result = winning_card(["9.75S", "Bomb", "AS"])
    assert (result.bomb, result.with_cloud, result.cloud) == (True, True, None)
    assert taken(["9.75S", "Bomb", "AS"]) == (None, None, 3, None)


def test_shapeshifter_as_a_wizard_is_a_wizard() -> None:
    assert win(["AH", "Shapeshifter:W", "W"], "H") == (2, "Shapeshifter:W", "first Wizard")
    assert win(["W", "Gestaltwandler:Z"]) == (1, "W", "first Wizard")


def test_shapeshifter_as_a_jester_is_a_jester() -> None:
    assert win(["Shapeshifter:J", "2C", "AS"]) == (2, "2C", "highest of the suit led")
    assert win(["Shapeshifter:J", "J"]) == (1, "Shapeshifter:J", "all Jesters")


def test_shapeshifter_is_not_one_of_the_four() -> None:
    assert win(["W", "W", "W", "W", "Shapeshifter:W"]) == (1, "W", "first Wizard")
    assert win(["J", "J", "J", "J", "Shapeshifter:J", "2S"]) == (6, "2S", "highest of the suit led")


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        (["Dragon", "drache"], "the Dragon is played twice: 'Dragon', 'drache'"),
        (["Fee", "2S", "fairy"], "the Fairy is played twice: 'Fee', 'fairy'"),
        (["Bomb", "Bomb", "bombe"], "the Bomb is played 3 times: 'Bomb', 'Bomb', 'bombe'"),
        (["7.5H", "7½S"], "the Juggler is played twice: '7.5H', '7½S'"),
        (["9.75S", "9.75S"], "the Cloud is played twice: '9.75S', '9.75S'"),
        (
            ["Shapeshifter:W", "Gestaltwandler:N"],
            "the Shapeshifter is played twice: 'Shapeshifter:W', 'Gestaltwandler:N'",
        ),
    ],
)
def test_an_anniversary_card_twice(cards: list[str], message: str) -> None:
    with pytest.raises(WizardError) as excinfo:
        winning_card(cards)
    assert messages(excinfo) == [message]


def test_every_anniversary_problem_reported_together() -> None:
    with pytest.raises(WizardError) as excinfo:
        winning_card(["Werwolf", "Dragon", "Hexe", "drache", "Shapeshifter", "7.5H", "7.5C"])
    assert messages(excinfo) == [
        "a trick has one to six cards, got 7",
        "the Werewolf is played before bidding, not in a trick: 'Werwolf'",
        "the Witch of the 2026 edition is not supported yet: 'Hexe'",
        "not a card: 'Shapeshifter' (the Shapeshifter is played as a Wizard or a Jester: "
        "Shapeshifter:W or Shapeshifter:J)",
        "the Dragon is played twice: 'Dragon', 'drache'",
        "the Juggler is played twice: '7.5H', '7.5C'",
    ]


# --- properties: the classic rules by an oracle, the Bomb as a Jester ------------------


def oracle(cards: list[tuple[str, int, str]], trump: str | None) -> int:
    """SPEC §5's classic rule, read afresh: the 1-based winner of (kind, rank, suit) cards. The
    first Wizard; else the highest trump; else the highest card of the suit led, a Jester led
    leaving the suit to the first non-Jester card; if all are Jesters, the first Jester."""
    for position, (kind, _, _) in enumerate(cards, 1):
        if kind == "W":
            return position
    suits = [suit for kind, _, suit in cards if kind == "S"]
    if not suits:
        return 1
    suit = trump if trump in suits else suits[0]
    return max(
        (rank, position)
        for position, (kind, rank, s) in enumerate(cards, 1)
        if kind == "S" and s == suit
    )[1]


CLASSIC_DECK = [("S", rank, suit) for suit in "SHDC" for rank in range(2, 15)]


@st.composite
def classic_tricks(draw: st.DrawFn) -> list[tuple[str, int, str]]:
    """A legal classic trick as (kind, rank, suit): W a Wizard, J a Jester, S a suited card."""
    suited = draw(st.lists(st.sampled_from(CLASSIC_DECK), unique=True, max_size=6))
    specials = [("W", 0, "")] * draw(st.integers(0, 4)) + [("J", 0, "")] * draw(st.integers(0, 4))
    cards = draw(st.permutations(suited + specials))[: draw(st.integers(1, 6))]
    return cards or [draw(st.sampled_from(CLASSIC_DECK + specials or CLASSIC_DECK))]


def typed(card: tuple[str, int, str]) -> str:
    """A classic card as typed."""
    kind, rank, suit = card
    return kind if kind != "S" else RANK_TEXT[rank - 2] + suit


@given(classic_tricks(), st.sampled_from([None, "S", "H", "D", "C"]))
def test_classic_trick_as_the_oracle_says(
    cards: list[tuple[str, int, str]], trump: str | None
) -> None:
    result = winning_card([typed(card) for card in cards], trump)
    assert result.position == oracle(cards, trump)
    assert (result.bomb, result.with_cloud, result.cloud) == (False, False, None)
    assert taken([typed(card) for card in cards], trump)[2] == result.position


ANNIVERSARY = ["Dragon", "Fairy", "Shapeshifter:W", "Shapeshifter:J", "7.5H", "7½C", "9.75S", "9¾D"]


@st.composite
def bomb_tricks(draw: st.DrawFn) -> list[str]:
    """A legal trick with the Bomb in it, and any other cards, anniversary ones too, but at most
    three real Jesters (so that the Bomb turned into a Jester still makes a legal trick)."""
    suited = draw(
        st.lists(
            st.sampled_from([c for c in SUITED_DECK if c[:-1] not in ("7", "9")]),
            unique=True,
            max_size=5,
        )
    )
    one_each = draw(
        st.lists(
            st.sampled_from(ANNIVERSARY), unique_by=lambda c: parse_card(c).special, max_size=5
        )
    )
    specials = ["W"] * draw(st.integers(0, 4)) + ["N"] * draw(st.integers(0, 3))
    others = draw(st.permutations(suited + one_each + specials))[: draw(st.integers(0, 5))]
    at = draw(st.integers(0, len(others)))
    return [*others[:at], draw(st.sampled_from(["Bomb", "bombe", "BOMB"])), *others[at:]]


@given(bomb_tricks(), st.sampled_from([None, "S", "H", "D", "C"]))
def test_the_bomb_leads_next_who_would_have_won_it_as_a_jester(
    cards: list[str], trump: str | None
) -> None:
    winner, card, leads_next, cloud = taken(cards, trump)
    as_jester = ["J" if parse_card(text).kind == "bomb" else text for text in cards]
    assert (winner, card, cloud) == (None, None, None)
    assert leads_next == winning_card(as_jester, trump).position


@st.composite
def anniversary_tricks(draw: st.DrawFn) -> list[str]:
    """A legal trick that may hold any of the anniversary cards, each at most once."""
    suited = draw(st.lists(st.sampled_from(SUITED_DECK), unique=True, max_size=6))
    one_each = draw(
        st.lists(
            st.sampled_from([*ANNIVERSARY, "Bomb"]),
            unique_by=lambda c: parse_card(c).special,
            max_size=6,
        )
    )
    specials = ["W"] * draw(st.integers(0, 4)) + ["J"] * draw(st.integers(0, 4))
    cards = draw(st.permutations(suited + one_each + specials))[: draw(st.integers(1, 6))]
    return cards or ["Fairy"]


@given(anniversary_tricks(), st.sampled_from([None, "S", "H", "D", "C"]))
def test_dragon_wins_unless_the_fairy_is_there(cards: list[str], trump: str | None) -> None:
    result = winning_card(cards, trump)
    kinds = [parse_card(text).kind for text in cards]
    if "dragon" in kinds:
        assert result.position == kinds.index("fairy" if "fairy" in kinds else "dragon") + 1
    elif "fairy" in kinds:
        assert result.card.kind != "fairy" or kinds == ["fairy"]
    cloud = any(parse_card(text).special == "Cloud" for text in cards)
    assert result.cloud == (result.position if cloud and "bomb" not in kinds else None)
