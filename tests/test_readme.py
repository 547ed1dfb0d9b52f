"""The README's examples are real: each `$ wizard …` shown with its output is run and compared."""

from __future__ import annotations

import re
import shlex

import pytest
from helpers import SAMPLES, run

README = SAMPLES.parent / "README.md"


def examples() -> list[tuple[str, str]]:
    """(command, output) for each self-contained example: sample sheets only, no pipes, no '…'."""
    found = []
    for block in re.findall(r"```console\n(.*?)```", README.read_text(encoding="utf-8"), re.S):
        for command, output in re.findall(
            r"^\$ (wizard [^\n]*)\n((?:(?!\$ )[^\n]*\n)*)", block, re.M
        ):
            words = shlex.split(command, comments=True)
            files = [w for w in words if "." in w and not w.startswith("-")]
            if "|" in command or "…" in output or not output:
                continue
            if all(w.startswith("sample_sheets/") for w in files):
                found.append((command, output))
    return found


@pytest.mark.parametrize(("command", "output"), examples())
def test_readme_example(command, output, monkeypatch):
    monkeypatch.chdir(README.parent)
    result = run(*shlex.split(command, comments=True)[1:])
    assert result.stderr + result.stdout == output


def test_the_readme_has_examples_to_check():
    assert len(examples()) >= 10


def test_the_presets_file_the_readme_shows_is_shipped_and_its_example_runs():
    text = README.read_text(encoding="utf-8")
    [(path, shown)] = re.findall(r"^\$ cat (sample_sheets/\S+)\n((?:(?!\$ )[^\n]*\n)*)", text, re.M)
    assert (README.parent / path).read_text(encoding="utf-8") == shown
    assert any(f"--presets {path}" in command for command, _ in examples())  # run above


def test_the_tour_names_every_file_it_writes():
    """The tour writes into the current folder: it says so, naming each file, before it starts
    (so that it can be taken in a temporary folder and leave the checkout as it was)."""
    text = README.read_text(encoding="utf-8")
    tour = text[text.index("## A tour\n") :]
    intro = tour[: tour.index("\n### ")]
    written = set()
    for block in re.findall(r"```console\n(.*?)```", tour, re.S):
        for command in re.findall(r"^\$ ([^\n]*wizard [^\n]*)$", block, re.M):
            if " | wizard " in command:  # (a feed piped into `wizard play`)
                command = "wizard " + command.split(" | wizard ")[-1]
            elif not command.startswith("wizard "):
                continue
            words = shlex.split(command.split(" | ")[0], comments=True)
            if "-o" in words:
                written.add(words[words.index("-o") + 1])
            if words[1] == "play":
                written.add(words[2])
    assert {"friday.yaml", "tonight.yaml", "worked.png"} <= written
    assert not any(name.startswith("sample_sheets/") for name in written)
    assert all(f"`{name}`" in intro for name in written), written
    assert "mktemp -d" in intro
