"""One colour-blind-safe palette (SPEC §9 "Accessible"): a player has the same colour in
``wizard plot``'s chart and on the table's screen, light or dark; the screen's chart has the
standings as its text alternative."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import SAMPLES

from wizard_cli.output.palette import PALETTE, seat_colour

CSS = Path(__file__).resolve().parent.parent / "wizard_cli" / "web" / "static" / "wizard.css"
IN_PROGRESS = SAMPLES / "six-players-in-progress.yaml"


def test_the_pages_player_colours_are_the_palette_in_light_and_dark():
    css = CSS.read_text()
    defined = re.findall(r"--p(\d): (#[0-9a-f]{6})", css)
    # one definition per seat: the dark scheme does not give players other colours
    assert defined == [(str(seat), colour) for seat, colour in enumerate(PALETTE)]
    for seat in range(len(PALETTE)):
        assert f".series.p{seat} {{ stroke: var(--p{seat}); fill: var(--p{seat}); }}" in css
        assert f".p{seat} .swatch {{ color: var(--p{seat}); }}" in css


def test_the_palette_is_okabe_ito_without_its_yellow():
    okabe_ito = {
        "#e69f00",
        "#56b4e9",
        "#009e73",
        "#f0e442",
        "#0072b2",
        "#d55e00",
        "#cc79a7",
        "#000000",
    }
    assert set(PALETTE) <= okabe_ito and len(set(PALETTE)) == 6 and "#f0e442" not in PALETTE
    assert seat_colour(6) == PALETTE[0]


def test_wizard_plot_draws_each_player_in_the_pages_colour():
    pytest.importorskip("matplotlib", reason="the plot extra is not installed")
    from matplotlib.colors import to_hex

    from wizard_cli.output.chart import line_chart

    figure = line_chart(
        [([0, 1], [0, seat]) for seat in range(8)],
        [f"P{n}" for n in range(8)],
        "t",
        "",
        "y",
        lambda axes: None,
    )
    players = figure.axes[0].get_lines()[1:]  # the first is the zero line
    assert len(players) == 8
    colours = [to_hex(line.get_color()) for line in players]
    assert colours[:6] == list(PALETTE) and colours[6:] == list(PALETTE[:2])
    styles = [line.get_linestyle() for line in players]
    assert styles[:6] == ["-"] * 6 and styles[6:] == ["--", "--"]  # seven and up: dashed


def test_the_screens_chart_has_the_standings_as_its_text_alternative(tmp_path):
    pytest.importorskip("starlette", reason="the serve extra is not installed")
    from test_serve import served

    path = tmp_path / "s.yaml"
    path.write_bytes(IN_PROGRESS.read_bytes())
    with served(path) as client:
        english = client.get("/", headers={"Accept-Language": "en"}).text
        german = client.get("/", headers={"Accept-Language": "de"}).text
    assert 'role="img" aria-labelledby="chart-title chart-desc"' in english
    desc = re.search(r'<desc id="chart-desc">(.*?)</desc>', english, re.S).group(1)
    assert desc.startswith("Standings: 1. Quinn, 170 points; ") and desc.endswith(" points.")
    assert desc.count("points") == 6
    assert "Rangliste: 1. Quinn, 170 Punkte; " in german
