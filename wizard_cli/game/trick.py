"""Who wins one trick of Wizard: parse the cards played, check them, decide.

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

MIN_CARDS = 1
MAX_CARDS = 6
MAX_SPECIALS = 4  # four Wizards and four Jesters in the deck

REASON_WIZARD = "first Wizard"
REASON_TRUMP = "highest trump"
REASON_LED = "highest of the suit led"
REASON_JESTERS = "all Jesters"

CARD_HINT = "(a rank 2-10, J, Q, K, A and a suit S, H, D, C; or W/Z for a Wizard, J/N for a Jester)"
TRUMP_HINT = "(S, H, D, C or none)"

SUITS = {"S": "S", "H": "H", "D": "D", "C": "C", "♠": "S", "♥": "H", "♦": "D", "♣": "C"}
RANKS = {str(n): n for n in range(2, 11)} | {"J": 11, "Q": 12, "K": 13, "A": 14}
RANK_NAMES = {rank: name for name, rank in RANKS.items()}
# A lone letter is a special card; "J" alone is a Jester, while "JS" is the Jack of spades.
SPECIALS = {"W": WIZARD, "Z": WIZARD, "J": JESTER, "N": JESTER}


@dataclass(frozen=True, slots=True)
class Card:
    """One card: a Wizard, a Jester, or a suited card with rank 2..14 (J=11 .. A=14)."""

    kind: str
    rank: int | None
    suit: str | None

    def __str__(self) -> str:
        """Canonical text: ``W``, ``J`` (the Jester), ``10H``, ``QS``."""
        if self.kind == WIZARD:
            return "W"
        if self.kind == JESTER:
            return "J"
        return f"{RANK_NAMES[self.rank]}{self.suit}"


@dataclass(frozen=True, slots=True)
class TrickResult:
    """The winner of a trick: its 1-based position, the card, and the rule that decided it."""

    position: int
    card: Card
    reason: str


def parse_card(text: str) -> Card:
    """Read one card as typed (any case, surrounding whitespace, suit letters or symbols)."""
    card = _read_card(text)
    if card is None:
        raise WizardError(_not_a_card(text))
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
    parsed = [_read_card(text) for text in cards]
    problems += [_not_a_card(text) for text, card in zip(cards, parsed) if card is None]
    problems += _duplicate_problems(cards, parsed)
    problems += _special_count_problems(parsed)
    if problems:
        raise WizardError(*problems)
    return _decide(parsed, trump_suit)


def _read_card(text: str) -> Card | None:
    """The card ``text`` names, or None if it names none."""
    key = text.strip().upper()
    if key in SPECIALS:
        return Card(SPECIALS[key], None, None)
    rank, suit = RANKS.get(key[:-1]), SUITS.get(key[-1:])
    if rank is None or suit is None:
        return None
    return Card(SUITED, rank, suit)


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
    """One problem per suited card played more than once (the deck has one of each)."""
    typed: dict[Card, list[str]] = {}
    for text, card in zip(texts, parsed):
        if card is not None and card.kind == SUITED:
            typed.setdefault(card, []).append(text.strip())
    return [_duplicate_message(spellings) for spellings in typed.values() if len(spellings) > 1]


def _duplicate_message(spellings: list[str]) -> str:
    """Name a repeated card as first typed, and its other spellings if they differ."""
    times = "twice" if len(spellings) == 2 else f"{len(spellings)} times"
    message = f"card '{spellings[0]}' is played {times}"
    others = [s for s in dict.fromkeys(spellings[1:]) if s != spellings[0]]
    if others:
        message += " (also as " + ", ".join(f"'{s}'" for s in others) + ")"
    return message


def _special_count_problems(parsed: list[Card | None]) -> list[str]:
    """A problem for each special card played more often than the deck holds it."""
    counts = Counter(card.kind for card in parsed if card is not None)
    names = {WIZARD: "Wizards", JESTER: "Jesters"}
    return [f"more than four {names[kind]}" for kind in (WIZARD, JESTER) if counts[kind] > MAX_SPECIALS]


def _decide(cards: list[Card], trump: str | None) -> TrickResult:
    """Apply the rules in order: first Wizard, highest trump, highest of the suit led, all Jesters."""
    wizards = [i for i, card in enumerate(cards) if card.kind == WIZARD]
    if wizards:
        return _result(cards, wizards[0], REASON_WIZARD)
    if trump is not None and (best := _highest_of(cards, trump)) is not None:
        return _result(cards, best, REASON_TRUMP)
    # Jesters set no suit: the first non-Jester card (here always suited) decides the suit led.
    led = next((card.suit for card in cards if card.kind == SUITED), None)
    if led is None:
        return _result(cards, 0, REASON_JESTERS)
    return _result(cards, _highest_of(cards, led), REASON_LED)


def _highest_of(cards: list[Card], suit: str) -> int | None:
    """Index of the highest card of ``suit``, or None if none was played (suited cards are unique)."""
    of_suit = [i for i, card in enumerate(cards) if card.kind == SUITED and card.suit == suit]
    return max(of_suit, key=lambda i: cards[i].rank, default=None)


def _result(cards: list[Card], index: int, reason: str) -> TrickResult:
    """Build the result for the card at 0-based ``index``."""
    return TrickResult(index + 1, cards[index], reason)
