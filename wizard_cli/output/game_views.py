"""What ``score``, ``standings``, ``check``, ``next`` and ``trick`` show: one view each.

Each JSON record is built from one list of its keys (``RESULT_KEYS``, ``STANDING_KEYS``, …);
the tidy CSV rows are those records' values, under the same names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterator, Sequence

from ..game.game import NextStep, Status, game_status, next_step
from ..game.scoring import GameResult, ScoredRound
from ..errors import Problem, game_label, name_list, visible
from ..game.validation import Checked
from .fitting import fits
from .formats import grid, heading

if TYPE_CHECKING:
    from ..game.trick import TrickResult

# --- score, standings --------------------------------------------------------------------

def metadata_json(result: GameResult) -> dict:
    """``title`` and, right after it, ``date``, ``place`` and ``notes`` (SPEC §3; null when absent)."""
    return {"title": result.title, "date": result.date, "place": result.place,
            "notes": result.notes}


def status_json(status: Status) -> dict:
    """``status`` of score/standings JSON."""
    return {"finished": status.finished, "roundsPlayed": status.rounds_played,
            "roundsTotal": status.rounds_total, "winners": list(status.winners),
            "contenders": list(status.contenders),
            "next": None if status.next is None else next_json(status.next)}


STANDING_KEYS = ("rank", "player", "score", "bonus")
RESULT_KEYS = ("bid", "tricks", "points", "total")  # a player's part of a round


def standings_json(result: GameResult) -> list[dict]:
    """``standings``: rank, player, score (with end bonuses) and the bonus part."""
    return [dict(zip(STANDING_KEYS, (s.rank, s.player, s.score, s.bonus)))
            for s in result.standings]


def round_results(result: GameResult, scored: ScoredRound) -> Iterator[tuple[str, tuple]]:
    """Each player and their bid, tricks, points and running total in one round (in play:
    the bid alone)."""
    done = scored.tricks is not None
    for seat, name in enumerate(result.players):
        yield name, ((scored.bids[seat], scored.tricks[seat], scored.points[seat],
                      scored.totals[seat]) if done else (scored.bids[seat], None, None, None))


def round_json(result: GameResult, scored: ScoredRound) -> dict:
    """One entry of ``rounds``: each player's bid, tricks, points and running total."""
    return {"round": scored.number, "handSize": scored.hand_size,
            "dealer": result.players[scored.dealer],
            "results": {name: dict(zip(RESULT_KEYS, values))
                        for name, values in round_results(result, scored)}}


def status_line(result: GameResult) -> str:
    """'Game over — Ben wins', or what happens next ('Round 6 of 15 next: Dan deals 6'), and who
    can no longer win ('— Dan can no longer win'; '— nobody can catch Ben' once one is left)."""
    status = game_status(result)
    if status.next is None:
        winners = list(status.winners)
        verb = "wins" if len(winners) == 1 else "share the win"
        return f"Game over — {name_list(winners)} {verb}"
    still = status.contenders
    out = [name for name in result.players if name not in still]
    line = _next_line(status.next, status.rounds_total)
    if not out:
        return line
    if len(still) == 1:
        return f"{line} — nobody can catch {still[0]}"
    return f"{line} — {name_list(out)} can no longer win"


def _next_line(step: NextStep, rounds_total: int) -> str:
    """What happens next in a game in progress."""
    where = f"Round {step.round} of {rounds_total}"
    if not step.bids_in:
        return f"{where} next: {visible(step.dealer)} deals {step.hand_size}"
    if step.next_bidder is None:
        return f"{where} in play: all bids in, waiting for the tricks"
    forbidden = ("" if step.forbidden_dealer_bid is None
                 else f" (may not bid {step.forbidden_dealer_bid})")
    return f"{where} in play: {visible(step.next_bidder)} to bid{forbidden}"


def standings_block(result: GameResult, style: str) -> str:
    """The standings as a small table; a Bonus column only when someone has one."""
    bonus = any(s.bonus for s in result.standings)
    headers = ["Rank", "Player", "Score"] + (["Bonus"] if bonus else [])
    rows = [[s.rank, s.player, s.score] + ([s.bonus] if bonus else []) for s in result.standings]
    return grid(headers, rows, style, ["right", "left", "right"] + (["right"] if bonus else []))


class ScoreOutput:
    """``wizard score``: every round, the totals, the standings and the status."""

    columns = ("round", "player", *RESULT_KEYS)

    def __init__(self, width: int | None = None) -> None:
        self.width = width  # the terminal's width to fit the table to (None: drawn as it is)

    def as_json(self, result: GameResult) -> dict:
        return {"source": result.source, "game": result.game, **metadata_json(result),
                "players": list(result.players), "settings": result.settings.as_dict(),
                "rounds": [round_json(result, r) for r in result.rounds],
                "standings": standings_json(result), "status": status_json(game_status(result))}

    def rows(self, result: GameResult) -> Iterator[tuple]:
        for r in result.rounds:
            for name, values in round_results(result, r):
                yield (r.number, name, *values)

    def as_text(self, result: GameResult, style: str) -> str:
        return "\n\n".join([heading(result, style), *self.tables(result, style),
                            standings_block(result, style), status_line(result)])

    def tables(self, result: GameResult, style: str) -> list[str]:
        """The round-by-round table; drawn to fit ``width`` when it is wider (SPEC §5): compact
        cells first, then the players split in seating order over several tables."""
        seats = range(len(result.players))
        full = _score_grid(result, style, seats, _round_cell)
        if self.width is None or style != "table" or fits(full, self.width):
            return [full]
        compact = _score_grid(result, style, seats, _compact_cell)
        if fits(compact, self.width):
            return [compact]
        tables: list[str] = []
        start = 0
        while start < len(seats):  # as many players a table as fit (at least one)
            end = start + 1
            drawn = _score_grid(result, style, seats[start:end], _compact_cell)
            while end < len(seats):
                wider = _score_grid(result, style, seats[start:end + 1], _compact_cell)
                if not fits(wider, self.width):
                    break
                drawn, end = wider, end + 1
            tables.append(drawn)
            start = end
        return (_balanced(result, style, self.width, len(tables)) or tables) if len(tables) > 1 \
            else tables


def _balanced(result: GameResult, style: str, width: int, count: int) -> list[str] | None:
    """The players over ``count`` tables as evenly as they go (3 and 3 rather than 5 and 1),
    if each still fits; else None."""
    players = len(result.players)
    size = -(-players // count)
    drawn = [_score_grid(result, style, range(start, min(start + size, players)), _compact_cell)
             for start in range(0, players, size)]
    return drawn if len(drawn) == count and all(fits(table, width) for table in drawn) else None


def _score_grid(result: GameResult, style: str, seats: Sequence[int],
                cell: Callable[[ScoredRound, int], str]) -> str:
    """The rounds of the players at ``seats``: Round, Cards and Dealer, a column each, a Total row."""
    players = result.players
    headers = ["Round", "Cards", "Dealer", *(players[seat] for seat in seats)]
    rows = [[r.number, r.hand_size, players[r.dealer], *(cell(r, seat) for seat in seats)]
            for r in result.rounds]
    rows.append(["Total", "", "", *(result.totals[seat] for seat in seats)])
    return grid(headers, rows, style, ["right", "right", "left"] + ["right"] * len(seats))


def _compact_cell(scored: ScoredRound, seat: int) -> str:
    """``bid/tricks ±points`` (the Total row gives each total); in play as ``_round_cell``."""
    bid = scored.bids[seat]
    if scored.tricks is None:
        return "?" if bid is None else f"{bid}/?"
    return f"{bid}/{scored.tricks[seat]} {scored.points[seat]:+d}"


def _round_cell(scored: ScoredRound, seat: int) -> str:
    """``bid/tricks → points = total``; in play ``bid/?`` (or ``?`` before the bid)."""
    bid = scored.bids[seat]
    if scored.tricks is None:
        return "?" if bid is None else f"{bid}/?"
    return f"{bid}/{scored.tricks[seat]} → {scored.points[seat]:+d} = {scored.totals[seat]}"


class StandingsOutput:
    """``wizard standings``: the standings and status alone."""

    columns = STANDING_KEYS

    def as_json(self, result: GameResult) -> dict:
        return {"source": result.source, "game": result.game, **metadata_json(result),
                "standings": standings_json(result), "status": status_json(game_status(result))}

    def rows(self, result: GameResult) -> Iterator[tuple]:
        return (tuple(standing.values()) for standing in standings_json(result))

    def as_text(self, result: GameResult, style: str) -> str:
        return "\n\n".join([heading(result, style), standings_block(result, style),
                            status_line(result)])


class ChangedOutput(StandingsOutput):
    """``wizard edit``: the standings after the change and the status line (SPEC §5)."""

    def as_text(self, result: GameResult, style: str) -> str:
        return "\n\n".join([standings_block(result, style), status_line(result)])


PROBLEM_KEYS = ("line", "round", "player", "message")


def problem_json(problem: Problem) -> dict:
    """A problem as ``check --format json`` (and serve's JSON) shows it: where and what."""
    return dict(zip(PROBLEM_KEYS, (problem.line, problem.round, problem.player,
                                   problem.message)))


class CheckOutput:
    """``wizard check``: ok, or every problem found (the problems also go to stderr)."""

    columns = ("valid", *PROBLEM_KEYS)
    spaced = False  # one line per sheet

    def as_json(self, checked: Checked) -> dict:
        return {"source": checked.source, "game": checked.game, "valid": checked.valid,
                "problems": [problem_json(p) for p in checked.problems]}

    def rows(self, checked: Checked) -> Iterator[tuple]:
        if checked.valid:
            yield (True, None, None, None, "ok")
        for p in checked.problems:
            yield (False, *problem_json(p).values())

    def as_text(self, checked: Checked, style: str) -> str:
        label = visible(game_label(checked.source, checked.game))
        if checked.valid:
            return f"{label}: ok"
        count = len(checked.problems)
        return f"{label}: {count} problem{'s' if count != 1 else ''}"


# --- next --------------------------------------------------------------------------------

NEXT_KEYS = ("round", "handSize", "dealer", "biddingOrder", "bidsIn", "bidTotal", "nextBidder",
             "noTrump", "forbiddenDealerBid", "finished")


def next_json(step: NextStep) -> dict:
    """The ``wizard next`` object: the keys of SPEC §5; once the game is over, also its winners
    (issue 4: "after the last round, finished: true and the winners")."""
    data = dict(zip(NEXT_KEYS, (
        step.round, step.hand_size, step.dealer,
        list(step.bidding_order) if step.bidding_order is not None else None,
        step.bids_in, step.bid_total, step.next_bidder, step.no_trump,
        step.forbidden_dealer_bid, step.finished)))
    if step.finished:
        data["winners"] = list(step.winners)
    return data


NEXT_LABEL_WIDTH = len("Dealer may not bid: ")  # the longest label, colon and a space


class NextOutput:
    """``wizard next``: the next thing to happen at the table."""

    columns = NEXT_KEYS

    def as_json(self, result: GameResult) -> dict:
        return next_json(next_step(result))

    def rows(self, result: GameResult) -> Iterator[tuple]:
        data = next_json(next_step(result))
        data["biddingOrder"] = " ".join(data["biddingOrder"] or [])
        data["bidsIn"] = " ".join(f"{k}={v}" for k, v in (data["bidsIn"] or {}).items())
        yield tuple(data[c] for c in self.columns)

    def as_text(self, result: GameResult, style: str) -> str:
        step = next_step(result)
        if step.finished:
            return status_line(result)
        rows = [("Round", f"{step.round} of {result.rounds_total}"),
                ("Hand size", f"{step.hand_size}" + (" (whole deck: no trump)" if step.no_trump else "")),
                ("Dealer", visible(step.dealer)),
                ("Bidding order", ", ".join(map(visible, step.bidding_order))),
                ("Bids in", ", ".join(f"{visible(k)} {v}" for k, v in step.bids_in.items())
                 or "none yet"),
                *([("Bids so far", f"{step.bid_total} of {step.hand_size}")] if step.bids_in else []),
                ("Next to bid", visible(step.next_bidder or "nobody: waiting for the tricks"))]
        if step.forbidden_dealer_bid is not None:
            rows.append(("Dealer may not bid", step.forbidden_dealer_bid))
        return grid(["", ""], rows, style, ["left", "left"], escaped=True) \
            if style == "markdown" else \
            "\n".join(f"{label + ':':<{NEXT_LABEL_WIDTH}}{value}" for label, value in rows)


# --- trick -------------------------------------------------------------------------------

class TrickOutput:
    """``wizard trick``: the winning position, card and rule."""

    columns = ("winner", "card", "reason")

    def as_json(self, result: TrickResult) -> dict:
        return dict(zip(self.columns, (result.position, str(result.card), result.reason)))

    def rows(self, result: TrickResult) -> Iterator[tuple]:
        yield tuple(self.as_json(result).values())

    def as_text(self, result: TrickResult, style: str) -> str:
        return f"Card {result.position} ({result.card}) wins: {result.reason}"


class UndoneOutput(NextOutput):
    """``wizard undo``: what comes next; when it took back a round's tricks, the standings
    before it (SPEC §5)."""

    def __init__(self, standings: bool) -> None:
        self.standings = standings

    def as_text(self, result: GameResult, style: str) -> str:
        upcoming = super().as_text(result, style)
        return f"{standings_block(result, style)}\n\n{upcoming}" if self.standings else upcoming
