"""The one place inputs are opened: ``-`` is standard input, a byte-order mark is read, bytes
are decoded and checked, lines are split, sizes are bounded.

Below every reader (yaml_sheets, csv_sheets, workbook, settings_files); which reader a source
goes to is :mod:`.formats`' (:func:`~.formats.read_sheets`).
"""

from __future__ import annotations

import codecs
import errno
import io
import os
import re
import stat
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import IO

from ..editing.spliced import Streamed, first_words, pair_escapes
from ..errors import Problem, WizardError

BLOCK_BYTES = 1 << 16  # what is read and decoded at a time
STDIN = "-"
STDIN_NAME = "<stdin>"
MAX_YAML_BYTES = 64 << 20  # a YAML source is read whole: 64 MB is thousands of games
MAX_LINE_CHARS = 1 << 20  # a CSV line longer than 1 MiB characters is no score sheet
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_ESCAPED_BYTE = re.compile("[\udc80-\udcff]")  # a byte surrogateescape could not decode


def display_name(path: str) -> str:
    """How a source is named in messages and output: ``<stdin>`` for ``-``."""
    return STDIN_NAME if path == STDIN else path


@contextmanager
def open_binary(path: str, follow: bool = True) -> Iterator[IO[bytes]]:
    """The one place inputs are opened: ``-`` is standard input; errors become WizardError.
    ``follow=False``: a symbolic link is refused, not followed (see :func:`open_regular`)."""
    if path == STDIN:
        if sys.stdin is None:  # started with stdin closed (`wizard score - <&-`)
            raise WizardError(Problem("cannot read: standard input is closed", STDIN_NAME))
        with _read_errors(STDIN_NAME):
            yield sys.stdin.buffer
        return
    handle = open(open_regular(path, follow=follow), "rb")  # noqa: SIM115 -- (a descriptor: never blocks)
    with handle, _read_errors(path):
        yield handle


_NOT_FOLLOWED = "cannot read: a symbolic link, not a sheet file (never followed here)"
_OPEN_FLAGS = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
_KINDS = (
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
    (stat.S_ISSOCK, "a socket"),
)


def open_regular(path: str, shown: str | None = None, follow: bool = True) -> int:
    """A file descriptor of the regular file at ``path``, opened so that the open itself can
    never block: a FIFO or device swapped in for a sheet after it was checked would otherwise
    hold the process (or ``serve``'s reader) forever (SPEC §9 "Staying up, also"). Anything
    but a regular file is refused with one located line (WizardError); with ``follow=False``
    a symbolic link too (``serve DIR``: one put in a game's place since the folder was scanned
    may lead out of the folder, SPEC §9)."""
    shown = shown or path
    try:
        handle = os.open(path, _OPEN_FLAGS if follow else _OPEN_FLAGS | os.O_NOFOLLOW)
    except OSError as error:
        if error.errno == errno.ELOOP and not follow:
            raise WizardError(Problem(_NOT_FOLLOWED, shown)) from None
        raise WizardError(Problem(f"cannot read: {error.strerror or error}", shown)) from None
    try:
        mode = os.fstat(handle).st_mode
        if not stat.S_ISREG(mode):
            kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
            raise WizardError(Problem(f"cannot read: {kind}, not a sheet file", shown))
        os.set_blocking(handle, True)  # a regular file reads the same; nothing else gets here
    except OSError as error:
        os.close(handle)
        raise WizardError(Problem(f"cannot read: {error.strerror or error}", shown)) from None
    except BaseException:
        os.close(handle)
        raise
    return handle


@contextmanager
def _read_errors(source: str) -> Iterator[None]:
    """A read that fails half-way (a disk error, a vanished network share) is a located error."""
    try:
        yield
    except OSError as error:
        raise WizardError(Problem(f"cannot read: {error.strerror or error}", source)) from None


def text_encoding(encoding: str | None) -> str:
    """The codec to decode with: UTF-8 by default, and UTF-8 always drops a byte-order mark.

    Raises LookupError for a name that is no text encoding (``nope``, and also ``rot13`` or
    ``hex``, which Python knows but which do not turn bytes into text).
    """
    info = codecs.lookup(encoding or "utf-8")
    if not getattr(info, "_is_text_encoding", True):
        raise LookupError(f"{encoding} is not a text encoding")
    return "utf-8-sig" if info.name in ("utf-8", "utf-8-sig") else info.name


def bom_encoding(head: bytes) -> str | None:
    """UTF-16 or UTF-32 announced by a byte-order mark ("Unicode text" saved by a spreadsheet;
    the codec reads the mark and drops it)."""
    if head.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        return "utf-32"
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    return None


def file_encoding(encoding: str | None, head: bytes) -> str | None:
    """The encoding to read a file with: what its byte-order mark says (UTF-16, UTF-32, UTF-8:
    SPEC §3 "whatever a byte-order mark says", even over ``--encoding``), else the one asked
    for, else None (UTF-8)."""
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8"  # read as utf-8-sig: the mark is dropped
    return bom_encoding(head) or encoding


def read_limited(handle: IO[bytes], source: str) -> bytes:
    """A whole input, refusing one too large to be a score sheet (or an endless stream).

    A regular file is first read for the size it has (asked for MAX_YAML_BYTES + 1 bytes, the
    reader made a 64 MB buffer, mapped and unmapped, for every small sheet of a folder); what
    it may have grown by since, and any other input, is read up to the bound."""
    try:
        size = os.fstat(handle.fileno()).st_size - handle.tell() + 1
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        size = 0
    data = handle.read(size) if 0 < size <= MAX_YAML_BYTES else b""
    if len(data) == size or not data:  # there may be more
        data += handle.read(MAX_YAML_BYTES + 1 - len(data))
    if len(data) > MAX_YAML_BYTES:
        raise WizardError(
            Problem(
                f"larger than {MAX_YAML_BYTES >> 20} MB: too large for a YAML "
                "score sheet (a long season reads fine as CSV)",
                source,
            )
        )
    return data


def _decoding_problem(source: str, line: int, byte: int, encoding: str | None) -> WizardError:
    """A byte that does not decode, as one located line with the likely fix."""
    hint = (
        "a file saved by an older spreadsheet is often Latin-1: try --encoding latin-1 (or cp1252)"
        if encoding is None
        else "try another --encoding (latin-1 reads any byte)"
    )
    return WizardError(
        Problem(
            f"not {(encoding or 'UTF-8').upper()} text (byte 0x{byte:02x}); {hint}", source, line
        )
    )


def _nul_problem(source: str, line: int) -> WizardError:
    """A NUL character: a binary file, or UTF-16 text read as UTF-8."""
    return WizardError(
        Problem(
            "a NUL byte: this is not a text file (UTF-16 text needs --encoding utf-16)",
            source,
            line,
        )
    )


def _line_of(text: str, offset: int) -> int:
    """The 1-based line of a character offset (CR, LF and CRLF each end a line)."""
    return len(_LINE_BREAK.findall(text, 0, offset)) + 1


def decode_all(data: bytes, source: str, encoding: str | None) -> str:
    """A whole file as text (for YAML), with the line of any byte that does not decode."""
    codec = text_encoding(encoding)
    try:
        text = data.decode(codec)
    except UnicodeDecodeError as error:
        before = data[: error.start].decode(codec, "replace")
        raise _decoding_problem(
            source, _line_of(before, len(before)), error.object[error.start], encoding
        ) from None
    nul = text.find("\x00")
    if nul >= 0:
        raise _nul_problem(source, _line_of(text, nul))
    return text


STREAM_BYTES = 1 << 20  # a regular file larger than this is parsed as it is decoded


def streamed_text(handle: IO[bytes], encoding: str | None) -> Streamed | None:
    """A large regular file's text, decoded a block at a time each time it is read (a
    :class:`~.spliced.Streamed` text: never whole in memory, SPEC §4), or None when it is better read whole
    (:func:`read_limited` and :func:`decode_all`): a small file, a pipe, or one with a problem
    those two report (too large, a byte that does not decode, a NUL), in their own words."""
    try:
        info = os.fstat(handle.fileno())
        start = handle.tell()  # 0 but for standard input redirected from a file read in part
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        return None
    if not stat.S_ISREG(info.st_mode) or not STREAM_BYTES < info.st_size - start <= MAX_YAML_BYTES:
        return None
    codec = text_encoding(encoding)
    found = _sound_text(handle, codec)
    handle.seek(start)  # read again from the start, block by block or whole
    # Found sound, it is read again without a check: what could fail now is only the disk.
    return None if found is None else Streamed(lambda: _decoded(handle, codec, start), *found)


def _decoded(handle: IO[bytes], codec: str, start: int) -> Iterator[str]:
    """The file's text from ``start``, a block of decoded characters at a time."""
    handle.seek(start)
    decoder = codecs.getincrementaldecoder(codec)()
    while True:
        data = handle.read(BLOCK_BYTES)
        chunk = decoder.decode(data, final=not data)
        if chunk:
            yield chunk
        if not data:
            return


def _sound_text(handle: IO[bytes], codec: str) -> tuple[str, bool] | None:
    """One pass over a file: its head (see Streamed) and whether it holds a JSON surrogate
    escape; None if some byte does not decode, a NUL stands in it, or it is larger than
    allowed."""
    decoder = codecs.getincrementaldecoder(codec)()
    head, tail, pairs, size = None, "", False, 0
    while True:
        data = handle.read(BLOCK_BYTES)
        size += len(data)
        try:
            chunk = decoder.decode(data, final=not data)
        except UnicodeDecodeError:
            return None
        if "\x00" in chunk or size > MAX_YAML_BYTES:  # the file grew: read whole, refused
            return None
        head = first_words(head, chunk)
        pairs, tail = pair_escapes(tail + chunk, pairs)
        if not data:
            return head or "", pairs


def decoded_blocks(
    handle: IO[bytes],
    source: str,
    encoding: str | None,
    block_bytes: int = BLOCK_BYTES,
    waiting: Callable[[], None] | None = None,
) -> Iterator[str]:
    """The text decoded as it is read, in blocks of whole lines (CRLF, LF or CR ended), each bad
    byte located.

    The text is decoded and checked a block at a time (C-speed checks, no Python code per
    line: a season archive has a million lines). An undecodable byte is carried to its line as
    a lone surrogate (``surrogateescape``) and reported there, after the lines before it. A line
    is at most MAX_LINE_CHARS long: an endless one (``/dev/zero`` piped in) ends in an error,
    not in all memory used up. ``waiting`` is called before each read (see :func:`read_sheets`).
    """
    decoder = codecs.getincrementaldecoder(text_encoding(encoding))(errors="surrogateescape")
    read = getattr(handle, "read1", handle.read)  # what has arrived: a pipe is read as it comes
    number = 0  # lines handed out so far
    carry = ""  # the start of a line whose end is in the next block
    while True:
        if waiting is not None:
            waiting()
        data = read(block_bytes)
        try:
            chunk = decoder.decode(data, final=not data)
        except UnicodeDecodeError as error:  # not even surrogateescape could carry it (UTF-16)
            raise _decoding_problem(
                source, number + 1, error.object[error.start], encoding
            ) from None
        block, carry = _whole_lines(carry + chunk) if data else (carry + chunk, "")
        bad = _first_bad_line(block, source, number, encoding)
        if bad is not None:
            if bad[0]:
                yield bad[0]
            raise bad[1]
        lines = _count_lines(block)
        if len(carry) >= MAX_LINE_CHARS:
            raise WizardError(
                Problem(
                    f"a line longer than {MAX_LINE_CHARS} characters: not a score sheet",
                    source,
                    number + lines + 1,
                )
            )
        number += lines
        if block:
            yield block
        if not data:
            return


def _whole_lines(text: str) -> tuple[str, str]:
    """The text up to its last line break known to be whole, and the rest (a CR at the very end
    may be half of a CRLF)."""
    end = max(text.rfind("\n"), text.rfind("\r", 0, len(text) - 1)) + 1
    return text[:end], text[end:]


def _count_lines(text: str) -> int:
    """How many lines the text has (CRLF, LF or CR ended; the last may have no ending)."""
    breaks = text.count("\n")
    if "\r" in text:  # (a search, not a count: most files have none)
        breaks += text.count("\r") - text.count("\r\n")
    return breaks + (not text.endswith(("\n", "\r")) and bool(text))


_OTHER_BREAKS = re.compile("[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")  # str.splitlines's extras
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")


def split_lines(block: str) -> list[str]:
    """A block's lines with their endings; only CR, LF and CRLF end a line (as for csv)."""
    if not _has_other_breaks(block):
        return block.splitlines(True)
    return _LINE.findall(block)


def _has_other_breaks(text: str) -> bool:
    """Whether ``str.splitlines`` would break the text where csv does not (a form feed, …)."""
    # Five substring searches run faster than one character-class regex over 64 kB of ASCII.
    if any(char in text for char in _ASCII_OTHER_BREAKS):
        return True
    return not text.isascii() and _OTHER_BREAKS.search(text) is not None


_ASCII_OTHER_BREAKS = "\x0b\x0c\x1c\x1d\x1e"


def _first_bad_line(
    block: str, source: str, before: int, encoding: str | None
) -> tuple[str, WizardError] | None:
    """The text before the first line with a byte that did not decode or a NUL, and its error."""
    escaped = not block.isascii() and _ESCAPED_BYTE.search(block) is not None
    if not escaped and "\x00" not in block:
        return None
    lines = split_lines(block)
    for index, line in enumerate(lines):
        if not line.isascii() and (byte := _ESCAPED_BYTE.search(line)):
            return "".join(lines[:index]), _decoding_problem(
                source, before + index + 1, ord(byte.group()) - 0xDC00, encoding
            )
        if "\x00" in line:
            return "".join(lines[:index]), _nul_problem(source, before + index + 1)
    raise AssertionError("a bad character outside every line")  # pragma: no cover
