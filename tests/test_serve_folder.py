"""``wizard serve DIR`` (SPEC §9 "Game night from the page"): the list, each game's own routes
under /game/NAME/, the season, New game and Next game with the CLI's checks and messages, and
that nothing outside the folder is ever read or written. In-process (Starlette's TestClient),
but for one real process that sees a sheet another process adds within 1 s."""

from __future__ import annotations

import datetime
import json
import os
import shutil
import subprocess
import sys
import time
import tracemalloc
import urllib.request
from pathlib import Path

import pytest
import yaml

pytest.importorskip("starlette", reason="the serve extra is not installed (pip install '.[serve]')")
pytest.importorskip("jinja2", reason="the serve extra is not installed (pip install '.[serve]')")

from helpers import SAMPLES, WORKED
from serving import ROOT, Server
from starlette.testclient import TestClient

from wizard_cli.app import game_night
from wizard_cli.game.compare import preset_catalogue
from wizard_cli.game.settings import command_line_settings
from wizard_cli.sheets.blank import new_sheet
from wizard_cli.web.folder import MAX_OPEN, FolderWatch, create_folder_app
from wizard_cli.web.server import allowed_hosts

TOKEN = "t" * 32
BASE = "http://127.0.0.1:8000"
IN_PROGRESS = SAMPLES / "six-players-in-progress.yaml"
TODAY = datetime.date.today().isoformat()
SLOW = os.environ.get("WIZARD_SLOW") == "1"


def client(folder: Path, token: str | None = TOKEN) -> TestClient:
    watch = FolderWatch(str(folder), token=token, poll=0.05)
    return TestClient(create_folder_app(watch, allowed_hosts("127.0.0.1", 8000)), base_url=BASE)


def post(c: TestClient, path: str, body: object, token: str | None = TOKEN):
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["X-Wizard-Token"] = token
    return c.post(path, content=json.dumps(body), headers=headers)


@pytest.fixture
def night(tmp_path: Path) -> Path:
    """A folder: a finished dated game, an undated game in progress, a sheet that does not read,
    and things that are not games (a text file, a subfolder, a symlink leading out)."""
    folder = tmp_path / "night"
    folder.mkdir()
    text = WORKED.read_text().replace("players:", "date: 2026-11-27\nplayers:", 1)
    (folder / "worked.yaml").write_text(text)
    shutil.copy(IN_PROGRESS, folder / "saturday.yml")
    (folder / "broken.yaml").write_text("players: [A, B, C]\nrounds: [\n")
    (folder / "notes.txt").write_text("not a game")
    (folder / "sub").mkdir()
    shutil.copy(WORKED, folder / "sub" / "inner.yaml")
    outside = tmp_path / "outside.yaml"
    shutil.copy(WORKED, outside)
    (folder / "link.yaml").symlink_to(outside)
    return folder


def files(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir()}


def test_the_list_newest_dated_first_with_status_and_first_problem(night: Path) -> None:
    with client(night) as c:
        games = c.get("/games.json").json()
        assert games[0]["name"] == "worked"  # dated first
        assert {g["name"] for g in games} == {"worked", "saturday", "broken"}  # no link, sub, txt
        by = {g["name"]: g for g in games}
        assert by["worked"]["date"] == "2026-11-27" and by["worked"]["status"]["finished"]
        assert by["saturday"]["players"][0] == "Mia" and by["saturday"]["problems"] is None
        assert by["broken"]["problems"] and by["broken"]["status"] is None
        assert by["broken"]["problems"][0]["line"] == 3
        page = c.get("/")
        assert page.status_code == 200 and '<html lang="en">' in page.text
        assert "Round 7 of 10: Olga to bid" in page.text and "Ben wins" in page.text
        assert 'href="/game/saturday/"' in page.text and "/game/link/" not in page.text
        assert "broken.yaml:3: " in page.text and str(night) not in page.text


def test_each_game_is_served_as_serve_sheet_serves_it(night: Path) -> None:
    with client(night) as c:
        game = c.get("/game/saturday/game.json").json()
        assert game["status"]["next"]["nextBidder"] == "Olga"
        page = c.get("/game/saturday/")
        assert 'data-fragment="/game/saturday/board"' in page.text
        assert c.get("/game/saturday/board").status_code == 200
        assert (
            c.get("/game/saturday", follow_redirects=False).headers["location"] == "/game/saturday/"
        )
        entered = post(c, "/game/saturday/api/bid", {"round": 7, "player": "Olga", "bid": 2})
        assert entered.status_code == 200, entered.text
        assert "Olga: 2}" in (night / "saturday.yml").read_text()
        assert (
            post(
                c,
                "/game/saturday/api/bid",
                {"round": 7, "player": "Pete", "bid": 1},
                token="x" * 32,
            ).status_code
            == 403
        )
        assert c.get("/game/saturday/enter").status_code == 200


@pytest.mark.parametrize(
    "path",
    [
        "/game/link/",
        "/game/sub/",
        "/game/notes/",
        "/game/..%2Foutside/game.json",
        "/game/../outside.yaml",
        "/game/sub%2Finner/game.json",
        "/game/nothing/",
    ],
)
def test_nothing_outside_the_folder_is_a_game(night: Path, path: str) -> None:
    with client(night) as c:
        assert c.get(path).status_code == 404
        assert post(c, "/api/games/link/next", {}).status_code == 404


def test_new_game_is_written_as_wizard_new_writes_it(night: Path) -> None:
    with client(night) as c:
        made = post(
            c,
            "/api/games",
            {
                "players": ["Ann", "Ben", "Cy"],
                "firstDealer": "Ben",
                "preset": "canadian",
                "settings": {"exactBonus": 30},
                "title": "Friday Night, Über!",
                "date": "2026-12-06",
                "place": "Olga's",
            },
        )
        assert made.status_code == 201, made.text
        assert made.json() == {
            "name": "2026-12-06-friday-night-uber",
            "url": "/game/2026-12-06-friday-night-uber/",
        }
        again = post(
            c,
            "/api/games",
            {"players": ["Ann", "Ben", "Cy"], "title": "Friday night uber", "date": "2026-12-06"},
        )
        assert again.json()["name"] == "2026-12-06-friday-night-uber-2"  # never over a file
        untitled = post(c, "/api/games", {"players": ["Ann", "Ben", "Cy"]})
        assert untitled.json()["name"] == f"{TODAY}-game"
        assert c.get(made.json()["url"] + "game.json").json()["players"] == ["Ann", "Ben", "Cy"]
    written = (night / "2026-12-06-friday-night-uber.yaml").read_text()
    layers = [
        list(preset_catalogue()["canadian"].settings),
        command_line_settings(["exactBonus=30"], None),
    ]
    expected = new_sheet(
        ["Ann", "Ben", "Cy"],
        layers,
        "Ben",
        "Friday Night, Über!",
        "2026-12-06-friday-night-uber.yaml",
        "2026-12-06",
        "Olga's",
    )
    assert written == expected
    assert "screwTheDealer: leaderOnly" in written and "exactBonus: 30" in written


@pytest.mark.parametrize(
    "body, message",
    [
        ({"players": ["A", "B"]}, "--players: a game has 3 to 6 players, this sheet has 2"),
        ({"players": list("ABCDEFG")}, "--players: a game has 3 to 6 players, this sheet has 7"),
        ({"players": ["A", "A", "B"]}, "--players: player 'A' is listed twice"),
        (
            {"players": ["A", "B", "C"], "settings": {"exactBonus": 7}},
            "--set exactBonus=7: 7 is not allowed (allowed: 0–50 in steps of 5)",
        ),
        (
            {"players": ["A", "B", "C"], "firstDealer": "Z"},
            "--first-dealer 'Z' is not one of the players",
        ),
        ({"players": ["A", "B", "C"], "preset": "nope"}, "--preset nope: unknown preset"),
        ({"players": ["A", "B", "C"], "date": "2026-02-30"}, "--date: '2026-02-30'"),
        ({"players": "A,B,C", "title": ["x"]}, "title: give text"),
        ({"players": 3}, "--players"),
    ],
)
def test_a_bad_field_is_the_cli_message_422_nothing_written(
    night: Path, body: dict, message: str
) -> None:
    before = files(night)
    with client(night) as c:
        answer = post(c, "/api/games", body)
    assert answer.status_code == 422
    assert answer.json()["error"].startswith(message)
    assert files(night) == before


def test_the_cli_gives_the_same_messages() -> None:
    cli = subprocess.run(
        [sys.executable, "-m", "wizard_cli", "new", "--players", "A,A,B"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert cli.returncode == 1 and "--players: player 'A' is listed twice" in cli.stderr


def test_writes_need_the_token_and_json(night: Path) -> None:
    before = files(night)
    with client(night) as c:
        assert post(c, "/api/games", {"players": ["A", "B", "C"]}, token=None).status_code == 403
        assert post(c, "/api/games", {"players": ["A", "B", "C"]}, "w" * 32).status_code == 403
        assert (
            c.post(
                "/api/games", data={"players": "A,B,C"}, headers={"X-Wizard-Token": TOKEN}
            ).status_code
            == 415
        )
        assert post(c, "/api/games/worked/next", {}, token=None).status_code == 403
    with client(night, token=None) as c:
        assert post(c, "/api/games", {"players": ["A", "B", "C"]}).status_code == 403
        assert c.get("/new").status_code == 404
    assert files(night) == before


def test_next_game_after_a_finished_game_409_before(night: Path) -> None:
    with client(night) as c:
        assert post(c, "/api/games/saturday/next", {}).status_code == 409
        made = post(c, "/api/games/worked/next", {})
        assert made.status_code == 201, made.text
        name = made.json()["name"]
        assert name == f"{TODAY}-worked-example"
        game = c.get(f"/game/{name}/game.json").json()
        old = c.get("/game/worked/game.json").json()
    assert game["players"] == old["players"] and game["settings"] == old["settings"]
    assert game["title"] == old["title"] and game["date"] == TODAY and game["rounds"] == []
    text = (night / f"{name}.yaml").read_text()
    first = yaml.safe_load((night / "worked.yaml").read_text()).get(
        "firstDealer", old["players"][0]
    )
    dealer = old["players"][(old["players"].index(first) + 1) % len(old["players"])]
    assert f"firstDealer: {dealer}" in text


def test_next_game_seats_who_sat_the_last_round_dealt_on_from_the_old_dealer(
    tmp_path: Path,
) -> None:
    """Before: the next game listed every player of the old one (Cara had left, Dan sat the
    last round out) and its first dealer was the old one's next seat (Dan), not the next of
    those seated now going round the old seating (Eva)."""
    folder = tmp_path / "night"
    folder.mkdir()
    (folder / "seat.yaml").write_text(
        "title: Seats\n"
        "players: [Anna, Ben, {name: Cara, leaves: 2}, Dan, {name: Eva, joins: 2, startScore: 10}]\n"
        "firstDealer: Cara\nsettings: {roundMode: custom, customRoundCount: 3}\nrounds:\n"
        "  - {bids: [1, 0, 0, 0], tricks: [1, 0, 0, 0]}\n"
        "  - {bids: [1, 0, 0, 0, 1], tricks: [1, 0, 0, 0, 1]}\n"
        "  - {out: [Dan], bids: [1, 0, 2], tricks: [1, 0, 2]}\n"
    )
    with client(folder) as c:
        made = post(c, "/api/games/seat/next", {})
        assert made.status_code == 201, made.text
        game = c.get(f"/game/{made.json()['name']}/game.json").json()
    assert game["players"] == ["Anna", "Ben", "Eva"]
    text = (folder / f"{made.json()['name']}.yaml").read_text()
    assert "firstDealer: Eva" in text and "joins" not in text and "startScore" not in text


def test_new_game_page_offers_players_presets_and_settings(night: Path) -> None:
    with client(night) as c:
        page = c.get("/new").text
    assert 'value="Mia"' in page and 'value="Anna"' in page  # names of earlier games
    assert 'value="canadian"' in page and 'data-setting="exactBonus"' in page
    assert '<option value="50">50</option>' in page and f'value="{TODAY}"' in page
    assert "<script>" not in page and " onclick" not in page
    # defaults as `wizard rules` lists them (a flag's was Python's "False")
    assert "as the preset says (default false)" in page and "default False" not in page
    assert "as the preset says (default 10)" in page  # exactBonus


def test_the_season_over_the_folder(night: Path) -> None:
    with client(night) as c:
        season = c.get("/season.json").json()
        page = c.get("/season")
    stats = {row["player"]: row for row in season["stats"]}
    assert stats["Ben"]["wins"] == 1 and "Mia" in stats  # the game in progress counts rounds
    assert page.status_code == 200 and "Statistics" in page.text and "Ben" in page.text
    if season.get("ratings") is not None:
        assert {row["player"] for row in season["ratings"]} == {"Anna", "Ben", "Cara", "Dan"}
        assert "<polyline" in page.text


def test_a_change_on_disk_shows_and_a_removed_game_goes(night: Path) -> None:
    with client(night) as c:
        assert len(c.get("/games.json").json()) == 3
        shutil.copy(WORKED, night / "added.yaml")
        (night / "broken.yaml").unlink()
        changed = time.monotonic()
        while {g["name"] for g in c.get("/games.json").json()} != {"worked", "saturday", "added"}:
            assert time.monotonic() - changed < 1.0, "the change did not show within 1 s"
            time.sleep(0.02)
        assert c.get("/game/broken/").status_code == 404


def test_open_games_are_bounded(night: Path) -> None:
    for number in range(MAX_OPEN + 5):
        shutil.copy(WORKED, night / f"g{number}.yaml")
    watch = FolderWatch(str(night), token=TOKEN, poll=0.05)
    with TestClient(create_folder_app(watch), base_url=BASE) as c:
        for number in range(MAX_OPEN + 5):
            assert c.get(f"/game/g{number}/game.json").status_code == 200
        assert len(watch.games) <= MAX_OPEN


def test_two_thousand_sheets_list_in_bounded_time_and_memory(tmp_path: Path) -> None:
    folder = tmp_path / "many"
    folder.mkdir()
    text = WORKED.read_text()
    for number in range(2000):
        (folder / f"g{number:04}.yaml").write_text(text)
    watch = FolderWatch(str(folder), poll=0.05)
    tracemalloc.start()  # (slows Python several times over: the whole read only when SLOW)
    started = time.monotonic()
    with TestClient(create_folder_app(watch), base_url=BASE) as c:
        listed = c.get("/games.json").json()
        first = time.monotonic() - started  # every name at once, read or not yet
        if not SLOW:
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
        while any(game["status"] is None for game in c.get("/games.json").json()):
            assert time.monotonic() - started < 180, "the folder was not read in 3 minutes"
            time.sleep(0.2)
        again = time.monotonic()
        games = c.get("/games.json").json()
        second = time.monotonic() - again
        page = c.get("/")
    if SLOW:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert len(listed) == 2000 and len(games) == 2000
    assert all(game["status"]["winners"] == ["Ben"] for game in games)
    assert page.text.count('class="game"') == 2000
    assert first < 10 and second < 5, (first, second)
    assert 0 < peak < 150 * 1024 * 1024, peak
    assert not watch.games  # listing opens no game's watcher


def test_file_names() -> None:
    assert game_night.file_stem("2026-12-06", "Friday Night") == "2026-12-06-friday-night"
    assert (
        game_night.file_stem("2026-12-06", "Crème brûlée — à 3!") == "2026-12-06-creme-brulee-a-3"
    )
    assert game_night.file_stem("2026-12-06", None) == "2026-12-06-game"
    assert game_night.file_stem("2026-12-06", "../../etc") == "2026-12-06-etc"
    # a letter with no accent to drop is another character, as SPEC §9 says (ß was dropped)
    assert game_night.file_stem("2026-12-06", "Große Straße") == "2026-12-06-gro-e-stra-e"
    assert game_night.file_stem("2026-12-06", "日本") == "2026-12-06-game"


def test_a_real_server_sees_a_sheet_another_process_adds_within_1s(night: Path) -> None:
    with Server(night) as server:

        def names() -> set[str]:
            with urllib.request.urlopen(server.url + "games.json", timeout=5) as answer:
                return {g["name"] for g in json.loads(answer.read())}

        assert "late" not in names()
        copy = "import shutil, sys; shutil.copy(sys.argv[1], sys.argv[2])"
        subprocess.run(
            [sys.executable, "-c", copy, str(WORKED), str(night / "late.yaml")], check=True
        )
        copied = time.monotonic()
        while "late" not in names():
            assert time.monotonic() - copied < 1.0, "the added sheet did not show within 1 s"
            time.sleep(0.05)
        with urllib.request.urlopen(server.url + "game/late/game.json", timeout=5) as answer:
            assert json.loads(answer.read())["title"] == "Worked example"
        code, _ = server.stop()
    assert code == 0


def test_the_folder_pages_in_the_requests_language(night: Path) -> None:
    """The game night's own pages (the list, the season, a new game) are in the language the
    request chooses, as a game's pages are (SPEC §9 "German"); English by default."""
    with client(night) as c:
        german = {
            path: c.get(path, headers={"Accept-Language": "de"})
            for path in ("/", "/season", "/new")
        }
        english = c.get("/", headers={"Accept-Language": "en"}).text
        chosen = c.get("/?lang=de", headers={"Accept-Language": "en"})
    for response in german.values():
        assert '<html lang="de">' in response.text
        assert "accept-language" in response.headers["vary"].lower()
    listed, season, new = (german[path].text for path in ("/", "/season", "/new"))
    assert "<title>Spielabend</title>" in listed and ">Nächstes Spiel<" in listed
    assert ">Eintragen<" in listed and ">Saison<" in listed and "Next game" not in listed
    assert "<h1>Saison</h1>" in season and ">Statistik<" in season and ">Siege<" in season
    assert "Statistics" not in season and ">Wins<" not in season
    assert "<h1>Neues Spiel</h1>" in new and ">Spiel starten<" in new
    assert "Sitzordnung (im Uhrzeigersinn)" in new and "Start the game" not in new
    assert '<html lang="en">' in english and "<h1>Game night</h1>" in english
    assert '<html lang="de">' in chosen.text and "wizard-lang=de" in chosen.headers["set-cookie"]
