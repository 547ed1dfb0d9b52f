"""``wizard edit --round N --out NAME`` / ``--seated NAME`` and ``undo`` of a round's ``out``
(SPEC §5 "Special cards and seating at the table"), through the CLI: the layout kept, each
change said, refusals located and nothing written."""

from __future__ import annotations

import json
import textwrap

from helpers import SAMPLES, run

SIX = """\
players: [A, B, C, D, E, F]
rounds:
  - bids:   [0, 0, 0, 0, 0, 1]   # six at the table
    tricks: {A: 0, B: 0, C: 0, D: 0, E: 0, F: 1}
  - bids:   [0, 0, 0, 0, 0, 1]
"""

BLOCK = """\
players: [A, B, C, D]
rounds:
  - bids:
      - 0
      - 1
      - 0
      - 0
    tricks:
      A: 0
      B: 1
      C: 0
      D: 0
"""


def sheet(tmp_path, text: str, name: str = "s.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def results(path, number: int) -> dict:
    data = json.loads(run("score", "-f", "json", path).stdout)
    return data["rounds"][number - 1]["results"]


def test_out_takes_the_values_out_and_seated_puts_them_back_byte_for_byte(tmp_path):
    path = sheet(tmp_path, SIX)
    result = run("edit", path, "--round", "1", "--out", "a,B")  # names as typed
    assert result.exit_code == 0, result.stderr
    assert f"{path}: round 1, A: sits the round out (bid 0, tricks 0 taken out)" in result.stderr
    assert f"{path}: round 1, B: sits the round out (bid 0, tricks 0 taken out)" in result.stderr
    assert path.read_text() == SIX.replace(
        "  - bids:   [0, 0, 0, 0, 0, 1]   # six",
        "  - out: [A, B]\n    bids:   [0, 0, 0, 1]   # six",
    ).replace("{A: 0, B: 0, C: 0, D: 0, E: 0, F: 1}", "{C: 0, D: 0, E: 0, F: 1}")
    assert results(path, 1)["A"] == {
        "bid": None,
        "tricks": None,
        "points": None,
        "total": 0,
        "seated": False,
    }
    assert "Rank" in result.stdout  # the standings after the change
    result = run(
        "edit", path, "--round", "1", "--seated", "B,A", "--bids", "A=0,B=0", "--tricks", "A=0,B=0"
    )
    assert result.exit_code == 0, result.stderr
    assert "round 1, A: seated (bid 0, tricks 0)" in result.stderr
    assert path.read_text() == SIX


def test_out_and_seated_in_a_block_layout_and_a_json_sheet(tmp_path):
    path = sheet(tmp_path, BLOCK)
    assert run("edit", path, "--round", "1", "--out", "C", "-q").exit_code == 0
    assert path.read_text() == BLOCK.replace("      - 0\n      - 0\n", "      - 0\n", 1).replace(
        "rounds:\n  - bids:", "rounds:\n  - out: [C]\n    bids:"
    ).replace("      C: 0\n", "")
    assert (
        run(
            "edit", path, "--round", "1", "--seated", "C", "--bids", "C=0", "--tricks", "C=0", "-q"
        ).exit_code
        == 0
    )
    assert path.read_text() == BLOCK
    json_path = tmp_path / "s.json"
    assert run("convert", path, "--to", "json", "-o", json_path).exit_code == 0
    before = json_path.read_text()
    assert run("edit", json_path, "--round", "1", "--out", "D", "-q").exit_code == 0
    assert '{"out": ["D"], "bids": [0, 1, 0], "tricks": [0, 1, 0]}' in json_path.read_text()
    assert (
        run(
            "edit",
            json_path,
            "--round",
            "1",
            "--seated",
            "D",
            "--bids",
            "D=0",
            "--tricks",
            "D=0",
            "-q",
        ).exit_code
        == 0
    )
    assert json_path.read_text() == before


def test_out_in_the_round_in_play_then_undo_takes_the_round_back_with_its_out(tmp_path):
    path = sheet(tmp_path, SIX)
    result = run("edit", path, "--round", "2", "--out", "B,C,E", "-q")
    assert result.exit_code == 0, result.stderr
    assert path.read_text().endswith("  - out: [B, C, E]\n    bids:   [0, 0, 1]\n")
    next_ = json.loads(run("next", "-f", "json", path).stdout)
    assert next_["biddingOrder"] == ["F", "A", "D"]  # D deals: the first seated after A
    result = run("undo", path)
    assert result.exit_code == 0 and "removed the round in play" in result.stderr
    assert path.read_text() == SIX.rsplit("  - bids:   [0, 0, 0, 0, 0, 1]\n", 1)[0]


def test_a_seated_sheets_list_is_edited_at_the_players_place(tmp_path):
    """Before: ``edit`` changed the seat's index in the list, the wrong player's value (and
    was refused as unsafe); now Dan's bid is Dan's in a round Cara has left."""
    path = tmp_path / "late.yaml"
    path.write_text((SAMPLES / "latecomer.yaml").read_text())
    result = run("edit", path, "--round", "5", "--bids", "Dan=0", "-q")
    assert result.exit_code == 0, result.stderr
    assert "  - bids:   [2, 1, 0, 1]        # Anna, Ben, Dan, Eva" in path.read_text()
    assert results(path, 5)["Dan"]["bid"] == 0


def test_out_and_seated_with_the_latecomer_sample(tmp_path):
    path = tmp_path / "late.yaml"
    original = (SAMPLES / "latecomer.yaml").read_text()
    path.write_text(original)
    result = run(
        "edit",
        path,
        "--round",
        "3",
        "--seated",
        "Dan",
        "--out",
        "Eva",
        "--bids",
        "Dan=1",
        "--tricks",
        "Dan=1",
        "-q",
    )
    assert result.exit_code == 0, result.stderr
    text = path.read_text()
    assert "  - out: [Eva]                  # Eva joins" in text
    assert "    bids:   {Anna: 1, Ben: 1, Cara: 0, Dan: 1}" in text
    assert (
        run(
            "edit",
            path,
            "--round",
            "3",
            "--seated",
            "Eva",
            "--out",
            "Dan",
            "--bids",
            "Eva=1",
            "--tricks",
            "Eva=1",
            "-q",
        ).exit_code
        == 0
    )
    assert path.read_text() == original


def test_refused_edits_say_why_and_write_nothing(tmp_path):
    path = tmp_path / "late.yaml"
    path.write_text((SAMPLES / "latecomer.yaml").read_text())
    before = path.read_bytes()
    for args, message in [
        (
            ("--round", "3", "--out", "Dan"),
            "round 3, Dan: is not seated in round 3: sits this round out",
        ),
        (("--round", "3", "--seated", "Dan"), "round 3, Dan: give their bid with --bids Dan=N"),
        (
            ("--round", "3", "--seated", "Dan", "--bids", "Dan=1"),
            "round 3 is complete: give their tricks too",
        ),
        (
            ("--round", "1", "--seated", "Eva", "--bids", "Eva=1", "--tricks", "Eva=0"),
            "round 1, Eva: cannot be seated in round 1: has not joined yet (joins in round 3)",
        ),
        (
            ("--round", "2", "--out", "Ben", "--bids", "Ben=1"),
            "round 2, Ben: sits round 2 out: give no --bids or --tricks for them",
        ),
        (("--round", "2", "--out", "Anna,Ben"), "round 2: 2 players seated: a round seats"),
        (("--round", "2", "--out", "Zed"), "--out: unknown player 'Zed'"),
        (("--round", "2", "--out", "Ben", "--seated", "Ben"), "--out and --seated both"),
        (("--round", "4", "--out", "Anna"), "round 4: tricks add up to 3, 1 short"),
        (("--round", "9", "--out", "Anna"), "round 9: no such round to edit"),
    ]:
        result = run("edit", path, *args)
        assert result.exit_code == 1, (args, result.stdout)
        assert message in result.stderr, (args, result.stderr)
        assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr
        assert path.read_bytes() == before


def test_a_player_not_at_the_table_cannot_sit_a_round_out(tmp_path):
    """Before: ``add --out`` of a player who had left wrote ``out: [Cara]`` as if she sat."""
    path = tmp_path / "late.yaml"
    path.write_text((SAMPLES / "latecomer.yaml").read_text())
    before = path.read_bytes()
    result = run("add", path, "--bids", "Ben=1", "--out", "Cara")
    assert result.exit_code == 1
    assert result.stderr == f"{path}: round 6, Cara: cannot sit round 6 out: left after round 4\n"
    assert path.read_bytes() == before
