"""One writer at a time per sheet (SPEC §7): a lock file beside the sheet, taken with ``flock``.

``flock`` belongs to the open file, so the kernel lets go of it when its process ends however it
ends (even ``kill -9``): a lock left by a process that no longer runs never blocks. The lock file
``.NAME.lock`` is removed when the lock is let go; a writer that finds it was removed (or
replaced) while waiting takes the new one instead, so two writers never hold "the" lock at once.
"""

from __future__ import annotations

import os
import time
from contextlib import contextmanager
from typing import Iterator

from ..errors import Problem, WizardError

LOCK_TIMEOUT = 10.0  # seconds a second writer waits for the first
_POLL = 0.02


def lock_path(target: str) -> str:
    """``folder/.NAME.lock`` for ``folder/NAME``."""
    folder, name = os.path.split(target)
    return os.path.join(folder, f".{name}.lock")


@contextmanager
def sheet_lock(target: str, shown: str | None = None, timeout: float | None = None) -> Iterator[None]:
    """Hold the lock of the sheet file ``target`` (its real path) for the ``with`` block.

    Waits up to ``timeout`` seconds (default :data:`LOCK_TIMEOUT`) for another writer, then
    raises WizardError naming the sheet (``shown``, as the user typed it).
    """
    import fcntl

    shown = shown or target
    path = lock_path(target)
    deadline = time.monotonic() + (LOCK_TIMEOUT if timeout is None else timeout)
    while True:
        try:
            handle = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as error:
            raise WizardError(Problem(f"cannot lock the sheet for writing ({path}): "
                                      f"{error.strerror or error}", shown)) from None
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(handle)
            if time.monotonic() >= deadline:
                waited = LOCK_TIMEOUT if timeout is None else timeout
                raise WizardError(Problem(
                    f"another wizard command is changing this sheet (gave up waiting after "
                    f"{waited:g} s; nothing was written)", shown)) from None
            time.sleep(_POLL)
            continue
        except OSError as error:  # a file system without locks
            os.close(handle)
            raise WizardError(Problem(f"cannot lock the sheet for writing: "
                                      f"{error.strerror or error}", shown)) from None
        if _still_there(handle, path):
            break
        os.close(handle)  # removed by the writer before us: lock the new one
    try:
        os.ftruncate(handle, 0)
        os.write(handle, f"{os.getpid()}\n".encode())  # who holds it, for a curious user
    except OSError:
        pass
    try:
        yield
    finally:
        try:
            os.unlink(path)  # while still held: the next writer makes (and locks) a new one
        except OSError:
            pass
        os.close(handle)


def _still_there(handle: int, path: str) -> bool:
    """Whether the locked file is still the one at ``path`` (not removed or replaced meanwhile)."""
    try:
        there = os.stat(path)
    except FileNotFoundError:
        return False
    mine = os.fstat(handle)
    return (there.st_dev, there.st_ino) == (mine.st_dev, mine.st_ino)
