"""The child process that reads a workbook through python-calamine, fenced (SPEC §3, §4).

calamine is native code over untrusted bytes: it builds a worksheet's whole used range in
memory and aborts the process when it cannot (one stray cell at ``XFD1048576`` asks for 512 GB).
So it runs here, in a process of its own started by :mod:`~wizard_cli.sheets.workbook.reader`, under the memory and CPU
limits the reader gives it (:func:`fence`), and sends every worksheet's rows back as text
(:mod:`~wizard_cli.sheets.workbook.frames`) on its standard output, which nothing else writes to. Whatever stops
it is the reader's to report; what it can say itself (a zip bomb, an unreadable file) it sends
as a problem frame.

It imports as little as it can (no Typer, nothing of the sheet readers): its start-up is paid
for every workbook read.
"""

from __future__ import annotations

import datetime
import os
import resource
import signal
import sys

from . import frames
from .frames import Refusal

INSTALL = (
    "reading a workbook needs python-calamine, the xlsx extra: pip install '.[xlsx]' in "
    "the wizard checkout"
)


def fence(memory: int, cpu_seconds: int) -> None:
    """Limit this process: its address space to ``memory`` bytes (calamine aborts past it,
    Python raises MemoryError), its CPU time to ``cpu_seconds`` (SIGXCPU, then SIGKILL a second
    later), and no core file for any of it."""
    for limit, value in (
        (resource.RLIMIT_AS, memory),
        (resource.RLIMIT_CORE, 0),
        (resource.RLIMIT_CPU, cpu_seconds),
    ):
        hard = resource.getrlimit(limit)[1]
        wanted = value + (1 if limit == resource.RLIMIT_CPU else 0)
        if hard != resource.RLIM_INFINITY:
            value, wanted = min(value, hard), min(wanted, hard)
        resource.setrlimit(limit, (value, wanted))


def main(argv: list[str]) -> None:
    """``MEMORY CPU_SECONDS PATH``: read the workbook at PATH, rows to standard output."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C: the reader reports it, not we
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # held while we were started
    memory, cpu_seconds, path = int(argv[0]), int(argv[1]), argv[2]
    fence(memory, cpu_seconds)
    out = _Output(os.dup(1))
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)  # a stray print (of calamine's, or Python's) cannot garble the frames
    try:
        try:
            _send(path, out)
        except Refusal as refusal:
            out.problem(refusal.message, refusal.location, refusal.line)
        except MemoryError:
            out.problem(
                f"not readable as a workbook: reading it needs more than "
                f"{memory >> 20} MiB of memory",
                path,
            )
        except Exception as error:  # noqa: BLE001 -- calamine raises its own error types
            reason = getattr(error, "strerror", None) or str(error) or type(error).__name__
            out.problem(f"not readable as a workbook: {reason}", path)
        except BaseException as error:
            if type(error).__name__ != "PanicException":  # pyo3's, for a panic inside calamine
                raise
            out.problem(f"not readable as a workbook: calamine failed on it ({error})", path)
        out.flush()
    except BrokenPipeError:  # the reader stopped reading: nothing to say to anyone
        pass
    os._exit(0)  # no clean-up of calamine's objects to wait for


class _Output:
    """Frames written to a file descriptor; rows gathered into frames of about BATCH characters
    and encoded at once (a row's fields joined by the text that encodes to the field byte)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.rows: list[str] = []
        self.size = 0  # characters in self.rows

    def send(self, kind: bytes, payload: bytes = b"") -> None:
        self.flush()
        self.write(frames.frame(kind, payload))

    def row(self, number: int, cells: list[str], location: str) -> None:
        text = frames.FIELD_TEXT.join([str(number), *cells])
        if len(text) > frames.MAX_ROW:
            raise Refusal(
                f"the row holds more than {frames.MAX_ROW:,} characters: too large "
                "for a score sheet",
                location,
                number,
            )
        if self.size + len(text) > frames.MAX_ROW:
            self.flush()
        self.rows.append(text)
        self.size += len(text)
        if self.size >= frames.BATCH:
            self.flush()

    def problem(self, message: str, location: str, line: int | None = None) -> None:
        self.rows, self.size = [], 0
        self.send(b"P", frames.encode([message, location, "" if line is None else line]))

    def flush(self) -> None:
        if self.rows:
            payload = frames.ROW_TEXT.join(self.rows).encode("utf-8", "surrogateescape")
            self.rows, self.size = [], 0
            self.write(frames.frame(b"R", payload))

    def write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(self.fd, view) :]


def _send(path: str, out: _Output) -> None:
    """Each worksheet's first row that is not blank; then, for the worksheets the reader names
    on standard input, their rows from that one on."""
    try:
        from python_calamine import CalamineWorkbook
    except ImportError:
        raise Refusal(INSTALL, path) from None
    from .archive import check_archive

    errors = check_archive(path)
    book = CalamineWorkbook.from_path(path)
    names = list(book.sheet_names)
    first: dict[int, int] = {}
    for index, name in enumerate(names):
        for number, cells in _rows(book, name, errors.get(name)):
            if any(cell.strip() for cell in cells):
                first[index] = number
                out.send(b"H", frames.encode([index, name, number, *cells]))
                break
    out.send(b"D")
    wanted = sys.stdin.buffer.readline(1 << 20).split()
    for index in map(int, wanted):
        name = names[index]
        for number, cells in _rows(book, name, errors.get(name)):
            if number >= first[index]:
                out.row(number, cells, f"{path}[{name}]")
        out.send(b"E")
    out.send(b"Z")


def _rows(book, name: str, errors: dict[tuple[int, int], str] | None):
    """A worksheet's rows of text, each with its row number (from 1; the columns start at the
    first one used); an error cell reads as its code (``#DIV/0!``), as a CSV export has it."""
    worksheet = book.get_sheet_by_name(name)
    first_column = (worksheet.start or (0, 0))[1] + 1
    for number, row in enumerate(worksheet.iter_rows(), start=1):
        cells = list(map(cell_text, row))
        if errors:
            for index in range(len(cells)):
                code = errors.get((number, first_column + index))
                if code is not None:
                    cells[index] = code
        yield number, cells


def cell_text(value: object) -> str:
    """A cell's value as its text in a CSV export: ``2.0`` is ``2``, a date is ISO."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    if isinstance(value, datetime.datetime):
        return (
            value.date().isoformat()
            if value.time() == datetime.time()
            else value.isoformat(sep=" ")
        )
    if isinstance(value, datetime.date):
        return value.isoformat()
    return str(value)


if __name__ == "__main__":
    main(sys.argv[1:])
