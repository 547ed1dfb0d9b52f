"""The shape of the code (issue 19): one exit-status enum used everywhere, one error boundary,
no import circle, no private name borrowed across modules, modules of a readable size."""

from __future__ import annotations

import ast
import re
import tokenize
from pathlib import Path

from wizard_cli.errors import ExitCode

PACKAGE = Path(__file__).resolve().parent.parent / "wizard_cli"
MODULES = sorted(PACKAGE.rglob("*.py"))


def source(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def test_the_exit_statuses_are_one_enum():
    assert {code.name: int(code) for code in ExitCode} == {
        "OK": 0,
        "DATA": 1,
        "USAGE": 2,
        "INTERRUPTED": 130,
        "PIPE_CLOSED": 141,
    }


def test_no_exit_status_is_a_bare_number():
    """typer.Exit, sys.exit and a returned status name an ExitCode, never a literal (but 0)."""
    loose = re.compile(r"(Exit|exit)\((1|2|130|141)\)|return (130|141)\b|EXIT_[A-Z]")
    found = [
        f"{path.relative_to(PACKAGE)}:{number}"
        for path in MODULES
        for number, line in enumerate(source(path).splitlines(), start=1)
        if loose.search(line)
    ]
    assert found == []


def test_the_boundary_is_the_only_place_that_picks_the_status_of_an_error():
    """Ctrl-C (130) and a closed pipe (141) are named in cli/boundary.py alone; the console
    entry point (cli/__init__.py) hands what happens outside a command to the same mapping."""
    naming = re.compile(r"ExitCode\.(INTERRUPTED|PIPE_CLOSED)")
    found = sorted(
        path.relative_to(PACKAGE).as_posix() for path in MODULES if naming.search(source(path))
    )
    assert found == ["cli/boundary.py"]
    assert source(PACKAGE / "cli" / "__init__.py").count("exit_status(error)") == 2


def test_debug_reaches_the_boundary_through_clicks_context():
    assert "ctx.meta[DEBUG]" in source(PACKAGE / "cli" / "commands.py")
    assert not any(re.search(r"^state\s*=", source(path), re.M) for path in MODULES)


# --- imports ---------------------------------------------------------------------------------


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def private(name: str) -> bool:
    """``_name``, not ``__dunder__``."""
    return name.startswith("_") and not name.startswith("__")


def imports(path: Path, module: str | None = None) -> list[tuple[str, list[str], int]]:
    """Every ``from X import a, b`` of a module of the package (``module``, by default the one
    at ``path``) as (the module imported from, the names, the line): anywhere in it, a
    function's own imports and those under ``if TYPE_CHECKING:`` too. An import for type hints
    only is still an edge: modules in a circle through their hints cannot be read, typed or
    moved apart."""
    package = (module or module_name(path)).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found = []
    for node in ast.walk(ast.parse(source(path))):
        if isinstance(node, ast.ImportFrom) and node.module != "__future__":
            base = package[: len(package) - node.level + 1] if node.level else []
            target = ".".join(base + ([node.module] if node.module else []))
            if target.startswith("wizard_cli"):
                found.append((target, [alias.name for alias in node.names], node.lineno))
        elif isinstance(node, ast.Import):
            found += [
                (alias.name, [], node.lineno)
                for alias in node.names
                if alias.name.startswith("wizard_cli")
            ]
    return found


def import_graph() -> dict[str, set[str]]:
    """Which modules of the package each one imports (a name imported from a package that is
    a module of it counts as that module)."""
    known = {module_name(path) for path in MODULES}
    graph: dict[str, set[str]] = {}
    for path in MODULES:
        edges = graph.setdefault(module_name(path), set())
        for target, names, _ in imports(path):
            for name in names or [None]:
                sub = f"{target}.{name}"
                edges.add(sub if name and sub in known else target)
    for name, edges in graph.items():
        edges.discard(name)
        edges -= {"wizard_cli"}  # the package's own __init__ holds only the version
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles a depth-first walk finds (none in a layered package)."""
    found: list[list[str]] = []
    state: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1  # on the current path
        for following in sorted(graph.get(node, ())):
            if state.get(following) == 1:
                found.append(path[path.index(following) :] + [following])
            elif following not in state:
                visit(following, path + [following])
        state[node] = 2  # done

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    return found


def test_the_import_graph_has_no_circle():
    assert circles(import_graph()) == []


def test_the_circle_finder_finds_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c", "a"]]


def test_the_import_finder_sees_type_hint_and_function_imports(tmp_path):
    module = tmp_path / "m.py"
    module.write_text(
        "from __future__ import annotations\nfrom typing import TYPE_CHECKING\n"
        "from .model import Sheet\nif TYPE_CHECKING:\n    from .game import Game\n"
        "    import wizard_cli.errors\ndef f():\n    from . import stats\n"
    )
    assert sorted(imports(module, "wizard_cli.game.m")) == [
        ("wizard_cli.errors", [], 6),
        ("wizard_cli.game", ["stats"], 8),
        ("wizard_cli.game.game", ["Game"], 5),
        ("wizard_cli.game.model", ["Sheet"], 3),
    ]


def command_line_imports(path: Path) -> list[str]:
    """The modules of Typer or Click a module imports, anywhere in it (a function's own
    imports too); Typer ≥ 0.16 vendors Click as ``typer._click``."""
    found = []
    for node in ast.walk(ast.parse(source(path))):
        names = (
            [alias.name for alias in node.names]
            if isinstance(node, ast.Import)
            else [node.module or ""]
            if isinstance(node, ast.ImportFrom) and not node.level
            else []
        )
        found += [name for name in names if name.split(".")[0] in ("typer", "click")]
    return found


def test_only_the_command_line_package_imports_typer_or_click():
    """The edge is one package, wizard_cli/cli/: the application layer, the formats, the views,
    the web server and the pure core know nothing of a command line."""
    edge = PACKAGE / "cli"
    outside = [
        f"{path.relative_to(PACKAGE)}: {name}"
        for path in MODULES
        if edge not in path.parents
        for name in command_line_imports(path)
    ]
    assert outside == []
    assert command_line_imports(edge / "commands.py") == ["typer"]


READING_COMMANDS = ("score", "standings", "check", "next_", "stats", "ratings", "plot", "compare")


def test_the_reading_commands_read_through_the_library():
    """score, standings, check, next, stats, ratings, plot and compare read their sheets
    through the library (cli/reading.py calls wizard_cli.library.read; issue 30): none of them
    makes app/batch's Inputs, and cli/reading.py never names it."""
    tree = ast.parse(source(PACKAGE / "cli" / "commands.py"))
    commands = {
        node.name: {name.id for name in ast.walk(node) if isinstance(name, ast.Name)}
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and node.name in READING_COMMANDS
    }
    assert sorted(commands) == sorted(READING_COMMANDS)
    for command, names in commands.items():
        assert "reading" in names and not names & {"inputs", "batch_inputs", "Inputs"}, command
    reading = ast.parse(source(PACKAGE / "cli" / "reading.py"))
    named = {name.id for name in ast.walk(reading) if isinstance(name, ast.Name)}
    imported = {
        alias.name
        for node in ast.walk(reading)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    assert "Inputs" not in named | imported and "library" in imported


def test_the_import_finder_sees_every_way_of_importing_click(tmp_path):
    module = tmp_path / "m.py"
    module.write_text(
        "import os, click\nfrom typer.testing import CliRunner\n"
        "def f():\n    import typer._click as c\n    from . import typer\n"
    )
    assert command_line_imports(module) == ["click", "typer.testing", "typer._click"]


def test_no_private_name_is_imported_from_another_module():
    borrowed = [
        f"{path.relative_to(PACKAGE)}:{line}: {target}.{name}"
        for path in MODULES
        for target, names, line in imports(path)
        for name in names
        if private(name)
    ]
    assert borrowed == []


def test_no_test_reaches_a_private_name_of_the_package():
    tests = Path(__file__).resolve().parent
    reaching = []
    for path in sorted(tests.glob("*.py")):
        text = source(path)
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("wizard_cli"):
                reaching += [
                    f"{path.name}:{node.lineno}: {alias.name}"
                    for alias in node.names
                    if private(alias.name)
                ]
    assert reaching == []


def test_tests_share_helpers_through_a_module_not_conftest():
    """pytest advises never importing conftest.py: shared functions live in tests/helpers.py."""
    tests = Path(__file__).resolve().parent
    importing = [
        f"{path.name}:{node.lineno}"
        for path in sorted(tests.glob("*.py"))
        for node in ast.walk(ast.parse(source(path)))
        if isinstance(node, ast.ImportFrom | ast.Import)
        and "conftest"
        in (
            [node.module or ""]
            if isinstance(node, ast.ImportFrom)
            else [alias.name for alias in node.names]
        )
    ]
    assert importing == []


def logical_lines(path: Path) -> int:
    """A module's statements as Python counts them (tokenize's NEWLINE tokens): a call spread
    over ten lines by the formatter is one, a docstring is one; blank lines and comments none."""
    with path.open("rb") as handle:
        return sum(token.type == tokenize.NEWLINE for token in tokenize.tokenize(handle.readline))


def test_no_module_is_past_the_size_guard():
    """No hard line count: a module holds one idea. 450 logical lines is the guard that says a
    module has grown two. Counted in statements, not physical lines, so that ``ruff format``'s
    wrapping (a sixth more lines, the same code) moves no module across it: before the package
    was formatted, the largest module under the old guard of 600 physical lines held 434."""
    long = [
        f"{path.relative_to(PACKAGE)}: {logical_lines(path)}"
        for path in MODULES
        if logical_lines(path) > 450
    ]
    assert long == []


def test_each_format_is_written_beside_its_reader():
    """One module per format reads and writes it (issue 19): writing.py keeps only what every
    writer shares, and the registry names each writer, a SheetWriter, by the SheetFormat enum."""
    from wizard_cli.game.model import SheetFormat
    from wizard_cli.sheets.formats import FORMATS, function
    from wizard_cli.sheets.writing import SheetWriter

    assert set(FORMATS) == set(SheetFormat)
    assert {
        name: FORMATS[name].writer and FORMATS[name].writer.split(":")[0] for name in SheetFormat
    } == {
        SheetFormat.YAML: "yaml.sheets",
        SheetFormat.JSON: "yaml.sheets",
        SheetFormat.CSV: "csv.long",
        SheetFormat.WIDE_CSV: "csv.wide",
        SheetFormat.KEEPWIZ: None,
        SheetFormat.ESCALIER: None,
    }  # other apps' exports: read only
    assert all(
        issubclass(function(entry.writer), SheetWriter)
        for entry in FORMATS.values()
        if entry.writer is not None
    )
    # a read-only format reads itself from its own module, told by its content
    assert {
        name: (FORMATS[name].reader, FORMATS[name].sniffer)
        for name in SheetFormat
        if FORMATS[name].writer is None
    } == {
        SheetFormat.KEEPWIZ: ("exports.keepwiz:read_keepwiz_sheets", "exports.kinds:keepwiz"),
        SheetFormat.ESCALIER: ("exports.escalier:read_escalier_sheets", "exports.kinds:escalier"),
    }
    assert "csv.writer" not in source(PACKAGE / "sheets" / "writing.py")


def test_no_sheet_is_written_out_in_two_test_files():
    """A sheet several test files read lives as a file under tests/sheets/ (helpers.py names
    it), not as a string copied from one test file to another."""
    tests = Path(__file__).resolve().parent
    written: dict[str, set[str]] = {}
    for path in sorted(tests.glob("*.py")):
        for node in ast.walk(ast.parse(source(path))):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and "players" in node.value
                and node.value.count("\n") >= 4
            ):
                written.setdefault(node.value, set()).add(path.name)
    assert {text: names for text, names in written.items() if len(names) > 1} == {}
