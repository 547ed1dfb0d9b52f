"""Share the result (SPEC §9): ``/game.md`` and ``/game.csv`` are byte for byte what ``wizard
score -f markdown|csv`` prints for the sheet; ``/game.svg`` is one self-contained image of the
grid, standings and chart with the sheet's text escaped; each is an attachment named after the
sheet, and the page links them and carries the (hidden until the script finds the Web Share
API) Share button."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the serve extra is not installed (pip install '.[serve]')")
pytest.importorskip("jinja2", reason="the serve extra is not installed (pip install '.[serve]')")

from helpers import SAMPLES, WORKED, run  # noqa: E402
from test_serve import served  # noqa: E402

from wizard_cli.web.exports import download_name  # noqa: E402

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(params=["worked-example.yaml", "six-players-in-progress.yaml", "club-season.yaml"])
def sheet(request, tmp_path: Path) -> Path:
    path = tmp_path / f"friday {request.param}"
    path.write_bytes((SAMPLES / request.param).read_bytes())
    return path


@pytest.mark.parametrize("suffix,fmt", [("md", "markdown"), ("csv", "csv")])
def test_markdown_and_csv_are_what_score_prints(sheet, suffix, fmt):
    printed = run("score", "-f", fmt, sheet)
    assert printed.exit_code == 0
    with served(sheet) as client:
        answer = client.get(f"/game.{suffix}")
    assert answer.status_code == 200
    if "season" in sheet.name:  # a season is served as its last game: score's last game
        head, _, rows = answer.text.partition("\n") if suffix == "csv" else ("", "", answer.text)
        assert printed.stdout.startswith(head) and printed.stdout.endswith(rows) and rows.strip()
    else:
        assert answer.text == printed.stdout
    stem = sheet.name.removesuffix(".yaml").replace(" ", "-")
    assert answer.headers["content-disposition"] == f'attachment; filename="{stem}.{suffix}"'
    assert answer.headers["content-security-policy"] == "default-src 'self'"


def test_the_image_is_one_self_contained_svg_of_grid_standings_and_chart(tmp_path):
    sheet = tmp_path / "worked.yaml"
    sheet.write_bytes(WORKED.read_bytes())
    with served(sheet) as client:
        answer = client.get("/game.svg")
        game = client.get("/game.json").json()
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "image/svg+xml"
    assert answer.headers["content-disposition"] == 'attachment; filename="worked.svg"'
    root = ET.fromstring(answer.text)  # well-formed XML, or this raises
    assert root.tag == f"{SVG}svg"
    texts = [t.text for t in root.iter(f"{SVG}text")]
    for player in game["players"]:
        assert player in texts
    for standing in game["standings"]:  # the standings, "1. Name: score"
        assert f"{standing['rank']}. {standing['player']}: {standing['score']}" in texts
    assert "Total" in texts and "Round" in texts  # the grid
    assert len([t for t in texts if t and "/" in t]) == len(game["rounds"]) * len(
        game["players"]
    )  # a bid/tricks cell for each player and round
    assert len(list(root.iter(f"{SVG}polyline"))) == len(game["players"])  # the chart
    body = answer.text
    assert "<style" not in body and "<script" not in body and "href" not in body
    assert body.count("http") == 1  # the namespace alone: nothing loaded from anywhere


def test_the_sheet_s_text_is_escaped_in_the_image(tmp_path):
    sheet = tmp_path / "evil.yaml"
    sheet.write_text(
        WORKED.read_text()
        .replace("players: [Anna,", "players: ['<script>&x</script>',")
        .replace("Anna:", "'<script>&x</script>':")
        .replace("title: Worked example", "title: '</svg><a href=x>'")
    )
    assert run("check", sheet).exit_code == 0
    with served(sheet) as client:
        answer = client.get("/game.svg")
    root = ET.fromstring(answer.text)  # still well-formed: nothing closed it early
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "<script>&x</script>" in texts and "</svg><a href=x>" in texts
    assert not list(root.iter(f"{SVG}script")) and not list(root.iter(f"{SVG}a"))


def test_download_names_are_safe_in_a_header_and_on_disk():
    assert (
        download_name("/x/2026-12-06 Fräulein's night.yaml", "md")
        == "2026-12-06-Fraulein-s-night.md"
    )
    assert download_name('a"b\r\nc.yml', "csv") == "a-b-c.csv"
    assert download_name("../../..", "svg") == "game.svg"


def test_the_page_links_the_downloads_and_a_share_button_hidden_until_the_script_shows_it(tmp_path):
    sheet = tmp_path / "worked.yaml"
    sheet.write_bytes(WORKED.read_bytes())
    with served(sheet) as client:
        page = client.get("/").text
    for suffix in ("svg", "md", "csv"):
        assert f'href="game.{suffix}" download' in page
    assert '<button type="button" id="share" hidden' in page


def test_no_valid_game_yet_is_503_not_a_traceback(tmp_path):
    sheet = tmp_path / "broken.yaml"
    sheet.write_text("players: [A]\n")
    with served(sheet) as client:
        for suffix in ("svg", "md", "csv"):
            assert client.get(f"/game.{suffix}").status_code == 503
