"""Editing who sits a recorded round in a YAML sheet's text, in place (``wizard edit --round N
--out NAME`` / ``--seated NAME``, SPEC §5): a player's values taken out of, or put into, the
round's ``bids``, ``tricks`` and ``points`` (a list holds the seated players' values in seating
order, a mapping names them), and the round's ``out`` list set or taken away; every other byte
of the text as it was.

Like :mod:`~wizard_cli.editing.round_edits`, these functions trust that the change is one to make; ``app/amending.py``
decides it and checks the text read back."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..errors import Problem, WizardError
from ..sheets.yaml.positions import line_end, line_start, pair_of, tail_of
from .round_edits import Document, remove_pair
from .spliced import Text

_CANNOT = "cannot edit who sits the round here (its layout is unusual): nothing was written"


def _round(doc: Document, number: int) -> MappingNode:
    items = doc.round_items()
    item = items[number - 1] if 0 < number <= len(items) else None
    if not isinstance(item, MappingNode) or not item.value:
        raise WizardError(Problem(_CANNOT))
    return item


def drop_values(
    text: Text, number: int, keys: Sequence[str], places: Mapping[str, int], line: int = 1
) -> Text:
    """Take players' values out of round ``number``'s ``keys`` (``bids``, ``tricks``,
    ``points``): ``places`` maps each name to its place in the round's seated list (a list
    loses that item, a mapping the name's pair)."""
    doc = Document(text, line)
    item = _round(doc, number)
    for key in keys:
        pair = pair_of(item, key)
        if pair is None:
            continue
        value = pair[1]
        if isinstance(value, SequenceNode):
            spans = [(node, node) for node in value.value]
            gone = set(places.values())
        elif isinstance(value, MappingNode):
            spans = list(value.value)
            gone = {
                index
                for index, (name, _) in enumerate(spans)
                if isinstance(name, ScalarNode) and name.value in places
            }
        elif isinstance(value, ScalarNode) and value.value in ("", "null", "~"):
            continue
        else:
            raise WizardError(Problem(_CANNOT))
        if any(index >= len(spans) for index in gone):
            raise WizardError(Problem(_CANNOT))
        if value.flow_style:
            _drop_flow(doc, spans, gone)
        else:
            for index in sorted(gone):
                _drop_line(doc, *spans[index])
    return doc.result()


def _drop_flow(doc: Document, spans: Sequence[tuple[Node, Node]], gone: set[int]) -> None:
    """Items (or pairs: first node, last node) of a flow collection taken out with their
    separators: after an item kept, from the end of the item before; else up to the next."""
    for index in sorted(gone):
        start, end = spans[index]
        if any(other not in gone for other in range(index)):
            doc.edits.append((spans[index - 1][1].end_mark.index, end.end_mark.index, ""))
        elif index + 1 < len(spans):
            doc.edits.append((start.start_mark.index, spans[index + 1][0].start_mark.index, ""))
        else:
            doc.edits.append((start.start_mark.index, end.end_mark.index, ""))


def _drop_line(doc: Document, start: Node, end: Node) -> None:
    """A block collection's item (or pair) taken out with its line."""
    text = doc.text
    first = line_start(text, start.start_mark.index)
    pad = text[first : start.start_mark.index]
    if pad.strip(" -") or pad.count("-") > 1:  # it shares its line with another key
        raise WizardError(Problem(_CANNOT))
    last = line_end(text, tail_of(end))
    doc.edits.append((first, last + len(doc.newline) if last < len(text) else last, ""))


def put_values(
    text: Text,
    number: int,
    values: Mapping[str, Mapping[str, int]],
    seated: Sequence[str],
    line: int = 1,
) -> Text:
    """Put players' values into round ``number``: ``values`` maps a key (``bids``,
    ``tricks``) to each new player's value; ``seated`` is the round's seated players after the
    change, in seating order (a list gains the value at the player's place, a mapping the pair
    after the seated player before them)."""
    doc = Document(text, line)
    item = _round(doc, number)
    for key, given in values.items():
        pair = pair_of(item, key)
        if pair is None or not isinstance(pair[1], (SequenceNode, MappingNode)):
            raise WizardError(Problem(_CANNOT))
        value = pair[1]
        for name in [name for name in seated if name in given]:  # in seating order
            before = [other for other in seated[: seated.index(name)] if other not in given]
            if isinstance(value, SequenceNode):
                _put_item(doc, value, len(before), str(given[name]))
            else:
                _put_pair(doc, value, before, f"{doc.name(name)}: {given[name]}")
    return doc.result()


def _put_item(doc: Document, sequence: SequenceNode, place: int, piece: str) -> None:
    """``piece`` into a list before the item now at ``place`` (at its end past the last)."""
    items = sequence.value
    if not items or place > len(items):
        raise WizardError(Problem(_CANNOT))
    if sequence.flow_style:
        if place:
            at = items[place - 1].end_mark.index
            doc.edits.append((at, at, ", " + piece))
        else:
            at = items[0].start_mark.index
            doc.edits.append((at, at, piece + ", "))
        return
    _put_line(doc, items, place, piece)


def _put_pair(doc: Document, mapping: MappingNode, before: Sequence[str], piece: str) -> None:
    """``name: value`` into a mapping, after the pair of the last of ``before`` it holds."""
    pairs = mapping.value
    if not pairs:
        raise WizardError(Problem(_CANNOT))
    keys = [key.value if isinstance(key, ScalarNode) else None for key, _ in pairs]
    place = max((keys.index(name) + 1 for name in before if name in keys), default=0)
    if mapping.flow_style:
        if place:
            at = pairs[place - 1][1].end_mark.index
            doc.edits.append((at, at, ", " + piece))
        else:
            at = pairs[0][0].start_mark.index
            doc.edits.append((at, at, piece + ", "))
        return
    _put_line(doc, [key for key, _ in pairs], place, piece, [value for _, value in pairs])


def _put_line(
    doc: Document,
    starts: Sequence[Node],
    place: int,
    piece: str,
    ends: Sequence[Node] | None = None,
) -> None:
    """A block collection's new line ``piece`` at ``place``, laid out as its neighbour's line
    (``    - 1``, ``  Anna: 1``): after the line of the item before it, or before the first's."""
    text = doc.text
    ends = ends or starts
    anchor = starts[place - 1] if place else starts[0]
    first = line_start(text, anchor.start_mark.index)
    pad = text[first : anchor.start_mark.index]
    if pad.strip(" -") or pad.count("-") > 1:  # the item shares its line with another key
        raise WizardError(Problem(_CANNOT))
    if place:
        at = line_end(text, tail_of(ends[place - 1]))
        doc.edits.append((at, at, doc.newline + pad + piece))
    else:
        doc.edits.append((first, first, pad + piece + doc.newline))


def set_out(text: Text, number: int, names: Sequence[str], line: int = 1) -> Text:
    """Round ``number``'s ``out`` set to ``names`` (in seating order), as ``add --out`` writes
    it (first in the round), or, with no names, taken out of the round."""
    doc = Document(text, line)
    item = _round(doc, number)
    pair = pair_of(item, "out")
    listed = "[" + ", ".join(doc.name(name) for name in names) + "]"
    if names and pair is not None:
        doc.replace(pair[1], listed)
    elif names:
        first = item.value[0][0]
        at = first.start_mark.index
        if item.flow_style:
            doc.edits.append((at, at, f"{doc.key('out')}: {listed}, "))
        else:
            pad = " " * first.start_mark.column
            doc.edits.append((at, at, f"{doc.key('out')}: {listed}{doc.newline}{pad}"))
    elif pair is not None:
        key = pair[0]
        pairs = list(item.value)
        if not item.flow_style and pairs[0][0] is key and len(pairs) > 1:
            # first on the round's dash line, as ``add --out`` puts it: the next key moves up
            doc.edits.append((key.start_mark.index, pairs[1][0].start_mark.index, ""))
        else:
            remove_pair(doc, item, pair)
    return doc.result()
