"""The entry token, kept across restarts (SPEC §9 "One token, kept"): in the state folder with
mode 0600, reused so the phones keep working, refused when others can read it, renewed by
``--new-token``; the QR code only when the server listens beyond the loopback addresses."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("uvicorn", reason="the serve extra is not installed (pip install '.[serve]')")
httpx = pytest.importorskip("httpx", reason="httpx (a test dependency) is not installed")

from helpers import SAMPLES  # noqa: E402
from serving import ROOT, Server  # noqa: E402

from wizard_cli.errors import WizardError  # noqa: E402
from wizard_cli.web.token_file import entry_token, token_path  # noqa: E402

IN_PROGRESS = SAMPLES / "six-players-in-progress.yaml"


@pytest.fixture
def sheet(tmp_path: Path) -> Path:
    path = tmp_path / "saturday.yaml"
    path.write_bytes(IN_PROGRESS.read_bytes())
    return path


def test_the_token_is_kept_under_xdg_state_home_else_local_state(tmp_path):
    assert token_path({"XDG_STATE_HOME": str(tmp_path)}) == tmp_path / "wizard" / "serve-token"
    home = Path.home() / ".local" / "state" / "wizard" / "serve-token"
    assert token_path({}) == home
    assert token_path({"XDG_STATE_HOME": "relative/dir"}) == home  # XDG: relative is ignored


def test_the_token_is_made_once_with_mode_0600_in_a_0700_folder_and_then_reused(tmp_path):
    path = tmp_path / "state" / "wizard" / "serve-token"
    old = os.umask(0)  # the modes must not come from a lax umask
    try:
        first = entry_token(path)
    finally:
        os.umask(old)
    assert len(first) >= 22  # at least 128 bits of URL-safe base64
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert entry_token(path) == first
    renewed = entry_token(path, renew=True)
    assert renewed != first and entry_token(path) == renewed


@pytest.mark.parametrize("mode", [0o640, 0o604, 0o620])
def test_a_token_file_others_can_read_is_refused_in_one_line(tmp_path, mode):
    path = tmp_path / "serve-token"
    entry_token(path)
    os.chmod(path, mode)
    with pytest.raises(WizardError) as refused:
        entry_token(path)
    assert str(refused.value).count("\n") == 0
    assert "others can read the entry token" in str(refused.value)


def test_a_symlinked_or_mangled_token_file_is_not_used(tmp_path):
    target = tmp_path / "elsewhere"
    target.write_text("A" * 40 + "\n")
    os.chmod(target, 0o600)
    link = tmp_path / "serve-token"
    link.symlink_to(target)
    with pytest.raises(WizardError):
        entry_token(link)
    short = tmp_path / "short"
    short.write_text("abc\n")
    os.chmod(short, 0o600)
    with pytest.raises(WizardError, match="not one serve made"):
        entry_token(short)


def test_a_restarted_server_keeps_the_token_so_a_phone_goes_on_writing(sheet, tmp_path):
    state = tmp_path / "state"
    with Server(sheet, "--entry", state=state) as first:
        token = first.token
    kept = state / "wizard" / "serve-token"
    assert kept.read_text().strip() == token
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    with Server(sheet, "--entry", state=state) as second:
        assert second.token == token
        answer = second.post("/api/bid", {"round": 7, "player": "Olga", "bid": 1}, token=token)
        assert answer.status_code == 200, answer.text
    with Server(sheet, "--entry", "--new-token", state=state) as third:
        assert third.token != token
        stale = third.post("/api/bid", {"round": 7, "player": "Olga", "bid": 1}, token=token)
        assert stale.status_code == 403


def test_serve_refuses_a_token_file_others_can_read_exit_1_one_line(sheet, tmp_path):
    kept = tmp_path / "wizard" / "serve-token"
    entry_token(kept)
    os.chmod(kept, 0o644)
    done = subprocess.run(
        [sys.executable, "-m", "wizard_cli", "serve", str(sheet), "--entry", "--port", "0"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
        env=dict(os.environ, XDG_STATE_HOME=str(tmp_path)),
    )
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1, done.stderr
    assert "others can read the entry token" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_qr_code_is_drawn_only_when_listening_beyond_loopback(sheet):
    with Server(sheet, "--entry", "--host", "0.0.0.0") as room:
        # Up and answering (on loopback: a wildcard listens there too), so it has said it all.
        port = room.url.rsplit(":", 1)[1]
        assert httpx.get(f"http://127.0.0.1:{port}game.json").status_code == 200
    assert "█" in room.stderr or "▀" in room.stderr
    with Server(sheet, "--entry") as alone:
        assert httpx.get(f"{alone.url}game.json").status_code == 200
    assert "█" not in alone.stderr and "▀" not in alone.stderr
    assert f"enter?token={alone.token}" in alone.stderr  # the text address always
