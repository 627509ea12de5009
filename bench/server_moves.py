"""Server move handling: request-to-response time of POST /api/games/SID/moves.

Part 1 runs a real `parlour` process (tests.support.servers.start_server) on a temporary
database and times each move over HTTP with a kept-alive connection, across many
two-player Tic-Tac-Toe games (a new game or a restart whenever one ends; those requests
are timed too, as is GET /api/sessions, a request that does next to no work). Part 2
drives parlour.server.hub.core.Hub in-process: Hub.act alone (rules, then the SQLite
commit), the view alone (build_view), and Hub.act on an in-memory database (to show what
the disk costs).

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

from bench.common import heading, report, unpaced
from parlour.games import GAMES
from parlour.server.hub.core import Hub
from parlour.server.hub.live import Live
from parlour.server.hub.messages import PlayMove
from parlour.server.hub.views import build_view
from parlour.store import Store
from parlour.store.sqlite import SqliteStore
from tests.support.servers import start_server

CELLS: list[tuple[int, int]] = [(x, y) for y in range(3) for x in range(3)]
WARMUP = 100
IDLE_REQUESTS = 100
HTTP_BUDGET_S = 75.0  # stop timing moves over HTTP after this long, whatever the count
NEW_GAME = {"game": "tictactoe", "seats": ["human", "human"]}


class Board:
    """The cells still free in the current game, taken in a random order."""

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


class TimedClient:
    """An httpx client that records each request's round trip in milliseconds."""

    def __init__(self, url: str) -> None:
        self.http = httpx.Client(base_url=url, timeout=30)
        self.samples: dict[str, list[float]] = {}

    def request(self, kind: str, method: str, path: str, **options: Any) -> Any:
        started = time.perf_counter()
        reply = self.http.request(method, path, **options)
        elapsed = (time.perf_counter() - started) * 1000
        if reply.status_code >= 300:
            raise RuntimeError(f"{method} {path} refused: {reply.status_code} {reply.text}")
        self.samples.setdefault(kind, []).append(elapsed)
        return reply.json()

    def close(self) -> None:
        self.http.close()


def bench_http(
    moves: int, seed: int, budget_s: float
) -> tuple[dict[str, list[float]], int]:
    """Milliseconds per request over HTTP by kind, and how many games the moves took."""
    board = Board(random.Random(seed))
    games = 0
    with tempfile.TemporaryDirectory(prefix="parlour-bench-") as folder:
        server = start_server(Path(folder) / "bench.sqlite3")
        client = TimedClient(server.url)
        try:
            for _ in range(IDLE_REQUESTS):
                client.request("idle", "GET", "/api/sessions")

            def new_game() -> tuple[str, dict[str, str]]:
                body = client.request("create", "POST", "/api/games", json=NEW_GAME)
                return body["session"], {"Authorization": f"Bearer {body['token']}"}

            sid, headers = new_game()
            games = 1
            deadline = time.monotonic() + budget_s
            while (
                len(client.samples.get("move", [])) < moves + WARMUP
                and time.monotonic() < deadline
            ):
                view = client.request(
                    "move", "POST", f"/api/games/{sid}/moves",
                    json={"move": board.next_move()}, headers=headers,
                )
                if view["status"] != "playing":
                    board.reset()
                    games += 1
                    if games % 2:  # alternate: a new game, or the same one restarted
                        sid, headers = new_game()
                    else:
                        client.request(
                            "restart", "POST", f"/api/games/{sid}/restart", headers=headers
                        )
        finally:
            client.close()
            server.stop()
    figures = dict(client.samples)
    figures["move"] = figures["move"][WARMUP:]
    return figures, games


async def bench_hub(store: Store, moves: int, seed: int) -> dict[str, list[float]]:
    """Milliseconds for Hub.act (a move) and for a view (build_view), in-process, no HTTP."""
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
        await hub.act(live, token, PlayMove(move=move))
        acted = time.perf_counter()
        build_view(live, seats, None, hub.clock())
        viewed = time.perf_counter()
        acts.append((acted - started) * 1000)
        views.append((viewed - acted) * 1000)
        if live.session.to_move is None:
            board.reset()
            live, token = await new_game()
            seats = live.seats_of(token)
    return {"act": acts[WARMUP:], "view": views[WARMUP:]}


def main() -> None:
    unpaced()
    parser = argparse.ArgumentParser(description="Time move handling in the Parlour server.")
    parser.add_argument("--moves", type=int, default=2000,
                        help="moves to time over HTTP (default 2000)")
    parser.add_argument("--budget", type=float, default=HTTP_BUDGET_S,
                        help=f"at most this many seconds of HTTP moves (default {HTTP_BUDGET_S:g})")
    parser.add_argument("--hub-moves", type=int, default=2000,
                        help="moves to time in-process (default 2000)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    heading(f"Real server (python -m parlour), HTTP/1.1 keep-alive, {args.moves} moves")
    figures, games = bench_http(args.moves, args.seed, args.budget)
    report("POST /api/games/SID/moves (request->response)", figures["move"])
    report("POST /api/games (new game)", figures["create"])
    report("POST /api/games/SID/restart", figures["restart"])
    report("GET /api/sessions (next to no work)", figures["idle"])
    print(f"  ({games} games; the first {WARMUP} moves were warm-up, not counted)")
    if len(figures["move"]) < args.moves:
        print(f"  (stopped at {len(figures['move'])} moves: the {args.budget:g} s budget ran out)")

    heading(f"In-process parlour.server.hub.core.Hub, {args.hub_moves} moves")
    with tempfile.TemporaryDirectory(prefix="parlour-bench-") as folder:
        store = SqliteStore(Path(folder) / "bench.sqlite3")
        try:
            on_disk = asyncio.run(bench_hub(store, args.hub_moves, args.seed))
        finally:
            store.close()
    report("Hub.act move (SQLite file, WAL, sync=FULL)", on_disk["act"])
    report("build_view (the view after the move)", on_disk["view"])
    memory = SqliteStore(":memory:")
    try:
        in_memory = asyncio.run(bench_hub(memory, args.hub_moves, args.seed))
    finally:
        memory.close()
    report("Hub.act move (SQLite :memory:, no disk)", in_memory["act"])


if __name__ == "__main__":
    main()
