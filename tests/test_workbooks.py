"""Workbooks read directly (SPEC §3, issue 14): .xlsx written here with openpyxl and .ods with
odfpy, read through python-calamine (the `xlsx` extra)."""

from __future__ import annotations

import datetime
import json
import sys
import zipfile

import pytest
from helpers import SAMPLES, run

pytest.importorskip("python_calamine", reason="the xlsx extra (python-calamine) is not installed")
openpyxl = pytest.importorskip("openpyxl", reason="openpyxl (test extra) writes the fixtures")

CUSTOM5 = ("--set", "roundMode=custom", "--set", "customRoundCount=5")
PLAYERS = ["Anna", "Ben", "Cara", "Dan"]
ROUNDS = [
    ([1, 0, 0, 1], [1, 0, 0, 0]),
    ([1, 1, 0, 2], [0, 1, 1, 0]),
    ([2, 0, 1, 1], [2, 0, 1, 0]),
    ([1, 2, 0, 1], [2, 2, 0, 0]),
    ([2, 1, 3, 0], [2, 1, 1, 1]),
]
TOTALS = {"Anna": 90, "Ben": 140, "Cara": 40, "Dan": -60}
DATE = (
    "looks like a date: a spreadsheet probably turned a bid/tricks cell such as '1/1' into a "
    "date (format the column as text and type it again)"
)
NO_SHEET = (
    "skipped: no score sheet in this worksheet (a long one has 'round,player,bid,tricks' "
    "columns, a wide one 'round,<player>,<player>,…')"
)


def long_rows(value=float) -> list[list]:
    """The worked example as a long sheet's rows, numbers typed as a spreadsheet keeps them."""
    return [
        [number, name, value(bid), value(took)]
        for number, (bids, tricks) in enumerate(ROUNDS, start=1)
        for name, bid, took in zip(PLAYERS, bids, tricks)
    ]


def wide_rows() -> list[list]:
    return [
        ["round", *PLAYERS],
        *(
            [number, *(f"{b}/{t}" for b, t in zip(bids, tricks))]
            for number, (bids, tricks) in enumerate(ROUNDS, start=1)
        ),
    ]


def xlsx(tmp_path, worksheets: dict[str, list[list]], name: str = "book.xlsx", edit=None):
    """A workbook of the given worksheets (rows from row 1); ``edit(book)`` may change it."""
    book = openpyxl.Workbook()
    book.remove(book.active)
    for title, rows in worksheets.items():
        sheet = book.create_sheet(title)
        for row in rows:
            sheet.append(row)
    if edit is not None:
        edit(book)
    path = tmp_path / name
    book.save(path)
    return path


def games(path, *args) -> list[dict]:
    result = run("standings", path, *CUSTOM5, *args, "-f", "jsonl")
    assert result.exit_code == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def totals(game: dict) -> dict:
    return {row["player"]: row["score"] for row in game["standings"]}


def test_a_one_worksheet_workbook_is_read_as_its_csv_would_be(tmp_path):
    path = xlsx(tmp_path, {"Tabelle1": [["Runde", "Spieler", "Ansage", "Stiche"], *long_rows()]})
    (game,) = games(path)
    assert (game["source"], game["game"], totals(game)) == (str(path), None, TOTALS)


def test_each_worksheet_holding_a_sheet_is_a_game_named_by_it(tmp_path):
    season = [["game", "round", "player", "bid", "tricks"]] + [
        [game, *row] for game in ("a", "b") for row in long_rows()
    ]
    path = xlsx(
        tmp_path,
        {
            "Friday": [["round", "player", "bid", "tricks"], *long_rows()],
            "Empty": [],
            "Notes": [["bring snacks"], ["", "and cards"]],
            "Wide": wide_rows(),
            "Season": season,
        },
    )
    result = run("standings", path, *CUSTOM5, "-f", "jsonl")
    assert result.exit_code == 0
    assert result.stderr == f"{path}[Notes]: {NO_SHEET}\n"  # the empty worksheet: no note
    read = [json.loads(line) for line in result.stdout.splitlines()]
    assert [g["game"] for g in read] == ["Friday", "Wide", "Season/a", "Season/b"]
    assert all(totals(g) == TOTALS and g["source"] == str(path) for g in read)


def test_one_worksheet_with_a_game_column_has_the_ids_of_its_csv(tmp_path):
    season = [["Spiel", "Runde", "Spieler", "Ansage", "Stiche"]] + [
        [game, *row] for game in ("Mo", "Di") for row in long_rows()
    ]
    path = xlsx(tmp_path, {"Saison": season, "Leer": []})
    assert [g["game"] for g in games(path)] == ["Mo", "Di"]


def test_a_workbook_converts_to_a_yaml_season(tmp_path):
    path = xlsx(
        tmp_path,
        {"Friday": [["round", "player", "bid", "tricks"], *long_rows()], "Wide": wide_rows()},
    )
    result = run("convert", path, "--to", "yaml")
    assert result.exit_code == 0, result.stderr
    import yaml

    documents = list(yaml.safe_load_all(result.stdout))
    assert [d["game"] for d in documents] == ["Friday", "Wide"]
    assert all(d["players"] == PLAYERS and len(d["rounds"]) == 5 for d in documents)


def test_problems_are_located_by_worksheet_and_row(tmp_path):
    rows = [[], ["round", "player", "bid", "tricks"], *long_rows()]
    rows[3][2] = 0.5  # row 4: round 1, Ben
    rows[7][3] = datetime.date(2026, 1, 1)  # row 8: round 2, Ben's tricks, a date cell
    path = xlsx(tmp_path, {"Fr 9.1.": rows})
    result = run("check", path, *CUSTOM5)
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"{path}[Fr 9.1.]:4: round 1, Ben: bid '0.5' is not a whole number",
        f"{path}[Fr 9.1.]:8: round 2, Ben: tricks '2026-01-01' {DATE}",
    ]


def test_a_date_cell_in_a_date_column_is_the_games_date(tmp_path):
    rows = [["Datum", "Runde", "Spieler", "Ansage", "Stiche"]]
    rows += [
        [datetime.date(2026, 1, 9) if at == 0 else None, *row] for at, row in enumerate(long_rows())
    ]
    path = xlsx(tmp_path, {"Freitag": rows})
    assert games(path)[0]["date"] == "2026-01-09"


def test_a_date_serial_typed_as_a_number_is_a_date_too(tmp_path):
    rows = [["round", "player", "bid", "tricks"], *long_rows()]
    rows[1][2] = 45658.0
    path = xlsx(tmp_path, {"S": rows})
    assert run("check", path, *CUSTOM5).stderr.splitlines() == [
        f"{path}[S]:2: round 1, Anna: bid '45658' {DATE}"
    ]


def test_a_date_formatted_cell_in_a_wide_sheet(tmp_path):
    rows = wide_rows()
    rows[1][1] = datetime.datetime(2026, 1, 1)  # `1/1` typed, made a date
    path = xlsx(tmp_path, {"S": rows})
    assert run("check", path, *CUSTOM5).stderr.splitlines()[0] == (
        f"{path}[S]:2: round 1, Anna: bid '2026-01-01' {DATE}"
    )


def test_typed_points_are_audited_by_check(tmp_path):
    rows = [["Runde", "Spieler", "Ansage", "Stiche", "Punkte"]]
    for row in long_rows():
        bid, took = row[2], row[3]
        rows.append([*row, 20 + 10 * took if bid == took else -10 * abs(bid - took)])
    rows[6][4] = 30.0  # row 7: round 2, Ben made 1 trick: 30 is right
    rows[7][4] = 0  # row 8: round 2, Cara: derived -10
    path = xlsx(tmp_path, {"Punkte": rows})
    result = run("check", path, *CUSTOM5)
    assert result.exit_code == 1
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"{path}[Punkte]:8: round 2, Cara: ")
    assert "-10" in line


def test_a_formula_counts_by_its_computed_value(tmp_path):
    rows = [["round", "player", "bid", "tricks"], *long_rows(int)]
    path = xlsx(tmp_path, {"S": rows}, edit=lambda book: book["S"].__setitem__("C2", "=0+1"))
    # openpyxl keeps no computed value; a spreadsheet program saves one beside the formula
    with zipfile.ZipFile(path) as book:
        parts = {name: book.read(name) for name in book.namelist()}
    sheet = parts["xl/worksheets/sheet1.xml"]
    assert b"<f>0+1</f><v></v>" in sheet or b"<f>0+1</f><v />" in sheet
    parts["xl/worksheets/sheet1.xml"] = sheet.replace(b"<f>0+1</f><v></v>", b"<f>0+1</f><v>1</v>")
    parts["xl/worksheets/sheet1.xml"] = parts["xl/worksheets/sheet1.xml"].replace(
        b"<f>0+1</f><v />", b"<f>0+1</f><v>1</v>"
    )
    with zipfile.ZipFile(path, "w") as book:
        for name, data in parts.items():
            book.writestr(name, data)
    assert totals(games(path)[0]) == TOTALS


def test_merged_round_cells_repeat_the_value_above(tmp_path):
    rows = [["round", "player", "bid", "tricks"], *long_rows()]

    def merge(book):
        for number in range(5):
            first = 2 + 4 * number
            book["S"].merge_cells(f"A{first}:A{first + 3}")

    path = xlsx(tmp_path, {"S": rows}, edit=merge)
    assert totals(games(path)[0]) == TOTALS


def test_an_ods_workbook_with_a_formula(tmp_path):
    odf = pytest.importorskip("odf", reason="odfpy (test extra) writes the .ods fixture")
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    document = OpenDocumentSpreadsheet()
    table = Table(name="Samstag")
    for row in [["Runde", "Spieler", "Ansage", "Stiche"], *long_rows(int)]:
        line = TableRow()
        for at, value in enumerate(row):
            if isinstance(value, str):
                cell = TableCell(valuetype="string")
            elif at == 2 and value == 1:  # a bid of 1 written as a formula, saved with its value
                cell = TableCell(valuetype="float", value=value, formula="of:=2-1")
            else:
                cell = TableCell(valuetype="float", value=value)
            cell.addElement(P(text=str(value)))
            line.addElement(cell)
        table.addElement(line)
    document.spreadsheet.addElement(table)
    path = tmp_path / "game.ods"
    document.save(str(path))
    assert odf is not None
    (game,) = games(path)
    assert totals(game) == TOTALS


def test_without_the_extra_one_line_says_how_to_install_it(tmp_path, monkeypatch):
    path = xlsx(tmp_path, {"S": wide_rows()})
    monkeypatch.setitem(sys.modules, "python_calamine", None)  # as if not installed
    result = run("score", path)
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"{path}: reading a workbook needs python-calamine, the xlsx extra: "
        "pip install '.[xlsx]' in the wizard checkout\n"
    )


def test_a_file_that_is_no_workbook_is_one_line(tmp_path):
    path = tmp_path / "broken.xlsx"
    path.write_bytes(b"round,Anna,Ben,Cara\n")
    result = run("check", path)
    assert result.exit_code == 1
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"{path}: not readable as a workbook: ")


def test_a_workbook_holding_no_sheet_is_an_error(tmp_path):
    path = xlsx(tmp_path, {"Notes": [["just", "notes"]]})
    result = run("check", path)
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"{path}[Notes]: {NO_SHEET}",
        f"{path}: no worksheet holds a score sheet",
    ]


def test_the_sample_workbook():
    path = SAMPLES / "worked-example.xlsx"
    assert run("check", path).exit_code == 0
    read = games(path)
    assert [g["game"] for g in read] == ["Freitag", "Wide"]
    assert all(totals(g) == TOTALS for g in read)


def test_a_worksheet_claiming_a_huge_range_is_one_line_not_an_abort(tmp_path):
    """One stray cell at XFD1048576 makes calamine ask for 512 GB and abort: it does so in its
    fenced child, and the reading process says so in one line (SPEC §4: bounded)."""

    def far_cell(book):
        book.active["XFD1048576"] = "x"

    path = xlsx(tmp_path, {"S": wide_rows()}, edit=far_cell)
    result = run("check", path)
    assert (result.exit_code, result.stdout) == (1, f"{path}: 1 problem\n")
    assert result.stderr == (
        f"{path}: not readable as a workbook: its reader was stopped by "
        "SIGABRT: the workbook needs more than 250 MiB to read, or is made "
        "to break its parser\n"
    )
