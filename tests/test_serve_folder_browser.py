"""``wizard serve DIR --entry`` in a real browser (Playwright on the system's Chromium): a whole
evening from a phone — the list, New game (players picked and typed, the seating changed), a
round entered, Next game after a finished game, the season — and the list following the folder
without a reload. No console error or CSP violation (the shared ``open_page`` fixture checks).
axe-core finds no violation on the list, New game and the season, entry on and off, light and
dark, English and German (SPEC §9 "Accessible").

With WIZARD_SCREENSHOTS=1 it writes the README's docs/serve-folder.png, docs/serve-new.png and
docs/serve-season.png (otherwise to a temporary folder)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api", reason="playwright is not installed (the test extra)")
pytest.importorskip("uvicorn", reason="the serve extra is not installed (pip install '.[serve]')")

from helpers import SAMPLES, WORKED
from serving import Server, axe_violations
from test_serve_browser import CHROMIUM, browser, open_page, screenshots  # noqa: F401

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason="Chromium is not installed (apt-get install chromium)"
)


def test_a_whole_evening_from_a_phone(tmp_path: Path, open_page) -> None:  # noqa: F811
    night = tmp_path / "night"
    night.mkdir()
    (night / "worked.yaml").write_text(
        WORKED.read_text().replace("players:", "date: 2026-11-27\nplace: Anna's\nplayers:", 1)
    )
    shutil.copy(SAMPLES / "six-players-in-progress.yaml", night / "saturday.yaml")
    shots = screenshots() or tmp_path
    shots.mkdir(exist_ok=True)
    with Server(night, "--entry") as server:
        phone = open_page(f"{server.url}?token={server.token}", width=360, height=800)
        assert "token" not in phone.url
        assert phone.evaluate("localStorage.getItem('wizard-entry-token')") == server.token
        assert phone.locator(".games li").count() == 2
        assert phone.locator(".games li").first.locator(".status").inner_text() == "Ben wins"
        assert phone.evaluate("document.documentElement.scrollWidth") <= 360
        phone.screenshot(path=str(shots / "serve-folder.png"), full_page=True)

        new = phone.context.new_page()  # the same phone (its kept token), a second tab
        new.goto(f"{server.url}new")
        for name in ("Anna", "Ben", "Cara"):
            new.locator(f"input[data-known][value='{name}']").check()
        new.locator("#add-name").fill("Dora")
        new.locator("#add-player").click()
        new.locator("button[aria-label='up: Dora']").click()  # Dora sits before Cara
        assert new.locator("#seating li span").all_inner_texts() == ["Anna", "Ben", "Dora", "Cara"]
        new.locator("#first-dealer").select_option("Ben")
        new.locator("#title").fill("Friday night")
        new.locator("#preset").select_option("doubleZero")
        assert new.evaluate("document.documentElement.scrollWidth") <= 360
        new.screenshot(path=str(shots / "serve-new.png"), full_page=True)
        new.locator("button.start").click()
        new.wait_for_url(re.compile(r"/game/\d{4}-\d\d-\d\d-friday-night/enter$"), timeout=5000)
        name = new.url.split("/game/")[1].split("/")[0]
        # The open list shows the new game without a reload, within a second or so.
        phone.wait_for_function(
            "() => document.body.textContent.includes('Friday night')", timeout=2000
        )

        # Round 1 from the entry page: Dora (left of Ben, the dealer) bids first.
        for bid in (0, 0, 0, 0):
            before = new.locator(".turn h2").inner_text()
            assert re.fullmatch(r"Round 1: \w+ bids", before)
            new.locator(f"button[data-bid='{bid}']").click()
            new.wait_for_function(
                f"() => document.querySelector('.turn h2').textContent !== {before!r}", timeout=3000
            )
        inputs = new.locator("input[data-player]")
        inputs.nth(0).fill("1")
        for index in range(1, inputs.count() - 1):
            inputs.nth(index).fill("0")
        new.locator("button[type=submit]").click()
        new.wait_for_function(
            "() => document.querySelector('.turn h2').textContent.includes('Round 2')", timeout=3000
        )
        sheet = (night / f"{name}.yaml").read_text()
        assert "players: [Anna, Ben, Dora, Cara]" in sheet and "firstDealer: Ben" in sheet
        assert "zeroBidScoring: doubleBonus" in sheet and "tricks: [1, 0, 0, 0]" in sheet

        # Next game on the finished game: the same players, the next dealer, its entry page.
        done = phone.context.new_page()
        done.goto(f"{server.url}game/worked/enter")
        done.locator("button.next-game").click()
        done.wait_for_url(re.compile(r"/game/\d{4}-\d\d-\d\d-worked-example/enter$"), timeout=5000)
        assert "Round 1:" in done.locator(".turn h2").inner_text()

        season = open_page(f"{server.url}season", width=1000, height=800)
        assert season.locator("table.season-table").count() == 2
        assert "Ben" in season.locator("table.season-table").first.inner_text()
        assert season.locator("svg polyline").count() == 4
        season.screenshot(path=str(shots / "serve-season.png"), full_page=True)
    assert (shots / "serve-new.png").stat().st_size > 10_000


def an_evening(tmp_path: Path) -> Path:
    night = tmp_path / "night"
    night.mkdir()
    (night / "worked.yaml").write_text(
        WORKED.read_text().replace("players:", "date: 2026-11-27\nplace: Anna's\nplayers:", 1)
    )
    shutil.copy(SAMPLES / "six-players-in-progress.yaml", night / "saturday.yaml")
    return night


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_axe_finds_no_violation_on_the_folder_pages(
    tmp_path: Path,
    browser,
    open_page,  # noqa: F811
    scheme: str,
    lang: str,
) -> None:
    night = an_evening(tmp_path)
    found = {}

    def check(address: str, page) -> None:
        assert page.evaluate("document.documentElement.lang") == lang, (address, page.url)
        found[address] = axe_violations(page)

    with Server(night, "--entry") as server:  # entry on, this phone holding the token
        phone = open_page(f"{server.url}?token={server.token}&lang={lang}", scheme=scheme)
        phone.wait_for_selector(".games li")
        check("entry /", phone)
        for address in ("new", "season"):
            tab = phone.context.new_page()  # the same phone (its kept token)
            tab.goto(f"{server.url}{address}?lang={lang}")
            check(f"entry /{address}", tab)
        new = phone.context.new_page()  # New game with players picked and the seating shown
        new.goto(f"{server.url}new?lang={lang}")
        for name in ("Anna", "Ben", "Cara"):
            new.locator(f"input[data-known][value='{name}']").check()
        check("entry /new, picked", new)
    with Server(night) as server:  # entry off
        for address in ("", "season"):
            page = open_page(f"{server.url}{address}?lang={lang}", scheme=scheme)
            check(f"off /{address}", page)
        context = browser.new_context(color_scheme=scheme)  # /new is a 404: its own context
        page = context.new_page()
        page.goto(f"{server.url}new?lang={lang}")
        assert page.locator("h1").count() == 1
        check("off /new", page)
        context.close()
    violations = {address: v for address, v in found.items() if v}
    assert violations == {}, "\n".join(f"{a}: {v}" for a, v in violations.items())


@pytest.mark.parametrize("width", [360, 1280])
def test_the_german_game_night_in_a_browser(tmp_path: Path, open_page, width: int) -> None:  # noqa: F811
    """The list, New game and the season in German (SPEC §9 "German"): statuses, dates, the
    settings' meanings, figures with a decimal comma and the seating buttons' labels, nothing
    past the right edge at 360 px (German is longer). Screenshots: serve-*-de-WIDTH.png in a
    temporary folder (docs/ with WIZARD_SCREENSHOTS=1 is for the README's English ones)."""
    night = an_evening(tmp_path)
    for number, game in enumerate((SAMPLES / "club-season.yaml").read_text().split("\n---\n")):
        (night / f"club-{number}.yaml").write_text(game)
    shots = tmp_path / "shots"
    shots.mkdir()
    with Server(night, "--entry") as server:
        phone = open_page(f"{server.url}?token={server.token}&lang=de", width=width, height=800)
        phone.wait_for_selector(".games li")
        statuses = phone.locator(".games .status").all_inner_texts()
        assert "Runde 7 von 10: Olga sagt an" in statuses and "Ben gewinnt" in statuses
        assert "27. November 2026, Anna's" in phone.locator(".when").all_inner_texts()
        new = phone.context.new_page()
        new.goto(f"{server.url}new")  # the cookie keeps German
        new.locator("details summary").click()
        new.locator("input[data-known][value='Anna']").check()
        assert new.locator("#seating button").first.get_attribute("aria-label") == (
            "nach oben: Anna"
        )
        assert "das ganze Spiel austeilen" in new.locator(".setting .hint").first.inner_text()
        season = phone.context.new_page()
        season.goto(f"{server.url}season")
        cells = season.locator("table.season-table td").all_inner_texts()
        assert any(re.fullmatch(r"\d+,\d\d", cell) for cell in cells)
        assert any(re.fullmatch(r"\d+,\d\u00a0%", cell) for cell in cells)
        for name, page in (("folder", phone), ("new", new), ("season", season)):
            if width == 360:
                assert page.evaluate("document.documentElement.scrollWidth") <= 360, name
            page.screenshot(path=str(shots / f"serve-{name}-de-{width}.png"), full_page=True)
    assert len(list(shots.iterdir())) == 3
