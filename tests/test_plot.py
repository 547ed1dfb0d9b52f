"""`wizard plot`: a real PNG and SVG of the running totals, safe writes, and a clear error
without matplotlib (the optional extra ``plot``)."""

from __future__ import annotations

import importlib.util
import struct
import sys
import xml.etree.ElementTree as ET
import zlib

import pytest
from helpers import SAMPLES, WORKED, run

from wizard_cli.output.chart import chart_title, draw_chart, running_totals

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
SVG = "{http://www.w3.org/2000/svg}"
PLAYERS = ["Anna", "Ben", "Cara", "Dan"]
MISSING = (
    "wizard plot needs matplotlib, the plot extra: pip install '.[plot]' in the wizard checkout\n"
)
# Drawing needs the optional extra; the message for its absence is tested either way.
needs_matplotlib = pytest.mark.skipif(
    importlib.util.find_spec("matplotlib") is None,
    reason="needs the plot extra: pip install -e '.[test,plot]'",
)
CUSTOM_5 = ("--set", "roundMode=custom", "--set", "customRoundCount=5")


def png_chunks(data: bytes) -> dict[bytes, bytes]:
    """The PNG's chunks by type (IDAT chunks joined), checking each chunk's CRC."""
    chunks: dict[bytes, bytes] = {}
    offset = len(PNG_SIGNATURE)
    while offset < len(data):
        (length,) = struct.unpack(">I", data[offset : offset + 4])
        kind = data[offset + 4 : offset + 8]
        body = data[offset + 8 : offset + 8 + length]
        (crc,) = struct.unpack(">I", data[offset + 8 + length : offset + 12 + length])
        assert zlib.crc32(kind + body) == crc
        chunks[kind] = chunks.get(kind, b"") + body
        offset += 12 + length
    return chunks


def svg_texts(path) -> list[str]:
    """Every text element of an SVG file, which must parse as XML."""
    root = ET.parse(path).getroot()
    assert root.tag == SVG + "svg"
    return [element.text for element in root.iter(SVG + "text")]


def worked_result():
    from wizard_cli.game.game import score_game
    from wizard_cli.game.validation import check_sheet
    from wizard_cli.sheets.formats import read_sheets

    checked = check_sheet(next(read_sheets(str(WORKED))))
    return score_game(checked.validated)


# --- the images -----------------------------------------------------------------------------


@needs_matplotlib
def test_png_is_a_real_image(tmp_path):
    out = tmp_path / "game.png"
    result = run("plot", WORKED, "-o", out)
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", "")
    data = out.read_bytes()
    assert data.startswith(PNG_SIGNATURE)
    chunks = png_chunks(data)
    width, height = struct.unpack(">II", chunks[b"IHDR"][:8])
    assert (width, height) == (960, 576)  # 8 × 4.8 inches at 120 dpi
    pixels = zlib.decompress(chunks[b"IDAT"])
    assert len(pixels) > width * height  # every row of pixels is there
    assert len(set(pixels)) > 50  # lines, text and colours, not a blank canvas
    assert b"IEND" in chunks


@needs_matplotlib
def test_svg_is_xml_with_the_players_title_and_axis(tmp_path):
    out = tmp_path / "game.svg"
    result = run("plot", WORKED, "-o", out)
    assert result.exit_code == 0, result.stderr
    texts = svg_texts(out)
    for name in PLAYERS:
        assert name in texts
    assert "Worked example" in texts  # the sheet's title
    assert "Round" in texts and "Running total" in texts
    assert "Game over — Ben wins" in texts
    assert [t for t in texts if t in {"0", "1", "2", "3", "4", "5"}][:6] == [
        "0",
        "1",
        "2",
        "3",
        "4",
        "5",
    ]


@needs_matplotlib
def test_extension_is_case_insensitive(tmp_path):
    out = tmp_path / "GAME.SVG"
    assert run("plot", WORKED, "-o", out).exit_code == 0
    assert "Anna" in svg_texts(out)


@needs_matplotlib
def test_same_game_same_bytes(tmp_path):
    first, second = tmp_path / "a.svg", tmp_path / "b.svg"
    run("plot", WORKED, "-o", first)
    run("plot", WORKED, "-o", second)
    assert first.read_bytes() == second.read_bytes()


@needs_matplotlib
def test_title_falls_back_to_the_file_name(tmp_path):
    out = tmp_path / "long.svg"
    result = run("plot", SAMPLES / "worked-example-long.csv", *CUSTOM_5, "-o", out)
    assert result.exit_code == 0, result.stderr
    assert "worked-example-long.csv" in svg_texts(out)


@needs_matplotlib
def test_game_in_progress_and_names_as_written(tmp_path, write):
    sheet = write(
        "odd.yaml",
        'title: "$5 & <friends>"\nplayers: [_Zed, "A&B", Zoë]\n'
        "rounds:\n  - bids: [1, 0, 0]\n    tricks: [1, 0, 0]\n",
    )
    out = tmp_path / "odd.svg"
    assert run("plot", sheet, "-o", out).exit_code == 0
    texts = svg_texts(out)
    assert {"_Zed", "A&B", "Zoë", "$5 & <friends>"} <= set(texts)
    assert "Round 2 of 20 next: A&B deals 2" in texts


@needs_matplotlib
def test_settings_change_the_chart(tmp_path):
    out = tmp_path / "double.svg"
    assert run("plot", WORKED, "--zero-bid", "doubleBonus", "-o", out).exit_code == 0
    assert run("plot", WORKED, "-o", tmp_path / "plain.svg").exit_code == 0
    assert out.read_bytes() != (tmp_path / "plain.svg").read_bytes()


@needs_matplotlib
def test_reads_stdin(tmp_path):
    out = tmp_path / "stdin.png"
    result = run("plot", "-", "-o", out, input=WORKED.read_text(encoding="utf-8"))
    assert result.exit_code == 0, result.stderr
    assert out.read_bytes().startswith(PNG_SIGNATURE)


# --- the drawing, directly ------------------------------------------------------------------


def test_running_totals_of_the_worked_example():
    # SPEC §6 round by round: Anna 30, -10, 40, -10, 40; Ben 20, 30, 20, 40, 30;
    # Cara 20, -10, 30, 20, -20; Dan -10, -20, -10, -10, -10.
    assert running_totals(worked_result()) == (
        [0, 1, 2, 3, 4, 5],
        [
            [0, 30, 20, 60, 50, 90],
            [0, 20, 50, 70, 110, 140],
            [0, 20, 10, 40, 60, 40],
            [0, -10, -30, -40, -50, -60],
        ],
    )


@needs_matplotlib
def test_figure_has_a_line_per_player_a_zero_line_and_a_legend():
    figure = draw_chart(worked_result(), "Game over — Ben wins")
    (axes,) = figure.axes
    lines = axes.get_lines()
    zero, players = lines[0], lines[1:]
    assert list(zero.get_ydata()) == [0, 0]
    assert [list(line.get_ydata()) for line in players] == running_totals(worked_result())[1]
    assert [list(line.get_xdata()) for line in players] == [[0, 1, 2, 3, 4, 5]] * 4
    assert [text.get_text() for text in axes.get_legend().get_texts()] == PLAYERS
    assert axes.get_xlabel() == "Round"
    assert figure.get_suptitle() == "Worked example"
    assert axes.get_title() == "Game over — Ben wins"


def test_in_play_round_is_not_drawn_and_blank_sheet_starts_at_zero(write):
    from wizard_cli.game.game import score_game
    from wizard_cli.game.validation import check_sheet
    from wizard_cli.sheets.formats import read_sheets

    def result_of(text: str):
        checked = check_sheet(next(read_sheets(str(write("s.yaml", text)))))
        assert checked.valid, checked.problems
        return score_game(checked.validated)

    blank = result_of("players: [A, B, C]\n")
    assert running_totals(blank) == ([0], [[0], [0], [0]])
    assert chart_title(blank).endswith("s.yaml")
    in_play = result_of(
        "players: [A, B, C]\nrounds:\n  - bids: [1, 0, 0]\n    tricks: [0, 1, 0]\n"
        "  - bids: {A: 1, B: 1}\n"
    )
    assert running_totals(in_play) == ([0, 1], [[0, -10], [0, -10], [0, 20]])


# --- never clobber, write atomically --------------------------------------------------------


def test_refuses_to_overwrite_without_force(tmp_path):
    out = tmp_path / "game.png"
    out.write_bytes(b"precious")
    result = run("plot", WORKED, "-o", out)
    assert result.exit_code == 1
    assert result.stderr == f"{out}: already exists; use --force to overwrite\n"
    assert out.read_bytes() == b"precious"


@needs_matplotlib
def test_force_overwrites(tmp_path):
    out = tmp_path / "game.png"
    out.write_bytes(b"old")
    result = run("plot", WORKED, "-o", out, "--force")
    assert result.exit_code == 0, result.stderr
    assert out.read_bytes().startswith(PNG_SIGNATURE)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.png"]  # no temporary file left


@needs_matplotlib
def test_a_folder_is_never_replaced(tmp_path):
    folder = tmp_path / "chart.svg"
    folder.mkdir()
    result = run("plot", WORKED, "-o", folder, "--force")
    assert result.exit_code == 1
    assert result.stderr == f"{folder}: is a folder, not a file\n"
    assert folder.is_dir()


@needs_matplotlib
def test_missing_folder_is_a_clear_error(tmp_path):
    out = tmp_path / "nowhere" / "game.png"
    result = run("plot", WORKED, "-o", out)
    assert result.exit_code == 1
    assert result.stderr == f"{out}: cannot write: No such file or directory\n"


@needs_matplotlib
def test_new_file_gets_a_normal_mode(tmp_path):
    out = tmp_path / "game.svg"
    run("plot", WORKED, "-o", out)
    assert out.stat().st_mode & 0o777 != 0o600  # not the private mode of a temporary file


# --- errors -----------------------------------------------------------------------------------


def test_missing_matplotlib_is_one_line(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    out = tmp_path / "game.png"
    result = run("plot", WORKED, "-o", out)
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", MISSING)
    assert not out.exists()


def test_unknown_extension_is_a_usage_error(tmp_path):
    out = tmp_path / "game.jpg"
    result = run("plot", WORKED, "-o", out)
    assert result.exit_code == 2
    assert f"'{out}' is neither .png nor .svg" in result.stderr
    assert not out.exists()


def test_output_is_required():
    result = run("plot", WORKED)
    assert result.exit_code == 2
    assert "--output" in result.stderr


def test_missing_sheet_is_a_usage_error(tmp_path):
    result = run("plot", tmp_path / "nope.yaml", "-o", tmp_path / "x.png")
    assert result.exit_code == 2
    assert "no such file" in result.stderr


@needs_matplotlib
def test_invalid_sheet_writes_nothing(tmp_path, write):
    sheet = write(
        "bad.yaml", "players: [A, B, C]\nrounds:\n  - bids: [1, 0, 0]\n    tricks: [1, 1, 0]\n"
    )
    out = tmp_path / "bad.png"
    result = run("plot", sheet, "-o", out)
    assert result.exit_code == 1
    assert (
        result.stderr == f"{sheet}:4: round 1: tricks add up to 2, 1 more than the hand size of 1\n"
    )
    assert not out.exists()


@needs_matplotlib
def test_a_season_is_refused(tmp_path):
    out = tmp_path / "season.png"
    result = run("plot", SAMPLES / "season.csv", "-o", out)
    assert result.exit_code == 1
    assert result.stderr.startswith(
        f"{SAMPLES / 'season.csv'}: holds several games; plot draws one"
    )
    assert not out.exists()


def test_bad_setting_is_a_data_error(tmp_path):
    out = tmp_path / "x.png"
    result = run("plot", WORKED, "-o", out, "--set", "exactBonus=3")
    assert result.exit_code == 1
    assert "exactBonus" in result.stderr
    assert not out.exists()


def test_plot_is_in_help():
    result = run("--help")
    assert "plot" in result.stdout and "stats" in result.stdout
