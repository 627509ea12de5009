"""Server move handling: request-to-response time of POST /api/games/SID/moves.

Part 1 runs a real `parlour` process (parlour.devtools.start_server) on a temporary
database and times each move over HTTP with a kept-alive connection, across many
two-player Tic-Tac-Toe games (a new game or a restart whenever one ends). Part 2 drives
parlour.server.hub.Hub in-process: Hub.act alone (rules, then the SQLite commit),
Hub.view alone, and Hub.act on an in-memory database (to show what the disk costs).

Run from the repository root:  .venv/bin/python -m bench.server_moves
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from bench.common import heading, report
from parlour.devtools import start_server
from parlour.games import GAMES
from parlour.server.hub import Hub, Live
from parlour.store import Store

CELLS: list[tuple[int, int]] = [(x, y) for y in range(3) for x in range(3)]
WARMUP = 100


class Board:
    """The cells still free in the current game, chosen at random."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.free: list[tuple[int, int]] = []
        self.reset()

    def reset(self) -> None:
        self.free = list(CELLS)
        self.rng.shuffle(self.free)

    def next_move(self) -> dict[str, Any]:
        x, y = self.free.pop()
        return {"cell": [x, y]}


def bench_http(moves: int, seed: int) -> tuple[list[float], int]:
    """Milliseconds per acknowledged move over HTTP, and how many games it took."""
    rng = random.Random(seed)
    board = Board(rng)
    samples: list[float] = []
    games = 0
    with tempfile.TemporaryDirectory(prefix="parlour-bench-") as folder:
        server = start_server(Path(folder) / "bench.sqlite3")
        try:
            with httpx.Client(base_url=server.url, timeout=30) as http:

                def new_game() -> tuple[str, dict[str, str]]:
                    reply = http.post(
                        "/api/games", json={"game": "tictactoe", "seats": ["human", "human"]}
                    )
                    reply.raise_for_status()
                    body = reply.json()
                    return body["session"], {"Authorization": f"Bearer {body['token']}"}

                sid, headers = new_game()
                games = 1
                while len(samples) < moves + WARMUP:
                    body = {"move": board.next_move()}
                    started = time.perf_counter()
                    reply = http.post(f"/api/games/{sid}/moves", json=body, headers=headers)
                    elapsed = (time.perf_counter() - started) * 1000
                    if reply.status_code != 200:
                        raise RuntimeError(f"move refused: {reply.status_code} {reply.text}")
                    samples.append(elapsed)
                    if reply.json()["status"] != "playing":
                        board.reset()
                        games += 1
                        if games % 2:  # alternate: a new game, or the same one restarted
                            sid, headers = new_game()
                        else:
                            http.post(f"/api/games/{sid}/restart", headers=headers)
        finally:
            server.stop()
    return samples[WARMUP:], games


async def bench_hub(store: Store, moves: int, seed: int) -> dict[str, list[float]]:
    """Milliseconds for Hub.act (a move) and for Hub.view, in-process, no HTTP."""
    hub = Hub(store, GAMES, ai_delay_scale=0)
    board = Board(random.Random(seed))
    acts: list[float] = []
    views: list[float] = []

    async def new_game() -> tuple[Live, str]:
        return await hub.create("tictactoe", seats=["human", "human"])

    live, token = await new_game()
    seats = live.seats_of(token)
    while len(acts) < moves + WARMUP:
        move = board.next_move()
        started = time.perf_counter()
        await hub.act(live, token, "move", move)
        acted = time.perf_counter()
        hub.view(live, seats)
        viewed = time.perf_counter()
        acts.append((acted - started) * 1000)
        views.append((viewed - acted) * 1000)
        if live.session.to_move is None:
            board.reset()
            live, token = await new_game()
            seats = live.seats_of(token)
    return {"act": acts[WARMUP:], "view": views[WARMUP:]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--moves", type=int, default=2000, help="moves to time (default 2000)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    heading(f"Real server (python -m parlour), HTTP POST /moves, {args.moves} moves")
    samples, games = bench_http(args.moves, args.seed)
    report("POST /api/games/SID/moves (request->response)", samples)
    print(f"  ({games} games, {WARMUP} warm-up moves not counted, keep-alive connection)")

    heading(f"In-process parlour.server.hub.Hub, {args.moves} moves")
    with tempfile.TemporaryDirectory(prefix="parlour-bench-") as folder:
        store = Store(Path(folder) / "bench.sqlite3")
        try:
            on_disk = asyncio.run(bench_hub(store, args.moves, args.seed))
        finally:
            store.close()
    report("Hub.act move (SQLite file, WAL, sync=FULL)", on_disk["act"])
    report("Hub.view (render the view after the move)", on_disk["view"])
    memory = Store(":memory:")
    try:
        in_memory = asyncio.run(bench_hub(memory, args.moves, args.seed))
    finally:
        memory.close()
    report("Hub.act move (SQLite :memory:, no disk)", in_memory["act"])


if __name__ == "__main__":
    main()
