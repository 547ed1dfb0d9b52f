"""Start-up baseline: a bare Typer app of two commands that loads a sheet and prints a table.

This is what `wizard score` is measured against (``bench/run.py``): the same dependencies
(typer, PyYAML with the C loader when present, tabulate) doing the least useful work — load the
YAML file, print its 15 rounds as a tabulate table — so the difference is what the tool's own
code costs at start-up.
"""

from __future__ import annotations

import typer
import yaml
from tabulate import tabulate

app = typer.Typer()
Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@app.command()
def show(path: str) -> None:
    """Load a sheet and print one row per round: its number, the bids and the tricks."""
    with open(path, encoding="utf-8") as handle:
        sheet = yaml.load(handle, Loader=Loader)
    rows = [
        [number, *record["bids"], *record["tricks"]]
        for number, record in enumerate(sheet["rounds"], start=1)
    ]
    players = sheet["players"]
    headers = ["round", *(f"{p} bid" for p in players), *(f"{p} took" for p in players)]
    print(tabulate(rows, headers=headers))


@app.command()
def hello(name: str) -> None:
    """A second command, so Typer builds a group as it does for the tool."""
    print(f"hello {name}")


def main() -> None:
    """Run the app (as a console script would)."""
    app()


if __name__ == "__main__":
    main()
