"""Every input format is read here: YAML/JSON sheets, long and wide CSV, settings files.

One place opens inputs (``-`` is standard input, a byte-order mark is dropped, the format is
taken from the extension or sniffed) and turns them into :class:`~wizard_cli.model.Sheet`
objects. CSV is streamed one game at a time so a season archive never sits in memory whole.
"""

from __future__ import annotations

import codecs
import csv
import functools
import io
import itertools
import operator
import re
import sys
from contextlib import contextmanager
from typing import IO, TYPE_CHECKING, Iterable, Iterator, NamedTuple, Sequence

from ..errors import Problem, WizardError
from ..game.model import BadValue, RoundColumns, RoundRecord, Sheet, Value
from ..game.settings import RawSetting, suggest

if TYPE_CHECKING:
    from .yaml_tree import Node

STDIN = "-"
STDIN_NAME = "<stdin>"
YAML_SUFFIXES = (".yaml", ".yml", ".json")
CSV_SUFFIXES = (".csv", ".tsv", ".txt")
SHEET_KEYS = ("title", "players", "firstDealer", "settings", "rounds")
ROUND_KEYS = ("bids", "tricks", "points")
_SNIFF_BYTES = 8192
_SHOWN = 40  # characters of a cell's text quoted in a message
MAX_YAML_BYTES = 64 << 20  # a YAML source is read whole: 64 MB is thousands of games
MAX_LINE_CHARS = 1 << 20  # a CSV line longer than 1 MiB characters is no score sheet
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_ESCAPED_BYTE = re.compile("[\udc80-\udcff]")  # a byte surrogateescape could not decode


def display_name(path: str) -> str:
    """How a source is named in messages and output: ``<stdin>`` for ``-``."""
    return STDIN_NAME if path == STDIN else path


@contextmanager
def open_binary(path: str) -> Iterator[IO[bytes]]:
    """The one place inputs are opened: ``-`` is standard input; errors become WizardError."""
    if path == STDIN:
        if sys.stdin is None:  # started with stdin closed (`wizard score - <&-`)
            raise WizardError(Problem("cannot read: standard input is closed", STDIN_NAME))
        with _read_errors(STDIN_NAME):
            yield sys.stdin.buffer
        return
    try:
        handle = open(path, "rb")
    except OSError as error:
        raise WizardError(Problem(f"cannot read: {error.strerror or error}", path)) from None
    with handle, _read_errors(path):
        yield handle


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


def _bom_encoding(head: bytes) -> str | None:
    """UTF-16 or UTF-32 announced by a byte-order mark ("Unicode text" saved by a spreadsheet)."""
    if head.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        return "utf-32"
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    return None


def read_sheets(path: str, input_format: str | None = None,
                encoding: str | None = None) -> Iterator[Sheet]:
    """Every sheet in one source, in order; raises WizardError for a file that cannot be read."""
    source = display_name(path)
    with open_binary(path) as handle:
        buffered = handle if isinstance(handle, io.BufferedReader) else io.BufferedReader(handle)
        head = buffered.peek(_SNIFF_BYTES)[:_SNIFF_BYTES]
        announced = _bom_encoding(head)
        if encoding is None and announced:  # said, not guessed: a file edited in place keeps it
            raise WizardError(Problem(f"{announced.upper()} text (it starts with a byte-order "
                                      f"mark): read it with --encoding {announced}", source, 1))
        kind = input_format or _sniff_format(path, head, text_encoding(encoding))
        if kind == "csv":
            yield from read_csv_sheets(_decoded_blocks(buffered, source, encoding), source)
        else:
            text = _decode_all(_read_limited(buffered, source), source, encoding)
            yield from read_yaml_sheets(text, source)


def _sniff_format(path: str, head: bytes, codec: str = "utf-8") -> str:
    """``yaml`` or ``csv``, from the file's extension or else from how its first line looks."""
    lower = path.lower()
    if lower.endswith(YAML_SUFFIXES):
        return "yaml"
    if lower.endswith(CSV_SUFFIXES):
        return "csv"
    first = next((ln.strip() for ln in head.decode(codec, "replace").lstrip("\ufeff").splitlines()
                  if ln.strip()), "")
    if first.startswith(("{", "[", "---", "#", "%")) or re.match(r"^[\w\"' -]+:(\s|$)", first):
        return "yaml"
    return "csv" if any(d in first for d in ",;\t") else "yaml"


def _read_limited(handle: IO[bytes], source: str) -> bytes:
    """A whole input, refusing one too large to be a score sheet (or an endless stream)."""
    data = handle.read(MAX_YAML_BYTES + 1)
    if len(data) > MAX_YAML_BYTES:
        raise WizardError(Problem(f"larger than {MAX_YAML_BYTES >> 20} MB: too large for a YAML "
                                  "score sheet (a long season reads fine as CSV)", source))
    return data


def _decoding_problem(source: str, line: int, byte: int, encoding: str | None) -> WizardError:
    """A byte that does not decode, as one located line with the likely fix."""
    hint = ("a file saved by an older spreadsheet is often Latin-1: try --encoding latin-1 "
            "(or cp1252)" if encoding is None else "try another --encoding (latin-1 reads any byte)")
    return WizardError(Problem(f"not {(encoding or 'UTF-8').upper()} text (byte 0x{byte:02x}); "
                               f"{hint}", source, line))


def _nul_problem(source: str, line: int) -> WizardError:
    """A NUL character: a binary file, or UTF-16 text read as UTF-8."""
    return WizardError(Problem("a NUL byte: this is not a text file (UTF-16 text needs "
                               "--encoding utf-16)", source, line))


def _line_of(text: str, offset: int) -> int:
    """The 1-based line of a character offset (CR, LF and CRLF each end a line)."""
    return len(_LINE_BREAK.findall(text, 0, offset)) + 1


def _decode_all(data: bytes, source: str, encoding: str | None) -> str:
    """A whole file as text (for YAML), with the line of any byte that does not decode."""
    codec = text_encoding(encoding)
    try:
        text = data.decode(codec)
    except UnicodeDecodeError as error:
        before = data[:error.start].decode(codec, "replace")
        raise _decoding_problem(source, _line_of(before, len(before)), error.object[error.start],
                                encoding) from None
    nul = text.find("\x00")
    if nul >= 0:
        raise _nul_problem(source, _line_of(text, nul))
    return text


def _decoded_blocks(handle: IO[bytes], source: str, encoding: str | None) -> Iterator[str]:
    """The text decoded as it is read, in blocks of whole lines (CRLF, LF or CR ended), each bad
    byte located.

    The text is decoded and checked a block at a time (C-speed checks, no Python code per
    line: a season archive has a million lines). An undecodable byte is carried to its line as
    a lone surrogate (``surrogateescape``) and reported there, after the lines before it. A line
    is at most MAX_LINE_CHARS long: an endless one (``/dev/zero`` piped in) ends in an error,
    not in all memory used up.
    """
    decoder = codecs.getincrementaldecoder(text_encoding(encoding))(errors="surrogateescape")
    read = getattr(handle, "read1", handle.read)  # what has arrived: a pipe is read as it comes
    number = 0  # lines handed out so far
    carry = ""  # the start of a line whose end is in the next block
    while True:
        data = read(_BLOCK_BYTES)
        try:
            chunk = decoder.decode(data, final=not data)
        except UnicodeDecodeError as error:  # not even surrogateescape could carry it (UTF-16)
            raise _decoding_problem(source, number + 1, error.object[error.start],
                                    encoding) from None
        block, carry = _whole_lines(carry + chunk) if data else (carry + chunk, "")
        bad = _first_bad_line(block, source, number, encoding)
        if bad is not None:
            if bad[0]:
                yield bad[0]
            raise bad[1]
        lines = _count_lines(block)
        if len(carry) >= MAX_LINE_CHARS:
            raise WizardError(Problem(f"a line longer than {MAX_LINE_CHARS} characters: not a "
                                      "score sheet", source, number + lines + 1))
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
    breaks = text.count("\n") + text.count("\r") - text.count("\r\n")
    return breaks + (not text.endswith(("\n", "\r")) and bool(text))


_BLOCK_BYTES = 1 << 16
_OTHER_BREAKS = re.compile("[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")  # str.splitlines's extras
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")


def _split_lines(block: str) -> list[str]:
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


def _first_bad_line(block: str, source: str, before: int,
                    encoding: str | None) -> tuple[str, WizardError] | None:
    """The text before the first line with a byte that did not decode or a NUL, and its error."""
    escaped = not block.isascii() and _ESCAPED_BYTE.search(block) is not None
    if not escaped and "\x00" not in block:
        return None
    lines = _split_lines(block)
    for index, line in enumerate(lines):
        if not line.isascii() and (byte := _ESCAPED_BYTE.search(line)):
            return "".join(lines[:index]), _decoding_problem(source, before + index + 1,
                                                             ord(byte.group()) - 0xDC00, encoding)
        if "\x00" in line:
            return "".join(lines[:index]), _nul_problem(source, before + index + 1)
    raise AssertionError("a bad character outside every line")  # pragma: no cover


# --- cell values -------------------------------------------------------------------------

_WHOLE = re.compile(r"[+-]?\d{1,9}(?:\.0*)?")
_DATE_LIKE = re.compile(
    r"\d{1,2}[-.][A-Za-z]{3,9}\.?|[A-Za-z]{3,9}[-.]\d{1,4}|\d{4}-\d{1,2}-\d{1,2}(?:[ T].*)?"
    r"|\d{1,2}\.\d{1,2}\.(?:\d{2,4})?|\d{1,2}/\d{1,2}/\d{2,4}")


def whole_number(text: str) -> Value:
    """A cell's text as a whole number: '' is None, '2.0' is 2, anything else a BadValue."""
    if text.isdecimal() and len(text) < 10:  # the common case, exactly what _WHOLE takes as is
        return int(text)
    text = text.strip()
    if not text:
        return None
    if _WHOLE.fullmatch(text):
        return int(text.partition(".")[0])
    if len(text) > 12 and text.lstrip("+-").isdigit():
        return BadValue(text[:12] + "…", "is far too large")
    return BadValue(_shown(text))


def _shown(text: str) -> str:
    """A value as quoted in a message: cut short, so a 100 kB cell makes no 100 kB line."""
    return text if len(text) <= _SHOWN else text[:_SHOWN] + "…"


def yaml_number(node: Node | None) -> Value:
    """A YAML value as a whole number: null is None, 2.0 is 2; text or lists are BadValue."""
    if node is None:
        return None
    if node.plain and node.tag is None and node.text in _PLAIN_NUMBERS:  # most values, at once
        return _PLAIN_NUMBERS[node.text]
    if node.kind != "scalar":
        return BadValue(node.describe())
    if len(node.text) > _SHOWN:  # no bid is that long; a 5000-digit one would not even convert
        return whole_number(node.text) if node.plain else BadValue(_shown(node.text))
    try:
        value = node.value()
    except ValueError as error:
        return BadValue(node.text[:12] + ("…" if len(node.text) > 12 else ""), f"cannot be read ({error})")
    if type(value) is int:  # the usual case, tested first
        return value if abs(value) < 10**9 else BadValue(node.text[:12] + "…", "is far too large")
    if value is None:
        return None
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e9:
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return value if abs(value) < 10**9 else BadValue(node.text[:12] + "…", "is far too large")
    if isinstance(value, float) and value.is_integer():
        return BadValue(_shown(node.text), "is far too large")
    return BadValue(node.text)


# --- YAML sheets ---------------------------------------------------------------------------

def read_yaml_sheets(text: str, source: str) -> Iterator[Sheet]:
    """Each document of a YAML (or JSON) stream as a sheet; several make a season."""
    from .yaml_tree import documents  # PyYAML only for YAML: a CSV season starts sooner

    docs = list(documents(text, source))
    if not docs:
        raise WizardError(Problem("empty file: no sheet in it", source))
    if len(docs) == 1 and docs[0].kind == "seq" and docs[0].items and \
            all(item.kind == "map" for item in docs[0].items):
        docs = docs[0].items  # a JSON array of sheets is a season too (`convert --to json`)
    for number, root in enumerate(docs, start=1):
        sheet = sheet_from_node(root, source)
        sheet.game = number if len(docs) > 1 else None
        yield sheet


def sheet_from_node(root: Node, source: str) -> Sheet:
    """A sheet from a YAML mapping; what does not fit is recorded as a problem, not raised."""
    sheet = Sheet(source=source, line=root.line)
    if root.kind != "map":
        sheet.problem("a sheet is a mapping with 'players' and 'rounds'", root.line)
        return sheet
    fields = {}
    for key, value in root.pairs:
        if key.kind == "scalar" and key.text in SHEET_KEYS:
            fields[key.text] = value
        else:
            sheet.problem(f"unknown key {key.describe()}{suggest(key.text, SHEET_KEYS)} "
                          f"(a sheet has {', '.join(SHEET_KEYS)})", key.line)
    if "title" in fields:
        sheet.title = _scalar_text(fields["title"], sheet, "title")
    _read_players(fields.get("players"), sheet, root.line)
    if "firstDealer" in fields:
        sheet.first_dealer = _scalar_text(fields["firstDealer"], sheet, "firstDealer")
        sheet.first_dealer_line = fields["firstDealer"].line
    sheet.settings = settings_from_node(fields.get("settings"), source, sheet.problems)
    _read_rounds(fields.get("rounds"), sheet)
    return sheet


def _scalar_text(node: Node, sheet: Sheet, what: str) -> str | None:
    """A scalar's text as written (a name stays a name: ``No`` is not false); null is None."""
    if node.kind != "scalar":
        sheet.problem(f"{what} must be text, not {node.describe()}", node.line)
        return None
    if node.plain and node.value() is None:
        return None
    return node.text


def _read_players(node: Node | None, sheet: Sheet, line: int) -> None:
    """``players:`` — a list of names in seating order (clockwise)."""
    sheet.players_line = node.line if node else line
    if node is None or node.kind != "seq":
        sheet.problem("'players' must be a list of 3 to 6 names", sheet.players_line)
        return
    for item in node.items:
        name = item.text.strip() if item.kind == "scalar" else ""
        if item.kind != "scalar":
            sheet.problem(f"a player's name must be text, not {item.describe()}", item.line)
        sheet.players.append(name)
        sheet.player_lines.append(item.line)


def settings_from_node(node: Node | None, source: str, problems: list[Problem]) -> list[RawSetting]:
    """A ``settings:`` mapping as raw settings with their lines (checked later, in layers)."""
    if node is None or (node.kind == "scalar" and node.plain and node.value() is None):
        return []
    if node.kind != "map":
        problems.append(Problem("'settings' must be a mapping of setting: value", source, node.line))
        return []
    raws = []
    for key, value in node.pairs:
        raws.append(RawSetting(key.text if key.kind == "scalar" else key.describe(),
                               _setting_value(value), source, value.line))
    return raws


def _setting_value(node: Node) -> object:
    """A setting's YAML value, or its text when it is something that cannot be read."""
    if node.kind != "scalar":
        return node.describe()
    if len(node.text) > _SHOWN:  # no setting's value is that long: quote it short
        return _shown(node.text)
    try:
        return node.value()
    except ValueError:
        return node.text


def _read_rounds(node: Node | None, sheet: Sheet) -> None:
    """``rounds:`` — a list of ``{bids, tricks}`` mappings, the last possibly without tricks."""
    if node is None or (node.kind == "scalar" and node.plain and node.value() is None):
        return
    if node.kind != "seq":
        sheet.problem("'rounds' must be a list of rounds", node.line)
        return
    for number, item in enumerate(node.items, start=1):
        sheet.rounds.append(_read_round(item, number, sheet))


def _read_round(node: Node, number: int, sheet: Sheet) -> RoundRecord:
    """One round's mapping: bids (and tricks, points) as lists in seating order or by name."""
    fields: dict[str, Node] = {}
    key_lines: dict[str, int] = {}  # where `bids:` / `tricks:` stand: the line of values left out
    if node.kind != "map":
        sheet.problem(f"a round is a mapping with 'bids' and 'tricks', not {node.describe()}",
                      node.line, number)
    for key, value in node.pairs:
        if key.kind == "scalar" and key.text in ROUND_KEYS:
            fields[key.text] = value
            key_lines[key.text] = key.line
        else:
            sheet.problem(f"unknown key {key.describe()}{suggest(key.text, ROUND_KEYS)} "
                          f"(a round has {', '.join(ROUND_KEYS)})", key.line, number)
    bids, bid_lines = _per_player(fields.get("bids"), "bids", number,
                                  key_lines.get("bids", node.line), sheet)
    record = RoundRecord(number, node.line, bids, bid_lines)
    if _present(fields.get("tricks")):
        record.tricks, record.trick_lines = _per_player(fields["tricks"], "tricks", number,
                                                        key_lines["tricks"], sheet)
        record.tricks_line = key_lines["tricks"]
    if _present(fields.get("points")):
        record.points, record.point_lines = _per_player(fields["points"], "points", number,
                                                        key_lines["points"], sheet)
    return record


_LINE_OF = operator.attrgetter("line")


def _present(node: Node | None) -> bool:
    """True unless the key is missing or its value is null."""
    return node is not None and not (node.kind == "scalar" and node.plain and node.value() is None)


def _per_player(node: Node | None, what: str, number: int, line: int | None,
                sheet: Sheet) -> tuple[list[Value], list[int | None]]:
    """Values in seating order from a list or a name → value mapping (absent ones are None)."""
    count = len(sheet.players)
    if node is not None and node.kind == "seq" and len(node.items) == count:  # the usual way
        return list(map(yaml_number, node.items)), list(map(_LINE_OF, node.items))
    values: list[Value] = [None] * count
    lines: list[int | None] = [line] * count
    if not _present(node):
        return values, lines
    if node.kind == "seq":
        if len(node.items) != count:
            sheet.problem(f"{len(node.items)} {what} for {count} players (a list gives one per "
                          f"player in seating order; use null for one still to come)",
                          node.line, number)
        items = node.items[:count]
        values[:len(items)] = map(yaml_number, items)
        lines[:len(items)] = map(_LINE_OF, items)
    elif node.kind == "map":
        seats = {name: seat for seat, name in enumerate(sheet.players)}
        for key, item in node.pairs:
            seat = seats.get(key.text) if key.kind == "scalar" else None
            if seat is None:
                sheet.problem(f"unknown player {key.describe()}{suggest(key.text, sheet.players)}",
                              key.line, number)
                continue
            values[seat], lines[seat] = yaml_number(item), item.line
    else:
        sheet.problem(f"{what} must be a list or a mapping by name, not {node.describe()}",
                      node.line, number)
    return values, lines


# --- CSV sheets ----------------------------------------------------------------------------

def read_csv_sheets(blocks: Iterable[str], source: str) -> Iterator[Sheet]:
    """Long or wide CSV, as blocks of whole lines (a line each will do) → sheets; a long CSV
    with a ``game`` column gives one sheet per game, each as soon as its rows end."""
    rows = _CsvRows(blocks)
    try:
        written = rows.header()
        if written is None:
            raise WizardError(Problem("empty file: no header and no rows", source))
        written = _trim_trailing([cell.strip() for cell in written])
        header = [cell.lower() for cell in written]
        if "player" in header and "bid" in header:
            yield from _LongReader(source, header, rows.number).sheets(rows.batches(len(header)))
        else:
            yield _read_wide(rows.each(), written, rows.number, source)
    except csv.Error as error:
        reason = (f"a field longer than {csv.field_size_limit()} characters (a quote \" left "
                  "open?)" if "field limit" in str(error) else str(error))
        raise WizardError(Problem(f"not readable as CSV: {reason}", source, rows.number)) from None


class _CsvRows:
    """The rows of a CSV, with the line each ends on, parsed exactly as ``csv.reader`` would.

    A plain block (no quote, every line as wide as the header) is split into columns at C speed
    (such a line's cells are all csv.reader would make of it); any other block is cut into
    lines for one csv.reader that lives across blocks, so a quoted cell may go on into the next.
    """

    def __init__(self, blocks: Iterable[str]) -> None:
        self.blocks = iter(blocks)
        self.lines: list[str] = []  # the current block's lines, for csv.reader
        self.at = 0  # the next of them
        self.number = 0  # the file's lines taken so far: the line a row just read ends on
        self.delimiter = ","
        self.reader: Iterator[list[str]] = iter(())

    def _more(self) -> bool:
        """Whether a line is left for csv.reader, cutting the next block into lines if need be."""
        while self.at == len(self.lines):
            block = next(self.blocks, None)
            if block is None:
                return False
            self.lines, self.at = _split_lines(block), 0
        return True

    def _feed(self) -> Iterator[str]:
        """The lines for csv.reader, one at a time, counted as they are taken."""
        while self._more():
            line = self.lines[self.at]
            self.at += 1
            self.number += 1
            yield line

    def header(self) -> list[str] | None:
        """The first row after any blank lines (None if there is none); its delimiter, sniffed
        from that line, is the file's."""
        while self._more() and not self.lines[self.at].strip():
            self.at += 1
            self.number += 1
        if not self._more():
            return None
        self.delimiter = _sniff_delimiter(self.lines[self.at])
        self.reader = csv.reader(self._feed(), delimiter=self.delimiter)
        return next(self.reader)

    def each(self) -> Iterator[tuple[list[str], int]]:
        """The remaining rows one by one, each with its line."""
        for row in self.reader:
            yield row, self.number

    def batches(self, width: int) -> Iterator[Batch]:
        """The remaining rows a block at a time, with their lines: as columns when every row of
        the block has ``width`` cells and no quote (the usual block), else as rows (a blank line
        may then read as ``[]`` or ``['']``: either is a blank row)."""
        while True:
            if self.at < len(self.lines):  # csv.reader's block (a quoted cell may take it on)
                rows, lines = [], []
                while self.at < len(self.lines):
                    rows.append(next(self.reader))
                    lines.append(self.number)
                yield Batch(rows, lines)
                continue
            block = next(self.blocks, None)
            if block is None:
                return
            columns = self._columns(block, width)
            if columns is None:
                self.lines, self.at = _split_lines(block), 0
                continue
            first = self.number + 1
            self.number += len(columns[0])
            yield Batch(None, range(first, self.number + 1), columns)

    def _columns(self, block: str, width: int) -> list[list[str]] | None:
        """The block's columns, split at C speed, if it is plain: no quote (what csv.reader
        makes of such a line is its cells), ``width`` cells on every line, nothing str.splitlines
        would break differently, no cell that may pass csv's field limit. None otherwise."""
        if ('"' in block or "\x00" in block or len(block) > csv.field_size_limit()
                or _has_other_breaks(block) or width < 1):
            return None
        if "\r" in block:
            block = block.replace("\r\n", "\n").replace("\r", "\n")
        if not block.endswith("\n"):
            block += "\n"
        # Each line starts with a NUL mark (a NUL cannot be in the text) and the block is split
        # at every delimiter: each line has ``width`` cells exactly when the marks fall every
        # ``width`` cells (the last mark starts an empty cell after the last line).
        cells = ("\x00" + block.replace("\n", self.delimiter + "\x00")).split(self.delimiter)
        count = block.count("\n")
        firsts = "".join(cells[::width])  # a mark only ever starts a cell
        if len(cells) != count * width + 1 or firsts.count("\x00") != count + 1:
            return None
        unmarked = firsts.split("\x00")[1:-1]  # the first column without its marks
        return [unmarked, *(cells[column::width] for column in range(1, width))]


class Batch(NamedTuple):
    """Rows of a CSV block with their lines: as ``rows``, or as ``columns`` of equal rows."""

    rows: list[list[str]] | None
    lines: Sequence[int]
    columns: list[list[str]] | None = None


def _sniff_delimiter(line: str) -> str:
    """`,` `;` or tab: whichever the header line uses most."""
    return max(",;\t", key=line.count)


def _trim_trailing(row: list[str]) -> list[str]:
    """A row without the empty cells a spreadsheet leaves after the last real column."""
    end = len(row)
    while end and not row[end - 1].strip():
        end -= 1
    return row[:end]


def _is_blank(row: list[str]) -> bool:
    """A row with no cells, or only empty ones."""
    return not any(cell.strip() for cell in row)


class _LongReader:
    """Long CSV (one row per round and player), streamed: one sheet per contiguous game.

    For speed, rows as wide as the header whose game cell reads exactly as the game's first
    row are only gathered, and placed when the game ends (in bulk if the game is regular); any
    other row sends the game's rows the general way, one by one, in file order.
    """

    def __init__(self, source: str, header: list[str], header_line: int) -> None:
        self.source = source
        self.width = len(header)
        self.header_line = header_line
        column = {name: i for i, name in reversed(list(enumerate(header)))}
        self.round_col = column.get("round")
        self.player_col = column["player"]
        self.bid_col = column["bid"]
        self.tricks_col = column.get("tricks", column.get("took"))
        self.game_col = column.get("game")
        self.points_col = column.get("points")
        self.header_problems = [
            Problem(f"the header has no '{name}' column", source, header_line)
            for name, col in (("round", self.round_col), ("tricks", self.tricks_col)) if col is None]
        self.game: _LongGame | None = None
        self.written: str | None = None  # the game's cell in its first row, while gathering
        self.finished_games: set[str | None] = set()
        self.done: list[Sheet] = []  # games ended by the rows taken so far, not yet handed out

    def sheets(self, batches: Iterable[Batch]) -> Iterator[Sheet]:
        """Take the rows a batch at a time, yielding each game's sheet once its rows end."""
        width, game_col = self.width, self.game_col
        for rows, lines, columns in batches:
            if columns is None and rows and list(map(len, rows)).count(width) == len(rows):
                columns = list(map(list, zip(*rows)))
            if columns is not None and game_col is not None:
                self._take_runs(columns, lines, game_col)
            else:
                for row, line in zip(rows if rows is not None else _rows(columns, 0, None), lines):
                    self._take(row, line)
            yield from self.done
            self.done.clear()
        if self.game is None:
            self.game = _LongGame(self, None, self.header_line)
        yield self.game.finish()

    def _take_runs(self, columns: list[list[str]], lines: Sequence[int], game_col: int) -> None:
        """Rows all as wide as the header, taken a run of equal game cells at a time."""
        start = 0
        for cell, run in itertools.groupby(columns[game_col]):
            stop = start + len(list(run))
            game_id = cell.strip()
            if cell == self.written and self._room(stop - start):
                self._gather(columns, start, stop, lines)
            elif game_id and (self.game is None or game_id != self.game.sheet.game):
                self._start(game_id, lines[start])
                if self._room(stop - start):
                    self.written = cell
                    self._gather(columns, start, stop, lines)
                else:
                    self._take_each(columns, start, stop, lines)
            else:
                self._take_each(columns, start, stop, lines)
            start = stop

    def _take_each(self, columns: list[list[str]], start: int, stop: int,
                   lines: Sequence[int]) -> None:
        """Rows ``start:stop`` of the columns, one by one, the general way."""
        for row, line in zip(_rows(columns, start, stop), lines[start:stop]):
            self._take(row, line)

    def _take(self, row: list[str], line: int) -> None:
        """One row, the general way (a row that may be gathered still is)."""
        if (self.written is not None and len(row) == self.width
                and row[self.game_col] == self.written and self._room(1)):
            self._gather([[cell] for cell in row], 0, 1, [line])
            return
        if _is_blank(row):
            return
        game_col = self.game_col
        game_id = (row[game_col].strip() or None
                   if game_col is not None and game_col < len(row) else None)
        if self.game is None or game_id != self.game.sheet.game:
            self._start(game_id, line)
            if game_col is not None and len(row) == self.width:  # (one game with no column: no hurry)
                self.written = row[game_col]
                self._gather([[cell] for cell in row], 0, 1, [line])
                return
        self.game.add_gathered()
        self.written = None  # the rest of this game goes the general way, in file order
        self.game.add(row, line)

    def _room(self, count: int) -> bool:
        """Whether ``count`` more rows may be gathered: more than any game has go the general way,
        so memory stays flat whatever the file."""
        return len(self.game.gathered_lines) + count <= _MAX_GATHERED

    def _gather(self, columns: list[list[str]], start: int, stop: int,
                lines: Sequence[int]) -> None:
        """Keep rows ``start:stop`` of the current game, to be placed when it ends."""
        for kept, column in zip(self.game.gathered, columns):
            kept += column[start:stop]
        self.game.gathered_lines += lines[start:stop]

    def _start(self, game_id: str | None, line: int) -> None:
        """A new game begins on ``line``; the one before is finished."""
        if self.game is not None:
            self.finished_games.add(self.game.sheet.game)
            self.done.append(self.game.finish())
        self.game = _LongGame(self, game_id, line)
        self.written = None
        if game_id in self.finished_games:
            self.game.sheet.problem(f"game '{game_id}' continues here after other games "
                                    "(a game's rows must be together)", line)


_MAX_GATHERED = 1000  # more rows than any game has (6 players × 20 rounds): memory stays flat


class _LongGame:
    """The rows of one game of a long CSV, gathered into rounds."""

    def __init__(self, layout: _LongReader, game_id: str | None, line: int) -> None:
        self.layout = layout
        self.sheet = Sheet(source=layout.source, game=game_id, line=line, kind="csv",
                           problems=list(layout.header_problems))
        self.seats: dict[str, int] = {}
        self.rounds: dict[int, dict[int, tuple[Value, Value, Value, int]]] = {}
        self.round_lines: dict[int, int] = {}
        # Rows not placed yet, kept as columns (see _LongReader), and their lines.
        self.gathered: list[list[str]] = [[] for _ in range(layout.width)]
        self.gathered_lines: list[int] = []

    def add_gathered(self) -> None:
        """Place the gathered rows the general way, one by one (blank ones are skipped)."""
        for row, line in zip(_rows(self.gathered, 0, None), self.gathered_lines):
            if not _is_blank(row):
                self.add(row, line)
        for column in self.gathered:
            column.clear()
        self.gathered_lines.clear()

    def add(self, row: list[str], line: int) -> None:
        """One row: check its shape, place it by round and player."""
        layout, sheet = self.layout, self.sheet
        if len(_trim_trailing(row)) > layout.width:
            sheet.problem(f"{len(_trim_trailing(row))} fields, but the header has {layout.width}", line)
        if layout.round_col is None:
            return  # the header's missing 'round' column is reported once, not on every row
        cell = lambda col: row[col] if col is not None and col < len(row) else ""  # noqa: E731
        number = whole_number(cell(layout.round_col))
        name = cell(layout.player_col).strip()
        if not isinstance(number, int) or number < 1:
            shown = number.text if isinstance(number, BadValue) else number
            sheet.problem(f"round '{'' if shown is None else shown}' is not a round number", line,
                          player=name or None)
            return
        if not name:
            sheet.problem("empty player name", line, number)
            return
        if number != len(self.rounds) and not self._round_in_order(number, line, name):
            return
        seat = self.seats.setdefault(name, len(self.seats))
        cells = self.rounds.setdefault(number, {})
        self.round_lines.setdefault(number, line)
        if seat in cells:
            sheet.problem(f"{name} appears twice in round {number} (first on line {cells[seat][3]})",
                          line, number, name)
            return
        cells[seat] = (whole_number(cell(layout.bid_col)), whole_number(cell(layout.tricks_col)),
                       whole_number(cell(layout.points_col)) if layout.points_col is not None else None,
                       line)

    def _round_in_order(self, number: int, line: int, name: str) -> bool:
        """Rounds run 1..N in order: a new round must be the one after the last."""
        expected = len(self.rounds) + 1
        if number == expected:
            return True
        sheet = self.sheet
        if number in self.rounds or number < expected:
            sheet.problem(f"round {number} appears again after round {expected - 1} (a round's "
                          "rows must be together)", line, number, name)
        else:
            sheet.problem(f"round {number} follows round {expected - 1}: rounds run 1..N in order",
                          line, number, name)
        return False

    def finish(self) -> Sheet:
        """The game's sheet, with each round's values in seating order."""
        if self.gathered_lines and self._place_regular():
            return self.sheet
        self.add_gathered()
        sheet = self.sheet
        sheet.players = list(self.seats)
        sheet.player_lines = [None] * len(sheet.players)
        count = len(sheet.players)
        for number, cells in self.rounds.items():
            first_line = self.round_lines[number]
            lines = [cells[s][3] if s in cells else first_line for s in range(count)]
            column = lambda i: [cells[s][i] if s in cells else None for s in range(count)]  # noqa: E731
            record = RoundRecord(number, first_line, column(0), lines)
            tricks = column(1)
            if any(t is not None for t in tricks):
                record.tricks, record.trick_lines = tricks, list(lines)
            if self.layout.points_col is not None:
                record.points, record.point_lines = column(2), list(lines)
            sheet.rounds.append(record)
        return sheet

    def _place_regular(self) -> bool:
        """Place the gathered rows in bulk if they read as they would one by one, with no problem.

        That is when every round lists every player in the seating order of round 1 (names as
        written, no spaces around them) and the rounds are numbered 1..N in plain digits, each
        round's rows together. Otherwise nothing is placed and False is returned.
        """
        layout, columns, lines = self.layout, self.gathered, self.gathered_lines
        if layout.header_problems:
            return False
        numbers = columns[layout.round_col]
        count = numbers.count("1")
        if not count or len(lines) % count:
            return False
        rounds = len(lines) // count
        names = columns[layout.player_col]
        players = names[:count]
        if (numbers != _round_labels(count, rounds) or names != players * rounds
                or not _plain_names(tuple(players))):
            return False
        bids = _whole_numbers(columns[layout.bid_col])
        tricks = _whole_numbers(columns[layout.tricks_col])
        points = _whole_numbers(columns[layout.points_col]) if layout.points_col is not None else None
        sheet = self.sheet
        sheet.players = list(players)
        sheet.player_lines = [None] * count
        sheet.rounds = RoundColumns(count, bids, tricks, points, lines)
        if None in tricks:  # a round in play: tricks not recorded (an empty one is a problem)
            sheet.rounds = sheet.rounds.records()
            for record in sheet.rounds:
                if record.tricks.count(None) == count:
                    record.tricks = record.trick_lines = None
        return True


@functools.lru_cache(maxsize=64)
def _round_labels(players: int, rounds: int) -> list[str]:
    """The round column of a regular game as written: '1' for each player, then '2', … (shared:
    never changed)."""
    return [str(number) for number in range(1, rounds + 1) for _ in range(players)]


def _rows(columns: list[list[str]], start: int, stop: int | None) -> Iterator[list[str]]:
    """Rows ``start:stop`` of columns of equal length."""
    return map(list, zip(*(column[start:stop] for column in columns)))


@functools.lru_cache(maxsize=256)
def _plain_names(players: tuple[str, ...]) -> bool:
    """Distinct names, none empty or with spaces around it: read as written (a season's tables
    are few, so each is judged once)."""
    return len(set(players)) == len(players) and all(name and name == name.strip()
                                                     for name in players)


_PLAIN_NUMBERS = {str(number): number for number in range(100)}  # as whole_number reads them


def _whole_numbers(cells: Sequence[str]) -> list[Value]:
    """A column of cells as whole numbers (see whole_number), looked up when all are plain."""
    try:
        return list(map(_PLAIN_NUMBERS.__getitem__, cells))
    except KeyError:
        return list(map(whole_number, cells))


def _read_wide(rows: Iterator[tuple[list[str], int]], header: list[str], header_line: int,
               source: str) -> Sheet:
    """Wide CSV: ``round,<player>…`` with ``bid/tricks`` cells (just ``bid`` in the round in play)."""
    sheet = Sheet(source=source, line=header_line, kind="wide-csv")
    if not header or header[0].lower() != "round":
        sheet.problem("not a score sheet: a long CSV has 'round,player,bid,tricks' columns, a wide "
                      "one 'round,<player>,<player>,…'", header_line)
        return sheet
    named = {cell.lower() for cell in header[1:]}
    if "player" in named and named & {"tricks", "took", "bids"}:  # a long CSV, misnamed 'bid'
        sheet.problem("the header has a 'player' column but no 'bid' column: a long CSV has "
                      "'round,player,bid,tricks' columns", header_line)
        return sheet
    sheet.players = header[1:]
    sheet.player_lines = [header_line] * len(sheet.players)
    for row, line in rows:
        if _is_blank(row) or row[0].strip().lower() == "total":
            continue
        _read_wide_row(row, line, sheet)
    return sheet


def _read_wide_row(row: list[str], line: int, sheet: Sheet) -> None:
    """One round of a wide CSV."""
    count = len(sheet.players)
    expected = len(sheet.rounds) + 1
    number = whole_number(row[0])
    if number != expected:
        shown = number.text if isinstance(number, BadValue) else number
        sheet.problem(f"round '{shown}' where round {expected} was expected: rounds run 1..N in "
                      "order", line)
        return
    if len(_trim_trailing(row)) > count + 1:
        sheet.problem(f"{len(_trim_trailing(row))} fields, but the header has {count + 1}", line,
                      number)
    cells = [(row[seat + 1] if seat + 1 < len(row) else "") for seat in range(count)]
    bids: list[Value] = []
    tricks: list[Value] = []
    for cell in cells:
        bid, took = _wide_cell(cell)
        bids.append(bid)
        tricks.append(took)
    record = RoundRecord(number, line, bids, [line] * count)
    if any("/" in cell for cell in cells):
        record.tricks, record.trick_lines = tricks, [line] * count
    sheet.rounds.append(record)


def _wide_cell(cell: str) -> tuple[Value, Value]:
    """``bid/tricks``, or ``bid`` alone, or empty; a date-looking cell says what happened to it."""
    text = cell.strip()
    if _DATE_LIKE.fullmatch(text):
        why = ("looks like a date: a spreadsheet probably turned a bid/tricks cell such as "
               "'1/1' into a date (format the column as text and type it again)")
        return BadValue(text, why), BadValue(text, why, quiet=True)
    if text.count("/") == 1:  # str methods, not a regex: a long cell must not backtrack for ages
        bid, _, took = text.partition("/")
        return whole_number(bid), whole_number(took)
    return whole_number(text), None


# --- settings files ------------------------------------------------------------------------

def read_yaml_mapping(path: str, what: str, encoding: str | None = None) -> Node:
    """A YAML file that must hold one mapping (a settings or presets file)."""
    source = display_name(path)
    with open_binary(path) as handle:
        data = _read_limited(handle, source)
    text = _decode_all(data, source, encoding or _bom_encoding(data))
    from .yaml_tree import documents

    docs = list(documents(text, source))
    if len(docs) != 1 or docs[0].kind != "map":
        raise WizardError(Problem(f"{what} must be one YAML mapping", source,
                                  docs[0].line if docs else None))
    return docs[0]


def read_settings_file(path: str, encoding: str | None = None) -> list[RawSetting]:
    """``--settings FILE``: a mapping of settings, or a sheet-shaped ``{settings: …}``."""
    root = read_yaml_mapping(path, "a settings file", encoding)
    source = display_name(path)
    keys = {key.text for key, _ in root.pairs if key.kind == "scalar"}
    if keys & set(SHEET_KEYS):  # sheet-shaped: only its settings block counts (maybe none)
        node = next((value for key, value in root.pairs if key.text == "settings"), None)
    else:
        node = root
    problems: list[Problem] = []
    raws = settings_from_node(node, source, problems)
    if problems:
        raise WizardError(*problems)
    return raws


def read_presets_file(path: str, problems: list[Problem],
                      encoding: str | None = None) -> list[tuple[str, int, list[RawSetting]]]:
    """``--presets FILE``: a mapping of preset name → settings, as (name, line, raw settings).

    Only the shape is checked here (each misshapen preset is added to ``problems`` and left
    out); what the settings may hold is the rule sets' business. Unreadable YAML raises.
    """
    root = read_yaml_mapping(path, "a presets file", encoding)
    source = display_name(path)
    presets = []
    for key, value in root.pairs:
        name = key.text.strip() if key.kind == "scalar" else ""
        if not name:
            problems.append(Problem(f"a preset's name must be text, not {key.describe()}",
                                    source, key.line))
        elif value.kind != "map" or not value.pairs:
            problems.append(Problem(f"preset '{name}' must be a mapping of setting: value, "
                                    f"not {'nothing' if _empty(value) else value.describe()}",
                                    source, value.line))
        else:
            presets.append((name, key.line, settings_from_node(value, source, problems)))
    return presets


def _empty(node: Node) -> bool:
    """A null scalar or an empty mapping: a preset that sets nothing."""
    return (node.kind == "map" and not node.pairs) or (
        node.kind == "scalar" and node.plain and node.text in ("", "~", "null", "Null", "NULL"))
