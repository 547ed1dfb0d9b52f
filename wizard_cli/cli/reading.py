"""The sheets of the reading commands (score, standings, check, next, stats, ratings, plot,
compare), read through the library (SPEC §10, issue 30): it hands back games, whole runs and
the problems of invalid sheets as data; here each invalid sheet's problems and each note of
what a source skipped go to stderr as they come, between the output's items, and a failure is
remembered for the exit status (1)."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterable, Iterator
from itertools import islice
from typing import TYPE_CHECKING, Literal, overload

from ..app.batch import RuleOptions, sheet_rules, typed_points_note
from ..errors import Problem, WizardError
from .console import flush_output, report

if TYPE_CHECKING:
    from ..game.compare import Comparison, RuleSet
    from ..game.game import Game, GameResult
    from ..game.runs import CheckedRun, ScoredRun
    from ..game.validation import Checked
    from ..library import Problems


class Reading:
    """A command's sheets: its inputs checked up front (usage errors exit 2, bad settings
    exit 1, before any output), then read one at a time when its items are asked for."""

    def __init__(self, paths: list[str], rules: RuleOptions) -> None:
        self.paths = paths
        self.rules = sheet_rules(paths, rules)
        self.input_format = rules.input_format
        self.failed = False

    @overload
    def items(self, runs: Literal[False] = False) -> Iterator[Game | Problems]: ...
    @overload
    def items(self, runs: bool) -> Iterator[Game | Problems | CheckedRun]: ...
    def items(self, runs: bool = False) -> Iterator[Game | Problems | CheckedRun]:
        """Every sheet of every path, in order, as the library reads it (what a source skips
        said on stderr; standard output sent out before a source waits on standard input).
        Each path is given to the library once the one before it is read (memory stays flat
        in the number of paths, SPEC §4): a file gone or unreadable since the command checked
        its inputs is a problem of that file, and the others are still read."""
        from .. import library

        rules = self.rules
        for path in self.paths:
            try:
                games = library.read(
                    path,
                    first_dealer=rules.first_dealer,
                    input_format=self.input_format,
                    encoding=rules.encoding,
                    layers=rules.layers,
                    runs=runs,
                    notes=_say,
                    waiting=flush_output,
                )
            except WizardError as error:  # (the rules were checked: only the path can fail)
                yield library.Problems(path, None, [_unreadable(path, error)])
                continue
            yield from games

    def fail(self, problems: Iterable[Problem]) -> None:
        """Say problems on stderr; the command will exit 1."""
        self.failed = True
        report(problems)

    @overload
    def games(self, runs: Literal[False] = False) -> Iterator[Game]: ...
    @overload
    def games(self, runs: bool) -> Iterator[Game | CheckedRun]: ...
    def games(self, runs: bool = False) -> Iterator[Game | CheckedRun]:
        """The valid games (and whole runs), each invalid sheet's problems said."""
        from ..library import Problems

        for item in self.items(runs):
            if isinstance(item, Problems):
                self.fail(item.found)
            else:
                yield item

    def scored(self, runs: bool = False) -> Iterator[GameResult | ScoredRun]:
        """Every valid game scored (``standings``, ``next``); a whole run scored at once."""
        from ..game.runs import CheckedRun
        from ..library import score

        for game in self.games(runs):
            yield game.scored() if isinstance(game, CheckedRun) else score(game)

    def scored_noting_points(self, runs: bool = False) -> Iterator[GameResult | ScoredRun]:
        """:meth:`scored`, a game whose typed ``points`` disagree with the derived ones noted
        in one line (``score``)."""
        from ..game.runs import ScoredRun

        for result in self.scored(runs):
            if not isinstance(result, ScoredRun):
                note = typed_points_note(result)
                if note is not None:
                    report([note])
            yield result

    def audited(self, runs: bool = False) -> Iterator[Checked | Problems | CheckedRun]:
        """Every sheet, a valid one's typed ``points`` audited too (``check``): an invalid
        one's problems are said, and it is still yielded (it prints its count)."""
        from ..game.runs import CheckedRun
        from ..game.validation import Checked, audit_points
        from ..library import Problems, score

        for item in self.items(runs):
            if isinstance(item, CheckedRun):  # (a run has no typed points)
                yield item
                continue
            if not isinstance(item, Problems):
                audit = audit_points(score(item))
                if not audit:
                    yield Checked(item.sheet, item.settings, item.first_dealer, [], item)
                    continue
                item = Problems(item.source, item.game, audit)
            self.fail(item.found)
            yield item

    def compared(self, rule_sets: list[RuleSet], warn: bool) -> Iterator[Comparison]:
        """Every valid game under each rule set (``compare``); a game a rule set cannot apply
        to is said and left out. ``warn``: each warning said too."""
        from ..library import compare

        for game in self.games():
            try:
                comparison = compare(game, rule_sets[1:], layers=self.rules.layers)
            except WizardError as error:
                self.fail(error.problems)
                continue
            if warn:
                report(warning.problem() for warning in comparison.warnings)
            yield comparison

    def one_game(self, command: str) -> GameResult:
        """The one game of a single-game command (``plot``), scored; raises for a season or an
        invalid sheet."""
        from ..library import Problems, score

        items = list(islice(self.items(), 2))
        if not items:  # (every reader says what it found instead of a game: never reached)
            raise WizardError(Problem(f"no game in it: {command} draws one game", self.paths[0]))
        if len(items) > 1:
            raise WizardError(
                Problem(
                    f"holds several games; {command} draws one game (split the "
                    "season, e.g. with wizard convert)",
                    items[0].source,
                )
            )
        item = items[0]
        if isinstance(item, Problems):
            raise WizardError(*item.found)
        return score(item)


def _say(note: Problem) -> None:
    """A note of what a source skipped, on stderr."""
    report([note])


def _unreadable(path: str, error: WizardError) -> Problem:
    """A path the command checked that can no longer be read (deleted, moved or changed
    meanwhile), located at it in the reader's words (``cannot read: No such file or
    directory``), not in the usage error's, which names the path again."""
    try:
        os.stat(path)
    except OSError as gone:
        return Problem(f"cannot read: {gone.strerror or gone}", path)
    return dataclasses.replace(error.problems[0], path=path)
