"""A season's skill ratings (``wizard ratings``): openskill's Plackett–Luce model at its defaults.

Exactly as SPEC §5 says, so anyone with openskill can reproduce each number: finished games are
rated in the order given, each one ``model.rate([[r] for each player in seating order],
ranks=[that player's standings rank])``, a new player starting at ``model.rating()``. Pure and
streaming: one rating per player is kept, never the games. openskill is imported here only,
when a season is rated.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from .game import GameResult
from .runs import ScoredRun, fold_in
from .scoring import competition_ranks


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

    Per player one openskill rating is kept: the one ``model.rate`` gave back after that
    player's last game, passed in again for the next (``rate`` copies its inputs, so they are
    never changed). Built again from ``(mu, sigma)`` for every game, ratings cost one more
    rating (and uuid) per player per game: a quarter of ``rate``'s time. Memory grows with the
    players only: openskill's compiled rating is a small object without an attribute dict, so a
    season of 60,000 distinct players stays small (issue 21, item 5).
    """

    model: Any = field(default_factory=plackett_luce)
    ratings: dict[str, Any] = field(default_factory=dict)  # player → its latest rating
    games: dict[str, int] = field(default_factory=dict)  # player → finished games rated
    rated: int = 0
    unfinished: int = 0

    def rate(self, result: GameResult) -> list[Any] | None:
        """Rate one game if finished: its players' new ratings in seating order (None if not)."""
        if not result.finished:
            self.unfinished += 1
            return None
        ranks = [0] * len(result.players)
        for standing in result.standings:
            ranks[standing.seat] = standing.rank
        return self.rate_finished(result.players, ranks)

    def rate_finished(self, players: Sequence[str], ranks: list[int]) -> list[Any]:
        """Rate one finished game of ``players`` (seating order) ranked ``ranks`` (the same
        order): their new ratings in seating order, each player's game counted."""
        rated = self._rate(players, ranks)
        games = self.games
        for name in players:
            games[name] = games.get(name, 0) + 1
        return rated

    def _rate(self, players: Sequence[str], ranks: list[int]) -> list[Any]:
        """One ``model.rate`` of a finished game: its players' new ratings, kept (their games
        are counted by the caller)."""
        self.rated += 1
        known, new = self.ratings, self.model.rating
        teams = _Teams()
        for name in players:
            rating = known.get(name)
            teams.append([new() if rating is None else rating])
        rated = [rating for (rating,) in self.model.rate(teams, ranks=ranks)]
        known.update(zip(players, rated))
        return rated

    def rate_run(self, games: ScoredRun) -> None:
        """Rate the kept games of a checked run (all finished) in order, as :meth:`rate` rates
        each one's result (the season lane: no result object per game); the players' games are
        counted a table's games in a row at a time."""
        tables = games.run.tables
        for index in games.kept:
            self._rate(tables[index], games.seat_ranks(index))
        counted = self.games
        for table, start, stop in games.segments():
            for name in table:
                counted[name] = counted.get(name, 0) + stop - start

    def add_run(self, games: ScoredRun) -> list[HistoryRow]:
        """Rate the kept games of a checked run, as :meth:`add` each one's result: every
        player's rating after each game, game after game in seating order (a run's games have
        no date)."""
        run, rows = games.run, []
        for index in games.kept:
            players = run.tables[index]
            rated = self.rate_finished(players, games.seat_ranks(index))
            game = run.ids[index]
            rows += [
                HistoryRow(
                    run.source,
                    game,
                    None,
                    name,
                    rating.mu,
                    rating.sigma,
                    rating.ordinal(),
                    self.rated,
                )
                for name, rating in zip(players, rated)
            ]
        return rows

    def add(self, result: GameResult) -> list[HistoryRow]:
        """Rate one game (if finished): each of its players' ratings after it, in seating order."""
        rated = self.rate(result)
        if rated is None:
            return []
        return [
            HistoryRow(
                result.source,
                result.game,
                result.date,
                name,
                rating.mu,
                rating.sigma,
                rating.ordinal(),
                self.rated,
            )
            for name, rating in zip(result.players, rated)
        ]

    def table(self) -> list[RatingRow]:
        """Every rated player, highest ``ordinal`` first (then by name), competition-ranked."""
        games = self.games
        rows = [
            RatingRow(name, games[name], rating.mu, rating.sigma, rating.ordinal())
            for name, rating in self.ratings.items()
        ]
        rows.sort(key=lambda row: (-row.ordinal, row.player.casefold(), row.player))
        for row, rank in zip(rows, competition_ranks([(row.ordinal,) for row in rows])):
            row.rank = rank
        return rows


class _Teams(list):
    """``model.rate``'s teams (a list of one-rating lists), deep-copied as ``copy.deepcopy``
    copies them, each rating by its own ``__deepcopy__``, without the generic walk through the
    lists: ``rate`` deep-copies its teams first, and that walk was a third of a season's
    ``ratings`` (the ratings rated are the same objects, with the same values)."""

    def __deepcopy__(self, memo: dict) -> list[list[Any]]:
        return [[rating.__deepcopy__(memo) for rating in team] for team in self]


def rating_history(
    results: Iterable[GameResult | ScoredRun], ratings: SeasonRatings | None = None
) -> Iterator[HistoryRow]:
    """Each player's rating after each rated game, as the games stream by."""
    ratings = ratings if ratings is not None else SeasonRatings()
    for result in results:
        yield from (
            ratings.add_run(result) if isinstance(result, ScoredRun) else ratings.add(result)
        )


def season_ratings(results: Iterable[GameResult | ScoredRun]) -> SeasonRatings:
    """Rate a stream of scored games (and checked runs of them) without keeping any."""
    ratings = SeasonRatings()
    fold_in(results, ratings.rate, ratings.rate_run)
    return ratings
