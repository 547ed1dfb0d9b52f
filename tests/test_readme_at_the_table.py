"""The README's sessions at the table are real: the `friday.yaml` tour is replayed command by
command in a fresh folder, and the `play` session is piped into a real `wizard play`."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys

from helpers import SAMPLES, run

README = (SAMPLES.parent / "README.md").read_text(encoding="utf-8")


def section(title: str) -> str:
    """The README text under a ``###`` heading, up to the next heading."""
    start = README.index(f"### {title}\n")
    end = README.index("\n### ", start + 1)
    return README[start:end]


def sessions(text: str) -> list[tuple[str, str]]:
    """(command, output) of each ``$ …`` line in the text's console blocks."""
    found = []
    for block in re.findall(r"```console\n(.*?)```", text, re.S):
        found += re.findall(r"^\$ ([^\n]*)\n((?:(?!\$ )[^\n]*\n)*)", block, re.M)
    return found


def test_the_keeping_score_tour_is_what_the_commands_print(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    steps = sessions(section("Keeping score: `new`, `add`, `edit`, `undo`, `next`"))
    assert len(steps) >= 9
    for command, output in steps:
        result = run(*shlex.split(command)[1:])
        assert result.stderr + result.stdout == output, command
    rounds = (tmp_path / "friday.yaml").read_text(encoding="utf-8").split("rounds:\n")[1]
    assert rounds == (
        "  - bids:   [1, 0, 0, 1]\n    tricks: [1, 0, 0, 0]\n  - bids:   [0, 0, 1, 0]\n"
    )
    assert "rounds:\n" + rounds in section("Keeping score: `new`, `add`, `edit`, `undo`, `next`")


def test_the_play_session_is_what_play_prints_from_a_pipe(tmp_path):
    [(command, output)] = sessions(section("At the table"))
    feed, play = command.split(" | ")
    entries = shlex.split(feed)[2:]  # printf '%s\n' ENTRY…
    done = subprocess.run(
        [sys.executable, "-m", "wizard_cli", *shlex.split(play)[1:]],
        input="".join(f"{entry}\n" for entry in entries),
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0
    assert done.stdout == output
