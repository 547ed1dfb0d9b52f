"""A season's commands (``stats``, ``ratings``, ``plot --ratings``): which games count
(``--since``, ``--until``, ``--player``; SPEC §5), what is said about the others on stderr (the
undated games left out, names that differ only by case or spaces: through the ``say`` the
command line gives), and the streams from the batch through the core to the output. It filters
games, not rows, one game at a time; it prints nothing itself."""

from __future__ import annotations

import dataclasses
import itertools
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TextIO

from ..errors import Problem, WizardError
from ..game.game import Game, GameResult, score_game
from ..game.model import Sheet
from ..game.runs import CheckedRun, ScoredRun
from ..sheets.cells import DATE_FORMS_CSV, parse_date


def player_key(name: str) -> str:
    """How ``--player`` matches a name: case and surrounding spaces aside."""
    return name.strip().casefold()


def _look_alike_key(name: str) -> str:
    """Names equal but for case or spaces (anywhere), which count as different players."""
    return "".join(name.split()).casefold()


def option_date(option: str, text: str | None) -> str | None:
    """``--since``/``--until`` as ISO text; a bad date is one clear line (exit 1, as --set)."""
    if text is None:
        return None
    date = parse_date(text)
    if not isinstance(date, str):
        shown = text.strip() if date is None else date.text
        why = "is empty" if date is None else date.why
        if why is not None and why.startswith("is not a date"):
            why = f"{why}: give {DATE_FORMS_CSV}"
        raise WizardError(Problem(f"{option}: '{shown}' {why}"))
    return date


SHOWN_FILES = 3  # files named in a clause of the unfinished-games note, then "and more"


@dataclass
class Unfinished:
    """The unfinished games a season command leaves out of wins, scores and ratings, for its one
    line on stderr (SPEC §5): their count, and those that stop after a complete round short of
    their configured count grouped by (round, count, roundMode), each group's files in order."""

    games: int = 0  # every game counted, finished or not: "all of the input"
    count: int = 0
    stops: dict[tuple[int, int, str], list] = field(default_factory=dict)  # → [games, files]

    def look(self, item: GameResult | ScoredRun) -> None:
        """Count one item of :func:`season_results` (a run's games are all finished)."""
        if isinstance(item, ScoredRun):
            self.games += len(item.kept)
            return
        self.games += 1
        if item.finished:
            return
        self.count += 1
        game = item.validated
        played = game.rounds_played
        # Only a game between rounds whose hands so far are custom's 1..N can be scored as a
        # shorter custom game (quickPlay deals 1, 3, 5…; a round in play has no count).
        if (
            game.in_play is None
            and played
            and game.hand_sizes[:played] == tuple(range(1, played + 1))
        ):
            stop = self.stops.setdefault(
                (played, game.rounds_total, game.settings.round_mode), [0, []]
            )
            stop[0] += 1
            files = stop[1]
            if item.source not in files and len(files) <= SHOWN_FILES:
                files.append(item.source)  # (one past the shown: "and more" needs no count)

    def note(self) -> str | None:
        """The line, or None when every game counted is finished."""
        if not self.count:
            return None
        clauses = [
            self._clause(played, total, mode, games, files)
            for (played, total, mode), (games, files) in self.stops.items()
        ]
        if sum(games for games, _ in self.stops.values()) == self.count:
            return "note: " + "; ".join(clauses)
        games = "game" if self.count == 1 else "games"
        return "; ".join([f"note: {self.count} unfinished {games} left out", *clauses])

    def _clause(self, played: int, total: int, mode: str, games: int, files: list[str]) -> str:
        """'4 games stop after a complete round 8 of 15 (wholeDeck); if they were 8-round
        games: --set …', naming the files when the games are not all of the input."""
        where = ""
        if games != self.games:
            shown = ", ".join(files[:SHOWN_FILES])
            where = f" in {shown}" + (" and more" if len(files) > SHOWN_FILES else "")
        one = games == 1
        article = "an" if str(played).startswith("8") or played in (11, 18) else "a"
        return (
            f"{games} game{'' if one else 's'}{where} stop{'s' if one else ''} after a "
            f"complete round {played} of {total} ({mode}); if "
            f"{f'it was {article}' if one else 'they were'} {played}-round "
            f"game{'' if one else 's'}: --set roundMode=custom --set customRoundCount={played}"
        )


@dataclass
class GameFilter:
    """The games a season command counts, and what it says about the others."""

    since: str | None = None  # ISO dates, inclusive
    until: str | None = None
    players: list[str] = field(default_factory=list)  # --player names as given
    undated: int = 0  # games left out for want of a date
    seen: set[str] = field(default_factory=set)  # player_key of each --player in a game
    look_alikes: dict[str, str] = field(default_factory=dict)  # _look_alike_key → first name
    names: set[str] = field(default_factory=set)  # every name seen, as written
    say: Callable[[str], None] = lambda line: None  # a warning or note, one line (stderr)
    unfinished: Unfinished | None = None  # counted by season_results when the command leaves
    # unfinished games out (stats, ratings)

    def __post_init__(self) -> None:
        self.wanted = {player_key(name): name for name in self.players}

    def keep(self, sheet: Sheet) -> bool:
        """Whether a (valid) game counts; every game is looked at for names either way."""
        names = self.names
        for name in sheet.players:
            if name not in names:
                self._new_name(name)
        has_wanted = True
        if self.wanted:  # only the --player names are remembered as seen: no set per game
            keys = {player_key(name) for name in sheet.players}
            found = [key for key in self.wanted if key in keys]
            self.seen.update(found)
            has_wanted = len(found) == len(self.wanted)
        if self.since is not None or self.until is not None:
            if sheet.date is None:
                self.undated += 1
                return False
            if (self.since is not None and sheet.date < self.since) or (
                self.until is not None and sheet.date > self.until
            ):
                return False
        return has_wanted

    def keep_run(self, games: ScoredRun) -> ScoredRun | None:
        """The games of a checked run that count (None if none), each looked at for names in
        file order, exactly as :meth:`keep` looks at each one's sheet: a run's games are valid
        and have no date (a file with a date column has no runs)."""
        tables = games.run.tables
        names = self.names
        if not names.issuperset(itertools.chain.from_iterable(tables)):
            for table in tables:
                for name in table:
                    if name not in names:
                        self._new_name(name)
        kept: Sequence[int] = games.kept
        if self.wanted:
            has_wanted: dict[tuple[str, ...], bool] = {}  # per table (a season has few)
            for table in set(tables):
                keys = {player_key(name) for name in table}
                found = [key for key in self.wanted if key in keys]
                self.seen.update(found)
                has_wanted[table] = len(found) == len(self.wanted)
            kept = [index for index in kept if has_wanted[tables[index]]]
        if self.since is not None or self.until is not None:
            self.undated += len(games.kept)
            return None
        if not kept:
            return None
        return games if len(kept) == len(games.kept) else dataclasses.replace(games, kept=kept)

    def _new_name(self, name: str) -> None:
        """Warn, once, when a name differs from an earlier one only by case or spaces."""
        self.names.add(name)
        key = _look_alike_key(name)
        first = self.look_alikes.setdefault(key, name)
        if first != name:
            self.say(
                f"warning: '{first}' and '{name}' differ only by case or spaces: "
                "they count as two players"
            )

    def finish(self) -> None:
        """After the last game: the count of undated games left out; a --player in no game is
        an error (exit 1)."""
        if self.undated:
            games = "game" if self.undated == 1 else "games"
            self.say(f"note: {self.undated} {games} without a date left out (--since/--until)")
        note = self.unfinished.note() if self.unfinished is not None else None
        if note:
            self.say(note)
        missing = [name for key, name in self.wanted.items() if key not in self.seen]
        if missing:
            raise WizardError(
                *(
                    Problem(f"--player '{name.strip()}': no game has this player")
                    for name in missing
                )
            )


def game_filter(
    since: str | None,
    until: str | None,
    players: Iterable[str] | None,
    say: Callable[[str], None] = lambda line: None,
) -> GameFilter:
    """The filter from the command's options, each checked first; what it has to say about the
    games left out goes to ``say``, a line at a time."""
    names = list(players or ())
    for name in names:
        if not name.strip():
            raise WizardError(Problem("--player: an empty name"))
    return GameFilter(option_date("--since", since), option_date("--until", until), names, say=say)


# --- the commands ----------------------------------------------------------------------------


def whole_runs(item: ScoredRun, keep: Callable[[Sheet], bool]) -> Iterator[GameResult | ScoredRun]:
    """A scored run as a season takes it: whole, unless someone sits a round out in it (a
    season's tallies count the rounds sat in, which a run's folds do not tell apart): then its
    parts (:meth:`ScoredRun.parts`: the pieces without a sit-out whole), each game of them
    looked at by ``keep`` as the batch looks at every other game."""
    if not item.run.outs:
        yield item
        return
    for part in item.parts():
        if isinstance(part, ScoredRun):
            yield from whole_runs(part, keep)
        elif keep(part.validated.sheet):
            yield part


def season_results(
    source: Iterable[Game | CheckedRun], games: GameFilter
) -> Iterator[GameResult | ScoredRun]:
    """The games a season command counts, scored: a long CSV's checked runs as one
    :class:`ScoredRun` each (the season lane, no result per game), every other game kept by
    the filter its own result; the filter looks at every valid game in file order either way,
    and counts the unfinished games when it has ``unfinished``."""
    unfinished = games.unfinished
    for game in source:
        if isinstance(game, CheckedRun):
            scored: Iterable[GameResult | ScoredRun] = whole_runs(game.scored(), games.keep)
        elif games.keep(game.sheet):
            scored = (score_game(game),)
        else:
            continue
        for item in scored:
            if isinstance(item, ScoredRun):
                kept = games.keep_run(item)
                if kept is None:
                    continue
                item = kept
            if unfinished is not None:
                unfinished.look(item)
            yield item


def show_stats(
    source: Iterable[Game | CheckedRun],
    games: GameFilter,
    by: str | None,
    fmt: str,
    out: TextIO,
    warn: Callable[[str], None] | None = None,
) -> None:
    """``stats`` (or ``stats --by``) over the games kept, written to ``out`` once all are read
    (``warn``: where a CSV cell's formula warning goes, see output/formats.py)."""
    from ..output.formats import emit

    if by is None:  # (--by counts every completed round, also of unfinished games)
        games.unfinished = Unfinished()
    results = season_results(source, games)
    if by is None:
        from ..library import stats
        from ..output.season_views import StatsOutput, games_line

        season = stats(results).season  # (the library's: a season lane's runs pass as they are)
        games.finish()
        emit(StatsOutput(games_line(season)), season.ranked(), fmt, out, warn=warn)
    else:
        from ..game.breakdown import season_breakdown
        from ..output.season_views import breakdown_output

        breakdown = season_breakdown(results, by)
        games.finish()
        emit(breakdown_output(breakdown), breakdown.rows(), fmt, out, warn=warn)


def show_ratings(
    source: Iterable[Game | CheckedRun],
    games: GameFilter,
    history: bool,
    fmt: str,
    out: TextIO,
    warn: Callable[[str], None] | None = None,
) -> None:
    """``ratings``: the table once all games are rated, or ``--history`` row by row, written to
    ``out`` (``warn`` as for :func:`show_stats`)."""
    from ..game.ratings import rating_history
    from ..output.formats import emit
    from ..output.ratings_views import HistoryOutput, RatingsOutput, ratings_summary

    games.unfinished = Unfinished()
    if history:

        def rows() -> Iterator:
            yield from rating_history(season_results(source, games))
            games.finish()  # (a --player in no game: raised before the first row is written)

        emit(HistoryOutput(), rows(), fmt, out, warn=warn)
        return
    from ..library import ratings

    season = ratings(season_results(source, games)).season
    games.finish()
    emit(RatingsOutput(ratings_summary(season)), season.table(), fmt, out, warn=warn)


def rating_chart(
    source: Iterable[Game | CheckedRun], games: GameFilter, paths: list[str], fmt: str
) -> bytes:
    """``plot --ratings``: the chart of every player's ordinal after each rated game."""
    from ..game.ratings import rating_history
    from ..output import chart as charts

    charts.require_matplotlib()
    history = list(rating_history(season_results(source, games)))
    games.finish()
    if not history:
        raise WizardError(Problem("no finished game to rate: nothing to chart"))
    names = ", ".join(os.path.basename(path) for path in paths[:3])
    return charts.ratings_chart_bytes(
        history, fmt, f"Ratings: {names}" + ("…" if len(paths) > 3 else "")
    )
