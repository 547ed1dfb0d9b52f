"""What the season page is given: the folder's ``stats`` and ``ratings`` rows as table cells,
and where the ratings chart's lines go (the SVG itself is a template)."""

from __future__ import annotations

from typing import Any

from ..errors import shorten
from . import language
from .views import Box, spread_labels


def _(text: str) -> str:
    """Marks a heading for the catalogue (pybabel extract); :func:`_table` translates it."""
    return text


STATS = (
    ("player", _("Player")),
    ("games", _("Games")),
    ("wins", _("Wins")),
    ("averageScore", _("Avg score")),
    ("bestScore", _("Best")),
    ("rounds", _("Rounds")),
    ("bidAccuracy", _("Bid accuracy")),
    ("averageMiss", _("Avg miss")),
)
RATINGS = (
    ("rank", _("Rank")),
    ("player", _("Player")),
    ("games", _("Games")),
    ("mu", "mu"),
    ("sigma", "sigma"),
    ("ordinal", _("Ordinal")),
)


def season_context(data: dict, lines: list[dict]) -> dict[str, Any]:
    """The tables (headings, rows of text cells) and the chart of ordinals per rated game."""
    return {
        "stats": _table(data.get("stats"), STATS),
        "ratings": _table(data.get("ratings"), RATINGS),
        "stats_error": data.get("statsError"),
        "ratings_error": data.get("ratingsError"),
        "chart": rating_chart(lines) if lines else None,
    }


def _table(rows: list | None, columns: tuple) -> dict | None:
    """The rows of a ``-f json`` table as text cells in ``columns``' order (None: no rows)."""
    if not rows:
        return None
    catalogue = language.translations(language.current.get())  # the request's language
    return {
        "headings": [catalogue.gettext(heading) for _key, heading in columns],
        "name_col": [key for key, _heading in columns].index("player"),
        "rows": [[_cell(key, row.get(key)) for key, _heading in columns] for row in rows],
    }


def _cell(key: str, value: object) -> str:
    """A value as the tables print it: 2 decimals, bid accuracy in per cent, none as `–`, in
    the request's language's form (German: `88,00`, `68,4 %`)."""
    if value is None:
        return "–"
    if key == "bidAccuracy" and isinstance(value, (int, float)):
        return language.percent(value, language.current.get())
    if isinstance(value, float):
        return language.decimal(value, language.current.get())
    return str(value)


def rating_chart(lines: list[dict], box: Box = Box()) -> dict:  # noqa: B008 -- frozen
    """Each player's ordinal after each rated game as an SVG polyline, labelled at its end
    (figures in the request's language's form)."""
    code = language.current.get()

    def one(value: float) -> str:
        return language.decimal(value, code, 1)

    values = [ordinal for line in lines for _number, ordinal in line["points"]]
    low, high = min(values + [0.0]), max(values + [0.0])
    if high - low < 1:
        high = low + 1
    games = max(number for line in lines for number, _ordinal in line["points"])
    plot_w = box.width - box.left - box.right
    plot_h = box.height - box.top - box.bottom

    def x(number: float) -> float:
        return round(box.left + plot_w * number / max(games, 1), 1)

    def y(value: float) -> float:
        return round(box.top + plot_h * (high - value) / (high - low), 1)

    drawn = []
    for seat, line in enumerate(lines):
        points = line["points"]
        drawn.append(
            {
                "seat": seat % 6,
                "player": line["player"],
                "points": " ".join(f"{x(n)},{y(v)}" for n, v in points),
                "end_x": x(points[-1][0]),
                "end_y": y(points[-1][1]),
                "label": f"{shorten(line['player'], 10, fit=True)} {one(points[-1][1])}",
            }
        )
    for line, label_y in zip(drawn, spread_labels([line["end_y"] for line in drawn], box)):
        line["label_y"] = label_y
    step = max(1, -(-games // 10))
    return {
        "box": box,
        "lines": drawn,
        "zero": y(0),
        "label_x": x(games) + 6,
        "x_ticks": [{"x": x(n), "label": n} for n in range(0, games + 1, step)],
        "y_ticks": [{"y": y(v), "label": one(v)} for v in sorted({low, 0.0, high})],
        "bottom": box.height - box.bottom,
    }
