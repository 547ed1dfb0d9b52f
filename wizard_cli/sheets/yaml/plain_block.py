"""Plain block-style YAML read without the parser: the common sheet (one key or list item a
line, plain values, one-line lists of plain values in brackets, comments) as the very tree of
:class:`~.tree.Node` that :func:`~.tree.documents` builds from libyaml's events, in a fraction
of the time (a folder of small sheets spent most of its time making and walking the parser's
event objects). :func:`~.sheets.read_yaml_sheets` asks it first.

Anything outside that plain subset is left to the parser: a line this reader does not know
(quotes, tags, anchors, flow mappings, ``---``, tabs, a line break other than ``\\n``), a value
that might go on over the next lines, a duplicate key, a ``players`` or ``rounds`` list past
its bound, a sheet near the size or depth limits. It then returns None, and the parser reads the
text (or says what is wrong with it): this reader reports nothing, so every message and every
limit stays the parser's one. ``tests/test_plain_block.py`` holds it to the parser's trees.
"""

from __future__ import annotations

import re

from .tree import BOUNDED_LISTS, MAX_DEPTH, MAX_NODES, Bounded, Node, Scalar

MAX_CHARS = 1 << 16  # a larger text is left to the parser (read in blocks, never whole)

# The characters of a plain value, as classes of what they are not (a class listing the
# characters past ASCII would take tens of milliseconds to compile at every start): printable,
# neither YAML's quotes and brackets nor ``:`` and ``#`` (never, so that no value ends a key or
# starts a comment); a value's first character is none of YAML's indicators either (``-``
# only before a digit). A text with a character past ASCII that YAML treats apart (a C1
# control, the no-break space, U+2028, U+2029, the byte-order mark) is left to the parser.
_INNER = '[^\\x00-\\x20\\x7f:#"\\\\\\[\\]{}]'
_SPACED = '[^\\x00-\\x1f\\x7f:#"\\\\\\[\\]{}]'  # inside a value, a space too
# Inside a [list]: no commas either, nor ``?`` (PyYAML's own parser, used where libyaml is
# not installed, ends a plain value there: ``[a?b]`` is an error to it).
_FLOW_INNER = '[^\\x00-\\x20\\x7f:#"\\\\\\[\\]{},?]'
_FLOW_SPACED = '[^\\x00-\\x1f\\x7f:#"\\\\\\[\\]{},?]'
_FIRST = "(?:[^\\x00-\\x20\\x7f:#\"\\\\\\[\\]{},'!&*|>%@`?.\\-]|-[0-9])"
_PLAIN = f"{_FIRST}(?:{_SPACED}*{_INNER})?"
_FLOW = f"{_FIRST}(?:{_FLOW_SPACED}*{_FLOW_INNER})?"
_LIST = f"\\[ *+(?:{_FLOW}(?: *+, *+{_FLOW})*)? *\\]"
_COMMENT = "#[^\\x00-\\x08\\x0a-\\x1f\\x7f]*"
_APART = "[\\x80-\\xa0\\u2028\\u2029\\ufeff\\ud800-\\udfff\\ufffe\\uffff]"  # compiled when needed
# One whole line: its indentation, then a list item that is a plain value and nothing else
# (the commonest line, told apart at once), or a comment, or a list item's dash, a plain value
# (a key when a colon follows it), the colon and the key's value, and a comment after a space.
# The runs of spaces that what follows could also take are possessive (``*+``, ``++``): a long
# line the pattern does not know was otherwise seconds of backtracking, each space given back
# to be scanned again (a 60 KB line of indentation and a tab: 7 s).
_LINE = re.compile(
    f"^( *+)(?:- ++({_PLAIN}) *\\n|(?:{_COMMENT}|(- ++)?(?:({_PLAIN})(?:(:)(?: +({_PLAIN}|{_LIST}))?)?)?"
    f"(?: +{_COMMENT})?) *\\n)",
    re.MULTILINE,
)
MAX_KEY = 1000  # libyaml's simple keys are at most 1024 characters long


def plain_block_tree(text: str, first: int = 1) -> Node | None:
    """The tree of a YAML text of one plain block-style document, as the parser would build
    it (``first``: the line the text starts on), or None for any text outside that subset.

    Each line is a key (with its value, or with its list or mapping on the lines below), a list
    item (a value, or a mapping whose first key is on the line), a comment or blank; what
    holds what follows from the indentation, as in YAML's block style.
    """
    if len(text) > MAX_CHARS or (not text.isascii() and re.search(_APART, text)):
        return None
    if not text.endswith("\n"):
        text += "\n"
    rows = _LINE.findall(text)
    if len(rows) != text.count("\n"):  # a line the pattern does not know
        return None
    stack: list[tuple[int, Node]] = []  # the open lists and mappings with their columns
    bounded: list[Bounded] = []
    pending: Scalar | None = None  # a key whose value starts on a line below
    deepest = 0  # the last value ended a line: a line indented past this would continue it
    items: list[Node] | None = None  # the innermost open list's, right after one of its items
    items_col = 0
    flow_items = 0
    for number, (indent, simple, dash, item, colon, keyed) in enumerate(rows, first):
        if simple:
            if items is not None and len(indent) == items_col:  # the list's next value
                items.append(Scalar(number, simple, None, True))
                continue
            dash, item = "-", simple
        if colon:
            key = item
            if len(key) > MAX_KEY:
                return None
        elif dash and item:
            key = ""
        elif dash or item:  # a dash alone (its item below), or a bare value (a whole
            return None  # document, or more of the value above)
        else:
            continue  # blank, or a comment
        items = None
        col = len(indent)
        if not stack:
            if dash:
                return None
            stack.append((col, Node("map", number)))
        elif pending is not None:
            parent_col, parent = stack[-1]
            if col > parent_col or (dash and col == parent_col):  # the key's list or mapping
                node = Node("seq" if dash else "map", number)
                if dash and len(stack) == 1 and pending.text in BOUNDED_LISTS:
                    node.items = Bounded(BOUNDED_LISTS[pending.text])
                    bounded.append(node.items)
                parent.pairs.append((pending, node))
                stack.append((col, node))
            else:  # nothing below the key: null, on the key's line
                parent.pairs.append((pending, Scalar(pending.line, "", None, True)))
            pending = None
        elif col > deepest:
            return None
        while stack[-1][0] > col or (
            not dash and stack[-1][0] == col and stack[-1][1].kind == "seq"
        ):
            stack.pop()
            if not stack:
                return None
        top_col, top = stack[-1]
        if top_col != col or len(stack) >= MAX_DEPTH - 1:
            return None
        if dash:
            if top.kind != "seq":
                return None
            if not key:
                value = _value(item, number)
                flow_items += len(value.items)
                top.items.append(value)
                deepest, items, items_col = col, top.items, col
                continue
            top = Node("map", number)  # a mapping as the item, its first key on this line
            stack[-1][1].items.append(top)
            col += len(dash)
            stack.append((col, top))
        elif top.kind != "map":
            return None
        if key in top.key_texts:  # a duplicate: the parser's to say
            return None
        top.key_texts.add(key)
        if not keyed:
            pending = Scalar(number, key, None, True)
            continue
        bound = BOUNDED_LISTS.get(key) if len(stack) == 1 else None
        value = _value(keyed, number, bound)
        if value.kind == "seq":
            flow_items += len(value.items)
            if bound is not None:
                bounded.append(value.items)  # type: ignore[arg-type]
        top.pairs.append((Scalar(number, key, None, True), value))
        deepest = col
    if not stack or len(rows) * 3 + flow_items > MAX_NODES:
        return None
    if pending is not None:
        stack[-1][1].pairs.append((pending, Scalar(pending.line, "", None, True)))
    if any(kept.dropped for kept in bounded):  # past a bound: the parser skips them unbuilt
        return None
    return stack[0][1]


def _value(text: str, line: int, bound: int | None = None) -> Node:
    """A plain value, or a one-line ``[list]`` of plain values, as the parser's node; a list
    that is a sheet's ``players`` or ``rounds`` keeps at most ``bound`` items (as the parser's)."""
    if text[0] != "[":
        return Scalar(line, text, None, True)
    node = Node("seq", line)
    if bound is not None:
        node.items = Bounded(bound)
    inner = text[1:-1]
    if inner.strip(" "):  # YAML's spaces only: U+3000 and the like are part of a value
        for part in inner.split(","):
            node.items.append(Scalar(line, part.strip(" "), None, True))
    return node
