"""The shape of the code (issue 19): one exit-status enum used everywhere, one error boundary,
no import circle, no private name borrowed across modules, modules of a readable size."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from wizard_cli.errors import ExitCode

PACKAGE = Path(__file__).resolve().parent.parent / "wizard_cli"
MODULES = sorted(PACKAGE.rglob("*.py"))


def source(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def test_the_exit_statuses_are_one_enum():
    assert {code.name: int(code) for code in ExitCode} == {
        "OK": 0, "DATA": 1, "USAGE": 2, "INTERRUPTED": 130, "PIPE_CLOSED": 141}


def test_no_exit_status_is_a_bare_number():
    """typer.Exit, sys.exit and a returned status name an ExitCode, never a literal (but 0)."""
    loose = re.compile(r"(Exit|exit)\((1|2|130|141)\)|return (130|141)\b|EXIT_[A-Z]")
    found = [f"{path.relative_to(PACKAGE)}:{number}" for path in MODULES
             for number, line in enumerate(source(path).splitlines(), start=1)
             if loose.search(line)]
    assert found == []


def test_the_boundary_is_the_only_place_that_picks_the_status_of_an_error():
    """Ctrl-C (130) and a closed pipe (141) are named in boundary.py alone; cli.py's entry
    point hands what happens outside a command to the same mapping."""
    naming = re.compile(r"ExitCode\.(INTERRUPTED|PIPE_CLOSED)")
    found = sorted(str(path.relative_to(PACKAGE)) for path in MODULES if naming.search(source(path)))
    assert found == ["boundary.py"]
    assert source(PACKAGE / "cli.py").count("exit_status(error)") == 2


def test_debug_reaches_the_boundary_through_clicks_context():
    assert "ctx.meta[DEBUG]" in source(PACKAGE / "cli.py")
    assert not any(re.search(r"^state\s*=", source(path), re.M) for path in MODULES)
