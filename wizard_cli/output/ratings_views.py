"""What ``ratings`` shows: the season's table, or ``--history``, one row per player per game."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from .formats import Field, Listing, fixed

RATING_DECIMALS = 2  # the table's; JSON and CSV carry the numbers as computed (SPEC §5)

# mu, sigma and the ordinal: as computed in JSON and CSV, to RATING_DECIMALS in the table.
RATING_FIELDS = tuple(
    Field(key, key.capitalize(), "right", cell=fixed(RATING_DECIMALS))
    for key in ("mu", "sigma", "ordinal")
)


class RatingsOutput(Listing):
    """``wizard ratings``: rank, player, games, mu, sigma, ordinal — highest ordinal first."""

    def __init__(self, summary: str | None = None) -> None:
        super().__init__(
            [
                Field("rank", "Rank", "right"),
                Field("player", "Player"),
                Field("games", "Games", "right"),
                *RATING_FIELDS,
            ],
            summary,
        )


def ratings_summary(ratings: Any) -> str:
    """'3 games rated (openskill Plackett–Luce), 1 unfinished left out'."""
    text = (
        f"{ratings.rated} game{'s' if ratings.rated != 1 else ''} rated (openskill Plackett–Luce)"
    )
    if ratings.unfinished:
        text += f", {ratings.unfinished} unfinished left out"
    return text


class HistoryOutput(Listing):
    """``wizard ratings --history``: each player's rating after each rated game, as they stream
    (in a table: drawn at the end; nothing when no game was rated)."""

    def __init__(self) -> None:
        super().__init__(
            [
                Field("source", "Source"),
                Field("game", "Game", cell=lambda game: "-" if game is None else str(game)),
                Field("date", "Date", cell=lambda date: date or "-"),
                Field("player", "Player"),
                *RATING_FIELDS,
            ]
        )

    def text_lines(self, rows: Sequence[Any], style: str) -> Iterator[str]:
        return super().text_lines(rows, style) if rows else iter(())

    def as_text(self, rows: list, style: str) -> str | None:
        return super().as_text(rows, style) if rows else None
