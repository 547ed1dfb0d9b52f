"""Changing or taking back what a YAML sheet's text already records, in place.

The counterpart of :mod:`editing` (which adds): change recorded values (``wizard edit``),
remove the round in play or the last round's tricks (``wizard undo``), take back one bid
(``wizard play``'s undo). Each removes exactly the text :mod:`editing` would have added for the
same step, so ``add`` then ``undo`` gives the file back byte for byte; every other byte stays
as it was. A first round taken back leaves ``rounds: []``, as ``wizard new`` writes it.

These functions trust that the text is a sheet our reader accepts and that the change is one to
make; ``app.amending`` decides what to change and checks the result.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..errors import Problem, WizardError
from .editing import _Document, _line_end, _line_start, _pair, _tail


def set_values(text: str, number: int, key: str, players: Sequence[str],
               values: Mapping[int, int], line: int = 1) -> str:
    """Replace recorded values (seat → value) of round ``number``'s ``bids`` or ``tricks``
    (in the last sheet of the text, whose mapping starts on ``line``, as for :mod:`editing`)."""
    doc = _Document(text, line)
    items = doc.round_items()
    item = items[number - 1] if 0 < number <= len(items) else None
    pair = _pair(item, key) if isinstance(item, MappingNode) else None
    if pair is None:
        raise WizardError(Problem(f"cannot edit: round {number} has no {key}"))
    for seat, value in values.items():
        doc.replace(_value_node(pair[1], players[seat]) if isinstance(pair[1], MappingNode)
                    else _item(pair[1], seat), str(value))
    return doc.result()


def remove_last_round(text: str, line: int = 1) -> str:
    """Take the last round out of ``rounds`` (the round in play, with its bids)."""
    doc = _Document(text, line)
    key, rounds = doc.rounds()
    items = list(rounds.value)
    last = items[-1]
    if rounds.flow_style:
        start = items[-2].end_mark.index if len(items) > 1 else last.start_mark.index
        doc.edits.append((start, last.end_mark.index, ""))
    else:
        _remove_lines(doc, last.start_mark.index, _tail(last))
        if len(items) == 1:
            _empty_list_after(doc, key)
    return doc.result()


def remove_tricks(text: str, line: int = 1) -> str:
    """Take the last round's tricks out (the round is in play again)."""
    doc = _Document(text, line)
    item = doc.last_round()
    _remove_pair(doc, item, _pair(item, "tricks"))
    return doc.result()


def remove_bid(text: str, players: Sequence[str], seat: int, line: int = 1) -> str:
    """Take one player's bid out of the round in play: null in a list, gone from a mapping."""
    doc = _Document(text, line)
    item = doc.last_round()
    bids = _pair(item, "bids")[1]
    if isinstance(bids, SequenceNode):
        doc.replace(_item(bids, seat), "null")
    else:
        name = players[seat]
        _remove_pair(doc, bids, next(pair for pair in bids.value
                                     if isinstance(pair[0], ScalarNode) and pair[0].value == name))
    return doc.result()


# --- positions ------------------------------------------------------------------------------

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
    begin = _line_start(text, start)
    begin -= 2 if text[max(begin - 2, 0):begin] == "\r\n" else 1
    doc.edits.append((max(begin, 0), _line_end(text, last), ""))


def _starts_line(text: str, index: int) -> bool:
    """Only blanks stand before ``index`` on its line."""
    return not text[_line_start(text, index):index].strip()


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
        _remove_lines(doc, key.start_mark.index, _tail(value))
    else:
        colon = doc.text.index(":", key.end_mark.index)
        doc.edits.append((colon + 1, _line_end(doc.text, _tail(value)), " null"))


def _empty_list_after(doc: _Document, key: Node) -> None:
    """``rounds:`` left with no rounds becomes ``rounds: []`` again (where ``clear_for_block``
    took ``[]`` out for a comment, into the blanks it left)."""
    text = doc.text
    colon = text.index(":", key.end_mark.index)
    rest = text[colon + 1:_line_end(text, colon)]
    if rest.startswith("    ") and rest.strip().startswith("#"):
        doc.edits.append((colon + 1, colon + 4, " []"))
    else:
        doc.edits.append((colon + 1, colon + 1, " []"))
