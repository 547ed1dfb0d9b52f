"""A large YAML or JSON sheet is parsed as it is decoded (sheets/source.py ``streamed_text``),
never held whole: it reads, and it is refused, exactly as the same sheet does when small and
read whole (issue 21: a 60 MB sheet was read whole, then parsed, ~3× the file).

Each case is written twice with the same lines: once padded with long lines (comments in YAML,
blank space in JSON) past ``STREAM_BYTES``, once with the padding lines short. The two must
give the same output, messages and exit code, line for line. Memory itself is measured in
test_memory.py, in child processes.
"""

from __future__ import annotations

import codecs
import json

import pytest
from helpers import run

from wizard_cli.sheets.source import STREAM_BYTES

PAD_LINES = 40
LONG = STREAM_BYTES // PAD_LINES + 100  # characters of a padding line: the file streams


def yaml_pad(width: int) -> str:
    return "".join(f"# {'c' * width}\n" for _ in range(PAD_LINES))


def json_pad(width: int) -> str:
    return "".join(" " * width + "\n" for _ in range(PAD_LINES))


GAME = "players: [Anna, Ben, Cara]\nrounds:\n  - bids: [0, 1, 0]\n    tricks: [0, 1, 0]\n"
CASES = {
    "valid": lambda pad: pad(0) + "title: Friday\n" + GAME,
    "a stream": lambda pad: pad(0) + GAME + "---\n" + pad(1) + "game: 7\n" + GAME,
    "bad indentation": lambda pad: pad(0) + GAME + "   bids: [0, 1, 0]\n",
    "unclosed list": lambda pad: pad(0) + "players: [Anna, Ben, Cara\nrounds: []\n",
    "a control character": lambda pad: pad(0) + GAME + "notes: bell \x07 here\n",
    "a bad value": lambda pad: (
        pad(0) + GAME.replace("[0, 1, 0]\n    tricks", "[0, x, 0]\n    tricks")
    ),
    "an alias": lambda pad: pad(0) + "players: &p [Anna, Ben, Cara]\nnotes: *p\nrounds: []\n",
    "an error after a long notes": lambda pad: (  # the padding as one line of notes
        "players: [Anna, Ben, Cara]\nnotes: "
        + pad(0).replace("\n", " ").replace("#", "n")
        + "\nrounds:\n  - bids: [0, 0]\n"
    ),
}


def _pair(
    tmp_path,
    monkeypatch,
    name: str,
    content,
    pad,
    suffix: str = ".yaml",
    encoding: str = "utf-8",
    prefix: bytes = b"",
):
    """The case written long (streamed) and short (read whole), each as ``sheet.SUFFIX`` in a
    folder of its own; the two results of ``wizard ARGS SHEET``."""
    paths = {}
    for kind, width in (("long", LONG), ("short", 0)):
        folder = tmp_path / kind
        folder.mkdir()
        text = content(lambda extra, width=width: pad(width + extra))
        (folder / f"sheet{suffix}").write_bytes(prefix + text.encode(encoding))
        paths[kind] = folder
    long_size = (paths["long"] / f"sheet{suffix}").stat().st_size
    assert long_size > STREAM_BYTES > (paths["short"] / f"sheet{suffix}").stat().st_size, name

    def results(*args: str):
        found = []
        for kind in ("long", "short"):
            monkeypatch.chdir(paths[kind])
            result = run(*args, f"sheet{suffix}")
            found.append((result.exit_code, result.stdout, result.stderr))
        return found

    return results


@pytest.mark.parametrize("name", CASES)
def test_a_large_yaml_sheet_reads_as_the_same_sheet_small(tmp_path, monkeypatch, name):
    results = _pair(tmp_path, monkeypatch, name, CASES[name], yaml_pad)
    for command in (("check",), ("score", "-f", "json")):
        long, short = results(*command)
        assert long == short, (name, command)


def test_the_messages_of_a_large_sheet_name_its_lines(tmp_path, monkeypatch):
    """What the comparisons above rest on, spelt out: the line past the padding is named."""
    results = _pair(tmp_path, monkeypatch, "control", CASES["a control character"], yaml_pad)
    long, short = results("check")
    line = PAD_LINES + 5
    assert (
        long
        == short
        == (
            1,
            "sheet.yaml: 1 problem\n",
            f"sheet.yaml:{line}: not valid YAML: character #x0007 is not "
            f"allowed in YAML (line {line})\n",
        )
    )


def test_a_large_json_sheet_with_surrogate_pairs_reads_them(tmp_path, monkeypatch):
    game = {
        "players": ["\U0001f600 Anna", "Ben", "Cara"],
        "notes": "\U0001f3b2",
        "rounds": [{"bids": [0, 1, 0], "tricks": [0, 1, 0]}],
    }
    text = json.dumps(game, indent=1)  # \ud83d\ude00: what json.dumps writes for an emoji
    assert "\\ud83d\\ude00" in text
    results = _pair(
        tmp_path, monkeypatch, "json", lambda pad: pad(0) + text + "\n", json_pad, suffix=".json"
    )
    long, short = results("score", "-f", "json")
    assert long == short
    assert long[0] == 0 and json.loads(long[1])["players"][0] == "\U0001f600 Anna"


@pytest.mark.parametrize(
    "encoding, prefix",
    [("utf-16-le", codecs.BOM_UTF16_LE), ("utf-8", codecs.BOM_UTF8)],
    ids=["utf-16", "bom"],
)
def test_a_large_sheet_with_a_byte_order_mark_reads(tmp_path, monkeypatch, encoding, prefix):
    results = _pair(
        tmp_path, monkeypatch, encoding, CASES["valid"], yaml_pad, encoding=encoding, prefix=prefix
    )
    long, short = results("score", "-f", "json")
    assert long == short and long[0] == 0


@pytest.mark.parametrize(
    "bad, message",
    [
        (
            b"\xff",
            "not UTF-8 text (byte 0xff); a file saved by an older spreadsheet is often "
            "Latin-1: try --encoding latin-1 (or cp1252)",
        ),
        (b"\x00", "a NUL byte: this is not a text file (UTF-16 text needs --encoding utf-16)"),
    ],
    ids=["undecodable", "nul"],
)
def test_a_large_sheet_that_is_not_text_is_refused_at_its_line(tmp_path, monkeypatch, bad, message):
    """A bad byte past the padding (after a YAML error too: bytes come first, as when read
    whole) is the one located line, exit 1."""
    content = lambda pad: pad(0) + "players: [Anna\n" + "notes: x" + "\udcff" + "\n"  # noqa: E731
    paths = []
    for kind, width in (("long", LONG), ("short", 0)):
        path = tmp_path / f"{kind}.yaml"
        text = content(lambda extra, width=width: yaml_pad(width + extra)).encode(
            "utf-8", "surrogateescape"
        )
        path.write_bytes(text.replace(b"\xff", bad))
        paths.append(path)
    assert paths[0].stat().st_size > STREAM_BYTES
    for path in paths:
        monkeypatch.chdir(path.parent)
        result = run("check", path.name)
        assert (result.exit_code, result.stdout, result.stderr) == (
            1,
            f"{path.name}: 1 problem\n",
            f"{path.name}:{PAD_LINES + 2}: {message}\n",
        )


# --- a long value written: a piece at a time, the same bytes -------------------------------

LONG_VALUE = 3 * (1 << 20) + 7  # past WRITTEN_AT_ONCE and the writer's PIECE a few times over


def _sheet(tmp_path, name: str, **values: str):
    lines = [f"{key}: {json.dumps(value, ensure_ascii=False)}" for key, value in values.items()]
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n" + GAME, encoding="utf-8")
    return path


def test_a_long_notes_is_written_whole_in_json(tmp_path, monkeypatch):
    notes = ('é\x1b"\\\n' * LONG_VALUE)[:LONG_VALUE]  # escapes across every slice's edge
    monkeypatch.chdir(tmp_path)
    _sheet(tmp_path, "a.yaml", notes=notes)
    _sheet(tmp_path, "b.yaml", title="B")
    one = run("score", "a.yaml", "-f", "json")
    assert (one.exit_code, one.stderr) == (0, "")
    record = json.loads(one.stdout)
    assert record["notes"] == notes
    assert one.stdout == json.dumps(record, ensure_ascii=False, indent=2) + "\n"
    both = run("score", "a.yaml", "b.yaml", "-f", "json")  # an array: each item indented
    records = json.loads(both.stdout)
    assert records[0] == record
    assert (
        both.stdout
        == "[\n"
        + ",\n".join(
            "  " + json.dumps(r, ensure_ascii=False, indent=2).replace("\n", "\n  ")
            for r in records
        )
        + "\n]\n"
    )


def test_a_long_notes_is_converted_whole(tmp_path, monkeypatch):
    notes = ("ü\u2028\x7f x" * LONG_VALUE)[:LONG_VALUE]  # escaped by the writer, not by json
    monkeypatch.chdir(tmp_path)
    sheet = tmp_path / "a.yaml"
    sheet.write_text(
        'notes: "' + notes.replace("\u2028", "\\L").replace("\x7f", "\\x7f") + '"\n' + GAME,
        encoding="utf-8",
    )
    result = run("convert", "a.yaml", "--to", "json")
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == (
        '{\n  "notes": "'
        + notes.replace("\u2028", "\\u2028").replace("\x7f", "\\u007f")
        + '",\n  "players": ["Anna", "Ben", '
        '"Cara"],\n  "rounds": [\n    {"bids": [0, 1, 0], "tricks": '
        "[0, 1, 0]}\n  ]\n}\n"
    )
    (tmp_path / "b.json").write_text(result.stdout, encoding="utf-8")
    assert run("convert", "b.json", "--to", "json").stdout == result.stdout


@pytest.mark.parametrize("style", ["table", "markdown"])
@pytest.mark.parametrize("command", ["score", "standings", "compare"])
def test_a_long_title_heads_the_output_whole(tmp_path, monkeypatch, command, style):
    """SPEC §5 shows a sheet's title as its heading, §8 its control characters escaped: a long
    title is shown whole (only the JSON formats carry it as it is), written a block at a time."""
    title = ("Friday \x1b[2J night — " * LONG_VALUE)[:LONG_VALUE]
    shown = title.replace("\x1b", "\\x1b")
    monkeypatch.chdir(tmp_path)
    _sheet(tmp_path, "long.yaml", title=title, date="2026-12-02")
    _sheet(tmp_path, "short.yaml", title="T", date="2026-12-02")
    long, short = (run(command, name, "-f", style) for name in ("long.yaml", "short.yaml"))
    assert long.exit_code == short.exit_code == 0
    assert long.stdout == short.stdout.replace("T (short.yaml)", shown + " (long.yaml)", 1)
    assert long.stdout.startswith(("## " if style == "markdown" else "") + shown)


def test_a_long_text_a_csv_drops_is_quoted_short(tmp_path, monkeypatch):
    """The one line that says what a CSV drops quotes a title or notes on one line, cut with
    "…" after 200 characters (it quoted all of it: a 60 MB notes of words was a list of
    millions of words, then a 60 MB line)."""
    monkeypatch.chdir(tmp_path)
    _sheet(tmp_path, "a.yaml", title="Friday\nnight", notes="w " * LONG_VALUE)
    result = run("convert", "a.yaml", "--to", "wide-csv")  # (a long CSV carries them)
    assert result.exit_code == 0
    assert result.stderr == (
        "a.yaml: note: a wide CSV cannot carry a title, firstDealer, "
        "settings, typed points, a game id, date, place or notes; dropped "
        f"title 'Friday night'; notes '{'w ' * 100}…'\n"
    )
