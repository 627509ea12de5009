"""Serve Parlour's games on 127.0.0.1 and open the browser on the home page."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
import os
import signal
import socket
import sys
import time
import webbrowser
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

import uvicorn

from parlour.core.game import counted
from parlour.games import GAMES
from parlour.server import limits
from parlour.server.api.guard import LOCAL_HOSTS, WS_MESSAGE_LIMIT
from parlour.server.api.proxies import parse_networks
from parlour.server.app import create_app
from parlour.server.collector import Collector
from parlour.server.compute import Compute
from parlour.server.hub import backup
from parlour.server.hub.errors import ApiError
from parlour.store import NewerStore, Store
from parlour.store.sqlite import SYNC_MODES, SqliteStore, default_path

if TYPE_CHECKING:
    from parlour.server.hosted import Hosting

DEFAULT_PORT = 8765
DATABASE_VARIABLE = "PARLOUR_DATABASE"
BUS_VARIABLE = "PARLOUR_BUS"
WARM_UP_DELAY = 2.0
"""Seconds after start-up before the worker processes start (hints, AI moves, long
deals); the first page loads meanwhile."""


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    # (./play names itself: it is what the player typed)
    parser = argparse.ArgumentParser(prog=os.environ.get("PARLOUR_PROG", "parlour"),
                                     description=__doc__)
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1: this machine only; "
                        "0.0.0.0 lets the network in, with no passwords)")
    parser.add_argument("--port", type=int, default=None,
                        help=f"port (default {DEFAULT_PORT}, or the next free one)")
    kept = parser.add_mutually_exclusive_group()
    kept.add_argument("--db", type=Path, default=None,
                      help="SQLite file (default: $PARLOUR_DB or the user data directory)")
    kept.add_argument("--database", metavar="URL", default=None,
                      help="keep the games in PostgreSQL instead, e.g. postgresql://parlour@"
                      "localhost/parlour (default: $PARLOUR_DATABASE; needs the hosted "
                      "extra, pip install 'parlour[hosted]'; --sync is then PostgreSQL's)")
    parser.add_argument("--bus", metavar="URL", default=os.environ.get(BUS_VARIABLE),
                        help="with --database: one of many processes on that database, "
                        "which find each other through this Redis server, e.g. "
                        "redis://localhost:6379/0 (default: $PARLOUR_BUS)")
    parser.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                        help="also answer requests for this host name (repeatable)")
    parser.add_argument("--no-browser", action="store_true", help="do not open a browser")
    add_hosting_options(parser)
    parser.add_argument(
        "--sync", choices=SYNC_MODES, default=os.environ.get("PARLOUR_SYNC", SYNC_MODES[0]),
        help="normal (default; $PARLOUR_SYNC): each move is written to the system before it "
        "is acknowledged, so it survives the server being killed, and flushed to the disk "
        "within a second, so a power cut may lose the last second of moves. full: each move "
        "is flushed before it is acknowledged and survives a power cut too, at the cost of a "
        "flush per move (milliseconds, tens when the disk is busy)",
    )
    files = parser.add_mutually_exclusive_group()
    files.add_argument("--backup", type=Path, metavar="FILE",
                       help="write a backup of every game, result and picture to FILE "
                       "(- for standard output) and exit, without serving")
    files.add_argument("--restore", type=Path, metavar="FILE",
                       help="merge the backup FILE into the games kept (nothing kept is "
                       "changed; a game already here is skipped) and exit, without serving")
    return parser.parse_args(argv)


LIMIT_OPTIONS = {
    limits.Kind.MOVES: ("--moves-per-minute", "moves and other actions in games a minute"),
    limits.Kind.NEW_GAMES: ("--new-games-per-hour", "new games an hour"),
    limits.Kind.UPLOADS: ("--uploads-per-hour", "pictures uploaded and games imported an hour"),
    limits.Kind.UPLOAD_BYTES: ("--upload-mib-per-hour", "MiB of those an hour"),
}


def add_hosting_options(parser: argparse.ArgumentParser) -> None:
    """What a public host sets: its proxies, each client's rate limits, who reads /metrics."""
    hosting = parser.add_argument_group("hosting")
    hosting.add_argument(
        "--trusted-proxy", metavar="ADDR[,ADDR...]", type=networks,
        default=os.environ.get("PARLOUR_TRUSTED_PROXY", ""),
        help="the reverse proxies (addresses or networks, e.g. 127.0.0.1 or 10.0.0.0/8) "
        "whose X-Forwarded-For and X-Forwarded-Proto are believed; from any other peer "
        "they are ignored (default: none; $PARLOUR_TRUSTED_PROXY)")
    hosting.add_argument(
        "--metrics-from", metavar="ADDR[,ADDR...]", type=networks,
        default=os.environ.get("PARLOUR_METRICS_FROM", ""),
        help="addresses or networks, beside this machine, that may read /metrics "
        "(default: none; $PARLOUR_METRICS_FROM)")
    hosting.add_argument(
        "--shared", action="store_true", default=os.environ.get("PARLOUR_SHARED") == "1",
        help="many people play here: each browser's statistics, daily deals and past games "
        "are its own, not all this Parlour keeps (implied by --database; $PARLOUR_SHARED=1)")
    for kind, (option, what) in LIMIT_OPTIONS.items():
        hosting.add_argument(
            option, metavar="N", type=int, default=limits.configured(kind),
            help=f"each client's limit of {what} (default {limits.DEFAULTS[kind]}; "
            f"${limits.VARIABLES[kind]}; 0: no limit)")


def networks(text: str) -> str:
    """An option's `ADDR[,ADDR...]`, checked (argparse shows the ValueError's message)."""
    try:
        parse_networks(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def limit_rules(args: argparse.Namespace) -> limits.Rules:
    return limits.limit_rules(args.moves_per_minute, args.new_games_per_hour,
                              args.uploads_per_hour, args.upload_mib_per_hour)


def shared_limits(args: argparse.Namespace) -> limits.Limits:
    """The clients' rate limits: this process's own, or with --bus every process's,
    counted together in Redis."""
    if not args.bus:
        return limits.MemoryLimits(limit_rules(args))
    with hosted_extra():
        from parlour.server.limits.on_redis import RedisLimits
    return RedisLimits.from_url(args.bus, rules=limit_rules(args))


def bind(host: str, port: int | None) -> socket.socket:
    """A listening socket: the port asked for, or the first free one from the default."""
    candidates = [port] if port is not None else range(DEFAULT_PORT, DEFAULT_PORT + 20)
    # --port 0 asks the system for any free port (tests use it)
    for candidate in candidates:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        # IPPROTO_TCP, so that asyncio sets TCP_NODELAY on accepted connections: without
        # it a response's body waits ~40 ms for the client's delayed ACK.
        sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, candidate))
        except OSError as error:
            sock.close()
            if error.errno != errno.EADDRINUSE or port is not None:
                raise SystemExit(f"parlour: cannot listen on {host}:{candidate}: {error}") from None
            continue
        return sock
    raise SystemExit("parlour: no free port; choose one with --port")


def allowed_hosts(host: str, extra: list[str]) -> set[str]:
    """The names the server answers to: where it listens, the local names, and on every
    interface also this machine's name and addresses."""
    names = {*LOCAL_HOSTS, host.strip("[]"), *extra}
    if host in ("0.0.0.0", "::", ""):
        with contextlib.suppress(OSError):
            name, aliases, addresses = socket.gethostbyname_ex(socket.gethostname())
            names |= {name, *aliases, *addresses, socket.gethostname()}
    return {name.lower() for name in names if name}


def exposed_warning(host: str, hosts: set[str]) -> str:
    return (
        f"WARNING: Parlour listens on {host}, so other machines can reach it. It has no "
        "passwords: anyone who can reach it can list, watch and join games and upload "
        f"pictures. It answers to the names {', '.join(sorted(hosts))} "
        "(add one with --allow-host NAME). Use the default, 127.0.0.1, to play alone."
    )


def where_kept(args: argparse.Namespace) -> Path | str:
    """Where the games are kept: a PostgreSQL database's URL (--database, or
    $PARLOUR_DATABASE unless --db is given), or else a SQLite file."""
    if args.database:
        return str(args.database)
    if not args.db and os.environ.get(DATABASE_VARIABLE):
        return os.environ[DATABASE_VARIABLE]
    return args.db or default_path()


def open_store(where: Path | str, sync: str = SYNC_MODES[0]) -> Store:
    """The store kept `where`: a SQLite file, or a PostgreSQL database's URL."""
    try:
        if isinstance(where, str):
            with hosted_extra():
                from parlour.store.postgres import PostgresStore, Unreachable
            try:
                return PostgresStore(where)
            except Unreachable as error:
                raise SystemExit(f"parlour: {error}") from None
        return SqliteStore(where, sync)
    except NewerStore as error:
        raise SystemExit(f"parlour: {shown(where)}: {error}") from None


def hosting(store: Store, bus: str | None) -> Hosting | None:
    """With --bus, this process's part in a hosted Parlour of many processes."""
    if not bus:
        return None
    if isinstance(store, SqliteStore):
        raise SystemExit("parlour: --bus needs --database postgresql://...: the processes"
                         " must share their games")
    with hosted_extra():
        from parlour.server.hosted import Hosting
        from parlour.store.postgres import PostgresStore
    assert isinstance(store, PostgresStore)
    return Hosting(store, bus)


def shown(where: Path | str) -> str:
    """Where the games are kept, as printed: a URL without its password."""
    if isinstance(where, Path):
        return str(where)
    with hosted_extra():
        from parlour.store.postgres import shown as shown_url
    return shown_url(where)


@contextlib.contextmanager
def hosted_extra() -> Iterator[None]:
    """Around an import of parlour.store.postgres (imported only when a PostgreSQL
    database is asked for): without the hosted extra, a SystemExit that says so."""
    try:
        yield
    except ImportError as error:
        raise SystemExit(f"parlour: a PostgreSQL database needs the hosted extra ({error}):"
                         " pip install 'parlour[hosted]'") from None


def backup_to(store: Store, target: Path) -> str:
    """Write the store's backup to `target` (`-`: standard output); what was done."""
    data = asyncio.run(backup.backup_file(store, GAMES, time.time()))
    if str(target) == "-":
        sys.stdout.buffer.write(data)
        return f"Backup written ({len(data) / 2**20:.1f} MiB)"
    target.write_bytes(data)
    return f"Backup written to {target} ({len(data) / 2**20:.1f} MiB)"


def restore_from(store: Store, source: Path) -> str:
    """Merge the backup file `source` into the store; what it added, or SystemExit."""
    try:
        if source.stat().st_size > backup.BACKUP_LIMIT:
            raise SystemExit(f"parlour: {source}: over {backup.BACKUP_LIMIT // 2**20} MiB, "
                             "more than a backup may be; nothing was restored")
        data = source.read_bytes()
    except OSError as error:
        raise SystemExit(f"parlour: {source}: {error.strerror}") from None
    try:
        report = asyncio.run(backup.restore(store, GAMES, data, time.time(),
                                            backup.replay_in_place))
    except ApiError as error:
        raise SystemExit(f"parlour: {source}: {error.message.rstrip('.')}."
                         " Nothing was changed.") from None
    return (f"Restored {counted(report.games_added, 'game')}, "
            f"{counted(report.results_added, 'result')} and "
            f"{counted(report.pictures_added, 'picture')}; "
            f"{counted(report.games_already_here, 'game')} already here")



def db_command(argv: list[str]) -> None:
    """`parlour db migrate`: create or upgrade a PostgreSQL database's schema; `parlour
    db copy`: merge one store's games into another."""
    parser = argparse.ArgumentParser(
        prog="parlour db", description="Look after a PostgreSQL database of Parlour's.")
    parser.add_argument("action", choices=["migrate", "copy"],
                        help="migrate: create the schema, or upgrade it to this Parlour's;"
                        " copy: add the games, results and pictures kept --from one store"
                        " to those kept --to another (nothing there is changed; a game"
                        " there already is skipped; a clash copies nothing)")
    parser.add_argument("--database", metavar="URL", default=os.environ.get(DATABASE_VARIABLE),
                        help="the database, e.g. postgresql://parlour@localhost/parlour"
                        " (default: $PARLOUR_DATABASE)")
    parser.add_argument("--from", dest="source", metavar="FILE_OR_URL",
                        help="copy: a SQLite file or a postgresql:// URL to copy from")
    parser.add_argument("--to", dest="target", metavar="FILE_OR_URL",
                        help="copy: a SQLite file or a postgresql:// URL to copy to")
    args = parser.parse_args(argv)
    if args.action == "copy":
        if not args.source or not args.target:
            parser.error("copy from where to where? give --from and --to")
        print(copy_command(store_place(args.source), store_place(args.target)))
        return
    if not args.database:
        parser.error("which database? give --database URL or set $PARLOUR_DATABASE")
    with hosted_extra():
        from parlour.store.postgres import Unreachable, migrate_database
    try:
        before, now = migrate_database(args.database)
    except NewerStore as error:
        raise SystemExit(f"parlour: {shown(args.database)}: {error}") from None
    except Unreachable as error:
        raise SystemExit(f"parlour: {error}") from None
    if before == now:
        print(f"The schema is at version {now} already: nothing to do.")
    elif before == 0:
        print(f"Schema version {now} created.")
    else:
        print(f"Schema upgraded from version {before} to {now}.")


def store_place(text: str) -> Path | str:
    """A PostgreSQL database's URL as it is, anything else a SQLite file."""
    return text if text.startswith(("postgresql://", "postgres://")) else Path(text)


def copy_command(source: Path | str, target: Path | str) -> str:
    """`parlour db copy`: what it copied, or SystemExit saying why nothing was."""
    if isinstance(source, Path) and not source.is_file():
        raise SystemExit(f"parlour: {source}: no such SQLite file to copy from")
    if shown(source) == shown(target):
        raise SystemExit("parlour: --from and --to are the same store")
    from parlour.server.hub.copying import copy_store

    opened = open_store(source)
    try:
        into = open_store(target)
        try:
            report = copy_store(opened, into, GAMES, time.time())
        except ApiError as error:
            why = error.message.removeprefix("This backup cannot be restored: ").rstrip(".")
            raise SystemExit(f"parlour: cannot copy into {shown(target)}: {why}."
                             " Nothing was copied.") from None
        finally:
            into.close()
    finally:
        opened.close()
    return (f"Copied {counted(report.games_added, 'game')}, "
            f"{counted(report.results_added, 'result')} and "
            f"{counted(report.pictures_added, 'picture')} from {shown(source)} to "
            f"{shown(target)}; {counted(report.games_already_here, 'game')} there already.")


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["db"]:
        db_command(argv[1:])
        return
    args = parse_args(argv)
    db = where_kept(args)
    if args.backup or args.restore:
        store = open_store(db, args.sync)
        try:
            done = backup_to(store, args.backup) if args.backup else restore_from(
                store, args.restore)
        finally:
            store.close()
        print(f"{done} ({shown(db)}).", file=sys.stderr if str(args.backup) == "-" else sys.stdout)
        return
    sock = bind(args.host, args.port)
    port = sock.getsockname()[1]
    shown_host = f"[{args.host}]" if ":" in args.host else args.host
    address = f"http://{shown_host}:{port}/"
    hosts = allowed_hosts(args.host, args.allow_host)
    if args.host not in LOCAL_HOSTS:
        print(exposed_warning(args.host, hosts), file=sys.stderr, flush=True)
    compute = Compute()
    store = open_store(db, args.sync)
    hosted = hosting(store, args.bus)
    app = create_app(store, GAMES, allowed_hosts=hosts, compute=compute,
                     trusted_proxies=[args.trusted_proxy], metrics_from=[args.metrics_from],
                     limits=shared_limits(args), hosting=hosted,
                     shared=args.shared or isinstance(db, str))  # PostgreSQL: hosted
    server = uvicorn.Server(uvicorn.Config(
        app, log_level="warning", ws_ping_interval=20, ws_ping_timeout=20,
        proxy_headers=False,  # the app reads them, from --trusted-proxy only (api/proxies.py)
        ws_max_size=WS_MESSAGE_LIMIT * 4,  # UTF-8: up to 4 bytes a character
        ws_per_message_deflate=False,  # on loopback, compressing costs more than it saves
    ))

    collector = Collector()

    def tidy() -> None:
        collector.stop()
        compute.close()

    async def serve() -> None:
        task = asyncio.create_task(server.serve(sockets=[sock]))
        while not server.started and not task.done():
            await asyncio.sleep(0.01)
        if server.started:
            collector.start()
            print(f"Parlour is ready at {address}  (games saved in {shown(db)}; Ctrl+C stops)",
                  flush=True)
            if not args.no_browser:
                webbrowser.open(address)
            # the workers start once the first page has had the machine to itself
            asyncio.get_running_loop().call_later(WARM_UP_DELAY, compute.warm_up)
        try:
            await task
        finally:
            tidy()

    with (
        contextlib.suppress(KeyboardInterrupt),
        tidied_before_sigterm(tidy),
        asyncio.Runner(loop_factory=_loop_factory()) as runner,
    ):
        runner.run(serve())


@contextlib.contextmanager
def tidied_before_sigterm(tidy: Callable[[], None]) -> Iterator[None]:
    """uvicorn answers SIGTERM (a service manager's stop) by shutting down gracefully and
    then raising the signal again, so that the process dies of it, as expected, before
    the code after `serve` runs: the worker processes would be left to the resource
    tracker, which warns of leaked semaphores. This handler, which uvicorn puts back
    before raising the signal, tidies up first and then dies of the signal."""
    def handler(signum: int, frame: FrameType | None) -> None:
        tidy()
        signal.signal(signum, signal.SIG_DFL)
        signal.raise_signal(signum)

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop when installed (uvicorn[standard] brings it): a faster event loop."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


if __name__ == "__main__":
    main()
