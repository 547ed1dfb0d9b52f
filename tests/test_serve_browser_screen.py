"""The table's screen in a real browser (Playwright on the system's Chromium), SPEC §9 "Accessible"
and "A TV view that fills the screen": axe-core finds no violation on any page, light and dark,
English and German; every control is reached with Tab, shows a visible focus and works from the
keyboard; ``?big=1`` fills 1920×1080 and 1280×720 without scrolling, a name in the standings at
least 4% of the screen's height, a problems banner one line.

axe-core is kept under tests/vendor/axe-core (its MPL-2.0 licence beside it, its header
intact): the tests run without a network, and the version checked against is the one in git.
It is evaluated through the DevTools protocol, which the page's CSP does not govern; nothing is
added to the page itself."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api", reason="playwright is not installed (the test extra)")
pytest.importorskip("uvicorn", reason="the serve extra is not installed (pip install '.[serve]')")

from serving import Server, axe_violations  # noqa: E402
from test_serve_browser import CHROMIUM, IN_PROGRESS, browser, open_page, sheet  # noqa: E402,F401

pytestmark = pytest.mark.skipif(
    not shutil.which(CHROMIUM) and not Path(CHROMIUM).exists(),
    reason="Chromium is not installed (apt-get install chromium)",
)


def finished(tmp_path: Path) -> Path:
    path = tmp_path / "over.yaml"
    path.write_text(
        "title: Over\nplayers: [Anna, Ben, Cara]\n"
        "settings: {roundMode: custom, customRoundCount: 1}\n"
        "rounds:\n  - bids: [0, 0, 1]\n    tricks: [0, 0, 1]\n"
    )
    return path


def broken_after_valid(server: Server, path: Path) -> None:
    """The sheet made invalid while served: the last valid game and the problems banner."""
    import time

    text = path.read_text()
    path.write_text(text + "  - bids: [99, 0, 0, 0, 0, 0]\n  - bids: [0, 99]\n")
    time.sleep(1.5)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_axe_finds_no_violation_on_any_page(sheet, tmp_path, browser, open_page, scheme, lang):
    over = finished(tmp_path)
    found = {}
    with Server(sheet, "--entry") as server:
        pages = ["", "?big=1", "enter"]
        for address in pages:
            separator = "&" if "?" in address else "?"
            page = open_page(f"{server.url}{address}{separator}lang={lang}", scheme=scheme)
            found[address] = axe_violations(page)
        broken_after_valid(server, sheet)
        for address in ("", "?big=1"):
            separator = "&" if "?" in address else "?"
            page = open_page(f"{server.url}{address}{separator}lang={lang}", scheme=scheme)
            assert page.locator(".banner summary").count() == 1
            page.locator(".banner summary").click()  # the list open, as a reader would
            found["broken " + address] = axe_violations(page)
    with Server(over, "--entry") as server:  # a finished game
        for address in ("", "?big=1", "enter"):
            separator = "&" if "?" in address else "?"
            page = open_page(f"{server.url}{address}{separator}lang={lang}", scheme=scheme)
            found["over " + address] = axe_violations(page)
    with Server(over) as server:  # entry is off: a 404 page (its own context: 404 is expected)
        context = browser.new_context(color_scheme=scheme)
        page = context.new_page()
        page.goto(f"{server.url}enter?lang={lang}")
        found["off"] = axe_violations(page)
        context.close()
    violations = {address: v for address, v in found.items() if v}
    assert violations == {}, "\n".join(f"{a}: {v}" for a, v in violations.items())


def test_axe_reports_what_it_should(sheet, open_page):
    """The check can fail: a control without a name, added to the page, is reported."""
    with Server(sheet) as server:
        page = open_page(server.url)
        page.evaluate("document.querySelector('main').append(document.createElement('button'))")
        assert any(v.startswith("button-name") for v in axe_violations(page))


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720)])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_tv_view_fills_the_screen_without_scrolling(sheet, open_page, size, lang):
    width, height = size
    with Server(sheet) as server:
        page = open_page(f"{server.url}?big=1&lang={lang}", width=width, height=height)
        check_tv(page, width, height)
        broken_after_valid(server, sheet)
        page.wait_for_selector(".banner summary")
        summary = page.locator(".banner summary").bounding_box()
        line = page.evaluate(
            "parseFloat(getComputedStyle(document.querySelector("
            "'.banner summary')).lineHeight) || 0"
        )
        font = page.evaluate(
            "parseFloat(getComputedStyle(document.querySelector('.banner summary')).fontSize)"
        )
        assert summary["height"] < 2 * max(line, font * 1.2), "the banner is one line"
        check_tv(page, width, height)


def check_tv(page, width: int, height: int) -> None:
    """Everything of the TV view inside the screen, nothing scrolled or cut, the names big."""
    assert page.evaluate("document.documentElement.scrollHeight") <= height
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    names = page.locator(".standings td.player .name")
    assert names.count() == 6
    for index in range(6):
        box = names.nth(index).bounding_box()
        assert box["height"] >= 0.04 * height, (index, box)
        assert box["y"] + box["height"] <= height
    for selector in (".standings", ".in-play", "svg.totals", ".standings tbody tr:last-child"):
        box = page.locator(selector).bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height + 0.5, (
            selector,
            box,
        )
        assert box["x"] + box["width"] <= width + 0.5, (selector, box)
    # every row of the standings inside its box (nothing cut off by the layout)
    section = page.locator("section.standings").bounding_box()
    last = page.locator(".standings tbody tr:last-child").bounding_box()
    assert last["y"] + last["height"] <= section["y"] + section["height"] + 0.5
    assert page.locator("svg.totals").bounding_box()["height"] >= 0.2 * height


def test_every_control_works_from_the_keyboard_with_a_visible_focus(sheet, open_page):
    with Server(sheet, "--entry") as server:
        page = open_page(server.url + "enter?token=" + server.token, width=400, height=900)
        page.wait_for_selector("button.bid-button")
        seen = []
        for _ in range(40):
            page.keyboard.press("Tab")
            focused = page.evaluate("""() => {
                const e = document.activeElement;
                const s = getComputedStyle(e);
                return {tag: e.tagName, text: e.textContent.trim().slice(0, 30),
                        bid: e.dataset ? e.dataset.bid || null : null,
                        outline: s.outlineStyle, width: parseFloat(s.outlineWidth),
                        visible: e.matches(':focus-visible')};
            }""")
            if focused["tag"] == "BODY":
                break
            seen.append(focused)
            assert focused["visible"] and focused["outline"] != "none" and focused["width"] >= 2, (
                focused
            )
        assert {f["tag"] for f in seen} >= {"BUTTON", "A"}
        # Olga bids 1 with the keyboard alone: Tab to its button, Enter.
        page.evaluate("document.activeElement.blur()")
        for _ in range(40):
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.dataset.bid") == "1":
                break
        page.keyboard.press("Enter")
        page.wait_for_function(
            "() => !document.querySelector('.turn h2').textContent.includes('Olga')", timeout=5000
        )
    assert "Olga: 1" in sheet.read_text()
