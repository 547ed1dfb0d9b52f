"""Reading sheets (SPEC §3): YAML/JSON, long and wide CSV, encodings, delimiters, stdin."""

from __future__ import annotations

import json

import pytest
from helpers import ONE_ROUND, SAMPLES, WORKED, run

from wizard_cli.errors import WizardError
from wizard_cli.game.model import BadValue
from wizard_cli.sheets.formats import read_sheets

WORKED_TOTALS = {"Anna": 90, "Ben": 140, "Cara": 40, "Dan": -60}
CUSTOM5 = ("--set", "roundMode=custom", "--set", "customRoundCount=5")


def one(path) -> object:
    """The only sheet in a file."""
    sheets = list(read_sheets(str(path)))
    assert len(sheets) == 1
    return sheets[0]


def scored(*args, input=None) -> list[dict]:
    """``score -f json`` as a list of results (one sheet or several)."""
    result = run("score", *args, "-f", "json", input=input)
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    return data if isinstance(data, list) else [data]


def totals(data: dict) -> dict:
    return {s["player"]: s["score"] for s in data["standings"]}


def check(*args, input=None):
    """``check`` → (exit code, stdout, stderr lines)."""
    result = run("check", *args, input=input)
    return result.exit_code, result.stdout, result.stderr.splitlines()


# --- YAML --------------------------------------------------------------------------------


def test_lists_and_mappings_by_name_read_the_same(write):
    as_lists = write("l.yaml", ONE_ROUND.read_text())
    by_name = write(
        "m.yaml",
        "players: [A, B, C]\nrounds:\n  - bids: {C: 0, A: 1, B: 0}\n"
        "    tricks:\n      B: 0\n      C: 0\n      A: 1\n",
    )
    for path in (as_lists, by_name):
        sheet = one(path)
        assert (sheet.rounds[0].bids, sheet.rounds[0].tricks) == ([1, 0, 0], [1, 0, 0])
    assert one(by_name).rounds[0].trick_lines == [7, 5, 6]


def test_the_round_in_play_may_have_partial_bids(write):
    as_list = write(
        "l.yaml",
        "players: [A, B, C]\nrounds:\n  - bids: [1, 0, 0]\n"
        "    tricks: [1, 0, 0]\n  - bids: [null, 1, 0]\n",
    )
    as_map = write(
        "m.yaml",
        "players: [A, B, C]\nrounds:\n  - bids: [1, 0, 0]\n"
        "    tricks: [1, 0, 0]\n  - bids: {B: 1, C: 0}\n    tricks: null\n",
    )
    for path in (as_list, as_map):
        in_play = one(path).rounds[1]
        assert (in_play.bids, in_play.tricks) == ([None, 1, 0], None)
        data = scored(path)[0]
        assert data["rounds"][1]["results"]["A"] == {
            "bid": None,
            "tricks": None,
            "points": None,
            "total": None,
        }
        assert data["status"]["next"]["nextBidder"] == "A"  # Ben deals, Cara and Anna bid first


def test_title_and_first_dealer(write):
    path = write(
        "t.yaml",
        "title: Friday night\nplayers: [A, B, C]\nfirstDealer: C\nrounds:\n"
        "  - bids: [0, 0, 1]\n    tricks: [0, 0, 1]\n",
    )
    sheet = one(path)
    assert (sheet.title, sheet.first_dealer, sheet.first_dealer_line) == ("Friday night", "C", 3)
    data = scored(path)[0]
    assert (data["title"], data["rounds"][0]["dealer"]) == ("Friday night", "C")
    assert data["status"]["next"]["dealer"] == "A"
    assert scored(path, "--first-dealer", "B")[0]["rounds"][0]["dealer"] == "B"


def test_json_is_yaml(write):
    path = write(
        "g.json",
        json.dumps(
            {
                "title": "J",
                "players": ["A", "B", "C"],
                "settings": {"exactBonus": 30},
                "rounds": [{"bids": [1, 0, 0], "tricks": [1, 0, 0]}],
            }
        ),
    )
    data = scored(path)[0]
    assert (data["title"], totals(data)) == ("J", {"A": 40, "B": 30, "C": 30})


def test_a_multi_document_yaml_is_a_season_with_game_numbers(write):
    game = ONE_ROUND.read_text()
    path = write("season.yaml", game + "---\n" + game.replace("[A, B, C]", "[X, Y, Z]"))
    assert [s.game for s in read_sheets(str(path))] == [1, 2]
    data = scored(path)
    assert [(d["game"], d["players"]) for d in data] == [(1, ["A", "B", "C"]), (2, ["X", "Y", "Z"])]
    assert scored(WORKED)[0]["game"] is None


def test_names_are_taken_as_written(write):
    path = write(
        "n.yaml",
        "players: [No, 1, null, 'on']\nfirstDealer: 1\nrounds:\n"
        "  - bids: {No: 1, 1: 0, null: 0, on: 0}\n    tricks: [1, 0, 0, 0]\n",
    )
    data = scored(path)[0]
    assert data["players"] == ["No", "1", "null", "on"]
    assert data["rounds"][0]["dealer"] == "1"
    assert data["rounds"][0]["results"]["No"]["points"] == 30


def test_duplicate_keys_are_an_error(write):
    path = write("d.yaml", "players: [A, B, C]\nrounds:\n  - bids: {A: 1, B: 0, A: 0}\n")
    assert check(path) == (1, f"{path}: 1 problem\n", [f"{path}:3: duplicate key 'A' in a mapping"])


def test_whole_numbers_only(write):
    path = write(
        "w.yaml", "players: [A, B, C]\nrounds:\n  - bids: [2.0, 0, 0]\n    tricks: [1.0, 0, 0.0]\n"
    )
    assert one(path).rounds[0].bids == [2, 0, 0]
    bad = write(
        "b.yaml", "players: [A, B, C]\nrounds:\n  - bids: [0.5, '1', true]\n    tricks: [1, 0, 0]\n"
    )
    assert one(bad).rounds[0].bids == [BadValue("0.5"), BadValue("1"), BadValue("true")]


# --- long CSV ------------------------------------------------------------------------------


def test_the_long_csv_of_the_worked_example():
    data = scored(SAMPLES / "worked-example-long.csv", *CUSTOM5)[0]
    assert totals(data) == WORKED_TOTALS and data["status"]["finished"] is True


def test_long_csv_took_alias_and_headers_in_any_case(write):
    path = write("t.csv", "Round,PLAYER,Bid,Took\n1,A,1,1\n1,B,0,0\n1,C,0,0\n")
    assert totals(scored(path)[0]) == {"A": 30, "B": 20, "C": 20}


def test_long_csv_seating_order_is_first_appearance(write):
    path = write(
        "s.csv",
        "round,player,bid,tricks\n1,Cara,0,0\n1,Anna,1,1\n1,Ben,0,0\n"
        "2,Anna,0,0\n2,Ben,1,1\n2,Cara,1,1\n",
    )
    sheet = one(path)
    assert sheet.players == ["Cara", "Anna", "Ben"]
    assert sheet.rounds[1].bids == [1, 0, 1]
    assert scored(path)[0]["rounds"][1]["dealer"] == "Anna"


def test_long_csv_game_column_gives_one_sheet_per_game():
    sheets = list(read_sheets(str(SAMPLES / "season.csv")))
    assert [s.game for s in sheets] == ["2026-01-09", "2026-01-16", "2026-01-23"]
    assert sheets[1].players == ["Ben", "Cara", "Dan", "Anna"]
    data = scored(SAMPLES / "season.csv")
    assert [(d["game"], d["status"]["winners"]) for d in data] == [
        ("2026-01-09", ["Cara"]),
        ("2026-01-16", ["Anna"]),
        ("2026-01-23", ["Anna"]),
    ]


def test_long_csv_empty_tricks_is_the_round_in_play(write):
    path = write("p.csv", "round,player,bid,tricks\n1,A,1,1\n1,B,0,0\n1,C,0,0\n2,B,1,\n2,C,0,\n")
    in_play = one(path).rounds[1]
    assert (in_play.bids, in_play.tricks) == ([None, 1, 0], None)
    assert scored(path)[0]["status"]["next"]["nextBidder"] == "A"


def test_long_csv_rows_must_be_in_order_and_unique(write):
    twice = write("t.csv", "round,player,bid,tricks\n1,A,1,1\n1,B,0,0\n1,A,0,0\n1,C,0,0\n")
    assert check(twice)[2] == [
        f"{twice}:4: round 1, A: A appears twice in round 1 (first on line 2)"
    ]
    skipped = write("s.csv", "round,player,bid,tricks\n1,A,1,1\n1,B,0,0\n1,C,0,0\n3,A,1,1\n")
    assert check(skipped)[2] == [
        f"{skipped}:5: round 3, A: round 3 follows round 1: rounds run 1..N in order"
    ]
    back = write("b.csv", "round,player,bid,tricks\n1,A,1,1\n1,B,0,0\n2,A,0,0\n1,C,0,0\n")
    assert check(back)[2] == [
        f"{back}:2: a game has 3 to 6 players, this sheet has 2",
        f"{back}:5: round 1, C: round 1 appears again after round 2 (a round's rows must be "
        "together)",
    ]


def test_long_csv_games_must_be_contiguous(write):
    path = write(
        "g.csv",
        "game,round,player,bid,tricks\nx,1,A,1,1\nx,1,B,0,0\nx,1,C,0,0\n"
        "y,1,A,1,1\ny,1,B,0,0\ny,1,C,0,0\nx,2,A,0,0\n",
    )
    code, out, err = check(path)
    assert code == 1
    assert (
        f"{path}:8: game 'x' continues here after other games (a game's rows must be "
        "together)" in err
    )


# --- wide CSV ------------------------------------------------------------------------------


def test_the_wide_csv_of_the_worked_example_ignores_its_total_row():
    data = scored(SAMPLES / "worked-example-wide.csv", *CUSTOM5)[0]
    assert totals(data) == WORKED_TOTALS and data["status"]["finished"] is True


def test_wide_csv_cells(write):
    path = write("w.csv", "round,A,B,C\n1,1 / 1, 0/0 ,0 /0\n2,1,,0\nTOTAL,30,20,20\n")
    sheet = one(path)
    assert (sheet.rounds[0].bids, sheet.rounds[0].tricks) == ([1, 0, 0], [1, 0, 0])
    assert (sheet.rounds[1].bids, sheet.rounds[1].tricks) == ([1, None, 0], None)
    assert len(sheet.rounds) == 2
    assert scored(path)[0]["status"]["next"]["nextBidder"] == "B"


@pytest.mark.parametrize(
    "cell", ["01-Jan", "1-Jan", "Jan-01", "2026-01-02", "02.01.2026", "1/1/2026"]
)
def test_a_date_in_a_wide_cell_is_reported_as_a_mangled_bid_tricks_cell(write, cell):
    path = write("d.csv", f"round,A,B,C\n1,{cell},0/0,0/0\n")
    assert check(path) == (
        1,
        f"{path}: 1 problem\n",
        [
            f"{path}:2: round 1, A: bid '{cell}' looks like a date: a spreadsheet probably turned a "
            "bid/tricks cell such as '1/1' into a date (format the column as text and type it again)"
        ],
    )


def test_csv_header_mistakes_are_reported_once(write):
    bids = write("b.csv", "round,player,bids,tricks\n1,A,1,1\n1,B,0,0\n1,C,0,0\n")
    assert check(bids) == (
        1,
        f"{bids}: 2 problems\n",
        [
            f"{bids}:1: the header has a 'player' column but no 'bid' column: a long CSV has "
            "'round,player,bid,tricks' columns",
            f"{bids}:1: a game has 3 to 6 players, this sheet has 0",
        ],
    )
    no_round = write("r.csv", "player,bid,tricks\nA,1,1\nB,0,0\nC,0,0\n")
    assert check(no_round)[2] == [
        f"{no_round}:1: the header has no 'round' column",
        f"{no_round}:2: a game has 3 to 6 players, this sheet has 0",
    ]
    neither = write("n.csv", "game,score\n1,2\n")
    assert check(neither)[2][0] == (
        f"{neither}:1: not a score sheet: a long CSV has 'round,player,bid,tricks' columns, a wide "
        "one 'round,<player>,<player>,…'"
    )


def test_spreadsheet_trailing_empty_columns_are_ignored(write):
    path = write("t.csv", "round,A,B,C,,\n1,1/1,0/0,0/0,,\n")
    assert scored(path)[0]["players"] == ["A", "B", "C"]
    long = write("l.csv", "round,player,bid,tricks,\n1,A,1,1,\n1,B,0,0\n1,C,0,0,,\n")
    assert totals(scored(long)[0]) == {"A": 30, "B": 20, "C": 20}


# --- encodings, delimiters, line ends --------------------------------------------------------


@pytest.mark.parametrize("variant", ["bom", "semicolon", "tab", "crlf", "all"])
def test_bom_delimiters_and_line_ends(write, variant):
    text = (SAMPLES / "worked-example-long.csv").read_text()
    if variant in ("semicolon", "all"):
        text = text.replace(",", ";")
    if variant == "tab":
        text = text.replace(",", "\t")
    if variant in ("crlf", "all"):
        text = text.replace("\n", "\r\n")
    data = text.encode()
    if variant in ("bom", "all"):
        data = b"\xef\xbb\xbf" + data
    path = write("v.csv", data)
    assert one(path).players == ["Anna", "Ben", "Cara", "Dan"]
    assert totals(scored(path, *CUSTOM5)[0]) == WORKED_TOTALS


def test_a_yaml_sheet_with_a_bom_and_crlf(write):
    path = write("b.yaml", b"\xef\xbb\xbf" + WORKED.read_bytes().replace(b"\n", b"\r\n"))
    assert totals(scored(path)[0]) == WORKED_TOTALS


def test_a_wide_csv_with_semicolons_and_a_bom(write):
    text = (SAMPLES / "worked-example-wide.csv").read_text().replace(",", ";")
    path = write("w.csv", b"\xef\xbb\xbf" + text.encode())
    assert totals(scored(path, *CUSTOM5)[0]) == WORKED_TOTALS


# --- standard input ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sample", "fmt"),
    [
        ("worked-example.yaml", "yaml"),
        ("worked-example-long.csv", "csv"),
        ("worked-example-wide.csv", "csv"),
    ],
)
def test_stdin_with_and_without_input_format(sample, fmt):
    text = (SAMPLES / sample).read_text()
    for extra in ((), ("--input-format", fmt)):
        data = scored("-", *CUSTOM5, *extra, input=text)[0]
        assert data["source"] == "<stdin>"
        assert totals(data) == WORKED_TOTALS


def test_stdin_is_named_in_messages():
    code, out, err = check("-", input="round,player,bid,tricks\n1,A,1,1\n1,B,0,0\n1,C,x,0\n")
    assert (code, out, err) == (
        1,
        "<stdin>: 1 problem\n",
        ["<stdin>:4: round 1, C: bid 'x' is not a whole number"],
    )
    code, out, err = check("-", "--input-format", "yaml", input="players: [A, B\n")
    assert code == 1 and err[0].startswith("<stdin>:")


def test_json_on_stdin_is_sniffed():
    text = json.dumps(
        {"players": ["A", "B", "C"], "rounds": [{"bids": [1, 0, 0], "tricks": [1, 0, 0]}]}
    )
    assert totals(scored("-", input=text)[0]) == {"A": 30, "B": 20, "C": 20}


def test_an_empty_or_unreadable_source_is_a_data_error(write):
    empty = write("e.yaml", "")
    assert check(empty) == (1, f"{empty}: 1 problem\n", [f"{empty}: empty file: no sheet in it"])
    latin = write("l.csv", "round,player,bid,tricks\n1,Zo\xe9,1,1\n".encode("latin-1"))
    code, _, err = check(latin)
    assert code == 1 and err[0].startswith(f"{latin}:2: not UTF-8 text")
    assert (
        check(latin, "--encoding", "latin-1")[2][0]
        == f"{latin}:2: a game has 3 to 6 players, this sheet has 1"
    )


def test_unsafe_yaml_constructs_nothing(write):
    path = write("x.yaml", "players: !!python/object/apply:os.system ['echo hacked']\n")
    assert check(path) == (
        1,
        f"{path}: 1 problem\n",
        [f"{path}:1: unsupported YAML tag !!python/object/apply:os.system"],
    )
    alias = write("a.yaml", "players: &p [A, B, C]\nrounds: *p\n")
    assert check(alias)[2] == [f"{alias}:2: YAML aliases (*p) are not allowed in a sheet"]


def test_read_sheets_raises_for_a_file_that_cannot_be_read(tmp_path):
    with pytest.raises(WizardError) as caught:
        list(read_sheets(str(tmp_path / "gone.yaml")))
    assert caught.value.problems[0].path == str(tmp_path / "gone.yaml")


def test_blank_lines_before_a_csv_header_count_in_line_numbers(write):
    path = write(
        "blank.csv",
        "\n\ngame,round,player,bid,tricks\ng1,1,Anna,1,1\ng1,1,Ben,x,0\ng1,1,Cara,0,0\n",
    )
    result = run("check", path)
    assert result.exit_code == 1
    assert result.stderr == f"{path}:5: round 1, Ben: bid 'x' is not a whole number\n"


def test_an_empty_document_in_a_stream_is_no_sheet(write):
    """A stray `---` at the end (or between games) makes an empty document: passed over."""
    game = "players: [A, B, C]\nrounds: []\n"
    one = write("one.yaml", game + "---\n")
    assert (run("check", one).exit_code, run("check", one).stdout) == (0, f"{one}: ok\n")
    two = write("two.yaml", game + "---\n---\n" + game)
    assert run("check", two).stdout == f"{two}, game 1: ok\n{two}, game 2: ok\n"
    none = write("none.yaml", "---\n---\n")
    empty = run("check", none)
    assert (empty.exit_code, empty.stderr) == (1, f"{none}: empty file: no sheet in it\n")


def test_only_ascii_digits_make_a_whole_number(write):
    """Python's int() reads Arabic-Indic or fullwidth digits; a score sheet's cells do not."""
    path = write(
        "digits.csv", "round,player,bid,tricks\n1,Anna,\u0661,1\n1,Ben,\uff10,0\n1,Cara,0,0\n"
    )
    result = run("check", path)
    assert result.exit_code == 1
    assert result.stderr == (
        f"{path}:2: round 1, Anna: bid '\u0661' is not a whole number\n"
        f"{path}:3: round 1, Ben: bid '\uff10' is not a whole number\n"
    )


def test_a_far_too_large_value_is_marked_cut_only_when_it_was(write):
    """The value is quoted by its first 12 characters, and "…" says only that more were left out."""
    path = write(
        "big.yaml",
        "players: [Anna, Ben, Cara]\nrounds:\n"
        "  - {bids: [1000000000, 0, 0], tricks: [1, 0, 0]}\n"
        "  - bids: [1000000000000000, 0, 0]\n",
    )
    result = run("check", path)
    assert result.exit_code == 1
    assert result.stderr == (
        f"{path}:3: round 1, Anna: bid '1000000000' is far too large\n"
        f"{path}:4: round 2, Anna: bid '100000000000…' is far too large\n"
    )
