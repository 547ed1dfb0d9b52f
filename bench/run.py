"""Benchmark `wizard` against bare baselines and columnar peers: start-up, a million-row season
(every command a season is read with), ten thousand small sheets.

Run from the repository root with the project importable (installed, or ``PYTHONPATH=.``)::

    python bench/run.py            # the full sizes of issue 20
    python bench/run.py --quick    # smaller inputs while iterating

It writes its inputs deterministically (a fixed random seed) into ``bench/out/`` (kept between
runs, regenerated when missing), then runs the tool, its baselines and its peers as whole
processes with this interpreter (``sys.executable``), the same flags and the same environment,
and prints a Markdown table to paste into the README. Standard library only; the peers are
measured only where installed (a peer that is not is named as skipped).

- **start-up**: ``wizard score game.yaml`` against ``bench/baseline_app.py`` (a bare Typer app
  of two commands that loads the same YAML file and prints a 15-row tabulate table): paired
  runs, tool and baseline alternating which goes first; the ratio is the median of the per-pair
  ratios (target ≤ 1.05, issue 20).
- **import**: ``import wizard_cli`` (the library) against a bare ``import yaml``, paired the same
  way (target ≤ 1.1, the one-engine issue).
- **season**: each of ``standings -f jsonl``, ``check -f jsonl``, ``stats --by handSize``,
  ``ratings``, ``score -f jsonl`` and ``score`` (the table) over a long CSV with a ``game``
  column, against ``bench/baseline_csv.py`` (``for row in csv.reader(f): pass``) over the same
  file in the same run: best of 3 each (runs alternating with the baseline's), the ratio of the
  best times (targets of the one-engine issue: 2.0×, 2.0×, 2.0×, 3.7×, 4.0×, 5.0×), and each
  one's peak memory (≤ 64 MiB). The columnar peers (``bench/baseline_peers.py``: duckdb,
  polars, pandas, each a plain read and a group-by of the same file) are measured the same way
  beside them.
- **unbuffered**: ``standings -f jsonl`` with ``PYTHONUNBUFFERED=1`` against the same without it,
  in back-to-back pairs (each pair's order alternating), the median of the per-pair ratios (no
  slower: ≤ 1.05×, the noise of the machine).
- **rule-heavy**: ``standings -f jsonl`` of the same season with ``--set balancedBidPenalty=10
  --set screwTheDealer=always --set finalRoundBonus=10`` against it without them, best of 3
  each (≤ 1.3×: one engine scores every rule; the season's dealers keep the dealer rule, so
  every game is valid under it).
- **special cards**: ``standings -f jsonl --set specialCards=true`` of a season of the same
  size with ``bomb`` and ``cloud`` columns (a Bomb in a tenth of its rounds, a Cloud in a tenth,
  a tenth of its games at another table) against the classic season's ``standings -f jsonl``,
  best of 3 each (≤ 1.3×, issue 31: the cards ride in the runs).
- **streaming**: the time to the first byte of that ``standings`` run against its total.
- **many files**: ``wizard standings sheets/*.yaml`` over small block-style YAML sheets, one
  full game each, all given as arguments: median of runs, as sheets per second (target ≥ 1,500).

Peak memory is each child's own maximum resident set size, from ``os.wait4`` on that child
(``ru_maxrss``), so one large child cannot hide the others as ``RUSAGE_CHILDREN`` would.
Times are wall-clock from start to exit, with the child's output read through a pipe; the
targets are judged on them. The CPU-time ratio (user + system, also from ``os.wait4``) is
shown beside, as it is less disturbed by other processes on a shared machine.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
OUT = BENCH / "out"
SEED = 20260109
GENERATOR = 3  # bump when the generated inputs change, so old files are not reused
PLAYERS = ("Anna", "Ben", "Cara", "Dan")
ROUNDS = 15  # a 4-player game dealing the whole deck
ROWS_PER_GAME = ROUNDS * len(PLAYERS)

TOOL = "from wizard_cli.launcher import main; main()"  # what the `wizard` console script runs
START_BASELINE = "from baseline_app import main; main()"
CSV_BASELINE = "from baseline_csv import main; main()"
PEER_BASELINE = "from baseline_peers import main; main()"
PEERS = ("duckdb", "polars", "pandas")

TARGET_STARTUP = 1.05
TARGET_IMPORT = 1.1  # `import wizard_cli` against a bare `import yaml` (the one-engine issue)
TARGET_MEMORY_MIB = 64
TARGET_SHEETS_PER_SECOND = 1500  # the one-engine issue
TARGET_UNBUFFERED = 1.05
TARGET_RULE_HEAVY = 1.3  # the rule-heavy season against the classic one
TARGET_SPECIAL = 1.3  # the season with the anniversary cards against the classic one (issue 31)
# Each season run and its target, as a ratio to the bare csv.reader pass (the one-engine issue).
SEASON_RUNS = (
    ("standings -f jsonl", ["standings", "{path}", "--format", "jsonl"], 2.0),
    ("check -f jsonl", ["check", "{path}", "--format", "jsonl"], 2.0),
    ("stats --by handSize", ["stats", "{path}", "--by", "handSize"], 2.0),
    ("ratings", ["ratings", "{path}"], 3.7),
    ("score -f jsonl", ["score", "{path}", "--format", "jsonl"], 4.0),
    ("score", ["score", "{path}"], 5.0),
)
RULE_HEAVY = [
    "--set",
    "balancedBidPenalty=10",
    "--set",
    "screwTheDealer=always",
    "--set",
    "finalRoundBonus=10",
]


@dataclass(frozen=True)
class Sizes:
    """How big the inputs are and how often each measurement is repeated."""

    rows: int
    sheets: int
    startup_pairs: int
    heavy_runs: int  # best of this many for each season run


FULL = Sizes(rows=1_000_000, sheets=10_000, startup_pairs=61, heavy_runs=3)
QUICK = Sizes(rows=100_000, sheets=1_000, startup_pairs=9, heavy_runs=1)


# --- inputs --------------------------------------------------------------------------------


def game_rounds(rng: random.Random) -> list[tuple[list[int], list[int]]]:
    """One valid 4-player game dealing the whole deck: (bids, tricks) for rounds 1..15.

    Every trick goes to someone, so the tricks add up to the hand size; about half the bids are
    made, the others are any bid from 0 to the hand size. The dealer (round r's is seat r - 1,
    the first player dealing first) never makes the bids add up to the hand size, so the game
    is valid under ``screwTheDealer=always`` too (the rule-heavy season).
    """
    rounds = []
    for size in range(1, ROUNDS + 1):
        tricks = [0] * len(PLAYERS)
        for _ in range(size):
            tricks[rng.randrange(len(PLAYERS))] += 1
        bids = [took if rng.random() < 0.5 else rng.randint(0, size) for took in tricks]
        if sum(bids) == size:
            dealer = (size - 1) % len(PLAYERS)
            bids[dealer] += 1 if bids[dealer] < size else -1
        rounds.append((bids, tricks))
    return rounds


def yaml_sheet(title: str, rounds: list[tuple[list[int], list[int]]]) -> str:
    """A sheet in block style throughout (every list item on its own line)."""
    lines = [f"title: {title}", "players:", *(f"  - {name}" for name in PLAYERS), "rounds:"]
    for bids, tricks in rounds:
        lines.append("  - bids:")
        lines.extend(f"      - {bid}" for bid in bids)
        lines.append("    tricks:")
        lines.extend(f"      - {took}" for took in tricks)
    return "\n".join(lines) + "\n"


def write_atomically(path: Path, text: str) -> None:
    """Write a generated file whole or not at all (an interrupted run leaves no half file)."""
    temp = path.with_name(path.name + ".tmp")
    temp.write_text(text, encoding="utf-8", newline="\n")
    os.replace(temp, path)


def startup_sheet() -> Path:
    """``game.yaml``: one full 4-player game."""
    path = OUT / f"game-v{GENERATOR}.yaml"
    if not path.exists():
        write_atomically(path, yaml_sheet("Start-up game", game_rounds(random.Random(SEED))))
    return path


def season_csv(rows: int) -> tuple[Path, int]:
    """A long CSV (``game,round,player,bid,tricks``) of whole games, at least ``rows`` rows."""

    def write(out: TextIO, games: int) -> None:
        rng = random.Random(SEED + 1)
        out.write("game,round,player,bid,tricks\n")
        for game in range(1, games + 1):
            for number, (bids, tricks) in enumerate(game_rounds(rng), start=1):
                out.write(
                    "".join(
                        f"g{game:06d},{number},{name},{bid},{took}\n"
                        for name, bid, took in zip(PLAYERS, bids, tricks)
                    )
                )

    return generated_season(f"season-{rows}", rows, write)


def special_season_csv(rows: int) -> tuple[Path, int]:
    """A long CSV (``game,round,player,bid,tricks,bomb,cloud``) of whole games, at least
    ``rows`` rows: the classic season's games with a Bomb in about a tenth of the rounds (one
    trick taken by nobody, marked on the round's first row), a Cloud in about a tenth (to a
    player who took a trick, the changed bid in the hand), and a seating change in a tenth of the
    games: one player sits a round out (an ``out`` row, SPEC §3; the tricks they would have
    taken go to the next seated player). Every game valid with ``specialCards: true``."""

    def write(out: TextIO, games: int) -> None:
        rng = random.Random(SEED + 3)
        out.write("game,round,player,bid,tricks,bomb,cloud\n")
        table = PLAYERS
        for game in range(1, games + 1):
            rounds = game_rounds(rng)
            # a seating change: one player sits one round out (never the first or the last)
            away = (rng.randrange(2, len(rounds)), rng.randrange(len(table)))
            if rng.random() >= 0.1:
                away = (0, -1)
            for number, (bids, tricks) in enumerate(rounds, start=1):
                bids, tricks = list(bids), list(tricks)
                out_seat = away[1] if number == away[0] else -1
                if out_seat >= 0:  # their tricks go to the next seated player
                    tricks[(out_seat + 1) % len(table)] += tricks[out_seat]
                    tricks[out_seat] = 0
                seated = [seat for seat in range(len(table)) if seat != out_seat]
                bomb, cloud = [""] * len(table), [""] * len(table)
                if rng.random() < 0.1:  # the Bomb: a trick nobody takes
                    tricks[rng.choice([s for s in seated if tricks[s]])] -= 1
                    bomb[seated[0]] = "yes"
                takers = [seat for seat in seated if tricks[seat]]
                if takers and rng.random() < 0.1:  # the Cloud, to a player who took a trick
                    seat = rng.choice(takers)
                    cloud[seat] = "+1" if bids[seat] < number else "-1"
                out.write(
                    "".join(
                        f"g{game:06d},{number},{name},out,,,\n"
                        if seat == out_seat
                        else f"g{game:06d},{number},{name},{bids[seat]},{tricks[seat]},"
                        f"{bomb[seat]},{cloud[seat]}\n"
                        for seat, name in enumerate(table)
                    )
                )

    return generated_season(f"special-season-{rows}", rows, write)


def generated_season(
    name: str, rows: int, write: Callable[[TextIO, int], None]
) -> tuple[Path, int]:
    """``NAME-vG.csv`` of whole games, at least ``rows`` rows, written by ``write(out,
    games)`` whole or not at all when missing; its path and its number of games."""
    games = -(-rows // ROWS_PER_GAME)
    path = OUT / f"{name}-v{GENERATOR}.csv"
    if not path.exists():
        temp = path.with_name(path.name + ".tmp")
        with open(temp, "w", encoding="utf-8", newline="") as out:
            write(out, games)
        os.replace(temp, path)
    return path, games


def sheet_folder(count: int) -> tuple[Path, list[str]]:
    """``sheets-N/`` of ``count`` small YAML sheets; returns the folder and the relative paths."""
    folder = OUT / f"sheets-{count}-v{GENERATOR}"
    names = [f"{number:05d}.yaml" for number in range(1, count + 1)]
    if not (folder / "complete").exists():
        folder.mkdir(parents=True, exist_ok=True)
        rng = random.Random(SEED + 2)
        for number, name in enumerate(names, start=1):
            (folder / name).write_text(
                yaml_sheet(f"Game {number}", game_rounds(rng)), encoding="utf-8"
            )
        (folder / "complete").write_text("")
    return folder, names


# --- running ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    """One finished child process."""

    seconds: float
    cpu: float  # user + system seconds of the child
    first_output: float | None  # seconds to the first byte on stdout
    peak_kib: int  # the child's own maximum resident set size
    lines: int  # lines written to stdout


def environment(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The one environment every child gets: the project and bench/ importable, bytecode cached.

    Compiled bytecode is cached under bench/out/pycache (written by the untimed warm-up runs),
    as an installed package has it, even where PYTHONDONTWRITEBYTECODE is set; and output is
    buffered as a shell runs the tool, even where PYTHONUNBUFFERED is set (some sandboxes and
    CI runners set it; the unbuffered row sets it again, in ``extra``, to measure it).
    """
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(ROOT), str(BENCH), os.environ.get("PYTHONPATH")])
    )
    env["PYTHONPYCACHEPREFIX"] = str(OUT / "pycache")
    for name in ("PYTHONDONTWRITEBYTECODE", "PYTHONSTARTUP", "PYTHONUNBUFFERED"):
        env.pop(name, None)
    env.update(extra or {})
    return env


def run(code: str, args: list[str], cwd: Path = ROOT, extra: dict[str, str] | None = None) -> Run:
    """Run ``python -c CODE ARGS`` to the end; fail loudly if it does not exit 0."""
    argv = [sys.executable, "-c", code, *args]
    with tempfile.TemporaryFile() as errors:
        start = time.perf_counter()
        child = subprocess.Popen(
            argv, stdout=subprocess.PIPE, stderr=errors, cwd=cwd, env=environment(extra)
        )
        first, lines = None, 0
        fd = child.stdout.fileno()
        while chunk := os.read(fd, 1 << 16):
            if first is None:
                first = time.perf_counter() - start
            lines += chunk.count(b"\n")
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        child.stdout.close()
        if child.returncode != 0:
            errors.seek(0)
            message = errors.read().decode(errors="replace")[-2000:]
            raise SystemExit(f"{' '.join(argv[:4])}… exited {child.returncode}:\n{message}")
    return Run(seconds, usage.ru_utime + usage.ru_stime, first, usage.ru_maxrss, lines)


def paired(
    first: tuple, second: tuple, pairs: int, cwd: Path = ROOT
) -> tuple[list[Run], list[Run]]:
    """Run two commands in pairs, alternating which goes first, after one untimed warm-up each.
    Each is ``(code, arguments)`` or ``(code, arguments, extra environment)``."""

    def once(command: tuple) -> Run:
        code, args, *extra = command
        return run(code, args, cwd=cwd, extra=extra[0] if extra else None)

    once(first)
    once(second)
    a_runs, b_runs = [], []
    for index in range(pairs):
        if index % 2 == 0:
            a_runs.append(once(first))
            b_runs.append(once(second))
        else:
            b_runs.append(once(second))
            a_runs.append(once(first))
    return a_runs, b_runs


def median_ratio(tool: list[Run], baseline: list[Run]) -> float:
    """The median of the per-pair time ratios (robust to load that hits both runs of a pair)."""
    return statistics.median(t.seconds / b.seconds for t, b in zip(tool, baseline))


def median_cpu_ratio(tool: list[Run], baseline: list[Run]) -> float:
    """The median of the per-pair CPU time ratios (less sensitive to other processes than wall time)."""
    return statistics.median(t.cpu / b.cpu for t, b in zip(tool, baseline))


def median_seconds(runs: list[Run]) -> float:
    """The median wall time."""
    return statistics.median(r.seconds for r in runs)


def best(runs: list[Run]) -> Run:
    """The fastest run (the one least disturbed by the rest of the machine)."""
    return min(runs, key=lambda r: r.seconds)


def peak_mib(runs: list[Run]) -> float:
    """The largest peak resident set size over the runs, in MiB."""
    return max(r.peak_kib for r in runs) / 1024


Command = tuple[str, list[str], dict[str, str]]  # code, arguments, extra environment


def rounds_of(commands: list[Command], rounds: int) -> list[list[Run]]:
    """Each command run ``rounds`` times, the commands taking turns (each round in another
    order), so a slow spell of the machine falls on all of them alike."""
    runs: list[list[Run]] = [[] for _ in commands]
    order = list(range(len(commands)))
    for index in range(rounds):
        for at in order[index % len(order) :] + order[: index % len(order)]:
            code, args, extra = commands[at]
            runs[at].append(run(code, args, extra=extra))
    return runs


# --- the measurements ------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    """One line of the results table."""

    what: str
    tool: str
    baseline: str
    figure: str
    target: str
    met: bool | None  # None: nothing to meet (a peer)
    memory: str


def measure_startup(sizes: Sizes) -> Row:
    """``wizard score game.yaml`` against the bare Typer app on the same file."""
    sheet = str(startup_sheet())
    tool, baseline = paired(
        (TOOL, ["score", sheet]), (START_BASELINE, ["show", sheet]), sizes.startup_pairs
    )
    ratio = median_ratio(tool, baseline)
    return Row(
        f"start-up: `score game.yaml` vs bare Typer app (median of {len(tool)} pairs)",
        f"{median_seconds(tool) * 1000:.0f} ms",
        f"{median_seconds(baseline) * 1000:.0f} ms",
        f"{ratio:.2f}× (CPU {median_cpu_ratio(tool, baseline):.2f}×)",
        f"≤ {TARGET_STARTUP}×",
        ratio <= TARGET_STARTUP,
        f"{peak_mib(tool):.0f} / {peak_mib(baseline):.0f} MiB",
    )


def measure_import(sizes: Sizes) -> Row:
    """``import wizard_cli`` (the library, its names re-exported lazily) against a bare
    ``import yaml``, which it cannot do without."""
    tool, baseline = paired(("import wizard_cli", []), ("import yaml", []), sizes.startup_pairs)
    ratio = median_ratio(tool, baseline)
    return Row(
        f"`import wizard_cli` vs bare `import yaml` (median of {len(tool)} pairs)",
        f"{median_seconds(tool) * 1000:.0f} ms",
        f"{median_seconds(baseline) * 1000:.0f} ms",
        f"{ratio:.2f}× (CPU {median_cpu_ratio(tool, baseline):.2f}×)",
        f"≤ {TARGET_IMPORT}×",
        ratio <= TARGET_IMPORT,
        f"{peak_mib(tool):.0f} / {peak_mib(baseline):.0f} MiB",
    )


def installed_peers() -> tuple[list[str], list[str]]:
    """The columnar peers this interpreter can import, and those it cannot (skipped)."""
    import importlib.util

    found = [name for name in PEERS if importlib.util.find_spec(name) is not None]
    return found, [name for name in PEERS if name not in found]


def measure_season(sizes: Sizes) -> tuple[list[Row], list[str]]:
    """Every season run, the peers and the bare csv.reader pass over one long CSV, in one batch
    of rounds; each figure is its best time over the baseline's best. Also the unbuffered run
    and the time to the first output. Returns the rows and what was skipped."""
    path, games = season_csv(sizes.rows)
    rows = games * ROWS_PER_GAME
    small, _ = season_csv(ROWS_PER_GAME * 2)  # warm-up: bytecode cached for every command
    for _, args, _ in SEASON_RUNS:
        run(TOOL, [arg.format(path=small) for arg in args])
    peers, skipped = installed_peers()
    commands: list[Command] = [(CSV_BASELINE, [str(path)], {})]
    commands += [(TOOL, [arg.format(path=path) for arg in args], {}) for _, args, _ in SEASON_RUNS]
    standings_args = SEASON_RUNS[0][1][:1] + [str(path)] + SEASON_RUNS[0][1][2:]
    commands += [(TOOL, standings_args + RULE_HEAVY, {})]  # the same season, every extra rule on
    special, _ = special_season_csv(sizes.rows)
    special_args = ["standings", str(special), "--format", "jsonl", "--set", "specialCards=true"]
    run(TOOL, ["standings", str(special_season_csv(ROWS_PER_GAME * 2)[0]), *special_args[2:]])
    commands += [(TOOL, special_args, {})]  # the anniversary cards' season
    commands += [(PEER_BASELINE, [name, str(path)], {}) for name in peers]
    run(CSV_BASELINE, [str(path)])  # warm-up: the file into the page cache
    for name in peers:
        run(PEER_BASELINE, [name, str(path)])
    runs = rounds_of(commands, sizes.heavy_runs)
    baseline, tools = runs[0], runs[1 : 1 + len(SEASON_RUNS)]
    heavy = runs[1 + len(SEASON_RUNS)]
    specials = runs[2 + len(SEASON_RUNS)]
    peer_runs = runs[3 + len(SEASON_RUNS) :]
    base = best(baseline)
    how = f"best of {len(baseline)}"
    result = [
        Row(
            f"baseline: `csv.reader` pass over the season, {rows:,} rows / {games:,} games ({how})",
            f"{base.seconds:.2f} s",
            "",
            "1×",
            "",
            None,
            f"{peak_mib(baseline):.0f} MiB",
        )
    ]
    for (what, _, target), tool in zip(SEASON_RUNS, tools):
        if what.startswith("standings") and any(r.lines != games for r in tool):
            raise SystemExit(f"expected {games} jsonl lines, got {[r.lines for r in tool]}")
        fastest, memory = best(tool), peak_mib(tool)
        ratio = fastest.seconds / base.seconds
        result.append(
            Row(
                f"season: `wizard {what}` vs `csv.reader` ({how})",
                f"{fastest.seconds:.2f} s",
                f"{base.seconds:.2f} s",
                f"{ratio:.2f}× (CPU {fastest.cpu / base.cpu:.2f}×)",
                f"≤ {target:g}×, ≤ {TARGET_MEMORY_MIB} MiB",
                ratio <= target and memory <= TARGET_MEMORY_MIB,
                f"{memory:.0f} MiB",
            )
        )
    for name, peer in zip(peers, peer_runs):
        fastest = best(peer)
        result.append(
            Row(
                f"peer: {name}, a plain read + group-by of the same file ({how}; no checks)",
                f"{fastest.seconds:.2f} s",
                f"{base.seconds:.2f} s",
                f"{fastest.seconds / base.seconds:.2f}× (CPU {fastest.cpu / base.cpu:.2f}×)",
                "",
                None,
                f"{peak_mib(peer):.0f} MiB",
            )
        )
    standings = tools[0]
    # Back to back, in pairs (each pair's order alternating): in the rounds above, the unbuffered
    # run always came right after `score`, the longest, and its best was set against the best of
    # runs placed elsewhere. Both make the same 145 writes (strace -c) and take the same CPU.
    unbuffered, buffered = paired(
        (TOOL, standings_args, {"PYTHONUNBUFFERED": "1"}), (TOOL, standings_args), sizes.heavy_runs
    )
    ratio = median_ratio(unbuffered, buffered)
    result.append(
        Row(
            f"unbuffered: `standings -f jsonl` with `PYTHONUNBUFFERED=1` vs without (median of "
            f"{len(unbuffered)} pairs)",
            f"{median_seconds(unbuffered):.2f} s",
            f"{median_seconds(buffered):.2f} s",
            f"{ratio:.2f}× (CPU {median_cpu_ratio(unbuffered, buffered):.2f}×)",
            f"≤ {TARGET_UNBUFFERED}× (no slower)",
            ratio <= TARGET_UNBUFFERED,
            f"{peak_mib(unbuffered):.0f} MiB",
        )
    )
    if any(r.lines != games for r in heavy):
        raise SystemExit(f"expected {games} rule-heavy jsonl lines, got {[r.lines for r in heavy]}")
    ratio = best(heavy).seconds / best(standings).seconds
    result.append(
        Row(
            f"rule-heavy: `standings -f jsonl {' '.join(RULE_HEAVY)}` vs the same without the rules "
            f"({how})",
            f"{best(heavy).seconds:.2f} s",
            f"{best(standings).seconds:.2f} s",
            f"{ratio:.2f}× (CPU {best(heavy).cpu / best(standings).cpu:.2f}×; "
            f"{best(heavy).seconds / base.seconds:.2f}× `csv.reader`)",
            f"≤ {TARGET_RULE_HEAVY}×",
            ratio <= TARGET_RULE_HEAVY and peak_mib(heavy) <= TARGET_MEMORY_MIB,
            f"{peak_mib(heavy):.0f} MiB",
        )
    )
    if any(r.lines != games for r in specials):
        raise SystemExit(
            f"expected {games} special-card jsonl lines, got {[r.lines for r in specials]}"
        )
    ratio = best(specials).seconds / best(standings).seconds
    result.append(
        Row(
            f"special cards: `{' '.join(special_args[:1] + special_args[2:])}` of a season with "
            f"Bombs and Clouds in a tenth of its rounds each vs the classic season's ({how})",
            f"{best(specials).seconds:.2f} s",
            f"{best(standings).seconds:.2f} s",
            f"{ratio:.2f}× (CPU {best(specials).cpu / best(standings).cpu:.2f}×; "
            f"{best(specials).seconds / base.seconds:.2f}× `csv.reader`)",
            f"≤ {TARGET_SPECIAL}×",
            ratio <= TARGET_SPECIAL and peak_mib(specials) <= TARGET_MEMORY_MIB,
            f"{peak_mib(specials):.0f} MiB",
        )
    )
    first = min(r.first_output for r in standings)
    total = best(standings).seconds
    result.append(
        Row(
            "streaming: first output of that `standings` run, against its total time",
            f"{first:.2f} s",
            f"{total:.2f} s",
            f"{first / total:.1%} of the run",
            "before the end",
            first < total / 2,
            "",
        )
    )
    return result, [f"{name} (not installed)" for name in skipped]


def measure_files(sizes: Sizes) -> Row:
    """``wizard standings sheets/*.yaml``: many small sheets given at once."""
    folder, names = sheet_folder(sizes.sheets)
    run(TOOL, ["standings", *names], cwd=folder)  # warm-up: the files into the page cache
    runs = [run(TOOL, ["standings", *names], cwd=folder) for _ in range(sizes.heavy_runs)]
    seconds = median_seconds(runs)
    rate = len(names) / seconds
    return Row(
        f"many files: `standings sheets/*.yaml`, {len(names):,} block-style sheets "
        f"(median of {len(runs)} runs)",
        f"{seconds:.2f} s",
        "",
        f"{rate:,.0f} sheets/s",
        f"≥ {TARGET_SHEETS_PER_SECOND:,} sheets/s",
        rate >= TARGET_SHEETS_PER_SECOND,
        f"{peak_mib(runs):.0f} MiB",
    )


def table(rows: list[Row]) -> str:
    """The results as a Markdown table (paste it into the README)."""
    lines = [
        "| measurement | wizard | baseline | figure | target | met | peak memory |",
        "|---|---:|---:|---:|---|---|---:|",
    ]
    lines += [
        f"| {r.what} | {r.tool} | {r.baseline} | {r.figure} | {r.target} | "
        f"{'' if r.met is None else 'yes' if r.met else 'NO'} | {r.memory} |"
        for r in rows
    ]
    return "\n".join(lines)


def machine() -> str:
    """What the figures were measured on."""
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return (
        f"Python {platform.python_version()} ({platform.python_implementation()}) on "
        f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs, load {load}, "
        f"{time.strftime('%Y-%m-%d')}"
    )


def main() -> int:
    """Generate the inputs, run the measurements, print the table; exit 1 if a target is missed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller inputs and fewer runs")
    parser.add_argument(
        "--only",
        choices=("startup", "season", "files"),
        action="append",
        help="run only this measurement (repeatable)",
    )
    options = parser.parse_args()
    sizes = QUICK if options.quick else FULL
    chosen = options.only or ["startup", "season", "files"]
    OUT.mkdir(parents=True, exist_ok=True)
    rows: list[Row] = []
    skipped: list[str] = []
    if "startup" in chosen:
        rows.append(measure_startup(sizes))
        rows.append(measure_import(sizes))
    if "season" in chosen:
        season_rows, skipped = measure_season(sizes)
        rows += season_rows
    if "files" in chosen:
        rows.append(measure_files(sizes))
    print(f"`python bench/run.py{' --quick' if options.quick else ''}` — {machine()}\n")
    print(table(rows))
    if skipped:
        print(f"\nPeers skipped: {', '.join(skipped)}.")
    print(
        "\nTimes are wall-clock (CPU-time ratio in brackets), each run a whole process with the "
        "same interpreter; peak memory is each process's own maximum resident set size "
        "(os.wait4 ru_maxrss)."
    )
    return 0 if all(r.met is not False for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
