"""Durability of the hosted mode under crashes: SIGKILLs spread over the processes while
many players move, every kill followed by a restart of the process killed. Each player
moves through nginx as fast as it is answered (REST; a refusal or a cut connection is
tried again), and counts the moves acknowledged. At the end every game's line in
PostgreSQL is compared with what its player saw acknowledged: a move acknowledged and
not kept is lost (the target is 0). The takeover time is, for each kill and each game
its victim played, the pause from the kill to that game's next acknowledged move.

Run: .venv/bin/python -m bench.hosted_kills [--kills 100] [--players 30] [--every 3]
"""

from __future__ import annotations

import argparse
import random
import threading
import time
from dataclasses import dataclass, field

import httpx
import psycopg

from bench.common import heading, percentile
from bench.hosted import setup
from tests.support.hosted import Hosted

MARK = {"move": {"mark": [0, 0]}}


@dataclass
class Player:
    sid: str
    token: str
    acknowledged: int = 0
    times: list[float] = field(default_factory=list)
    retried: int = 0

    def play_until(self, url: str, stop: threading.Event) -> None:
        headers = {"Authorization": f"Bearer {self.token}"}
        with httpx.Client(base_url=url, headers=headers, timeout=30) as client:
            while not stop.is_set():
                try:
                    answer = client.post(f"/api/games/{self.sid}/moves", json=MARK)
                except httpx.HTTPError:  # cut by a kill: not acknowledged
                    self.retried += 1
                    continue
                if answer.status_code == 200:
                    self.acknowledged = int(answer.json()["line_length"])
                    self.times.append(time.monotonic())
                else:
                    self.retried += 1
                    time.sleep(0.05)


def owners(hosted: Hosted) -> dict[str, int]:
    """Each game's owner, as a pid."""
    with psycopg.connect(hosted.database) as db:
        rows = db.execute("SELECT sid, owner FROM leases").fetchall()
    return {sid: int(owner.rsplit("-", 2)[1]) for sid, owner in rows}


def stored_lines(hosted: Hosted) -> dict[str, int]:
    with psycopg.connect(hosted.database) as db:
        return dict(db.execute("SELECT sid, cursor FROM sessions").fetchall())


def run(kills: int, players_count: int, every: float, seed: int) -> None:
    rng = random.Random(seed)
    with setup("hosted:3") as (url, hosted):
        assert isinstance(hosted, Hosted)
        with httpx.Client(base_url=url, timeout=60) as api:
            made = [api.post("/api/games", json={"game": "minesweeper"}).json()
                    for _ in range(players_count)]
        players = [Player(m["session"], m["token"]) for m in made]
        stop = threading.Event()
        threads = [threading.Thread(target=p.play_until, args=(url, stop)) for p in players]
        for thread in threads:
            thread.start()
        takeovers: list[float] = []
        pending: list[tuple[float, list[Player]]] = []
        for _ in range(kills):
            time.sleep(every)
            victim = rng.randrange(len(hosted.processes))
            pid = hosted.processes[victim].process.pid
            played = [p for p in players if owners(hosted).get(p.sid) == pid]
            killed_at = time.monotonic()
            hosted.processes[victim].kill()
            pending.append((killed_at, played))
            hosted.restart(victim)
        time.sleep(every + 5)
        stop.set()
        for thread in threads:
            thread.join()
        for killed_at, played in pending:
            for player in played:
                after = [t for t in player.times if t > killed_at]
                if after:
                    takeovers.append(after[0] - killed_at)
        stored = stored_lines(hosted)
    lost = sum(max(0, p.acknowledged - stored.get(p.sid, 0)) for p in players)
    heading(f"{kills} SIGKILLs over 3 hosted processes, {players_count} players moving"
            f" flat out through nginx (a kill every {every:g} s)")
    print(f"moves acknowledged: {sum(p.acknowledged for p in players)}"
          f"  (requests refused or cut meanwhile, tried again: {sum(p.retried for p in players)})")
    print(f"acknowledged moves lost: {lost}")
    if takeovers:
        print(f"takeover (kill -> the game's next acknowledged move), over {len(takeovers)}"
              f" games: p50 {percentile(takeovers, 50):.2f} s,"
              f" p99 {percentile(takeovers, 99):.2f} s, max {max(takeovers):.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--players", type=int, default=30)
    parser.add_argument("--every", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    run(args.kills, args.players, args.every, args.seed)


if __name__ == "__main__":
    main()
