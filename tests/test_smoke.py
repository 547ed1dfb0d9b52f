"""One real process: the installed-style entry point works end to end, and fails cleanly."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import WORKED

ROOT = Path(__file__).resolve().parent.parent


def wizard(*args: object) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "wizard_cli", *map(str, args)],
                          capture_output=True, text=True, env=env, timeout=120)


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
    assert result.stderr == (f"{bad}:3: round 1, C: bid 'x' is not a whole number\n"
                             f"{bad}:4: round 1: tricks add up to 2, 1 more than the hand size "
                             "of 1\n")
