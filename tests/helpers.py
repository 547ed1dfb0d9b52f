"""Shared test helpers: run the CLI in-process and find the sample sheets.

Test files import these as ``from helpers import run`` (tests/ is on sys.path the same way
``sheetmaker`` is: pytest's rootdir-relative "prepend" import of a test directory without
``__init__.py``). Fixtures and hooks stay in conftest.py, which pytest advises never to import.
"""

from __future__ import annotations

import os
import select
import signal
import sys
import time
from pathlib import Path

from typer.testing import CliRunner

from wizard_cli.cli import app

SAMPLES = Path(__file__).resolve().parent.parent / "sample_sheets"
WORKED = SAMPLES / "worked-example.yaml"
# Sheets several test files read (tests/sheets/); a sheet one test is about stays in that test.
TEST_SHEETS = Path(__file__).resolve().parent / "sheets"
ONE_ROUND = TEST_SHEETS / "one-round.yaml"  # A, B, C: one round played, A's bid of 1 made
DEALER_TO_BID = TEST_SHEETS / "dealer-to-bid.yaml"  # screwTheDealer: A, the dealer, bids last


def run(*args: object, input: str | bytes | None = None):
    """Invoke ``wizard ARGS…`` in-process; the result has .exit_code, .stdout and .stderr."""
    return CliRunner().invoke(app, [str(a) for a in args], input=input, catch_exceptions=False)


def score_json(path: object, *options: object) -> dict:
    """``wizard score -f json PATH OPTIONS…`` of one valid sheet, as data."""
    import json

    result = run("score", "-f", "json", path, *options)
    assert (result.exit_code, result.stderr) == (0, ""), result.stderr
    return json.loads(result.stdout)


def problems(path: object, *options: object) -> list[str]:
    """The lines ``wizard check`` says of an invalid sheet (exit 1)."""
    result = run("check", path, *options)
    assert result.exit_code == 1, result.stdout
    return result.stderr.splitlines()


class Terminal:
    """``python -m wizard_cli ARGS…`` on a pseudo-terminal of its own (``pty.fork``), for what
    only a real terminal shows: its echo, Ctrl-C, its width.

    ``with Terminal(args, cwd=…, env=…) as tty:`` starts it; :meth:`read_until` reads what it
    shows into ``tty.seen``, :meth:`type` writes keys to it. Leaving the block waits for it
    (killing it after 20 s: a test failed half-way) and sets ``tty.status``.
    """

    def __init__(
        self, args: list[object], cwd: Path | None = None, env: dict[str, str] | None = None
    ) -> None:
        self.args, self.cwd, self.env = [str(arg) for arg in args], cwd, env or {}
        self.seen = bytearray()
        self.status: int | None = None

    def __enter__(self) -> Terminal:
        import pty  # POSIX only: the tests that use it skip elsewhere

        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: wizard on the terminal
            try:
                # as a shell starts a command at a terminal: Ctrl-C's signal at its default and
                # nothing held back, whatever this process inherited (a test run started in the
                # background by a script ignores SIGINT, and an ignored SIGINT stays ignored)
                signal.signal(signal.SIGINT, signal.SIG_DFL)
                signal.pthread_sigmask(signal.SIG_SETMASK, set())
                if self.cwd is not None:
                    os.chdir(self.cwd)
                os.environ.update(self.env)
                os.execv(sys.executable, [sys.executable, "-m", "wizard_cli", *self.args])
            finally:
                os._exit(127)
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            _, self.status = wait_or_kill(self.pid)
        finally:
            os.close(self.fd)

    def read_until(self, wanted: bytes, timeout: float = 20.0) -> None:
        """Read the terminal until ``wanted`` has appeared (or fail after ``timeout`` seconds)."""
        deadline = time.monotonic() + timeout
        while wanted not in self.seen:
            left = deadline - time.monotonic()
            assert left > 0, f"timed out waiting for {wanted!r}; got {bytes(self.seen)!r}"
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.fd, 4096)
                except OSError:  # the child has gone and closed the terminal
                    chunk = b""
                assert chunk, f"the terminal closed before {wanted!r}; got {bytes(self.seen)!r}"
                self.seen += chunk

    def type(self, keys: bytes) -> None:
        """Keys typed at the terminal."""
        os.write(self.fd, keys)

    def interrupt(self) -> None:
        """Ctrl-C typed once the program waits for the keyboard (see :func:`wait_blocked`)."""
        wait_blocked(self.pid)
        self.type(b"\x03")

    @property
    def exit_code(self) -> int | None:
        """The exit status it ended with (None: killed by a signal, or still running)."""
        return (
            os.WEXITSTATUS(self.status)
            if self.status is not None and os.WIFEXITED(self.status)
            else None
        )


def wait_blocked(pid: int, timeout: float = 20.0) -> None:
    """Wait until process ``pid`` sleeps in a system call (Linux: state S in /proc; elsewhere a
    moment's pause).

    A signal sent when a program has shown its prompt but not yet entered ``read`` only sets
    the interpreter's flag, and the ``read`` that follows then waits for input as if none had
    come (CPython checks for signals after a system call is interrupted, not before it starts).
    A person cannot press Ctrl-C inside those microseconds; a test on a busy machine can, so a
    test that signals a program waiting for input first waits until it is waiting.
    """
    stat = Path(f"/proc/{pid}/stat")
    if not stat.exists():
        time.sleep(0.5)
        return
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        # the state follows the command's name, which is in parentheses and may hold spaces
        if stat.read_text().rpartition(")")[2].split()[0] == "S":
            return
        time.sleep(0.005)
    raise AssertionError(f"process {pid} did not come to wait within {timeout} s")


def wait_or_kill(pid: int, timeout: float = 20.0) -> tuple[int, int]:
    """A child's exit status; a child still running after ``timeout`` seconds (a test that
    failed half-way) is killed rather than waited for forever."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return done, status
        time.sleep(0.05)
    os.kill(pid, 9)
    return os.waitpid(pid, 0)
