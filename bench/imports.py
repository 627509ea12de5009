"""Importing long games beside other clients: does an import hold up anyone else?

The issue's reproduction: an 8x8 sliding game file of `--moves` moves (a tile slid to and
fro; by default the most a file may hold) is posted to POST /api/games/import, once and
then six at once, while another client reads the home page every 10 ms (and first for
5 s with no import, to show what the machine's own load costs). Prints how long
the imports took, how they were answered, and that client's answer times: its longest
is the longest stall an import caused.

Target: the other client's longest answer under 100 ms however long the imports run (the
import's work runs in worker processes, not on the event loop).

Run from the repository root:  .venv/bin/python -m bench.imports [--moves 100000]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

from bench.common import heading, report
from parlour.server.hub.saved_games import MAX_MOVES
from tests.support.imports import to_and_fro_file
from tests.support.servers import RunningServer, drain_output, start_server


def post_import(url: str, body: bytes, player: str) -> tuple[int, float]:
    """The import's status and seconds; each importer is a player of its own (cookie)."""
    started = time.perf_counter()
    with httpx.Client(base_url=url, timeout=600, cookies={"parlour_player": player}) as api:
        reply = api.post("/api/games/import", content=body,
                         headers={"content-type": "application/json"})
    return reply.status_code, time.perf_counter() - started


def imports_beside_a_reader(server: RunningServer, body: bytes, at_once: int) -> None:
    answered: list[float] = []
    stop = threading.Event()

    def read_home_page() -> None:
        with httpx.Client(base_url=server.url, timeout=600) as api:
            while not stop.is_set():
                started = time.perf_counter()
                api.get("/").raise_for_status()
                answered.append((time.perf_counter() - started) * 1000)
                stop.wait(0.01)

    reader = threading.Thread(target=read_home_page)
    reader.start()
    time.sleep(0.5)
    try:
        if not at_once:  # the machine as it is, for comparison
            time.sleep(5)
            stop.set()
            reader.join()
            report("home page, no import", answered)
            return
        with ThreadPoolExecutor(at_once) as pool:
            outcomes = list(pool.map(
                lambda n: post_import(server.url, body, f"importer-{n:02d}-{'x' * 10}"),
                range(at_once)))
    finally:
        stop.set()
        reader.join()
    statuses = sorted({status for status, _ in outcomes})
    longest = max(seconds for _, seconds in outcomes)
    print(f"{at_once} import(s): answered {statuses}, the last after {longest:.2f} s")
    report(f"home page beside {at_once} import(s)", answered)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=MAX_MOVES)
    args = parser.parse_args()
    body = json.dumps(to_and_fro_file(args.moves)).encode()
    heading(f"Imports of a {args.moves}-move sliding game ({len(body) / 2**20:.1f} MiB)")
    with tempfile.TemporaryDirectory() as folder:
        server = start_server(Path(folder) / "imports.sqlite3")
        drain_output(server)
        try:
            warm_up = json.dumps(to_and_fro_file(200)).encode()
            post_import(server.url, warm_up, "warm-up-importer-00000")
            for at_once in (0, 1, 6):
                imports_beside_a_reader(server, body, at_once)
        finally:
            server.stop()


if __name__ == "__main__":
    main()
