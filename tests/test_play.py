"""`wizard play`: a game at the table from prompts, from a pipe and from a real terminal."""

from __future__ import annotations

import os
import pty
import tempfile
from pathlib import Path

import pytest
from helpers import WORKED, Terminal, run
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

RULES = [
    "--set",
    "roundMode=custom",
    "--set",
    "customRoundCount=2",
    "--set",
    "screwTheDealer=always",
]

# Round 1 (Anna deals 1): an undo with nothing to undo, Ben 0, Cara 1, Anna's forbidden 0 is
# refused, help, Anna 1; tricks 0, 1, then Anna's 1 is refused at once (no trick left to give);
# an undo takes back Cara's 1: 0, then Anna's [1] taken by an empty line.
# Round 2 (Ben deals 2): Cara 2, a word that is no number, Anna 0; an undo at Ben's bid takes
# back Anna's, who bids 1; Ben 1; an undo of a trick count typed this round; the tricks 1, 1, 0.
ENTRIES = "u\n0\n1\n0\n?\n1\n\n0\n1\n1\nu\n0\n\n2\nabc\n0\nu\n1\n1\n0\nundo\n1\n1\n0\n"

TRANSCRIPT = """\
Round 1 of 2: Anna deals 1
Ben bids: u
Ben bids: 0
Cara bids (0 of 1 so far): 1
Anna bids (1 of 1 so far, not 0): 0
Anna bids (1 of 1 so far, not 0): ?
Type the number asked for (or several: 1 0 2 answers this prompt and the next two), or:
  undo (u)   take back the last entry and ask for it again
  score (s)  show the table so far
  join NAME  at a round's first bid: NAME joins from this round (leave NAME: leaves
             after the last one; out NAME: sits this round out)
  quit (q)   stop here: the sheet keeps everything written so far
  help (?)   show this
An empty line asks again (or takes the [default] offered). Bids are written to the sheet as
they are given; a round's tricks once all of them are in.
Anna bids (1 of 1 so far, not 0): 1
Ben took: 
Ben took: 0
Cara took: 1
Anna took [0]: 1
Anna took [0]: u
Cara took: 0
Anna took [1]: 

Round 1 points: Anna +30, Ben +20, Cara -10

  Rank  Player      Score
------  --------  -------
     1  Anna           30
     2  Ben            20
     3  Cara          -10

Round 2 of 2: Ben deals 2
Cara bids: 2
Anna bids (2 of 2 so far): abc
Anna bids (2 of 2 so far): 0
Ben bids (2 of 2 so far, not 0): u
Anna bids (2 of 2 so far): 1
Ben bids (3 of 2 so far): 1
Cara took: 0
Anna took: undo
Cara took: 1
Anna took: 1
Ben took [0]: 0

Round 2 points: Anna +30, Ben -10, Cara -10

  Rank  Player      Score
------  --------  -------
     1  Anna           60
     2  Ben            10
     3  Cara          -20

Game over — Anna wins
"""

REASONS = """\
nothing to undo yet
the dealer may not bid 0 under screwTheDealer=always: the bids would add up to the hand size of 1
only 0 tricks left to give
'abc' is not a whole number (type a number, or undo, quit, help)
round 2: took back Anna's bid of 0
"""


def test_a_whole_game_from_a_pipe(tmp_path):
    path = tmp_path / "friday.yaml"
    result = run("play", path, "--players", "Anna,Ben,Cara", *RULES, input=ENTRIES)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == TRANSCRIPT
    assert result.stderr == REASONS
    assert os.listdir(tmp_path) == ["friday.yaml"]


def test_play_writes_the_same_file_as_add(tmp_path, monkeypatch):
    for folder in ("played", "added"):
        (tmp_path / folder).mkdir()
    monkeypatch.chdir(tmp_path / "played")  # the same name: a new sheet's comment names its file
    assert (
        run("play", "friday.yaml", "--players", "Anna,Ben,Cara", *RULES, input=ENTRIES).exit_code
        == 0
    )
    monkeypatch.chdir(tmp_path / "added")
    assert run("new", "--players", "Anna,Ben,Cara", *RULES, "-o", "friday.yaml").exit_code == 0
    for args in (
        ["--bids", "1,0,1"],
        ["--tricks", "1,0,0"],
        ["--bids", "1,1,2"],
        ["--tricks", "1,0,1"],
    ):
        assert run("add", "friday.yaml", *args, "-q").exit_code == 0
    assert (tmp_path / "played" / "friday.yaml").read_bytes() == (
        tmp_path / "added" / "friday.yaml"
    ).read_bytes()


def test_each_bid_is_written_as_it_is_given_and_end_of_input_stops(tmp_path):
    path = tmp_path / "g.yaml"
    result = run("play", path, "--players", "A,B,C", input="1\n0\n")
    assert result.exit_code == 0
    assert result.stdout == (
        "Round 1 of 20: A deals 1\nB bids: 1\nC bids (1 of 1 so far): 0\nA bids (1 of 1 so far): \n"
    )
    assert result.stderr == f"{path}: stopped; Round 1 of 20 in play: A to bid\n"
    assert path.read_text().endswith("rounds:\n  - bids:   [null, 1, 0]\n")
    # it carries on where the sheet stands; undo at a round's first trick takes back the last bid
    more = run("play", path, input="0\nundo\n1\n1\n0\nq\n")
    assert more.exit_code == 0
    # resumed mid-round, it shows the bids already in before the next prompt (SPEC §9)
    assert more.stdout == (
        "Round 1 of 20 in play: A to bid\nRound 1 of 20: A deals 1\n"
        "Bids so far: B 1, C 0\nA bids (1 of 1 so far): 0\n"
        "B took: undo\nA bids (1 of 1 so far): 1\nB took: 1\nC took: 0\n"
        "A took [0]: q\n"
    )
    assert more.stderr == (
        f"round 1: took back A's bid of 0\n{path}: stopped; Round 1 of 20 in "
        "play: all bids in, waiting for the tricks (the tricks typed for round 1 "
        "were not written)\n"
    )
    assert path.read_text().endswith("rounds:\n  - bids:   [1, 1, 0]\n")


def test_undo_at_a_rounds_first_bid_takes_back_the_last_rounds_tricks(tmp_path):
    path = tmp_path / "g.yaml"
    assert run("play", path, "--players", "A,B,C", input="1\n0\n0\n1\n0\n0\n").exit_code == 0
    assert path.read_text().endswith("  - bids:   [0, 1, 0]\n    tricks: [0, 1, 0]\n")
    result = run("play", path, input="u\n0\n0\n1\n")
    assert result.stdout.startswith(
        "Round 2 of 20: B deals 2\nC bids: u\nB took: 0\n"
        "C took: 0\nA took [1]: 1\n\nRound 1 points: A -10, B -10, C +20\n"
    )
    assert result.stderr.startswith(
        "round 1: removed its tricks (A 0, B 1, C 0): the round is in play again\n"
    )
    assert path.read_text().endswith("  - bids:   [0, 1, 0]\n    tricks: [1, 0, 0]\n")


def test_a_finished_sheet_shows_its_final_standings():
    result = run("play", WORKED, input="")
    assert result.exit_code == 0
    assert result.stdout == (
        "  Rank  Player      Score\n------  --------  -------\n"
        "     1  Ben           140\n     2  Anna           90\n"
        "     3  Cara           40\n     4  Dan           -60\n\n"
        "Game over — Ben wins\n"
    )


def test_names_are_shown_escaped_in_prompts(tmp_path):
    path = tmp_path / "g.yaml"
    path.write_text('players: ["A\\e[31m", B, C]\nrounds: []\n')
    result = run("play", path, input="0\n0\n")
    assert "Round 1 of 20: A\\x1b[31m deals 1\n" in result.stdout
    assert "A\\x1b[31m bids (0 of 1 so far): " in result.stdout
    assert "\x1b" not in result.stdout + result.stderr


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["--players", "A,B"], 1),  # two players: a sheet problem
        (["--players", "A,B,C", "--set", "exactBonus=7"], 1),  # a bad setting
        ([], 2),  # no sheet and no --players
    ],
)
def test_a_new_sheet_needs_good_players_and_rules(tmp_path, args, code):
    path = tmp_path / "g.yaml"
    result = run("play", path, *args, input="1\n")
    assert result.exit_code == code
    assert not path.exists()
    assert os.listdir(tmp_path) == []


def test_an_existing_sheet_keeps_its_own_rules(tmp_path):
    path = tmp_path / "g.yaml"
    path.write_text("players: [A, B, C]\nrounds: []\n")
    for args in (["--players", "A,B,C"], ["--set", "exactBonus=30"]):
        result = run("play", path, *args, input="1\n")
        assert result.exit_code == 2
        assert "its own rules apply" in result.stderr
    assert run("play", "-", input="1\n").exit_code == 2
    assert path.read_text() == "players: [A, B, C]\nrounds: []\n"


def test_an_invalid_sheet_is_refused_with_its_problems(tmp_path):
    path = tmp_path / "g.yaml"
    path.write_text("players: [A, B, C]\nrounds:\n  - bids: [2, 0, 0]\n")
    result = run("play", path, input="1\n")
    assert result.exit_code == 1
    assert result.stderr == f"{path}:3: round 1, A: bid 2 is more than the hand size of 1\n"


# --- a real terminal ----------------------------------------------------------------------


@pytest.mark.skipif(not hasattr(pty, "fork"), reason="needs a pseudo-terminal (POSIX)")
def test_play_at_a_real_terminal_and_ctrl_c(tmp_path):
    path = tmp_path / "g.yaml"
    with Terminal(["play", "g.yaml", "--players", "A,B,C"], cwd=tmp_path) as tty:
        tty.read_until(b"B bids: ")
        tty.type(b"1\n")
        tty.read_until(b"C bids (1 of 1 so far): ")
        # the terminal echoes; play itself does not
        assert b"B bids: 1\r\nC bids (1 of 1 so far): " in tty.seen
        tty.interrupt()  # Ctrl-C
        tty.read_until(b"C to bid")
    assert tty.exit_code == 130, (tty.status, bytes(tty.seen))
    assert b"g.yaml: stopped; Round 1 of 20 in play: C to bid" in tty.seen
    assert Path(path).read_text().endswith("rounds:\n  - bids:   [null, 1, null]\n")


@pytest.mark.skipif(not hasattr(pty, "fork"), reason="needs a pseudo-terminal (POSIX)")
def test_at_a_terminal_a_trick_count_over_what_is_left_is_refused_as_typed(tmp_path):
    """SPEC §9: resumed mid-round, play shows the bids in; a count one above what is left is
    refused at once and only that player is asked again."""
    path = tmp_path / "g.yaml"
    path.write_text(
        "players: [A, B, C]\nsettings: {roundMode: custom, customRoundCount: 2}\n"
        "rounds:\n  - bids: [0, 0, 0]\n    tricks: [1, 0, 0]\n"
        "  - bids: [1, 0, 1]\n"
    )
    with Terminal(["play", "g.yaml"], cwd=tmp_path) as tty:
        tty.read_until(b"C took: ")
        assert b"Bids so far: C 1, A 1, B 0\r\n" in tty.seen
        tty.type(b"2\n")
        tty.read_until(b"A took: ")
        tty.type(b"1\n")
        tty.read_until(b"only 0 tricks left to give")
        tty.read_until(b"A took: ")
        tty.type(b"q\n")
        tty.read_until(b"stopped")
    assert tty.exit_code == 0, (tty.status, bytes(tty.seen))
    assert bytes(tty.seen).count(b"C took: ") == 1  # C's 2 was kept: only A asked again


# --- property: any game played from a pipe is the file add writes -----------------------------


@st.composite
def table_games(draw):
    """Players, a round count, and each round's bids and tricks in bidding order."""
    count = draw(st.integers(3, 5))
    total = draw(st.integers(1, 3))
    rounds = []
    for size in range(1, total + 1):
        bids = draw(st.lists(st.integers(0, size), min_size=count, max_size=count))
        cuts = sorted(draw(st.lists(st.integers(0, size), min_size=count - 1, max_size=count - 1)))
        rounds.append((bids, [b - a for a, b in zip([0] + cuts, cuts + [size])]))
    return ["Anna", "Ben", "Cara", "Dan", "Eve"][:count], total, rounds


@given(table_games())
@hypothesis_settings(max_examples=10, deadline=None)
def test_any_game_played_from_a_pipe_is_the_file_add_writes(game):
    names, total, rounds = game
    rules = ["--set", "roundMode=custom", "--set", f"customRoundCount={total}"]
    entries = "".join(f"{value}\n" for bids, tricks in rounds for value in bids + tricks)
    with tempfile.TemporaryDirectory() as folder:
        played, added = Path(folder) / "p", Path(folder) / "a"
        played.mkdir()
        added.mkdir()
        cwd = os.getcwd()
        try:
            os.chdir(played)
            result = run("play", "g.yaml", "--players", ",".join(names), *rules, input=entries)
            assert result.exit_code == 0, result.stderr
            assert result.stderr == ""
            assert result.stdout.rstrip().splitlines()[-1].startswith("Game over — ")
            os.chdir(added)
            assert run("new", "--players", ",".join(names), *rules, "-o", "g.yaml").exit_code == 0
            for bids, tricks in rounds:  # as called out: in bidding order
                for option, values in (("--bids", bids), ("--tricks", tricks)):
                    step = run(
                        "add", "g.yaml", "--bidding-order", option, ",".join(map(str, values)), "-q"
                    )
                    assert step.exit_code == 0, step.stderr
        finally:
            os.chdir(cwd)
        assert (played / "g.yaml").read_bytes() == (added / "g.yaml").read_bytes()


# --- where play starts, and a sheet changed under it --------------------------------------


def test_play_starts_only_a_yaml_sheet_and_creates_nothing_it_would_refuse(tmp_path):
    target = tmp_path / "new.csv"
    result = run("play", target, "--players", "A,B,C", input="")
    assert result.exit_code == 2
    assert "play starts a YAML sheet: name it .yaml or .yml" in result.stderr
    assert not target.exists()


def test_play_on_a_folder_is_a_usage_error(tmp_path):
    result = run("play", tmp_path, input="")
    assert result.exit_code == 2
    assert f"not a file: {tmp_path}" in result.stderr


def test_a_name_that_is_not_text_is_refused_before_any_sheet_is_written(tmp_path):
    target = tmp_path / "g.yaml"
    result = run("play", target, "--players", "A\udc9b,B,C", input="")
    assert result.exit_code == 2
    assert "'A\\udc9b' is not valid text" in result.stderr
    assert not target.exists()


def test_play_carries_on_where_the_sheet_stands_after_another_command_changed_it(tmp_path):
    """Another `add` lands while play waits for Ben's bid: play's write is refused, and it then
    asks for the next bid of the sheet as it now stands, not Ben's again and again."""
    import io

    from wizard_cli.cli.play import play_game

    sheet = tmp_path / "g.yaml"
    assert run("new", "--players", "Anna,Ben,Cara", "-o", sheet).exit_code == 0

    class Table(io.StringIO):
        answered = 0

        def readline(self, *args):
            self.answered += 1
            if self.answered == 1:  # someone else records Ben's bid meanwhile
                assert run("add", sheet, "--bids", "Ben=1", "-q").exit_code == 0
                return "0\n"
            return ""  # then the input ends

    out, err = io.StringIO(), io.StringIO()
    play_game(str(sheet), None, None, Table(), out, err)  # the input ends: no error
    assert out.getvalue().splitlines()[-1] == "Cara bids (1 of 1 so far): "
    assert err.getvalue() == (
        f"{sheet}: the sheet was changed meanwhile by another command: "
        "Ben's bid of 0 was not written; play carries on from where it now "
        f"stands\n{sheet}: stopped; Round 1 of 20 in play: Cara to bid\n"
    )
