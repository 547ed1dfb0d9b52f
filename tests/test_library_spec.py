"""The library (SPEC §10) as a careless or hostile caller meets it: every wrong value is a clear
:class:`wizard.WizardError` (bad input, with the problem text the command line gives) or
``TypeError`` (a value of the wrong kind), never another exception, a hang or a wrong answer."""

from __future__ import annotations

import io
import itertools
import re

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


# --- sources ---------------------------------------------------------------------------------


class FailingStream(io.RawIOBase):
    """A stream whose read fails half-way (a vanished network share)."""

    name = "share.yaml"

    def __init__(self) -> None:
        self.calls = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:  # type: ignore[no-untyped-def]
        self.calls += 1
        if self.calls > 1:
            raise OSError(5, "Input/output error")
        buffer[:9] = b"players: "
        return 9


@pytest.mark.parametrize("call", [wizard.read, wizard.load, wizard.check])
def test_a_file_object_that_cannot_be_read_is_a_wizard_error(call, tmp_path) -> None:
    closed = WORKED.open()
    closed.close()
    with pytest.raises(wizard.WizardError, match=f"^{re.escape(str(WORKED))}: cannot read: closed"):
        list(call(closed))  # (read: at the call, before anything is read)
    write_only = (tmp_path / "out.yaml").open("w")
    with (
        write_only,
        pytest.raises(wizard.WizardError, match="out.yaml: cannot read: not opened for reading"),
    ):
        list(call(write_only))
    with pytest.raises(wizard.WizardError, match="^share.yaml: cannot read: Input/output error"):
        list(call(io.BufferedReader(FailingStream(), 4)))


def test_a_bytes_path_is_a_path(tmp_path) -> None:
    # SPEC §10: source is a path; bytes are one in Python (os.fsdecode), as PathLike is
    assert wizard.load(bytes(WORKED)).players == wizard.load(WORKED).players
    with pytest.raises(wizard.WizardError, match="^no such file: nope.yaml"):
        wizard.load(b"nope.yaml")


# --- arguments of the wrong kind --------------------------------------------------------------


@pytest.mark.parametrize("call", [wizard.read, wizard.load, wizard.check])
def test_a_first_dealer_that_is_not_text_is_a_type_error(call) -> None:
    with pytest.raises(TypeError, match="first_dealer: a player's name or None, not int"):
        list(call(WORKED, first_dealer=3))


def test_game_new_keywords_of_the_wrong_kind_are_type_errors() -> None:
    with pytest.raises(TypeError, match="first_dealer: a player's name or None, not int"):
        wizard.Game.new(["Anna", "Ben", "Cara"], first_dealer=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="title: a text or None, not list"):
        wizard.Game.new(["Anna", "Ben", "Cara"], title=["x"])  # type: ignore[arg-type]


@pytest.mark.parametrize("call", [wizard.score, wizard.next_step, wizard.compare])
@pytest.mark.parametrize("value", ["friday.yaml", None, 3])
def test_what_takes_a_game_refuses_anything_else(call, value) -> None:
    with pytest.raises(TypeError, match=f"takes a Game .*, not {type(value).__name__}"):
        call(value)


@pytest.mark.parametrize("call", [wizard.stats, wizard.ratings])
def test_a_season_of_things_that_are_not_games(call) -> None:
    game = wizard.load(WORKED)
    with pytest.raises(TypeError, match="takes Games .*, not str"):
        call([game, "season.csv"])
    with pytest.raises(TypeError, match="takes Games .*, not NoneType"):
        call([None])
    # an invalid sheet handed on from read(): its problems, not a figure made without it
    broken = io.StringIO(WORKED.read_text().replace("[1, 0, 0, 0]", "[1, 0, 0, 9]", 1))
    items = [game, *wizard.read(broken)]
    assert isinstance(items[1], wizard.Problems)
    with pytest.raises(wizard.WizardError) as raised:
        call(items)
    assert problems_of(raised) == [str(problem) for problem in items[1]]
    assert call([]).as_json() == []


@pytest.mark.parametrize("rule_sets", ["official", {"zeroBidScoring": "doubleBonus"}])
def test_compare_takes_a_list_of_rule_sets_not_one(rule_sets) -> None:
    # a str or a mapping iterated would be compared as its letters or its keys
    with pytest.raises(TypeError, match="rule_sets: a list of settings mappings or preset names"):
        wizard.compare(wizard.load(WORKED), rule_sets)


class EndlessStream(io.RawIOBase):
    """A stream that never ends (``/dev/zero`` as a file object), counting what was read."""

    def __init__(self) -> None:
        self.given = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:  # type: ignore[no-untyped-def]
        buffer[:] = b"#" * len(buffer)  # one endless YAML comment
        self.given += len(buffer)
        return len(buffer)


@pytest.mark.parametrize("text", [False, True])
def test_an_endless_yaml_stream_is_too_large_not_a_hang(text: bool) -> None:
    # SPEC §4: a YAML source past 64 MiB is refused (the command line's `- < /dev/zero` says so);
    # the library copied a file object whole to disk first, so an endless one never ended
    endless = EndlessStream()
    stream = io.TextIOWrapper(io.BufferedReader(endless), "ascii") if text else endless
    with pytest.raises(wizard.WizardError, match="<stream>: larger than 64 MB: too large"):
        wizard.load(stream)
    assert endless.given <= (64 << 20) + (1 << 20)


def test_game_new_reads_an_endless_list_of_players_no_further_than_a_game_can_have() -> None:
    # (rounds were already read no further than a game can have: players were read to the end)
    with pytest.raises(wizard.WizardError) as raised:
        wizard.Game.new(f"P{n}" for n in itertools.count())
    assert problems_of(raised) == ["a game has 3 to 6 players, this sheet has more than 6"]
    with pytest.raises(wizard.WizardError) as raised:
        wizard.Game.new([f"P{n}" for n in range(100_000)])
    assert problems_of(raised) == ["a game has 3 to 6 players, this sheet has 100000"]


def test_game_new_reads_a_rounds_values_no_further_than_its_players() -> None:
    with pytest.raises(wizard.WizardError) as raised:
        wizard.Game.new(["Anna", "Ben", "Cara"], rounds=[(itertools.repeat(0), None)])
    assert problems_of(raised) == ["round 1: more than 3 bids for 3 players"]
    with pytest.raises(wizard.WizardError) as raised:
        wizard.Game.new(["Anna", "Ben", "Cara"], rounds=[([0, 0, 1], [0] * 10_000)])
    assert problems_of(raised) == ["round 1: 10000 tricks for 3 players"]


def test_what_compare_returns_is_a_public_name() -> None:
    # SPEC §10: compare(game, rule_sets) → Comparison, named beside GameResult (which was public)
    comparison = wizard.compare(wizard.load(WORKED))
    assert isinstance(comparison, wizard.Comparison) and "Comparison" in wizard.__all__


class NoDataYet(io.RawIOBase):
    """A non-blocking stream with nothing to read yet: its read() gives None."""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> None:  # type: ignore[no-untyped-def,override]
        return None


def test_a_stream_that_reads_nothing_yet_is_a_type_error() -> None:
    with pytest.raises(TypeError, match=r"^read\(\): the file object read NoneType$"):
        wizard.load(NoDataYet())
