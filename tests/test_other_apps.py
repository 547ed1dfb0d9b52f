"""SPEC §3 "Other apps' exports": KeepWiz and Escalier exports read, checked and rescored.

The fixtures are written from the apps' own source (the field names and shapes SPEC §3 gives):
KeepWiz's ``localGameStorage.js`` (the v3.0 record, ``exportGames``' map), its migration tests'
v2 and ``gameState`` records, ``App.jsx``'s ``?importGame=`` link; Escalier's ``export.js``
(``gameToJson``, ``gameToRows``/``gameToSummaryRows``, CRLF) and ``share.js`` (``packGame``'s
positional array, ``#g=A``/``#g=B``). The samples in ``sample_sheets/imports/`` are whole
exports; ``tests/imports/`` holds a record of each KeepWiz version; the refusals are a sample
changed in one field each.
"""

from __future__ import annotations

import base64
import json
import os
import time
import zlib
from pathlib import Path

import pytest
import yaml
from helpers import SAMPLES, run

IMPORTS = SAMPLES / "imports"
FIXTURES = Path(__file__).resolve().parent / "imports"
KEEPWIZ = IMPORTS / "keepwiz-export.json"
ESCALIER_CSV = IMPORTS / "escalier-export.csv"
ESCALIER_DE = IMPORTS / "escalier-export-de.csv"
ESCALIER_JSON = IMPORTS / "escalier-export.json"
ESCALIER_POINTS = ["--set", "exactBonus=5", "--set", "pointsPerTrick=5", "--set", "missPenalty=5"]


def converted(path: Path, *args: str) -> list[dict]:
    """The sheets a source holds, as ``wizard convert --to yaml`` writes them."""
    result = run("convert", path, "--to", "yaml", *args)
    assert result.exit_code == 0, result.stderr
    return list(yaml.safe_load_all(result.stdout))


def problems(path: Path, *args: str) -> list[str]:
    """``wizard check``'s problem lines for a source (exit 1 asserted)."""
    result = run("check", path, *args)
    assert result.exit_code == 1, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    return result.stderr.splitlines()


def written(tmp_path: Path, name: str, content: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


# --- KeepWiz ---------------------------------------------------------------------------------


def test_a_keepwiz_export_is_a_season_in_created_at_order():
    """exportGames' map, saved in another order: each game its own sheet, by created_at;
    the record's id is the game id, name the title, created_at's UTC day the date; a record's
    isDealer is the first dealer; total_rounds other than 60 // players is a custom count."""
    sheets = converted(KEEPWIZ)
    assert [(s["game"], s["date"].isoformat(), s["title"]) for s in sheets] == [
        ("game_1764538112904_p8d1w7zfe", "2025-11-30", "Sonntag"),
        ("game_1764797160218_k3v9x2mqa", "2025-12-03", "Spieleabend bei Cara"),
        ("game_1765060327551_h2n4q0rtc", "2025-12-06", "Paused at round 4"),
    ]
    assert json.loads(KEEPWIZ.read_text())  # the file's own order is not that
    assert list(json.loads(KEEPWIZ.read_text()))[0] == "game_1764797160218_k3v9x2mqa"
    assert sheets[0]["settings"] == {"roundMode": "custom", "customRoundCount": 5}
    assert sheets[2]["players"] == ["Ben", "Cara", "Dan", "Anna"]
    assert sheets[2]["firstDealer"] == "Ben"
    # the paused game: three rounds played, the fourth's calls in, no mades: the round in play
    assert len(sheets[2]["rounds"]) == 4 and "tricks" not in sheets[2]["rounds"][3]
    result = run("check", KEEPWIZ)
    assert result.exit_code == 0, result.stderr


def test_a_keepwiz_v3_record_maps_call_made_and_score_by_player_id():
    """The v3.0 record alone: round_data's entries matched by id (in any order), call → bid,
    made → tricks, score → typed points; planned rounds with no call and no made dropped; the
    round with calls and no mades is the round in play, its missing call a bid still to come."""
    assert converted(FIXTURES / "keepwiz-v3.json") == [
        {
            "game": "game_1765039860112_a7c2k9x1q",
            "title": "Late one",
            "date": __import__("datetime").date(2025, 12, 6),
            "players": ["Anna", "Ben", "Cara"],
            "firstDealer": "Ben",
            "rounds": [
                {"bids": [1, 0, 1], "tricks": [1, 0, 0], "points": [30, 20, -10]},
                {"bids": [1, 0, 0], "tricks": [2, 0, 0], "points": [-10, 20, 20]},
                {"bids": {"Anna": 2, "Ben": 0}},
            ],
        }
    ]


def test_a_keepwiz_v2_record_keeps_its_round_numbers_and_ignores_cards():
    """The v2 server record (player_ids, round, cards, totalScore): cards is a display value
    (10 in round 2 here) and is ignored; total_rounds 2 of 3 players is a custom count."""
    [sheet] = converted(FIXTURES / "keepwiz-v2.json")
    assert sheet["game"] == "1762960753602" and sheet["players"] == ["jakob", "Justin", "Mara"]
    assert sheet["settings"] == {"roundMode": "custom", "customRoundCount": 2}
    assert [r["tricks"] for r in sheet["rounds"]] == [[0, 0, 1], [1, 1, 0]]
    assert run("check", FIXTURES / "keepwiz-v2.json").exit_code == 0


def test_a_keepwiz_v2_round_number_must_agree_with_its_place(tmp_path):
    record = json.loads((FIXTURES / "keepwiz-v2.json").read_text())
    record["round_data"][1]["round"] = 3
    lines = problems(written(tmp_path, "v2.json", json.dumps(record, indent=2)))
    assert (
        f"{tmp_path / 'v2.json'}:1: game {record['id']}, round 2: KeepWiz: round_data[1].round "
        "says 3, but it is "
        "round 2 (the rounds' places number them)" in lines
    )


def test_another_apps_export_read_as_keepwiz_is_refused_not_emptied():
    """Before: ``--input-format keepwiz`` on Escalier's JSON gave its players and no rounds,
    exit 0: its ``rounds`` were dropped without a word (SPEC §3: never dropped silently)."""
    result = run("convert", "--input-format", "keepwiz", ESCALIER_JSON, "--to", "yaml")
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.startswith(
        f"{ESCALIER_JSON}:1: KeepWiz: round_data is missing and 'app', "
    ), result.stderr
    assert "not read (another app's export?)" in result.stderr


def test_a_keepwiz_gamestate_record_is_read_from_gamestate():
    """The old record nests the game in gameState (players, roundData, maxRounds); a record that
    also carries v2's fields (player_ids, an empty round_data) is read from gameState."""
    [sheet] = converted(FIXTURES / "keepwiz-gamestate.json")
    assert sheet["game"] == "game_1764334403018_gny2rmj2x" and sheet["title"] == "Old save"
    assert sheet["players"] == ["Humam", "Lukas", "Nina"]
    assert sheet["rounds"] == [{"bids": [0, 1, 0], "tricks": [0, 1, 0], "points": [20, 30, 20]}]
    assert "settings" not in sheet  # maxRounds 20 is the whole deck for three


def test_a_record_whose_first_field_is_unknown_and_an_array_of_records(tmp_path):
    """A single record is told from a map by its members, not by its first key; an array of
    records (the app's first storage) is a season numbered 1..N where a record has no id."""
    record = json.loads((FIXTURES / "keepwiz-v3.json").read_text())
    first = {"isImported": True, **record}
    [sheet] = converted(written(tmp_path, "record.json", "\ufeff" + json.dumps(first)))
    assert sheet["game"] == record["id"] and len(sheet["rounds"]) == 3
    del record["id"]
    sheets = converted(written(tmp_path, "array.json", json.dumps([record, record])))
    assert [s["game"] for s in sheets] == [1, 2]


def test_an_importgame_link_and_its_base64_read_as_the_game():
    link = (IMPORTS / "keepwiz-link.txt").read_text()
    payload = link.split("importGame=", 1)[1].strip()
    from_export = converted(KEEPWIZ)[0]
    [from_link] = converted(IMPORTS / "keepwiz-link.txt")
    assert from_link["rounds"] == from_export["rounds"]
    assert from_link["game"] == from_export["game"] and from_link["players"] == [
        "Anna",
        "Ben",
        "Cara",
    ]
    result = run("convert", "-", "--to", "yaml", input=payload + "\n")  # bare, from stdin
    assert result.exit_code == 0, result.stderr
    assert yaml.safe_load(result.stdout)["rounds"] == from_export["rounds"]


def test_a_keepwiz_export_with_a_bom_crlf_and_wide_characters_reads_the_same(tmp_path):
    """The second pass finds each record again by its byte offset: names of two- and four-byte
    characters before it, a byte-order mark and CRLF line ends must not shift it."""
    export = json.loads(KEEPWIZ.read_text())
    for game in export.values():
        for player in game["players"]:
            player["name"] += "ä🎲"
    text = json.dumps(export, indent=2, ensure_ascii=False).replace("\n", "\r\n")
    path = written(tmp_path, "bom.json", b"\xef\xbb\xbf" + text.encode())
    sheets = converted(path)
    assert [s["game"] for s in sheets] == [s["game"] for s in converted(KEEPWIZ)]
    assert sheets[2]["players"] == ["Benä🎲", "Caraä🎲", "Danä🎲", "Annaä🎲"]
    assert [s["rounds"] for s in sheets] == [s["rounds"] for s in converted(KEEPWIZ)]


def test_ids_names_and_titles_from_an_export_are_shown_escaped(tmp_path):
    """SPEC §8: an export's id, names and title are text from outside like a sheet's."""
    record = json.loads((FIXTURES / "keepwiz-v2.json").read_text())
    record.update(id="\x1b[31mevil", name="T\x07itle")
    record["players"][0]["name"] = "ja\u202ekob"
    result = run("score", written(tmp_path, "esc.json", json.dumps(record)))
    assert result.exit_code == 0, result.stderr
    assert "\x1b" not in result.stdout and "\u202e" not in result.stdout
    assert "T\\x07itle (" in result.stdout and "game \\x1b[31mevil" in result.stdout
    assert "ja\\u202ekob" in result.stdout


def test_check_audits_keepwiz_scores(tmp_path):
    """The app's own scores are typed points: check reports one that is not what the rules
    give (the app scored another rule than the one mapped)."""
    export = json.loads(KEEPWIZ.read_text())
    game = export["game_1764538112904_p8d1w7zfe"]
    game["round_data"][1]["players"][2]["score"] = 99
    path = written(tmp_path, "export.json", json.dumps(export, indent=2))
    lines = problems(path)
    assert any(line.endswith("round 2, Cara: typed points 99, derived -10") for line in lines)
    assert run("score", path).exit_code == 0  # other commands score the bids and tricks


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda r: r.update(round_data="x"), "KeepWiz: round_data is not a list of rounds"),
        (
            lambda r: r["round_data"][0]["players"][0].update(id="nobody"),
            "round 1: KeepWiz: round_data[0].players: no player with the id nobody in players",
        ),
        (lambda r: r["round_data"][0]["players"][0].update(call=1.5), "bid '1.5' is not a whole"),
        (
            lambda r: r["round_data"][0]["players"][0].update(made="two"),
            "tricks 'two' is not a whole",
        ),
        (lambda r: r.update(players={"a": 1}), "KeepWiz: players is not a list of players"),
        (
            lambda r: r.update(created_at="yesterday"),
            "KeepWiz: created_at 'yesterday' is not a date",
        ),
        (
            lambda r: r.update(total_rounds="ten"),
            "KeepWiz: total_rounds 'ten' is not a whole number",
        ),
        (lambda r: r.update(total_rounds=40), "customRoundCount"),
        (lambda r: r["players"][0].update(name=["\x1b[31m"]), "KeepWiz: players[0].name "),
    ],
)
def test_a_bad_keepwiz_record_is_a_problem_naming_the_field(tmp_path, change, message):
    record = json.loads((FIXTURES / "keepwiz-v3.json").read_text())
    change(record)
    lines = problems(written(tmp_path, "record.json", json.dumps(record, indent=2)))
    assert any(message in line for line in lines), lines
    assert not any("\x1b" in line for line in lines)  # shown escaped (SPEC §8)


@pytest.mark.parametrize(
    "text, message",
    [
        ('{"a": {"round_data": [1, 2}}', "KeepWiz export: not valid JSON"),
        ('{"g1": {"round_data": []}', "KeepWiz export: not valid JSON"),
        ('{"g1": {"round_data": ' + "[" * 5000 + "]" * 5000 + "}}", "nested too deep"),
        ('[{"round_data": []}] x', "more after the end of the document"),
    ],
)
def test_a_broken_keepwiz_file_is_one_located_line(tmp_path, text, message):
    result = run("score", written(tmp_path, "broken.json", text))
    assert result.exit_code == 1
    assert message in result.stderr and "Traceback" not in result.stderr


def test_a_keepwiz_link_too_long_is_refused(tmp_path):
    result = run("score", written(tmp_path, "link.txt", "?importGame=ey" + "A" * 200_001))
    assert result.exit_code == 1
    assert "KeepWiz link: more than the 200,000 characters a shared game can have" in result.stderr


def test_input_format_keepwiz_reads_standard_input():
    result = run(
        "standings", "-", "--input-format", "keepwiz", "-f", "csv", input=KEEPWIZ.read_bytes()
    )
    assert result.exit_code == 0, result.stderr
    assert result.stdout.count("<stdin>,game_") == 3 + 4 + 4  # a row a player a game


def test_a_keepwiz_record_is_told_by_its_content_whatever_its_name(tmp_path):
    path = written(tmp_path, "friday.yaml", (FIXTURES / "keepwiz-v2.json").read_text())
    assert converted(path)[0]["players"] == ["jakob", "Justin", "Mara"]


# --- Escalier --------------------------------------------------------------------------------


def test_an_escalier_json_export_maps_its_scoring_and_staircase():
    """ptsBid → exactBonus, ptsTrick → pointsPerTrick, ptsMiss → missPenalty, banFrom 1 →
    screwTheDealer always; 7 rounds planned (4 played, 1 in progress, 2 pending) → custom 7;
    round 1's dealer → firstDealer; the in-progress round is the round in play; pending
    rounds are dropped; the app's points are typed points, and they check."""
    [sheet] = converted(ESCALIER_JSON)
    assert (sheet["game"], sheet["title"], sheet["date"].isoformat()) == (
        "g_mj3k9x2f1a7qz",
        "Sunday staircase",
        "2025-12-07",
    )
    assert sheet["players"] == ["Anna", "Ben", "Cara"] and sheet["firstDealer"] == "Ben"
    assert sheet["settings"] == {
        "roundMode": "custom",
        "customRoundCount": 7,
        "exactBonus": 10,
        "pointsPerTrick": 5,
        "missPenalty": 5,
        "screwTheDealer": "always",
        "dealerRuleFrom": 1,
    }
    assert len(sheet["rounds"]) == 5 and "tricks" not in sheet["rounds"][4]
    assert all("points" in r for r in sheet["rounds"][:4])
    assert run("check", ESCALIER_JSON).exit_code == 0


def test_an_escalier_share_link_is_the_same_game(tmp_path):
    """#g=A (raw deflate) and #g=B (plain) of share.js's positional array: the game of the
    JSON export, without its id and points."""
    exported = converted(ESCALIER_JSON)[0]
    [linked] = converted(IMPORTS / "escalier-link.txt")
    assert "game" not in linked  # a link carries no id
    assert "points" not in linked["rounds"][0]
    assert [(r["bids"], r.get("tricks")) for r in linked["rounds"]] == [
        (r["bids"], r.get("tricks")) for r in exported["rounds"]
    ]
    assert linked["settings"] == exported["settings"] and linked["title"] == exported["title"]
    packed = zlib.decompress(
        base64.urlsafe_b64decode(linked_payload(IMPORTS / "escalier-link.txt")[1:] + "=="), -15
    )
    plain = "https://example.org/#x=1&g=B" + base64.urlsafe_b64encode(packed).decode().rstrip("=")
    assert converted(written(tmp_path, "b.txt", plain)) == [linked]


def linked_payload(path: Path) -> str:
    return path.read_text().strip().split("#g=", 1)[1]


def test_escalier_csv_exports_in_english_and_german():
    """The CSV export: rows in bidding order, seating from the second block's header; no
    scoring in it, so the typed points check only under Escalier's 5/5/5 given with --set."""
    [english] = converted(ESCALIER_CSV)
    assert english["players"] == ["Anna", "Ben", "Cara", "Dan"]
    assert english["firstDealer"] == "Cara"
    assert english["settings"] == {"roundMode": "custom", "customRoundCount": 6}
    assert english["rounds"][0] == {
        "bids": [0, 1, 0, 0],
        "tricks": [0, 0, 1, 0],
        "points": [5, -5, -5, 5],
    }
    assert ESCALIER_CSV.read_bytes().count(b"\r\n") > 20
    [german] = converted(ESCALIER_DE)
    assert german["players"] == ["Jörg", "Anna", "Eva", "Ben", "Dan"]
    assert german["settings"] == {"roundMode": "custom", "customRoundCount": 7}
    assert len(german["rounds"]) == 6 and "tricks" not in german["rounds"][5]
    assert run("check", ESCALIER_CSV, ESCALIER_DE, *ESCALIER_POINTS).exit_code == 0
    lines = problems(ESCALIER_CSV)  # under wizard's own 20/10/10 the app's points disagree
    assert f"{ESCALIER_CSV}:3: round 1, Anna: typed points 5, derived 20" in lines


def test_an_escalier_csv_name_keeps_what_the_formula_guard_hid(tmp_path):
    """export.js puts an apostrophe before a name a spreadsheet would run ('=Bo'): the name is
    read as typed, in both blocks."""
    text = ESCALIER_CSV.read_text().replace("Dan", "'=Dan")
    [sheet] = converted(written(tmp_path, "guarded.csv", text))
    assert sheet["players"][3] == "=Dan"


def json_export() -> dict:
    return json.loads(ESCALIER_JSON.read_text())


@pytest.mark.parametrize(
    "change, message",
    [
        (
            lambda e: e["players"][1].update(carryIn=2.5),
            "Ben: Escalier export: carryIn 2.5 is not a whole number",
        ),
        (
            lambda e: e["game"]["scoring"].update(banFrom=25),
            "Escalier export: scoring banFrom 25 (dealerRuleFrom): ",
        ),
        (
            lambda e: e["game"]["scoring"].update(strict=True),
            "Escalier export: scoring strict: true (a missed bid still scores its tricks); no wizard "
            "rule says it",
        ),
        (
            lambda e: e["game"]["scoring"].update(ptsBid=7),
            "Escalier export: scoring ptsBid 7 (exactBonus): ",
        ),
        (lambda e: e["game"]["scoring"].update(ptsMiss=-5), "scoring ptsMiss -5 (missPenalty)"),
        (
            lambda e: e["rounds"][2].update(status="skipped"),
            "round 3: Escalier export: skipped in Escalier; no wizard rule skips a round",
        ),
        (
            lambda e: e["rounds"][1]["results"][0].update(adjustment=5),
            "round 2, Anna: Escalier export: adjustment 5; no wizard rule adjusts a score",
        ),
        (
            lambda e: e["rounds"][1].update(cards=3),
            "round 2: Escalier export: deals 3 cards where a Wizard game's round 2 deals 2 "
            "(Escalier's staircase is not 1..N)",
        ),
        (
            lambda e: e["rounds"][2].update(dealer="Zed"),
            "round 3: Escalier export: dealt by Zed, who is not one of the players",
        ),
        (
            lambda e: e["rounds"][1]["results"][2].update(
                satOut=True, bid=None, tricks=None, adjustment=5
            ),
            "round 2, Cara: Escalier export: adjustment 5; no wizard rule adjusts a score",
        ),
    ],
)
def test_what_a_sheet_cannot_say_is_a_located_problem(tmp_path, change, message):
    export = json_export()
    change(export)
    lines = problems(written(tmp_path, "export.json", json.dumps(export, indent=2)))
    assert any(line.endswith(message) or message in line for line in lines), lines


def test_an_escalier_game_of_more_rounds_than_any_is_counted_not_built(tmp_path):
    export = json_export()
    played = export["rounds"][0]
    export["rounds"] = [dict(played, number=n, cards=n) for n in range(1, 1001)]
    lines = problems(written(tmp_path, "long.json", json.dumps(export)))
    assert any(
        "Escalier export: 1000 rounds dealt, more than a game can have (20 at most)" in line
        for line in lines
    ), lines


def test_banfrom_zero_is_no_dealer_rule(tmp_path):
    export = json_export()
    export["game"]["scoring"]["banFrom"] = 0
    [sheet] = converted(written(tmp_path, "export.json", json.dumps(export)))
    assert sheet["settings"]["screwTheDealer"] is False  # `off`, as YAML 1.1 reads it


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda e: e.update(schema=3), "Escalier export: schema 3: this reads schema 2"),
        (lambda e: e.update(rounds={}), "Escalier export: rounds is not a list of rounds"),
        (
            lambda e: e["players"][0].update(seat=5),
            "Escalier export: players' seats are not 1 to N",
        ),
        (lambda e: e["rounds"][0]["results"][0].update(player="Zed"), "names no player"),
        # no name at all: a list or an object (unhashable) was an internal error, a TypeError
        (lambda e: e["rounds"][0]["results"][0].update(player=["Anna"]), "names no player"),
        (lambda e: e["rounds"][0]["results"][0].update(player={"Anna": 1}), "names no player"),
    ],
)
def test_an_export_not_shaped_as_escaliers_names_the_field(tmp_path, change, message):
    export = json_export()
    change(export)
    result = run("score", written(tmp_path, "export.json", json.dumps(export)))
    assert result.exit_code == 1 and "Traceback" not in result.stderr
    assert message in result.stderr


def test_an_escalier_csv_start_score_is_found_from_its_running_totals(tmp_path):
    """The CSV carries no carryIn, but its running column counts it in: Dan's first row,
    running 25 above its points, is a start score of 25."""
    lines = ESCALIER_CSV.read_bytes().decode().split("\r\n")
    first = lines[1].split(",")  # round 1, Dan: points 5, running 5
    first[10] = str(int(first[10]) + 25)
    lines[1] = ",".join(first)
    [sheet] = converted(written(tmp_path, "carry.csv", "\r\n".join(lines)), *ESCALIER_POINTS)
    assert sheet["players"] == ["Anna", "Ben", "Cara", {"name": "Dan", "startScore": 25}]


def test_an_escalier_csv_without_its_second_block_says_where_the_seating_comes_from(tmp_path):
    text = ESCALIER_CSV.read_bytes().decode().split("\r\n\r\n")[0] + "\r\n"
    result = run("score", written(tmp_path, "cut.csv", text))
    assert result.exit_code == 1
    assert "Escalier CSV: no second block after a blank line" in result.stderr


def test_a_share_link_over_its_size_is_refused_before_decoding(tmp_path):
    result = run("score", written(tmp_path, "l.txt", "https://x/#g=A" + "A" * 200_000))
    assert result.exit_code == 1
    assert "more than the 200,000 a shared game can have" in result.stderr


def test_a_deflate_bomb_is_refused_before_it_is_inflated_in_full(tmp_path):
    """200 MB of zeros deflate to ~200 kB: over the link's size; 20 MB to ~20 kB, which is
    refused once 2 MB come out, without inflating the rest."""
    squeezer = zlib.compressobj(9, zlib.DEFLATED, -15)
    bomb = squeezer.compress(b"[" + b" " * 20_000_000) + squeezer.flush()
    link = "#g=A" + base64.urlsafe_b64encode(bomb).decode().rstrip("=")
    assert len(link) < 200_000
    started = time.perf_counter()
    result = run("score", written(tmp_path, "bomb.txt", link))
    assert result.exit_code == 1
    assert "Escalier link: decodes to more than 2,000,000 bytes" in result.stderr
    assert time.perf_counter() - started < 5


def test_inflating_stops_once_past_two_megabytes():
    """The pure core of the refusal: a gigabyte of zeros (a megabyte deflated) is refused with
    a few megabytes inflated, never the gigabyte."""
    import tracemalloc

    from wizard_cli.errors import WizardError
    from wizard_cli.sheets.exports.share_links import inflated

    squeezer = zlib.compressobj(9, zlib.DEFLATED, -15)
    bomb = b"".join(squeezer.compress(bytes(1 << 24)) for _ in range(64)) + squeezer.flush()
    tracemalloc.start()
    try:
        with pytest.raises(WizardError, match="decodes to more than 2,000,000 bytes"):
            inflated(bomb, "x", "Escalier link")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 8 << 20


@pytest.mark.parametrize(
    "link, message",
    [
        ("#g=C" + "A" * 40, "Escalier link: unknown payload format 'C' (A or B)"),
        ("#g=A!!!!", "no '#g=' game in it"),
        (
            "#g=A" + base64.urlsafe_b64encode(b"not deflate at all").decode(),
            "not a compressed game",
        ),
        ("#g=B" + base64.urlsafe_b64encode(b'{"a": 1}').decode(), "not a packed game"),
        (
            "#g=B" + base64.urlsafe_b64encode(b"[" * 100 + b"]" * 100).decode(),
            "nested more than 64",
        ),
    ],
)
def test_a_bad_share_link_is_one_clear_line(tmp_path, link, message):
    result = run("score", written(tmp_path, "l.txt", "https://x/" + link))
    assert result.exit_code == 1 and "Traceback" not in result.stderr
    assert message in result.stderr


def test_input_format_escalier_and_sniffing_by_content(tmp_path):
    """A .txt holding a CSV export, a .json of Escalier's, stdin with --input-format."""
    as_txt = written(tmp_path, "scores.txt", ESCALIER_DE.read_text())
    assert converted(as_txt)[0]["players"][0] == "Jörg"
    result = run(
        "convert",
        "-",
        "--to",
        "yaml",
        "--input-format",
        "escalier",
        input=ESCALIER_JSON.read_bytes(),
    )
    assert result.exit_code == 0, result.stderr
    assert yaml.safe_load(result.stdout)["title"] == "Sunday staircase"


def test_convert_writes_an_export_as_yaml_or_csv_and_no_export_is_written(tmp_path):
    result = run("convert", KEEPWIZ, "-o", tmp_path / "season.csv")
    assert result.exit_code == 0, result.stderr
    assert run("check", tmp_path / "season.csv").exit_code == 0
    result = run("convert", ESCALIER_CSV, "--to", "keepwiz")
    assert (
        result.exit_code == 2 and "'keepwiz' is not one of 'yaml', 'json', 'csv'" in result.stderr
    )


def test_a_keepwiz_export_and_an_escalier_csv_are_rated_together():
    result = run("ratings", KEEPWIZ, ESCALIER_CSV, "-f", "json")
    assert result.exit_code == 0, result.stderr
    rated = {row["player"]: row["games"] for row in json.loads(result.stdout)}
    assert rated == {"Anna": 3, "Ben": 3, "Cara": 3, "Dan": 2}


def test_the_library_reads_an_export_from_a_path_or_a_file_object():
    """SPEC §10: read() sniffs an export like the commands, and takes input_format by name."""
    import io

    import wizard_cli as wizard

    games = list(wizard.read(str(KEEPWIZ)))
    assert [game.sheet.game for game in games] == [s["game"] for s in converted(KEEPWIZ)]
    [game] = wizard.read(
        io.BytesIO(ESCALIER_DE.read_bytes()),
        input_format="escalier",
        settings={"exactBonus": 5, "pointsPerTrick": 5, "missPenalty": 5},
    )
    assert list(game.sheet.players) == ["Jörg", "Anna", "Eva", "Ben", "Dan"]
    assert wizard.check(str(ESCALIER_JSON)) == []


# --- memory ----------------------------------------------------------------------------------

SLOW = os.environ.get("WIZARD_SLOW") == "1"


def test_a_keepwiz_season_is_read_one_game_at_a_time(tmp_path):
    """A map of 100,000 records (WIZARD_SLOW=1; 10,000 otherwise) is read in flat memory: the
    peak of the whole run stays far below the file's own size, twice over."""
    from test_memory import peak_mib

    games = 100_000 if SLOW else 10_000
    path = tmp_path / "season.json"
    with open(path, "w") as out:
        out.write("{\n")
        for index in range(games):
            record = {
                "id": f"g{index}",
                "version": "3.0",
                "created_at": f"2025-{1 + index % 12:02d}-{1 + index % 28:02d}T20:00:00Z",
                "total_rounds": 3,
                "name": "x" * 600,
                "players": [{"id": p, "name": p, "isDealer": p == "A"} for p in "ABC"],
                "round_data": [
                    {
                        "players": [
                            {
                                "id": p,
                                "call": 0 if p != "A" else r,
                                "made": 0 if p != "A" else r,
                                "score": 20 + 10 * r * (p == "A"),
                            }
                            for p in "ABC"
                        ]
                    }
                    for r in (1, 2, 3)
                ],
            }
            out.write(f'"g{index}": {json.dumps(record)}' + (",\n" if index < games - 1 else "\n"))
        out.write("}\n")
    size_mib = path.stat().st_size / 2**20
    code, peak, err = peak_mib("standings", path, "-f", "csv")
    assert code == 0, err
    print(f"{games:,} KeepWiz games, {size_mib:.0f} MiB: peak {peak:.0f} MiB")
    assert peak < 80 and (not SLOW or peak < size_mib / 2)


# --- never a traceback -----------------------------------------------------------------------

JUNK = [None, True, -1, 2.5, 10**30, "", "x\x1b", [], {}, [[]], {"id": None}, "2025-13-45"]


def mutations(value, rng, depth=0):
    """The value with one part somewhere inside replaced by junk."""
    if depth > 6 or not isinstance(value, (dict, list)) or not value or rng.random() < 0.15:
        return rng.choice(JUNK)
    copy = dict(value) if isinstance(value, dict) else list(value)
    key = rng.choice(list(copy)) if isinstance(copy, dict) else rng.randrange(len(copy))
    copy[key] = mutations(copy[key], rng, depth + 1)
    return copy


@pytest.mark.parametrize(
    "sample",
    [KEEPWIZ, FIXTURES / "keepwiz-v2.json", FIXTURES / "keepwiz-gamestate.json", ESCALIER_JSON],
)
def test_any_part_of_an_export_replaced_by_junk_is_at_worst_a_problem(tmp_path, sample):
    import random

    rng = random.Random(sample.name)
    original = json.loads(sample.read_text())
    path = tmp_path / sample.name
    for _ in range(60 if not SLOW else 600):
        path.write_text(json.dumps(mutations(original, rng)))
        result = run("check", path)
        assert result.exit_code in (0, 1), result.stderr
        assert "Traceback" not in result.stderr and "internal error" not in result.stderr


def test_any_escalier_csv_line_cut_short_is_at_worst_a_problem(tmp_path):
    import random

    rng = random.Random(5)
    lines = ESCALIER_DE.read_bytes().decode().split("\r\n")
    path = tmp_path / "cut.csv"
    for _ in range(60 if not SLOW else 600):
        changed = list(lines)
        at = rng.randrange(1, len(changed))
        cells = changed[at].split(",")
        cells[rng.randrange(len(cells))] = rng.choice(["", "x", "-3", "99", "'=1", "\x00"])
        changed[at] = ",".join(cells[: rng.randrange(1, len(cells) + 1)])
        path.write_bytes("\r\n".join(changed).encode())
        result = run("check", path)
        assert result.exit_code in (0, 1), result.stderr
        assert "Traceback" not in result.stderr and "internal error" not in result.stderr
