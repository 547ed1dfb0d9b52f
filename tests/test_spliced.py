"""A text edited in place is kept as pieces of the original (editing/spliced.py, issue 21 item 4):
it reads as the text made whole would, for every question an edit asks of it."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wizard_cli.editing import spliced
from wizard_cli.editing.spliced import Spliced, blocks, digest, finditer, search

CHARS = st.sampled_from("ab:\r\n\u2028 -")
TEXTS = st.text(CHARS, max_size=40)
BREAKS = re.compile("\r\n|[\r\n\u2028]")


@st.composite
def edited(draw):
    base = draw(TEXTS)
    cuts = sorted(draw(st.lists(st.integers(0, len(base)), max_size=6)))
    edits = [(cuts[i], cuts[i + 1], draw(TEXTS)) for i in range(0, len(cuts) - 1, 2)]
    whole = base
    for start, end, new in reversed(edits):
        whole = whole[:start] + new + whole[end:]
    return base, edits, whole


@pytest.fixture(autouse=True)
def small_windows(monkeypatch):
    monkeypatch.setattr(spliced, "BLOCK", 3)  # windows of 3: every question crosses windows


@given(edited(), st.integers(0, 50), st.integers(0, 50), st.sampled_from(["a", ":", "\n", "ab"]))
def test_a_spliced_text_answers_as_the_whole_text(case, start, end, sub):
    base, edits, whole = case
    text = Spliced(base, edits)
    assert str(text) == whole and len(text) == len(whole) and text == whole
    assert "".join(blocks(text, 2)) == whole
    assert text[start:end] == whole[start:end]
    assert text.find(sub, start, end) == whole.find(sub, start, end)
    assert text.rfind(sub, start, end) == whole.rfind(sub, start, end)
    assert text.count(sub[0], start, end) == whole.count(sub[0], start, end)
    found, expected = search(BREAKS, text, start), BREAKS.search(whole, start)
    assert (found and (found.start(), found.end())) == (expected and expected.span())
    assert [m.start() for m in finditer(BREAKS, text)] == [
        m.start() for m in BREAKS.finditer(whole)
    ]
    assert digest(text) == digest(whole)


@given(edited(), edited())
def test_a_spliced_text_spliced_again_is_flattened(first, second):
    base, edits, whole = first
    again = [(min(s, len(whole)), min(e, len(whole)), new) for s, e, new in second[1]]
    twice = Spliced(Spliced(base, edits), again)
    expected = whole
    for start, end, new in reversed(again):
        expected = expected[:start] + new + expected[end:]
    assert str(twice) == expected
    assert all(isinstance(source, str) for source, _, _ in twice.parts)
