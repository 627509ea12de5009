"""Minesweeper solver win rate: games played by parlour.games.minesweeper.solver.Player.

Each line plays `--games` games; game i is dealt by the real rules
(`Minesweeper().deal` with `random.Random(i)`, then the first click through
`Minesweeper().apply`), so the mines are laid exactly as in the product for that seed:

* safe:    mines uniformly at random; a mine on the first cell moves to a random free cell
* opening: the first cell and its neighbours are mine-free

The rest of each game is played on `solver.Field`, a fast board with the same opening
rule (zeros open their neighbours). The first `--check` games of every line are also
played move by move through `Minesweeper().apply` and `observe`, and the run stops if the
two ever disagree (tests/test_solver.py checks the same on many more games).

Printed per line: games, wins, win rate with a 95 % (Wilson) interval, the solver's CPU
time per game (mean and median; its own process's time, so other load on the machine
does not inflate it), guesses per won and per played game, and where the games were
lost: at a coin toss no number would ever settle, at a guess of the searched end game
(best play given the position: no policy loses less there), or at a guess of the
heuristic (where a better policy can gain). The first click counts as no guess. Runs on
`--workers` processes (default 2).

`--save CSV` writes every game's outcome; `--against CSV` then compares a later run
with it game by game (the games won by one policy and lost by the other, on the same
seeds), which tells two policies apart with far fewer games than two win rates do.

With `--hint-latency GAMES` it times the product's hint instead (`solver.hint` on the
real game's state, wall clock) at every position of GAMES games played by following
the hints, and prints its 95th percentile (target: 200 ms on expert).

Run from the repository root:  .venv/bin/python -m bench.minesweeper_solver
"""

from __future__ import annotations

import argparse
import csv
import random
import statistics
import time
from collections import Counter
from dataclasses import dataclass
from multiprocessing import Pool

from bench.common import heading, wilson
from parlour.core.game import Status
from parlour.games.minesweeper.analysis import UNKNOWN
from parlour.games.minesweeper.logic import Minefield, Minesweeper
from parlour.games.minesweeper.solver import Field, Player, first_click, hint

GAME = Minesweeper()
SIZES: dict[str, tuple[int, int, int]] = {
    "beginner": (9, 9, 10),
    "intermediate": (16, 16, 40),
    "expert": (16, 30, 99),
}
DEFAULT_LINES = "expert:safe,expert:opening,intermediate:safe,beginner:safe"
TARGETS: dict[str, float] = {  # expert: SPEC section 4 (over 100 000 games)
    "expert:safe": 0.413,
    "expert:opening": 0.546,
    "intermediate:safe": 0.78,
    "beginner:safe": 0.91,
}


@dataclass(frozen=True)
class Line:
    name: str  # e.g. "expert:safe"
    rows: int
    cols: int
    mines: int
    rule: str  # safe or opening


@dataclass(frozen=True)
class Outcome:
    seed: int
    won: bool
    guesses: int
    cpu: float  # seconds of solver time
    wall: float
    lost_at: str = ""  # why the fatal cell was played (solver.Why), if the game was lost


def parse_lines(text: str) -> list[Line]:
    lines = []
    for item in text.split(","):
        size, _, rule = item.strip().partition(":")
        if size not in SIZES or rule not in ("safe", "opening"):
            raise SystemExit(f"bad line {item!r}: expected e.g. expert:safe or beginner:opening")
        rows, cols, mines = SIZES[size]
        lines.append(Line(f"{size}:{rule}", rows, cols, mines, rule))
    return lines


def deal(line: Line, seed: int) -> tuple[Minefield, int]:
    """The real game for `seed` after the solver's first click, and that first cell."""
    params = GAME.validate(
        {"rows": line.rows, "cols": line.cols, "mines": line.mines, "first_click": line.rule}
    )
    state = GAME.deal(params, random.Random(seed))
    first = first_click(line.rows, line.cols, line.mines, line.rule)
    row, col = divmod(first, line.cols)
    state = GAME.apply(state, GAME.parse_move({"open": [row, col]}))
    return state, first


def play(line: Line, seed: int) -> Outcome:
    """One game on the fast board; the solver's time is measured around its own calls."""
    state, first = deal(line, seed)
    field = Field(line.rows, line.cols, state.mined)
    cpu = wall = 0.0
    player = Player(line.rows, line.cols, line.mines)
    for cell, value in field.open(first):
        player.reveal(cell, value)
    while not field.cleared and not field.exploded:
        started, started_cpu = time.perf_counter(), time.process_time()
        cells, _ = player.move()
        cpu += time.process_time() - started_cpu
        wall += time.perf_counter() - started
        for cell in cells:
            for opened, value in field.open(cell):
                player.reveal(opened, value)
            if field.exploded:
                break
    return Outcome(seed, field.cleared, player.guesses, cpu, wall,
                   player.why if field.exploded else "")


def known_of(state: Minefield) -> list[int]:
    """What the player sees in the real game's observation, as the solver's input."""
    cells = "".join(GAME.observe(state, 0)["cells"])
    return [UNKNOWN if ch in "#F?" else 0 if ch == "." else int(ch) for ch in cells]


def check(line: Line, seed: int) -> str | None:
    """Play game `seed` through the real rules and the fast board side by side."""
    state, first = deal(line, seed)
    field = Field(line.rows, line.cols, state.mined)
    player = Player(line.rows, line.cols, line.mines)
    for cell, value in field.open(first):
        player.reveal(cell, value)
    while GAME.status(state) is Status.PLAYING:
        if known_of(state) != player.know.known:
            return f"seed {seed}: the boards differ"
        cells, _ = player.move()
        for cell in cells:
            if field.opened[cell]:  # opened meanwhile by a zero
                continue
            row, col = divmod(cell, line.cols)
            state = GAME.apply(state, GAME.parse_move({"open": [row, col]}))
            for opened, value in field.open(cell):
                player.reveal(opened, value)
            if field.exploded:
                break
    won = GAME.status(state) is Status.WON
    if won != field.cleared:
        return f"seed {seed}: the real game says won={won}, the fast board {field.cleared}"
    return None


def _play_job(job: tuple[Line, int]) -> Outcome:
    return play(*job)


def run_line(line: Line, games: int, start: int, workers: int) -> list[Outcome]:
    jobs = [(line, seed) for seed in range(start, start + games)]
    if workers <= 1:
        return [_play_job(job) for job in jobs]
    with Pool(workers) as pool:
        return list(pool.imap(_play_job, jobs, chunksize=10))


def report(line: Line, outcomes: list[Outcome], elapsed: float) -> None:
    games = len(outcomes)
    wins = sum(o.won for o in outcomes)
    low, high = wilson(wins, games)
    cpu = [o.cpu * 1000 for o in outcomes]
    wall = [o.wall * 1000 for o in outcomes]
    guesses = [o.guesses for o in outcomes]
    won_guesses = [o.guesses for o in outcomes if o.won]
    target = TARGETS.get(line.name)
    verdict = ""
    if target is not None:
        verdict = f"  (target >= {target:.1%}: {'met' if wins / games >= target else 'NOT met'})"
    print(f"{line.name}  {line.rows}x{line.cols}/{line.mines}, first click {line.rule}")
    print(f"  games {games}   wins {wins}   win rate {wins / games:.2%}"
          f"  (95% CI {low:.2%} - {high:.2%}){verdict}")
    print(f"  solver CPU time per game: mean {statistics.fmean(cpu):.1f} ms,"
          f" median {statistics.median(cpu):.1f} ms, p99 {percentile(cpu, 0.99):.0f} ms,"
          f" max {max(cpu):.0f} ms"
          f"   (wall: mean {statistics.fmean(wall):.1f} ms)")
    print(f"  guesses per game {statistics.fmean(guesses):.2f}"
          f"   per won game {statistics.fmean(won_guesses) if won_guesses else 0:.2f}"
          f"   ({elapsed:.0f} s for the line)")
    lost = Counter(o.lost_at for o in outcomes if not o.won)
    if lost:
        shares = ", ".join(f"{LOSSES[why]} {count / (games - wins):.0%}"
                           for why, count in lost.most_common())
        print(f"  games lost at: {shares}")


LOSSES = {"coin": "a coin toss", "endgame": "the searched end game",
          "best": "the heuristic's guess", "safe": "a safe cell (a bug)"}


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def save(path: str, results: dict[str, list[Outcome]]) -> None:
    """Write every game's outcome (line, seed, won, guesses, CPU ms) as CSV."""
    with open(path, "w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["line", "seed", "won", "guesses", "cpu_ms"])
        for name, outcomes in results.items():
            for o in outcomes:
                writer.writerow([name, o.seed, int(o.won), o.guesses, f"{o.cpu * 1000:.2f}"])


def compare(path: str, results: dict[str, list[Outcome]]) -> None:
    """Paired comparison with a saved run: the games won here and lost there, and the
    reverse, on the seeds both played. Far less noisy than two rates, as most games
    end the same way under both policies."""
    before: dict[tuple[str, int], bool] = {}
    with open(path, newline="") as saved:
        for row in csv.DictReader(saved):
            before[row["line"], int(row["seed"])] = row["won"] == "1"
    for name, outcomes in results.items():
        paired = [(before[name, o.seed], o.won) for o in outcomes if (name, o.seed) in before]
        if not paired:
            continue
        gained = sum(1 for old, new in paired if new and not old)
        lost = sum(1 for old, new in paired if old and not new)
        # the sign test's z: the changed games split evenly if the policies were as good
        z = (gained - lost) / (gained + lost) ** 0.5 if gained + lost else 0.0
        print(f"{name}  paired with {path} over {len(paired)} games: gained {gained},"
              f" lost {lost}, net {gained - lost:+d} ({(gained - lost) / len(paired):+.2%},"
              f" z {z:+.2f})")


HINT_TARGET_MS = 200  # p95 of a hint on expert positions (issue 32)


def hint_latencies(line: Line, games: int, start: int) -> tuple[list[float], list[float]]:
    """Milliseconds of `hint` (wall clock) at every position of real games, played by
    following the hints through the rules: (every position, positions needing a guess)."""
    every: list[float] = []
    guesses: list[float] = []
    for number, seed in enumerate(range(start, start + games), 1):
        state, _ = deal(line, seed)
        while GAME.status(state) is Status.PLAYING:
            started = time.perf_counter()
            found = hint(state, 0)
            elapsed = (time.perf_counter() - started) * 1000
            assert found is not None
            every.append(elapsed)
            if "(a guess" in found.note:  # the note says why: "(it is safe)" or "(a guess: ..."
                guesses.append(elapsed)
            state = GAME.apply(state, GAME.parse_move(found.move))
        if number % 20 == 0:
            print(f"  hint latency: {number}/{games} games", flush=True)
    return every, guesses


def report_hints(line: Line, every: list[float], guesses: list[float]) -> None:
    p95 = percentile(every, 0.95)
    verdict = "met" if p95 <= HINT_TARGET_MS else "NOT met"
    print(f"{line.name}  hint latency over {len(every)} positions of real games:"
          f" p95 {p95:.1f} ms, p99 {percentile(every, 0.99):.1f} ms, max {max(every):.0f} ms"
          f"  (target p95 <= {HINT_TARGET_MS} ms: {verdict})")
    if guesses:
        print(f"  the {len(guesses)} positions needing a guess: median"
              f" {statistics.median(guesses):.1f} ms, p95 {percentile(guesses, 0.95):.1f} ms,"
              f" max {max(guesses):.0f} ms")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=10000, help="games per line (10000)")
    parser.add_argument("--start", type=int, default=0, help="seed of the first game (0)")
    parser.add_argument(
        "--lines", default=DEFAULT_LINES, help=f"size:rule list (default {DEFAULT_LINES})"
    )
    parser.add_argument("--workers", type=int, default=2, help="processes (2)")
    parser.add_argument(
        "--check", type=int, default=20,
        help="games per line first played through the real rules as well (20)",
    )
    parser.add_argument(
        "--hint-latency", type=int, default=0, metavar="GAMES",
        help="instead of win rates, time the hint at every position of GAMES real games",
    )
    parser.add_argument("--save", metavar="CSV", help="write every game's outcome to CSV")
    parser.add_argument(
        "--against", metavar="CSV",
        help="compare game by game with a run saved by --save (same seeds: paired)",
    )
    args = parser.parse_args(argv)
    lines = parse_lines(args.lines)
    if args.hint_latency:
        heading("Minesweeper hint latency")
        for line in lines:
            every, guesses = hint_latencies(line, args.hint_latency, args.start)
            report_hints(line, every, guesses)
        return
    heading("Minesweeper solver win rate")
    for line in lines:
        for seed in range(args.start, args.start + min(args.check, args.games)):
            problem = check(line, seed)
            if problem is not None:
                raise SystemExit(f"{line.name}: real rules and fast board disagree: {problem}")
        if args.check:
            print(f"{line.name}: {min(args.check, args.games)} games played through"
                  " Minesweeper.apply/observe agree with the fast board")
    results: dict[str, list[Outcome]] = {}
    for line in lines:
        started = time.perf_counter()
        outcomes = results[line.name] = run_line(line, args.games, args.start, args.workers)
        report(line, outcomes, time.perf_counter() - started)
    if args.save:
        save(args.save, results)
    if args.against:
        compare(args.against, results)


if __name__ == "__main__":
    main()
