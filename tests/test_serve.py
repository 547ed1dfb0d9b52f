"""``wizard serve`` in-process (Starlette's TestClient): what the page shows, /game.json, and
every rule of SPEC §9 "Who may do what", one test each; the entry API's answers (200, 409, 422,
503) and that a refused request writes nothing. The event stream, signals and load are
tests/test_serve_process.py's (real processes); the browser's, tests/test_serve_browser.py's."""

from __future__ import annotations

import json
import os
import re
import stat
from contextlib import contextmanager
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the serve extra is not installed (pip install '.[serve]')")
pytest.importorskip("jinja2", reason="the serve extra is not installed (pip install '.[serve]')")

from helpers import SAMPLES, WORKED, run  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from wizard_cli.app.batch import RuleOptions, inputs  # noqa: E402
from wizard_cli.web import app as web_app  # noqa: E402
from wizard_cli.web.app import create_app  # noqa: E402
from wizard_cli.web.server import allowed_hosts  # noqa: E402
from wizard_cli.web.watch import SheetWatch  # noqa: E402

TOKEN = "t" * 32
BASE = "http://127.0.0.1:8000"
IN_PROGRESS = SAMPLES / "six-players-in-progress.yaml"
CSP = "default-src 'self'"


@contextmanager
def served(path: Path, token: str | None = TOKEN, hosts=None, rules: RuleOptions = RuleOptions()):
    """A client of the app serving ``path`` as ``wizard serve`` would on 127.0.0.1:8000."""
    watch = SheetWatch(inputs([str(path)], rules))
    app = create_app(watch, token, allowed_hosts("127.0.0.1", 8000) if hosts is None else hosts)
    with TestClient(app, base_url=BASE) as client:
        yield client


def post(client: TestClient, path: str, body: object, token: str | None = TOKEN, **headers):
    """An entry request as the page sends it."""
    sent = {"Content-Type": "application/json", **headers}
    if token is not None:
        sent["X-Wizard-Token"] = token
    return client.post(path, content=json.dumps(body), headers=sent)


@pytest.fixture
def sheet(tmp_path: Path) -> Path:
    """A copy of the six players' game in progress: round 7, Olga bids next."""
    path = tmp_path / "saturday.yaml"
    path.write_bytes(IN_PROGRESS.read_bytes())
    return path


def score_json(path: Path) -> dict:
    """What ``wizard score -f json`` prints for the sheet."""
    result = run("score", path, "-f", "json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


# --- what it serves ----------------------------------------------------------------------------


def test_game_json_is_score_json_with_a_version(sheet):
    with served(sheet) as client:
        response = client.get("/game.json")
    assert response.status_code == 200
    data = response.json()
    assert data.pop("version") == 1
    assert data == score_json(sheet)
    assert response.headers["content-type"] == "application/json"


def test_the_page_reads_without_javascript(sheet):
    """Title, the status line as `score` prints it, the round in play, grid, standings,
    contenders and the chart, all in the HTML the server sends."""
    status = run("score", sheet).stdout.rstrip("\n").splitlines()[-1]
    with served(sheet) as client:
        html = client.get("/").text
    assert "<h1>Saturday, big table</h1>" in html
    assert f'<p class="status">{status}</p>' in html
    assert "Round 7 of 10" in html and "Rosa deals 7" in html
    assert (
        '<li class="next"><span class="name">Olga</span> <span class="bid">bids now</span>' in html
    )
    assert "Bids so far: 4 of 7" in html
    assert "Can still win: Mia, Noah, Olga, Pete, Quinn, Rosa" in html
    assert html.count("<polyline") == 6 and "Quinn 170" in html
    assert (
        '<span class="bt">2/2</span> <span class="pts">+40</span> <span class="tot">170</span>'
        in html
    )
    assert '<tr class="p4"><td class="num">1</td>' in html  # Quinn leads


def test_the_title_is_the_file_name_when_the_sheet_has_none(tmp_path):
    path = tmp_path / "tuesday.yaml"
    path.write_text("players: [Anna, Ben, Cara]\n")
    with served(path) as client:
        assert "<h1>tuesday.yaml</h1>" in client.get("/").text


def test_the_forbidden_dealer_bid_is_shown_on_the_page_and_disabled_on_entry(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(
        "players: [Anna, Ben, Cara]\nsettings: {screwTheDealer: always}\n"
        "rounds:\n  - bids: [1, 1, 0]\n    tricks: [1, 0, 0]\n  - bids: {Cara: 0, Anna: 1}\n"
    )
    with served(path) as client:
        board = client.get("/").text
        entry = client.get("/enter").text
    assert '<p class="forbidden">Ben may not bid 1</p>' in board
    assert re.search(r'data-bid="1" disabled title="Ben may not bid 1">1</button>', entry)
    assert re.search(r'data-bid="0">0</button>', entry) and 'data-bid="2">2</button>' in entry


def test_big_shows_the_standings_the_round_in_play_and_the_chart(sheet):
    """SPEC §9 "A TV view that fills the screen": the standings, the round in play and the
    chart; the grid (which would not fit) is left to the phones."""
    with served(sheet) as client:
        html = client.get("/?big=1").text
    assert '<body class="big">' in html and 'data-fragment="/board?big=1"' in html
    assert "Standings" in html and "Round 7 of 10" in html
    assert '<svg class="totals"' in html and 'class="grid"' not in html


def test_a_finished_game_says_who_won(tmp_path):
    path = tmp_path / "w.yaml"
    path.write_bytes(WORKED.read_bytes())
    with served(path) as client:
        html = client.get("/").text
    assert "Game over — Ben wins" in html and "Can still win" not in html


def test_an_invalid_sheet_shows_its_problems_and_game_json_says_so(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("players: [Anna, Ben]\n")
    with served(path) as client:
        html = client.get("/").text
        response = client.get("/game.json")
    assert 'class="banner" role="alert"' in html and "bad.yaml" in html
    assert response.status_code == 503
    assert response.json()["problems"][0]["message"]
    assert response.headers["cache-control"] == "no-store"


def test_static_files_are_served_by_the_package(sheet):
    with served(sheet) as client:
        css = client.get("/static/wizard.css")
        js = client.get("/static/wizard.js")
    assert css.status_code == js.status_code == 200
    assert "prefers-color-scheme: dark" in css.text and "EventSource" in js.text


def test_nothing_is_loaded_from_outside_and_nothing_is_inline(sheet):
    """CSP `default-src 'self'` forbids inline script, style and handlers: there are none."""
    with served(sheet) as client:
        pages = [
            client.get(path).text for path in ("/", "/?big=1", "/enter", "/board", "/enter/board")
        ]
    for html in pages:
        assert not re.search(r"<script(?![^>]*\bsrc=)", html)
        assert "<style" not in html and not re.search(r"\sstyle=", html)
        assert not re.search(r"\son[a-z]+=", html)
        assert not re.search(r"(src|href)=\"(https?:)?//", html)


# --- who may do what (SPEC §9), one rule a test ------------------------------------------------


def test_without_entry_nothing_can_be_written(sheet):
    before = sheet.read_bytes()
    with served(sheet, token=None) as client:
        response = post(client, "/api/bid", {"round": 7, "player": "Olga", "bid": 1}, token=None)
        assert client.get("/enter").status_code == 404
    assert response.status_code == 403
    assert sheet.read_bytes() == before


def test_a_write_without_the_token_is_403_and_changes_nothing(sheet):
    before = sheet.read_bytes()
    with served(sheet) as client:
        response = post(client, "/api/bid", {"round": 7, "player": "Olga", "bid": 1}, token=None)
    assert response.status_code == 403 and "X-Wizard-Token" in response.json()["error"]
    assert sheet.read_bytes() == before


def test_a_wrong_token_is_403_and_changes_nothing(sheet):
    before = sheet.read_bytes()
    with served(sheet) as client:
        for wrong in ("t" * 31, "t" * 33, "u" + "t" * 31, "", "ü".encode()):
            response = post(client, "/api/undo", {"round": 7}, token=wrong)
            assert response.status_code == 403, wrong
    assert sheet.read_bytes() == before


def test_the_token_is_compared_in_constant_time(sheet, monkeypatch):
    compared = []
    real = web_app.secrets.compare_digest

    def spy(a, b):
        compared.append((a, b))
        return real(a, b)

    monkeypatch.setattr(web_app.secrets, "compare_digest", spy)
    with served(sheet) as client:
        post(client, "/api/bid", {"round": 7, "player": "Olga", "bid": 1}, token="nope")
    assert compared == [(b"nope", TOKEN.encode())]


def test_the_token_has_at_least_128_random_bits():
    import secrets

    from wizard_cli.web.token_file import TOKEN_BYTES

    assert TOKEN_BYTES * 8 >= 128
    assert len(secrets.token_urlsafe(TOKEN_BYTES)) * 6 >= 128


@pytest.mark.parametrize(
    "host",
    [
        "evil.example:8000",
        "127.0.0.1:8001",
        "localhost",
        "",
        "127.0.0.1.evil.example:8000",
        "192.168.1.5:8000",
    ],
)
def test_a_request_for_another_host_is_421(sheet, host):
    with served(sheet) as client:
        response = client.get("/game.json", headers={"Host": host})
        write = post(client, "/api/undo", {"round": 7}, Host=host)
    assert response.status_code == 421 and write.status_code == 421
    assert response.headers["content-security-policy"] == CSP


@pytest.mark.parametrize(
    "host", ["127.0.0.1:8000", "localhost:8000", "LOCALHOST:8000", "[::1]:8000"]
)
def test_the_servers_own_names_are_answered(sheet, host):
    with served(sheet) as client:
        assert client.get("/game.json", headers={"Host": host}).status_code == 200


def test_the_host_given_and_a_wildcard_hosts_addresses_are_allowed(monkeypatch):
    from wizard_cli.web import server

    assert "192.168.1.5:9000" in allowed_hosts("192.168.1.5", 9000)
    assert "192.168.1.5:9000" not in allowed_hosts("127.0.0.1", 9000)
    monkeypatch.setattr(server, "machine_addresses", lambda: ["10.0.0.7", "fe80::1"])
    hosts = allowed_hosts("0.0.0.0", 9000)
    assert {"10.0.0.7:9000", "[fe80::1]:9000", "localhost:9000"} <= hosts
    assert "evil.example:9000" not in hosts and "10.0.0.7" not in hosts
    assert "10.0.0.7" in allowed_hosts("0.0.0.0", 80)  # port 80: browsers leave it out


@pytest.mark.parametrize(
    "kind",
    ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", ""],
)
def test_writes_take_json_only_415(sheet, kind):
    before = sheet.read_bytes()
    with served(sheet) as client:
        response = client.post(
            "/api/bid",
            content='{"round": 7, "player": "Olga", "bid": 1}',
            headers={"Content-Type": kind, "X-Wizard-Token": TOKEN},
        )
    assert response.status_code == 415
    assert sheet.read_bytes() == before


def test_a_body_over_4_kib_is_413(sheet):
    before = sheet.read_bytes()
    with served(sheet) as client:
        body = {"round": 7, "player": "Olga", "bid": 1, "pad": "x" * 4100}
        response = post(client, "/api/bid", body)
        chunked = client.post(
            "/api/bid",
            content=iter([b'{"pad": "', b"x" * 5000, b'"}']),
            headers={"Content-Type": "application/json", "X-Wizard-Token": TOKEN},
        )
    assert response.status_code == 413 and chunked.status_code == 413
    assert sheet.read_bytes() == before


@pytest.mark.parametrize("body", [b"{", b"round=7", b"\xff\xfe", b"[1, 2]", b"7"])
def test_a_body_that_is_not_a_json_object_is_400(sheet, body):
    before = sheet.read_bytes()
    with served(sheet) as client:
        response = client.post(
            "/api/bid",
            content=body,
            headers={"Content-Type": "application/json; charset=utf-8", "X-Wizard-Token": TOKEN},
        )
    assert response.status_code == 400
    assert sheet.read_bytes() == before


def test_every_response_carries_the_security_headers(sheet):
    with served(sheet) as client:
        responses = [
            client.get(path)
            for path in (
                "/",
                "/?big=1",
                "/board",
                "/game.json",
                "/enter",
                "/static/wizard.css",
                "/nowhere",
            )
        ]
        responses.append(post(client, "/api/bid", {}, token="wrong"))
    for response in responses:
        assert response.headers["content-security-policy"] == CSP, response.url
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["referrer-policy"] == "no-referrer"


def test_json_is_never_cached(sheet):
    with served(sheet) as client:
        for response in (
            client.get("/game.json"),
            post(client, "/api/bid", {}, token="x"),
            post(client, "/api/undo", {"round": 1}),
        ):
            assert response.headers["cache-control"] == "no-store"
            assert response.headers["content-type"].startswith("application/json")


def test_a_player_called_script_is_shown_as_typed(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_text(
        "title: '<b>Friday</b>'\nplayers: ['<script>alert(1)</script>', 'Ben \"&\" Co', Cara]\n"
        "rounds:\n  - bids: [0, 1, 0]\n"
    )
    with served(path) as client:
        pages = [client.get(p).text for p in ("/", "/?big=1", "/enter")]
    for html in pages:
        assert "<script>alert" not in html and "<b>Friday" not in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&lt;b&gt;Friday&lt;/b&gt;" in pages[0]
    assert 'data-player="Ben &#34;&amp;&#34; Co"' in pages[2]


def test_control_characters_from_the_sheet_are_shown_escaped(tmp_path):
    """SPEC §8 on the page too: an escape sequence or a bidirectional override is shown as
    `\\x1b`, `\\u202e`, not passed to the browser."""
    path = tmp_path / "c.yaml"
    path.write_text(
        'title: "Game \\e[31m night"\nplayers: ["An\\u202ena", Ben, "Ca\\x07ra"]\n'
        "rounds:\n  - bids: [0, 1, 0]\n"
    )
    with served(path) as client:
        html = client.get("/").text + client.get("/enter").text
    assert "\x1b" not in html and "\u202e" not in html and "\x07" not in html
    assert r"Game \x1b[31m night" in html and r"An\u202ena" in html and r"Ca\x07ra" in html


# --- the entry API -----------------------------------------------------------------------------


def test_a_bid_in_turn_is_recorded_like_add_does_it(sheet, tmp_path):
    twin = tmp_path / "twin.yaml"
    twin.write_bytes(sheet.read_bytes())
    assert run("add", twin, "--bids", "Olga=2", "-q").exit_code == 0
    with served(sheet) as client:
        response = post(client, "/api/bid", {"round": 7, "player": "Olga", "bid": 2})
    assert response.status_code == 200
    assert sheet.read_bytes() == twin.read_bytes()  # byte for byte what `wizard add` writes
    game = response.json()["game"]
    assert game["status"]["next"]["nextBidder"] == "Pete" and game["version"] == 2


@pytest.mark.parametrize(
    "body",
    [
        {"round": 7, "player": "Pete", "bid": 1},  # a later bidder
        {"round": 7, "player": "Noah", "bid": 1},  # one who has bid
        {"round": 6, "player": "Olga", "bid": 1},  # a past round
        {"round": 8, "player": "Olga", "bid": 1},  # a round not yet dealt
    ],
)
def test_a_bid_not_in_turn_is_409_with_the_game_and_writes_nothing(sheet, body):
    before = sheet.read_bytes()
    with served(sheet) as client:
        response = post(client, "/api/bid", body)
    assert response.status_code == 409
    data = response.json()
    assert "Olga bids in round 7" in data["error"]
    assert data["game"]["status"]["next"]["nextBidder"] == "Olga"
    assert sheet.read_bytes() == before


def test_a_second_phone_with_the_same_bid_is_409(sheet):
    with served(sheet) as client:
        first = post(client, "/api/bid", {"round": 7, "player": "Olga", "bid": 1})
        second = post(client, "/api/bid", {"round": 7, "player": "Olga", "bid": 1})
    assert (first.status_code, second.status_code) == (200, 409)
    assert sheet.read_text().count("Olga: 1") == 1


@pytest.mark.parametrize(
    "body, message",
    [
        ({"round": 7, "player": "Olga", "bid": 8}, "bid 8 is more than the hand size of 7"),
        ({"round": 7, "player": "Olga", "bid": -1}, "negative"),
        ({"round": 7, "player": "Olga", "bid": "1"}, "bid must be a whole number"),
        ({"round": 7, "player": "Olga", "bid": True}, "bid must be a whole number"),
        ({"round": 7, "player": "Olga"}, "bid must be a whole number"),
        ({"round": "7", "player": "Olga", "bid": 1}, "round must be a whole number"),
    ],
)
def test_a_refused_bid_is_422_with_adds_message(sheet, body, message):
    before = sheet.read_bytes()
    with served(sheet) as client:
        response = post(client, "/api/bid", body)
    assert response.status_code == 422
    assert message in response.json()["error"]
    assert sheet.read_bytes() == before


def test_the_forbidden_dealer_bid_is_422(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(
        "players: [Anna, Ben, Cara]\nsettings: {screwTheDealer: always}\n"
        "rounds:\n  - bids: [1, 1, 0]\n    tricks: [1, 0, 0]\n  - bids: {Cara: 0, Anna: 1}\n"
    )
    before = path.read_bytes()
    with served(path) as client:
        response = post(client, "/api/bid", {"round": 2, "player": "Ben", "bid": 1})
    assert response.status_code == 422 and "forbidden" in response.json()["error"]
    assert path.read_bytes() == before


def tricks_sheet(tmp_path: Path) -> Path:
    path = tmp_path / "t.yaml"
    path.write_text(
        "players: [Anna, Ben, Cara]\nrounds:\n  - bids: [0, 1, 0]\n"
        "    tricks: [0, 1, 0]\n  - bids: [1, 0, 1]  # all in\n"
    )
    return path


def test_tricks_complete_the_round_in_play(tmp_path):
    path = tricks_sheet(tmp_path)
    with served(path) as client:
        response = post(
            client, "/api/tricks", {"round": 2, "tricks": {"Anna": 1, "Ben": 0, "Cara": 1}}
        )
    assert response.status_code == 200
    assert path.read_text().endswith("  - bids: [1, 0, 1]  # all in\n    tricks: [1, 0, 1]\n")
    assert response.json()["game"]["status"]["roundsPlayed"] == 2


def test_tricks_that_do_not_add_up_are_422(tmp_path):
    path = tricks_sheet(tmp_path)
    before = path.read_bytes()
    with served(path) as client:
        response = post(
            client, "/api/tricks", {"round": 2, "tricks": {"Anna": 1, "Ben": 1, "Cara": 1}}
        )
        missing = post(client, "/api/tricks", {"round": 2, "tricks": {"Anna": 2}})
        unknown = post(client, "/api/tricks", {"round": 2, "tricks": {"Zed": 2}})
    assert response.status_code == missing.status_code == unknown.status_code == 422
    assert "add up" in response.json()["error"] or "3" in response.json()["error"]
    assert "missing: Ben and Cara" in missing.json()["error"]
    assert "unknown player 'Zed'" in unknown.json()["error"]
    assert path.read_bytes() == before


def test_tricks_while_bids_are_still_wanted_are_409(sheet):
    before = sheet.read_bytes()
    with served(sheet) as client:
        response = post(client, "/api/tricks", {"round": 7, "tricks": {}})
    assert response.status_code == 409 and "still bidding" in response.json()["error"]
    assert sheet.read_bytes() == before


def test_tricks_for_another_round_than_the_one_waiting_for_them_are_409(tmp_path):
    # round 2's bids are all in: tricks for round 1 (done) once failed with a TypeError (a 500)
    path = tricks_sheet(tmp_path)
    before = path.read_bytes()
    with served(path) as client:
        response = post(
            client, "/api/tricks", {"round": 1, "tricks": {"Anna": 1, "Ben": 0, "Cara": 1}}
        )
    assert response.status_code == 409
    assert response.json()["error"] == "not in turn: round 2 waits for the tricks"
    assert path.read_bytes() == before


def undo(client: TestClient, number: int):
    """An undo from a phone showing the game as it stands now."""
    version = client.get("/game.json").json()["version"]
    return post(client, "/api/undo", {"round": number, "version": version})


def test_undo_takes_back_the_last_value_written(sheet):
    with served(sheet) as client:
        first = undo(client, 7)
        second = undo(client, 7)
        third = undo(client, 7)  # round 7 is gone: the last step is 6's
        fourth = undo(client, 6)
    assert first.status_code == second.status_code == fourth.status_code == 200
    assert "took back Noah's bid of 1" in first.json()["message"]
    assert "took back Mia's bid of 3" in second.json()["message"]
    assert third.status_code == 409
    assert "removed its tricks" in fourth.json()["message"]
    assert "tricks: [1, 1, 0, 0, 2, 2]" not in sheet.read_text()


def test_undo_with_nothing_recorded_is_409(tmp_path):
    path = tmp_path / "n.yaml"
    path.write_text("players: [Anna, Ben, Cara]\n")
    with served(path) as client:
        response = undo(client, 1)
    assert response.status_code == 409 and "nothing to undo" in response.json()["error"]


def test_a_write_problem_is_503_and_writes_nothing(sheet):
    os.chmod(sheet, stat.S_IRUSR | stat.S_IRGRP)
    before = sheet.read_bytes()
    with served(sheet) as client:
        response = post(client, "/api/bid", {"round": 7, "player": "Olga", "bid": 1})
    assert response.status_code == 503 and "the sheet is read-only" in response.json()["error"]
    assert sheet.read_bytes() == before


def test_an_invalid_sheet_cannot_be_written_to_503(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("players: [Anna, Ben, Cara]\nrounds:\n  - bids: [0, 9, 0]\n")
    before = path.read_bytes()
    with served(path) as client:
        response = post(client, "/api/bid", {"round": 1, "player": "Anna", "bid": 0})
    assert response.status_code == 503 and "more than the hand size" in response.json()["error"]
    assert path.read_bytes() == before


def test_a_csv_sheet_is_shown_but_not_written(tmp_path):
    path = tmp_path / "w.csv"
    path.write_bytes((SAMPLES / "worked-example-long.csv").read_bytes())
    with served(
        path, rules=RuleOptions(assignments=["roundMode=custom", "customRoundCount=5"])
    ) as client:
        assert "Game over — Ben wins" in client.get("/").text
        response = undo(client, 5)
    assert response.status_code == 503 and "YAML sheets only" in response.json()["error"]


def test_the_rules_given_on_the_command_line_apply(sheet):
    with served(sheet, rules=RuleOptions(zero_bid="doubleBonus")) as client:
        data = client.get("/game.json").json()
    assert data == {**score_json_with(sheet, "--zero-bid", "doubleBonus"), "version": 1}


def score_json_with(path: Path, *options: str) -> dict:
    return json.loads(run("score", path, "-f", "json", *options).stdout)


# --- staying up: bodies, numbers, undo's version, a stale game (SPEC §9 "Staying up, also") ---


def nested(depth: int) -> dict:
    """A bid body carrying a value nested ``depth`` levels deep in all."""
    value: object = 0
    for _ in range(depth - 1):
        value = [value]
    return {"round": 7, "player": "Olga", "bid": 1, "extra": value}


def test_json_nested_deeper_than_32_levels_is_400(sheet):
    before = sheet.read_bytes()
    with served(sheet) as client:
        deep = post(client, "/api/bid", nested(33))
        brackets = client.post(
            "/api/bid",
            content=b"[" * 4000,
            headers={"Content-Type": "application/json", "X-Wizard-Token": TOKEN},
        )
        assert sheet.read_bytes() == before
        fine = post(client, "/api/bid", nested(32))
    assert deep.status_code == brackets.status_code == 400  # brackets: once a RecursionError
    assert "nested deeper than 32" in deep.json()["error"]
    assert fine.status_code == 200


def test_a_body_that_is_not_utf8_is_400(sheet):
    before = sheet.read_bytes()
    body = json.dumps({"round": 7, "player": "Olga", "bid": 1})
    with served(sheet) as client:
        answers = [
            client.post(
                "/api/bid",
                content=body.encode(encoding),
                headers={"Content-Type": "application/json", "X-Wizard-Token": TOKEN},
            )
            for encoding in ("utf-16", "utf-32", "utf-16-le")
        ]
    assert [a.status_code for a in answers] == [400, 400, 400]
    assert answers[0].json()["error"] == "the body is not UTF-8"
    assert sheet.read_bytes() == before


@pytest.mark.parametrize(
    "path, body, message",
    [
        (
            "/api/bid",
            {"round": 7, "player": "Olga", "bid": 2**63},
            f"round 7, Olga: bid {2**63} is more than the hand size of 7",
        ),
        (
            "/api/bid",
            {"round": 7, "player": "Olga", "bid": 10**400},
            "more than the hand size of 7",
        ),
        (
            "/api/bid",
            {"round": 7, "player": "Olga", "bid": -(2**63)},
            f"bid {-(2**63)} is negative",
        ),
        (
            "/api/bid",
            {"round": 2**63, "player": "Olga", "bid": 1},
            f"round {2**63} is not a round of this game (1 to 10)",
        ),
        (
            "/api/bid",
            {"round": 0, "player": "Olga", "bid": 1},
            "round 0 is not a round of this game",
        ),
        (
            "/api/tricks",
            {"round": 7, "tricks": {"Mia": 2**64}},
            f"tricks {2**64} is more than the hand size of 7",
        ),
        ("/api/undo", {"round": 2**63, "version": 1}, "is not a round of this game"),
    ],
)
def test_a_number_past_the_hand_size_however_large_is_422(sheet, path, body, message):
    before = sheet.read_bytes()
    with served(sheet) as client:
        if "version" in body:  # the version the server shows (it may not have read the sheet yet)
            body = {**body, "version": client.get("/game.json").json()["version"]}
        response = post(client, path, body)
    assert response.status_code == 422, response.text
    assert message in response.json()["error"]
    assert sheet.read_bytes() == before


def test_undo_without_a_version_is_422(sheet):
    before = sheet.read_bytes()
    with served(sheet) as client:
        response = post(client, "/api/undo", {"round": 7})
        wrong_type = post(client, "/api/undo", {"round": 7, "version": "1"})
    assert response.status_code == wrong_type.status_code == 422
    assert '"version" is missing' in response.json()["error"]
    assert sheet.read_bytes() == before


def test_a_double_tap_on_undo_takes_back_one_step(sheet):
    with served(sheet) as client:
        version = client.get("/game.json").json()["version"]
        first = post(client, "/api/undo", {"round": 7, "version": version})
        second = post(client, "/api/undo", {"round": 7, "version": version})
    assert first.status_code == 200 and "took back Noah's bid of 1" in first.json()["message"]
    assert second.status_code == 409
    assert second.json()["game"]["version"] == version + 1
    assert "Mia: 3" in sheet.read_text()  # the step before stays


def test_undo_against_a_sheet_changed_since_the_version_it_names_is_409(sheet):
    """The watcher has not seen the change yet (it polls): the version still matches, the
    bytes on disk do not, and that is checked inside the sheet's lock."""
    watch = SheetWatch(inputs([str(sheet)], RuleOptions()), poll=3600)
    app = create_app(watch, TOKEN, allowed_hosts("127.0.0.1", 8000))
    with TestClient(app, base_url=BASE) as client:
        version = client.get("/game.json").json()["version"]
        assert run("add", sheet, "--bids", "Olga=2", "-q").exit_code == 0  # another process
        after_add = sheet.read_bytes()
        response = post(client, "/api/undo", {"round": 7, "version": version})
    assert response.status_code == 409, response.text
    assert "the sheet changed since version 1" in response.json()["error"]
    assert response.json()["game"]["status"]["next"]["bidsIn"]["Olga"] == 2
    assert sheet.read_bytes() == after_add  # Olga's bid was not the step the phone showed


def test_game_json_while_the_sheet_is_invalid_is_the_last_game_marked_stale(sheet):
    with served(sheet) as client:
        good = client.get("/game.json").json()
        sheet.write_text(sheet.read_text().replace("[1, 0, 1, 1, 0, 0]", "[1, 0, 1, 1, 0, 9]"))
        stale = client.get("/game.json")
    data = stale.json()
    assert stale.status_code == 200
    assert data.pop("stale") is True and data.pop("version") == 2
    assert "more than the hand size" in data.pop("problems")[0]["message"]
    assert data == {key: value for key, value in good.items() if key != "version"}
    assert "stale" not in good


def test_a_failed_read_is_tried_again_within_a_second_though_the_file_did_not_change(
    sheet, monkeypatch
):
    import asyncio
    import errno

    from wizard_cli.sheets import source

    real = source.open_regular
    failing = [True]

    def flaky(path, shown=None, follow=True):
        if failing[0]:
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        return real(path, shown, follow)

    monkeypatch.setattr(source, "open_regular", flaky)

    async def scenario() -> list:
        watch = SheetWatch(inputs([str(sheet)], RuleOptions()))
        polling = asyncio.create_task(watch.run())
        seen = []
        try:
            await asyncio.sleep(0.3)
            seen.append((watch.version, watch.game is None, str(watch.problems[0])))
            await asyncio.sleep(1.5)  # failing the same way: no new version every second
            seen.append((watch.version, watch.game is None))
            failing[0] = False
            await asyncio.sleep(1.0)  # the file has not changed: it is read again anyway
            seen.append((watch.version, watch.game is None))
        finally:
            await watch.stop()
            polling.cancel()
        return seen

    seen = asyncio.run(scenario())
    assert seen[0] == (1, True, f"{sheet}: cannot read: Input/output error")
    assert seen[1] == (1, True)
    assert seen[2] == (2, False)


def test_a_fifo_named_as_a_sheet_is_refused_without_waiting_for_a_writer(tmp_path):
    """The one place files are opened never blocks: a FIFO put where a sheet was checked to
    be (after the check) is refused at once, for every command, not read from."""
    import threading

    from wizard_cli.errors import WizardError
    from wizard_cli.sheets.formats import read_sheets

    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    outcome: list = []

    def read() -> None:
        try:
            list(read_sheets(str(fifo)))
        except WizardError as error:
            outcome.append(str(error))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(3)
    if reader.is_alive():  # it blocked: free it with a writer, then fail
        with open(fifo, "w"):
            pass
        reader.join(3)
    assert outcome == [f"{fifo}: cannot read: a FIFO, not a sheet file"]
