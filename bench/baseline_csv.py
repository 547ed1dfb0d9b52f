"""Throughput baseline: read a CSV file row by row and do nothing with the rows.

``bench/run.py`` runs this as a whole process next to `wizard standings FILE --format jsonl`,
so the ratio is what reading, validating, scoring and printing cost over bare CSV parsing.
"""

from __future__ import annotations

import csv
import sys


def main() -> None:
    """``for row in csv.reader(f): pass`` over the file named by the first argument."""
    with open(sys.argv[1], newline="", encoding="utf-8") as f:
        for _row in csv.reader(f):
            pass


if __name__ == "__main__":
    main()
