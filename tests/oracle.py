"""An independent scorer and checker of long-CSV seasons, written from SPEC §1–§2 alone.

Slow and plain on purpose: one game at a time, one round at a time, one player at a time, with
nothing taken from the package (no tables, no columns, no shared rule functions). The
differential tests (tests/test_engine.py) hold the package's one engine to it.

What it covers is what the package implements of §1–§2: 3–6 players, hand sizes per
``roundMode``, the deal passing to the left from seat 0, points under every
``zeroBidScoring``, ``balancedBidPenalty``, ``finalRoundBonus``, ``perfectGameBonus``,
``tieBreak``, ``screwTheDealer`` in every mode with ``canadianRule``, competition ranks, the
round in play (partial bids), and the problems of §4 that a season of plain numbers can have;
``dealerRuleFrom``, and the anniversary cards (``specialCards``: a round's Bomb and Cloud, from a
long CSV's ``bomb`` and ``cloud`` columns, which imply ``specialCards: true`` unless it is set).

:func:`judge_seated` is the same for a game whose seating changes (SPEC §1 "Who sits at the
table"), held as :class:`SeatedTable` (what a YAML sheet's ``players`` entries and rounds say,
not a file): players joining, leaving and sitting out, start scores, recorded dealers; hand
sizes following who is seated and ``wholeDeck``'s end; the deal passing among the seated and the
last bidder in the dealer's place; the Bomb and the Cloud alike.
"""

from __future__ import annotations

from dataclasses import dataclass, field

DECK = 60

DEFAULTS = {
    "roundMode": "wholeDeck",
    "customRoundCount": 10,
    "exactBonus": 20,
    "pointsPerTrick": 10,
    "missPenalty": 10,
    "zeroBidScoring": "flatBonus",
    "screwTheDealer": "off",
    "canadianRule": False,
    "dealerRuleFrom": 1,
    "perfectGameBonus": 0,
    "tieBreak": "shareWin",
    "finalRoundBonus": 0,
    "balancedBidPenalty": 0,
    "specialCards": None,  # None: not set (a game recording a Bomb or a Cloud has it on)
}
NOT_ON = (
    "is recorded, but specialCards is off (set specialCards: true for the anniversary "
    "editions' special cards)"
)


@dataclass
class Row:
    """One row of a long CSV game: its line in the file and its cells (None: an empty cell)."""

    line: int
    round: int
    player: str
    bid: int | None
    tricks: int | None
    bomb: bool = False  # this row marks its round's Bomb
    cloud: int | None = None  # this row's player took the Cloud: the change of their bid


@dataclass
class OracleGame:
    """A game as the oracle reads it: its id and its rows, in file order."""

    game: str
    rows: list[Row] = field(default_factory=list)


def hand_sizes(rules: dict, players: int) -> list[int]:
    """SPEC §1–§2: r cards in round r of a whole-deck or custom game; quick play counts down
    from the whole deck by 2 and deals in increasing order."""
    whole = DECK // players
    if rules["roundMode"] == "custom":
        return list(range(1, rules["customRoundCount"] + 1))
    if rules["roundMode"] == "quickPlay":
        sizes = []
        size = whole
        while size >= 1:
            sizes.append(size)
            size -= 2
        return sorted(sizes)
    return list(range(1, whole + 1))


def round_points(bid: int, tricks: int, size: int, rules: dict) -> int:
    """SPEC §1: made, bid > 0: bonus + per trick; made zero by zeroBidScoring; missed: the
    distance times the penalty."""
    if bid != tricks:
        return -rules["missPenalty"] * abs(bid - tricks)
    if bid > 0:
        return rules["exactBonus"] + rules["pointsPerTrick"] * tricks
    mode = rules["zeroBidScoring"]
    if mode == "flatBonus":
        return rules["exactBonus"]
    if mode == "doubleBonus":
        return 2 * rules["exactBonus"]
    return rules["exactBonus"] + rules["pointsPerTrick"] * size


def restriction_on(rules: dict, dealer: int, totals: list[int]) -> bool:
    """SPEC §2 ``screwTheDealer``: whether the dealer is restricted, given the totals before."""
    mode = rules["screwTheDealer"]
    if mode == "off":
        return False
    if mode == "always":
        return True
    best = max(totals)
    leaders = [seat for seat, total in enumerate(totals) if total == best]
    if mode == "leaderOnly":
        return leaders == [dealer]
    return len(leaders) == 1  # unlessTiedLead


def forbidden_bid(
    rules: dict, bids: list[int | None], dealer: int, size: int, totals: list[int]
) -> int | None:
    """SPEC §1: handSize − the other bids, none when negative, when 0 under canadianRule, when
    the mode does not apply, or while another player has not bid; SPEC §2: none in a round
    dealing fewer cards than dealerRuleFrom."""
    if size < rules["dealerRuleFrom"]:
        return None
    if not restriction_on(rules, dealer, totals):
        return None
    others = [bid for seat, bid in enumerate(bids) if seat != dealer]
    if None in others:
        return None
    forbidden = size - sum(others)
    if forbidden < 0 or (forbidden == 0 and rules["canadianRule"]):
        return None
    return forbidden


@dataclass
class Verdict:
    """What the oracle finds of one game: its problems as (line, round, player, message), and
    when there are none its standings and status."""

    game: str
    problems: list[tuple[int, int | None, str | None, str]]
    standings: list[dict] | None = None
    status: dict | None = None


def judge(game: OracleGame, rules: dict) -> Verdict:
    """Check, then score, one game under ``rules`` (every key of DEFAULTS)."""
    players: list[str] = []
    for row in game.rows:
        if row.player not in players:
            players.append(row.player)
    count = len(players)
    problems: list[tuple[int, int | None, str | None, str]] = []
    if not 3 <= count <= 6:
        problems.append(
            (game.rows[0].line, None, None, f"a game has 3 to 6 players, this sheet has {count}")
        )
        return Verdict(game.game, problems)
    sizes = hand_sizes(rules, count)
    special = rules["specialCards"]
    if special is None:  # SPEC §3: a Bomb or a Cloud in a CSV game means specialCards: true
        special = any(row.bomb or row.cloud is not None for row in game.rows)
    rules = dict(rules, specialCards=special)
    rounds: list[list[Row]] = []
    for row in game.rows:
        if row.round > len(rounds):
            rounds.append([])
        rounds[row.round - 1].append(row)

    # Every round, value by value (SPEC §4); a round past the last one ends the reading.
    clean: list[bool] = []
    for index, cells in enumerate(rounds):
        number = index + 1
        if number > len(sizes):
            problems.append(
                (
                    cells[0].line,
                    number,
                    None,
                    f"more rounds than the game has: it ends after round {len(sizes)} "
                    f"(roundMode={rules['roundMode']} with {count} players)",
                )
            )
            rounds = rounds[:index]
            break
        size = sizes[index]
        in_play = all(cell.tricks is None for cell in cells)
        found = []
        for cell in cells:
            if cell.bid is None and not in_play:
                found.append((cell.line, number, cell.player, "missing bid"))
            for what, value in (("bid", cell.bid), ("tricks", cell.tricks)):
                if value is not None and value < 0:
                    found.append((cell.line, number, cell.player, f"{what} {value} is negative"))
                elif value is not None and value > size:
                    found.append(
                        (
                            cell.line,
                            number,
                            cell.player,
                            f"{what} {value} is more than the hand size of {size}",
                        )
                    )
        bombs = [cell for cell in cells if cell.bomb]
        taken = size - 1 if bombs else size  # SPEC §1: nobody takes the Bomb's trick
        if not in_play:
            took = sum(cell.tricks for cell in cells)
            if took != taken:
                gap = f"{took - taken} more than" if took > taken else f"{taken - took} short of"
                found.append(
                    (
                        cells[0].line,
                        number,
                        None,
                        f"tricks add up to {took}, {gap} the hand size of {size}"
                        if not bombs
                        else f"tricks add up to {took}, {gap} the {taken} of a hand size of "
                        f"{size} with the Bomb (nobody takes its trick)",
                    )
                )
        clouds = [cell for cell in cells if cell.cloud is not None]
        if bombs and not special:
            found.append((bombs[0].line, number, None, f"a Bomb {NOT_ON}"))
        if clouds and not special:
            found.append((clouds[0].line, number, clouds[0].player, f"a Cloud {NOT_ON}"))
        if bombs and special and in_play:
            found.append(
                (
                    bombs[0].line,
                    number,
                    None,
                    "the Bomb is recorded with the round's tricks, not before them",
                )
            )
        if clouds and special:
            cloud = clouds[0]
            changed = cloud.bid + cloud.cloud if cloud.bid is not None else None
            if in_play and any(cell.bid is None for cell in cells):
                found.append(
                    (
                        cloud.line,
                        number,
                        cloud.player,
                        "the Cloud is recorded once every bid of the round is in",
                    )
                )
            elif changed is not None and not 0 <= changed <= size:
                found.append(
                    (
                        cloud.line,
                        number,
                        cloud.player,
                        f"the Cloud changes the bid {cloud.bid} to {changed}, outside "
                        f"0..{size} (the hand size)",
                    )
                )
            if not in_play and cloud.tricks == 0:
                found.append(
                    (
                        cloud.line,
                        number,
                        cloud.player,
                        "the Cloud goes to the player who took its trick, but this player "
                        "took no trick",
                    )
                )
        problems += found
        clean.append(not found)

    # The dealer's bid (SPEC §1): judged on the totals before each round while every round
    # before it could be scored; after a round that cannot, only where no total is needed.
    totals = [0] * count
    scorable = True
    for index, cells in enumerate(rounds):
        number, size = index + 1, sizes[index]
        dealer = (number - 1) % count
        bids = [cell.bid for cell in cells]
        if not clean[index]:
            scorable = False
            continue
        if scorable or rules["screwTheDealer"] == "always":
            forbidden = forbidden_bid(rules, bids, dealer, size, totals)
            if forbidden is not None and bids[dealer] == forbidden:
                problems.append(
                    (
                        cells[dealer].line,
                        number,
                        players[dealer],
                        f"the dealer may not bid {forbidden} under screwTheDealer="
                        f"{rules['screwTheDealer']}: the bids would add up to the hand "
                        f"size of {size}",
                    )
                )
        if scorable and cells[0].tricks is not None:
            for seat, points in enumerate(_points(cells, size, dealer, number, sizes, rules)):
                totals[seat] += points
    if problems:
        return Verdict(game.game, problems)

    # Scoring (SPEC §1): the complete rounds' points, then the end-of-game bonus.
    played = [cells for cells in rounds if cells[0].tricks is not None]
    totals = [0] * count
    for index, cells in enumerate(played):
        number = index + 1
        for seat, points in enumerate(
            _points(cells, sizes[index], (number - 1) % count, number, sizes, rules)
        ):
            totals[seat] += points
    finished = len(played) == len(sizes)
    bonuses = [0] * count
    if finished:
        for seat in range(count):
            if all(made_bid(cells[seat]) == cells[seat].tricks for cells in played):
                bonuses[seat] = rules["perfectGameBonus"]
    scores = [total + bonus for total, bonus in zip(totals, bonuses)]
    if rules["tieBreak"] == "totalBids":
        ties = [sum(cells[seat].bid for cells in played) for seat in range(count)]
    elif rules["tieBreak"] == "madeBids":
        ties = [
            sum(made_bid(cells[seat]) == cells[seat].tricks for cells in played)
            for seat in range(count)
        ]
    else:
        ties = [0] * count
    ranks = []
    for seat in range(count):
        better = sum(
            1 for other in range(count) if (scores[other], ties[other]) > (scores[seat], ties[seat])
        )
        ranks.append(better + 1)
    order = sorted(range(count), key=lambda seat: (ranks[seat], seat))
    standings = [
        {
            "rank": ranks[seat],
            "player": players[seat],
            "score": scores[seat],
            "bonus": bonuses[seat],
        }
        for seat in order
    ]
    status = {
        "finished": finished,
        "roundsPlayed": len(played),
        "roundsTotal": len(sizes),
        "winners": [players[seat] for seat in range(count) if finished and ranks[seat] == 1],
    }
    return Verdict(game.game, [], standings, status)


def _points(
    cells: list[Row], size: int, dealer: int, number: int, sizes: list[int], rules: dict
) -> list[int]:
    """A complete round's points per seat, its extras included (SPEC §1: balancedBidPenalty
    from the dealer when the bids add up to the hand size; finalRoundBonus on each made bid of
    the game's last round)."""
    points = [round_points(made_bid(cell), cell.tricks, size, rules) for cell in cells]
    if sum(cell.bid for cell in cells) == size:  # the bids as called (SPEC §1, the Cloud)
        points[dealer] -= rules["balancedBidPenalty"]
    if number == len(sizes):
        for seat, cell in enumerate(cells):
            if made_bid(cell) == cell.tricks:
                points[seat] += rules["finalRoundBonus"]
    return points


def made_bid(cell: Row) -> int:
    """SPEC §1: the bid a round is scored with — the bid as called, changed by the Cloud."""
    return cell.bid + (cell.cloud or 0)


# --- a game whose seating changes (SPEC §1 "Who sits at the table") -------------------------


@dataclass
class Listed:
    """A player as a sheet lists them: the first round seated in, the last, the start score."""

    name: str
    joins: int = 1
    leaves: int | None = None
    start: int = 0


@dataclass
class Dealt:
    """One recorded round: who sits it out, who dealt it if recorded, the seated players' bids
    (None: still to bid) and tricks (None: the round in play), the Bomb and the Cloud."""

    out: set[str] = field(default_factory=set)
    dealer: str | None = None
    bids: dict[str, int | None] = field(default_factory=dict)
    tricks: dict[str, int] | None = None
    bomb: bool = False
    cloud: tuple[str, int] | None = None


@dataclass
class SeatedTable:
    """A game with seating, as the oracle reads it."""

    game: str
    players: list[Listed]
    first_dealer: str | None = None
    rounds: list[Dealt] = field(default_factory=list)

    def listed(self, number: int) -> list[str]:
        """Joined by round ``number`` and not left: the seating known before it is dealt."""
        return [
            p.name
            for p in self.players
            if p.joins <= number and (p.leaves is None or number <= p.leaves)
        ]

    def seated(self, number: int) -> list[str]:
        """Seated in round ``number``: listed, and (once recorded) not sitting it out."""
        out = self.rounds[number - 1].out if number <= len(self.rounds) else set()
        return [name for name in self.listed(number) if name not in out]

    def dealers(self, upto: int) -> list[str]:
        """The dealer of rounds 1..``upto``: ``firstDealer`` (else the first seated in round
        1), then the recorded one, else the first player seated in the round found going left
        from the seat after the last dealer."""
        names = [p.name for p in self.players]
        dealers: list[str] = []
        for number in range(1, upto + 1):
            recorded = self.rounds[number - 1].dealer if number <= len(self.rounds) else None
            if recorded is not None:
                dealers.append(recorded)
            elif number == 1:
                dealers.append(self.first_dealer or self.seated(1)[0])
            else:
                seat = names.index(dealers[-1])
                seated = self.seated(number)
                for step in range(1, len(names) + 1):
                    if names[(seat + step) % len(names)] in seated:
                        dealers.append(names[(seat + step) % len(names)])
                        break
        return dealers

    def bidding_order(self, number: int, dealer: str) -> list[str]:
        """From the dealer's left among the seated; the dealer last when seated."""
        names = [p.name for p in self.players]
        seat = names.index(dealer)
        seated = self.seated(number)
        return [
            names[(seat + step) % len(names)]
            for step in range(1, len(names) + 1)
            if names[(seat + step) % len(names)] in seated
        ]


def plain_count(table: SeatedTable) -> str:
    """ " with N players" where nothing in the sheet records seating (every entry a bare name,
    no ``out`` or ``dealer``): it is read as a classic sheet, whose message says the count."""
    plain = all((p.joins, p.leaves, p.start) == (1, None, 0) for p in table.players) and not any(
        dealt.out or dealt.dealer is not None for dealt in table.rounds
    )
    return f" with {len(table.players)} players" if plain else ""


def next_round_problems(
    table: SeatedTable, sizes: list[int] | tuple[int, ...] | None, ended: int | None
) -> list[tuple[int | None, str | None, str]]:
    """The round to be dealt next seats 3 to 6 as far as ``joins`` and ``leaves`` tell (SPEC
    §1), unless a round is in play or the game is over: else a problem naming the last player
    listed whose joining or leaving makes it so."""
    number = len(table.rounds) + 1
    if table.rounds and table.rounds[-1].tricks is None:
        return []
    if ended is not None or (sizes is not None and number > len(sizes)):
        return []
    count = len(table.listed(number))
    if 3 <= count <= 6:
        return []
    moving = [
        p.name
        for p in table.players
        if number > 1 and number in (p.joins, None if p.leaves is None else p.leaves + 1)
    ]
    message = f"round {number} would seat {count} players: a round seats 3 to 6"
    return [(None, moving[-1] if moving else None, message)]


def judge_seated(table: SeatedTable, rules: dict) -> Verdict:
    """Check, then score, a game with seating under ``rules`` (every key of DEFAULTS, with
    ``specialCards`` set). Problems are (round, player, message): the round's, not a line."""
    problems: list[tuple[int | None, str | None, str]] = []
    names = [p.name for p in table.players]
    first = len(table.seated(1))
    mode = rules["roundMode"]
    sizes = None if mode == "wholeDeck" else hand_sizes(rules, max(first, 3))
    most = 20 if sizes is None else len(sizes)  # 20: three seated, the whole deck
    problems += [
        (None, p.name, f"joins in round {p.joins}, past the {most} rounds the game can have")
        for p in table.players
        if p.joins > most
    ]
    start = {p.name: p.start for p in table.players}
    totals = dict(start)
    made_all = {name: [] for name in names}  # each sat round: the scored bid made
    bid_sums = dict.fromkeys(names, 0)
    played = 0
    ended = None  # the round that ended the game
    clean = True
    for index, dealt in enumerate(table.rounds):
        number = index + 1
        if ended is not None or (sizes is not None and number > len(sizes)):
            problems.append(
                (
                    number,
                    None,
                    f"more rounds than the game has: it ends after round {ended}"
                    if ended is not None
                    else f"more rounds than the game has: it ends after round {len(sizes)} "
                    f"(roundMode={mode}{plain_count(table)})",
                )
            )
            clean = False
            break
        seated = table.seated(number)
        size = number if sizes is None else sizes[index]
        assert 3 <= len(seated) <= 6 and size * len(seated) <= DECK  # the generator keeps these
        dealer = table.dealers(number)[-1]
        last = table.bidding_order(number, dealer)[-1]  # the dealer, or bidding in their place
        in_play = dealt.tricks is None
        found = []
        for name in seated:
            for what, value in (
                ("bid", dealt.bids.get(name)),
                ("tricks", None if in_play else dealt.tricks[name]),
            ):
                if value is not None and value > size:
                    found.append(
                        (number, name, f"{what} {value} is more than the hand size of {size}")
                    )
        taken = size - 1 if dealt.bomb else size
        if not in_play and sum(dealt.tricks.values()) != taken:
            took = sum(dealt.tricks.values())
            gap = f"{took - taken} more than" if took > taken else f"{taken - took} short of"
            found.append(
                (
                    number,
                    None,
                    f"tricks add up to {took}, {gap} the hand size of {size}"
                    if not dealt.bomb
                    else f"tricks add up to {took}, {gap} the {taken} of a hand size of {size} "
                    "with the Bomb (nobody takes its trick)",
                )
            )
        if (dealt.bomb or dealt.cloud) and not rules["specialCards"]:
            if dealt.bomb:
                found.append((number, None, f"a Bomb {NOT_ON}"))
            if dealt.cloud:
                found.append((number, dealt.cloud[0], f"a Cloud {NOT_ON}"))
        elif dealt.cloud is not None:
            name, change = dealt.cloud
            bid = dealt.bids[name]
            if not 0 <= bid + change <= size:
                found.append(
                    (
                        number,
                        name,
                        f"the Cloud changes the bid {bid} to {bid + change}, "
                        f"outside 0..{size} (the hand size)",
                    )
                )
            if not in_play and dealt.tricks[name] == 0:
                found.append(
                    (
                        number,
                        name,
                        "the Cloud goes to the player who took its trick, "
                        "but this player took no trick",
                    )
                )
        problems += found
        clean = clean and not found
        if sizes is None and not in_play and number == DECK // len(seated):
            ended = number  # it deals the whole deck to those seated: the game's last round
        # The dealer's bid: on the totals before the round while every round before it is
        # clean; after one that is not, in a clean round under `always` (no total needed).
        if found or not (clean or rules["screwTheDealer"] == "always"):
            continue
        bids = [dealt.bids.get(name) for name in seated]
        forbidden = forbidden_bid(
            rules, bids, seated.index(last), size, [totals[name] for name in seated]
        )
        if forbidden is not None and dealt.bids.get(last) == forbidden:
            problems.append(
                (
                    number,
                    last,
                    f"the dealer may not bid {forbidden} under "
                    f"screwTheDealer={rules['screwTheDealer']}: the bids would add up to "
                    f"the hand size of {size}",
                )
            )
        if in_play or not clean:
            continue
        played = number
        is_last = number == ended if sizes is None else number == len(sizes)
        scored = {
            name: dealt.bids[name]
            + (dealt.cloud[1] if dealt.cloud and dealt.cloud[0] == name else 0)
            for name in seated
        }
        for name in seated:
            points = round_points(scored[name], dealt.tricks[name], size, rules)
            if is_last and scored[name] == dealt.tricks[name]:
                points += rules["finalRoundBonus"]
            totals[name] += points
            made_all[name].append(scored[name] == dealt.tricks[name])
            bid_sums[name] += dealt.bids[name]
        if sum(bids) == size:
            totals[last] -= rules["balancedBidPenalty"]
    else:
        problems += next_round_problems(table, sizes, ended)
    if problems:
        return Verdict(table.game, problems)
    finished = (
        played > 0
        and played == len(table.rounds)
        and (played == DECK // len(table.seated(played)) if sizes is None else played == len(sizes))
    )
    bonuses = {
        name: rules["perfectGameBonus"]
        if finished and made_all[name] and all(made_all[name])
        else 0
        for name in names
    }
    scores = {name: totals[name] + bonuses[name] for name in names}
    ties = (
        bid_sums
        if rules["tieBreak"] == "totalBids"
        else {name: sum(made_all[name]) for name in names}
        if rules["tieBreak"] == "madeBids"
        else dict.fromkeys(names, 0)
    )
    ranks = {
        name: 1 + sum((scores[other], ties[other]) > (scores[name], ties[name]) for other in names)
        for name in names
    }
    order = sorted(names, key=lambda name: (ranks[name], names.index(name)))
    if sizes is not None:
        total = len(sizes)
    elif finished:
        total = played
    else:  # the round in play, else the next to deal, as far as its seating is known
        current = len(table.rounds) if played < len(table.rounds) else played + 1
        seated = table.seated(current) if current <= len(table.rounds) else table.listed(current)
        total = DECK // max(len(seated), 1)
    status = {
        "finished": finished,
        "roundsPlayed": played,
        "roundsTotal": total,
        "winners": [name for name in names if finished and ranks[name] == 1],
    }
    standings = [
        {"rank": ranks[name], "player": name, "score": scores[name], "bonus": bonuses[name]}
        for name in order
    ]
    return Verdict(table.game, [], standings, status)
