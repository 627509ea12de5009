"""Sliding puzzle solver: Korf's 100 15-puzzles, hint times, the databases, large boards.

Four parts, all in this process, one core (wall clock and CPU time, since the machine
may be shared):

1. The pattern databases built from nothing into a fresh folder (not the user's): time
   and size on disk of each table file (the first includes loading or compiling the
   build's kernel), and how long the first calls of the search kernels took (compiling,
   or loading them from numba's cache).
2. Korf's 100 random instances (../shared/data/korf100.txt, turned to this goal as its
   header says): per instance the solution length, nodes expanded and time; then the
   mean and median time and the total nodes; every length is checked against the
   published optimum (Korf 1985), and every solution is replayed. Target: all 100
   optimal, mean <= 1 s. Anchors: Korf and Felner's 6-6-3 databases in C, 0.16 s each.
3. Hints on --hints uniformly random solvable 4x4 positions: the first hint of a
   position is a full solve (later hints follow the stored solution), so this is the
   solve time: median and p95.
4. --big random 8x8 positions with the non-optimal solver: time (median, p95, max) and
   solution length (median).

Run from the repository root (about a minute on a quiet machine):
    .venv/bin/python -m bench.sliding_solver [--hints 200] [--big 50] [--korf PATH]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from bench.common import heading, percentile
from parlour.core import tables
from parlour.games.sliding import patterns
from parlour.games.sliding.solver import Solution, is_solvable, solve

KORF_FILE = Path(__file__).resolve().parents[2] / "shared" / "data" / "korf100.txt"
PUBLISHED = (  # Korf's optimal lengths of his 100 instances, in order
    57, 55, 59, 56, 56, 52, 52, 50, 46, 59, 57, 45, 46, 59, 62, 42, 66, 55, 46, 52,
    54, 59, 49, 54, 52, 58, 53, 52, 54, 47, 50, 59, 60, 52, 55, 52, 58, 53, 49, 54,
    54, 42, 64, 50, 51, 49, 47, 49, 59, 53, 56, 56, 64, 56, 41, 55, 50, 51, 57, 66,
    45, 57, 56, 51, 47, 61, 50, 51, 53, 52, 44, 56, 49, 56, 48, 57, 54, 53, 42, 57,
    53, 62, 49, 55, 44, 45, 52, 65, 54, 50, 57, 57, 46, 53, 50, 49, 44, 54, 57, 54,
)
MEAN_TARGET_S = 1.0

T = TypeVar("T")


def timed(work: Callable[[], T]) -> tuple[T, float, float]:
    """What `work` returns, with its wall clock and CPU seconds."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = work()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def korf_instances(path: Path) -> list[tuple[int, ...]]:
    """The instances turned by 180 degrees, tile t renumbered 16 - t (goal 1..15, gap
    bottom right; the file's header explains)."""
    lines = [line.split() for line in path.read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    return [tuple((16 - int(tile)) % 16 for tile in reversed(line)) for line in lines]


def replayed(rows: int, cols: int, tiles: Sequence[int], solution: Solution) -> bool:
    board = list(tiles)
    gap = board.index(0)
    for cell in solution.moves:
        if abs(cell // cols - gap // cols) + abs(cell % cols - gap % cols) != 1:
            return False
        board[gap], board[cell] = board[cell], 0
        gap = cell
    return board == [*range(1, rows * cols), 0]


def uniform(rows: int, cols: int, rng: random.Random) -> list[int]:
    while True:
        tiles = list(range(rows * cols))
        rng.shuffle(tiles)
        if is_solvable(rows, cols, tiles):
            return tiles


def figures(seconds: Sequence[float]) -> str:
    ms = [s * 1000 for s in seconds]
    return (f"median {statistics.median(ms):8.1f} ms   p95 {percentile(ms, 95):8.1f} ms"
            f"   max {max(ms):8.1f} ms")


def tables_part() -> None:
    heading("Pattern databases, built into a fresh folder")
    for table in patterns.TABLES:
        _, wall, cpu = timed(lambda table=table: tables.get(table))  # type: ignore[misc]
        size = tables.path(table).stat().st_size
        print(f"{table.name:<28} built in {wall:6.1f} s wall, {cpu:6.1f} s CPU;"
              f" {size / 1e6:6.2f} MB on disk")
        tables.forget(table)
        _, wall, _ = timed(lambda table=table: tables.get(table))  # type: ignore[misc]
        print(f"{'':<28} read back in {wall:.2f} s")
    _, wall, cpu = timed(lambda: (solve(3, 3, [*range(1, 8), 0, 8]),
                                  solve(3, 5, [*range(1, 14), 0, 14])))
    print(f"first calls of the search kernels (compile or cache load): {wall:.2f} s wall,"
          f" {cpu:.2f} s CPU")


def korf_part(path: Path) -> None:
    heading(f"Korf's 100 instances ({path})")
    instances = korf_instances(path)
    print(f"{'#':>3} {'length':>6} {'published':>9} {'nodes':>11} {'wall s':>8} {'CPU s':>8}")
    walls, cpus, nodes, wrong = [], [], 0, []
    for number, tiles in enumerate(instances, start=1):
        solution, wall, cpu = timed(lambda tiles=tiles: solve(4, 4, tiles))  # type: ignore[misc]
        walls.append(wall)
        cpus.append(cpu)
        nodes += solution.nodes
        published = PUBLISHED[number - 1]
        if len(solution.moves) != published or not replayed(4, 4, tiles, solution):
            wrong.append(number)
        print(f"{number:>3} {len(solution.moves):>6} {published:>9} {solution.nodes:>11,}"
              f" {wall:>8.3f} {cpu:>8.3f}", flush=True)
    verdict = "met" if statistics.fmean(walls) <= MEAN_TARGET_S else "NOT met"
    print(f"time, wall   mean {statistics.fmean(walls):.3f} s   median"
          f" {statistics.median(walls):.3f} s   max {max(walls):.3f} s   total {sum(walls):.1f} s"
          f"   (target mean <= {MEAN_TARGET_S:.0f} s: {verdict})")
    print(f"time, CPU    mean {statistics.fmean(cpus):.3f} s   median"
          f" {statistics.median(cpus):.3f} s   max {max(cpus):.3f} s   total {sum(cpus):.1f} s")
    print(f"nodes        total {nodes:,}   mean {nodes // len(instances):,}")
    if wrong:
        raise SystemExit(f"not the published optimum or not a solution: instances {wrong}")
    print(f"optimal      all {len(instances)} lengths equal the published optima;"
          " every solution replayed to the goal")


def hint_part(count: int) -> None:
    heading(f"First hint (a full solve) on {count} uniformly random 4x4 positions")
    rng = random.Random("sliding-bench-hints")
    walls, cpus, lengths = [], [], []
    for _ in range(count):
        tiles = uniform(4, 4, rng)
        solution, wall, cpu = timed(lambda tiles=tiles: solve(4, 4, tiles))  # type: ignore[misc]
        walls.append(wall)
        cpus.append(cpu)
        lengths.append(len(solution.moves))
    print(f"wall  {figures(walls)}")
    print(f"CPU   {figures(cpus)}")
    print(f"optimal length median {statistics.median(lengths):.0f}, max {max(lengths)}")


def big_part(count: int) -> None:
    heading(f"Non-optimal solver on {count} uniformly random 8x8 positions")
    rng = random.Random("sliding-bench-8x8")
    walls, cpus, lengths = [], [], []
    for _ in range(count):
        tiles = uniform(8, 8, rng)
        solution, wall, cpu = timed(lambda tiles=tiles: solve(8, 8, tiles))  # type: ignore[misc]
        if not replayed(8, 8, tiles, solution):
            raise SystemExit("an 8x8 solution does not solve its position")
        walls.append(wall)
        cpus.append(cpu)
        lengths.append(len(solution.moves))
    print(f"wall  {figures(walls)}")
    print(f"CPU   {figures(cpus)}")
    print(f"solution length median {statistics.median(lengths):.0f}   min {min(lengths)}"
          f"   max {max(lengths)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--korf", type=Path, default=KORF_FILE, help="Korf's 100 instances")
    parser.add_argument("--hints", type=int, default=200, help="random 4x4 positions (200)")
    parser.add_argument("--big", type=int, default=50, help="random 8x8 positions (50)")
    args = parser.parse_args()
    print("Sliding solver bench: .venv/bin/python -m bench.sliding_solver"
          f" --hints {args.hints} --big {args.big} --korf {args.korf}")
    with tempfile.TemporaryDirectory() as folder:
        os.environ[tables.FOLDER_VARIABLE] = folder
        tables_part()
        korf_part(args.korf)
        if args.hints:
            hint_part(args.hints)
        if args.big:
            big_part(args.big)


if __name__ == "__main__":
    main()
