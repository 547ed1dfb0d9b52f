"""Standard output and standard error for the whole tool: problems one per line, output in large
blocks to a pipe or file, and one clear line when the output cannot be written.

No Typer here: the command line calls these, and hands ``report`` and ``say`` to the layers
below, which print nothing themselves.
"""

from __future__ import annotations

import errno
import io
import os
import signal
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from ..errors import Problem, WizardError
from ..sheets.source import STDIN


def report(problems: Iterable[Problem]) -> None:
    """Each problem on its own line on stderr."""
    for problem in problems:
        sys.stderr.write(f"{problem}\n")


def say(line: str) -> None:
    """A warning or note, one line on stderr."""
    sys.stderr.write(f"{line}\n")


def silence_stdout() -> None:
    """After the reader of a pipe has gone (or the output failed), send the rest of stdout
    nowhere (no noise at exit): what is still buffered is dropped, and the descriptor points to
    the null device (a file size limit may apply even to that one: nothing is written there)."""
    raw = getattr(getattr(sys.stdout, "buffer", None), "raw", getattr(sys.stdout, "buffer", None))
    if isinstance(raw, WholeWrites):
        raw.discard = True
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


OUTPUT_BUFFER_BYTES = 1 << 16


class ClosedOutput(io.TextIOBase):
    """Standard output when the tool was started with it closed (``wizard … >&-``)."""

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")


def output_failed(error: OSError) -> None:
    """Say in one line that the output could not be written (a full disk, a closed stdout)."""
    sys.stderr.write(f"wizard: cannot write the output: {error.strerror or error}\n")
    silence_stdout()  # what is still buffered goes nowhere, not into a second error at exit


class WholeWrites(io.RawIOBase):
    """A file descriptor that writes every byte or raises.

    Python's own writer returns quietly after a short write (a file size limit reached, a pipe
    whose reader left half-way), and what was not written is lost without a word: the tool
    would exit 0 with its output cut. Here a short write is followed by the next one, which
    then fails with the real reason (EFBIG, ENOSPC, EPIPE) — SPEC §7.
    """

    closefd = False  # the descriptor is the process's standard output: left open
    discard = False  # once the output has failed: the rest goes nowhere

    def __init__(self, fd: int) -> None:
        super().__init__()
        self._fd = fd

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._fd

    def isatty(self) -> bool:
        return os.isatty(self._fd)

    def write(self, data) -> int:
        view = memoryview(data).cast("B")
        total = len(view)
        if self.discard:
            return total
        while view:
            view = view[os.write(self._fd, view) :]
        return total


def buffer_output() -> None:
    """Standard output that never loses a byte quietly, written in 64 KiB blocks to a pipe or
    a file rather than Python's 8 KiB.

    A season prints megabytes: each 8 KiB block cost a system call and a wake-up of the reader
    (a fifth of the run). A terminal keeps its line buffering. Unbuffered output asked for
    (``PYTHONUNBUFFERED``, ``python -u``, which sandboxes and CI runners often set) would make
    every line a system call of its own: it is buffered all the same, and what waits is sent out
    whenever the tool itself waits for input (:func:`flush_output`), so a pipeline still sees
    each game as it is scored. Only a terminal's output is then written as it comes.
    """
    if hasattr(signal, "SIGXFSZ"):  # past a file size limit a write fails (EFBIG), not the process
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    stream = sys.stdout
    if not isinstance(stream, io.TextIOWrapper) or not isinstance(
        stream.buffer, (io.BufferedWriter, io.FileIO)
    ):
        return  # no real file behind it
    try:
        fd = stream.fileno()
        terminal = stream.isatty()
        stream.flush()
    except (OSError, ValueError):  # already closed
        return
    unbuffered = stream.write_through and terminal
    raw = WholeWrites(fd)
    binary = raw if unbuffered else io.BufferedWriter(raw, buffer_size=OUTPUT_BUFFER_BYTES)
    sys.stdout = io.TextIOWrapper(
        binary,
        encoding=stream.encoding,
        errors=stream.errors,
        line_buffering=terminal,
        write_through=unbuffered,
    )


def flush_output() -> None:
    """Send out what standard output holds, before the tool waits for input (a pipe). A failure
    is left to the next write or the flush at exit, which report it where output is written."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        pass


def stdout_closed() -> bool:
    """Whether the tool was started with its standard output closed (``wizard … >&-``)."""
    stream = sys.stdout
    if isinstance(stream, ClosedOutput):
        return True
    try:
        fd = stream.fileno()
    except (OSError, ValueError, AttributeError):  # no file behind it (a test's capture)
        return False
    try:
        os.fstat(fd)
    except OSError:
        return True
    return False


def require_stdout(shown: str, quiet: bool = False) -> None:
    """Standard output closed: found before a sheet is changed, not after (SPEC §7)."""
    if not quiet and stdout_closed():
        raise WizardError(
            Problem(
                "cannot write the output: standard output is closed; nothing was written", shown
            )
        )


@contextmanager
def output_after_change(shown: str) -> Iterator[None]:
    """Around what a sheet-changing command prints once the sheet is written: if the output
    fails, say plainly that the sheet was changed all the same (SPEC §7; a closed pipe stays
    silent, exit 141)."""
    try:
        yield
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as error:
        output_failed(error)
        raise WizardError(
            Problem("the sheet was written; only the output could not be shown", shown)
        ) from None


def check_output(output: str | None, force: bool) -> None:
    """Refuse an existing output file up front, before reading or converting anything."""
    from ..editing.atomic import refuse_existing

    if output is not None and output != STDIN:
        refuse_existing(output, force)


def write_output(text: str | Iterable[str], output: str | None, force: bool) -> None:
    """The text (or its pieces, as they come) to ``-o FILE`` (atomically, never over a file
    without --force; a device or FIFO written to as it is), else to stdout (``-o -`` too)."""
    from ..editing.atomic import write_atomically

    if output is None or output == STDIN:
        for piece in [text] if isinstance(text, str) else text:
            sys.stdout.write(piece)
    else:
        write_atomically(output, text, force)
