"""Runs of a season's games as columns (the season lane, issues 20 and 30): a long CSV's
whole regular games of one shape (:class:`~wizard_cli.game.model.GameRun`) checked, scored and
ranked at once by the rules one game is, and folded whole into a season's tallies.

Nothing here has a rule of its own: the points, extras and dealer restriction are
:mod:`~wizard_cli.game.scoring`'s, the checks :mod:`~wizard_cli.game.validation`'s, applied
over a run's columns with no object nor Python step per game.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from .game import GameResult, score_game
from .model import RUN_FIRST_DEALER, GameRun, cell_sizes, round_sums
from .scoring import (
    Ranked,
    add_extras,
    balanced_rounds,
    changed_bids,
    cloud_fits,
    dealer_seat,
    forbidden_bids_made,
    points_tables,
    rank_games,
    tricks_taken,
)
from .seating import Seating, bidding_order
from .settings import RawSetting, Settings, hand_sizes
from .validation import Checked, check_sheet, resolve_once


def check_run(
    run: GameRun, layers: Sequence[Iterable[RawSetting]] = (), first_dealer: str | None = None
) -> RunStandings | None:
    """The season lane's check of a whole run of regular games: their standings when every game
    is valid and finished, exactly as :func:`check_sheet` and ``score_game`` find each; None
    when any one is not (then each game goes the general way, which says what is wrong).

    A run's games have 3–6 distinct named players, no reading problem, and every value a plain
    number (GameRun), so what is left to judge is the rules given outside the sheet, the values
    in their hands (the points tables, in :func:`score_run`), each
    round's tricks adding up to what it takes (:func:`tricks_taken`: one less with the Bomb),
    each Cloud as :func:`~wizard_cli.game.validation.special_card_problems` judges it, and the dealer's bid under
    ``screwTheDealer``. A game recording a Bomb or a Cloud has ``specialCards: true`` unless
    a setting says otherwise (SPEC §3), which would make it invalid.
    """
    if first_dealer is not None:  # a run is dealt first by RUN_FIRST_DEALER
        return None
    resolved = resolve_once([[], *layers], run.players)  # a CSV game has no settings of its own
    if resolved.problems:
        return None
    marked = run.marked_games()
    special = None
    if marked is not None:
        special = resolve_once([[_SPECIAL_CARDS], *layers], run.players).settings
        if not special.special_cards:
            return None  # a Bomb or a Cloud with specialCards off: said the general way
    sizes = hand_sizes(resolved.settings, run.players)
    count, rounds = run.players, run.rounds
    if rounds != len(sizes):
        return None
    taken = list(sizes) * len(run)
    for cell in run.bombs:
        at = cell // count
        taken[at] = tricks_taken(taken[at], True)
    if round_sums(run.tricks, count) != taken:  # as all_clean and _values_problems judge a game
        return None
    bids, tricks = run.bids, run.tricks
    for cell, change in run.clouds:
        size = sizes[cell // count % rounds]
        # as special_card_problems: in the hand as called and changed, to a player who took a trick
        if not (bids[cell] <= size and cloud_fits(bids[cell], change, size) and tricks[cell]):
            return None
    standings = score_run(run, resolved.settings)
    if standings is not None and marked is not None:
        standings.marked = marked
        standings.marked_settings = None if special == resolved.settings else special
    return standings


_SPECIAL_CARDS = RawSetting("specialCards", True)  # what a recorded Bomb or Cloud implies


class RunStandings:
    """The standings of every game of a :class:`~wizard_cli.game.model.GameRun`, as plain ints:
    ``places``, ``ranks``, ``scores`` and ``bonuses`` as :class:`Ranked` gives them, what
    :func:`~wizard_cli.game.scoring.standings` gives for each game, with no object per game or
    round; ranked when first asked for (``stats --by handSize`` and ``check`` never ask).
    ``points`` is every cell's
    points, in the run's order of ``bids`` and ``tricks`` (what ``stats --by`` adds up);
    ``made_bids`` the bids as scored, where a Cloud changed one. ``marked``: which games record
    a Bomb or a Cloud (None: none does), and ``marked_settings`` their settings when those
    differ from ``settings`` (a recorded special card means ``specialCards: true``, SPEC §3).
    Treat it as read-only."""

    __slots__ = ("settings", "points", "made_bids", "marked", "marked_settings", "_rank", "_ranked")

    def __init__(self, settings: Settings, points: list[int], rank: Callable[[], Ranked]) -> None:
        self.settings, self.points, self._rank = settings, points, rank
        self._ranked: Ranked | None = None
        self.made_bids: list[int] | None = None
        self.marked: list[bool] | None = None
        self.marked_settings: Settings | None = None

    @property
    def ranked(self) -> Ranked:
        """The games ranked (worked out once, when first asked for)."""
        if self._ranked is None:
            self._ranked = self._rank()
        return self._ranked

    @property
    def places(self) -> list[tuple[int, ...]]:
        return self.ranked.places

    @property
    def ranks(self) -> list[tuple[int, ...]]:
        return self.ranked.ranks

    @property
    def scores(self) -> list[tuple[int, ...]]:
        return self.ranked.scores

    @property
    def bonuses(self) -> list[tuple[int, ...]]:
        return self.ranked.bonuses

    def settings_of(self, game: int) -> Settings:
        """Game ``game``'s settings."""
        if self.marked_settings is not None and self.marked is not None and self.marked[game]:
            return self.marked_settings
        return self.settings


_LOOK_UP: Callable[[Any, int], Any] = operator.getitem  # a table's row, a row's value


def score_run(run: GameRun, s: Settings) -> RunStandings | None:
    """A run of finished games (``run.rounds`` is the game's last round under ``s``) scored,
    each game's standings as :func:`~wizard_cli.game.game.score_game` ranks them, under every
    rule (the Clouds by :func:`changed_bids`, the extras by :func:`add_extras`, as for one
    game). None when a value is outside its hand (the points tables double as the range
    check) or a dealer made the bid ``screwTheDealer`` forbids (:func:`forbidden_bids_made`):
    such games are not scored. A Cloud's bid, as called and changed, must already be known to
    lie in its hand (:func:`check_run`). Ranked by :func:`rank_games`, as a lone
    game is."""
    count, rounds = run.players, run.rounds
    sizes = hand_sizes(s, count)
    if rounds != len(sizes):
        return None
    made = changed_bids(run.bids, run.clouds) if run.clouds else None
    try:  # each cell's table, bid, then tricks: an IndexError for a value outside the hand
        points: list[int] = list(
            map(
                _LOOK_UP,
                map(
                    _LOOK_UP,
                    cell_lists(s, sizes, count) * len(run),
                    run.bids if made is None else made,
                ),
                run.tricks,
            )
        )
    except IndexError:
        return None
    for cell in run.outs:  # a player sitting a round out scores nothing in it (SPEC §1)
        points[cell] = 0
    dealt = s.balanced_bid_penalty or s.screw_the_dealer != "off"  # who deals matters
    balanced = balanced_rounds(run.bids, sizes, count, len(run.bids)) if dealt else []
    places, seated = sit_out_rounds(run) if dealt else ({}, {})
    if s.balanced_bid_penalty or s.final_round_bonus:
        add_extras(
            points,
            run.bids,
            run.tricks,
            sizes,
            count,
            RUN_FIRST_DEALER,
            s,
            balanced,
            made_bids=made,
            places=places,
            outs=run.outs,
        )
    if forbidden_bids_made(
        run.bids, points, sizes, count, RUN_FIRST_DEALER, s, balanced, places, seated
    ):
        return None
    scored = RunStandings(
        s,
        points,
        functools.partial(
            rank_games,
            points,
            run.bids,
            run.tricks,
            count,
            rounds,
            len(run),
            s,
            True,
            made,
            run.outs,
        ),
    )
    scored.made_bids = made
    return scored


def sit_out_rounds(run: GameRun) -> tuple[dict[int, int], dict[int, tuple[int, ...]]]:
    """Where someone sits a round out in a run (SPEC §1): the seat in the dealer's place of
    each round (by index) where it is not the rotation's dealer, and the seated seats of each
    round with an ``out``. The deal passes on among the seated (:meth:`Seating.rotation`), and
    when the dealer sits out, the player bidding last takes their place (:func:`bidding_order`)."""
    places: dict[int, int] = {}
    seated: dict[int, tuple[int, ...]] = {}
    if not run.outs:
        return places, seated
    count, rounds = run.players, run.rounds
    games: dict[int, dict[int, set[int]]] = {}  # game → its rounds (from 1) → seats out
    for cell in run.outs:
        index = cell // count
        games.setdefault(index // rounds, {}).setdefault(index % rounds + 1, set()).add(
            cell % count
        )
    for game, out in games.items():
        first = game * rounds - 1  # (round r of the game is round index first + r of the run)
        pattern = tuple(sorted((number, frozenset(seats)) for number, seats in out.items()))
        game_places, game_seated = _sit_out_game(count, rounds, pattern)
        for number, place in game_places:
            places[first + number] = place
        for number, here in game_seated:
            seated[first + number] = here
    return places, seated


@functools.lru_cache(maxsize=1024)
def _sit_out_game(
    count: int, rounds: int, out: tuple[tuple[int, frozenset[int]], ...]
) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, tuple[int, ...]], ...]]:
    """One game's rounds (from 1) whose dealer's place is off the rotation, with that seat,
    and its rounds with someone out, with their seated seats (see :func:`sit_out_rounds`);
    worked out once for each way of sitting out (a season repeats them)."""
    seating = Seating.plain(count)
    seating.out = dict(out)
    places, seated = [], []
    for number, dealer in enumerate(seating.rotation(RUN_FIRST_DEALER, rounds, seating.seated), 1):
        here = seating.seated(number)
        place = bidding_order(dealer, here, count)[-1]
        if place != dealer_seat(RUN_FIRST_DEALER, number, count):
            places.append((number, place))
        if len(here) < count:
            seated.append((number, tuple(here)))
    return tuple(places), tuple(seated)


@functools.lru_cache(maxsize=64)
def cell_lists(s: Settings, sizes: tuple[int, ...], count: int) -> tuple[list[list[int]], ...]:
    """:func:`_cell_tables` as lists (indexed faster than dictionaries), for a run's values:
    plain numbers (0–99, GameRun), never negative, so a value outside the hand is an
    IndexError, never a wrapped index."""
    lists = [
        [[table[bid][took] for took in range(len(table))] for bid in range(len(table))]
        for table in points_tables(s)
    ]
    return tuple(lists[size] for size in cell_sizes(sizes, count))


Layers = Sequence[Iterable[RawSetting]]  # the settings given outside a sheet, layer by layer


@dataclass(slots=True)
class CheckedRun:
    """A run of a long CSV's games checked whole (the season lane, issues 20 and 30): the run,
    its standings (every game valid and finished), and the rules it was checked by, so that
    whoever cannot take it whole asks it for its :meth:`parts` (output does not check)."""

    run: GameRun
    standings: RunStandings
    layers: Layers = ()
    first_dealer: str | None = None

    def parts(self) -> Iterator[CheckedRun | Checked]:
        """The run taken apart: see :func:`run_parts`."""
        return run_parts(self.run, self.layers, self.first_dealer)

    def scored(self) -> ScoredRun:
        """The run as scored games, every one kept."""
        return ScoredRun(
            self.run, self.standings, range(len(self.run)), self.layers, self.first_dealer
        )


def checked_runs(
    run: GameRun, layers: Layers = (), first_dealer: str | None = None
) -> Iterator[CheckedRun | Checked]:
    """A run as it is checked: one :class:`CheckedRun` when :func:`check_run` takes it whole,
    else its :func:`run_parts`."""
    standings = check_run(run, layers, first_dealer)
    if standings is None:
        return run_parts(run, layers, first_dealer)
    return iter((CheckedRun(run, standings, layers, first_dealer),))


def run_parts(
    run: GameRun, layers: Layers = (), first_dealer: str | None = None
) -> Iterator[CheckedRun | Checked]:
    """A run not taken whole, in file order: each game checked as its own sheet, as every other
    sheet is. A run in which someone sits a round out is cut in pieces first
    (:meth:`GameRun.pieces`): the games of a piece without one are a run again, which may be
    checked whole (output that draws no seating then draws them at once)."""
    pieces = run.pieces() if run.outs else iter((run,))
    for piece in pieces:
        if piece.outs or piece is run:
            for sheet in piece.sheets():
                yield check_sheet(sheet, layers, first_dealer)
        else:
            yield from checked_runs(piece, layers, first_dealer)


@dataclass(slots=True)
class ScoredRun:
    """The games of a checked :class:`~wizard_cli.game.model.GameRun`, scored: the run, its
    standings (every game valid and finished), the indices of the games kept (ascending; a
    season's filter may keep fewer), and the rules it was checked by. What a season
    (``stats``, ``ratings``) or an output needs of each game, with no
    :class:`~wizard_cli.game.game.GameResult` made for it (the season lane, issue 20)."""

    run: GameRun
    standings: RunStandings
    kept: Sequence[int]
    layers: Layers = ()
    first_dealer: str | None = None

    def parts(self) -> Iterator[ScoredRun | GameResult]:
        """The whole run taken apart as :meth:`CheckedRun.parts` takes it, each game scored (a
        run's games are all valid: so is each part); for a season that cannot take a run
        whole, before its filter keeps any fewer."""
        for part in run_parts(self.run, self.layers, self.first_dealer):
            if isinstance(part, CheckedRun):
                yield part.scored()
            else:
                assert part.validated is not None  # (a game of a run checked whole is valid)
                yield score_game(part.validated)

    def segments(self) -> Iterator[tuple[tuple[str, ...], int, int]]:
        """The kept games as ``(table, start, stop)``: games ``start:stop`` of the run, one
        after another, all kept and at one table (players in one seating order)."""
        tables = self.run.tables
        table: tuple[str, ...] = ()
        start = stop = 0
        for index in self.kept:
            here = tables[index]
            if index != stop or here != table:
                if stop > start:
                    yield table, start, stop
                table, start = here, index
            stop = index + 1
        if stop > start:
            yield table, start, stop

    def seat_ranks(self, index: int) -> list[int]:
        """Game ``index``'s ranks in seating order."""
        return list(_seat_ranks(self.standings.places[index], self.standings.ranks[index]))


@functools.lru_cache(maxsize=1024)
def _seat_ranks(places: tuple[int, ...], ranks: tuple[int, ...]) -> tuple[int, ...]:
    """The ranks at ``places`` (seats in standings order) in seating order: a season's games
    have few distinct orders, so each is worked out once."""
    seated = [0] * len(places)
    for seat, rank in zip(places, ranks):
        seated[seat] = rank
    return tuple(seated)


Scored = TypeVar("Scored")  # a scored game (a GameResult): fold_in only hands it on


def fold_in(
    results: Iterable[Scored | ScoredRun],
    add: Callable[[Scored], object],
    add_run: Callable[[ScoredRun], object],
) -> None:
    """Each scored game of a season to ``add``, each checked run of them (the season lane) to
    ``add_run``, in file order: how ``stats``, ``stats --by`` and ``ratings`` take a season."""
    for result in results:
        if isinstance(result, ScoredRun):
            add_run(result)
        else:
            add(result)
