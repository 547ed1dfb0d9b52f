"""Writing the user's files safely: never overwrite without ``--force``, never leave half a file.

Every command that writes a file goes through :func:`write_atomically`: the text goes to a
temporary file in the same folder, is flushed to disk, and then renamed over the target in one
step, so a crash, a full disk or Ctrl-C leaves either the old file or the new one — never a mix.
"""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path

from ..errors import Problem, WizardError

OVERWRITE_HINT = "already exists; use --force to overwrite"


def write_atomically(path: str | os.PathLike, data: str | bytes, force: bool = False) -> None:
    """Write ``data`` (text is UTF-8) to ``path`` atomically; an existing file needs ``force``."""
    shown = os.fspath(path)
    target = Path(os.path.realpath(shown))  # write through a symlink, not over it
    payload = data.encode("utf-8") if isinstance(data, str) else data
    if target.is_dir():
        raise WizardError(Problem("is a folder, not a file", shown))
    if not force and target.exists():
        raise WizardError(Problem(OVERWRITE_HINT, shown))
    try:
        handle, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as error:
        raise _cannot_write(shown, error) from None
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(payload)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temp, _mode_for(target))
        _move_into_place(temp, target, shown, force)
    except OSError as error:
        _remove_quietly(temp)
        raise _cannot_write(shown, error) from None
    except BaseException:
        _remove_quietly(temp)
        raise


def refuse_existing(path: str | os.PathLike, force: bool) -> None:
    """Fail early, before any work, when ``path`` exists and ``force`` was not given."""
    if not force and os.path.lexists(path) and not os.path.isdir(path):
        raise WizardError(Problem(OVERWRITE_HINT, os.fspath(path)))


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


def _mode_for(target: Path) -> int:
    """Keep an existing file's permissions; a new file gets the usual ones (0666 less the umask)."""
    try:
        return target.stat().st_mode & 0o7777
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def _remove_quietly(temp: str) -> None:
    """Delete a leftover temporary file, if it is still there."""
    try:
        os.unlink(temp)
    except OSError:
        pass


def _cannot_write(shown: str, error: OSError) -> WizardError:
    """An operating-system failure as one located line."""
    return WizardError(Problem(f"cannot write: {error.strerror or error}", shown))
