"""The columns of a season written as a long CSV (``wizard convert --to csv``, by
:class:`~.csv_long.LongCsvWriter`) and each game's rows: one row per round and player, with a
column for everything some game of it records (SPEC §3 "A long CSV carries its rules", "Special
cards and seating in a CSV"), so it reads back as the same games."""

from __future__ import annotations

import csv
import dataclasses
import io

from ...errors import Problem, WizardError
from ...game.seating import Seating
from ...game.settings import DEFAULTS, value_text
from ..writing import Portable, csv_cell
from .rules import RULE_KEYS
from .seating import off_rotation_dealers, read_back_seating


class LongColumns:
    """``[game,][date,]round,player,bid,tricks[,points][,bomb,cloud][,dealer][,startScore]``
    and a column for each rule (settings off their defaults, title, firstDealer, place, notes)
    that some sheet learnt sets, its value on every row of its game."""

    def __init__(self) -> None:
        self.with_game = self.with_date = self.with_points = False
        self.with_specials = False  # `bomb` and `cloud` columns (SPEC §3)
        self.with_dealer = self.with_start = False
        self.rule_keys: set[str] = set()

    def learn(self, p: Portable) -> None:
        """Note what one sheet the output holds needs of the columns."""
        self.with_specials = self.with_specials or any(
            record.bomb or record.cloud is not None for record in p.rounds
        )
        self.with_game = self.with_game or p.game is not None
        self.with_date = self.with_date or p.date is not None
        self.with_points = self.with_points or p.has_points
        self.rule_keys.update(rules(p))
        if p.seating is not None:
            _refuse_lost_seats(p)
            self.with_start = self.with_start or any(p.seating.start)
            self.with_dealer = self.with_dealer or bool(off_rotation(p))

    def every(self) -> None:
        """Every rule column and ``startScore``, whatever the sheets set (SPEC §3: from standard
        input every column is written); a value at its default is an empty cell, read back
        as not set."""
        self.rule_keys.update(RULE_KEYS)
        self.with_start = True

    @property
    def keys(self) -> list[str]:
        """The rule columns, in the order of SPEC §3 and §2."""
        return [key for key in RULE_KEYS if key in self.rule_keys]

    def header(self) -> str:
        """The header line."""
        return (
            ",".join(
                (["game"] if self.with_game else [])
                + (["date"] if self.with_date else [])
                + ["round", "player", "bid", "tricks"]
                + (["points"] if self.with_points else [])
                + (["bomb", "cloud"] if self.with_specials else [])
                + (["dealer"] if self.with_dealer else [])
                + (["startScore"] if self.with_start else [])
                + self.keys
            )
            + "\n"
        )

    def rows(self, p: Portable) -> str:
        """One game's rows (a game with no rounds cannot be written: it would lose its
        players)."""
        if not p.rounds:
            which = "the sheet" if p.game is None else f"game {p.game}"
            raise WizardError(
                Problem(
                    f"{which} has no rounds yet, and a long CSV names the players only in its rows: "
                    "convert it to yaml, json or wide-csv instead",
                    p.source,
                )
            )
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        game = [] if not self.with_game else ["" if p.game is None else p.game]
        if self.with_date:
            game.append("" if p.date is None else p.date)
        values = rules(p)
        tail = [values.get(key, "") for key in self.keys]
        seating = p.seating
        dealers = off_rotation(p)
        for record in p.rounds:
            number = record.number
            seated = None if seating is None else seating.seated(number)
            dealer = p.players[dealers[number]] if number in dealers else ""
            for seat, name in enumerate(p.players):
                row = game + [number, name]
                if seated is None or seat in seated:
                    row += [
                        csv_cell(record.bids[seat]),
                        csv_cell(record.tricks[seat] if record.tricks else None),
                    ]
                else:  # not seated in the round (SPEC §3)
                    row += ["out", ""]
                if self.with_points:
                    row.append(csv_cell(record.points[seat] if record.points else None))
                if self.with_specials:  # the Bomb on the round's first row, the Cloud on its own
                    row.append("yes" if record.bomb and not seat else "")
                    row.append(
                        f"{record.cloud[1]:+d}"
                        if record.cloud is not None and record.cloud[0] == seat
                        else ""
                    )
                if self.with_dealer:
                    row.append(dealer)
                if self.with_start:
                    row.append((seating.start[seat] or "") if seating is not None else "")
                writer.writerow(row + tail)
        return out.getvalue()


def carried(p: Portable) -> Portable:
    """What a long CSV gives back of a sheet: game ids as text, the settings off their defaults
    (the others are not written), the dealers off the rotation (the others it gives itself)."""
    defaults = DEFAULTS.as_dict()
    seating = p.seating
    if seating is not None:
        seating = dataclasses.replace(seating, dealers=off_rotation(p))
    return dataclasses.replace(
        p,
        game=None if p.game is None else str(p.game),
        title=None if too_long(p.title) else p.title,
        place=None if too_long(p.place) else p.place,
        notes=None if too_long(p.notes) else p.notes,
        settings={key: value for key, value in p.settings.items() if defaults[key] != value},
        seating=seating,
    )


TEXT_MOST = 1 << 17  # csv.field_size_limit()'s default: a longer cell is not read back


def too_long(text: str | None) -> bool:
    """A title, place or notes no CSV cell can carry (it is dropped, with a note)."""
    return text is not None and len(text) > TEXT_MOST


def rules(p: Portable) -> dict[str, str]:
    """A sheet's rule columns' values as written: its metadata, and its settings off their
    defaults (SPEC §3)."""
    values = {
        key: getattr(p, attr)
        for key, attr in (
            ("title", "title"),
            ("firstDealer", "first_dealer"),
            ("place", "place"),
            ("notes", "notes"),
        )
        if getattr(p, attr) is not None and not too_long(getattr(p, attr))
    }
    defaults = DEFAULTS.as_dict()
    values.update(
        (key, value_text(value)) for key, value in p.settings.items() if defaults[key] != value
    )
    return values


def off_rotation(p: Portable) -> dict[int, int]:
    """The recorded dealers (round: seat) that are not the one the rotation gives from the
    dealer before (SPEC §1): only these are written, the CSV's reader gives the others."""
    seating = p.seating
    if seating is None or not seating.dealers:
        return {}
    first = (
        p.players.index(p.first_dealer)
        if p.first_dealer is not None
        else next(iter(seating.seated(1)), 0)
    )
    return off_rotation_dealers(seating, first)


def _refuse_lost_seats(p: Portable) -> None:
    """A long CSV tells joining, leaving and sitting out from ``out`` rows (SPEC §3): a seating
    it would read back otherwise (a ``leaves`` at the last recorded round, an ``out`` in the
    first or last round of a player's) is refused rather than changed."""
    seating = p.seating
    assert seating is not None
    rounds = len(p.rounds)
    back = read_back_seating(seating, rounds) or Seating.plain(len(p.players))
    for seat, name in enumerate(p.players):
        if (seating.joins[seat], seating.leaves[seat]) != (
            back.joins[seat],
            back.leaves[seat],
        ) or any(
            (seat in seating.out.get(n, ())) != (seat in back.out.get(n, ()))
            for n in range(1, rounds + 1)
        ):
            raise WizardError(
                Problem(
                    f"{name}'s seating would read back otherwise from a long CSV, which tells "
                    "joining, leaving and sitting out from 'out' rows (a player who leaves after the "
                    "last recorded round, or sits out a round before their first or after their last "
                    "round seated, cannot be told): convert to yaml or json instead",
                    p.source,
                    seating.entry_lines[seat],
                )
            )
