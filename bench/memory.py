"""Server memory: resident size with many sessions open, and with one very long game.

Part 1 starts a real `parlour` process (tests.support.servers.start_server) on a temporary
database, creates `--sessions` Minesweeper games over REST (`--clients` requests at a
time) and then opens each once with GET (with its token, as its player would). Their
board is `--board`, Expert 16x30/99 by default: on 40x60/300, the biggest board, a
request takes ~20 ms (its answer is a 0.5 MB view), and 10 000 sessions ~4 minutes.
The server's resident memory (VmRSS in /proc/PID/status) is read once it has started,
after the creations and after the GETs; worker processes it started are summed apart.

Part 2, on a fresh database, creates a 40x60 game and plays mark toggles in it (move i
marks cell i mod 2 400: every move is legal and the game never ends): the first
`--played` moves over REST, one at a time, then RSS is read. The server is then killed
(SIGKILL) and the rest of the `--moves` are appended to the game's saved line with
`parlour.store`, the server's own saving code: over REST a move on this board takes
~12 ms (its answer is the board's 0.5 MB view), too slow for 50 000 in a default run
(`--played 50000` sends them all). A new process is started on the same database; a GET
of a small game made beside it wakes the server's worker processes (they start on the
first job, ~1 s), then the first GET of the long game is timed (the server replays
every move to load it), RSS is read, and `--after` more moves are played over REST
before a last reading.

Run from the repository root:  .venv/bin/python -m bench.memory [--sessions N] [--moves N]
To measure other code, run it from that checkout (the server is `python -m parlour`
started in the current directory; the code it runs is printed first).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from bench.common import auth, heading, unpaced
from parlour.store import Progress
from parlour.store.sqlite import SqliteStore
from tests.support.servers import RunningServer, drain_output, start_server

ROWS, COLS, MINES = 40, 60, 300  # the long game's board: the biggest the catalog allows
TARGET_SESSIONS_MIB = 256.0  # server RSS with 10 000 sessions opened: they must not pile up
TARGET_GAME_MIB = 64.0  # RSS added by a game of 50 000 moves loaded: ~1 KiB a move, not a board
TARGET_RELOAD_S = 2.0  # first GET of that game after a restart (workers already started)
MIB = 1024 * 1024


# -- reading memory -------------------------------------------------------------------------
def rss_bytes(pid: int) -> int:
    """VmRSS of process `pid`, from /proc/PID/status."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def children(pid: int) -> list[int]:
    """The processes whose parent is `pid` (the server's workers)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue  # gone meanwhile
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.append(int(entry.name))
    return found


class Table:
    """Rows of (what, server MiB, workers MiB, note), printed as they are measured."""

    def __init__(self, server: RunningServer) -> None:
        self.server = server
        print(f"{'':<52}{'server':>10}{'workers':>10}")

    def row(self, label: str, note: str = "") -> float:
        pid = self.server.process.pid
        server = rss_bytes(pid) / MIB
        workers = sum(rss_bytes(child) for child in children(pid)) / MIB
        print(f"{label:<52}{server:>7.1f} MiB{workers:>7.1f} MiB  {note}".rstrip())
        return server


def code_under_test() -> str:
    """Where `python -m parlour`, started here as the benchmark starts it, imports from."""
    found = subprocess.run(
        [sys.executable, "-c", "import parlour; print(parlour.__file__)"],
        capture_output=True, text=True, check=True, env=os.environ,
    )
    return str(Path(found.stdout.strip()).parent)


def verdict(value: float, target: float) -> str:
    return "met" if value <= target else "NOT met"


# -- talking to the server ----------------------------------------------------------------
async def checked(reply: Any, expected: int) -> dict[str, Any]:
    if reply.status_code != expected:
        raise RuntimeError(f"{reply.request.method} {reply.request.url}: "
                           f"{reply.status_code} {reply.text[:200]}")
    answer: dict[str, Any] = reply.json()
    return answer


async def in_parallel(count: int, clients: int, job: Any) -> None:
    """Run `job(i)` for i in range(count), `clients` at a time."""
    indexes = iter(range(count))

    async def worker() -> None:
        for index in indexes:
            await job(index)

    await asyncio.gather(*(worker() for _ in range(clients)))


def new_game(rows: int, cols: int, mines: int) -> dict[str, Any]:
    return {"game": "minesweeper", "params": {"rows": rows, "cols": cols, "mines": mines}}


def board_size(text: str) -> tuple[int, int, int]:
    """ROWSxCOLSxMINES, e.g. 16x30x99."""
    try:
        rows, cols, mines = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not ROWSxCOLSxMINES") from None
    return rows, cols, mines


def mark(index: int) -> dict[str, Any]:
    row, col = divmod(index % (ROWS * COLS), COLS)
    return {"mark": [row, col]}


async def play(http: httpx.AsyncClient, sid: str, token: str, first: int, count: int) -> None:
    for index in range(first, first + count):
        await checked(await http.post(f"/api/games/{sid}/moves", json={"move": mark(index)},
                                      headers=auth(token)), 200)


# -- part 1: many sessions ------------------------------------------------------------------
async def many_sessions(
    folder: Path, sessions: int, clients: int, board: tuple[int, int, int]
) -> float:
    rows, cols, mines = board
    heading(f"Part 1: {sessions} Minesweeper sessions of {rows}x{cols}/{mines}, "
            f"{clients} requests at a time")
    server = start_server(folder / "sessions.sqlite3")
    log = drain_output(server)
    try:
        table = Table(server)
        table.row("server started")
        opened: list[tuple[str, str]] = []
        body = new_game(*board)
        async with httpx.AsyncClient(base_url=server.url, timeout=120) as http:

            async def create(index: int) -> None:
                made = await checked(await http.post("/api/games", json=body), 201)
                opened.append((made["session"], made["token"]))

            async def get(index: int) -> None:
                sid, token = opened[index]
                await checked(await http.get(f"/api/games/{sid}", headers=auth(token)), 200)

            began = time.perf_counter()
            await in_parallel(sessions, clients, create)
            table.row(f"{sessions} sessions created",
                      f"({time.perf_counter() - began:.0f} s)")
            began = time.perf_counter()
            await in_parallel(sessions, clients, get)
            final = table.row("... and each opened once (GET)",
                              f"({time.perf_counter() - began:.0f} s)")
    except Exception:
        print("\n".join(log))
        raise
    finally:
        server.stop()
    return final


# -- part 2: one long game ------------------------------------------------------------------
def append_saved_moves(db: Path, sid: str, first: int, count: int) -> None:
    """Append marks `first` .. `first + count - 1` to the saved game, as the server saves."""
    store = SqliteStore(db)
    try:
        loaded = store.load_session(sid)
        assert loaded is not None
        row, line = loaded
        assert len(line) == first, (len(line), first)
        store.save(Progress(
            sid=sid, cursor=first + count, round=row.round, assisted=row.assisted,
            elapsed_ms=row.elapsed_ms, clock_last_at=None, status=row.status,
            headline=row.headline, now=time.time(), assist=row.assist,
            new_moves_from=first, new_moves=[mark(i) for i in range(first, first + count)],
        ))
    finally:
        store.close()


async def long_game(
    folder: Path, moves: int, played: int, after: int
) -> tuple[float, float, float]:
    """RSS of the restarted server before and after loading the game, and the time."""
    played = min(played, moves)
    heading(f"Part 2: one {ROWS}x{COLS} game of {moves} moves (mark toggles), "
            f"{played} of them over REST")
    db = folder / "long.sqlite3"
    server = start_server(db)
    log = drain_output(server)
    try:
        table = Table(server)
        table.row("server started")
        async with httpx.AsyncClient(base_url=server.url, timeout=120) as http:
            made = await checked(
                await http.post("/api/games", json=new_game(ROWS, COLS, MINES)), 201
            )
            sid, token = made["session"], made["token"]
            small = await checked(await http.post("/api/games", json=new_game(9, 9, 10)), 201)
            began = time.perf_counter()
            await play(http, sid, token, 0, played)
            elapsed = time.perf_counter() - began
            table.row(f"{played} moves played over REST",
                      f"({elapsed / max(played, 1) * 1000:.1f} ms a move)")
        server.kill()
        append_saved_moves(db, sid, played, moves - played)

        started = time.perf_counter()
        server = start_server(db)
        log = drain_output(server)
        ready = time.perf_counter() - started
        table = Table(server)
        table.row("restarted (killed, started again)", f"({ready:.1f} s to ready)")
        async with httpx.AsyncClient(base_url=server.url, timeout=300) as http:
            began = time.perf_counter()
            await checked(await http.get(f"/api/games/{small['session']}"), 200)
            idle = table.row("a small game opened (workers started)",
                      f"({time.perf_counter() - began:.2f} s)")
            began = time.perf_counter()
            view = await checked(await http.get(f"/api/games/{sid}", headers=auth(token)), 200)
            reload_s = time.perf_counter() - began
            if view["moves"] != moves:
                raise RuntimeError(f"reloaded {view['moves']} moves instead of {moves}")
            loaded = table.row(f"game of {moves} moves reloaded (first GET)",
                               f"({reload_s:.2f} s)")
            await play(http, sid, token, moves, after)
            table.row(f"... and {after} more moves played over REST")
    except Exception:
        print("\n".join(log))
        raise
    finally:
        server.stop()
    return idle, loaded, reload_s


async def run(args: argparse.Namespace) -> None:
    print(f"code under test: {code_under_test()}")
    with tempfile.TemporaryDirectory() as folder:
        with_sessions = await many_sessions(
            Path(folder), args.sessions, args.clients, args.board
        )
        idle, with_game, reload_s = await long_game(
            Path(folder), args.moves, args.played, args.after
        )
    heading("Targets")
    print(f"RSS with {args.sessions} sessions: {with_sessions:.0f} MiB "
          f"(target for 10 000: <= {TARGET_SESSIONS_MIB:.0f} MiB: "
          f"{verdict(with_sessions, TARGET_SESSIONS_MIB)})")
    grown = with_game - idle
    print(f"RSS added by the game of {args.moves} moves: {grown:.0f} MiB, "
          f"{grown * MIB / max(args.moves, 1):.0f} bytes a move (target for 50 000: "
          f"<= {TARGET_GAME_MIB:.0f} MiB: {verdict(grown, TARGET_GAME_MIB)})")
    print(f"reload of that game: {reload_s:.2f} s (target for 50 000: <= {TARGET_RELOAD_S:.1f} s:"
          f" {verdict(reload_s, TARGET_RELOAD_S)})")


def main() -> None:
    unpaced()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sessions", type=int, default=10_000, help="sessions (10 000)")
    parser.add_argument("--clients", type=int, default=8, help="requests at a time (8)")
    parser.add_argument("--board", type=board_size, default=(16, 30, 99),
                        help="the sessions' board, ROWSxCOLSxMINES (16x30x99)")
    parser.add_argument("--moves", type=int, default=50_000, help="moves in the game (50 000)")
    parser.add_argument("--played", type=int, default=2_000,
                        help="of those, played over REST (2 000); the rest saved directly")
    parser.add_argument("--after", type=int, default=200,
                        help="moves played after the reload (200)")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
