"""One writer at a time per sheet (SPEC §7): a lock file beside the sheet, taken with ``flock``.

``flock`` belongs to the open file, so the kernel lets go of it when its process ends however it
ends (even ``kill -9``): a lock left by a process that no longer runs never blocks. The lock file
``.NAME.lock`` is removed when the lock is let go; a writer that finds it was removed (or
replaced) while waiting takes the new one instead, so two writers never hold "the" lock at once.

Only our own lock is ever written to or removed (issue 21): the lock path is opened with
``O_NOFOLLOW`` and taken only when it is a regular file with no other name, so a symbolic link
(dangling or not), a hard link, a FIFO, a device or a folder put there is refused with one line
naming it, and whatever it points to is left untouched. A lock file left behind by another user
that we may read but not write is still locked (``flock`` needs no write access); one we cannot
open at all is explained, with what to do about it.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from ..errors import Problem, WizardError

LOCK_TIMEOUT = 10.0  # seconds a second writer waits for the first
_POLL = 0.02
_OPEN = os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK | os.O_NOCTTY  # never block on a FIFO
STOPPED = "the server is stopping: nothing was written"
_KINDS = (
    (stat.S_ISLNK, "a symbolic link"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
    (stat.S_ISSOCK, "a socket"),
)


class Stopped(WizardError):
    """The wait for the lock was ended by shutdown: nothing was written."""


def lock_path(target: str) -> str:
    """``folder/.NAME.lock`` for ``folder/NAME``; for a name too long for that (a file name may
    have 255 bytes), its first characters, ``~`` and a digest of the whole name (issue 21,
    item 12), the same for every writer."""
    folder, name = os.path.split(target)
    short = short_name(name, 255 - len(".~.lock") - 10, folder or ".")
    if short == name and len(os.fsencode(name)) <= 255 - len("..lock"):
        return os.path.join(folder, f".{name}.lock")
    digest = hashlib.sha1(os.fsencode(name)).hexdigest()[:10]
    return os.path.join(folder, f".{short.rstrip('~')}~{digest}.lock")


def short_name(name: str, room: int, folder: str | os.PathLike = ".") -> str:
    """``name`` itself if it takes at most ``room`` bytes on disk (less what the folder's
    longest file name falls short of 255), else its first whole characters and ``~``."""
    try:
        room -= max(255 - os.pathconf(folder, "PC_NAME_MAX"), 0)
    except (OSError, ValueError):
        pass
    if len(os.fsencode(name)) <= room:
        return name
    cut = name
    while len(os.fsencode(cut)) > room - 1:
        cut = cut[:-1]
    return cut + "~"


@contextmanager
def sheet_lock(
    target: str,
    shown: str | None = None,
    timeout: float | None = None,
    stopping: threading.Event | None = None,
) -> Iterator[None]:
    """Hold the lock of the sheet file ``target`` (its real path) for the ``with`` block.

    Waits up to ``timeout`` seconds (default :data:`LOCK_TIMEOUT`) for another writer, then
    raises WizardError naming the sheet (``shown``, as the user typed it). A lock path that is
    not a regular file of its own is refused (WizardError), never written to or removed.
    ``stopping``, once set, ends the wait at once with :class:`Stopped` (``serve`` stops within
    2 s even while a phone's write waits on another process's lock: SPEC §9).
    """
    import fcntl

    shown = shown or target
    path = lock_path(target)
    named = _lock_as_typed(target, shown)
    deadline = time.monotonic() + (LOCK_TIMEOUT if timeout is None else timeout)
    while True:
        handle, writable = _open_lock(path, shown, named)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(handle)
            if stopping is not None and stopping.is_set():
                raise Stopped(Problem(STOPPED, shown)) from None
            if time.monotonic() >= deadline:
                waited = LOCK_TIMEOUT if timeout is None else timeout
                raise WizardError(
                    Problem(
                        f"another wizard command is changing this sheet (gave up waiting after "
                        f"{waited:g} s; nothing was written)",
                        shown,
                    )
                ) from None
            if stopping is not None:
                stopping.wait(_POLL)
            else:
                time.sleep(_POLL)
            continue
        except OSError as error:  # a file system without locks
            os.close(handle)
            raise WizardError(
                Problem(f"cannot lock the sheet for writing: {error.strerror or error}", shown)
            ) from None
        if _still_there(handle, path):
            break
        os.close(handle)  # removed by the writer before us: lock the new one
    if writable:
        try:
            os.ftruncate(handle, 0)
            os.write(handle, f"{os.getpid()}\n".encode())  # who holds it, for a curious user
        except OSError:
            pass
    try:
        yield
    finally:
        if _still_there(handle, path):  # ours, still: the next writer makes (and locks) a new one
            try:
                os.unlink(path)
            except OSError:  # another user's leftover in a sticky folder: it stays, harmless
                pass
        os.close(handle)


def _open_lock(path: str, shown: str, named: str) -> tuple[int, bool]:
    """The lock file, opened (created if absent) without following a link; and whether it is
    open for writing (a leftover of another user may be open for reading only)."""
    try:
        _refuse_unless_lock(os.lstat(path), shown, named)  # a device is never even opened
    except FileNotFoundError:
        pass
    except OSError as error:  # a folder that may not be entered
        raise WizardError(
            Problem(
                f"cannot lock the sheet for writing ({named}): {error.strerror or error}", shown
            )
        ) from None
    try:
        handle, writable = os.open(path, os.O_RDWR | os.O_CREAT | _OPEN, 0o644), True
    except OSError as error:
        if error.errno == errno.ELOOP:  # a link put there since we looked
            raise _not_a_lock(shown, named, "a symbolic link") from None
        if error.errno not in (errno.EACCES, errno.EPERM) or not os.path.lexists(path):
            raise WizardError(
                Problem(
                    f"cannot lock the sheet for writing ({named}): {error.strerror or error}", shown
                )
            ) from None
        try:
            handle, writable = os.open(path, os.O_RDONLY | _OPEN), False  # flock needs no more
        except OSError:
            raise _foreign_lock(path, shown, named, error) from None
    try:
        _refuse_unless_lock(os.fstat(handle), shown, named)
    except WizardError:
        os.close(handle)
        raise
    return handle, writable


def _refuse_unless_lock(info: os.stat_result, shown: str, named: str) -> None:
    """Raise unless ``info`` is of a regular file with no other name (a lock file of ours)."""
    for test, kind in _KINDS:
        if test(info.st_mode):
            raise _not_a_lock(shown, named, kind)
    if info.st_nlink > 1:
        raise _not_a_lock(shown, named, "a hard link to another file")


def _not_a_lock(shown: str, named: str, kind: str) -> WizardError:
    return WizardError(
        Problem(
            f"cannot lock the sheet: its lock path {named} is {kind}, not a lock file (nothing was "
            "written; remove it if no wizard command is changing this sheet)",
            shown,
        )
    )


def _foreign_lock(path: str, shown: str, named: str, error: OSError) -> WizardError:
    """A lock file we may not open: most likely left behind by another user's wizard."""
    owner = "another user"
    try:
        uid = os.lstat(path).st_uid
        if uid == os.geteuid():
            owner = "you, with no read permission"
        else:
            import pwd

            owner = pwd.getpwuid(uid).pw_name
    except (OSError, KeyError, ImportError):
        pass
    return WizardError(
        Problem(
            f"cannot take the lock file {named} ({error.strerror or error}; it belongs to {owner}): "
            "if no wizard command is changing this sheet, it was left behind by one that ended; "
            "remove it and try again",
            shown,
        )
    )


def _lock_as_typed(target: str, shown: str) -> str:
    """The lock path as the user would name it: beside the sheet as typed, unless the typed
    name is a link elsewhere (then the real one, where the lock is)."""
    typed = lock_path(shown)
    try:
        if os.path.realpath(os.path.dirname(shown) or ".") == os.path.dirname(
            target
        ) and os.path.basename(shown) == os.path.basename(target):
            return typed
    except OSError:  # pragma: no cover - realpath does not raise for a missing path
        pass
    return lock_path(target)


def _still_there(handle: int, path: str) -> bool:
    """Whether the locked file is still the one at ``path`` (not removed or replaced meanwhile)."""
    try:
        there = os.lstat(path)
    except OSError:
        return False
    mine = os.fstat(handle)
    return (there.st_dev, there.st_ino) == (mine.st_dev, mine.st_ino)
