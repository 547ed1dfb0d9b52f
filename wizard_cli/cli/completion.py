"""What shell completion offers beyond commands and options (``wizard --install-completion``):
setting keys and their values for ``--set KEY=VALUE``, zero-bid scorings and preset names.

Typer calls these only while completing; nothing here is imported at an ordinary start beyond
the settings table the commands load anyway, and compare's presets are imported only when a
preset name is being completed.
"""

from __future__ import annotations

from ..game.settings import SPEC_BY_KEY, SPECS, SettingSpec


def _values(spec: SettingSpec) -> list[str]:
    """Every value a setting may take, as typed on the command line."""
    if spec.kind == "option":
        return list(spec.options)
    if spec.kind == "bool":
        return ["true", "false"]
    return [str(value) for value in range(spec.minimum, spec.maximum + 1, spec.step)]


def complete_assignment(incomplete: str) -> list[str]:
    """``--set``: a setting's key with ``=`` (``round`` → ``roundMode=``), then its values
    (``roundMode=c`` → ``roundMode=custom``)."""
    key, equals, value = incomplete.partition("=")
    if not equals:
        return [f"{spec.key}=" for spec in SPECS if spec.key.lower().startswith(key.lower())]
    spec = SPEC_BY_KEY.get(key)
    if spec is None:
        return []
    return [f"{key}={option}" for option in _values(spec) if option.startswith(value)]


def complete_zero_bid(incomplete: str) -> list[str]:
    """``--zero-bid``: the zero-bid scorings."""
    return [
        option for option in SPEC_BY_KEY["zeroBidScoring"].options if option.startswith(incomplete)
    ]


def complete_preset(incomplete: str) -> list[str]:
    """``--preset``: the built-in presets' names."""
    from ..game.compare import BUILT_IN_PRESETS

    return [preset.name for preset in BUILT_IN_PRESETS if preset.name.startswith(incomplete)]
