"""Writing the user's files safely (SPEC §7): never overwrite without ``--force``, never leave
half a file, never lose a concurrent update.

- :func:`write_atomically` writes a whole file: the text goes to a temporary file in the same
  folder, is flushed to disk and renamed over the target in one step, so a crash, a full disk,
  Ctrl-C, SIGTERM or SIGHUP leaves either the old file or the new one, and no temporary file.
  The target keeps its mode and, where the user may set it, its owner. Only a regular file is
  ever replaced: a device, a FIFO or ``/dev/stdout`` is written to as it is.
- :func:`update_in_place` is the one write path of every command that changes a sheet
  (``add``, ``edit``, ``undo``, ``play``): lock, read, let the caller compute the new text,
  write atomically, unlock.
"""

from __future__ import annotations

import codecs
import errno
import os
import signal
import stat
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from ..errors import Problem, WizardError
from .locking import sheet_lock, short_name
from .spliced import Text, blocks

OVERWRITE_HINT = "already exists; use --force to overwrite"
READ_ONLY = "the sheet is read-only"
# A sheet is changed by writing a new file and renaming it into place: done to one of two hard
# links, the other would keep the old sheet (and lock apart); rewriting the file itself instead
# could leave half a sheet under both names after a crash. So it is refused (issue 21, item 11).
HARD_LINKED = (
    "cannot change: the sheet has {links} names (hard links); a changed sheet is a new "
    "file the other names would not see: edit a copy of its own, or make the other "
    "names symbolic links"
)
# Paths that name an open stream rather than a file (``-o /dev/stdout`` into a pipe).
_STREAM_PATHS = ("/dev/stdout", "/dev/stderr", "/dev/fd/", "/proc/self/fd/", "/dev/tty")
_CLEANUP_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)
)
_BLOCKED_SIGNALS = _CLEANUP_SIGNALS + (signal.SIGINT,)

Data = str | bytes | Iterable[str | bytes]


class Signalled(SystemExit):
    """SIGTERM or SIGHUP arrived during a write: unwind (removing the temporary file), then exit
    with 128 + the signal's number, as a shell reports a process ended by it."""

    def __init__(self, signum: int) -> None:
        super().__init__(128 + signum)


def write_atomically(
    path: str | os.PathLike, data: Data, force: bool = False, shown: str | None = None
) -> None:
    """Write ``data`` (text is UTF-8; an iterable of pieces is written as it comes) to ``path``.

    An existing regular file needs ``force``; a device or FIFO is written to as it is; a folder
    is an error. Raises WizardError (one line naming ``shown``, default ``path``, as the user
    typed it) when the file cannot be written.
    """
    shown = shown or os.fspath(path)
    try:
        target = Path(os.path.realpath(os.fspath(path)))  # write through a symlink, not over it
        if target.is_dir():
            raise WizardError(Problem("is a folder, not a file", shown))
        if writes_in_place(path):
            _write_stream(os.fspath(path), data, shown)
            return
        if not force and target.exists():
            raise WizardError(Problem(OVERWRITE_HINT, shown))
        existing = _stat_or_none(target)
    except OSError as error:  # a folder on the way that may not be entered
        raise _cannot_write(shown, error) from None
    temp = None
    with signals_unwind():
        try:
            with signals_blocked():  # no signal between creating the file and knowing its name
                handle, temp = tempfile.mkstemp(
                    prefix=_temporary_prefix(target), suffix=".tmp", dir=target.parent
                )
            try:
                _keep_mode_and_owner(handle, existing)
                _write_all(handle, data)
                os.fsync(handle)
            finally:
                os.close(handle)
            _move_into_place(temp, target, shown, force)
            _sync_folder(target.parent)
        except OSError as error:
            _remove_quietly(temp)
            raise _cannot_write(shown, error) from None
        except BaseException:
            _remove_quietly(temp)
            raise


def _temporary_prefix(target: Path) -> str:
    """``.NAME.`` for the temporary file beside ``NAME``, NAME cut short where the whole name
    (with mkstemp's 8 characters and ``.tmp``) would pass the folder's longest file name: a
    sheet may have a name of 255 bytes (issue 21, item 12)."""
    return f".{short_name(target.name, 243 - 2, target.parent)}."


def update_in_place(
    path: str | os.PathLike,
    change: Callable[[str], Text],
    encoding: str | None = None,
    fingerprint: Callable[[bytes], None] | None = None,
    stopping: threading.Event | None = None,
    follow: bool = True,
) -> Text:
    """Change a sheet file safely; return its new text (as ``change`` made it).

    The one write path of every command that changes a sheet (SPEC §7). While a lock beside
    the sheet is held (a second writer waits up to 10 s, then fails naming the sheet):

    1. the sheet is read and decoded (``encoding``, default UTF-8 with or without a byte-order
       mark); a sheet with no write permission bit is refused, even for root;
    2. ``change(text)`` computes the new text (a str, or the text's pieces with the edits: a
       :class:`~.spliced.Spliced`). It sees lines ended as the file ends them, except that a
       file of CR-only line ends is handed over with LF ends (and written back with CR); it
       raises WizardError to refuse, and then nothing is written;
    3. if the text changed, it is written atomically in the same encoding, with the same
       byte-order mark, mode and owner.

    ``fingerprint`` is shown the file's bytes as read under the lock (it raises WizardError to
    refuse: ``serve``'s undo checks they are the bytes the phone's game was made from);
    ``stopping`` ends the wait for the lock (``serve`` is shutting down: nothing written).
    ``follow=False`` (``serve DIR``): a symbolic link at ``path`` is refused, neither read nor
    written through (SPEC §9).
    """
    shown = os.fspath(path)
    target = os.path.realpath(shown) if follow else os.path.abspath(shown)
    # a signal: lock file removed too
    with signals_unwind(), sheet_lock(target, shown, stopping=stopping):
        info = _stat_or_none(Path(target))
        if info is None or not stat.S_ISREG(info.st_mode):
            raise WizardError(Problem("cannot change: not a regular file", shown))
        if not info.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
            raise WizardError(Problem(READ_ONLY, shown))
        if info.st_nlink > 1:
            raise WizardError(Problem(HARD_LINKED.format(links=info.st_nlink), shown))
        from ..sheets.source import open_regular

        try:  # never blocks: a FIFO swapped in since the check above is refused
            with os.fdopen(open_regular(target, shown, follow), "rb") as handle:
                raw = handle.read()
        except OSError as error:
            raise WizardError(Problem(f"cannot read: {error.strerror or error}", shown)) from None
        if fingerprint is not None:
            fingerprint(raw)
        codec, bom, text = _decoded(raw, shown, encoding)
        del raw  # a 60 MB sheet is held once, as text (SPEC §4: 250 MiB)
        cr_only = "\r" in text and "\n" not in text
        if cr_only:
            text = text.replace("\r", "\n")
        new = change(text)
        if new != text:
            pieces = blocks(new)
            if cr_only:  # the text handed over had no CR left, so no CRLF spans two blocks
                pieces = (block.replace("\r\n", "\n").replace("\n", "\r") for block in pieces)
            write_atomically(target, _encoded(bom, pieces, codec), force=True, shown=shown)
        return new


def _encoded(bom: bytes, pieces: Iterable[str], codec: str) -> Iterator[bytes]:
    """The byte-order mark, then the text encoded a block at a time (never a second whole
    copy of a big sheet)."""
    yield bom
    encoder = codecs.getincrementalencoder(codec)()
    for piece in pieces:
        yield encoder.encode(piece)
    yield encoder.encode("", final=True)


def writes_in_place(path: str | os.PathLike) -> bool:
    """Whether ``-o PATH`` names something written to as it is (a device, a FIFO, a socket,
    ``/dev/stdout``) rather than a regular file to replace atomically."""
    shown = os.fspath(path)
    if shown.startswith(_STREAM_PATHS) or os.path.realpath(shown).startswith("/proc/"):
        return True
    try:
        mode = os.stat(shown).st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


def refuse_existing(path: str | os.PathLike, force: bool) -> None:
    """Fail early, before any work: a folder always, an existing file without ``force``."""
    shown = os.fspath(path)
    if os.path.isdir(shown):
        raise WizardError(Problem("is a folder, not a file", shown))
    if not force and os.path.lexists(shown) and not writes_in_place(shown):
        raise WizardError(Problem(OVERWRITE_HINT, shown))


# --- the pieces ----------------------------------------------------------------------------


def _pieces(data: Data) -> Iterator[bytes]:
    """The data as bytes, piece by piece."""
    if isinstance(data, (str, bytes)):
        data = (data,)
    for piece in data:
        yield piece.encode("utf-8") if isinstance(piece, str) else piece


def _write_all(handle: int, data: Data) -> None:
    """Write every byte or raise: a short write (a file size limit, a full disk) is no success."""
    for piece in _pieces(data):
        view = memoryview(piece)
        while view:
            written = os.write(handle, view)
            if written <= 0:  # pragma: no cover - os.write raises rather than return 0
                raise OSError(errno.EIO, "nothing could be written")
            view = view[written:]


def _write_stream(path: str, data: Data, shown: str) -> None:
    """Write to a device, FIFO or open stream as it is (never replaced, never truncated)."""
    try:
        handle = os.open(path, os.O_WRONLY | os.O_APPEND)
    except OSError as error:
        raise _cannot_write(shown, error) from None
    try:
        _write_all(handle, data)
    except BrokenPipeError:
        raise
    except OSError as error:
        raise _cannot_write(shown, error) from None
    finally:
        os.close(handle)


_MARKS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),  # 32 first:
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),  # FF FE 00 00
    (codecs.BOM_UTF8, "utf-8"),
)


def _decoded(raw: bytes, shown: str, encoding: str | None) -> tuple[str, bytes, str]:
    """The codec to write the text back with, the byte-order mark to put before it (the file's
    own, in its own byte order), and the text of a sheet file."""
    from ..sheets.source import decode_all, file_encoding, text_encoding

    encoding = file_encoding(encoding, raw[:4])  # a UTF-16 file (by its mark) stays UTF-16
    codec = text_encoding(encoding)
    text = decode_all(raw, shown, encoding)
    family = {"utf-8-sig": "utf-8", "utf-16": "utf-16", "utf-32": "utf-32"}.get(codec, "")
    for mark, body in _MARKS if family else ():
        if raw.startswith(mark) and body.startswith(family):
            return body, mark, text
    return ("utf-8" if codec == "utf-8-sig" else codec), b"", text


def _stat_or_none(target: Path) -> os.stat_result | None:
    """The target's status, or None when it does not exist (yet)."""
    try:
        return target.stat()
    except OSError:
        return None


def _keep_mode_and_owner(handle: int, existing: os.stat_result | None) -> None:
    """Give the temporary file the target's permissions and, where allowed, its owner; a new
    file gets the usual ones (0666 less the umask)."""
    if existing is None:
        mask = os.umask(0)
        os.umask(mask)
        os.fchmod(handle, 0o666 & ~mask)
        return
    if (existing.st_uid, existing.st_gid) != (os.geteuid(), os.getegid()):
        try:
            os.fchown(handle, existing.st_uid, existing.st_gid)
        except OSError:  # only root may give a file away; the group where one belongs to it
            try:
                os.fchown(handle, -1, existing.st_gid)
            except OSError:
                pass
    os.fchmod(handle, stat.S_IMODE(existing.st_mode))  # after chown, which may clear set-id bits


def _move_into_place(temp: str, target: Path, shown: str, force: bool) -> None:
    """Rename the finished temporary file onto the target (without force: only if still absent)."""
    if force:
        os.replace(temp, target)
        return
    try:
        os.link(temp, target)  # fails if the target appeared meanwhile: no silent overwrite
    except FileExistsError:
        raise WizardError(Problem(OVERWRITE_HINT, shown)) from None
    except OSError as error:
        if error.errno not in (errno.EPERM, errno.ENOTSUP, errno.EXDEV, errno.EMLINK, errno.EACCES):
            raise
        if target.exists():  # a file system without hard links: check, then rename
            raise WizardError(Problem(OVERWRITE_HINT, shown)) from None
        os.replace(temp, target)
        return
    os.unlink(temp)


def _sync_folder(folder: Path) -> None:
    """Flush the rename itself to disk (best effort: not every system can open a folder)."""
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass
    finally:
        os.close(handle)


def _remove_quietly(temp: str | None) -> None:
    """Delete a leftover temporary file, if it is still there."""
    if temp is None:
        return
    try:
        os.unlink(temp)
    except OSError:
        pass


def _cannot_write(shown: str, error: OSError) -> WizardError:
    """An operating-system failure as one located line."""
    return WizardError(Problem(f"cannot write: {error.strerror or error}", shown))


def _main_thread() -> bool:
    """Signal handlers can be set only in the main thread."""
    return threading.current_thread() is threading.main_thread()


@contextmanager
def signals_unwind() -> Iterator[None]:
    """While writing, SIGTERM and SIGHUP unwind like Ctrl-C does (so the temporary file is
    removed) and then end the process as the signal would have (exit 128 + N)."""
    if not _main_thread():
        yield
        return

    def unwind(signum: int, frame: object) -> None:
        raise Signalled(signum)

    previous = {}
    for number in _CLEANUP_SIGNALS:
        current = signal.getsignal(number)
        if current is signal.SIG_IGN:  # ignored by who started us (nohup): stays ignored
            continue
        previous[number] = signal.signal(number, unwind)
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


@contextmanager
def signals_blocked() -> Iterator[None]:
    """Hold back SIGINT, SIGTERM and SIGHUP for a moment (delivered right after)."""
    if not _main_thread() or not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _BLOCKED_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
