"""SPEC §7 and §8, the output side: output that cannot be written completely is exit 1 (141 for a
closed pipe), `-o` never replaces a device or FIFO, spreadsheet formulas warn, long chart labels
are shortened (issue 11, defects 2, 3, 6, 11)."""

from __future__ import annotations

import os
import resource
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from helpers import WORKED, run

ROOT = Path(__file__).resolve().parent.parent


def season(path: Path, games: int = 400) -> Path:
    """A long CSV season whose YAML is far bigger than a pipe's buffer and Python's blocks."""
    rows = "".join(
        f"g{game},{r},{p},0,{int(i == 0) * r}\n"
        for game in range(games)
        for r in range(1, 16)
        for i, p in enumerate(["Anna", "Ben", "Cara", "Dan"])
    )
    path.write_text("game,round,player,bid,tricks\n" + rows)
    return path


def wizard(*args: object, **options) -> subprocess.CompletedProcess:
    options.setdefault("capture_output", True)
    return subprocess.run(
        [sys.executable, "-m", "wizard_cli", *map(str, args)],
        cwd=ROOT,
        text=True,
        timeout=300,
        **options,
    )


def size_limit(limit: int):
    """preexec_fn: a file size limit, as `ulimit -f` sets (SIGXFSZ stays as the shell left it:
    the tool itself must not die of it)."""
    return lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


UNBUFFERED = [{}, {"PYTHONUNBUFFERED": "1"}]


def environment(extra: dict) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    env.update(extra)
    return env


# --- 2. output cut short is never exit 0 -------------------------------------------------------


@pytest.mark.parametrize("extra", UNBUFFERED, ids=["buffered", "unbuffered"])
@pytest.mark.parametrize(
    "command",
    [
        ["convert", "--to", "yaml"],
        ["convert", "--to", "csv"],
        ["score", "-f", "json"],
        ["score", "-f", "table"],
    ],
)
def test_a_file_size_limit_on_stdout_is_exit_1_with_a_message(tmp_path, command, extra):
    sheet = season(tmp_path / "season.csv", 300)
    out = tmp_path / "out.txt"
    with open(out, "w") as handle:
        result = wizard(
            command[0],
            sheet,
            *command[1:],
            stdout=handle,
            capture_output=False,
            stderr=subprocess.PIPE,
            preexec_fn=size_limit(20_000),
            env=environment(extra),
        )
    assert result.returncode == 1, result.stderr
    assert result.stderr.endswith("wizard: cannot write the output: File too large\n")
    assert "Traceback" not in result.stderr


def test_a_file_size_limit_on_o_file_leaves_nothing(tmp_path):
    sheet = season(tmp_path / "season.csv", 300)
    target = tmp_path / "out.yaml"
    result = wizard("convert", sheet, "--to", "yaml", "-o", target, preexec_fn=size_limit(20_000))
    assert result.returncode == 1
    assert result.stderr == f"{target}: cannot write: File too large\n"
    assert sorted(os.listdir(tmp_path)) == ["season.csv"]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
@pytest.mark.parametrize(
    "command", [["convert", "--to", "json"], ["standings", "-f", "jsonl"], ["next"]]
)
def test_a_full_disk_is_exit_1_with_a_message(tmp_path, command):
    sheet = season(tmp_path / "season.csv", 5) if command[0] != "next" else WORKED
    with open("/dev/full", "w") as full:
        result = wizard(
            command[0],
            sheet,
            *command[1:],
            stdout=full,
            capture_output=False,
            stderr=subprocess.PIPE,
        )
    assert (result.returncode, result.stderr) == (
        1,
        "wizard: cannot write the output: No space left on device\n",
    )


@pytest.mark.parametrize("extra", UNBUFFERED, ids=["buffered", "unbuffered"])
def test_a_reader_that_leaves_early_is_exit_141_and_silent(tmp_path, extra):
    """`wizard convert big.csv --to yaml | head -1`."""
    sheet = season(tmp_path / "season.csv")
    process = subprocess.Popen(
        [sys.executable, "-m", "wizard_cli", "convert", str(sheet), "--to", "yaml"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=environment(extra),
    )
    assert process.stdout.readline() == b"game: g0\n"
    process.stdout.close()
    stderr = process.stderr.read()
    assert (process.wait(timeout=120), stderr) == (141, b"")


# --- 3. -o never replaces anything but a regular file -------------------------------------------


def test_o_dash_is_standard_output(tmp_path):
    result = run("convert", WORKED, "--to", "json", "-o", "-")
    assert result.exit_code == 0
    assert result.stdout.startswith("{\n")
    assert sorted(os.listdir(tmp_path)) == []


def test_o_dev_stdout_works_into_a_pipe(tmp_path):
    result = wizard("convert", WORKED, "--to", "json", "-o", "/dev/stdout")
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == run("convert", WORKED, "--to", "json").stdout


def test_o_a_folder_is_an_error(tmp_path):
    result = run("convert", WORKED, "--to", "json", "-o", tmp_path, "--force")
    assert (result.exit_code, result.stderr) == (1, f"{tmp_path}: is a folder, not a file\n")


def test_o_a_fifo_is_written_to_as_it_is(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    for force in ([], ["--force"]):
        result = wizard("convert", WORKED, "--to", "json", "-o", fifo, *force)
        assert (result.returncode, result.stderr) == (0, "")
        if not force:
            reader.join(timeout=60)
            reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
            reader.start()
    reader.join(timeout=60)
    assert got == [run("convert", WORKED, "--to", "json").stdout.encode()] * 2
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert sorted(os.listdir(tmp_path)) == ["pipe"]


def test_o_a_device_is_written_to_and_never_replaced(tmp_path):
    device = tmp_path / "null"
    try:
        os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # what /dev/null is
    except (PermissionError, OSError) as error:
        pytest.skip(f"cannot make a device node here: {error}")
    for command in (["new", "--players", "A,B,C"], ["convert", WORKED, "--to", "yaml"]):
        for force in ([], ["--force"]):
            result = wizard(*command, "-o", device, *force)
            assert (result.returncode, result.stderr) == (0, "")
            assert stat.S_ISCHR(device.lstat().st_mode)
            assert device.lstat().st_rdev == os.makedev(1, 3)
    assert sorted(os.listdir(tmp_path)) == ["null"]


# --- 11. cells a spreadsheet may run as a formula -------------------------------------------------

FORMULA_SHEET = """\
players: ["=HYPERLINK(\\"http://x\\")", "+Ben", "@Cara", "-1"]
rounds:
  - bids: [1, 0, 0, 1]
    tricks: [1, 0, 0, 0]
"""
WARNING = (
    ": warning: a cell begins with '=' (=HYPERLINK(\"http://x\")): a spreadsheet may "
    "run it as a formula; it is written as it is\n"
)


@pytest.mark.parametrize("fmt", ["csv", "tsv"])
def test_a_formula_looking_cell_is_kept_with_one_warning(write, fmt):
    sheet = write("f.yaml", FORMULA_SHEET)
    result = run("score", sheet, "-f", fmt)
    assert result.exit_code == 0
    assert result.stderr == f"{sheet}{WARNING}"  # once, however many such cells
    sep = "," if fmt == "csv" else "\t"
    assert (
        f'1{sep}"=HYPERLINK(""http://x"")"{sep}1{sep}1{sep}30{sep}30' in result.stdout
        or f'1{sep}=HYPERLINK("http://x"){sep}1' in result.stdout
    )
    assert f"1{sep}+Ben{sep}" in result.stdout and f"1{sep}@Cara{sep}" in result.stdout


def test_convert_to_csv_warns_once_and_keeps_the_text(write):
    sheet = write("f.yaml", FORMULA_SHEET)
    result = run("convert", sheet, "--to", "csv")
    assert result.exit_code == 0
    assert result.stderr == f"{sheet}{WARNING}"
    assert '1,"=HYPERLINK(""http://x"")",1,1\n1,+Ben,0,0\n1,@Cara,0,0\n1,-1,1,0\n' in result.stdout


def test_numbers_and_other_formats_do_not_warn(write):
    sheet = write(
        "n.yaml",
        FORMULA_SHEET.replace(
            '"=HYPERLINK(\\"http://x\\")", "+Ben", "@Cara"', '"-2", "+3.5", "Dan"'
        ),
    )
    assert run("score", sheet, "-f", "csv").stderr == ""
    formula = write("f.yaml", FORMULA_SHEET)
    for fmt in ("json", "jsonl", "table", "markdown"):
        assert run("score", formula, "-f", fmt).stderr == ""


# --- 6. plot with huge names and titles ----------------------------------------------------------


def test_plot_shortens_huge_labels_and_stays_fast_and_small(write, tmp_path):
    pytest.importorskip("matplotlib")
    name = "N" * 1_000_000
    sheet = write(
        "long.yaml",
        f"title: {'T' * 2_000_000}\nplayers: [{name}, Ben, Cara]\n"
        "rounds:\n  - bids: [1, 0, 0]\n    tricks: [1, 0, 0]\n",
    )
    began = time.monotonic()
    result = wizard("plot", sheet, "-o", tmp_path / "chart.svg")
    assert (result.returncode, result.stderr) == (0, "")
    assert time.monotonic() - began < 60
    svg = (tmp_path / "chart.svg").read_text()
    assert len(svg) < 200_000
    assert "N" * 39 + "…" in svg and "N" * 41 not in svg
    # the data is unchanged: the sheet still scores under its full name
    assert f'"player": "{name}"' in run("standings", sheet, "-f", "json").stdout
