"""``play``'s seat entries (SPEC §5 "Special cards and seating at the table"): at a round's first
bid prompt ``join NAME``, ``leave NAME`` and ``out NAME`` (alone or within a line of entries,
each taking the next word) do what ``join``, ``leave`` and ``add --out`` do and ask the round
again; refusals are the commands' messages. At a real terminal, and through a pipe."""

from __future__ import annotations

import json
import pty
import shlex
import subprocess
import sys

import pytest
from helpers import SAMPLES, Terminal, run

pytestmark = pytest.mark.skipif(not hasattr(pty, "fork"), reason="needs a pseudo-terminal (POSIX)")

ROUND_ONE = b"0 0 0\n1 0 0\n"  # A deals; B, C, A bid 0; B takes the trick


def next_json(path) -> dict:
    return json.loads(run("next", "-f", "json", path).stdout)


def test_join_with_a_start_score_then_out_within_a_line_at_a_real_terminal(tmp_path):
    with Terminal(
        ["play", "g.yaml", "--players", "A,B,C", "--no-date", "--start-score", "lowest"],
        cwd=tmp_path,
        env={"COLUMNS": "80"},
    ) as tty:
        tty.read_until(b"B bids: ")
        tty.type(ROUND_ONE)
        tty.read_until(b"Round 2 of 20: B deals 2\r\nC bids: ")
        tty.type(b"join Dan\n")
        tty.read_until(b"Round 2 of 15: B deals 2\r\nC bids: ")
        assert b"Dan joins from round 2" in tty.seen
        tty.type(b"out b, 1\n")  # a name as typed; the line runs on into the round's bids
        tty.read_until(b"A bids (1 of 2 so far): ")
        assert b"B sits round 2 out" in tty.seen
        assert b"Round 2 of 20: C deals 2\r\nDan bids: 1\r\n" in tty.seen  # B out: C deals
        tty.type(b"q\n")
    assert tty.exit_code == 0, (tty.status, bytes(tty.seen))
    text = (tmp_path / "g.yaml").read_text()
    assert "players: [A, B, C, {name: Dan, joins: 2, startScore: -10}]" in text
    assert text.endswith("  - out: [B]\n    bids:   [null, null, 1]\n")
    assert next_json(tmp_path / "g.yaml")["biddingOrder"] == ["Dan", "A", "C"]


def test_refusals_are_the_commands_messages_and_the_round_is_asked_again(tmp_path):
    with Terminal(["play", "g.yaml", "--players", "A,B,C", "--no-date"], cwd=tmp_path) as tty:
        tty.read_until(b"B bids: ")
        tty.type(ROUND_ONE)
        tty.read_until(b"C bids: ")
        for typed, said in [
            (b"leave A\n", b"round 2 would seat 2 players: a round seats 3 to 6"),
            (b"join B\n", b"'B' is already listed"),
            (b"leave Zed\n", b"'Zed' is not one of the players"),
            (
                b"out C, out A\n",
                b"2 players seated: a round seats 3 to 6\r\nrest of the line dropped: out A",
            ),
            (b"out\n", b"out takes the player's name on the same line"),
        ]:
            start = len(tty.seen)
            tty.type(typed)
            tty.read_until(said)
            tty.read_until(b"C bids: ")
            assert b"Traceback" not in tty.seen[start:]
        tty.type(b"0\n")
        tty.read_until(b"A bids (0 of 2 so far): ")
        tty.type(b"join Dan\n")  # only at a round's first bid
        tty.read_until(b"'join' is taken at a round's first bid prompt")
        tty.type(b"q\n")
    assert tty.exit_code == 0, (tty.status, bytes(tty.seen))
    text = (tmp_path / "g.yaml").read_text()
    assert "players: [A, B, C]" in text and "out:" not in text
    assert text.endswith("  - bids:   [null, null, 0]\n")


def test_undo_takes_back_an_out_then_a_join_through_a_pipe(tmp_path):
    """Undo takes back the last entry made: an ``out`` not written yet, then the join (as
    ``wizard undo`` would), and the round is asked again with its opening line."""
    lines = ROUND_ONE + b"join Dan\nout C\nundo\nundo\nleave C\n0 0 0\n"
    result = subprocess.run(
        [sys.executable, "-m", "wizard_cli", "play", "g.yaml", "--players", "A,B,C,D", "--no-date"],
        input=lines.replace(b"0 0 0\n1 0 0", b"0 0 0 0\n1 0 0 0"),
        cwd=tmp_path,
        capture_output=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    err = result.stderr.decode()
    assert "Dan joins from round 2" in err and "C sits round 2 out" in err
    assert "took back C sitting round 2 out" in err
    assert "took back Dan joining from round 2" in err
    assert "C leaves after round 1" in err
    out = result.stdout.decode()
    assert out.count("Round 2 of 15: B deals 2") == 3  # opened; Dan in, C out; Dan taken back
    assert "Round 2 of 20: B deals 2\nD bids: 0 0 0" in out  # C left
    text = (tmp_path / "g.yaml").read_text()
    assert "players: [A, B, {name: C, leaves: 1}, D]" in text
    assert text.endswith("  - bids:   [0, 0, 0]\n")


def test_a_round_with_someone_out_is_played_to_its_points_and_undone_bid_by_bid(tmp_path):
    """The tricks prompts ask the seated only, the last one offered the rest; undo takes the
    bids back at the seated player's own place in the sheet's list."""
    lines = b"0 0 0 0\n1 0 0 0\nout A\n0 1 0\n0 1\n\nundo\nundo\nundo\nq\n"
    result = subprocess.run(
        [sys.executable, "-m", "wizard_cli", "play", "g.yaml", "--players", "A,B,C,D", "--no-date"],
        input=lines,
        cwd=tmp_path,
        capture_output=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout.decode()
    assert "Round 2 of 20: B deals 2\nC bids: 0 1 0" in out
    assert "C took: 0 1\nD took: 1\nB took [1]: \n" in out  # the seated only, B the rest
    assert "Round 2 points: B -10, C +20, D +30\n" in out  # A sat it out: no points
    err = result.stderr.decode()
    assert "round 2: removed its tricks (B 1, C 0, D 1): the round is in play again" in err
    assert "took back B's bid of 0" in err and "took back D's bid of 1" in err
    assert "Traceback" not in err and "internal error" not in err
    text = (tmp_path / "g.yaml").read_text()
    assert text.endswith("    tricks: [0, 1, 0, 0]\n  - out: [A]\n    bids:   [null, 0, null]\n")


def test_the_readmes_seating_sessions_are_what_the_commands_print(tmp_path):
    """README "Joining, leaving, sitting out": the `edit --out/--seated` and the `play` session
    with `join`, `out`, replayed in a fresh folder."""
    from test_readme_at_the_table import section, sessions

    steps = sessions(section("Joining, leaving, sitting out"))
    (tmp_path / "sample_sheets").symlink_to(SAMPLES)
    ran = 0
    for command, output in steps:
        if command.startswith("cp "):
            assert subprocess.run(shlex.split(command), cwd=tmp_path).returncode == 0
            continue
        if " | wizard play " in command:
            feed, play = command.split(" | ")
            lines = "".join(f"{entry}\n" for entry in shlex.split(feed)[2:])
            done = subprocess.run(
                [sys.executable, "-m", "wizard_cli", *shlex.split(play)[1:]],
                input=lines,
                cwd=tmp_path,
                text=True,
                timeout=60,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
            )
            assert done.returncode == 0 and done.stdout == output
        else:
            done = subprocess.run(
                [sys.executable, "-m", "wizard_cli", *shlex.split(command)[1:]],
                cwd=tmp_path,
                text=True,
                timeout=60,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
            )
            assert done.returncode == 0 and done.stdout == output, command
        ran += 1
    assert ran == 3  # the sample's score, the edit, the play session
