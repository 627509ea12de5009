"""Issue 33's statistics attack: many groups made cheaply, then GET /api/stats.

A real server (`python -m parlour`, a fresh database) gets --games sliding puzzles, each
started from a custom position one slide from solved, on a 3×3 board with its own walk
length (`steps` 1, 2, 3...), and solved with that slide: on Parlour before issue 33 each
made a statistics group of its own. Then GET /api/stats, once and --parallel at once: the
answer's groups and bytes, and its wall time (server and client share the machine).
Then, as years of play (or an attack on an older Parlour) leave a store, --kept-groups
groups of --kept-games won games each are written straight into its file, and the same
GETs again. Targets: the groups and bytes do not grow with what is kept; one answer under
0.5 s, a first one after a change under 5 s.

Run from the repository root (a few minutes):
    .venv/bin/python -m bench.stats_groups [--games 600] [--parallel 8] [--source DIR]
        [--kept-groups 600] [--kept-games 50]
(`--source`: serve another checkout's Parlour, e.g. the code before the change.)
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bench.common import heading
from tests.support.servers import wait_until_ready

NEXT_TO_SOLVED = "1,2,3,4,5,6,7,0,8"
SOLVING_SLIDE = {"cell": [2, 2]}


def call(base: str, path: str, body: object = None, token: str = "") -> tuple[bytes, float]:
    """The answer's bytes and the seconds it took."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method="GET" if data is None
                                     else "POST")
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    start = time.perf_counter()
    with urllib.request.urlopen(request, timeout=600) as answer:
        content: bytes = answer.read()
    return content, time.perf_counter() - start


def make_groups(base: str, games: int) -> float:
    start = time.perf_counter()
    for steps in range(1, games + 1):
        game_id = f"sliding:rows=3,cols=3,steps={steps}:{NEXT_TO_SOLVED}"
        created = json.loads(call(base, "/api/games", {"game": "sliding", "id": game_id})[0])
        call(base, f"/api/games/{created['session']}/moves", {"move": SOLVING_SLIDE},
             created["token"])
    return time.perf_counter() - start


def keep_results(db: Path, groups: int, games: int) -> None:
    """Won sliding games written straight into the store's file, a group per walk length."""
    rows = [(f"kept{group}-{number}", 1, 0, "", "sliding", f"4×4 walk of {group + 1}",
             "solo", "won", None, 1_000 + number, 10, 0,
             1_700_000_000.0 + group * 10_000 + number, json.dumps({"tiles_moved": 10}))
            for group in range(groups) for number in range(games)]
    with sqlite3.connect(db, timeout=30) as connection:
        connection.executemany(
            "INSERT INTO results (sid, round, seat, seat_name, game, preset, mode, outcome,"
            " score, elapsed_ms, moves, assisted, finished, figures)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)", rows)
    connection.close()


def measure(base: str, parallel: int) -> None:
    content, seconds = call(base, "/api/stats")
    groups = len(json.loads(content)["groups"])
    print(f"first GET: {seconds:.2f} s, {len(content):,} bytes, {groups} groups")
    content, seconds = call(base, "/api/stats")
    print(f"again: {seconds:.2f} s")
    with ThreadPoolExecutor(parallel) as pool:
        times = sorted(s for _, s in pool.map(lambda _: call(base, "/api/stats"),
                                              range(parallel)))
    print(f"{parallel} at once: {times[0]:.2f}–{times[-1]:.2f} s each")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--parallel", type=int, default=8)
    parser.add_argument("--source", type=Path, help="serve the Parlour of this checkout")
    parser.add_argument("--kept-groups", type=int, default=600)
    parser.add_argument("--kept-games", type=int, default=50)
    options = parser.parse_args()
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    if options.source:
        env["PYTHONPATH"] = str(options.source.resolve())
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "parlour.sqlite3"
        server = subprocess.Popen(
            [sys.executable, "-m", "parlour", "--no-browser", "--port", "0", "--db", str(db)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
            cwd=options.source)  # `-m` finds the package in its folder first
        try:
            base = wait_until_ready(server)
            heading(f"GET /api/stats after {options.games} custom sliding games "
                    f"({options.source or 'this checkout'})")
            print(f"made the games in {make_groups(base, options.games):.1f} s")
            measure(base, options.parallel)
            heading(f"... and {options.kept_groups} groups of {options.kept_games} games "
                    "kept in the file")
            keep_results(db, options.kept_groups, options.kept_games)
            measure(base, options.parallel)
        finally:
            server.terminate()
            server.wait(timeout=30)


if __name__ == "__main__":
    main()
