"""The table's screen seats players (SPEC §5 "Special cards and seating at the table", §9):
``POST /api/bid`` with ``"out"`` on a round's first bid, ``POST /api/join`` and ``/api/leave``
— the same edits as ``wizard add --out``, ``join`` and ``leave`` (byte for byte), guarded and
refused like the other writes — and the entry page's seat controls; also in folder mode."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the serve extra is not installed (pip install '.[serve]')")
pytest.importorskip("jinja2", reason="the serve extra is not installed (pip install '.[serve]')")

from helpers import run  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from wizard_cli.app.batch import RuleOptions, inputs  # noqa: E402
from wizard_cli.web.app import create_app  # noqa: E402
from wizard_cli.web.server import allowed_hosts  # noqa: E402
from wizard_cli.web.watch import SheetWatch  # noqa: E402

TOKEN = "t" * 32
BASE = "http://127.0.0.1:8000"
ONE_ROUND = (
    "title: Friday\nplayers: [A, B, C, D]\nrounds:\n"
    "  - bids:   [0, 1, 0, 0]\n    tricks: [0, 1, 0, 0]\n"
)  # A dealt; B deals round 2


@pytest.fixture
def sheet(tmp_path: Path) -> Path:
    path = tmp_path / "friday.yaml"
    path.write_text(ONE_ROUND)
    return path


def twin(sheet: Path, *commands: tuple) -> bytes:
    """The sheet's bytes after the same changes made with the CLI, on a copy."""
    copy = sheet.with_name("twin.yaml")
    copy.write_text(ONE_ROUND)
    for args in commands:
        result = run(args[0], copy, *args[1:], "-q")
        assert result.exit_code == 0, result.stderr
    return copy.read_bytes()


def client_of(path: Path) -> TestClient:
    watch = SheetWatch(inputs([str(path)], RuleOptions()))
    return TestClient(create_app(watch, TOKEN, allowed_hosts("127.0.0.1", 8000)), base_url=BASE)


def post(
    client: TestClient,
    path: str,
    body: object,
    token: str | None = TOKEN,
    kind: str = "application/json",
):
    headers = {"Content-Type": kind}
    if token is not None:
        headers["X-Wizard-Token"] = token
    return client.post(path, content=json.dumps(body), headers=headers)


def test_join_leave_and_out_write_what_the_commands_write(sheet):
    with client_of(sheet) as client:
        joined = post(client, "/api/join", {"player": "Eva", "after": "B", "startScore": "lowest"})
        assert joined.status_code == 200, joined.text
        assert joined.json()["message"].endswith("Eva joins from round 2")
        assert joined.json()["game"]["players"] == ["A", "B", "Eva", "C", "D"]
        left = post(
            client, "/api/leave", {"player": "D", "version": joined.json()["game"]["version"]}
        )
        assert left.status_code == 200, left.text
        bid = post(client, "/api/bid", {"round": 2, "player": "Eva", "bid": 1, "out": ["C"]})
        assert bid.status_code == 200, bid.text
    assert sheet.read_bytes() == twin(
        sheet,
        ("join", "Eva", "--after", "B", "--start-score", "lowest"),
        ("leave", "D"),
        ("add", "--bids", "Eva=1", "--out", "C"),
    )
    assert sheet.read_text().endswith("  - out: [C]\n    bids:   [null, null, 1]\n")


def test_undo_from_the_page_takes_back_a_join(sheet):
    with client_of(sheet) as client:
        joined = post(client, "/api/join", {"player": "Eva", "startScore": 25})
        assert joined.status_code == 200, joined.text
        assert "{name: Eva, joins: 2, startScore: 25}" in sheet.read_text()
        game = joined.json()["game"]
        undone = post(client, "/api/undo", {"round": 2, "version": game["version"]})
        assert undone.status_code == 200, undone.text
        assert "took back Eva joining from round 2" in undone.json()["message"]
    assert sheet.read_text() == ONE_ROUND


def test_undo_from_the_page_says_it_took_back_the_out_with_the_rounds_only_bid(sheet):
    with client_of(sheet) as client:
        bid = post(client, "/api/bid", {"round": 2, "player": "C", "bid": 1, "out": ["D"]})
        assert bid.status_code == 200, bid.text
        game = bid.json()["game"]
        undone = post(client, "/api/undo", {"round": 2, "version": game["version"]})
        assert undone.status_code == 200, undone.text
        assert undone.json()["message"].endswith("took back C's bid of 1 and D sitting it out")
    assert sheet.read_text() == ONE_ROUND


@pytest.mark.parametrize(
    "path, body, status, message",
    [
        ("/api/join", {"player": 5}, 422, '"player" must be the name of the player joining'),
        ("/api/join", {"player": "  "}, 422, '"player" must be the name'),
        ("/api/join", {"player": ["E"] * 10}, 422, '"player" must be the name'),
        ("/api/join", {"player": "B"}, 422, "'B' is already listed"),
        ("/api/join", {"player": "E", "after": "Zed"}, 422, "--after 'Zed' is not one of"),
        ("/api/join", {"player": "E", "after": {"x": 1}}, 422, '"after" must be a player'),
        ("/api/join", {"player": "E", "startScore": "lots"}, 422, '"startScore" must be a whole'),
        ("/api/join", {"player": "E", "startScore": True}, 422, '"startScore" must be a whole'),
        ("/api/join", {"player": "E", "startScore": 1.5}, 422, '"startScore" must be a whole'),
        ("/api/join", {"player": "E", "startScore": 10**300}, 422, "is far too large"),
        ("/api/join", {"player": "E", "version": 99}, 409, "not in turn: the phone shows version"),
        ("/api/join", {"player": "E", "version": "1"}, 422, "version must be a whole number"),
        ("/api/leave", {"player": None}, 422, '"player" must be the name of the player leaving'),
        ("/api/leave", {"player": "Zed"}, 422, "'Zed' is not one of the players"),
        (
            "/api/bid",
            {"round": 2, "player": "C", "bid": 0, "out": "D"},
            422,
            '"out" must be a list',
        ),
        (
            "/api/bid",
            {"round": 2, "player": "C", "bid": 0, "out": [1]},
            422,
            '"out" must be a list',
        ),
        (
            "/api/bid",
            {"round": 2, "player": "C", "bid": 0, "out": ["D"] * 13},
            422,
            '"out" must be a list',
        ),
        ("/api/bid", {"round": 2, "player": "C", "bid": 0, "out": ["Zed"]}, 422, "unknown player"),
        (
            "/api/bid",
            {"round": 2, "player": "C", "bid": 0, "out": ["A", "B"]},
            422,
            "2 players seated: a round seats 3 to 6",
        ),
        ("/api/bid", {"round": 2, "player": "C", "bid": 0, "out": ["C"]}, 409, "not in turn"),
    ],
)
def test_refusals_are_the_commands_and_write_nothing(sheet, path, body, status, message):
    with client_of(sheet) as client:
        answer = post(client, path, body)
    assert answer.status_code == status, answer.text
    assert message in answer.json()["error"]
    assert sheet.read_text() == ONE_ROUND


def test_while_a_round_is_in_play_seats_wait_and_a_late_out_is_409(sheet):
    assert run("add", sheet, "--bids", "C=0", "-q").exit_code == 0
    before = sheet.read_bytes()
    with client_of(sheet) as client:
        join = post(client, "/api/join", {"player": "E"})
        leave = post(client, "/api/leave", {"player": "A"})
        late = post(client, "/api/bid", {"round": 2, "player": "D", "bid": 0, "out": ["A"]})
    assert join.status_code == leave.status_code == 422
    assert "finish round 2 first" in join.json()["error"]
    assert "finish round 2 first" in leave.json()["error"]
    assert late.status_code == 409 and "round 2 has begun" in late.json()["error"]
    assert sheet.read_bytes() == before


def test_the_guards_of_every_write_hold(sheet):
    with client_of(sheet) as client:
        answers = [
            post(client, "/api/join", {"player": "E"}, token=None),
            post(client, "/api/leave", {"player": "A"}, token="x" * 32),
            post(client, "/api/join", {"player": "E"}, kind="text/plain"),
            client.post(
                "/api/leave",
                content=b"{",
                headers={"Content-Type": "application/json", "X-Wizard-Token": TOKEN},
            ),
            post(client, "/api/join", {"player": "E" * 5000}),
        ]
    assert [a.status_code for a in answers] == [403, 403, 415, 400, 413]
    assert sheet.read_text() == ONE_ROUND


def test_the_entry_page_offers_the_seats_and_shows_the_round_as_it_would_be_dealt(sheet):
    with client_of(sheet) as client:
        plain = client.get("/enter/board").text
        with_out = client.get("/enter/board?out=C").text
        too_few = client.get("/enter/board?out=A&out=B").text
        german = client.get("/enter/board?lang=de").text
    assert '<h2 id="seats-heading">Who sits round 2</h2>' in plain
    assert 'data-player="C" data-bid="0"' in plain  # B deals round 2: C bids first
    assert '<input type="checkbox" data-out value="C" checked>' in with_out
    assert 'data-player="D" data-bid="0"' in with_out  # C out: D bids first
    assert "A player leaves after round 1" in plain and 'data-action="join"' in plain
    assert (
        '<p class="seat-problem" role="alert">2 players seated: a round seats 3 to 6</p>' in too_few
    )
    assert "Wer spielt Runde 2" in german and "Setzt diese Runde aus" in german
    assert run("add", sheet, "--bids", "C=0", "-q").exit_code == 0
    with client_of(sheet) as client:
        in_play = client.get("/enter/board?out=D").text
    assert "seats-heading" not in in_play  # seats change between rounds only


def test_a_folder_games_seats_are_under_its_own_routes(tmp_path):
    from wizard_cli.web.folder import FolderWatch, create_folder_app

    folder = tmp_path / "night"
    folder.mkdir()
    (folder / "friday.yaml").write_text(ONE_ROUND)
    watch = FolderWatch(str(folder), token=TOKEN, poll=0.05)
    app = create_folder_app(watch, allowed_hosts("127.0.0.1", 8000))
    with TestClient(app, base_url=BASE) as client:
        joined = post(client, "/game/friday/api/join", {"player": "Eva"})
        page = client.get("/game/friday/enter/board").text
    assert joined.status_code == 200, joined.text
    assert "{name: Eva, joins: 2}" in (folder / "friday.yaml").read_text()
    assert "Who sits round 2" in page


def test_the_scoreboard_and_the_tv_view_show_a_round_in_play_with_someone_out(sheet):
    """Before: the round in play showed ``?`` for a player sitting it out, as if still to bid."""
    assert run("join", sheet, "Eva", "-q").exit_code == 0
    assert run("add", sheet, "--bids", "C=0", "--out", "A", "-q").exit_code == 0
    with client_of(sheet) as client:
        board, big = client.get("/"), client.get("/?big=1")
        data = client.get("/game.json").json()
    assert board.status_code == big.status_code == 200
    row = board.text.split('<tr class="in-play">')[1].split("</tr>")[0]
    assert row.count('<span class="bt">out</span>') == 1 and row.count(">?<") == 3
    assert '<span class="bt">0/?</span>' in row  # C's bid; B, D and Eva still to bid
    assert "Eva" in big.text and data["status"]["next"]["biddingOrder"] == ["C", "D", "Eva", "B"]


def test_a_fragment_asked_before_the_first_poll_reads_the_sheet(sheet):
    """CI caught ``/enter/board`` answered before the poll's first read: an empty board.
    Without the lifespan (``TestClient`` outside ``with``) the poll never runs at all."""
    watch = SheetWatch(inputs([str(sheet)], RuleOptions()))
    client = TestClient(create_app(watch, TOKEN, allowed_hosts("127.0.0.1", 8000)), base_url=BASE)
    assert "Who sits round 2" in client.get("/enter/board").text
    assert ">A<" in client.get("/board").text


def test_tricks_with_the_bomb_or_the_cloud_in_a_round_someone_sits_out(tmp_path):
    """Before: ``POST /api/tricks`` with ``"bomb"`` or ``"cloud"`` in a round a listed player
    sat out was a 500 (a KeyError in the write), where the same tricks alone were fine."""
    from test_seated_special_cards import IN_PLAY_WITH_ONE_OUT as text

    tricks = {"Anna": 0, "Ben": 0, "Cara": 0, "Dan": 0}
    for extra, written in (
        ({"bomb": True}, "    tricks: [0, 0, 0, 0]\n    bomb: true\n"),
        ({"cloud": {"Anna": -1}}, "    tricks: [1, 0, 0, 0]\n    cloud: {Anna: -1}\n"),
    ):
        path = tmp_path / "night.yaml"
        path.write_text(text)
        sent = dict(tricks, Anna=1) if "cloud" in extra else tricks
        with client_of(path) as client:
            answer = post(client, "/api/tricks", {"round": 1, "tricks": sent, **extra})
        assert answer.status_code == 200, answer.text
        assert path.read_text() == text + written
