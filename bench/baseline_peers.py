"""The columnar peers: a plain read of the long CSV and a group-by, in duckdb, polars or pandas.

``bench/run.py`` runs each (when installed) as a whole process beside the bare ``csv.reader``
pass, to show what a columnar engine costs for the same file: read every row, sum each player's
bids and tricks per game. None of them validates or scores anything.
"""

from __future__ import annotations

import sys


def duckdb_run(path: str) -> int:
    import duckdb

    return len(
        duckdb.sql(
            f"SELECT game, player, sum(bid), sum(tricks) FROM read_csv('{path}') "
            "GROUP BY game, player"
        ).fetchall()
    )


def polars_run(path: str) -> int:
    import polars

    frame = polars.read_csv(path)
    return (
        frame.group_by(["game", "player"])
        .agg(polars.col("bid").sum(), polars.col("tricks").sum())
        .height
    )


def pandas_run(path: str) -> int:
    import pandas

    frame = pandas.read_csv(path)
    return len(frame.groupby(["game", "player"])[["bid", "tricks"]].sum())


PEERS = {"duckdb": duckdb_run, "polars": polars_run, "pandas": pandas_run}


def main() -> None:
    """``baseline_peers.py PEER FILE``: the peer's read and group-by; the group count on stdout."""
    name, path = sys.argv[1], sys.argv[2]
    print(PEERS[name](path))


if __name__ == "__main__":
    main()
