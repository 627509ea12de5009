"""No-guess Minesweeper boards: time to make one, and a check that each needs no guess.

Board i is made by `noguess.no_guess_layout(rows, cols, mines, first, rng)` with
`rng = random.Random(i)` and a first cell drawn from that rng (so anywhere on the board,
corners and edges included). Its time is measured around that call alone (CPU time of
the process, and wall time). Then the solver (`solver.Player`) plays the board from the
first cell, opening only cells it proves safe, and the board counts as solved without a
guess if it clears the board without ever guessing; the mine count and the mine-free
first cell and neighbours are checked too.

`--check` boards are also dealt by the real rules (`Minesweeper` with
first_click=no_guess, seed i, first click through `apply`) and played the same way.

Run from the repository root:  .venv/bin/python -m bench.minesweeper_noguess
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import dataclass
from multiprocessing import Pool

from bench.common import heading, percentile
from parlour.games.minesweeper.grid import neighbours
from parlour.games.minesweeper.logic import Minesweeper
from parlour.games.minesweeper.noguess import no_guess_layout
from parlour.games.minesweeper.solver import Field, Player

TARGET_MEDIAN_MS = 250.0  # SPEC: expert 16x30/99 under 250 ms at the median


@dataclass(frozen=True)
class Board:
    index: int
    cpu_ms: float
    wall_ms: float
    problem: str | None  # None: right count, first area clear, solved without a guess


def solve_without_guess(
    rows: int, cols: int, mines: int, mined: frozenset[int], first: int
) -> str | None:
    """None if the board is well formed and the solver clears it without guessing."""
    if len(mined) != mines:
        return f"{len(mined)} mines instead of {mines}"
    if first in mined or set(neighbours(rows, cols)[first]) & mined:
        return "a mine on the first cell or next to it"
    field = Field(rows, cols, mined)
    player = Player(rows, cols, mines)
    for cell, value in field.open(first):
        player.reveal(cell, value)
    while not field.cleared:
        cells, certain = player.move()
        if not certain:
            return "the solver had to guess"
        for cell in cells:
            for opened, value in field.open(cell):
                player.reveal(opened, value)
    return None


def make(job: tuple[int, int, int, int]) -> Board:
    rows, cols, mines, index = job
    rng = random.Random(index)
    first = rng.randrange(rows * cols)
    started, started_cpu = time.perf_counter(), time.process_time()
    mined = no_guess_layout(rows, cols, mines, first, rng)
    cpu = (time.process_time() - started_cpu) * 1000
    wall = (time.perf_counter() - started) * 1000
    return Board(index, cpu, wall, solve_without_guess(rows, cols, mines, mined, first))


def check_real(rows: int, cols: int, mines: int, seed: int) -> str | None:
    """A no-guess game dealt and first clicked by the real rules, then solved."""
    game = Minesweeper()
    params = game.validate(
        {"rows": rows, "cols": cols, "mines": mines, "first_click": "no_guess"}
    )
    state = game.deal(params, random.Random(seed))
    first = random.Random(-seed - 1).randrange(rows * cols)
    state = game.apply(state, game.parse_move({"open": list(divmod(first, cols))}))
    return solve_without_guess(rows, cols, mines, state.mined, first)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--boards", type=int, default=200, help="boards to make (200)")
    parser.add_argument("--rows", type=int, default=16)
    parser.add_argument("--cols", type=int, default=30)
    parser.add_argument("--mines", type=int, default=99)
    parser.add_argument("--start", type=int, default=0, help="seed of the first board (0)")
    parser.add_argument("--workers", type=int, default=2, help="processes (2)")
    parser.add_argument(
        "--check", type=int, default=10, help="boards also made through the real rules (10)"
    )
    args = parser.parse_args(argv)
    rows, cols, mines = args.rows, args.cols, args.mines
    heading(f"No-guess Minesweeper boards, {rows}x{cols}/{mines}")
    for seed in range(args.start, args.start + args.check):
        problem = check_real(rows, cols, mines, seed)
        if problem is not None:
            raise SystemExit(f"real rules, seed {seed}: {problem}")
    if args.check:
        print(f"{args.check} games dealt by Minesweeper (first_click=no_guess) were solved"
              " without a guess")
    jobs = [(rows, cols, mines, i) for i in range(args.start, args.start + args.boards)]
    started = time.perf_counter()
    if args.workers <= 1:
        boards = [make(job) for job in jobs]
    else:
        with Pool(args.workers) as pool:
            boards = list(pool.imap(make, jobs, chunksize=4))
    elapsed = time.perf_counter() - started
    cpu = [b.cpu_ms for b in boards]
    wall = [b.wall_ms for b in boards]
    good = sum(b.problem is None for b in boards)
    median = statistics.median(cpu)
    verdict = "met" if median < TARGET_MEDIAN_MS else "NOT met"
    print(f"boards {len(boards)}   ({elapsed:.1f} s on {args.workers} processes)")
    print(f"time to make one (CPU): median {median:.1f} ms   p95 {percentile(cpu, 95):.1f} ms"
          f"   max {max(cpu):.1f} ms   (target: median < {TARGET_MEDIAN_MS:.0f} ms: {verdict})")
    print(f"time to make one (wall): median {statistics.median(wall):.1f} ms"
          f"   p95 {percentile(wall, 95):.1f} ms   max {max(wall):.1f} ms")
    print(f"solved by the solver without a guess: {good} of {len(boards)}")
    for board in boards:
        if board.problem is not None:
            print(f"  board {board.index}: {board.problem}")
    if good != len(boards):
        raise SystemExit(1)


if __name__ == "__main__":
    main()
