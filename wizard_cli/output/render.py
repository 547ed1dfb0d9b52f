"""Every output format is rendered here: aligned tables, Markdown, CSV/TSV, JSON and JSON lines.

Each command has an *output* describing one result three ways (a JSON object, tidy rows, a human
text block); :func:`emit` streams a sequence of results in the chosen format, so ``jsonl`` and
``csv`` start printing before a long input has been read to the end.
"""

from __future__ import annotations

import csv
import json
from json.encoder import encode_basestring as _quoted  # a str as JSON, non-ASCII kept as is
from itertools import chain
from typing import Any, Iterable, Iterator, Protocol, Sequence, TextIO

from ..game.scoring import GameResult, ScoredRound
from ..game.nextstep import NextStep, next_step
from ..game.validation import Checked

FORMATS = ("table", "markdown", "csv", "tsv", "json", "jsonl")
SOURCE_COLUMNS = ("source", "game")


class Output(Protocol):
    """How one command shows one result in every format."""

    columns: tuple[str, ...]

    def as_json(self, item: Any) -> Any: ...
    def rows(self, item: Any) -> Iterable[Sequence[Any]]: ...
    def as_text(self, item: Any, style: str) -> str: ...


def emit(output: Output, items: Iterable[Any], fmt: str, out: TextIO, several: bool = False) -> None:
    """Write every item in ``fmt``; several items (or ones from a season) make a list or labelled rows."""
    items = iter(items)
    first = next(items, None)
    if first is None:
        if fmt == "json" and several:
            out.write("[]\n")
        return
    several = several or getattr(first, "game", None) is not None
    stream = chain([first], items)
    if fmt in ("json", "jsonl"):
        _emit_json(output, stream, out, array=several and fmt == "json", lines=fmt == "jsonl")
    elif fmt in ("csv", "tsv"):
        _emit_delimited(output, stream, out, "," if fmt == "csv" else "\t", labelled=several)
    else:
        gap = "\n" if getattr(output, "spaced", True) else ""
        for index, item in enumerate(stream):
            out.write((gap if index else "") + output.as_text(item, fmt).rstrip("\n") + "\n")


def dumps(value: Any, indent: int | None = 2) -> str:
    """JSON text as this tool writes it (UTF-8 names kept readable)."""
    return json.dumps(value, ensure_ascii=False, indent=indent)


def _emit_json(output: Output, items: Iterator[Any], out: TextIO, array: bool, lines: bool) -> None:
    """One object, an array of objects, or one compact object per line."""
    if lines:
        # Made once; our objects are plain trees, so no cycle check is needed for each of them.
        encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"),
                                  check_circular=False).encode
        line = getattr(output, "as_json_line", lambda item: None)
        for item in items:
            out.write((line(item) or encode(output.as_json(item))) + "\n")
        return
    if not array:
        for item in items:
            out.write(dumps(output.as_json(item)) + "\n")
        return
    out.write("[\n")
    for index, item in enumerate(items):
        text = dumps(output.as_json(item)).replace("\n", "\n  ")
        out.write((",\n  " if index else "  ") + text)
    out.write("\n]\n")


def _emit_delimited(output: Output, items: Iterator[Any], out: TextIO, delimiter: str,
                    labelled: bool) -> None:
    """Tidy rows with one header; ``source,game`` columns lead when results come from several sheets."""
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\n")
    writer.writerow((SOURCE_COLUMNS if labelled else ()) + output.columns)
    for item in items:
        label = (getattr(item, "source", ""), _cell(getattr(item, "game", None)))
        writer.writerows((label + tuple(map(_cell, row))) if labelled else map(_cell, row)
                         for row in output.rows(item))


def _cell(value: Any) -> Any:
    """A value for a CSV cell: empty for None, true/false for flags."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value


def grid(headers: Sequence[str], rows: Iterable[Sequence[Any]], style: str,
         align: Sequence[str] | None = None) -> str:
    """An aligned text table (``table``) or a GitHub Markdown table (``markdown``)."""
    rows = list(rows)
    drawn = _plain_grid(headers, rows, style, align)
    if drawn is not None:
        return drawn
    from tabulate import tabulate  # imported here: start-up time matters for a CLI

    return tabulate(rows, headers=list(headers), disable_numparse=True,
                    tablefmt="github" if style == "markdown" else "simple",
                    colalign=align)


_PAD = {"left": str.ljust, "right": str.rjust}


def _plain_texts(texts: list[Any]) -> bool:
    """Every one printable ASCII text with no space at either end (a None or a flag is not)."""
    try:
        return (all(map(str.isascii, texts)) and all(map(str.isprintable, texts))
                and list(map(str.strip, texts)) == texts)
    except TypeError:  # not a str
        return False


def _plain_grid(headers: Sequence[str], rows: list[Sequence[Any]], style: str,
                align: Sequence[str] | None) -> str | None:
    """The table tabulate would draw, drawn directly when every cell is plain (an int, or
    printable ASCII with no space at either end), every header is named, every column aligned
    left or right, and there is at least one row. None otherwise.

    tabulate's general machinery (types, wide characters, multi-line cells) costs a tenth of a
    millisecond a table: a folder of ten thousand sheets would spend a second on it.
    """
    count = len(headers)
    aligns = [*(align or ()), *["left"] * count][:count]
    cells = [[str(value) if type(value) is int else value for value in row] for row in rows]
    texts = [*headers, *chain.from_iterable(cells)]
    if (not cells or not all(headers) or any(len(row) != count for row in cells)
            or any(a not in _PAD for a in aligns) or not _plain_texts(texts)):
        return None
    # A column is as wide as its widest cell, and at least its header and two spaces.
    widths = [max([len(header) + 2, *(len(row[column]) for row in cells)])
              for column, header in enumerate(headers)]
    pads = [_PAD[a] for a in aligns]
    padded = lambda row: [pad(text, width) for pad, text, width in zip(pads, row, widths)]  # noqa: E731
    if style == "markdown":
        rule = "|" + "|".join("-" * (width + 2) for width in widths) + "|"
        lines = ["| " + " | ".join(padded(row)) + " |" for row in [headers, *cells]]
        lines.insert(1, rule)
    else:
        lines = ["  ".join(padded(row)).rstrip() for row in [headers, *cells]]
        lines.insert(1, "  ".join("-" * width for width in widths))
    return "\n".join(lines)


def heading(item: Any, style: str) -> str:
    """A sheet's heading: its title and where it came from."""
    where = item.source + (f", game {item.game}" if item.game is not None else "")
    text = f"{item.title} ({where})" if getattr(item, "title", None) else where
    return f"## {text}" if style == "markdown" else text


def name_list(names: Sequence[str]) -> str:
    """'Anna', 'Anna and Ben', 'Anna, Ben and Cara'."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def signed(number: int) -> str:
    """+30, -10, +0."""
    return f"{number:+d}"


# --- score, standings --------------------------------------------------------------------

def status_json(result: GameResult) -> dict:
    """``status`` of score/standings JSON."""
    finished = result.finished
    return {"finished": finished, "roundsPlayed": result.rounds_played,
            "roundsTotal": result.rounds_total, "winners": result.winners,
            "next": None if finished else next_json(next_step(result))}


def standings_json(result: GameResult) -> list[dict]:
    """``standings``: rank, player, score (with end bonuses) and the bonus part."""
    return [{"rank": s.rank, "player": s.player, "score": s.score, "bonus": s.bonus}
            for s in result.standings]


def round_json(result: GameResult, scored: ScoredRound) -> dict:
    """One entry of ``rounds``: each player's bid, tricks, points and running total."""
    results = {}
    for seat, name in enumerate(result.players):
        done = scored.tricks is not None
        results[name] = {"bid": scored.bids[seat],
                         "tricks": scored.tricks[seat] if done else None,
                         "points": scored.points[seat] if done else None,
                         "total": scored.totals[seat] if done else None}
    return {"round": scored.number, "handSize": scored.hand_size,
            "dealer": result.players[scored.dealer], "results": results}


def status_line(result: GameResult) -> str:
    """'Game over — Ben wins', or what happens next ('Round 6 of 15 next: Dan deals 6')."""
    if result.finished:
        winners = result.winners
        verb = "wins" if len(winners) == 1 else "share the win"
        return f"Game over — {name_list(winners)} {verb}"
    step = next_step(result)
    where = f"Round {step.round} of {result.rounds_total}"
    if not step.bids_in:
        return f"{where} next: {step.dealer} deals {step.hand_size}"
    if step.next_bidder is None:
        return f"{where} in play: all bids in, waiting for the tricks"
    forbidden = ("" if step.forbidden_dealer_bid is None
                 else f" (may not bid {step.forbidden_dealer_bid})")
    return f"{where} in play: {step.next_bidder} to bid{forbidden}"


def standings_block(result: GameResult, style: str) -> str:
    """The standings as a small table; a Bonus column only when someone has one."""
    bonus = any(s.bonus for s in result.standings)
    headers = ["Rank", "Player", "Score"] + (["Bonus"] if bonus else [])
    rows = [[s.rank, s.player, s.score] + ([s.bonus] if bonus else []) for s in result.standings]
    return grid(headers, rows, style, ["right", "left", "right"] + (["right"] if bonus else []))


class ScoreOutput:
    """``wizard score``: every round, the totals, the standings and the status."""

    columns = ("round", "player", "bid", "tricks", "points", "total")

    def as_json(self, result: GameResult) -> dict:
        return {"source": result.source, "game": result.game, "title": result.title,
                "players": list(result.players), "settings": result.settings.as_dict(),
                "rounds": [round_json(result, r) for r in result.rounds],
                "standings": standings_json(result), "status": status_json(result)}

    def rows(self, result: GameResult) -> Iterator[tuple]:
        for r in result.rounds:
            done = r.tricks is not None
            for seat, name in enumerate(result.players):
                yield (r.number, name, r.bids[seat], r.tricks[seat] if done else None,
                       r.points[seat] if done else None, r.totals[seat] if done else None)

    def as_text(self, result: GameResult, style: str) -> str:
        headers = ["Round", "Cards", "Dealer", *result.players]
        rows = [[r.number, r.hand_size, result.players[r.dealer],
                 *(_round_cell(r, seat) for seat in range(len(result.players)))]
                for r in result.rounds]
        rows.append(["Total", "", "", *result.totals])
        table = grid(headers, rows, style,
                     ["right", "right", "left"] + ["right"] * len(result.players))
        return "\n\n".join([heading(result, style), table, standings_block(result, style),
                            status_line(result)])


def _round_cell(scored: ScoredRound, seat: int) -> str:
    """``bid/tricks → points = total``; in play ``bid/?`` (or ``?`` before the bid)."""
    bid = scored.bids[seat]
    if scored.tricks is None:
        return "?" if bid is None else f"{bid}/?"
    return (f"{bid}/{scored.tricks[seat]} → {signed(scored.points[seat])} "
            f"= {scored.totals[seat]}")


class StandingsOutput:
    """``wizard standings``: the standings and status alone."""

    columns = ("rank", "player", "score", "bonus")

    def as_json(self, result: GameResult) -> dict:
        return {"source": result.source, "game": result.game, "title": result.title,
                "standings": standings_json(result), "status": status_json(result)}

    def as_json_line(self, result: GameResult) -> str | None:
        """A finished game's ``as_json`` as one compact line, written directly (None for a game
        in progress): a season archive prints thousands of them, and building and encoding
        the objects took a quarter of the time of reading it."""
        if not result.finished:
            return None
        standings = ",".join([f'{{"rank":{s.rank},"player":{_quoted(s.player)},"score":{s.score},'
                              f'"bonus":{s.bonus}}}' for s in result.standings])
        winners = ",".join(map(_quoted, result.winners))
        return (f'{{"source":{_quoted(result.source)},"game":{_json_scalar(result.game)},'
                f'"title":{_json_scalar(result.title)},"standings":[{standings}],"status":'
                f'{{"finished":true,"roundsPlayed":{result.rounds_played},'
                f'"roundsTotal":{result.rounds_total},"winners":[{winners}],"next":null}}}}')

    def rows(self, result: GameResult) -> Iterator[tuple]:
        return ((s.rank, s.player, s.score, s.bonus) for s in result.standings)

    def as_text(self, result: GameResult, style: str) -> str:
        return "\n\n".join([heading(result, style), standings_block(result, style),
                            status_line(result)])


def _json_scalar(value: str | int | None) -> str:
    """A game id or title as JSON (as json.dumps writes it: text quoted, no ASCII escaping)."""
    if value is None:
        return "null"
    if type(value) is str:
        return _quoted(value)
    return str(value) if type(value) is int else json.dumps(value, ensure_ascii=False)


# --- check ------------------------------------------------------------------------------

class CheckOutput:
    """``wizard check``: ok, or every problem found (the problems also go to stderr)."""

    columns = ("valid", "line", "round", "player", "message")
    spaced = False  # one line per sheet

    def as_json(self, checked: Checked) -> dict:
        return {"source": checked.source, "game": checked.game, "valid": checked.valid,
                "problems": [p.as_json() for p in checked.problems]}

    def rows(self, checked: Checked) -> Iterator[tuple]:
        if checked.valid:
            yield (True, None, None, None, "ok")
        for p in checked.problems:
            yield (False, p.line, p.round, p.player, p.message)

    def as_text(self, checked: Checked, style: str) -> str:
        label = checked.source + (f", game {checked.game}" if checked.game is not None else "")
        if checked.valid:
            return f"{label}: ok"
        count = len(checked.problems)
        return f"{label}: {count} problem{'s' if count != 1 else ''}"


# --- next --------------------------------------------------------------------------------

def next_json(step: NextStep) -> dict:
    """The ``wizard next`` object: the keys of SPEC §5; once the game is over, also its winners
    (issue 4: "after the last round, finished: true and the winners")."""
    data = {"round": step.round, "handSize": step.hand_size, "dealer": step.dealer,
            "biddingOrder": list(step.bidding_order) if step.bidding_order is not None else None,
            "bidsIn": step.bids_in, "nextBidder": step.next_bidder, "noTrump": step.no_trump,
            "forbiddenDealerBid": step.forbidden_dealer_bid, "finished": step.finished}
    if step.finished:
        data["winners"] = list(step.winners)
    return data


NEXT_LABEL_WIDTH = len("Dealer may not bid: ")  # the longest label, colon and a space


class NextOutput:
    """``wizard next``: the next thing to happen at the table."""

    columns = ("round", "handSize", "dealer", "biddingOrder", "bidsIn", "nextBidder", "noTrump",
               "forbiddenDealerBid", "finished")

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
                ("Dealer", step.dealer),
                ("Bidding order", ", ".join(step.bidding_order)),
                ("Bids in", ", ".join(f"{k} {v}" for k, v in step.bids_in.items()) or "none yet"),
                ("Next to bid", step.next_bidder or "nobody: waiting for the tricks")]
        if step.forbidden_dealer_bid is not None:
            rows.append(("Dealer may not bid", step.forbidden_dealer_bid))
        return grid(["", ""], rows, style, ["left", "left"]) if style == "markdown" else \
            "\n".join(f"{label + ':':<{NEXT_LABEL_WIDTH}}{value}" for label, value in rows)


# --- trick -------------------------------------------------------------------------------

class TrickOutput:
    """``wizard trick``: the winning position, card and rule."""

    columns = ("winner", "card", "reason")

    def as_json(self, result: Any) -> dict:
        return result.as_json()

    def rows(self, result: Any) -> Iterator[tuple]:
        yield (result.position, str(result.card), result.reason)

    def as_text(self, result: Any, style: str) -> str:
        return f"Card {result.position} ({result.card}) wins: {result.reason}"


# --- stats -------------------------------------------------------------------------------

STATS_DECIMALS = {"averageScore": 2, "averageMiss": 2, "bidAccuracy": 4}


def stats_json(stats: Any) -> dict:
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

    def as_json(self, stats: Any) -> dict:
        return stats_json(stats)

    def rows(self, stats: Any) -> Iterator[tuple]:
        data = stats_json(stats)
        yield tuple(data[c] for c in self.columns)

    def as_text(self, season: Any, style: str) -> str:
        headers = ["Player", "Games", "Wins", "Avg score", "Best", "Rounds", "Bid accuracy",
                   "Zero bids", "Avg miss", "Over", "Under"]
        rows = [[s.player, s.games, s.wins, _fixed(s.average_score, 2), _or_dash(s.best_score),
                 s.rounds, _percent(s.bid_accuracy), f"{s.zero_bids_made}/{s.zero_bids_tried}",
                 _fixed(s.average_miss, 2), s.overbids, s.underbids]
                for s in season.ranked()]
        games = f"{season.games} game{'s' if season.games != 1 else ''}, {season.finished} finished"
        return games + "\n\n" + grid(headers, rows, style, ["left"] + ["right"] * 10)


def emit_stats(season: Any, fmt: str, out: TextIO) -> None:
    """All players in one table; JSON a list of player objects (``jsonl`` one per line)."""
    output = StatsOutput()
    players = season.ranked()
    if fmt == "json" and not players:
        out.write("[]\n")
    elif fmt in ("json", "jsonl"):
        _emit_json(output, iter(players), out, array=fmt == "json", lines=fmt == "jsonl")
    elif fmt in ("csv", "tsv"):
        _emit_delimited(output, iter(players), out, "," if fmt == "csv" else "\t", labelled=False)
    else:
        out.write(output.as_text(season, fmt) + "\n")


def _or_dash(value: Any) -> str:
    """A number as text, or '-' when there is none."""
    return "-" if value is None else str(value)


def _fixed(value: float | None, places: int) -> str:
    """A figure with a fixed number of decimals, or '-' when undefined."""
    return "-" if value is None else f"{value:.{places}f}"


def _percent(fraction: float | None) -> str:
    """0.7111 → '71.1%', or '-' when undefined."""
    return "-" if fraction is None else f"{100 * fraction:.1f}%"


# --- compare -----------------------------------------------------------------------------

def change(score_before: int, rank_before: int, score: int, rank: int) -> str:
    """The change against rule set 0: ``+40``, ``-10 ▼1``, ``+20 ▲2``, or ``0``."""
    moved = ("" if rank == rank_before else
             f" ▲{rank_before - rank}" if rank < rank_before else f" ▼{rank - rank_before}")
    return (signed(score - score_before) if score != score_before else "0") + moved


class CompareOutput:
    """``wizard compare``: each player's score and rank under each rule set, and the change."""

    columns = ("ruleset", "player", "score", "rank", "delta")

    def __init__(self, rounds: bool = False) -> None:
        self.show_rounds = rounds

    def as_json(self, comparison: Any) -> dict:
        return {"source": comparison.source, "game": comparison.game,
                "rulesets": [{"name": s.name, "settings": s.settings.as_dict()}
                             for s in comparison.scored],
                "players": [{"player": name, "scores": comparison.scores(seat),
                             "ranks": comparison.ranks(seat)}
                            for seat, name in enumerate(comparison.players)],
                "warnings": [str(w) for w in comparison.warnings]}

    def rows(self, comparison: Any) -> Iterator[tuple]:
        own = [comparison.scores(seat)[0] for seat in range(len(comparison.players))]
        for scored in comparison.scored:
            for seat, (score, rank) in enumerate(scored.by_seat()):
                yield (scored.name, comparison.players[seat], score, rank, score - own[seat])

    def as_text(self, comparison: Any, style: str) -> str:
        blocks = [heading(comparison, style), self._rule_sets(comparison, style),
                  self._players(comparison, style)]
        if self.show_rounds:
            blocks.append(self._rounds(comparison, style))
        result = comparison.scored[0].result
        if not result.finished:
            blocks.append(f"Game in progress: standings after {result.rounds_played} of "
                          f"{result.rounds_total} rounds")
        return "\n\n".join(blocks)

    def _rule_sets(self, comparison: Any, style: str) -> str:
        """Each rule set's name, where it comes from, and its winners."""
        finished = any(s.result.finished for s in comparison.scored)
        headers = ["Rule set", "From"] + (["Winners"] if finished else [])
        rows = []
        for index, scored in enumerate(comparison.scored):
            origin = ("the sheet's own rules" if index == 0
                      else f"preset {scored.rule_set.preset}" if scored.rule_set.preset
                      else "--set/--zero-bid")
            if index and not scored.changes:
                origin += " (changes nothing here)"
            winners = (name_list(scored.result.winners) if scored.result.finished
                       else "not finished")
            rows.append([scored.name, origin] + ([winners] if finished else []))
        return grid(headers, rows, style)

    def _players(self, comparison: Any, style: str) -> str:
        """One row per player, in the order of the last rule set's ranks."""
        headers, align = ["Player"], ["left"]
        for index, scored in enumerate(comparison.scored):
            headers += [scored.name, "Rank"] + (["Δ"] if index else [])
            align += ["right", "right"] + (["left"] if index else [])
        rows = []
        for seat, name in enumerate(comparison.players):
            scores, ranks = comparison.scores(seat), comparison.ranks(seat)
            row: list[Any] = [name]
            for index, (score, rank) in enumerate(zip(scores, ranks)):
                row += [score, rank] + ([change(scores[0], ranks[0], score, rank)] if index else [])
            rows.append((ranks[-1], seat, row))
        return grid(headers, [row for *_, row in sorted(rows, key=lambda r: r[:2])], style, align)

    def _rounds(self, comparison: Any, style: str) -> str:
        """The round points (and end bonuses) that some rule set scores differently."""
        results = [s.result for s in comparison.scored]
        rows = []
        for index, scored_round in enumerate(results[0].rounds):
            if scored_round.points is None:
                continue
            for seat, name in enumerate(comparison.players):
                points = [r.rounds[index].points[seat] for r in results]
                if len(set(points)) > 1:
                    rows.append([scored_round.number, name, *map(signed, points)])
        for seat, name in enumerate(comparison.players):
            bonuses = [next(st.bonus for st in r.standings if st.seat == seat) for r in results]
            if len(set(bonuses)) > 1:
                rows.append(["bonus", name, *map(signed, bonuses)])
        if not rows:
            return "Every round scores the same under every rule set."
        headers = ["Round", "Player", *(s.name for s in comparison.scored)]
        return grid(headers, rows, style, ["right", "left"] + ["right"] * len(results))


# --- rules -------------------------------------------------------------------------------

def setting_json(spec: Any) -> dict:
    """One setting of ``wizard rules --format json``: the same keys for every setting."""
    number = spec.kind == "int"
    return {"key": spec.key, "type": spec.kind, "default": spec.default,
            "allowed": spec.allowed(),
            "minimum": spec.minimum if number else None,
            "maximum": spec.maximum if number else None,
            "step": spec.step if number else None,
            "options": list(spec.options) if spec.kind == "option" else None,
            "meaning": spec.meaning, "appName": spec.app_name}


def preset_json(preset: Any) -> dict:
    """One preset of ``wizard rules --format json``: what it overrides, and where it is from."""
    return {"name": preset.name, "builtIn": preset.source is None, "meaning": preset.meaning,
            "settings": preset.values()}


def preset_settings_text(preset: Any) -> str:
    """``screwTheDealer=leaderOnly, canadianRule=true``."""
    from ..game.compare import describe_changes

    return describe_changes(preset.values())


class RulesOutput:
    """``wizard rules``: every setting with its default, allowed values and meaning; the presets."""

    columns = ("kind", "name", "default", "allowed", "appName", "meaning", "settings")

    def as_json(self, rules: Any) -> dict:
        return {"settings": [setting_json(spec) for spec in rules.settings],
                "presets": [preset_json(preset) for preset in rules.presets]}

    def rows(self, rules: Any) -> Iterator[tuple]:
        from ..game.compare import show_value

        for spec in rules.settings:
            yield ("setting", spec.key, show_value(spec.default), spec.allowed(), spec.app_name,
                   spec.meaning, None)
        for preset in rules.presets:
            yield ("preset", preset.name, None, None, None, preset.meaning,
                   preset_settings_text(preset))

    def as_text(self, rules: Any, style: str) -> str:
        from ..game.compare import show_value

        fit = (lambda text, width: text) if style == "markdown" else wrapped
        settings = grid(["Setting", "Default", "Allowed", "In the app", "Meaning"],
                        [[spec.key, show_value(spec.default), fit(spec.allowed(), 20),
                          fit(spec.app_name or "", 16), fit(spec.meaning, 44)]
                         for spec in rules.settings], style)
        presets = grid(["Preset", "Sets", "Meaning"],
                       [[preset.name, fit(preset_settings_text(preset), 50),
                         fit(preset.meaning, 40)]
                        for preset in rules.presets], style)
        title = "## {}" if style == "markdown" else "{}"
        return "\n\n".join([title.format("Settings"), settings, title.format("Presets"), presets])


def wrapped(text: str, width: int) -> str:
    """Text broken into lines of at most ``width`` characters (a multi-line table cell)."""
    import textwrap

    return "\n".join(textwrap.wrap(text, width, break_on_hyphens=False)) or text
