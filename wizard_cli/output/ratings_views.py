"""What ``ratings`` shows: the season's table, or ``--history``, one row per player per game."""

from __future__ import annotations

from typing import Any, Iterator

from .season_views import fixed_places

RATING_DECIMALS = 2  # the table's; JSON and CSV carry the numbers as computed (SPEC §5)


class RatingsOutput:
    """``wizard ratings``: rank, player, games, mu, sigma, ordinal — highest ordinal first."""

    columns = ("rank", "player", "games", "mu", "sigma", "ordinal")

    def as_json(self, row: Any) -> dict:
        return {"rank": row.rank, "player": row.player, "games": row.games, "mu": row.mu,
                "sigma": row.sigma, "ordinal": row.ordinal}

    def rows(self, row: Any) -> Iterator[tuple]:
        yield (row.rank, row.player, row.games, row.mu, row.sigma, row.ordinal)

    def text_rows(self, rows: list) -> tuple[list[str], list[list], list[str]]:
        headers = ["Rank", "Player", "Games", "Mu", "Sigma", "Ordinal"]
        cells = [[r.rank, r.player, r.games, *(fixed_places(v, RATING_DECIMALS)
                                               for v in (r.mu, r.sigma, r.ordinal))]
                 for r in rows]
        return headers, cells, ["right", "left", "right", "right", "right", "right"]


def ratings_summary(ratings: Any) -> str:
    """'3 games rated (openskill Plackett–Luce), 1 unfinished left out'."""
    text = f"{ratings.rated} game{'s' if ratings.rated != 1 else ''} rated (openskill Plackett–Luce)"
    if ratings.unfinished:
        text += f", {ratings.unfinished} unfinished left out"
    return text


class HistoryOutput:
    """``wizard ratings --history``: each player's rating after each rated game, as they stream."""

    columns = ("source", "game", "date", "player", "mu", "sigma", "ordinal")

    def as_json(self, row: Any) -> dict:
        return {"source": row.source, "game": row.game, "date": row.date, "player": row.player,
                "mu": row.mu, "sigma": row.sigma, "ordinal": row.ordinal}

    def rows(self, row: Any) -> Iterator[tuple]:
        yield (row.source, row.game, row.date, row.player, row.mu, row.sigma, row.ordinal)

    def text_rows(self, rows: list) -> tuple[list[str], list[list], list[str]]:
        headers = ["Source", "Game", "Date", "Player", "Mu", "Sigma", "Ordinal"]
        cells = [[r.source, "-" if r.game is None else str(r.game), r.date or "-", r.player,
                  *(fixed_places(v, RATING_DECIMALS) for v in (r.mu, r.sigma, r.ordinal))]
                 for r in rows]
        return headers, cells, ["left", "left", "left", "left", "right", "right", "right"]


def emit_history(rows: Iterator[Any], fmt: str, out: Any) -> None:
    """``--history``: JSON, JSON lines and CSV stream row by row; a table is drawn at the end."""
    from .formats import emit_list, grid

    output = HistoryOutput()

    def text(rows: list) -> str | None:
        headers, cells, align = output.text_rows(rows)
        return grid(headers, cells, fmt, align) if cells else None

    emit_list(output, rows, fmt, out, text)
