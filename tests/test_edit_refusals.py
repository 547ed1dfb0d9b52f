"""The in-place editor (``editing/round_edits.py``) trusts that a step's change is one to make,
but a layout it cannot edit is refused as the usual error, never a traceback: each step here
asks for a value the text does not hold where that step needs it (the commands check the game
first, so these are the editor's own safety net, typed since issue 30 item 5)."""

from __future__ import annotations

import pytest

from wizard_cli.editing import round_edits as editing
from wizard_cli.errors import WizardError

PLAYERS = ["A", "B", "C"]
SCALAR_BIDS = "players: [A, B, C]\nrounds:\n  - bids: 3\n"


@pytest.mark.parametrize(
    ("step", "message"),
    [
        (
            lambda: editing.fill_bids(SCALAR_BIDS, PLAYERS, {0: 1}),
            "cannot edit: the round's bids are not a list or a mapping",
        ),
        (
            lambda: editing.remove_bid(SCALAR_BIDS, PLAYERS, 0),
            "cannot edit: the round's bids are not a list or a mapping",
        ),
        (
            lambda: editing.add_tricks("players: [A, B, C]\nrounds:\n  - {}\n", PLAYERS, [0, 1, 0]),
            "cannot edit: no 'bids' where the sheet should have it",
        ),
        (
            lambda: editing.remove_tricks(SCALAR_BIDS),
            "cannot edit: no 'tricks' where the sheet should have it",
        ),
        (
            lambda: editing.set_round_key(SCALAR_BIDS, 1, "bomb", None),
            "cannot edit: no 'bomb' where the sheet should have it",
        ),
        (
            lambda: editing.remove_last_round("players: [A, B, C]\n"),
            "cannot edit: no 'rounds' where the sheet should have it",
        ),
        (
            lambda: editing.remove_last_round("players: [A, B, C]\nrounds: []\n"),
            "cannot edit: the sheet has no round to take back",
        ),
    ],
)
def test_a_layout_the_editor_cannot_edit_is_refused_not_a_traceback(step, message):
    with pytest.raises(WizardError) as raised:
        step()
    assert [problem.message for problem in raised.value.problems] == [message]
