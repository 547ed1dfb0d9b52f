"""``wizard convert`` in flat memory: a season is read twice, one sheet at a time, never whole.

The first pass validates every sheet, proves that each one written alone reads back the same
(``formats.check_convertible``) and learns what the output needs (how many sheets, a ``game``
or ``points`` column, what a CSV drops); nothing is written unless every sheet passed, so a
refused conversion writes nothing, not even to standard output. The second pass reads the
sheets again and writes them as they come. Standard input, which cannot be read twice, is kept
in a temporary file for the second pass.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from typing import TextIO

from ..editing.atomic import signals_blocked, signals_unwind
from ..errors import Problem, WizardError
from ..game.model import Sheet, SheetFormat
from ..game.validation import Checked
from ..output.formats import FormulaGuard, formula_like
from ..sheets.csv.notes import DropNotes
from ..sheets.formats import check_convertible, writer
from ..sheets.game_ids import GameIds
from ..sheets.source import STDIN
from ..sheets.writing import Portable, SheetWriter, portable
from .batch import Inputs


@dataclass
class Plan:
    """What the first pass learnt about the sheets."""

    writer: SheetWriter  # told of every sheet: how many, a long CSV's columns
    source: str | None = None
    notes: tuple[str, ...] = ()  # what a CSV cannot carry or changes, a line each
    formula: str | None = None  # the first CSV cell a spreadsheet may run as a formula


class Conversion:
    """One ``convert``: ``with Conversion(…) as conversion`` runs the first pass (raising
    WizardError when some sheet is invalid or would not read back the same); then
    ``conversion.pieces()`` yields the text and :meth:`dropped` says what a CSV drops. ``warn``
    is told, one line, of a name a spreadsheet may run as a formula (the command line: stderr)."""

    def __init__(
        self,
        source: Inputs,
        target: SheetFormat,
        dealer_given: bool,
        warn: Callable[[str], None] | None = None,
    ) -> None:
        self.source, self.target, self.dealer_given = source, target, dealer_given
        self.warn = warn
        self.plan = Plan(writer(target))
        self._stack = ExitStack()

    def __enter__(self) -> Conversion:
        self._stack.enter_context(_readable_twice(self.source))
        try:
            self.plan = _first_pass(self.source, self.target, self.dealer_given)
        except BaseException:
            self._stack.close()
            raise
        # a name or game id that a spreadsheet may run as a formula: one warning (SPEC §8)
        FormulaGuard(self.warn).check([self.plan.formula], self.plan.source)
        return self

    def dropped(self) -> list[str]:
        """What a CSV could not carry, a line each (said on stderr after the output)."""
        return [f"{self.plan.source}: {note}" for note in self.plan.notes]

    def __exit__(self, *exc: object) -> None:
        self._stack.close()

    def pieces(self) -> Iterator[str]:
        """The converted text, a sheet at a time (reading the sheets again)."""
        sheets: Iterator[Portable] = iter(())
        if self.plan.writer.count:
            self.source.notes = False  # said in the first pass
            sheets = _portables(self.source, self.dealer_given)
        yield from self.plan.writer.pieces(sheets)


def _first_pass(source: Inputs, target: SheetFormat, dealer_given: bool) -> Plan:
    """Validate and prove every sheet; learn what the output needs."""
    from ..sheets.csv.long import LongCsvWriter

    plan = Plan(writer(target))
    problems: list[Problem] = []
    notes = DropNotes(target) if target in (SheetFormat.CSV, SheetFormat.WIDE_CSV) else None
    ids = GameIds() if target == SheetFormat.CSV else None  # a long CSV tells its games apart by id
    for checked in source.checked():
        assert isinstance(checked, Checked)  # no lane: every sheet is checked alone
        plan.source = plan.source or checked.source
        if checked.problems:
            problems += checked.problems
            continue
        if problems:  # the output will not be written: only the problems are still wanted
            continue
        sheet = portable(checked, source.rules.layers, dealer_given)
        if ids is not None and sheet.game is not None:
            _one_game_an_id(ids, sheet.game, checked.sheet)
        plan.writer.learn(sheet)
        if target != SheetFormat.WIDE_CSV or plan.writer.count == 1:  # a second: refused below
            check_convertible(sheet, target)
        if notes is not None:
            notes.add(sheet)
            if plan.formula is None:
                texts = (sheet.title, sheet.place, sheet.notes) if ids is not None else ()
                plan.formula = next(
                    (cell for cell in (*sheet.players, sheet.game, *texts) if formula_like(cell)),
                    None,
                )  # (a long CSV has texts)
    if problems:
        raise WizardError(*problems)
    plan.writer.check()  # a wide CSV: one game
    if STDIN in source.paths and isinstance(plan.writer, LongCsvWriter):
        plan.writer.columns.every()  # SPEC §3: from standard input every column is written
    if notes is not None:
        plan.notes = tuple(line for line in (notes.note(), notes.id_note()) if line)
    return plan


def _one_game_an_id(ids: GameIds, game: str | int, sheet: Sheet) -> None:
    """A long CSV has one game for each id (its game column, as text): a second game with the
    id of an earlier one would read back merged into it, so the conversion is refused."""
    text = str(game)
    if text in ids:
        raise WizardError(
            Problem(
                f"game id '{text}' is given to an earlier game too: a CSV would read the two back as "
                "one game; give each game an id of its own (game: …), or convert to yaml or json",
                sheet.source,
                sheet.line,
            )
        )
    ids.add(text)


def _portables(source: Inputs, dealer_given: bool) -> Iterator[Portable]:
    """The sheets of the second pass, ready to write (all valid: the first pass said so)."""
    for checked in source.checked():
        assert isinstance(checked, Checked)  # no lane: every sheet is checked alone
        if checked.problems:  # pragma: no cover - the input changed between the passes
            raise WizardError(*checked.problems)
        yield portable(checked, source.rules.layers, dealer_given)


@contextmanager
def _readable_twice(source: Inputs) -> Iterator[None]:
    """Standard input kept in a temporary file, read from the start by each pass."""
    if STDIN not in source.paths or sys.stdin is None:
        yield
        return
    # SIGTERM and SIGHUP unwind (SPEC §7: no temporary file is left by a signal), and none
    # comes between creating the spool and knowing its name
    with signals_unwind():
        original = sys.stdin
        with signals_blocked():
            spool = tempfile.NamedTemporaryFile(prefix="wizard-stdin-", delete=False)  # noqa: SIM115
        name = spool.name
        try:
            with spool:
                shutil.copyfileobj(original.buffer, spool, 1 << 20)
        except BaseException:
            os.unlink(name)
            raise
        yield from _spooled(name, original)


def _spooled(name: str, original: TextIO) -> Iterator[None]:
    """The conversion, reading standard input from the spool ``name`` at each pass; the spool
    removed at the end, however it ends."""
    opened: list = []

    class _Rewinding:
        """``sys.stdin`` whose ``buffer`` starts the spooled input over at each pass."""

        @property
        def buffer(self):
            handle = open(name, "rb")  # noqa: SIM115 -- closed with the conversion (opened)
            opened.append(handle)
            return handle

    sys.stdin = _Rewinding()
    try:
        yield
    finally:
        sys.stdin = original
        for handle in opened:
            handle.close()
        os.unlink(name)
