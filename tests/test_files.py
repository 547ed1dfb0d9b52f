"""wizard_cli.editing.atomic: atomic writes that never overwrite without --force and never leave debris."""

from __future__ import annotations

import os
import stat

import pytest

from wizard_cli.editing import atomic as files
from wizard_cli.editing.atomic import write_atomically
from wizard_cli.errors import WizardError


def messages(excinfo: pytest.ExceptionInfo[WizardError]) -> list[str]:
    return [str(problem) for problem in excinfo.value.problems]


def test_writes_a_new_file_with_the_usual_permissions(tmp_path):
    target = tmp_path / "sheet.yaml"
    write_atomically(target, "players: [A, B, C]\n")
    assert target.read_bytes() == b"players: [A, B, C]\n"
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~mask
    assert os.listdir(tmp_path) == ["sheet.yaml"]


def test_text_is_utf8_and_bytes_are_written_as_they_are(tmp_path):
    write_atomically(tmp_path / "a.txt", "Zoë\r\n")
    write_atomically(tmp_path / "b.txt", b"\xef\xbb\xbfx")
    assert (tmp_path / "a.txt").read_bytes() == "Zoë\r\n".encode()
    assert (tmp_path / "b.txt").read_bytes() == b"\xef\xbb\xbfx"


def test_refuses_to_overwrite_without_force(tmp_path):
    target = tmp_path / "sheet.yaml"
    target.write_text("mine\n")
    with pytest.raises(WizardError) as excinfo:
        write_atomically(target, "theirs\n")
    assert messages(excinfo) == [f"{target}: already exists; use --force to overwrite"]
    assert target.read_text() == "mine\n"
    assert os.listdir(tmp_path) == ["sheet.yaml"]


def test_force_overwrites_and_keeps_the_permissions(tmp_path):
    target = tmp_path / "sheet.yaml"
    target.write_text("old\n")
    target.chmod(0o600)
    write_atomically(target, "new\n", force=True)
    assert target.read_text() == "new\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert os.listdir(tmp_path) == ["sheet.yaml"]


def test_a_failed_rename_keeps_the_original_and_removes_the_temporary_file(tmp_path, monkeypatch):
    target = tmp_path / "sheet.yaml"
    target.write_text("original\n")

    def fail(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "replace", fail)
    with pytest.raises(WizardError) as excinfo:
        write_atomically(target, "new\n", force=True)
    assert messages(excinfo) == [f"{target}: cannot write: No space left on device"]
    assert target.read_text() == "original\n"
    assert os.listdir(tmp_path) == ["sheet.yaml"]


def test_an_interrupted_write_removes_the_temporary_file(tmp_path, monkeypatch):
    target = tmp_path / "sheet.yaml"
    target.write_text("original\n")

    def interrupt(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(files.os, "fsync", interrupt)
    with pytest.raises(KeyboardInterrupt):
        write_atomically(target, "new\n", force=True)
    assert target.read_text() == "original\n"
    assert os.listdir(tmp_path) == ["sheet.yaml"]


def test_a_file_that_appears_while_writing_is_not_overwritten(tmp_path, monkeypatch):
    target = tmp_path / "sheet.yaml"
    real_fsync = os.fsync

    def someone_else_writes(fd):
        real_fsync(fd)
        target.write_text("someone else's\n")

    monkeypatch.setattr(files.os, "fsync", someone_else_writes)
    with pytest.raises(WizardError) as excinfo:
        write_atomically(target, "mine\n")
    assert messages(excinfo) == [f"{target}: already exists; use --force to overwrite"]
    assert target.read_text() == "someone else's\n"
    assert os.listdir(tmp_path) == ["sheet.yaml"]


def test_a_missing_folder_is_a_located_error(tmp_path):
    target = tmp_path / "no" / "such" / "sheet.yaml"
    with pytest.raises(WizardError) as excinfo:
        write_atomically(target, "x\n")
    assert messages(excinfo) == [f"{target}: cannot write: No such file or directory"]


def test_a_folder_is_not_overwritten(tmp_path):
    with pytest.raises(WizardError) as excinfo:
        write_atomically(tmp_path, "x\n", force=True)
    assert messages(excinfo) == [f"{tmp_path}: is a folder, not a file"]


def test_writes_through_a_symlink_and_keeps_the_link(tmp_path):
    real = tmp_path / "real.yaml"
    real.write_text("old\n")
    link = tmp_path / "link.yaml"
    link.symlink_to(real)
    write_atomically(link, "new\n", force=True)
    assert link.is_symlink()
    assert real.read_text() == "new\n"
    assert sorted(os.listdir(tmp_path)) == ["link.yaml", "real.yaml"]


def test_refuse_existing_fails_early_only_without_force(tmp_path):
    from wizard_cli.editing.atomic import refuse_existing

    target = tmp_path / "sheet.yaml"
    refuse_existing(target, force=False)  # absent: fine
    target.write_text("x\n")
    refuse_existing(target, force=True)
    with pytest.raises(WizardError) as excinfo:
        refuse_existing(target, force=False)
    assert messages(excinfo) == [f"{target}: already exists; use --force to overwrite"]
