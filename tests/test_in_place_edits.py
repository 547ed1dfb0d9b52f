"""In-place edits of unusual sheets (issue 21): a stream ending in a stray ``---`` (item 8),
``rounds:`` or no ``rounds`` key given back exactly by undo, NEL and U+2028 line breaks (item 17).
Each is edited like the reader reads it, and add then undo restores the file byte for byte
(SPEC §5)."""

from __future__ import annotations

import pytest
from helpers import ONE_ROUND, run

GAME = "players: [Anna, Ben, Cara]\nrounds:\n  - bids: [1, 0, 0]\n    tricks: [1, 0, 0]\n"


@pytest.mark.parametrize("tail", ["---\n", "---", "--- \n...\n", "---\n---\n", "---\n# over\n"])
def test_a_sheet_ending_in_a_stray_document_marker_is_edited_like_it_is_read(write, tail):
    path = write("s.yaml", GAME + tail)
    assert run("check", path).stdout == f"{path}: ok\n"
    result = run("add", path, "--bids", "0,1,1", "-q")
    assert (result.exit_code, result.stderr) == (0, "")
    assert path.read_text() == GAME + "  - bids: [0, 1, 1]\n" + tail
    result = run("edit", path, "--round", "2", "--bids", "1,1,1", "-q")
    assert (result.exit_code, result.stderr) == (0, "")
    assert path.read_text() == GAME + "  - bids: [1, 1, 1]\n" + tail
    result = run("undo", path, "-q")
    assert result.exit_code == 0, result.stderr
    assert path.read_text() == GAME + tail


def test_play_records_into_a_sheet_ending_in_a_stray_document_marker(write):
    path = write("s.yaml", GAME + "---\n")
    result = run("play", path, input="0\n1\n1\n1\n0\n1\nq\n")  # Ben deals: Cara bids first
    assert result.exit_code == 0, result.stderr
    assert "cannot edit" not in result.stderr
    assert path.read_text() == GAME + "  - bids: [1, 1, 0]\n    tricks: [0, 1, 1]\n---\n"


@pytest.mark.parametrize("newline", ["\x85", "\u2028", "\u2029", "\r\n", "\r"])
def test_a_sheet_of_other_line_breaks_is_edited_with_its_own(write, newline):
    """NEL, U+2028 and U+2029 end a line in YAML: new lines end the same, and add then undo
    gives the file back exactly (item 17)."""
    original = GAME.replace("\n", newline)
    path = write("s.yaml", original)
    assert run("add", path, "--bids", "0,1,1", "-q").exit_code == 0
    with_bids = original + "  - bids: [0, 1, 1]" + newline
    assert path.read_bytes() == with_bids.encode()
    assert run("add", path, "--tricks", "0,1,1", "-q").exit_code == 0
    assert path.read_bytes() == (with_bids + "    tricks: [0, 1, 1]" + newline).encode()
    result = run("undo", path, "-q")
    assert result.exit_code == 0, result.stderr
    assert path.read_bytes() == with_bids.encode()
    assert run("undo", path, "-q").exit_code == 0
    assert path.read_bytes() == original.encode()


ONE_ROUND_TEXT = ONE_ROUND.read_text()


@pytest.mark.parametrize(
    "edited",
    [
        "title: Another\n" + ONE_ROUND_TEXT,  # metadata
        ONE_ROUND_TEXT.replace("[A, B, C]", "[A, B, D]"),  # players
        "settings: {exactBonus: 20}\n"
        + ONE_ROUND_TEXT,  # a setting written, though its value is the default
        ONE_ROUND_TEXT.replace("bids: [1, 0, 0]", "bids: [0, 1, 0]"),  # a round other than expected
    ],
)
def test_a_change_that_touches_what_it_must_leave_is_refused(edited):
    """checked_change, the one check of every in-place change, holds a sheet's metadata,
    players, first dealer and settings as written (left_as_it_was) and its rounds to the ones
    the change expects (bare_rounds): any other difference is refused, nothing written."""
    from wizard_cli.app.recording import UNSAFE, bare_round, bare_rounds, checked_change, read_text
    from wizard_cli.errors import WizardError

    before = read_text(ONE_ROUND_TEXT, "g.yaml")
    expected = bare_rounds(before.game.sheet) + [bare_round(2, [0, 0, 1])]
    added = ONE_ROUND_TEXT + "  - bids: [0, 0, 1]\n"
    assert bare_rounds(checked_change(before, added, expected).game.sheet) == expected
    with pytest.raises(WizardError) as refused:
        checked_change(before, edited + "  - bids: [0, 0, 1]\n", expected)
    assert [p.message for p in refused.value.problems] == [UNSAFE]
