"""Seating findings of the SPEC audit (§1 "Who sits at the table", §3, §4, §5): ``leave``,
``join`` and ``undo`` in a block-style ``players`` list with block mapping entries, the round
to be dealt next seating 3 to 6, every seating problem reported at once and at the line of its
value, and the reasons a player is not seated worded as sentences."""

from __future__ import annotations

import textwrap

from helpers import run

BLOCK = """\
players:
  - Anna
  - Ben
  - name: Cara
    startScore: 5
  - Dan
rounds:
  - bids: [1, 0, 0, 0]
    tricks: [1, 0, 0, 0]
"""


def sheet_file(tmp_path, text: str, name: str = "s.yaml"):
    path = tmp_path / name
    path.write_bytes(textwrap.dedent(text).encode())
    return path


def check_problems(tmp_path, text: str) -> tuple[object, str]:
    """``wizard check`` of a sheet that has problems: its path and what check said."""
    path = sheet_file(tmp_path, text)
    result = run("check", path)
    assert result.exit_code == 1, result.stdout
    return path, result.stderr


# --- 1. block mapping entries keep their layout ---------------------------------------------


def test_leave_adds_leaves_to_a_block_mapping_and_undo_takes_it_back(tmp_path):
    path = sheet_file(tmp_path, BLOCK)
    result = run("leave", path, "Cara", "-q")
    assert result.exit_code == 0, result.stderr
    assert path.read_text() == BLOCK.replace(
        "    startScore: 5\n", "    startScore: 5\n    leaves: 1\n"
    )
    result = run("undo", path)
    assert result.exit_code == 0 and "took back Cara leaving after round 1" in result.stderr
    assert path.read_text() == BLOCK


def test_a_block_entry_of_one_key_and_crlf_lines_stay_byte_for_byte(tmp_path):
    text = BLOCK.replace("    startScore: 5\n", "").replace("\n", "\r\n")
    path = tmp_path / "s.yaml"
    path.write_bytes(text.encode())
    assert run("leave", path, "Cara", "-q").exit_code == 0
    assert (
        path.read_bytes()
        == text.replace("  - name: Cara\r\n", "  - name: Cara\r\n    leaves: 1\r\n").encode()
    )
    assert run("undo", path, "-q").exit_code == 0
    assert path.read_bytes() == text.encode()


def test_join_after_a_block_mapping_entry_and_its_undo(tmp_path):
    path = sheet_file(tmp_path, BLOCK)
    result = run("join", path, "Eva", "--after", "Cara", "--start-score", "3", "-q")
    assert result.exit_code == 0, result.stderr
    assert path.read_text() == BLOCK.replace(
        "  - Dan\n", "  - {name: Eva, joins: 2, startScore: 3}\n  - Dan\n"
    )
    assert run("undo", path, "-q").exit_code == 0
    assert path.read_text() == BLOCK


def test_undo_takes_out_a_block_mapping_join(tmp_path):
    text = BLOCK + ""
    joined = text.replace("  - Dan\n", "  - Dan\n  - name: Eva\n    joins: 2\n")
    path = sheet_file(tmp_path, joined)
    result = run("undo", path)
    assert result.exit_code == 0 and "took back Eva joining from round 2" in result.stderr
    assert path.read_text() == BLOCK


def test_play_leave_in_a_block_style_list(tmp_path):
    path = sheet_file(tmp_path, BLOCK)
    result = run("play", path, input="leave Cara\nquit\n")
    assert "Cara leaves after round 1" in result.stderr, result.stderr
    assert "    startScore: 5\n    leaves: 1\n  - Dan\n" in path.read_text()


# --- 2. the round to be dealt next seats 3 to 6 ---------------------------------------------


def test_a_next_round_of_two_is_a_problem_at_the_leave_that_makes_it(tmp_path):
    path = sheet_file(
        tmp_path,
        """\
        players:
          - A
          - B
          - {name: C, leaves: 1}
          - name: D
            leaves: 1
        rounds:
          - {bids: [1, 0, 0, 0], tricks: [1, 0, 0, 0]}
        """,
    )
    for command in ("check", "next", "score"):
        result = run(command, path)
        assert result.exit_code == 1, (command, result.stdout)
        assert f"{path}:6: D: round 2 would seat 2 players: a round seats 3 to 6" in result.stderr


def test_a_finished_game_needs_no_next_round(tmp_path):
    rounds = "".join(f"  - {{bids: [0, 0, 0], tricks: [0, 0, {n}]}}\n" for n in range(1, 21))
    path = sheet_file(tmp_path, "players: [A, B, C, {name: D, joins: 21}]\nrounds:\n" + rounds)
    result = run("check", path)
    assert result.exit_code == 1  # D could join no round: past the game's rounds
    assert "past the 20 rounds" in result.stderr and "would seat" not in result.stderr
    path = sheet_file(tmp_path, "players: [A, B, {name: C, leaves: 20}]\nrounds:\n" + rounds)
    assert run("check", path).exit_code == 0  # the game is over after round 20


def test_seven_players_with_a_start_score_are_not_a_seating_change(tmp_path):
    path, said = check_problems(tmp_path, "players: [A, B, C, D, E, F, {name: G, startScore: 5}]\n")
    assert f"{path}:1: a game has 3 to 6 players, this sheet has 7" in said


def test_a_join_that_makes_seven_is_a_problem_at_its_joins(tmp_path):
    path, said = check_problems(
        tmp_path,
        """\
        players: [A, B, C, D, E, F, {name: G, joins: 2}]
        rounds:
          - {bids: [1, 0, 0, 0, 0, 0], tricks: [1, 0, 0, 0, 0, 0]}
        """,
    )
    assert f"{path}:1: G: round 2 would seat 7 players: a round seats 3 to 6" in said


# --- 3. and 4. every problem at once, at its value's line -----------------------------------


def test_joins_after_leaves_hides_no_other_problem(tmp_path):
    path, said = check_problems(
        tmp_path,
        """\
        players: [Anna, Ben, {name: Cara, leaves: 1}, {name: Dan, joins: 3, leaves: 2},
          {name: Eva, joins: 30}]
        rounds:
          - {bids: [1, 0, 0], tricks: [1, 0, 0]}
          - {bids: {Anna: 1, Ben: 1}, tricks: {Anna: 1, Ben: 1}}
        """,
    )
    assert said.splitlines() == [
        f"{path}:1: Dan: joins in round 3, after leaving in round 2",
        f"{path}:2: Eva: joins in round 30, past the 20 rounds the game can have",
        f"{path}:5: round 2: 2 players seated: a round seats 3 to 6",
    ]


def test_joins_problems_stand_at_the_joins_line(tmp_path):
    path, said = check_problems(
        tmp_path,
        """\
        players:
          - Anna
          - Ben
          - Cara
          - name: Dan
            leaves: 1
            joins: 3
          - name: Eva
            joins: 30
        rounds:
          - {bids: [1, 0, 0], tricks: [1, 0, 0]}
        """,
    )
    assert said.splitlines() == [
        f"{path}:7: Dan: joins in round 3, after leaving in round 1",
        f"{path}:9: Eva: joins in round 30, past the 20 rounds the game can have",
    ]


# --- 5. wording ----------------------------------------------------------------------------


def test_a_cloud_to_a_player_not_seated_reads_as_a_sentence(tmp_path):
    head = "players: [Anna, Ben, Cara, Gus, {name: Dan, leaves: 1}, {name: Eva, joins: 4}]\n"
    head += "settings: {specialCards: true}\nrounds:\n"
    first = "  - {bids: [1, 0, 0, 0, 0], tricks: [1, 0, 0, 0, 0]}\n"
    for cloud, why in [
        ("Dan", "left after round 1"),
        ("Eva", "has not joined yet (joins in round 4)"),
        ("Anna", "sits this round out"),
    ]:
        out = "out: [Anna], " if cloud == "Anna" else ""
        bids = "[1, 0, 1]" if cloud == "Anna" else "[1, 0, 0, 1]"
        tricks = "[1, 0, 1]" if cloud == "Anna" else "[1, 0, 0, 1]"
        round_two = f"  - {{{out}bids: {bids}, tricks: {tricks}, cloud: {{{cloud}: 1}}}}\n"
        _, said = check_problems(tmp_path, head + first + round_two)
        assert (
            f"round 2, {cloud}: the Cloud goes to a player seated in the round, and this "
            f"player {why}\n"
        ) in said


def test_a_null_cloud_says_null(tmp_path):
    path, said = check_problems(
        tmp_path,
        """\
        players: [Anna, Ben, Cara]
        settings: {specialCards: true}
        rounds:
          - {bids: [1, 0, 0], tricks: [1, 0, 0], cloud: {Anna: null}}
        """,
    )
    assert "Anna: the Cloud changes a bid by 1 or -1, not null\n" in said


def test_play_words_a_bad_cloud_answer_for_its_prompt(tmp_path):
    path = sheet_file(tmp_path, "players: [Anna, Ben, Cara]\nsettings: {specialCards: true}\n")
    result = run("play", path, input="0 1 0\nc Zed +1\nc Ben +2\nquit\n")
    lines = result.stderr.splitlines()
    assert "unknown player 'Zed' (players: Anna, Ben, Cara)" in lines, result.stderr
    assert "the Cloud changes a bid by +1 or -1, not '+2'" in lines, result.stderr
    assert "--cloud" not in result.stderr
