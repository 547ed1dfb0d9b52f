"""A workbook is read in a fenced child process (SPEC §3 "Workbooks", §4): whatever the child
does — dies by a signal, passes its memory or CPU limit, stalls, sends garbage — is one line
naming the workbook, exit 1; and it is killed and reaped however the reading ends (the parent
stopping early, Ctrl-C).

Where the point is the child misbehaving, a module of the test's own stands in for
``wizard_cli.sheets.workbook.child`` (``CHILD_MODULE``), started the same way: a clean
interpreter, fenced by the real :func:`~wizard_cli.sheets.workbook.child.fence`.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import workbook_bombs as bombs
from helpers import SAMPLES, run

from wizard_cli.errors import WizardError
from wizard_cli.sheets.workbook import reader as workbook
from wizard_cli.sheets.workbook.frames import frame

pytest.importorskip("python_calamine", reason="the xlsx extra (python-calamine) is not installed")

ROOT = Path(__file__).resolve().parent.parent
BOOK = SAMPLES / "worked-example.xlsx"
UNREADABLE = "not readable as a workbook: "


def stand_in(monkeypatch, tmp_path, body: str) -> None:
    """Make the child a module ``stand_in`` whose ``main(argv)`` fences itself as the real one
    does, then runs ``body`` (with ``out``, its standard output's file descriptor, and
    ``frames``)."""
    (tmp_path / "stand_in.py").write_text(
        "import os, sys, time\n"
        "from wizard_cli.sheets.workbook import frames\n"
        "from wizard_cli.sheets.workbook.child import fence\n"
        "def main(argv):\n"
        "    fence(int(argv[0]), int(argv[1]))\n"
        "    out = 1\n" + "".join(f"    {line}\n" for line in body.splitlines())
    )
    monkeypatch.setattr(workbook, "CHILD_MODULE", "stand_in")
    monkeypatch.setattr(workbook, "CHILD_PATH", [*workbook.CHILD_PATH, str(tmp_path)])


def one_line(result, message: str, path=BOOK) -> None:
    assert (result.exit_code, result.stderr) == (1, f"{path}: {message}\n")


def readers_of(path) -> list[int]:
    """The processes whose command line names ``path`` (the children reading it)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != os.getpid():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as handle:
                    line = handle.read()
            except OSError:
                continue
            if str(path).encode() in line and b"\0-I\0" in line:  # the child's, not wizard's
                found.append(int(entry))
    return found


def test_the_sample_is_read_through_a_child(monkeypatch):
    """The real child: the sample reads as before, and no child is left."""
    result = run("check", BOOK)
    assert (result.exit_code, result.stdout) == (
        0,
        f"{BOOK}, game Freitag: ok\n{BOOK}, game Wide: ok\n",
    )
    assert not readers_of(BOOK)


@pytest.mark.parametrize(
    "kill, message",
    [
        ("SIGKILL", "its reader was stopped by SIGKILL"),
        (
            "SIGSEGV",
            "its reader was stopped by SIGSEGV: the workbook needs more than 250 MiB to "
            "read, or is made to break its parser",
        ),
        (
            "SIGABRT",
            "its reader was stopped by SIGABRT: the workbook needs more than 250 MiB to "
            "read, or is made to break its parser",
        ),
    ],
)
def test_a_child_killed_by_a_signal_is_one_line(monkeypatch, tmp_path, kill, message):
    stand_in(monkeypatch, tmp_path, f"import signal\nos.kill(os.getpid(), signal.{kill})")
    one_line(run("check", BOOK), UNREADABLE + message)


def test_a_child_that_exits_before_the_end_is_one_line(monkeypatch, tmp_path):
    stand_in(
        monkeypatch,
        tmp_path,
        "os.write(out, frames.frame(b'H', frames.encode([0, 'S', 1, 'round', 'A', 'B'])))\n"
        "os.write(out, frames.frame(b'D'))\nos._exit(3)",
    )
    one_line(
        run("check", BOOK), UNREADABLE + "its reader stopped with exit status 3 before the end"
    )


def test_a_child_over_its_cpu_time_is_stopped(monkeypatch, tmp_path):
    monkeypatch.setattr(workbook, "CPU_SECONDS", 1)
    stand_in(monkeypatch, tmp_path, "while True:\n    pass")
    started = time.monotonic()
    one_line(run("check", BOOK), UNREADABLE + "reading it took more than 1 s of CPU time")
    assert time.monotonic() - started < 10


def test_a_child_that_stalls_is_stopped_by_the_wall_clock(monkeypatch, tmp_path):
    """Blocked, a child spends no CPU time: the reader's own clock stops it, and reaps it."""
    monkeypatch.setattr(workbook, "WALL_SECONDS", 1)
    stand_in(monkeypatch, tmp_path, f"time.sleep(600)  # {tmp_path}")
    started = time.monotonic()
    one_line(run("check", BOOK), UNREADABLE + "its reader gave no answer within 1 s")
    assert time.monotonic() - started < 10
    assert not readers_of(tmp_path)


def test_the_wall_clock_counts_all_the_waiting(monkeypatch, tmp_path):
    """A child that sends a first row now and then never runs past the clock in all."""
    monkeypatch.setattr(workbook, "WALL_SECONDS", 2)
    stand_in(
        monkeypatch,
        tmp_path,
        "for index in range(100):\n"
        "    os.write(out, frames.frame(b'H', frames.encode([index, 'S', 1, 'x'])))\n"
        "    time.sleep(0.5)",
    )
    result = run("check", BOOK)
    assert result.exit_code == 1
    assert (
        result.stderr.splitlines()[-1] == f"{BOOK}: {UNREADABLE}its reader gave no answer "
        "within 2 s"
    )  # after a note for each worksheet holding no sheet


GARBLED = UNREADABLE + "its reader sent what is not a workbook's rows ({})"


@pytest.mark.parametrize(
    "sent, what",
    [
        (b"garbage, not frames", "a frame of 1,634,886,241 bytes"),
        (frame(b"X", b"garbage"), "a frame b'X' among the first rows"),
        (b"H\xff\xff\xff\xff", "a frame of 4,294,967,295 bytes"),
        (frame(b"H", b"a\xffS\xff1\xffx"), "invalid literal for int() with base 10: 'a'"),
        (frame(b"H", b"0\xffS\xff1\xff\xc3("), "not UTF-8"),
        (frame(b"H", b"0\xffS\xff1\xff \xff "), "a blank first row"),
        (frame(b"P", b"one"), "not enough values to unpack (expected 3, got 1)"),
    ],
    ids=["text", "kind", "huge", "number", "utf-8", "blank", "problem"],
)
def test_garbage_from_the_child_is_one_line(monkeypatch, tmp_path, sent, what):
    stand_in(monkeypatch, tmp_path, f"os.write(out, {sent!r})")
    one_line(run("check", BOOK), GARBLED.format(what))


def test_rows_out_of_order_from_the_child_are_garbage(monkeypatch, tmp_path):
    header = ["round", "player", "bid", "tricks"]
    stand_in(
        monkeypatch,
        tmp_path,
        f"os.write(out, frames.frame(b'H', frames.encode([0, 'S', 1, *{header!r}])))\n"
        "os.write(out, frames.frame(b'D'))\n"
        f"os.write(out, frames.frame(b'R', frames.encode([1, *{header!r}]) + frames.ROW"
        " + frames.encode([1, '1', 'A', '0', '0'])))",
    )
    one_line(run("check", BOOK), GARBLED.format("row number '1'"))


def test_a_problem_the_child_sends_is_the_one_line_it_says(monkeypatch, tmp_path):
    stand_in(
        monkeypatch,
        tmp_path,
        "os.write(out, frames.frame(b'P', frames.encode(['a message', 'a place[W]', 7])))",
    )
    result = run("check", BOOK)
    assert (result.exit_code, result.stderr) == (1, "a place[W]:7: a message\n")


def test_a_child_over_its_memory_limit_is_one_line(tmp_path):
    """One stray cell at XFD1048576: calamine asks for the whole range and aborts under the
    fence (before the fence: the whole process aborted)."""
    path = bombs.stray_cell(tmp_path / "stray.xlsx")
    one_line(
        run("check", path),
        UNREADABLE + "its reader was stopped by SIGABRT: the workbook "
        "needs more than 250 MiB to read, or is made to break its parser",
        path,
    )
    assert not readers_of(path)


def test_what_the_child_says_names_the_workbook_as_it_was_given(tmp_path, monkeypatch):
    """A zip bomb is refused in the child, by the archive's directory: its line names the path
    as typed, as every other line does."""
    monkeypatch.chdir(tmp_path)
    bombs.whitespace_bomb(tmp_path / "ws.xlsx", 16 << 20)
    result = run("check", "ws.xlsx")
    assert result.exit_code == 1
    assert result.stderr.startswith("ws.xlsx: its part xl/worksheets/sheet1.xml unpacks to 16 MiB")


def test_without_the_extra_no_child_is_started(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "python_calamine", None)  # as if not installed

    def started(*args, **kwargs):
        raise AssertionError("a child was started")

    monkeypatch.setattr(workbook, "_Child", started)
    one_line(
        run("check", BOOK),
        "reading a workbook needs python-calamine, the xlsx extra: pip "
        "install '.[xlsx]' in the wizard checkout",
    )


def test_a_child_without_the_extra_says_so_as_the_parent_would(monkeypatch, tmp_path):
    """The parent found python-calamine, the child (another interpreter) did not."""
    (tmp_path / "python_calamine.py").write_text("raise ImportError('no')\n")
    monkeypatch.setattr(workbook, "CHILD_PATH", [str(tmp_path), *workbook.CHILD_PATH])
    one_line(
        run("check", BOOK),
        "reading a workbook needs python-calamine, the xlsx extra: pip "
        "install '.[xlsx]' in the wizard checkout",
    )


@pytest.fixture(scope="module")
def season(tmp_path_factory) -> Path:
    """A long season in one worksheet: 1,500 games of three players and five rounds."""
    rng = random.Random(7)
    rows = [["game", "round", "player", "bid", "tricks"]]
    for game in range(1, 1501):
        for number in range(1, 6):
            tricks = [0, 0, 0]
            for _ in range(number):
                tricks[rng.randrange(3)] += 1
            rows += [
                [game, number, name, took, took]
                for name, took in zip(["Anna", "Ben", "Cara"], tricks)
            ]
    xml = "".join(
        f'<row r="{n}">'
        + "".join(bombs.cell(f"{'ABCDE'[c]}{n}", v) for c, v in enumerate(row))
        + "</row>"
        for n, row in enumerate(rows, start=1)
    )
    return bombs.xlsx(tmp_path_factory.mktemp("season") / "season.xlsx", bombs.sheet(xml))


def wizard(*args) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "wizard_cli", *map(str, args)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def test_the_parent_stopping_early_leaves_no_child(season):
    """``wizard score season.xlsx -f jsonl | head -1``: the pipe closes after the first game;
    wizard exits 141 quietly, and its child is gone with it."""
    process = wizard(
        "score", season, "-f", "jsonl", "--set", "roundMode=custom", "--set", "customRoundCount=5"
    )
    first = process.stdout.readline()
    assert first.startswith(b"{")
    process.stdout.close()
    assert process.wait(timeout=60) == 141
    assert process.stderr.read() == b""
    assert not readers_of(season)


def test_ctrl_c_stops_the_child_too(season):
    """SIGINT to wizard alone (not its child) while the child reads: exit 130, no child left."""
    process = wizard("check", season, "--set", "roundMode=custom", "--set", "customRoundCount=5")
    deadline = time.monotonic() + 30
    while not readers_of(season) and time.monotonic() < deadline:
        time.sleep(0.005)
    assert readers_of(season), "the child never started"
    process.send_signal(signal.SIGINT)
    assert process.wait(timeout=60) == 130
    assert not readers_of(season)


def test_a_long_season_streams_whole(season):
    result = run("check", season, "--set", "roundMode=custom", "--set", "customRoundCount=5")
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout.count(": ok") == 1500


def test_a_fifo_named_as_a_workbook_is_refused_at_once(tmp_path):
    """A FIFO cannot be a workbook (calamine seeks in it), and a child reading one would wait
    for its wall clock: the reader refuses it before any child starts (the command line already
    refuses a SHEET that is not a file; the library and serve reach the reader directly)."""
    fifo = tmp_path / "season.xlsx"
    os.mkfifo(fifo)
    started = time.monotonic()
    with pytest.raises(WizardError) as raised:
        list(workbook.read_workbook_sheets(str(fifo)))
    assert [str(p) for p in raised.value.problems] == [f"{fifo}: {UNREADABLE}not a regular file"]
    assert time.monotonic() - started < 5
    assert not readers_of(fifo)
