"""JSON read a value at a time from its bytes: the members of a top-level object (or the items of
a top-level array) found by their brackets and parsed one by one, so an export of 100,000 games
is read in flat memory (SPEC §4); and any JSON text parsed with its nesting bounded.

Only another app's export (:mod:`.keepwiz`, :mod:`.escalier`) is read here; a wizard sheet in
JSON is YAML (:mod:`.yaml_sheets`). The bytes are UTF-8 (what both apps write).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import IO, Any, Iterator

from ..errors import Problem, WizardError

MAX_DEPTH = 64  # nesting: a game record is 4 deep; deeper is no export (and no recursion bomb)
MAX_VALUE_BYTES = 8 << 20  # one game record: a 20-round game of 6 is a few kB
CHUNK_BYTES = 1 << 16

# A whole string, a bracket, or a quote whose string does not end in the bytes read so far.
_TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*"|[{}\[\]]|"', re.DOTALL)
_SPACE = re.compile(rb"[ \t\r\n]*")
_SCALAR_END = re.compile(rb'[,}\]\s]')


@dataclass(frozen=True, slots=True)
class Member:
    """One top-level member: its key (None in an array), where its value starts (a byte offset
    and a line), and the value's bytes."""

    key: str | None
    offset: int
    line: int
    raw: bytes


class _Scanner:
    """Bytes read from a handle a chunk at a time, those already used let go."""

    def __init__(self, handle: IO[bytes], source: str, what: str, offset: int = 0,
                 line: int = 1) -> None:
        self.handle, self.source, self.what = handle, source, what
        self.buf, self.pos, self.base, self.eof = b"", 0, offset, False
        self.line, self.counted = line, 0  # the line of byte ``counted`` of ``buf``

    def fail(self, message: str) -> WizardError:
        """A located problem with the document (the line where the scan stands)."""
        return WizardError(Problem(f"{self.what}: {message}", self.source,
                                   self.line + self.buf.count(b"\n", self.counted, self.pos)))

    def line_here(self) -> int:
        """The line of the current position (counted on from the last asked for)."""
        self.line += self.buf.count(b"\n", self.counted, self.pos)
        self.counted = self.pos
        return self.line

    def more(self) -> bool:
        """Read another chunk; False at the end of the input."""
        if self.eof:
            return False
        chunk = self.handle.read(CHUNK_BYTES)
        if not chunk:
            self.eof = True
            return False
        self.buf += chunk
        return True

    def forget(self) -> None:
        """Let the bytes before the current position go (counting their lines), once they are
        a chunk's worth (each member's would copy the rest of the buffer each time)."""
        if self.pos >= CHUNK_BYTES:
            self.line_here()
            self.base += self.pos
            self.buf, self.pos, self.counted = self.buf[self.pos:], 0, 0

    def peek(self) -> bytes:
        """The next byte that is not white space (empty at the end of the input)."""
        while True:
            self.pos = _SPACE.match(self.buf, self.pos).end()
            if self.pos < len(self.buf) or not self.more():
                return self.buf[self.pos:self.pos + 1]

    def expect(self, allowed: bytes) -> bytes:
        """The next byte, which must be one of ``allowed``."""
        byte = self.peek()
        if not byte or byte not in allowed:
            found = f"'{byte.decode('latin-1')}'" if byte else "the end of the file"
            wanted = " or ".join(f"'{chr(b)}'" for b in allowed)
            raise self.fail(f"not valid JSON: {wanted} expected, found {found}")
        self.pos += 1
        return byte

    def value(self) -> bytes:
        """The bytes of the value at the current position (past them afterwards)."""
        start = self.pos
        first = self.peek()
        start = self.pos
        if not first:
            raise self.fail("not valid JSON: a value expected, found the end of the file")
        if first not in b"{[":
            return self._scalar(start)
        depth, scan = 0, start
        while True:
            for match in _TOKEN.finditer(self.buf, scan):
                token = match.group()
                if token == b'"':  # a string not yet read to its end
                    scan = match.start()
                    break
                if token[0] == 0x22:
                    continue
                depth += 1 if token in b"{[" else -1
                if depth > MAX_DEPTH:
                    self.pos = match.start()
                    raise self.fail(f"nested more than {MAX_DEPTH} deep: no score export is")
                if depth == 0:
                    self.pos = match.end()
                    return self.buf[start:self.pos]
            else:
                scan = len(self.buf)
            if scan - start > MAX_VALUE_BYTES:
                raise self.fail(f"one value longer than {MAX_VALUE_BYTES >> 20} MB: no game "
                                "record is")
            if not self.more():
                self.pos = start
                raise self.fail("not valid JSON: the file ends inside a value")

    def _scalar(self, start: int) -> bytes:
        """A string, number or literal at ``start``."""
        while True:
            if self.buf[start:start + 1] == b'"':
                match = _TOKEN.match(self.buf, start)
                end = match.end() if match and match.group() != b'"' else None
            else:
                match = _SCALAR_END.search(self.buf, start)
                end = match.start() if match else (len(self.buf) if self.eof else None)
            if end is not None:
                self.pos = end
                return self.buf[start:end]
            if len(self.buf) - start > MAX_VALUE_BYTES or not self.more():
                raise self.fail("not valid JSON: the file ends inside a value")


def loads(raw: bytes, source: str, what: str, line: int | None = None) -> Any:
    """One JSON value from its bytes, its nesting bounded first (a deep one is refused before
    the parser recurses into it)."""
    depth = 0
    for match in _TOKEN.finditer(raw):
        token = match.group()
        if token[0] != 0x22:
            depth += 1 if token in b"{[" else -1
            if depth > MAX_DEPTH:
                raise WizardError(Problem(f"{what}: nested more than {MAX_DEPTH} deep: no score "
                                          "export is", source, line))
    try:
        return json.loads(raw)
    except (ValueError, RecursionError) as error:
        where = line
        if isinstance(error, json.JSONDecodeError):
            where = (line or 1) + error.doc.count("\n", 0, error.pos)
            error = error.msg  # type: ignore[assignment]
        raise WizardError(Problem(f"{what}: not valid JSON: {error}", source, where)) from None


def members(handle: IO[bytes], source: str, what: str) -> tuple[bytes, Iterator[Member]]:
    """The top-level container of a JSON document (``{`` or ``[``) and its members one by one,
    each value's bytes read alone: memory holds one member, however many the file has."""
    scan = _Scanner(handle, source, what)
    scan.more()
    if scan.buf.startswith(b"\xef\xbb\xbf"):
        scan.pos = 3
    opener = scan.expect(b"{[")
    return opener, _members(scan, opener)


def _members(scan: _Scanner, opener: bytes) -> Iterator[Member]:
    """What :func:`members` gives after the opening bracket."""
    closer = b"}" if opener == b"{" else b"]"
    if scan.peek() == closer:
        scan.pos += 1
    else:
        while True:
            key = None
            if opener == b"{":
                if scan.peek() != b'"':
                    raise scan.fail("not valid JSON: a member's name expected")
                key = loads(scan.value(), scan.source, scan.what, scan.line_here())
                scan.expect(b":")
            scan.peek()
            scan.forget()
            offset, line = scan.base + scan.pos, scan.line_here()
            raw = scan.value()
            yield Member(key, offset, line, raw)
            if scan.expect(b"," + closer) == closer:
                break
    if scan.peek():
        raise scan.fail("not valid JSON: more after the end of the document")


def value_at(handle: IO[bytes], offset: int, line: int, source: str, what: str) -> bytes:
    """The bytes of the one value that starts at ``offset`` of a seekable file (a member found
    by :func:`members` before)."""
    handle.seek(offset)
    return _Scanner(handle, source, what, offset, line).value()
