"""A season's skill ratings (``wizard ratings``): openskill's Plackett–Luce model at its defaults.

Exactly as SPEC §5 says, so anyone with openskill can reproduce each number: finished games are
rated in the order given, each one ``model.rate([[r] for each player in seating order],
ranks=[that player's standings rank])``, a new player starting at ``model.rating()``. Pure and
streaming: one rating per player is kept, never the games. openskill is imported here only,
when a season is rated.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator

from .scoring import GameResult, competition_ranks


@dataclass(slots=True)
class RatingRow:
    """A player's rating after some games: ``ordinal`` is ``mu - 3·sigma`` (openskill's)."""

    player: str
    games: int
    mu: float
    sigma: float
    ordinal: float
    rank: int = 0  # set by :meth:`SeasonRatings.table`


@dataclass(slots=True)
class HistoryRow:
    """One player's rating right after one rated game (``ratings --history``)."""

    source: str
    game: str | int | None
    date: str | None
    player: str
    mu: float
    sigma: float
    ordinal: float
    rated: int = 0  # which rated game of the season this is, from 1 (not shown: for charts)


def plackett_luce() -> Any:
    """openskill's ``PlackettLuce()`` at its defaults."""
    from openskill.models import PlackettLuce

    return PlackettLuce()


@dataclass
class SeasonRatings:
    """Rates finished games one at a time; unfinished ones are counted and left out.

    Per player only ``(mu, sigma, games)`` is kept: an openskill rating object (with its own
    uuid and attribute dict) is built for each game from these numbers and dropped after it,
    so a season of 90,000 distinct players stays small (issue 21, item 5).
    """

    model: Any = field(default_factory=plackett_luce)
    players: dict[str, tuple[float, float, int]] = field(default_factory=dict)
    rated: int = 0
    unfinished: int = 0

    def add(self, result: GameResult) -> list[HistoryRow]:
        """Rate one game (if finished): each of its players' ratings after it, in seating order."""
        if not result.finished:
            self.unfinished += 1
            return []
        self.rated += 1
        players = result.players
        ranks = [0] * len(players)
        for standing in result.standings:
            ranks[standing.seat] = standing.rank
        model, known = self.model, self.players
        teams = []
        for name in players:
            kept = known.get(name)
            teams.append([model.rating() if kept is None else model.rating(kept[0], kept[1])])
        rows = []
        for name, (rating,) in zip(players, model.rate(teams, ranks=ranks)):
            kept = known.get(name)
            known[name] = (rating.mu, rating.sigma, 1 if kept is None else kept[2] + 1)
            rows.append(HistoryRow(result.source, result.game, result.date, name, rating.mu,
                                   rating.sigma, rating.ordinal(), self.rated))
        return rows

    def table(self) -> list[RatingRow]:
        """Every rated player, highest ``ordinal`` first (then by name), competition-ranked."""
        rating = self.model.rating
        rows = [RatingRow(name, games, mu, sigma, rating(mu, sigma).ordinal())
                for name, (mu, sigma, games) in self.players.items()]
        rows.sort(key=lambda row: (-row.ordinal, row.player.casefold(), row.player))
        for row, rank in zip(rows, competition_ranks([(row.ordinal,) for row in rows])):
            row.rank = rank
        return rows


def rating_history(results: Iterable[GameResult], ratings: SeasonRatings | None = None
                   ) -> Iterator[HistoryRow]:
    """Each player's rating after each rated game, as the games stream by."""
    ratings = ratings if ratings is not None else SeasonRatings()
    for result in results:
        yield from ratings.add(result)


def season_ratings(results: Iterable[GameResult]) -> SeasonRatings:
    """Rate a stream of scored games without keeping any of them."""
    ratings = SeasonRatings()
    for result in results:
        ratings.add(result)
    return ratings
