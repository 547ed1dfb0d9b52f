"""Editing who sits where in a YAML sheet's text, in place: the ``players`` list (``wizard
join``, ``wizard leave`` and their ``undo``: an entry inserted, replaced or taken out) and a
round's ``out`` (``add --out``); every other byte of the text as it was (SPEC §5: the layout
kept, as ``add`` keeps it; a flow list gains a mapping entry, a block list a line)."""

from __future__ import annotations

import re
from collections.abc import Mapping

import yaml
from yaml.nodes import MappingNode, ScalarNode, SequenceNode

from ..errors import Problem, WizardError
from ..sheets.yaml.positions import line_offset
from ..sheets.yaml.text import json_text, yaml_scalar
from ..sheets.yaml.tree import JsonBlocks, Loader, text_blocks
from .spliced import Spliced, Text

_CANNOT = "cannot edit the players list here (its layout is unusual): nothing was written"


class _PlayersList:
    """The ``players`` node of the last sheet of a text, whose mapping starts on ``line``."""

    def __init__(self, text: Text, line: int) -> None:
        self.whole = text
        self.offset = line_offset(text, line)
        self.text = text[self.offset :] if self.offset else text
        try:
            blocks = text_blocks(self.text, keep_points=True)
            root = next(
                (
                    doc
                    for doc in yaml.compose_all(blocks, Loader=Loader)
                    if not (isinstance(doc, ScalarNode) and doc.value == "")
                ),
                None,
            )
        except yaml.YAMLError:
            raise WizardError(Problem(_CANNOT)) from None
        if isinstance(blocks, JsonBlocks) and blocks.points:  # marks would need moving
            raise WizardError(Problem(_CANNOT))
        if not isinstance(root, MappingNode):
            raise WizardError(Problem(_CANNOT))
        self.json = bool(root.flow_style and root.value and root.value[0][0].style == '"')
        node = next(
            (
                value
                for key, value in root.value
                if isinstance(key, ScalarNode) and key.value == "players"
            ),
            None,
        )
        if not isinstance(node, SequenceNode) or not node.value:
            raise WizardError(Problem(_CANNOT))
        self.root, self.node = root, node

    def entry(self, entry: Mapping[str, object]) -> str:
        """An entry as the file writes one: a flow mapping (JSON in a JSON file)."""
        if self.json:
            return json_text(dict(entry))
        return "{" + ", ".join(f"{key}: {yaml_scalar(value)}" for key, value in entry.items()) + "}"

    def spliced(self, start: int, end: int, new: str) -> Text:
        return Spliced(self.whole, [(self.offset + start, self.offset + end, new)])


def insert_player(text: Text, place: int, entry: Mapping[str, object], line: int = 1) -> Text:
    """``entry`` at ``place`` (after the entry before it, 1 or more) in the last sheet's
    ``players`` list."""
    players = _PlayersList(text, line)
    items = players.node.value
    if place < 1:
        raise WizardError(Problem(_CANNOT))
    before = items[place - 1]
    piece = players.entry(entry)
    if players.node.flow_style:
        at = before.end_mark.index
        return players.spliced(at, at, ", " + piece)
    if not isinstance(before, ScalarNode) and not before.flow_style:
        raise WizardError(Problem(_CANNOT))
    start = before.start_mark.index
    dash = max(players.text.rfind(char, 0, start) for char in "\r\n") + 1
    end = before.end_mark.index
    found = re.search(r"\r\n|\r|\n", players.text[end:])
    newline = found.group() if found else "\n"
    at = end + (found.start() if found else len(players.text) - end)
    return players.spliced(at, at, newline + players.text[dash:start] + piece)


def replace_player(text: Text, seat: int, entry: Mapping[str, object], line: int = 1) -> Text:
    """The ``players`` entry at ``seat`` (a name or a flow mapping) replaced by ``entry``."""
    players = _PlayersList(text, line)
    node = players.node.value[seat]
    if isinstance(node, MappingNode) and not node.flow_style:
        raise WizardError(Problem(_CANNOT))
    return players.spliced(node.start_mark.index, node.end_mark.index, players.entry(entry))


def remove_player(text: Text, seat: int, line: int = 1) -> Text:
    """The ``players`` entry at ``seat`` taken out (``undo`` of a join), with its separator."""
    players = _PlayersList(text, line)
    items = players.node.value
    node = items[seat]
    if len(items) < 2 or (isinstance(node, MappingNode) and not node.flow_style):
        raise WizardError(Problem(_CANNOT))
    if players.node.flow_style:
        if seat:
            return players.spliced(items[seat - 1].end_mark.index, node.end_mark.index, "")
        return players.spliced(node.start_mark.index, items[1].start_mark.index, "")
    start = node.start_mark.index
    dash = max(players.text.rfind(char, 0, start) for char in "\r\n") + 1
    found = re.search(r"\r\n|\r|\n", players.text[node.end_mark.index :])
    end = node.end_mark.index + (found.end() if found else len(players.text))
    return players.spliced(dash, min(end, len(players.text)), "")


def replace_name(text: Text, seat: int, name: str, line: int = 1) -> Text:
    """The ``players`` entry at ``seat`` written back as a bare name (``undo`` of a leave)."""
    players = _PlayersList(text, line)
    node = players.node.value[seat]
    if isinstance(node, MappingNode) and not node.flow_style:
        raise WizardError(Problem(_CANNOT))
    piece = json_text(name) if players.json else yaml_scalar(name)
    return players.spliced(node.start_mark.index, node.end_mark.index, piece)


def put_out(text: Text, names: list[str], line: int = 1) -> Text:
    """``out: [NAMES]`` as the first key of the last round of the last sheet (``add --out``:
    who sits the round out, SPEC §5), in the round's own style (flow or block, JSON or YAML)."""
    players = _PlayersList(text, line)
    rounds = next(
        (
            value
            for key, value in players.root.value
            if isinstance(key, ScalarNode) and key.value == "rounds"
        ),
        None,
    )
    if not isinstance(rounds, SequenceNode) or not rounds.value:
        raise WizardError(Problem(_CANNOT))
    last = rounds.value[-1]
    if not isinstance(last, MappingNode) or not last.value:
        raise WizardError(Problem(_CANNOT))
    if players.json:
        value = "[" + ", ".join(json_text(name) for name in names) + "]"
        key = '"out"'
    else:
        value = "[" + ", ".join(yaml_scalar(name) for name in names) + "]"
        key = "out"
    first = last.value[0][0]
    at = first.start_mark.index
    if last.flow_style:
        return players.spliced(at, at, f"{key}: {value}, ")
    found = re.search(r"\r\n|\r|\n", players.text[at:])
    newline = found.group() if found else "\n"
    return players.spliced(at, at, f"{key}: {value}{newline}{' ' * first.start_mark.column}")
