"""Click-to-updated-board latency in Chromium, on the Tic-Tac-Toe page.

A real `parlour` process serves a two-player game (both seats held by this browser).
Each sample runs inside the page, so no Playwright round trip is counted: note
performance.now(), dispatch a click on a playable cell `#ttt-X-Y`, wait until the page
applies the server's new view (`document.body.dataset.views` goes up, seen by a
MutationObserver), then wait one requestAnimationFrame so the frame can be painted.
The click goes over the WebSocket, the server saves the move and pushes the view back.
When a game ends, Restart (#btn-restart) starts the board afresh.

Run from the repository root:  .venv/bin/python -m bench.click_latency
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Page, sync_playwright

from bench.common import heading, report, share_under
from parlour.devtools import launch_chromium, start_server

FRAME_MS = 16.0
WARMUP = 20

# Click `selector` (or the first playable cell when it is null) and time the new view.
MEASURE = """
async ([selector, pick]) => {
  let target = selector ? document.querySelector(selector) : null;
  if (!target) {
    const playable = [...document.querySelectorAll("#board [data-move]")];
    if (playable.length === 0) return null;
    target = playable[Math.floor(pick * playable.length)];
  }
  const before = Number(document.body.dataset.views);
  return await new Promise((resolve, reject) => {
    let t0 = 0;
    const timer = setTimeout(() => {
      observer.disconnect();
      reject(new Error(`no new view within 5 s after clicking #${target.id}`));
    }, 5000);
    const observer = new MutationObserver(() => {
      if (Number(document.body.dataset.views) <= before) return;
      const viewed = performance.now();
      observer.disconnect();
      clearTimeout(timer);
      requestAnimationFrame(() => {
        resolve({ id: target.id, view: viewed - t0, frame: performance.now() - t0 });
      });
    });
    observer.observe(document.body, { attributes: true, attributeFilter: ["data-views"] });
    t0 = performance.now();
    target.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
  });
}
"""


def new_game(url: str) -> tuple[str, str]:
    reply = httpx.post(
        f"{url}/api/games", json={"game": "tictactoe", "seats": ["human", "human"]}, timeout=30
    )
    reply.raise_for_status()
    body = reply.json()
    return body["session"], body["token"]


def open_game(browser: Any, url: str, errors: list[str]) -> Page:
    """A page on a new two-player game whose token the browser already holds."""
    sid, token = new_game(url)
    context = browser.new_context()
    tokens = json.dumps(json.dumps({sid: token}))
    context.add_init_script(f"localStorage.setItem('parlour.tokens', {tokens});")
    page: Page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{url}/play/tictactoe?session={sid}")
    page.wait_for_function("() => document.body.dataset.views !== undefined")
    return page


def measure(page: Page, selector: str | None, pick: float) -> dict[str, Any] | None:
    result: dict[str, Any] | None = page.evaluate(MEASURE, [selector, pick])
    return result


def run(samples: int, seed: int) -> dict[str, list[float]]:
    """Click through games until `samples` moves are timed (after a warm-up)."""
    rng = random.Random(seed)
    figures: dict[str, list[float]] = {"view": [], "frame": [], "restart": []}
    errors: list[str] = []
    with tempfile.TemporaryDirectory(prefix="parlour-bench-") as folder:
        server = start_server(Path(folder) / "bench.sqlite3")
        try:
            with sync_playwright() as playwright:
                browser = launch_chromium(playwright)
                try:
                    page = open_game(browser, server.url, errors)
                    taken = 0
                    while taken < samples + WARMUP:
                        clicked = measure(page, None, rng.random())
                        if clicked is None:  # the game is over: start it again
                            restarted = measure(page, "#btn-restart", 0.0)
                            if restarted is None:
                                raise RuntimeError("no Restart button")
                            figures["restart"].append(restarted["frame"])
                            continue
                        taken += 1
                        if taken > WARMUP:
                            figures["view"].append(clicked["view"])
                            figures["frame"].append(clicked["frame"])
                finally:
                    browser.close()
        finally:
            server.stop()
    if errors:
        raise RuntimeError("errors in the page: " + "; ".join(errors))
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description="Time click to updated board in Chromium.")
    parser.add_argument("--samples", type=int, default=400, help="moves to time (default 400)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    figures = run(args.samples, args.seed)
    heading(f"Chromium, /play/tictactoe, click -> new view ({len(figures['frame'])} clicks)")
    report("click -> view applied (DOM updated)", figures["view"])
    report("click -> view applied + 1 animation frame", figures["frame"])
    report("Restart (#btn-restart) -> empty board", figures["restart"])
    print(f"  share under {FRAME_MS:.0f} ms: view applied "
          f"{share_under(figures['view'], FRAME_MS):.1%}, with the frame "
          f"{share_under(figures['frame'], FRAME_MS):.1%}")


if __name__ == "__main__":
    main()
