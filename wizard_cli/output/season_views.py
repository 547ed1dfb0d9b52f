"""What ``stats`` shows across a season."""

from __future__ import annotations

from typing import Any

from .formats import Field, Listing, fixed, rounded

# --- stats -------------------------------------------------------------------------------

STATS_DECIMALS = {"averageScore": 2, "averageMiss": 2, "bidAccuracy": 4}


def percent(fraction: float | None) -> str:
    """0.7111 → '71.1%', or '-' when undefined."""
    return "-" if fraction is None else f"{100 * fraction:.1f}%"


def _or_dash(value: Any) -> str:
    """A number as text, or '-' when there is none."""
    return "-" if value is None else str(value)


# One player's season figures; averages rounded for output only, null when undefined.
STATS_FIELDS = (
    Field("player", "Player"),
    Field("games", "Games", "right"),
    Field("wins", "Wins", "right"),
    Field(
        "averageScore",
        "Avg score",
        "right",
        "average_score",
        rounded(STATS_DECIMALS["averageScore"]),
        fixed(2),
    ),
    Field("bestScore", "Best", "right", "best_score", cell=_or_dash),
    Field("rounds", "Rounds", "right"),
    Field(
        "bidAccuracy",
        "Bid accuracy",
        "right",
        "bid_accuracy",
        rounded(STATS_DECIMALS["bidAccuracy"]),
        percent,
    ),
    Field(
        "zeroBidsMade",
        "Zero bids",
        "right",
        "zero_bids_made",
        shown=lambda s: f"{s.zero_bids_made}/{s.zero_bids_tried}",
    ),
    Field("zeroBidsTried", None, attr="zero_bids_tried"),  # in the table's Zero bids column
    Field(
        "averageMiss",
        "Avg miss",
        "right",
        "average_miss",
        rounded(STATS_DECIMALS["averageMiss"]),
        fixed(2),
    ),
    Field("overbids", "Over", "right"),
    Field("underbids", "Under", "right"),
)


class StatsOutput(Listing):
    """``wizard stats``: one row (one JSON object) per player, all players in one table under
    how many games there were."""

    empty = None  # no player: the table's headers alone

    def __init__(self, summary: str | None = None) -> None:
        super().__init__(STATS_FIELDS, summary)


def games_line(season: Any) -> str:
    """'3 games, 2 finished'."""
    return f"{season.games} game{'s' if season.games != 1 else ''}, {season.finished} finished"


# --- stats --by ----------------------------------------------------------------------------

BY_LABELS = {"handSize": "Hand size", "position": "Position"}


class BreakdownOutput(Listing):
    """``wizard stats --by handSize|position``: a row per player per group (SPEC §5)."""

    def __init__(self, by: str, summary: str | None = None) -> None:
        self.by = by
        super().__init__(
            [
                Field("player", "Player"),
                Field(by, BY_LABELS[by], "right", "key"),
                Field("rounds", "Rounds", "right"),
                Field("made", "Made", "right"),
                Field(
                    "bidAccuracy",
                    "Bid accuracy",
                    "right",
                    "bid_accuracy",
                    rounded(STATS_DECIMALS["bidAccuracy"]),
                    percent,
                ),
                Field(
                    "averagePoints", "Avg points", "right", "average_points", rounded(2), fixed(2)
                ),
            ],
            summary,
        )


class OpponentOutput(Listing):
    """``wizard stats --by opponent``: head to head, a row per player per opponent (SPEC §5)."""

    def __init__(self, summary: str | None = None) -> None:
        super().__init__(
            [
                Field("player", "Player"),
                Field("opponent", "Opponent"),
                *(
                    Field(key, key.capitalize(), "right")
                    for key in ("games", "ahead", "behind", "level")
                ),
            ],
            summary,
        )


def breakdown_output(breakdown: Any) -> Listing:
    """The view of ``stats --by``'s rows, under the season's games line."""
    if breakdown.by == "opponent":
        return OpponentOutput(games_line(breakdown))
    return BreakdownOutput(breakdown.by, games_line(breakdown))
