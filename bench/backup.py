"""How long a large backup takes to make and to restore, and where the time goes.

`python -m bench.backup [COPIES]` (default 2000) plays one finished Tic Tac Toe game and
one begun Minesweeper game in an in-process Parlour, backs them up, and copies each
COPIES times under new session ids and tokens: a backup of 2×COPIES games. It prints the
CPU seconds of each step of a restore into an empty store (checking the file: parse,
validate, replay every game; the one transaction that writes it) and of making the
backup again from that store (reading every session; the whole file). The server runs
each step off its event loop (threads, and worker processes for long replays).
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

from fastapi.testclient import TestClient

from bench.common import unpaced
from parlour.games import GAMES
from parlour.server.app import create_app
from parlour.server.hub import backup
from parlour.store.sqlite import SqliteStore
from tests.support.servers import TEST_HOSTS


def play_two_games(client: TestClient) -> None:
    """A Tic Tac Toe game against the computer to its end, and a Minesweeper game begun."""
    made = client.post("/api/games", json={"game": "tictactoe",
                                           "seats": ["human", "ai:random"]}).json()
    headers = {"Authorization": f"Bearer {made['token']}"}
    for cell in range(9):
        client.post(f"/api/games/{made['session']}/moves",
                    json={"move": {"cell": [cell // 3, cell % 3]}}, headers=headers)
    made = client.post("/api/games", json={"game": "minesweeper"}).json()
    client.post(f"/api/games/{made['session']}/moves", json={"move": {"open": [3, 3]}},
                headers={"Authorization": f"Bearer {made['token']}"})


def copies_of(document: dict[str, object], copies: int) -> bytes:
    games, results = [], []
    for number in range(copies):
        for game in document["games"]:  # type: ignore[attr-defined]
            copy = json.loads(json.dumps(game))
            copy["session"] = f"s{number:07d}{game['game'][:3]}"
            for holder in copy["tokens"]:
                holder["token"] = f"t{number:09d}{game['game'][:3]}{'x' * 12}"
            games.append(copy)
        for result in document["results"]:  # type: ignore[attr-defined]
            results.append({**result, "session": f"s{number:07d}{result['game'][:3]}"})
    return json.dumps({**document, "games": games, "results": results}).encode()


def timed(what: str, started: float) -> None:
    print(f"{what:<34} {time.process_time() - started:6.2f} s CPU", flush=True)


def main(copies: int) -> None:
    unpaced()
    folder = Path(tempfile.mkdtemp())
    app = create_app(SqliteStore(folder / "source.sqlite3"), GAMES, ai_delay_scale=0,
                     allowed_hosts=TEST_HOSTS)
    with TestClient(app, client=("127.0.0.1", 50000)) as client:
        play_two_games(client)
        document = json.loads(client.get("/api/backup").content)
    data = copies_of(document, copies)
    moves = sum(len(game["moves"]) for game in json.loads(data)["games"])
    print(f"a backup of {2 * copies} games, {moves} moves: {len(data) / 2**20:.1f} MiB")
    store = SqliteStore(folder / "restored.sqlite3")
    started = time.process_time()
    checked = asyncio.run(backup.check(data, GAMES, backup.replay_in_place))
    timed("check (parse, validate, replay)", started)
    kept = store.identities([k.row.sid for k in checked.sessions],
                            [t for k in checked.sessions for t in k.tokens], [])
    change, _ = backup.merged(checked, kept, time.time())
    started = time.process_time()
    store.write(change)
    timed("write (one transaction)", started)
    started = time.process_time()
    store.kept_sessions()
    timed("read every session", started)
    started = time.process_time()
    asyncio.run(backup.backup_file(store, GAMES, time.time()))
    timed("make the backup file", started)
    store.close()
    print(f"re-run: python -m bench.backup {copies}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
