"""SPEC §7, the lock beside the sheet (issue 21, items 1 and 13): only our own lock is ever
written to or removed. Whatever else stands at ``.NAME.lock`` (a link to a victim, a dangling
link, a hard link, a FIFO, a device, a folder) is refused with one line naming it, exit 1, and
left as it was; a lock file left behind by another user is locked when it may be read and
explained, with what to do, when it may not. Each case is a real ``wizard add`` process."""

from __future__ import annotations

import os
import pwd
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHEET = "players: [Anna, Ben, Cara]\nrounds: []\n"
ADDED = SHEET.replace("rounds: []", "rounds:\n  - bids:   [0, 0, 0]")
NOT_A_LOCK = (
    "s.yaml: cannot lock the sheet: its lock path .s.yaml.lock is {kind}, not a lock "
    "file (nothing was written; remove it if no wizard command is changing this sheet)\n"
)


def add(folder: Path, *prefix: str) -> subprocess.CompletedProcess:
    """``wizard add s.yaml --bids 0,0,0`` run in ``folder`` (after ``prefix``, a command that
    starts it)."""
    return subprocess.run(
        [*prefix, sys.executable, "-m", "wizard_cli", "add", "s.yaml", "--bids", "0,0,0"],
        cwd=folder,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "s.yaml").write_text(SHEET)
    (tmp_path / "victim").write_text("precious\n")
    return tmp_path


def make_symlink(folder: Path) -> None:
    (folder / ".s.yaml.lock").symlink_to("victim")


def make_dangling(folder: Path) -> None:
    (folder / ".s.yaml.lock").symlink_to("nowhere")


def make_hard_link(folder: Path) -> None:
    os.link(folder / "victim", folder / ".s.yaml.lock")


def make_fifo(folder: Path) -> None:
    os.mkfifo(folder / ".s.yaml.lock")


def make_device(folder: Path) -> None:
    try:
        os.mknod(folder / ".s.yaml.lock", 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # /dev/null's
    except PermissionError:
        pytest.skip("making a device file needs root")


def make_folder(folder: Path) -> None:
    (folder / ".s.yaml.lock").mkdir()


@pytest.mark.parametrize(
    "make, kind",
    [
        (make_symlink, "a symbolic link"),
        (make_dangling, "a symbolic link"),
        (make_hard_link, "a hard link to another file"),
        (make_fifo, "a FIFO"),
        (make_device, "a device"),
        (make_folder, "a folder"),
    ],
    ids=["symlink", "dangling-symlink", "hard-link", "fifo", "device", "folder"],
)
def test_what_is_not_our_lock_is_refused_and_left_untouched(folder, make, kind):
    make(folder)
    lock = folder / ".s.yaml.lock"
    before = os.lstat(lock)
    result = add(folder)
    assert (result.returncode, result.stdout, result.stderr) == (
        1,
        "",
        NOT_A_LOCK.format(kind=kind),
    )
    after = os.lstat(lock)
    assert (after.st_ino, after.st_mode, after.st_size) == (
        before.st_ino,
        before.st_mode,
        before.st_size,
    )
    assert (folder / "victim").read_text() == "precious\n"
    assert (folder / "s.yaml").read_text() == SHEET
    assert not (folder / "nowhere").exists()  # a dangling link made nothing where it points
    assert sorted(os.listdir(folder)) == [".s.yaml.lock", "s.yaml", "victim"]


def test_our_own_lock_is_made_and_removed(folder):
    result = add(folder)
    assert result.returncode == 0, result.stderr
    assert (folder / "s.yaml").read_text() == ADDED
    assert sorted(os.listdir(folder)) == ["s.yaml", "victim"]


# --- a lock left behind by another user (item 13) ---------------------------------------------


def without_root_powers() -> tuple[str, ...]:
    """The command prefix under which file permissions hold: run as root, the child loses the
    power to override them (setpriv); otherwise nothing."""
    if os.geteuid() != 0:
        return ()
    if shutil.which("setpriv") is None:
        pytest.skip("running as root, and setpriv (to drop root's file powers) is missing")
    caps = "-dac_override,-dac_read_search"
    return ("setpriv", f"--bounding-set={caps}", f"--inh-caps={caps}")


def as_another_user(folder: Path) -> tuple[str, ...]:
    """The command prefix under which ``folder/.s.yaml.lock``, made here and given to uid 65534,
    is another user's (not root: our own lock file with its permissions taken away stands in
    for it)."""
    prefix = without_root_powers()
    if prefix:
        os.chown(folder / ".s.yaml.lock", 65534, 65534)
    return prefix


def test_a_stale_lock_of_another_user_that_can_be_read_does_not_block(folder):
    lock = folder / ".s.yaml.lock"
    lock.write_text("4242\n")
    prefix = as_another_user(folder)
    lock.chmod(0o444)
    result = add(folder, *prefix)
    assert result.returncode == 0, result.stderr
    assert (folder / "s.yaml").read_text() == ADDED


def test_a_stale_lock_of_another_user_that_cannot_be_opened_says_what_to_do(folder):
    lock = folder / ".s.yaml.lock"
    lock.write_text("4242\n")
    prefix = as_another_user(folder)
    lock.chmod(0o000)
    owner = pwd.getpwuid(65534).pw_name if prefix else "you, with no read permission"
    result = add(folder, *prefix)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (
        f"s.yaml: cannot take the lock file .s.yaml.lock (Permission denied; it belongs to "
        f"{owner}): if no wizard command is changing this sheet, it was left behind by one that "
        "ended; remove it and try again\n"
    )
    assert (folder / "s.yaml").read_text() == SHEET
    assert lock.exists()
