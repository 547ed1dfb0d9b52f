"""The library (SPEC §10) as a careless or hostile caller meets it: every wrong value is a clear
:class:`wizard.WizardError` (bad input, with the problem text the command line gives) or
``TypeError`` (a value of the wrong kind), never another exception, a hang or a wrong answer."""

from __future__ import annotations

import io

import pytest
from helpers import WORKED

import wizard_cli as wizard


def problems_of(error: pytest.ExceptionInfo[wizard.WizardError]) -> list[str]:
    return [str(problem) for problem in error.value.problems]


# --- Game.new --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "players, message",
    [
        (["Anna", "Anna", "Cara"], "player 'Anna' is listed twice"),
        (["", "Ben", "Cara"], "a player's name is empty"),
        ([None, "Ben", "Cara"], "a player's name is empty"),
    ],
)
def test_game_new_refuses_the_names_a_sheet_may_not_have(players: list, message: str) -> None:
    # SPEC §4: duplicate or empty names are problems, in a sheet and from Python alike
    with pytest.raises(wizard.WizardError) as raised:
        wizard.Game.new(players, rounds=[([0, 0, 1], [0, 0, 1])])
    assert problems_of(raised) == [message]
    sheet = WORKED.read_text().replace("[Anna, Ben, Cara, Dan]", "[Anna, Anna, Cara, Dan]")
    assert "listed twice" in str(wizard.check(io.StringIO(sheet))[0])


def test_a_name_of_spaces_is_empty_in_a_sheet_and_from_python(tmp_path) -> None:
    # validation's own rule (a name that strips to nothing is empty) held only on its slow path
    with pytest.raises(wizard.WizardError) as raised:
        wizard.Game.new(["  ", "Ben", "Cara"])
    assert problems_of(raised) == ["a player's name is empty"]
    sheet = tmp_path / "blank.yaml"
    sheet.write_text('players: ["  ", Ben, Cara]\nrounds: []\n')
    assert [str(p) for p in wizard.check(sheet)] == [f"{sheet}:1: a player's name is empty"]
