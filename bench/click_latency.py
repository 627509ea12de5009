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
- tribolo: three browsers (one per seat, each its own context, as three people on their
  invite links) play random legal cells; a sample is a click in the mover's browser until
  the view is applied, and the next frame painted, in *every* browser (times compared
  through performance.timeOrigin, one clock for the machine). A new game when one ends.
- sliding: an 8x8 board cut from an uploaded photo (made here with Pillow, 1200x1200),
  shuffled at random. "click" clicks a random tile in the gap's row or column (a whole
  line slides); "drag" drags the tile next to the gap toward it with pointer events, timed
  from the release. A new game when one is solved (never, in practice).

Run from the repository root:  .venv/bin/python -m bench.click_latency [--game NAME]
"""

from __future__ import annotations

import argparse
import io
import json
import random
import tempfile
from pathlib import Path
from typing import Any

import httpx
from PIL import Image
from playwright.sync_api import Page, sync_playwright

from bench.common import heading, report, share_under
from parlour.devtools import launch_chromium, start_server
from parlour.games.tribolo.rules import board_from_rows, cells, legal_moves, position

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
                            "ishido": ishido, "tribolo": tribolo, "sliding": sliding}[game]
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


# A tile of the sliding puzzle that can slide now: in the gap's row or column (its id), or
# with `adjacent`, next to the gap, with where to drag it from and to.
SLIDABLE = """
([pick, adjacent]) => {
  const at = (el) => ["--r", "--c"].map((name) => Number(el.style.getPropertyValue(name)));
  const [gr, gc] = at(document.querySelector("#sl-gap"));
  const tiles = [...document.querySelectorAll(".sl-tile")].filter((tile) => {
    const [r, c] = at(tile);
    return adjacent ? Math.abs(r - gr) + Math.abs(c - gc) === 1 : r === gr || c === gc;
  });
  const tile = tiles[Math.floor(pick * tiles.length)];
  const box = tile.getBoundingClientRect();
  const gap = document.querySelector("#sl-gap").getBoundingClientRect();
  return { id: tile.id, from: [box.left + box.width / 2, box.top + box.height / 2],
           to: [gap.left + gap.width / 2, gap.top + gap.height / 2] };
}
"""

# Drag a tile toward the gap with pointer events; time from the release.
SLIDE_DRAG = """
async ({ id, from, to }) => {
  const tile = document.getElementById(id);
  const pointer = (type, [x, y], where) => where.dispatchEvent(new PointerEvent(type, {
    bubbles: true, cancelable: true, clientX: x, clientY: y, button: 0, pointerType: "touch",
  }));
  pointer("pointerdown", from, tile);
  pointer("pointermove", to, document);
  const before = Number(document.body.dataset.views);
  return await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no new view within 5 s of a drag")), 5000);
    const observer = new MutationObserver(() => {
      if (Number(document.body.dataset.views) <= before) return;
      const viewed = performance.now();
      observer.disconnect(); clearTimeout(timer);
      requestAnimationFrame(() => resolve(
        { id, view: viewed - t0, frame: performance.now() - t0 }));
    });
    observer.observe(document.body, { attributes: true, attributeFilter: ["data-views"] });
    const t0 = performance.now();
    pointer("pointerup", to, tile);
  });
}
"""


def sliding(browser: Any, url: str, errors: list[str], samples: int,
            rng: random.Random) -> dict[str, list[float]]:
    figures: dict[str, list[float]] = {}
    options = {"params": {"rows": 8, "cols": 8, "shuffle": "random",
                          "picture": upload_photo(url)}}
    page = open_game(browser, url, errors, "sliding", options)
    for taken in range(samples + WARMUP):
        if page.locator("#sl.won").count():
            page = open_game(browser, url, errors, "sliding", options)
        click = page.evaluate(SLIDABLE, [rng.random(), False])
        clicked = measure(page, f"#{click['id']}", 0.0)
        page.wait_for_timeout(150)  # the slide's animation ends: a drag starts from rest
        drag = page.evaluate(SLIDABLE, [rng.random(), True])
        dragged: dict[str, Any] | None = page.evaluate(SLIDE_DRAG, drag)
        if taken >= WARMUP:
            record(figures, "8x8 photo: click", clicked)
            record(figures, "8x8 photo: drag", dragged)
    return figures


def upload_photo(url: str) -> str:
    """A 1200x1200 photo-like picture (smooth colours and noise), uploaded: its id."""
    noise = random.Random(0)
    image = Image.effect_mandelbrot((1200, 1200), (-2.0, -1.5, 1.0, 1.5), 60).convert("RGB")
    image = Image.merge("RGB", (image.getchannel(0),
                                Image.linear_gradient("L").resize((1200, 1200)),
                                Image.effect_noise((1200, 1200), 40 + noise.random())))
    encoded = io.BytesIO()
    image.save(encoded, "JPEG", quality=90)
    reply = httpx.post(f"{url}/api/uploads", content=encoded.getvalue(),
                       headers={"Content-Type": "image/jpeg"}, timeout=30)
    reply.raise_for_status()
    upload: str = reply.json()["upload"]
    return upload


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


# In each Tribolo browser: keep when the last view was applied and its frame painted.
WATCH_VIEWS = """
() => {
  new MutationObserver(() => {
    window.viewedAt = performance.timeOrigin + performance.now();
    requestAnimationFrame(() => { window.paintedAt = performance.timeOrigin + performance.now(); });
  }).observe(document.body, { attributes: true, attributeFilter: ["data-views"] });
}
"""

VIEW_COUNT = "Number(document.body.dataset.views)"

CLICK_AT = """
(id) => {
  const t0 = performance.timeOrigin + performance.now();
  const click = new MouseEvent("click", { bubbles: true, cancelable: true });
  document.getElementById(id).dispatchEvent(click);
  return t0;
}
"""


def tribolo(browser: Any, url: str, errors: list[str], samples: int,
            rng: random.Random) -> dict[str, list[float]]:
    figures: dict[str, list[float]] = {"click -> all 3 views": [], "click -> all 3 painted": [],
                                       "click -> slowest other browser": []}
    taken = 0
    while taken < samples + WARMUP:
        pages = three_browsers(browser, url, errors)
        while taken < samples + WARMUP:
            view = httpx.get(f"{url}/api/games/{pages[0][0]}", timeout=30).json()
            if view["status"] != "playing":
                break
            mover = view["to_move"]
            board = board_from_rows(view["text"].split("\n")[:11])
            x, y = position(rng.choice(list(cells(legal_moves(board, mover)))))
            counts = [int(page.evaluate(VIEW_COUNT)) for _, page in pages]
            t0 = float(pages[mover][1].evaluate(CLICK_AT, f"tb-{x}-{y}"))
            times = []
            for (_, page), count in zip(pages, counts, strict=True):
                page.wait_for_function(
                    f"n => {VIEW_COUNT} > n && window.paintedAt >= window.viewedAt",
                    arg=count, timeout=5000)
                times.append((float(page.evaluate("window.viewedAt")) - t0,
                              float(page.evaluate("window.paintedAt")) - t0))
            taken += 1
            if taken > WARMUP:
                figures["click -> all 3 views"].append(max(viewed for viewed, _ in times))
                figures["click -> all 3 painted"].append(max(painted for _, painted in times))
                others = [painted for seat, (_, painted) in enumerate(times) if seat != mover]
                figures["click -> slowest other browser"].append(max(others))
        for _, page in pages:
            page.context.close()
    return figures


def three_browsers(browser: Any, url: str, errors: list[str]) -> list[tuple[str, Page]]:
    """A Tribolo game with each seat held by a browser of its own, watching its views."""
    sid, token = new_game(url, "tribolo", {"seats": ["human", "open", "open"]})
    tokens = [token] + [
        httpx.post(f"{url}/api/games/{sid}/join", json={"seat": seat}, timeout=30).json()["token"]
        for seat in (1, 2)
    ]
    pages = []
    for held in tokens:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        stored = json.dumps(json.dumps({sid: held}))
        context.add_init_script(f"localStorage.setItem('parlour.tokens', {stored});")
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{url}/play/tribolo?session={sid}")
        page.wait_for_function("() => document.body.dataset.views !== undefined")
        page.evaluate(WATCH_VIEWS)
        pages.append((sid, page))
    return pages


def main() -> None:
    parser = argparse.ArgumentParser(description="Time click to updated board in Chromium.")
    parser.add_argument("--samples", type=int, default=400, help="moves to time (default 400)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", default="tictactoe",
                        choices=("tictactoe", "minesweeper", "ishido", "tribolo", "sliding"))
    args = parser.parse_args()
    figures = run(args.game, args.samples, args.seed)
    heading(f"Chromium, /play/{args.game}: action -> updated board (ms)")
    for label, samples in figures.items():
        if samples:
            report(label, samples)
            print(f"  {share_under(samples, FRAME_MS):.1%} under {FRAME_MS:.0f} ms")


if __name__ == "__main__":
    main()
