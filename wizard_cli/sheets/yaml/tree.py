"""Safe, line-aware YAML: documents as trees of :class:`Node` built from the parser's events.

Building the tree ourselves (instead of ``yaml.safe_load``) gives every value its line without a
second parse, refuses aliases (no "billion laughs"), bounds nesting without recursion, and never
constructs a ``!!python/...`` tag. Scalars keep their text, so a player called ``No`` stays "No".
"""

from __future__ import annotations

import functools
import re
from bisect import bisect_left
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...editing.spliced import BLANK, Streamed, Text, blocks
from ...errors import Problem, WizardError, shorten
from ...game.model import PLAYERS_KEPT, ROUNDS_KEPT
from ..cells import SHOWN

if TYPE_CHECKING:
    import yaml

# PyYAML is imported when a text needs its parser or a value its resolver, not at start: a
# plain block-style sheet (plain_block.py) of names and numbers needs neither, and importing it
# was a twentieth of a start (its reader compiles a large pattern).
MAX_DEPTH = 64
_STANDARD = "tag:yaml.org,2002:"
_SCALAR_TAGS = {_STANDARD + name for name in ("null", "bool", "int", "float", "str", "timestamp")}
_PLAIN_SCALAR_TAGS = _SCALAR_TAGS | {None, "!"}  # "!": a quoted scalar with no tag of its own
# The first characters of a plain scalar that PyYAML's resolver may read as other than text
# (bool, float, int, merge, null, timestamp, value, yaml: Resolver.yaml_implicit_resolvers'
# keys; tests/test_plain_block.py holds them equal). Any other plain scalar is text.
RESOLVED_FIRST = frozenset("!&*-+.0123456789<=~nNyYtTfFoO")
# Of those, a letter starts only a bool or a null, which are these words alone.
_WORD_FIRST = frozenset("nNyYtTfFoO")
_WORDS: dict[str, bool | None] = {
    **dict.fromkeys(["yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"], True),
    **dict.fromkeys(["no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"], False),
    **dict.fromkeys(["null", "Null", "NULL"], None),
}


@functools.cache
def _parser() -> tuple[Any, Any, Any]:
    """PyYAML's loader class (the C parser when libyaml is there), resolver and constructor."""
    import yaml
    from yaml.constructor import SafeConstructor
    from yaml.resolver import Resolver

    return getattr(yaml, "CSafeLoader", yaml.SafeLoader), Resolver(), SafeConstructor()


def __getattr__(name: str) -> Any:
    """``Loader``: PyYAML's loader class for the editing modules (imported when asked for)."""
    if name == "Loader":
        return _parser()[0]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass(slots=True)
class Node:
    """One YAML value: ``kind`` is "scalar", "seq" or "map"; ``line`` is 1-based.

    documents() makes scalars as :class:`Scalar`, which shares empty, immutable ``items``,
    ``pairs`` and ``key_texts`` (three new containers each were a third of the tree).
    """

    kind: str
    line: int
    text: str = ""  # a scalar's text as written
    tag: str | None = None
    plain: bool = False  # an unquoted scalar, whose type YAML resolves from its text
    items: list[Node] = field(default_factory=list)  # seq
    pairs: list[tuple[Node, Node]] = field(default_factory=list)  # map
    key_texts: set[str] = field(default_factory=set)  # map: scalar keys seen, for duplicates

    def value(self) -> Any:
        """The scalar's value with `yaml.safe_load` semantics (int, float, bool, None, str, date).

        Raises ValueError (only) for a tagged value that cannot be read, such as ``!!bool maybe``.
        A plain scalar that YAML cannot read as what it resembles (``2001-99-99``, ``0b_``, ``=``,
        a 5000-digit number) stays text: safe_load would raise an arbitrary exception there.
        """
        text = self.text
        if (
            self.plain
            and self.tag is None
            and len(text) < 19
            and text.isdigit()
            and text.isascii()
            and (text[0] != "0" or text == "0")
        ):
            return int(text)  # most values of a sheet: what YAML 1.1 resolves a plain decimal to
        if self.plain and self.tag is None and text:
            if text[0] not in RESOLVED_FIRST:
                return text  # a name, a title: no implicit type starts so
            if text[0] in _WORD_FIRST:
                return _WORDS.get(text, text)
        import yaml

        _, resolver, constructor = _parser()
        tag = (
            self.tag
            if self.tag not in (None, "!")
            else resolver.resolve(yaml.ScalarNode, self.text, (self.plain, False))
        )
        if tag in _SCALAR_TAGS:
            try:
                return constructor.yaml_constructors[tag](
                    constructor, yaml.ScalarNode(tag, self.text)
                )
            except (ValueError, LookupError, AttributeError, TypeError, ArithmeticError):
                pass  # PyYAML's constructors fail with KeyError, AttributeError, IndexError, …
        if self.plain:
            return self.text
        if tag not in _SCALAR_TAGS:
            raise ValueError(f"unsupported YAML tag {_tag_name(tag)}")
        raise ValueError(f"not a valid {_tag_name(tag)}")

    def describe(self) -> str:
        """How the value looks, for messages: its text (cut short), or 'a list' / 'a mapping'."""
        return {"seq": "a list", "map": "a mapping"}.get(self.kind, repr(shorten(self.text, SHOWN)))


class Scalar(Node):
    """A scalar Node, made with its four own fields only (a sheet has hundreds of scalars).

    A scalar's ``items``, ``pairs`` and ``key_texts`` are shared, empty and immutable.
    """

    __slots__ = ()
    kind = "scalar"
    items = ()  # type: ignore[assignment]
    pairs = ()  # type: ignore[assignment]
    key_texts = frozenset[str]()  # type: ignore[assignment]

    def __init__(self, line: int, text: str, tag: str | None, plain: bool) -> None:
        self.line, self.text, self.tag, self.plain = line, text, tag, plain


def documents(text: Text | Streamed, path: str, first_line: int = 1) -> Iterator[Node]:
    """Every document of a YAML stream as a tree; raises WizardError with the line on bad YAML.

    ``first_line`` is the line of the file the text starts on (an edit reads back only the
    last sheet of a season: its lines are still the file's). The parser reads the text in
    blocks (handed a whole string, libyaml would first copy all of it into UTF-8).
    """
    import yaml

    blocks = text_blocks(text)
    try:
        loader = _parser()[0](blocks)
        try:
            yield from _build(loader, path, first_line)
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        where = f" (line {mark.line + first_line}, column {mark.column + 1})" if mark else ""
        reason = error.problem or error.context or "unreadable"
        if mark and reason.startswith(INDENTATION_SLIPS):  # libyaml's words for a line out of step
            line = mark.line + first_line
            raise WizardError(
                Problem(
                    f"not valid YAML: look at the indentation of line {line}: it does not line up "
                    f"with the lines it belongs with (line {line}, column {mark.column + 1}: {reason})",
                    path,
                    line,
                )
            ) from None
        raise WizardError(
            Problem(
                f"not valid YAML: {reason}{where}", path, mark.line + first_line if mark else None
            )
        ) from None
    except yaml.reader.ReaderError as error:
        line = blocks.newlines_before(error.position) + first_line
        raise WizardError(
            Problem(
                f"not valid YAML: character #x{error.character:04x} is not "
                f"allowed in YAML (line {line})",
                path,
                line,
            )
        ) from None
    except yaml.YAMLError as error:
        raise WizardError(
            Problem(f"not valid YAML: {' '.join(str(error).split())}", path)
        ) from None


# What libyaml says when a line is indented out of step with the lines around it.
INDENTATION_SLIPS = (
    "did not find expected '-' indicator",
    "did not find expected key",
    "expected <block end>",
    "mapping values are not allowed here",
    "mapping values are not allowed in this context",
)


class TextBlocks:
    """A text read in blocks, as a file would be: what the C parser takes without first
    making a UTF-8 copy of the whole text (its marks still count characters of the text).
    The text is a string, a :class:`~.spliced.Spliced` one, or a file decoded as it is read
    (:class:`~.spliced.Streamed`: a large sheet is never whole in memory)."""

    __slots__ = ("text", "source")
    BLOCK = 1 << 16

    def __init__(self, text: Text | Streamed) -> None:
        self.text = text
        self.source = _blocks_of(text)

    def read(self, size: int = -1) -> str:
        return next(self.source, "")

    def newlines_before(self, position: int) -> int:
        """How many line feeds the text the parser was given has before ``position``."""
        if not isinstance(self.text, Streamed):
            return self.text.count("\n", 0, position)
        seen = count = 0
        for block in self.text.blocks():
            if seen >= position:
                break
            count += block.count("\n", 0, position - seen)
            seen += len(block)
        return count


def _blocks_of(text: Text | Streamed) -> Iterator[str]:
    """The text a block (at most TextBlocks.BLOCK characters) at a time."""
    if isinstance(text, Streamed):
        for chunk in text.blocks():
            yield from blocks(chunk, TextBlocks.BLOCK)
        return
    yield from blocks(text, TextBlocks.BLOCK)


# A JSON escape, whichever: a backslash takes the next character (so ``\\ud83d`` is an escaped
# backslash, then text), and a UTF-16 surrogate pair takes both halves.
_JSON_ESCAPE = re.compile(
    r"\\(?:u([dD][89abAB][0-9a-fA-F]{2})\\u([dD][c-fC-F][0-9a-fA-F]{2})|.|\Z)", re.S
)
_JSON_START = re.compile(f"[{BLANK}]*[{{\\[]")  # a text that is JSON (or YAML in flow style)
_PAIR = 12  # len(r"\ud83d\ude00"); YAML's r"\U0001F600" is 2 shorter


class JsonBlocks(TextBlocks):
    """A JSON text read in blocks with each surrogate-pair escape (``\\ud83d\\ude00``, what
    ``json.dumps`` writes for an emoji) rewritten as YAML's ``\\U0001F600``: YAML takes a
    ``\\u`` escape as one code point and refuses half of a pair (SPEC §3 reads JSON as YAML).

    The line breaks are untouched, so every line the parser reports is the file's; the
    rewrite is 2 characters shorter, and ``points`` (when kept) says where, in the parser's
    offsets, each one is, so an in-place edit can map the parser's marks back (``original``).
    A lone escape (``\\u00e9``) is left to YAML, which reads it.
    """

    __slots__ = ("carry", "points", "given")

    def __init__(self, text: Text | Streamed, keep_points: bool = False) -> None:
        super().__init__(text)
        self.carry = ""  # the tail of the last block that may be the start of a pair
        self.points: list[int] | None = [] if keep_points else None
        self.given = 0  # characters handed to the parser so far

    def read(self, size: int = -1) -> str:
        while True:
            block = super().read(size)
            buffer, self.carry = self.carry + block, ""
            out = self._rewritten(buffer, final=not block) if "\\" in buffer else buffer
            self.given += len(out)
            if out or not block:
                return out

    def _rewritten(self, buffer: str, final: bool) -> str:
        """``buffer`` with its pairs rewritten; an escape that the next block may complete
        (one starting within a pair's length of the end) is kept back in ``carry``."""
        pieces, last, shorter = [], 0, 0
        for match in _JSON_ESCAPE.finditer(buffer):
            if not final and match.start() > len(buffer) - _PAIR:
                self.carry = buffer[match.start() :]
                break
            if match.group(1) is None:
                continue
            pieces.append(buffer[last : match.start()])
            if self.points is not None:
                self.points.append(self.given + match.start() - shorter)
            code = (
                0x10000
                + ((int(match.group(1), 16) - 0xD800) << 10)
                + (int(match.group(2), 16) - 0xDC00)
            )
            pieces.append(f"\\U{code:08X}")
            last, shorter = match.end(), shorter + 2
        pieces.append(buffer[last : len(buffer) - len(self.carry)])
        return "".join(pieces)

    def original(self, index: int) -> int:
        """The offset in the file's text of the parser's offset ``index``."""
        return index + 2 * bisect_left(self.points or (), index)

    def move_marks(self, root: yaml.Node) -> None:
        """Move every mark of a composed tree from the parser's offsets to the file's (an
        in-place edit of the text needs the file's)."""
        import yaml
        from yaml.error import Mark

        moved: dict[int, Mark] = {}  # a mark shared by two nodes is moved once
        pending = [root]
        while pending:
            node = pending.pop()
            for name in ("start_mark", "end_mark"):
                mark = getattr(node, name)
                if id(mark) not in moved:  # the C parser's marks are read-only: new ones
                    index = self.original(mark.index)
                    column = index - self.original(mark.index - mark.column)
                    # no buffer, so no pointer (the C parser's own marks hold None there too;
                    # types-PyYAML has it as int only)
                    moved[id(mark)] = Mark(mark.name, index, mark.line, column, None, None)  # type: ignore[arg-type]
                setattr(node, name, moved[id(mark)])
            if isinstance(node, yaml.SequenceNode):
                pending.extend(node.value)
            elif isinstance(node, yaml.MappingNode):
                pending.extend(part for pair in node.value for part in pair)

    def newlines_before(self, position: int) -> int:
        """Line feeds before the parser's ``position``, counted again in the rewritten text."""
        again, seen, count = JsonBlocks(self.text), 0, 0
        while seen < position:
            block = again.read()
            if not block:
                break
            count += block.count("\n", 0, position - seen)
            seen += len(block)
        return count


def text_blocks(text: Text | Streamed, keep_points: bool = False) -> TextBlocks:
    """The text as the parser should read it: JSON (a text that starts with ``{`` or ``[``)
    with its surrogate pairs rewritten when it has any, anything else as it is (a text edited
    in place is read from its pieces: :mod:`~wizard_cli.editing.spliced`)."""
    if isinstance(text, Streamed):
        if _JSON_START.match(text.head) and text.has_pair_escapes:
            return JsonBlocks(text, keep_points)
        return TextBlocks(text)
    head = text if isinstance(text, str) else text[: TextBlocks.BLOCK]
    if _JSON_START.match(head) and ("\\ud" in text or "\\uD" in text):
        return JsonBlocks(text, keep_points)
    return TextBlocks(text)


def _tag_name(tag: str) -> str:
    """A tag as written in YAML: ``!!python/object`` rather than the long URI."""
    return tag.replace(_STANDARD, "!!")


class Bounded(list):
    """The items of a list a sheet can hold only so many of (``players``, ``rounds``): items
    past ``limit`` are counted in ``dropped``, not kept (SPEC §4: a game claiming more is
    reported without building it all)."""

    __slots__ = ("limit", "dropped")

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit, self.dropped = limit, 0

    def append(self, node: Node) -> None:
        if len(self) < self.limit:
            super().append(node)
        else:
            self.dropped += 1


BOUNDED_LISTS = {"players": PLAYERS_KEPT, "rounds": ROUNDS_KEPT}  # keys of a sheet's mapping
MAX_NODES = 20_000  # values in one sheet: a full 6-player game has well under 2,000


def _build(loader: Any, path: str, first: int = 1) -> Iterator[Node]:
    """Assemble the parser's events into trees with an explicit stack (deep nesting cannot recurse).

    The events are taken from the parser directly (yaml.parse would add a generator step to
    each of them) and told apart by their exact class, the commonest first: a folder of
    sheets is hundreds of thousands of events.

    Memory is bounded by one sheet (SPEC §4): each document is handed out as soon as it is
    complete, and so is each sheet of a top-level list of sheets (a JSON season); ``players``
    and ``rounds`` keep one item more than a game can have and skip the rest unbuilt; and a
    document of more than MAX_NODES values is refused.
    """
    stack: list[Node] = []
    node: Node
    pending_keys: list[Node | None] = []
    items: list[Node] | None = None  # the innermost open list's items (None: not in a list)
    split = False  # the document is a list of sheets, handed out one by one
    count = 0  # values built in this document (or sheet of a list of sheets)
    check_at = MAX_NODES  # the count at which to see how many are really kept
    bounded: list[Bounded] = []
    import yaml

    scalar_event, sequence_start, mapping_start = (
        yaml.ScalarEvent,
        yaml.SequenceStartEvent,
        yaml.MappingStartEvent,
    )
    events = iter(loader.get_event, None)  # None: the stream has ended
    for event in events:
        kind = type(event)
        if kind is scalar_event:
            tag = event.tag
            if tag is not None and tag not in _PLAIN_SCALAR_TAGS:  # keys and items too
                raise WizardError(
                    Problem(
                        f"unsupported YAML tag {_tag_name(tag)}",
                        path,
                        event.start_mark.line + first,
                    )
                )
            node = Scalar(event.start_mark.line + first, event.value, tag, event.implicit[0])
            count += 1
            if count > check_at:
                check_at = _check_size(count, bounded, path, event.start_mark.line + first)
            if items is not None:  # a list item: the commonest place of all
                items.append(node)
                continue
        elif kind is sequence_start or kind is mapping_start:
            line = event.start_mark.line + first
            if event.tag is not None:  # only plain lists and mappings (no !!set, !!python/tuple)
                _check_collection_tag(event.tag, path, line)
            if type(items) is Bounded and len(items) >= items.limit:
                _skip(
                    events, path, first
                )  # one more round than a game can have: counted, not built
                items.dropped += 1
                continue
            if len(stack) >= MAX_DEPTH:
                raise WizardError(Problem(f"YAML nested more than {MAX_DEPTH} deep", path, line))
            count += 1
            node = Node("seq" if kind is sequence_start else "map", line)
            if kind is sequence_start and len(stack) == 1 + split and stack[-1].kind == "map":
                key = pending_keys[-1]
                limit = (
                    BOUNDED_LISTS.get(key.text)
                    if key is not None and key.kind == "scalar"
                    else None
                )
                if limit is not None:
                    node.items = Bounded(limit)
                    bounded.append(node.items)
            stack.append(node)
            pending_keys.append(None)
            items = node.items if kind is sequence_start else None
            continue
        elif kind is yaml.SequenceEndEvent or kind is yaml.MappingEndEvent:
            pending_keys.pop()
            node = stack.pop()
            if split and not stack:  # the end of a list of sheets: each was handed out
                split, count, check_at, bounded = False, 0, MAX_NODES, []
                continue
            items = (
                stack[-1].items
                if stack and stack[-1].kind == "seq" and not (split and len(stack) == 1)
                else None
            )
        elif kind is yaml.AliasEvent:
            raise WizardError(
                Problem(
                    f"YAML aliases (*{event.anchor}) are not allowed in a sheet",
                    path,
                    event.start_mark.line + first,
                )
            )
        else:
            continue
        if items is not None:  # a finished list or mapping as a list item
            if (
                len(stack) == 1 and node.kind == "map" and not items and stack[0].kind == "seq"
            ):  # the first of a list of sheets: a season
                split, items = True, None
                yield node
                count, check_at, bounded = 0, MAX_NODES, []
                continue
            items.append(node)
        elif not stack or (split and len(stack) == 1):  # a document, or a sheet of a list
            yield node
            count, check_at, bounded = 0, MAX_NODES, []
        elif pending_keys[-1] is None:  # a mapping's key: its value comes next
            pending_keys[-1] = node
        else:
            _add_pair(stack[-1], pending_keys[-1], node, path)
            pending_keys[-1] = None


def _check_size(count: int, bounded: list[Bounded], path: str, line: int) -> int:
    """How many of the ``count`` values built are kept (items past a full players or rounds
    list are dropped as they come); more than MAX_NODES is an error. Returns the count at
    which to look again."""
    kept = count - sum(items.dropped for items in bounded)
    if kept > MAX_NODES:
        raise WizardError(
            Problem(
                f"more than {MAX_NODES} values in one sheet: too large for a score sheet",
                path,
                line,
            )
        )
    return count + MAX_NODES - kept


def _skip(events: Iterator[Any], path: str, first: int = 1) -> None:
    """Read past one list or mapping (its start already read) without building it."""
    import yaml

    depth = 1
    starts = (yaml.SequenceStartEvent, yaml.MappingStartEvent)
    ends = (yaml.SequenceEndEvent, yaml.MappingEndEvent)
    for event in events:
        kind = type(event)
        if kind in starts:
            depth += 1
        elif kind in ends:
            depth -= 1
            if not depth:
                return
        elif kind is yaml.AliasEvent:
            raise WizardError(
                Problem(
                    f"YAML aliases (*{event.anchor}) are not allowed in a sheet",
                    path,
                    event.start_mark.line + first,
                )
            )


def _check_collection_tag(tag: str, path: str, line: int) -> None:
    """Only plain lists and mappings: ``!!python/tuple``, ``!!set`` and friends are refused."""
    if tag not in ("!", _STANDARD + "seq", _STANDARD + "map"):
        raise WizardError(Problem(f"unsupported YAML tag {_tag_name(tag)}", path, line))


def _add_pair(mapping: Node, key: Node, value: Node, path: str) -> None:
    """Add a key and its value to a mapping; a scalar key may appear only once."""
    if key.kind == "scalar":
        if key.text in mapping.key_texts:
            raise WizardError(Problem(f"duplicate key '{key.text}' in a mapping", path, key.line))
        mapping.key_texts.add(key.text)
    mapping.pairs.append((key, value))
