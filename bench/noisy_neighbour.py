"""Noisy neighbours (issue 33): can one hostile client slow the server down or swell it
for everyone else?

For each attack a fresh server (`python -m parlour` on loopback, a new data folder) is
started, and a victim, a browser-like client (it GETs / first and keeps the player
cookie it is given), plays Tic-Tac-Toe against `ai:perfect` over the REST API in one
thread and loads the home page (GET /static/home.html and /) in another. Its latencies
are taken BEFORE the attack, DURING it and AFTER the attacker has left, and the server's
RSS is read twice a second. The attacker is one client with a cookie of its own:

  1a  a burst of computer-only Tribolo games (three `ai:strong` seats) whose requests
      hang up after 0.5 s;
  1b  60 hints at once on 8x8 sliding puzzles (any solvable position), each game asking
      again, after playing the hinted move, as soon as it is answered;
  2   1 000 WebSockets that say hello with no token to watch one 40x60 Minesweeper game,
      whose owner toggles a mark over REST in a loop;
  3   six imports at a time of a sliding game file of 100 000 moves (when the server
      refuses that length, 413 or 422, the attacker halves it until a file is taken);
  4   600 custom sliding ids (walks of as many different lengths, one move each), then
      GET /api/stats, two at a time, until the attack ends.

Each phase is short (BEFORE 8 s, DURING 20 s, AFTER 12 s; `--quick` 4, 8, 5): the whole
run takes about 9 minutes. An attack's preparations (its games created, its file
written, its spectators given their first board, 60 s at most) come between BEFORE and
DURING and are not counted, except in the details printed per attack (`setup`).

Every answer the attacker gets is counted (201, 429, 403, 413, time-outs, sockets closed
with their codes), so the same run shows what a server that refuses part of an attack
refuses. The attacker finds everything it uses itself (the sid of the game it watches is
the one it created), so no listing route is needed.

Targets: DURING, the victim's p50 and p99 at most 2x BEFORE's; AFTER, within 25 % of
BEFORE's ("after = before", with room for noise); latencies under 10 ms count as 10 ms
(below that the figure is the scheduler's, not the server's); the server's RSS AFTER
(its last reading) within 10 % of BEFORE's (their median). The RSS is the server's own
process; the worker pool's total is printed beside it.

The machine this was written on has 2 cores. The attacker runs in a process of its own,
so its work (say, reading 1 000 sockets' views) does not delay the victim's measuring in
one event loop; but the server's event loop, its worker processes, the attacker and the
victim still share those 2 cores. DURING figures therefore include the attacker's own CPU
(a remote attacker would not take the server's cores), and other load on the machine
shows in every phase: compare BEFORE with DURING of the same run, and re-run a row that
looks odd (`--attacks 2`).

Run from the repository root:  .venv/bin/python -m bench.noisy_neighbour
   --attacks 1a,2   some of the attacks     --quick   smaller attacks and shorter phases
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import queue
import random
import statistics
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from multiprocessing.synchronize import Event as ProcessEvent
from pathlib import Path
from typing import Any

import httpx
import websockets
from websockets.exceptions import ConnectionClosed, InvalidStatus

from bench.common import auth, heading, percentile
from tests.support.servers import drain_output, start_server

PHASES = ("before", "during", "after")
OURS = {"closed 1000", "timed out", "unanswered when the attacker left"}
"""What the attacker got that was its own doing, not the server's refusal."""
FLOOR_MS = 10.0  # latencies below this compare as this
DURING_FACTOR = 2.0
AFTER_FACTOR = 1.25
RSS_FACTOR = 1.10
VICTIM_TIMEOUT_S = 120.0
WARMUP_MOVES = 10
WARMUP_MOST_S = 60.0
SETUP_MOST_S = 180.0  # an attack's preparations (600 games for attack 4) take this at most
Game = tuple[str, dict[str, str], dict[str, Any]]
"""A game the attacker created: its sid, its token's header and its first view."""
ONE_FROM_SOLVED = "sliding:rows=3,cols=3,steps=%d:1,2,3,4,5,6,7,0,8"
"""A custom start one slide from solved (tile 8 at [2, 2] into the gap): a won game,
filed under its walk's length, whatever that is."""
TTT_CELLS = [(x, y) for y in range(3) for x in range(3)]


@dataclass(frozen=True)
class Sizes:
    """How big each attack is and how long each phase lasts."""

    tribolo_games: int = 150
    hint_games: int = 60
    spectators: int = 1000
    import_moves: int = 100_000
    parallel_imports: int = 6
    stats_ids: int = 600
    warmup_s: float = 3.0
    before_s: float = 8.0
    during_s: float = 20.0
    after_s: float = 12.0
    connecting_s: float = 60.0  # attack 2: spectators connect for this long before DURING


QUICK = Sizes(tribolo_games=30, hint_games=12, spectators=100, import_moves=20_000,
              parallel_imports=2, stats_ids=250, warmup_s=2.0, before_s=4.0, during_s=8.0,
              after_s=5.0, connecting_s=10.0)


# -- the victim, in this process -----------------------------------------------------------
@dataclass
class Victim:
    """A player in a browser: its cookie from GET /, a game against the perfect computer
    in one thread and the home page in another.

    A sample is how long the victim waited, within one phase, for one answer: a request
    answered in the phase it was sent in counts whole; one that spans phases counts in
    each of them for the part of its wait that fell there, so a phase spent waiting for
    the answer to a request of an earlier phase is not empty (it counts the whole phase)."""

    url: str
    phase: str = "warmup"
    phase_began: float = field(default_factory=time.perf_counter)
    samples: dict[tuple[str, str], list[float]] = field(default_factory=dict)
    failures: Counter[tuple[str, str]] = field(default_factory=Counter)
    stopping: threading.Event = field(default_factory=threading.Event)
    threads: list[threading.Thread] = field(default_factory=list)
    waiting: dict[str, tuple[str, float]] = field(default_factory=dict)
    """Per thread, the request it waits for: its kind and when it was sent."""
    filing: threading.Lock = field(default_factory=threading.Lock)

    def start(self) -> None:
        page = httpx.Client(base_url=self.url, timeout=VICTIM_TIMEOUT_S)
        page.get("/").raise_for_status()  # the player cookie
        mover = httpx.Client(base_url=self.url, timeout=VICTIM_TIMEOUT_S, cookies=page.cookies)
        self.threads = [threading.Thread(target=self._play, args=(mover,), daemon=True),
                        threading.Thread(target=self._load_pages, args=(page,), daemon=True)]
        for thread in self.threads:
            thread.start()

    def enter(self, phase: str) -> None:
        """End the current phase (the waits still going on count in it as far as they
        got) and begin `phase`."""
        with self.filing:
            now = time.perf_counter()
            for kind, sent in self.waiting.values():
                self._file(kind, sent, now)
            self.phase, self.phase_began = phase, now

    def _file(self, kind: str, sent: float, now: float) -> None:
        self.samples.setdefault((self.phase, kind), []).append(
            (now - max(sent, self.phase_began)) * 1000)

    def moves_made(self) -> int:
        return len(self.samples.get((self.phase, "move"), []))

    def stop(self) -> None:
        self.stopping.set()
        for thread in self.threads:
            thread.join(1)

    def timed(self, kind: str, client: httpx.Client, method: str, path: str, **options: Any
              ) -> httpx.Response | None:
        sent = time.perf_counter()
        thread = threading.current_thread().name
        with self.filing:
            self.waiting[thread] = kind, sent
        failure = ""
        try:
            reply: httpx.Response | None = client.request(method, path, **options)
        except httpx.HTTPError as error:
            reply, failure = None, type(error).__name__
        with self.filing:
            del self.waiting[thread]
            if self.stopping.is_set() or self.phase == "done":
                return None
            self._file(kind, sent, time.perf_counter())
            if reply is None or reply.status_code >= 300:
                outcome = failure if reply is None else reply.status_code
                self.failures[self.phase, f"{kind}: {outcome}"] += 1
                return None
        return reply

    def _load_pages(self, client: httpx.Client) -> None:
        while not self.stopping.is_set():
            for path in ("/static/home.html", "/"):
                self.timed("page", client, "GET", path)
            self.stopping.wait(0.1)

    def _play(self, client: httpx.Client) -> None:
        rng = random.Random(33)
        game: tuple[str, dict[str, str]] | None = None
        view: dict[str, Any] = {}
        while not self.stopping.is_set():
            if game is None:
                created = self.timed("move/new game", client, "POST", "/api/games",
                                     json={"game": "tictactoe", "seats": ["human", "ai:perfect"]})
                if created is None:
                    self.stopping.wait(1)
                    continue
                game = created.json()["session"], auth(created.json()["token"])
                view = created.json()["view"]
            sid, headers = game
            if view["status"] != "playing":
                restarted = self.timed("move/restart", client, "POST",
                                       f"/api/games/{sid}/restart", headers=headers)
                view = restarted.json() if restarted else view
            elif view["to_move"] != 0:  # the computer's turn: look again
                seen = self.timed("move/read", client, "GET", f"/api/games/{sid}", headers=headers)
                view = seen.json() if seen else view
            else:
                free = [[x, y] for x, y in TTT_CELLS if view["text"].splitlines()[y][x] == "."]
                cell = rng.choice(free)
                moved = self.timed("move", client, "POST", f"/api/games/{sid}/moves",
                                   json={"move": {"cell": cell}}, headers=headers)
                if moved is None:
                    game = None  # start afresh: the game may be gone
                else:
                    view = moved.json()
            self.stopping.wait(0.05)


# -- the server's memory -------------------------------------------------------------------
def rss_mib(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def children_of(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                # the parent is the 4th field after the command, which may hold spaces
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                if int(fields[1]) == pid:
                    found.append(int(entry.name))
    return found


@dataclass
class MemoryWatch:
    """The server's RSS and its workers' total, every half second, filed under the
    victim's current phase."""

    pid: int
    victim: Victim
    own: dict[str, list[float]] = field(default_factory=dict)
    workers: dict[str, list[float]] = field(default_factory=dict)
    stopping: threading.Event = field(default_factory=threading.Event)

    def start(self) -> None:
        threading.Thread(target=self._watch, daemon=True).start()

    def _watch(self) -> None:
        while not self.stopping.wait(0.5):
            phase = self.victim.phase
            self.own.setdefault(phase, []).append(rss_mib(self.pid))
            total = sum(rss_mib(child) for child in children_of(self.pid))
            self.workers.setdefault(phase, []).append(total)


# -- the attacker, in a process of its own -------------------------------------------------
@dataclass
class Attacker:
    """One hostile client: its own cookie, and a count of every answer it got."""

    url: str
    sizes: Sizes
    stop: asyncio.Event
    api: httpx.AsyncClient
    cookie: str = ""
    answers: Counter[str] = field(default_factory=Counter)
    notes: list[str] = field(default_factory=list)

    begun: ProcessEvent | None = None

    def ready(self) -> None:
        """The attack's preparations are made (games created, files written): from here
        on the victim's figures count as DURING."""
        if self.begun is not None:
            self.begun.set()

    def count(self, what: str, reply: httpx.Response) -> httpx.Response:
        self.answers[f"{what}: {reply.status_code}"] += 1
        return reply

    async def send(self, what: str, method: str, path: str, **options: Any
                   ) -> httpx.Response | None:
        try:
            return self.count(what, await self.api.request(method, path, **options))
        except asyncio.CancelledError:
            self.answers[f"{what}: unanswered when the attacker left"] += 1
            raise
        except httpx.TimeoutException:
            self.answers[f"{what}: timed out"] += 1
        except httpx.HTTPError as error:  # the connection refused or dropped
            self.answers[f"{what}: {type(error).__name__}"] += 1
            await asyncio.sleep(0.2)  # no busy loop against a closed door
        return None

    async def create(self, body: dict[str, Any]) -> Game | None:
        reply = await self.send("create", "POST", "/api/games", json=body)
        if reply is None or reply.status_code != 201:
            return None
        created = reply.json()
        return created["session"], auth(created["token"]), created["view"]

    async def until_stopped(self, work: Callable[[], Awaitable[Any]], pause: float = 0.0) -> None:
        while not self.stop.is_set():
            await work()
            if pause:
                await asyncio.sleep(pause)


def gap_of(text: str) -> tuple[int, int]:
    """Where the gap is in a sliding puzzle's text view."""
    for row, line in enumerate(text.splitlines()):
        cells = line.split()
        if "." in cells:
            return row, cells.index(".")
    raise ValueError(f"no gap in {text!r}")


def beside(row: int, col: int) -> tuple[int, int]:
    """A cell next to (row, col) on any board of three columns or more."""
    return row, col + 1 if col == 0 else col - 1


async def tribolo_burst(attacker: Attacker) -> None:
    body = {"game": "tribolo", "seats": ["ai:strong", "ai:strong", "ai:strong"]}
    attacker.ready()
    await asyncio.gather(*(attacker.send("computer-only game", "POST", "/api/games", json=body,
                                         timeout=0.5)
                           for _ in range(attacker.sizes.tribolo_games)))
    await attacker.stop.wait()


async def sliding_hints(attacker: Attacker) -> None:
    body = {"game": "sliding", "params": {"rows": 8, "cols": 8, "shuffle": "random"}}
    games = [game for game in await asyncio.gather(
        *(attacker.create(body) for _ in range(attacker.sizes.hint_games))) if game]
    attacker.notes.append(f"{len(games)} of {attacker.sizes.hint_games} 8x8 puzzles created")
    attacker.ready()

    async def keep_asking(sid: str, headers: dict[str, str]) -> None:
        await attacker.until_stopped(lambda: ask(sid, headers))

    async def ask(sid: str, headers: dict[str, str]) -> None:
        hint = await attacker.send("hint", "POST", f"/api/games/{sid}/hint", headers=headers,
                                   timeout=120)
        if hint is not None and hint.status_code == 200:
            await attacker.send("hinted move", "POST", f"/api/games/{sid}/moves",
                                json={"move": hint.json()["move"]}, headers=headers)
        elif hint is not None:
            await asyncio.sleep(0.2)  # refused: ask again a little later, as a script would

    await asyncio.gather(*(keep_asking(sid, headers) for sid, headers, _ in games))


async def spectators(attacker: Attacker) -> None:
    """The spectators connect before DURING (for `connecting_s` at most: each is sent the
    whole board first); DURING, the owner marks and unmarks a cell."""
    game = await attacker.create({"game": "minesweeper",
                                  "params": {"rows": 40, "cols": 60, "mines": 300}})
    if game is None:
        attacker.ready()
        attacker.notes.append("the 40x60 game was refused: nothing to watch")
        await attacker.stop.wait()
        return
    sid, headers, _ = game
    address = attacker.url.replace("http://", "ws://") + f"/ws/{sid}"
    connecting = asyncio.Semaphore(100)
    watching, settled, all_settled = 0, 0, asyncio.Event()

    def settle() -> None:
        nonlocal settled
        settled += 1
        if settled == attacker.sizes.spectators:
            all_settled.set()

    async def watch() -> None:
        nonlocal watching
        has_board = False
        try:
            async with connecting:
                socket = await websockets.connect(
                    address, max_size=None, open_timeout=60, close_timeout=1,
                    additional_headers={"Cookie": attacker.cookie})
            async with socket:
                await socket.send(json.dumps({"type": "hello"}))
                await socket.recv()  # the board
                watching, has_board = watching + 1, True
                settle()
                async for _ in socket:
                    pass
            attacker.answers[f"socket: closed {socket.close_code}"] += 1
        except InvalidStatus as refused:
            attacker.answers[f"socket: refused {refused.response.status_code}"] += 1
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd else "abruptly"
            attacker.answers[f"socket: closed {code}"] += 1
        except (OSError, TimeoutError) as error:
            attacker.answers[f"socket: {type(error).__name__}"] += 1
        if not has_board:  # refused, or closed before its first view
            settle()

    async def toggle() -> None:
        await attacker.send("owner's mark", "POST", f"/api/games/{sid}/moves",
                            json={"move": {"mark": [0, 0]}}, headers=headers, timeout=120)

    viewers = [asyncio.create_task(watch()) for _ in range(attacker.sizes.spectators)]
    began = time.perf_counter()
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(all_settled.wait(), attacker.sizes.connecting_s)
    attacker.notes.append(f"{watching} spectators had the board after "
                          f"{time.perf_counter() - began:.0f} s (before DURING)")
    attacker.ready()
    try:
        await attacker.until_stopped(toggle, pause=0.05)
    finally:
        attacker.notes.append(f"{watching} spectators had the board when the attacker left")
        for viewer in viewers:
            viewer.cancel()
        await asyncio.gather(*viewers, return_exceptions=True)


def saved_sliding(game_id: str, gap: tuple[int, int], moves: int) -> bytes:
    """A saved file of `moves` slides: the gap's neighbour and back, over and over."""
    there, back = {"cell": list(beside(*gap))}, {"cell": list(gap)}
    line = [there if number % 2 == 0 else back for number in range(moves)]
    return json.dumps({
        "format": "parlour-saved-game", "version": 1, "game": "sliding", "id": game_id,
        "seats": ["human"], "moves": line, "cursor": moves, "assisted": False,
        "assist": False, "elapsed_ms": moves * 300, "uploads": {},
    }).encode()


async def imports(attacker: Attacker) -> None:
    created = await attacker.send("create", "POST", "/api/games", json={
        "game": "sliding", "params": {"rows": 4, "cols": 4, "shuffle": "random"}})
    if created is None or created.status_code != 201:
        attacker.ready()
        attacker.notes.append("no sliding game to take an id from")
        await attacker.stop.wait()
        return
    game_id, gap = created.json()["id"], gap_of(created.json()["view"]["text"])
    length = attacker.sizes.import_moves
    files = {length: saved_sliding(game_id, gap, length)}
    attacker.ready()
    taken: set[int] = set()

    async def send_one() -> None:
        nonlocal length
        sent = length
        reply = await attacker.send(f"import of {sent} moves", "POST", "/api/games/import",
                                    content=files[sent], timeout=120,
                                    headers={"Content-Type": "application/json"})
        if reply is not None and reply.status_code == 201:
            taken.add(sent)
        elif reply is not None and reply.status_code in (413, 422) and sent == length > 1000:
            length = sent // 2  # too long for this server: the longest it takes, then
            files[length] = saved_sliding(game_id, gap, length)
        elif reply is not None:
            await asyncio.sleep(0.2)

    try:
        await asyncio.gather(*(attacker.until_stopped(send_one)
                               for _ in range(attacker.sizes.parallel_imports)))
    finally:
        attacker.notes.append(f"files taken: {sorted(taken) or 'none'} (moves)")


async def stats_groups(attacker: Attacker) -> None:
    making = asyncio.Semaphore(8)

    async def one_group(steps: int) -> None:
        async with making:
            game = await attacker.create({"game": "sliding", "id": ONE_FROM_SOLVED % steps})
            if game is not None:
                sid, headers, _ = game
                await attacker.send("winning move", "POST", f"/api/games/{sid}/moves",
                                    headers=headers, json={"move": {"cell": [2, 2]}})

    started = time.perf_counter()
    await asyncio.gather(*(one_group(1001 + number)
                           for number in range(attacker.sizes.stats_ids)))
    attacker.notes.append(f"{attacker.sizes.stats_ids} ids made in "
                          f"{time.perf_counter() - started:.1f} s (before DURING)")
    attacker.ready()
    answered: list[tuple[float, int]] = []

    async def read() -> None:
        began = time.perf_counter()
        reply = await attacker.send("stats", "GET", "/api/stats", timeout=120)
        if reply is not None and reply.status_code == 200:
            answered.append((time.perf_counter() - began, len(reply.content)))
        elif reply is not None:
            await asyncio.sleep(0.2)

    try:
        await asyncio.gather(*(attacker.until_stopped(read) for _ in range(2)))
    finally:
        if answered:
            seconds, sizes = zip(*answered, strict=True)
            attacker.notes.append(f"/api/stats answered in {statistics.median(seconds):.1f} s "
                                  f"(median), {max(sizes) / 2**20:.1f} MiB at most")


ATTACKS: dict[str, tuple[str, Callable[[Attacker], Coroutine[Any, Any, None]]]] = {
    "1a": ("computer-only Tribolo burst", tribolo_burst),
    "1b": ("hints on 8x8 sliding puzzles", sliding_hints),
    "2": ("spectators on a 40x60 board", spectators),
    "3": ("long game files imported", imports),
    "4": ("statistics groups + /api/stats", stats_groups),
}


async def attack(name: str, url: str, sizes: Sizes, begun: ProcessEvent,
                 leave: ProcessEvent) -> dict[str, Any]:
    """Run attack `name` until `leave` is set, then hang up everything: what it got."""
    limits = httpx.Limits(max_connections=2000, max_keepalive_connections=200)
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as api:
        attacker = Attacker(url, sizes, asyncio.Event(), api, begun=begun)
        home = await api.get("/")
        attacker.cookie = "; ".join(f"{key}={value}" for key, value in home.cookies.items())
        if not attacker.cookie:
            attacker.notes.append("no player cookie: known by address alone")
        running = asyncio.create_task(ATTACKS[name][1](attacker))
        running.add_done_callback(lambda _: attacker.ready())  # even if it failed early
        await asyncio.to_thread(leave.wait)
        attacker.stop.set()
        try:
            await asyncio.wait_for(running, 5)
        except TimeoutError:  # wait_for cancelled it: every request and socket is dropped
            pass
        except Exception as error:  # the figures so far still count
            attacker.notes.append(f"the attack failed: {error!r}")
        return {"answers": dict(attacker.answers), "notes": attacker.notes}


def attacker_process(name: str, url: str, sizes: Sizes, begun: ProcessEvent,
                     leave: ProcessEvent, results: multiprocessing.Queue[dict[str, Any]]) -> None:
    try:
        results.put(asyncio.run(attack(name, url, sizes, begun, leave)))
    except Exception as error:
        begun.set()
        results.put({"answers": {}, "notes": [f"the attacker failed: {error!r}"]})


# -- one attack, measured ------------------------------------------------------------------
@dataclass
class Row:
    name: str
    victim: Victim
    memory: MemoryWatch
    answers: dict[str, int]
    notes: list[str]

    def latencies(self, kind: str, phase: str) -> list[float]:
        return self.victim.samples.get((phase, kind), [])

    def figure(self, kind: str, phase: str) -> str:
        """p50/p99 in ms."""
        samples = self.latencies(kind, phase)
        if not samples:
            return "-"
        return f"{percentile(samples, 50):.0f}/{percentile(samples, 99):.0f}"

    def rss(self, phase: str) -> float:
        readings = self.memory.own.get(phase) or [0.0]
        if phase == "before":
            return statistics.median(readings)
        return max(readings) if phase == "during" else readings[-1]

    def failed_targets(self) -> list[str]:
        failed = []
        for kind in ("move", "page"):
            phases = [self.latencies(kind, phase) for phase in PHASES]
            for phase, samples in zip(PHASES, phases, strict=True):
                if not samples:
                    failed.append(f"{kind}: no answer {phase}")
            if not all(phases):
                continue
            for pct in (50, 99):
                base, during, after = (max(percentile(s, pct), FLOOR_MS) for s in phases)
                if during > DURING_FACTOR * base:
                    failed.append(f"{kind} p{pct} during")
                if after > AFTER_FACTOR * base:
                    failed.append(f"{kind} p{pct} after")
            if any(count for (phase, what), count in self.victim.failures.items()
                   if phase in PHASES and what.startswith(kind)):
                failed.append(f"{kind} refused")
        if self.rss("after") > RSS_FACTOR * self.rss("before"):
            failed.append("RSS after")
        return failed


def run_attack(name: str, sizes: Sizes) -> Row:
    with tempfile.TemporaryDirectory(prefix="parlour-noisy-") as folder:
        server = start_server(Path(folder) / "noisy.sqlite3")
        output = drain_output(server)
        victim = Victim(server.url)
        memory = MemoryWatch(server.process.pid, victim)
        try:
            victim.start()
            memory.start()
            warm_up(victim, sizes)
            victim.enter("before")
            time.sleep(sizes.before_s)
            result = attack_while_measured(name, server.url, sizes, victim)
            victim.enter("after")
            time.sleep(sizes.after_s)
            victim.enter("done")
        finally:
            memory.stopping.set()
            victim.stop()
            if server.process.poll() is not None:
                result = {"answers": {}, "notes": ["the server died:", *list(output)[-5:]]}
            server.stop()
    return Row(name, victim, memory, result["answers"], result["notes"])


def warm_up(victim: Victim, sizes: Sizes) -> None:
    """Until the worker pool has started and each worker has made its first computer
    move (which builds its table): a few moves, and at least `sizes.warmup_s`."""
    time.sleep(sizes.warmup_s)
    deadline = time.monotonic() + WARMUP_MOST_S
    while victim.moves_made() < WARMUP_MOVES and time.monotonic() < deadline:
        time.sleep(0.2)


def attack_while_measured(name: str, url: str, sizes: Sizes, victim: Victim) -> dict[str, Any]:
    spawn = multiprocessing.get_context("spawn")  # no threads or sockets of ours inherited
    begun, leave = spawn.Event(), spawn.Event()
    results: multiprocessing.Queue[dict[str, Any]] = spawn.Queue()
    process = spawn.Process(target=attacker_process,
                            args=(name, url, sizes, begun, leave, results))
    victim.enter("setup")
    process.start()
    begun.wait(SETUP_MOST_S)
    victim.enter("during")
    time.sleep(sizes.during_s)
    leave.set()
    try:
        result: dict[str, Any] = results.get(timeout=60)
    except queue.Empty:
        result = {"answers": {}, "notes": ["the attacker did not report"]}
    process.join(10)
    if process.is_alive():
        process.kill()
        process.join()
    return result


# -- the report ----------------------------------------------------------------------------
def refusals(answers: dict[str, int]) -> str:
    """What the server refused the attacker, most first: `429 x12, socket closed 1008 x3`.
    Successes, normal closes, the attacker's own time-outs (attack 1a's 0.5 s) and the
    requests it dropped on leaving are not refusals (the details list them)."""
    refused: Counter[str] = Counter()
    for what, count in answers.items():
        asked, _, outcome = what.partition(": ")
        if outcome.startswith("2") or outcome in OURS:
            continue
        refused[f"socket {outcome}" if asked == "socket" else outcome] += count
    return ", ".join(f"{outcome} x{count}" for outcome, count in refused.most_common()) or "none"


def print_details(row: Row) -> None:
    heading(f"{row.name}  {ATTACKS[row.name][0]}")
    for phase in ("setup", *PHASES):
        moves, pages = row.latencies("move", phase), row.latencies("page", phase)
        workers = row.memory.workers.get(phase) or [0.0]
        failures = {kind: n for (at, kind), n in row.victim.failures.items() if at == phase}
        print(f"  {phase:<7} victim move p50/p99 {row.figure('move', phase):>13} ms "
              f"(n={len(moves):<4d})  page {row.figure('page', phase):>11} ms "
              f"(n={len(pages):<4d})  server RSS {row.rss(phase):6.0f} MiB, workers "
              f"{max(workers):5.0f} MiB" + (f"  victim refused: {failures}" if failures else ""))
    print("  attacker got: " + (", ".join(f"{what} x{n}" for what, n in
                                          sorted(row.answers.items())) or "nothing"))
    for note in row.notes:
        print(f"  {note}")


def print_table(rows: list[Row]) -> None:
    heading("Victim p50/p99 (ms) and server RSS (MiB): before | during | after")
    cells = [[row.name, *(" | ".join(row.figure(kind, phase) for phase in PHASES)
                          for kind in ("move", "page")),
              " | ".join(f"{row.rss(phase):.0f}" for phase in PHASES),
              "FAIL" if row.failed_targets() else "PASS", refusals(row.answers)]
             for row in rows]
    titles = ["attack", "victim move", "home page", "RSS", "verdict", "attacker refusals"]
    widths = [max(len(line[column]) for line in [titles, *cells]) + 2 for column in range(5)]
    for line, row in zip([titles, *cells], [None, *rows], strict=True):
        print("".join(cell.ljust(width) for cell, width in zip(line, widths, strict=False))
              + line[5])
        failed = row.failed_targets() if row else []
        if failed:
            print(f"{'':<7}missed: {', '.join(failed)}")
    print(f"\nTargets: during <= {DURING_FACTOR:g}x before, after <= {AFTER_FACTOR:g}x before "
          f"(p50 and p99; under {FLOOR_MS:g} ms counts as {FLOOR_MS:g}); RSS after <= "
          f"{RSS_FACTOR:g}x before. RSS: before median, during peak, after last reading.\n"
          "A wait that spans phases counts in each for its part there.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--attacks", default=",".join(ATTACKS),
                        help=f"which, comma-separated (default all: {','.join(ATTACKS)})")
    parser.add_argument("--quick", action="store_true",
                        help="smaller attacks and shorter phases, for a look")
    args = parser.parse_args()
    chosen = [name.strip() for name in args.attacks.split(",") if name.strip()]
    unknown = [name for name in chosen if name not in ATTACKS]
    if unknown:
        parser.error(f"unknown attacks {unknown}: choose among {', '.join(ATTACKS)}")
    sizes = QUICK if args.quick else Sizes()
    rows = []
    for name in chosen:
        print(f"attack {name}: {ATTACKS[name][0]} ...", flush=True)
        rows.append(run_attack(name, sizes))
        print_details(rows[-1])
    print_table(rows)
    print(f"\nRe-run: .venv/bin/python -m bench.noisy_neighbour --attacks {','.join(chosen)}"
          + (" --quick" if args.quick else ""))


if __name__ == "__main__":
    main()
