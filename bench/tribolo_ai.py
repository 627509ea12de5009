"""Tribolo's computer players against each other: wins, ties and losses, and time per move.

Three match-ups, each over --games games:
1. Strong against two Easy players (target: Strong wins at least 60 % of the games; a fair
   share among three is 33 %);
2. Medium against two Easy players;
3. Strong, Medium and Easy together.
Deal d is `rules.deal(random.Random(d))` (its board and its first player). Every deal is
played once with each arrangement of the levels over the colours that the match-up has (the
three cyclic rotations; for three different levels, all six orders), so each level plays
each colour and each turn position (first, second, third to move) equally often. The
players' tie-breaks come from `random.Random(f"{deal}/{arrangement}")`.

A game counts as a win for the level with the most cells, a tie for levels sharing the most
cells, a loss otherwise; each line gives the share with a 95 % Wilson interval, per seat of
that level (so with two Easy seats, Easy's figures are per Easy player). Time per move is
the CPU time of the worker process for one call of the level (other load on the shared
machine does not inflate it) and the wall-clock time, each as median, p95 and max (targets:
Strong's CPU p95 <= 250 ms, which keeps its wall time under the spec's 1 s on a busy
machine). Progress and running tallies go to stderr as games finish.

Runs on --workers processes (default: every core); the compiled search is loaded (or
compiled, the first time) before they start. Run from the repository root (the full run,
600 games per match-up, took 56 minutes on two cores shared with other work; --games 12
for a look):
    .venv/bin/python -m bench.tribolo_ai [--games N] [--matchups 1,2,3] [--workers N]
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing import Pool

from bench.common import heading, percentile, wilson
from parlour.games.tribolo import ai, rules, solver

STRONG_TARGET_SHARE = 0.60
STRONG_TARGET_CPU_P95_MS = 250.0
STRONG_TARGET_WALL_P95_MS = 1000.0

MATCHUPS: dict[int, tuple[str, str, str]] = {
    1: ("strong", "easy", "easy"),
    2: ("medium", "easy", "easy"),
    3: ("strong", "medium", "easy"),
}


def arrangements(lineup: tuple[str, str, str]) -> list[tuple[str, ...]]:
    """The distinct ways to seat the lineup on Blue, Red, Green, each level on each colour
    (and so each turn position) equally often."""
    return sorted(set(itertools.permutations(lineup)))


@dataclass(frozen=True)
class Game:
    deal: int
    seats: tuple[str, ...]  # level by colour
    scores: tuple[int, int, int]
    winners: tuple[int, ...]
    cpu_ms: tuple[tuple[str, float], ...]  # (level, ms) per move
    wall_ms: tuple[tuple[str, float], ...]


def play_game(job: tuple[int, tuple[str, ...]]) -> Game:
    deal, seats = job
    board, mover = rules.deal(random.Random(deal))
    rng = random.Random(f"{deal}/{'-'.join(seats)}")
    cpu_ms: list[tuple[str, float]] = []
    wall_ms: list[tuple[str, float]] = []
    player: int | None = mover
    while player is not None:
        level = seats[player]
        started, started_cpu = time.perf_counter(), time.process_time()
        cell = ai.LEVELS[level](board, player, rng)
        cpu_ms.append((level, (time.process_time() - started_cpu) * 1000))
        wall_ms.append((level, (time.perf_counter() - started) * 1000))
        board = rules.play(board, player, cell)
        player = rules.next_to_move(board, player)
    return Game(deal, seats, rules.scores(board), rules.winners(board), tuple(cpu_ms),
                tuple(wall_ms))


def outcome_counts(games: Sequence[Game], level: str) -> tuple[int, int, int, int]:
    """(wins, ties, losses, seats) of `level` over `games`, one per seat it held."""
    wins = ties = losses = seats = 0
    for game in games:
        for colour, seated in enumerate(game.seats):
            if seated != level:
                continue
            seats += 1
            if colour not in game.winners:
                losses += 1
            elif len(game.winners) == 1:
                wins += 1
            else:
                ties += 1
    return wins, ties, losses, seats


def share(count: int, total: int) -> str:
    low, high = wilson(count, total)
    return f"{count:4d} = {count / max(total, 1):6.1%} ({low:5.1%} - {high:5.1%})"


def times(samples: Sequence[float]) -> str:
    return (f"median {statistics.median(samples):7.1f} ms   p95 {percentile(samples, 95):7.1f} ms"
            f"   max {max(samples):7.1f} ms")


def report(lineup: tuple[str, str, str], games: Sequence[Game]) -> None:
    for level in dict.fromkeys(lineup):
        wins, ties, losses, seats = outcome_counts(games, level)
        print(f"{level:<7} wins {share(wins, seats)}   ties {share(ties, seats)}   losses"
              f" {share(losses, seats)}   ({seats} seats)")
    mean_scores = Counter[str]()
    seat_counts = Counter[str]()
    for game in games:
        for colour, level in enumerate(game.seats):
            mean_scores[level] += game.scores[colour]
            seat_counts[level] += 1
    print("mean cells   " + "   ".join(f"{level} {mean_scores[level] / seat_counts[level]:.1f}"
                                        for level in seat_counts))


def matchup(number: int, games: int, workers: int) -> list[Game]:
    lineup = MATCHUPS[number]
    seatings = arrangements(lineup)
    deals = -(-games // len(seatings))
    jobs = [(deal, seats) for deal in range(deals) for seats in seatings]
    heading(f"{number}. {' + '.join(lineup)}: {len(jobs)} games ({deals} deals x"
            f" {len(seatings)} seatings), {workers} processes")
    started = time.perf_counter()
    done: list[Game] = []
    step = max(1, len(jobs) // 20)
    with Pool(workers) as pool:
        for game in pool.imap_unordered(play_game, jobs):
            done.append(game)
            if len(done) % step == 0 or len(done) == len(jobs):
                wins, _, _, seats = outcome_counts(done, lineup[0])
                print(f"  {len(done)}/{len(jobs)} games ({time.perf_counter() - started:.0f} s):"
                      f" {lineup[0]} wins {wins}/{seats}", file=sys.stderr, flush=True)
    report(lineup, done)
    if lineup[0] == "strong" and lineup[1] == "easy":
        wins, _, _, seats = outcome_counts(done, "strong")
        verdict = "met" if wins / seats >= STRONG_TARGET_SHARE else "NOT met"
        print(f"target: Strong wins >= {STRONG_TARGET_SHARE:.0%} against two Easy: {verdict}")
    print(f"run time {time.perf_counter() - started:.0f} s")
    return done


def time_report(games: Sequence[Game]) -> None:
    heading("Time per move (every move of every game above)")
    for level in ai.LEVELS:
        cpu = [ms for game in games for seated, ms in game.cpu_ms if seated == level]
        wall = [ms for game in games for seated, ms in game.wall_ms if seated == level]
        if not cpu:
            continue
        print(f"{level:<7} CPU  {times(cpu)}   ({len(cpu)} moves)")
        print(f"{'':<7} wall {times(wall)}")
        if level == "strong":
            for kind, samples, target in (("CPU", cpu, STRONG_TARGET_CPU_P95_MS),
                                          ("wall", wall, STRONG_TARGET_WALL_P95_MS)):
                verdict = "met" if percentile(samples, 95) <= target else "NOT met"
                print(f"target: Strong p95 <= {target:.0f} ms ({kind}): {verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=600, help="games per match-up (600)")
    parser.add_argument("--matchups", default="1,2,3",
                        help="which match-ups, by number (1,2,3: see the module docstring)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                        help="processes (every core)")
    args = parser.parse_args()
    chosen = [int(number) for number in args.matchups.split(",")]
    print(f"Tribolo AI bench: .venv/bin/python -m bench.tribolo_ai --games {args.games}"
          f" --matchups {args.matchups} --workers {args.workers}")
    print(f"budgets: Medium {solver.MEDIUM_BUDGET} positions, depth <= {solver.MEDIUM_DEPTH};"
          f" Strong {solver.STRONG_BUDGET} positions, depth <= {solver.STRONG_DEPTH}")
    started = time.perf_counter()
    board, player = rules.deal(random.Random(0))
    ai.strong(board, player, random.Random(0))  # compile or load the kernel once, here
    print(f"search kernel ready in {time.perf_counter() - started:.1f} s")
    played: list[Game] = []
    for number in chosen:
        played += matchup(number, args.games, args.workers)
    time_report(played)
    print(f"total run time {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
