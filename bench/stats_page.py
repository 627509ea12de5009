"""The statistics page's cost on the server: `parlour.stats.statistics` for a player with
--groups groups of --games finished games each, spread over the games that declare the
most charts (Minesweeper, Sliding, Escalator, Ishido, Tribolo, Tic-Tac-Toe).

Two figures, each over --runs runs, wall and CPU time of this process:
1. cold: every chart drawn (the first opening of the page after a game ends);
2. warm: the same results again, the drawings kept (`parlour.stats.drawn`), as most
   openings of the page are.
The route runs this in a thread (`asyncio.to_thread`), so the event loop keeps serving
moves meanwhile; the figure says how long the page waits. Targets: cold p50 <= 1 s for
12 groups of 200 games, warm p50 <= 50 ms.

Run from the repository root (about a minute):
    .venv/bin/python -m bench.stats_page [--groups 12] [--games 200] [--runs 7]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from bench.common import heading, report
from parlour.games import GAMES
from parlour.stats import statistics as stats
from parlour.store import Result

DAY = 86_400.0
FIGURES: dict[str, Callable[[random.Random], dict[str, float]]] = {
    "minesweeper": lambda rng: {"3BV": 30.0, "3BV/s": rng.uniform(.2, 2),
                                "efficiency": rng.uniform(.4, 1)},
    "sliding": lambda rng: {"tiles_moved": float(rng.randint(20, 90))},
    "escalator": lambda rng: {"cards_left": float(rng.randint(0, 20)),
                              "winnable": float(rng.random() < .3)},
    "ishido": lambda rng: {"4-ways": float(rng.randint(0, 6)),
                           "tiles placed": float(rng.randint(40, 72))},
    "tribolo": lambda rng: {},
    "tictactoe": lambda rng: {},
}


def results(groups: int, games: int, seed: int = 1) -> list[Result]:
    """`games` results in each of `groups` groups, over the last 90 days, oldest first."""
    rng = random.Random(seed)
    names = list(FIGURES)
    made = []
    for number in range(groups):
        game = names[number % len(names)]
        for i in range(games):
            made.append(Result(
                sid=f"g{number}-{i}", round=1, game=game, preset=f"group {number}", mode="solo",
                outcome=rng.choice(["won", "lost", "draw"]), score=rng.randint(0, 900),
                elapsed_ms=rng.randint(5_000, 600_000), moves=30, assisted=rng.random() < .1,
                finished=1_700_000_000 + 90 * DAY * i / games, figures=FIGURES[game](rng),
            ))
    return made


def timed(work: Callable[[], object]) -> tuple[float, float]:
    """Wall and CPU milliseconds of `work()`."""
    wall, cpu = time.perf_counter(), time.process_time()
    work()
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--groups", type=int, default=12)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--runs", type=int, default=7)
    options = parser.parse_args()
    finished = results(options.groups, options.games)
    page = stats.statistics(finished, GAMES)
    charts = sum(len(group["charts"]) for group in page["groups"])
    heading(f"statistics of {options.groups} groups x {options.games} games: {charts} charts, "
            f"{sum(len(c['svg']) for g in page['groups'] for c in g['charts']) // 1024} KiB of SVG")
    cold: list[tuple[float, float]] = []
    for _ in range(options.runs):
        stats._drawn.clear()
        cold.append(timed(lambda: stats.statistics(finished, GAMES)))
    warm = [timed(lambda: stats.statistics(finished, GAMES)) for _ in range(options.runs)]
    report("cold (charts drawn), wall", [wall for wall, _ in cold])
    report("cold (charts drawn), CPU", [cpu for _, cpu in cold])
    report("per chart drawn, wall", [wall / charts for wall, _ in cold])
    report("warm (drawings kept), wall", [wall for wall, _ in warm])
    report("warm (drawings kept), CPU", [cpu for _, cpu in warm])
    print("targets: cold p50 <= 1000 ms for 12 groups of 200 games; warm p50 <= 50 ms")


if __name__ == "__main__":
    main()
