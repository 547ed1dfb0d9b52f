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
        for command, output in re.findall(r"^\$ (wizard [^\n]*)\n((?:(?!\$ )[^\n]*\n)*)", block, re.M):
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
