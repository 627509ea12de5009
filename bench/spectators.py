"""Many spectators of one big game: the server's memory, and another client's page loads.

Starts a real `parlour` process on a temporary database and creates a 40x60 Minesweeper
game (its view is ~0.5 MB). Then, reading the server's RSS (VmRSS) at each step:

1. before: another client's `GET /static/home.html`, `--gets` times, one at a time;
2. `--viewers` WebSockets say hello with no token (spectators, as issue 33 found) and
   read everything they are sent; once each has its first view, RSS is read;
3. the owner toggles a mark in a loop over REST for `--seconds`, while the other client
   loads the home page again (its p50 and p99, and the toggles made, are printed);
4. the spectators close; after `--settle` seconds RSS is read again, and the home page
   timed once more.

Targets: home page p50 while they watch at most 2x before; RSS after they left within
10 % of RSS before they came (read after a first round of toggles with nobody watching,
`--seconds` / 3: a game's moves grow it a little, its viewers should not).
The server refuses WebSockets beyond its caps (per game, per client: hub/caps.py): those
refused are counted and reported, not retried. Each spectator has a player cookie of
its own, so the cap per game is the one met.

Run from the repository root:  .venv/bin/python -m bench.spectators [--viewers 1000]
To measure other code, run it from that checkout (the server is `python -m parlour`
started in the current directory).
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

import httpx
import websockets

from bench.common import auth, heading, report
from tests.support.servers import RunningServer, drain_output, start_server

BOARD = {"rows": 40, "cols": 60, "mines": 300}
TARGET_SLOWDOWN = 2.0
TARGET_RSS_GROWTH = 0.10


def rss_mib(server: RunningServer) -> float:
    for line in Path(f"/proc/{server.process.pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def home_loads(http: httpx.AsyncClient, count: int | None = None,
                     until: asyncio.Event | None = None) -> list[float]:
    """Times of GET /static/home.html (ms), one at a time: `count` of them, or until set."""
    taken: list[float] = []
    while (count is None or len(taken) < count) and not (until and until.is_set()):
        started = time.perf_counter()
        (await http.get("/static/home.html")).raise_for_status()
        taken.append((time.perf_counter() - started) * 1000)
    return taken


class Spectator:
    """A socket that says hello with no token and reads whatever it is sent; each with a
    player cookie of its own (a script can get one from every page it loads), so the
    game's cap is the one that holds, not the one per client."""

    def __init__(self, number: int) -> None:
        self.cookie = f"parlour_player=spectator{number:_<13}"
        self.first_view = asyncio.Event()
        self.refused: str | None = None
        self.received = 0

    async def watch(self, url: str, leave: asyncio.Event) -> None:
        try:
            async with websockets.connect(url, max_size=2**23, open_timeout=60,
                                          additional_headers={"Cookie": self.cookie}) as socket:
                await socket.send('{"type": "hello"}')
                reading = asyncio.create_task(self._read(socket))
                await leave.wait()
                reading.cancel()
        except Exception as error:  # refused or broken: counted, not retried
            self.refused = self.refused or repr(error)[:80]
        finally:
            self.first_view.set()

    async def _read(self, socket: websockets.ClientConnection) -> None:
        try:
            async for message in socket:
                if not self.received and str(message).startswith('{"type":"error"'):
                    self.refused = str(message)[:100]  # refused: closed next
                self.received += 1
                self.first_view.set()
        except websockets.ConnectionClosed:
            pass
        finally:  # closed by the server (refused, or dropped): say why
            if socket.close_code is not None and not self.refused:
                self.refused = f"closed {socket.close_code}: {socket.close_reason}"
            self.first_view.set()


async def toggle(http: httpx.AsyncClient, sid: str, token: str, stop: asyncio.Event) -> int:
    """The owner marks and unmarks one cell until `stop`; the number of moves made."""
    made = 0
    while not stop.is_set():
        (await http.post(f"/api/games/{sid}/moves", json={"move": {"mark": [0, 0]}},
                         headers=auth(token))).raise_for_status()
        made += 1
    return made


async def while_toggling(server: RunningServer, owner: httpx.AsyncClient,
                         other: httpx.AsyncClient, sid: str, token: str, seconds: float
                         ) -> tuple[list[float], float]:
    """The other client's home page loads while the owner toggles for `seconds`, and the
    server's peak RSS meanwhile."""
    stop = asyncio.Event()
    toggling = asyncio.create_task(toggle(owner, sid, token, stop))
    await asyncio.sleep(0.5)
    loads = asyncio.create_task(home_loads(other, until=stop))
    peak = rss_mib(server)
    for _ in range(int(seconds * 2)):
        await asyncio.sleep(0.5)
        peak = max(peak, rss_mib(server))
    stop.set()
    print(f"owner's toggles made in {seconds:.0f} s: {await toggling}")
    return await loads, peak


async def run(server: RunningServer, viewers: int, gets: int, seconds: float,
              settle: float) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=600) as owner, \
            httpx.AsyncClient(base_url=server.url, timeout=600) as other:
        made = (await owner.post("/api/games", json={"game": "minesweeper",
                                                     "params": BOARD})).json()
        sid, token = made["session"], made["token"]
        await home_loads(other, 5)  # warm up
        before_rss = rss_mib(server)
        before = report("home page, before (ms)", await home_loads(other, gets))
        alone, _ = await while_toggling(server, owner, other, sid, token, seconds / 3)
        toggling_alone = report("home page, owner toggling, nobody watching (ms)", alone)
        toggled_rss = rss_mib(server)  # the game grew with its moves, not its viewers

        leave = asyncio.Event()
        spectators = [Spectator(number) for number in range(viewers)]
        url = server.url.replace("http", "ws", 1) + f"/ws/{sid}"
        watching = [asyncio.create_task(s.watch(url, leave)) for s in spectators]
        await asyncio.gather(*(s.first_view.wait() for s in spectators))
        refused = [s.refused for s in spectators if s.refused]
        print(f"spectators: {viewers - len(refused)} watching, {len(refused)} refused"
              + (f" (first: {refused[0]})" if refused else ""))
        with_viewers_rss = rss_mib(server)

        loaded, peak = await while_toggling(server, owner, other, sid, token, seconds)
        during = report("home page, owner toggling, spectators watching (ms)", loaded)
        print(f"messages received by the spectators: {sum(s.received for s in spectators)}")

        leave.set()
        await asyncio.gather(*watching)
        await asyncio.sleep(settle)
        after_rss = rss_mib(server)
        report("home page, after they left (ms)", await home_loads(other, gets))

    heading("Server RSS (MiB)")
    print(f"before {before_rss:.0f} · after toggling alone {toggled_rss:.0f} · "
          f"with {viewers} spectators {with_viewers_rss:.0f} · "
          f"peak while toggling {max(peak, with_viewers_rss):.0f} · "
          f"{settle:.0f} s after they left {after_rss:.0f}")
    growth = after_rss / toggled_rss - 1
    print(f"home p50 while they watch: {during['p50'] / before['p50']:.1f}x before "
          f"(target <= {TARGET_SLOWDOWN:.0f}x), {during['p50'] / toggling_alone['p50']:.1f}x "
          "toggling with nobody watching")
    print(f"RSS after they left / after toggling alone: {growth:+.0%} "
          f"(target <= +{TARGET_RSS_GROWTH:.0%})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--viewers", type=int, default=1000)
    parser.add_argument("--gets", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--settle", type=float, default=5.0)
    args = parser.parse_args()
    heading(f"{args.viewers} spectators of a 40x60 Minesweeper game")
    print("re-run: .venv/bin/python -m bench.spectators "
          f"--viewers {args.viewers} --seconds {args.seconds:.0f}")
    with tempfile.TemporaryDirectory() as folder:
        server = start_server(Path(folder) / "bench.sqlite3")
        drain_output(server)
        try:
            asyncio.run(run(server, args.viewers, args.gets, args.seconds, args.settle))
        finally:
            server.stop()


if __name__ == "__main__":
    main()
