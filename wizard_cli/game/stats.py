"""Figures across many games, per player (``wizard stats``).

Pure and streaming: results are consumed one at a time into small per-player accumulators, so a
season archive of any length is summarised in constant memory (per player, not per game).
A player is identified by name. Games, wins and scores count finished games only; bid figures
count every completed round, also those of unfinished games (SPEC §5).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from .model import by_seat
from .scoring import GameResult


@dataclass(slots=True)
class PlayerStats:
    """One player's running tally over a season; the averages are derived, exact, unrounded."""

    player: str
    games: int = 0
    wins: int = 0
    score_sum: int = 0
    best_score: int | None = None
    rounds: int = 0
    made: int = 0
    zero_bids_made: int = 0
    zero_bids_tried: int = 0
    missed: int = 0
    miss_sum: int = 0
    overbids: int = 0
    underbids: int = 0

    @property
    def average_score(self) -> float | None:
        """Mean final score over finished games; None before any."""
        return self.score_sum / self.games if self.games else None

    @property
    def bid_accuracy(self) -> float | None:
        """Made bids per completed round, 0..1; None before any round."""
        return self.made / self.rounds if self.rounds else None

    @property
    def average_miss(self) -> float | None:
        """Mean distance |bid - tricks| over missed bids; None when no bid was missed."""
        return self.miss_sum / self.missed if self.missed else None

    def add_round(self, bid: int, tricks: int) -> None:
        """Count one completed round's bid against the tricks taken."""
        self.rounds += 1
        if bid == 0:
            self.zero_bids_tried += 1
        if bid == tricks:
            self.made += 1
            self.zero_bids_made += bid == 0
            return
        self.missed += 1
        self.miss_sum += abs(bid - tricks)
        if tricks < bid:
            self.overbids += 1
        else:
            self.underbids += 1

    def add_game(self, score: int, won: bool) -> None:
        """Count one finished game's final score (end bonuses included) and whether it was won."""
        self.games += 1
        self.wins += won
        self.score_sum += score
        self.best_score = score if self.best_score is None else max(self.best_score, score)


@dataclass(slots=True)
class Season:
    """Accumulates game results into per-player figures, one result at a time."""

    players: dict[str, PlayerStats] = field(default_factory=dict)
    games: int = 0
    finished: int = 0

    def add(self, result: GameResult) -> None:
        """Fold one scored game in: its completed rounds always, its scores once it is finished."""
        self.games += 1
        tallies = [self.players.setdefault(name, PlayerStats(name)) for name in result.players]
        scored, count = result.scored, len(tallies)
        seats = zip(tallies, by_seat(scored.bids, count), by_seat(scored.tricks, count))
        for tally, bids, tricks in seats:  # (the round in play has no tricks: zip skips it)
            for bid, took in zip(bids, tricks):
                tally.add_round(bid, took)
        if result.finished:
            self.finished += 1
            winners = set(result.winners)  # a shared first place is a win for each
            for standing in result.standings:
                tallies[standing.seat].add_game(standing.score, standing.player in winners)

    def ranked(self) -> list[PlayerStats]:
        """Players by wins, then average score (highest first; none last), then name."""
        return sorted(self.players.values(), key=_rank_key)


def _rank_key(stats: PlayerStats) -> tuple:
    """Sort key: most wins, best average (players without a finished game last), name."""
    average = stats.average_score
    return (-stats.wins, average is None, -(average or 0.0), stats.player.casefold(), stats.player)


def season_stats(results: Iterable[GameResult]) -> Season:
    """Summarise a stream of scored games without keeping any of them."""
    season = Season()
    for result in results:
        season.add(result)
    return season
