"""Values as other apps' exports hold them (JSON numbers, ISO timestamps, milliseconds), made
into what a sheet holds: a count or a :class:`~wizard_cli.game.model.BadValue`, a calendar date
in UTC, a name. Shared by :mod:`~wizard_cli.sheets.exports.keepwiz` and :mod:`~wizard_cli.sheets.exports.escalier`.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from ...errors import shorten
from ...game.model import BadValue, Value

SHOWN_CHARS = 40  # of a bad value in a message


def shown(value: Any) -> str:
    """A value from an export as a message shows it: JSON text, cut short."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return shorten(text, SHOWN_CHARS)


def count(value: Any) -> Value:
    """A bid, tricks or points value: a whole number (``2.0`` is 2), None for ``null`` or
    absent, else a BadValue that validation reports with the text."""
    if value is None:
        return None
    if isinstance(value, bool):
        return BadValue(shown(value))
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return int(value)
    return BadValue(shown(value))


def utc_date(value: Any) -> str | None:
    """The calendar date in UTC of an ISO timestamp (``2025-12-10T16:37:51.059Z``) or of
    milliseconds since 1970 (a share link's); None if there is none. ValueError for a value
    that is no time."""
    if value is None or value == "":
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            return datetime.fromtimestamp(value / 1000, UTC).date().isoformat()
        except (OverflowError, OSError, ValueError):
            raise ValueError(shown(value)) from None
    if not isinstance(value, str) or len(value) > 64:
        raise ValueError(shown(value))
    try:
        moment = datetime.fromisoformat(value.strip())
    except ValueError:
        raise ValueError(shown(value)) from None
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return moment.date().isoformat()
