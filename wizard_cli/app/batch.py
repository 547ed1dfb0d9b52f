"""The application layer: a batch of sources read and validated one sheet at a time.

The library's ``read`` (SPEC §10) is built on it, and so the reading commands, which read
through the library (cli/reading.py); the editing commands, ``convert``, ``serve`` and a game
night's folder use it as it is. A sheet that cannot be read is one invalid sheet; the batch
goes on. A batch prints nothing itself: whoever makes it says where the problems it reports
and its notes go (the library hands them back as data; a game night's folder drops them).
The checks a command makes of its inputs before any output are here too (:func:`sheet_rules`):
usage problems are raised as :class:`~wizard_cli.errors.UsageError`, which the CLI edge turns
into Click's usage errors (exit 2).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, overload

from ..errors import Problem, UsageError, WizardError, game_label, visible
from ..game.game import Game, GameResult
from ..game.model import GameRun, Sheet
from ..game.runs import CheckedRun, checked_runs
from ..game.settings import DEFAULTS as DEFAULT_SETTINGS
from ..game.settings import RawSetting, command_line_settings, resolve
from ..game.validation import Checked, audit_points, check_sheet
from ..sheets.formats import read_sheets
from ..sheets.settings_files import read_presets_file, read_settings_file
from ..sheets.source import STDIN, display_name

if TYPE_CHECKING:
    from ..game.compare import Preset


@dataclass(frozen=True)
class RuleOptions:
    """The options every sheet command shares: rules given outside the sheet, how to read it."""

    assignments: list[str] | None = None  # --set KEY=VALUE…
    settings_file: str | None = None  # --settings FILE
    zero_bid: str | None = None
    first_dealer: str | None = None
    input_format: str | None = None  # yaml or csv
    encoding: str | None = None


@dataclass(frozen=True)
class SheetRules:
    """What is given outside a sheet for reading it, once for every sheet a command reads or
    changes: the settings layered over the sheet's own (``--settings``, then ``--set`` and
    ``--zero-bid``, each layer checked), who dealt round 1 (``--first-dealer``, else the
    sheet's), and the text encoding (``--encoding``; None: UTF-8, with or without a BOM)."""

    layers: Sequence[Sequence[RawSetting]] = ()
    first_dealer: str | None = None
    encoding: str | None = None


def unsaid(problems: Iterable[Problem]) -> None:
    """Problems said nowhere (a batch made without a ``report``: its caller reads them as data)."""


def no_wait() -> None:
    """Nothing to send out before a source waits for input."""


@dataclass
class Inputs:
    """Where the sheets come from and the rules given outside them, read once for all sheets.

    ``report`` is told the problems of every sheet that fails and every note of what a source
    skipped, in order; ``waiting`` is called before a source waits for input (standard input),
    so that output held back reaches a pipeline first. The command line gives stderr and its
    stdout's flush; by default nothing is said."""

    paths: list[str]
    rules: SheetRules = SheetRules()
    input_format: str | None = None
    failed: bool = False
    notes: bool = True  # what a source skips is reported (not again when read a second time)
    report: Callable[[Iterable[Problem]], None] = unsaid
    waiting: Callable[[], None] = no_wait
    follow_links: bool = True  # False (serve DIR): a symbolic link at a path is refused, unread

    @overload
    def checked(self, runs: Literal[False] = False) -> Iterator[Checked]: ...
    @overload
    def checked(self, runs: bool) -> Iterator[Checked | CheckedRun]: ...
    def checked(self, runs: bool = False) -> Iterator[Checked | CheckedRun]:
        """Every sheet of every source, validated; a source that cannot be read is one failure.

        With ``runs`` (the season lane), whole runs of finished valid games of a long CSV come
        as one :class:`~wizard_cli.game.runs.CheckedRun` each, where they can (a run whose
        games are not all so comes as its parts: game/runs.py's ``run_parts``)."""
        layers, first_dealer = self.rules.layers, self.rules.first_dealer
        for path in self.paths:
            try:
                for sheet in read_sheets(
                    path,
                    self.input_format,
                    self.rules.encoding,
                    self._note if self.notes else None,
                    self.waiting,
                    runs=runs,
                    follow=self.follow_links,
                ):
                    if isinstance(sheet, GameRun):
                        yield from checked_runs(sheet, layers, first_dealer)
                    else:
                        yield check_sheet(sheet, layers, first_dealer)
            except WizardError as error:
                where = error.problems[0].path or path
                if where.startswith(f"{path}["):  # a workbook's worksheet: the source is PATH
                    where = path
                yield Checked(Sheet(source=where), DEFAULT_SETTINGS, 0, error.problems)

    def games(self, runs: bool = False) -> Iterator[Game | CheckedRun]:
        """Every valid sheet's game (with ``runs``, a checked run whole, see :meth:`checked`);
        the problems of the others are reported (and set ``failed``)."""
        for checked in self.checked(runs):
            if isinstance(checked, CheckedRun):
                yield checked
            elif checked.valid:
                yield _game(checked)
            else:
                self.fail(checked.problems)

    def fail(self, problems: Iterable[Problem]) -> None:
        """Report problems; the command will exit 1."""
        self.failed = True
        self.report(problems)

    def _note(self, problem: Problem) -> None:
        """Something a source skipped (not a failure): reported as a problem is."""
        self.report([problem])


def typed_points_note(result: GameResult) -> Problem | None:
    """The one line said of a sheet whose typed ``points`` disagree with those derived from
    bids and tricks, pointing to ``wizard check`` (``score`` shows the derived points, issue
    18); None when they agree or none are typed."""
    if result.validated.sheet.rounds.has_points is None:
        return None
    wrong = audit_points(result)
    if not wrong:
        return None
    cells = f"{len(wrong)} cell{'s' if len(wrong) > 1 else ''}"
    return Problem(
        f"typed points disagree with those derived from bids and tricks in {cells} (the table "
        f"shows the derived ones): wizard check {result.source} lists them",
        game_label(result.source, result.game),
    )


def _game(checked: Checked) -> Game:
    """The game of a valid sheet: check_sheet makes one whenever it finds no problem."""
    assert checked.validated is not None
    return checked.validated


def existing_files(paths: Iterable[str], param_hint: str = "SHEET") -> None:
    """A missing or unreadable input file is a usage error (exit 2), found before any output.
    The path is shown as a terminal may show it (an escape in a name shows as ``\\x1b``)."""
    for path in paths:
        if path == STDIN:
            continue
        shown = visible(path)
        try:
            mode = os.stat(path).st_mode
        except PermissionError:  # a folder on the way that may not be entered (mode 000)
            raise UsageError(
                f"cannot read: {shown} (permission denied)", param_hint=param_hint
            ) from None
        except (FileNotFoundError, NotADirectoryError):
            raise UsageError(f"no such file: {shown}", param_hint=param_hint) from None
        except (OSError, ValueError) as error:
            raise UsageError(
                f"cannot read: {shown} ({getattr(error, 'strerror', None) or error})",
                param_hint=param_hint,
            ) from None
        if not stat.S_ISREG(mode):
            hint = ""
            if stat.S_ISDIR(mode) and param_hint == "SHEET":  # the shell's glob says which sheets
                hint = f" (a folder: name its sheets, such as {shown.rstrip('/')}/*.yaml)"
            raise UsageError(f"not a file: {shown}{hint}", param_hint=param_hint)
        if not os.access(path, os.R_OK):
            raise UsageError(f"cannot read: {shown} (permission denied)", param_hint=param_hint)


def rule_layers(rules: RuleOptions) -> list[list[RawSetting]]:
    """``--settings`` then ``--set``/``--zero-bid``, each checked once for type and range."""
    layers: list[list[RawSetting]] = []
    if rules.settings_file is not None:
        existing_files([rules.settings_file], "--settings")
        layers.append(read_settings_file(rules.settings_file))
    layers.append(command_line_settings(rules.assignments, rules.zero_bid))
    problems = resolve(layers, None).problems
    if problems:
        raise WizardError(*problems)
    return layers


def sheet_rules(paths: list[str], rules: RuleOptions) -> SheetRules:
    """Check a command's inputs up front, before any output: usage errors (a missing file, an
    unknown encoding) exit 2, bad settings exit 1; the rules given outside the sheets."""
    from ..sheets.source import text_encoding

    existing_files(paths)
    if rules.encoding is not None:
        try:
            text_encoding(rules.encoding)
        except LookupError as error:  # unknown, or no text encoding (rot13, hex)
            raise UsageError(str(error), param_hint="--encoding") from None
    return SheetRules(rule_layers(rules), rules.first_dealer, rules.encoding)


def inputs(
    paths: list[str],
    rules: RuleOptions,
    report: Callable[[Iterable[Problem]], None] = unsaid,
    waiting: Callable[[], None] = no_wait,
) -> Inputs:
    """Check the command's inputs up front (:func:`sheet_rules`). The batch says its problems
    and notes through ``report`` (see :class:`Inputs`)."""
    return Inputs(
        paths, sheet_rules(paths, rules), rules.input_format, report=report, waiting=waiting
    )


def load_presets(path: str | None) -> list[Preset]:
    """The user's presets from ``--presets FILE`` (missing file: exit 2; bad content: exit 1)."""
    from ..game.compare import user_presets  # compare's rule sets only for compare and rules

    if path is None:
        return []
    existing_files([path], "--presets")
    problems: list[Problem] = []
    entries = read_presets_file(path, problems)
    return user_presets(entries, display_name(path), problems)
