"""Editing a YAML sheet's text in place: start a round, fill in its bids, record its tricks;
change recorded values, take back the round in play, a round's tricks or one bid.

The text is edited, never re-dumped: every byte outside the round being recorded stays as it
was (comments, key order, quoting, blank lines, CRLF line ends, a missing final newline, a
byte-order mark kept by the caller). Positions come from PyYAML's pure-Python composer, whose
marks are character offsets into the text; new lines copy the layout the file already uses
(the indentation of its rounds, ``bids:   [..]`` alignment, lists or mappings by name, flow
or block style, JSON quoting in a JSON file). The last document of a stream is the one edited.

These functions trust that the text is a sheet our reader accepts and that the values are the
right ones to add; ``app/recording.py`` and ``app/amending.py`` decide what to add or take back,
and check the result.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..errors import Problem, WizardError
from ..sheets.yaml.positions import (
    children_of,
    is_bare,
    is_empty_document,
    is_null,
    line_end,
    line_offset,
    line_start,
    newline_of,
    pair_of,
    tail_of,
)
from ..sheets.yaml.text import json_text, yaml_scalar
from ..sheets.yaml.tree import JsonBlocks, Loader, text_blocks
from .spliced import Spliced, Text

DEFAULT_GAP = 8  # ``bids:   [..]`` / ``tricks: [..]``: values aligned after the longer key
DEFAULT_INDENT = 2


@dataclass(frozen=True, slots=True)
class Shape:
    """How one per-player value is laid out: a list or a mapping by name, flow or block.

    ``gap`` is the column of a flow value counted from its key; ``indent`` that of a block
    value's items.
    """

    kind: str = "list"
    flow: bool = True
    gap: int = DEFAULT_GAP
    indent: int = DEFAULT_INDENT


def start_round(
    text: Text, players: Sequence[str], bids: Sequence[int | None], line: int = 1
) -> Text:
    """Append a new round with these bids (None: still to bid) to the last sheet in the text,
    whose mapping starts on ``line`` (the sheet's ``line``, as the reader gives it)."""
    doc = _Document(text, line)
    doc.append_round(players, bids)
    return doc.result()


def fill_bids(text: Text, players: Sequence[str], bids: Mapping[int, int], line: int = 1) -> Text:
    """Add bids (seat → bid) for players still to bid in the last round, which is in play."""
    doc = _Document(text, line)
    doc.fill_bids(players, bids)
    return doc.result()


def add_tricks(text: Text, players: Sequence[str], tricks: Sequence[int], line: int = 1) -> Text:
    """Record the tricks of the last round, which has every bid in."""
    doc = _Document(text, line)
    doc.add_tricks(players, tricks)
    return doc.result()


def _shape_of(key: Node, value: Node) -> Shape:
    """The layout of one existing per-player value."""
    kind = "list" if isinstance(value, SequenceNode) else "map"
    if getattr(value, "flow_style", True):
        same_line = value.start_mark.line == key.start_mark.line
        gap = value.start_mark.column - key.start_mark.column if same_line else DEFAULT_GAP
        return Shape(kind, True, gap=max(gap, len(key.value) + 2))
    return Shape(kind, False, indent=max(value.start_mark.column - key.start_mark.column, 0))


class _Document:
    """The last document of a YAML text, with the edits to make to it."""

    def __init__(self, text: Text, line: int = 1) -> None:
        self.whole = text
        self.offset = line_offset(text, line)
        self.text = text[self.offset :] if self.offset else text  # the last sheet's lines
        self.newline = newline_of(self.text)  # new lines end as the file's do (CRLF, NEL, …)
        try:
            # The C parser the reader uses (its marks count characters of the text), reading the
            # text in blocks (no UTF-8 copy of a 60 MB sheet); one document's nodes at a time.
            blocks = text_blocks(self.text, keep_points=True)
            found = (
                doc for doc in yaml.compose_all(blocks, Loader=Loader) if not is_empty_document(doc)
            )
            root = next(found, None)
            if isinstance(blocks, JsonBlocks) and blocks.points and root is not None:
                blocks.move_marks(root)
        except yaml.YAMLError as error:  # the reader has accepted it; this is a safety net
            mark = getattr(error, "problem_mark", None)
            reason = getattr(error, "problem", None) or "unusual YAML"
            raise WizardError(
                Problem(
                    f"cannot edit the sheet here: {' '.join(reason.split())}; nothing was written",
                    None,
                    mark.line + line if mark else None,
                )
            ) from None
        if not isinstance(root, MappingNode):
            raise WizardError(Problem("cannot edit: the sheet is not a YAML mapping"))
        self.root = root
        first_key = self.root.value[0][0] if self.root.value else None
        self.json = bool(self.root.flow_style and first_key is not None and first_key.style == '"')
        self.edits: list[tuple[int, int, str]] = []

    # --- edits ------------------------------------------------------------------------

    def result(self) -> Text:
        """The whole text with every edit made, as pieces of the text and the new parts (a
        60 MB sheet is not copied: SPEC §4); the text itself when nothing was edited."""
        if not self.edits:
            return self.whole
        shift = self.offset
        return Spliced(
            self.whole,
            [
                (shift + start, shift + end, new)
                for start, end, new in sorted(self.edits, key=lambda e: (e[0], e[1]))
            ],
        )

    def replace(self, node: Node, new: str) -> None:
        """Put ``new`` where a scalar stands (after a space when the scalar was empty)."""
        start, end = node.start_mark.index, node.end_mark.index
        if start == end and start > 0 and self.text[start - 1] not in " \t":
            new = " " + new
        self.edits.append((start, end, new))

    def lines_after(self, index: int, lines: Sequence[str]) -> None:
        """Insert whole lines after the line holding ``index``."""
        at = line_end(self.text, index)
        self.edits.append((at, at, "".join(self.newline + line for line in lines)))

    def flow_append(self, collection: Node, piece: str) -> None:
        """Add an item (or ``key: value``) at the end of a flow list or mapping."""
        children = children_of(collection)
        if not children:
            at = collection.start_mark.index + 1
            self.edits.append((at, at, piece))
            return
        at = children[-1].end_mark.index
        first = children[0]
        if first.start_mark.line != collection.start_mark.line:  # one item per line: keep it so
            self.edits.append((at, at, "," + self.newline + " " * first.start_mark.column + piece))
        else:
            self.edits.append((at, at, ", " + piece))

    def clear_for_block(self, value: Node) -> None:
        """Remove an empty value (``null``, ``[]``) so a block can follow its key."""
        start, end = value.start_mark.index, value.end_mark.index
        rest = self.text[end : line_end(self.text, end)]
        if rest.strip():  # a comment follows: keep it where it stands
            self.edits.append((start, end, " " * (end - start)))
            return
        while start > 0 and self.text[start - 1] in " \t":
            start -= 1
        self.edits.append((start, end + len(rest), ""))

    # --- rendering --------------------------------------------------------------------

    def name(self, text: str) -> str:
        """A player's name as a key: JSON-quoted in a JSON file, YAML-quoted where needed."""
        return json_text(text) if self.json else yaml_scalar(text)

    def key(self, text: str) -> str:
        """A sheet key (``bids``): quoted in a JSON file."""
        return f'"{text}"' if self.json else text

    def flow_value(self, shape: Shape, players: Sequence[str], values: Sequence[int | None]) -> str:
        """``[1, 0, 2]`` or ``{Anna: 1, Ben: 0}`` (a mapping leaves out players still to come)."""
        if shape.kind == "list":
            return "[" + ", ".join("null" if v is None else str(v) for v in values) + "]"
        return (
            "{"
            + ", ".join(
                f"{self.name(players[seat])}: {v}" for seat, v in enumerate(values) if v is not None
            )
            + "}"
        )

    def entry(
        self,
        key: str,
        shape: Shape,
        players: Sequence[str],
        values: Sequence[int | None],
        column: int,
    ) -> list[str]:
        """``key: value`` lines of a block round mapping, starting at ``column``."""
        pad = " " * column
        if shape.flow:
            spaces = " " * max(shape.gap - len(key) - 1, 1)
            return [f"{pad}{key}:{spaces}{self.flow_value(shape, players, values)}"]
        inner = " " * (column + shape.indent)
        if shape.kind == "list":
            items = [f"{inner}- {'null' if v is None else v}" for v in values]
        else:
            items = [
                f"{inner}{self.name(players[s])}: {v}"
                for s, v in enumerate(values)
                if v is not None
            ]
        return [f"{pad}{key}:"] + items

    def flow_round(self, players: Sequence[str], bids: Sequence[int | None]) -> str:
        """A new round as one flow mapping: ``{bids: [..]}``."""
        return (
            "{" + f"{self.key('bids')}: {self.flow_value(self.bids_shape(), players, bids)}" + "}"
        )

    def block_round(
        self, dash: int, column: int, players: Sequence[str], bids: Sequence[int | None]
    ) -> list[str]:
        """A new round as block lines: ``- bids:   [..]`` with the dash at ``dash``."""
        lines = self.entry("bids", self.bids_shape(), players, bids, column)
        lines[0] = lines[0][:dash] + "-" + lines[0][dash + 1 :]
        return lines

    # --- the file's own layout --------------------------------------------------------

    def rounds(self) -> tuple[Node, Node] | None:
        """The ``rounds`` key and value of the sheet."""
        return pair_of(self.root, "rounds")

    def round_items(self) -> list[Node]:
        """The round nodes already in the sheet."""
        pair = self.rounds()
        return list(pair[1].value) if pair and isinstance(pair[1], SequenceNode) else []

    def reference(self, key: str) -> Shape | None:
        """How the file lays out ``key`` (bids or tricks), from its complete rounds if any: the
        layout of the last one of the kind most of them are, a list or a mapping (lists on a tie).

        The indentation comes from a round of that kind: ``yaml.safe_dump`` indents a mapping's
        keys but not a list's items, so a list's would put the keys at the column of ``bids:``."""
        items = [item for item in self.round_items() if isinstance(item, MappingNode)]
        complete = [
            item for item in items if (tricks := pair_of(item, "tricks")) and not is_null(tricks[1])
        ]
        shapes = [
            _shape_of(*pair)
            for item in (complete or items)
            for pair in [pair_of(item, key)]
            if pair and isinstance(pair[1], (SequenceNode, MappingNode)) and pair[1].value
        ]
        if not shapes:
            return None
        maps = sum(1 for shape in shapes if shape.kind == "map")
        kind = "map" if maps * 2 > len(shapes) else "list"
        last = [shape for shape in shapes if shape.kind == kind][-1]
        return Shape(kind, last.flow, last.gap, last.indent)

    def bids_shape(self) -> Shape:
        """Bids laid out like the file's (a list has null for a player still to bid)."""
        return self.reference("bids") or Shape()

    def tricks_shape(self, bids_key: Node, bids: Node) -> Shape:
        """Tricks like the file's other tricks, else aligned with this round's bids."""
        found = self.reference("tricks")
        if found:
            return found
        mine = _shape_of(bids_key, bids)
        if not mine.flow:
            return Shape("list", False, indent=mine.indent)
        return Shape("list", True, gap=max(mine.gap, DEFAULT_GAP))

    # --- the three operations -----------------------------------------------------------

    def append_round(self, players: Sequence[str], bids: Sequence[int | None]) -> None:
        """A new round at the end of ``rounds`` (made if missing, or null, or ``[]``)."""
        root, pair = self.root, self.rounds()
        if root.flow_style:
            piece = self.flow_round(players, bids)
            if pair is None:  # its own lines, so that undo can tell it from `"rounds": []`
                first = children_of(root)[0]
                column = (
                    first.start_mark.column if first.start_mark.line != root.start_mark.line else 0
                )
                self.flow_append(
                    root,
                    f"{self.key('rounds')}: [{self.newline}"
                    f"{' ' * (column + DEFAULT_INDENT)}{piece}{self.newline}"
                    f"{' ' * column}]",
                )
            elif isinstance(pair[1], SequenceNode):
                self.flow_append(pair[1], piece)
            else:
                self.replace(pair[1], f"[{piece}]")
            return
        # The first round is laid out so that ``undo`` can tell what stood there before it and
        # give that back byte for byte (SPEC §5; ``amending.remove_last_round`` reads it):
        #   no ``rounds`` key       -> the key, last, and one flow mapping per round under it
        #   ``rounds:`` (nothing)   -> the rounds' dashes at the key's own column
        #   ``rounds: []`` or null  -> the dashes indented under the key
        if pair is None:
            column = root.value[0][0].start_mark.column if root.value else 0
            self.lines_after(
                tail_of(root),
                [
                    " " * column + "rounds:",
                    " " * (column + DEFAULT_INDENT) + "- " + self.flow_round(players, bids),
                ],
            )
            return
        key, value = pair
        if isinstance(value, SequenceNode) and value.value:
            self.append_to_rounds(value, players, bids)
            return
        if is_bare(value):
            self.lines_after(
                key.start_mark.index, self.new_block_rounds(key.start_mark.column, players, bids)
            )
            return
        if isinstance(value, SequenceNode) or is_null(value):  # `rounds: []`, `null`, `~`
            self.clear_for_block(value)
            self.lines_after(
                key.start_mark.index,
                self.new_block_rounds(key.start_mark.column + DEFAULT_INDENT, players, bids),
            )
            return
        raise WizardError(Problem("cannot edit: 'rounds' is not a list of rounds"))

    def new_block_rounds(
        self, dash: int, players: Sequence[str], bids: Sequence[int | None]
    ) -> list[str]:
        """The first round of a block ``rounds:`` list."""
        return self.block_round(dash, dash + 2, players, bids)

    def append_to_rounds(
        self, rounds: SequenceNode, players: Sequence[str], bids: Sequence[int | None]
    ) -> None:
        """One more round after the last one, laid out like it."""
        if rounds.flow_style:
            self.flow_append(rounds, self.flow_round(players, bids))
            return
        dash = rounds.start_mark.column
        last = rounds.value[-1]
        if isinstance(last, MappingNode) and not last.flow_style:
            lines = self.block_round(dash, last.start_mark.column, players, bids)
        else:
            lines = [" " * dash + "- " + self.flow_round(players, bids)]
        self.lines_after(tail_of(rounds), lines)

    def last_round(self) -> MappingNode:
        """The round being recorded (the last one)."""
        items = self.round_items()
        if not items or not isinstance(items[-1], MappingNode):
            raise WizardError(Problem("cannot edit: the last round is not a mapping"))
        return items[-1]

    def set_value(
        self,
        item: MappingNode,
        key: str,
        value: str,
        lines: Sequence[str],
        after: int | None = None,
    ) -> None:
        """Give a round's key a value: replace a null one, or add the key to the round."""
        pair = pair_of(item, key)
        if pair is not None:
            self.replace(pair[1], value)
        elif item.flow_style:
            self.flow_append(item, f"{self.key(key)}: {value}")
        else:
            self.lines_after(after if after is not None else tail_of(item), lines)

    def fill_bids(self, players: Sequence[str], bids: Mapping[int, int]) -> None:
        """Bids for players still to bid: replace their nulls, or add them to the mapping."""
        item = self.last_round()
        pair = pair_of(item, "bids")
        if pair is None or is_null(pair[1]):
            values = [bids.get(seat) for seat in range(len(players))]
            shape = self.bids_shape()
            column = item.value[0][0].start_mark.column if item.value else 0
            lines = self.entry(self.key("bids"), shape, players, values, column)
            self.set_value(item, "bids", self.flow_value(shape, players, values), lines)
            return
        value = pair[1]
        if isinstance(value, SequenceNode):
            for seat, bid in bids.items():
                self.replace(value.value[seat], str(bid))
            return
        if not isinstance(value, MappingNode):
            raise WizardError(Problem(_NOT_PER_PLAYER.format("bids")))
        named = {k.value: v for k, v in value.value if isinstance(k, ScalarNode)}
        new = []
        for seat, bid in bids.items():
            if players[seat] in named:
                self.replace(named[players[seat]], str(bid))
            else:
                new.append((seat, bid))
        if not new:
            return
        if value.flow_style:
            self.flow_append(value, ", ".join(f"{self.name(players[s])}: {b}" for s, b in new))
        else:
            column = value.value[0][0].start_mark.column
            self.lines_after(
                tail_of(value), [f"{' ' * column}{self.name(players[s])}: {b}" for s, b in new]
            )

    def add_tricks(self, players: Sequence[str], tricks: Sequence[int]) -> None:
        """The round's tricks, right after its bids, laid out like the file's other tricks."""
        item = self.last_round()
        bids_key, bids = _pair(item, "bids")
        shape = self.tricks_shape(bids_key, bids)
        flow = Shape(shape.kind, True, shape.gap)
        column = bids_key.start_mark.column
        lines = self.entry(self.key("tricks"), shape, players, tricks, column)
        cloud = pair_of(item, "cloud")  # a Cloud recorded before the tricks stays before them
        self.set_value(
            item,
            "tricks",
            self.flow_value(flow, players, tricks),
            lines,
            after=tail_of(cloud[1] if cloud else bids),
        )


# --- changing or taking back what the text records (edit, undo, play's undo) -------------
# Each removes exactly the text the functions above would have added for the same step, so
# add then undo gives the file back byte for byte; a first round taken back leaves what stood
# before it, read from how ``append_round`` laid it out: no ``rounds`` key, ``rounds:`` with
# nothing after it, or ``rounds: []`` (as ``wizard new`` writes it; also for a null or JSON).


def set_values(
    text: Text,
    number: int,
    key: str,
    players: Sequence[str],
    values: Mapping[int, int],
    line: int = 1,
) -> Text:
    """Replace recorded values (seat → value) of round ``number``'s ``bids`` or ``tricks``
    (in the last sheet of the text, whose mapping starts on ``line``, as for :mod:`editing`)."""
    doc = _Document(text, line)
    items = doc.round_items()
    item = items[number - 1] if 0 < number <= len(items) else None
    pair = pair_of(item, key) if isinstance(item, MappingNode) else None
    if pair is None:
        raise WizardError(Problem(f"cannot edit: round {number} has no {key}"))
    for seat, value in values.items():
        doc.replace(
            _value_node(pair[1], players[seat])
            if isinstance(pair[1], MappingNode)
            else _item(pair[1], seat),
            str(value),
        )
    return doc.result()


def set_round_key(text: Text, number: int, key: str, value: str | None, line: int = 1) -> Text:
    """Give round ``number`` a ``key: value`` (``bomb: true``, ``cloud: {Ben: 1}``), last in the
    round and laid out as its keys are; with ``value`` None, take the key out again."""
    doc = _Document(text, line)
    items = doc.round_items()
    item = items[number - 1] if 0 < number <= len(items) else None
    if not isinstance(item, MappingNode) or not item.value:
        raise WizardError(Problem(f"cannot edit: round {number} is not a mapping"))
    if value is None:
        _remove_pair(doc, item, _pair(item, key))
    else:
        pad = " " * item.value[0][0].start_mark.column
        doc.set_value(item, key, value, [f"{pad}{doc.key(key)}: {value}"])
    return doc.result()


def remove_last_round(text: Text, line: int = 1) -> Text:
    """Take the last round out of ``rounds`` (the round in play, with its bids)."""
    doc = _Document(text, line)
    key, rounds = _pair(doc.root, "rounds")
    if not isinstance(rounds, SequenceNode) or not rounds.value:
        raise WizardError(Problem("cannot edit: the sheet has no round to take back"))
    items = list(rounds.value)
    last = items[-1]
    if rounds.flow_style and len(items) == 1 and _flow_added_with_its_key(doc, key, rounds):
        before = doc.root.value[-2][1]  # the value before the key: its comma goes too
        doc.edits.append((before.end_mark.index, rounds.end_mark.index, ""))
    elif rounds.flow_style:
        start = items[-2].end_mark.index if len(items) > 1 else last.start_mark.index
        doc.edits.append((start, last.end_mark.index, ""))
    elif len(items) == 1 and _added_with_its_key(doc, key, rounds):
        _remove_lines(doc, key.start_mark.index, tail_of(last))
    else:
        _remove_lines(doc, last.start_mark.index, tail_of(last))
        if len(items) == 1 and rounds.start_mark.column != key.start_mark.column:
            _empty_list_after(doc, key)  # dashes indented: the key held `[]` (or a null)
    return doc.result()


def remove_tricks(text: Text, line: int = 1) -> Text:
    """Take the last round's tricks out (the round is in play again)."""
    doc = _Document(text, line)
    item = doc.last_round()
    _remove_pair(doc, item, _pair(item, "tricks"))
    return doc.result()


def remove_bid(text: Text, players: Sequence[str], seat: int, line: int = 1) -> Text:
    """Take one player's bid out of the round in play: null in a list, gone from a mapping."""
    doc = _Document(text, line)
    item = doc.last_round()
    bids = _pair(item, "bids")[1]
    if isinstance(bids, SequenceNode):
        doc.replace(_item(bids, seat), "null")
    elif not isinstance(bids, MappingNode):
        raise WizardError(Problem(_NOT_PER_PLAYER.format("bids")))
    else:
        name = players[seat]
        _remove_pair(
            doc,
            bids,
            next(
                pair
                for pair in bids.value
                if isinstance(pair[0], ScalarNode) and pair[0].value == name
            ),
        )
    return doc.result()


# --- positions ------------------------------------------------------------------------------

_NOT_PER_PLAYER = "cannot edit: the round's {} are not a list or a mapping"


def _pair(mapping: MappingNode, key: str) -> tuple[Node, Node]:
    """The ``key: value`` of a round (or the sheet) that the step being edited has recorded."""
    pair = pair_of(mapping, key)
    if pair is None:
        raise WizardError(Problem(f"cannot edit: no '{key}' where the sheet should have it"))
    return pair


def _item(sequence: Node, seat: int) -> Node:
    """A list's value for one seat."""
    if not isinstance(sequence, SequenceNode) or seat >= len(sequence.value):
        raise WizardError(Problem("cannot edit: a value is not where the sheet's list puts it"))
    return sequence.value[seat]


def _value_node(mapping: MappingNode, name: str) -> Node:
    """A mapping's value for one player's name."""
    for key, value in mapping.value:
        if isinstance(key, ScalarNode) and key.value == name:
            return value
    raise WizardError(Problem(f"cannot edit: no value for {name} in the sheet's mapping"))


def _remove_lines(doc: _Document, start: int, last: int) -> None:
    """Remove whole lines, from the one holding ``start`` to the one holding ``last``, with the
    line break before them (what ``lines_after`` inserted)."""
    text = doc.text
    begin = line_start(text, start)
    begin -= 2 if text[max(begin - 2, 0) : begin] == "\r\n" else 1
    doc.edits.append((max(begin, 0), line_end(text, last), ""))


def _starts_line(text: Text, index: int) -> bool:
    """Only blanks stand before ``index`` on its line."""
    return not text[line_start(text, index) : index].strip()


def _remove_pair(doc: _Document, mapping: MappingNode, pair: tuple[Node, Node]) -> None:
    """Take a ``key: value`` out of a mapping, as ``flow_append`` or ``lines_after`` put it in;
    a key that shares its line with others (``- tricks: …`` first in a block round) is set to
    null instead."""
    key, value = pair
    pairs = list(mapping.value)
    index = pairs.index(pair)
    if mapping.flow_style:
        if index:
            start = pairs[index - 1][1].end_mark.index
        else:
            start = key.start_mark.index
        end = value.end_mark.index if index or len(pairs) == 1 else pairs[1][0].start_mark.index
        doc.edits.append((start, end, ""))
    elif _starts_line(doc.text, key.start_mark.index):
        _remove_lines(doc, key.start_mark.index, tail_of(value))
    else:
        colon = doc.text.index(":", key.end_mark.index)
        doc.edits.append((colon + 1, line_end(doc.text, tail_of(value)), " null"))


def _added_with_its_key(doc: _Document, key: Node, rounds: SequenceNode) -> bool:
    """The one round stands as ``add`` writes it into a sheet with no ``rounds`` key: the key
    last in the sheet with nothing after it on its line, the round one flow mapping."""
    text = doc.text
    colon = text.index(":", key.end_mark.index)
    return (
        doc.root.value[-1][0] is key
        and not text[colon + 1 : line_end(text, colon)].strip()
        and isinstance(rounds.value[0], MappingNode)
        and bool(rounds.value[0].flow_style)
    )


def _flow_added_with_its_key(doc: _Document, key: Node, rounds: SequenceNode) -> bool:
    """The one round stands as ``add`` writes it into a flow (JSON) sheet with no ``rounds``
    key: the key last, after a comma, and its one round on a line of its own between the
    brackets (a ``"rounds": []`` filled in keeps the round beside its brackets)."""
    text, pairs = doc.text, doc.root.value
    if not doc.root.flow_style or len(pairs) < 2 or pairs[-1][0] is not key:
        return False
    item = rounds.value[0]
    opening = text[rounds.start_mark.index + 1 : item.start_mark.index]
    closing = text[item.end_mark.index : rounds.end_mark.index - 1]
    comma = text[pairs[-2][1].end_mark.index : key.start_mark.index]
    return (
        comma.startswith(",")
        and not comma[1:].strip()
        and not opening.strip()
        and not closing.strip()
        and opening.strip(" \t") != ""
        and closing.strip(" \t") != ""
    )


def _empty_list_after(doc: _Document, key: Node) -> None:
    """``rounds:`` left with no rounds becomes ``rounds: []`` again (where ``clear_for_block``
    took ``[]`` out for a comment, into the blanks it left)."""
    text = doc.text
    colon = text.index(":", key.end_mark.index)
    rest = text[colon + 1 : line_end(text, colon)]
    if rest.startswith("    ") and rest.strip().startswith("#"):
        doc.edits.append((colon + 1, colon + 4, " []"))
    else:
        doc.edits.append((colon + 1, colon + 1, " []"))


# The same document and pair removal for the module that edits who sits a recorded round
# (``round_seats``: a player's values taken out of or put into a round, its ``out``).
Document = _Document
remove_pair = _remove_pair
