"""Workbooks (``.xlsx .xlsm .xls .ods``), read through python-calamine (the optional ``xlsx`` extra).

Each worksheet that holds a sheet is read as one CSV file would be (long or wide, SPEC §3): its
cells become text as a spreadsheet shows them (``2.0`` is ``2``, a formula its computed value,
a date cell an ISO date, which a bid or tricks cell reports as a date) and go through the CSV
readers. Messages place a value as ``PATH[WORKSHEET]:ROW:``; ``source`` stays PATH.
"""

from __future__ import annotations

import atexit
import os
import select
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from typing import NoReturn

from ...errors import Problem, WizardError
from ...game.model import Sheet
from ..cells import is_blank
from ..csv.rows import Chunks
from ..csv.sheets import sheet_kind, sheets_from_rows
from ..source import MAX_YAML_BYTES
from . import frames
from .child import INSTALL

NO_SHEET = (
    "skipped: no score sheet in this worksheet (a long one has 'round,player,bid,tricks' "
    "columns, a wide one 'round,<player>,<player>,…')"
)

# The child's fence (SPEC §4). Its address space: the 250 MiB any one input may take.
MEMORY_BYTES = 250 << 20
# CPU time: the largest workbook that fits in the memory above (a 64 MiB file, two million
# cells) takes calamine and the child's Python well under 10 s to read twice (its worksheets'
# first rows, then their rows); 60 s leaves room for a slower machine and stops a workbook made
# to stall its parser (a loop in a compound file's chains) within a minute.
CPU_SECONDS = 60
# What the reader waits, in all, for the child's frames: CPU time is not counted while the child
# is blocked (on a FIFO given as a workbook, say) nor while it waits for a core on a busy host,
# so the wall clock has its own bound, twice the CPU time's.
WALL_SECONDS = 120
# The child: a clean interpreter (-I: no PYTHON* variables, no user site, not the working
# directory on its path; -S: no site module, 40 ms of start-up) whose path is this package's
# root and python-calamine's, running :func:`.workbook_child.main`; tests put a module of their
# own.
CHILD_MODULE = "wizard_cli.sheets.workbook.child"
_BOOT = (
    "import importlib, sys; sys.path[:0] = sys.argv[1].split('\\n'); "
    "importlib.import_module(sys.argv[2]).main(sys.argv[3:])"
)
_PACKAGE_ROOT = os.path.dirname(
    os.path.dirname(os.path.abspath(sys.modules["wizard_cli"].__file__ or ""))
)
CHILD_PATH = [_PACKAGE_ROOT]

Note = Callable[[Problem], None]


def read_workbook_sheets(path: str, note: Note | None = None) -> Iterator[Sheet]:
    """Every sheet in a workbook's worksheets, in order; a worksheet that holds none is skipped
    (with a note when it is not empty). With more than one worksheet holding a sheet, a game's
    id is its worksheet's name (``WORKSHEET/ID`` for the games of a ``game`` column).

    The workbook is read in a child process (:mod:`~wizard_cli.sheets.workbook.child`), fenced; a worksheet's
    rows come as they are needed (a long season streams a game at a time), and the child is
    stopped and reaped however the reading ends.
    """
    calamine = _check(path)
    with _Child(path, calamine) as child:
        holding = []  # (worksheet index, name, its header's row number) of those holding a sheet
        for index, name, number, row in child.first_rows():
            if sheet_kind(row) is None:
                if note is not None:
                    note(Problem(NO_SHEET, f"{path}[{name}]"))
                continue
            holding.append((index, name, number))
        if not holding:
            raise WizardError(Problem("no worksheet holds a score sheet", path))
        child.ask([index for index, _, _ in holding])
        named = len(holding) > 1
        for _, name, header_line in holding:
            location = f"{path}[{name}]"
            rows = child.rows()
            first, header = next(rows, (None, []))  # the child sends from the header on
            if first != header_line:
                child.garbled("rows that do not start at the first one")
            # A typed cell has no delimiter to mistake: a decimal comma in a text cell is a point.
            for sheet in sheets_from_rows(
                header, header_line, _chunks(rows), location, comma=True, note=note
            ):
                assert isinstance(sheet, Sheet)  # runs are a CSV file's (runs=True) alone
                sheet.source, sheet.location = path, location
                if named:
                    sheet.game = name if sheet.game is None else f"{name}/{sheet.game}"
                yield sheet
            for _ in rows:  # what the sheet's reader left (rows past its last game)
                pass
        child.finish()


def _check(path: str) -> str:
    """What is said before a child is started: the extra missing, a file too large for any
    score sheet, or no file at all; else the folder python-calamine is installed in."""
    import importlib.util

    found = importlib.util.find_spec("python_calamine")
    if found is None or not found.origin:
        raise WizardError(Problem(INSTALL, path))
    try:
        info = os.stat(path)
    except OSError as error:
        raise WizardError(Problem(f"not readable as a workbook: {error.strerror}", path)) from None
    if not stat.S_ISREG(info.st_mode):  # a FIFO or device would hold the child until its clock
        raise WizardError(Problem("not readable as a workbook: not a regular file", path))
    if info.st_size > MAX_YAML_BYTES:
        raise WizardError(
            Problem(
                f"larger than {MAX_YAML_BYTES >> 20} MB: too large for a score sheet workbook", path
            )
        )
    return os.path.dirname(os.path.dirname(found.origin))  # the package's folder's


# Every child not yet stopped, held here (not weakly: a Ctrl-C right after one is started drops
# the reader that started it) and stopped at exit.
_LIVE: set[_Child] = set()


@atexit.register
def _stop_all() -> None:
    for child in list(_LIVE):
        child.stop()


class _Child:
    """The child process reading one workbook, and the frames it sends (read lazily, with
    WALL_SECONDS in all to wait for them). Whatever goes wrong with it is one line naming the
    workbook; leaving the ``with`` block kills it (if it still runs) and reaps it."""

    def __init__(self, path: str, calamine: str) -> None:
        self.path = path
        self.buffer = bytearray()
        self.waited = 0.0
        # Ctrl-C is held back until the child is known: one inside Popen would lose it running
        # (the child unblocks it again)
        held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-I",
                    "-S",
                    "-c",
                    _BOOT,
                    "\n".join([*CHILD_PATH, calamine]),
                    CHILD_MODULE,
                    str(MEMORY_BYTES),
                    str(CPU_SECONDS),
                    path,
                ],  # in our working directory
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                close_fds=True,
            )
            _LIVE.add(self)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
        assert self.process.stdout is not None  # piped
        self.fd = self.process.stdout.fileno()

    def __enter__(self) -> _Child:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stop(self) -> None:
        """Kill the child if it still runs, and reap it."""
        _LIVE.discard(self)
        process = self.process
        if process.returncode is None:
            try:
                process.kill()
            except ProcessLookupError:
                pass
            process.wait()
        for pipe in (process.stdin, process.stdout):
            assert pipe is not None  # piped
            try:
                pipe.close()
            except OSError:
                pass

    def first_rows(self) -> Iterator[tuple[int, str, int, list[str]]]:
        """Each worksheet's first row that is not blank: (index, name, row number, cells)."""
        while True:
            kind, payload = self.frame()
            if kind == b"D":
                return
            if kind != b"H":
                self.garbled(f"a frame {kind!r} among the first rows")
            try:
                index, name, number, *cells = frames.fields(payload)
                found = int(index), name, int(number), cells
            except (frames.Garbled, ValueError) as error:
                self.garbled(str(error))
            if is_blank(cells):
                self.garbled("a blank first row")
            yield found

    def ask(self, indices: list[int]) -> None:
        """Tell the child which worksheets to send."""
        stdin = self.process.stdin
        assert stdin is not None  # piped
        try:
            stdin.write(" ".join(map(str, indices)).encode() + b"\n")
            stdin.close()
        except OSError:
            pass  # it stopped: what it sent (or its end) says why

    def rows(self) -> Iterator[tuple[int, list[str]]]:
        """The rows of the next worksheet the child sends, from its header on."""
        after = 0
        while True:
            kind, payload = self.frame()
            if kind == b"E":
                return
            if kind != b"R":
                self.garbled(f"a frame {kind!r} among the rows")
            try:
                found = frames.rows(payload, after)
            except frames.Garbled as error:
                self.garbled(str(error))
            after = found[-1][0]
            yield from found

    def finish(self) -> None:
        """The workbook's end, and the child's."""
        kind, _ = self.frame()
        if kind != b"Z":
            self.garbled(f"a frame {kind!r} at the end")
        self.stop()

    def frame(self) -> tuple[bytes, bytes]:
        """The next frame; a problem frame raised as the WizardError it is."""
        self.fill(frames.HEAD.size)
        kind, size = frames.HEAD.unpack_from(self.buffer)
        if size > frames.MAX_FRAME + 1024:
            self.garbled(f"a frame of {size:,} bytes")
        self.fill(frames.HEAD.size + size)
        payload = bytes(self.buffer[frames.HEAD.size : frames.HEAD.size + size])
        del self.buffer[: frames.HEAD.size + size]
        if kind == b"P":
            try:
                message, location, line = frames.fields(payload)
                problem = Problem(message, location, int(line) if line else None)
            except (frames.Garbled, ValueError) as error:
                self.garbled(str(error))
            self.stop()
            raise WizardError(problem)
        return kind, payload

    def fill(self, size: int) -> None:
        """Read until the buffer holds ``size`` bytes."""
        while len(self.buffer) < size:
            left = WALL_SECONDS - self.waited
            start = time.monotonic()
            ready = select.select([self.fd], [], [], max(left, 0))[0] if left > 0 else []
            self.waited += time.monotonic() - start
            if not ready:
                self.fail(f"its reader gave no answer within {WALL_SECONDS} s")
            data = os.read(self.fd, max(size - len(self.buffer), 1 << 16))
            if not data:
                self.died()
            self.buffer += data

    def died(self) -> None:
        """The stream ended before its end: say how the child stopped."""
        _, status, usage = os.wait4(self.process.pid, 0)
        code = self.process.returncode = os.waitstatus_to_exitcode(status)
        if code >= 0:
            self.fail(f"its reader stopped with exit status {code} before the end")
        number = -code
        name = signal.Signals(number).name if number in signal.valid_signals() else str(number)
        if number == signal.SIGXCPU or (
            number == signal.SIGKILL and usage.ru_utime + usage.ru_stime >= CPU_SECONDS
        ):
            self.fail(f"reading it took more than {CPU_SECONDS} s of CPU time")
        if number in (signal.SIGABRT, signal.SIGSEGV, signal.SIGBUS):
            self.fail(
                f"its reader was stopped by {name}: the workbook needs more than "
                f"{MEMORY_BYTES >> 20} MiB to read, or is made to break its parser"
            )
        self.fail(f"its reader was stopped by {name}")

    def garbled(self, what: str) -> NoReturn:
        self.fail(f"its reader sent what is not a workbook's rows ({what})")

    def fail(self, why: str) -> NoReturn:
        self.stop()
        raise WizardError(Problem(f"not readable as a workbook: {why}", self.path))


CHUNK_TEXT = 1 << 20  # characters of a chunk's cells (a text with one emoji in it is 4 bytes a
# character in Python: 800 cells of 80,000 characters, held at once, peaked at 331 MiB)


def _chunks(rows: Iterator[tuple[int, list[str]]], size: int = 1024) -> Chunks:
    """Numbered rows a thousand or so at a time, as the CSV readers take them, and fewer when
    their text passes CHUNK_TEXT."""
    chunk: list[tuple[int, list[str]]] = []
    text = 0
    for row in rows:
        chunk.append(row)
        text += sum(map(len, row[1]))
        if len(chunk) >= size or text >= CHUNK_TEXT:
            numbers, cells = zip(*chunk)
            yield list(cells), numbers
            chunk, text = [], 0
    if chunk:
        numbers, cells = zip(*chunk)
        yield list(cells), numbers
