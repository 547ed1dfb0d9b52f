"""What the templates are given: the scored game laid out for the page, nothing decided here.

Every figure comes from the validated Game as ``score`` scores it and every sentence from the
same functions the terminal views use (the status line, ``next``'s step); this module only arranges
them for the templates, and works out where the chart's lines go (the SVG itself is a
template). HTML escaping is the templates' (autoescape); control characters are escaped for
every value a template prints (SPEC §8, the environment's ``finalize``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..app.amending import latest_entry
from ..errors import Problem, shorten
from ..game.game import GameResult
from ..output.chart import chart_title, running_totals
from ..output.formats import signed
from ..output.game_views import status_line


def board(
    result: GameResult | None, problems: Sequence[Problem], version: int, source: str
) -> dict:
    """The scoreboard's context: the last valid game (None before there was one) and the
    sheet's problems now."""
    context: dict = {
        "version": version,
        "problems": [str(p) for p in problems],
        "source": source,
        "title": source,
        "game": None,
    }
    if result is None:
        return context
    step = result.validated.next_step()
    still = result.validated.contenders()
    context.update(
        title=chart_title(result),
        game={
            "status": status_line(result),
            "date": result.date,
            "place": result.place,
            "notes": result.notes,
            "players": result.players,
            "in_play": None if step.finished else in_play(result),
            "rounds": [_round_row(result, scored) for scored in result.rounds],
            "rounds_total": result.rounds_total,
            "totals": result.totals,
            "standings": result.standings,
            "bonus": any(s.bonus for s in result.standings),
            "contenders": still,
            "out": [name for name in result.players if name not in still],
            "finished": result.finished,
            "winners": result.winners,
            "chart": chart(result),
        },
    )
    return context


def in_play(result: GameResult) -> dict:
    """The round in play (or about to be dealt): what ``wizard next`` says, for the page."""
    step = result.validated.next_step()
    # called only on a game not finished, where next_step fills every field (game.NextStep)
    assert step.bids_in is not None and step.bidding_order is not None
    return {
        "round": step.round,
        "of": result.rounds_total,
        "hand_size": step.hand_size,
        "dealer": step.dealer,
        "no_trump": step.no_trump,
        "bids": [
            {"player": name, "bid": step.bids_in.get(name), "next": name == step.next_bidder}
            for name in step.bidding_order
        ],
        "bid_total": step.bid_total,
        "next_bidder": step.next_bidder,
        "started": bool(step.bids_in),
        "forbidden": step.forbidden_dealer_bid,
        "all_bid": step.next_bidder is None,
    }


def entry(result: GameResult) -> dict:
    """The entry page's controls: the bid buttons of the player in turn (the forbidden one
    disabled), or the tricks form in bidding order, and what undo would take back."""
    step = result.validated.next_step()
    if step.finished:
        return {"finished": True, "undo_round": _undo_round(result)}
    # not finished: next_step fills every field (game.NextStep)
    assert step.hand_size is not None
    assert step.bids_in is not None and step.bidding_order is not None
    return {
        "finished": False,
        "round": step.round,
        "hand_size": step.hand_size,
        "bidder": step.next_bidder,
        "bids": [
            {"value": value, "forbidden": value == step.forbidden_dealer_bid}
            for value in range(step.hand_size + 1)
        ],
        "order": [{"player": name, "bid": step.bids_in.get(name)} for name in step.bidding_order],
        "undo_round": _undo_round(result),
        **_special_entry(result),
        "seats": None if step.bids_in else _seats(result),
    }


def _seats(result: GameResult) -> dict:
    """Join, leave and sit-out before a round's first bid (SPEC §5): the players listed for
    the round to come (who may sit it out or leave), every player (a joiner sits after one)."""
    game = result.validated
    seating = game.sheet.seating
    number = game.current_round
    listed = range(len(game.players)) if seating is None else seating.listed(number)
    return {
        "round": number,
        "listed": [game.players[seat] for seat in listed],
        "players": list(game.players),
        "out": [],
        "problem": None,
        "after": game.rounds_played or None,
    }


def sitting_out(
    context: dict, result: GameResult | None, problem: str | None, out: list[str]
) -> None:
    """The entry page's round to come as it would be dealt with ``out`` sitting it out (the
    preview's turn, dealer and bids), or, where that cannot be, why not beside the choice."""
    shown = context["entry"]
    seats = shown["seats"]
    chosen = [name for name in seats["listed"] if name in out]
    if result is None:
        seats.update(out=chosen, problem=problem)
        return
    previewed = entry(result)
    previewed["undo_round"] = shown["undo_round"]  # what undo takes back is the sheet's
    previewed["seats"] = dict(seats, out=chosen)
    context["entry"] = previewed
    context["game"]["in_play"] = in_play(result)


def _special_entry(result: GameResult) -> dict:
    """With ``specialCards``, the Bomb toggle and the Cloud picker beside the tricks (SPEC §5):
    ``special``, and the Cloud already recorded in the round in play (``{player, change}``)."""
    game = result.validated
    in_play = game.in_play
    cloud = in_play.cloud if in_play is not None else None
    return {
        "special": game.settings.special_cards,
        "cloud": None
        if cloud is None
        else {"player": game.players[cloud[0]], "change": f"{cloud[1]:+d}"},
    }


def _undo_round(result: GameResult) -> int | None:
    """The round of the last value written (what undo takes back), None if nothing is."""
    latest = latest_entry(result.validated)
    return None if latest is None else latest[0]


def _as_scored(scored, seat: int) -> int | None:
    """A seat's bid as the round scores it: the Cloud's change counts (SPEC §1)."""
    bid = scored.bids[seat]
    cloud = scored.cloud
    return bid + cloud[1] if cloud is not None and cloud[0] == seat else bid


def _round_row(result: GameResult, scored) -> dict:
    """One row of the grid: per player bid/tricks, points and running total (the round in play:
    the bids so far)."""
    done = scored.tricks is not None
    seating = result.validated.sheet.seating
    seated = None if seating is None or done else seating.seated(scored.number)
    cells = []
    for seat in range(len(result.players)):
        bid = scored.bids[seat]
        if (done and scored.points[seat] is None) or (seated is not None and seat not in seated):
            # not seated in this round (SPEC §5: `out`), the round in play too
            cells.append(
                {
                    "bid": "out",
                    "tricks": "",
                    "points": None,
                    "total": scored.totals[seat] if done else None,
                    "made": False,
                }
            )
            continue
        cells.append(
            {
                "bid": "?" if bid is None else bid,
                "tricks": scored.tricks[seat] if done else "?",
                "points": signed(scored.points[seat]) if done else None,
                "total": scored.totals[seat] if done else None,
                "made": done and _as_scored(scored, seat) == scored.tricks[seat],
            }
        )
    return {
        "number": scored.number,
        "hand_size": scored.hand_size,
        "dealer": result.players[scored.dealer],
        "cells": cells,
        "in_play": not done,
    }


# --- the chart of running totals ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Box:
    """The chart's drawing area inside its SVG viewBox."""

    width: int = 440
    height: int = 260
    left: int = 34
    right: int = 96  # room for the labels at the lines' ends
    top: int = 12
    bottom: int = 26


LABEL_GAP = 14  # the least vertical distance between two end labels
LABEL_CHARS = 10  # a name is shortened to this on the chart (the data is unchanged)


def chart(result: GameResult, box: Box = Box()) -> dict:
    """Each player's running totals as an SVG polyline (from 0 before round 1), a label at the
    end of each line nudged apart from the others, the zero line and a few ticks."""
    rounds, totals = running_totals(result)
    values = [value for line in totals for value in line]
    low, high = min(values), max(values)
    if high - low < 10:
        high = low + 10
    span_x = max(result.rounds_total, 1)
    plot_w = box.width - box.left - box.right
    plot_h = box.height - box.top - box.bottom

    def x(number: int) -> float:
        return round(box.left + plot_w * number / span_x, 1)

    def y(value: int) -> float:
        return round(box.top + plot_h * (high - value) / (high - low), 1)

    ends = [y(totals[seat][-1]) for seat in range(len(result.players))]
    lines = [
        {
            "seat": seat,
            "player": name,
            "points": " ".join(f"{x(n)},{y(v)}" for n, v in zip(rounds, totals[seat])),
            "end_x": x(rounds[-1]),
            "end_y": ends[seat],
            "label": f"{shorten(name, LABEL_CHARS, fit=True)} {totals[seat][-1]}",
        }
        for seat, name in enumerate(result.players)
    ]
    for line, label_y in zip(lines, spread_labels(ends, box)):
        line["label_y"] = label_y
    step = max(1, -(-span_x // 10))
    return {
        "box": box,
        "lines": lines,
        "zero": y(0),
        "x_ticks": [{"x": x(n), "label": n} for n in range(0, span_x + 1, step)],
        "y_ticks": [{"y": y(v), "label": v} for v in sorted({low, 0, high})],
        "bottom": box.height - box.bottom,
        "label_x": x(rounds[-1]) + 6,
    }


def spread_labels(ends: list[float], box: Box) -> list[float]:
    """Label heights near the lines' ends, at least :data:`LABEL_GAP` apart, inside the box."""
    order = sorted(range(len(ends)), key=lambda i: ends[i])
    placed = [0.0] * len(ends)
    floor = box.top + 4.0
    for i in order:
        placed[i] = max(ends[i] + 4, floor)
        floor = placed[i] + LABEL_GAP
    overflow = max(placed) - (box.height - box.bottom + 10)
    if overflow > 0:
        placed = [value - overflow for value in placed]
    return [round(value, 1) for value in placed]
