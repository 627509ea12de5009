"""Click-to-updated-board latency in Chromium, on each game's largest board.

A real `parlour` process serves the game (every seat held by this browser). Each sample
runs inside the page, so no Playwright round trip is counted: note performance.now(),
dispatch a click (or, for Ishido, a drag and drop) on the board, wait until the page
applies the server's new view (`document.body.dataset.views` goes up, seen by a
MutationObserver), then wait one requestAnimationFrame so the frame can be painted.
The action goes over the WebSocket, the server saves the move and pushes the view back.

- tictactoe: random playable cells; Restart when a game ends.
- minesweeper: 16x30 boards. "expert first click" opens an area of a 99-mine board
  (first_click=opening); "expert click" opens random closed cells after it; "whole-board
  flood" is the first click on a 10-mine 16x30 board, which opens nearly every cell.
- ishido: drag the next tile onto a cell where it fits (the assist marks show where).

Run from the repository root:  .venv/bin/python -m bench.click_latency [--game NAME]
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
PLAYABLE_CELLS = '#board [aria-disabled="false"] .closed[data-move]'  # Minesweeper
WARMUP = 20

# Click `selector` (or a random cell among those `pool` selects) and time the new view.
MEASURE = """
async ([selector, pick, pool]) => {
  let target = selector ? document.querySelector(selector) : null;
  if (!target) {
    const playable = [...document.querySelectorAll(pool)];
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


# Drag the next tile onto a random cell marked valid, timing from the drop.
DRAG = """
async (pick) => {
  const source = document.querySelector("#ish-next[data-drag]");
  const cells = [...document.querySelectorAll("#board .valid[data-drop]")];
  if (!source || cells.length === 0) return null;
  const target = cells[Math.floor(pick * cells.length)];
  const centre = (el) => {
    const box = el.getBoundingClientRect();
    return [box.left + box.width / 2, box.top + box.height / 2];
  };
  const [sx, sy] = centre(source), [tx, ty] = centre(target);
  const pointer = (type, x, y, where) => where.dispatchEvent(new PointerEvent(type,
    { bubbles: true, cancelable: true, clientX: x, clientY: y, button: 0, pointerType: "mouse" }));
  pointer("pointerdown", sx, sy, source);
  pointer("pointermove", (sx + tx) / 2, (sy + ty) / 2, document);
  pointer("pointermove", tx, ty, document);
  const before = Number(document.body.dataset.views);
  return await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no new view within 5 s of a drop")), 5000);
    const observer = new MutationObserver(() => {
      if (Number(document.body.dataset.views) <= before) return;
      const viewed = performance.now();
      observer.disconnect(); clearTimeout(timer);
      requestAnimationFrame(() => resolve(
        { id: target.id, view: viewed - t0, frame: performance.now() - t0 }));
    });
    observer.observe(document.body, { attributes: true, attributeFilter: ["data-views"] });
    const t0 = performance.now();
    pointer("pointerup", tx, ty, document);
  });
}
"""


def new_game(url: str, game: str, options: dict[str, Any]) -> tuple[str, str]:
    reply = httpx.post(f"{url}/api/games", json={"game": game, **options}, timeout=30)
    reply.raise_for_status()
    body = reply.json()
    return body["session"], body["token"]


def open_game(browser: Any, url: str, errors: list[str], game: str = "tictactoe",
              options: dict[str, Any] | None = None) -> Page:
    """A page on a new game whose every seat this browser holds."""
    chosen = options if options is not None else {"seats": ["human", "human"]}
    sid, token = new_game(url, game, chosen)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    tokens = json.dumps(json.dumps({sid: token}))
    context.add_init_script(f"localStorage.setItem('parlour.tokens', {tokens});")
    page: Page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{url}/play/{game}?session={sid}")
    page.wait_for_function("() => document.body.dataset.views !== undefined")
    return page


def measure(page: Page, selector: str | None, pick: float,
            pool: str = "#board [data-move]") -> dict[str, Any] | None:
    """Click `selector`, or else the cell at `pick` (0-1) among those `pool` selects."""
    result: dict[str, Any] | None = page.evaluate(MEASURE, [selector, pick, pool])
    return result


def run(game: str, samples: int, seed: int) -> dict[str, list[float]]:
    """Time `samples` actions of `game` (after a warm-up) against a real server."""
    rng = random.Random(seed)
    errors: list[str] = []
    with tempfile.TemporaryDirectory(prefix="parlour-bench-") as folder:
        server = start_server(Path(folder) / "bench.sqlite3")
        try:
            with sync_playwright() as playwright:
                browser = launch_chromium(playwright)
                try:
                    play = {"tictactoe": tictactoe, "minesweeper": minesweeper,
                            "ishido": ishido}[game]
                    figures = play(browser, server.url, errors, samples, rng)
                finally:
                    browser.close()
        finally:
            server.stop()
    if errors:
        raise RuntimeError("errors in the page: " + "; ".join(errors))
    return figures


def tictactoe(browser: Any, url: str, errors: list[str], samples: int,
              rng: random.Random) -> dict[str, list[float]]:
    figures: dict[str, list[float]] = {"view": [], "frame": [], "restart": []}
    page = open_game(browser, url, errors)
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
    return figures


def minesweeper(browser: Any, url: str, errors: list[str], samples: int,
                rng: random.Random) -> dict[str, list[float]]:
    figures: dict[str, list[float]] = {}
    expert = {"params": {"rows": 16, "cols": 30, "mines": 99, "first_click": "opening"}}
    sparse = {"params": {"rows": 16, "cols": 30, "mines": 10, "first_click": "opening"}}
    while len(figures.get("expert click -> view", [])) < samples:
        page = open_game(browser, url, errors, "minesweeper", expert)
        record(figures, "expert first click", measure(page, "#ms-7-14", 0.0))
        for _ in range(40):  # random closed cells until the game ends
            clicked = measure(page, None, rng.random(), PLAYABLE_CELLS)
            if clicked is None:
                break
            record(figures, "expert click", clicked)
        page.context.close()
    for _ in range(max(10, samples // 20)):
        page = open_game(browser, url, errors, "minesweeper", sparse)
        record(figures, "whole-board flood", measure(page, "#ms-8-15", 0.0))
        page.context.close()
    return figures


def record(figures: dict[str, list[float]], kind: str, sample: dict[str, Any] | None) -> None:
    """Keep a sample's time to the view applied and to the next animation frame."""
    assert sample is not None, f"{kind}: nothing to click"
    figures.setdefault(f"{kind} -> view", []).append(sample["view"])
    figures.setdefault(f"{kind} -> view + frame", []).append(sample["frame"])


def ishido(browser: Any, url: str, errors: list[str], samples: int,
           rng: random.Random) -> dict[str, list[float]]:
    figures: dict[str, list[float]] = {"drop -> view": [], "drop -> view + frame": []}
    while len(figures["drop -> view"]) < samples:
        page = open_game(browser, url, errors, "ishido", {})
        page.keyboard.press("a")  # assist marks the cells where the tile fits
        page.wait_for_selector("#board .valid")
        while len(figures["drop -> view"]) < samples:
            dropped: dict[str, Any] | None = page.evaluate(DRAG, rng.random())
            if dropped is None:
                break
            figures["drop -> view"].append(dropped["view"])
            figures["drop -> view + frame"].append(dropped["frame"])
        page.context.close()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description="Time click to updated board in Chromium.")
    parser.add_argument("--samples", type=int, default=400, help="moves to time (default 400)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", default="tictactoe",
                        choices=("tictactoe", "minesweeper", "ishido"))
    args = parser.parse_args()
    figures = run(args.game, args.samples, args.seed)
    heading(f"Chromium, /play/{args.game}: action -> updated board (ms)")
    for label, samples in figures.items():
        if samples:
            report(label, samples)
            print(f"  {share_under(samples, FRAME_MS):.1%} under {FRAME_MS:.0f} ms")


if __name__ == "__main__":
    main()
