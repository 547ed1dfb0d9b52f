"""``--settings FILE`` and ``--presets FILE``: YAML files that hold one mapping."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import Problem, WizardError
from ..game.settings import RawSetting

if TYPE_CHECKING:
    from .yaml.tree import Node

from .source import bom_encoding, decode_all, display_name, open_binary, read_limited
from .yaml.sheets import SHEET_KEYS, settings_from_node


def read_yaml_mapping(path: str, what: str, encoding: str | None = None) -> Node:
    """A YAML file that must hold one mapping (a settings or presets file)."""
    source = display_name(path)
    with open_binary(path) as handle:
        data = read_limited(handle, source)
    text = decode_all(data, source, encoding or bom_encoding(data))
    from .yaml.tree import documents

    docs = list(documents(text, source))
    if len(docs) != 1 or docs[0].kind != "map":
        raise WizardError(
            Problem(f"{what} must be one YAML mapping", source, docs[0].line if docs else None)
        )
    return docs[0]


def read_settings_file(path: str, encoding: str | None = None) -> list[RawSetting]:
    """``--settings FILE``: a mapping of settings, or a sheet-shaped ``{settings: …}``."""
    root = read_yaml_mapping(path, "a settings file", encoding)
    source = display_name(path)
    keys = {key.text for key, _ in root.pairs if key.kind == "scalar"}
    if keys & set(SHEET_KEYS):  # sheet-shaped: only its settings block counts (maybe none)
        node = next((value for key, value in root.pairs if key.text == "settings"), None)
    else:
        node = root
    problems: list[Problem] = []
    raws = settings_from_node(node, source, problems)
    if problems:
        raise WizardError(*problems)
    return raws


def read_presets_file(
    path: str, problems: list[Problem], encoding: str | None = None
) -> list[tuple[str, int, list[RawSetting]]]:
    """``--presets FILE``: a mapping of preset name → settings, as (name, line, raw settings).

    Only the shape is checked here (each misshapen preset is added to ``problems`` and left
    out); what the settings may hold is the rule sets' business. Unreadable YAML raises.
    """
    root = read_yaml_mapping(path, "a presets file", encoding)
    source = display_name(path)
    presets = []
    for key, value in root.pairs:
        name = key.text.strip() if key.kind == "scalar" else ""
        if not name:
            problems.append(
                Problem(f"a preset's name must be text, not {key.describe()}", source, key.line)
            )
        elif value.kind != "map" or not value.pairs:
            problems.append(
                Problem(
                    f"preset '{name}' must be a mapping of setting: value, "
                    f"not {'nothing' if _empty(value) else value.describe()}",
                    source,
                    value.line,
                )
            )
        else:
            presets.append((name, key.line, settings_from_node(value, source, problems)))
    return presets


def _empty(node: Node) -> bool:
    """A null scalar or an empty mapping: a preset that sets nothing."""
    return (node.kind == "map" and not node.pairs) or (
        node.kind == "scalar" and node.plain and node.text in ("", "~", "null", "Null", "NULL")
    )
