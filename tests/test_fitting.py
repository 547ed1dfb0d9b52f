"""Tables that fit the terminal (SPEC §5): on a terminal narrower than the score table, compact
cells, then the players split over several tables; widths in terminal columns (East Asian wide
characters count two); a table into a file or a pipe unchanged whatever COLUMNS says."""

from __future__ import annotations

import fcntl
import io
import os
import pty
import random
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest
from helpers import Terminal, run

from wizard_cli.app.batch import RuleOptions
from wizard_cli.cli.reading import Reading
from wizard_cli.output.fitting import terminal_width, text_width
from wizard_cli.output.game_views import ScoreOutput

NAMES = ["Anna", "Benedikt", "Cara", "Dmitri", "Eleonore", "Friedrich"]


def six_players(folder: Path, names=NAMES) -> Path:
    """A whole 6-player game (10 rounds), the same every time."""
    rng = random.Random(3)
    lines = ["title: Six", f"players: [{', '.join(names)}]", "rounds:"]
    for size in range(1, 11):
        tricks = [0] * 6
        for _ in range(size):
            tricks[rng.randrange(6)] += 1
        bids = [max(0, took + rng.choice([-1, 0, 0, 1])) for took in tricks]
        lines += [f"  - bids: {bids}", f"    tricks: {tricks}"]
    path = folder / "six.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def scored(path: Path):
    [result] = Reading([str(path)], RuleOptions()).scored()
    return result


SPLIT_AT_80 = """\
  Round    Cards  Dealer        Anna    Benedikt     Cara
-------  -------  ---------  -------  ----------  -------
      1        1  Anna       0/0 +20     1/1 +30  1/0 -10
      2        2  Benedikt   0/0 +20     0/0 +20  2/1 -10
      3        3  Cara       1/0 -10     1/2 -10  0/0 +20
      4        4  Dmitri     2/1 -10     1/0 -10  2/1 -10
      5        5  Eleonore   2/2 +40     3/2 -10  0/0 +20
      6        6  Friedrich  0/0 +20     1/1 +30  1/1 +30
      7        7  Anna       3/2 -10     0/0 +20  2/2 +40
      8        8  Benedikt   2/3 -10     1/0 -10  1/1 +30
      9        9  Cara       4/4 +60     1/1 +30  1/1 +30
     10       10  Dmitri     0/0 +20     1/1 +30  2/1 -10
  Total                          140         120      130

  Round    Cards  Dealer       Dmitri    Eleonore    Friedrich
-------  -------  ---------  --------  ----------  -----------
      1        1  Anna        0/0 +20     0/0 +20      1/0 -10
      2        2  Benedikt    1/0 -10     2/1 -10      0/0 +20
      3        3  Cara        0/0 +20     0/0 +20      1/1 +30
      4        4  Dmitri      2/1 -10     1/1 +30      0/0 +20
      5        5  Eleonore    2/1 -10     1/0 -10      0/0 +20
      6        6  Friedrich   1/1 +30     2/3 -10      0/0 +20
      7        7  Anna        0/1 -10     2/1 -10      1/1 +30
      8        8  Benedikt    2/2 +40     2/2 +40      0/0 +20
      9        9  Cara        0/1 -10     2/2 +40      0/0 +20
     10       10  Dmitri      4/4 +60     2/2 +40      3/2 -10
  Total                           120         150          160
"""


def test_a_six_player_table_at_80_columns_is_split_in_seating_order(tmp_path):
    result = scored(six_players(tmp_path))
    full = ScoreOutput().as_text(result, "table")
    assert max(map(text_width, full.splitlines())) == 129  # as drawn into a pipe
    fitted = ScoreOutput(80).as_text(result, "table")
    assert fitted == full.replace(full.split("\n\n")[1], SPLIT_AT_80.rstrip("\n"))
    # (the heading names the sheet by its path, whose length is the temporary folder's)
    assert max(map(len, fitted.splitlines()[1:])) <= 80


def test_compact_cells_come_first_when_they_are_enough(tmp_path):
    result = scored(six_players(tmp_path))
    [table] = ScoreOutput(100).tables(result, "table")
    assert table.splitlines()[2] == (
        "      1        1  Anna       0/0 +20     1/1 +30  1/0 -10   "
        "0/0 +20     0/0 +20      1/0 -10"
    )
    assert table.splitlines()[-1].split() == ["Total", "140", "120", "130", "120", "150", "160"]
    assert max(map(len, table.splitlines())) <= 100
    # wide enough: the table as ever; markdown is never fitted
    assert ScoreOutput(141).tables(result, "table") == ScoreOutput().tables(result, "table")
    assert ScoreOutput(40).tables(result, "markdown") == ScoreOutput().tables(result, "markdown")


def test_widths_are_terminal_columns_east_asian_wide_characters_two(tmp_path):
    assert [text_width(text) for text in ("Anna", "中村", "Zoë", "e\u0301", "ｱﾝﾅ")] == [
        4,
        4,
        3,
        1,
        3,
    ]
    result = scored(six_players(tmp_path, ["中村", "佐藤", "Cara", "鈴木", "高橋", "Dan"]))
    tables = ScoreOutput(60).tables(result, "table")
    assert len(tables) == 2
    assert max(text_width(line) for table in tables for line in table.splitlines()) <= 60
    assert max(len(line) for table in tables for line in table.splitlines()) < 60  # not len()


def test_the_width_comes_from_columns_on_a_terminal_only(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    assert terminal_width(io.StringIO()) is None  # not a terminal: a file or a pipe
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    try:
        with open(follower, "w", closefd=False) as terminal:
            assert terminal_width(terminal) == 80
            for nonsense in ("0", "-3", "wide", ""):  # else the terminal's own width
                monkeypatch.setenv("COLUMNS", nonsense)
                assert terminal_width(terminal) == 100
    finally:
        os.close(leader)
        os.close(follower)


def test_a_table_into_a_pipe_is_unchanged_whatever_columns_says(tmp_path):
    sheet = six_players(tmp_path)
    plain = run("score", sheet).stdout
    for columns in ("80", "20"):
        piped = subprocess.run(
            [sys.executable, "-m", "wizard_cli", "score", sheet],
            env={**os.environ, "COLUMNS": columns},
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert (piped.returncode, piped.stdout) == (0, plain)


@pytest.mark.skipif(not hasattr(pty, "fork"), reason="needs a pseudo-terminal (POSIX)")
def test_score_on_a_real_terminal_of_80_columns(tmp_path):
    sheet = six_players(tmp_path)
    with Terminal(["score", sheet], env={"COLUMNS": "80"}) as tty:
        tty.read_until(b"Friedrich wins")
    assert tty.exit_code == 0
    shown = bytes(tty.seen).decode().replace("\r\n", "\n")
    assert SPLIT_AT_80 in shown
    table = [line for line in shown.splitlines() if not line.startswith("Six (")]  # (its path)
    assert max(map(text_width, table)) <= 80
