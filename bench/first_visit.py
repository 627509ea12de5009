"""First visit: each game's page opened right after the server has started.

Each run spawns `python -m parlour --no-browser --port 0 --db <fresh file>`, waits for its
"ready at URL" line, and at once loads URL/play/GAME in a tab of a Chromium launched
beforehand, as a player who starts Parlour and opens a game does. It times, from the
navigation: the page's POST /api/games answered, the socket's first view received, and
the board shown (`document.body.dataset.views` set); and what the status line said
meanwhile. Minesweeper's no-guess board lays its mines at the first click, in a worker:
that click is timed too (from the click to the next view). Then the same page is loaded
again on the same server (a later visit) for comparison.

Run from the repository root:  .venv/bin/python -m bench.first_visit [--runs 3] [--game escalator]
Target: a first visit shows its board as soon as a later one does (within ~0.3 s of it),
and no page shows an empty table for over half a second without saying why.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from bench.common import heading, unpaced
from tests.support.chromium import launch_chromium
from tests.support.servers import wait_until_ready

TIMEOUT_S = 30.0
CASES: dict[str, tuple[str, dict[str, Any] | None]] = {
    # label: (game, the New game choices the page remembers, None: a newcomer's)
    "escalator": ("escalator", None),
    "ishido": ("ishido", None),
    "tribolo": ("tribolo", None),
    "sliding": ("sliding", None),
    "minesweeper": ("minesweeper", None),
    "minesweeper no-guess": ("minesweeper", {"params": {"first_click": "no_guess"}}),
    "tictactoe": ("tictactoe", None),
}
# the page's timings, from its navigation: POST /api/games answered, the first message
# with a view, the board shown; and every text the status line showed before the board
WATCH = """() => {
  window.__seen = {notes: []};
  const original = window.fetch;
  window.fetch = async (...args) => {
    const answer = await original(...args);
    const created = String(args[0]).endsWith('/api/games');
    if (created && !window.__seen.created) window.__seen.created = performance.now();
    return answer;
  };
  const Socket = window.WebSocket;
  window.WebSocket = class extends Socket {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (event) => {
        const view = event.data.includes('"type":"view"');
        if (view && !window.__seen.view) window.__seen.view = performance.now();
      });
    }
  };
  const note = () => {
    const text = ['headline', 'message'].map((id) => document.getElementById(id))
      .map((line) => (line ? line.textContent.trim() : '')).filter(Boolean).join(' / ');
    const panel = document.querySelector('.progress-panel:not([hidden]) .progress-what');
    const said = [text, panel ? panel.textContent : ''].filter(Boolean).join(' | ');
    const last = window.__seen.notes[window.__seen.notes.length - 1];
    const at = Math.round(performance.now());
    if (said && (!last || last[1] !== said)) window.__seen.notes.push([at, said]);
    if (!document.body || document.body.dataset.views === undefined) requestAnimationFrame(note);
  };
  requestAnimationFrame(note);
}"""


def spawn(db: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "parlour", "--no-browser", "--port", "0", "--db", str(db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )


def visit(browser: Any, url: str, game: str, choices: dict[str, Any] | None) -> dict[str, Any]:
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    if choices is not None:
        context.add_init_script(
            f"localStorage.setItem('parlour.new.{game}', {json.dumps(json.dumps(choices))})")
    context.add_init_script(f"({WATCH})()")
    page = context.new_page()
    try:
        page.goto(f"{url}/play/{game}")
        page.wait_for_function("() => document.body.dataset.views !== undefined",
                               timeout=TIMEOUT_S * 1000)
        shown = page.evaluate("() => performance.now()")
        seen = page.evaluate("() => window.__seen")
        figures = {"created": seen.get("created"), "view": seen.get("view"), "shown": shown,
                   "notes": seen["notes"]}
        if choices is not None:  # the no-guess board's first click lays the mines
            views = int(page.evaluate("() => document.body.dataset.views"))
            cell = page.locator("#board [data-move]").nth(40)
            before = time.perf_counter()
            cell.click()
            page.wait_for_function(f"() => Number(document.body.dataset.views) > {views}",
                                   timeout=TIMEOUT_S * 1000)
            figures["click"] = (time.perf_counter() - before) * 1000
        return figures
    finally:
        context.close()


def one_run(browser: Any, folder: Path, index: int, game: str,
            choices: dict[str, Any] | None) -> tuple[dict[str, Any], dict[str, Any]]:
    process = spawn(folder / f"run-{index}.sqlite3")
    try:
        url = wait_until_ready(process, TIMEOUT_S)
        first = visit(browser, url, game, choices)
        time.sleep(3)  # whatever the server starts in the background has started
        later = visit(browser, url, game, choices)
    finally:
        process.terminate()
        process.wait(10)
    return first, later


def main() -> None:
    unpaced()
    parser = argparse.ArgumentParser(
        description="Time each game's first visit after a server start.")
    parser.add_argument("--runs", type=int, default=3, help="fresh servers per game (default 3)")
    parser.add_argument("--game", action="append", choices=sorted(CASES),
                        help="only this case (repeatable; default all)")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory(prefix="parlour-bench-") as name, sync_playwright() as pw:
        folder = Path(name)
        browser = launch_chromium(pw)
        try:
            visit_warm = spawn(folder / "warm.sqlite3")  # the OS file cache, Chromium's first tab
            try:
                visit(browser, wait_until_ready(visit_warm, TIMEOUT_S), "tictactoe", None)
            finally:
                visit_warm.terminate()
                visit_warm.wait(10)
            for label in args.game or list(CASES):
                game, choices = CASES[label]
                firsts, laters = [], []
                for index in range(args.runs):
                    first, later = one_run(browser, folder, index, game, choices)
                    firsts.append(first)
                    laters.append(later)
                    notes = "; ".join(f"{at} ms {text!r}" for at, text in first["notes"])
                    click = f", first click {first['click']:.0f} ms" if "click" in first else ""
                    print(f"  {label:<21} run {index + 1}: POST {first['created'] or 0:6.0f},"
                          f" view {first['view'] or 0:6.0f}, board {first['shown']:6.0f} ms"
                          f"{click} (later visit: board {later['shown']:5.0f} ms);"
                          f" status line: {notes or '-'}")
                rows.append((label, firsts, laters))
        finally:
            browser.close()
    heading(f"First visit after a fresh server start, median of {args.runs} (ms from navigation)")
    print(f"{'game':<22}{'POST answered':>14}{'first view':>12}{'board shown':>13}"
          f"{'first click':>13}{'later visit':>13}")
    for label, firsts, laters in rows:
        def median(key: str, runs: list[dict[str, Any]] = firsts) -> str:
            values = [run[key] for run in runs if run.get(key) is not None]
            return f"{statistics.median(values):.0f}" if values else "-"
        print(f"{label:<22}{median('created'):>14}{median('view'):>12}{median('shown'):>13}"
              f"{median('click'):>13}{median('shown', laters):>13}")


if __name__ == "__main__":
    main()
