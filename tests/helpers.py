"""Shared test helpers: run the CLI in-process and find the sample sheets.

Test files import these as ``from helpers import run`` (tests/ is on sys.path the same way
``sheetmaker`` is: pytest's rootdir-relative "prepend" import of a test directory without
``__init__.py``). Fixtures and hooks stay in conftest.py, which pytest advises never to import.
"""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from wizard_cli.cli import app

SAMPLES = Path(__file__).resolve().parent.parent / "sample_sheets"
WORKED = SAMPLES / "worked-example.yaml"


def run(*args: object, input: str | bytes | None = None):
    """Invoke ``wizard ARGS…`` in-process; the result has .exit_code, .stdout and .stderr."""
    return CliRunner().invoke(app, [str(a) for a in args], input=input, catch_exceptions=False)
