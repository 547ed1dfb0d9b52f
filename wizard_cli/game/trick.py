"""Who wins one trick of Wizard: parse the cards played, check them, decide.

The classic deck's Wizards, Jesters and suited cards, and the anniversary editions' special cards
(SPEC §5 ``trick``): the Dragon, the Fairy, the Bomb, the Juggler and the Cloud (suited cards
between the numbers), and the Shapeshifter played as a Wizard or a Jester.

Pure: no printing, no CLI. Bad input raises :class:`WizardError`, one problem per fault.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from wizard_cli.errors import WizardError

WIZARD = "wizard"
JESTER = "jester"
SUITED = "suited"
DRAGON = "dragon"
FAIRY = "fairy"
BOMB = "bomb"

MIN_CARDS = 1
MAX_CARDS = 6
MAX_SPECIALS = 4  # four Wizards and four Jesters in the deck

REASON_WIZARD = "first Wizard"
REASON_TRUMP = "highest trump"
REASON_LED = "highest of the suit led"
REASON_JESTERS = "all Jesters"
REASON_DRAGON = "Dragon beats every card"
REASON_FAIRY = "Fairy beats the Dragon"
REASON_JESTER_OVER_FAIRY = "first Jester, above the Fairy"
REASON_FAIRY_ALONE = "Fairy alone"

CARD_HINT = (
    "(a rank 2-10, J, Q, K, A and a suit S, H, D, C; W/Z for a Wizard, J/N for a Jester; "
    "Dragon, Fairy, Bomb, Shapeshifter:W or Shapeshifter:J; 7.5 or 9.75 and a suit for the "
    "Juggler or the Cloud)"
)
TRUMP_HINT = "(S, H, D, C or none)"

SUITS = {"S": "S", "H": "H", "D": "D", "C": "C", "♠": "S", "♥": "H", "♦": "D", "♣": "C"}
JUGGLER_RANK = 7.5  # between 7 and 8 of its suit
CLOUD_RANK = 9.75  # between 9 and 10 of its suit
RANKS = (
    {str(n): n for n in range(2, 11)}
    | {"J": 11, "Q": 12, "K": 13, "A": 14}
    | {"7.5": JUGGLER_RANK, "7½": JUGGLER_RANK, "9.75": CLOUD_RANK, "9¾": CLOUD_RANK}
)
RANK_NAMES = {rank: name for name, rank in RANKS.items() if name.isascii()}
# A lone letter is a special card; "J" alone is a Jester, while "JS" is the Jack of spades.
SPECIALS = {"W": WIZARD, "Z": WIZARD, "J": JESTER, "N": JESTER}
# The anniversary cards by name, English and German, compared in lower case.
NAMED = {
    "dragon": DRAGON,
    "drache": DRAGON,
    "fairy": FAIRY,
    "fee": FAIRY,
    "bomb": BOMB,
    "bombe": BOMB,
}
NAME_TEXT = {DRAGON: "Dragon", FAIRY: "Fairy", BOMB: "Bomb"}
SHAPESHIFTER_NAMES = ("shapeshifter", "gestaltwandler")
NOT_IN_A_TRICK = {
    "werewolf": "the Werewolf is played before bidding, not in a trick",
    "werwolf": "the Werewolf is played before bidding, not in a trick",
    "witch": "the Witch of the 2026 edition is not supported yet",
    "hexe": "the Witch of the 2026 edition is not supported yet",
    "vampire": "the Vampire of the 2026 edition is not supported yet",
    "vampir": "the Vampire of the 2026 edition is not supported yet",
}


@dataclass(frozen=True, slots=True)
class Card:
    """One card: a Wizard, a Jester, a suited card with rank 2..14 (J=11 .. A=14; the Juggler
    7.5, the Cloud 9.75), the Dragon, the Fairy or the Bomb. The Shapeshifter is a Wizard or a
    Jester with ``shapeshifter`` set: it plays as one, but is not one of the four in the deck."""

    kind: str
    rank: int | float | None
    suit: str | None
    shapeshifter: bool = False

    def __str__(self) -> str:
        """Canonical text: ``W``, ``J`` (the Jester), ``10H``, ``QS``, ``7.5H``, ``Dragon``,
        ``Shapeshifter:W``."""
        if self.shapeshifter:
            return "Shapeshifter:W" if self.kind == WIZARD else "Shapeshifter:J"
        if self.kind == WIZARD:
            return "W"
        if self.kind == JESTER:
            return "J"
        if self.kind in NAME_TEXT:
            return NAME_TEXT[self.kind]
        assert self.rank is not None  # a suited card has a rank
        return f"{RANK_NAMES[self.rank]}{self.suit}"

    @property
    def special(self) -> str | None:
        """The anniversary card this is (``Dragon``, ``Juggler``, ``Shapeshifter``, …), or None.
        The deck holds one of each, whatever it is played as."""
        if self.shapeshifter:
            return "Shapeshifter"
        if self.kind in NAME_TEXT:
            return NAME_TEXT[self.kind]
        if self.rank is None:
            return None
        return {JUGGLER_RANK: "Juggler", CLOUD_RANK: "Cloud"}.get(self.rank)


@dataclass(frozen=True, slots=True)
class TrickResult:
    """Who takes a trick: the 1-based position, the card, and the rule that decided it.

    With the Bomb (``bomb``) nobody takes the trick: ``position`` and ``card`` are then those of
    the one who would have taken it, the Bomb counting as a Jester, who leads the next trick.
    ``with_cloud``: the Cloud is in the trick.
    """

    position: int
    card: Card
    reason: str
    bomb: bool = False
    with_cloud: bool = False

    @property
    def cloud(self) -> int | None:
        """The position that must change their bid: the Cloud's taker. A Cloud in the Bomb's
        trick changes nobody's bid: nobody takes that trick (SPEC §1)."""
        return self.position if self.with_cloud and not self.bomb else None


def parse_card(text: str) -> Card:
    """Read one card as typed (any case, surrounding whitespace, suit letters or symbols)."""
    card = _read_card(text)
    if isinstance(card, str):
        raise WizardError(card)
    return card


def parse_trump(text: str | None) -> str | None:
    """Read the trump suit as a letter ``S``/``H``/``D``/``C``; ``none`` or None means no trump."""
    if text is None:
        return None
    key = text.strip().upper()
    if key == "NONE":
        return None
    if key in SUITS:
        return SUITS[key]
    raise WizardError(f"not a trump suit: '{text.strip()}' {TRUMP_HINT}")


def winning_card(cards: Sequence[str], trump: str | None = None) -> TrickResult:
    """Parse and check a trick, then say which card wins it and why."""
    if isinstance(cards, str):
        raise TypeError("cards must be a sequence of card strings, not one string")
    problems, trump_suit = _trump_problems(trump)
    if not MIN_CARDS <= len(cards) <= MAX_CARDS:
        problems.append(f"a trick has one to six cards, got {len(cards)}")
    read = [_read_card(text) for text in cards]
    problems += [card for card in read if isinstance(card, str)]
    parsed = [card if isinstance(card, Card) else None for card in read]
    problems += _duplicate_problems(cards, parsed)
    problems += _special_count_problems(parsed)
    if problems:
        raise WizardError(*problems)
    return _decide([card for card in parsed if card is not None], trump_suit)  # (all are, now)


def _read_card(text: str) -> Card | str:
    """The card ``text`` names, or the problem with it."""
    key = text.strip().upper()
    if key in SPECIALS:
        return Card(SPECIALS[key], None, None)
    rank, suit = RANKS.get(key[:-1]), SUITS.get(key[-1:])
    if rank is not None and suit is not None:
        return Card(SUITED, rank, suit)
    # Names are ASCII: lower() of other text could turn a look-alike letter into one of theirs.
    name = text.strip().lower() if text.isascii() else ""
    if name in NAMED:
        return Card(NAMED[name], None, None)
    if name in NOT_IN_A_TRICK:
        return f"{NOT_IN_A_TRICK[name]}: '{text.strip()}'"
    before, colon, played_as = name.partition(":")
    if before.strip() in SHAPESHIFTER_NAMES:
        kind = SPECIALS.get(played_as.strip().upper()) if colon else None
        if kind is None:
            return (
                f"not a card: '{text.strip()}' (the Shapeshifter is played as a Wizard or a "
                "Jester: Shapeshifter:W or Shapeshifter:J)"
            )
        return Card(kind, None, None, shapeshifter=True)
    return _not_a_card(text)


def _not_a_card(text: str) -> str:
    """The message for a malformed card, naming it as typed."""
    return f"not a card: '{text.strip()}' {CARD_HINT}"


def _trump_problems(trump: str | None) -> tuple[list[str], str | None]:
    """Parse the trump, turning an error into problems so they report with the cards'."""
    try:
        return [], parse_trump(trump)
    except WizardError as error:
        return [p.message for p in error.problems], None


def _duplicate_problems(texts: Sequence[str], parsed: list[Card | None]) -> list[str]:
    """One problem per card played more than once: a suited card (the deck has one of each),
    or an anniversary card, one in the deck whatever suit or part it is played as."""
    typed: dict[Card | str, list[str]] = {}
    for text, card in zip(texts, parsed):
        if card is not None and (card.special is not None or card.kind == SUITED):
            typed.setdefault(card.special or card, []).append(text.strip())
    return [
        _duplicate_message(card, spellings)
        for card, spellings in typed.items()
        if len(spellings) > 1
    ]


def _duplicate_message(card: Card | str, spellings: list[str]) -> str:
    """Name a repeated card as first typed, and its other spellings if they differ; an
    anniversary card by its name, with every spelling."""
    times = "twice" if len(spellings) == 2 else f"{len(spellings)} times"
    if isinstance(card, str):
        return f"the {card} is played {times}: " + ", ".join(f"'{s}'" for s in spellings)
    message = f"card '{spellings[0]}' is played {times}"
    others = [s for s in dict.fromkeys(spellings[1:]) if s != spellings[0]]
    if others:
        message += " (also as " + ", ".join(f"'{s}'" for s in others) + ")"
    return message


def _special_count_problems(parsed: list[Card | None]) -> list[str]:
    """A problem for each special card played more often than the deck holds it (the
    Shapeshifter is none of the four Wizards or Jesters)."""
    counts = Counter(card.kind for card in parsed if card is not None and not card.shapeshifter)
    names = {WIZARD: "Wizards", JESTER: "Jesters"}
    return [
        f"more than four {names[kind]}" for kind in (WIZARD, JESTER) if counts[kind] > MAX_SPECIALS
    ]


def _decide(cards: list[Card], trump: str | None) -> TrickResult:
    """Who takes the trick, or with the Bomb who would have; whether the Cloud is in it."""
    index, reason = _taker(cards, trump)
    bomb = any(card.kind == BOMB for card in cards)
    cloud = any(card.special == "Cloud" for card in cards)
    return TrickResult(index + 1, cards[index], reason, bomb, cloud)


def _taker(cards: list[Card], trump: str | None) -> tuple[int, str]:
    """The rules in order: the Dragon (the Fairy beats it), first Wizard, highest trump, highest
    of the suit led, first Jester, the Fairy alone. The Bomb counts as a Jester (SPEC §5)."""
    kinds = [card.kind for card in cards]
    if DRAGON in kinds:
        if FAIRY in kinds:
            return kinds.index(FAIRY), REASON_FAIRY
        return kinds.index(DRAGON), REASON_DRAGON
    if WIZARD in kinds:  # the Shapeshifter played as a Wizard is one: the first Wizard wins
        return kinds.index(WIZARD), REASON_WIZARD
    if trump is not None and (best := _highest_of(cards, trump)) is not None:
        return best, REASON_TRUMP
    # Jesters, the Fairy and the Bomb set no suit: the first suited card decides the suit led.
    led = next((card.suit for card in cards if card.kind == SUITED), None)
    if led is not None:
        best = _highest_of(cards, led)
        assert best is not None  # the card that set the suit led is of it
        return best, REASON_LED
    # Without the Dragon the Fairy is lowest, below the Jesters: it takes only a trick alone.
    jesters = [i for i, kind in enumerate(kinds) if kind in (JESTER, BOMB)]
    if jesters:
        return jesters[0], REASON_JESTER_OVER_FAIRY if FAIRY in kinds else REASON_JESTERS
    return kinds.index(FAIRY), REASON_FAIRY_ALONE


def _highest_of(cards: list[Card], suit: str) -> int | None:
    """Index of the highest card of ``suit``, or None if none was played (suited cards are unique)."""
    ranks = {
        i: card.rank
        for i, card in enumerate(cards)
        if card.kind == SUITED and card.suit == suit and card.rank is not None
    }
    return max(ranks, key=ranks.__getitem__, default=None)
