"""A shared Parlour's pages of a player's own results: how long each POST .../mine takes.

A real server (`python -m parlour --shared`, a fresh SQLite file, no pacing or limits:
the benchmark is one client) keeps --games hot-seat Tic Tac Toe games of one player and
--others of other players, each played to its end through the REST API. Then each of
the statistics page's reads is asked --repeat times with the player's tokens, the way the
page asks (POST /api/stats/mine, /api/daily/mine, /api/replays/mine, and a game's
records), and its median and worst wall time printed (server and client share the
machine). Target: each under 0.5 s at the median for a player of a thousand games.

Run from the repository root (about a minute):
    .venv/bin/python -m bench.own_results [--games 1000] [--others 2000] [--repeat 9]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.common import heading, unpaced
from bench.stats_groups import call
from tests.support.servers import wait_until_ready

CROSS_WINS = [[0, 0], [0, 1], [1, 0], [1, 1], [2, 0]]


def played(base: str, count: int) -> list[tuple[str, str]]:
    """`count` hot-seat games won by Cross: (session, token) of each."""
    games = []
    for _ in range(count):
        made = json.loads(call(base, "/api/games", {"game": "tictactoe",
                                                    "seats": ["human", "human"]})[0])
        for cell in CROSS_WINS:
            call(base, f"/api/games/{made['session']}/moves", {"move": {"cell": cell}},
                 made["token"])
        games.append((made["session"], made["token"]))
    return games


def timed(base: str, path: str, tokens: list[str], repeat: int) -> tuple[float, float, int]:
    """Median and worst seconds of `repeat` asks, and the answer's bytes."""
    times, size = [], 0
    for _ in range(repeat):
        content, seconds = call(base, path, {"tokens": tokens})
        times.append(seconds)
        size = len(content)
    return statistics.median(times), max(times), size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--others", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=9)
    options = parser.parse_args()
    unpaced()
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "parlour.sqlite3"
        server = subprocess.Popen(
            [sys.executable, "-m", "parlour", "--no-browser", "--port", "0", "--db", str(db),
             "--shared", "--moves-per-minute", "0", "--new-games-per-hour", "0"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        try:
            base = wait_until_ready(server)
            mine = played(base, options.games)
            played(base, options.others)
            tokens = [token for _, token in mine]
            heading(f"a player's own results: {options.games} games of theirs among "
                    f"{options.games + options.others} kept (--shared, SQLite)")
            last_sid = mine[-1][0]
            for path in ("/api/stats/mine", "/api/daily/mine", "/api/replays/mine",
                         f"/api/games/{last_sid}/records/mine"):
                median, worst, size = timed(base, path, tokens, options.repeat)
                shown = path.replace(last_sid, "{sid}")
                print(f"POST {shown}: median {median * 1000:.0f} ms, worst "
                      f"{worst * 1000:.0f} ms ({options.repeat} asks), {size:,} bytes")
        finally:
            server.terminate()
            server.wait(timeout=30)


if __name__ == "__main__":
    main()
