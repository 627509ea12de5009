"""Startup: from running the start command to a playable Tic-Tac-Toe page.

Each run spawns `python -m parlour --no-browser --port 0 --db <fresh file>`, reads its
output until the "ready at URL" line, then loads URL/play/tictactoe in a tab of a
Chromium that was launched beforehand, and stops the clock when the page has shown its
first view (`document.body.dataset.views` is set: the board is there and playable).

Run from the repository root:  .venv/bin/python -m bench.startup
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from bench.common import heading, report, unpaced
from tests.support.chromium import launch_chromium
from tests.support.servers import wait_until_ready

TIMEOUT_S = 30.0


def spawn(db: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "parlour", "--no-browser", "--port", "0", "--db", str(db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )


def one_run(browser: Any, folder: Path, index: int) -> tuple[float, float]:
    """Milliseconds from spawn to the ready line, and from spawn to a playable page."""
    context = browser.new_context()
    page = context.new_page()  # an open tab, as the user would have
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    started = time.perf_counter()
    process = spawn(folder / f"run-{index}.sqlite3")
    try:
        url = wait_until_ready(process, TIMEOUT_S)
        ready = time.perf_counter()
        page.goto(f"{url}/play/tictactoe")
        page.wait_for_function(
            "() => document.body && document.body.dataset.views !== undefined",
            timeout=TIMEOUT_S * 1000,
        )
        usable = time.perf_counter()
    finally:
        context.close()
        process.terminate()
        process.wait(10)
    if errors:
        raise RuntimeError("errors in the page: " + "; ".join(errors))
    return (ready - started) * 1000, (usable - started) * 1000


def main() -> None:
    unpaced()
    parser = argparse.ArgumentParser(description="Time Parlour from start command to usable page.")
    parser.add_argument("--runs", type=int, default=12, help="timed runs (default 12)")
    args = parser.parse_args()
    ready: list[float] = []
    usable: list[float] = []
    with tempfile.TemporaryDirectory(prefix="parlour-bench-") as name, sync_playwright() as pw:
        folder = Path(name)
        browser = launch_chromium(pw)
        try:
            one_run(browser, folder, -1)  # warm-up: the OS file cache, Chromium's first tab
            for index in range(args.runs):
                at_ready, at_usable = one_run(browser, folder, index)
                ready.append(at_ready)
                usable.append(at_usable)
                print(f"  run {index + 1:2d}: ready line {at_ready:7.1f} ms,"
                      f" playable page {at_usable:7.1f} ms")
        finally:
            browser.close()
    page_load = [total - first for first, total in zip(ready, usable, strict=True)]
    heading(f"Startup, {args.runs} runs (fresh database each run, one warm-up run not counted)")
    report("spawn -> 'ready at URL' line", ready)
    report("ready line -> playable page", page_load)
    report("spawn -> playable /play/tictactoe", usable)
    print(f"  spawn -> playable page: median {statistics.median(usable):.1f} ms,"
          f" max {max(usable):.1f} ms; ready line alone: median"
          f" {statistics.median(ready):.1f} ms, max {max(ready):.1f} ms")


if __name__ == "__main__":
    main()
