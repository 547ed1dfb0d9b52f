"""Shared test helpers: run the CLI in-process and find the sample sheets."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from wizard_cli.cli import app

SAMPLES = Path(__file__).resolve().parent.parent / "sample_sheets"
WORKED = SAMPLES / "worked-example.yaml"


def run(*args: object, input: str | bytes | None = None):
    """Invoke ``wizard ARGS…`` in-process; the result has .exit_code, .stdout and .stderr."""
    return CliRunner().invoke(app, [str(a) for a in args], input=input, catch_exceptions=False)


@pytest.fixture
def write(tmp_path: Path):
    """Write a file under tmp_path and return its path: ``write("a.yaml", text)``."""

    def _write(name: str, content: str | bytes) -> Path:
        path = tmp_path / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        return path

    return _write
