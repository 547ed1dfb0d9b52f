"""The rows of a CSV with the line each ends on, read a block at a time (see :class:`_CsvRows`)."""

from __future__ import annotations

import csv
from typing import Iterable, Iterator, NamedTuple, Sequence


from .source import _has_other_breaks, _split_lines


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


