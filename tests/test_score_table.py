"""``wizard score``'s text is drawn once (output/score_table.py, issue 30 item 1): a lone game
and a game of a long CSV's run become the same record, drawn by the same functions.

The template a plain table is filled into (now a lone game's drawing too) is held to the
general plain table of output/formats.py; a run's records to those of the same games read
one by one; and the run's reading (output/score_runs.py) lays nothing out itself.
"""

from __future__ import annotations

import ast
import random
from pathlib import Path

from helpers import run
from hypothesis import given, settings
from hypothesis import strategies as st

from wizard_cli.app.batch import RuleOptions
from wizard_cli.cli.reading import Reading
from wizard_cli.game.game import GameResult, round_records
from wizard_cli.game.runs import ScoredRun
from wizard_cli.output.formats import Rendered, grid
from wizard_cli.output.game_views import status_line
from wizard_cli.output.score_runs import ScoreRunTables
from wizard_cli.output.score_table import (
    GridShape,
    ScoreRecord,
    score_blocks,
    score_grid,
    score_record,
    standings_table,
)

NAME = st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz%-'.0123456789", min_size=1)
WORD = st.text("0123456789/→+-=?outbm%", min_size=1, max_size=8)
CELL = st.lists(WORD, min_size=1, max_size=4).map(" ".join)  # never a space at an end
NUMBER = st.integers(-100_000, 100_000)


@st.composite
def tables(draw):
    """A score table's parts: players, each round's number, Cards cell and dealer, the cells
    round after round, the totals."""
    players = draw(st.lists(NAME, min_size=1, max_size=6))
    count = draw(st.integers(0, 9))
    rounds = [
        (
            number,
            draw(st.sampled_from([number, f"{number}, bomb", 20])),
            draw(st.sampled_from(players)),
        )
        for number in range(1, count + 1)
    ]
    cells = draw(st.lists(CELL, min_size=count * len(players), max_size=count * len(players)))
    totals = draw(st.lists(NUMBER, min_size=len(players), max_size=len(players)))
    return players, rounds, cells, totals


@settings(max_examples=300, deadline=None)
@given(tables())
def test_a_plain_table_is_filled_into_its_template_as_the_general_table_draws_it(parts):
    """The score table of plain names comes from its shape's template; it is the plain table
    formats.grid draws of the same rows, with the widths measured by the drawer or given by a
    run's reading."""
    players, rounds, cells, totals = parts
    count = len(players)
    rows: list[list] = [
        [*row, *cells[index * count : (index + 1) * count]] for index, row in enumerate(rounds)
    ]
    rows.append(["Total", "", "", *totals])
    expected = grid(
        ["Round", "Cards", "Dealer", *players],
        rows,
        "table",
        ["right", "right", "left", *["right"] * count],
    )
    shape = GridShape(rounds)
    assert shape.draws_plain(tuple(players))
    assert score_grid(shape, players, cells, totals, "table") == expected
    widest = [
        max([len(str(total)), *map(len, cells[seat::count])]) for seat, total in enumerate(totals)
    ]
    assert score_grid(shape, players, cells, totals, "table", widest) == expected
    assert score_grid(shape, players, cells, totals, "table") == expected  # the template kept


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(1, 12), NAME, NUMBER, st.sampled_from([0, 0, 0, 30, 100_000])),
        min_size=1,
        max_size=6,
    )
)
def test_the_standings_block_is_the_general_table_of_its_records(records):
    count = 4 if any(record[3] for record in records) else 3
    expected = grid(
        ["Rank", "Player", "Score", "Bonus"][:count],
        [record[:count] for record in records],
        "table",
        ["right", "left", "right", "right"][:count],
    )
    assert standings_table(records, "table") == expected
    assert standings_table(records, "table", plain=True) == expected


def test_a_name_that_is_not_plain_is_drawn_by_the_general_table():
    """A wide character, a control character or a space at an end: the table is not filled
    into a template (which would misalign it) but drawn by formats.grid."""
    for players in (["Zoë", "李", "Dan"], ["Anna", "Ben\x1b", "Cara"], [" Hal", "Ben", "Cara"]):
        shape = GridShape([(1, 1, players[0])])
        cells, totals = ["1/1 → +30 = 30", "0/0 → +20 = 20", "0/1 → -10 = -10"], [30, 20, -10]
        drawn = score_grid(shape, players, cells, totals, "table")
        assert drawn == grid(
            ["Round", "Cards", "Dealer", *players],
            [[1, 1, players[0], *cells], ["Total", "", "", *totals]],
            "table",
            ["right", "right", "left", "right", "right", "right"],
        )
        assert not shape.draws_plain(tuple(players))


def season(path: Path, games: int, seed: int) -> None:
    """A clean long CSV of ``games`` whole games, the table changing now and then."""
    rng = random.Random(seed)
    seatings = [
        ["Anna", "Ben", "Cara", "Dan"],
        ["Eva", "Ben", "A%n"],
        ["Anna", "Bo", "Cy", "D", "E"],
    ]
    lines = ["game,round,player,bid,tricks"]
    for number in range(games):
        players = seatings[number * len(seatings) // games]
        for size in range(1, 60 // len(players) + 1):
            tricks = [0] * len(players)
            for _ in range(size):
                tricks[rng.randrange(len(players))] += 1
            for name, took in zip(players, tricks):
                bid = took if rng.random() < 0.6 else rng.randint(0, size)
                lines.append(f"g{number},{size},{name},{bid},{took}")
    path.write_text("\n".join(lines) + "\n")


def test_a_runs_games_are_the_records_their_games_read_alone_give(tmp_path):
    """Each game the season lane takes becomes the record its GameResult gives (players,
    shape, cells, totals, standings, status), the widths measured over the run being those the
    drawer measures, and both are drawn alike."""
    path = tmp_path / "season.csv"
    season(path, 150, 1)
    rules = RuleOptions(assignments=["perfectGameBonus=30"])
    taken: list[ScoreRecord] = []
    tables = ScoreRunTables()

    lone = {
        result.game: result
        for result in Reading([str(path)], rules).scored_noting_points()
        if isinstance(result, GameResult)
    }
    drawn = []
    for item in Reading([str(path)], rules).scored_noting_points(runs=True):
        if isinstance(item, ScoredRun):
            records = tables.records(item.run, item.standings)
            taken.extend(records or [])
            item = tables(item.run, item.standings, True)
        drawn.append(item)
    assert len(taken) > 100 and sum(type(item) is Rendered for item in drawn) > 1
    for record in taken:
        result = lone[record.label.game]
        alone = record_of(result)
        assert alone.widest is None and record.widest is not None
        assert (
            tuple(record.players),
            list(record.shape.rounds),
            list(record.cells),
            list(record.totals),
            [tuple(values) for values in record.standings],
            record.status,
        ) == (
            alone.players,
            list(alone.shape.rounds),
            alone.cells,
            list(alone.totals),
            list(alone.standings),
            alone.status,
        )
        count = len(record.players)
        assert list(record.widest) == [
            max([len(str(total)), *map(len, alone.cells[seat::count])])
            for seat, total in enumerate(alone.totals)
        ]
        assert score_blocks(record, "table") == score_blocks(alone, "table")
    assert any("Bonus" in standings_table(record.standings, "table") for record in taken)
    result = run("score", path, "--set", "perfectGameBonus=30")
    assert result.stdout == "\n".join(  # every game as it is drawn alone, lane or none
        "\n\n".join(score_blocks(record_of(game), "table")) + "\n" for game in lone.values()
    )


def record_of(result: GameResult) -> ScoreRecord:
    """A lone game's record."""
    return score_record(result, round_records(result), status_line(result))


def test_the_runs_reading_lays_nothing_out():
    """output/score_runs.py names no column and pads, formats or rules no line: the layout is
    score_table.py's alone."""
    from wizard_cli.output import score_runs

    tree = ast.parse(Path(score_runs.__file__).read_text(encoding="utf-8"))
    texts = {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)}
    names = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    names |= {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    names |= {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    assert not texts & {"Round", "Cards", "Dealer", "Total", "-", "  ", "%s"}
    assert not names & {"rjust", "ljust", "format", "plain_fields", "grid", "STANDING_FIELDS"}


def test_the_runs_reading_forgets_what_it_keeps_and_draws_alike(tmp_path, monkeypatch):
    """The run's reading keeps each cell's text and each winners' status line for the games to
    come, but no more of them than it is allowed (SPEC §4: memory flat whatever a file holds);
    what it forgot it makes again, and the score text is the same byte for byte."""
    from wizard_cli.output import score_runs

    path = tmp_path / "season.csv"
    season(path, 150, 2)
    rules = RuleOptions(assignments=["perfectGameBonus=30"])
    lone = [
        result
        for result in Reading([str(path)], rules).scored_noting_points()
        if isinstance(result, GameResult)
    ]
    expected = ["\n\n".join(score_blocks(record_of(game), "table")) for game in lone]
    assert any("share the win" in text for text in expected)  # a tie among the status lines
    monkeypatch.setattr(score_runs, "KEPT_CELLS", 40)
    monkeypatch.setattr(score_runs, "KEPT_TABLES", 2)
    tables = ScoreRunTables()
    kept: list[tuple[int, int, int]] = []

    drawn = []
    for item in Reading([str(path)], rules).scored_noting_points(runs=True):
        if isinstance(item, ScoredRun):
            game_run = item.run
            item = tables(game_run, item.standings, True)
            kept.append((len(tables.cells), len(tables.over_lines), len(game_run.bids)))
        drawn.append(item)
    assert sum(type(item) is Rendered for item in drawn) > 1
    texts = [
        item.rstrip("\n")
        if type(item) is Rendered
        else "\n\n".join(score_blocks(record_of(item), "table"))
        for item in drawn
    ]
    assert "\n\n".join(texts) == "\n\n".join(expected)
    # never more than allowed and what one run adds; and forgotten more than once
    assert all(
        cells <= 40 + run_cells and lines <= 2 + run_cells for cells, lines, run_cells in kept
    )
    assert sum(after < before for (before, _, _), (after, _, _) in zip(kept, kept[1:])) > 1


def test_a_standings_line_ending_in_spaces_is_stripped_at_its_end():
    """The standings block is filled in one go where its last column's texts end in no space
    (numbers do); where one does (or is empty), each line is stripped at its end, as a plain
    table's line is: columns as wide as their widest text or header and two spaces."""
    for last in (" 7 ", "", "12\u3000", 5):
        for records in ([(1, "Ben", last, 0), (2, "Anna", 390, 0)], [(1, "Ben", 9, last or 0)]):
            count = 4 if any(record[3] for record in records) else 3
            headers = ["Rank", "Player", "Score", "Bonus"][:count]
            rows = [list(map(str, record[:count])) for record in records]
            widths = [
                max(len(header) + 2, *map(len, column))
                for header, column in zip(headers, zip(*rows))
            ]
            pads = [str.rjust, str.ljust, str.rjust, str.rjust]
            lines = [
                "  ".join(pad(text, width) for pad, text, width in zip(pads, row, widths)).rstrip()
                for row in [headers, *rows]
            ]
            lines.insert(1, "  ".join("-" * width for width in widths))
            assert standings_table(records, "table", plain=True) == "\n".join(lines)
