"""The Python library (SPEC §10), through its public names only: ``import wizard_cli as wizard``.

What it returns is what the commands print: each object's ``as_json()`` is compared with the
command's ``-f json`` output, and its problems with the command's lines on stderr.
"""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys

import pytest
from helpers import SAMPLES, WORKED, run

import wizard_cli as wizard

SEASON_CSV = SAMPLES / "season.csv"
CLUB = SAMPLES / "club-season.yaml"
BROKEN = SAMPLES / "friday-broken.yaml"
IN_PROGRESS = SAMPLES / "six-players-in-progress.yaml"


def command_json(*args: object) -> object:
    """What ``wizard ARGS… -f json`` prints, read back."""
    result = run(*args, "-f", "json")
    return json.loads(result.stdout)


# --- reading and scoring ---------------------------------------------------------------------


def test_load_and_score_the_worked_example():
    game = wizard.load(str(WORKED))
    result = wizard.score(game)
    assert isinstance(game, wizard.Game) and isinstance(result, wizard.GameResult)
    assert [(s.player, s.score) for s in result.standings] == [
        ("Ben", 140),
        ("Anna", 90),
        ("Cara", 40),
        ("Dan", -60),
    ]
    assert game.players == ("Anna", "Ben", "Cara", "Dan") and result.finished
    assert result.winners == ["Ben"]


def test_a_path_object_reads_as_its_text():
    assert (
        wizard.score(wizard.load(WORKED)).as_json()
        == wizard.score(wizard.load(str(WORKED))).as_json()
    )


def test_read_a_season_csv_with_settings_one_game_at_a_time():
    items = wizard.read(str(SEASON_CSV), settings={"zeroBidScoring": "doubleBonus"})
    assert not isinstance(items, (list, tuple))  # an iterator: the games come as they are read
    games = list(items)
    assert [type(game) for game in games] == [wizard.Game] * 3
    assert [game.game for game in games][:2] == ["2026-01-09", "2026-01-16"]
    assert {game.settings.zero_bid_scoring for game in games} == {"doubleBonus"}
    printed = command_json("standings", SEASON_CSV, "--zero-bid", "doubleBonus")
    assert [wizard.score(game).standings_json() for game in games] == printed


def test_read_a_text_and_a_binary_file_object():
    expected = wizard.score(wizard.load(str(WORKED))).as_json()
    with open(WORKED, encoding="utf-8") as text:
        from_text = wizard.score(wizard.load(text)).as_json()
    from_bytes = wizard.score(wizard.load(io.BytesIO(WORKED.read_bytes()))).as_json()
    assert from_text == expected  # named by the file object's own name
    assert from_bytes == {**expected, "source": "<stream>"}  # a stream without a name


def test_read_a_csv_from_a_nameless_text_stream():
    games = list(wizard.read(io.StringIO(SEASON_CSV.read_text(encoding="utf-8"))))
    assert [game.source for game in games] == ["<stream>"] * 3
    assert [wizard.score(g).standings[0].player for g in games] == [
        wizard.score(g).standings[0].player for g in wizard.read(str(SEASON_CSV))
    ]


def test_read_a_multi_game_yaml_stream():
    games = list(wizard.read(str(CLUB)))
    assert len(games) == 6 and all(isinstance(game, wizard.Game) for game in games)
    assert games[0].game == "jan-09" and games[0].sheet.title == "New Year's table"
    assert [wizard.score(g).as_json() for g in games] == command_json("score", CLUB)


def test_an_invalid_sheet_is_problems_located_as_the_command_says_them():
    [problems] = list(wizard.read(str(BROKEN)))
    assert isinstance(problems, wizard.Problems)
    assert problems.source == str(BROKEN) and problems.game is None
    assert all(isinstance(p, wizard.Problem) for p in problems)
    result = run("check", BROKEN)
    assert [str(p) for p in problems] == result.stderr.splitlines()
    first = problems[0]
    assert (first.source, first.game, first.line, first.round, first.player) == (
        str(BROKEN),
        None,
        7,
        None,
        None,
    )
    assert first.message == "unknown setting 'exactbonus' (did you mean 'exactBonus'?)"
    dealer = next(p for p in problems if p.player == "Ben")
    assert (dealer.line, dealer.round) == (13, 2)


def test_a_season_yields_each_invalid_game_as_its_own_problems(tmp_path):
    text = CLUB.read_text(encoding="utf-8").replace(
        "  - bids:   [0, 1, 1, 1]\n", "  - bids:   [0, 1, 1, 9]\n", 1
    )
    sheet = tmp_path / "season.yaml"
    sheet.write_text(text, encoding="utf-8")
    items = list(wizard.read(str(sheet)))
    assert [type(item) for item in items] == [wizard.Problems] + [wizard.Game] * 5
    assert items[0].game == "jan-09" and {p.game for p in items[0]} == {"jan-09"}
    assert items[0][0].round == 1 and items[0][0].player == "Dan"


def test_load_raises_with_the_problems():
    with pytest.raises(wizard.WizardError) as raised:
        wizard.load(str(BROKEN))
    assert [str(p) for p in raised.value.problems] == run("check", BROKEN).stderr.splitlines()
    with pytest.raises(wizard.WizardError, match="holds several games"):
        wizard.load(str(CLUB))
    with pytest.raises(wizard.WizardError, match="no such file: nowhere.yaml"):
        wizard.load("nowhere.yaml")


class Unread(io.RawIOBase):
    """A source that must not be read."""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        raise AssertionError("read before the settings were checked")


def test_a_bad_setting_raises_at_the_call_with_the_command_lines_text(tmp_path):
    settings = tmp_path / "house.yaml"
    settings.write_text("exactBonus: 7\n", encoding="utf-8")
    said = run("score", WORKED, "--settings", settings).stderr.strip()
    assert said.startswith(f"{settings}:1: ")
    for source in ("nowhere.yaml", Unread()):
        with pytest.raises(wizard.WizardError) as raised:
            wizard.read(source, settings={"exactBonus": 7})  # no next(): raised at the call
        assert str(raised.value) == said.split(": ", 1)[1]
    with pytest.raises(wizard.WizardError, match="did you mean 'zeroBidScoring'"):
        wizard.read(str(WORKED), settings={"zeroBid": "doubleBonus"})
    with pytest.raises(wizard.WizardError, match="input_format: 'xml'"):
        wizard.read(str(WORKED), input_format="xml")


def test_check_lists_every_problem_flat():
    assert wizard.check(str(WORKED)) == []
    problems = wizard.check(str(BROKEN))
    assert [str(p) for p in problems] == run("check", BROKEN).stderr.splitlines()
    assert wizard.check(io.StringIO("players: [A, B]\nrounds: []\n"))[0].message == (
        "a game has 3 to 6 players, this sheet has 2"
    )


def test_check_audits_typed_points(tmp_path):
    sheet = tmp_path / "typed.yaml"
    sheet.write_text(
        "players: [A, B, C]\nrounds:\n  - bids: [1, 0, 0]\n    tricks: [1, 0, 0]\n"
        "    points: [30, 20, 99]\n",
        encoding="utf-8",
    )
    assert [str(p) for p in wizard.check(str(sheet))] == run("check", sheet).stderr.splitlines()
    assert wizard.check(str(sheet)) != []


# --- every object's JSON is what its command prints ----------------------------------------


@pytest.mark.parametrize("sheet", [WORKED, IN_PROGRESS])
def test_score_and_standings_json_are_the_commands(sheet):
    result = wizard.score(wizard.load(str(sheet)))
    assert result.as_json() == command_json("score", sheet)
    assert result.standings_json() == command_json("standings", sheet)


def test_check_json_is_the_commands():
    [problems] = list(wizard.read(str(BROKEN)))
    assert problems.as_json() == command_json("check", BROKEN)


def test_next_step_on_a_game_in_progress():
    step = wizard.next_step(wizard.load(str(IN_PROGRESS)))
    assert (step.round, step.dealer, step.next_bidder, step.bids_in) == (
        7,
        "Rosa",
        "Olga",
        {"Mia": 3, "Noah": 1},
    )
    assert step.as_json() == command_json("next", IN_PROGRESS)
    assert wizard.next_step(wizard.load(str(WORKED))).as_json() == command_json("next", WORKED)


def test_compare_with_a_rule_set():
    game = wizard.load(str(WORKED))
    comparison = wizard.compare(game, [{"zeroBidScoring": "doubleBonus"}])
    assert comparison.as_json() == command_json("compare", WORKED, "--zero-bid", "doubleBonus")
    assert comparison.scores(1) == [140, 180]  # Ben, under each rule set
    assert wizard.compare(game, ["doubleZero"]).as_json() == command_json(
        "compare", WORKED, "--preset", "doubleZero"
    )
    assert wizard.compare(game).as_json() == command_json("compare", WORKED)


def test_compare_refuses_a_bad_rule_set():
    game = wizard.load(str(WORKED))
    with pytest.raises(wizard.WizardError, match="unknown preset"):
        wizard.compare(game, ["nope"])
    with pytest.raises(wizard.WizardError, match="setting exactBonus: 7 is not allowed"):
        wizard.compare(game, [{"exactBonus": 7}])


def test_compare_keeps_the_settings_the_game_was_read_with(tmp_path):
    house = tmp_path / "house.yaml"
    house.write_text("exactBonus: 30\n", encoding="utf-8")
    game = wizard.load(str(WORKED), settings={"exactBonus": 30})
    comparison = wizard.compare(game, [{"zeroBidScoring": "doubleBonus"}])
    assert [s.settings.exact_bonus for s in comparison.scored] == [30, 30]
    assert comparison.as_json() == command_json(
        "compare", WORKED, "--settings", house, "--zero-bid", "doubleBonus"
    )


@pytest.mark.parametrize("sheet", [SEASON_CSV, CLUB])
def test_stats_and_ratings_over_games_are_the_commands(sheet):
    games = [item for item in wizard.read(str(sheet)) if isinstance(item, wizard.Game)]
    assert wizard.stats(games).as_json() == command_json("stats", sheet)
    assert wizard.ratings(games).as_json() == command_json("ratings", sheet)
    results = [wizard.score(game) for game in games]  # results do as well as games
    assert wizard.stats(results).as_json() == wizard.stats(games).as_json()
    assert wizard.ratings(iter(results)).rows[0].player == wizard.ratings(games).rows[0].player


# --- a game from Python values ---------------------------------------------------------------


def test_game_new_as_the_spec_shows_it():
    game = wizard.Game.new(
        ["Anna", "Ben", "Cara"],
        rounds=[([1, 0, 0], [1, 0, 0])],
        settings={"zeroBidScoring": "doubleBonus"},
        title="Tuesday",
    )
    result = wizard.score(game)
    assert [(s.player, s.score) for s in result.standings] == [
        ("Ben", 40),
        ("Cara", 40),
        ("Anna", 30),
    ]
    assert game.sheet.title == "Tuesday" and not result.finished
    in_play = wizard.Game.new(
        ["Anna", "Ben", "Cara"],
        first_dealer="Cara",
        rounds=[([1, 0, 0], [1, 0, 0]), ([None, 1, None], None)],
    )
    step = wizard.next_step(in_play)
    assert (step.round, step.dealer, step.next_bidder) == (2, "Anna", "Cara")


def test_game_new_validates_as_a_sheet_is_validated():
    with pytest.raises(wizard.WizardError) as raised:
        wizard.Game.new(
            ["Anna", "Ben", "Cara"],
            rounds=[([1, 0, 0], [1, 1, 0]), ([1, "x", True], [0, 1, 1])],
            settings={"exactBonus": 7},
        )
    assert [str(p) for p in raised.value.problems] == [
        "setting exactBonus: 7 is not allowed (allowed: 0–50 in steps of 5)",
        "round 1: tricks add up to 2, 1 more than the hand size of 1",
        "round 2, Ben: bid 'x' is not a whole number",
        "round 2, Cara: bid 'True' is not a whole number",
    ]
    with pytest.raises(wizard.WizardError, match="a game has 3 to 6 players, this sheet has 2"):
        wizard.Game.new(["Anna", "Ben"])
    with pytest.raises(wizard.WizardError, match="players: a list of names"):
        wizard.Game.new("ABC")
    with pytest.raises(wizard.WizardError, match="bid '0.5' is not a whole number"):
        wizard.Game.new(["Anna", "Ben", "Cara"], rounds=[([0.5, 0, 0], None)])
    with pytest.raises(wizard.WizardError, match="round 1: 2 bids for 3 players"):
        wizard.Game.new(["Anna", "Ben", "Cara"], rounds=[([1, 0], [1, 0, 0])])
    with pytest.raises(wizard.WizardError, match="round 1: a round is a pair"):
        wizard.Game.new(["Anna", "Ben", "Cara"], rounds=[5])  # type: ignore[list-item]
    many = [([0, 0, 1], [0, 0, 1])] * 1000
    with pytest.raises(wizard.WizardError, match="more rounds than the game has"):
        wizard.Game.new(
            ["Anna", "Ben", "Cara"],
            rounds=many,
            settings={"roundMode": "custom", "customRoundCount": 1},
        )


# --- the package -----------------------------------------------------------------------------


def test_import_wizard_cli_imports_nothing_until_a_name_is_used():
    probe = (
        "import sys, wizard_cli as w\n"
        "heavy = ['wizard_cli.library', 'typer', 'yaml', 'tabulate', 'typing']\n"
        "print([m for m in heavy if m in sys.modules])\n"
        "w.load\n"
        "print('wizard_cli.library' in sys.modules)\n"
    )
    shown = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert shown == ["[]", "True"]


def test_the_public_names():
    assert set(wizard.__all__) >= {
        "read",
        "load",
        "check",
        "score",
        "compare",
        "stats",
        "ratings",
        "next_step",
        "Game",
        "GameResult",
        "Problem",
        "Problems",
        "WizardError",
        "__version__",
    }
    assert all(hasattr(wizard, name) for name in wizard.__all__)
    assert set(wizard.__all__) <= set(dir(wizard))
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        wizard.nope  # noqa: B018
    assert wizard.__version__ == run("--version").stdout.split()[1]


def test_the_library_prints_nothing(capsys, tmp_path):
    formula = tmp_path / "formula.csv"
    formula.write_text(
        "round,player,bid,tricks\n1,=A1,1,1\n1,Ben,0,0\n1,Cara,0,0\n", encoding="utf-8"
    )
    wizard.score(wizard.load(str(WORKED)))
    list(wizard.read(str(BROKEN)))
    list(wizard.read(str(formula)))
    wizard.check(str(BROKEN))
    games = list(wizard.read(str(CLUB)))
    wizard.stats(games), wizard.ratings(games)
    wizard.compare(games[0], [{"screwTheDealer": "always"}])
    assert capsys.readouterr() == ("", "")


# --- the README's example ---------------------------------------------------------------------


def test_the_readme_example_runs_and_prints_what_the_readme_shows():
    readme = (SAMPLES.parent / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## As a Python library\n", 1)[1].split("\n## ", 1)[0]
    code, shown = re.search(
        r"```python\n(.*?)```\n\nprints\n\n```text\n(.*?)```", section, re.S
    ).groups()
    printed = subprocess.run(
        [sys.executable, "-c", code], cwd=SAMPLES.parent, capture_output=True, text=True
    )
    assert (printed.returncode, printed.stderr) == (0, "")
    assert printed.stdout == shown
    assert "wizard.load(" in code and "wizard.read(" in code  # the example shows reading


def test_read_standard_input_as_dash():
    probe = (
        "import wizard_cli as w\n"
        "game = w.load('-')\n"
        "print(game.source, w.score(game).standings[0].player)\n"
    )
    shown = subprocess.run(
        [sys.executable, "-c", probe],
        stdin=WORKED.open("rb"),
        capture_output=True,
        text=True,
        check=True,
    )
    assert (shown.stdout, shown.stderr) == ("<stdin> Ben\n", "")


def test_nothing_below_the_command_line_prints():
    """Only cli/ and web/ write to the process's streams; every layer below hands what it has
    to say to them (SPEC §10)."""
    package = SAMPLES.parent / "wizard_cli"
    writing = re.compile(r"^\s*print\(|sys\.std(out|err)\b")
    found = [
        f"{path.relative_to(package)}:{number}"
        for path in sorted(package.rglob("*.py"))
        if path.relative_to(package).parts[0] not in ("cli", "web")
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if writing.search(line)
    ]
    assert found == []


@pytest.mark.parametrize("sample", ["worked-example.yaml", "latecomer.yaml"])
def test_a_game_is_frozen_its_worked_out_values_too(sample):
    """SPEC §10: a Game is frozen. Before, only ``settings`` was refused: ``players``, the
    status and every worked-out value took an assignment, and scoring then crashed."""
    import dataclasses

    game = wizard.load(SAMPLES / sample)
    before = wizard.score(game).as_json()
    for name in ("players", "settings", "status", "dealer", "hand_size", "in_play", "result"):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(game, name, ("X",))
        with pytest.raises(dataclasses.FrozenInstanceError):
            delattr(game, name)
    made = wizard.Game.new(["A", "B", "C"], rounds=[([1, 0, None], None)])
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.players = ("x",)  # type: ignore[misc]
    assert wizard.score(game).as_json() == before
