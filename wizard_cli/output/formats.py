"""Every output format written in one place: aligned tables, Markdown, CSV/TSV, JSON, JSON lines.

Every command has one *view* (:class:`View`): the JSON record of what it shows, which is the one
definition of its shape; the tidy CSV/TSV rows, taken from that record; and a human text block.
A view of a list (:class:`Listing`: a season's players, its breakdown, its ratings) names each
field once, as a :class:`Field`, and its JSON objects, CSV rows and table rows all come from
those fields. :func:`emit` writes any view in any format, streaming: ``jsonl`` and ``csv`` start
printing before a long input has been read to the end.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain
from operator import attrgetter
from typing import Any, ClassVar, Protocol, TextIO, TypeGuard

from ..errors import game_label, shorten, visible
from ..game.settings import value_text

SOURCE_COLUMNS = ("source", "game")
DATA_FORMATS = ("json", "jsonl", "csv", "tsv")


class View(Protocol):
    """How one command shows what it found in every format.

    ``as_json`` gives an item's JSON record; ``rows`` its tidy rows under ``columns``, made from
    that record's parts; ``as_text`` its text block in a human style (``table``, ``markdown``).
    A view with ``listing`` set shows all its items as one list: one JSON array (``[]`` for
    none), rows under one header, and one text drawn from all the items at the end. A view
    whose text starts with a sheet's heading gives its blocks too (``text_blocks``, see
    :func:`text_blocks`): they are written one by one.
    """

    @property
    def columns(self) -> tuple[str, ...]: ...  # read only: a view's own tuple is one

    def as_json(self, item: Any) -> Any: ...
    def rows(self, item: Any) -> Iterable[Sequence[Any]]: ...
    def as_text(self, item: Any, style: str) -> str | None: ...


def emit(
    view: View,
    items: Iterable[Any],
    fmt: str,
    out: TextIO,
    several: bool = False,
    warn: Callable[[str], None] | None = None,
) -> None:
    """Write every item in ``fmt``, each as it comes. Results of several sheets (or of a season)
    make a JSON array and CSV rows labelled ``source,game``; a listing is always one array.
    ``warn`` is told, one line, of a CSV cell a spreadsheet may run as a formula (the command
    line: stderr; None: not said)."""
    items = iter(items)
    listing = getattr(view, "listing", False)
    if not listing:
        first = next(items, None)
        if first is None:
            if fmt == "json" and several:
                out.write("[]\n")
            return
        several = several or getattr(first, "game", None) is not None
        items = chain([first], items)
    if fmt in ("json", "jsonl"):
        emit_json(
            view, items, out, array=(several or listing) and fmt == "json", lines=fmt == "jsonl"
        )
    elif fmt in ("csv", "tsv"):
        emit_delimited(view, items, out, "," if fmt == "csv" else "\t", labelled=several, warn=warn)
    elif listing:  # line by line: a table of 180,000 rows is never one text (issue 21, item 5)
        assert isinstance(view, Listing)  # the one kind of view that lists
        for line in view.text_lines(list(items), fmt):
            out.write(line + "\n")
    else:
        gap = "\n" if getattr(view, "spaced", True) else ""
        for index, item in enumerate(items):
            out.write(gap if index else "")
            if type(item) is Rendered:  # a run's games, each written as write_blocks would
                out.write(item)
            else:
                write_blocks(text_blocks(view, item, fmt), out)


def text_blocks(view: View, item: Any, style: str) -> list[str]:
    """An item's text in a human style as the blocks it is made of (a heading, its tables),
    ``as_text`` being these joined by a blank line: a view whose heading holds a sheet's title
    hands its blocks out (``text_blocks``), so that a 60 MB title is written alone, never
    copied into one text with the tables (which, holding "→", would take it at 2 bytes a
    character: SPEC §4)."""
    blocks = getattr(view, "text_blocks", None)
    if blocks is not None:
        return blocks(item, style)
    text = view.as_text(item, style)
    assert text is not None  # only a listing's text may be none, and it is drawn by lines
    return [text]


def write_blocks(blocks: list[str], out: TextIO) -> None:
    """``"\n\n".join(blocks).rstrip("\n") + "\n"``, written a block at a time."""
    while len(blocks) > 1 and not blocks[-1].strip("\n"):  # gone with the line breaks at the end
        blocks = blocks[:-1]
    for index, block in enumerate(blocks):
        if index:
            out.write("\n\n")
        end = len(block)
        if index == len(blocks) - 1:
            while end and block[end - 1] == "\n":
                end -= 1
        write_text(block, out, end)
    out.write("\n")


def _same(value: Any) -> Any:
    """A value as it is."""
    return value


@dataclass(frozen=True, slots=True)
class Field:
    """One field of a listing, named once: its JSON key and CSV column (``key``), the row's
    attribute it reads (``attr``, else the key), its table column (``header``, None for none,
    and ``align``), the value JSON and CSV carry (``data``, e.g. rounded) and the table's cell
    (``cell``, from the value; ``shown``, from the whole row, for a column made of several)."""

    key: str
    header: str | None
    align: str = "left"
    attr: str | None = None
    data: Callable[[Any], Any] | None = None
    cell: Callable[[Any], Any] = _same
    shown: Callable[[Any], Any] | None = None


class Listing:
    """A view of one list of rows, from its ``fields``: each row is one JSON object (a list of
    them in ``json``, one a line in ``jsonl``), one CSV row, one table row. The table is drawn
    once all rows are in, under ``summary`` when there is one; with no rows, ``empty`` stands
    for the table (None: the headers alone)."""

    listing: ClassVar[bool] = True
    empty: ClassVar[str | None] = "(no rows)"

    def __init__(self, fields: Sequence[Field], summary: str | None = None) -> None:
        self.fields = tuple(fields)
        self.summary = summary
        self.columns = tuple(f.key for f in self.fields)
        self._values = attrgetter(*(f.attr or f.key for f in self.fields))
        self._data = [(index, f.data) for index, f in enumerate(self.fields) if f.data]
        self._table = [f for f in self.fields if f.header is not None]
        self._headers = [f.header for f in self.fields if f.header is not None]

    def values(self, row: Any) -> tuple:
        """The row's values as JSON and CSV carry them, in the fields' order."""
        values = self._values(row)
        if len(self.fields) == 1:
            values = (values,)
        if self._data:
            cells = list(values)
            for index, data in self._data:
                cells[index] = data(cells[index])
            return tuple(cells)
        return tuple(values)

    def as_json(self, row: Any) -> dict:
        return dict(zip(self.columns, self.values(row)))

    def rows(self, row: Any) -> Iterator[tuple]:
        yield self.values(row)

    def table_row(self, row: Any) -> list:
        """The row's cells in the table."""
        return [
            f.shown(row) if f.shown else f.cell(getattr(row, f.attr or f.key)) for f in self._table
        ]

    def text_lines(self, rows: Sequence[Any], style: str) -> Iterator[str]:
        """The text's lines, one at a time (the table's cells are made as each line is drawn:
        see :func:`grid_lines`)."""
        if self.summary is not None:
            yield from (self.summary, "")
        if rows or self.empty is None:
            yield from grid_lines(
                self._headers, Mapped(rows, self.table_row), style, [f.align for f in self._table]
            )
        else:
            yield self.empty

    def as_text(self, rows: list, style: str) -> str | None:
        return "\n".join(self.text_lines(rows, style))


def rounded(places: int) -> Callable[[float | None], float | None]:
    """A figure rounded to ``places`` decimals for output only (None stays None)."""
    return lambda value: None if value is None else round(value, places)


def fixed(places: int) -> Callable[[float | None], str]:
    """A figure shown with a fixed number of decimals, or '-' when undefined."""
    return lambda value: fixed_places(value, places)


def fixed_places(value: float | None, places: int) -> str:
    """A figure with a fixed number of decimals, or '-' when undefined."""
    return "-" if value is None else f"{value:.{places}f}"


class Rendered(str):
    """Output already written in the chosen format (the season lane's JSON lines or score
    tables for a whole run of games, see json_lines.py and score_runs.py): :func:`emit` writes
    it as it is (a text one's games apart as every item is, and ending in a line break)."""


# The season lane's output keeps what it made for a table (a seating) for this many at once: a
# season has few tables, but a club that reseats every game has one a game (SPEC §4: flat).
KEPT_TABLES = 4096


def json_line_encoder() -> Callable[[Any], str]:
    """A JSON line as ``jsonl`` writes each object: compact, UTF-8 names kept readable. Our
    objects are plain trees, so no cycle check is needed for each of them."""
    import json  # here, not at start: a table never needs it

    return json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), check_circular=False).encode


def emit_json(view: View, items: Iterator[Any], out: TextIO, array: bool, lines: bool) -> None:
    """One object, an array of objects (``[]`` for none), or one compact object per line."""
    if lines:
        encode = json_line_encoder()
        for item in items:
            out.write(item if type(item) is Rendered else encode(view.as_json(item)) + "\n")
        return
    if not array:
        for item in items:
            write_json(view.as_json(item), out)
            out.write("\n")
        return
    first = next(items, None)
    if first is None:
        out.write("[]\n")
        return
    out.write("[\n")
    for index, item in enumerate(chain([first], items)):
        out.write(",\n  " if index else "  ")
        write_json(view.as_json(item), out, "\n  ")
    out.write("\n]\n")


WRITTEN_AT_ONCE = 1 << 20  # characters of a long text written at a time


def write_json(value: Any, out: TextIO, newline: str = "\n") -> None:
    """The value's JSON as this tool writes it (indented, UTF-8 names kept readable), written
    a piece at a time as it is made, each line break as ``newline`` (an item of an array is
    indented once more): a 60 MB ``notes`` is one piece, written in slices, never part of a
    whole text (SPEC §4)."""
    import json  # here, not at start: a table never needs it

    pieces = json.JSONEncoder(ensure_ascii=False, indent=2).iterencode(value)
    gathered: list[str] = []  # the small pieces, written GATHERED characters at a time
    size = 0
    for piece in pieces:
        if newline != "\n" and "\n" in piece:  # only the indentation's: a string's are \n
            piece = piece.replace("\n", newline)
        if len(piece) > GATHERED:
            out.write("".join(gathered))
            gathered, size = [], 0
            write_text(piece, out)
            continue
        gathered.append(piece)
        size += len(piece)
        if size >= GATHERED:
            out.write("".join(gathered))
            gathered, size = [], 0
    out.write("".join(gathered))


GATHERED = 1 << 16  # characters of JSON pieces joined into one write (one a piece: twice slower)


def write_text(text: str, out: TextIO, end: int | None = None) -> None:
    """``text[:end]`` written a slice at a time: a 60 MB text is never encoded whole (the
    stream would make a second, encoded copy of it; SPEC §4)."""
    end = len(text) if end is None else end
    if end == len(text) and end <= WRITTEN_AT_ONCE:
        out.write(text)
        return
    for at in range(0, end, WRITTEN_AT_ONCE):
        out.write(text[at : min(at + WRITTEN_AT_ONCE, end)])


def emit_delimited(
    view: View,
    items: Iterator[Any],
    out: TextIO,
    delimiter: str,
    labelled: bool,
    warn: Callable[[str], None] | None = None,
) -> None:
    """Tidy rows with one header; ``source,game`` columns lead when results come from several
    sheets. A cell a spreadsheet would run as a formula is written as it is, with one warning."""
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\n")
    writer.writerow((SOURCE_COLUMNS if labelled else ()) + view.columns)
    guard = FormulaGuard(warn)
    for item in items:
        label = (getattr(item, "source", ""), _cell(getattr(item, "game", None)))
        rows = (
            (label + tuple(map(_cell, row))) if labelled else tuple(map(_cell, row))
            for row in view.rows(item)
        )
        writer.writerows(rows if guard.warned else guard.watch(rows, getattr(item, "source", None)))


_FORMULA_START = ("=", "+", "-", "@")
_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")


def formula_like(cell: Any) -> TypeGuard[str]:
    """A text cell a spreadsheet may run as a formula: it begins with ``=``, ``+``, ``-`` or
    ``@`` and is not a number (SPEC §8)."""
    return (
        type(cell) is str
        and cell.startswith(_FORMULA_START)
        and _NUMBER.fullmatch(cell.strip()) is None
    )


class FormulaGuard:
    """Watches the cells written to a CSV/TSV and warns once, through ``warn`` (one line; the
    command line's stderr), about the first one a spreadsheet may run as a formula; the text
    itself is kept as it is."""

    def __init__(self, warn: Callable[[str], None] | None = None) -> None:
        self.warned = False
        self.warn = warn

    def check(self, cells: Iterable[Any], where: str | None = None) -> None:
        """Warn (once) if any of these cells looks like a formula; the warning names ``where``
        the cell comes from (a sheet), when known."""
        if self.warned:
            return
        for cell in cells:
            if formula_like(cell):
                self.warned = True
                shown = visible(shorten(cell, 40))
                if self.warn is not None:
                    self.warn(
                        f"{visible(where) if where else 'wizard'}: warning: a cell begins "
                        f"with '{cell[0]}' ({shown}): a spreadsheet may run it as a "
                        "formula; it is written as it is"
                    )
                return

    def watch(
        self, rows: Iterable[Sequence[Any]], where: str | None = None
    ) -> Iterator[Sequence[Any]]:
        """The rows, each checked until the warning has been given."""
        for row in rows:
            if not self.warned:
                self.check(row, where)
            yield row


def _cell(value: Any) -> Any:
    """A value for a CSV cell: empty for None, true/false for flags."""
    if value is None:
        return ""
    return value_text(value) if isinstance(value, bool) else value


def grid(
    headers: Sequence[str],
    rows: Iterable[Sequence[Any]],
    style: str,
    align: Sequence[str] | None = None,
    escaped: bool = False,
) -> str:
    """An aligned text table (``table``) or a GitHub Markdown table (``markdown``).

    Text from a sheet is shown safely (SPEC §8): every control character escaped (``\\x1b``),
    unless the caller has done so already (``escaped``, for cells it breaks into lines itself),
    and in Markdown a ``|`` written ``\\|``.
    """
    return "\n".join(grid_lines(headers, list(rows), style, align, escaped))


class Mapped:
    """``function`` of each item, again each time it is read (a table's cells, made as they
    are measured and again as they are drawn, never all held)."""

    __slots__ = ("items", "function")

    def __init__(self, items: Iterable[Any], function: Callable[[Any], Any]) -> None:
        self.items, self.function = items, function

    def __iter__(self) -> Iterator[Any]:
        return map(self.function, self.items)


def grid_lines(
    headers: Sequence[str],
    rows: Iterable[Sequence[Any]],
    style: str,
    align: Sequence[str] | None = None,
    escaped: bool = False,
) -> Iterator[str]:
    """:func:`grid`'s lines, one at a time, from ``rows`` read twice (the widths, then the
    lines): a plain table of 180,000 rows is drawn in flat memory (issue 21, item 5); any
    other is tabulate's, whole."""
    if style == "markdown":
        headers = [_markdown_cell(h) for h in headers]
        rows = Mapped(rows, lambda row: [_markdown_cell(cell) for cell in row])
    widths = _plain_widths(headers, rows, align)
    if widths is not None:
        yield from _plain_lines(headers, rows, style, align, widths)
        return
    from tabulate import tabulate  # imported here: start-up time matters for a CLI

    rows = [[shown_value(cell) for cell in row] for row in rows] if not escaped else list(rows)
    if not escaped:
        headers = [shown_value(h) for h in headers]
    yield tabulate(
        rows,
        headers=list(headers),
        disable_numparse=True,
        tablefmt="github" if style == "markdown" else "simple",
        colalign=align,
    )


def shown_value(cell: Any) -> Any:
    """A cell's text with its control characters escaped (numbers as they are)."""
    return visible(cell) if type(cell) is str else cell


def _markdown_cell(cell: Any) -> Any:
    """A ``|`` inside a Markdown cell would end the cell: written ``\\|``."""
    return cell.replace("|", "\\|") if type(cell) is str and "|" in cell else cell


_PAD = {"left": "<", "right": ">"}  # how a format field pads, as str.ljust and str.rjust


# Characters beyond ASCII that tabulate, too, counts one column wide (with or without wcwidth):
# the arrow of every score cell (``1/1 → +30 = 30``).
_NARROW = "→"


def plain_texts(texts: list[Any]) -> bool:
    """Every one printable text of ASCII (or _NARROW) with no space at either end (a None or a
    flag is not)."""
    try:
        joined = "".join(texts)
    except TypeError:  # not a str
        return False
    return (
        (joined.isascii() or joined.replace(_NARROW, "").isascii())
        and all(map(str.isprintable, texts))
        and list(map(str.strip, texts)) == texts
    )


# The table tabulate would draw is drawn directly when every cell is plain (an int, or printable
# ASCII, arrows allowed, with no space at either end), every header is named, every column
# aligned left or right, and there is at least one row. tabulate's general machinery (types,
# wide characters, multi-line cells) costs a tenth of a millisecond a table: a folder of ten
# thousand sheets would spend a second on it. Rows are taken CHUNK at a time.
CHUNK = 4096


def _aligns(headers: Sequence[str], align: Sequence[str] | None) -> list[str]:
    """Each column's alignment (left where none is given)."""
    count = len(headers)
    return [*(align or ()), *["left"] * count][:count]


def _plain_chunks(rows: Iterable[Sequence[Any]]) -> Iterator[list[list[Any]]]:
    """The rows' cells as text (an int as its digits), CHUNK rows at a time."""
    chunk = []
    for row in rows:
        chunk.append([str(value) if type(value) is int else value for value in row])
        if len(chunk) == CHUNK:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _plain_widths(
    headers: Sequence[str], rows: Iterable[Sequence[Any]], align: Sequence[str] | None
) -> list[int] | None:
    """Each column's width when the table is plain (see above), from one pass over the rows;
    None when it is not: a column is as wide as its widest cell, and at least its header and
    two spaces."""
    count = len(headers)
    if (
        not all(headers)
        or any(a not in _PAD for a in _aligns(headers, align))
        or not plain_texts(list(headers))
    ):
        return None
    widths, seen = [len(header) + 2 for header in headers], False
    for cells in _plain_chunks(rows):
        if any(len(row) != count for row in cells) or not plain_texts(
            list(chain.from_iterable(cells))
        ):
            return None
        widths = [max(width, max(map(len, column))) for width, column in zip(widths, zip(*cells))]
        seen = True
    return widths if seen else None


def plain_fields(align: Sequence[str], widths: Sequence[int]) -> list[str]:
    """A plain table's format field for each column: '{:>5}' pads as str.rjust(5) does, '{:<5}'
    as ljust. A ``table`` line is these joined by two spaces, right-stripped."""
    return [f"{{:{_PAD[a]}{width}}}" for a, width in zip(align, widths)]


def _plain_lines(
    headers: Sequence[str],
    rows: Iterable[Sequence[Any]],
    style: str,
    align: Sequence[str] | None,
    widths: list[int],
) -> Iterator[str]:
    """A plain table's lines, a chunk of rows at a time."""
    fields = plain_fields(_aligns(headers, align), widths)  # each line from one format string
    if style == "markdown":
        template = "| " + " | ".join(fields) + " |"
        yield template.format(*headers)
        yield "|" + "|".join("-" * (width + 2) for width in widths) + "|"
        for cells in _plain_chunks(rows):
            yield from (template.format(*row) for row in cells)
        return
    template = "  ".join(fields)
    yield template.format(*headers).rstrip()
    yield "  ".join("-" * width for width in widths)
    for cells in _plain_chunks(rows):
        yield from (template.format(*row).rstrip() for row in cells)


def heading(item: Any, style: str) -> str:
    """A sheet's heading: its title and where it came from (control characters escaped)."""
    where = game_label(item.source, item.game)
    title = getattr(item, "title", None)
    parts = [
        "## " if style == "markdown" else "",
        *((title, " (", where, ")") if title else (where,)),
    ]
    when = [part for part in (getattr(item, "date", None), getattr(item, "place", None)) if part]
    if when:  # the game's date and place (SPEC §3), after what it is
        parts += [" — ", ", ".join(when)]
    return visible("".join(parts))  # made once: a 60 MB title is copied once (SPEC §4)


def signed(number: int) -> str:
    """+30, -10, +0."""
    return f"{number:+d}"
