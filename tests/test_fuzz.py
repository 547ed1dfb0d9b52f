"""Property and fuzz tests through the real CLI (in-process): valid sheets keep the scoring
invariants in every input form, and no mutation of a valid sheet ends in a traceback.

The CI run is a few hundred examples in all (well under a minute). For a long run set
WIZARD_FUZZ_EXAMPLES: ``WIZARD_FUZZ_EXAMPLES=20000 python -m pytest tests/test_fuzz.py``
runs that many examples in every test.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import yaml
from fuzzsheets import (
    Game,
    games,
    hand_sizes,
    long_csv_text,
    settings_yaml,
    wide_csv_text,
    yaml_text,
)
from helpers import run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wizard_cli.game.scoring import base_points
from wizard_cli.game.settings import Settings

LONG_RUN = int(os.environ.get("WIZARD_FUZZ_EXAMPLES", "0"))


def examples(ci: int) -> settings:
    """``ci`` examples in CI, WIZARD_FUZZ_EXAMPLES when set; no deadline (the CLI is not timed)."""
    return settings(
        max_examples=LONG_RUN or ci,
        deadline=None,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.filter_too_much,
        ],
    )


# --- valid sheets: the invariants --------------------------------------------------------


def write_forms(folder: Path, game: Game, data: st.DataObject) -> dict[str, list[str]]:
    """The game as YAML, long CSV and wide CSV files: form → the CLI arguments that read it."""
    (folder / "sheet.yaml").write_text(data.draw(yaml_text(game)), encoding="utf-8")
    (folder / "wide.csv").write_text(data.draw(wide_csv_text(game)), encoding="utf-8", newline="")
    (folder / "rules.yaml").write_text(settings_yaml(game), encoding="utf-8")
    outside = ["--settings", str(folder / "rules.yaml")]
    if game.first_dealer is not None:
        outside += ["--first-dealer", game.first_dealer]
    forms = {"yaml": [str(folder / "sheet.yaml")], "wide": [str(folder / "wide.csv"), *outside]}
    if game.rounds:  # a long CSV names its players in its rows only
        (folder / "long.csv").write_text(
            data.draw(long_csv_text(game)), encoding="utf-8", newline=""
        )
        forms["long"] = [str(folder / "long.csv"), *outside]
    return forms


def score_json(arguments: list[str]) -> dict[str, Any]:
    """``wizard score … -f json`` of a valid sheet."""
    result = run("score", *arguments, "-f", "json")
    assert result.exit_code == 0, result.stderr
    # a long CSV's extra column (fuzzsheets: "note") is ignored with a note naming it (SPEC §3)
    assert all(
        line.endswith("note: column 'note' is not read, ignored (did you mean 'notes'?)")
        for line in result.stderr.splitlines()
    ), result.stderr
    return json.loads(result.stdout)


def check_invariants(game: Game, data: dict[str, Any]) -> None:
    """What every scored game must satisfy, whatever the rules (SPEC §1)."""
    players, rules = game.players, data["settings"]
    count = len(players)
    sizes = hand_sizes(game.settings, count)
    first = players.index(game.first_dealer) if game.first_dealer is not None else 0
    assert data["players"] == players
    assert len(data["rounds"]) == len(game.rounds)
    totals = dict.fromkeys(players, 0)
    made_every_bid = dict.fromkeys(players, True)
    for index, (scored, (bids, tricks)) in enumerate(zip(data["rounds"], game.rounds)):
        assert scored["round"] == index + 1
        assert scored["handSize"] == sizes[index]
        dealer = players[(first + index) % count]
        assert scored["dealer"] == dealer
        for seat, name in enumerate(players):
            cell = scored["results"][name]
            assert cell["bid"] == bids[seat]
            if tricks is None:
                assert cell["tricks"] is None and cell["points"] is None and cell["total"] is None
                continue
            assert cell["tricks"] == tricks[seat]
            totals[name] += cell["points"]
            assert cell["total"] == totals[name], "a total is the sum of the round points"
            balanced = (
                rules["balancedBidPenalty"] if name == dealer and sum(bids) == sizes[index] else 0
            )
            if bids[seat] == tricks[seat]:
                assert cell["points"] >= rules["exactBonus"] - balanced
            else:
                made_every_bid[name] = False
                assert cell["points"] <= 0, "a missed bid never scores above zero"
    status = data["status"]
    finished = game.completed == len(sizes)
    assert status["roundsPlayed"] == game.completed
    assert status["roundsTotal"] == len(sizes)
    assert status["finished"] is finished
    standings = data["standings"]
    assert sorted(s["player"] for s in standings) == sorted(players)
    for standing in standings:
        name = standing["player"]
        bonus = rules["perfectGameBonus"] if finished and made_every_bid[name] else 0
        assert standing["bonus"] == bonus
        assert standing["score"] == totals[name] + bonus
    for a in standings:
        for b in standings:
            if a["score"] > b["score"]:
                assert a["rank"] < b["rank"]
            if a["score"] == b["score"] and rules["tieBreak"] == "shareWin":
                assert a["rank"] == b["rank"]
    assert [s["rank"] for s in standings] == sorted(s["rank"] for s in standings)
    assert standings[0]["rank"] == 1
    leaders = [s["player"] for s in standings if s["rank"] == 1]
    assert status["winners"] == (leaders if finished else [])


@examples(50)
@given(games(), st.data())
def test_every_form_of_a_valid_game_scores_the_same_and_keeps_the_invariants(game, data):
    with tempfile.TemporaryDirectory() as folder:
        forms = write_forms(Path(folder), game, data)
        results = {form: score_json(arguments) for form, arguments in forms.items()}
    for result in results.values():
        del result["source"]
    assert results["wide"] == results["yaml"]
    if "long" in results:
        assert results["long"] == results["yaml"]
    check_invariants(game, results["yaml"])


@examples(25)
@given(games(), st.data())
def test_a_valid_game_checks_ok_and_next_agrees_with_score(game, data):
    with tempfile.TemporaryDirectory() as folder:
        sheet = write_forms(Path(folder), game, data)["yaml"]
        checked = run("check", *sheet, "-f", "json")
        step = run("next", *sheet, "-f", "json")
        status = score_json(sheet)["status"]
    assert checked.exit_code == 0, checked.stderr
    assert json.loads(checked.stdout)["valid"] is True
    assert step.exit_code == 0, step.stderr
    step_json = json.loads(step.stdout)
    assert step_json["finished"] is status["finished"]
    if not status["finished"]:
        assert status["next"] == step_json
        order, bids_in = step_json["biddingOrder"], step_json["bidsIn"]
        assert sorted(order) == sorted(game.players)
        assert order[-1] == step_json["dealer"], "the dealer bids last"
        waiting = [name for name in order if name not in bids_in]
        assert step_json["nextBidder"] == (waiting[0] if waiting else None)


@examples(20)
@given(games(), st.data())
def test_typed_points_that_match_pass_the_audit_and_one_changed_is_reported(game, data):
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        scored = score_json(write_forms(folder, game, data)["yaml"])
        points = [[r["results"][name]["points"] for name in game.players] for r in scored["rounds"]]
        sheet = folder / "typed.csv"
        sheet.write_text(data.draw(long_csv_text(game, points)), encoding="utf-8", newline="")
        outside = ["--settings", str(folder / "rules.yaml")]
        if game.first_dealer is not None:
            outside += ["--first-dealer", game.first_dealer]
        if not game.completed:
            return
        assert run("check", sheet, *outside).exit_code == 0
        number = data.draw(st.integers(1, game.completed))
        seat = data.draw(st.integers(0, len(game.players) - 1))
        points[number - 1][seat] += 5
        sheet.write_text(data.draw(long_csv_text(game, points)), encoding="utf-8", newline="")
        result = run("check", sheet, *outside)
    assert result.exit_code == 1
    derived = points[number - 1][seat] - 5
    assert (
        f"round {number}, {game.players[seat]}: typed points {derived + 5}, derived {derived}"
        in result.stderr
    )


@examples(300)
@given(
    bid=st.integers(0, 20),
    tricks=st.integers(0, 20),
    size=st.integers(1, 20),
    exact=st.sampled_from(range(0, 51, 5)),
    per_trick=st.sampled_from(range(0, 21, 5)),
    miss=st.sampled_from(range(0, 31, 5)),
    zero=st.sampled_from(["flatBonus", "doubleBonus", "perCardBonus"]),
)
def test_base_points_made_bids_earn_at_least_the_exact_bonus_and_misses_never_earn(
    bid, tricks, size, exact, per_trick, miss, zero
):
    rules = Settings(
        exact_bonus=exact, points_per_trick=per_trick, miss_penalty=miss, zero_bid_scoring=zero
    )
    points = base_points(bid, tricks, size, rules)
    if bid == tricks:
        assert points >= exact
    else:
        assert points <= 0
        assert points == -miss * abs(bid - tricks)


# --- mutated sheets: exit 0 or 1, never a traceback --------------------------------------

TOKENS = [
    b"\x00",
    b"\xef\xbb\xbf",
    b"\xff\xfe",
    b'"',
    b"'",
    b"&a ",
    b"*a",
    b"&",
    b"*",
    b"!!",
    b"!!python/object/apply:os.system ['false'] ",
    b"!!binary ",
    b"!foo ",
    b"!!set ",
    b"!!timestamp ",
    b"!!bool ",
    b"!!int ",
    b"[",
    b"{",
    b"]",
    b"}",
    b"- ",
    b": ",
    b"? ",
    b"\r",
    b"\n",
    b"\r\n",
    b"\t",
    b" ",
    b"#",
    b"---\n",
    b"...\n",
    b",",
    b";",
    b"/",
    b"9" * 5000,
    b"-1",
    b"1e400",
    b"2.5",
    b".nan",
    b"~",
    b"null",
    b"\xe9",
    b"\x80\x81",
    b"\xc3",
    b"%YAML 1.1\n",
    b"|",
    b">",
    b"<<: *a\n",
    b"Total",
    b"game",
    b"[" * 300,
    b"- " * 300,
    b"01-Jan",
    b"1/1/2024",
    b"\x1b[31m",
    b"\\",
    "\u2028".encode(),
]


@st.composite
def mutated(draw, data: bytes) -> bytes:
    """``data`` after 1–4 random edits: flips, cuts, insertions, duplicated or dropped lines."""
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(
            st.sampled_from(
                [
                    "flip",
                    "truncate",
                    "delete",
                    "insert",
                    "token",
                    "dup-line",
                    "drop-line",
                    "swap-lines",
                ]
            )
        )
        at = draw(st.integers(0, max(len(data), 1) - 1)) if data else 0
        if kind == "flip" and data:
            data = data[:at] + bytes([data[at] ^ draw(st.integers(1, 255))]) + data[at + 1 :]
        elif kind == "truncate":
            data = data[:at]
        elif kind == "delete":
            data = data[:at] + data[at + draw(st.integers(1, 20)) :]
        elif kind == "insert":
            data = data[:at] + draw(st.binary(min_size=1, max_size=8)) + data[at:]
        elif kind == "token":
            data = data[:at] + draw(st.sampled_from(TOKENS)) + data[at:]
        else:
            lines = data.splitlines(keepends=True)
            if not lines:
                continue
            i, j = (draw(st.integers(0, len(lines) - 1)) for _ in range(2))
            if kind == "dup-line":
                lines.insert(i, lines[i])
            elif kind == "drop-line":
                del lines[i]
            else:
                lines[i], lines[j] = lines[j], lines[i]
            data = b"".join(lines)
    return data


OTHER_COMMANDS = [("check",), ("next",), ("standings", "-f", "csv"), ("check", "-f", "jsonl")]


def assert_clean(result, sources: tuple[str, ...]) -> None:
    """Exit 0 or 1; on 1 every stderr line names a file; never a traceback or internal error."""
    assert "Traceback" not in result.stdout + result.stderr
    assert "internal error" not in result.stderr, result.stderr
    assert result.exit_code in (0, 1), (result.exit_code, result.stderr)
    if result.exit_code == 1:
        assert result.stderr
    for line in result.stderr.splitlines():
        assert line.startswith(sources), line


def run_commands(
    data: st.DataObject,
    path: str,
    extra: tuple[str, ...] = (),
    input: bytes | None = None,
    sources: tuple[str, ...] = (),
) -> None:
    """``score -f json`` and one other reading command on one input, each ending cleanly."""
    result = run("score", path, *extra, "-f", "json", input=input)
    assert_clean(result, sources or (path,))
    if result.exit_code == 0:
        json.loads(result.stdout)
    other = data.draw(st.sampled_from(OTHER_COMMANDS))
    assert_clean(run(*other, path, *extra, input=input), sources or (path,))


@st.composite
def sheet_bytes(draw) -> tuple[str, bytes]:
    """(form, bytes) of a valid sheet in one of the three forms."""
    game = draw(games(max_rounds=6))
    form = draw(st.sampled_from(["yaml", "long", "wide"] if game.rounds else ["yaml", "wide"]))
    writer = {"yaml": yaml_text, "long": long_csv_text, "wide": wide_csv_text}[form]
    return form, draw(writer(game)).encode("utf-8")


@examples(80)
@given(sheet_bytes(), st.data())
def test_a_mutated_sheet_file_ends_in_exit_0_or_1_with_located_lines(sheet, data):
    form, original = sheet
    text = data.draw(mutated(original))
    suffix = data.draw(st.sampled_from([".yaml" if form == "yaml" else ".csv", ".txt", ""]))
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "sheet" + suffix)
        Path(path).write_bytes(text)
        run_commands(data, path)


@examples(40)
@given(sheet_bytes(), st.data())
def test_a_mutated_sheet_on_stdin_ends_in_exit_0_or_1(sheet, data):
    form, original = sheet
    text = data.draw(mutated(original))
    extra = data.draw(st.sampled_from([(), ("--input-format", "yaml"), ("--input-format", "csv")]))
    run_commands(data, "-", extra, input=text, sources=("<stdin>",))


def yaml_values() -> st.SearchStrategy[Any]:
    """Any YAML-shaped value, with sheet-like keys more likely than random ones."""
    keys = st.sampled_from(
        [
            "players",
            "rounds",
            "bids",
            "tricks",
            "points",
            "settings",
            "title",
            "firstDealer",
            "Anna",
            "exactBonus",
            "roundMode",
        ]
    ) | st.text(max_size=5)
    leaves = (
        st.none()
        | st.booleans()
        | st.integers(-(10**12), 10**12)
        | st.floats()
        | st.text(max_size=8)
        | st.sampled_from(["Anna", "Ben", "Cara", "custom", "W"])
    )
    return st.recursive(
        leaves,
        lambda inner: st.lists(inner, max_size=6) | st.dictionaries(keys, inner, max_size=6),
        max_leaves=40,
    )


@examples(50)
@given(yaml_values(), st.data())
def test_any_yaml_shape_ends_in_exit_0_or_1(value, data):
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "sheet.yaml")
        Path(path).write_text(yaml.safe_dump(value), encoding="utf-8")
        run_commands(data, path)


@examples(40)
@given(st.binary(max_size=300), st.sampled_from([".yaml", ".csv", ""]), st.data())
def test_random_bytes_end_in_exit_0_or_1(raw, suffix, data):
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "sheet" + suffix)
        Path(path).write_bytes(raw)
        run_commands(data, path)
