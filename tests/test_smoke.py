"""One real process: the installed-style entry point works end to end, and fails cleanly."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import WORKED

ROOT = Path(__file__).resolve().parent.parent


def wizard(*args: object) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "wizard_cli", *map(str, args)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def test_scoring_the_worked_example_in_a_real_process(tmp_path):
    result = wizard("score", WORKED)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert result.stdout.endswith("\n\nGame over — Ben wins\n")
    assert "     1  Ben           140" in result.stdout

    bad = tmp_path / "bad.yaml"
    bad.write_text("players: [A, B, C]\nrounds:\n  - bids: [1, 0, x]\n    tricks: [1, 1, 0]\n")
    result = wizard("score", bad)
    assert (result.returncode, result.stdout) == (1, "")
    assert "Traceback" not in result.stderr
    assert result.stderr == (
        f"{bad}:3: round 1, C: bid 'x' is not a whole number\n"
        f"{bad}:4: round 1: tricks add up to 2, 1 more than the hand size "
        "of 1\n"
    )


def test_output_to_a_pipe_is_buffered_in_large_blocks_and_a_terminal_s_is_not(tmp_path):
    """A season prints megabytes: to a pipe or file in 64 KiB blocks, even with PYTHONUNBUFFERED
    (each line a system call of its own was a tenth of a season's run; issue 20)."""
    probe = (
        "import sys, wizard_cli.cli.console as console; console.buffer_output(); "
        "print(type(sys.stdout.buffer).__name__, getattr(sys.stdout.buffer, 'raw', None) "
        "and sys.stdout.buffer.raw.closefd, sys.stdout.write_through)"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    env["PYTHONPATH"] = str(ROOT)
    buffered = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=60
    )
    assert buffered.stdout == "BufferedWriter False False\n"  # ours: the stream's fd, kept open
    unbuffered = subprocess.run(
        [sys.executable, "-u", "-c", probe], capture_output=True, text=True, env=env, timeout=60
    )
    # python -u: buffered all the same, through the writer that never drops a short write
    # (SPEC §7: output cut by a file size limit or a closed pipe is never exit 0); what waits is
    # sent out whenever the tool waits for input (test_hardening: Ctrl-C while reading stdin)
    assert unbuffered.stdout == "BufferedWriter False False\n"
    many = tmp_path / "many.csv"
    rows = "".join(
        f"g{game},{r},{p},0,{int(i == 0) * r}\n"
        for game in range(300)
        for r in range(1, 16)
        for i, p in enumerate(["Anna", "Ben", "Cara", "Dan"])
    )
    many.write_text("game,round,player,bid,tricks\n" + rows)
    result = subprocess.run(
        [sys.executable, "-m", "wizard_cli", "standings", str(many), "-f", "jsonl"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert (result.returncode, result.stderr, result.stdout.count("\n")) == (0, "", 300)


def test_output_that_cannot_be_written_is_one_line_not_a_traceback():
    """Started with stdout closed (`>&-`) or read-only (`1</dev/null`): one line, exit 1."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    env["PYTHONPATH"] = str(ROOT)
    argv = [sys.executable, "-m", "wizard_cli", "standings", str(WORKED), "-f", "jsonl"]
    closed = subprocess.run(
        argv, stderr=subprocess.PIPE, text=True, env=env, timeout=60, preexec_fn=lambda: os.close(1)
    )
    assert (closed.returncode, closed.stderr) == (
        1,
        "wizard: cannot write the output: standard output is closed\n",
    )
    with open(os.devnull, "rb") as read_only:
        refused = subprocess.run(
            argv, stdout=read_only, stderr=subprocess.PIPE, text=True, env=env, timeout=60
        )
    assert (refused.returncode, refused.stderr) == (
        1,
        "wizard: cannot write the output: Bad file descriptor\n",
    )


@pytest.mark.parametrize("unbuffered", [False, True], ids=["buffered", "unbuffered"])
def test_a_game_read_from_a_pipe_is_out_before_the_tool_waits_for_the_next(unbuffered):
    """Output waits in a 64 KiB buffer, but never while the tool waits for input: a pipeline's
    next stage sees each game as soon as it is scored (issue 20)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    env["PYTHONPATH"] = str(ROOT)
    if unbuffered:
        env["PYTHONUNBUFFERED"] = "1"
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "wizard_cli",
            "standings",
            "-",
            "--input-format",
            "csv",
            "-f",
            "jsonl",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    try:
        process.stdin.write(
            b"game,round,player,bid,tricks\n"
            + b"".join(b"1,1,%s,0,%d\n" % (p, i == 0) for i, p in enumerate([b"A", b"B", b"C"]))
            + b"2,1,A,0,0\n"
        )
        process.stdin.flush()
        # game 1 ended: out while the tool waits for stdin (not held until stdin ends)
        assert select.select([process.stdout], [], [], 60)[0], "game 1 was held back"
        first = process.stdout.readline()
        process.stdin.close()
        rest, errors = process.stdout.read(), process.stderr.read()
        process.wait(timeout=60)
    finally:
        process.kill()
    assert json.loads(first)["game"] == "1"
    assert (process.returncode, rest, errors) == (
        1,
        b"",
        b"<stdin>:5: a game has 3 to 6 players, this sheet has 1\n",
    )
