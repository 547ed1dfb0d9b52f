"""The charts of ``wizard plot``: a game's running totals, or a season's rating ordinals
(``--ratings``), as PNG or SVG bytes.

matplotlib is the optional extra ``plot``: it is imported only here, only when a chart is drawn,
and drawn on a bare ``Figure`` with the Agg canvas (no pyplot, no GUI, no global backend switch).
Labels are shortened on the chart only (the data is unchanged). Writing the file is the
caller's (an atomic write, like every other).
"""

from __future__ import annotations

import io
import os
import warnings
from collections.abc import Callable, Iterable
from typing import Any

from ..errors import WizardError, game_label, shorten
from ..game.game import GameResult

IMAGE_FORMATS = {".png": "png", ".svg": "svg"}
MISSING_MATPLOTLIB = (
    "wizard plot needs matplotlib, the plot extra: pip install '.[plot]' in the wizard checkout"
)
FIGURE_SIZE = (8.0, 4.8)  # inches
DPI = 120
# Labels longer than this are shortened on the chart (the data is unchanged): a megabyte of a
# name would take matplotlib minutes to lay out and gigabytes to draw.
LABEL_WIDTH = 40
TITLE_WIDTH = 80


def label(text: str, width: int = LABEL_WIDTH) -> str:
    """Text as the chart shows it: at most ``width`` characters, the cut marked "…" within
    them."""
    return shorten(text, width, fit=True)


def image_format(path: str) -> str | None:
    """``png`` or ``svg`` from the file's extension (any case); None for anything else."""
    return IMAGE_FORMATS.get(os.path.splitext(path)[1].lower())


def require_matplotlib() -> Any:
    """matplotlib; or, when the ``plot`` extra is not installed, the one-line error (the one
    place that says so: commands call this first, to fail before reading a season)."""
    try:
        import matplotlib
    except ImportError:
        raise WizardError(MISSING_MATPLOTLIB) from None
    return matplotlib


def chart_title(result: GameResult) -> str:
    """The sheet's title, else its file name; a game of a season says which."""
    return game_label(
        label(result.title or os.path.basename(result.source), TITLE_WIDTH),
        None if result.game is None else label(str(result.game)),
    )


def running_totals(result: GameResult) -> tuple[list[int], list[list[int]]]:
    """Rounds 0..N (0 = before the first deal) and each player's running total after each.

    Only completed rounds count; the round in play has no totals yet.
    """
    done = result.rounds[: result.rounds_played]
    rounds = [0] + [r.number for r in done]
    done_totals = [r.totals for r in done if r.totals is not None]  # all of them: rounds played
    totals = [[0] + [t[seat] for t in done_totals] for seat in range(len(result.players))]
    return rounds, totals


def line_chart(
    series: Iterable[tuple[list, list]],
    names: Iterable[str],
    title: str,
    subtitle: str,
    y_label: str,
    x_axis: Callable[[Any], None],
) -> Any:
    """The figure both charts are: one labelled line per player (``series``: each one's x and
    y values, ``names``: their legend, in that order), a zero line, a light grid, the title
    over the subtitle, the legend right of the axes; ``x_axis`` sets the x axis up."""
    require_matplotlib()
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=FIGURE_SIZE, dpi=DPI)
    FigureCanvasAgg(figure)
    axes = figure.subplots()
    from cycler import cycler

    from .palette import LINE_STYLES, PALETTE

    # The page's colours (SPEC §9): player n has PALETTE[n] on the chart and on the screen.
    axes.set_prop_cycle(cycler(linestyle=LINE_STYLES) * cycler(color=PALETTE))
    axes.axhline(0, color="0.55", linewidth=0.9, zorder=1)
    lines = [
        axes.plot(xs, ys, marker="o", markersize=3.5, linewidth=1.8, zorder=2)[0]
        for xs, ys in series
    ]
    x_axis(axes)
    axes.set_ylabel(y_label)
    axes.grid(True, color="0.9", linewidth=0.6)
    axes.set_axisbelow(True)
    figure.suptitle(title, fontsize=13)
    if subtitle:
        axes.set_title(label(subtitle, TITLE_WIDTH), fontsize=9, color="0.35")
    # Labels passed explicitly: matplotlib would hide a name starting with "_".
    axes.legend(
        lines,
        [label(name) for name in names],
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
        frameon=False,
    )
    figure.tight_layout()
    return figure


def integer_axis(axes: Any, text: str) -> None:
    """Whole numbers along the x axis, under ``text``."""
    from matplotlib.ticker import MaxNLocator

    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_xlabel(text)


def draw_chart(result: GameResult, subtitle: str = "") -> Any:
    """A matplotlib Figure of the running totals: one labelled line per player, a zero line."""
    rounds, totals = running_totals(result)

    def x_axis(axes: Any) -> None:
        axes.set_xlim(0, max(result.rounds_total, 1))  # the whole game, also while it is played
        integer_axis(axes, "Round")

    return line_chart(
        [(rounds, line) for line in totals],
        result.players,
        chart_title(result),
        subtitle,
        "Running total",
        x_axis,
    )


def chart_bytes(result: GameResult, fmt: str, subtitle: str = "") -> bytes:
    """The chart as PNG or SVG bytes, the same bytes for the same game."""
    return _image_bytes(lambda: draw_chart(result, subtitle), fmt)


def _image_bytes(draw: Callable[[], Any], fmt: str) -> bytes:
    """A figure drawn by ``draw`` as PNG or SVG bytes, the same bytes for the same figure."""
    matplotlib = require_matplotlib()
    # Text stays text in SVG (names searchable, files small); fixed ids and no timestamp make
    # output repeatable; names and titles are shown as written ("$5 game" is no formula).
    rc = {"svg.fonttype": "none", "svg.hashsalt": "wizard-cli", "text.parse_math": False}
    with matplotlib.rc_context(rc), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # e.g. a glyph missing from the font: draw on, quietly
        figure = draw()
        buffer = io.BytesIO()
        metadata = {"Date": None} if fmt == "svg" else {"Software": None}
        figure.savefig(buffer, format=fmt, metadata=metadata)
    return buffer.getvalue()


# --- wizard plot --ratings -------------------------------------------------------------------


def rating_lines(history: Iterable[Any]) -> tuple[int, dict[str, tuple[list[int], list[float]]]]:
    """From ``ratings --history`` rows: the number of rated games, and per player the rated
    games played (numbered from 1) and the ordinal after each."""
    games, lines, _ = rating_series(history)
    return games, lines


def rating_series(
    history: Iterable[Any],
) -> tuple[int, dict[str, tuple[list[int], list[float]]], dict[int, str | None]]:
    """:func:`rating_lines`, and each rated game's date (None where a game has none)."""
    lines: dict[str, tuple[list[int], list[float]]] = {}
    dates: dict[int, str | None] = {}
    games = 0
    for row in history:
        games = max(games, row.rated)
        dates[row.rated] = row.date
        numbers, ordinals = lines.setdefault(row.player, ([], []))
        numbers.append(row.rated)
        ordinals.append(row.ordinal)
    return games, lines, dates


DATE_TICKS = 12  # at most this many dates under the axis (every n-th game's beyond that)


def _date_axis(axes: Any, games: int, dates: dict[int, str | None]) -> bool:
    """Label the rated games with their dates when every one has a date; whether it did."""
    if not dates or any(date is None for date in dates.values()):
        return False
    step = -(-games // DATE_TICKS)
    shown = list(range(1, games + 1, step))
    axes.set_xticks(
        shown, [str(dates[number]) for number in shown], rotation=30, ha="right", fontsize=8
    )
    axes.set_xlabel("Game date")
    return True


def draw_ratings_chart(history: Iterable[Any], title: str) -> Any:
    """Each player's ordinal after each rated game they played: one labelled line each,
    the legend by final ordinal, highest first."""
    games, lines, dates = rating_series(history)
    order = sorted(lines, key=lambda name: (-lines[name][1][-1], name.casefold(), name))

    def x_axis(axes: Any) -> None:
        axes.set_xlim(0.5, max(games, 1) + 0.5)
        if not _date_axis(axes, games, dates):
            integer_axis(axes, "Rated game")

    return line_chart(
        [lines[name] for name in order],
        order,
        label(title, TITLE_WIDTH),
        "openskill Plackett–Luce, after each finished game",
        "Ordinal (mu − 3·sigma)",
        x_axis,
    )


def ratings_chart_bytes(history: Iterable[Any], fmt: str, title: str) -> bytes:
    """The ratings chart as PNG or SVG bytes."""
    return _image_bytes(lambda: draw_ratings_chart(history, title), fmt)
