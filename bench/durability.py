"""Durability under fire: many clients play moves over REST while the server is killed
with SIGKILL at random moments; every acknowledged move must be in the stored line.

As in tests/test_durability.py, a real `parlour` process serves one database, and a kill
is SIGKILL (no clean shutdown, as in a crash of the server), followed by a new process
on the same database (and port). Here `--clients` clients play at once, each its own
game (every seat held by its token), one move at a time, chosen among the legal moves
its last view offers; a finished game makes way for a new one. The server is killed
`--kills` times, each at a random moment in a burst of moves: up to `--max-interval`
seconds after the first move the new process acknowledged. A client whose request dies
with the server waits for the new process and carries on from the view it then reads
(the move that was in flight may or may not have been kept: it was never acknowledged).

At the end the database is read through `parlour.store.Store`: every game whose creation
was acknowledged (201) must be there, and every acknowledged move (200) must be at its
place in its game's stored line. Target: 0 lost.

Run: .venv/bin/python -m bench.durability [--kills 100] [--clients 50] [--game tictactoe]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from bench.common import auth, free_port, heading, report, unpaced
from parlour.store.sqlite import SqliteStore
from tests.support.markup import legal_moves
from tests.support.servers import RunningServer, drain_output, start_server

RETRY_S = 0.05  # pause before a request is tried again after the server went away
RESUME_TIMEOUT_S = 120.0  # most time from a restart to the first acknowledged move


@dataclass
class Ledger:
    """What the server acknowledged, and what happened to the other requests."""

    games: dict[str, str] = field(default_factory=dict)  # sid -> game, creation answered 201
    moves: dict[str, dict[int, Any]] = field(default_factory=dict)  # sid -> ply -> move
    acknowledged: int = 0
    cut: int = 0  # requests whose answer never came: the server died under them
    refused: Counter[str] = field(default_factory=Counter)  # other answers, by status/error
    behind: int = 0  # times a view read after a restart had fewer moves than acknowledged
    resumed: asyncio.Event = field(default_factory=asyncio.Event)  # a move acknowledged

    def acknowledge(self, sid: str, ply: int, move: Any) -> None:
        self.moves.setdefault(sid, {})[ply] = move
        self.acknowledged += 1
        self.resumed.set()

    def refuse(self, reply: httpx.Response) -> None:
        try:
            error = str(reply.json().get("error", ""))[:60]
        except ValueError:
            error = reply.text[:60]
        self.refused[f"{reply.status_code} {error}"] += 1


class Server:
    """One database and port, served by one process at a time."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.port = free_port()
        self.process: RunningServer = self._start()
        self.url = self.process.url
        self.up = asyncio.Event()
        self.up.set()
        self.restarts_s: list[float] = []
        self.kills = 0

    def _start(self) -> RunningServer:
        started = start_server(self.db, port=self.port)
        drain_output(started)  # never let a full pipe stall the server
        return started

    async def kill_and_restart(self) -> None:
        self.up.clear()
        began = time.perf_counter()
        await asyncio.to_thread(self.process.kill)
        returncode = self.process.process.returncode
        if returncode is None or returncode >= 0:
            raise RuntimeError(f"the server did not die by a signal (returncode {returncode})")
        self.kills += 1
        self.process = await asyncio.to_thread(self._start)
        self.url = self.process.url
        self.restarts_s.append(time.perf_counter() - began)
        self.up.set()


@dataclass
class Client:
    server: Server
    http: httpx.AsyncClient
    ledger: Ledger
    game: str
    seats: int
    rnd: random.Random
    sid: str | None = None
    token: str = ""
    view: dict[str, Any] = field(default_factory=dict)

    async def play(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            try:
                await self.step()
            except httpx.TransportError:
                self.ledger.cut += 1
                await self.server.up.wait()
                await asyncio.sleep(RETRY_S)
                await self.catch_up()

    async def step(self) -> None:
        if self.sid is None:
            await self.new_game()
            return
        moves = legal_moves(str(self.view.get("html") or ""))
        if self.view.get("status") != "playing" or not moves:
            self.sid = None  # over (or nothing to play): a new game
            return
        move = self.rnd.choice(moves)
        reply = await self.http.post(f"{self.server.url}/api/games/{self.sid}/moves",
                                     json={"move": move}, headers=auth(self.token))
        if reply.status_code == 200:
            self.view = reply.json()
            self.ledger.acknowledge(self.sid, int(self.view["moves"]), move)
        else:
            self.ledger.refuse(reply)
            await self.catch_up()

    async def new_game(self) -> None:
        body = {"game": self.game, "seats": ["human"] * self.seats}
        reply = await self.http.post(f"{self.server.url}/api/games", json=body)
        if reply.status_code != 201:
            self.ledger.refuse(reply)
            return
        created = reply.json()
        self.sid, self.token, self.view = created["session"], created["token"], created["view"]
        self.ledger.games[created["session"]] = self.game

    async def catch_up(self) -> None:
        """Read the game's view again (after a refusal, or from a restarted server)."""
        while self.sid is not None:
            try:
                reply = await self.http.get(f"{self.server.url}/api/games/{self.sid}",
                                            headers=auth(self.token))
            except httpx.TransportError:
                await self.server.up.wait()
                await asyncio.sleep(RETRY_S)
                continue
            if reply.status_code != 200:
                self.ledger.refuse(reply)
                self.sid = None
                return
            self.view = reply.json()
            acknowledged = max(self.ledger.moves.get(self.sid, {0: None}))
            if int(self.view["moves"]) < acknowledged:
                self.ledger.behind += 1
            return


def check(db: Path, ledger: Ledger) -> tuple[int, int, list[str]]:
    """Acknowledged games missing and acknowledged moves lost, read from the database
    itself; with the first few losses described."""
    store = SqliteStore(db)
    missing_games = lost = 0
    examples: list[str] = []
    try:
        for sid in ledger.games:
            loaded = store.load_session(sid)
            if loaded is None:
                missing_games += 1
                examples.append(f"game {sid}: created (201) but not in the database")
                continue
            _, line = loaded
            for ply, move in sorted(ledger.moves.get(sid, {}).items()):
                if ply > len(line) or line[ply - 1] != move:
                    lost += 1
                    stored = line[ply - 1] if ply <= len(line) else "nothing"
                    examples.append(f"game {sid} ply {ply}: acknowledged {move}, stored {stored}"
                                    f" (line of {len(line)})")
    finally:
        store.close()
    return missing_games, lost, examples


async def run(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "durability.sqlite3"
        server = Server(db)
        ledger = Ledger()
        rnd = random.Random(args.seed)
        limits = httpx.Limits(max_connections=args.clients, max_keepalive_connections=args.clients)
        resumed_s: list[float] = []  # from a process ready to its first acknowledged move
        began = time.perf_counter()
        try:
            async with httpx.AsyncClient(timeout=60, limits=limits) as http:
                catalog = (await http.get(f"{server.url}/api/catalog")).json()["games"]
                seats = next(len(g["seats"]) for g in catalog if g["name"] == args.game)
                clients = [Client(server, http, ledger, args.game, seats,
                                  random.Random(args.seed * 10_000 + i))
                           for i in range(args.clients)]
                stop = asyncio.Event()
                tasks = [asyncio.create_task(client.play(stop)) for client in clients]
                for _ in range(args.kills + 1):
                    ready = time.perf_counter()
                    await asyncio.wait_for(ledger.resumed.wait(), RESUME_TIMEOUT_S)
                    resumed_s.append(time.perf_counter() - ready)
                    # a random moment in the burst of moves that has begun again
                    await asyncio.sleep(rnd.uniform(0, args.max_interval))
                    if server.kills < args.kills:
                        await server.kill_and_restart()
                        ledger.resumed.clear()
                stop.set()
                await asyncio.gather(*tasks)
        finally:
            server.process.kill()  # the end is a crash too
        elapsed = time.perf_counter() - began
        missing_games, lost, examples = check(db, ledger)

    heading(f"Durability: {args.clients} clients playing {args.game} over REST, "
            f"{server.kills} hard kills (SIGKILL) at random moments")
    print(f"time: {elapsed:.1f} s   kills: {server.kills}   "
          f"acknowledged moves: {ledger.acknowledged} ({ledger.acknowledged / elapsed:.0f}/s)   "
          f"acknowledged games: {len(ledger.games)}")
    print(f"LOST: {lost} acknowledged moves, {missing_games} acknowledged games   "
          f"(views behind what was acknowledged, after a restart: {ledger.behind})")
    print(f"requests cut by a kill (never answered, so never acknowledged): {ledger.cut}")
    if ledger.refused:
        print("other answers: " + ", ".join(f"{text} ×{n}"
                                            for text, n in ledger.refused.most_common(8)))
    if server.restarts_s:
        report("kill to a new process ready", [s * 1000 for s in server.restarts_s])
        report("ready to the first acknowledged move", [s * 1000 for s in resumed_s[1:]])
    for example in examples[:10]:
        print("  lost:", example)


def main() -> None:
    unpaced()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--game", default="tictactoe",
                        help="any game: moves are drawn from its views' data-move attributes")
    parser.add_argument("--max-interval", type=float, default=1.0,
                        help="most seconds of play between a restart and the next kill")
    parser.add_argument("--seed", type=int, default=1)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
