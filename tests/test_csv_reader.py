"""The CSV reader (sheets/csv/rows.py) and the long and wide readers' public entry points.

The reader is ``csv.reader`` over the decoded lines; these tests pin its rows and their line
numbers to a naive reference that reads the whole text at once, however the text is cut into
blocks, and pin the long reader's bulk placement to its general, row-by-row path.
"""

from __future__ import annotations

import csv
import io
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from wizard_cli.sheets.csv.rows import BlockColumns, CsvRows
from wizard_cli.sheets.csv.sheets import read_csv_sheets

CELLS = [
    "Anna",
    "1",
    "",
    " 2 ",
    '"Ben, Jr."',
    '"two\nlines"',
    '"three\r\nline\rcell"',
    '"say ""hi"""',
    "x\x0cy",
    "Z\u2028",
    '""',
    "ä",
]


def reference(text: str) -> tuple[list[str] | None, str, list[tuple[list[str], int]]]:
    """The header, the delimiter and every row with the line it starts on, the obvious way: the
    whole text split into lines at CR, LF and CRLF, blank lines before the header counted."""
    lines = io.StringIO(text, newline="").readlines()
    first = next((at for at, line in enumerate(lines) if line.strip()), None)
    if first is None:
        return None, ",", []
    delimiter = max(",;\t", key=lines[first].count)
    reader = csv.reader(lines[first:], delimiter=delimiter)
    header = next(reader)
    rows, before = [], reader.line_num
    for row in reader:
        rows.append((row, first + before + 1))
        before = reader.line_num
    return header, delimiter, rows


def blocks(rng: random.Random, text: str) -> list[str]:
    """The text cut into blocks of whole lines at random (as the file reader hands them out)."""
    lines = io.StringIO(text, newline="").readlines()
    out, at = [], 0
    while at < len(lines):
        size = rng.randint(1, 5)
        out.append("".join(lines[at : at + size]))
        at += size
    return out


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    delimiter=st.sampled_from([",", ";", "\t"]),
    ending=st.sampled_from(["\n", "\r\n", "\r"]),
)
def test_rows_and_lines_are_the_naive_readers(seed, delimiter, ending):
    rng = random.Random(seed)
    lines = [""] * rng.randint(0, 2) + [delimiter.join(["round", "player", "bid", "tricks"])]
    for _ in range(rng.randint(0, 12)):
        lines.append(
            delimiter.join(rng.choice(CELLS) for _ in range(rng.randint(0, 6)))
            if rng.random() < 0.9
            else rng.choice(["", " "])
        )
    text = ending.join(lines) + rng.choice([ending, ""])
    header, expected_delimiter, expected = reference(text)
    cut = blocks(rng, text)
    for split in (True, False):  # plain blocks split whole, and the general path: csv.reader
        reader = CsvRows(cut, split_plain_blocks=split)
        assert reader.header() == header
        if header is None:
            return
        assert reader.delimiter == expected_delimiter
        assert reader.number == header_line(text)
        assert list(reader.rows()) == expected


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 10**6), plain=st.floats(0, 1))
def test_plain_blocks_split_whole_read_as_csv_reader_reads_them(seed, plain):
    """Blocks of plain lines (split by str.split) among others (quotes, CR, CRLF, blank lines:
    csv.reader's), cut anywhere between lines: the same rows and lines as the general path."""
    rng = random.Random(seed)
    cells = ["Anna", "1", "", " 2 ", "x\x0cy", "ä", "Total"]
    odd = ['"Ben, Jr."', '"two\nlines"', '"a\r\nb"']
    lines = ["game,round,player,bid,tricks"]
    for _ in range(rng.randint(0, 40)):
        width = rng.choice([5, 5, 5, 4, 6, 0])
        pool = cells if rng.random() < plain else cells + odd
        lines.append(",".join(rng.choice(pool) for _ in range(width)))
    endings = ["\n"] * 6 + ["\r\n", "\r"]
    text = "".join(line + rng.choice(endings if rng.random() > plain else ["\n"]) for line in lines)
    text = text if rng.random() < 0.8 else text.rstrip("\r\n")
    cut = blocks(rng, text)
    general = CsvRows(cut, split_plain_blocks=False)
    split = CsvRows(cut)
    assert split.header() == general.header()
    assert list(split.rows()) == list(general.rows())
    assert split.number == general.number


@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(0, 10**6), plain=st.floats(0, 1), delimiter=st.sampled_from([",", ";", "\t"])
)
def test_plain_blocks_as_columns_read_as_csv_reader_reads_them(seed, plain, delimiter):
    """Blocks asked for as columns (the long reader's lane) — LF or CRLF lines, some a cell
    short and the next a cell long (so the whole block's count of delimiters still fits), ä
    and other non-ASCII text, a last line with no end — read row for row and line for line
    as csv.reader reads them; a block that comes as columns had every row as wide as asked."""
    rng = random.Random(seed)
    cells = ["Anna", "1", "", " 2 ", "ä", "Z\u2028", "\u00e9\u0301", "Total", "g1"]
    lines = [delimiter.join(["game", "round", "player", "bid", "tricks"])]
    for _ in range(rng.randint(0, 60)):
        width = 5 if rng.random() < plain else rng.choice([5, 5, 4, 6, 1, 0])
        lines.append(delimiter.join(rng.choice(cells) for _ in range(width)))
        if width == 4 and rng.random() < 0.5:  # one short, the next one long
            lines.append(delimiter.join(rng.choice(cells) for _ in range(6)))
    endings = rng.choice([["\n"], ["\r\n"], ["\n", "\r\n"], ["\n"] * 9 + ["\r"]])
    text = "".join(line + rng.choice(endings) for line in lines)
    text = text if rng.random() < 0.8 else text.rstrip("\r\n")
    cut = blocks(rng, text)
    general = CsvRows(cut, split_plain_blocks=False)
    split = CsvRows(cut)
    assert split.header() == general.header()
    rows = []
    for chunk, numbers in split.chunks(columns_of=5):
        if type(chunk) is BlockColumns:
            chunk = chunk.rows()
            assert all(len(row) == 5 for row in chunk)
        rows += zip(chunk, numbers)
    assert rows == list(general.rows())
    assert split.number == general.number


def test_a_crlf_block_comes_as_columns():
    """The CRLF lane: a plain block of CRLF lines is split whole, as one of LF lines is."""
    for ending in ("\n", "\r\n"):
        text = ending.join(["game,round,player,bid,tricks", "g1,1,Anna,0,1", "g1,1,Ben,1,0"])
        reader = CsvRows(
            ["game,round,player,bid,tricks" + ending, text.split(ending, 1)[1] + ending]
        )
        reader.header()
        [(chunk, numbers)] = list(reader.chunks(columns_of=5))
        assert type(chunk) is BlockColumns and list(numbers) == [2, 3]
        assert chunk.rows() == [["g1", "1", "Anna", "0", "1"], ["g1", "1", "Ben", "1", "0"]]


def header_line(text: str) -> int:
    """The line the header ends on (blank lines before it count)."""
    lines = io.StringIO(text, newline="").readlines()
    first = next(at for at, line in enumerate(lines) if line.strip())
    reader = csv.reader(lines[first:], delimiter=max(",;\t", key=lines[first].count))
    next(reader)
    return first + reader.line_num


def test_a_row_whose_quoted_cell_spans_two_lines_is_on_the_line_it_starts_on():
    reader = CsvRows(["\n\nround,player,bid,tricks\r\n", '1,"An\r\nna",1,1\r\n', "1,Ben,0,0\r\n"])
    assert reader.header() == ["round", "player", "bid", "tricks"]
    assert reader.number == 3
    assert list(reader.rows()) == [(["1", "An\r\nna", "1", "1"], 4), (["1", "Ben", "0", "0"], 6)]


def test_no_header_is_none():
    assert CsvRows(["\n", "  \r\n"]).header() is None


def test_a_regular_game_is_placed_in_bulk_and_reads_as_the_general_path():
    text = "game,round,player,bid,tricks\n" + "".join(
        f"g,{number},{name},0,{number if name == 'Anna' else 0}\n"
        for number in (1, 2)
        for name in ("Anna", "Ben", "Cara")
    )
    (bulk,) = read_csv_sheets([text], "s.csv")
    (general,) = read_csv_sheets([text], "s.csv", bulk=False)
    assert bulk.rounds.bid_lines is bulk.rounds.trick_lines  # whole columns: the bulk placement
    assert general.rounds.bid_lines is not general.rounds.trick_lines  # round after round
    assert bulk == general
