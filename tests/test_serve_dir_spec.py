"""``wizard serve DIR`` (SPEC §9 "Game night from the page") as a careless client meets it:
each odd field of ``POST /api/games`` is a clear 422 with nothing written, never a game made
from a value that was not what the field takes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the serve extra is not installed (pip install '.[serve]')")
pytest.importorskip("jinja2", reason="the serve extra is not installed (pip install '.[serve]')")

from helpers import SAMPLES
from starlette.testclient import TestClient

from wizard_cli.web.folder import FolderWatch, create_folder_app
from wizard_cli.web.server import allowed_hosts

TOKEN = "t" * 32
IN_PROGRESS = SAMPLES / "six-players-in-progress.yaml"


def client(folder: Path) -> TestClient:
    watch = FolderWatch(str(folder), token=TOKEN, poll=0.05)
    app = create_folder_app(watch, allowed_hosts("127.0.0.1", 8000))
    return TestClient(app, base_url="http://127.0.0.1:8000")


def post(c: TestClient, path: str, body: object):
    headers = {"Content-Type": "application/json", "X-Wizard-Token": TOKEN}
    return c.post(path, content=json.dumps(body), headers=headers)


@pytest.mark.parametrize("settings", ["", 0, False, [], "exactBonus=30", ["exactBonus"]])
def test_settings_that_are_not_a_mapping_are_refused(tmp_path: Path, settings: object) -> None:
    # SPEC §9: POST /api/games takes "settings" (a mapping over the preset); an empty text, a 0,
    # a false or an empty list made a game as if no settings had been sent
    with client(tmp_path) as c:
        answer = post(c, "/api/games", {"players": ["A", "B", "C"], "settings": settings})
    assert answer.status_code == 422
    assert answer.json()["error"] == "settings: give a mapping of setting names to values"
    assert list(tmp_path.iterdir()) == []


def test_no_settings_or_null_are_the_presets_own(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        for body in ({}, {"settings": None}, {"settings": {}}):
            made = post(c, "/api/games", {"players": ["A", "B", "C"], **body})
            assert made.status_code == 201, made.text
    assert len(list(tmp_path.iterdir())) == 3


def test_a_game_swapped_for_a_symlink_out_is_never_read_or_written(tmp_path: Path) -> None:
    # SPEC §9: a symlink leading out of DIR is never read or written. The scan leaves symlinks
    # out, but an open game's page, stream and writes opened its path as it found it, following
    # a symlink put there since the scan (here no scan comes: the poll is slow)
    folder = tmp_path / "night"
    folder.mkdir()
    shutil.copy(IN_PROGRESS, folder / "s.yaml")
    outside = tmp_path / "outside.yaml"
    outside.write_text(IN_PROGRESS.read_text().replace("Saturday, big table", "OUTSIDE"))
    before = outside.read_bytes()
    watch = FolderWatch(str(folder), token=TOKEN, poll=60)
    app = create_folder_app(watch, allowed_hosts("127.0.0.1", 8000))
    with TestClient(app, base_url="http://127.0.0.1:8000") as c:
        shown = c.get("/game/s/game.json").json()
        assert shown["title"] == "Saturday, big table"
        (folder / "s.yaml").unlink()
        (folder / "s.yaml").symlink_to(outside)
        now = c.get("/game/s/game.json").json()
        assert now["title"] != "OUTSIDE"
        assert now.get("stale") is True and "symbolic link" in str(now["problems"])
        nxt = shown["status"]["next"]
        bid = {"round": nxt["round"], "player": nxt["nextBidder"], "bid": 0}
        answer = post(c, "/game/s/api/bid", bid)
        assert answer.status_code == 503 and "symbolic link" in answer.json()["error"]
        assert "OUTSIDE" not in c.get("/game/s/").text
    assert outside.read_bytes() == before
    assert (folder / "s.yaml").is_symlink()
