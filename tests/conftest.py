"""Shared fixtures; shared functions and constants live in tests/helpers.py."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest


def pytest_configure(config: pytest.Config) -> None:
    """Ctrl-C's signal at its default for the processes the tests start and signal.

    A test run started in the background by a script (CI may be) inherits SIGINT ignored, and
    an ignored SIGINT stays ignored across exec: a wizard started by a test would never see the
    SIGINT the test sends it. Python's own handler here becomes the default in every child."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


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
