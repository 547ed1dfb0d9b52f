"""Random seasons for the season tests (ratings, stats --by, filters), written as a YAML stream,
with an independent count of what each game scores: default rules, counted by hand."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st

POOL = ("Anna", "Ben", "Cara", "Dan", "Eva", "Finn")
DATES = ("2026-01-09", "2026-01-16", "2026-02-01", "2026-02-14", None)


@dataclass
class Game:
    """One game: players in seating order, the configured rounds, and the rounds played."""

    players: list[str]
    total: int  # customRoundCount
    rounds: list[tuple[list[int], list[int]]]  # (bids, tricks), all complete
    date: str | None = None

    @property
    def finished(self) -> bool:
        return len(self.rounds) == self.total

    def points(self) -> list[list[int]]:
        """Each round's points per seat under the default rules (SPEC §1), counted by hand."""

        def one(bid: int, took: int) -> int:
            if bid != took:
                return -10 * abs(bid - took)
            return 20 + 10 * took if bid else 20

        return [[one(b, t) for b, t in zip(bids, tricks)] for bids, tricks in self.rounds]

    def scores(self) -> list[int]:
        """Each seat's final total."""
        return (
            [sum(column) for column in zip(*self.points())]
            if self.rounds
            else [0] * len(self.players)
        )

    def ranks(self) -> list[int]:
        """Competition ranks by score ("1, 1, 3"), per seat (tieBreak shareWin)."""
        scores = self.scores()
        return [1 + sum(other > mine for other in scores) for mine in scores]


@st.composite
def games(draw, dated: bool = True) -> Game:
    """A valid game of 3–6 players of a small pool, 1–3 rounds configured, usually finished; small
    hands and free bids make ties common."""
    count = draw(st.integers(3, 6))
    players = list(draw(st.permutations(POOL)))[:count]
    total = draw(st.integers(1, 3))
    played = draw(st.sampled_from([total] * 4 + list(range(total))))
    rounds = []
    for size in range(1, played + 1):
        tricks = [0] * count
        for _ in range(size):
            tricks[draw(st.integers(0, count - 1))] += 1
        bids = [draw(st.integers(0, size)) for _ in range(count)]
        rounds.append((bids, tricks))
    return Game(players, total, rounds, draw(st.sampled_from(DATES)) if dated else None)


def seasons(min_size: int = 1, max_size: int = 6, dated: bool = True):
    """A list of games."""
    return st.lists(games(dated), min_size=min_size, max_size=max_size)


def season_yaml(season: list[Game]) -> str:
    """The season as a YAML stream, one document per game."""
    docs = []
    for game in season:
        lines = [] if game.date is None else [f"date: {game.date}"]
        lines += [
            f"players: [{', '.join(game.players)}]",
            f"settings: {{roundMode: custom, customRoundCount: {game.total}}}",
        ]
        lines.append("rounds:" if game.rounds else "rounds: []")
        for bids, tricks in game.rounds:
            lines.append(f"  - {{bids: {bids}, tricks: {tricks}}}")
        docs.append("\n".join(lines) + "\n")
    return "---\n".join(docs)
