"""The same game under several rule sets (SPEC §5 ``compare``): presets, rule sets, warnings.

Rule set 0 is the sheet's own rules; every other rule set is a layer of settings applied over
them. Each is scored by the one scoring function; nothing here reads files or prints.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..errors import Problem, WizardError
from .game import Game, GameResult, score_game
from .round_values import special_card_problems
from .settings import (
    KEYS,
    SPECS,
    RawSetting,
    Settings,
    SettingSpec,
    command_line_settings,
    hand_sizes,
    read_setting,
    resolve,
    suggest,
    value_text,
)
from .validation import dealer_violations

SHEET_RULES = "sheet"  # the name of rule set 0
DEFAULT_PRESET = "official"  # compared against when nothing else is asked for
DEAL_KEYS = ("roundMode", "customRoundCount", "specialCards")  # how the cards were dealt (§5)


@dataclass(frozen=True, slots=True)
class Preset:
    """A named, partial rule set: built in, or from the user's ``--presets`` file."""

    name: str
    settings: tuple[RawSetting, ...]
    meaning: str = ""
    source: str | None = None  # the presets file it came from (None: built in)

    def values(self) -> dict[str, Any]:
        """The settings it overrides, as typed values (checked when the preset was made)."""
        return {raw.key: read_setting(raw)[0] for raw in self.settings}


def _built_in(name: str, meaning: str, **values: Any) -> Preset:
    """A built-in preset: it overrides exactly the settings it names."""
    return Preset(name, tuple(RawSetting(key, value) for key, value in values.items()), meaning)


BUILT_IN_PRESETS: tuple[Preset, ...] = (
    _built_in(
        "official",
        "the published rules (round count and bidding untouched)",
        exactBonus=20,
        pointsPerTrick=10,
        missPenalty=10,
        zeroBidScoring="flatBonus",
        screwTheDealer="off",
        canadianRule=False,
        perfectGameBonus=0,
        finalRoundBonus=0,
        balancedBidPenalty=0,
        tieBreak="totalBids",
    ),
    _built_in(
        "doubleZero",
        "a made bid of zero scores twice the exact bonus",
        zeroBidScoring="doubleBonus",
    ),
    _built_in(
        "screwTheDealer",
        "the dealer may never make the bids add up to the hand size",
        screwTheDealer="always",
    ),
    _built_in(
        "canadian",
        "the even bid rule, where a dealer bid of zero is always allowed",
        screwTheDealer="leaderOnly",
        canadianRule=True,
    ),
    _built_in(
        "perfectGame", "50 points at the end for everyone who made every bid", perfectGameBonus=50
    ),
)


@dataclass(frozen=True, slots=True)
class RuleSet:
    """One column of a comparison: its name and the settings it lays over the sheet's own."""

    name: str
    layer: tuple[RawSetting, ...] = ()
    preset: str | None = None  # the preset it came from: named per sheet by what it changes


@dataclass(frozen=True, slots=True)
class BidWarning:
    """A recorded dealer bid that a rule set would have forbidden (scored all the same)."""

    rule_set: str
    round: int
    dealer: str
    bid: int
    path: str | None = None
    line: int | None = None

    def __str__(self) -> str:
        return (
            f"under {self.rule_set}, round {self.round}: {self.dealer}'s bid of {self.bid} "
            "would have been forbidden"
        )

    def problem(self) -> Problem:
        """The warning placed where the dealer's bid stands (for stderr)."""
        return Problem(str(self), self.path, self.line)


@dataclass(frozen=True, slots=True)
class Scored:
    """A sheet scored under one rule set, with what that rule set changes against rule set 0."""

    rule_set: RuleSet
    result: GameResult
    changes: dict[str, Any]
    name: str  # what the rule set changes (SPEC §5), e.g. "zeroBidScoring=doubleBonus"

    @property
    def settings(self) -> Settings:
        """Every setting's effective value under this rule set."""
        return self.result.settings

    def by_seat(self) -> list[tuple[int, int]]:
        """(score, rank) of each player in seating order."""
        ordered = sorted(self.result.standings, key=lambda st: st.seat)
        return [(st.score, st.rank) for st in ordered]


@dataclass(frozen=True, slots=True)
class Comparison:
    """One sheet under every rule set; ``scored[0]`` is the sheet's own rules."""

    source: str
    game: str | int | None
    title: str | None
    players: tuple[str, ...]
    scored: tuple[Scored, ...]
    warnings: tuple[BidWarning, ...]

    def scores(self, seat: int) -> list[int]:
        """A player's score under each rule set."""
        return [s.by_seat()[seat][0] for s in self.scored]

    def ranks(self, seat: int) -> list[int]:
        """A player's rank under each rule set."""
        return [s.by_seat()[seat][1] for s in self.scored]

    def as_json(self) -> dict[str, Any]:
        """The comparison as ``compare --format json`` prints it (SPEC §5), as Python values."""
        return {
            "source": self.source,
            "game": self.game,
            "rulesets": [{"name": s.name, "settings": s.settings.as_dict()} for s in self.scored],
            "players": [
                {"player": name, "scores": self.scores(seat), "ranks": self.ranks(seat)}
                for seat, name in enumerate(self.players)
            ],
            "warnings": [str(w) for w in self.warnings],
        }


# --- presets -----------------------------------------------------------------------------


def user_presets(
    entries: Iterable[tuple[str, int, list[RawSetting]]],
    source: str,
    problems: Sequence[Problem] = (),
) -> list[Preset]:
    """The presets of a ``--presets`` file, every setting checked; all problems (with those
    found while reading it) raised at once, in file order."""
    built_in = {preset.name for preset in BUILT_IN_PRESETS}
    problems = list(problems)
    presets = []
    for name, line, raws in entries:
        found = _preset_problems(name, line, raws, source, built_in)
        problems += found
        if not found:
            presets.append(Preset(name, tuple(raws), f"from {source}", source))
    if problems:
        raise WizardError(*sorted(problems, key=lambda problem: problem.line or 0))
    return presets


def _preset_problems(
    name: str, line: int, raws: Sequence[RawSetting], source: str, built_in: set[str]
) -> list[Problem]:
    """What is wrong with one user preset: its name, a deal setting, a bad or clashing value."""
    if name in built_in:
        return [Problem(f"preset '{name}' is built in; give yours another name", source, line)]
    problems = []
    for raw in raws:
        if raw.key in DEAL_KEYS:
            problems.append(
                Problem(
                    f"preset '{name}': {raw.key} cannot be set in a preset (presets change scoring "
                    "and bidding rules, never how the cards were dealt)",
                    raw.path,
                    raw.line,
                )
            )
            continue
        problem = read_setting(raw)[1]
        if problem:
            problems.append(
                Problem(f"preset '{name}': {problem.message}", problem.path, problem.line)
            )
    if not problems:
        problems += [
            Problem(f"preset '{name}': {p.message}", p.path, p.line)
            for p in resolve([raws], None).problems
        ]
    return problems


def preset_catalogue(extra: Iterable[Preset] = ()) -> dict[str, Preset]:
    """Every preset by name: the built-in ones, then the user's."""
    return {preset.name: preset for preset in (*BUILT_IN_PRESETS, *extra)}


def unknown_preset(name: str, catalogue: dict[str, Preset]) -> Problem:
    """An unknown preset name, with the closest one and the list of them all."""
    return Problem(
        f"--preset {name}: unknown preset{suggest(name, catalogue)} "
        f"(presets: {', '.join(catalogue)})"
    )


# --- rule sets ---------------------------------------------------------------------------


def command_line_layer(assignments: Sequence[str] | None, zero_bid: str | None) -> list[RawSetting]:
    """``--zero-bid`` and ``--set`` as one layer, each value checked for type and range.

    ``--zero-bid`` goes last so that it wins over ``--set zeroBidScoring=…``, as in ``score``.
    """
    layer = command_line_settings(assignments, zero_bid)
    problems = [problem for raw in layer if (problem := read_setting(raw)[1])]
    if problems:
        raise WizardError(*problems)
    return layer


def command_line_name(layer: Sequence[RawSetting]) -> str:
    """``zeroBidScoring=doubleBonus, exactBonus=30``: each key once, ``--zero-bid`` first, with
    the value that takes effect, written as the setting's own value."""
    values = {raw.key: read_setting(raw)[0] for raw in layer}  # later ones win, as in resolve
    keys = sorted(
        values, key=lambda key: (key != "zeroBidScoring", [raw.key for raw in layer].index(key))
    )
    return ", ".join(f"{key}={value_text(values[key])}" for key in keys)


def choose_rule_sets(
    preset_names: Sequence[str], catalogue: dict[str, Preset], command_line: Sequence[RawSetting]
) -> list[RuleSet]:
    """Rule set 0, one per ``--preset``, one for all of ``--set``/``--zero-bid``; with none of
    those, the ``official`` preset."""
    unknown = [unknown_preset(name, catalogue) for name in preset_names if name not in catalogue]
    if unknown:
        raise WizardError(*unknown)
    rule_sets = [RuleSet(SHEET_RULES)]
    for name in preset_names:
        preset = catalogue[name]
        rule_sets.append(RuleSet(preset.name, preset.settings, preset.name))
    if command_line:
        rule_sets.append(RuleSet(command_line_name(command_line), tuple(command_line)))
    if len(rule_sets) == 1:
        official = catalogue[DEFAULT_PRESET]
        rule_sets.append(RuleSet(official.name, official.settings, official.name))
    return rule_sets


def describe_changes(changes: dict[str, Any]) -> str:
    """``tieBreak=totalBids, exactBonus=30``: what a rule set changes against the sheet's rules."""
    return ", ".join(f"{key}={value_text(value)}" for key, value in changes.items())


# --- scoring a sheet under each rule set ---------------------------------------------------


def compare_sheet(
    game: Game, rule_sets: Sequence[RuleSet], layers: Sequence[Iterable[RawSetting]] = ()
) -> Comparison:
    """Score a validated game under every rule set; ``layers`` are ``--settings`` (as for ``score``).

    Raises WizardError naming the rule set if one cannot apply to this sheet.
    """
    sheet = game.sheet
    own = score_game(game)
    scored = [Scored(rule_sets[0], own, {}, rule_sets[0].name)]
    warnings: list[BidWarning] = []
    for rule_set in rule_sets[1:]:
        settings = _rule_set_settings(game, rule_set, layers)
        result = score_game(game.with_settings(settings))
        changes = _changes(game.settings, settings)
        name = rule_set.name
        if rule_set.preset is not None:  # a preset is named by what it changes on this sheet
            name = describe_changes(changes) or rule_set.preset
        scored.append(Scored(rule_set, result, changes, name))
        warnings += [
            BidWarning(name, number, dealer, bid, sheet.where, _bid_line(game, number, dealer))
            for number, dealer, bid in dealer_violations(result)
        ]
    return Comparison(
        sheet.source, sheet.game, sheet.title, tuple(sheet.players), tuple(scored), tuple(warnings)
    )


def _rule_set_settings(
    game: Game, rule_set: RuleSet, layers: Sequence[Iterable[RawSetting]]
) -> Settings:
    """The rule set's effective settings for this sheet, or an error if it cannot apply."""
    sheet = game.sheet
    count = len(sheet.players)
    resolved = resolve([sheet.settings, *layers, rule_set.layer], count)
    if resolved.problems:
        raise WizardError(
            *(
                _cannot_apply(game, rule_set, _without_set_prefix(p.message), p.path, p.line)
                for p in resolved.problems
            )
        )
    settings = resolved.settings
    recorded = len(sheet.rounds)
    own_sizes = hand_sizes(game.settings, count)[:recorded]
    sizes = hand_sizes(settings, count)
    if len(sizes) < recorded:
        raise WizardError(
            _cannot_apply(
                game,
                rule_set,
                f"its game ends after round {len(sizes)}, but the sheet records {recorded} rounds",
            )
        )
    for number, (dealt, would_deal) in enumerate(zip(own_sizes, sizes), start=1):
        if dealt != would_deal:
            raise WizardError(
                _cannot_apply(
                    game,
                    rule_set,
                    f"it changes the deal: round {number} would deal "
                    f"{would_deal} cards each, but {dealt} were dealt",
                )
            )
    # A Bomb or a Cloud recorded needs specialCards: true (SPEC §1): a rule set switching it off
    # cannot apply, and says so where score would (SPEC §5).
    found = (
        []
        if settings.special_cards
        else [
            replace(problem, message=f"rule set '{rule_set.name}' cannot apply: {problem.message}")
            for record, size in zip(sheet.rounds, sizes)
            for problem in special_card_problems(sheet, record, size, settings)
        ]
    )
    if found:
        raise WizardError(*found)
    return settings


def _cannot_apply(
    game: Game, rule_set: RuleSet, why: str, path: str | None = None, line: int | None = None
) -> Problem:
    """An error naming the rule set, placed where the offending value was written."""
    source, game_id = game.sheet.source, game.sheet.game
    target = [source] if path not in (None, source) else []
    target += [f"game {game_id}"] if game_id is not None else []
    target_text = f" to {', '.join(target)}" if target else ""
    return Problem(
        f"rule set '{rule_set.name}' cannot apply{target_text}: {why}",
        path or source,
        line if path else None,
    )


def _without_set_prefix(message: str) -> str:
    """A settings message without its ``--set K=V:`` prefix: the rule set's name says it."""
    return message.split(": ", 1)[1] if message.startswith("--set ") else message


def _changes(own: Settings, other: Settings) -> dict[str, Any]:
    """The settings whose value differs from the sheet's own, in the spec's order."""
    mine, theirs = own.as_dict(), other.as_dict()
    return {key: theirs[key] for key in KEYS if theirs[key] != mine[key]}


def _bid_line(game: Game, number: int, dealer: str) -> int | None:
    """The line where a dealer's bid of a round is written."""
    record = game.sheet.rounds[number - 1]
    return record.bid_lines[game.sheet.players.index(dealer)]


# --- the rules catalogue -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Rules:
    """What ``wizard rules`` shows: every setting, and every preset that can be named."""

    settings: tuple[SettingSpec, ...]
    presets: tuple[Preset, ...]


def rules_catalogue(extra: Iterable[Preset] = ()) -> Rules:
    """Every setting (in the spec's order) and every preset, built in first."""
    return Rules(SPECS, tuple(preset_catalogue(extra).values()))
