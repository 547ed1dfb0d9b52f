"""Checking a sheet against the game and the house rules (SPEC §4), every problem at once."""

from __future__ import annotations

import dataclasses
import functools
import operator
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import cast

from ..errors import Problem, WizardError
from .game import Game, GameResult
from .model import (
    BadValue,
    HoldsSheet,
    RoundColumns,
    RoundRecord,
    Sheet,
    SheetFormat,
    cell_sizes,
    round_sums,
)
from .round_values import (
    IN_HAND,
    check_value,
    special_card_problems,
    tricks_sum_message,
    values_problems,
)
from .scoring import dealer_seat, forbidden_dealer_bid, score_columns, tricks_taken
from .seating import MAX_LISTED, Seating
from .settings import (
    DECK_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RawSetting,
    Resolved,
    Settings,
    hand_sizes,
    resolve,
    suggest,
)


@dataclass(frozen=True, slots=True)
class Checked(HoldsSheet):
    """A sheet with its effective settings and first dealer, and everything wrong with it;
    ``validated`` is the :class:`~wizard_cli.game.game.Game` it makes when nothing is."""

    sheet: Sheet
    settings: Settings
    first_dealer: int
    problems: list[Problem]
    validated: Game | None = None

    @property
    def valid(self) -> bool:
        """No problem at all: the sheet can be scored."""
        return not self.problems


def check_sheet(
    sheet: Sheet, layers: Sequence[Iterable[RawSetting]] = (), first_dealer: str | None = None
) -> Checked:
    """Validate one sheet; ``layers`` are the settings given outside it (``--settings``, ``--set``).

    ``first_dealer`` (``--first-dealer``) overrides the sheet's own ``firstDealer``.
    """
    seating = sheet.seating
    if seating is not None:  # joins, leaves, sits out or a recorded dealer (SPEC §1)
        return _check_seated(sheet, seating, layers, first_dealer)
    problems = list(sheet.problems)
    count = len(sheet.players)
    players_ok = MIN_PLAYERS <= count <= MAX_PLAYERS
    resolved = resolve_once([sheet.settings, *layers], count if players_ok else None)
    problems += resolved.problems
    player_problems = _player_problems(sheet)
    problems += player_problems
    dealer, dealer_problem = _first_dealer_seat(sheet, first_dealer)
    if dealer_problem:
        problems.append(dealer_problem)
    if not player_problems:  # rounds are read against the table: 3–6 distinct, named players
        problems += round_problems(sheet, resolved.settings, dealer)
    if problems:
        # A --set that does not fit this sheet (customRoundCount for its players) names the sheet.
        problems = [located(problem, sheet) for problem in problems]
        problems.sort(key=lambda problem: problem.line or 0)  # file order; unlocated ones first
    if sheet.problems_dropped:
        problems.append(
            Problem(
                f"… and {sheet.problems_dropped} more problems in this sheet (not shown)",
                sheet.where,
            )
        )
    return Checked(
        sheet,
        resolved.settings,
        dealer,
        problems,
        None if problems else Game(sheet, resolved.settings, dealer),
    )


def located(problem: Problem, sheet: Sheet) -> Problem:
    """A sheet's problem with where it stands: the sheet's source when the problem has none (a
    --set that does not fit this sheet names it); in another app's export, its game too (SPEC
    §3: `PATH: game G, round R: …`), as a record's line alone does not tell games apart."""
    if not problem.path:
        problem = dataclasses.replace(problem, path=sheet.where)
    if sheet.kind in EXPORTS and sheet.game is not None and problem.game is None:
        problem = dataclasses.replace(problem, game=sheet.game)
    return problem


EXPORTS = (SheetFormat.KEEPWIZ, SheetFormat.ESCALIER)


def _check_seated(
    sheet: Sheet, seating: Seating, layers: Sequence[Iterable[RawSetting]], first_dealer: str | None
) -> Checked:
    """:func:`check_sheet` for a sheet with seating: the same problems, judged on the players
    seated in each round (:mod:`~wizard_cli.game.seated`)."""
    from .seated import SeatedGame

    problems = list(sheet.problems)
    player_problems = _seated_player_problems(sheet, seating)
    first = len(seating.seated(1))
    resolved = resolve_once(
        [sheet.settings, *layers],
        first if not player_problems and MIN_PLAYERS <= first <= MAX_PLAYERS else None,
    )
    problems += resolved.problems + player_problems + _seat_order_problems(sheet, seating)
    name = first_dealer if first_dealer is not None else sheet.first_dealer
    dealer, dealer_problem = _first_dealer_seat(sheet, first_dealer)
    if name is None and seating.seated(1):  # the first player seated in round 1
        dealer = seating.seated(1)[0]
    if dealer_problem:
        problems.append(dealer_problem)
    if not player_problems:  # rounds are read against the table, as for any sheet
        problems += _seated_round_problems(sheet, seating, resolved.settings, dealer)
    if problems:
        problems = [located(problem, sheet) for problem in problems]
        problems.sort(key=lambda problem: problem.line or 0)
    if sheet.problems_dropped:
        problems.append(
            Problem(
                f"… and {sheet.problems_dropped} more problems in this sheet (not shown)",
                sheet.where,
            )
        )
    return Checked(
        sheet,
        resolved.settings,
        dealer,
        problems,
        None if problems else SeatedGame(sheet, resolved.settings, dealer),
    )


def _seated_player_problems(sheet: Sheet, seating: Seating) -> list[Problem]:
    """Up to 12 listed players with seating changes (3 to 6 without: a start score is not one,
    SPEC §1), each named once: the table the rounds are read against (SPEC §4)."""
    count = len(sheet.players)
    problems = []
    most = MAX_LISTED if seating.moves else MAX_PLAYERS
    if not MIN_PLAYERS <= count <= most:
        claimed = getattr(sheet.players, "claimed", count)
        has = claimed if getattr(sheet.players, "exact", True) else f"more than {claimed}"
        rule = (
            f"a game lists {MIN_PLAYERS} to {MAX_LISTED} players with seating changes"
            if seating.moves
            else f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players"
        )
        problems.append(
            Problem(
                f"{rule}, this sheet has {has}",
                sheet.where,
                next(
                    (line for line in sheet.player_lines if line), sheet.players_line or sheet.line
                ),
            )
        )
    seen: set[str] = set()
    for name, line in zip(sheet.players, sheet.player_lines):
        if not name.strip():
            problems.append(Problem("a player's name is empty", sheet.where, line))
        elif name in seen:
            problems.append(Problem(f"player '{name}' is listed twice", sheet.where, line))
        seen.add(name)
    return problems


def _seat_order_problems(sheet: Sheet, seating: Seating) -> list[Problem]:
    """Each player's ``joins`` no later than their ``leaves`` (SPEC §4), at the ``joins`` value's
    line; such a player is seated in no round, and the rounds are still checked."""
    return [
        Problem(
            f"joins in round {joins}, after leaving in round {leaves}",
            sheet.where,
            seating.line_of(seat, "joins"),
            None,
            sheet.players[seat],
        )
        for seat, (joins, leaves) in enumerate(zip(seating.joins, seating.leaves))
        if seat < len(sheet.players) and leaves is not None and joins > leaves
    ]


def _seated_round_problems(
    sheet: Sheet, seating: Seating, s: Settings, first_dealer: int
) -> list[Problem]:
    """Every round of a sheet with seating: 3 to 6 seated, the round fitting the deck and the
    game, the seated players' values whole and in the hand, tricks adding up, and the bid
    forbidden to the player in the dealer's place (SPEC §1, §4)."""
    from . import seated as rules  # it imports the Game this module makes: at call time

    problems: list[Problem] = []
    at = lambda message, line, number=None, player=None: problems.append(  # noqa: E731
        Problem(message, sheet.where, line, number, player)
    )
    first = len(seating.seated(1))
    most = rules.most_rounds(s, first)
    for seat, joins in enumerate(seating.joins):
        if joins > most:
            at(
                f"joins in round {joins}, past the {most} rounds the game can have",
                seating.line_of(seat, "joins"),
                None,
                sheet.players[seat],
            )
    sizes = rules.round_sizes(s, first)
    rounds = sheet.rounds
    last = len(rounds) - 1
    ended = None
    clean: list[bool] = []  # each round judged: no problem in it
    for index, record in enumerate(rounds):
        number = index + 1
        if ended is not None:
            at(f"more rounds than the game has: it ends after round {ended}", record.line, number)
            break
        if sizes is not None and number > len(sizes):
            at(
                f"more rounds than the game has: it ends after round {len(sizes)} "
                f"(roundMode={s.round_mode})",
                record.line,
                number,
            )
            break
        seated = seating.seated(number)
        size = number if sizes is None else sizes[index]
        if not MIN_PLAYERS <= len(seated) <= MAX_PLAYERS:
            at(
                f"{len(seated)} players seated: a round seats {MIN_PLAYERS} to {MAX_PLAYERS}",
                seating.out_lines.get(number, record.line),
                number,
            )
            clean.append(False)
            continue
        if size * len(seated) > DECK_SIZE:
            at(
                f"does not fit the deck: {len(seated)} seated need {size * len(seated)} cards "
                f"for a hand of {size}, the deck has {DECK_SIZE}",
                record.line,
                number,
            )
            clean.append(False)
            continue
        before = len(problems)
        _seated_values(sheet, seating, record, seated, size, index == last, at)
        if record.bomb or record.cloud is not None:
            problems += special_card_problems(sheet, record, size, s, seated)
        clean.append(len(problems) == before)
        if record.tricks is not None and (sizes is None and number == DECK_SIZE // len(seated)):
            ended = number
    else:
        problems += _next_round_problems(sheet, seating, sizes, ended)
    if s.screw_the_dealer != "off":
        problems += _seated_dealer_problems(sheet, s, first_dealer, clean)
    return problems


def _next_round_problems(
    sheet: Sheet, seating: Seating, sizes: tuple[int, ...] | None, ended: int | None
) -> list[Problem]:
    """The round to be dealt next, unless the game is finished, seats 3 to 6 as far as its
    seating is known (``joins`` and ``leaves``: SPEC §1 "every round seats 3 to 6"), at the
    value of the player whose joining or leaving makes it so, else the ``players`` line."""
    rounds = sheet.rounds
    if rounds and rounds[-1].tricks is None:  # the round in play is recorded: judged above
        return []
    number = len(rounds) + 1
    if ended is not None or (sizes is not None and number > len(sizes)):
        return []  # finished
    count = len(seating.listed(number))
    if MIN_PLAYERS <= count <= MAX_PLAYERS:
        return []
    if number > 1 and not MIN_PLAYERS <= len(seating.seated(number - 1)) <= MAX_PLAYERS:
        return []  # the recorded round before it is a problem already
    moves = [
        (seat, key)
        for seat, (joins, leaves) in enumerate(zip(seating.joins, seating.leaves))
        for key, at in (("joins", joins), ("leaves", None if leaves is None else leaves + 1))
        if at == number and number > 1
    ]
    seat, key = moves[-1] if moves else (None, "")
    return [
        Problem(
            f"round {number} would seat {count} players: a round seats "
            f"{MIN_PLAYERS} to {MAX_PLAYERS}",
            sheet.where,
            sheet.players_line if seat is None else seating.line_of(seat, key),
            None,
            None if seat is None else sheet.players[seat],
        )
    ]


def _seated_dealer_problems(
    sheet: Sheet, s: Settings, first_dealer: int, clean: list[bool]
) -> list[Problem]:
    """The bid forbidden to the player in the dealer's place, as for any sheet (SPEC §4: every
    problem): judged on the totals before each round while every round before it is clean;
    in a clean round after one that is not, only under ``always``, which needs no total."""
    from . import seated as rules

    problems = []
    prefix = clean.index(False) if False in clean else len(clean)
    part = dataclasses.replace(sheet, rounds=sheet.rounds[:prefix])
    part.seating = sheet.seating
    game = rules.SeatedGame(part, s, first_dealer)
    found = [
        (scored.number, scored.forbidden, scored.hand_size)
        for scored in (game.result.rounds if prefix else ())
    ]
    if s.screw_the_dealer == "always":
        game = rules.SeatedGame(sheet, s, first_dealer)
        for index in range(prefix + 1, len(clean)):
            if clean[index]:
                seated = game.seated(index + 1)
                last = game.bidding_order(index + 1)[-1]
                size = game.hand_size(index + 1)
                bids = cast(
                    "list[int | None]",
                    [  # a clean round's: whole numbers
                        sheet.rounds.bids[index * len(sheet.players) + seat] for seat in seated
                    ],
                )
                found.append(
                    (
                        index + 1,
                        forbidden_dealer_bid(bids, seated.index(last), size, s, [0] * len(seated)),
                        size,
                    )
                )
    for number, forbidden, size in found:
        last = game.bidding_order(number)[-1]  # the dealer, or who bids in their place
        record = sheet.rounds[number - 1]
        if forbidden is not None and record.bids[last] == forbidden:
            problems.append(
                Problem(
                    forbidden_message(sheet.players[last], forbidden, size, s.screw_the_dealer),
                    sheet.where,
                    record.bid_lines[last],
                    number,
                    sheet.players[last],
                )
            )
    return problems


def _seated_values(
    sheet: Sheet,
    seating: Seating,
    record: RoundRecord,
    seated: list[int],
    size: int,
    is_last: bool,
    at,
) -> None:
    """One round's values for its seated players (values for the others were refused when
    read, naming why)."""
    number = record.number
    tricks, trick_lines = record.tricks, record.trick_lines
    in_play = tricks is None
    if in_play and not is_last:
        at(
            "no tricks recorded, but only the last recorded round may be still in play",
            record.line,
            number,
        )
    no_bids = all(record.bids[seat] is None for seat in seated)
    if no_bids and not in_play:
        at("tricks with no bids", record.line, number)
    check = lambda *args: at(args[0], args[1], number, args[2])  # noqa: E731
    for seat in seated:
        name = sheet.players[seat]
        bid = record.bids[seat]
        if bid is None and not no_bids and not (in_play and is_last):
            at("missing bid", record.bid_lines[seat], number, name)
        check_value(check, "bid", bid, size, record.bid_lines[seat], name)
        if tricks is not None:
            assert trick_lines is not None  # read with the tricks
            took = tricks[seat]
            if took is None:
                at("missing tricks", trick_lines[seat], number, name)
            check_value(check, "tricks", took, size, trick_lines[seat], name)
    if tricks is not None:
        values = [tricks[seat] for seat in seated]
        if all(isinstance(value, int) for value in values) and sum(
            cast("list[int]", values)
        ) != tricks_taken(size, record.bomb):
            at(
                tricks_sum_message(sum(cast("list[int]", values)), size, record.bomb),
                record.tricks_line or record.line,
                number,
            )
    for seat in range(len(sheet.players)):  # a reader never fills these; a caller might
        if (
            seat not in seated
            and (record.bids[seat] is not None or (tricks is not None and tricks[seat] is not None))
            and not isinstance(record.bids[seat], BadValue)
        ):
            at(
                f"a value for a player not seated: {seating.why_not_seated(seat, number)}",
                record.bid_lines[seat],
                number,
                sheet.players[seat],
            )


def validated_game(
    sheet: Sheet, layers: Sequence[Iterable[RawSetting]] = (), first_dealer: str | None = None
) -> Game:
    """The sheet as a validated Game; every problem raised at once as the usual error."""
    checked = check_sheet(sheet, layers, first_dealer)
    if checked.problems:
        raise WizardError(*checked.problems)
    assert checked.validated is not None  # made whenever there is no problem
    return checked.validated


def repairable_game(
    sheet: Sheet, layers: Sequence[Iterable[RawSetting]] = (), first_dealer: str | None = None
) -> Game:
    """The sheet as a Game for ``edit`` and ``undo`` to change even when its rounds break a
    rule (tricks past the hand size, a forbidden dealer bid: the change may be the repair, and
    the sheet is checked whole after it, SPEC §5). The players, settings and first dealer must
    hold; else every problem is raised, as for :func:`validated_game`."""
    checked = check_sheet(sheet, layers, first_dealer)
    if checked.validated is not None:
        return checked.validated
    table = dataclasses.replace(sheet, rounds=RoundColumns(), problems=[], problems_dropped=0)
    table.seating = sheet.seating
    if not sheet.rounds or not check_sheet(table, layers, first_dealer).valid:
        raise WizardError(*checked.problems)
    return _game_of(sheet, checked)


def _game_of(sheet: Sheet, checked: Checked) -> Game:
    """A Game of a sheet whose table holds, the seated kind when the sheet has seating."""
    if sheet.seating is not None:
        from .seated import SeatedGame

        return SeatedGame(sheet, checked.settings, checked.first_dealer)
    return Game(sheet, checked.settings, checked.first_dealer)


def resolve_once(layers: list[Iterable[RawSetting]], players: int | None) -> Resolved:
    """``resolve``, worked out once for each distinct set of layers: a season's sheets share one."""
    key = (tuple(tuple(layer) for layer in layers), players)
    try:
        return _resolve_cached(key)
    except TypeError:  # a value that cannot be a key (none of YAML's scalars): no cache
        return resolve(*key)


@functools.lru_cache(maxsize=256)
def _resolve_cached(key: tuple[tuple[tuple[RawSetting, ...], ...], int | None]) -> Resolved:
    """The cache behind resolve_once (the result is shared: it is never changed)."""
    return resolve(*key)


def _player_problems(sheet: Sheet) -> list[Problem]:
    """3 to 6 players, each with a name of their own."""
    count = len(sheet.players)
    if (
        MIN_PLAYERS <= count <= MAX_PLAYERS
        and all(name.strip() for name in sheet.players)
        and len(set(sheet.players)) == count
    ):
        return []  # the usual table, at once
    problems = []
    if not MIN_PLAYERS <= count <= MAX_PLAYERS:
        claimed = getattr(sheet.players, "claimed", count)  # read in part (model.Truncated)
        has = claimed if getattr(sheet.players, "exact", True) else f"more than {claimed}"
        problems.append(
            Problem(
                f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players, this sheet has {has}",
                sheet.where,
                next(
                    (line for line in sheet.player_lines if line), sheet.players_line or sheet.line
                ),
            )
        )
    seen: set[str] = set()
    for name, line in zip(sheet.players, sheet.player_lines):
        if not name.strip():
            problems.append(Problem("a player's name is empty", sheet.where, line))
        elif name in seen:
            problems.append(Problem(f"player '{name}' is listed twice", sheet.where, line))
        seen.add(name)
    return problems


def _first_dealer_seat(sheet: Sheet, override: str | None) -> tuple[int, Problem | None]:
    """The first dealer's seat: ``--first-dealer``, else the sheet's ``firstDealer``, else seat 0."""
    name = override if override is not None else sheet.first_dealer
    if name is None or name in sheet.players:
        return (sheet.players.index(name) if name is not None else 0), None
    where = "--first-dealer" if override is not None else "firstDealer"
    message = f"{where} '{name}' is not one of the players{suggest(name, sheet.players)}"
    line = None if override is not None else sheet.first_dealer_line
    return 0, Problem(message, sheet.where, line)  # the sheet it does not fit, even for the option


def round_problems(sheet: Sheet, s: Settings, dealer: int) -> list[Problem]:
    """Every round's values, its trick count, and the dealer's bid under ``screwTheDealer``.

    A sheet whose values are all clean is accepted at once (:func:`all_clean`); any other is
    explained round by round (:func:`explain_rounds`). Both give the same problems.
    """
    if sheet.rounds.specials is None and all_clean(
        sheet.rounds, hand_sizes(s, len(sheet.players)), len(sheet.players)
    ):
        return _dealer_problems(sheet, s, dealer, len(sheet.rounds))
    return explain_rounds(sheet, s, dealer)


def explain_rounds(sheet: Sheet, s: Settings, dealer: int) -> list[Problem]:
    """The full check of every round, value by value: what :func:`round_problems` finds."""
    sizes = hand_sizes(s, len(sheet.players))
    problems: list[Problem] = []
    clean_prefix = 0  # rounds before the first one with a bad value: safe to score
    clean_later: list[RoundRecord] = []  # clean rounds after a bad one: no totals before them
    last = len(sheet.rounds) - 1
    for index, record in enumerate(sheet.rounds):
        if record.number > len(sizes):
            problems.append(
                Problem(
                    f"more rounds than the game has: it ends after round {len(sizes)} "
                    f"(roundMode={s.round_mode} with {len(sheet.players)} players)",
                    sheet.where,
                    record.line,
                    record.number,
                )
            )
            break
        found = values_problems(sheet, record, sizes[record.number - 1], index == last)
        if record.bomb or record.cloud is not None:
            found += special_card_problems(sheet, record, sizes[record.number - 1], s)
        problems += found
        if not found and clean_prefix == index:
            clean_prefix = index + 1
        elif not found:
            clean_later.append(record)
    problems += _dealer_problems(sheet, s, dealer, clean_prefix)
    problems += _dealer_problems_after_gap(sheet, s, dealer, clean_later)
    return problems


def all_clean(rounds: RoundColumns, sizes: tuple[int, ...], count: int) -> bool:
    """Every round complete, every value a whole number in its hand, each round's tricks adding
    up to its hand size: the common case, judged for the whole sheet at once."""
    columns = rounds.value_columns()
    number = len(rounds)
    if columns is None or not number or number > len(sizes):
        return False
    bids, values = columns
    tricks = cast("list[int]", values)  # taken as whole numbers: see the TypeError
    hands = _cell_hands(IN_HAND, sizes[:number], count)
    try:  # None or a BadValue among the tricks cannot be compared or added: TypeError
        # Tricks of at least 0 that add up to the hand size are each at most the hand size.
        return (
            len(bids) == len(tricks) == len(hands)
            and all(map(operator.contains, hands, bids))
            and min(tricks) >= 0
            and round_sums(tricks, count) == list(sizes[:number])
        )
    except TypeError:
        return False


@functools.lru_cache(maxsize=64)
def _cell_hands(
    in_hand: tuple[frozenset[int], ...], sizes: tuple[int, ...], count: int
) -> tuple[frozenset[int], ...]:
    """The values allowed in each cell of a sheet's columns: 0..its round's hand size."""
    return tuple(in_hand[size] for size in cell_sizes(sizes, count))


def _dealer_problems(sheet: Sheet, s: Settings, dealer: int, clean_rounds: int) -> list[Problem]:
    """Dealer bids forbidden by ``screwTheDealer``, in the rounds that can be scored."""
    if s.screw_the_dealer == "off" or not clean_rounds:
        return []
    prefix = sheet.rounds[:clean_rounds]
    played = clean_rounds - (not prefix.has_tricks[-1])  # the last may be in play, bids in
    problems = []
    for scored in score_columns(prefix, len(sheet.players), s, dealer, played).rounds():
        bid = scored.bids[scored.dealer]
        if scored.forbidden is not None and bid == scored.forbidden:
            record = sheet.rounds[scored.number - 1]
            problems.append(
                Problem(
                    forbidden_message(
                        sheet.players[scored.dealer],
                        scored.forbidden,
                        scored.hand_size,
                        s.screw_the_dealer,
                    ),
                    sheet.where,
                    record.bid_lines[scored.dealer],
                    scored.number,
                    sheet.players[scored.dealer],
                )
            )
    return problems


def _dealer_problems_after_gap(
    sheet: Sheet, s: Settings, dealer: int, records: list[RoundRecord]
) -> list[Problem]:
    """Forbidden dealer bids in clean rounds after a bad one, where no totals are needed.

    Only ``screwTheDealer: always`` binds regardless of who leads, so only it can still be judged
    there; every problem is reported at once (SPEC §4), not one bad round at a time.
    """
    if s.screw_the_dealer != "always":
        return []
    count = len(sheet.players)
    sizes = hand_sizes(s, count)
    problems = []
    for record in records:
        seat = dealer_seat(dealer, record.number, count)
        bids = cast("list[int | None]", record.bids)  # a clean round's: no BadValue
        forbidden = forbidden_dealer_bid(bids, seat, sizes[record.number - 1], s, (0,) * count)
        if forbidden is not None and record.bids[seat] == forbidden:
            problems.append(
                Problem(
                    forbidden_message(
                        sheet.players[seat], forbidden, sizes[record.number - 1], s.screw_the_dealer
                    ),
                    sheet.where,
                    record.bid_lines[seat],
                    record.number,
                    sheet.players[seat],
                )
            )
    return problems


def forbidden_message(dealer: str, bid: int, size: int, mode: str) -> str:
    """Why the dealer's bid is not allowed, naming the bid."""
    return (
        f"the dealer may not bid {bid} under screwTheDealer={mode}: the bids would add up "
        f"to the hand size of {size}"
    )


def dealer_violations(result: GameResult) -> list[tuple[int, str, int]]:
    """(round, dealer, bid) for each recorded dealer bid the result's rules would forbid."""
    return [
        (r.number, result.players[r.dealer], r.forbidden)
        for r in result.rounds
        if r.forbidden is not None and r.bids[r.dealer] == r.forbidden
    ]  # (the bid made)


def audit_points(result: GameResult) -> list[Problem]:
    """Typed ``points`` that disagree with the derived ones (``wizard check``)."""
    problems = []
    sheet = result.validated.sheet
    for record, scored in zip(sheet.rounds, result.rounds):
        if record.points is None or scored.points is None:
            continue
        assert record.point_lines is not None  # read with the points
        for seat, typed in enumerate(record.points):
            line = record.point_lines[seat]
            name = sheet.players[seat]
            if isinstance(typed, BadValue):
                problems.append(
                    Problem(
                        f"typed points '{typed.text}' is not a whole number",
                        sheet.where,
                        line,
                        record.number,
                        name,
                    )
                )
            elif typed is not None and typed != scored.points[seat]:
                problems.append(
                    Problem(
                        f"typed points {typed}, derived {scored.points[seat]}",
                        sheet.where,
                        line,
                        record.number,
                        name,
                    )
                )
    return problems
