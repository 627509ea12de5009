"""What the hosted benchmarks share: the setups they compare (today's one SQLite process,
or hosted processes on PostgreSQL and Redis behind nginx, all real servers on loopback),
and players who toggle a flag in a Minesweeper game of their own over a WebSocket (a
move always legal, appended to the game's line), timing each acknowledgement: the move
sent until the view that counts it arrives, which the server sends only once the move
is committed."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import random
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

from parlour.server.collector import Collector
from tests.support.hosted import Hosted, start_hosted
from tests.support.postgres import start_postgres
from tests.support.redis import start_redis
from tests.support.servers import start_server

TOGGLE = {"type": "move", "move": {"mark": [0, 0]}}
CONNECTS_PER_SECOND = 100
"""Players connect this fast, as after a restart of a busy host (each is sent its whole
board on connecting: a burst of thousands at once measures that burst, not play)."""


def cookie(number: int) -> dict[str, str]:
    """Player `number`'s browser's cookie, as every player has (the cap on one browser's
    sockets is not the benchmark's limit; nginx sends a browser's requests to one process)."""
    return {"Cookie": f"parlour_player=bench{number:_<17}"}


def connect(url: str, sid: str, number: int) -> Any:
    """A WebSocket to game `sid` from player `number`'s browser."""
    return websockets.connect(f"{url.replace('http', 'ws')}/ws/{sid}",
                              additional_headers=cookie(number), open_timeout=60)


def unlimited() -> None:
    """Servers started from here on take one client's many games and moves: no pacing,
    share or rate limit of a public host applies to the benchmark's one client."""
    os.environ.update({"PARLOUR_REQUEST_RATE": "0", "PARLOUR_GAMES_PER_CLIENT": "1000000",
                       "PARLOUR_MOVES_PER_MINUTE": "0", "PARLOUR_NEW_GAMES_PER_HOUR": "0"})


@contextlib.contextmanager
def setup(name: str) -> Iterator[tuple[str, Hosted | None]]:
    """The front address of a setup: "sqlite" (one process, today's mode) or "hosted:N"
    (N processes behind nginx); and the hosted one's parts, to kill or read."""
    unlimited()
    if name == "sqlite":
        with tempfile.TemporaryDirectory() as folder:
            server = start_server(Path(folder) / "bench.sqlite3")
            try:
                yield server.url, None
            finally:
                server.stop()
        return
    count = int(name.removeprefix("hosted:"))
    postgres, redis = start_postgres(), start_redis()
    hosted = start_hosted(postgres, redis, count)
    try:
        yield hosted.url, hosted
    finally:
        hosted.stop()
        redis.remove()
        postgres.stop()


@dataclass
class Player:
    """One game's player: its acknowledgement times (ms) and moves acknowledged."""

    sid: str
    token: str
    latencies_ms: list[float] = field(default_factory=list)
    acknowledged: int = 0
    failed: str | None = None


async def new_players(url: str, count: int, game: str = "minesweeper") -> list[Player]:
    async with httpx.AsyncClient(base_url=url, timeout=60,
                                 limits=httpx.Limits(max_connections=20)) as api:
        made = await asyncio.gather(*(api.post("/api/games", json={"game": game},
                                               headers=cookie(number))
                                      for number in range(count)))
    return [Player(m.json()["session"], m.json()["token"]) for m in made]


async def play(url: str, player: Player, think: float, stop: float, start: asyncio.Event,
               seed: int) -> None:
    """Toggle the flag every `think` seconds or so (0: as fast as acknowledged) until
    `stop` (a loop time), timing each acknowledgement."""
    rng = random.Random(seed)
    await asyncio.sleep(seed / CONNECTS_PER_SECOND)  # players arrive over a while
    try:
        async with connect(url, player.sid, seed) as socket:
            await socket.send(json.dumps({"type": "hello", "token": player.token}))
            player.acknowledged = await first_view_line(socket)
            await start.wait()
            await asyncio.sleep(rng.uniform(0, think))  # players do not move in step
            while time.monotonic() < stop:
                sent = time.perf_counter()
                await socket.send(json.dumps(TOGGLE))
                while _line(json.loads(await asyncio.wait_for(socket.recv(), 30))) <= \
                        player.acknowledged:
                    pass
                player.acknowledged += 1
                player.latencies_ms.append((time.perf_counter() - sent) * 1000)
                if think:
                    await asyncio.sleep(think * rng.uniform(0.5, 1.5))
    except Exception as error:  # counted, and printed by the benchmark
        player.failed = f"{type(error).__name__}: {error}"


async def first_view_line(socket: Any) -> int:
    """The line length of the first view a socket is sent (other messages may come first)."""
    while (line := _line(json.loads(await asyncio.wait_for(socket.recv(), 30)))) < 0:
        pass
    return line


def _line(message: dict[str, Any]) -> int:
    view = message.get("view")
    return int(view["line_length"]) if isinstance(view, dict) else -1


async def play_all(url: str, players: list[Player], think: float, seconds: float
                   ) -> tuple[float, float, dict[str, float]]:
    """Everyone plays for `seconds` after connecting: the seconds actually played, the
    CPU seconds the machine was busy meanwhile (see `busy_seconds`), and those each part
    of the setup used (see `cpu_by_part`). The
    players' process keeps its garbage collector from pausing them as a server does (its
    passes over thousands of sockets took 130 ms: the servers' figure, not theirs)."""
    collector = Collector()
    collector.start()
    try:
        return await _play_all(url, players, think, seconds)
    finally:
        collector.stop()
        gc.unfreeze()


async def _play_all(url: str, players: list[Player], think: float, seconds: float
                    ) -> tuple[float, float, dict[str, float]]:
    start = asyncio.Event()
    arriving = 2 + len(players) / CONNECTS_PER_SECOND
    stop = time.monotonic() + arriving + seconds
    tasks = [asyncio.create_task(play(url, p, think, stop, start, i))
             for i, p in enumerate(players)]
    await asyncio.sleep(arriving)  # every socket connected and welcomed
    began, busy, parts = time.monotonic(), busy_seconds(), cpu_by_part()
    start.set()
    await asyncio.gather(*tasks)
    used = cpu_by_part()
    return (time.monotonic() - began, busy_seconds() - busy,
            {part: used[part] - parts[part] for part in PARTS})


TICKS_PER_SECOND = os.sysconf("SC_CLK_TCK")  # the unit of /proc's CPU times


def busy_seconds() -> float:
    """CPU seconds this machine has spent working since it started, all cores, the
    servers' and the players' alike (niced work, e.g. another benchmark, left out)."""
    with open("/proc/stat") as stat:
        user, _nice, system, _idle, _iowait, irq, softirq, steal = map(
            int, stat.readline().split()[1:9])
    return (user + system + irq + softirq + steal) / TICKS_PER_SECOND


PARTS = ("Parlour", "PostgreSQL", "nginx", "Redis", "players")


def cpu_by_part() -> dict[str, float]:
    """CPU seconds used so far by the processes of each part of a setup, alive now: the
    Parlour servers, PostgreSQL (its server and backends), nginx, Redis, and the players
    (this process)."""
    used = dict.fromkeys(PARTS, 0.0)
    for entry in os.scandir("/proc"):
        if entry.name.isdigit() and (part := _part_of(int(entry.name))):
            with contextlib.suppress(OSError):  # it ended meanwhile
                stat = Path(f"/proc/{entry.name}/stat").read_text()
                user, system = map(int, stat[stat.rindex(")") + 2:].split()[11:13])
                used[part] += (user + system) / TICKS_PER_SECOND
    return used


def _part_of(pid: int) -> str | None:
    if pid == os.getpid():
        return "players"
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return None
    program = os.path.basename(command[0]).decode(errors="replace")
    if program.startswith("postgres"):
        return "PostgreSQL"
    if program.startswith("nginx"):
        return "nginx"
    if program.startswith("redis-server"):
        return "Redis"
    return "Parlour" if command[1:3] == [b"-m", b"parlour"] else None
