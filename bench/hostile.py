"""Hostile clients against a real server: does any of them hold up honest players?

1. Stalled viewers: three WebSockets on a 40x60 Minesweeper game that never read; the
   game's owner opens an area and restarts, over and over (each redraws most of the
   ~500 KB board). Prints how long each of the owner's requests took.
2. Long work: no-guess 40x60 boards with 900 mines laid in one game (a second or more
   each) while another game is read every 10 ms. Prints that game's answer times.
3. A 20 MiB body: how long until it is refused, and the server's memory after 10.

Targets: every request answered, the other game's p95 under 100 ms, a huge body refused
at once with no lasting growth in memory.

Run from the repository root:  .venv/bin/python -m bench.hostile [--rounds 40]
"""

from __future__ import annotations

import argparse
import tempfile
import threading
import time
from pathlib import Path

import httpx

from bench.common import heading, report, unpaced
from tests.support.hostile import stalled_viewer
from tests.support.servers import RunningServer, start_server

BIG_BOARD = {"rows": 40, "cols": 60, "mines": 300}
NO_GUESS = {"rows": 40, "cols": 60, "mines": 900, "first_click": "no_guess"}


def create(api: httpx.Client, body: dict[str, object]) -> tuple[str, dict[str, str]]:
    reply = api.post("/api/games", json=body)
    reply.raise_for_status()
    return reply.json()["session"], {"Authorization": f"Bearer {reply.json()['token']}"}


def stalled_viewers(server: RunningServer, rounds: int) -> list[float]:
    api = httpx.Client(base_url=server.url, timeout=300)
    sid, auth = create(api, {"game": "minesweeper", "params": BIG_BOARD})
    viewers = [stalled_viewer(server.url, sid) for _ in range(3)]
    answered: list[float] = []
    try:
        for number in range(rounds):
            row, col = divmod(number * 997 % 2400, 60)
            for action, body in (("moves", {"move": {"open": [row, col]}}), ("restart", None)):
                started = time.perf_counter()
                api.post(f"/api/games/{sid}/{action}", json=body, headers=auth)
                answered.append((time.perf_counter() - started) * 1000)
    finally:
        for viewer in viewers:
            viewer.close()
    return answered


def long_work(server: RunningServer, boards: int) -> tuple[list[float], list[float]]:
    api = httpx.Client(base_url=server.url, timeout=300)
    other, other_auth = create(api, {"game": "tictactoe", "seats": ["human", "human"]})
    laid: list[float] = []

    def lay() -> None:
        worker = httpx.Client(base_url=server.url, timeout=300)
        for _ in range(boards):
            sid, auth = create(worker, {"game": "minesweeper", "params": NO_GUESS})
            started = time.perf_counter()
            worker.post(f"/api/games/{sid}/moves", json={"move": {"open": [20, 30]}},
                        headers=auth).raise_for_status()
            laid.append((time.perf_counter() - started) * 1000)

    laying = threading.Thread(target=lay)
    laying.start()
    answered: list[float] = []
    while laying.is_alive():
        started = time.perf_counter()
        api.get(f"/api/games/{other}", headers=other_auth).raise_for_status()
        answered.append((time.perf_counter() - started) * 1000)
        time.sleep(0.01)
    return laid, answered


def rss_mib(server: RunningServer) -> float:
    for line in Path(f"/proc/{server.process.pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def huge_bodies(server: RunningServer, count: int) -> tuple[list[float], float, float]:
    api = httpx.Client(base_url=server.url, timeout=300)
    sid, auth = create(api, {"game": "tictactoe"})
    body = b'{"move": "' + b"x" * (20 * 2**20) + b'"}'
    before = rss_mib(server)
    refused: list[float] = []
    for _ in range(count):
        started = time.perf_counter()
        reply = api.post(f"/api/games/{sid}/moves", content=body,
                         headers={**auth, "Content-Type": "application/json"})
        refused.append((time.perf_counter() - started) * 1000)
        assert reply.status_code == 413, reply.status_code
    return refused, before, rss_mib(server)


def main() -> None:
    unpaced()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=40, help="openings and restarts")
    parser.add_argument("--boards", type=int, default=4, help="no-guess boards to lay")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        server = start_server(Path(folder) / "parlour.sqlite3")
        try:
            heading("1. Three viewers that never read, on a 40x60 board")
            report("the owner's open / restart answered", stalled_viewers(server, args.rounds))
            heading("2. No-guess 40x60 boards with 900 mines laid in another game")
            laid, answered = long_work(server, args.boards)
            report("a no-guess board laid (first click)", laid)
            report("the other game read meanwhile", answered)
            heading("3. 20 MiB bodies")
            refused, before, after = huge_bodies(server, 10)
            report("a 20 MiB move refused (413)", refused)
            print(f"server memory: {before:.0f} MiB before, {after:.0f} MiB after 10 bodies")
        finally:
            server.stop()
    print("\nRe-run: .venv/bin/python -m bench.hostile")


if __name__ == "__main__":
    main()
