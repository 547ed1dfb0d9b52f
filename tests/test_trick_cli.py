"""`wizard trick` through the command line: exact output in every format, and exit codes."""

from __future__ import annotations

import json

import pytest
from helpers import run

CARD_HINT = (
    "(a rank 2-10, J, Q, K, A and a suit S, H, D, C; W/Z for a Wizard, J/N for a Jester; "
    "Dragon, Fairy, Bomb, Shapeshifter:W or Shapeshifter:J; 7.5 or 9.75 and a suit for "
    "the Juggler or the Cloud)"
)


def trick(*args: str) -> tuple[int, str, str]:
    result = run("trick", *args)
    return result.exit_code, result.stdout, result.stderr


def trick_json(*args: str) -> dict:
    code, out, err = trick(*args, "-f", "json")
    assert (code, err) == (0, "")
    return json.loads(out)


# --- every rule, as a table line and as JSON ---------------------------------------------------


@pytest.mark.parametrize(
    ("args", "line", "data"),
    [
        # a Jester led leaves the suit open; the trump played later wins
        (
            ["J", "AS", "2H", "--trump", "H"],
            "Card 3 (2H) wins: highest trump",
            {"winner": 3, "card": "2H", "reason": "highest trump"},
        ),
        # Wizards after a Wizard: the first one wins
        (
            ["3C", "W", "Z", "w"],
            "Card 2 (W) wins: first Wizard",
            {"winner": 2, "card": "W", "reason": "first Wizard"},
        ),
        # a Wizard played last beats the ace of trumps
        (
            ["AH", "KH", "W", "--trump", "H"],
            "Card 3 (W) wins: first Wizard",
            {"winner": 3, "card": "W", "reason": "first Wizard"},
        ),
        # off-suit aces lose to a low card of the suit led
        (
            ["2C", "AS", "AH", "AD"],
            "Card 1 (2C) wins: highest of the suit led",
            {"winner": 1, "card": "2C", "reason": "highest of the suit led"},
        ),
        # with a trump named but none played, the suit led decides
        (
            ["4D", "KD", "AS", "--trump", "C"],
            "Card 2 (KD) wins: highest of the suit led",
            {"winner": 2, "card": "KD", "reason": "highest of the suit led"},
        ),
        # all Jesters: the first one wins
        (
            ["J", "n", "N"],
            "Card 1 (J) wins: all Jesters",
            {"winner": 1, "card": "J", "reason": "all Jesters"},
        ),
        # --trump none: hearts led, the jack is highest; the spade is off-suit
        (
            ["10H", "9S", "JH", "--trump", "none"],
            "Card 3 (JH) wins: highest of the suit led",
            {"winner": 3, "card": "JH", "reason": "highest of the suit led"},
        ),
        # Jesters led, then the first real card sets the suit
        (
            ["N", "J", "5C", "KS"],
            "Card 3 (5C) wins: highest of the suit led",
            {"winner": 3, "card": "5C", "reason": "highest of the suit led"},
        ),
        # ten beats nine; symbols and lower case are read
        (
            ["9♥", "10h", "2s", "--trump", "♥"],
            "Card 2 (10H) wins: highest trump",
            {"winner": 2, "card": "10H", "reason": "highest trump"},
        ),
    ],
)
def test_rules_in_table_and_json(args, line, data):
    assert trick(*args) == (0, line + "\n", "")
    # every trick has every key: a classic trick's winner leads next, and no Cloud
    assert trick_json(*args) == data | {"leadsNext": data["winner"], "cloud": None}


def test_json_is_pretty_printed():
    assert trick("J", "AS", "2H", "--trump", "H", "-f", "json") == (
        0,
        """\
{
  "winner": 3,
  "card": "2H",
  "reason": "highest trump",
  "leadsNext": 3,
  "cloud": null
}
""",
        "",
    )


def test_jsonl_csv_tsv_markdown():
    args = ("W", "10H", "Z")
    assert trick(*args, "-f", "jsonl") == (
        0,
        '{"winner":1,"card":"W","reason":"first Wizard","leadsNext":1,"cloud":null}\n',
        "",
    )
    assert trick(*args, "-f", "csv") == (
        0,
        "winner,card,reason,leadsNext,cloud\n1,W,first Wizard,1,\n",
        "",
    )
    assert trick(*args, "-f", "tsv") == (
        0,
        "winner\tcard\treason\tleadsNext\tcloud\n1\tW\tfirst Wizard\t1\t\n",
        "",
    )
    assert trick(*args, "-f", "markdown") == (0, "Card 1 (W) wins: first Wizard\n", "")


def test_trump_option_may_come_first():
    assert trick("--trump", "s", "2H", "3S") == (0, "Card 2 (3S) wins: highest trump\n", "")


def test_default_is_no_trump():
    assert trick("2H", "AS") == (0, "Card 1 (2H) wins: highest of the suit led\n", "")


def test_cards_starting_with_a_digit_or_ten_are_arguments_not_options():
    assert trick_json("10S", "2S", "9S", "3S") == {
        "winner": 1,
        "card": "10S",
        "reason": "highest of the suit led",
        "leadsNext": 1,
        "cloud": None,
    }


def test_german_names():
    assert trick("N", "Z", "AS") == (0, "Card 2 (W) wins: first Wizard\n", "")


def test_a_single_card_wins():
    assert trick("7c") == (0, "Card 1 (7C) wins: highest of the suit led\n", "")


# --- the anniversary cards: the line said and the JSON ------------------------------------------


@pytest.mark.parametrize(
    ("args", "line", "data"),
    [
        # the Dragon beats the Wizard played before it
        (
            ["W", "Dragon", "AH", "--trump", "H"],
            "Card 2 (Dragon) wins: Dragon beats every card",
            {
                "winner": 2,
                "card": "Dragon",
                "reason": "Dragon beats every card",
                "leadsNext": 2,
                "cloud": None,
            },
        ),
        # the Fairy takes the Dragon's trick (German names)
        (
            ["Drache", "Z", "Fee"],
            "Card 3 (Fairy) wins: Fairy beats the Dragon",
            {
                "winner": 3,
                "card": "Fairy",
                "reason": "Fairy beats the Dragon",
                "leadsNext": 3,
                "cloud": None,
            },
        ),
        # without the Dragon the Fairy is below the Jesters
        (
            ["fairy", "N", "J"],
            "Card 2 (J) wins: first Jester, above the Fairy",
            {
                "winner": 2,
                "card": "J",
                "reason": "first Jester, above the Fairy",
                "leadsNext": 2,
                "cloud": None,
            },
        ),
        (
            ["Fairy"],
            "Card 1 (Fairy) wins: Fairy alone",
            {"winner": 1, "card": "Fairy", "reason": "Fairy alone", "leadsNext": 1, "cloud": None},
        ),
        # the Juggler between the 7 and the 8, written with ½
        (
            ["7H", "7½H", "AS"],
            "Card 2 (7.5H) wins: highest of the suit led",
            {
                "winner": 2,
                "card": "7.5H",
                "reason": "highest of the suit led",
                "leadsNext": 2,
                "cloud": None,
            },
        ),
        # the Shapeshifter played as a Wizard, before a real one
        (
            ["3C", "Shapeshifter:W", "W"],
            "Card 2 (Shapeshifter:W) wins: first Wizard",
            {
                "winner": 2,
                "card": "Shapeshifter:W",
                "reason": "first Wizard",
                "leadsNext": 2,
                "cloud": None,
            },
        ),
        # the Cloud: its taker must change their bid
        (
            ["9¾S", "KS", "2S"],
            "Card 2 (KS) wins: highest of the suit led; "
            "its player must change their bid by one (the Cloud)",
            {
                "winner": 2,
                "card": "KS",
                "reason": "highest of the suit led",
                "leadsNext": 2,
                "cloud": 2,
            },
        ),
        (
            ["2S", "9.75H", "--trump", "H"],
            "Card 2 (9.75H) wins: highest trump; "
            "its player must change their bid by one (the Cloud)",
            {"winner": 2, "card": "9.75H", "reason": "highest trump", "leadsNext": 2, "cloud": 2},
        ),
        # the Bomb: nobody takes it; who would have, the Bomb as a Jester, leads next
        (
            ["5H", "Bomb", "KH", "AS"],
            "Nobody takes the trick (the Bomb); card 3 (KH) leads next: highest of the suit led",
            {
                "winner": None,
                "card": None,
                "reason": "highest of the suit led",
                "leadsNext": 3,
                "cloud": None,
            },
        ),
        (
            ["5H", "KH", "Bombe", "2S", "--trump", "S"],
            "Nobody takes the trick (the Bomb); card 4 (2S) leads next: highest trump",
            {
                "winner": None,
                "card": None,
                "reason": "highest trump",
                "leadsNext": 4,
                "cloud": None,
            },
        ),
        (
            ["BOMB", "J"],
            "Nobody takes the trick (the Bomb); card 1 (Bomb) leads next: all Jesters",
            {"winner": None, "card": None, "reason": "all Jesters", "leadsNext": 1, "cloud": None},
        ),
        # a Cloud in the Bomb's trick changes nobody's bid
        (
            ["9.75S", "Bomb", "AS"],
            "Nobody takes the trick (the Bomb); card 3 (AS) leads next: "
            "highest of the suit led; the Cloud changes no bid",
            {
                "winner": None,
                "card": None,
                "reason": "highest of the suit led",
                "leadsNext": 3,
                "cloud": None,
            },
        ),
    ],
)
def test_anniversary_cards_in_table_and_json(args, line, data):
    assert trick(*args) == (0, line + "\n", "")
    assert trick_json(*args) == data


def test_bomb_in_every_format():
    args = ("3C", "Bomb", "KC", "2S", "--trump", "S")
    assert trick(*args, "-f", "json") == (
        0,
        """\
{
  "winner": null,
  "card": null,
  "reason": "highest trump",
  "leadsNext": 4,
  "cloud": null
}
""",
        "",
    )
    assert trick(*args, "-f", "jsonl") == (
        0,
        '{"winner":null,"card":null,"reason":"highest trump","leadsNext":4,"cloud":null}\n',
        "",
    )
    assert trick(*args, "-f", "csv") == (
        0,
        "winner,card,reason,leadsNext,cloud\n,,highest trump,4,\n",
        "",
    )
    assert trick(*args, "-f", "markdown") == (
        0,
        "Nobody takes the trick (the Bomb); card 4 (2S) leads next: highest trump\n",
        "",
    )


def test_cloud_in_csv():
    assert trick("9.75S", "AS", "-f", "csv") == (
        0,
        "winner,card,reason,leadsNext,cloud\n2,AS,highest of the suit led,2,2\n",
        "",
    )


# --- errors: exit 1 naming the card, exit 2 for the command's shape -----------------------------


def test_malformed_card_is_named():
    assert trick("QS", "1H") == (1, "", f"not a card: '1H' {CARD_HINT}\n")


def test_every_problem_on_its_own_line():
    code, out, err = trick("QS", "XX", "qs", "--trump", "Q")
    assert (code, out) == (1, "")
    assert err.splitlines() == [
        "not a trump suit: 'Q' (S, H, D, C or none)",
        f"not a card: 'XX' {CARD_HINT}",
        "card 'QS' is played twice (also as 'qs')",
    ]


def test_bad_card_in_json_mode_prints_no_json():
    assert trick("1H", "-f", "json") == (1, "", f"not a card: '1H' {CARD_HINT}\n")


def test_seven_cards():
    assert trick("2S", "3S", "4S", "5S", "6S", "7S", "8S") == (
        1,
        "",
        "a trick has one to six cards, got 7\n",
    )


def test_five_wizards():
    assert trick("W", "W", "Z", "z", "w") == (1, "", "more than four Wizards\n")


def test_no_card_is_a_usage_error():
    code, out, err = trick()
    assert (code, out) == (2, "")
    assert "Missing argument 'CARD...'" in err


def test_unknown_format_is_a_usage_error():
    code, _, err = trick("2S", "-f", "xml")
    assert code == 2
    assert "xml" in err


def test_trick_is_in_help():
    result = run("trick", "--help")
    assert result.exit_code == 0
    assert "--trump" in result.stdout and "CARD..." in result.stdout


def test_unsupported_cards_one_line_each():
    assert trick("Werwolf", "2S", "Hexe", "vampire", "-f", "json") == (
        1,
        "",
        """\
the Werewolf is played before bidding, not in a trick: 'Werwolf'
the Witch of the 2026 edition is not supported yet: 'Hexe'
the Vampire of the 2026 edition is not supported yet: 'vampire'
""",
    )


def test_every_anniversary_problem_at_once():
    code, out, err = trick(
        "Dragon", "7.5H", "drache", "Shapeshifter", "7½D", "W", "W", "W", "W", "W", "Shapeshifter:W"
    )
    assert (code, out) == (1, "")
    assert err.splitlines() == [
        "a trick has one to six cards, got 11",
        "not a card: 'Shapeshifter' (the Shapeshifter is played as a Wizard or a Jester: "
        "Shapeshifter:W or Shapeshifter:J)",
        "the Dragon is played twice: 'Dragon', 'drache'",
        "the Juggler is played twice: '7.5H', '7½D'",
        "more than four Wizards",
    ]


def test_malformed_anniversary_card_gets_the_hint():
    assert trick("Dragons", "8.5H") == (
        1,
        "",
        f"not a card: 'Dragons' {CARD_HINT}\nnot a card: '8.5H' {CARD_HINT}\n",
    )
