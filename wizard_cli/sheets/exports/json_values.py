"""JSON read a value at a time from its bytes: the members of a top-level object (or the items of
a top-level array) each parsed alone by json's own scanner over the text read so far, so an
export of 100,000 games is read in flat memory (SPEC §4), and found again later by its byte
offset; and any JSON text parsed whole with its nesting bounded.

Only another app's export (:mod:`~wizard_cli.sheets.exports.keepwiz`, :mod:`~wizard_cli.sheets.exports.escalier`) is read here; a wizard sheet in
JSON is YAML (:mod:`~wizard_cli.sheets.yaml.sheets`). The bytes are UTF-8 (what both apps write).
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Any

from ...errors import Problem, WizardError

MAX_DEPTH = 64  # nesting of a link's or a lone export's JSON: a game record is 4 deep
MAX_VALUE_BYTES = 8 << 20  # one game record: a 20-round game of 6 is a few kB
CHUNK_CHARS = 1 << 16
# A member's value is parsed by json's own scanner (a deep one ends in its RecursionError,
# reported as such); the text between values by these.
_SPACE = re.compile(r"[ \t\r\n]*")
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_DECODER = json.JSONDecoder()


@dataclass(frozen=True, slots=True)
class Member:
    """One top-level member: its key (None in an array), where its value starts (a byte offset
    and a line), and the value, parsed."""

    key: str | None
    offset: int
    line: int
    value: Any


class _Scanner:
    """UTF-8 text decoded from a handle a chunk at a time, what was used let go; positions
    are counted in lines and in bytes (to come back to a value with :func:`value_at`)."""

    def __init__(
        self, handle: IO[bytes], source: str, what: str, offset: int = 0, line: int = 1
    ) -> None:
        self.handle, self.source, self.what = handle, source, what
        self.decoder = codecs.getincrementaldecoder("utf-8")()
        self.buf, self.pos, self.eof = "", 0, False
        # the line and byte offset of character ``counted`` of ``buf``
        self.line, self.offset, self.counted = line, offset, 0

    def fail(self, message: str) -> WizardError:
        """A located problem with the document (the line where the scan stands)."""
        return WizardError(
            Problem(
                f"{self.what}: {message}",
                self.source,
                self.line + self.buf.count("\n", self.counted, self.pos),
            )
        )

    def here(self) -> tuple[int, int]:
        """The byte offset and line of the current position (counted on from the last)."""
        passed = self.buf[self.counted : self.pos]
        self.line += passed.count("\n")
        self.offset += len(passed.encode("utf-8", "surrogatepass"))
        self.counted = self.pos
        return self.offset, self.line

    def more(self, size: int = CHUNK_CHARS) -> bool:
        """Read about ``size`` more bytes; False at the end of the input."""
        if self.eof:
            return False
        chunk = self.handle.read(size)
        try:
            self.buf += self.decoder.decode(chunk, final=not chunk)
        except UnicodeDecodeError as error:
            raise self.fail(f"not UTF-8 text ({error.reason}): try --encoding latin-1") from None
        self.eof = not chunk
        return bool(chunk)

    def forget(self) -> None:
        """Let the text before the current position go, once it is a chunk's worth."""
        if self.pos >= CHUNK_CHARS:
            self.here()
            self.buf, self.pos, self.counted = self.buf[self.pos :], 0, 0

    def peek(self) -> str:
        """The next character that is not white space (empty at the end of the input)."""
        while True:
            space = _SPACE.match(self.buf, self.pos)
            assert space is not None  # a run of none or more spaces matches anywhere
            self.pos = space.end()
            if self.pos < len(self.buf) or not self.more():
                return self.buf[self.pos : self.pos + 1]

    def expect(self, allowed: str) -> str:
        """The next character, which must be one of ``allowed``."""
        char = self.peek()
        if not char or char not in allowed:
            found = f"'{char}'" if char else "the end of the file"
            wanted = " or ".join(f"'{c}'" for c in allowed)
            raise self.fail(f"not valid JSON: {wanted} expected, found {found}")
        self.pos += 1
        return char

    def value(self) -> Any:
        """The value at the current position, parsed (the position past it afterwards). Parsed
        again with more text read while it fails short of the end of the input: a value cut by
        a chunk's end; the text read grows by doubling, up to MAX_VALUE_BYTES."""
        self.peek()
        while True:
            try:
                value, end = _DECODER.raw_decode(self.buf, self.pos)
                if end < len(self.buf) or self.eof or self.buf[self.pos] in '{["':
                    self.pos = end
                    if too_deep(value):  # (Python 3.12 on parses deep JSON without a
                        raise self.fail("nested too deep: no score export is")  # RecursionError)
                    return value
            except json.JSONDecodeError as error:
                if self.eof:
                    self.pos = error.pos
                    raise self.fail(f"not valid JSON: {error.msg}") from None
            except RecursionError:
                raise self.fail("nested too deep: no score export is") from None
            if len(self.buf) - self.pos > MAX_VALUE_BYTES:
                raise self.fail(
                    f"one value longer than {MAX_VALUE_BYTES >> 20} MB: no game record is"
                )
            self.more(max(CHUNK_CHARS, len(self.buf) - self.pos))


def too_deep(value: Any) -> bool:
    """Whether a parsed JSON value nests lists and objects more than MAX_DEPTH deep (walked
    with a stack of its own: no recursion)."""
    pending = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, dict | list):
            if depth > MAX_DEPTH:
                return True
            children = item.values() if isinstance(item, dict) else item
            pending.extend(
                (child, depth + 1) for child in children if isinstance(child, dict | list)
            )
    return False


def loads(raw: bytes, source: str, what: str, line: int | None = None) -> Any:
    """One JSON value from its bytes, its nesting bounded first (a deep one is refused before
    the parser recurses into it)."""
    brackets = _STRING.sub(b"", raw).translate(None, _NOT_BRACKETS)
    for _ in range(MAX_DEPTH):  # each pass takes away the innermost level
        if not brackets:
            break
        brackets = brackets.replace(b"{}", b"").replace(b"[]", b"")
    else:
        if brackets:
            raise WizardError(
                Problem(
                    f"{what}: nested more than {MAX_DEPTH} deep: no score export is", source, line
                )
            )
    try:
        return json.loads(raw)
    except (ValueError, RecursionError) as error:
        where = line
        if isinstance(error, json.JSONDecodeError):
            where = (line or 1) + error.doc.count("\n", 0, error.pos)
            error = error.msg  # type: ignore[assignment]
        raise WizardError(Problem(f"{what}: not valid JSON: {error}", source, where)) from None


_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"{}[]")


def members(handle: IO[bytes], source: str, what: str) -> tuple[str, Iterator[Member]]:
    """The top-level container of a JSON document (``{`` or ``[``) and its members one by one,
    each value parsed alone: memory holds one member, however many the file has."""
    scan = _Scanner(handle, source, what)
    scan.more()
    if scan.buf.startswith("\ufeff"):
        scan.pos = scan.counted = 1
        scan.offset = 3
    opener = scan.expect("{[")
    return opener, _members(scan, opener)


def _members(scan: _Scanner, opener: str) -> Iterator[Member]:
    """What :func:`members` gives after the opening bracket."""
    closer = "}" if opener == "{" else "]"
    if scan.peek() == closer:
        scan.pos += 1
    else:
        while True:
            key = None
            if opener == "{":
                if scan.peek() != '"':
                    raise scan.fail("not valid JSON: a member's name expected")
                key = scan.value()
                scan.expect(":")
            scan.peek()
            scan.forget()
            offset, line = scan.here()
            yield Member(key, offset, line, scan.value())
            if scan.expect("," + closer) == closer:
                break
    if scan.peek():
        raise scan.fail("not valid JSON: more after the end of the document")


def value_at(handle: IO[bytes], offset: int, line: int, source: str, what: str) -> Any:
    """The one value that starts at byte ``offset`` of a seekable file (a member found by
    :func:`members` before), parsed."""
    handle.seek(offset)
    return _Scanner(handle, source, what, offset, line).value()
