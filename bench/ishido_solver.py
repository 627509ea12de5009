"""Ishido solver: how often it places all 72 tiles, what it scores, and how fast it is.

For each rule set, deal i is `Ishido().deal(Ishido().validate({"rules": R}),
random.Random(i))` for i in 0 .. --deals - 1, played to the end through the real rules
(`Ishido().apply`), every move chosen by `parlour.games.ishido.solver.hint`, the
function the Hint button calls (the search plus its note). The solver sees the board,
the next tile and what remains to come, never the pouch's order.

Printed per rule set: deals, the share in which all 72 tiles were placed with a 95 %
(Wilson) interval, mean tiles placed and the deals that got stuck, mean and median
score, mean 4-ways and how many deals reached 0-2, 3-5, 6-8 and 9+ of them, and the
time per hint: wall clock (what a player waits for; on a shared machine it includes
time waiting for a core) and the process's own CPU time, median and p95, in ms. Runs
on `--workers` processes (default 2).

Run from the repository root:  .venv/bin/python -m bench.ishido_solver [--deals N] [--rules R]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import dataclass
from multiprocessing import Pool

from bench.common import heading, percentile, wilson
from parlour.core.game import Status
from parlour.games.ishido.logic import TILES, Board, Ishido
from parlour.games.ishido.solver import hint

GAME = Ishido()
RULES = ("seed", "classic")


@dataclass(frozen=True)
class Outcome:
    seed: int
    placed: int
    score: int
    four_ways: int
    wall_ms: tuple[float, ...]  # per hint
    cpu_ms: tuple[float, ...]


def deal(rules: str, seed: int) -> Board:
    return GAME.deal(GAME.validate({"rules": rules}), random.Random(seed))


def play(job: tuple[str, int]) -> Outcome:
    """One deal played to the end by the solver, through the real rules."""
    rules, seed = job
    state = deal(rules, seed)
    wall: list[float] = []
    cpu: list[float] = []
    while True:
        started, started_cpu = time.perf_counter(), time.process_time()
        suggestion = hint(state, 0)
        cpu.append((time.process_time() - started_cpu) * 1000)
        wall.append((time.perf_counter() - started) * 1000)
        playing = GAME.status(state) is Status.PLAYING
        if suggestion is None:
            if playing:
                raise SystemExit(f"{rules} deal {seed}: no hint in a game still on")
            break
        if not playing:
            raise SystemExit(f"{rules} deal {seed}: a hint after the game ended")
        state = GAME.apply(state, GAME.parse_move(suggestion.move))
    wall.pop()  # the last call only found that the game was over
    cpu.pop()
    return Outcome(seed, state.placed, state.score, state.four_ways, tuple(wall), tuple(cpu))



def summarise(rules: str, outcomes: list[Outcome], seconds: float) -> None:
    deals = len(outcomes)
    complete = sum(o.placed == TILES for o in outcomes)
    low, high = wilson(complete, deals)
    wall = [ms for o in outcomes for ms in o.wall_ms]
    cpu = [ms for o in outcomes for ms in o.cpu_ms]
    fours = [o.four_ways for o in outcomes]
    bands = {"0-2": (0, 2), "3-5": (3, 5), "6-8": (6, 8), "9+": (9, 99)}
    spread = "  ".join(
        f"{name}: {sum(lo <= f <= hi for f in fours)}" for name, (lo, hi) in bands.items()
    )
    heading(f"Ishido solver, {rules} rules: {deals} deals (seeds 0-{deals - 1})")
    print(f"all 72 tiles placed   {complete}/{deals} = {complete / deals:.1%}"
          f"  (95 % CI {low:.1%} - {high:.1%})")
    stuck = [f"{o.seed} ({o.placed})" for o in outcomes if o.placed < TILES]
    print(f"tiles placed          mean {statistics.fmean(o.placed for o in outcomes):.2f}"
          f"  min {min(o.placed for o in outcomes)}")
    if stuck:
        more = f" and {len(stuck) - 12} more" if len(stuck) > 12 else ""
        print(f"stuck: deal (tiles)   {', '.join(stuck[:12])}{more}")
    print(f"score                 mean {statistics.fmean(o.score for o in outcomes):.1f}"
          f"  median {statistics.median(o.score for o in outcomes):.0f}"
          f"  max {max(o.score for o in outcomes)}")
    print(f"4-ways                mean {statistics.fmean(fours):.2f}"
          f"  max {max(fours)}   deals with {spread}")
    print(f"time per hint, wall   median {statistics.median(wall):.1f} ms"
          f"  p95 {percentile(wall, 95):.1f} ms  max {max(wall):.1f} ms  ({len(wall)} hints)")
    print(f"time per hint, CPU    median {statistics.median(cpu):.1f} ms"
          f"  p95 {percentile(cpu, 95):.1f} ms")
    print(f"run time              {seconds:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000, help="deals per rule set")
    parser.add_argument("--rules", default=",".join(RULES),
                        help="comma-separated rule sets: seed, classic (default both)")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    args = parser.parse_args()
    chosen = [name.strip() for name in args.rules.split(",") if name.strip()]
    for name in chosen:
        if name not in RULES:
            raise SystemExit(f"unknown rules {name!r}: expected seed or classic")
    for rules in chosen:
        started = time.perf_counter()
        with Pool(args.workers) as pool:
            outcomes = pool.map(play, [(rules, seed) for seed in range(args.deals)],
                                chunksize=4)
        summarise(rules, outcomes, time.perf_counter() - started)


if __name__ == "__main__":
    main()
