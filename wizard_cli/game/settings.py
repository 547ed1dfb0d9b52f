"""The house rules: every setting's name, type, range and default, and how layers combine.

Precedence (SPEC §2): defaults < the sheet's ``settings:`` < ``--settings FILE`` < ``--set``.
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..errors import Problem, shorten

MIN_PLAYERS, MAX_PLAYERS = 3, 6
DECK_SIZE = 60


@dataclass(frozen=True, slots=True)
class SettingSpec:
    """What one setting may hold, and what it means (for `wizard rules` and error messages)."""

    key: str
    kind: str  # "int", "bool" or "option"
    default: Any
    meaning: str
    app_name: str | None = None
    minimum: int = 0
    maximum: int = 0
    step: int = 1
    options: tuple[str, ...] = ()
    aliases: tuple[tuple[str, str], ...] = ()  # accepted text → option value

    def allowed(self) -> str:
        """The allowed values, as shown in errors and in `wizard rules`."""
        if self.kind == "int":
            return f"{self.minimum}–{self.maximum} in steps of {self.step}"
        if self.kind == "bool":
            return "true or false"
        return ", ".join(self.options)


SPECS: tuple[SettingSpec, ...] = (
    SettingSpec(
        "roundMode",
        "option",
        "wholeDeck",
        "how many rounds, and the hand sizes: deal out the whole deck (1 card, 2, … up to "
        "60 // players); a custom count of rounds; or quick play (hand sizes grow by 2)",
        "Number of rounds",
        options=("wholeDeck", "custom", "quickPlay"),
    ),
    SettingSpec(
        "customRoundCount",
        "int",
        10,
        "rounds to play when roundMode is custom (hand sizes 1..N); at most 60 // players",
        "Rounds to play",
        minimum=1,
        maximum=20,
        step=1,
    ),
    SettingSpec(
        "exactBonus",
        "int",
        20,
        "flat bonus for taking exactly the tricks bid",
        "Bonus for an exact bid",
        minimum=0,
        maximum=50,
        step=5,
    ),
    SettingSpec(
        "pointsPerTrick",
        "int",
        10,
        "points per trick taken, on an exact bid only",
        "Points per trick when correct",
        minimum=0,
        maximum=20,
        step=5,
    ),
    SettingSpec(
        "missPenalty",
        "int",
        10,
        "lost per trick away from the bid, either direction",
        "Penalty per trick missed by",
        minimum=0,
        maximum=30,
        step=5,
    ),
    SettingSpec(
        "zeroBidScoring",
        "option",
        "flatBonus",
        "a made bid of zero scores exactBonus (flatBonus), 2 × exactBonus (doubleBonus), "
        "or exactBonus + pointsPerTrick × hand size (perCardBonus)",
        "Made bid of zero",
        options=("flatBonus", "doubleBonus", "perCardBonus"),
    ),
    SettingSpec(
        "screwTheDealer",
        "option",
        "off",
        "the dealer may not bid so that the bids add up to the hand size: never (off), "
        "always, only when the dealer alone leads (leaderOnly, the even bid rule), or "
        "unless two or more share the lead (unlessTiedLead, the killer rule)",
        "Screw the dealer",
        options=("off", "always", "leaderOnly", "unlessTiedLead"),
        aliases=(("false", "off"), ("true", "always"), ("on", "always")),
    ),
    SettingSpec(
        "canadianRule",
        "bool",
        False,
        "with a dealer restriction on, a dealer bid of 0 is always allowed",
    ),
    SettingSpec(
        "dealerRuleFrom",
        "int",
        1,
        "a dealer restriction applies only in rounds dealing at least this many cards "
        "(2: never in a one-card round)",
        minimum=1,
        maximum=20,
        step=1,
    ),
    SettingSpec(
        "bidding",
        "option",
        "open",
        "open bids; hidden (revealed together); delayed (revealed after the hand); "
        "hidden and delayed rule out screwTheDealer",
        options=("open", "hidden", "delayed"),
    ),
    SettingSpec(
        "perfectGameBonus",
        "int",
        0,
        "end of game: added to every player who made every bid",
        "Bonus for bidding right every round",
        minimum=0,
        maximum=100,
        step=10,
    ),
    SettingSpec(
        "tieBreak",
        "option",
        "shareWin",
        "equal scores share the rank (shareWin), or the higher sum of bids (totalBids) or "
        "more made bids (madeBids) ranks first",
        "Tie-break",
        options=("shareWin", "totalBids", "madeBids"),
    ),
    SettingSpec(
        "finalRoundBonus",
        "int",
        0,
        "added to each made bid in the last round of a finished game",
        minimum=0,
        maximum=50,
        step=5,
    ),
    SettingSpec(
        "balancedBidPenalty",
        "int",
        0,
        "subtracted from the dealer in each round whose bids add up to the hand size",
        minimum=0,
        maximum=30,
        step=5,
    ),
    SettingSpec(
        "specialCards",
        "bool",
        False,
        "the anniversary editions' special cards are in the deck: the last round has a "
        "trump, and rounds may record the Bomb and the Cloud",
    ),
)
SPEC_BY_KEY: dict[str, SettingSpec] = {spec.key: spec for spec in SPECS}
KEYS: tuple[str, ...] = tuple(SPEC_BY_KEY)


def _attr(key: str) -> str:
    """camelCase setting key → snake_case attribute name."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", key).lower()


# Each key's attribute, worked out once: JSON output asks a season's every game for its settings.
ATTRIBUTES: dict[str, str] = {key: _attr(key) for key in KEYS}


@dataclass(frozen=True, slots=True)
class Settings:
    """Every setting's effective value; attributes are the snake_case of the keys."""

    round_mode: str = "wholeDeck"
    custom_round_count: int = 10
    exact_bonus: int = 20
    points_per_trick: int = 10
    miss_penalty: int = 10
    zero_bid_scoring: str = "flatBonus"
    screw_the_dealer: str = "off"
    canadian_rule: bool = False
    dealer_rule_from: int = 1
    bidding: str = "open"
    perfect_game_bonus: int = 0
    tie_break: str = "shareWin"
    final_round_bonus: int = 0
    balanced_bid_penalty: int = 0
    special_cards: bool = False

    @classmethod
    def from_mapping(cls, values: dict[str, Any]) -> Settings:
        """Build from camelCase keys; keys left out take their defaults."""
        return cls(**{ATTRIBUTES.get(key) or _attr(key): value for key, value in values.items()})

    def as_dict(self) -> dict[str, Any]:
        """Every key with its effective value, in the spec's order (JSON ``settings``)."""
        return {key: getattr(self, attribute) for key, attribute in ATTRIBUTES.items()}

    def replace(self, values: dict[str, Any]) -> Settings:
        """A copy with some camelCase keys changed."""
        return Settings.from_mapping({**self.as_dict(), **values})


DEFAULTS = Settings()  # (that the keys are the fields and their defaults the specs': test_settings)


class RawSetting(NamedTuple):
    """A setting as written somewhere: in a YAML mapping (typed) or as ``--set`` text."""

    key: str
    value: Any
    path: str | None = None
    line: int | None = None
    from_text: bool = False  # True for --set KEY=VALUE: the text is read by the key's type
    # (a long CSV's rule cell is text too, read the same way, but located by its path and line)


def suggest(word: str, choices: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the closest choice, or nothing."""
    choices = list(choices)
    folded = {c.lower(): c for c in choices}
    close = folded.get(word.lower()) or next(
        iter(difflib.get_close_matches(word, choices, n=1, cutoff=0.6)), None
    )
    return f" (did you mean '{close}'?)" if close else ""


SHOWN = 40  # characters of a value quoted in a message: a 100 kB cell makes no 100 kB line
_TRUE_WORDS = {"true", "yes", "on"}
_FALSE_WORDS = {"false", "no", "off"}
_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]{1,9}")


def _typed_value(spec: SettingSpec, value: Any, from_text: bool) -> tuple[Any, str | None]:
    """Read a raw value as the setting's type: (value, None) or (None, why not)."""
    shown = shorten(value if from_text else value_text(value), SHOWN)
    if spec.kind == "int":
        if from_text and _WHOLE_NUMBER.fullmatch(value.strip()):
            return int(value), None
        if not from_text and isinstance(value, int) and not isinstance(value, bool):
            return value, None
        return None, f"'{shown}' is not a whole number (allowed: {spec.allowed()})"
    if spec.kind == "bool":
        if from_text and value.strip().lower() in _TRUE_WORDS | _FALSE_WORDS:
            return value.strip().lower() in _TRUE_WORDS, None
        if not from_text and isinstance(value, bool):
            return value, None
        return None, f"'{shown}' is not true or false"
    aliases = dict(spec.aliases)
    if isinstance(value, bool) and aliases:  # YAML reads on/off/true/false as flags
        value = value_text(value)
    if isinstance(value, str):
        text = value.strip() if from_text else value
        if text in spec.options:
            return text, None
        if text.lower() in aliases:
            return aliases[text.lower()], None
        return (
            None,
            f"'{shorten(text, SHOWN)}' is not an option (allowed: {spec.allowed()})"
            f"{suggest(text, spec.options)}",
        )
    return None, f"'{shown}' is not an option (allowed: {spec.allowed()})"


def value_text(value: Any) -> str:
    """A setting's value as written: ``true``/``false`` for a flag, ``null``, ``30``, ``doubleBonus``.

    The one place a value becomes text, for messages, rule-set names, ``--set`` flags and cells.
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    return "null" if value is None else str(value)


def check_value(spec: SettingSpec, value: Any) -> str | None:
    """Why a typed value is out of range or off its step, or None if it is allowed."""
    if spec.kind != "int":
        return None
    if not spec.minimum <= value <= spec.maximum or (value - spec.minimum) % spec.step:
        return f"{value} is not allowed (allowed: {spec.allowed()})"
    return None


def read_setting(raw: RawSetting) -> tuple[Any, Problem | None]:
    """Check one raw setting: its typed value, or a problem naming key, value and what is allowed."""
    spec = SPEC_BY_KEY.get(raw.key) if isinstance(raw.key, str) else None
    key = shorten(str(raw.key), SHOWN)
    where = (
        f"--set {key}={shorten(str(raw.value), SHOWN)}: "
        if raw.from_text and raw.path is None
        else ""
    )
    if spec is None:
        hint = suggest(str(raw.key), KEYS)
        return None, Problem(f"{where}unknown setting '{key}'{hint}", raw.path, raw.line)
    value, why = _typed_value(spec, raw.value, raw.from_text)
    if why is None:
        why = check_value(spec, value)
    if why is None:
        return value, None
    return None, Problem(
        f"{where}{why}" if where else f"setting {spec.key}: {why}", raw.path, raw.line
    )


def parse_assignment(text: str) -> RawSetting:
    """``KEY=VALUE`` from ``--set`` → a raw setting (a missing ``=`` keeps the value empty)."""
    key, _, value = text.partition("=")
    return RawSetting(key.strip(), value, path=None, line=None, from_text=True)


def command_line_settings(
    assignments: Iterable[str] | None, zero_bid: str | None
) -> list[RawSetting]:
    """``--set KEY=VALUE…`` and ``--zero-bid Z`` as one layer of raw settings, ``--zero-bid``
    last so that it wins over ``--set zeroBidScoring=…`` (checked by the caller)."""
    layer = [parse_assignment(text) for text in assignments or ()]
    if zero_bid is not None:
        layer.append(RawSetting("zeroBidScoring", zero_bid, from_text=True))
    return layer


def rounds_for_deck(players: int) -> int:
    """Rounds in a game that deals the whole deck: 20 / 15 / 12 / 10 for 3 / 4 / 5 / 6 players."""
    return DECK_SIZE // players


@functools.lru_cache(maxsize=64)
def hand_sizes(settings: Settings, players: int) -> tuple[int, ...]:
    """Cards dealt to each player in rounds 1..N under the settings (worked out once)."""
    deck_rounds = rounds_for_deck(players)
    if settings.round_mode == "custom":
        return tuple(range(1, settings.custom_round_count + 1))
    if settings.round_mode == "quickPlay":
        # Count down from the whole deck by 2 so the last round deals every card (SPEC §2).
        return tuple(range(deck_rounds, 0, -2))[::-1]
    return tuple(range(1, deck_rounds + 1))


class Resolved(NamedTuple):
    """The effective settings for one sheet, where each came from, and what was wrong."""

    settings: Settings
    sources: dict[str, RawSetting]
    problems: list[Problem]


def resolve(layers: Iterable[Iterable[RawSetting]], players: int | None) -> Resolved:
    """Combine layers (lowest precedence first) into effective settings, collecting every problem.

    A bad value keeps the lower layer's value, so later checks still have a sane rule set.
    ``players`` (when known and valid) bounds ``customRoundCount`` under ``custom``.
    """
    values: dict[str, Any] = {}
    sources: dict[str, RawSetting] = {}
    problems: list[Problem] = []
    for layer in layers:
        for raw in layer:
            value, problem = read_setting(raw)
            if problem:
                problems.append(problem)
            else:
                values[raw.key] = value
                sources[raw.key] = raw
    settings = Settings.from_mapping(values)
    settings, combination_problems = _check_combination(settings, sources, players)
    return Resolved(settings, sources, problems + combination_problems)


def _check_combination(
    settings: Settings, sources: dict[str, RawSetting], players: int | None
) -> tuple[Settings, list[Problem]]:
    """Settings that contradict each other or the table size; falls back to a usable rule set."""
    problems = []
    if settings.bidding != "open" and settings.screw_the_dealer != "off":
        raw = sources.get("screwTheDealer") or sources.get("bidding")
        problems.append(
            _located(
                raw,
                f"screwTheDealer={settings.screw_the_dealer} needs open bids, but bidding is "
                f"{settings.bidding} (a dealer restriction makes no sense with hidden bids)",
            )
        )
        settings = settings.replace({"screwTheDealer": "off"})
    if (
        settings.round_mode == "custom"
        and players
        and MIN_PLAYERS <= players <= MAX_PLAYERS
        and settings.custom_round_count > rounds_for_deck(players)
    ):
        most = rounds_for_deck(players)
        problems.append(
            _located(
                sources.get("customRoundCount") or sources.get("roundMode"),
                f"customRoundCount {settings.custom_round_count} is more rounds than {players} "
                f"players can be dealt (at most {most})",
            )
        )
        settings = settings.replace({"customRoundCount": most})
    return settings, problems


def _located(raw: RawSetting | None, message: str) -> Problem:
    """A settings problem placed where the offending value was written."""
    if raw is None:
        return Problem(message)
    if raw.from_text and raw.path is None:
        return Problem(f"--set {raw.key}={raw.value}: {message}")
    return Problem(message, raw.path, raw.line)
