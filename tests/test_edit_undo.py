"""`wizard edit` and `wizard undo`, bids in turn and `--bidding-order`, `-q`, and the layout of
a new round on a sheet that mixes lists and mappings (SPEC §5 "At the table")."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import yaml
from helpers import DEALER_TO_BID, WORKED, run
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from wizard_cli.app.amending import amend, take_back, take_back_bid
from wizard_cli.app.batch import SheetRules
from wizard_cli.app.recording import checked_last, read_text, record
from wizard_cli.errors import WizardError
from wizard_cli.game.settings import RawSetting
from wizard_cli.sheets.yaml.sheets import read_yaml_sheets
from wizard_cli.sheets.yaml.text import json_text, yaml_scalar

OLD = 1_000_000_000 * 1_600_000_000  # a fixed mtime (ns) to see that nothing was written

SHEET = """\
title: Friday
players: [Anna, Ben, Cara, Dan]
settings:
  roundMode: custom
  customRoundCount: 4
  screwTheDealer: leaderOnly
rounds:
  - bids:   [1, 0, 0, 1]   # Anna deals
    tricks: [1, 0, 0, 0]
  - bids:   {Anna: 1, Ben: 1, Cara: 0, Dan: 0}
    tricks: {Anna: 0, Ben: 1, Cara: 1, Dan: 0}
  - bids:   [1, 1, 0, 1]
    tricks: [1, 1, 0, 1]
  - bids:   {Anna: 2}      # Dan deals
"""

STANDINGS_AFTER_EDIT = """\
  Rank  Player      Score
------  --------  -------
     1  Ben            70
     2  Anna           50
     3  Dan            40
     4  Cara           20

Round 4 of 4 in play: Ben to bid
"""

NEXT_ROUND_4 = """\
Round:              4 of 4
Hand size:          4
Dealer:             Dan
Bidding order:      Anna, Ben, Cara, Dan
Bids in:            Anna {anna}
Bids so far:        {anna} of 4
Next to bid:        Ben
"""


def sheet_file(tmp_path: Path, text: str | bytes = SHEET, name: str = "game.yaml") -> Path:
    """A sheet on disk with an old, known mtime."""
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    os.utime(path, ns=(OLD, OLD))
    return path


def untouched(path: Path, content: bytes) -> bool:
    """Same bytes and mtime as before, and no temporary file beside it."""
    return (
        path.read_bytes() == content
        and path.stat().st_mtime_ns == OLD
        and os.listdir(path.parent) == [path.name]
    )


# --- edit -----------------------------------------------------------------------------------


def test_edit_a_completed_round_by_name_and_in_seating_order(tmp_path):
    path = sheet_file(tmp_path)
    result = run("edit", path, "--round", "2", "--bids", "Ben=0", "--tricks", "0,0,2,0")
    assert result.exit_code == 0, result.stderr
    # each value changed, in seating order, bids before tricks; then the standings and status
    assert result.stderr == (
        f"{path}: round 2, Ben: bid 1 → 0\n"
        f"{path}: round 2, Ben: tricks 1 → 0\n"
        f"{path}: round 2, Cara: tricks 1 → 2\n"
    )
    assert result.stdout == STANDINGS_AFTER_EDIT
    assert path.read_text(encoding="utf-8") == SHEET.replace(
        "  - bids:   {Anna: 1, Ben: 1, Cara: 0, Dan: 0}\n    tricks: {Anna: 0, Ben: 1, Cara: 1, Dan: 0}",
        "  - bids:   {Anna: 1, Ben: 0, Cara: 0, Dan: 0}\n    tricks: {Anna: 0, Ben: 0, Cara: 2, Dan: 0}",
    )


def test_edit_the_round_in_play_names_ignore_case_and_spaces(tmp_path):
    path = sheet_file(tmp_path)
    result = run("edit", path, "--round", "4", "--bids", " anna =1", "-f", "json")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == f"{path}: round 4, Anna: bid 2 → 1\n"
    data = json.loads(result.stdout)  # the standings and the status, as `standings -f json`
    assert data == json.loads(run("standings", path, "-f", "json").stdout)
    assert data["status"]["next"] == {
        "round": 4,
        "handSize": 4,
        "dealer": "Dan",
        "biddingOrder": ["Anna", "Ben", "Cara", "Dan"],
        "bidsIn": {"Anna": 1},
        "bidTotal": 1,
        "nextBidder": "Ben",
        "noTrump": False,
        "forbiddenDealerBid": None,
        "finished": False,
    }
    assert path.read_text(encoding="utf-8") == SHEET.replace("{Anna: 2}", "{Anna: 1}")


def test_edit_in_bidding_order_a_shorter_list_gives_the_first_bidders(tmp_path):
    path = sheet_file(tmp_path)
    # round 3: Cara deals, so Dan bids first, then Anna
    result = run("edit", path, "--round", "3", "--bidding-order", "--bids", "0,1", "-q")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == result.stderr == ""
    assert path.read_text(encoding="utf-8") == SHEET.replace(
        "[1, 1, 0, 1]\n    tricks", "[1, 1, 0, 0]\n    tricks"
    )


def test_edit_to_the_same_values_writes_nothing(tmp_path):
    path = sheet_file(tmp_path)
    content = path.read_bytes()
    result = run("edit", path, "--round", "1", "--bids", "1,0,0,1")
    assert result.exit_code == 0
    assert result.stderr == ""  # nothing changed, nothing said
    assert result.stdout == run("standings", path).stdout.split("\n\n", 1)[1]
    assert untouched(path, content)


EDIT_REFUSALS = [
    # the lead changes: Cara now leads alone before round 3, where she dealt and bid 0
    (
        ["--round", "2", "--tricks", "0,0,0,2"],
        "{path}:12: round 3, Cara: the dealer may not bid 0 under screwTheDealer=leaderOnly: the bids "
        "would add up to the hand size of 3",
    ),
    (
        ["--round", "5", "--bids", "1,1,1,1"],
        "{path}: round 5: no such round to edit (the sheet records rounds 1 to 4; record a new one "
        "with wizard add)",
    ),
    (
        ["--round", "0", "--bids", "1,1,1,1"],
        "{path}: round 0: no such round to edit (the sheet records rounds 1 to 4; record a new one "
        "with wizard add)",
    ),
    (
        ["--round", "4", "--bids", "Ben=1"],
        "{path}: round 4, Ben: has not bid yet: record a new bid with wizard add --bids",
    ),
    (
        ["--round", "4", "--tricks", "1,1,1,1"],
        "{path}: round 4: no tricks recorded yet: record them with wizard add --tricks",
    ),
    (
        ["--round", "1", "--bids", "1,0"],
        "--bids 1,0: 2 values for 4 players (one per player in seating order: Anna, Ben, Cara, Dan; "
        "or by name, e.g. Anna=1)",
    ),
    (
        ["--round", "1", "--bidding-order", "--bids", "1,0,0,1,1"],
        "--bids 1,0,0,1,1: 5 values for 4 players (in bidding order: Ben, Cara, Dan, Anna)",
    ),
    (
        ["--round", "1", "--bids", "Bem=1"],
        "--bids: unknown player 'Bem' (did you mean 'Ben'?) (players: Anna, Ben, Cara, Dan)",
    ),
    (
        ["--round", "1", "--bids", "Ben=2"],
        "{path}:8: round 1, Ben: bid 2 is more than the hand size of 1",
    ),
    (
        ["--round", "1", "--tricks", "Ben=1"],
        "{path}:9: round 1: tricks add up to 2, 1 more than the hand size of 1",
    ),
    (["--round", "4", "--bids", "Anna=x"], "--bids: Anna's 'x' is not a whole number"),
]


@pytest.mark.parametrize(("args", "message"), EDIT_REFUSALS)
def test_edit_refusals_change_nothing(tmp_path, args, message):
    path = sheet_file(tmp_path)
    content = path.read_bytes()
    result = run("edit", path, *args)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == message.format(path=path) + "\n"
    assert untouched(path, content)


def test_edit_of_a_finished_games_last_round_must_stay_consistent(tmp_path):
    path = sheet_file(tmp_path, WORKED.read_text(encoding="utf-8"))
    content = path.read_bytes()
    result = run("edit", path, "--round", "5", "--tricks", "Dan=0")
    assert result.exit_code == 1
    assert (
        result.stderr == f"{path}:17: round 5: tricks add up to 4, 1 short of the hand size of 5\n"
    )
    assert untouched(path, content)
    fixed = run("edit", path, "--round", "5", "--tricks", "Dan=0,Cara=2")
    assert fixed.exit_code == 0, fixed.stderr
    assert fixed.stderr == (
        f"{path}: round 5, Cara: tricks 1 → 2\n{path}: round 5, Dan: tricks 1 → 0\n"
    )
    assert fixed.stdout == (
        "  Rank  Player      Score\n------  --------  -------\n"
        "     1  Ben           140\n     2  Anna           90\n"
        "     3  Cara           50\n     4  Dan           -30\n\n"
        "Game over — Ben wins\n"
    )


@pytest.mark.parametrize(
    "args",
    [
        ["--round", "1"],  # neither --bids nor --tricks
        ["--bids", "1,0,0,1"],  # no --round
        ["--round", "one", "--bids", "1,0,0,1"],
    ],
)
def test_edit_usage_errors_exit_2(tmp_path, args):
    path = sheet_file(tmp_path)
    content = path.read_bytes()
    assert run("edit", path, *args).exit_code == 2
    assert run("edit", "-", "--round", "1", "--bids", "1,0,0,1").exit_code == 2
    assert untouched(path, content)


# --- undo -----------------------------------------------------------------------------------


OUT_SHEET = "players: [Anna, Ben, Cara, Dan, Eva]\nrounds:\n  - bids: [1, 0, 0, 0, 0]\n"
OUT_SHEET += "    tricks: [1, 0, 0, 0, 0]\n"  # Ben deals round 2: Cara bids first


@pytest.mark.parametrize(
    "out, bids, said",
    [
        ("Dan", "1,0,0,0", "(Cara 0, Eva 0, Anna 1, Ben 0) and Dan sitting it out"),
        ("Dan,Eva", "1,0,0", "(Cara 0, Anna 1, Ben 0) and Dan and Eva sitting it out"),
    ],
)
def test_undo_of_a_round_in_play_says_it_removed_its_out(tmp_path, out, bids, said):
    """SPEC §5: undo takes back "a round's ``out`` with its bids" and says what it removed; it
    named the bids and not the out."""
    path = tmp_path / "out.yaml"
    path.write_text(OUT_SHEET)
    assert run("add", path, "--bids", bids, "--out", out).exit_code == 0
    undone = run("undo", path)
    assert undone.exit_code == 0
    assert undone.stderr == f"{path}: round 2: removed the round in play with its bids {said}\n"
    assert path.read_text() == OUT_SHEET


def test_plays_undo_of_a_rounds_only_bid_says_it_removed_the_out(tmp_path):
    path = tmp_path / "out.yaml"
    path.write_text(OUT_SHEET)
    result = run("play", path, input="out Dan 1 u\nq\n")
    assert result.exit_code == 0
    assert "round 2: took back Cara's bid of 1 and Dan sitting it out\n" in result.stderr
    assert path.read_text() == OUT_SHEET


def test_undo_removes_the_round_in_play_then_the_last_tricks(tmp_path):
    path = sheet_file(tmp_path)
    first = run("undo", path)
    assert first.exit_code == 0
    assert first.stderr == f"{path}: round 4: removed the round in play with its bids (Anna 2)\n"
    assert first.stdout == (
        "Round:              4 of 4\nHand size:          4\n"
        "Dealer:             Dan\nBidding order:      Anna, Ben, Cara, Dan\n"
        "Bids in:            none yet\nNext to bid:        Anna\n"
    )
    assert path.read_text(encoding="utf-8") == SHEET.replace(
        "  - bids:   {Anna: 2}      # Dan deals\n", ""
    )
    second = run("undo", path, "-f", "json")
    assert second.exit_code == 0
    assert second.stderr == (
        f"{path}: round 3: removed its tricks (Anna 1, Ben 1, Cara 0, Dan 1): "
        "the round is in play again\n"
    )
    data = json.loads(second.stdout)
    assert (data["round"], data["nextBidder"], data["bidTotal"]) == (3, None, 3)
    assert path.read_text(encoding="utf-8") == SHEET.split("    tricks: [1, 1, 0, 1]\n")[0]


def test_undo_quietly_and_with_nothing_left(tmp_path):
    path = sheet_file(tmp_path, "players: [A, B, C]\nrounds:\n  - bids: [null, 1, null]\n")
    quiet = run("undo", path, "-q")
    assert quiet.exit_code == 0
    assert quiet.stdout == quiet.stderr == ""
    assert path.read_text() == "players: [A, B, C]\nrounds: []\n"
    os.utime(path, ns=(OLD, OLD))
    content = path.read_bytes()
    empty = run("undo", path)
    assert empty.exit_code == 1
    assert empty.stdout == ""
    assert empty.stderr == f"{path}: nothing to undo: no round is recorded yet\n"
    assert untouched(path, content)


def test_undo_a_finished_game_puts_its_last_round_back_in_play(tmp_path):
    path = sheet_file(tmp_path, WORKED.read_text(encoding="utf-8"))
    result = run("undo", path)
    assert result.exit_code == 0
    assert result.stderr == (
        f"{path}: round 5: removed its tricks (Anna 2, Ben 1, Cara 1, Dan 1): "
        "the round is in play again\n"
    )
    # a round's tricks taken back: the standings as the game now stands, then what comes next
    assert result.stdout.startswith(
        "  Rank  Player      Score\n------  --------  -------\n     1  Ben           110\n"
    )
    assert "\n\nRound:              5 of 5\n" in result.stdout
    assert run("check", path).exit_code == 0


def test_undo_refuses_an_invalid_sheet_it_would_leave_invalid_and_a_csv(tmp_path):
    broken = sheet_file(
        tmp_path,
        "players: [A, B, C]\nrounds:\n  - bids: [0, 0, 0]\n"
        "    tricks: [1, 1, 0]\n  - bids: [2, 0, 0]\n",
    )
    content = broken.read_bytes()
    result = run("undo", broken)  # round 2 taken back would leave round 1's tricks wrong
    assert result.exit_code == 1
    assert (
        result.stderr
        == f"{broken}:4: round 1: tricks add up to 2, 1 more than the hand size of 1\n"
    )
    assert untouched(broken, content)
    players = sheet_file(tmp_path, "players: [A, B]\nrounds:\n  - bids: [0, 0]\n", "two.yaml")
    assert run("undo", players).stderr.endswith("a game has 3 to 6 players, this sheet has 2\n")
    csv = tmp_path / "g.csv"
    csv.write_text("round,player,bid,tricks\n1,A,1,1\n1,B,0,0\n1,C,0,0\n")
    refused = run("undo", csv)
    assert refused.exit_code == 1
    assert refused.stderr == (
        f"{csv}: undo edits YAML sheets only; make one from this CSV with "
        f"`wizard convert {csv} --to yaml -o NEW.yaml`\n"
    )


def test_add_then_undo_from_a_new_sheet_restores_every_byte(tmp_path):
    path = tmp_path / "g.yaml"
    assert run("new", "--players", "Anna,Ben,Cara", "-o", path).exit_code == 0
    blank = path.read_bytes()
    assert run("add", path, "--bids", "1,0,0", "-q").exit_code == 0
    assert run("undo", path, "-q").exit_code == 0
    assert path.read_bytes() == blank
    assert run("add", path, "--bids", "1,0,0", "--tricks", "1,0,0", "-q").exit_code == 0
    played = path.read_bytes()
    assert run("add", path, "--bids", "Cara=1", "-q").exit_code == 0
    assert run("add", path, "--bids", "Anna=0", "-q").exit_code == 0
    assert run("undo", path, "-q").exit_code == 0  # the round in play goes, all its bids with it
    assert path.read_bytes() == played


# Every way a sheet may say it has no rounds yet, each given back as it was (issue 21, item 17)
NO_ROUNDS_YET = [
    "players: [A, B, C]\nrounds: []\n",  # as `wizard new` writes it
    "players: [A, B, C]\nrounds: []   # to come\n",
    "players: [A, B, C]\nrounds:\n",  # the key with nothing after it
    "players: [A, B, C]\nrounds:   # none yet\n",
    "players: [A, B, C]\r\nrounds:\r\n",
    "players: [A, B, C]\nrounds:\nsettings: {zeroBidScoring: doubleBonus}\n",
    "players: [A, B, C]\n",  # no `rounds` key at all
    "players: [A, B, C]  # us",
    "# who plays\nplayers: [A, B, C]\r\n# the end\r\n",
    "players:\n  - A\n  - B\n  - C\n",
    # JSON (and flow YAML) with no `rounds` key: add writes the key with its rounds on lines of
    # their own, which tells undo to take the key back too (it once left `"rounds": []`)
    '{"players": ["A", "B", "C"]}',
    '{"players": ["A", "B", "C"]}\n',
    '{\n  "players": ["A", "B", "C"]\n}\n',
    "{players: [A, B, C]}\r\n",
]


@pytest.mark.parametrize("blank", NO_ROUNDS_YET)
def test_add_then_undo_gives_back_a_sheet_with_no_rounds_yet_byte_for_byte(tmp_path, blank):
    path = sheet_file(tmp_path, blank)
    assert run("add", path, "--bids", "1,0,0", "-q").exit_code == 0
    assert run("undo", path, "-q").exit_code == 0
    assert path.read_bytes() == blank.encode()
    # the whole first round, and the next one started, taken back step by step
    assert run("add", path, "--bids", "1,0,0", "--tricks", "1,0,0", "-q").exit_code == 0
    played = path.read_bytes()
    assert run("check", path).stdout == f"{path}: ok\n"
    assert run("add", path, "--bids", "0,1,1", "-q").exit_code == 0
    assert run("undo", path, "-q").exit_code == 0
    assert path.read_bytes() == played
    assert run("undo", path, "-q").exit_code == 0  # the tricks
    assert run("undo", path, "-q").exit_code == 0  # the bids, with the round
    assert path.read_bytes() == blank.encode()
    assert run("undo", path).stderr == f"{path}: nothing to undo: no round is recorded yet\n"


@pytest.mark.parametrize(
    "blank, after",
    [
        # null has four spellings that read alike once the round is written: `[]` comes back
        ("players: [A, B, C]\nrounds: null\n", "players: [A, B, C]\nrounds: []\n"),
        ("players: [A, B, C]\nrounds: ~\n", "players: [A, B, C]\nrounds: []\n"),
        (
            '{"players": ["A", "B", "C"], "rounds": null}',
            '{"players": ["A", "B", "C"], "rounds": []}',
        ),
    ],
)
def test_add_then_undo_on_a_null_or_json_sheet_leaves_an_empty_list(tmp_path, blank, after):
    path = sheet_file(tmp_path, blank)
    assert run("add", path, "--bids", "1,0,0", "-q").exit_code == 0
    assert run("undo", path, "-q").exit_code == 0
    assert path.read_bytes() == after.encode()


# --- add: bids in turn, --bidding-order, -q, edit pointed to -------------------------------


def test_open_bids_are_given_in_turn(tmp_path):
    path = sheet_file(tmp_path)
    content = path.read_bytes()
    result = run("add", path, "--bids", "Cara=1")
    assert result.exit_code == 1
    assert result.stderr == (
        f"{path}: round 4, Cara: Ben bids first (bidding order: Anna, Ben, Cara, Dan)\n"
    )
    assert untouched(path, content)
    together = run("add", path, "--bids", "Ben=0,Cara=1")  # in turn, counting the same command
    assert together.exit_code == 0, together.stderr
    assert path.read_text(encoding="utf-8") == SHEET.replace(
        "{Anna: 2}", "{Anna: 2, Ben: 0, Cara: 1}"
    )
    assert "Next to bid:        Dan\n" in together.stdout
    last = run("add", path, "--bids", "Dan=1,Anna=2", "-q")  # restating a bid is no bid out of turn
    assert last.exit_code == 0, last.stderr
    assert "{Anna: 2, Ben: 0, Cara: 1, Dan: 1}" in path.read_text(encoding="utf-8")


def test_any_order_under_hidden_bidding(tmp_path):
    path = sheet_file(tmp_path, SHEET.replace("screwTheDealer: leaderOnly", "bidding: hidden"))
    assert run("add", path, "--bids", "Dan=1", "-q").exit_code == 0
    assert "{Anna: 2, Dan: 1}" in path.read_text(encoding="utf-8")


def test_add_in_bidding_order(tmp_path):
    path = sheet_file(tmp_path, SHEET.replace("  - bids:   {Anna: 2}      # Dan deals\n", ""))
    # round 4: Dan deals; Anna, Ben, Cara, Dan bid in that order (the seating order here), so
    # take round 4 as dealt by Dan and bid two at a time
    result = run("add", path, "--bidding-order", "--bids", "2,1")
    assert result.exit_code == 0, result.stderr
    assert "Bids in:            Anna 2, Ben 1\nBids so far:        3 of 4\n" in result.stdout
    again = run("add", path, "--bidding-order", "--bids", "2,1,0")  # restating the first two
    assert again.exit_code == 0, again.stderr
    assert path.read_text(encoding="utf-8").endswith("  - bids:   [2, 1, 0, null]\n")


def test_bidding_order_from_the_dealers_left(tmp_path):
    path = sheet_file(
        tmp_path, "players: [A, B, C]\nrounds:\n  - bids: [0, 0, 1]\n    tricks: [0, 0, 1]\n"
    )
    # round 2: B deals, C bids first, then A, then B
    assert run("add", path, "--bidding-order", "--bids", "1,0", "-q").exit_code == 0
    assert path.read_text().endswith("  - bids: [0, null, 1]\n")
    assert (
        run("add", path, "--bidding-order", "--tricks", "1,0,1", "-q", "--bids", "1,0,1").exit_code
        == 0
    )
    assert path.read_text().endswith("  - bids: [0, 1, 1]\n    tricks: [0, 1, 1]\n")


def test_add_refusing_to_overwrite_points_to_edit(tmp_path):
    path = sheet_file(tmp_path)
    result = run("add", path, "--bids", "Anna=3")
    assert result.exit_code == 1
    assert result.stderr == (
        f"{path}: round 4, Anna: has already bid 2 (change a recorded bid "
        "with wizard edit --round 4)\n"
    )


def test_add_quietly(tmp_path):
    path = sheet_file(tmp_path)
    result = run("add", path, "--bids", "Ben=1,Cara=0,Dan=0", "--tricks", "1,1,1,1", "-q")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == result.stderr == ""
    assert run("next", path).stdout == "Game over — Ben wins\n"


def test_the_forbidden_bid_is_gone_once_the_dealer_has_bid(tmp_path):
    path = sheet_file(tmp_path, DEALER_TO_BID.read_text())
    assert json.loads(run("next", path, "-f", "json").stdout)["forbiddenDealerBid"] == 1
    assert run("add", path, "--bids", "A=0", "-q").exit_code == 0
    data = json.loads(run("next", path, "-f", "json").stdout)
    assert (data["forbiddenDealerBid"], data["bidTotal"], data["nextBidder"]) == (None, 0, None)
    assert "Dealer may not bid" not in run("next", path).stdout


# --- the layout of a new round on a sheet of lists and mappings ------------------------------

MIXED = {
    "players": ["Anna", "Ben", "Cara"],
    "rounds": [
        {"bids": {"Anna": 1, "Ben": 0, "Cara": 0}, "tricks": {"Anna": 1, "Ben": 0, "Cara": 0}},
        {"bids": {"Anna": 1, "Ben": 0, "Cara": 0}, "tricks": {"Anna": 1, "Ben": 0, "Cara": 1}},
        {"bids": [1, 0, 1], "tricks": [1, 1, 1]},
    ],
}


def test_a_new_round_on_a_safe_dumped_sheet_of_lists_and_mappings(tmp_path):
    text = yaml.safe_dump(MIXED, sort_keys=False)
    path = sheet_file(tmp_path, text)
    result = run("add", path, "--bids", "0,0,1", "-q")
    assert result.exit_code == 0, result.stderr
    assert path.read_text() == text + "- bids:\n    Anna: 0\n    Ben: 0\n    Cara: 1\n"
    assert run("add", path, "--tricks", "1,1,2", "-q").exit_code == 0
    assert path.read_text().endswith(
        "- bids:\n    Anna: 0\n    Ben: 0\n    Cara: 1\n  tricks:\n    Anna: 1\n    Ben: 1\n"
        "    Cara: 2\n"
    )
    assert run("check", path).exit_code == 0


def test_a_new_round_on_a_hand_written_sheet_of_lists_and_mappings(tmp_path):
    text = (
        "players: [Anna, Ben, Cara]\n"
        "rounds:\n"
        "  - bids:\n"
        "        Anna: 1\n        Ben: 0\n        Cara: 0\n"
        "    tricks:\n"
        "        Anna: 1\n        Ben: 0\n        Cara: 0\n"
        "  - bids:\n"
        "        Anna: 1\n        Ben: 0\n        Cara: 0\n"
        "    tricks:\n"
        "        Anna: 1\n        Ben: 0\n        Cara: 1\n"
        "  - bids:\n"
        "    - 1\n    - 0\n    - 1\n"
        "    tricks:\n"
        "    - 1\n    - 1\n    - 1\n"
    )
    path = sheet_file(tmp_path, text)
    assert run("add", path, "--bids", "0,0,1", "-q").exit_code == 0
    assert (
        path.read_text() == text + "  - bids:\n        Anna: 0\n        Ben: 0\n        Cara: 1\n"
    )
    assert run("undo", path, "-q").exit_code == 0
    assert path.read_text() == text


# --- properties -----------------------------------------------------------------------------

BASES = [
    "players: [{names}]\nrounds: []\n",
    "# a comment\nplayers: [{names}]   # seats\nrounds: []   # none yet\n",
    "players: [{names}]\r\nrounds: []\r\n",
    '{{"players": [{quoted}], "rounds": []}}',
    "players:\n  - {first}\n{rest}\nrounds: []\n",
    "players: [{names}]\nrounds:   # none yet\n",  # the bare key: dashes at its column
    "# a comment\nplayers: [{names}]   # seats\n",  # no key: add makes one
]
NAMES = ["Anna", "No", "1", "a: b", "#x", "Zoë", "- a", "{k}", "x y"]


@st.composite
def sheets(draw):
    """A sheet's text in some layout, part way through a short game recorded by ``add``."""
    count = draw(st.integers(3, 4))
    names = draw(st.lists(st.sampled_from(NAMES), min_size=count, max_size=count, unique=True))
    base = draw(st.sampled_from(BASES))
    text = base.format(
        names=", ".join(yaml_scalar(n) for n in names),
        quoted=", ".join(json_text(n) for n in names),
        first=yaml_scalar(names[0], flow=False),
        rest="\n".join(f"  - {yaml_scalar(n, flow=False)}" for n in names[1:]),
    )
    rules = SheetRules([[RawSetting("roundMode", "custom"), RawSetting("customRoundCount", 3)]])
    by_name = draw(st.booleans())
    for size in range(1, draw(st.integers(0, 3)) + 1):
        order = checked_last(text, "g.yaml", rules).bidding_order(size)
        bids = {seat: draw(st.integers(0, size)) for seat in order[: draw(st.integers(1, count))]}
        text = record(text, "g.yaml", rules, bids=values(names, bids, by_name)).text
        if len(bids) < count or draw(st.integers(0, 4)) == 0:
            break
        cuts = sorted(draw(st.lists(st.integers(0, size), min_size=count - 1, max_size=count - 1)))
        tricks = dict(enumerate(b - a for a, b in zip([0] + cuts, cuts + [size])))
        text = record(text, "g.yaml", rules, tricks=values(names, tricks, by_name)).text
    return text, names, rules


def values(names: list[str], given: dict[int, int], by_name: bool) -> str:
    """``--bids``/``--tricks`` text: by name, or in seating order with ``-`` for the others."""
    if by_name:
        return ",".join(f"{names[s]}={v}" for s, v in given.items())
    return ",".join(str(given[s]) if s in given else "-" for s in range(len(names)))


def content(text: str) -> list:
    """What a sheet's text records, layout aside."""
    sheet = list(read_yaml_sheets(text, "g.yaml"))[-1]
    return [sheet.players, [(r.bids, r.tricks) for r in sheet.rounds]]


@given(sheets(), st.data())
@hypothesis_settings(max_examples=60, deadline=None)
def test_edit_then_edit_back_restores_every_byte(sheet, data):
    text, names, rules = sheet
    rounds = list(read_yaml_sheets(text, "g.yaml"))[-1].rounds
    if not rounds:
        return
    number = data.draw(st.integers(1, len(rounds)))
    record_ = rounds[number - 1]
    seats = [s for s, bid in enumerate(record_.bids) if bid is not None]
    seat = data.draw(st.sampled_from(seats))
    new_bid = data.draw(st.integers(0, number))
    edited = amend(read_text(text, "g.yaml", rules), number, bids=f"{names[seat]}={new_bid}")
    assert content(edited.text)[1][number - 1][0][seat] == new_bid
    back = amend(
        read_text(edited.text, "g.yaml", rules), number, bids=f"{names[seat]}={record_.bids[seat]}"
    )
    assert back.text == text
    if record_.tricks is not None:  # move one trick from one player to another, and back
        giver = data.draw(st.sampled_from([s for s, t in enumerate(record_.tricks) if t]))
        taker = data.draw(st.sampled_from([s for s in range(len(names)) if s != giver]))
        moved = {giver: record_.tricks[giver] - 1, taker: record_.tricks[taker] + 1}
        edited = amend(
            read_text(text, "g.yaml", rules),
            number,
            tricks=values(names, moved, data.draw(st.booleans())),
        )
        back = amend(
            read_text(edited.text, "g.yaml", rules),
            number,
            tricks=values(names, {s: record_.tricks[s] for s in moved}, False),
        )
        assert back.text == text


@given(sheets(), st.data())
@hypothesis_settings(max_examples=60, deadline=None)
def test_undo_after_add_restores_every_byte(sheet, data):
    text, names, rules = sheet
    checked = checked_last(text, "g.yaml", rules)
    rounds = checked.sheet.rounds
    in_play = rounds[-1] if rounds and rounds[-1].tricks is None else None
    number = len(rounds) if in_play else len(rounds) + 1
    if number > 3:
        return  # the game is over
    size = number
    order = checked.bidding_order(number)
    by_name = data.draw(st.booleans())
    if in_play is None:  # add starts a round; undo removes it
        first = order[: data.draw(st.integers(1, len(names)))]
        bids = {seat: data.draw(st.integers(0, size)) for seat in first}
        added = record(text, "g.yaml", rules, bids=values(names, bids, by_name)).text
        assert take_back(read_text(added, "g.yaml", rules)).text == text
    elif None in in_play.bids:  # one more bid; play's undo takes it back
        seat = next(s for s in order if in_play.bids[s] is None)
        added = record(text, "g.yaml", rules, bids=values(names, {seat: size}, by_name)).text
        assert take_back_bid(read_text(added, "g.yaml", rules), seat).text == text
    else:  # the round's tricks; undo takes them back
        tricks = {seat: (size if seat == order[0] else 0) for seat in range(len(names))}
        added = record(text, "g.yaml", rules, tricks=values(names, tricks, by_name)).text
        assert take_back(read_text(added, "g.yaml", rules)).text == text


def test_the_core_refuses_what_cannot_be_taken_back():
    with pytest.raises(WizardError):
        take_back_bid(read_text("players: [A, B, C]\nrounds: []\n", "g.yaml"), 0)
    with pytest.raises(WizardError):
        take_back(read_text("players: [A, B, C]\n", "g.yaml"))


# --- repairs: edit and undo mend an invalid sheet (issue 21, item 7) -------------------------

BROKEN = """\
players: [Anna, Ben, Cara]
settings: {roundMode: custom, customRoundCount: 3}
rounds:
  - bids: [1, 0, 0]
    tricks: [1, 0, 0]
  - bids: [1, 1, 0]
    tricks: [2, 1, 0]   # typed by hand: 3 tricks of a 2-card hand
"""


def test_edit_repairs_a_round_whose_tricks_are_past_the_hand_size(tmp_path):
    path = sheet_file(tmp_path, BROKEN)
    assert run("check", path).stderr == (
        f"{path}:7: round 2: tricks add up to 3, 1 more than the hand size of 2\n"
    )
    result = run("edit", path, "--round", "2", "--tricks", "Anna=1")
    assert (result.exit_code, result.stderr) == (0, f"{path}: round 2, Anna: tricks 2 → 1\n")
    assert result.stdout == (
        "  Rank  Player      Score\n------  --------  -------\n"
        "     1  Anna           60\n     2  Ben            50\n"
        "     3  Cara           40\n\nRound 3 of 3 next: Cara deals 3\n"
    )
    assert path.read_text() == BROKEN.replace("[2, 1, 0]", "[1, 1, 0]")
    assert run("check", path).exit_code == 0


def test_an_edit_that_leaves_the_sheet_invalid_writes_nothing(tmp_path):
    path = sheet_file(tmp_path, BROKEN)
    content = path.read_bytes()
    result = run("edit", path, "--round", "1", "--tricks", "Anna=0,Ben=1")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == (
        f"{path}:7: round 2: tricks add up to 3, 1 more than the hand size of 2\n"
    )
    assert untouched(path, content)


def test_undo_takes_back_the_step_that_made_the_sheet_invalid(tmp_path):
    path = sheet_file(tmp_path, BROKEN)
    result = run("undo", path)
    assert result.exit_code == 0
    assert result.stderr == (
        f"{path}: round 2: removed its tricks (Anna 2, Ben 1, Cara 0): the round is in play again\n"
    )
    assert result.stdout.startswith(
        "  Rank  Player      Score\n------  --------  -------\n"
        "     1  Anna           30\n     2  Ben            20\n"
        "     2  Cara           20\n\nRound:              2 of 3\n"
    )
    assert path.read_text() == BROKEN.split("    tricks: [2, 1, 0]")[0]
    assert run("check", path).exit_code == 0


# --- a write keeps the sheet valid under its own rules (issue 18) ----------------------------


def test_command_line_rules_may_add_to_the_check_of_a_write_never_relax_it(tmp_path):
    own = sheet_file(
        tmp_path, "players: [A, B, C]\nsettings: {screwTheDealer: always}\nrounds: []\n"
    )
    content = own.read_bytes()
    relaxed = run("add", own, "--bids", "0,0,1", "--set", "screwTheDealer=off")
    assert relaxed.exit_code == 1
    assert relaxed.stderr == (
        f"{own}:4: round 1, A: the dealer may not bid 0 under "
        "screwTheDealer=always: the bids would add up to the hand size of 1\n"
    )
    assert untouched(own, content)
    assert run("add", own, "--bids", "1,0,1", "--set", "screwTheDealer=off", "-q").exit_code == 0
    plain = sheet_file(tmp_path, "players: [A, B, C]\nrounds: []\n", "plain.yaml")
    added = run("add", plain, "--bids", "0,0,1", "--set", "screwTheDealer=always")
    assert added.exit_code == 1
    assert "the dealer may not bid 0 under screwTheDealer=always" in added.stderr
