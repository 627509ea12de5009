"""Replays on a long game: what a position costs, and how long it holds the event loop.

A 40x60 Minesweeper game (the biggest board) of `--moves` mark toggles (move i marks cell
i mod 2 400: the game never ends) and a whole Ishido game (72
tiles, each placed where the seed's hint puts it) are built in memory as the server
holds them (`Session`, `Live`). For `--samples` random move numbers:

- "rebuilt, CPU": `Session.position(n)`, what `replays.position` does on the event loop
  (at most one snapshot's interval of moves replayed), in this thread's CPU time, as
  "drawn" is (on a machine shared with other work, wall times mostly measure the others);
- "drawn": observing, rendering and writing the position out, which `replays.position`
  runs in a thread (`asyncio.to_thread`);
- "loop held": the gaps between runs of a 1 ms ticker on the event loop while the
  positions were asked for one after another through `replays.position` (the thread
  hands the loop the interpreter every 5 ms, `sys.getswitchinterval`), against the same
  with the drawing done on the loop ("if drawn on the loop").

Run from the repository root:  .venv/bin/python -m bench.replay_positions [--moves N]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any

from bench.common import heading, report
from parlour.core.gameid import parse_game_id
from parlour.core.session import Session
from parlour.games import GAMES
from parlour.games.ishido.solver import hint as ishido_hint
from parlour.server.hub import replays
from parlour.server.hub.live import Live

ROWS, COLS, MINES = 40, 60, 300
TOKEN = "bench-token"


def minesweeper_game(moves: int) -> Session:
    spec = GAMES["minesweeper"]
    game_id = parse_game_id(spec.game, f"minesweeper:rows={ROWS},cols={COLS},mines={MINES},"
                                       "first_click=safe#bench")
    line: list[Any] = [{"mark": list(divmod(index % (ROWS * COLS), COLS))}
                       for index in range(moves)]
    return Session(spec, game_id, ["human"], line)


def ishido_game() -> Session:
    spec = GAMES["ishido"]
    game_id = parse_game_id(spec.game, "ishido:seed#bench")
    session = Session(spec, game_id, ["human"])
    while session.to_move is not None:
        found = ishido_hint(session.state, 0)
        if found is None:  # nowhere the next tile fits: the game is over
            break
        session.play(found.move, 0)
    return session


def live_of(session: Session) -> Live:
    return Live("bench", session, "solo", "custom", 0, {TOKEN: frozenset({0})})


async def loop_held(ask: Callable[[int], Awaitable[Any]], plies: list[int]) -> list[float]:
    """The gaps (ms) between runs of a 1 ms ticker while `ask` takes each ply."""
    gaps: list[float] = []
    done = False

    async def tick() -> None:
        last = time.perf_counter()
        while not done:
            await asyncio.sleep(0.001)
            now = time.perf_counter()
            gaps.append(max(0.0, (now - last) * 1000 - 1))
            last = now

    ticker = asyncio.create_task(tick())
    for ply in plies:
        await ask(ply)
        await asyncio.sleep(0.002)  # a page asks again after the answer's round trip
    done = True
    await ticker
    return gaps


def measure(name: str, session: Session, samples: int, rng: random.Random) -> None:
    heading(f"{name}: {session.cursor} moves")
    live = live_of(session)
    plies = [rng.randrange(session.cursor + 1) for _ in range(samples)]
    viewer = replays.audience(live, TOKEN)
    rebuilt, drawn = [], []
    for ply in plies:
        live.session._positions._recent.clear()  # cold: nothing recent kept
        start = time.thread_time()
        state = session.position(ply)
        rebuilt.append((time.thread_time() - start) * 1000)
        start = time.thread_time()
        replays._seen(session, state, viewer)
        drawn.append((time.thread_time() - start) * 1000)
    report("rebuilt, CPU (on the loop)", rebuilt)
    report("drawn, CPU (in a thread)", drawn)

    async def through_api(ply: int) -> Any:
        return await replays.position(live, TOKEN, ply)

    async def on_the_loop(ply: int) -> Any:
        return replays._seen(session, session.position(ply), viewer)

    held = asyncio.run(loop_held(through_api, plies))
    held_before = asyncio.run(loop_held(on_the_loop, plies))
    report("loop held (ticker's gaps)", held)
    report("loop held if drawn on the loop", held_before)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=5000)
    parser.add_argument("--samples", type=int, default=40)
    args = parser.parse_args()
    rng = random.Random(1)
    measure("Minesweeper 40x60", minesweeper_game(args.moves), args.samples, rng)
    measure("Ishido", ishido_game(), args.samples, rng)


if __name__ == "__main__":
    main()
