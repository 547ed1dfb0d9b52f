"""SPEC §7, the sheet side: one writer at a time, read-only sheets, owner and mode, signals, line
ends, tabs, folders that cannot be entered (issue 11, defects 1, 7–10, 12–14)."""

from __future__ import annotations

import os
import shutil
import signal
import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from helpers import run

from wizard_cli.editing import locking
from wizard_cli.editing.atomic import update_in_place
from wizard_cli.editing.locking import lock_path, sheet_lock

ROOT = Path(__file__).resolve().parent.parent
IN_PLAY = """\
players: [Anna, Ben, Cara]
settings: {roundMode: custom, customRoundCount: 3, bidding: hidden}
rounds:
  - bids: {Anna: 1}
"""
AS_ROOT = os.geteuid() == 0


def wizard(*args: object, **options) -> subprocess.CompletedProcess:
    """``wizard ARGS…`` as a real process (what a lock, a signal or a closed stdout needs)."""
    options.setdefault("capture_output", True)
    return subprocess.run(
        [sys.executable, "-m", "wizard_cli", *map(str, args)], cwd=ROOT, text=True, **options
    )


def start(*args: object) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "wizard_cli", *map(str, args)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def leftovers(folder: Path, keep: set[str]) -> list[str]:
    """Files in the folder other than those expected (temporary files, lock files)."""
    return sorted(set(os.listdir(folder)) - keep)


# --- 1. two writers never lose an update ------------------------------------------------------


def test_concurrent_adds_in_real_processes_never_lose_an_update(tmp_path):
    pairs = int(os.environ.get("WIZARD_PAIRS", "12"))
    sheets = []
    for number in range(pairs):
        sheet = tmp_path / f"game{number}.yaml"
        sheet.write_text(IN_PLAY)
        sheets.append(sheet)
    runs = [
        (sheet, "Ben", start("add", sheet, "--bids", "Ben=0", "-f", "json")) for sheet in sheets
    ]
    runs += [
        (sheet, "Cara", start("add", sheet, "--bids", "Cara=1", "-f", "json")) for sheet in sheets
    ]
    for sheet, name, process in runs:
        out, err = process.communicate(timeout=120)
        assert process.returncode == 0, err
        text = sheet.read_text()
        assert f"{name}: {0 if name == 'Ben' else 1}" in text, text
    for sheet in sheets:
        assert sheet.read_text() == IN_PLAY.replace(
            "{Anna: 1}", "{Anna: 1, Ben: 0, Cara: 1}"
        ) or sheet.read_text() == IN_PLAY.replace("{Anna: 1}", "{Anna: 1, Cara: 1, Ben: 0}")
    assert leftovers(tmp_path, {s.name for s in sheets}) == []


def test_a_second_writer_waits_then_fails_naming_the_sheet(tmp_path, monkeypatch):
    sheet = tmp_path / "game.yaml"
    sheet.write_text(IN_PLAY)
    monkeypatch.setattr(locking, "LOCK_TIMEOUT", 0.3)
    began = time.monotonic()
    with sheet_lock(str(sheet)):  # another writer holds it (flock: per open file, even here)
        result = run("add", sheet, "--bids", "Ben=0")
    assert time.monotonic() - began >= 0.3
    assert result.exit_code == 1
    assert result.stderr == (
        f"{sheet}: another wizard command is changing this sheet (gave up "
        "waiting after 0.3 s; nothing was written)\n"
    )
    assert sheet.read_text() == IN_PLAY
    assert leftovers(tmp_path, {"game.yaml"}) == []


def test_the_second_writer_goes_on_once_the_first_is_done(tmp_path):
    sheet = tmp_path / "game.yaml"
    sheet.write_text(IN_PLAY)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            textwrap.dedent(f"""
        import sys, time
        from wizard_cli.editing.locking import sheet_lock
        with sheet_lock({str(sheet)!r}):
            print("held", flush=True)
            time.sleep(0.8)
        """),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout.readline() == "held\n"
    result = wizard("add", sheet, "--bids", "Ben=0")
    holder.wait(timeout=30)
    assert result.returncode == 0, result.stderr
    assert "Ben: 0" in sheet.read_text()


def test_a_lock_left_by_a_process_that_no_longer_runs_does_not_block(tmp_path):
    sheet = tmp_path / "game.yaml"
    sheet.write_text(IN_PLAY)
    # A holder killed outright, lock file left behind with its pid in it.
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            textwrap.dedent(f"""
        import time
        from wizard_cli.editing.locking import sheet_lock
        with sheet_lock({str(sheet)!r}):
            print("held", flush=True)
            time.sleep(60)
        """),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout.readline() == "held\n"
    holder.kill()
    holder.wait()
    assert os.path.exists(lock_path(str(sheet)))
    began = time.monotonic()
    result = wizard("add", sheet, "--bids", "Ben=0")
    assert result.returncode == 0, result.stderr
    assert time.monotonic() - began < 8
    assert leftovers(tmp_path, {"game.yaml"}) == []


def test_update_in_place_is_the_one_write_path(tmp_path):
    sheet = tmp_path / "game.yaml"
    sheet.write_bytes(b"\xef\xbb\xbfa\r\nb\r\n")
    seen = []

    def change(text: str) -> str:
        seen.append(text)
        return text + "c\r\n"

    assert update_in_place(sheet, change) == "a\r\nb\r\nc\r\n"
    assert seen == ["a\r\nb\r\n"]  # the BOM is the file's, not the text's
    assert sheet.read_bytes() == b"\xef\xbb\xbfa\r\nb\r\nc\r\n"
    before = sheet.stat().st_mtime_ns
    update_in_place(sheet, lambda text: text)  # no change: not written at all
    assert sheet.stat().st_mtime_ns == before
    assert leftovers(tmp_path, {"game.yaml"}) == []


# --- 8, 9. read-only sheets, owner and mode -------------------------------------------------


def test_a_sheet_with_no_write_bit_is_not_rewritten_even_by_root(tmp_path):
    sheet = tmp_path / "game.yaml"
    sheet.write_text(IN_PLAY)
    sheet.chmod(0o444)
    result = run("add", sheet, "--bids", "Ben=0")
    assert result.exit_code == 1
    assert result.stderr == f"{sheet}: the sheet is read-only\n"
    assert sheet.read_text() == IN_PLAY
    assert stat.S_IMODE(sheet.stat().st_mode) == 0o444


def test_the_mode_is_kept(tmp_path):
    sheet = tmp_path / "game.yaml"
    sheet.write_text(IN_PLAY)
    sheet.chmod(0o640)
    assert run("add", sheet, "--bids", "Ben=0").exit_code == 0
    assert stat.S_IMODE(sheet.stat().st_mode) == 0o640


@pytest.mark.skipif(not AS_ROOT, reason="giving a file to another user needs root")
def test_root_editing_another_users_sheet_keeps_its_owner(tmp_path):
    sheet = tmp_path / "game.yaml"
    sheet.write_text(IN_PLAY)
    os.chown(sheet, 65534, 65534)
    sheet.chmod(0o664)
    assert run("add", sheet, "--bids", "Ben=0").exit_code == 0
    info = sheet.stat()
    assert (info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)) == (65534, 65534, 0o664)
    assert "Ben: 0" in sheet.read_text()


# --- 10. signals during a write leave no temporary file -----------------------------------------

SLOW_WRITER = """
import sys, time
from wizard_cli.editing.atomic import write_atomically

def pieces():
    yield "x" * 1_000_000
    print("writing", flush=True)
    time.sleep(30)
    yield "never"

write_atomically(sys.argv[1], pieces(), force=True)
"""


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_a_signal_during_a_write_leaves_the_target_and_no_temporary_file(tmp_path, signum):
    target = tmp_path / "sheet.yaml"
    target.write_text("original\n")
    writer = subprocess.Popen(
        [sys.executable, "-c", SLOW_WRITER, str(target)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert writer.stdout.readline() == "writing\n"
    assert len(leftovers(tmp_path, {"sheet.yaml"})) == 1  # the temporary file, mid-write
    writer.send_signal(signum)
    writer.communicate(timeout=30)
    if signum != signal.SIGINT:
        assert writer.returncode == 128 + signum
    assert target.read_text() == "original\n"
    assert leftovers(tmp_path, {"sheet.yaml"}) == []


# --- 7, 13. the file's own spacing and line ends ---------------------------------------------


def test_add_takes_the_tab_spacing_check_takes(tmp_path):
    sheet = tmp_path / "game.yaml"
    text = IN_PLAY.replace("players: ", "players:\t").replace("bids: {", "bids:\t{")
    sheet.write_text(text)
    assert run("check", sheet).exit_code == 0
    result = run("add", sheet, "--bids", "Ben=0,Cara=1")
    assert result.exit_code == 0, result.stderr
    assert sheet.read_text() == text.replace("{Anna: 1}", "{Anna: 1, Ben: 0, Cara: 1}")


def test_an_edit_that_cannot_be_made_is_one_located_line(tmp_path, monkeypatch):
    import yaml

    from wizard_cli.editing import round_edits as editing

    sheet = tmp_path / "game.yaml"
    sheet.write_text(IN_PLAY)

    def unreadable(text, Loader):  # what PyYAML's pure scanner might refuse, with its caret
        raise yaml.scanner.ScannerError(
            "while scanning",
            None,
            "found a character\nthat cannot start\n  any token",
            yaml.Mark("x", 0, 3, 9, "", 0),
        )

    monkeypatch.setattr(editing.yaml, "compose_all", unreadable)
    result = run("add", sheet, "--bids", "Ben=0")
    assert result.exit_code == 1
    assert result.stderr == (
        f"{sheet}:4: cannot edit the sheet here: found a character that "
        "cannot start any token; nothing was written\n"
    )
    assert sheet.read_text() == IN_PLAY


def test_a_cr_only_sheet_keeps_its_cr_line_ends(tmp_path):
    sheet = tmp_path / "game.yaml"
    sheet.write_bytes(IN_PLAY.replace("\n", "\r").encode())
    assert run("add", sheet, "--bids", "Ben=0,Cara=1").exit_code == 0
    data = sheet.read_bytes()
    assert b"\n" not in data
    assert (
        data
        == IN_PLAY.replace("{Anna: 1}", "{Anna: 1, Ben: 0, Cara: 1}").replace("\n", "\r").encode()
    )
    assert run("add", sheet, "--tricks", "1,0,0").exit_code == 0
    assert b"\n" not in sheet.read_bytes() and sheet.read_bytes().count(b"\r") == 5


# --- 12. stdout closed: found before the sheet is changed ---------------------------------------


def test_add_with_stdout_closed_changes_nothing(tmp_path):
    sheet = tmp_path / "game.yaml"
    sheet.write_text(IN_PLAY)
    result = wizard(
        "add",
        sheet,
        "--bids",
        "Ben=0",
        stdout=None,
        capture_output=False,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: os.close(1),
    )
    assert result.returncode == 1
    assert result.stderr == (
        f"{sheet}: cannot write the output: standard output is closed; nothing was written\n"
    )
    assert sheet.read_text() == IN_PLAY


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
def test_add_whose_output_fails_says_the_sheet_was_written(tmp_path):
    sheet = tmp_path / "game.yaml"
    sheet.write_text(IN_PLAY)
    with open("/dev/full", "w") as full:
        result = wizard(
            "add",
            sheet,
            "--bids",
            "Ben=0",
            stdout=full,
            capture_output=False,
            stderr=subprocess.PIPE,
        )
    assert result.returncode == 1
    assert result.stderr == (
        "wizard: cannot write the output: No space left on device\n"
        f"{sheet}: the sheet was written; only the output could not be "
        "shown\n"
    )
    assert "Ben: 0" in sheet.read_text()


# --- 14. a folder that cannot be entered ----------------------------------------------------


def test_a_sheet_in_a_folder_of_mode_000_is_permission_denied(tmp_path):
    import tempfile

    base = Path(tempfile.mkdtemp(prefix="wizard-perm-"))
    try:
        base.chmod(0o755)
        folder = base / "locked"
        folder.mkdir()
        (folder / "game.yaml").write_text(IN_PLAY)
        folder.chmod(0o000)
        # Root enters any folder: without its capabilities it is bound by the mode like anyone.
        prefix = ["setpriv", "--inh-caps=-all", "--bounding-set=-all"] if AS_ROOT else []
        if AS_ROOT and not shutil.which("setpriv"):
            pytest.skip("running as root, and no setpriv to drop root's capabilities")
        for command in (["score"], ["add", "--bids", "Ben=0"]):
            result = subprocess.run(
                [
                    *prefix,
                    sys.executable,
                    "-m",
                    "wizard_cli",
                    command[0],
                    str(folder / "game.yaml"),
                    *command[1:],
                ],
                cwd=ROOT,
                capture_output=True,
                text=True,
            )
            assert result.returncode == 2, result.stderr
            assert f"cannot read: {folder / 'game.yaml'} (permission denied)" in result.stderr
            assert "no such file" not in result.stderr
    finally:
        (base / "locked").chmod(0o755)
        shutil.rmtree(base)


@pytest.mark.parametrize(
    "mark, codec",
    [
        ("\ufeff", "utf-8"),
        ("\ufeff", "utf-16-le"),
        ("\ufeff", "utf-16-be"),
        ("\ufeff", "utf-32-le"),
        ("\ufeff", "utf-32-be"),
        ("", "utf-8"),
    ],
)
def test_add_then_undo_keeps_the_encoding_and_byte_order_of_the_sheet(tmp_path, mark, codec):
    """A big-endian UTF-16 sheet was written back little-endian (SPEC §5: undo restores it)."""
    sheet = tmp_path / "s.yaml"
    original = (mark + "players: [A, B, C]\nrounds: []\n").encode(codec)
    sheet.write_bytes(original)
    assert run("add", sheet, "-q", "--bids", "0,1,0").exit_code == 0
    assert sheet.read_bytes().startswith((mark + "players").encode(codec))
    assert run("undo", sheet, "-q").exit_code == 0
    assert sheet.read_bytes() == original


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_while_convert_spools_standard_input_leaves_no_file(tmp_path, signum):
    """convert reads standard input twice from a spool in the temporary folder: SIGTERM or
    SIGHUP while it is read unwinds like Ctrl-C, removing it (SPEC §7), exit 128 + N."""
    spools = tmp_path / "tmp"
    spools.mkdir()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "wizard_cli",
            "convert",
            "-",
            "--input-format",
            "csv",
            "--to",
            "csv",
        ],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "TMPDIR": str(spools)},
    )
    assert process.stdin is not None
    process.stdin.write(b"round,player,bid,tricks\n" + b"1,A,0,0\n" * 1000)
    process.stdin.flush()  # more is to come: the spool stays open
    # Python's tempfile first proves the folder writable with a file of a random name, written
    # and removed at once (tempfile._get_default_tempdir): a busy machine can list the folder
    # while that file stands, so wait for the spool itself (then the probe is gone).
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not any(
        name.startswith("wizard-stdin-") for name in os.listdir(spools)
    ):
        time.sleep(0.02)
    assert [name[:13] for name in os.listdir(spools)] == ["wizard-stdin-"]
    process.send_signal(signum)
    _, errors = process.communicate(timeout=60)
    assert process.returncode == 128 + signum, errors
    assert os.listdir(spools) == []
