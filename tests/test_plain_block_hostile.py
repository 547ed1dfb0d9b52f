"""A hostile review of the plain block-style YAML reader (sheets/yaml/plain_block.py): texts
chosen or generated to make it read a sheet differently from the parser (libyaml's, or PyYAML's
own where libyaml is not installed), say something else on the command line, or go slowly.

Each pinned case failed before its fix: a ``[list]`` item with a space past ASCII (U+3000 and
the like, which ``str.strip`` takes and YAML keeps) lost it; a long line of spaces that the
line pattern does not know took seconds (its quantifiers backtracked quadratically); a ``?``
inside a ``[list]``, an error to PyYAML's own parser, was read as a value.
The CI run is a few hundred generated texts; ``WIZARD_SLOW=1`` runs many thousands.
"""

from __future__ import annotations

import os
import random
import time

import pytest
import yaml
from helpers import run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_plain_block import agrees

from wizard_cli.sheets.yaml import plain_block, tree
from wizard_cli.sheets.yaml.plain_block import plain_block_tree

SLOW = os.environ.get("WIZARD_SLOW") == "1"
# The parsers tree.Loader may be: libyaml's, and PyYAML's own where libyaml is not installed.
PARSERS = sorted({tree.Loader, yaml.SafeLoader}, key=lambda loader: loader.__name__)

# Spaces that are not YAML's (only U+0020 and tab are): part of a plain value, never around it.
WIDE_SPACES = ["\u3000", "\u2003", "\u1680", "\u205f", "\u2007", "\u200a"]


@pytest.mark.parametrize("space", WIDE_SPACES)
@pytest.mark.parametrize(
    "shape",
    [
        "players: [Anna{s}, Ben]\n",  # after a name
        "players: [{s}Anna, Ben]\n",  # before it
        "players: [{s}]\n",  # a name that is only that space (the list is not empty)
        "players: [Anna, {s}{s} ]\n",
        "rounds:\n  - bids: [1, 0{s}]\n",
    ],
)
def test_a_space_past_ascii_in_a_list_is_kept_as_the_parser_keeps_it(shape, space):
    assert agrees(shape.format(s=space))


@pytest.mark.parametrize("parser", PARSERS, ids=lambda loader: loader.__name__)
@pytest.mark.parametrize(
    "text", ["a: [a?b]\n", "players: [x, a?b]\n", "a: [a ?b]\n", "a: [b?]\n", "a: a?b\n"]
)
def test_a_question_mark_in_a_list_is_read_as_either_parser_reads_it(monkeypatch, parser, text):
    """PyYAML's own parser ends a plain value at ``?`` inside ``[...]`` (libyaml does not):
    what one parser refuses, the plain reader must not take."""
    monkeypatch.setattr(tree, "Loader", parser)
    agrees(text)


SHEET = """\
players: [{first}, Ben, Cara]
rounds:
  - bids: [1, 0, 0]
    tricks: [1, 0, 0]
"""


@pytest.mark.parametrize("first", ["Anna\u3000", "\u3000", "Anna"])
def test_the_cli_says_the_same_of_a_wide_space_with_and_without_the_plain_reader(
    tmp_path, monkeypatch, first
):
    sheet = tmp_path / "g.yaml"
    sheet.write_text(SHEET.format(first=first), encoding="utf-8")
    commands = (("score", "-f", "json"), ("check",))
    fast = [run(*command, sheet) for command in commands]
    monkeypatch.setattr(plain_block, "plain_block_tree", lambda text, first=1: None)
    slow = [run(*command, sheet) for command in commands]
    assert [(r.exit_code, r.stdout, r.stderr) for r in fast] == [
        (r.exit_code, r.stdout, r.stderr) for r in slow
    ]
    if first.strip():
        assert first in fast[0].stdout  # the name as written, U+3000 and all
    else:  # a name of spaces, wide ones too, is empty (SPEC §4): kept, so validation sees it
        assert fast[1].exit_code == 1
        assert fast[1].stderr.endswith(":1: a player's name is empty\n")


LONG = 60_000
SLOW_LINES = {
    "indentation, then a tab": " " * LONG + "\t\n",
    "a dash and spaces, then a tab": "-" + " " * LONG + "\t\n",
    "an open list of spaces": "a: [" + " " * LONG + "\n",
    "a list of spaces, then a comma": "a: [" + " " * LONG + "x ,\n",
    "a value, spaces, then a tab": "a: x" + " " * LONG + "\t\n",
    "a key of words": "a " * (LONG // 2) + "\t\n",
    "a list of words": "a: [" + "x , " * (LONG // 4) + "\t]\n",
    "a colon and spaces, then a tab": "a:" + " " * LONG + "\t\n",
}


@pytest.mark.parametrize("line", SLOW_LINES.values(), ids=list(SLOW_LINES))
def test_a_long_line_the_reader_does_not_know_is_refused_at_once(line):
    """A 60 KB line is seconds of regex backtracking where a quantifier gives back spaces that
    what follows could take as well; it is milliseconds where the pattern is linear."""
    start = time.perf_counter()
    assert plain_block_tree(line) is None
    assert plain_block_tree("title: x\n" + line + "players: [a]\n") is None
    assert time.perf_counter() - start < 0.5


def test_a_long_plain_line_is_still_taken():
    """The linear pattern still knows long lines of spaces (blank, indented, spaced values)."""
    half = LONG // 2  # the whole text within the reader's MAX_CHARS
    text = "a: x" + " " * half + "y   # c\n" + " " * half + "\nb: [" + " " * 999 + "]\n"
    start = time.perf_counter()
    assert agrees(text)
    assert time.perf_counter() - start < 0.5


# --- generated texts -------------------------------------------------------------------------

ATOMS = [
    "a", "Anna Lee", "players", "rounds", "bids", "1", "-1", "-0", "+1", ".5", "0x1F", "0o7",
    "1_000", "1e3", ".inf", "yes", "No", "on", "~", "null", "2024-01-02", "12:30", "x-y",
    "a  b", "é", "e\u0301", "😀", "中文", "x\u200b", "\ufffd", "a'b", "<<", "=", "a?b",
    "a!b", "a%b", "a,b", "(x)", "\U0010fffd", "a - b", "a: b", "a #b", "a#b", "- x", "\u0085",
    "\u2028", "x\ufeff", "\xa0", "\t", "'q'", "[x]", "?", "",
]  # fmt: skip
VALUES = st.one_of(
    st.sampled_from(ATOMS + WIDE_SPACES),
    st.builds(
        lambda atom, space: atom + space, st.sampled_from(ATOMS), st.sampled_from(WIDE_SPACES)
    ),
    st.lists(st.sampled_from(ATOMS + WIDE_SPACES), max_size=4).map(
        lambda items: "[" + ", ".join(items) + "]"
    ),
)
COMMENTS = st.sampled_from(["", "", "", " # c", "  #\tx", " #", "   ", "#c", " # ü\u3000"])
LINES = st.one_of(
    st.builds(
        lambda indent, dashes, key, value, comment: (
            " " * indent
            + "- " * dashes
            + (f"{key}:" if key is not None else "")
            + (f" {value}" if key is not None and value else value)
            + comment
        ),
        st.sampled_from([0, 0, 1, 2, 2, 3, 4, 4, 6, 8]),
        st.sampled_from([0, 0, 0, 1, 1, 2]),
        st.one_of(st.none(), st.sampled_from(ATOMS)),
        st.one_of(st.just(""), VALUES),
        COMMENTS,
    ),
    st.sampled_from(["", "  ", "# c", "   # c", "---", "...", "\ufeff"]),
)
TEXTS = st.builds(
    lambda lines, end: "\n".join(lines) + end,
    st.lists(LINES, min_size=1, max_size=12),
    st.sampled_from(["\n", "", "\n\n", "\r\n"]),
)


@settings(
    max_examples=20_000 if SLOW else 300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@pytest.mark.parametrize("parser", PARSERS, ids=lambda loader: loader.__name__)
@given(text=TEXTS)
def test_any_generated_text_the_plain_reader_takes_is_the_parsers_tree(parser, text):
    saved, tree.Loader = tree.Loader, parser  # (a fixture would outlive each example)
    try:
        agrees(text)
        agrees(text, first=17)
    finally:
        tree.Loader = saved


# --- the command line, both ways ---------------------------------------------------------------

GAME = """\
title: Game 1
players: [Anna, Ben, Cara]
rounds:
  - bids: [0, 1, 0]
    tricks: [0, 1, 0]
  - bids:
      - 1
      - 0
      - 1
    tricks: [1, 1, 0]
"""
EDITS = [
    "x\u3000", "\u3000", "No", "yes", "~", "", "-1", "+1", "0x1F", "0o7", "1_000", ".5", "1e3",
    "-0", "2024-01-02", "null", "a b", "12:30", "9", "07", "true", "\ufeff",
]  # fmt: skip
EXTRA_LINES = [
    "", "# c", "   ", "settings:", "  zeroBid: doubleBonus", "notes:", "place: x",
    "firstDealer: Ben", "date: 2024-01-02", "game: 3", "bomb: 1", "players: [a]",
]  # fmt: skip


def edited_game(rng: random.Random) -> str:
    """GAME with a few lines edited: a value swapped for a YAML 1.1 look-alike or a wide
    space, a line indented out of step, a line added or removed, a comment after a value."""
    lines = GAME.splitlines()
    for _ in range(rng.randint(1, 3)):
        at = rng.randrange(len(lines))
        choice = rng.random()
        if choice < 0.4:
            for value in ("0", "1", "Anna", "Ben", "Game 1"):
                if value in lines[at]:
                    lines[at] = lines[at].replace(value, rng.choice(EDITS), 1)
                    break
        elif choice < 0.55:
            lines[at] = " " + lines[at]
        elif choice < 0.75:
            lines.insert(at, rng.choice(EXTRA_LINES))
        elif choice < 0.9:
            lines[at] += rng.choice([" # c", "  "])
        else:
            del lines[at]
    return "\n".join(lines) + rng.choice(["\n", ""])


@settings(
    max_examples=2_000 if SLOW else 25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.randoms(use_true_random=False))
def test_the_cli_says_the_same_of_edited_games_with_and_without_the_plain_reader(
    tmp_path, monkeypatch, rng
):
    """Scores, messages, their lines and exit statuses, byte for byte."""
    sheet = tmp_path / "g.yaml"
    sheet.write_text(edited_game(rng), encoding="utf-8")
    commands = (("score", "-f", "json"), ("check",))
    with monkeypatch.context() as patch:
        fast = [run(*command, sheet) for command in commands]
        patch.setattr(plain_block, "plain_block_tree", lambda text, first=1: None)
        slow = [run(*command, sheet) for command in commands]
    assert [(r.exit_code, r.stdout, r.stderr) for r in fast] == [
        (r.exit_code, r.stdout, r.stderr) for r in slow
    ]


def test_the_edited_games_reach_the_plain_reader():
    """The edited games are not all left to the parser (which would prove nothing)."""
    rng = random.Random(3)
    taken = sum(plain_block_tree(edited_game(rng)) is not None for _ in range(500))
    assert taken > 100, taken
