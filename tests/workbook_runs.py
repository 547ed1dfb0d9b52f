"""``wizard`` reading a workbook as a real process, and that process's own peak memory.

test_memory.peak_mib reads the peak that ``os.wait4`` gives, which on Linux is the largest of
the process and every child it waited for: since a workbook is read in a child of its own,
fenced at 250 MiB (sheets/workbook/child.py), that would measure the child. Here the wizard
process reports its own peak (``RUSAGE_SELF``) as it exits; the small launcher of test_memory
starts it, so that pytest's size is not counted in it.
"""

from __future__ import annotations

import subprocess
import sys

from test_memory import LAUNCHER, ROOT

RUNNER = r"""
import os, resource, sys
sys.argv = ["wizard", *sys.argv[1:]]
from wizard_cli.cli import main
try:
    main()
    code = 0
except SystemExit as exit_:
    code = exit_.code if isinstance(exit_.code, int) else (exit_.code is not None)
sys.stderr.write(f"\n{code} {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}\n")
sys.stderr.flush()
os._exit(code)
"""


def parent_peak_mib(*args: object) -> tuple[int, float, str]:
    """Run ``wizard ARGS…``; its exit code, the peak memory in MiB of the wizard process alone
    (not its workbook's child), and its stderr (its lines in the last 200,000 characters)."""
    result = subprocess.run(
        [sys.executable, "-c", LAUNCHER, sys.executable, "-c", RUNNER, *map(str, args)],
        cwd=ROOT,
        capture_output=True,
        timeout=1800,
    )
    err = result.stderr.decode("utf-8", "replace").rstrip("\n")
    err, _, _ = err.rpartition("\n")  # the launcher's line: the peak of the whole tree
    err, _, own = err.rstrip("\n").rpartition("\n")
    code, peak_kib = map(int, own.split())
    err = err.rstrip("\n")
    if len(err) > 200_000:  # whole lines only
        err = err[-200_000:].partition("\n")[2]
    return code, peak_kib / 1024, err


LIMIT_MIB = 100  # the reading process's peak (the workbooks read in one process took 0.1 to 5 GB)
FENCED = "not readable as a workbook: "  # the start of what the fence makes of a workbook


def refused(path, message: str, *command: str) -> None:
    """``wizard COMMAND PATH`` exits 1 with the one line ``message``, within LIMIT_MIB."""
    command = command or ("check",)
    code, peak, err = parent_peak_mib(command[0], path, *command[1:])
    assert (code, err) == (1, message), err[-500:]
    assert peak < LIMIT_MIB, f"{peak:.0f} MiB"


def fenced(path, *command: str) -> str:
    """``wizard COMMAND PATH`` exits 1 with one line naming the workbook as not readable (what
    stopped its child: the memory limit, mostly), within LIMIT_MIB; that line."""
    command = command or ("check",)
    code, peak, err = parent_peak_mib(command[0], path, *command[1:])
    assert code == 1 and "\n" not in err and err.startswith(f"{path}: {FENCED}"), err[-500:]
    assert peak < LIMIT_MIB, f"{peak:.0f} MiB"
    return err


def read_within(path, code: int, *command: str) -> str:
    """``wizard COMMAND PATH`` reads the workbook (calamine could, within the fence): it exits
    ``code``, each line of its stderr naming the workbook (none the fence's), within LIMIT_MIB;
    its stderr."""
    command = command or ("check",)
    status, peak, err = parent_peak_mib(command[0], path, *command[1:])
    assert status == code, err[-500:]
    assert all(line.startswith(str(path)) and FENCED not in line for line in err.splitlines()), err[
        -500:
    ]
    assert peak < LIMIT_MIB, f"{peak:.0f} MiB"
    return err
