"""Issue 33's first finding, small: one client's burst of computer-only Tribolo games,
and another client's Tic-Tac-Toe moves against `ai:perfect` meanwhile.

A real `parlour` process serves a fresh database. The victim (its own player cookie)
plays `--moves` moves before anything else, then:

1. *burst*: the attacker (another cookie) sends `--games` × `POST /api/games` of Tribolo
   with three `ai:strong` seats at once, each giving up after `--timeout` s, as the
   issue's reproduction did; after `--pause` s the victim plays again, and the attack's
   games' moves are counted twice `--pause` s apart (do they keep playing?);
2. *held*: the attacker keeps `--held` such games waiting (requests not given up) while
   the victim plays again.

Each victim line is the time of `POST /moves` answered with the computer's reply (ms);
a move not answered within `--patience` s counts as that long (and the victim starts a
new game).

    .venv/bin/python -m bench.fair_share [--games 150] [--held 6] [--moves 20]
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

from bench.common import report
from tests.support.servers import drain_output, start_server

ATTACKER = {"Cookie": "parlour_player=" + "A" * 22}
VICTIM = {"Cookie": "parlour_player=" + "V" * 22}
TRIBOLO = {"game": "tribolo", "seats": ["ai:strong", "ai:strong", "ai:strong"]}


async def victim_moves(client: httpx.AsyncClient, count: int, patience: float = 60.0
                       ) -> list[float]:
    """`count` moves of Cross against `ai:perfect`, a new game whenever one ends (ms)."""
    taken: list[float] = []
    chooser = random.Random(33)
    view: dict[str, Any] = {"status": "over"}
    sid = token = ""
    while len(taken) < count:
        if view["status"] != "playing":
            created = await client.post("/api/games", headers=VICTIM, json={
                "game": "tictactoe", "seats": ["human", "ai:perfect"]})
            created.raise_for_status()
            sid, token, view = (created.json()[key] for key in ("session", "token", "view"))
        rows = view["text"].split("\n")
        cell = chooser.choice([[x, y] for y, row in enumerate(rows)
                               for x, mark in enumerate(row) if mark == "."])
        started = time.perf_counter()
        try:
            answer = await client.post(
                f"/api/games/{sid}/moves", json={"move": {"cell": cell}}, timeout=patience,
                headers={**VICTIM, "Authorization": f"Bearer {token}"})
        except httpx.TimeoutException:
            taken.append(patience * 1000)
            view = {"status": "given up"}
            continue
        taken.append((time.perf_counter() - started) * 1000)
        answer.raise_for_status()
        view = answer.json()
    return taken


async def burst(client: httpx.AsyncClient, games: int, timeout: float) -> dict[str, int]:
    async def one() -> str:
        try:
            answer = await client.post("/api/games", json=TRIBOLO, headers=ATTACKER,
                                       timeout=timeout)
        except httpx.TimeoutException:
            return "gave up"
        return str(answer.status_code)

    outcomes = await asyncio.gather(*(one() for _ in range(games)))
    return {outcome: outcomes.count(outcome) for outcome in sorted(set(outcomes))}


async def tribolo_moves(client: httpx.AsyncClient) -> tuple[int, int]:
    """(unfinished Tribolo games, their moves in all), as `GET /api/sessions` lists them."""
    listed = (await client.get("/api/sessions")).json()
    games = [game for game in listed if game["game"] == "tribolo"]
    return len(games), sum(game["moves"] for game in games)


async def measure(url: str, args: argparse.Namespace) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=120,
                                 limits=httpx.Limits(max_connections=400)) as client:
        await victim_moves(client, 5)  # the workers started, the tables read
        report("victim alone", await victim_moves(client, args.moves))

        print("burst:", await burst(client, args.games, args.timeout))
        await asyncio.sleep(args.pause)
        report(f"victim after a burst of {args.games}",
               await victim_moves(client, args.moves, args.patience))
        first = await tribolo_moves(client)
        await asyncio.sleep(args.pause)
        second = await tribolo_moves(client)
        print(f"burst's games: {first[0]} unfinished, moves {first[1]} -> {second[1]} "
              f"in {args.pause:g} s")

        held = [asyncio.create_task(client.post("/api/games", json=TRIBOLO,
                                                headers=ATTACKER, timeout=600))
                for _ in range(args.held)]
        await asyncio.sleep(args.pause)
        report(f"victim beside {args.held} held games",
               await victim_moves(client, args.moves, args.patience))
        statuses = [task.result().status_code for task in held if task.done()]
        for task in held:
            task.cancel()
        await asyncio.gather(*held, return_exceptions=True)
        print("held games answered meanwhile:", statuses)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--held", type=int, default=6)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--timeout", type=float, default=0.5)
    parser.add_argument("--pause", type=float, default=3.0)
    parser.add_argument("--patience", type=float, default=30.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="parlour-fair-") as folder:
        server = start_server(Path(folder) / "db.sqlite3")
        drain_output(server)
        try:
            asyncio.run(measure(server.url, args))
        finally:
            server.stop()


if __name__ == "__main__":
    main()
