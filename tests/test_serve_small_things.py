"""The issue's small things on the page (SPEC §9): tied players numbered alike on the entry page
(1, 1, 3); a bid not in yet shown as ``score``'s table shows it (``?``); the grid's Round column
sticky while the grid scrolls; the entry page's trick buttons, 0..hand size for each player."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the serve extra is not installed (pip install '.[serve]')")
pytest.importorskip("jinja2", reason="the serve extra is not installed (pip install '.[serve]')")

from helpers import run  # noqa: E402
from test_serve import TOKEN, served  # noqa: E402

from wizard_cli.web.app import HERE  # noqa: E402


def test_tied_players_are_numbered_alike_on_the_entry_page(tmp_path: Path):
    sheet = tmp_path / "tie.yaml"
    sheet.write_text(
        "players: [X, Y, Z]\nrounds:\n  - bids: [0, 0, 1]\n    tricks: [0, 0, 1]\n"
    )  # X 20, Y 20, Z 30
    with served(sheet) as client:
        page = client.get(f"/enter?token={TOKEN}").text
    ranks = re.findall(r'<li value="(\d+)">(\w) (-?\d+)</li>', page)
    assert ranks == [("1", "Z", "30"), ("2", "X", "20"), ("2", "Y", "20")]


def test_a_bid_not_in_yet_is_shown_as_score_shows_it(tmp_path: Path):
    sheet = tmp_path / "bids.yaml"
    sheet.write_text("players: [A, B, C]\nrounds:\n  - bids: [null, 1, null]\n")
    table = run("score", sheet).stdout
    row = next(line for line in table.splitlines() if line.strip().startswith("1 "))
    cells = row.split()[3:]  # round, cards, dealer, then the players in seating order
    with served(sheet) as client:
        page = client.get("/").text
    shown = re.findall(r'<span class="bt">(.*?)</span>', page)
    assert shown == cells == ["?", "1/?", "?"]


def test_the_grid_s_round_column_stays_in_view_while_it_scrolls():
    css = (HERE / "static" / "wizard.css").read_text()
    rule = re.search(r"\.grid th:first-child, \.grid td:first-child \{([^}]*)\}", css)
    assert rule and "position: sticky" in rule.group(1) and "left: 0" in rule.group(1)
    assert "background" in rule.group(1)  # the cells passing under it do not show through


def test_the_entry_page_offers_each_players_tricks_as_buttons(tmp_path: Path):
    sheet = tmp_path / "tricks.yaml"
    sheet.write_text(
        "players: ['<b>A', B, C]\nrounds:\n  - bids: [0, 0, 1]\n"
        "    tricks: [0, 0, 1]\n  - bids: [0, 1, 0]\n"
    )
    with served(sheet) as client:
        page = client.get(f"/enter?token={TOKEN}").text
    for name in ("&lt;b&gt;A", "B", "C"):
        values = re.findall(
            rf'data-trick-for="{name}" data-value="(\d)" aria-pressed="false"', page
        )
        assert values == ["0", "1", "2"]
    assert "<span data-left>2</span>" in page
