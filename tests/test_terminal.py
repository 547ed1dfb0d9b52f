"""SPEC §8: text from a sheet never takes over a terminal — control characters and bidirectional
overrides are shown escaped in every human format, `|` in Markdown is `\\|`, and the machine
formats carry the text as it is (issue 11, defect 5)."""

from __future__ import annotations

import json
import os
import re
import select
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import run
from hypothesis import given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent
# C0 (but the table's own line breaks), DEL, C1 and the bidirectional overrides and isolates.
RAW = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
TITLE = "\x1b[2J\x1b]0;owned\x07\r"
NAMES = ["Ann\x1b[31ma", "Ben\u202e", "Ca|ra", "D\x08a\x9bn"]
HOSTILE = f"""\
title: "{TITLE.encode("unicode_escape").decode()}"
players: [{", ".join(json.dumps(name) for name in NAMES)}]
settings: {{roundMode: custom, customRoundCount: 3}}
rounds:
  - bids: [1, 0, 0, 1]
    tricks: [1, 0, 0, 0]
  - bids: [1, 1, 0, 0]
    tricks: [1, 1, 0, 0]
"""
PRESETS = '"evil\\e[5m": {exactBonus: 30}\n"pipe|preset\\u202e": {zeroBidScoring: doubleBonus}\n'


@pytest.fixture
def hostile(write):
    return write("hostile.yaml", HOSTILE)


def human_outputs(sheet: Path, presets: Path) -> dict[str, str]:
    """Every human view of the hostile sheet."""
    outputs = {}
    for style in ("table", "markdown"):
        for command in (
            ["score"],
            ["standings"],
            ["next"],
            ["stats"],
            ["check"],
            [
                "compare",
                "--presets",
                presets,
                "--preset",
                "evil\x1b[5m",
                "--preset",
                "pipe|preset\u202e",
                "--rounds",
            ],
            ["rules", "--presets", presets],
        ):
            args = [command[0], *([] if command[0] == "rules" else [sheet]), *command[1:]]
            result = run(*args, "-f", style)
            assert result.exit_code == 0, (command, result.stderr)
            outputs[f"{command[0]} {style}"] = result.stdout
    return outputs


def test_every_human_format_escapes_control_characters(hostile, write):
    presets = write("presets.yaml", PRESETS)
    for label, text in human_outputs(hostile, presets).items():
        assert RAW.search(text) is None, (label, RAW.search(text))
    outputs = human_outputs(hostile, presets)
    assert "\\x1b[2J\\x1b]0;owned\\x07\\r" in outputs["score table"]
    assert "Ann\\x1b[31ma" in outputs["score table"] and "Ben\\u202e" in outputs["score table"]
    assert "D\\x08a\\x9bn" in outputs["standings table"]
    assert "Ann\\x1b[31ma" in outputs["next table"]  # the dealer, bidding order
    assert "Ann\\x1b[31ma" in outputs["stats table"]
    assert "evil\\x1b[5m" in outputs["compare table"] and "evil\\x1b[5m" in outputs["rules table"]
    assert outputs["check table"] == f"{hostile}: ok\n"


def test_a_pipe_in_a_markdown_cell_is_escaped(hostile, write):
    presets = write("presets.yaml", PRESETS)
    outputs = human_outputs(hostile, presets)
    for label, text in outputs.items():
        cells = [line for line in text.splitlines() if line.startswith("|")]
        if label.endswith("markdown"):
            assert not any("Ca|ra" in line or "pipe|preset" in line for line in cells), label
    assert "Ca\\|ra" in outputs["score markdown"] and "Ca\\|ra" in outputs["stats markdown"]
    assert "pipe\\|preset\\u202e" in outputs["rules markdown"]
    # every row of a Markdown table has as many cells as its header
    table = [line for line in outputs["standings markdown"].splitlines() if line.startswith("|")]
    assert len({len(re.split(r"(?<!\\)\|", line)) for line in table}) == 1


def test_the_machine_formats_carry_the_text_as_it_is(hostile):
    data = json.loads(run("score", hostile, "-f", "json").stdout)
    assert data["title"] == TITLE and data["players"] == NAMES
    line = json.loads(run("standings", hostile, "-f", "jsonl").stdout)
    assert {s["player"] for s in line["standings"]} == set(NAMES)
    import csv
    import io

    rows = list(csv.reader(io.StringIO(run("score", hostile, "-f", "csv").stdout, newline="")))
    assert {row[1] for row in rows[1:]} == set(NAMES)


def test_check_names_a_hostile_file_name_escaped(write, tmp_path):
    sheet = write("a\x1b[2Jb.yaml", HOSTILE)
    result = run("check", sheet)
    assert result.stdout == f"{tmp_path}/a\\x1b[2Jb.yaml: ok\n"


@settings(max_examples=60, deadline=None)
@given(
    names=st.lists(
        st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=6)
        .map(str.strip)
        .filter(bool),
        min_size=3,
        max_size=3,
        unique=True,
    ),
    title=st.text(max_size=8),
)
def test_no_name_or_title_reaches_a_human_format_raw(tmp_path_factory, names, title):
    sheet = tmp_path_factory.mktemp("t") / "s.json"
    sheet.write_text(
        json.dumps(
            {"title": title, "players": names, "rounds": [{"bids": [1, 0, 0], "tricks": [1, 0, 0]}]}
        )
    )
    for command in ("score", "standings", "next", "stats"):
        for style in ("table", "markdown"):
            result = run(command, sheet, "-f", style)
            if result.exit_code == 0:
                assert RAW.search(result.stdout) is None, (command, style, result.stdout)


def test_on_a_real_terminal_the_escapes_are_what_is_shown(hostile):
    """Through a pseudo-terminal, as a user would see it: no raw escape reaches the tty."""
    pty = pytest.importorskip("pty")
    parent, child = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    process = subprocess.Popen(
        [sys.executable, "-m", "wizard_cli", "score", str(hostile)],
        cwd=ROOT,
        stdin=child,
        stdout=child,
        stderr=child,
        env=env,
    )
    os.close(child)
    shown = b""
    while True:
        ready, _, _ = select.select([parent], [], [], 60)
        if not ready:
            break
        try:
            chunk = os.read(parent, 65536)
        except OSError:  # the terminal's other side closed: the process is done
            break
        if not chunk:
            break
        shown += chunk
    os.close(parent)
    assert process.wait(timeout=60) == 0
    text = shown.decode("utf-8").replace("\r\n", "\n")  # the tty turns each \n into \r\n
    assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text and "\x08" not in text
    assert "\r" not in text
    assert "\\x1b[2J\\x1b]0;owned\\x07\\r" in text
    assert "Game over" not in text and "Round 3 of 3 next" in text


def test_a_place_with_control_characters_is_escaped_in_the_heading_not_folded(write):
    path = write("p.yaml", 'place: "x\\x1cy\\vz"\nplayers: [A, B, C]\nrounds: []\n')
    result = run("standings", path)
    assert result.stdout.splitlines()[0] == f"{path} — x\\x1cy\\x0bz"
