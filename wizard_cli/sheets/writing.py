"""What every sheet writer shares (``wizard convert``): a validated sheet as a file carries it
(:class:`Portable`), its values as written, and :class:`SheetWriter`, the one shape of a
format's writer. Each format's writer sits beside its reader (``yaml.sheets``: YAML and JSON,
``csv.long``, ``csv.wide``), registered in :mod:`.formats`, which also proves that what was
written reads back the same.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeGuard

from ..errors import Problem, WizardError
from ..game.model import BadValue, RoundRecord, Value
from ..game.seating import Seating
from ..game.settings import DEFAULTS, SPECS, Settings, resolve
from ..game.validation import Checked


@dataclass(frozen=True, slots=True)
class Portable:
    """A validated sheet as a file carries it: what was written, with the rules made explicit.

    ``settings`` holds every key set anywhere (the sheet, ``--settings``, ``--set``) with its
    effective value, so the written sheet scores the same without any option.
    """

    source: str
    game: str | int | None
    title: str | None
    players: tuple[str, ...]
    first_dealer: str | None
    settings: dict[str, Any]
    rounds: tuple[RoundRecord, ...]
    effective: Settings = DEFAULTS
    date: str | None = None  # ISO text
    place: str | None = None
    notes: str | None = None
    seating: Seating | None = None  # who sits when (SPEC §1), as the sheet records it

    @property
    def has_points(self) -> bool:
        """Some round carries the user's own typed points."""
        return any(has_values(r.points) for r in self.rounds)


def portable(
    checked: Checked, layers: Sequence[Iterable] = (), dealer_given: bool = False
) -> Portable:
    """A checked (valid) sheet with its effective rules, ready to be written in any format."""
    sheet = checked.sheet
    keys = resolve([sheet.settings, *layers], len(sheet.players)).sources
    effective = checked.settings.as_dict()
    settings = {spec.key: effective[spec.key] for spec in SPECS if spec.key in keys}
    named_dealer = sheet.first_dealer is not None or dealer_given
    return Portable(
        sheet.source,
        sheet.game,
        sheet.title,
        tuple(sheet.players),
        sheet.players[checked.first_dealer] if named_dealer else None,
        settings,
        tuple(sheet.rounds),
        checked.settings,
        sheet.date,
        sheet.place,
        sheet.notes,
        sheet.seating,
    )


def has_values(values: Sequence[Value] | None) -> TypeGuard[Sequence[Value]]:
    """A per-player list with at least one value in it."""
    return values is not None and any(v is not None for v in values)


def cell_value(value: Value) -> Any:
    """A bid/tricks/points value as written: an int, None, or a bad value's text as typed."""
    return value.text if isinstance(value, BadValue) else value


def csv_cell(value: Value) -> Any:
    """A CSV cell: empty for a value not there."""
    value = cell_value(value)
    return "" if value is None else value


class SheetWriter:
    """How a format writes sheets, whole or a sheet at a time (a season streams through
    ``convert``, never held whole): :meth:`learn` is told of every sheet first (what the output
    needs before its first line: how many sheets, a long CSV's columns), :meth:`check` refuses
    what the format cannot hold together, then :meth:`pieces` gives the text a sheet at a time.
    :meth:`text` is the three at once, for sheets in hand."""

    carries_rules = True  # the settings, title, first dealer, place and notes read back
    carries_seating = False  # joins, leaves, startScore, a round's out and dealer (SPEC §1)

    def __init__(self) -> None:
        self.count = 0
        self.source: str | None = None  # the first sheet's source, for a refusal

    def learn(self, p: Portable) -> None:
        """Note one sheet the output will hold."""
        self.count += 1
        if self.source is None:
            self.source = p.source
        if p.seating is not None and not self.carries_seating:  # never a silently lost seat
            raise WizardError(
                Problem(
                    "seating (joins, leaves, startScore, out, dealer) is not yet "
                    "written to a CSV: convert to yaml or json instead",
                    p.source,
                )
            )

    def check(self) -> None:
        """Refuse sheets the format cannot hold together (raises WizardError); all can, here."""

    def pieces(self, sheets: Iterable[Portable]) -> Iterator[str]:
        """The text of the sheets learnt, a sheet at a time."""
        raise NotImplementedError

    def carried(self, p: Portable) -> Portable:
        """The sheet as the format carries it: what a reader gets back."""
        return p

    def text(self, sheets: Sequence[Portable]) -> str:
        """The whole text of the sheets."""
        return "".join(self.stream(sheets))

    def stream(self, sheets: Sequence[Portable]) -> Iterator[str]:
        """The text of sheets in hand, learnt first, as it is made (a piece at a time)."""
        for p in sheets:
            self.learn(p)
        self.check()
        return self.pieces(sheets)
