"""`wizard play`, quick at the table (SPEC §5): several entries a line, prompts that carry the
bids so far and the dealer's forbidden bid, the last player's tricks offered, each round's
opening line, `score` — through CliRunner, a real pipe and a real terminal; and a sheet that
changes under play (issue 21, item 16), a 50 MB line (item 6)."""

from __future__ import annotations

import io
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import Terminal, run

ROOT = Path(__file__).resolve().parent.parent
RULES = [
    "--set",
    "roundMode=custom",
    "--set",
    "customRoundCount=2",
    "--set",
    "screwTheDealer=always",
]

# Five players, two rounds: a line of bids, a line of tricks running on into round 2's bids
# (a bid above the hand size drops the rest), the dealer's forbidden bid refused, the last
# player's tricks taken from an empty line.
QUICK = "0 1,0, 0 1\n0 0 0 0 1 1 0 7 0\n0 1 0\n1\n1,1 0 0\n\n"

QUICK_OUT = """\
Round 1 of 2: A deals 1
B bids: 0 1,0, 0 1
C bids (0 of 1 so far): 1
D bids (1 of 1 so far): 0
E bids (1 of 1 so far): 0
A bids (1 of 1 so far, not 0): 1
B took: 0 0 0 0 1 1 0 7 0
C took: 0
D took: 0
E took: 0
A took [1]: 1

Round 1 points: A +30, B +20, C -10, D +20, E +20

  Rank  Player      Score
------  --------  -------
     1  A              30
     2  B              20
     2  D              20
     2  E              20
     5  C             -10

Round 2 of 2: B deals 2
C bids: 1
D bids (1 of 2 so far): 0
E bids (1 of 2 so far): 7
E bids (1 of 2 so far): 0 1 0
A bids (1 of 2 so far): 1
B bids (2 of 2 so far, not 0): 0
B bids (2 of 2 so far, not 0): 1
C took: 1,1 0 0
D took: 1
E took: 0
A took: 0
B took [0]: 

Round 2 points: A -10, B -10, C +30, D -10, E +20

  Rank  Player      Score
------  --------  -------
     1  E              40
     2  A              20
     2  C              20
     4  B              10
     4  D              10

Game over — E wins
"""

QUICK_ERR = """\
bid 7 is more than the hand size of 2
rest of the line dropped: 0
the dealer may not bid 0 under screwTheDealer=always: the bids would add up to the hand size of 2
"""


def test_a_five_player_round_takes_a_line_of_bids_and_a_line_of_tricks(tmp_path):
    path = tmp_path / "g.yaml"
    result = run("play", path, "--players", "A,B,C,D,E", *RULES, input=QUICK)
    assert (result.exit_code, result.stdout, result.stderr) == (0, QUICK_OUT, QUICK_ERR)
    assert path.read_text().endswith(
        "  - bids:   [1, 0, 1, 0, 0]\n    tricks: [1, 0, 0, 0, 0]\n"
        "  - bids:   [1, 1, 1, 0, 0]\n    tricks: [0, 0, 1, 1, 0]\n"
    )


def test_the_same_game_through_a_real_pipe(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "wizard_cli", "play", "g.yaml", "--players", "A,B,C,D,E", *RULES],
        input=QUICK.encode(),
        capture_output=True,
        cwd=tmp_path,
        timeout=60,
    )
    assert (result.returncode, result.stdout.decode(), result.stderr.decode()) == (
        0,
        QUICK_OUT,
        QUICK_ERR,
    )


def test_a_trick_total_that_does_not_add_up_drops_the_rest_and_asks_again(tmp_path):
    path = tmp_path / "g.yaml"
    result = run("play", path, "--players", "A,B,C", input="0 0 1 0 0 0 0 1 q\n")
    assert result.exit_code == 0
    assert result.stdout == (
        "Round 1 of 20: A deals 1\nB bids: 0 0 1 0 0 0 0 1 q\n"
        "C bids (0 of 1 so far): 0\nA bids (0 of 1 so far): 1\n"
        "B took: 0\nC took: 0\nA took [1]: 0\nB took: \n"
    )
    assert result.stderr == (
        "tricks add up to 0, 1 short of the hand size of 1\n"
        "rest of the line dropped: 0 1 q\n"
        f"{path}: stopped; Round 1 of 20 in play: all bids in, waiting for "
        "the tricks\n"
    )
    assert path.read_text().endswith("  - bids:   [1, 0, 0]\n")


def test_the_offered_rest_is_never_written_unasked(tmp_path):
    path = tmp_path / "g.yaml"
    result = run("play", path, "--players", "A,B,C", input="0 0 0\n1 0\n")
    assert result.stdout.endswith("B took: 1 0\nC took: 0\nA took [0]: \n")
    assert result.stderr == (
        f"{path}: stopped; Round 1 of 20 in play: all bids in, waiting for "
        "the tricks (the tricks typed for round 1 were not written)\n"
    )
    assert path.read_text().endswith("  - bids:   [0, 0, 0]\n")
    # a count above what is left is refused at once: the rest never falls below zero
    more = run("play", path, input="1 1\n\n")
    assert more.stdout.endswith("B took: 1 1\nC took: 1\nC took: \nC took: \n")
    assert more.stderr.startswith("only 0 tricks left to give\n")


def test_a_round_dealing_the_whole_deck_opens_with_no_trump(tmp_path):
    path = tmp_path / "g.yaml"
    rounds = "".join(f"  - bids: [0, 0, 0]\n    tricks: [{size}, 0, 0]\n" for size in range(1, 20))
    path.write_text(f"players: [Anna, Ben, Cara]\nrounds:\n{rounds}")
    result = run("play", path, input="q\n")
    assert result.stdout == (
        "Round 20 of 20 next: Ben deals 20 — Anna can no longer win\n"
        "Round 20 of 20: Ben deals 20, no trump\nCara bids: q\n"
    )
    assert run("play", path, input="3\n").exit_code == 0
    # resumed after the round's first bid: the round's line and the bids already in
    assert run("play", path, input="q\n").stdout == (
        "Round 20 of 20 in play: Anna to bid — Anna can no longer win\n"
        "Round 20 of 20: Ben deals 20, no trump\nBids so far: Cara 3\n"
        "Anna bids (3 of 20 so far): q\n"
    )


def test_score_shows_the_table_so_far_and_asks_again(tmp_path):
    path = tmp_path / "g.yaml"
    result = run("play", path, "--players", "A,B,C", "--no-date", input="0 0 1 0 0 1 s\nscore\n")
    table = run("score", path).stdout
    assert result.stdout.endswith(f"C bids: s\n{table}C bids: score\n{table}C bids: \n")
    assert table.startswith(f"{path}\n\n  Round    Cards  Dealer")


def test_an_entry_in_a_line_of_50_mb_is_shown_shortened_in_bounded_memory(tmp_path):
    """Issue 21, item 6: play echoed a 50 MB line whole (on stdout, and again in the reason on
    stderr), at 330 MiB; 20 MB here: 156 MiB before, 73 MiB now."""
    line = tmp_path / "line.txt"
    line.write_text("x" * 20_000_000 + "\n")
    launcher = (
        "import os, subprocess, sys\n"
        "child = subprocess.Popen(sys.argv[2:], stdin=open(sys.argv[1]),"
        " stdout=open(os.devnull, 'w'))\n"
        "_, status, usage = os.wait4(child.pid, 0)\n"
        "print(os.waitstatus_to_exitcode(status), usage.ru_maxrss)\n"
    )
    measured = subprocess.run(
        [
            sys.executable,
            "-c",
            launcher,
            line,
            sys.executable,
            "-m",
            "wizard_cli",
            "play",
            tmp_path / "g.yaml",
            "--players",
            "A,B,C",
        ],
        capture_output=True,
        cwd=ROOT,
        timeout=120,
        text=True,
    )
    *err, last = measured.stderr.splitlines() or [""]
    code, peak_kib = map(int, measured.stdout.split())
    assert code == 0
    assert peak_kib / 1024 < 110, peak_kib
    assert err[0] == f"'{'x' * 40}…' is not a whole number (type a number, or undo, quit, help)"
    shown = run("play", tmp_path / "h.yaml", "--players", "A,B,C", input="y" * 1_000_000 + " 1 2\n")
    assert shown.stdout == f"Round 1 of 20: A deals 1\nB bids: {'y' * 40}…\nB bids: \n"
    assert shown.stderr.splitlines()[1] == "rest of the line dropped: 1 2"


# --- entries of several words (SPEC §5: a prompt answered later in the line shows the entry) ---

SPECIAL = ["--set", "specialCards=true", "--set", "roundMode=custom", "--set", "customRoundCount=2"]
# Round 1 without a card, round 2's bids, the Bomb and Cara's Cloud, and the counts, one line each
BOMB_AND_CLOUD = "0 0 0 - 0 0 1\n1 0 0 b c Cara +1 1 0 0\n"


def test_a_pipe_echoes_the_whole_bomb_and_cloud_entry(tmp_path):
    """It echoed only ``b`` (the first word of ``b c Cara +1``)."""
    from wizard_cli.cli.play import SPECIAL_PROMPT

    result = subprocess.run(
        [sys.executable, "-m", "wizard_cli", "play", "g.yaml", "--players", "Anna,Ben,Cara"]
        + SPECIAL,
        input=BOMB_AND_CLOUD.encode(),
        capture_output=True,
        cwd=tmp_path,
        timeout=60,
    )
    out = result.stdout.decode()
    assert (result.returncode, result.stderr) == (0, b""), out
    assert f"{SPECIAL_PROMPT}-\nBen took: 0\n" in out
    assert (
        "Ben bids (1 of 2 so far): 0\n"
        f"{SPECIAL_PROMPT}b c Cara +1\n"
        "Cara took: 1\nAnna took: 0\nBen took [0]: 0\n"
    ) in out
    written = (tmp_path / "g.yaml").read_text()
    assert written.endswith(
        "  - bids:   [0, 0, 1]\n    cloud: {Cara: 1}\n    tricks: [0, 0, 1]\n    bomb: true\n"
    )


def test_a_refused_entry_of_several_words_is_echoed_whole_before_its_reason(tmp_path):
    from wizard_cli.cli.play import SPECIAL_PROMPT

    path = tmp_path / "g.yaml"
    result = run("play", path, "--players", "Anna,Ben,Cara", *SPECIAL, input="0 0 0 c Cara\nq\n")
    assert result.exit_code == 0, result.stderr
    assert f"Anna bids (0 of 1 so far): 0\n{SPECIAL_PROMPT}c Cara\n{SPECIAL_PROMPT}q\n" in (
        result.stdout
    )
    assert result.stderr.startswith("c takes the player and the change of their bid: c Ben -1\n")


def test_a_pipe_echoes_the_whole_join_entry(tmp_path):
    """It echoed ``Cara bids: join`` for ``join Fay`` later in the line."""
    path = tmp_path / "g.yaml"
    lines = "1 0 0 0\n0 0 1 0\nout Dan join Fay 1 0 0 0\n"
    rules = ["--set", "roundMode=custom", "--set", "customRoundCount=2"]
    result = run("play", path, "--players", "Anna,Ben,Cara,Dan", *rules, input=lines)
    assert result.exit_code == 0, result.stderr
    assert (
        "Round 2 of 2: Ben deals 2\nCara bids: out Dan join Fay 1 0 0 0\n"
        "Round 2 of 2: Ben deals 2\nCara bids: join Fay\n"
        "Round 2 of 2: Ben deals 2\nCara bids: 1\nFay bids (1 of 2 so far): 0\n"
    ) in result.stdout
    assert "Dan sits round 2 out\nFay joins from round 2\n" in result.stderr


@pytest.mark.skipif(not hasattr(pty, "fork"), reason="needs a pseudo-terminal (POSIX)")
def test_a_terminal_shows_the_whole_bomb_and_cloud_entry_after_its_prompt(tmp_path):
    from wizard_cli.cli.play import SPECIAL_PROMPT

    args = ["play", "g.yaml", "--players", "Anna,Ben,Cara", *SPECIAL]
    with Terminal(args, cwd=tmp_path, env={"COLUMNS": "80"}) as tty:
        for line in BOMB_AND_CLOUD.splitlines():
            tty.type(line.encode() + b"\n")
        tty.read_until(b"Game over")
    assert tty.exit_code == 0, bytes(tty.seen)
    assert f"{SPECIAL_PROMPT}b c Cara +1\r\nCara took: 1\r\n".encode() in tty.seen


# --- a real terminal ----------------------------------------------------------------------


@pytest.mark.skipif(not hasattr(pty, "fork"), reason="needs a pseudo-terminal (POSIX)")
def test_a_line_of_entries_at_a_real_terminal(tmp_path):
    with Terminal(
        ["play", "g.yaml", "--players", "A,B,C"], cwd=tmp_path, env={"COLUMNS": "80"}
    ) as tty:
        tty.read_until(b"B bids: ")
        tty.type(b"1 0\n")
        tty.read_until(b"A bids (1 of 1 so far): ")
        # the terminal echoes the line typed; play writes each later prompt with its entry
        assert tty.seen.endswith(
            b"B bids: 1 0\r\nC bids (1 of 1 so far): 0\r\nA bids (1 of 1 so far): "
        )
        tty.type(b"0, 1 0\n")
        tty.read_until(b"A took [0]: ")
        assert tty.seen.endswith(
            b"A bids (1 of 1 so far): 0, 1 0\r\nB took: 1\r\nC took: 0\r\nA took [0]: "
        )
        tty.type(b"\n")
        tty.read_until(b"C bids: ")
        assert b"Round 1 points: A +20, B +30, C +20" in tty.seen
        assert b"Round 2 of 20: B deals 2\r\nC bids: " in tty.seen
        tty.type(b"q\n")
    assert tty.exit_code == 0, (tty.status, bytes(tty.seen))
    assert (
        (tmp_path / "g.yaml").read_text().endswith("  - bids:   [0, 1, 0]\n    tricks: [0, 1, 0]\n")
    )


# --- the sheet changed under play (issue 21, item 16) --------------------------------------


class Meanwhile(io.StringIO):
    """Play's input: each line given, the ``action`` done by another command just before the
    ``when``-th line is read."""

    def __init__(self, lines: list[str], when: int, action) -> None:
        super().__init__()
        self.lines, self.when, self.action, self.read = lines, when, action, 0

    def readline(self, *args):
        self.read += 1
        if self.read == self.when:
            self.action()
        return self.lines[self.read - 1] if self.read <= len(self.lines) else ""


def _play(sheet: Path, stdin: io.StringIO) -> tuple[int, str, str]:
    from wizard_cli.cli.play import play_game
    from wizard_cli.errors import WizardError

    out, err = io.StringIO(), io.StringIO()
    try:
        play_game(str(sheet), None, None, stdin, out, err)
    except WizardError as error:  # the boundary says it (one located line) and exits 1
        return 1, out.getvalue(), err.getvalue() + f"{error}\n"
    return 0, out.getvalue(), err.getvalue()


@pytest.fixture
def in_play(tmp_path) -> Path:
    """A one-round game of three whose bids are all in."""
    sheet = tmp_path / "g.yaml"
    sheet.write_text(
        "players: [A, B, C]\nsettings: {roundMode: custom, customRoundCount: 1}\n"
        "rounds:\n  - bids: [0, 1, 0]\n"
    )
    return sheet


def test_another_command_finishing_the_game_ends_play_with_the_final_standings(in_play):
    finish = lambda: run("add", in_play, "--tricks", "0,1,0", "-q")  # noqa: E731
    code, out, err = _play(in_play, Meanwhile(["1 0 0\n"], 1, finish))
    assert code == 0
    assert out.endswith(
        "A took [0]: 0\n  Rank  Player      Score\n------  --------  -------\n"
        "     1  B              30\n     2  A              20\n"
        "     2  C              20\n\nGame over — B wins\n"
    )
    assert err == (
        f"{in_play}: the sheet was changed meanwhile by another command: the tricks of "
        "round 1 were not written; play carries on from where it now stands\n"
    )
    assert in_play.read_text().endswith("    tricks: [0, 1, 0]\n")


def test_an_outside_undo_is_said_as_play_sees_it(in_play):
    undo = lambda: run("undo", in_play, "-q")  # noqa: E731
    code, out, err = _play(in_play, Meanwhile(["1 0 0\n"], 1, undo))
    assert code == 0
    assert out.endswith("A took [0]: 0\nRound 1 of 1: A deals 1\nB bids: \n")
    assert err == (
        f"{in_play}: the sheet was changed meanwhile by another command: the tricks of "
        "round 1 were not written; play carries on from where it now stands\n"
        f"{in_play}: stopped; Round 1 of 1 next: A deals 1\n"
    )


def test_a_deleted_sheet_stops_play(in_play):
    code, out, err = _play(in_play, Meanwhile(["1\n", "0 0\n"], 2, in_play.unlink))
    assert code == 1
    assert err == (
        f"{in_play}: the sheet is no longer there (deleted or moved meanwhile): the "
        "tricks of round 1 were not written; play stops\n"
    )
    assert os.listdir(in_play.parent) == []


def test_a_trick_count_above_what_is_left_is_refused_at_once_and_only_it_asked_again(tmp_path):
    """SPEC §9: with 3 cards and 2 tricks given, a 2 is refused (`only 1 trick left to give`)
    and only that player is asked again; the counts already typed stay."""
    path = tmp_path / "g.yaml"
    path.write_text(
        "players: [A, B, C]\nsettings: {roundMode: custom, customRoundCount: 3}\n"
        "rounds:\n  - bids: [0, 0, 0]\n    tricks: [1, 0, 0]\n"
        "  - bids: [0, 0, 0]\n    tricks: [0, 2, 0]\n  - bids: [1, 1, 0]\n"
    )
    result = run("play", path, input="2\n2\n3\n1\n\n")
    assert result.exit_code == 0
    assert result.stdout.split("\n")[3:8] == [
        "A took: 2",
        "B took: 2",
        "B took: 3",
        "B took: 1",
        "C took [0]: ",
    ]
    assert result.stderr == "only 1 trick left to give\nonly 1 trick left to give\n"
    assert path.read_text().endswith("    tricks: [2, 1, 0]\n")


def test_an_edit_of_another_round_meanwhile_does_not_refuse_plays_next_entry(tmp_path):
    """Another command edits round 1 while play waits for round 2's tricks: the step play
    records is still the one in turn, so it is written (SPEC §9), over the edit, which stays."""
    sheet = tmp_path / "g.yaml"
    sheet.write_text(
        "players: [A, B, C]\nsettings: {roundMode: custom, customRoundCount: 2}\n"
        "rounds:\n  - bids: [0, 0, 0]\n    tricks: [1, 0, 0]\n"
        "  - bids: [0, 1, 0]\n"
    )
    edit = lambda: run("edit", sheet, "--round", "1", "--tricks", "0,1,0", "-q")  # noqa: E731
    code, out, err = _play(sheet, Meanwhile(["1 0 1\n"], 1, edit))
    assert code == 0
    assert err == "", err
    assert "Game over" in out
    text = sheet.read_text()
    assert "tricks: [0, 1, 0]" in text  # the other command's edit of round 1, kept
    assert text.endswith("    tricks: [0, 1, 1]\n")  # and play's round 2 (C, A, B)


def test_a_change_to_the_step_in_turn_meanwhile_still_refuses(tmp_path):
    """The step play would record was taken by another command (the bid it asks for): refused,
    as before, and play carries on from where the sheet stands."""
    sheet = tmp_path / "g.yaml"
    sheet.write_text(
        "players: [A, B, C]\nsettings: {roundMode: custom, customRoundCount: 2}\n"
        "rounds:\n  - bids: [0, 0, 0]\n    tricks: [1, 0, 0]\n"
    )
    bid = lambda: run("add", sheet, "--bids", "C=1", "-q")  # noqa: E731
    code, out, err = _play(sheet, Meanwhile(["0\n"], 1, bid))
    assert code == 0
    assert err.startswith(
        f"{sheet}: the sheet was changed meanwhile by another command: C's bid of 0 was not written"
    )
    assert sheet.read_text().endswith("  - bids: [null, null, 1]\n")  # the other's bid alone
