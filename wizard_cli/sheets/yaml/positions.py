"""Where things stand in a YAML text composed by PyYAML: the offset a line starts at, a
mapping's pair for a key, a node's children and its last character, the line around an offset
(ended by any YAML line break: CRLF, LF, CR, NEL, U+2028, U+2029), and which nodes are null.

Apart from the edits because they only look: every in-place edit of a sheet's text (rounds in
:mod:`~wizard_cli.editing.round_edits`, seats in :mod:`~wizard_cli.editing.seat_edits`) finds its place with them and never re-dumps.
"""

from __future__ import annotations

import re

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ...editing.spliced import Text, finditer, search

NULL_TAG = "tag:yaml.org,2002:null"

BREAK_CHARS = "\r\n\x85\u2028\u2029"  # what YAML (and libyaml) ends a line with, CRLF too
LINE_BREAKS = re.compile(f"\r\n|[{BREAK_CHARS}]")
BREAK_CHAR = re.compile(f"[{BREAK_CHARS}]")


def line_offset(text: Text, line: int) -> int:
    """Where line ``line`` (1-based) of a YAML text starts: the edit of a season's last sheet
    looks at that sheet's lines only."""
    if line <= 1:
        return 0
    for number, found in enumerate(finditer(LINE_BREAKS, text), start=2):
        if number == line:
            return found.end()
    return len(text)


def is_empty_document(node: Node) -> bool:
    """A document with nothing in it (a stray ``---`` at the end): no sheet, as for the reader."""
    return isinstance(node, ScalarNode) and node.style is None and node.value == ""


def pair_of(mapping: Node, key: str) -> tuple[Node, Node] | None:
    """The (key, value) nodes of a scalar key in a mapping node, if there."""
    if not isinstance(mapping, MappingNode):
        return None
    return next(
        ((k, v) for k, v in mapping.value if isinstance(k, ScalarNode) and k.value == key), None
    )


def is_null(node: Node | None) -> bool:
    """A null scalar (``null``, ``~`` or nothing at all)."""
    return isinstance(node, ScalarNode) and node.tag == NULL_TAG


def is_bare(node: Node | None) -> bool:
    """A key with nothing after it (``rounds:``): an empty plain null, not ``null`` or ``~``."""
    return isinstance(node, ScalarNode) and node.tag == NULL_TAG and node.value == ""


def children_of(node: Node) -> list[Node]:
    """A collection's items, or its keys and values in order."""
    if isinstance(node, SequenceNode):
        return list(node.value)
    if isinstance(node, MappingNode):
        return [part for pair in node.value for part in pair]
    return []


def tail_of(node: Node) -> int:
    """The offset of the last character that belongs to a node (block collections end at their
    last value, not after the comments and blank lines that follow them)."""
    while not getattr(node, "flow_style", True) and children_of(node):
        node = children_of(node)[-1]
    return max(node.start_mark.index, node.end_mark.index - 1)


def line_end(text: Text, index: int) -> int:
    """Where the line holding ``index`` ends (before its line break, any YAML one: CRLF, LF,
    CR, NEL, U+2028, U+2029; the end of a last line)."""
    found = search(BREAK_CHAR, text, index)
    return len(text) if found is None else found.start()


def line_start(text: Text, index: int) -> int:
    """Where the line holding ``index`` starts."""
    return max(text.rfind(char, 0, index) for char in BREAK_CHARS) + 1


def newline_of(text: Text) -> str:
    """The line break the text uses (its first one; LF in a text of one line)."""
    found = search(LINE_BREAKS, text)
    return "\n" if found is None else found.group()
