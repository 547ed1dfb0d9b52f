"""A game whose seating changes (SPEC §1 "Who sits at the table"), checked and scored.

A sheet with a :class:`~wizard_cli.game.seating.Seating` keeps its columns a full table wide
(every listed player, round after round, a player not seated holding None), so every reader
and writer sees the usual shape; this module knows which cells are seated. The rules are those
of :mod:`~wizard_cli.game.scoring` (points, the dealer restriction, competition ranks), applied
round by round to the seated players: hand sizes follow who is seated, the deal passes among
the seated, and the player bidding last takes the dealer's place.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from ..errors import Problem
from .game import Game, GameResult
from .model import BadValue, Sheet
from .scoring import (ScoredColumns, ScoredRound, Standing, base_points, competition_ranks,
                      forbidden_dealer_bid)
from .seating import MAX_LISTED, Seating, bidding_order
from .settings import DECK_SIZE, MAX_PLAYERS, MIN_PLAYERS, Settings, hand_sizes


def round_sizes(s: Settings, first_seated: int) -> tuple[int, ...] | None:
    """The hand sizes of ``custom`` and ``quickPlay`` (``quickPlay``'s for the players seated
    in round 1); None under ``wholeDeck``, where round r deals r and the game ends with the
    round that deals the whole deck to those seated in it."""
    if s.round_mode == "wholeDeck":
        return None
    return hand_sizes(s, max(first_seated, MIN_PLAYERS))


def most_rounds(s: Settings, first_seated: int) -> int:
    """The most rounds the game can have: 20 under ``wholeDeck`` (3 seated), else its count."""
    sizes = round_sizes(s, first_seated)
    return DECK_SIZE // MIN_PLAYERS if sizes is None else len(sizes)


@dataclass(frozen=True, eq=False)
class SeatedGame(Game):
    """A valid sheet with seating (read-only): who is seated, deals and bids each round."""

    @property
    def seating(self) -> Seating:
        return self.sheet.seating

    def seated(self, number: int | None = None) -> list[int]:
        """Round ``number``'s seated seats (the current round's by default): a recorded round's
        as recorded, a later one's as far as known (``joins`` and ``leaves``, no ``out``)."""
        number = number or self.current_round
        if number <= len(self.sheet.rounds):
            return self.seating.seated(number)
        return self.seating.listed(number)

    @functools.cached_property
    def _sizes(self) -> tuple[int, ...] | None:
        return round_sizes(self.settings, len(self.seating.seated(1)))

    def hand_size(self, number: int | None = None) -> int:
        number = number or self.current_round
        return number if self._sizes is None else self._sizes[number - 1]

    def is_last(self, number: int) -> bool:
        """Round ``number`` ends the game (it deals the whole deck to those seated, or it is the
        count's last)."""
        if self._sizes is not None:
            return number == len(self._sizes)
        seated = len(self.seated(number))
        return bool(seated) and number == DECK_SIZE // seated

    @property
    def finished(self) -> bool:
        played = self.rounds_played
        return bool(played) and self.in_play is None and self.is_last(played)

    @property
    def rounds_total(self) -> int:
        if self._sizes is not None:
            return len(self._sizes)
        if self.finished:
            return self.rounds_played
        return DECK_SIZE // max(len(self.seated(self.current_round)), 1)

    @functools.cached_property
    def dealers(self) -> list[int]:
        """The seat dealing each round, the recorded ones and the next to deal."""
        return self.seating.rotation(self.first_dealer, len(self.sheet.rounds) + 1, self.seated)

    def dealer(self, number: int | None = None) -> int:
        number = number or self.current_round
        if number > len(self.dealers):
            return self.seating.rotation(self.first_dealer, number, self.seated)[-1]
        return self.dealers[number - 1]

    def bidding_order(self, number: int | None = None) -> list[int]:
        number = number or self.current_round
        return bidding_order(self.dealer(number), self.seated(number), len(self.players))

    @functools.cached_property
    def result(self) -> GameResult:
        return score_seated(self)

    def remaining(self) -> list[int]:
        """The rounds not yet complete that the game may still have, the round in play
        included: to the count's last, or under ``wholeDeck`` to the first that would deal the
        whole deck to the players listed for it (at most 20)."""
        numbers = []
        number = self.rounds_played + 1
        while number <= most_rounds(self.settings, len(self.seating.seated(1))):
            numbers.append(number)
            if self.is_last(number):
                break
            number += 1
        return numbers

    def bounds(self, result: GameResult) -> tuple[list[int], list[int]]:
        """Each player's greatest and least possible final score (SPEC §1's bound): every
        player plays every remaining round from their ``joins`` to their ``leaves`` (an ``out``
        counts only for its own round, here the round in play's)."""
        from .game import _best, _worst

        s = self.settings
        count = len(self.players)
        in_play = self.in_play
        greatest, least = list(result.totals), list(result.totals)
        for number in self.remaining():
            size = self.hand_size(number)
            playing = (self.seated(number) if in_play is not None and number == in_play.number
                       else self.seating.listed(number))
            bids = (in_play.bids if in_play is not None and number == in_play.number
                    else (None,) * count)
            order = bidding_order(self.dealer(number), playing, count)
            for seat in playing:
                greatest[seat] += _best(bids[seat], size, s)
                least[seat] -= _worst(bids[seat], size, s)
            if order:
                least[order[-1]] -= s.balanced_bid_penalty
        scored = result.scored
        made_all = [True] * count
        for index in range(scored.played):
            for seat in scored.seated[index]:
                at = index * count + seat
                made_all[seat] = made_all[seat] and scored.bids[at] == scored.tricks[at]
        for seat in range(count):
            greatest[seat] += s.final_round_bonus
            if made_all[seat]:
                greatest[seat] += s.perfect_game_bonus
        return greatest, least


@dataclass(slots=True)
class SeatedColumns(ScoredColumns):
    """:class:`ScoredColumns` of a game with seating: every listed seat a column, a seat not
    seated holding None (bids, tricks) or 0 (points) in its rounds; totals start from the
    start scores. ``dealers`` is each recorded round's dealer, ``seated`` its seated seats."""

    dealers: list[int]
    seated: list[frozenset[int]]
    start: tuple[int, ...]

    def totals(self) -> tuple[int, ...]:
        return tuple(start + sum(self.points[seat::self.players])
                     for seat, start in enumerate(self.start))

    def rounds(self) -> tuple[ScoredRound, ...]:
        count, played = self.players, self.played
        totals = list(self.start)
        made = []
        for index, size in enumerate(self.sizes):
            cut = slice(index * count, (index + 1) * count)
            seated = self.seated[index]
            bids = tuple(self.bids[cut])
            if index < played:
                points = self.points[cut]
                totals = [total + point for total, point in zip(totals, points)]
                made.append(ScoredRound(
                    index + 1, size, self.dealers[index], bids, tuple(self.tricks[cut]),
                    tuple(point if seat in seated else None for seat, point in enumerate(points)),
                    tuple(totals), self.forbidden[index] if self.forbidden else None))
            else:
                made.append(ScoredRound(index + 1, size, self.dealers[index], bids, None, None,
                                        None, self.forbidden[index] if self.forbidden else None))
        return tuple(made)


def score_seated(game: SeatedGame) -> GameResult:
    """A valid game with seating scored round by round (SPEC §1): each seated player's points
    by :func:`~wizard_cli.game.scoring.base_points`, ``balancedBidPenalty`` to the player
    bidding last, ``finalRoundBonus`` in the round that ends the game, the forbidden dealer bid
    judged on the seated players' totals (start scores included)."""
    s = game.settings
    count = len(game.players)
    rounds = game.sheet.rounds
    played = game.rounds_played
    seating = game.seating
    bids = list(rounds.bids)
    tricks = list(rounds.tricks[:played * count])
    points = [0] * (played * count)
    totals = list(seating.start)
    sizes, forbidden, seated_by_round, dealers = [], [], [], []
    for index in range(len(rounds)):
        number = index + 1
        size = game.hand_size(number)
        seated = game.seated(number)
        order = game.bidding_order(number)
        last = order[-1]  # the dealer, or the player bidding last in the dealer's place
        cells = [bids[index * count + seat] for seat in seated]
        before = [totals[seat] for seat in seated]
        place = seated.index(last)
        forbidden.append(forbidden_dealer_bid(cells, place, size, s, before))
        sizes.append(size)
        seated_by_round.append(frozenset(seated))
        dealers.append(game.dealer(number))
        if index >= played:
            continue
        for seat in seated:
            at = index * count + seat
            points[at] = base_points(bids[at], tricks[at], size, s)
        if s.balanced_bid_penalty and sum(cells) == size:
            points[index * count + last] -= s.balanced_bid_penalty
        if s.final_round_bonus and game.is_last(number):
            for seat in seated:
                at = index * count + seat
                points[at] += s.final_round_bonus * (bids[at] == tricks[at])
        totals = [total + points[index * count + seat] for seat, total in enumerate(totals)]
    scored = SeatedColumns(count, game.first_dealer, tuple(sizes), bids, tricks, points,
                           None if s.screw_the_dealer == "off" else forbidden, dealers,
                           seated_by_round, tuple(seating.start))
    return GameResult(game, scored, seated_standings(game, scored, totals))


def seated_standings(game: SeatedGame, scored: SeatedColumns,
                     totals: list[int]) -> tuple[Standing, ...]:
    """Every listed player ranked by score, whoever left included (a player who left keeps
    their total), then ``tieBreak``; ``perfectGameBonus`` once finished to a player who made
    every bid of the rounds they sat in (at least one)."""
    s = game.settings
    count = len(game.players)
    played = scored.played
    sat = [0] * count
    made = [0] * count
    bid_sums = [0] * count
    for index in range(played):
        for seat in scored.seated[index]:
            at = index * count + seat
            sat[seat] += 1
            made[seat] += scored.bids[at] == scored.tricks[at]
            bid_sums[seat] += scored.bids[at]
    finished = game.finished
    bonuses = [s.perfect_game_bonus if finished and sat[seat] and made[seat] == sat[seat] else 0
               for seat in range(count)]
    scores = [total + bonus for total, bonus in zip(totals, bonuses)]
    ties = (bid_sums if s.tie_break == "totalBids" else made if s.tie_break == "madeBids"
            else [0] * count)
    ranks = competition_ranks([(score, tie) for score, tie in zip(scores, ties)])
    order = sorted(range(count), key=lambda seat: (ranks[seat], seat))
    return tuple(Standing(ranks[seat], seat, game.players[seat], scores[seat], bonuses[seat])
                 for seat in order)


# --- checking ---------------------------------------------------------------------------

def seated_player_problems(sheet: Sheet) -> list[Problem]:
    """Up to 12 listed players with seating changes (3 to 6 without), and each one's ``joins``
    and ``leaves`` in order (SPEC §4)."""
    seating = sheet.seating
    count = len(sheet.players)
    problems = []
    most = MAX_LISTED if seating.changes else MAX_PLAYERS
    if not MIN_PLAYERS <= count <= most:
        claimed = getattr(sheet.players, "claimed", count)
        has = claimed if getattr(sheet.players, "exact", True) else f"more than {claimed}"
        rule = (f"a game lists {MIN_PLAYERS} to {MAX_LISTED} players with seating changes"
                if seating.changes else f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players")
        problems.append(Problem(f"{rule}, this sheet has {has}", sheet.where,
                                next((line for line in sheet.player_lines if line),
                                     sheet.players_line or sheet.line)))
    seen: set[str] = set()
    for name, line in zip(sheet.players, sheet.player_lines):
        if not name.strip():
            problems.append(Problem("a player's name is empty", sheet.where, line))
        elif name in seen:
            problems.append(Problem(f"player '{name}' is listed twice", sheet.where, line))
        seen.add(name)
    for seat, (joins, leaves) in enumerate(zip(seating.joins, seating.leaves)):
        if seat < count and leaves is not None and joins > leaves:
            problems.append(Problem(f"joins in round {joins}, after leaving in round {leaves}",
                                    sheet.where, seating.entry_lines[seat], None,
                                    sheet.players[seat]))
    return problems


def seated_round_problems(sheet: Sheet, s: Settings, first_dealer: int) -> list[Problem]:
    """Every round of a sheet with seating: 3 to 6 seated, the round fitting the deck and the
    game, the seated players' values whole and in the hand, tricks adding up, and the bid
    forbidden to the player in the dealer's place (SPEC §1, §4)."""
    seating = sheet.seating
    count = len(sheet.players)
    problems: list[Problem] = []
    at = lambda message, line, number=None, player=None: problems.append(  # noqa: E731
        Problem(message, sheet.where, line, number, player))
    first = len(seating.seated(1))
    most = most_rounds(s, first)
    for seat, joins in enumerate(seating.joins):
        if joins > most:
            at(f"joins in round {joins}, past the {most} rounds the game can have",
               seating.entry_lines[seat], None, sheet.players[seat])
    sizes = round_sizes(s, first)
    rounds = sheet.rounds
    last = len(rounds) - 1
    ended = None
    clean = True
    for index, record in enumerate(rounds):
        number = index + 1
        if ended is not None:
            at(f"more rounds than the game has: it ends after round {ended}", record.line, number)
            clean = False
            break
        if sizes is not None and number > len(sizes):
            at(f"more rounds than the game has: it ends after round {len(sizes)} "
               f"(roundMode={s.round_mode})", record.line, number)
            clean = False
            break
        seated = seating.seated(number)
        size = number if sizes is None else sizes[index]
        if not MIN_PLAYERS <= len(seated) <= MAX_PLAYERS:
            at(f"{len(seated)} players seated: a round seats {MIN_PLAYERS} to {MAX_PLAYERS}",
               seating.out_lines.get(number, record.line), number)
            clean = False
            continue
        if size * len(seated) > DECK_SIZE:
            at(f"does not fit the deck: {len(seated)} seated need {size * len(seated)} cards "
               f"for a hand of {size}, the deck has {DECK_SIZE}", record.line, number)
            clean = False
            continue
        before = len(problems)
        _seated_values(sheet, record, seated, size, index == last, at)
        clean = clean and len(problems) == before
        if record.tricks is not None and (sizes is None and number == DECK_SIZE // len(seated)):
            ended = number
    if clean and s.screw_the_dealer != "off" and rounds and not problems:
        game = SeatedGame(sheet, s, first_dealer)
        result = game.result
        for scored in result.rounds:
            order = game.bidding_order(scored.number)
            last_bidder = order[-1]
            bid = scored.bids[last_bidder]
            if scored.forbidden is not None and bid == scored.forbidden:
                from .validation import forbidden_message

                at(forbidden_message(sheet.players[last_bidder], scored.forbidden,
                                     scored.hand_size, s.screw_the_dealer),
                   rounds[scored.number - 1].bid_lines[last_bidder], scored.number,
                   sheet.players[last_bidder])
    return problems


def _seated_values(sheet: Sheet, record, seated: list[int], size: int, is_last: bool,
                   at) -> None:
    """One round's values for its seated players (values for the others were refused when
    read, naming why)."""
    from .validation import _check_value

    number = record.number
    in_play = record.tricks is None
    if in_play and not is_last:
        at("no tricks recorded, but only the last recorded round may be still in play",
           record.line, number)
    no_bids = all(record.bids[seat] is None for seat in seated)
    if no_bids and not in_play:
        at("tricks with no bids", record.line, number)
    check = lambda *args: at(args[0], args[1], number, args[2])  # noqa: E731
    for seat in seated:
        name = sheet.players[seat]
        bid = record.bids[seat]
        if bid is None and not no_bids and not (in_play and is_last):
            at("missing bid", record.bid_lines[seat], number, name)
        _check_value(check, "bid", bid, size, record.bid_lines[seat], name)
        if not in_play:
            took = record.tricks[seat]
            if took is None:
                at("missing tricks", record.trick_lines[seat], number, name)
            _check_value(check, "tricks", took, size, record.trick_lines[seat], name)
    if not in_play:
        values = [record.tricks[seat] for seat in seated]
        if all(isinstance(value, int) for value in values) and sum(values) != size:
            total = sum(values)
            gap = f"{total - size} more than" if total > size else f"{size - total} short of"
            at(f"tricks add up to {total}, {gap} the hand size of {size}",
               record.tricks_line or record.line, number)
    for seat in range(len(sheet.players)):  # a reader never fills these; a caller might
        if seat not in seated and (record.bids[seat] is not None or (
                not in_play and record.tricks[seat] is not None)):
            if not isinstance(record.bids[seat], BadValue):
                at(f"a value for a player not seated: "
                   f"{sheet.seating.why_not_seated(seat, number)}", record.bid_lines[seat],
                   number, sheet.players[seat])
