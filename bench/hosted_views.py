"""Cross-process view latency: a move made through process A reaches a spectator
connected to process B. Three hosted processes; every game is played by a player
connected straight to its owner, A, and watched by a spectator connected straight to
another process, B, whose views the owner relays over Redis. Timed from the move sent
to A until the view that counts it reaches the spectator on B (one clock: both run
here), beside the player's own acknowledgement on A.

Run: .venv/bin/python -m bench.hosted_views [--games 50] [--think 0.5] [--seconds 20]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time

from bench.common import heading, report
from bench.hosted import TOGGLE, connect, first_view_line, new_players, setup
from tests.support.hosted import Hosted


async def spectate(url: str, sid: str, arrivals: dict[int, float], stop: float,
                   number: int) -> None:
    async with connect(url, sid, number) as socket:
        await socket.send(json.dumps({"type": "hello", "token": None}))
        while time.monotonic() < stop:
            try:
                message = json.loads(await asyncio.wait_for(socket.recv(), 1))
            except TimeoutError:
                continue
            view = message.get("view")
            if isinstance(view, dict):
                arrivals.setdefault(int(view["line_length"]), time.perf_counter())


async def player(url: str, sid: str, token: str, think: float, stop: float,
                 sent: dict[int, float], acknowledged_ms: list[float], number: int) -> None:
    async with connect(url, sid, number) as socket:
        await socket.send(json.dumps({"type": "hello", "token": token}))
        line = await first_view_line(socket)
        await asyncio.sleep(1 + think * (hash(sid) % 100) / 100)  # spectators are in
        while time.monotonic() < stop:
            line += 1
            sent[line] = time.perf_counter()
            await socket.send(json.dumps(TOGGLE))
            while True:
                view = json.loads(await socket.recv()).get("view")
                if isinstance(view, dict) and int(view["line_length"]) >= line:
                    break
            acknowledged_ms.append((time.perf_counter() - sent[line]) * 1000)
            await asyncio.sleep(think)


async def measure(games: int, think: float, seconds: float) -> None:
    with setup("hosted:3") as (_, hosted):
        assert isinstance(hosted, Hosted)
        owner, elsewhere = hosted.processes[0].url, hosted.processes[1].url
        players = await new_players(owner, games)  # made on A: A plays them
        stop = time.monotonic() + 1 + seconds
        sent: list[dict[int, float]] = [{} for _ in players]
        seen: list[dict[int, float]] = [{} for _ in players]
        acknowledged: list[float] = []
        await asyncio.gather(
            *(spectate(elsewhere, p.sid, seen[i], stop + 1, 2 * i)
              for i, p in enumerate(players)),
            *(player(owner, p.sid, p.token, think, stop, sent[i], acknowledged, 2 * i + 1)
              for i, p in enumerate(players)))
    relayed = [(seen[i][line] - at) * 1000 for i in range(len(players))
               for line, at in sent[i].items() if line in seen[i]]
    missing = sum(len(sent[i]) for i in range(len(players))) - len(relayed)
    heading(f"{games} games on process A, each watched from process B;"
            f" a move every {think:g} s per game (~{games / think:.0f} moves/s)")
    report("move on A -> player's view on A", acknowledged)
    report("move on A -> spectator's view on B", relayed)
    print(f"views never seen on B: {missing}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--think", type=float, default=0.5)
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args()
    asyncio.run(measure(args.games, args.think, args.seconds))


if __name__ == "__main__":
    main()
