"""The entry token, kept across restarts (SPEC §9 "One token, kept").

The token lives in ``$XDG_STATE_HOME/wizard/serve-token`` (else
``~/.local/state/wizard/serve-token``), so the phones that have the entry address go on working
after a restart. It is created atomically with ``O_EXCL`` and mode 0600 in a 0700 folder; a
token file that its group or others can read or write is refused rather than used, since anyone
who can read it can write to the sheet.
"""

from __future__ import annotations

import os
import secrets
import stat
from collections.abc import Mapping
from pathlib import Path

from ..errors import Problem, WizardError

TOKEN_BYTES = 24  # 192 random bits (SPEC §9: at least 128)
MIN_LENGTH = 22  # a kept token shorter than 128 bits' worth of url-safe text is not used
ALPHABET = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def token_path(environ: Mapping[str, str] | None = None) -> Path:
    """Where the token is kept: under ``$XDG_STATE_HOME`` when set to an absolute path (the XDG
    rule: a relative one is ignored), else ``~/.local/state``."""
    state = (os.environ if environ is None else environ).get("XDG_STATE_HOME", "")
    base = Path(state) if os.path.isabs(state) else Path.home() / ".local" / "state"
    return base / "wizard" / "serve-token"


def entry_token(path: Path, renew: bool = False) -> str:
    """The kept token at ``path``, made first when there is none (or ``renew``, for
    ``--new-token``). A WizardError, one line, when it cannot be kept or is readable by others."""
    if renew:
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
        except OSError as error:
            raise _problem(path, error) from None
    try:
        return _read(path)
    except FileNotFoundError:
        pass
    try:
        return _create(path)
    except FileExistsError:  # another serve made it first: use theirs
        return _read(path)


def _read(path: Path) -> str:
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise
    except OSError as error:
        raise _problem(path, error) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise WizardError(
                Problem(
                    path=str(path),
                    message="the entry token is not a regular file; remove it or use --new-token",
                )
            )
        if info.st_mode & 0o077:
            raise WizardError(
                Problem(
                    path=str(path),
                    message=f"others can read the entry token (mode "
                    f"{stat.S_IMODE(info.st_mode):04o}); not used: chmod 600 it or use --new-token",
                )
            )
        text = os.read(fd, 256).decode("ascii", "replace").strip()
    finally:
        os.close(fd)
    if len(text) < MIN_LENGTH or not set(text) <= ALPHABET:
        raise WizardError(
            Problem(
                path=str(path), message="the entry token is not one serve made; use --new-token"
            )
        )
    return text


def _create(path: Path) -> str:
    token = secrets.token_urlsafe(TOKEN_BYTES)
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(
            path,
            os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0),
            0o600,
        )
    except FileExistsError:
        raise
    except OSError as error:
        raise _problem(path, error) from None
    try:
        os.fchmod(fd, 0o600)  # whatever the umask
        os.write(fd, (token + "\n").encode("ascii"))
        os.fsync(fd)
    except OSError as error:
        os.close(fd)
        os.unlink(path)
        raise _problem(path, error) from None
    os.close(fd)
    return token


def _problem(path: Path, error: OSError) -> WizardError:
    return WizardError(
        Problem(path=str(path), message=f"cannot keep the entry token: {error.strerror or error}")
    )
