"""``wizard serve`` in a real browser: Playwright driving the system's Chromium (never a
downloaded one). The scoreboard of a sample sheet, a ``wizard add`` in another process on the
open page within 2 s without a reload, a whole round entered from /enter, a stale second phone
and a phone without the token refused, no console error or CSP violation, nothing past the right
edge at 360 px. Skipped, with the reason, without Chromium or playwright.

With WIZARD_SCREENSHOTS=1 the scoreboard test also writes the README's docs/serve.png,
docs/serve-big.png, docs/serve-tv.png (1920×1080) and docs/serve-de.png (German, 360 px) (otherwise its screenshots go to a temporary folder, so a test run leaves the
checkout as it was)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

sync_api = pytest.importorskip(
    "playwright.sync_api", reason="playwright is not installed (the test extra)"
)
pytest.importorskip("uvicorn", reason="the serve extra is not installed (pip install '.[serve]')")

from helpers import SAMPLES, run  # noqa: E402
from serving import ROOT, Server  # noqa: E402

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
IN_PROGRESS = SAMPLES / "six-players-in-progress.yaml"

pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason="Chromium is not installed (apt-get install chromium)"
)

# Counts every violation and error the page reports; read by each test's checks.
WATCH_PAGE = """
window.__problems = [];
document.addEventListener("securitypolicyviolation",
    (e) => window.__problems.push("CSP " + e.violatedDirective + " " + e.blockedURI));
"""


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield chromium
        chromium.close()


@pytest.fixture
def open_page(browser):
    """Open a page in a fresh context (its own storage, as another phone); on the way out,
    check that no page had a console error, a failed request or a CSP violation."""
    contexts, pages, errors = [], [], []

    def opener(
        url: str,
        width: int = 1000,
        height: int = 800,
        scheme: str = "light",
        block_events: bool = False,
    ):
        context = browser.new_context(
            viewport={"width": width, "height": height}, color_scheme=scheme
        )
        context.add_init_script(WATCH_PAGE)
        if block_events:  # a phone whose live updates do not come through: it stays stale
            context.route("**/events", lambda route: route.abort())
        page = context.new_page()
        page.on(
            "console",
            lambda m: (
                m.type == "error" and not block_events and errors.append(f"console: {m.text}")
            ),
        )
        page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
        page.goto(url)
        contexts.append(context)
        pages.append(page)
        return page

    yield opener
    for page in pages:
        errors.extend(page.evaluate("window.__problems"))
    for context in contexts:
        context.close()
    # Expected: the 403/409 a test asked for, and the stream's reconnect once the test has
    # stopped the server (the pages are closed after it).
    expected = ("status of 403", "status of 409", "net::ERR_CONNECTION_REFUSED")
    assert [e for e in errors if not any(part in e for part in expected)] == []


@pytest.fixture
def sheet(tmp_path: Path) -> Path:
    path = tmp_path / "saturday.yaml"
    path.write_bytes(IN_PROGRESS.read_bytes())
    return path


def three_players(tmp_path: Path) -> Path:
    path = tmp_path / "friday.yaml"
    path.write_text(
        "title: Friday\nplayers: [Anna, Ben, Cara]\nrounds:\n"
        "  - bids: [1, 0, 0]\n    tricks: [1, 0, 0]\n"
    )
    return path


def screenshots() -> Path:
    return ROOT / "docs" if os.environ.get("WIZARD_SCREENSHOTS") == "1" else None


def test_the_scoreboard_of_a_sample_sheet(open_page, tmp_path):
    with Server(IN_PROGRESS.relative_to(ROOT)) as server:  # named as a user would name it
        page = open_page(server.url, width=1000)
        assert page.title() == "Saturday, big table"
        assert page.locator(".status").inner_text() == "Round 7 of 10 in play: Olga to bid"
        assert page.locator(".bids li.next").inner_text() == "Olga bids now"
        assert page.locator(".standings tbody tr").first.inner_text().split() == [
            "1",
            "Quinn",
            "170",
        ]
        assert page.locator("svg.totals polyline").count() == 6
        assert page.locator(".grid tbody tr").count() == 7
        big = open_page(server.url + "?big=1", width=1280, height=720)
        assert big.locator(".standings tbody tr").count() == 6
        assert big.locator(".grid").count() == 0
        folder = screenshots() or tmp_path
        folder.mkdir(exist_ok=True)
        page.screenshot(path=str(folder / "serve.png"), full_page=True)
        big.screenshot(path=str(folder / "serve-big.png"))
        tv = open_page(server.url + "?big=1", width=1920, height=1080)
        tv.screenshot(path=str(folder / "serve-tv.png"))
        german = open_page(server.url + "?lang=de", width=360, height=800)
        assert german.locator(".standings h2").inner_text() == "Rangliste"
        german.screenshot(path=str(folder / "serve-de.png"))
    assert (folder / "serve.png").stat().st_size > 10_000


def test_wizard_add_in_another_process_shows_within_two_seconds_without_a_reload(sheet, open_page):
    with Server(sheet) as server:
        page = open_page(server.url)
        page.evaluate("window.__same_page = true")
        done = subprocess.run(
            [sys.executable, "-m", "wizard_cli", "add", str(sheet), "--bids", "Olga=2", "-q"],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        written = time.monotonic()
        assert done.returncode == 0, done.stderr
        page.wait_for_function(
            "() => document.querySelector('.status').textContent.includes('Pete')", timeout=2000
        )
        took = time.monotonic() - written
        assert page.evaluate("window.__same_page") is True  # updated in place, not reloaded
        assert "Olga 2" in page.locator(".bids").inner_text()
    assert took < 2.0


def test_a_whole_round_entered_from_the_entry_page(tmp_path, open_page):
    path = three_players(tmp_path)
    twin = tmp_path / "twin.yaml"
    twin.write_bytes(path.read_bytes())
    with Server(path, "--entry") as server:
        page = open_page(f"{server.url}enter?token={server.token}", width=390)
        assert "token" not in page.url  # dropped from the address bar, kept by the page
        assert page.evaluate("localStorage.getItem('wizard-entry-token')") == server.token
        for player, bid in (("Cara", 1), ("Anna", 0), ("Ben", 2)):  # round 2: Ben deals
            heading = page.locator(".turn h2")
            assert heading.inner_text() == f"Round 2: {player} bids"
            page.locator(f"button[data-bid='{bid}']").click()
            page.wait_for_function(
                f"() => !document.querySelector('.turn h2').textContent.includes('{player} bids')",
                timeout=3000,
            )
        assert page.locator(".turn h2").inner_text() == "Round 2: tricks taken"
        page.locator("input[data-player='Cara']").fill("1")
        page.locator("input[data-player='Anna']").fill("0")
        assert page.locator("input[data-player='Ben']").input_value() == "1"  # the rest
        page.locator("button[type=submit]").click()
        page.wait_for_function(
            "() => document.querySelector('.turn h2').textContent.includes('Round 3')", timeout=3000
        )
        assert (
            "Recorded" in page.locator("#message").inner_text()
            or page.locator("#message").inner_text() == "recorded"
        )
    for args in (
        ["--bids", "Cara=1"],
        ["--bids", "Anna=0"],
        ["--bids", "Ben=2"],
        ["--tricks", "0,1,1"],
    ):
        assert run("add", twin, *args, "-q").exit_code == 0
    assert path.read_bytes() == twin.read_bytes()  # exactly what `wizard add` writes


def test_a_stale_second_phone_is_refused(tmp_path, open_page):
    path = three_players(tmp_path)
    with Server(path, "--entry") as server:
        address = f"{server.url}enter?token={server.token}"
        first = open_page(address, width=390)
        second = open_page(address, width=390, block_events=True)
        first.locator("button[data-bid='1']").click()
        first.wait_for_function(
            "() => document.querySelector('.turn h2').textContent.includes('Anna')", timeout=3000
        )
        assert second.locator(".turn h2").inner_text() == "Round 2: Cara bids"  # stale
        second.locator("button[data-bid='0']").click()
        second.wait_for_function(
            "() => document.querySelector('#message').textContent.length > 2", timeout=3000
        )
        assert (
            second.locator("#message")
            .inner_text()
            .startswith("Not recorded: not in turn: Anna bids in round 2")
        )
        second.wait_for_function(
            "() => document.querySelector('.turn h2').textContent.includes('Anna')", timeout=3000
        )  # and now shows the game as it stands
    bids = json.loads(run("next", path, "-f", "json").stdout)["bidsIn"]
    assert bids == {"Cara": 1}  # the first phone's bid, and nothing of the second's


def test_a_stale_phones_undo_is_refused_and_a_current_one_takes_back_one_step(tmp_path, open_page):
    """Undo sends the version the page shows (SPEC §9): a phone that has not seen the last
    bid cannot take it back in the belief that it takes back the one before."""
    path = three_players(tmp_path)
    path.write_text(path.read_text() + "  - bids: {Cara: 1}\n")  # round 2: Anna bids next
    with Server(path, "--entry") as server:
        address = f"{server.url}enter?token={server.token}"
        first = open_page(address, width=390)
        second = open_page(address, width=390, block_events=True)
        first.locator("button[data-bid='0']").click()  # Anna bids 0: Ben is next
        first.wait_for_function(
            "() => document.querySelector('.turn h2').textContent.includes('Ben')", timeout=3000
        )
        assert second.locator(".turn h2").inner_text() == "Round 2: Anna bids"  # stale
        second.locator("button[data-action='undo']").click()
        second.wait_for_function(
            "() => document.querySelector('#message').textContent.length > 2", timeout=3000
        )
        assert (
            second.locator("#message")
            .inner_text()
            .startswith("Not recorded: not in turn: the phone shows version 1")
        )
        assert json.loads(run("next", path, "-f", "json").stdout)["bidsIn"] == {
            "Anna": 0,
            "Cara": 1,
        }
        first.locator("button[data-action='undo']").click()
        first.wait_for_function(
            "() => document.querySelector('.turn h2').textContent.includes('Anna')", timeout=3000
        )
        assert "took back Anna's bid of 0" in first.locator("#message").inner_text()
    assert json.loads(run("next", path, "-f", "json").stdout)["bidsIn"] == {"Cara": 1}


def test_a_phone_without_the_token_is_refused(tmp_path, open_page):
    path = three_players(tmp_path)
    before = path.read_bytes()
    with Server(path, "--entry") as server:
        page = open_page(f"{server.url}enter", width=390)
        assert page.locator("#no-token").is_visible()
        page.locator("button[data-bid='1']").click()
        page.wait_for_function(
            "() => document.querySelector('#message').textContent.length > 2", timeout=3000
        )
        assert page.locator("#message").inner_text().startswith("Not allowed: missing or wrong")
    assert path.read_bytes() == before


@pytest.mark.parametrize("address", ["", "?big=1", "enter"])
def test_nothing_reaches_past_the_right_edge_at_360_px(sheet, open_page, address):
    with Server(sheet, "--entry") as server:
        for scheme in ("light", "dark"):
            page = open_page(server.url + address, width=360, scheme=scheme)
            assert page.evaluate("document.documentElement.scrollWidth") <= 360
            if address == "":
                box = page.locator(".grid .scroll")  # six players: the grid scrolls in its box
                assert box.evaluate("b => b.scrollWidth > b.clientWidth")


def test_the_page_follows_the_device_light_or_dark(sheet, open_page):
    with Server(sheet) as server:
        light = open_page(server.url, scheme="light")
        dark = open_page(server.url, scheme="dark")
        background = "getComputedStyle(document.body).backgroundColor"
        assert light.evaluate(background) == "rgb(251, 250, 247)"
        assert dark.evaluate(background) == "rgb(21, 22, 27)"


def test_tricks_by_tapping_never_pass_the_hand_and_offer_the_rest(tmp_path, open_page):
    """SPEC §9 "Tricks by tapping": buttons 0..hand size per player, the chosen one pressed,
    what is left to give shown, values that would pass the hand disabled, the rest offered."""
    path = tmp_path / "tap.yaml"
    path.write_text(
        "players: [Anna, Ben, Cara]\nrounds:\n  - bids: [1, 0, 0]\n"
        "    tricks: [1, 0, 0]\n  - bids: [0, 1, 1]\n"
    )
    with Server(path, "--entry") as server:
        page = open_page(f"{server.url}enter?token={server.token}", width=360)
        assert page.locator(".turn h2").inner_text() == "Round 2: tricks taken"
        for player in ("Anna", "Ben", "Cara"):
            assert page.locator(f"button[data-trick-for='{player}']").count() == 3  # 0, 1, 2
        cara = page.locator("button[data-trick-for='Cara'][data-value='2']")
        cara.focus()
        page.keyboard.press("Enter")  # keyboard operable
        assert cara.get_attribute("aria-pressed") == "true"
        assert page.locator("[data-left]").inner_text() == "0"
        # Cara took both: Anna and Ben can take none more (their 1 and 2 are disabled)
        assert page.locator("button[data-trick-for='Anna'][data-value='1']").is_disabled()
        assert page.locator("button[data-trick-for='Ben'][data-value='2']").is_disabled()
        cara_one = page.locator("button[data-trick-for='Cara'][data-value='1']")
        cara_one.click()
        assert page.locator("[data-left]").inner_text() == "1"
        assert cara.get_attribute("aria-pressed") == "false"
        page.locator("button[data-trick-for='Anna'][data-value='0']").click()
        # round 2: Ben deals, so Cara and Anna are given theirs and Ben is offered the rest
        last = page.locator("input[data-rest]").get_attribute("data-player")
        assert page.locator(f"input[data-player='{last}']").input_value() == "1"  # the rest
        assert (
            page.locator(f"button[data-trick-for='{last}'][data-value='1']").get_attribute(
                "aria-pressed"
            )
            == "true"
        )
        folder = screenshots() or tmp_path  # the README's picture of tapped tricks
        folder.mkdir(exist_ok=True)
        page.screenshot(path=str(folder / "serve-tap.png"), full_page=True)
        page.locator("button[type=submit]").click()
        page.wait_for_function(
            "() => document.querySelector('.turn h2').textContent.includes('Round 3')", timeout=3000
        )
    assert path.read_text().endswith("tricks: [0, 1, 1]\n")  # Anna 0, Ben the rest 1, Cara 1
