"""Escalator solver: exact verdicts, the share of winnable deals, hints and the light.

Deal i is a Fisher-Yates shuffle of the 52 ranks (four of each of 1..13) driven by
`random.Random(i)`: the first 28 are the pyramid by flat index, the other 24 the stock,
whose first card is the base at the start. (The game deals cards in logic.py; only ranks
matter to the search, `search.py`, and these deals are its own.) Three parts:

1. `solve` on --deals full deals (seeds 0 ..): the share that can be won, with a 95 %
   Wilson interval, and the solver's time per deal (median, p95, max; CPU time of the
   worker process, so other load on the machine does not inflate it). Targets: median
   <= 10 ms (SPEC section 4); an independent estimate puts the winnable share near 15 %.
2. --hint-deals games (seeds 0 ..) played by `best_move` alone against the hidden stock:
   the player's view only (counts of the unseen ranks, never their order; the hint's
   random generator is seeded from the visible position). Printed: the hint's win rate
   next to the winnable share of the same deals, the time per hint (median, p95, max;
   target p95 <= 300 ms), the time of `winnable_with_some_order` (the "still winnable?"
   light) at every position of those games, and the three slowest positions of each
   (deal and number of moves played, to look at them again). The games also check the
   solvers against each other: a game won must be on a winnable deal, a deal `solve` can
   win must light up at the start, and no position after the light goes out may be won.
   Then the same on --winnable-hint-deals winnable deals (each seed's generator shuffles
   until one comes), the hint told so (as the game's hint is on a deal dealt winnable):
   how many of them following the hint wins, and its time there.
3. dealing winnable games by reshuffling (--reshuffles trials): shuffle with one seeded
   generator until `solve` finds a win; time per winnable deal found (median, p95) and
   shuffles needed.

Runs on --workers processes (default: every core) and prints progress as it goes.

Run from the repository root (about 30 minutes on two cores; --deals 2000
--hint-deals 100 for a quick look):
    .venv/bin/python -m bench.escalator_solver [--deals N] [--hint-deals N] [--reshuffles N]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from multiprocessing import Pool
from typing import TypeVar

from bench.common import heading, percentile, wilson
from parlour.games.escalator.search import (
    FULL,
    SAMPLES,
    Pick,
    best_move,
    solve,
    winnable_with_some_order,
)

RANKS = [rank for rank in range(1, 14) for _ in range(4)]
SOLVE_TARGET_MS = 10.0
HINT_TARGET_MS = 300.0
ESTIMATE = 0.15  # winnable share of an independent estimate

Job = TypeVar("Job")
Result = TypeVar("Result")


def deal(rng: random.Random) -> tuple[list[int], list[int]]:
    """A Fisher-Yates shuffle of the 52 ranks: (pyramid, stock)."""
    deck = RANKS[:]
    for i in range(len(deck) - 1, 0, -1):
        j = rng.randrange(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck[:28], deck[28:]


def counts(ranks: Iterable[int]) -> list[int]:
    out = [0] * 13
    for rank in ranks:
        out[rank - 1] += 1
    return out



def figures(samples: Sequence[float]) -> str:
    return (f"median {statistics.median(samples):7.2f} ms   p95 {percentile(samples, 95):7.2f} ms"
            f"   max {max(samples):7.1f} ms")


def run(work: Callable[[Job], Result], jobs: Sequence[Job], workers: int, what: str,
        chunk: int) -> list[Result]:
    """`work` over `jobs` on a pool, printing progress about every 10 %."""
    out: list[Result] = []
    started = time.perf_counter()
    step = max(1, len(jobs) // 10)
    with Pool(workers) as pool:
        for result in pool.imap_unordered(work, jobs, chunksize=chunk):
            out.append(result)
            if len(out) % step == 0 or len(out) == len(jobs):
                print(f"  {what}: {len(out)}/{len(jobs)}  ({time.perf_counter() - started:.0f} s)",
                      file=sys.stderr, flush=True)
    return out


# -- 1. the exact solver on full deals ------------------------------------------------------

def solve_deal(seed: int) -> tuple[bool, float]:
    pyramid, stock = deal(random.Random(seed))
    started = time.process_time()
    line = solve(pyramid, stock)
    return line is not None, (time.process_time() - started) * 1000


def exact_part(deals: int, workers: int) -> None:
    heading(f"Exact solver: {deals} deals (seeds 0-{deals - 1}), {workers} processes")
    started = time.perf_counter()
    results = run(solve_deal, range(deals), workers, "solve", chunk=100)
    wins = sum(won for won, _ in results)
    low, high = wilson(wins, deals)
    times = [ms for _, ms in results]
    verdict = "met" if statistics.median(times) <= SOLVE_TARGET_MS else "NOT met"
    print(f"winnable            {wins}/{deals} = {wins / deals:.2%}"
          f"  (95 % CI {low:.2%} - {high:.2%}; independent estimate about {ESTIMATE:.0%})")
    print(f"time per deal, CPU  {figures(times)}   (target median <= {SOLVE_TARGET_MS:.0f} ms:"
          f" {verdict})")
    won_times = [ms for won, ms in results if won]
    lost_times = [ms for won, ms in results if not won]
    if won_times and lost_times:
        print(f"  winnable deals    {figures(won_times)}   (two searches: the verdict, the line)")
        print(f"  lost deals        {figures(lost_times)}")
    print(f"run time            {time.perf_counter() - started:.0f} s")


# -- 2. games played by the hint ------------------------------------------------------------

@dataclass(frozen=True)
class HintGame:
    seed: int
    winnable: bool  # by `solve`, knowing the stock
    won: bool  # by the hint, not knowing it
    hint_ms: tuple[float, ...]  # wall clock per hint
    hint_cpu_ms: tuple[float, ...]
    light_ms: tuple[float, ...]  # wall clock per light
    light_cpu_ms: tuple[float, ...]
    lights: tuple[bool, ...]
    problem: str | None


def visible_seed(pyramid: Sequence[int], removed: int, drawn: int, base: int) -> str:
    """What the player can see, as the hint's seed: never the order of the stock."""
    return f"escalator-bench/{','.join(map(str, pyramid))}/{removed}/{drawn}/{base}"


def hint_game(job: tuple[int, int, bool]) -> HintGame:
    """One game played by the hint; with `known`, on a winnable deal (the seed's
    generator shuffles until one comes) whose hints know it is one."""
    seed, samples, known = job
    rng = random.Random(seed)
    pyramid, stock = deal(rng)
    winnable = solve(pyramid, stock) is not None
    while known and not winnable:
        pyramid, stock = deal(rng)
        winnable = solve(pyramid, stock) is not None
    removed, drawn, base = 0, 1, stock[0]
    hint_ms: list[float] = []
    hint_cpu_ms: list[float] = []
    light_ms: list[float] = []
    light_cpu_ms: list[float] = []
    lights: list[bool] = []
    problem = None
    while True:
        unseen = counts(stock[drawn:])
        started, started_cpu = time.perf_counter(), time.process_time()
        lights.append(winnable_with_some_order(pyramid, removed, unseen, base))
        light_cpu_ms.append((time.process_time() - started_cpu) * 1000)
        light_ms.append((time.perf_counter() - started) * 1000)
        rng = random.Random(visible_seed(pyramid, removed, drawn, base))
        started, started_cpu = time.perf_counter(), time.process_time()
        found = best_move(pyramid, removed, unseen, base, rng, samples,
                          winnable_from=stock[:drawn] if known else None)
        hint_cpu_ms.append((time.process_time() - started_cpu) * 1000)
        hint_ms.append((time.perf_counter() - started) * 1000)
        if found is None:
            break
        if isinstance(found.move, Pick):
            removed |= 1 << found.move.index
            base = pyramid[found.move.index]
            if removed == FULL:
                break
        else:
            base = stock[drawn]
            drawn += 1
    won = removed == FULL
    if won and not winnable:
        problem = "the hint won a deal that solve says is lost"
    elif winnable and not lights[0]:
        problem = "the light is out at the start of a winnable deal"
    elif won and not all(lights):
        problem = "the light went out in a game that was then won"
    return HintGame(seed, winnable, won, tuple(hint_ms), tuple(hint_cpu_ms), tuple(light_ms),
                    tuple(light_cpu_ms), tuple(lights), problem)


def hint_part(deals: int, samples: int, workers: int, known: bool = False) -> None:
    kind = "winnable deals, the hint knowing they are" if known else "random deals"
    heading(f"Hints: {deals} games on {kind} (seeds 0-{deals - 1}) played by best_move with"
            f" {samples} samples, {workers} processes")
    started = time.perf_counter()
    games = sorted(run(hint_game, [(seed, samples, known) for seed in range(deals)], workers,
                       "games", chunk=2), key=lambda game: game.seed)
    problems = [f"deal {game.seed}: {game.problem}" for game in games if game.problem]
    if problems:
        raise SystemExit("the solvers disagree:\n" + "\n".join(problems))
    winnable = sum(game.winnable for game in games)
    won = sum(game.won for game in games)
    won_low, won_high = wilson(won, deals)
    low, high = wilson(winnable, deals)
    hint_ms = [ms for game in games for ms in game.hint_ms]
    hint_cpu = [ms for game in games for ms in game.hint_cpu_ms]
    light_ms = [ms for game in games for ms in game.light_ms]
    light_cpu = [ms for game in games for ms in game.light_cpu_ms]
    lit = sum(sum(game.lights) for game in games)
    verdict = "met" if percentile(hint_ms, 95) <= HINT_TARGET_MS else "NOT met"
    print(f"won by the hint     {won}/{deals} = {won / deals:.2%}  (95 % CI {won_low:.2%} -"
          f" {won_high:.2%})")
    print(f"winnable (solve)    {winnable}/{deals} = {winnable / deals:.2%}  (95 % CI {low:.2%} -"
          f" {high:.2%}); the hint wins {won / max(winnable, 1):.1%} of the winnable deals")
    print(f"time per hint, wall {figures(hint_ms)}   ({len(hint_ms)} hints; target p95 <="
          f" {HINT_TARGET_MS:.0f} ms: {verdict})")
    print(f"time per hint, CPU  {figures(hint_cpu)}")
    print(f"light, wall         {figures(light_ms)}   ({len(light_ms)} positions, "
          f"{lit / len(light_ms):.1%} lit)")
    print(f"light, CPU          {figures(light_cpu)}")
    for name, times in (("hints", "hint_cpu_ms"), ("lights", "light_cpu_ms")):
        slowest = sorted(((ms, game.seed, n) for game in games
                          for n, ms in enumerate(getattr(game, times))), reverse=True)[:3]
        print(f"slowest {name:<11} " + ", ".join(f"deal {seed} position {n}: {ms:.0f} ms"
                                                   for ms, seed, n in slowest)
              + "  (CPU; position n = after n moves)")
    print("checks              every won game was on a winnable deal; every winnable deal lit"
          " at the start; no light went out in a game then won")
    print(f"run time            {time.perf_counter() - started:.0f} s")


# -- 3. dealing winnable games --------------------------------------------------------------

def reshuffle(trial: int) -> tuple[float, int]:
    """Shuffle until a winnable deal comes: (ms of wall clock, shuffles)."""
    rng = random.Random(f"escalator-reshuffle/{trial}")
    started = time.perf_counter()
    shuffles = 0
    while True:
        shuffles += 1
        pyramid, stock = deal(rng)
        if solve(pyramid, stock) is not None:
            return (time.perf_counter() - started) * 1000, shuffles


def reshuffle_part(trials: int, workers: int) -> None:
    heading(f"Dealing winnable games by reshuffling: {trials} trials, {workers} processes")
    results = run(reshuffle, range(trials), workers, "reshuffles", chunk=4)
    times = [ms for ms, _ in results]
    shuffles = [n for _, n in results]
    print(f"time per winnable deal {figures(times)}")
    print(f"shuffles needed        mean {statistics.fmean(shuffles):.1f}   median"
          f" {statistics.median(shuffles):.0f}   p95 {percentile(shuffles, 95):.0f}"
          f"   max {max(shuffles)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=100_000,
                        help="full deals for the exact solver (100000)")
    parser.add_argument("--hint-deals", type=int, default=2000,
                        help="games played by the hint (2000)")
    parser.add_argument("--winnable-hint-deals", type=int, default=200,
                        help="games played by the hint on winnable deals (200)")
    parser.add_argument("--samples", type=int, default=SAMPLES,
                        help=f"stock orders per hint ({SAMPLES}, the solver's default)")
    parser.add_argument("--reshuffles", type=int, default=500,
                        help="trials of dealing a winnable game (500)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                        help="processes (every core)")
    args = parser.parse_args()
    print("Escalator solver bench: .venv/bin/python -m bench.escalator_solver"
          f" --deals {args.deals} --hint-deals {args.hint_deals}"
          f" --winnable-hint-deals {args.winnable_hint_deals} --samples {args.samples}"
          f" --reshuffles {args.reshuffles} --workers {args.workers}")
    if args.deals:
        exact_part(args.deals, args.workers)
    if args.hint_deals:
        hint_part(args.hint_deals, args.samples, args.workers)
    if args.winnable_hint_deals:
        hint_part(args.winnable_hint_deals, args.samples, args.workers, known=True)
    if args.reshuffles:
        reshuffle_part(args.reshuffles, args.workers)


if __name__ == "__main__":
    main()
