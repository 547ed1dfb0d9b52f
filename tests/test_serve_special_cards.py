"""The table's screen with the anniversary cards (SPEC §5, §9): the last round's trump line,
the entry page's Bomb toggle and Cloud picker, and ``POST /api/tricks``'s ``bomb``/``cloud``
and ``POST /api/cloud``, through the same checked edit as ``add``."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the serve extra is not installed (pip install '.[serve]')")
pytest.importorskip("jinja2", reason="the serve extra is not installed (pip install '.[serve]')")

from test_serve import TOKEN, post, served  # noqa: E402

SHEET = (
    "players: [Anna, Ben, Cara]\nsettings: {specialCards: true, roundMode: custom, "
    "customRoundCount: 3}\nrounds:\n  - bids: [0, 1, 0]\n    tricks: [0, 1, 0]\n"
    "  - bids: [1, 0, 1]\n"
)


def sheet(tmp_path: Path, text: str = SHEET) -> Path:
    path = tmp_path / "g.yaml"
    path.write_text(text)
    return path


def test_the_entry_page_offers_the_bomb_and_the_cloud(tmp_path):
    with served(sheet(tmp_path)) as client:
        page = client.get(f"/enter?token={TOKEN}").text
    assert '<input type="checkbox" data-bomb>' in page
    assert '<select data-cloud-player><option value="">nobody</option>' in page
    assert "<option>Cara</option>" in page
    classic = sheet(tmp_path, SHEET.replace("specialCards: true, ", ""))
    with served(classic) as client:
        assert "data-bomb" not in client.get(f"/enter?token={TOKEN}").text


def test_tricks_with_the_bomb_and_the_cloud(tmp_path):
    path = sheet(tmp_path)
    with served(path) as client:
        refused = post(
            client,
            "/api/tricks",
            {"round": 2, "tricks": {"Anna": 1, "Ben": 0, "Cara": 1}, "bomb": True},
        )
        assert refused.status_code == 422 and "with the Bomb" in refused.json()["error"]
        response = post(
            client,
            "/api/tricks",
            {
                "round": 2,
                "tricks": {"Anna": 1, "Ben": 0, "Cara": 0},
                "bomb": True,
                "cloud": {"Anna": -1},
            },
        )
    assert response.status_code == 200, response.json()
    assert path.read_text().endswith(
        "    tricks: [1, 0, 0]\n    bomb: true\n    cloud: {Anna: -1}\n"
    )
    rounds = response.json()["game"]["rounds"]
    assert rounds[1]["bomb"] is True and rounds[1]["results"]["Anna"]["cloud"] == -1


def test_the_cloud_on_its_own_and_what_is_refused(tmp_path):
    path = sheet(tmp_path)
    with served(path) as client:
        bad = post(client, "/api/cloud", {"round": 2, "player": "Anna", "change": 2})
        stale = post(client, "/api/cloud", {"round": 1, "player": "Anna", "change": 1})
        assert (bad.status_code, stale.status_code) == (422, 409)
        response = post(client, "/api/cloud", {"round": 2, "player": "Ben", "change": 1})
        assert response.status_code == 200, response.json()
        assert "The Cloud: Ben +1" in client.get(f"/enter?token={TOKEN}").text
        again = post(client, "/api/cloud", {"round": 2, "player": "Anna", "change": 1})
        assert again.status_code == 422 and "already records the Cloud" in again.json()["error"]
        undone = post(
            client, "/api/undo", {"round": 2, "version": response.json()["game"]["version"]}
        )
    assert undone.status_code == 200, undone.json()
    assert path.read_text() == SHEET


def test_the_last_round_has_a_trump_on_the_page(tmp_path):
    text = "players: [A, B, C, D, E, F]\nsettings: {roundMode: quickPlay%s}\nrounds:\n" + "".join(
        f"  - bids: [0, 0, 0, 0, 0, 0]\n    tricks: [{size}, 0, 0, 0, 0, 0]\n"
        for size in (2, 4, 6, 8)
    )
    with served(sheet(tmp_path, text % "")) as client:
        assert "no trump" in client.get("/").text
    with served(sheet(tmp_path, text % ", specialCards: true")) as client:
        assert "no trump" not in client.get("/").text
