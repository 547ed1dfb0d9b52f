"""Build sheets and score them in memory, for tests of the pure core (no files, no CLI)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from wizard_cli.game.game import Game, GameResult, score_game
from wizard_cli.game.model import RoundRecord, Sheet
from wizard_cli.game.settings import Settings

Round = tuple[Sequence[int | None], Sequence[int] | None]  # (bids, tricks); tricks None = in play


def make_sheet(players: Sequence[str], rounds: Sequence[Round], source: str = "t.yaml") -> Sheet:
    """A sheet as the readers would produce it, without line numbers."""
    records = []
    for number, (bids, tricks) in enumerate(rounds, start=1):
        record = RoundRecord(number, None, list(bids), [None] * len(players))
        if tricks is not None:
            record.tricks, record.trick_lines = list(tricks), [None] * len(players)
        records.append(record)
    return Sheet(
        source=source, players=list(players), player_lines=[None] * len(players), rounds=records
    )


def rules(**values: Any) -> Settings:
    """Settings with some camelCase keys changed from their defaults."""
    return Settings().replace(values)


def score(
    players: Sequence[str], rounds: Sequence[Round], first_dealer: int = 0, **values: Any
) -> GameResult:
    """Score a sheet built from plain lists under the given settings."""
    return score_game(Game(make_sheet(players, rounds), rules(**values), first_dealer))


def score_sheet(sheet: Sheet, settings: Settings, first_dealer: int = 0) -> GameResult:
    """A sheet taken as valid, scored under the settings."""
    return score_game(Game(sheet, settings, first_dealer))


def table(result: GameResult) -> list[tuple[int, str, int, int]]:
    """The standings as (rank, player, score, bonus), in the order they are listed."""
    return [(s.rank, s.player, s.score, s.bonus) for s in result.standings]


def zero_rounds(players: int, sizes: Sequence[int]) -> list[Round]:
    """Complete rounds where everyone bids 0 and the first player takes every trick."""
    return [([0] * players, [size] + [0] * (players - 1)) for size in sizes]
