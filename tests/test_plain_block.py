"""The plain block-style YAML reader (sheets/yaml/plain_block.py) against libyaml's parser: for
every text it takes, the tree is the one the parser's events build (every kind, line, text,
tag, plainness, item and pair); every text it does not know is left to the parser (None).

The CI run is a few hundred generated texts; ``WIZARD_SLOW=1`` runs many thousands.
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import pytest
import yaml
from helpers import run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wizard_cli.errors import WizardError
from wizard_cli.sheets.yaml import tree
from wizard_cli.sheets.yaml.plain_block import plain_block_tree

SLOW = os.environ.get("WIZARD_SLOW") == "1"
ROOT = Path(__file__).resolve().parent.parent


def shape(node: tree.Node) -> tuple:
    """Everything of a node the readers above the tree look at, recursively."""
    if node.kind == "scalar":
        return ("scalar", node.line, node.text, node.tag, node.plain)
    return (
        node.kind,
        node.line,
        type(node.items).__name__,  # a bounded players / rounds list is a Bounded
        getattr(node.items, "limit", None),
        [shape(item) for item in node.items],
        [(shape(key), shape(value)) for key, value in node.pairs],
        sorted(node.key_texts),
    )


def parsed(text: str, first: int = 1) -> list[tuple] | str:
    """The parser's trees of the text (the plain reader bypassed), or what it raised."""
    try:
        return [shape(node) for node in tree._build(tree.Loader(text), "x.yaml", first)]
    except (yaml.YAMLError, WizardError) as error:
        return type(error).__name__


def agrees(text: str, first: int = 1) -> bool:
    """Whether the plain reader took the text; raises AssertionError where it differs."""
    fast = plain_block_tree(text, first)
    if fast is None:
        return False
    assert parsed(text, first) == [shape(fast)], text
    return True


BLOCK_SHEET = """\
title: Game 1
date: 2026-01-09
players:
  - Anna
  - Ben
  - Cara
rounds:
  - bids:
      - 0
      - 1
      - 0
    tricks:
      - 0
      - 1
      - 0
  - bids: [1, 0, 1]
    tricks: [1, 1, 0]
"""


@pytest.mark.parametrize(
    "text",
    [
        BLOCK_SHEET,
        BLOCK_SHEET.rstrip("\n"),  # no line break at the end
        # yaml.dump's layout: lists not indented under their key
        "players:\n- Anna\n- Ben\n- Cara\nrounds:\n- bids:\n  - 1\n  - 0\n  - 0\n  tricks:\n"
        "  - 1\n  - 0\n  - 0\n- bids: [0, 0, 1]\n",
        # comments, blank lines, nulls (written and left empty), odd spacing
        "# a sheet\n\ntitle: Zoë's night  # ok\nplace:\nnotes: ~\nplayers:   [ Anna ,Ben, Cara ]\n"
        "rounds:\n   -    bids:\n         - -1\n         - +2\n         - null\n\n    # x\n"
        "        tricks:\nsettings:\n  zeroBid: doubleBonus\n  finalRoundBonus: 10\n",
        "players: []\nrounds:\n  - bids: []\n  -  tricks: [1]\n     bids:\n",
        "title: a, b (c) & d! e? f*g=h/i~j'k\nplayers: [x-1, -2, 3.5, Ω, 😀]\n",
        "a:\n  b:\n    c:\n      - d\n      - e: f\n        g: [h]\n  i: j\n",
    ],
)
def test_plain_sheets_are_read_as_the_parser_reads_them(text):
    assert agrees(text)
    assert agrees(text, first=41)  # the tail of a file: every line counted from its own


@pytest.mark.parametrize(
    "text",
    [
        "title: a\n  b\n",  # a value going on over lines
        "players:\n  - Anna\n    Ben\n",
        "a: 1\na: 2\n",  # a duplicate key: the parser says so
        "rounds:\n  - bids: [1]\n    bids: [2]\n",
        "title: 'Game'\n",  # quoted, tagged, anchored, aliased, flow mappings, block scalars
        'title: "Game"\n',
        "a: !!str 1\n",
        "a: &x 1\nb: *x\n",
        "bids: {Anna: 1}\n",
        "notes: |\n  text\n",
        "---\ntitle: a\n",  # documents, directives
        "title: a\n---\ntitle: b\n",
        "%YAML 1.1\n---\na: 1\n",
        "title: a\r\nplace: b\r\n",  # other line breaks, tabs, control characters
        "title: a\u2028b\n",
        "a:\tb\n",
        "a: b\x07\n",
        "- a\n- b\n",  # not a mapping
        "a\n",
        "",
        "# only a comment\n",
        "a:b\n",  # a colon or a hash inside a value
        "a: b#c\n",
        "a: [1, 2,]\n",
        "a: [1, [2]]\n",
        "a: 1\n b: 2\n",  # indentation out of step
        "a:\n    b: 1\n  c: 2\n",
        "a: 1\n- b\n",
        "players:\n  -\n  - Ben\n",  # a dash alone
        "a:\n  - b\n  c: d\n",
        f"players: [{', '.join(['p'] * 14)}]\n",  # past the bound of a players list
        "rounds:\n" + "  - bids: [1]\n" * 30,
        "k" * 1100 + ": 1\n",  # longer than a simple key may be
    ],
)
def test_what_the_plain_reader_does_not_know_is_left_to_the_parser(text):
    assert plain_block_tree(text) is None


def test_the_benchmarks_sheets_take_the_plain_reader():
    """What makes a folder of small sheets fast (bench/run.py's many-files sheet)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_run", ROOT / "bench" / "run.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = bench  # (its dataclasses look their module up)
    spec.loader.exec_module(bench)

    text = bench.yaml_sheet("Game 1", bench.game_rounds(random.Random(7)))
    assert agrees(text)


@pytest.mark.parametrize(
    "text",
    [
        BLOCK_SHEET,
        BLOCK_SHEET.replace("      - 1\n      - 0\n  - bids", "      - 9\n  - bids"),  # problems
        BLOCK_SHEET + "settings:\n  zeroBid: doubleBonus\n  nope: 1\n",
        BLOCK_SHEET + "players: [a]\n",  # a duplicate key: the parser's message
    ],
)
def test_the_cli_says_the_same_with_and_without_the_plain_reader(tmp_path, monkeypatch, text):
    """Output, messages, their lines and the exit status are the parser's, byte for byte."""
    from wizard_cli.sheets.yaml import plain_block

    sheet = tmp_path / "g.yaml"
    sheet.write_text(text, encoding="utf-8")
    fast = [run(command, sheet) for command in ("score", "check", "standings")]
    monkeypatch.setattr(plain_block, "plain_block_tree", lambda text, first=1: None)
    slow = [run(command, sheet) for command in ("score", "check", "standings")]
    assert [(r.exit_code, r.stdout, r.stderr) for r in fast] == [
        (r.exit_code, r.stdout, r.stderr) for r in slow
    ]
    assert fast[0].exit_code == (0 if text == BLOCK_SHEET else 1)


# --- generated texts -------------------------------------------------------------------------

KEYS = ["title", "players", "rounds", "bids", "tricks", "a", "Anna Lee", "x-1", "k'", "null"]
VALUES = [
    "1", "-1", "+1", "0", "007", "1.5", "~", "null", "true", "No", "2026-01-09", "Anna",
    "a b", "a  b", "Zoë", "a, b", "a:b", "a#b", "a #b", "'q'", '"q"', "!x", "&a", "*a", "[1, 2]",
    "[ ]", "[a b, c]", "[1,]", "{a: 1}", "|", ">", "-", "- x", "?", "", "%", "@", "`", ".5",
    "\u2028", "\t1", "x\x85y", "a%b", "a@b", "a|b", "a>b", "x\\y", "a]b", "a{b", "(x)", "$5",
    "=", "<<", "a'b", ";x", "a!b", "a&b", "a*b", "a\xa0b", "a\ufeffb", "é", "Zoë Ünal", "a`b",
    "a\x00b", "a\x7fb", "a\x9fb", "a\ue000b",
]  # fmt: skip
LINES = st.builds(
    lambda indent, dash, key, colon, value, comment: (
        " " * indent
        + ("- " if dash else "")
        + (f"{key}:" if colon else "")
        + (f" {value}" if value and colon else value)
        + comment
    ),
    st.integers(0, 8),
    st.booleans(),
    st.sampled_from(KEYS),
    st.booleans(),
    st.sampled_from(VALUES),
    st.sampled_from(["", "", "", " # c", "#c", "  ", " # ü"]),
)
TEXTS = st.lists(LINES, min_size=1, max_size=14).map(lambda lines: "\n".join(lines) + "\n")


def block_text(rng: random.Random) -> str:
    """A random plain block-style document: mappings and lists nested a few deep, lists
    indented under their key or not, items that are mappings, values from VALUES (some of
    which the plain reader must leave to the parser), comments and blank lines between."""
    lines: list[str] = []

    def mapping(col: int, depth: int, first_prefix: str = "") -> None:
        for number in range(rng.randint(1, 4)):
            prefix = first_prefix if number == 0 else " " * col
            key = rng.choice(KEYS)
            if depth < 3 and rng.random() < 0.4:
                lines.append(f"{prefix}{key}:")
                if rng.random() < 0.5:
                    sequence(col + rng.choice((0, 2, 3)), depth + 1)
                else:
                    mapping(col + rng.choice((1, 2, 4)), depth + 1)
            else:
                lines.append(
                    f"{prefix}{key}: {rng.choice(VALUES[:30] if rng.random() < 0.8 else VALUES)}".rstrip()
                )
            if rng.random() < 0.1:
                lines.append(rng.choice(["", "# c", " " * col + "# c ü"]))

    def sequence(col: int, depth: int) -> None:
        for _ in range(rng.randint(1, 4)):
            dash = "-" + " " * rng.choice((1, 1, 2))
            if depth < 3 and rng.random() < 0.3:
                mapping(col + len(dash), depth + 1, " " * col + dash)
            else:
                lines.append(
                    f"{' ' * col}{dash}{rng.choice(VALUES[:30] if rng.random() < 0.8 else VALUES)}"
                )

    mapping(0, 0)
    return "".join(line + "\n" for line in lines)


SHAPES = ["k: 1", "- 1", "k:", "- k:", "- k: 1", "k: [1, 2]", "# c"]
INDENTED = st.lists(
    st.tuples(st.sampled_from([0, 2, 4, 6]), st.sampled_from(SHAPES)), min_size=1, max_size=16
).map(lambda lines: "".join(" " * col + text + "\n" for col, text in lines))


@settings(
    max_examples=20_000 if SLOW else 400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.one_of(TEXTS, INDENTED, st.randoms(use_true_random=False).map(block_text)))
def test_any_text_the_plain_reader_takes_is_the_parsers_tree(text):
    agrees(text)
    agrees(text.replace("k:", "k2:", 1))  # the same shape with fewer duplicate keys


def test_the_generated_texts_reach_the_plain_reader():
    """The generated block texts are not all left to the parser (which would prove nothing)."""
    rng = random.Random(5)
    taken = sum(agrees(block_text(rng)) for _ in range(2000))
    assert taken > 200, taken


def test_a_plain_value_is_text_without_the_resolver_where_no_implicit_type_starts():
    """PyYAML is imported only when a value may be other than text (start-up matters): the
    first characters that decide it are exactly those PyYAML's resolver looks at, and a value
    starting otherwise reads as what ``safe_load`` gives."""
    from yaml.resolver import Resolver

    from wizard_cli.sheets.yaml import tree

    assert set(tree.RESOLVED_FIRST) == {key for key in Resolver.yaml_implicit_resolvers if key}
    assert None not in Resolver.yaml_implicit_resolvers  # (no resolver for every character)
    for text in ["Anna", "Game 1", "Zoë", "Ärger", "é", "Hans-Peter", "Ben 2", "Q", "_x"]:
        node = tree.Scalar(1, text, None, True)
        assert node.value() == yaml.safe_load(text) == text
    words = ["No", "yes", "~", "null", "0x1F", "1e3", ".5", "2024-01-02", "off", "Null"]
    words += ["nULL", "Nein", "oN", "ON", "Off", "TRUE", "tRUE", "y", "n", "Yes!", "Olga", "Tom"]
    words += ["FALSE", "False", "false", "nul", "NULL", "on", "yES", "Friday", "Nora", "f"]
    for text in words:
        value = tree.Scalar(1, text, None, True).value()
        assert value == yaml.safe_load(text) and type(value) is type(yaml.safe_load(text)), text


def test_a_plain_sheet_is_scored_without_importing_pyyaml(tmp_path):
    """A block-style sheet of names and numbers is read by the plain reader with no PyYAML."""
    import subprocess

    sheet = tmp_path / "s.yaml"
    sheet.write_text(
        "title: Friday night\nplayers: [Nora, Olga, Tom]\nrounds:\n"
        "  - bids: [1, 0, 0]\n    tricks: [1, 0, 0]\n"
    )
    code = (
        "import sys; sys.argv = ['wizard', 'score', sys.argv[1]]\n"
        "from wizard_cli.launcher import main\n"
        "try:\n    main()\nexcept SystemExit as done:\n    code = done.code\n"
        "print('yaml' in sys.modules, code, file=sys.stderr)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, str(sheet)], capture_output=True, text=True, timeout=120
    )
    assert result.stderr.strip().splitlines()[-1] == "False 0", result.stderr
    assert "Olga" in result.stdout and "Friday night" in result.stdout
