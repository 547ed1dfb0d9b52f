"""The rows of a CSV with the line each starts on: ``csv.reader`` over the decoded lines.

Line numbers are the file's (from ``reader.line_num``): blank lines before the header count, and
a row whose quoted cell spans lines is on the line it starts on (where its first values stand). Rows come a block of the
file at a time, as the blocks arrive (a pipe's output is read as it comes); every CSV reader
(long and wide files, a workbook's worksheets) takes them as ``(cells, line)`` pairs.
"""

from __future__ import annotations

import csv
import functools
import itertools
import operator
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from ..source import split_lines

if TYPE_CHECKING:
    from _csv import Reader  # csv.reader's type (typeshed; csv does not name it)

Rows = Iterator[tuple[list[str], int]]
Chunks = Iterator[tuple[Sequence[list[str]], Sequence[int]]]


class CsvRows:
    """A CSV's header, then its rows: the delimiter is sniffed from the header line.

    Rows are csv.reader's, except that a block of plain lines (no quote, no CR but in a CRLF,
    no field that could pass csv's field size limit) is split by ``str.split`` a whole block
    at a time, where it reads exactly as csv.reader reads it; ``split_plain_blocks=False`` is the general path,
    csv.reader throughout (which the split must match: tests/test_csv_reader.py).
    """

    def __init__(self, blocks: Iterable[str], split_plain_blocks: bool = True) -> None:
        self._split = 0  # the lines of the blocks taken so far
        self._quoted = False  # whether the block csv.reader took last has a quote in it
        self._blocks = iter(blocks)
        self._handed_back: str | None = None  # a block taken to split, left to csv.reader
        self._lines = itertools.chain.from_iterable(map(self._block_lines, self._next_blocks()))
        self._skipped = 0  # blank lines before the header
        self._bypassed = 0  # lines split here, not read by csv.reader
        self._reader: Reader | None = None
        self._split_plain = split_plain_blocks
        self.delimiter = ","

    def _next_blocks(self) -> Iterator[str]:
        """The blocks csv.reader reads: a block handed back to it first, then the next."""
        while True:
            block: str | None
            if self._handed_back is not None:
                block, self._handed_back = self._handed_back, None
            else:
                block = next(self._blocks, None)
                if block is None:
                    return
            yield block

    def _block_lines(self, block: str) -> list[str]:
        """A block's lines (taken only once the lines before are all read), counted."""
        lines = split_lines(block)
        self._split += len(lines)
        self._quoted = '"' in block
        return lines

    @property
    def number(self) -> int:
        """The line the row just read ends on (the header's, right after :meth:`header`)."""
        return (
            self._skipped
            + self._bypassed
            + (self._reader.line_num if self._reader is not None else 0)
        )

    def header(self) -> list[str] | None:
        """The first row after any blank lines (None if there is none); its delimiter, sniffed
        from that line, is the file's."""
        for line in self._lines:
            if line.strip():
                break
            self._skipped += 1
        else:
            return None
        self.delimiter = sniff_delimiter(line)
        self._reader = csv.reader(itertools.chain((line,), self._lines), delimiter=self.delimiter)
        return next(self._reader)

    def chunks(self, columns_of: int | None = None) -> Chunks:
        """The rows after the header a block at a time, with the line each starts on (a blank
        line is ``[]``).

        The lines left of a block with no quote are one row each, so csv.reader is asked for
        exactly that many at once; in a block with a quote, rows are read one by one up to the
        block's end (a quoted cell may take in lines of the next block). A plain block whose
        lines csv.reader has not begun is split here (:func:`split_plain_block`); asked for
        ``columns_of`` a width, one whose every line has that many cells comes as its
        :class:`BlockColumns` instead (the long reader's lane).
        """
        reader = self._reader
        if reader is None:
            return
        limit = csv.field_size_limit()
        while True:
            read = self.number
            left = self._split - read
            if left and not self._quoted:
                rows = list(itertools.islice(reader, left))
                if not rows:  # (cannot be: every line left is a row)
                    return
                yield rows, range(read + 1, read + 1 + len(rows))
                continue
            if not left and self._split_plain:
                block = next(self._blocks, None)
                if block is None:
                    return
                plain = split_plain_block(block, self.delimiter, limit, columns_of)
                if plain is not None:
                    count = len(plain[0]) if type(plain) is BlockColumns else len(plain)
                    self._split += count
                    self._bypassed += count
                    yield plain, range(read + 1, read + 1 + count)
                    continue
                self._handed_back = block  # read by csv.reader, row by row, just below
            rows, lines = [], []
            while True:
                start = self.number + 1  # the row's first line
                row = next(reader, None)  # (with no line left, this takes the next block in)
                if row is None:
                    break
                rows.append(row)
                lines.append(start)
                if self.number >= self._split or not self._quoted:
                    break
            if not rows:
                return
            yield rows, lines

    def rows(self) -> Rows:
        """The rows after the header one by one, each with its line."""
        for rows, lines in self.chunks():
            yield from zip(rows, lines)


class BlockColumns(list):
    """The rows of a plain block as columns: ``self[c][r]`` is row r's cell c (every row has
    the same number of cells; no cell holds an LF)."""

    def rows(self) -> list[list[str]]:
        """The rows, as csv.reader reads them."""
        return list(map(list, zip(*self)))


def split_plain_block(
    block: str, delimiter: str, limit: int, columns_of: int | None = None
) -> list[list[str]] | BlockColumns | None:
    """A block's rows as csv.reader reads them, by ``str.split``, when every line is plain: no
    quote, no NUL, a CR only in a CRLF line end (:func:`plain_text`), and too short for any
    field to pass csv's field size limit. None for any other block (csv.reader reads it).

    With ``columns_of`` a width, a block whose every line has that many cells is split whole
    into its columns (:func:`block_columns`): no list, nor string, per row.
    """
    if len(block) > limit:
        return None
    text = plain_text(block)
    if text is None:
        return None
    if columns_of and columns_of > 1 and text:
        columns = block_columns(text, delimiter, columns_of)
        if columns is not None:
            return columns
    lines = text.split("\n")
    if not lines[-1]:
        lines.pop()  # the block ends with its last line's LF
    rows = [line.split(delimiter) for line in lines]
    if "" in lines:  # a blank line is no cells, as csv.reader reads it
        rows = [row if line else [] for row, line in zip(rows, lines)]
    return rows


def plain_text(block: str) -> str | None:
    """A block with no quote and no NUL, its lines ended by LF (CRLF ends made LF: the CRLF
    lane), or None when it has a quote, a NUL or a CR that is not in a CRLF (csv.reader reads
    it). csv.reader ends a line at CRLF just as at LF, so the rows are the same."""
    if '"' in block or "\x00" in block:
        return None
    if "\r" in block:
        if block.count("\r") != block.count("\r\n"):
            return None
        return block.replace("\r\n", "\n")
    return block


def block_columns(text: str, delimiter: str, width: int) -> BlockColumns | None:
    """The columns of plain LF-ended lines (see :func:`plain_text`) when every line has
    ``width`` cells (``width - 1`` delimiters), else None.

    The lines are judged at once, not one by one: the text's separators alone (its bytes but
    the delimiter and LF, deleted) must read ``width - 1`` delimiters and an LF, line after
    line (UTF-8 puts no ASCII byte inside another character). Then the text, its LFs made
    delimiters, is split whole: no string per line.
    """
    if not text.endswith("\n"):
        text += "\n"  # the file's last line, with no line end
    row = (delimiter * (width - 1) + "\n").encode()
    separators = text.encode("utf-8", "surrogatepass").translate(None, _other_bytes(delimiter))
    if separators != row * (len(separators) // width):  # (then it holds every LF)
        return None
    cells = text.replace("\n", delimiter).split(delimiter)
    cells.pop()  # after the last LF
    return BlockColumns(cells[at::width] for at in range(width))


@functools.lru_cache(maxsize=8)
def _other_bytes(delimiter: str) -> bytes:
    """Every byte but the delimiter's and LF: what block_columns deletes to see the separators."""
    keep = set((delimiter + "\n").encode())
    return bytes(b for b in range(256) if b not in keep)


def sniff_delimiter(line: str) -> str:
    """`,` `;` or tab: whichever the header line uses most."""
    return max(",;\t", key=line.count)


def cell_runs(cells: list[str]) -> list[tuple[str, int, int]]:
    """Each run of equal cells (a game's rows, by their game cells) as ``(cell, start, stop)``:
    the cells of a block's columns (no cell holds an LF).

    Runs of one length, as a season's games are, are found at once: after the first two runs,
    the next ones guessed as long as the second, and the guess checked as one text (each
    guessed cell repeated, against the cells joined); past the guess, cell by cell."""
    runs = cell_runs_from(cells, 0, 2)
    start = runs[-1][2] if runs else 0
    length = runs[1][2] - runs[1][1] if len(runs) == 2 else 0
    count = (len(cells) - start) // length if length else 0
    if count:
        end = start + count * length
        ids = cells[start:end:length]
        if (
            "".join(
                map(
                    operator.mul,
                    map(operator.add, ids, itertools.repeat("\n")),
                    itertools.repeat(length),
                )
            )
            == "\n".join(cells[start:end]) + "\n"
            and not any(map(operator.eq, ids, [runs[1][0], *ids[:-1]]))
            and (end == len(cells) or cells[end] != ids[-1])
        ):
            runs += zip(ids, range(start, end, length), range(start + length, end + 1, length))
            start = end
    return runs + cell_runs_from(cells, start)


def cell_runs_from(
    cells: list[str], start: int, most: int | None = None
) -> list[tuple[str, int, int]]:
    """The runs of equal cells from ``start`` on (at most ``most`` of them), cell by cell."""
    runs = []
    for cell, run in itertools.islice(
        itertools.groupby(itertools.islice(cells, start, None)), most
    ):
        stop = start + len(list(run))
        runs.append((cell, start, stop))
        start = stop
    return runs
