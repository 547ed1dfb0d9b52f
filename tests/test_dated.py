"""Games are dated (SPEC §5): `new` and `play` (when it creates the sheet) write today's local
date unless `--date` gives another or `--no-date` none; both take `--place`, `play` `--title`."""

from __future__ import annotations

import datetime
import json

import pytest
from helpers import run

from wizard_cli.errors import WizardError
from wizard_cli.sheets.blank import sheet_date


def _today_around(call):
    """Call, and the local dates just before and after it (a test never races midnight)."""
    before = datetime.date.today().isoformat()
    result = call()
    return result, {before, datetime.date.today().isoformat()}


def _metadata(path) -> dict:
    data = json.loads(run("score", path, "-f", "json").stdout)
    return {key: data[key] for key in ("title", "date", "place")}


def test_the_core_takes_its_clock_as_a_parameter():
    assert sheet_date(None, today=lambda: datetime.date(2026, 3, 1)) == "2026-03-01"
    assert sheet_date("2024-02-29", today=lambda: datetime.date(2026, 3, 1)) == "2024-02-29"
    with pytest.raises(WizardError, match="--date: '2026-02-30' is not a date"):
        sheet_date("2026-02-30")


def test_new_writes_todays_date_after_the_title(tmp_path):
    path = tmp_path / "g.yaml"
    result, today = _today_around(
        lambda: run("new", "--players", "A,B,C", "--title", "Fri", "-o", path)
    )
    assert result.exit_code == 0, result.stderr
    lines = path.read_text(encoding="utf-8").splitlines()
    title = lines.index("title: Fri")
    assert lines[title + 1] in {f"date: {day}" for day in today}
    assert lines[title + 2].startswith("players: [A, B, C] ")  # the layout kept
    assert _metadata(path)["date"] in today


def test_new_takes_date_place_and_no_date(tmp_path):
    dated = tmp_path / "dated.yaml"
    result = run(
        "new",
        "--players",
        "A,B,C",
        "--date",
        "2024-02-29",
        "--place",
        "Ben's, upstairs",
        "-o",
        dated,
    )
    assert result.exit_code == 0, result.stderr
    text = dated.read_text(encoding="utf-8")
    assert "\ndate: 2024-02-29\nplace: Ben's, upstairs\nplayers: " in text
    assert _metadata(dated) == {"title": None, "date": "2024-02-29", "place": "Ben's, upstairs"}
    assert run("check", dated).exit_code == 0

    undated = tmp_path / "undated.yaml"
    assert run("new", "--players", "A,B,C", "--no-date", "-o", undated).exit_code == 0
    assert "date:" not in undated.read_text(encoding="utf-8")
    assert _metadata(undated) == {"title": None, "date": None, "place": None}


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ("2026-02-30", "--date: '2026-02-30' is not a date (day is out of range for month)"),
        ("2026-13-01", "--date: '2026-13-01' is not a date (month must be in 1..12)"),
        ("12.01.2026", "--date: '12.01.2026' is not an ISO date YYYY-MM-DD"),
        ("today", "--date: 'today' is not an ISO date YYYY-MM-DD"),
        ("", "--date: is empty: give YYYY-MM-DD"),
    ],
)
@pytest.mark.parametrize("command", ["new", "play"])
def test_a_bad_date_is_one_line_naming_the_option(tmp_path, command, given, message):
    path = tmp_path / "g.yaml"
    args = ["-o", path] if command == "new" else [path]
    result = run(command, "--players", "A,B,C", "--date", given, *args, input="")
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", message + "\n")
    assert not path.exists()


@pytest.mark.parametrize("command", ["new", "play"])
def test_date_and_no_date_together_is_a_usage_error(tmp_path, command):
    path = tmp_path / "g.yaml"
    args = ["-o", path] if command == "new" else [path]
    result = run(command, "--players", "A,B,C", "--date", "2026-01-02", "--no-date", *args)
    assert result.exit_code == 2
    assert "give --date or --no-date, not both" in result.stderr
    assert not path.exists()


def test_play_starts_a_dated_sheet_with_title_and_place(tmp_path):
    path = tmp_path / "g.yaml"
    result, today = _today_around(
        lambda: run(
            "play",
            path,
            "--players",
            "A,B,C",
            "--title",
            "Saturday",
            "--place",
            "Home",
            input="q\n",
        )
    )
    assert result.exit_code == 0, result.stderr
    assert _metadata(path) in [{"title": "Saturday", "date": day, "place": "Home"} for day in today]
    assert "\ntitle: Saturday\ndate: " in path.read_text(encoding="utf-8")

    other = tmp_path / "h.yaml"
    assert (
        run("play", other, "--players", "A,B,C", "--date", "2025-12-31", input="q\n").exit_code == 0
    )
    assert _metadata(other) == {"title": None, "date": "2025-12-31", "place": None}
    undated = tmp_path / "u.yaml"
    assert run("play", undated, "--players", "A,B,C", "--no-date", input="q\n").exit_code == 0
    assert _metadata(undated)["date"] is None


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--title", "T"], "--title is only for a new sheet"),
        (["--date", "2026-01-02"], "--date is only for a new sheet"),
        (["--no-date"], "--no-date is only for a new sheet"),
        (["--place", "P"], "--place is only for a new sheet"),
        (["--title", "T", "--place", "P"], "--title and --place are only for a new sheet"),
    ],
)
def test_play_with_an_existing_sheet_refuses_what_only_starts_one(tmp_path, args, named):
    path = tmp_path / "g.yaml"
    assert run("play", path, "--players", "A,B,C", "--no-date", input="q\n").exit_code == 0
    before = path.read_bytes()
    result = run("play", path, *args, input="0\n")
    assert result.exit_code == 2
    assert f"{path} exists: {named}" in " ".join(result.stderr.split())
    assert path.read_bytes() == before


def test_stats_since_counts_a_game_new_made_today(tmp_path):
    path = tmp_path / "g.yaml"
    _, today = _today_around(lambda: run("new", "--players", "A,B,C", "-o", path))
    day = _metadata(path)["date"]
    assert day in today
    result = run("stats", path, "--since", day, "--until", day)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("1 game, 0 finished\n")
    assert "without a date" not in result.stderr

    undated = tmp_path / "u.yaml"
    assert run("new", "--players", "A,B,C", "--no-date", "-o", undated).exit_code == 0
    left_out = run("stats", undated, "--since", day)
    assert left_out.stdout.startswith("0 games, 0 finished\n")
    assert "note: 1 game without a date left out (--since/--until)" in left_out.stderr
