"""Speed and scale (issue 6): the fast paths give exactly what the general ones give.

A long CSV is streamed one game at a time and a regular game is placed in bulk; a clean round
is validated at once; points are looked up in a table; YAML's plain decimals skip the
resolver. Each test here pins one of those to the slow, obvious way. No test is timed: the
speed is measured by ``python bench/run.py``.
"""

from __future__ import annotations

import json
import random

import pytest
import yaml
from helpers import run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wizard_cli.game.game import Game, score_game
from wizard_cli.game.model import BadValue
from wizard_cli.game.scoring import base_points, points_tables
from wizard_cli.game.settings import DEFAULTS, SPECS, Settings, hand_sizes
from wizard_cli.game.validation import check_sheet
from wizard_cli.sheets import source
from wizard_cli.sheets.csv import long as csv_long
from wizard_cli.sheets.csv.sheets import read_csv_sheets
from wizard_cli.sheets.yaml.tree import documents

PLAYERS = ("Anna", "Ben", "Cara", "Dan")


def game_rows(rng: random.Random, players=PLAYERS, rounds: int = 15) -> list[list[str]]:
    """A valid game: every trick goes to someone; about half the bids are made."""
    rows = []
    for size in range(1, rounds + 1):
        tricks = [0] * len(players)
        for _ in range(size):
            tricks[rng.randrange(len(players))] += 1
        bids = [t if rng.random() < 0.5 else rng.randint(0, size) for t in tricks]
        rows += [
            [str(size), name, str(bid), str(took)] for name, bid, took in zip(players, bids, tricks)
        ]
    return rows


def season_csv(games: dict[str, list[list[str]]]) -> str:
    """A long CSV with a game column, games in the order given."""
    lines = ["game,round,player,bid,tricks"]
    lines += [",".join([game, *row]) for game, rows in games.items() for row in rows]
    return "\n".join(lines) + "\n"


def single_csv(rows: list[list[str]]) -> str:
    """One game as a long CSV without a game column."""
    return "\n".join(["round,player,bid,tricks", *(",".join(row) for row in rows)]) + "\n"


def without_source(item: dict) -> dict:
    """A standings/score object without where it came from (source and game differ by design)."""
    return {key: value for key, value in item.items() if key not in ("source", "game")}


# --- streaming a season ---------------------------------------------------------------


@pytest.mark.parametrize("command", ["standings", "score"])
def test_jsonl_of_a_season_is_the_result_of_each_game_alone(write, command):
    rng = random.Random(6)
    games = {f"g{number:03d}": game_rows(rng) for number in range(1, 41)}
    games["g041"] = game_rows(rng, rounds=7)  # one still going
    season = write("season.csv", season_csv(games))
    result = run(command, season, "-f", "jsonl")
    assert result.exit_code == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [item["game"] for item in lines] == list(games)
    assert all(item["source"] == str(season) for item in lines)
    for item, (game, rows) in zip(lines, games.items()):
        alone = run(command, write(f"{game}.csv", single_csv(rows)), "-f", "json")
        assert alone.exit_code == 0, alone.stderr
        assert without_source(item) == without_source(json.loads(alone.stdout))


def test_a_game_that_reappears_later_is_an_error_naming_the_game_and_line(write):
    rng = random.Random(7)
    first, second = game_rows(rng, rounds=2), game_rows(rng, rounds=2)
    text = season_csv({"g1": first[:4], "g2": second}) + ",".join(["g1", *first[4]]) + "\n"
    season = write("season.csv", text)
    result = run("standings", season, "-f", "jsonl")
    assert result.exit_code == 1
    reappears = 2 + len(first[:4]) + len(second)  # header, g1's first rows, g2
    assert result.stderr.splitlines()[0] == (
        f"{season}:{reappears}: game 'g1' continues here after other games "
        "(a game's rows must be together)"
    )
    expected = [
        json.loads(run("standings", write(f"{name}.csv", single_csv(rows)), "-f", "json").stdout)
        for name, rows in (("g1", first[:4]), ("g2", second))
    ]
    printed = [json.loads(line) for line in result.stdout.splitlines()]
    assert [item["game"] for item in printed] == ["g1", "g2"]
    assert [without_source(item) for item in printed] == [without_source(e) for e in expected]


def test_output_starts_before_the_input_ends(write):
    """jsonl is written game by game: the first game is out before the last one is read."""
    rng = random.Random(8)
    text = season_csv({f"g{number}": game_rows(rng, rounds=3) for number in range(3)})
    written: list[str] = []

    class Lines:
        """The file's lines, noting how much output existed when each line was taken."""

        def __init__(self) -> None:
            self.lines = iter(text.splitlines(True))
            self.seen_output_at: list[int] = []

        def __iter__(self):
            return self

        def __next__(self) -> str:
            self.seen_output_at.append(len(written))
            return next(self.lines)

    from wizard_cli.output.formats import emit
    from wizard_cli.output.game_views import StandingsOutput

    class Out:
        def write(self, chunk: str) -> None:
            written.append(chunk)

    lines = Lines()
    results = (
        score_game(c.validated)
        for c in (check_sheet(sheet) for sheet in read_csv_sheets(lines, "s.csv"))
    )
    emit(StandingsOutput(), results, "jsonl", Out())
    assert len(written) == 3
    assert lines.seen_output_at[-1] >= 2  # the end of the file was reached after two games were out


# --- the bulk path of a long CSV against the general one -------------------------------


def read_general(text: str) -> list:
    """The sheets as the general, row-by-row path reads them (the bulk placement off)."""
    return list(read_csv_sheets(text.splitlines(True), "s.csv", bulk=False))


ODD_CELLS = ["", " 1", "1 ", "2.0", "+1", "-1", "01", "x", "\u0663", "1234567890", "7"]


def spoil(rng: random.Random, rows: list[list[str]]) -> None:
    """Break a game the ways spreadsheets do: odd cells, rows moved, doubled, dropped, cut short."""
    for _ in range(rng.randint(1, 3)):
        if not rows:  # a one-row game dropped
            return
        at = rng.randrange(len(rows))
        kind = rng.randrange(8)
        if len(rows[at]) < 5:  # already cut short or blank
            continue
        if kind == 0:
            rows[at][rng.choice([1, 2, 3, 4])] = rng.choice(ODD_CELLS)
        elif kind == 1:
            rows.insert(at, list(rows[at]))
        elif kind == 2:
            del rows[at]
        elif kind == 3:
            rows[at] = rows[at][: rng.randint(1, 4)]
        elif kind == 4:
            rows[at] = rows[at] + ["extra"]
        elif kind == 5:
            other = rng.randrange(len(rows))
            rows[at], rows[other] = rows[other], rows[at]
        elif kind == 6:
            rows.insert(at, [])
        else:
            rows[at][4] = ""


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 10**6), points=st.booleans())
def test_bulk_and_general_paths_read_the_same_sheets(seed, points):
    rng = random.Random(seed)
    lines = ["game,round,player,bid,tricks" + (",points" if points else "")]
    for number in range(rng.randint(1, 6)):
        players = rng.sample(
            ["Anna", "Ben", "Cara", "Dan", "Eve", "Finn", "Gus"], rng.randint(2, 7)
        )
        rows = [
            [f"g{number}", *row] + ([str(rng.randint(-20, 60))] if points else [])
            for row in game_rows(rng, players, rng.randint(0, 60 // max(3, len(players))))
        ]
        if rows and rng.random() < 0.5:
            spoil(rng, rows)
        lines += [",".join(row) for row in rows]
    text = "\n".join(lines) + "\n"
    assert list(read_csv_sheets(text.splitlines(True), "s.csv")) == read_general(text)


def in_blocks(rng: random.Random, text: str) -> list[str]:
    """The text cut into blocks of whole lines at random, as the file reader hands them out."""
    lines = source.split_lines(text)
    blocks, at = [], 0
    while at < len(lines):
        size = rng.randint(1, 40)
        blocks.append("".join(lines[at : at + size]))
        at += size
    return blocks


QUOTED = ['"Anna"', '"1"', '"Ben, Jr."', '"two\nlines"', '"say ""hi"""']


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    ending=st.sampled_from(["\n", "\r\n", "\r"]),
    quotes=st.booleans(),
    delimiter=st.sampled_from([",", ";", "\t"]),
    order=st.permutations(range(5)),
)
def test_blocks_cut_anywhere_read_as_the_general_path_reads_the_lines(
    seed, ending, quotes, delimiter, order
):
    """However the text is cut into blocks, the sheets are those of the general path."""
    rng = random.Random(seed)
    lines = ["game,round,player,bid,tricks"]
    for number in range(rng.randint(1, 5)):
        rows = [[f"g{number}", *row] for row in game_rows(rng, PLAYERS, rng.randint(0, 15))]
        if rows and rng.random() < 0.5:
            spoil(rng, rows)
        row = rows[rng.randrange(len(rows))] if rows else []
        if quotes and row:
            row[rng.randrange(len(row))] = rng.choice(QUOTED)
        lines += [",".join(row) for row in rows]
        if rng.random() < 0.3:
            lines.append(rng.choice(["", " ", ",,,,", "g9"]))
    lines = [
        ",".join([cells[at] for at in order if at < len(cells)] + cells[5:])
        if len(cells) >= 5
        else line
        for line, cells in ((ln, ln.split(",")) for ln in lines)
    ]
    text = ending.join(line.replace(",", delimiter) for line in lines) + ending
    expected = list(read_csv_sheets(source.split_lines(text), "s.csv", bulk=False))
    assert list(read_csv_sheets(in_blocks(rng, text), "s.csv")) == expected
    assert list(read_csv_sheets(source.split_lines(text), "s.csv")) == expected


@pytest.mark.parametrize("block_bytes", [1, 7, 64, 1000])
def test_a_file_read_in_small_blocks_reads_the_same(write, block_bytes):
    rng = random.Random(12)
    rows = {f"g{n}": game_rows(rng) for n in range(4)}
    text = season_csv(rows).replace("g1,3,Ben", '"g1",3,"Ben"').replace("\n", "\r\n")
    path = write("s.csv", text)
    with open(path, "rb") as whole, open(path, "rb") as small:
        expected = list(read_csv_sheets(source.decoded_blocks(whole, "s.csv", None), "s.csv"))
        blocks = source.decoded_blocks(small, "s.csv", None, block_bytes=block_bytes)
        assert list(read_csv_sheets(blocks, "s.csv")) == expected
    assert len(expected) == 4 and not any(sheet.problems for sheet in expected)


def test_more_rows_than_any_game_has_are_read_the_general_way():
    rng = random.Random(9)
    rows = game_rows(rng, rounds=15) * (csv_long.MOST_ROWS // 60 + 2)
    text = season_csv({"long": rows, "next": game_rows(rng)})
    assert len(rows) > csv_long.MOST_ROWS
    assert list(read_csv_sheets(text.splitlines(True), "s.csv")) == read_general(text)


@pytest.mark.parametrize(
    "data, line",
    [
        (b"\xff,round\n", 1),
        (b"\n\ngame,round,player,bid,tricks\ng1,1,Anna,1,1\n\n\xff\n", 6),
        (b"game,round,player,bid,tricks\ng1,1,Anna,1,1\ng1,1,B\xffn,0,0\n", 3),
        (b"round,Anna,Ben,Cara\n1,1/1,0/0,0/0\n2,1/1,\xff,0/1\n", 3),
    ],
)
def test_a_byte_that_does_not_decode_is_named_on_its_line(write, data, line):
    path = write("bad.csv", data)
    result = run("standings", path)
    assert result.exit_code == 1
    assert result.stderr == (
        f"{path}:{line}: not UTF-8 text (byte 0xff); a file saved by an "
        "older spreadsheet is often Latin-1: try --encoding latin-1 (or cp1252)\n"
    )


# --- validation and scoring ------------------------------------------------------------

CELL = st.one_of(
    st.integers(-2, 22),
    st.none(),
    st.just(BadValue("x")),
    st.just(BadValue("01-Jan", "looks like a date", quiet=True)),
)


@settings(max_examples=200, deadline=None)
@given(data=st.data(), count=st.integers(3, 6), played=st.integers(0, 12))
def test_a_clean_round_checked_at_once_finds_what_the_full_check_finds(data, count, played):
    players = ["Anna", "Ben", "Cara", "Dan", "Eve", "Finn"][:count]
    rows = []
    for number in range(1, played + 1):
        cells = data.draw(st.lists(st.tuples(CELL, CELL), min_size=count, max_size=count))
        if data.draw(st.booleans()):  # mostly clean rounds: the fast path's own case
            cells = [(n % (number + 1), 0) for n in range(count)]
            cells[0] = (cells[0][0], number)
        rows.append(cells)
    last_in_play = data.draw(st.booleans())
    from wizard_cli.game.model import RoundRecord, Sheet

    def sheet() -> Sheet:
        made = Sheet(source="s.yaml", players=list(players), player_lines=[1] * count)
        for number, cells in enumerate(rows, start=1):
            in_play = last_in_play and number == len(rows)
            tricks = None if in_play else [t for _, t in cells]
            made.rounds.append(
                RoundRecord(
                    number,
                    number,
                    [b for b, _ in cells],
                    [number] * count,
                    tricks,
                    None if tricks is None else [number] * count,
                )
            )
        return made

    from wizard_cli.game.settings import DEFAULTS
    from wizard_cli.game.validation import explain_rounds, round_problems

    fast = round_problems(sheet(), DEFAULTS, 0)  # a clean sheet is accepted at once
    slow = explain_rounds(sheet(), DEFAULTS, 0)  # the full check, value by value
    assert fast == slow


def rule_sets() -> st.SearchStrategy[Settings]:
    """Scoring settings, any allowed combination (the deal kept to the whole deck)."""
    values = {
        spec.key: (
            st.sampled_from(range(spec.minimum, spec.maximum + 1, spec.step))
            if spec.kind == "int"
            else st.sampled_from(spec.options)
            if spec.kind == "option"
            else st.booleans()
        )
        for spec in SPECS
        if spec.key not in ("roundMode", "customRoundCount", "bidding", "screwTheDealer")
    }
    return st.fixed_dictionaries(values).map(DEFAULTS.replace)


@settings(max_examples=100, deadline=None)
@given(s=rule_sets(), seed=st.integers(0, 10**6), count=st.integers(3, 6))
def test_looked_up_points_are_base_points(s, seed, count):
    rng = random.Random(seed)
    players = ("Anna", "Ben", "Cara", "Dan", "Eve", "Finn")[:count]
    text = single_csv(game_rows(rng, players, rng.randint(1, 60 // count)))
    sheet = next(read_csv_sheets(text.splitlines(True), "s.csv"))
    result = score_game(Game(sheet, s))
    sizes = hand_sizes(s, count)
    for scored in result.rounds:
        expected = [
            base_points(b, t, sizes[scored.number - 1], s)
            for b, t in zip(scored.bids, scored.tricks)
        ]
        if s.balanced_bid_penalty and sum(scored.bids) == scored.hand_size:
            expected[scored.dealer] -= s.balanced_bid_penalty
        if s.final_round_bonus and scored.number == len(sizes):
            expected = [
                p + s.final_round_bonus if b == t else p
                for p, b, t in zip(expected, scored.bids, scored.tricks)
            ]
        assert list(scored.points) == expected


def test_points_tables_hold_base_points_for_every_hand():
    s = DEFAULTS.replace({"zeroBidScoring": "perCardBonus"})
    tables = points_tables(s)
    for size, table in enumerate(tables):
        assert table == {
            b: {t: base_points(b, t, size, s) for t in range(size + 1)} for b in range(size + 1)
        }


def test_sheets_with_their_own_settings_keep_them_when_read_together(write):
    plain = write(
        "plain.yaml",
        "players: [Anna, Ben, Cara]\nrounds:\n  - bids: [0, 0, 1]\n    tricks: [0, 0, 1]\n",
    )
    double = write(
        "double.yaml",
        "players: [Anna, Ben, Cara]\nsettings: {zeroBidScoring: "
        "doubleBonus}\nrounds:\n  - bids: [0, 0, 1]\n"
        "    tricks: [0, 0, 1]\n",
    )
    result = run("standings", plain, double, plain, "-f", "jsonl")
    assert result.exit_code == 0, result.stderr
    scores = [
        [s["score"] for s in json.loads(line)["standings"]] for line in result.stdout.splitlines()
    ]
    assert scores == [[30, 20, 20], [40, 40, 30], [30, 20, 20]]


# --- YAML ------------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet="0123456789_+-.:xob\u0663", min_size=1, max_size=6))
def test_a_plain_scalar_reads_as_yaml_safe_load_reads_it(text):
    doc = f"a: {text}\n"
    try:
        expected = yaml.safe_load(doc)["a"]
    except yaml.YAMLError:  # not YAML at all (`a: :`): ours must fail too
        with pytest.raises(Exception):  # noqa: B017 -- any error: ours must fail as PyYAML does
            next(documents(doc, "x.yaml")).pairs[0][1].value()
        return
    except Exception:  # noqa: BLE001 -- safe_load cannot build some plain scalars (`0b_`): ours keeps the text
        assert next(documents(doc, "x.yaml")).pairs[0][1].value() == text
        return
    value = next(documents(doc, "x.yaml")).pairs[0][1].value()
    assert (type(value), value) == (type(expected), expected)


def test_many_sheets_given_at_once_are_each_read_alone(write):
    rng = random.Random(10)
    paths = []
    for number in range(12):
        rows = game_rows(rng, PLAYERS[:3], rng.randint(0, 20))
        rounds = [rows[at : at + 3] for at in range(0, len(rows), 3)]
        body = "".join(
            f"  - bids: [{', '.join(r[2] for r in rnd)}]\n"
            f"    tricks: [{', '.join(r[3] for r in rnd)}]\n"
            for rnd in rounds
        )
        paths.append(
            write(
                f"s{number}.yaml",
                f"players: [Anna, Ben, Cara]\nrounds:\n{body}"
                if body
                else "players: [Anna, Ben, Cara]\n",
            )
        )
    together = run("standings", *paths, "-f", "jsonl")
    assert together.exit_code == 0, together.stderr
    alone = [run("standings", path, "-f", "jsonl").stdout for path in paths]
    assert together.stdout == "".join(alone)


# --- tables drawn without tabulate ---------------------------------------------------------

# Printable ASCII, and the score cells' arrow (drawn directly too: one column wide for tabulate).
PLAIN_TEXT = st.text(
    alphabet=st.one_of(st.characters(min_codepoint=32, max_codepoint=126), st.just("→")),
    max_size=12,
)
CELL_VALUE = st.one_of(
    PLAIN_TEXT, st.integers(-1000, 100_000), st.none(), st.booleans(), st.text(max_size=6)
)


@settings(max_examples=400, deadline=None)
@given(data=st.data(), columns=st.integers(1, 6), style=st.sampled_from(["table", "markdown"]))
def test_a_plain_table_is_drawn_exactly_as_tabulate_draws_it(data, columns, style):
    """Plain tables are drawn directly (tabulate costs too much for ten thousand sheets)."""
    from tabulate import tabulate

    from wizard_cli.output.formats import grid

    headers = data.draw(st.lists(PLAIN_TEXT, min_size=columns, max_size=columns))
    value = CELL_VALUE if data.draw(st.booleans()) else st.one_of(PLAIN_TEXT, st.integers())
    rows = data.draw(st.lists(st.lists(value, min_size=columns, max_size=columns), max_size=5))
    align = data.draw(
        st.none()
        | st.lists(st.sampled_from(["left", "right", "center"]), min_size=columns, max_size=columns)
    )
    # What tabulate draws of the text as SPEC §8 shows it: control characters escaped, and a
    # `|` in a Markdown cell written `\|`.
    from wizard_cli.errors import visible

    def safe(cell):
        if type(cell) is not str:
            return cell
        return visible(cell.replace("|", "\\|") if style == "markdown" else cell)

    expected = tabulate(
        [[safe(c) for c in row] for row in rows],
        headers=[safe(h) for h in headers],
        disable_numparse=True,
        colalign=align,
        tablefmt="github" if style == "markdown" else "simple",
    )
    assert grid(headers, rows, style, align) == expected
