"""Names a sheet may have (issue 21, items 11, 12, 14 and 19): a second name (a hard link), a
name of 255 bytes, a workbook's name, a name with an escape in it, a folder that may not be
entered, a folder given as a season."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import run
from test_lock_paths import ROOT, without_root_powers

SHEET = "players: [Anna, Ben, Cara]\nrounds: []\n"
ADDED = SHEET.replace("rounds: []", "rounds:\n  - bids:   [0, 0, 0]")


def wizard(folder: Path, *args: str, prefix: tuple[str, ...] = (), **options):
    return subprocess.run(
        [*prefix, sys.executable, "-m", "wizard_cli", *args],
        cwd=folder,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        **options,
    )


# --- item 11: hard links ----------------------------------------------------------------------


def test_a_sheet_with_a_second_name_is_not_split_from_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("h.yaml").write_text(SHEET)
    os.link("h.yaml", "twin.yaml")
    result = run("add", "h.yaml", "--bids", "0,0,0")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        "h.yaml: cannot change: the sheet has 2 names (hard links); a changed sheet is a new file "
        "the other names would not see: edit a copy of its own, or make the other names "
        "symbolic links\n"
    )
    assert os.stat("h.yaml").st_ino == os.stat("twin.yaml").st_ino
    assert Path("twin.yaml").read_text() == SHEET
    assert sorted(os.listdir()) == ["h.yaml", "twin.yaml"]


# --- item 12: long names ----------------------------------------------------------------------


@pytest.mark.parametrize("length", [240, 250])
def test_a_sheet_with_a_long_name_can_be_changed(tmp_path, monkeypatch, length):
    monkeypatch.chdir(tmp_path)
    name = "n" * length + ".yaml"  # 245 and 255 bytes: its lock and temporary file would be longer
    Path(name).write_text(SHEET)
    result = run("add", name, "--bids", "0,0,0")
    assert result.exit_code == 0, result.stderr
    assert Path(name).read_text() == ADDED
    assert run("undo", name).exit_code == 0
    assert Path(name).read_text() == SHEET
    assert os.listdir() == [name]


def test_new_writes_a_sheet_with_a_name_of_255_bytes(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    name = "ä" * 125 + ".yaml"  # 255 bytes in UTF-8: cut short, a name keeps whole characters
    result = run("new", "-o", name, "--players", "Anna,Ben,Cara")
    assert result.exit_code == 0, result.stderr
    assert "players: [Anna, Ben, Cara]" in Path(name).read_text()
    assert run("add", name, "--bids", "0,0,0").exit_code == 0
    assert os.listdir() == [name]


def test_a_failed_write_names_the_sheet_as_typed_not_its_real_path(tmp_path):
    (tmp_path / "game.yaml").write_text(SHEET + "# " + "x" * 200 + "\n")

    def small_files() -> None:  # a file size limit: the new sheet cannot be written
        resource.setrlimit(resource.RLIMIT_FSIZE, (100, 100))

    result = wizard(tmp_path, "add", "game.yaml", "--bids", "0,0,0", preexec_fn=small_files)
    assert (result.returncode, result.stderr) == (1, "game.yaml: cannot write: File too large\n")
    assert os.listdir(tmp_path) == ["game.yaml"]


# --- item 14: a workbook given to add ---------------------------------------------------------


@pytest.mark.parametrize("name", ["book.xlsx", "book.yaml"], ids=["by-name", "by-content"])
@pytest.mark.parametrize("command", [("add", "--bids", "0,0,0"), ("undo",)], ids=["add", "undo"])
def test_add_on_a_workbook_says_that_it_edits_yaml_sheets(tmp_path, monkeypatch, name, command):
    monkeypatch.chdir(tmp_path)
    Path(name).write_bytes((ROOT / "sample_sheets" / "worked-example.xlsx").read_bytes())
    result = run(command[0], name, *command[1:])
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"{name}: {command[0]} edits YAML sheets only, and this is a "
        f"workbook; make one from it with `wizard convert {name} --to yaml "
        "-o NEW.yaml`\n"
    )


# --- item 19: names in messages, a folder as a season -----------------------------------------


def test_a_missing_file_s_name_shows_its_escapes():
    result = run("check", "no\x1b[2Jsuch.yaml")
    assert result.exit_code == 2
    assert result.stderr.endswith("Invalid value for SHEET: no such file: no\\x1b[2Jsuch.yaml\n")


def test_new_into_a_folder_that_may_not_be_entered_names_the_path(tmp_path):
    prefix = without_root_powers()
    (tmp_path / "locked").mkdir(mode=0o000)
    try:
        result = wizard(
            tmp_path, "new", "-o", "locked/n.yaml", "--players", "Anna,Ben,Cara", prefix=prefix
        )
    finally:
        (tmp_path / "locked").chmod(0o755)
    assert (result.returncode, result.stderr) == (
        1,
        "locked/n.yaml: cannot write: Permission denied\n",
    )


def test_a_folder_is_no_season_but_the_message_says_how_to_name_its_sheets(tmp_path):
    (tmp_path / "season").mkdir()
    result = run("stats", tmp_path / "season")
    assert result.exit_code == 2
    assert result.stderr.endswith(
        f"Invalid value for SHEET: not a file: {tmp_path}/season (a "
        f"folder: name its sheets, such as {tmp_path}/season/*.yaml)\n"
    )
