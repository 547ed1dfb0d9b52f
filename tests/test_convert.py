"""`wizard convert`: lossless conversion between YAML, JSON, long CSV and wide CSV."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest
from helpers import SAMPLES, WORKED, run
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from wizard_cli.game.game import score_game
from wizard_cli.game.settings import Settings, hand_sizes
from wizard_cli.game.validation import check_sheet
from wizard_cli.sheets.formats import convert, read_back
from wizard_cli.sheets.writing import portable
from wizard_cli.sheets.yaml.sheets import read_yaml_sheets
from wizard_cli.sheets.yaml.text import yaml_scalar

SUFFIX = {"yaml": ".yaml", "json": ".json", "csv": ".csv", "wide-csv": ".csv"}
CSV_TARGETS = ("csv", "wide-csv")
SIX = SAMPLES / "six-players-in-progress.yaml"
# (sample, the options it is scored with, the options its CSV forms are scored with: a CSV
# carries no rules, so they come from outside — for a YAML sheet, from the sheet itself)
SAMPLE_CASES = [
    ("worked-example.yaml", [], ["--settings", str(WORKED)]),
    ("six-players-in-progress.yaml", [], ["--first-dealer", "Rosa"]),
    ("season.csv", ["--set", "tieBreak=totalBids"], ["--set", "tieBreak=totalBids"]),
    ("worked-example-long.csv", ["--settings", str(WORKED)], ["--settings", str(WORKED)]),
    ("worked-example-wide.csv", ["--settings", str(WORKED)], ["--settings", str(WORKED)]),
]


def scores(path: Path | str, *options: str, keep_game: bool = False) -> list[dict]:
    """`score -f json` of every sheet in a file, without `source` (and `game`)."""
    result = run("score", path, "-f", "json", *options)
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    games = data if isinstance(data, list) else [data]
    for game in games:
        del game["source"]
        if not keep_game:
            del game["game"]
    return games


def untitled(games: list[dict]) -> list[dict]:
    """Scores without titles (a CSV cannot carry one)."""
    return [{**game, "title": None} for game in games]


def converted(
    source: Path | str, target: str, folder: Path, *options: str, name: str = "out"
) -> Path:
    """Convert into a new file and return its path."""
    path = folder / f"{name}-{target}{SUFFIX[target]}"
    result = run("convert", source, "--to", target, "-o", path, *options)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ""
    return path


def is_season(sample: str) -> bool:
    return sample == "season.csv"


def targets_for(sample: str) -> list[str]:
    return ["yaml", "json", "csv"] + ([] if is_season(sample) else ["wide-csv"])


def carries_title(*formats: str) -> bool:
    return all(f not in CSV_TARGETS for f in formats)


# --- every sample, every direction --------------------------------------------------------


@pytest.mark.parametrize(("sample", "options", "csv_options"), SAMPLE_CASES)
def test_every_sample_survives_every_conversion_and_every_second_hop(
    sample, options, csv_options, tmp_path
):
    source = SAMPLES / sample
    expected = scores(source, *options)
    for first in targets_for(sample):
        once = converted(source, first, tmp_path, *options, name="once")
        # A CSV needs the rules again; YAML and JSON carry them, so they score alone.
        again_options = csv_options if first in CSV_TARGETS else []
        got = scores(once, *again_options)
        assert (got if carries_title(first) else untitled(got)) == (
            expected if carries_title(first) else untitled(expected)
        ), (sample, first)
        for second in targets_for(sample):
            twice = converted(once, second, tmp_path, *again_options, name=f"twice-{first}")
            final_options = csv_options if second in CSV_TARGETS else []
            got = scores(twice, *final_options)
            kept_title = carries_title(first, second)
            assert (got if kept_title else untitled(got)) == (
                expected if kept_title else untitled(expected)
            ), (sample, first, second)


def test_yaml_to_csv_to_yaml_carries_the_rules_given_on_the_way_back(tmp_path):
    as_csv = converted(WORKED, "csv", tmp_path)
    back = converted(
        as_csv,
        "yaml",
        tmp_path,
        "--set",
        "roundMode=custom",
        "--set",
        "customRoundCount=5",
        name="back",
    )
    assert untitled(scores(back)) == untitled(scores(WORKED))
    assert scores(back)[0]["status"]["winners"] == ["Ben"]


def test_season_csv_becomes_a_yaml_stream_and_comes_back(tmp_path):
    season = SAMPLES / "season.csv"
    stream = converted(season, "yaml", tmp_path)
    text = stream.read_text(encoding="utf-8")
    assert text.count("\n---\n") == 2
    assert text.startswith("game: '2026-01-09'\nplayers: [Anna, Ben, Cara, Dan]\nrounds:\n")
    assert [g["game"] for g in scores(stream, keep_game=True)] == [  # ids survive (SPEC §3)
        "2026-01-09",
        "2026-01-16",
        "2026-01-23",
    ]
    back = converted(stream, "csv", tmp_path, name="back")
    lines = back.read_text(encoding="utf-8").splitlines()
    original = season.read_text(encoding="utf-8").splitlines()
    assert lines[0] == original[0] == "game,round,player,bid,tricks"
    assert [line.partition(",")[2] for line in lines[1:]] == [
        line.partition(",")[2] for line in original[1:]
    ]
    assert scores(back) == scores(season)


def test_season_csv_to_csv_keeps_its_game_ids(tmp_path):
    season = SAMPLES / "season.csv"
    again = converted(season, "csv", tmp_path)
    assert again.read_text(encoding="utf-8") == season.read_text(encoding="utf-8")
    assert scores(again, keep_game=True) == scores(season, keep_game=True)


def test_a_season_becomes_a_json_array_that_reads_as_a_season(tmp_path):
    as_json = converted(SAMPLES / "season.csv", "json", tmp_path)
    data = json.loads(as_json.read_text(encoding="utf-8"))
    assert isinstance(data, list) and len(data) == 3
    assert data[0]["players"] == ["Anna", "Ben", "Cara", "Dan"]
    assert [g["game"] for g in scores(as_json, keep_game=True)] == [
        "2026-01-09",
        "2026-01-16",
        "2026-01-23",
    ]
    assert scores(as_json) == scores(SAMPLES / "season.csv")


def test_wide_to_long_and_long_to_wide_give_the_other_sample(tmp_path):
    long = converted(SAMPLES / "worked-example-wide.csv", "csv", tmp_path)
    assert long.read_text(encoding="utf-8") == (SAMPLES / "worked-example-long.csv").read_text(
        encoding="utf-8"
    )
    wide = converted(SAMPLES / "worked-example-long.csv", "wide-csv", tmp_path)
    expected = (SAMPLES / "worked-example-wide.csv").read_text(encoding="utf-8")
    assert wide.read_text(encoding="utf-8") == expected.replace("Total,90,140,40,-60\n", "")


# --- exact output ---------------------------------------------------------------------

WORKED_YAML = """\
title: Worked example
players: [Anna, Ben, Cara, Dan]
settings:
  roundMode: custom
  customRoundCount: 5
rounds:
  - bids:   [1, 0, 0, 1]
    tricks: [1, 0, 0, 0]
  - bids:   [1, 1, 0, 2]
    tricks: [0, 1, 1, 0]
  - bids:   [2, 0, 1, 1]
    tricks: [2, 0, 1, 0]
  - bids:   [1, 2, 0, 1]
    tricks: [2, 2, 0, 0]
  - bids:   [2, 1, 3, 0]
    tricks: [2, 1, 1, 1]
"""

WORKED_JSON = """\
{
  "title": "Worked example",
  "players": ["Anna", "Ben", "Cara", "Dan"],
  "settings": {"roundMode": "custom", "customRoundCount": 5},
  "rounds": [
    {"bids": [1, 0, 0, 1], "tricks": [1, 0, 0, 0]},
    {"bids": [1, 1, 0, 2], "tricks": [0, 1, 1, 0]},
    {"bids": [2, 0, 1, 1], "tricks": [2, 0, 1, 0]},
    {"bids": [1, 2, 0, 1], "tricks": [2, 2, 0, 0]},
    {"bids": [2, 1, 3, 0], "tricks": [2, 1, 1, 1]}
  ]
}
"""


def test_worked_example_as_yaml_and_json_exactly():
    as_yaml = run("convert", WORKED, "--to", "yaml")
    assert (as_yaml.exit_code, as_yaml.stdout, as_yaml.stderr) == (0, WORKED_YAML, "")
    as_json = run("convert", WORKED, "--to", "json")
    assert (as_json.exit_code, as_json.stdout, as_json.stderr) == (0, WORKED_JSON, "")


def test_a_long_csv_carries_the_title_and_settings_on_every_row():
    """SPEC §3 "A long CSV carries its rules": nothing is dropped, so nothing is said, and the
    CSV scores as the sheet does with no option (it said what it dropped, and which --set)."""
    result = run("convert", WORKED, "--to", "csv")
    assert (result.exit_code, result.stderr) == (0, "")
    plain = (SAMPLES / "worked-example-long.csv").read_text(encoding="utf-8").splitlines()
    assert result.stdout.splitlines() == [plain[0] + ",title,roundMode,customRoundCount"] + [
        row + ",Worked example,custom,5" for row in plain[1:]
    ]
    mine, sheets = (
        json.loads(run("score", path, "-f", "json", input=result.stdout).stdout)
        for path in ("-", WORKED)
    )
    assert {**mine, "source": None} == {**sheets, "source": None}


def test_csv_note_names_the_first_dealer():
    result = run("convert", SAMPLES / "six-players-in-progress.yaml", "--to", "wide-csv")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[-1] == "7,3,1,,,,"
    assert result.stderr == (
        f"{SAMPLES / 'six-players-in-progress.yaml'}: note: a wide CSV cannot carry a title, "
        "firstDealer, settings or typed points; dropped title 'Saturday, big table'; "
        "firstDealer Rosa (score it the same with --first-dealer Rosa)\n"
    )


def test_nothing_dropped_means_no_note():
    result = run("convert", SAMPLES / "worked-example-long.csv", "--to", "wide-csv")
    assert result.exit_code == 0
    assert result.stderr == ""


def test_rules_given_on_the_command_line_are_written_into_yaml(tmp_path):
    out = converted(
        SAMPLES / "worked-example-long.csv",
        "yaml",
        tmp_path,
        "--set",
        "roundMode=custom",
        "--set",
        "customRoundCount=5",
        "--zero-bid",
        "doubleBonus",
        "--first-dealer",
        "Ben",
    )
    text = out.read_text(encoding="utf-8")
    assert text.startswith(
        "players: [Anna, Ben, Cara, Dan]\nfirstDealer: Ben\nsettings:\n"
        "  roundMode: custom\n  customRoundCount: 5\n"
        "  zeroBidScoring: doubleBonus\nrounds:\n"
    )
    assert scores(out) == scores(
        SAMPLES / "worked-example-long.csv",
        "--set",
        "roundMode=custom",
        "--set",
        "customRoundCount=5",
        "--zero-bid",
        "doubleBonus",
        "--first-dealer",
        "Ben",
    )


# --- typed points ----------------------------------------------------------------------

POINTS_CSV = """\
round,player,bid,tricks,points
1,Anna,1,1,30
1,Ben,0,0,20
1,Cara,0,0,25
2,Anna,1,,
2,Ben,0,,
2,Cara,,,
"""


def test_typed_points_survive_yaml_json_and_csv(write, tmp_path):
    source = write("points.csv", POINTS_CSV)
    as_yaml = converted(source, "yaml", tmp_path)
    assert as_yaml.read_text(encoding="utf-8") == (
        "players: [Anna, Ben, Cara]\nrounds:\n  - bids:   [1, 0, 0]\n    tricks: [1, 0, 0]\n"
        "    points: [30, 20, 25]\n  - bids:   {Anna: 1, Ben: 0}\n"
    )
    as_json = converted(as_yaml, "json", tmp_path)
    back = converted(as_json, "csv", tmp_path)
    assert back.read_text(encoding="utf-8") == POINTS_CSV
    for path in (source, as_yaml, as_json, back):
        audit = run("check", path, "-f", "json")
        assert audit.exit_code == 1
        assert [p["message"] for p in json.loads(audit.stdout)["problems"]] == [
            "typed points 25, derived 20"
        ]


def test_wide_csv_drops_typed_points_and_says_so(write):
    result = run("convert", write("points.csv", POINTS_CSV), "--to", "wide-csv")
    assert result.exit_code == 0
    assert result.stdout == "round,Anna,Ben,Cara\n1,1/1,0/0,0/0\n2,1,0,\n"
    assert result.stderr.endswith("dropped typed points\n")


# --- names YAML would misread ------------------------------------------------------------

TRICKY = [
    "No",
    "1",
    "null",
    "a: b",
    "#x",
    "yes",
    "~",
    "x, y",
    "[z]",
    "'q'",
    '"d"',
    "2.5",
    "- a",
    "? b",
    "&c",
    "*d",
    "!e",
    "%f",
    "@g",
    "`h",
    "|",
    ">",
    "off",
    "Zoë",
    "{k}",
]


@pytest.mark.parametrize("names", [TRICKY[i : i + 4] for i in range(0, len(TRICKY), 4)])
def test_tricky_names_survive_yaml_and_json(names, write, tmp_path):
    if len(names) < 3:
        names = names + ["Pat", "Sam"]
    rows = ["round,player,bid,tricks"] + [
        f'1,"{name.replace(chr(34), chr(34) * 2)}",{1 if seat == 0 else 0},{1 if seat == 0 else 0}'
        for seat, name in enumerate(names)
    ]
    rows += [f'2,"{names[0].replace(chr(34), chr(34) * 2)}",1,']
    source = write("names.csv", "\n".join(rows) + "\n")
    expected = scores(source)
    assert expected[0]["players"] == names
    for target in ("yaml", "json"):
        out = converted(
            source, target, tmp_path, "--first-dealer", names[-1], "--set", "exactBonus=30"
        )
        got = scores(out)
        assert got[0]["players"] == names
        assert got == scores(source, "--first-dealer", names[-1], "--set", "exactBonus=30")
        assert got[0]["rounds"][0]["dealer"] == names[-1]
        back = converted(out, "csv", tmp_path, name=f"back-{target}")
        assert scores(back, "--first-dealer", names[-1], "--set", "exactBonus=30") == got


def test_yaml_scalar_reads_back_as_the_same_text():
    for name in TRICKY + [
        "",
        " x",
        "tab\there",
        "line\nbreak",
        "nel\x85x",
        "ls\u2028x",
        "del\x7f",
        "bom\ufeff",
        "1e3",
        "0x1F",
        "2026-01-09",
        "true",
        "=",
        ":",
        "a:b",
    ]:
        text = f"title: {yaml_scalar(name, flow=False)}\nplayers: [{yaml_scalar(name)}, B, C]\n"
        sheet = next(read_yaml_sheets(text, "x"))
        assert sheet.title == name, (name, text)
        assert sheet.players[0] == name, (name, text)  # names as written (SPEC §3)


# --- refusals ---------------------------------------------------------------------------


def test_a_season_cannot_be_one_wide_csv():
    result = run("convert", SAMPLES / "season.csv", "--to", "wide-csv")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == (
        f"{SAMPLES / 'season.csv'}: a wide CSV holds one game and this "
        "source has 3: convert the season to csv (long, with a game column), "
        "yaml or json instead\n"
    )


def test_a_sheet_without_rounds_cannot_be_a_long_csv(write):
    source = write("blank.yaml", "players: [A, B, C]\nrounds: []\n")
    result = run("convert", source, "--to", "csv")
    assert result.exit_code == 1
    assert result.stderr == (
        f"{source}: the sheet has no rounds yet, and a long CSV names the "
        "players only in its rows: convert it to yaml, json or wide-csv "
        "instead\n"
    )
    wide = run("convert", source, "--to", "wide-csv")
    assert (wide.exit_code, wide.stdout) == (0, "round,A,B,C\n")


def test_an_invalid_sheet_is_not_converted(tmp_path):
    target = tmp_path / "out.json"
    result = run("convert", SAMPLES / "friday-broken.yaml", "--to", "json", "-o", target)
    assert result.exit_code == 1
    assert result.stdout == ""
    broken = SAMPLES / "friday-broken.yaml"
    assert result.stderr.splitlines() == [line for line in run("check", broken).stderr.splitlines()]
    assert (
        result.stderr.splitlines()[0]
        == f"{broken}:7: unknown setting 'exactbonus' (did you mean 'exactBonus'?)"
    )
    assert not target.exists()


def test_bad_settings_on_the_command_line_exit_1():
    result = run("convert", WORKED, "--to", "yaml", "--set", "exactBonus=3")
    assert result.exit_code == 1
    assert result.stderr == "--set exactBonus=3: 3 is not allowed (allowed: 0–50 in steps of 5)\n"


def test_output_is_never_overwritten_without_force(tmp_path):
    target = tmp_path / "out.yaml"
    target.write_text("keep me\n")
    refused = run("convert", WORKED, "--to", "yaml", "-o", target)
    assert refused.exit_code == 1
    assert refused.stderr == f"{target}: already exists; use --force to overwrite\n"
    assert target.read_text() == "keep me\n"
    forced = run("convert", WORKED, "--to", "yaml", "-o", target, "--force")
    assert forced.exit_code == 0
    assert target.read_text(encoding="utf-8") == WORKED_YAML
    assert os.listdir(tmp_path) == ["out.yaml"]


def test_converting_a_file_onto_itself_with_force(tmp_path):
    path = tmp_path / "sheet.yaml"
    path.write_bytes(WORKED.read_bytes())
    assert run("convert", path, "--to", "yaml", "-o", path, "--force").exit_code == 0
    assert path.read_text(encoding="utf-8") == WORKED_YAML


@pytest.mark.parametrize(
    ("name", "first_line"),
    [
        ("out.yml", "title: Worked example"),
        ("out.json", "{"),
        ("out.csv", "round,player,bid,tricks,title,roundMode,customRoundCount"),
    ],
)
def test_the_format_comes_from_the_output_name_when_to_is_left_out(tmp_path, name, first_line):
    target = tmp_path / name
    result = run("convert", WORKED, "-o", target)
    assert result.exit_code == 0, result.stderr
    assert target.read_text(encoding="utf-8").splitlines()[0] == first_line


def test_no_format_at_all_is_a_usage_error():
    result = run("convert", WORKED)
    assert result.exit_code == 2
    assert "--to" in result.stderr
    assert run("convert", WORKED, "--to", "xml").exit_code == 2


def test_missing_sheet_is_a_usage_error():
    assert run("convert", "no-such-sheet.yaml", "--to", "json").exit_code == 2


def test_standard_input_in_and_out():
    csv_text = (SAMPLES / "worked-example-long.csv").read_text(encoding="utf-8")
    result = run("convert", "-", "--to", "yaml", "--input-format", "csv", input=csv_text)
    assert result.exit_code == 0
    assert result.stdout.startswith("players: [Anna, Ben, Cara, Dan]\nrounds:\n")


# --- property: random valid sheets survive ------------------------------------------------

NAME = st.text(
    st.characters(
        codec="utf-8", categories=("L", "N", "P", "S", "Zs"), exclude_characters="\ufeff"
    ),
    min_size=1,
    max_size=6,
)
# A wide CSV's header names its bomb and dealer columns, so its writer refuses a player of
# that name (tests/test_wide_seating.py pins the refusal), as it refuses players named 'player'
# and 'bid' together (they would read as a long CSV): the round trips leave them out.
WIDE_COLUMNS = {"bomb", "bombe", "dealer", "geber", "player"}
NAME = st.one_of(
    st.sampled_from(TRICKY),
    NAME.map(str.strip).filter(lambda name: name and name.lower() not in WIDE_COLUMNS),
)


@st.composite
def random_sheets(draw) -> dict:
    """A valid sheet as a JSON-able dict: random players, rules, rounds, maybe one in play."""
    count = draw(st.integers(3, 6))
    players = draw(st.lists(NAME, min_size=count, max_size=count, unique=True))
    rules: dict = {}
    mode = draw(st.sampled_from(["custom", "custom", "quickPlay"]))
    rules["roundMode"] = mode
    if mode == "custom":
        rules["customRoundCount"] = draw(st.integers(1, min(6, 60 // count)))
    for key, values in (
        ("exactBonus", [0, 20, 30]),
        ("pointsPerTrick", [5, 10]),
        ("missPenalty", [0, 10, 15]),
        ("zeroBidScoring", ["flatBonus", "doubleBonus", "perCardBonus"]),
        ("tieBreak", ["shareWin", "totalBids", "madeBids"]),
        ("perfectGameBonus", [0, 50]),
        ("finalRoundBonus", [0, 10]),
        ("balancedBidPenalty", [0, 5]),
    ):
        if draw(st.booleans()):
            rules[key] = draw(st.sampled_from(values))
    sizes = hand_sizes(Settings().replace(rules), count)
    played = draw(st.integers(0, len(sizes)))
    rounds = []
    for size in sizes[:played]:
        bids = draw(st.lists(st.integers(0, size), min_size=count, max_size=count))
        cuts = sorted(draw(st.lists(st.integers(0, size), min_size=count - 1, max_size=count - 1)))
        tricks = [b - a for a, b in zip([0] + cuts, cuts + [size])]
        rounds.append({"bids": bids, "tricks": tricks})
    if played < len(sizes) and draw(st.booleans()):
        size = sizes[played]
        rounds.append(
            {
                "bids": draw(
                    st.lists(
                        st.one_of(st.none(), st.integers(0, size)), min_size=count, max_size=count
                    )
                )
            }
        )
    sheet: dict = {"players": players, "settings": rules, "rounds": rounds}
    if draw(st.booleans()):
        sheet["firstDealer"] = draw(st.sampled_from(players))
    if draw(st.booleans()):
        sheet["title"] = draw(NAME)
    return sheet


def _scored(sheet, layers=(), first_dealer=None) -> dict:
    """The JSON score of a read sheet (as `score -f json` shows it), without source and title."""
    from wizard_cli.output.game_views import ScoreOutput

    checked = check_sheet(sheet, layers, first_dealer)
    assert checked.valid, checked.problems
    data = ScoreOutput().as_json(score_game(checked.validated))
    return {k: v for k, v in data.items() if k not in ("source", "title", "game")}


@given(random_sheets())
@hypothesis_settings(max_examples=80, deadline=None)
def test_core_round_trips_keep_every_score(data):
    source = json.dumps(data, ensure_ascii=False)
    original = next(read_yaml_sheets(source, "g.yaml"))
    expected = _scored(original)
    checked = [check_sheet(original)]
    sheets = [portable(c) for c in checked]
    for target in ("yaml", "json"):
        back = read_back(convert(sheets, target), target)
        assert _scored(back[0]) == expected
        assert back[0].title == data.get("title")
    from wizard_cli.game.settings import RawSetting

    layers = [[RawSetting(k, v) for k, v in data["settings"].items()]]
    dealer = data.get("firstDealer")
    for target in ("csv", "wide-csv"):
        if target == "csv" and not data["rounds"]:
            continue
        back = read_back(convert(sheets, target), target)
        assert _scored(back[0], layers, dealer) == expected
        again = [portable(check_sheet(back[0], layers, dealer), layers, dealer is not None)]
        assert _scored(read_back(convert(again, "yaml"), "yaml")[0]) == expected


@given(random_sheets())
@hypothesis_settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_cli_yaml_to_csv_to_yaml_and_to_json_keep_every_score(data):
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        source = folder / "game.yaml"
        source.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
        expected = scores(source)
        as_json = converted(source, "json", folder)
        assert scores(as_json) == expected
        if not data["rounds"]:
            return
        rules = ["--settings", str(source)]
        dealer = ["--first-dealer", data["firstDealer"]] if "firstDealer" in data else []
        as_csv = converted(source, "csv", folder)
        assert untitled(scores(as_csv, *rules, *dealer)) == untitled(expected)
        back = converted(as_csv, "yaml", folder, *rules, *dealer, name="back")
        assert untitled(scores(back)) == untitled(expected)


def test_the_writing_commands_are_in_help():
    listed = run("--help").stdout
    for command in ("new", "add", "convert"):
        assert f"\n  {command} " in listed


@pytest.mark.parametrize("second", ["game: 1", "game: '1'", 'game: "1"'])
def test_two_games_of_one_id_are_not_merged_into_one_csv_game(write, second):
    """Issue 21, item 9: the long CSV would read the two games back as one (invalid) game."""
    game = (
        "players: [A, B, C]\nsettings: {roundMode: custom, customRoundCount: 1}\n"
        "rounds:\n  - {bids: [1, 0, 0], tricks: [1, 0, 0]}\n"
    )
    path = write("s.yaml", f"game: 1\n{game}---\n{second}\n{game}")
    result = run("convert", path, "--to", "csv")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"{path}:7: game id '1' is given to an earlier game too: a CSV "
        "would read the two back as one game; give each game an id of its "
        "own (game: …), or convert to yaml or json\n"
    )
    for target in ("yaml", "json"):  # each game stays a document of its own
        result = run("convert", path, "--to", target)
        assert (result.exit_code, result.stderr) == (0, "")


def test_a_numeric_game_id_written_to_a_csv_is_said_to_read_back_as_text(write):
    """Issue 21, item 9: a CSV cell is text, so ``game: 7`` reads back as '7'; convert says so
    (yaml and json keep the number). Ids given as text say nothing."""
    game = "players: [A, B, C]\nrounds:\n  - {bids: [1, 0, 0], tricks: [1, 0, 0]}\n"
    path = write("s.yaml", f"game: 7\n{game}---\ngame: x\n{game}")
    result = run("convert", path, "--to", "csv")
    assert (result.exit_code, result.stdout) == (
        0,
        "game,round,player,bid,tricks\n"
        "7,1,A,1,1\n7,1,B,0,0\n7,1,C,0,0\n"
        "x,1,A,1,1\nx,1,B,0,0\nx,1,C,0,0\n",
    )
    assert result.stderr == (
        f"{path}: note: a long CSV holds game ids as text: game 7 reads "
        "back as '7'; yaml and json keep it a number\n"
    )
    back = write("back.csv", result.stdout)
    assert [g["game"] for g in json.loads(run("score", back, "-f", "json").stdout)] == ["7", "x"]
    numbered = write("n.yaml", "---\n".join([game] * 5))  # a stream's documents are numbered
    result = run("convert", numbered, "--to", "csv")
    assert result.exit_code == 0
    assert result.stderr == (
        f"{numbered}: note: a long CSV holds game ids as text: games 1, "
        "2, 3 and 2 more read back as text ('1', …); yaml and json keep "
        "them numbers\n"
    )
    texts = write("t.yaml", f"game: '7'\n{game}---\ngame: x\n{game}")
    assert run("convert", texts, "--to", "csv").stderr == ""
    for target in ("yaml", "json"):
        assert run("convert", path, "--to", target).stderr == ""


@hypothesis_settings(max_examples=40, deadline=None)
@given(
    st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=30),
    st.integers(-2, 2),
)
def test_a_long_text_is_written_to_yaml_as_it_reads_back(piece, extra):
    """A text of LONG_TEXT characters or more (the notes or title a YAML conversion writes a
    piece at a time, double-quoted) reads back as exactly that text, as a short one does."""
    from wizard_cli.sheets.yaml.text import LONG_TEXT, block_scalar_pieces

    for text in (piece, (piece * (LONG_TEXT // len(piece) + 1))[: LONG_TEXT + extra]):
        written = "".join(block_scalar_pieces(text))
        if len(text) >= LONG_TEXT:
            assert written.startswith('"') and written.endswith('"')
        sheet = next(read_yaml_sheets(f"notes: {written}\nplayers: [A, B, C]\n", "s.yaml"))
        assert sheet.notes == text and not sheet.problems
