"""The result to share (SPEC §9 "Share the result"): ``/game.md`` and ``/game.csv`` are what
``wizard score -f markdown|csv`` print for the game served, from the same output code (no second
renderer); ``/game.svg`` lays the grid, the standings and the chart out as one image.

Every figure comes from :mod:`views` (the page's own context); this module only places it. The
SVG's text is escaped by the template environment (autoescape, and control characters escaped,
SPEC §8), and its colours are presentation attributes, not a ``<style>``: the image is served
under ``default-src 'self'``, which forbids inline styles, and must look the same when saved.
"""

from __future__ import annotations

import io
import re
import unicodedata

from ..game.game import GameResult
from ..output.formats import emit
from ..output.game_views import ScoreOutput

# The palette of wizard.css (light), one colour a seat: colour-blind safe (Okabe–Ito).
PALETTE = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#8a6d00", "#56b4e9")
ROW = 20  # the height of a line of text in the image
ROUND_W = 60  # the Round column's width
CELL_W = 130  # a player's column's width
MARGIN = 16


def score_text(result: GameResult, fmt: str) -> str:
    """What ``wizard score -f FMT`` prints for this game, with no terminal to fit it to (a
    formula-like CSV cell is guarded as there; the warning is the command line's, not said)."""
    out = io.StringIO()
    emit(ScoreOutput(None), [result], fmt, out)
    return out.getvalue()


def download_name(source: str, suffix: str) -> str:
    """The file name a download is offered under: the sheet's name without its extension,
    reduced to ASCII letters, digits, ``.``, ``_`` and ``-`` (``game`` when nothing is left),
    so it is safe in a ``Content-Disposition`` header and on any file system."""
    stem = re.split(r"[\\/]", source)[-1]
    stem = re.sub(r"\.(ya?ml|json|csv|tsv)$", "", stem, flags=re.IGNORECASE)
    ascii_stem = unicodedata.normalize("NFKD", stem).encode("ascii", "ignore").decode()
    safe = re.sub(r"[^A-Za-z0-9._-]+", "-", ascii_stem).strip(".-_")[:80]
    return f"{safe or 'game'}.{suffix}"


def image_layout(game: dict) -> dict:
    """Where each part of the image goes, from the page's ``game`` context: the title and
    status, the grid (one row a round and the totals), the standings, then the chart."""
    players = len(game["players"])
    width = max(2 * MARGIN + ROUND_W + CELL_W * players, 520)
    top = MARGIN + 2 * ROW + 8  # below the title and the status line
    columns = [
        {"x": MARGIN + ROUND_W + CELL_W * seat + CELL_W - 8, "colour": PALETTE[seat % 6]}
        for seat in range(players)
    ]
    grid_rows = [
        {"y": top + ROW * (index + 2), "row": row} for index, row in enumerate(game["rounds"])
    ]
    totals_y = top + ROW * (len(grid_rows) + 2)
    standings_top = totals_y + ROW + 12
    standings = [
        {"y": standings_top + ROW * (index + 1), "colour": PALETTE[s.seat % 6], "standing": s}
        for index, s in enumerate(game["standings"])
    ]
    chart_top = standings_top + ROW * (len(standings) + 1) + 8
    box = game["chart"]["box"]
    chart_w = min(width - 2 * MARGIN, box.width * 2)
    chart_h = round(chart_w * box.height / box.width)
    return {
        "width": width,
        "height": chart_top + chart_h + MARGIN,
        "margin": MARGIN,
        "grid_top": top + ROW,
        "round_x": MARGIN + ROUND_W - 8,
        "columns": columns,
        "rows": grid_rows,
        "totals_y": totals_y,
        "rule_right": width - MARGIN,
        "standings_top": standings_top,
        "standings": standings,
        "chart_top": chart_top,
        "chart_w": chart_w,
        "chart_h": chart_h,
        "series": [PALETTE[line["seat"] % 6] for line in game["chart"]["lines"]],
    }
