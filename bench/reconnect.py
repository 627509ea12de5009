"""Reconnect: from a killed server's restart to its game page connected again.

A Minesweeper page is open on a server, which is killed (SIGKILL, a crash) and started
again on the same port and file after `--down` seconds, as a restart by hand; the clock
runs from the new server's "ready at" line to the page's "reconnecting…" badge gone, with
no help from the player (no reload, no click).

Run from the repository root:  .venv/bin/python -m bench.reconnect
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

from bench.common import free_port, heading, report
from tests.support.chromium import launch_chromium
from tests.support.servers import start_server

TIMEOUT_MS = 30_000


def main() -> None:
    parser = argparse.ArgumentParser(description="Time a page's reconnection after a restart.")
    parser.add_argument("--runs", type=int, default=9, help="restarts timed (default 9)")
    parser.add_argument("--down", type=float, default=3.0,
                        help="seconds the server stays down (default 3)")
    args = parser.parse_args()
    port = free_port()
    samples: list[float] = []
    with tempfile.TemporaryDirectory(prefix="parlour-bench-") as name, sync_playwright() as pw:
        db = Path(name) / "parlour.sqlite3"
        browser = launch_chromium(pw)
        server = start_server(db, port=port)
        try:
            page = browser.new_page()
            page.goto(f"{server.url}/play/minesweeper")
            page.wait_for_function("Number(document.body?.dataset.views || 0) >= 1")
            offline = page.locator("#offline")
            for run in range(args.runs):
                server.kill()
                offline.wait_for(state="visible", timeout=TIMEOUT_MS)
                time.sleep(args.down)
                server = start_server(db, port=port)
                back = time.perf_counter()
                offline.wait_for(state="hidden", timeout=TIMEOUT_MS)
                samples.append((time.perf_counter() - back) * 1000)
                print(f"  restart {run + 1:2d}: connected again {samples[-1]:7.1f} ms after")
        finally:
            server.stop()
            browser.close()
    heading(f"Reconnect, {args.runs} restarts after {args.down:g} s down")
    report("server ready -> page connected", samples)


if __name__ == "__main__":
    main()
