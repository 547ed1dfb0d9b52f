"""Write ``sample_sheets/worked-example.xlsx``: the worked example twice, as a spreadsheet keeps it.

``python tests/sample_workbook.py`` rewrites it (openpyxl, a test dependency). One worksheet is a
long sheet with German headers and typed points, the other a wide sheet with a total row.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROUNDS = [  # the worked example (SPEC §6): bids and tricks per round, seating order
    ([1, 0, 0, 1], [1, 0, 0, 0]),
    ([1, 1, 0, 2], [0, 1, 1, 0]),
    ([2, 0, 1, 1], [2, 0, 1, 0]),
    ([1, 2, 0, 1], [2, 2, 0, 0]),
    ([2, 1, 3, 0], [2, 1, 1, 1]),
]
PLAYERS = ["Anna", "Ben", "Cara", "Dan"]
PATH = Path(__file__).resolve().parent.parent / "sample_sheets" / "worked-example.xlsx"


def points(bid: int, took: int) -> int:
    """Default scoring: 20 + 10 a trick when the bid is made, else -10 a trick missed."""
    return 20 + 10 * took if bid == took else -10 * abs(bid - took)


def make(path: Path = PATH) -> None:
    """Write the workbook."""
    import openpyxl

    book = openpyxl.Workbook()
    long = book.active
    long.title = "Freitag"
    long.append(["Runde", "Spieler", "Ansage", "Stiche", "Punkte"])
    for number, (bids, tricks) in enumerate(ROUNDS, start=1):
        for name, bid, took in zip(PLAYERS, bids, tricks):
            long.append([number, name, bid, took, points(bid, took)])
    wide = book.create_sheet("Wide")
    wide.append(["round", *PLAYERS])
    for number, (bids, tricks) in enumerate(ROUNDS, start=1):
        wide.append([number, *(f"{bid}/{took}" for bid, took in zip(bids, tricks))])
    wide.append(["Total", 90, 140, 40, -60])
    book.save(path)


if __name__ == "__main__":
    make(Path(sys.argv[1]) if len(sys.argv) > 1 else PATH)
