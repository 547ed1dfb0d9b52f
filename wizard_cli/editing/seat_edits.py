"""Editing who sits where in a YAML sheet's text, in place: the ``players`` list (``wizard
join``, ``wizard leave`` and their ``undo``: an entry inserted, replaced or taken out) and a
round's ``out`` (``add --out``); every other byte of the text as it was (SPEC §5: the layout
kept, as ``add`` keeps it; a flow list gains a mapping entry, a block list a line)."""

from __future__ import annotations

import re
from collections.abc import Mapping

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..errors import Problem, WizardError
from ..sheets.yaml.positions import line_offset, pair_of, tail_of
from ..sheets.yaml.sheets import ENTRY_KEYS
from ..sheets.yaml.text import json_text, yaml_scalar
from ..sheets.yaml.tree import JsonBlocks, Loader, text_blocks
from .round_edits import Document, remove_pair
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

    def dash(self, node: Node) -> int:
        """Where the line of a block list's entry starts, when the entry stands on its dash's
        line (``  - Ben``, ``  - name: Cara``) as a line of its own."""
        start = node.start_mark.index
        dash = max(self.text.rfind(char, 0, start) for char in "\r\n") + 1
        pad = self.text[dash:start]
        if pad.strip(" -") or pad.count("-") != 1:
            raise WizardError(Problem(_CANNOT))
        return dash


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
    start = before.start_mark.index
    dash = players.dash(before)
    end = tail_of(before)  # a block mapping's last value: its entry ends on that line
    found = re.search(r"\r\n|\r|\n", players.text[end:])
    newline = found.group() if found else "\n"
    at = end + (found.start() if found else len(players.text) - end)
    return players.spliced(at, at, newline + players.text[dash:start] + piece)


def replace_player(text: Text, seat: int, entry: Mapping[str, object], line: int = 1) -> Text:
    """The ``players`` entry at ``seat`` (a name or a flow mapping) replaced by ``entry``."""
    players = _PlayersList(text, line)
    node = players.node.value[seat]
    if isinstance(node, MappingNode) and not node.flow_style:
        return _rewrite_block_entry(text, seat, entry, line)
    return players.spliced(node.start_mark.index, node.end_mark.index, players.entry(entry))


def _rewrite_block_entry(text: Text, seat: int, entry: Mapping[str, object], line: int) -> Text:
    """A block mapping's entry made ``entry`` key by key (SPEC §5: the layout kept): a changed
    value replaced, a new key a line of its own after its last key and indented as its keys
    are, a key ``entry`` lacks taken out with its line (``leave`` and its ``undo``)."""
    doc = Document(text, line)
    players = pair_of(doc.root, "players")
    if players is None or not isinstance(players[1], SequenceNode):
        raise WizardError(Problem(_CANNOT))
    node = players[1].value[seat]
    if not isinstance(node, MappingNode) or node.flow_style or not node.value:
        raise WizardError(Problem(_CANNOT))
    pad = " " * node.value[0][0].start_mark.column
    for key in ENTRY_KEYS:
        pair = pair_of(node, key)
        if key not in entry:
            if pair is not None:
                remove_pair(doc, node, pair)
            continue
        value = entry[key]
        piece = doc.name(value) if isinstance(value, str) else yaml_scalar(value)
        if pair is None:
            doc.set_value(node, key, piece, [f"{pad}{doc.key(key)}: {piece}"])
        elif not isinstance(pair[1], ScalarNode) or pair[1].value != str(value):
            doc.replace(pair[1], piece)
    return doc.result()


def remove_player(text: Text, seat: int, line: int = 1) -> Text:
    """The ``players`` entry at ``seat`` taken out (``undo`` of a join), with its separator."""
    players = _PlayersList(text, line)
    items = players.node.value
    node = items[seat]
    if len(items) < 2:
        raise WizardError(Problem(_CANNOT))
    if players.node.flow_style:
        if seat:
            return players.spliced(items[seat - 1].end_mark.index, node.end_mark.index, "")
        return players.spliced(node.start_mark.index, items[1].start_mark.index, "")
    dash = players.dash(node)
    found = re.search(r"\r\n|\r|\n", players.text[tail_of(node) :])
    end = tail_of(node) + (found.end() if found else len(players.text))
    return players.spliced(dash, min(end, len(players.text)), "")


def replace_name(text: Text, seat: int, name: str, line: int = 1) -> Text:
    """The ``players`` entry at ``seat`` written back as a bare name (``undo`` of a leave)."""
    players = _PlayersList(text, line)
    node = players.node.value[seat]
    if isinstance(node, MappingNode) and not node.flow_style:
        return _rewrite_block_entry(text, seat, {"name": name}, line)
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
