"""Hypothesis strategies for valid score sheets, written out as YAML, long CSV and wide CSV.

A :class:`Game` is what a sheet records (players, the settings it sets, first dealer, each
round's bids and tricks); the writers turn one game into the three file forms with the
variations real files have (delimiters, CRLF, byte-order marks, header case, column order,
row order, lists or mappings by name, flow or block YAML). Used by test_fuzz.py.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from typing import Any

import yaml
from hypothesis import strategies as st

INT_SETTINGS = {
    "exactBonus": (0, 50, 5),
    "pointsPerTrick": (0, 20, 5),
    "missPenalty": (0, 30, 5),
    "perfectGameBonus": (0, 100, 10),
    "finalRoundBonus": (0, 50, 5),
    "balancedBidPenalty": (0, 30, 5),
}
OPTION_SETTINGS = {
    "zeroBidScoring": ("flatBonus", "doubleBonus", "perCardBonus"),
    "tieBreak": ("shareWin", "totalBids", "madeBids"),
}
# Words a reader takes as a column name, not a player (a wide header naming 'player' is refused).
# header names a CSV gives a meaning (a wide CSV's bomb and dealer columns too, SPEC §3)
RESERVED = {"round", "player", "bid", "tricks", "took", "game", "points", "total"} | {
    "bomb",
    "bombe",
    "dealer",
    "geber",
}
NAME_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 '-.\"éßØ李"


@dataclass
class Game:
    """One game as recorded: ``rounds`` are (bids, tricks); tricks None is the round in play."""

    players: list[str]
    settings: dict[str, Any]
    first_dealer: str | None
    rounds: list[tuple[list[int | None], list[int] | None]] = field(default_factory=list)

    @property
    def completed(self) -> int:
        """Rounds with their tricks recorded."""
        return sum(1 for _, tricks in self.rounds if tricks is not None)


def hand_sizes(settings: dict[str, Any], players: int) -> list[int]:
    """Hand size of every round, straight from SPEC §1–2 (independent of the code under test)."""
    mode = settings.get("roundMode", "wholeDeck")
    deck_rounds = 60 // players
    if mode == "custom":
        return list(range(1, settings.get("customRoundCount", 10) + 1))
    if mode == "quickPlay":
        return sorted(range(deck_rounds, 0, -2))
    return list(range(1, deck_rounds + 1))


names = st.text(NAME_CHARS, min_size=1, max_size=8).filter(
    lambda name: name == name.strip() and name.lower() not in RESERVED
)


@st.composite
def rule_settings(draw, players: int) -> dict[str, Any]:
    """A consistent subset of settings, as a sheet's ``settings:`` block would set them."""
    chosen: dict[str, Any] = {}
    mode = draw(st.sampled_from(["wholeDeck", "custom", "quickPlay"]))
    if mode != "wholeDeck" or draw(st.booleans()):
        chosen["roundMode"] = mode
    if mode == "custom":
        chosen["customRoundCount"] = draw(st.integers(1, min(20, 60 // players)))
    for key, (low, high, step) in INT_SETTINGS.items():
        if draw(st.booleans()):
            chosen[key] = draw(st.sampled_from(range(low, high + 1, step)))
    for key, options in OPTION_SETTINGS.items():
        if draw(st.booleans()):
            chosen[key] = draw(st.sampled_from(options))
    screw = draw(st.sampled_from(["off", "always", "leaderOnly", "unlessTiedLead"]))
    if screw != "off":
        chosen["screwTheDealer"] = screw
    elif draw(st.booleans()):
        chosen["bidding"] = draw(st.sampled_from(["open", "hidden", "delayed"]))
    if draw(st.booleans()):
        chosen["canadianRule"] = draw(st.booleans())
    return chosen


@st.composite
def tricks_for(draw, players: int, size: int) -> list[int]:
    """Who took the ``size`` tricks: every trick is won by someone."""
    winners = draw(st.lists(st.integers(0, players - 1), min_size=size, max_size=size))
    return [winners.count(seat) for seat in range(players)]


def clear_of_forbidden(bids: list[int | None], dealer: int, size: int) -> None:
    """Move the dealer's bid off the one ``screwTheDealer: always`` forbids (so every mode is ok)."""
    others = [bid for seat, bid in enumerate(bids) if seat != dealer]
    if bids[dealer] is None or any(bid is None for bid in others):
        return
    if bids[dealer] == size - sum(others):
        bids[dealer] = bids[dealer] + 1 if bids[dealer] < size else bids[dealer] - 1


@st.composite
def games(draw, max_rounds: int | None = None) -> Game:
    """A valid game under random settings: some rounds complete, maybe one in play."""
    count = draw(st.integers(3, 6))
    players = draw(st.lists(names, min_size=count, max_size=count, unique=True))
    settings = draw(rule_settings(count))
    dealer_name = draw(st.none() | st.sampled_from(players))
    first = players.index(dealer_name) if dealer_name is not None else 0
    sizes = hand_sizes(settings, count)
    last = len(sizes) if max_rounds is None else min(len(sizes), max_rounds)
    completed = draw(st.integers(0, last))
    game = Game(players, settings, dealer_name)
    for index in range(completed):
        dealer = (first + index) % count
        bids: list[int | None] = draw(
            st.lists(st.integers(0, sizes[index]), min_size=count, max_size=count)
        )
        clear_of_forbidden(bids, dealer, sizes[index])
        game.rounds.append((bids, draw(tricks_for(count, sizes[index]))))
    if completed < len(sizes) and draw(st.booleans()):
        dealer = (first + completed) % count
        order = [(dealer + offset) % count for offset in range(1, count + 1)]
        bid_in = set(order[: draw(st.integers(0, count))])
        bids = [
            draw(st.integers(0, sizes[completed])) if seat in bid_in else None
            for seat in range(count)
        ]
        clear_of_forbidden(bids, dealer, sizes[completed])
        game.rounds.append((bids, None))
    return game


# --- writers -----------------------------------------------------------------------------


@st.composite
def yaml_text(draw, game: Game) -> str:
    """The game as a YAML sheet: settings inside, each round's values as a list or by name."""
    rounds = []
    for bids, tricks in game.rounds:
        by_name = draw(st.booleans())
        entry: dict[str, Any] = {}
        if by_name:
            entry["bids"] = {name: bid for name, bid in zip(game.players, bids) if bid is not None}
        else:
            entry["bids"] = list(bids)
        if tricks is not None:
            entry["tricks"] = dict(zip(game.players, tricks)) if by_name else list(tricks)
        rounds.append(entry)
    sheet: dict[str, Any] = {"players": game.players}
    if game.first_dealer is not None:
        sheet["firstDealer"] = game.first_dealer
    if game.settings or draw(st.booleans()):
        sheet["settings"] = dict(game.settings)
    if rounds or draw(st.booleans()):
        sheet["rounds"] = rounds
    return yaml.safe_dump(
        sheet,
        sort_keys=False,
        allow_unicode=draw(st.booleans()),
        default_flow_style=draw(st.sampled_from([False, None, True])),
    )


def _csv(rows: list[list[Any]], delimiter: str, newline: str) -> str:
    """Rows as CSV text, as a spreadsheet would export them."""
    out = io.StringIO()
    csv.writer(out, delimiter=delimiter, lineterminator=newline).writerows(rows)
    return out.getvalue()


@st.composite
def csv_style(draw) -> tuple[str, str, str]:
    """(delimiter, line ending, byte-order mark) of an export."""
    return (
        draw(st.sampled_from([",", ";", "\t"])),
        draw(st.sampled_from(["\n", "\r\n"])),
        draw(st.sampled_from(["", "\ufeff"])),
    )


@st.composite
def long_csv_text(draw, game: Game, points: list[list[int]] | None = None) -> str:
    """The game as a long CSV: a row per round and player, columns in any order.

    Round 1 lists the players in seating order (that is how a long CSV gives it); later rounds
    may list them in any order. ``points`` adds the typed-points column ``check`` audits. With
    no rounds there are no rows, so no players: only a game with a round has a long CSV form.
    """
    delimiter, newline, bom = draw(csv_style())
    columns = ["round", "player", "bid", draw(st.sampled_from(["tricks", "took"]))]
    if points is not None:
        columns.append("points")
    if draw(st.booleans()):
        columns.append("note")
    columns = draw(st.permutations(columns))
    header = [draw(st.sampled_from([c, c.upper(), c.capitalize()])) for c in columns]
    rows = [header]
    for number, (bids, tricks) in enumerate(game.rounds, start=1):
        seats = list(range(len(game.players)))
        if number > 1:
            seats = draw(st.permutations(seats))
        for seat in seats:
            cell = {
                "round": number,
                "player": game.players[seat],
                "bid": "" if bids[seat] is None else bids[seat],
                "tricks": "" if tricks is None else tricks[seat],
                "points": "" if tricks is None or points is None else points[number - 1][seat],
                "note": "x",
            }
            cell["took"] = cell["tricks"]
            rows.append([cell[c] for c in columns])
    return bom + _csv(rows, delimiter, newline)


@st.composite
def wide_csv_text(draw, game: Game) -> str:
    """The game as a wide CSV: ``round,<player>…``, cells ``bid/tricks`` (just ``bid`` in play)."""
    delimiter, newline, bom = draw(csv_style())
    spaced = draw(st.booleans())
    rows: list[list[Any]] = [[draw(st.sampled_from(["round", "Round", "ROUND"])), *game.players]]
    for number, (bids, tricks) in enumerate(game.rounds, start=1):
        if tricks is None:
            cells = ["" if bid is None else bid for bid in bids]
        else:
            cells = [
                f"{bid} / {took}" if spaced else f"{bid}/{took}" for bid, took in zip(bids, tricks)
            ]
        rows.append([number, *cells])
    if draw(st.booleans()):
        rows.append(["Total", *([""] * len(game.players))])
    return bom + _csv(rows, delimiter, newline)


def settings_yaml(game: Game) -> str:
    """The game's settings as a ``--settings`` file (CSV cannot carry them)."""
    return yaml.safe_dump(dict(game.settings) or {}, sort_keys=False)
