"""Spreadsheets as people keep them (SPEC §3, issue 14): German headers, total rows, decimal
commas, UTF-16 "Unicode Text", merged cells, and cells a spreadsheet turned into dates.

Each fixture is made here byte for byte as the program writes it: Excel's German "CSV (Trennzeichen-
getrennt)" (`;`, CRLF, cp1252), "CSV UTF-8" (a BOM), "Unicode Text" (UTF-16 LE with a BOM, tabs,
CRLF), LibreOffice with merged cells (a value on a group's first row only), Google Sheets (LF…).
"""

from __future__ import annotations

import json

import pytest
from helpers import run

CUSTOM5 = ("--set", "roundMode=custom", "--set", "customRoundCount=5")
PLAYERS = ["Anna", "Ben", "Cara", "Dan"]
ROUNDS = [
    ([1, 0, 0, 1], [1, 0, 0, 0]),
    ([1, 1, 0, 2], [0, 1, 1, 0]),
    ([2, 0, 1, 1], [2, 0, 1, 0]),
    ([1, 2, 0, 1], [2, 2, 0, 0]),
    ([2, 1, 3, 0], [2, 1, 1, 1]),
]
TOTALS = {"Anna": 90, "Ben": 140, "Cara": 40, "Dan": -60}  # the worked example (SPEC §6)
DATE = (
    "looks like a date: a spreadsheet probably turned a bid/tricks cell such as '1/1' into a "
    "date (format the column as text and type it again)"
)


def long_rows(number_cell=str, value=str) -> list[list[str]]:
    """The worked example's rows (round, player, bid, tricks), each cell as the program writes it."""
    return [
        [number_cell(number), name, value(bid), value(took)]
        for number, (bids, tricks) in enumerate(ROUNDS, start=1)
        for name, bid, took in zip(PLAYERS, bids, tricks)
    ]


def export(rows: list[list[str]], delimiter: str, ending: str) -> str:
    return "".join(delimiter.join(row) + ending for row in rows)


def games_of(path, *args) -> list[dict]:
    """``standings -f jsonl``: each game's object."""
    result = run("standings", path, *CUSTOM5, *args, "-f", "jsonl")
    assert result.exit_code == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def totals_of(path, *args) -> dict:
    """The one game's final score per player."""
    (data,) = games_of(path, *args)
    return {row["player"]: row["score"] for row in data["standings"]}


def check(path, *args) -> tuple[int, list[str]]:
    result = run("check", path, *args)
    return result.exit_code, result.stderr.splitlines()


# --- Excel in German --------------------------------------------------------------------------


def test_excel_german_csv_export_with_a_total_row(write):
    """Excel's "CSV (Trennzeichen-getrennt)": `;`, CRLF, cp1252, numbers with a decimal comma
    where the cells are formatted with one decimal, and the sheet's `Summe` row."""
    rows = [["Runde", "Spieler", "Ansage", "Stiche", "Punkte"]]
    for number, (bids, tricks) in enumerate(ROUNDS, start=1):
        for name, bid, took in zip(["Änne", *PLAYERS[1:]], bids, tricks):
            points = 20 + 10 * took if bid == took else -10 * abs(bid - took)
            rows.append([str(number), name, f"{bid},0", f"{took},0", str(points)])
    rows.append(["Summe", "", "", "", "210"])
    path = write("abend.csv", export(rows, ";", "\r\n").encode("cp1252"))
    assert totals_of(path, "--encoding", "cp1252") == {
        "Änne": 90,
        **{p: TOTALS[p] for p in PLAYERS[1:]},
    }
    assert check(path, "--encoding", "cp1252") == (0, [])  # the typed points audited, and right


@pytest.mark.parametrize(
    "names",
    [
        ["Spiel", "Runde", "Spieler", "Ansage", "Stiche"],
        ["spiel", "RUNDE", "Spieler", "Gebot", "stiche"],
        ["Spiel", "Runde", "Spieler", "Tipp", "Stiche"],
    ],
)
def test_german_headers_with_a_bom_are_the_english_ones(write, names):
    """Excel's "CSV UTF-8": a byte-order mark, `;`, CRLF."""
    rows = [names] + [["1", *row] for row in long_rows()]
    path = write("s.csv", b"\xef\xbb\xbf" + export(rows, ";", "\r\n").encode())
    assert totals_of(path) == TOTALS
    assert games_of(path)[0]["game"] == "1"


def test_a_german_wide_sheet_with_a_total_row(write):
    rows = [["Runde", *PLAYERS]]
    rows += [
        [str(number), *(f"{b}/{t}" for b, t in zip(bids, tricks))]
        for number, (bids, tricks) in enumerate(ROUNDS, start=1)
    ]
    rows.append(["Gesamt", "90", "140", "40", "-60"])
    path = write("w.csv", export(rows, ";", "\r\n"))
    assert totals_of(path) == TOTALS


@pytest.mark.parametrize("word", ["Total", "TOTAL", "Sum", "summe", "Gesamt", " Summe "])
def test_total_rows_are_ignored_in_long_and_wide_files(write, word):
    long = [["round", "player", "bid", "tricks"], *long_rows(), [word, "", "", "3"]]
    wide = [
        ["round", *PLAYERS],
        *(
            [str(n), *(f"{b}/{t}" for b, t in zip(bids, tricks))]
            for n, (bids, tricks) in enumerate(ROUNDS, start=1)
        ),
        [word, "90", "140", "40", "-60"],
    ]
    assert totals_of(write("l.csv", export(long, ",", "\n"))) == TOTALS
    assert totals_of(write("w.csv", export(wide, ",", "\n"))) == TOTALS


# --- decimal commas ---------------------------------------------------------------------------


def test_a_decimal_comma_is_a_decimal_point_where_comma_is_not_the_delimiter(write):
    rows = [
        ["round", "player", "bid", "tricks"],
        ["1", "A", "1,0", "1,00"],
        ["1", "B", "0,5", "0"],
        ["1", "C", "0", "0"],
    ]
    path = write("s.csv", export(rows, ";", "\n"))
    assert check(path) == (1, [f"{path}:3: round 1, B: bid '0,5' is not a whole number"])
    code, errors = check(write("t.csv", export(rows, "\t", "\n")))
    assert code == 1 and [e.split(": ", 1)[1] for e in errors] == [
        "round 1, B: bid '0,5' is not a whole number"
    ]
    quoted = write("c.csv", 'round,player,bid,tricks\n1,A,"1,0",1\n1,B,0,0\n1,C,0,0\n')
    assert check(quoted) == (1, [f"{quoted}:2: round 1, A: bid '1,0' is not a whole number"])


# --- UTF-16: Excel's "Unicode Text" -----------------------------------------------------------


@pytest.mark.parametrize(
    "codec, bom",
    [("utf-16-le", b"\xff\xfe"), ("utf-16-be", b"\xfe\xff"), ("utf-32-le", b"\xff\xfe\x00\x00")],
)
def test_unicode_text_is_read_by_its_byte_order_mark(write, codec, bom):
    rows = [["Runde", "Spieler", "Ansage", "Stiche"], *long_rows()]
    text = export(rows, "\t", "\r\n").replace("Cara", "Çara")
    path = write("unicode.txt", bom + text.encode(codec))
    assert totals_of(path) == {"Anna": 90, "Ben": 140, "Çara": 40, "Dan": -60}


def test_a_bad_value_in_utf16_is_placed_on_its_line(write):
    rows = [["round", "player", "bid", "tricks"], *long_rows()]
    rows[6][2] = "x"
    path = write("u.txt", b"\xff\xfe" + export(rows, "\t", "\r\n").encode("utf-16-le"))
    assert check(path, *CUSTOM5) == (1, [f"{path}:7: round 2, Ben: bid 'x' is not a whole number"])


# --- merged cells -----------------------------------------------------------------------------


def test_merged_round_and_game_cells_repeat_the_value_above(write):
    """LibreOffice writes a merged cell's value on its first row, the others empty."""
    rows = [["game", "round", "player", "bid", "tricks"]]
    for game in ("g1", "g2"):
        for at, row in enumerate(long_rows()):
            rows.append(["" if at else game, "" if at % 4 else row[0], *row[1:]])
    path = write("merged.csv", export(rows, ",", "\n"))
    games = games_of(path)
    assert [g["game"] for g in games] == ["g1", "g2"]
    assert all({r["player"]: r["score"] for r in g["standings"]} == TOTALS for g in games)


def test_a_merged_german_date_cell_dates_the_whole_game(write):
    rows = [["Spiel", "Datum", "Runde", "Spieler", "Ansage", "Stiche"]]
    for game, date in (("1", "09.01.2026"), ("2", "2026-01-16")):
        for at, row in enumerate(long_rows()):
            rows.append(
                ["" if at else game, "" if at else date, "" if at % 4 else row[0], *row[1:]]
            )
    path = write("datum.csv", b"\xef\xbb\xbf" + export(rows, ";", "\r\n").encode())
    assert [(g["game"], g["date"]) for g in games_of(path)] == [
        ("1", "2026-01-09"),
        ("2", "2026-01-16"),
    ]


def test_an_empty_round_cell_on_the_first_row_is_still_an_error(write):
    path = write("m.csv", "round,player,bid,tricks\n,A,1,1\n1,B,0,0\n")
    assert check(path)[1][0] == f"{path}:2: A: round '' is not a round number"


def test_a_problem_in_a_merged_round_names_the_repeated_round(write):
    rows = [["round", "player", "bid", "tricks"]] + [
        ["" if at % 4 else row[0], *row[1:]] for at, row in enumerate(long_rows())
    ]
    rows[7][2] = "x"  # round 2, Cara
    path = write("m.csv", export(rows, ",", "\n"))
    assert check(path, *CUSTOM5) == (1, [f"{path}:8: round 2, Cara: bid 'x' is not a whole number"])


# --- cells a spreadsheet turned into dates ----------------------------------------------------


@pytest.mark.parametrize(
    "cell",
    [
        "1. Jan",
        "Jan 2",
        "01.01.",
        "2. Jan 2026",
        "45658",
        "20000",
        "80000",
        "1-Jan",
        "2026-01-02",
        "3. Mär",
    ],
)
@pytest.mark.parametrize("column", ["bid", "tricks"])
def test_a_date_shaped_bid_or_tricks_cell_says_what_happened(write, cell, column):
    bid, took = (cell, "1") if column == "bid" else ("1", cell)
    path = write("d.csv", f"round;player;bid;tricks\n1;A;{bid};{took}\n1;B;0;0\n1;C;0;0\n")
    code, errors = check(path)
    assert code == 1
    assert errors[0] == f"{path}:2: round 1, A: {column} '{cell}' {DATE}"


@pytest.mark.parametrize("cell", ["1. Jan", "Jan 2", "01.01.", "45658"])
def test_a_date_shaped_wide_cell_says_the_same(write, cell):
    path = write("w.csv", f"round,A,B,C\n1,{cell},0/0,1/1\n")
    assert check(path)[1][0] == f"{path}:2: round 1, A: bid '{cell}' {DATE}"


@pytest.mark.parametrize("cell", ["19999", "80001", "99"])
def test_numbers_outside_the_date_serials_are_numbers(write, cell):
    path = write("d.csv", f"round,player,bid,tricks\n1,A,{cell},1\n1,B,0,0\n1,C,0,0\n")
    assert DATE not in "\n".join(check(path)[1])


# --- Google Sheets ----------------------------------------------------------------------------


def test_google_sheets_csv_download(write):
    """File > Download > CSV: UTF-8 without a mark, CRLF, a quote only where a cell needs one."""
    rows = [["Round", "Player", "Bid", "Tricks"], *long_rows()]
    text = export(rows, ",", "\r\n").replace("Dan", '"Dan, Jr."')
    path = write("Sheet1.csv", text)
    assert totals_of(path) == {**{p: TOTALS[p] for p in PLAYERS[:3]}, "Dan, Jr.": -60}


def test_a_utf16_yaml_sheet_is_read_and_added_to_in_utf16(write):
    path = write("u.yaml", "players: [Anna, Ben, Cara]\n".encode("utf-16"))
    assert run("add", path, "--bids", "1,0,0").exit_code == 0
    assert path.read_bytes().startswith(b"\xff\xfe")  # still UTF-16, with its mark
    assert "{bids: [1, 0, 0]}" in path.read_bytes().decode("utf-16")


# --- merged date cells over an evening, a mark over --encoding, a row of dates, quoted lines --


def test_one_date_merged_over_an_evenings_games_dates_each_of_them(write):
    """An empty date cell repeats the date above it, also at the start of the next game."""
    rows = [
        "Datum;Spiel;Runde;Spieler;Ansage;Stiche",
        "02.01.2026;1;1;A;1;1",
        ";;1;B;0;0",
        ";;1;C;0;0",
        ";2;1;A;0;0",
        ";;1;B;1;1",
        ";;1;C;0;0",
        "03.01.2026;3;1;A;0;0",
        ";;1;B;1;1",
        ";;1;C;0;0",
    ]
    path = write("evening.csv", "\r\n".join(rows) + "\r\n")
    result = run(
        "standings", path, "--set", "roundMode=custom", "--set", "customRoundCount=1", "-f", "jsonl"
    )
    assert result.exit_code == 0, result.stderr
    assert [(g["game"], g["date"]) for g in map(json.loads, result.stdout.splitlines())] == [
        ("1", "2026-01-02"),
        ("2", "2026-01-02"),
        ("3", "2026-01-03"),
    ]


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-8", "latin-1"])
def test_a_byte_order_mark_says_what_the_text_is_even_over_encoding(write, encoding):
    text = "round\tAnna\tBen\tCara\r\n1\t1/1\t0/0\t0/0\r\n"
    path = write("unicode.txt", b"\xff\xfe" + text.encode("utf-16-le"))
    result = run(
        "standings",
        path,
        "--encoding",
        encoding,
        "--set",
        "roundMode=custom",
        "--set",
        "customRoundCount=1",
        "-f",
        "csv",
    )
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout.splitlines()[1] == "1,Anna,30,0"


def test_a_row_of_date_shaped_cells_says_only_what_happened_to_them(write):
    path = write("dates.csv", "round,Anna,Ben,Cara\n1,01-Jan,01-Jan,01-Jan\n2,1/1,1/1,0/0\n")
    result = run("check", path)
    assert result.exit_code == 1
    assert result.stderr == "".join(
        f"{path}:2: round 1, {name}: bid '01-Jan' {DATE}\n" for name in ("Anna", "Ben", "Cara")
    )


def test_a_row_whose_quoted_cell_spans_lines_is_located_where_it_starts(write):
    path = write(
        "notes.csv", 'round,player,bid,tricks,notes\n1,Anna,x,1,"a\nb"\n1,Ben,0,0,\n1,Cara,0,0,\n'
    )
    result = run("check", path)
    assert result.stderr == f"{path}:2: round 1, Anna: bid 'x' is not a whole number\n"
