"""What ``compare`` and ``rules`` show: rule sets side by side, and the settings catalogue."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ..errors import name_list, visible
from .formats import grid, heading, signed

if TYPE_CHECKING:
    from ..game.compare import Comparison, Preset, Rules
    from ..game.settings import SettingSpec

# --- compare -----------------------------------------------------------------------------


def change(score_before: int, rank_before: int, score: int, rank: int) -> str:
    """The change against rule set 0: ``+40``, ``-10 ▼1``, ``+20 ▲2``, or ``0``."""
    moved = (
        ""
        if rank == rank_before
        else f" ▲{rank_before - rank}"
        if rank < rank_before
        else f" ▼{rank - rank_before}"
    )
    return (signed(score - score_before) if score != score_before else "0") + moved


class CompareOutput:
    """``wizard compare``: each player's score and rank under each rule set, and the change."""

    columns = ("ruleset", "player", "score", "rank", "delta")

    def __init__(self, rounds: bool = False) -> None:
        self.show_rounds = rounds

    def as_json(self, comparison: Comparison) -> dict:
        return comparison.as_json()

    def rows(self, comparison: Comparison) -> Iterator[tuple]:
        record = self.as_json(comparison)
        for index, rule_set in enumerate(record["rulesets"]):
            for player in record["players"]:
                score = player["scores"][index]
                yield (
                    rule_set["name"],
                    player["player"],
                    score,
                    player["ranks"][index],
                    score - player["scores"][0],
                )

    def as_text(self, comparison: Comparison, style: str) -> str:
        return "\n\n".join(self.text_blocks(comparison, style))

    def text_blocks(self, comparison: Comparison, style: str) -> list[str]:
        blocks = [
            heading(comparison, style),
            self._rule_sets(comparison, style),
            self._players(comparison, style),
        ]
        if self.show_rounds:
            blocks.append(self._rounds(comparison, style))
        result = comparison.scored[0].result
        if not result.finished:
            blocks.append(
                f"Game in progress: standings after {result.rounds_played} of "
                f"{result.rounds_total} rounds"
            )
        return blocks

    def _rule_sets(self, comparison: Comparison, style: str) -> str:
        """Each rule set's name, where it comes from, and its winners."""
        finished = any(s.result.finished for s in comparison.scored)
        headers = ["Rule set", "From"] + (["Winners"] if finished else [])
        rows = []
        for index, scored in enumerate(comparison.scored):
            origin = (
                "the sheet's own rules"
                if index == 0
                else f"preset {scored.rule_set.preset}"
                if scored.rule_set.preset
                else "--set/--zero-bid"
            )
            if index and not scored.changes:
                origin += " (changes nothing here)"
            winners = name_list(scored.result.winners) if scored.result.finished else "not finished"
            rows.append([scored.name, origin] + ([winners] if finished else []))
        return grid(headers, rows, style)

    def _players(self, comparison: Comparison, style: str) -> str:
        """One row per player, in the order of the last rule set's ranks."""
        headers, align = ["Player"], ["left"]
        for index, scored in enumerate(comparison.scored):
            headers += [scored.name, "Rank"] + (["Δ"] if index else [])
            align += ["right", "right"] + (["left"] if index else [])
        rows = []
        for seat, name in enumerate(comparison.players):
            scores, ranks = comparison.scores(seat), comparison.ranks(seat)
            row: list[Any] = [name]
            for index, (score, rank) in enumerate(zip(scores, ranks)):
                row += [score, rank] + ([change(scores[0], ranks[0], score, rank)] if index else [])
            rows.append((ranks[-1], seat, row))
        return grid(headers, [row for *_, row in sorted(rows, key=lambda r: r[:2])], style, align)

    def _rounds(self, comparison: Comparison, style: str) -> str:
        """The round points (and end bonuses) that some rule set scores differently."""
        results = [s.result for s in comparison.scored]
        rows = []
        for index, scored_round in enumerate(results[0].rounds):
            if scored_round.points is None:
                continue
            # every rule set scores the same rounds: all or none of them have points
            scored = [p for r in results if (p := r.rounds[index].points) is not None]
            for seat, name in enumerate(comparison.players):
                # (a seat not seated in the round has None points under every rule set, SPEC §1)
                points = [point for p in scored if (point := p[seat]) is not None]
                if len(set(points)) > 1:
                    rows.append([scored_round.number, name, *map(signed, points)])
        for seat, name in enumerate(comparison.players):
            bonuses = [next(st.bonus for st in r.standings if st.seat == seat) for r in results]
            if len(set(bonuses)) > 1:
                rows.append(["bonus", name, *map(signed, bonuses)])
        if not rows:
            return "Every round scores the same under every rule set."
        headers = ["Round", "Player", *(s.name for s in comparison.scored)]
        return grid(headers, rows, style, ["right", "left"] + ["right"] * len(results))


# --- rules -------------------------------------------------------------------------------


def setting_json(spec: SettingSpec) -> dict:
    """One setting of ``wizard rules --format json``: the same keys for every setting."""
    number = spec.kind == "int"
    return {
        "key": spec.key,
        "type": spec.kind,
        "default": spec.default,
        "allowed": spec.allowed(),
        "minimum": spec.minimum if number else None,
        "maximum": spec.maximum if number else None,
        "step": spec.step if number else None,
        "options": list(spec.options) if spec.kind == "option" else None,
        "meaning": spec.meaning,
        "appName": spec.app_name,
    }


def preset_json(preset: Preset) -> dict:
    """One preset of ``wizard rules --format json``: what it overrides, and where it is from."""
    return {
        "name": preset.name,
        "builtIn": preset.source is None,
        "meaning": preset.meaning,
        "settings": preset.values(),
    }


def preset_settings_text(preset: Preset) -> str:
    """``screwTheDealer=leaderOnly, canadianRule=true``."""
    from ..game.compare import describe_changes

    return describe_changes(preset.values())


class RulesOutput:
    """``wizard rules``: every setting with its default, allowed values and meaning; the presets."""

    columns = ("kind", "name", "default", "allowed", "appName", "meaning", "settings")

    def as_json(self, rules: Rules) -> dict:
        return {
            "settings": [setting_json(spec) for spec in rules.settings],
            "presets": [preset_json(preset) for preset in rules.presets],
        }

    def rows(self, rules: Rules) -> Iterator[tuple]:
        from ..game.compare import describe_changes
        from ..game.settings import value_text

        record = self.as_json(rules)
        for setting in record["settings"]:
            yield (
                "setting",
                setting["key"],
                value_text(setting["default"]),
                setting["allowed"],
                setting["appName"],
                setting["meaning"],
                None,
            )
        for preset in record["presets"]:
            yield (
                "preset",
                preset["name"],
                None,
                None,
                None,
                preset["meaning"],
                describe_changes(preset["settings"]),
            )

    def as_text(self, rules: Rules, style: str) -> str:
        from ..game.settings import value_text

        # Cells are escaped before they are broken into lines (a user preset's name and
        # meaning are text from a file: SPEC §8), so the line breaks are the table's own.
        fit = (
            (lambda text, width: visible(text))
            if style == "markdown"
            else lambda text, width: wrapped(visible(text), width)
        )
        settings = grid(
            ["Setting", "Default", "Allowed", "In the app", "Meaning"],
            [
                [
                    spec.key,
                    value_text(spec.default),
                    fit(spec.allowed(), 20),
                    fit(spec.app_name or "", 16),
                    fit(spec.meaning, 44),
                ]
                for spec in rules.settings
            ],
            style,
            escaped=True,
        )
        presets = grid(
            ["Preset", "Sets", "Meaning"],
            [
                [
                    visible(preset.name),
                    fit(preset_settings_text(preset), 50),
                    fit(preset.meaning, 40),
                ]
                for preset in rules.presets
            ],
            style,
            escaped=True,
        )
        title = "## {}" if style == "markdown" else "{}"
        return "\n\n".join([title.format("Settings"), settings, title.format("Presets"), presets])


def wrapped(text: str, width: int) -> str:
    """Text broken into lines of at most ``width`` characters (a multi-line table cell)."""
    import textwrap

    return "\n".join(textwrap.wrap(text, width, break_on_hyphens=False)) or text
