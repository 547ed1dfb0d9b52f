"""The score table's Total row counts start scores from the start (SPEC §1: ``startScore`` is
"their total from round 1 on, before any round of theirs"). The SPEC audit found it showing 0
until a round was complete, while the standings gave the start score."""

from __future__ import annotations

import pytest
from helpers import run

PLAYERS = "players: [Anna, Ben, {name: Cara, startScore: 20}]\n"
IN_PLAY = "  - bids: {Anna: 0, Ben: 1, Cara: 0}\n"
COMPLETE = IN_PLAY + "    tricks: {Anna: 0, Ben: 1, Cara: 0}\n"


def total_row(result) -> list[str]:
    """The Total row's cells, table or markdown."""
    (row,) = [line for line in result.stdout.splitlines() if "Total" in line]
    return row.replace("|", " ").split()


@pytest.mark.parametrize("style", ["table", "markdown"])
@pytest.mark.parametrize("rounds", ["rounds: []\n", "rounds:\n" + IN_PLAY])
def test_the_total_row_holds_the_start_score_before_any_round_is_complete(write, style, rounds):
    path = write("start.yaml", PLAYERS + rounds)
    result = run("score", path, "-f", style)
    assert result.exit_code == 0, result.stderr
    assert total_row(result) == ["Total", "0", "0", "20"]
    assert run("standings", path, "-f", "json").stdout.count('"score": 20') == 1


def test_running_totals_and_the_total_row_go_on_from_the_start_score(write):
    path = write("start.yaml", PLAYERS + "rounds:\n" + COMPLETE + IN_PLAY)
    result = run("score", path)
    assert result.exit_code == 0, result.stderr
    assert "0/0 → +20 = 40" in result.stdout  # Cara's running total after round 1
    assert total_row(result) == ["Total", "20", "30", "40"]
