"""A round's per-player values in a YAML (or JSON) sheet: a node read as a whole number, and a
``bids``, ``tricks`` or ``points`` value (a list in seating order, or a mapping by name) read into
one column per player, with or without seating (SPEC §3).

Apart from the sheet's reader because this is the one place that says what a value of a YAML
sheet is and where a round's values go; the reader (:mod:`~wizard_cli.sheets.yaml.sheets`) walks the sheet's keys
and hands each per-player value here.
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, TypeGuard

from ...errors import shorten
from ...game.model import BadValue, Sheet, Value
from ...game.settings import suggest
from ..cells import PLAIN_NUMBERS, SHOWN, shown_value, whole_number

if TYPE_CHECKING:
    from .tree import Node


def yaml_number(node: Node | None) -> Value:
    """A YAML value as a whole number: null is None, 2.0 is 2; text or lists are BadValue."""
    if node is None:
        return None
    if node.plain and node.tag is None and node.text in PLAIN_NUMBERS:  # most values, at once
        return PLAIN_NUMBERS[node.text]
    if node.kind != "scalar":
        return BadValue(node.describe())
    if len(node.text) > SHOWN:  # no bid is that long; a 5000-digit one would not even convert
        return whole_number(node.text) if node.plain else BadValue(shown_value(node.text))
    try:
        value = node.value()
    except ValueError as error:
        return BadValue(shorten(node.text, 12), f"cannot be read ({error})")
    if type(value) is int:  # the usual case, tested first
        return value if abs(value) < 10**9 else BadValue(shorten(node.text, 12), "is far too large")
    if value is None:
        return None
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e9:
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return value if abs(value) < 10**9 else BadValue(shorten(node.text, 12), "is far too large")
    if isinstance(value, float) and value.is_integer():
        return BadValue(shown_value(node.text), "is far too large")
    return BadValue(node.text)


_LINE_OF = operator.attrgetter("line")


def present(node: Node | None) -> TypeGuard[Node]:
    """True unless the key is missing or its value is null."""
    return node is not None and not (node.kind == "scalar" and node.plain and node.value() is None)


def per_player(
    node: Node | None, what: str, number: int, line: int | None, sheet: Sheet
) -> tuple[list[Value], list[int | None]]:
    """Values in seating order from a list or a name → value mapping (absent ones are None)."""
    count = len(sheet.players)
    if node is not None and node.kind == "seq" and len(node.items) == count:  # the usual way
        return list(map(yaml_number, node.items)), list(map(_LINE_OF, node.items))
    values: list[Value] = [None] * count
    lines: list[int | None] = [line] * count
    if not present(node):
        return values, lines
    if node.kind == "seq":
        if len(node.items) != count:
            sheet.problem(
                f"{len(node.items)} {what} for {count} players (a list gives one per "
                f"player in seating order; use null for one still to come)",
                node.line,
                number,
            )
        items = node.items[:count]
        values[: len(items)] = map(yaml_number, items)
        lines[: len(items)] = map(_LINE_OF, items)
    elif node.kind == "map":
        seats = {name: seat for seat, name in enumerate(sheet.players)}
        for key, item in node.pairs:
            found = seats.get(key.text) if key.kind == "scalar" else None
            if found is None:
                sheet.problem(
                    f"unknown player {key.describe()}{suggest(key.text, sheet.players)}",
                    key.line,
                    number,
                )
                continue
            values[found], lines[found] = yaml_number(item), item.line
    else:
        sheet.problem(
            f"{what} must be a list or a mapping by name, not {node.describe()}", node.line, number
        )
    return values, lines


def per_seated(
    node: Node | None, what: str, number: int, line: int | None, sheet: Sheet
) -> tuple[list[Value], list[int | None]]:
    """:func:`per_player` for a sheet with seating: a list holds the round's seated players'
    values in seating order, a mapping names seated players; the columns stay a full table
    wide (None where not seated). A value for a player not seated is a problem saying why."""
    count = len(sheet.players)
    seating = sheet.seating
    if seating is None:  # a sheet without seating reads its values by per_player
        return per_player(node, what, number, line, sheet)
    seated = seating.seated(number)
    values: list[Value] = [None] * count
    lines: list[int | None] = [line] * count
    if not present(node):
        return values, lines
    if node.kind == "seq":
        if len(node.items) != len(seated):
            sheet.problem(
                f"{len(node.items)} {what} for {len(seated)} players seated (a list "
                f"gives one per seated player in seating order; use null for one "
                f"still to come)",
                node.line,
                number,
            )
        for seat, item in zip(seated, node.items):
            values[seat], lines[seat] = yaml_number(item), item.line
    elif node.kind == "map":
        seats = {name: seat for seat, name in enumerate(sheet.players)}
        for key, item in node.pairs:
            found = seats.get(key.text) if key.kind == "scalar" else None
            if found is None:
                sheet.problem(
                    f"unknown player {key.describe()}{suggest(key.text, sheet.players)}",
                    key.line,
                    number,
                )
            elif found not in seated:
                sheet.problem(
                    f"a value for a player not seated: {seating.why_not_seated(found, number)}",
                    key.line,
                    number,
                    sheet.players[found],
                )
            else:
                values[found], lines[found] = yaml_number(item), item.line
    else:
        sheet.problem(
            f"{what} must be a list or a mapping by name, not {node.describe()}", node.line, number
        )
    return values, lines
