"""Figures across many games, per player (``wizard stats``).

Pure and streaming: results are consumed one at a time into small per-player accumulators, so a
season archive of any length is summarised in constant memory (per player, not per game).
A player is identified by name. Games, wins and scores count finished games only; bid figures
count every completed round, also those of unfinished games (SPEC §5).
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import compress

from .game import GameResult
from .model import filled
from .runs import ScoredRun, fold_in

WAITING_LIMIT = 1024  # players' games whose rounds are held before being added up (< 1 MiB)


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

    def add_rounds(self, bids: Sequence[int], tricks: Sequence[int]) -> None:
        """Count completed rounds' bids against the tricks taken, as :meth:`add_round` does one
        at a time, in whole columns (counted in C: a season has a million such rounds)."""
        over = sum(map(operator.gt, bids, tricks))
        under = sum(map(operator.lt, bids, tricks))
        self.rounds += len(bids)
        self.zero_bids_tried += bids.count(0)
        self.zero_bids_made += list(compress(tricks, map(operator.not_, bids))).count(0)
        self.made += len(bids) - over - under
        self.missed += over + under
        self.miss_sum += sum(map(abs, map(operator.sub, bids, tricks)))
        self.overbids += over
        self.underbids += under

    def add_game(self, score: int, won: bool) -> None:
        """Count one finished game's final score (end bonuses included) and whether it was won."""
        self.games += 1
        self.wins += won
        self.score_sum += score
        if self.best_score is None or score > self.best_score:
            self.best_score = score

    def add_games(self, scores: Sequence[int], wins: int) -> None:
        """Count finished games' final scores, ``wins`` of them won, as :meth:`add_game` does
        one at a time."""
        if not scores:
            return
        self.games += len(scores)
        self.wins += wins
        self.score_sum += sum(scores)
        best = max(scores)
        if self.best_score is None or best > self.best_score:
            self.best_score = best


@dataclass(slots=True)
class Season:
    """Accumulates game results into per-player figures, one result at a time.

    :meth:`add` holds each player's bids and tricks for a while and adds them up together, in
    C (issue 20: a million-row season's rounds, counted one at a time, took as long as reading
    them); at most ``waiting_limit`` players' games are held, so memory stays flat. The figures
    of rounds are complete after :meth:`add_waiting` (which :meth:`ranked` and
    :func:`season_stats` call).
    """

    players: dict[str, PlayerStats] = field(default_factory=dict)
    games: int = 0
    finished: int = 0
    waiting: dict[str, tuple[list[int], list[int]]] = field(default_factory=dict)
    waiting_count: int = 0
    waiting_limit: int = WAITING_LIMIT

    def add(self, result: GameResult) -> None:
        """Fold one scored game in: its completed rounds always, its scores once it is finished
        (the fast path; the tests' round-by-round fold is the reference it must agree with)."""
        tallies = self._count(result)
        scored, count = result.scored, len(tallies)
        bids, tricks = scored.made, scored.tricks  # as scored: the Cloud's change counts (§1)
        if len(bids) > len(tricks):  # the round in play has no tricks: not counted
            bids = bids[: len(tricks)]
        waiting = self.waiting
        for seat, name in enumerate(result.players):
            columns = waiting.get(name)
            if columns is None:
                columns = waiting[name] = ([], [])
            seat_bids, seat_tricks = bids[seat::count], tricks[seat::count]
            if filled(seat_bids) and filled(seat_tricks):
                columns[0].extend(seat_bids)
                columns[1].extend(seat_tricks)
            else:  # seating (SPEC §1): a round not sat in is no round of theirs
                for bid, took in zip(seat_bids, seat_tricks):
                    if bid is not None and took is not None:
                        columns[0].append(bid)
                        columns[1].append(took)
        self.waiting_count += count
        if self.waiting_count >= self.waiting_limit:
            self.add_waiting()
        self._add_scores(result, tallies)

    def add_run(self, games: ScoredRun) -> None:
        """Fold the kept games of a checked run in, as :meth:`add` folds each one's result
        (the season lane: every game finished; no result object per game). A player's rounds
        and scores are taken as whole columns wherever games follow at one table."""
        run, standings = games.run, games.standings
        count, size = run.players, run.players * run.rounds
        bids, tricks = standings.made_bids or run.bids, run.tricks  # as scored (the Cloud, §1)
        places, ranks, scores = standings.places, standings.ranks, standings.scores
        players, waiting = self.players, self.waiting
        for table, start, stop in games.segments():
            tallies = []
            for seat, name in enumerate(table):
                tally = players.get(name)
                if tally is None:
                    tally = players[name] = PlayerStats(name)
                tallies.append(tally)
                columns = waiting.get(name)
                if columns is None:
                    columns = waiting[name] = ([], [])
                columns[0].extend(bids[start * size + seat : stop * size : count])
                columns[1].extend(tricks[start * size + seat : stop * size : count])
            seat_scores: list[list[int]] = [[] for _ in table]
            wins = [0] * count
            for place, rank, score in zip(
                places[start:stop], ranks[start:stop], scores[start:stop]
            ):
                for seat, ranked, final in zip(place, rank, score):
                    seat_scores[seat].append(final)
                    if ranked == 1:  # a winner is ranked first (SPEC §1)
                        wins[seat] += 1
            for tally, finals, won in zip(tallies, seat_scores, wins):
                tally.add_games(finals, won)
            self.waiting_count += count * (stop - start)
            if self.waiting_count >= self.waiting_limit:
                self.add_waiting()
        self.games += len(games.kept)
        self.finished += len(games.kept)

    def add_waiting(self) -> None:
        """Add the rounds :meth:`add` holds into the players' figures."""
        players = self.players
        for name, (bids, tricks) in self.waiting.items():
            players[name].add_rounds(bids, tricks)
        self.waiting.clear()
        self.waiting_count = 0

    def _count(self, result: GameResult) -> list[PlayerStats]:
        """Count the game; its players' tallies in seating order (a new player's made now)."""
        self.games += 1
        players = self.players
        tallies = []
        for name in result.players:
            tally = players.get(name)
            if tally is None:
                tally = players[name] = PlayerStats(name)
            tallies.append(tally)
        return tallies

    def _add_scores(self, result: GameResult, tallies: list[PlayerStats]) -> None:
        """A finished game's final scores and wins (a shared first place is a win for each)."""
        if result.finished:
            self.finished += 1
            for standing in result.standings:  # a winner is ranked first (SPEC §1)
                tallies[standing.seat].add_game(standing.score, standing.rank == 1)

    def ranked(self) -> list[PlayerStats]:
        """Players by wins, then average score (highest first; none last), then name."""
        self.add_waiting()
        return sorted(self.players.values(), key=_rank_key)


def _rank_key(stats: PlayerStats) -> tuple:
    """Sort key: most wins, best average (players without a finished game last), name."""
    average = stats.average_score
    return (-stats.wins, average is None, -(average or 0.0), stats.player.casefold(), stats.player)


def season_stats(results: Iterable[GameResult | ScoredRun]) -> Season:
    """Summarise a stream of scored games (and checked runs of them) without keeping any."""
    season = Season()
    fold_in(results, season.add, season.add_run)
    season.add_waiting()
    return season
