"""JSON's surrogate-pair escapes (issue 21, item 10): ``json.dumps`` writes an emoji as
``"\\ud83d\\ude00"``, which YAML alone refuses; SPEC §3 reads JSON as YAML, so the reader
rewrites each pair to YAML's ``\\U0001F600`` first, keeping every line where it was."""

from __future__ import annotations

import json

import yaml
from helpers import run
from hypothesis import given, settings
from hypothesis import strategies as st

from wizard_cli.sheets.yaml.tree import JsonBlocks

PLAYERS = ["😀 Anna", "Zoé", "Cy"]  # a surrogate pair and a lone escape once dumped


def sheet(players=PLAYERS, tricks=(1, 0, 0)) -> dict:
    return {"players": list(players), "rounds": [{"bids": [1, 0, 0], "tricks": list(tricks)}]}


def test_a_json_sheet_with_an_emoji_name_is_read():
    text = json.dumps(sheet(), indent=2)
    assert "\\ud83d\\ude00" in text and "\\u00e9" in text  # what the file really holds
    result = run("score", "-f", "csv", "-", input=text)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == (
        "round,player,bid,tricks,points,total\n"
        "1,😀 Anna,1,1,30,30\n1,Zoé,0,0,20,20\n1,Cy,0,0,20,20\n"
    )


def test_a_json_array_season_with_emoji_names(write):
    path = write("season.json", json.dumps([sheet(), sheet(["🃏 Dan", "Eve", "Fay"])]))
    result = run("score", "-f", "csv", path)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout.splitlines()[1:] == [
        f"{path},1,1,😀 Anna,1,1,30,30",
        f"{path},1,1,Zoé,0,0,20,20",
        f"{path},1,1,Cy,0,0,20,20",
        f"{path},2,1,🃏 Dan,1,1,30,30",
        f"{path},2,1,Eve,0,0,20,20",
        f"{path},2,1,Fay,0,0,20,20",
    ]


def test_a_bad_value_after_an_emoji_name_is_reported_on_its_own_line(write):
    text = json.dumps(sheet(tricks=(1, 0, "x")), indent=2)
    assert text.splitlines()[16].strip() == '"x"'  # line 17 of the file
    path = write("bad.json", text)
    result = run("check", path)
    assert (result.exit_code, result.stdout, result.stderr) == (
        1,
        f"{path}: 1 problem\n",
        f"{path}:17: round 1, Cy: tricks 'x' is not a whole number\n",
    )


def test_bad_json_syntax_after_an_emoji_is_located_on_its_line(write):
    path = write("broken.json", '{"players": ["\\ud83d\\ude00 A",\n "B", "C"],\n "rounds": [}\n')
    result = run("check", path)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{path}:3: not valid YAML: ")
    control = write("control.json", '{"players": ["\\ud83d\\ude00 A"],\n\x01"rounds": []}\n')
    assert run("check", control).stderr == (
        f"{control}:2: not valid YAML: character #x0001 is not allowed in YAML (line 2)\n"
    )


def test_escaped_backslashes_and_lone_halves_are_not_pairs(write):
    literal = write("lit.json", json.dumps(sheet(["\\ud83d\\ude00", "B", "C"])))
    assert "\\\\ud83d" in literal.read_text()  # an escaped backslash, then text
    result = run("score", "-f", "csv", literal)
    assert result.stdout.splitlines()[1] == "1,\\ud83d\\ude00,1,1,30,30"
    half = write("half.json", '{"players": ["\\ud83d A", "B", "C"], "rounds": []}\n')
    result = run("check", half)
    assert result.exit_code == 1 and "invalid Unicode character escape" in result.stderr


def test_add_to_a_json_sheet_with_emoji_edits_in_the_right_place(write):
    path = write("g.json", json.dumps(sheet(), indent=None) + "\n")
    before = path.read_text()
    assert run("add", path, "--bids", "0,1,0", "-q").exit_code == 0
    assert run("add", path, "--tricks", "0,2,0", "-q").exit_code == 0
    assert path.read_text() == before.replace(
        "[1, 0, 0]}]", '[1, 0, 0]}, {"bids": [0, 1, 0], "tricks": [0, 2, 0]}]'
    )
    assert json.loads(path.read_text())["players"] == PLAYERS


def test_add_to_an_indented_json_sheet_keeps_its_layout(write):
    path = write(
        "g.json",
        '{\n  "players": ["\\ud83d\\ude00 A", "\\ud83c\\udccf B", "C"],\n'
        '  "rounds": [\n    {"bids": [1, 0, 0], "tricks": [1, 0, 0]}\n  ]\n}\n',
    )
    assert run("add", path, "--bids", "0,1,0", "--tricks", "0,2,0", "-q").exit_code == 0
    assert path.read_text() == (
        '{\n  "players": ["\\ud83d\\ude00 A", "\\ud83c\\udccf B", "C"],\n  "rounds": [\n'
        '    {"bids": [1, 0, 0], "tricks": [1, 0, 0]},\n'
        '    {"bids": [0, 1, 0], "tricks": [0, 2, 0]}\n  ]\n}\n'
    )


class _Small(JsonBlocks):
    __slots__ = ()
    BLOCK = 5  # pairs cut by a block's end, at every offset


@settings(max_examples=150, deadline=None)
@given(st.lists(st.text(st.sampled_from('a😀é\\"\n\U0001f0cf'), max_size=6), max_size=6))
def test_rewritten_json_reads_as_json_does_in_any_blocks(names):
    text = json.dumps(names, indent=1)
    blocks = _Small(text, keep_points=True)
    rewritten = "".join(iter(blocks.read, ""))
    assert yaml.safe_load(rewritten) == json.loads(text)
    assert rewritten.count("\n") == text.count("\n")
    assert [text[blocks.original(p) : blocks.original(p) + 2] for p in blocks.points] == [
        "\\u"
    ] * text.count("\\ud83")
