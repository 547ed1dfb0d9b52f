"""Standard output and standard error for the whole tool: problems one per line, output in large
blocks to a pipe or file, and one clear line when the output cannot be written.

No Typer here: the CLI edge calls these, the application layer reports through them.
"""

from __future__ import annotations

import errno
import io
import os
import sys
from typing import Iterable

from ..errors import Problem
from ..sheets.source import STDIN

def report(problems: Iterable[Problem]) -> None:
    """Each problem on its own line on stderr."""
    for problem in problems:
        sys.stderr.write(f"{problem}\n")


def silence_stdout() -> None:
    """After the reader of a pipe has gone, send the rest of stdout nowhere (no noise at exit)."""
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


def buffer_output() -> None:
    """Write to a pipe or a file in 64 KiB blocks rather than Python's 8 KiB.

    A season prints megabytes: each 8 KiB block cost a system call and a wake-up of the reader
    (a fifth of the run). A terminal keeps its line buffering, and unbuffered output asked for
    (``PYTHONUNBUFFERED``, ``python -u``) is left as it is.
    """
    stream = sys.stdout
    if (not isinstance(stream, io.TextIOWrapper) or stream.write_through
            or not isinstance(stream.buffer, io.BufferedWriter)):  # unbuffered, or no file
        return
    try:
        if stream.isatty():
            return
        stream.flush()
        binary = open(stream.fileno(), "wb", buffering=OUTPUT_BUFFER_BYTES, closefd=False)
    except (OSError, ValueError):  # no real file behind it, or already closed
        return
    sys.stdout = io.TextIOWrapper(binary, encoding=stream.encoding, errors=stream.errors)


def check_output(output: str | None, force: bool) -> None:
    """Refuse an existing output file up front, before reading or converting anything."""
    from ..sheets.atomic import refuse_existing

    if output is not None and output != STDIN:
        refuse_existing(output, force)


def write_output(text: str, output: str | None, force: bool) -> None:
    """The text to ``-o FILE`` (atomically, never over a file without --force), else stdout."""
    from ..sheets.atomic import write_atomically

    if output is None or output == STDIN:
        sys.stdout.write(text)
    else:
        write_atomically(output, text, force)

