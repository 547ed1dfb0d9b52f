"""The entry page's seat controls in a real browser (SPEC §5 "Special cards and seating at the
table", §9): a player joined from a phone shows on the open scoreboard without a reload; a
player set to sit out changes who bids first, and goes into the sheet with the round's first
bid; axe-core finds no violation on the page with the controls, light or dark, English or
German. With WIZARD_SCREENSHOTS=1 it writes the README's docs/serve-seats.png and
docs/serve-seats-de.png (360 px wide)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api", reason="playwright is not installed (the test extra)")
pytest.importorskip("uvicorn", reason="the serve extra is not installed (pip install '.[serve]')")

from serving import Server, axe_violations  # noqa: E402
from test_serve_browser import CHROMIUM, browser, open_page, screenshots  # noqa: E402, F401

pytestmark = pytest.mark.skipif(
    not shutil.which(CHROMIUM) and not Path(CHROMIUM).exists(),
    reason="Chromium is not installed (apt-get install chromium)",
)

TWO_ROUNDS = (
    "title: Friday night\nplayers: [Anna, Ben, Cara, Dan]\nrounds:\n"
    "  - bids:   [0, 1, 0, 0]\n    tricks: [0, 1, 0, 0]\n"
    "  - bids:   [1, 0, 1, 0]\n    tricks: [1, 0, 1, 0]\n"
)  # Cara deals round 3


def friday(tmp_path: Path) -> Path:
    path = tmp_path / "friday.yaml"
    path.write_text(TWO_ROUNDS)
    return path


def test_joining_from_the_entry_page_updates_the_table(tmp_path, open_page):  # noqa: F811
    path = friday(tmp_path)
    with Server(path, "--entry") as server:
        board = open_page(server.url, width=1000)
        assert board.locator(".grid thead th").count() == 3 + 4
        phone = open_page(f"{server.url}enter?token={server.token}", width=390)
        assert phone.locator(".turn h2").inner_text() == "Round 3: Dan bids"
        join = phone.locator("form[data-action='join']")
        join.locator("input[name='player']").fill("Eva")
        join.locator("select[name='after']").select_option("Ben")
        assert join.locator("[data-start-number]").is_hidden()
        join.locator("select[name='start']").select_option("number")
        assert join.locator("[data-start-number]").is_visible()
        join.locator("input[name='score']").fill("35")
        join.locator("button[type=submit]").click()
        phone.wait_for_function(
            "() => document.querySelector('#message').textContent"
            ".includes('Eva joins from round 3')",
            timeout=3000,
        )
        # the open scoreboard follows, without a reload: Eva's column, 35 in the standings
        board.wait_for_function(
            "() => [...document.querySelectorAll('.grid thead th')]"
            ".some((th) => th.textContent === 'Eva')",
            timeout=2000,
        )
        assert board.locator(".grid thead th").count() == 3 + 5
        assert "Eva 35" in board.locator(".standings").inner_text().replace("\t", " ")
        # Eva sits after Ben, who dealt round 2: she deals round 3 (SPEC §1), Cara bids first
        phone.wait_for_function(
            "() => document.querySelector('.turn h2').textContent === 'Round 3: Cara bids'",
            timeout=3000,
        )
        assert phone.locator("form[data-action='join'] input[name='player']").input_value() == ""
        # Cara sits round 3 out: Dan bids first; the out goes in with his bid
        phone.locator("input[data-out][value='Cara']").check()
        phone.wait_for_function(
            "() => document.querySelector('.turn h2').textContent === 'Round 3: Dan bids'",
            timeout=3000,
        )
        phone.locator("button[data-bid='1']").click()
        phone.wait_for_function(
            "() => document.querySelector('.turn h2').textContent.includes('Anna bids')",
            timeout=3000,
        )
        assert phone.locator(".seats").count() == 0  # the round has begun
        board.wait_for_function(
            "() => [...document.querySelectorAll('.grid .in-play td')]"
            ".some((td) => td.textContent === 'out')",
            timeout=2000,
        )
    text = path.read_text()
    assert "players: [Anna, Ben, {name: Eva, joins: 3, startScore: 35}, Cara, Dan]" in text
    assert text.endswith("  - out: [Cara]\n    bids:   [null, null, null, 1]\n")


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_axe_finds_no_violation_with_the_seat_controls(
    tmp_path,
    open_page,
    scheme,  # noqa: F811
    lang,
):
    friday(tmp_path)
    with Server(Path("friday.yaml"), "--entry", cwd=tmp_path) as server:  # shown by its name
        page = open_page(
            f"{server.url}enter?token={server.token}&lang={lang}",
            width=360,
            height=800,
            scheme=scheme,
        )
        page.locator("input[data-out][value='Ben']").check()
        page.locator("input[data-out][value='Cara']").check()  # two out: the problem said
        page.wait_for_selector(".seat-problem", timeout=3000)
        found = axe_violations(page)
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        page.locator("input[data-out][value='Cara']").uncheck()
        page.wait_for_selector(".seat-problem", state="detached", timeout=3000)
        page.locator("input[name='player']").fill("Eva")
        page.locator("select[name='start']").select_option("number")
        page.locator("input[name='score']").fill("35")
        found += axe_violations(page)
        if scheme == "light":
            folder = screenshots() or tmp_path
            folder.mkdir(exist_ok=True)
            name = "serve-seats.png" if lang == "en" else "serve-seats-de.png"
            page.screenshot(path=str(folder / name), full_page=True)
    assert found == []
