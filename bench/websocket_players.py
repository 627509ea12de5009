"""1 000 simultaneous WebSocket players on one server process: no errors, no lost moves.

Each pair of players shares a Tic-Tac-Toe game: one creates it with the second seat
open, the other joins through the API, all sockets connect, and then every player plays
a random free cell whenever its view says it is its turn, until its game ends. At the
end every game is read back over REST and its move count compared with the moves the
players saw acknowledged.

Run: .venv/bin/python -m bench.websocket_players [--players 1000]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

from bench.common import heading, report, unpaced
from tests.support.servers import start_server

RECEIVE_TIMEOUT_S = 60.0  # a player that hears nothing for this long counts as failed


@dataclass
class Player:
    session: str
    token: str
    seat: int
    rng: random.Random
    latencies_ms: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    acknowledged: int = 0  # the move count of the last view seen


async def create_pair(api: httpx.AsyncClient, index: int) -> tuple[Player, Player]:
    created = (
        await api.post("/api/games", json={"game": "tictactoe", "seats": ["human", "open"]})
    ).json()
    joined = (await api.post(f"/api/games/{created['session']}/join")).json()
    return (
        Player(created["session"], created["token"], 0, random.Random(index * 2)),
        Player(created["session"], joined["token"], 1, random.Random(index * 2 + 1)),
    )


async def play(base_ws: str, player: Player, start: asyncio.Event) -> None:
    """Play the pair's game to its end through one WebSocket. Its first message says
    hello with the seat token (the token stays out of the URL)."""
    url = f"{base_ws}/ws/{player.session}"
    async with websockets.connect(url, max_size=2**22) as socket:
        await socket.send(json.dumps({"type": "hello", "token": player.token}))
        await start.wait()
        sent_at = 0.0
        while True:
            message = json.loads(await asyncio.wait_for(socket.recv(), RECEIVE_TIMEOUT_S))
            if message["type"] == "error":
                player.errors.append(message["error"])
                continue
            view: dict[str, Any] = message["view"]
            if sent_at and view["moves"] > player.acknowledged:
                player.latencies_ms.append((time.perf_counter() - sent_at) * 1000)
                sent_at = 0.0
            player.acknowledged = view["moves"]
            if view["status"] != "playing":
                return
            if view["to_move"] == player.seat:
                free = [
                    [x, y]
                    for y, row in enumerate(view["text"].splitlines())
                    for x, mark in enumerate(row)
                    if mark == "."
                ]
                sent_at = time.perf_counter()
                cell = player.rng.choice(free)
                await socket.send(json.dumps({"type": "move", "move": {"cell": cell}}))


async def run(players: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        server = start_server(Path(folder) / "bench.sqlite3")
        try:
            await measure(server.url, players)
        finally:
            server.stop()


async def measure(url: str, players: int) -> None:
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=30) as api:
        pairs = await asyncio.gather(*(create_pair(api, i) for i in range(players // 2)))
        everyone = [player for pair in pairs for player in pair]
        start = asyncio.Event()
        base_ws = url.replace("http://", "ws://")
        began = time.perf_counter()
        tasks = [asyncio.create_task(play(base_ws, p, start)) for p in everyone]
        await asyncio.sleep(2)  # let every socket connect before the first move
        connected_at = time.perf_counter()
        start.set()
        outcomes = await asyncio.gather(*tasks, return_exceptions=True)
        elapsed = time.perf_counter() - connected_at
        failures = [o for o in outcomes if isinstance(o, BaseException)]
        lost = await count_lost_moves(api, pairs)
    latencies = [ms for p in everyone for ms in p.latencies_ms]
    errors = [e for p in everyone for e in p.errors]
    heading(f"{len(everyone)} WebSocket players at once, in {len(pairs)} shared games")
    print(f"connected and played in {time.perf_counter() - began:.1f} s "
          f"({elapsed:.1f} s of play)")
    print(f"moves played: {len(latencies)}  ({len(latencies) / elapsed:.0f} per second)")
    report("move sent -> view received", latencies)
    print(f"player tasks failed: {len(failures)}  "
          + (f"(first: {failures[0]!r})" if failures else ""))
    print(f"error messages: {len(errors)}  " + (f"(first: {errors[0]})" if errors else ""))
    print(f"games whose stored moves differ from what players saw: {lost}")


async def count_lost_moves(api: httpx.AsyncClient, pairs: list[tuple[Player, Player]]) -> int:
    lost = 0
    for first, second in pairs:
        stored = (await api.get(f"/api/games/{first.session}")).json()["moves"]
        lost += stored != max(first.acknowledged, second.acknowledged)
    return lost


def main() -> None:
    unpaced()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    args = parser.parse_args()
    asyncio.run(run(args.players))


if __name__ == "__main__":
    main()
