"""What ``stats`` shows across a season."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator, TextIO

from .formats import emit_list, grid

if TYPE_CHECKING:
    from ..game.stats import PlayerStats, Season

# --- stats -------------------------------------------------------------------------------

STATS_DECIMALS = {"averageScore": 2, "averageMiss": 2, "bidAccuracy": 4}


def stats_json(stats: PlayerStats) -> dict:
    """One player's season figures; averages rounded for output only, null when undefined."""
    data = {"player": stats.player, "games": stats.games, "wins": stats.wins,
            "averageScore": stats.average_score, "bestScore": stats.best_score,
            "rounds": stats.rounds, "bidAccuracy": stats.bid_accuracy,
            "zeroBidsMade": stats.zero_bids_made, "zeroBidsTried": stats.zero_bids_tried,
            "averageMiss": stats.average_miss, "overbids": stats.overbids,
            "underbids": stats.underbids}
    for key, places in STATS_DECIMALS.items():
        if data[key] is not None:
            data[key] = round(data[key], places)
    return data


class StatsOutput:
    """``wizard stats``: one row (one JSON object) per player, all players in one table."""

    columns = ("player", "games", "wins", "averageScore", "bestScore", "rounds", "bidAccuracy",
               "zeroBidsMade", "zeroBidsTried", "averageMiss", "overbids", "underbids")

    def as_json(self, stats: PlayerStats) -> dict:
        return stats_json(stats)

    def rows(self, stats: PlayerStats) -> Iterator[tuple]:
        data = stats_json(stats)
        yield tuple(data[c] for c in self.columns)

    def as_text(self, season: Season, style: str) -> str:
        headers = ["Player", "Games", "Wins", "Avg score", "Best", "Rounds", "Bid accuracy",
                   "Zero bids", "Avg miss", "Over", "Under"]
        rows = [[s.player, s.games, s.wins, fixed_places(s.average_score, 2), _or_dash(s.best_score),
                 s.rounds, _percent(s.bid_accuracy), f"{s.zero_bids_made}/{s.zero_bids_tried}",
                 fixed_places(s.average_miss, 2), s.overbids, s.underbids]
                for s in season.ranked()]
        games = f"{season.games} game{'s' if season.games != 1 else ''}, {season.finished} finished"
        return games + "\n\n" + grid(headers, rows, style, ["left"] + ["right"] * 10)


def emit_stats(season: Season, fmt: str, out: TextIO) -> None:
    """All players in one table; JSON a list of player objects (``jsonl`` one per line)."""
    output = StatsOutput()
    emit_list(output, season.ranked(), fmt, out, lambda players: output.as_text(season, fmt))


def _or_dash(value: Any) -> str:
    """A number as text, or '-' when there is none."""
    return "-" if value is None else str(value)


def fixed_places(value: float | None, places: int) -> str:
    """A figure with a fixed number of decimals, or '-' when undefined."""
    return "-" if value is None else f"{value:.{places}f}"


def _percent(fraction: float | None) -> str:
    """0.7111 → '71.1%', or '-' when undefined."""
    return "-" if fraction is None else f"{100 * fraction:.1f}%"


# --- stats --by ----------------------------------------------------------------------------

BY_LABELS = {"handSize": "Hand size", "position": "Position"}


class BreakdownOutput:
    """``wizard stats --by handSize|position``: a row per player per group (SPEC §5)."""

    def __init__(self, by: str) -> None:
        self.by = by
        self.columns = ("player", by, "rounds", "made", "bidAccuracy", "averagePoints")

    def as_json(self, row: Any) -> dict:
        return {"player": row.player, self.by: row.key, "rounds": row.rounds, "made": row.made,
                "bidAccuracy": round(row.bid_accuracy, STATS_DECIMALS["bidAccuracy"]),
                "averagePoints": round(row.average_points, 2)}

    def rows(self, row: Any) -> Iterator[tuple]:
        yield tuple(self.as_json(row).values())

    def text_rows(self, rows: list) -> tuple[list[str], list[list], list[str]]:
        headers = ["Player", BY_LABELS[self.by], "Rounds", "Made", "Bid accuracy", "Avg points"]
        cells = [[r.player, r.key, r.rounds, r.made, _percent(r.bid_accuracy),
                  fixed_places(r.average_points, 2)] for r in rows]
        return headers, cells, ["left"] + ["right"] * 5


class OpponentOutput:
    """``wizard stats --by opponent``: head to head, a row per player per opponent (SPEC §5)."""

    columns = ("player", "opponent", "games", "ahead", "behind", "level")

    def as_json(self, row: Any) -> dict:
        return {"player": row.player, "opponent": row.opponent, "games": row.games,
                "ahead": row.ahead, "behind": row.behind, "level": row.level}

    def rows(self, row: Any) -> Iterator[tuple]:
        yield (row.player, row.opponent, row.games, row.ahead, row.behind, row.level)

    def text_rows(self, rows: list) -> tuple[list[str], list[list], list[str]]:
        headers = ["Player", "Opponent", "Games", "Ahead", "Behind", "Level"]
        cells = [[r.player, r.opponent, r.games, r.ahead, r.behind, r.level] for r in rows]
        return headers, cells, ["left", "left"] + ["right"] * 4


def emit_rows(output: Any, rows: list, fmt: str, out: TextIO, summary: str) -> None:
    """A season's rows in one table (``summary`` above it), or a JSON list, or CSV rows."""
    def text(rows: list) -> str:
        headers, cells, align = output.text_rows(rows)
        return summary + "\n\n" + (grid(headers, cells, fmt, align) if cells else "(no rows)")

    emit_list(output, rows, fmt, out, text)


def emit_breakdown(breakdown: Any, fmt: str, out: TextIO) -> None:
    """``stats --by``: every row of the grouping."""
    output = OpponentOutput() if breakdown.by == "opponent" else BreakdownOutput(breakdown.by)
    emit_rows(output, breakdown.rows(), fmt, out, games_line(breakdown))


def games_line(season: Any) -> str:
    """'3 games, 2 finished'."""
    return f"{season.games} game{'s' if season.games != 1 else ''}, {season.finished} finished"
