"""Capacity: how many players, each moving every ~2 s, one setup serves with the 99th
percentile of acknowledgements within 100 ms; and its moves per second at saturation.

Setups (side by side, one sitting): today's one SQLite process, and 1, 2 and 4 hosted
processes on PostgreSQL and Redis behind nginx with the shipped configuration (each
player's browser sent to one process by its cookie, where its game is created and
played). The players run in this benchmark's own process, on the same machine: on 2
cores they take part of the CPU the servers would have. Each step of the ladder is run
`--repeat` times and judged by its median 99th percentile: one run's varies by 2-3x
on this machine. Each run also prints the machine's CPU time per move, by part, and the
most moves per second the machine's cores could carry at that cost: a setup's ceiling
here, whatever its latency.

Run: .venv/bin/python -m bench.hosted_capacity [--setups sqlite,hosted:1,hosted:2,hosted:4]
     [--ladder 100,200,400,800] [--seconds 15] [--think 2] [--repeat 3]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics

from bench.common import heading, percentile
from bench.hosted import PARTS, new_players, play_all, setup

TARGET_P99_MS = 100.0
CORES = len(os.sched_getaffinity(0))


async def step(url: str, players: int, think: float, seconds: float
               ) -> tuple[float, float, float, int]:
    """p50 and p99 (ms), moves/s, and failed players for `players` playing at once; also
    prints the machine's CPU time per move while they played."""
    everyone = await new_players(url, players)
    played, busy, parts = await play_all(url, everyone, think, seconds)
    latencies = [ms for p in everyone for ms in p.latencies_ms]
    failed = sum(p.failed is not None for p in everyone)
    if failed:
        print("    first failure:", next(p.failed for p in everyone if p.failed))
    if not latencies:
        return float("inf"), float("inf"), 0.0, failed
    per_move = busy / len(latencies)
    print(f"    the machine's CPU per move: {per_move * 1000:.2f} ms"
          f" ({busy / played * 100:.0f} % of one core busy); by part: " + ", ".join(
              f"{part} {parts[part] / len(latencies) * 1000:.2f}" for part in PARTS
              if parts[part]))
    print(f"    at that cost its {CORES} cores could carry at most"
          f" {CORES / per_move:.0f} moves/s")
    return (percentile(latencies, 50), percentile(latencies, 99), len(latencies) / played,
            failed)


async def measure(name: str, ladder: list[int], think: float, seconds: float,
                  saturation_players: int, repeat: int) -> None:
    with setup(name) as (url, _):
        heading(f"{name}: players moving every ~{think:g} s")
        served = 0
        for players in ladder:
            p99s, failures = [], 0
            for _ in range(repeat):
                p50, p99, rate, failed = await step(url, players, think, seconds)
                print(f"  {players:5d} players: p50 {p50:7.1f} ms  p99 {p99:7.1f} ms"
                      f"  {rate:6.0f} moves/s  failed {failed}")
                p99s.append(p99)
                failures += failed
            if statistics.median(p99s) > TARGET_P99_MS or failures:
                break
            served = players
        p50, p99, rate, failed = await step(url, saturation_players, 0, seconds)
        print(f"  saturation ({saturation_players} players, no think time): {rate:.0f} moves/s"
              f"  (p50 {p50:.1f} ms, p99 {p99:.1f} ms, failed {failed})")
        print(f"  => {name}: {served} players at p99 <= {TARGET_P99_MS:g} ms;"
              f" {rate:.0f} moves/s at saturation")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--setups", default="sqlite,hosted:1,hosted:2,hosted:4")
    parser.add_argument("--ladder", default="100,200,400,800,1200,1600")
    parser.add_argument("--think", type=float, default=2.0)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--saturation-players", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    ladder = [int(n) for n in args.ladder.split(",")]
    for name in args.setups.split(","):
        asyncio.run(measure(name, ladder, args.think, args.seconds, args.saturation_players,
                            args.repeat))


if __name__ == "__main__":
    main()
