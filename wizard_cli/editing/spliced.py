"""A text with a few edits made to it, kept as pieces of the original: what an in-place change
builds instead of a second whole text (SPEC §4: a 60 MB sheet is changed within 250 MiB).

An edit of a sheet touches a round or two; the text around it is the file's own. A
:class:`Spliced` text holds the original and the new pieces, and hands them out a block at a
time to the parser that reads the change back and to the file it is written to. It answers the
few questions an edit asks of a text (a character, a short slice, the next line break, where
a line starts) as a ``str`` would; the helpers here take either.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

BLOCK = 1 << 20  # characters looked at (or handed out) at a time


class Spliced:
    """``base`` with ``edits`` made: (start, end, new) in ``base``'s offsets, in order and not
    overlapping. A Spliced base is flattened: the pieces always come from plain strings."""

    __slots__ = ("parts", "length")

    def __init__(self, base: Text, edits: list[tuple[int, int, str]]) -> None:
        parts: list[tuple[str, int, int]] = []
        at = 0
        for start, end, new in edits:
            parts.extend(_pieces(base, at, start))
            if new:
                parts.append((new, 0, len(new)))
            at = end
        parts.extend(_pieces(base, at, len(base)))
        self.parts = tuple(parts)
        self.length = sum(end - start for _, start, end in parts)

    def __len__(self) -> int:
        return self.length

    def __str__(self) -> str:
        return "".join(source[start:end] for source, start, end in self.parts)

    def __repr__(self) -> str:
        return f"Spliced({len(self.parts)} pieces, {self.length} characters)"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, (str, Spliced)):
            return NotImplemented
        return len(other) == self.length and all(
            self[at : at + BLOCK] == other[at : at + BLOCK] for at in range(0, self.length, BLOCK)
        )

    __hash__ = None  # type: ignore[assignment]

    def pieces(self, start: int = 0, end: int | None = None) -> Iterator[tuple[str, int, int]]:
        """The (source, start, end) pieces that make up ``self[start:end]``."""
        end = self.length if end is None else min(end, self.length)
        offset = 0
        for source, first, last in self.parts:
            size = last - first
            if offset + size > start and offset < end:
                yield source, first + max(start - offset, 0), first + min(end - offset, size)
            offset += size
            if offset >= end:
                return

    def __getitem__(self, key: int | slice) -> str:
        if isinstance(key, int):
            index = key + self.length if key < 0 else key
            if not 0 <= index < self.length:
                raise IndexError("Spliced index out of range")
            return self[index : index + 1]
        start, stop, step = key.indices(self.length)
        if step != 1:
            raise ValueError("a Spliced text is sliced with step 1 only")
        return "".join(source[a:b] for source, a, b in self.pieces(start, stop))

    def _windows(self, start: int, end: int, overlap: int) -> Iterator[tuple[int, str]]:
        """``self[start:end]`` as (offset, text) windows of BLOCK characters, each reaching
        ``overlap`` characters into the next (so a match across two windows is seen)."""
        at = start
        while at < end:
            yield at, self[at : min(at + BLOCK + overlap, end)]
            at += BLOCK

    def find(self, sub: str, start: int = 0, end: int | None = None) -> int:
        end = self.length if end is None else min(end, self.length)
        for offset, window in self._windows(max(start, 0), end, len(sub) - 1):
            found = window.find(sub)
            if found >= 0:
                return offset + found
        return -1

    def rfind(self, sub: str, start: int = 0, end: int | None = None) -> int:
        end = self.length if end is None else min(end, self.length)
        start = max(start, 0)
        at = end
        while at > start:
            first = max(at - BLOCK, start)
            found = self[first : min(at + len(sub) - 1, end)].rfind(sub)
            if found >= 0:
                return first + found
            at = first
        return -1

    def index(self, sub: str, start: int = 0, end: int | None = None) -> int:
        found = self.find(sub, start, end)
        if found < 0:
            raise ValueError("substring not found")
        return found

    def count(self, sub: str, start: int = 0, end: int | None = None) -> int:
        """How often a single character stands in ``self[start:end]``."""
        assert len(sub) == 1, "count looks for one character"
        return sum(source.count(sub, a, b) for source, a, b in self.pieces(start, end))

    def __contains__(self, sub: str) -> bool:
        return self.find(sub) >= 0


Text = str | Spliced


class Streamed:
    """A text made a block at a time each time it is read, never whole in memory: a large file
    decoded as it is read (source.streamed_text), a sheet as it is written (the proof that a
    conversion reads back the same). The parser reads it as it reads a str (yaml_tree's
    TextBlocks). What yaml_tree.text_blocks asks of a text is known from one look over it:
    ``head`` is its first block with more than blank space in it (where it shows whether it
    is JSON), ``has_pair_escapes`` whether a ``\\ud``/``\\uD`` stands anywhere in it."""

    __slots__ = ("make", "head", "has_pair_escapes")

    def __init__(
        self, make: Callable[[], Iterator[str]], head: str, has_pair_escapes: bool
    ) -> None:
        self.make, self.head, self.has_pair_escapes = make, head, has_pair_escapes

    @classmethod
    def of(cls, make: Callable[[], Iterator[str]]) -> Streamed:
        """The text ``make()`` gives, looked over once for its head and escapes."""
        head, tail, pairs = None, "", False
        for block in make():
            head = first_words(head, block)
            pairs, tail = pair_escapes(tail + block, pairs)
        return cls(make, head or "", pairs)

    def blocks(self) -> Iterator[str]:
        """The text from its start, a block at a time."""
        return self.make()


BLANK = " \t\r\n\ufeff"  # what may stand before a JSON text's first { or [


def first_words(head: str | None, block: str) -> str | None:
    """The head of a text read a block at a time: its first block not wholly BLANK."""
    return block if head is None and block.strip(BLANK) else head


def pair_escapes(window: str, seen: bool) -> tuple[bool, str]:
    """Whether ``\\ud``/``\\uD`` stands in the text so far (``seen``: before this window, which
    starts with the tail of the last), and the tail to carry into the next window."""
    return seen or "\\ud" in window or "\\uD" in window, window[-2:]


def _pieces(base: Text, start: int, end: int) -> list[tuple[str, int, int]]:
    """``base[start:end]`` as pieces of plain strings."""
    if start >= end:
        return []
    if isinstance(base, Spliced):
        return list(base.pieces(start, end))
    return [(base, start, end)]


def blocks(text: Text, size: int = BLOCK) -> Iterator[str]:
    """The text a block of at most ``size`` characters at a time (a whole text is never
    copied at once)."""
    parts = text.parts if isinstance(text, Spliced) else ((text, 0, len(text)),)
    for source, start, end in parts:
        for at in range(start, end, size):
            yield source[at : min(at + size, end)]


def search(pattern: re.Pattern[str], text: Text, pos: int = 0) -> re.Match[str] | Found | None:
    """``pattern.search(text, pos)`` for a pattern that matches at most 2 characters (a line
    break); a match in a Spliced text has the text's own offsets (``start()`` only)."""
    if isinstance(text, str):
        return pattern.search(text, pos)
    for offset, window in text._windows(pos, len(text), 2):
        found = pattern.search(window)
        # a match in the overlap is left to the next window, which sees all of it
        if found is not None and (found.start() < BLOCK or offset + len(window) == len(text)):
            return Found(offset + found.start(), offset + found.end(), found.group())
    return None


class Found:
    """Where a pattern matched in a Spliced text (what ``re.Match`` would say)."""

    __slots__ = ("_start", "_end", "_group")

    def __init__(self, start: int, end: int, group: str) -> None:
        self._start, self._end, self._group = start, end, group

    def start(self) -> int:
        return self._start

    def end(self) -> int:
        return self._end

    def group(self) -> str:
        return self._group


def finditer(pattern: re.Pattern[str], text: Text) -> Iterator[re.Match[str] | Found]:
    """Every match of a short pattern (a line break), in order."""
    if isinstance(text, str):
        yield from pattern.finditer(text)
        return
    at = 0
    while (found := search(pattern, text, at)) is not None:
        yield found
        at = max(found.end(), at + 1)


def digest(text: Text) -> bytes:
    """A fingerprint of a text (its length and a BLAKE2 hash, computed a block at a time): what
    a long text is remembered by instead of itself."""
    import hashlib  # (OpenSSL's library: milliseconds of every start, for an edit's check)

    hashed = hashlib.blake2b(digest_size=16)
    for block in blocks(text):
        hashed.update(block.encode("utf-8", "surrogatepass"))
    return len(text).to_bytes(8, "little") + hashed.digest()
