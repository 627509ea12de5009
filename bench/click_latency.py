"""Click-to-updated-board latency in Chromium, on each game's largest board.

A real `parlour` process serves the game (every seat held by this browser). Each sample
runs inside the page, so no Playwright round trip is counted: note performance.now(),
dispatch a click (or a right click, or a drag and drop) on the board, wait until the page
applies the server's new view (`document.body.dataset.views` goes up, seen by a
MutationObserver: "-> view"), then until that view is painted (a task posted from the
next requestAnimationFrame runs once the frame's style, layout and paint are done).
"-> painted" is the view applied plus that frame's own work; "-> frame shown" also counts
the wait for the display's next frame to begin, which depends on when in the 16.7 ms
refresh the click fell, not on Parlour. The action goes over the WebSocket, the server
saves the move and pushes the view back. Each line gives p50/p95/p99 and the share of
samples under 16 ms.

- tictactoe: random playable cells (a click that ends the game on a line of its own, as
  for every game whose games end often); Restart when a game ends.
- minesweeper: 16x30 boards. "expert first click" opens an area of a 99-mine board
  (first_click=opening); "expert click" opens random closed cells after it (those that
  end the game, on a mine or the last safe cell, are counted on a line of their own: the
  end card shows over the board, which stays as it was); "whole-board
  flood" is the first click on a 10-mine 16x30 board, which opens nearly every cell;
  "expert flag" right-clicks the mines around an open number and "expert chord" then
  clicks it, opening its other neighbours (the mines known from the game replayed here).
  Each next game starts from the face button, in the same page, as a player's does.
- ishido: drag the next tile onto a cell where it fits (the assist marks show where),
  timed from the drop; the drag's own frame (the tile under the pointer) is drawn first,
  as a player's drag is drawn while it goes, not counted in the drop.
- tribolo: three browsers (one per seat, each its own context, as three people on their
  invite links) play random legal cells; a sample is a click in the mover's browser until
  the view is applied, and painted, in *every* browser (times compared through
  performance.timeOrigin, one clock for the machine), and in the mover's own browser
  (the click answered). Each next move waits until the last one's discs have popped and
  flipped in all three browsers (at most 2 s), as the next player looks at the board
  before moving: back to back, the benchmark's own moves overlapped the animations of the
  one before on the two cores of a small machine. A new game when one ends. "mover's
  browser view": the view applied there (the server's work and the network, before the
  browser's frame); a last line gives the CPU time per move that each kind of process
  used, the three browsers together, their animations included. "one screen":
  first, the three seats held by one browser (players taking turns at one screen), timed
  as a Tic-Tac-Toe click: the page's own work, without three browsers sharing the cores.
  "own machines": last, as three people on their invite links play, each on a machine of
  their own: a Chromium per player, and for each move the other two (their browser, GPU
  and renderer processes) run only when the mover's leaves a core idle (Linux's
  SCHED_IDLE, tests/support/cores.py), so the mover's browser has the cores, beside the
  server. Only the mover's figures are given: the others' wait for it by design. The
  16 ms bar is a player's click answered on their own machine: the "own machines" line;
  the same-cores lines show what two cores shared by three browsers cost.
- sliding: an 8x8 board cut from an uploaded photo (made here with Pillow, 1200x1200),
  shuffled at random. "click" clicks a random tile in the gap's row or column (a whole
  line slides); "drag" drags the tile next to the gap toward it with pointer events, timed
  from the release (the drag's own frame drawn first, as for Ishido). A new game when one
  is solved (never, in practice).
- escalator: pick a random playable card (two times in three) or turn the stock; those
  that end the game on lines of their own.

With --parts, the server runs with PARLOUR_TIMING=1 and Chromium is traced: a table says
where the time goes, part by part (bench/latency_parts.py). Tracing slows the page a
little: compare figures taken the same way.

Run from the repository root:
  .venv/bin/python -m bench.click_latency [--game NAME|all] [--samples N] [--parts]
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import json
import os
import random
import tempfile
from pathlib import Path
from typing import Any

import httpx
from PIL import Image
from playwright.sync_api import Page, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from bench.common import auth, heading, report, share_under, unpaced
from bench.latency_parts import CATEGORIES, browser_parts, parts_table, server_parts
from parlour.core.gameid import parse_game_id
from parlour.core.session import Session
from parlour.games import GAMES as GAMES_BY_NAME
from parlour.games.minesweeper.grid import neighbours
from parlour.games.minesweeper.logic import FLAG, HIDDEN, OPEN
from parlour.games.tribolo.rules import board_from_rows, cells, legal_moves, position
from tests.support import cores
from tests.support.chromium import launch_chromium, launch_chromium_from
from tests.support.processes import cpu_ms_by_process
from tests.support.servers import start_server

FRAME_MS = 16.0
PLAYABLE_CELLS = '#board [aria-disabled="false"] .closed[data-move]'  # Minesweeper
WARMUP = 20
# A page just shown keeps Chromium busy for about a second (its modules compiled and
# cached, fonts and sounds readied: 1.4-1.7 cores in the first quarter second, up to
# 0.8 in the next, bursts until 1.25 s, from /proc): samples wait until it has settled.
SETTLE_MS = 1500

# After requestAnimationFrame, a task posted from its callback runs once that frame's
# style, layout and paint are done: `painted(t0, resolve, id, viewed)` resolves then, with
# the time to the view applied, to that view painted (applied, then the frame's own work:
# from its animation frame callback to its paint done) and to that frame done (which also
# counts the wait for the display's next frame to begin, up to 16.7 ms at 60 Hz). Each
# sample's start and end are marked, with a name of its own, for the trace when one is
# taken (bench/latency_parts.py).
PAINTED = """
const sample = Math.random().toString(36).slice(2);
const mark = (what) => performance.mark(`sample-${what} ${sample}`);
const painted = (t0, resolve, id, viewed) => requestAnimationFrame(() => {
  const frameBegun = performance.now();
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    const done = performance.now();
    mark("end");  // after the clock is read: a mark takes 0.2 ms, 1.5 at p95
    resolve({ id, sample, view: viewed - t0, painted: viewed - t0 + done - frameBegun,
              frame: done - t0 });
  };
  channel.port2.postMessage(null);
});
// A drag is drawn as it goes (the piece under the finger, the target lit), frames before
// the drop: a drag's pointer moves wait for their frame before the drop is timed.
const framePainted = () => new Promise((resolve) => requestAnimationFrame(() => {
  const channel = new MessageChannel();
  channel.port1.onmessage = resolve;
  channel.port2.postMessage(null);
}));
"""

# Click `selector` (or a random cell among those `pool` selects) and time the new view.
MEASURE = """
async ([selector, pick, pool, type]) => {""" + PAINTED + """
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
      reject(new Error(`no new view within 5 s after a ${type} on #${target.id}`));
    }, 5000);
    const observer = new MutationObserver(() => {
      if (Number(document.body.dataset.views) <= before) return;
      const viewed = performance.now();
      observer.disconnect();
      clearTimeout(timer);
      painted(t0, resolve, target.id, viewed);
    });
    observer.observe(document.body, { attributes: true, attributeFilter: ["data-views"] });
    mark("start");
    t0 = performance.now();
    const button = type === "click" ? 0 : 2;
    target.dispatchEvent(new MouseEvent(type, { bubbles: true, cancelable: true, button }));
  });
}
"""


# Drag the next tile onto a random cell marked valid, timing from the drop.
DRAG = """
async (pick) => {""" + PAINTED + """
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
  await framePainted();
  const before = Number(document.body.dataset.views);
  return await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no new view within 5 s of a drop")), 5000);
    const observer = new MutationObserver(() => {
      if (Number(document.body.dataset.views) <= before) return;
      const viewed = performance.now();
      observer.disconnect(); clearTimeout(timer);
      painted(t0, resolve, target.id, viewed);
    });
    observer.observe(document.body, { attributes: true, attributeFilter: ["data-views"] });
    mark("start");
    const t0 = performance.now();
    pointer("pointerup", tx, ty, document);
  });
}
"""


@functools.cache
def http() -> httpx.Client:
    """One client for the run: a bare httpx.get builds an SSL context each time (~35 ms
    of CPU, measured), and Tribolo's samples ask the server for the board before each move."""
    return httpx.Client(timeout=30)


def new_game(url: str, game: str, options: dict[str, Any]) -> tuple[str, str]:
    reply = http().post(f"{url}/api/games", json={"game": game, **options})
    reply.raise_for_status()
    body = reply.json()
    return body["session"], body["token"]


def open_game(browser: Any, url: str, errors: list[str], game: str = "tictactoe",
              options: dict[str, Any] | None = None) -> Page:
    """A page on a new game whose every seat this browser holds."""
    return open_session(browser, url, errors, game, options)[0]


def open_session(browser: Any, url: str, errors: list[str], game: str,
                 options: dict[str, Any] | None = None) -> tuple[Page, str, str]:
    """`open_game`, with the game's session id and the seats' token."""
    chosen = options if options is not None else {"seats": ["human", "human"]}
    sid, token = new_game(url, game, chosen)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    tokens = json.dumps(json.dumps({sid: token}))
    context.add_init_script(f"localStorage.setItem('parlour.tokens', {tokens});")
    page: Page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{url}/play/{game}?session={sid}")
    page.wait_for_function("() => document.body.dataset.views !== undefined")
    page.wait_for_timeout(SETTLE_MS)  # as a player looks at a page before the first click
    return page, sid, token


def measure(page: Page, selector: str | None, pick: float,
            pool: str = "#board [data-move]", event: str = "click") -> dict[str, Any] | None:
    """Click `selector`, or else the cell at `pick` (0-1) among those `pool` selects
    (`event` "contextmenu": a right click)."""
    result: dict[str, Any] | None = page.evaluate(MEASURE, [selector, pick, pool, event])
    return result


def run(game: str, samples: int, seed: int, parts: bool = False) -> Figures:
    """Time `samples` actions of `game` (after a warm-up) against a real server; with
    `parts`, also where the time goes (a Chromium trace and the server's own timers)."""
    rng = random.Random(seed)
    errors: list[str] = []
    if parts:
        os.environ["PARLOUR_TIMING"] = "1"  # the server times each part of an action
    with tempfile.TemporaryDirectory(prefix="parlour-bench-") as folder:
        server = start_server(Path(folder) / "bench.sqlite3")
        try:
            with sync_playwright() as playwright:
                browser = launch_chromium(playwright)
                try:
                    if parts:
                        server_parts(server.url)  # forget the server's startup (its GC pauses)
                        browser.start_tracing(categories=CATEGORIES)
                    figures = GAMES[game](browser, server.url, errors, samples, rng)
                    if parts:
                        trace = browser.stop_tracing()
                        figures.table = parts_table(
                            figures.samples, browser_parts(trace), server_parts(server.url),
                            browser_parts(trace, "tdur"))
                finally:
                    browser.close()
        finally:
            server.stop()
    if errors:
        raise RuntimeError("errors in the page: " + "; ".join(errors))
    return figures


class Figures(dict[str, list[float]]):
    """Samples (ms) by kind of action, and the table of parts when asked for."""

    table: list[str] | None = None

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.samples: dict[str, list[str]] = {}  # each kind's samples, named as in the trace
        self.notes: list[str] = []  # lines printed after the figures

    def merge(self, other: Figures) -> None:
        """Take in `other`'s figures, its named samples and its notes."""
        self.update(other)
        for kind, names in other.samples.items():
            self.samples.setdefault(kind, []).extend(names)
        self.notes.extend(other.notes)


def tictactoe(browser: Any, url: str, errors: list[str], samples: int,
              rng: random.Random) -> Figures:
    figures = Figures()
    page = open_game(browser, url, errors)
    taken = 0
    while taken < samples + WARMUP:
        clicked = measure(page, None, rng.random())
        if clicked is None:  # the game is over: start it again
            restarted = measure(page, "#btn-restart", 0.0)
            if restarted is None:
                raise RuntimeError("no Restart button")
            record(figures, "restart", restarted)
            continue
        taken += 1
        if taken > WARMUP:
            record(figures, "click that ends the game" if ended(page) else "click", clicked)
    return figures


def minesweeper(browser: Any, url: str, errors: list[str], samples: int,
                rng: random.Random) -> Figures:
    figures = Figures()
    expert = {"params": {"rows": 16, "cols": 30, "mines": 99, "first_click": "opening"}}
    sparse = {"params": {"rows": 16, "cols": 30, "mines": 10, "first_click": "opening"}}
    page = open_game(browser, url, errors, "minesweeper", expert)
    while len(figures.get("expert click -> view", [])) < samples:
        record(figures, "expert first click", measure(page, "#ms-7-14", 0.0))
        for _ in range(40):  # random closed cells until the game ends
            clicked = measure(page, None, rng.random(), PLAYABLE_CELLS)
            if clicked is None:
                break
            ends = ended(page)  # a mine, or the last safe cell
            record(figures, "expert click that ends the game" if ends else "expert click", clicked)
        again(page)
    page.context.close()
    page = open_game(browser, url, errors, "minesweeper", sparse)
    for _ in range(max(20, samples // 5)):
        record(figures, "whole-board flood", measure(page, "#ms-8-15", 0.0))
        again(page)
    page.context.close()
    while len(figures.get("expert chord -> view", [])) < samples // 2:
        page = open_game(browser, url, errors, "minesweeper", expert)
        chords(page, url, figures, rng)
        page.context.close()
    return figures


# The page's own game: its session id in the address, its seat's token in localStorage.
SESSION = """() => {
  const sid = new URLSearchParams(location.search).get("session");
  return [sid, JSON.parse(localStorage.getItem("parlour.tokens") || "{}")[sid]];
}"""


def ended(page: Page) -> bool:
    """The last action ended the game: the end card shows over the board (a layer of
    its own; the board is not laid out again), a moment of its own, timed on a line of
    its own."""
    return bool(page.evaluate("() => !document.getElementById('end-card').hidden"))


def again(page: Page) -> None:
    """A new deal like this one, from the end card's New game, as a player starts the
    next game: in the same page, with no page load (see SETTLE_MS: clicks on a page just
    loaded took twice as long). Returns once the new game's board is shown."""
    sid = page.evaluate(SESSION)[0]
    views = page.evaluate("() => Number(document.body.dataset.views)")
    # the end card's button, or a game's own (Minesweeper's face) when the game went on
    page.locator("#end-new:visible").or_(page.locator('[data-command="again"]')).first.click()
    page.wait_for_function("""([sid, views]) =>
      new URLSearchParams(location.search).get("session") !== sid
      && Number(document.body.dataset.views) > views
      && document.getElementById("end-card").hidden""", arg=[sid, views])


def chords(page: Page, url: str, figures: Figures, rng: random.Random) -> None:
    """On the page's new expert board: flag the mines around an open number (right
    clicks), then chord it (a click opens its other neighbours), while numbers with closed
    neighbours are left. The mines are known from the game replayed here from its export."""
    spec = GAMES_BY_NAME["minesweeper"]
    sid, token = page.evaluate(SESSION)
    measure(page, "#ms-7-14", 0.0)
    for _ in range(30):
        saved = http().get(f"{url}/api/games/{sid}/export", headers=auth(token))
        saved.raise_for_status()
        game = saved.json()
        state = Session(spec, parse_game_id(spec.game, game["id"]), game["seats"],
                        game["moves"], game["cursor"]).state
        cols = state.cols
        around = neighbours(state.rows, cols)
        numbers = [cell for cell in range(state.size) if state.marks[cell] == OPEN
                   and state.counts[cell] and any(state.marks[n] == HIDDEN
                                                  and n not in state.mined for n in around[cell])]
        if not numbers or state.over():
            break
        number = rng.choice(numbers)
        for mine in sorted(n for n in around[number] if n in state.mined
                           and state.marks[n] != FLAG):
            record(figures, "expert flag (right click)", measure(
                page, f"#ms-{mine // cols}-{mine % cols}", 0.0, event="contextmenu"))
        record(figures, "expert chord", measure(
            page, f"#ms-{number // cols}-{number % cols}", 0.0))


# Escalator: a random card that can be picked, or else the stock.
PICKABLE = "#board .playable[data-move]"
STOCK = "#board #esc-stock[data-move]"


def escalator(browser: Any, url: str, errors: list[str], samples: int,
              rng: random.Random) -> Figures:
    """Pick a random free card two times in three when one can be picked, else turn the
    stock; a new deal when the game ends."""
    figures = Figures()
    taken = 0
    page = open_game(browser, url, errors, "escalator", {})
    while min(len(figures.get(kind, [])) for kind in ("pick -> view", "draw -> view")) < samples:
        can_pick = page.locator(PICKABLE).count() > 0
        can_draw = page.locator(STOCK).count() > 0
        if not (can_pick or can_draw):
            again(page)
            continue
        kind = "pick" if can_pick and (not can_draw or rng.random() < 2 / 3) else "draw"
        done = measure(page, STOCK if kind == "draw" else None, rng.random(), PICKABLE)
        taken += 1
        if taken > WARMUP:
            record(figures, f"{kind} that ends the game" if ended(page) else kind, done)
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
async ({ id, from, to }) => {""" + PAINTED + """
  const tile = document.getElementById(id);
  const pointer = (type, [x, y], where) => where.dispatchEvent(new PointerEvent(type, {
    bubbles: true, cancelable: true, clientX: x, clientY: y, button: 0, pointerType: "touch",
  }));
  pointer("pointerdown", from, tile);
  pointer("pointermove", to, document);
  await framePainted();
  const before = Number(document.body.dataset.views);
  return await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no new view within 5 s of a drag")), 5000);
    const observer = new MutationObserver(() => {
      if (Number(document.body.dataset.views) <= before) return;
      const viewed = performance.now();
      observer.disconnect(); clearTimeout(timer);
      painted(t0, resolve, id, viewed);
    });
    observer.observe(document.body, { attributes: true, attributeFilter: ["data-views"] });
    mark("start");
    const t0 = performance.now();
    pointer("pointerup", to, tile);
  });
}
"""


def sliding(browser: Any, url: str, errors: list[str], samples: int,
            rng: random.Random) -> Figures:
    figures = Figures()
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
    reply = http().post(f"{url}/api/uploads", content=encoded.getvalue(),
                        headers={"Content-Type": "image/jpeg"})
    reply.raise_for_status()
    upload: str = reply.json()["upload"]
    return upload


def record(figures: Figures, kind: str, sample: dict[str, Any] | None) -> None:
    """Keep a sample's time to the view applied, to that view painted, and to the end of
    the display frame that shows it."""
    assert sample is not None, f"{kind}: nothing to click"
    figures.samples.setdefault(kind, []).append(sample["sample"])
    figures.setdefault(f"{kind} -> view", []).append(sample["view"])
    figures.setdefault(f"{kind} -> painted", []).append(sample["painted"])
    figures.setdefault(f"{kind} -> frame shown", []).append(sample["frame"])


def ishido(browser: Any, url: str, errors: list[str], samples: int,
           rng: random.Random) -> Figures:
    figures = Figures({"drop -> view": [], "drop -> painted": []})
    page = open_game(browser, url, errors, "ishido", {})
    while len(figures["drop -> view"]) < samples:
        if page.locator("#btn-assist[aria-pressed=true]").count() == 0:
            page.keyboard.press("a")  # assist marks the cells where the tile fits
        page.wait_for_selector("#board .valid")
        while len(figures["drop -> view"]) < samples:
            dropped: dict[str, Any] | None = page.evaluate(DRAG, rng.random())
            if dropped is None:
                break
            record(figures, "drop", dropped)
        if len(figures["drop -> view"]) < samples:
            again(page)
    page.context.close()
    return figures


# In each Tribolo browser: keep when the last view was applied, when its frame began and
# when that frame was painted (as PAINTED does), and tell whoever waits for it.
WATCH_VIEWS = """
() => {
  new MutationObserver(() => {
    window.viewedAt = performance.timeOrigin + performance.now();
    requestAnimationFrame(() => {
      const frameBegun = performance.timeOrigin + performance.now();
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        window.paintedAt = performance.timeOrigin + performance.now();
        if (window.benchSample) performance.mark(`sample-end ${window.benchSample}`);
        window.frameWork = window.paintedAt - frameBegun;
        window.onPainted?.();
      };
      channel.port2.postMessage(null);
    });
  }).observe(document.body, { attributes: true, attributeFilter: ["data-views"] });
}
"""

# Once the page has painted a view after its `n`th: when the view was applied, its frame
# painted, and the frame's work took (ms since the epoch, and ms).
PAINTED_SINCE = """
(n) => new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error(`no view ${n + 1} painted within 5 s`)), 5000);
  window.onPainted = () => {
    if (Number(document.body.dataset.views) <= n || !(window.paintedAt >= window.viewedAt)) return;
    window.onPainted = null;
    clearTimeout(timer);
    resolve([window.viewedAt, window.paintedAt, window.frameWork]);
  };
  window.onPainted();
})
"""

VIEW_COUNT = "Number(document.body.dataset.views)"

# How often the harness looks into a Tribolo page while it waits: on a timer, not on
# every animation frame (Playwright's default), which kept the three pages drawing
# frames throughout and took the cores their moves need.
POLL_MS = 20

# The board has settled: no animation that ends is still running (a hint's pulse never
# ends, and is not waited for).
SETTLED = """
() => document.getAnimations().every((animation) => animation.playState !== "running"
  || animation.effect.getComputedTiming().iterations === Infinity)
"""

# A click on the cell with id `id` in `delay` ms, when the harness's own messages to the
# browsers (this call's answer, the wait for the view) have gone: nothing but the game
# runs while a move is timed, as on a player's machine. Its time: window.clickedAt.
CLICK_SOON = """
([id, delay]) => {
  window.benchSample = Math.random().toString(36).slice(2);
  setTimeout(() => {
    performance.mark(`sample-start ${window.benchSample}`);
    window.clickedAt = performance.timeOrigin + performance.now();
    const click = new MouseEvent("click", { bubbles: true, cancelable: true });
    document.getElementById(id).dispatchEvent(click);
  }, delay);
  return window.benchSample;
}
"""
CLICK_DELAY_MS = 40


def random_legal_cell(view: dict[str, Any], rng: random.Random) -> str:
    """The id of a random cell where the player to move in Tribolo's `view` may play."""
    board = board_from_rows(view["text"].split("\n")[:11])
    x, y = position(rng.choice(list(cells(legal_moves(board, view["to_move"])))))
    return f"tb-{x}-{y}"


def tribolo_at_one_screen(browser: Any, url: str, errors: list[str], samples: int,
                          rng: random.Random) -> Figures:
    """Random legal cells, the three seats held by one page."""
    figures = Figures()
    page, sid, _ = open_session(browser, url, errors, "tribolo",
                                {"seats": ["human", "human", "human"]})
    taken = 0
    while taken < samples + WARMUP:
        view = http().get(f"{url}/api/games/{sid}").json()
        if view["status"] != "playing":
            again(page)
            sid = page.evaluate(SESSION)[0]
            continue
        settle(page)
        clicked = measure(page, f"#{random_legal_cell(view, rng)}", 0.0)
        taken += 1
        if taken > WARMUP:
            record(figures, "one screen: click that ends the game" if ended(page)
                   else "one screen: click", clicked)
    page.context.close()
    return figures


def tribolo(browser: Any, url: str, errors: list[str], samples: int,
            rng: random.Random) -> Figures:
    figures = tribolo_at_one_screen(browser, url, errors, samples, rng)
    contexts = [browser] * 3  # three players' contexts in one Chromium, on the same cores
    figures.merge(three_browsers_playing(contexts, url, errors, samples, rng))
    if cores.available():  # three Chromiums, the mover's with the cores to itself
        launched: list[tuple[Any, int]] = []
        try:
            launched.extend(launch_another(browser) for _ in range(3))
            machines = cores.OwnMachines([root for _, root in launched])
            figures.merge(three_browsers_playing([each for each, _ in launched], url, errors,
                                                 samples, rng, machines))
        finally:
            for each, _ in launched:
                each.close()
    else:
        figures.notes.append("own machines: not measured (here a thread put in SCHED_IDLE "
                             "cannot be put back: run as root, or after `ulimit -e 20`)")
    return figures


def launch_another(browser: Any) -> tuple[Any, int]:
    """Another Chromium beside `browser`, with Parlour's flags, and its main process's id."""
    before = cores.chromium_started_here()
    launched = launch_chromium_from(browser.browser_type)
    new = cores.chromium_started_here() - before
    if len(new) != 1:
        launched.close()
        raise RuntimeError(f"cannot tell which Chromium was just started: {sorted(new)}")
    return launched, new.pop()


def three_browsers_playing(browsers: list[Any], url: str, errors: list[str], samples: int,
                           rng: random.Random,
                           machines: cores.OwnMachines | None = None
                           ) -> Figures:
    """Seat N played in `browsers[N]`; with `machines`, that browser has the cores to itself
    whenever it is to move ("own machines" in the module docstring)."""
    mark = "own machines: " if machines else ""
    figures = Figures({f"{mark}click -> mover's browser view": [],
                       f"{mark}click -> mover's browser painted": []})
    if not machines:
        figures.update({"click -> all 3 views": [], "click -> all 3 painted": [],
                        "click -> all 3 frames shown": [],
                        "click -> slowest other browser painted": []})
    taken, cpu_used, moves_counted = 0, dict[str, float](), 0
    try:
        while taken < samples + WARMUP:
            if machines:  # a new game's pages settle as in the other setup
                machines.release()
            pages = three_browsers(browsers, url, errors)
            cpu_before, moves_before = cpu_ms_by_process(), taken
            while taken < samples + WARMUP:
                view = http().get(f"{url}/api/games/{pages[0][0]}").json()
                if view["status"] != "playing":
                    break
                mover = view["to_move"]
                if machines:
                    machines.give(mover)
                for _, page in pages:
                    settle(page)
                sample, times = time_a_move(pages, mover, random_legal_cell(view, rng))
                taken += 1
                if taken <= WARMUP:
                    continue
                if not machines:  # named as in the trace, if one is taken
                    figures.samples.setdefault("click (mover's browser)", []).append(sample)
                for label, ms in moved_figures(times, mover).items():
                    if f"{mark}{label}" in figures:
                        figures[f"{mark}{label}"].append(ms)
            for _, page in pages:  # the last move's animations counted too, as every other's
                settle(page)
            for kind, ms in cpu_ms_by_process().items():  # before the pages' processes go
                cpu_used[kind] = cpu_used.get(kind, 0.0) + ms - cpu_before.get(kind, 0.0)
            moves_counted += taken - moves_before
            for _, page in pages:
                page.context.close()
    finally:
        if machines:
            machines.release()
    if not machines:
        figures.notes.append(cpu_per_move(cpu_used, moves_counted))
    return figures


def time_a_move(pages: list[tuple[str, Page]], mover: int, cell: str
                ) -> tuple[str, list[tuple[float, float, float]]]:
    """Click `cell` in the mover's browser: the sample's name, and for each browser, ms
    from the click to its view applied, to that view painted, and to that frame shown."""
    counts = [int(page.evaluate(VIEW_COUNT)) for _, page in pages]
    sample = pages[mover][1].evaluate(CLICK_SOON, [cell, CLICK_DELAY_MS])
    # the mover's browser is asked first, before the click goes off
    asked = [mover, *(seat for seat in range(len(pages)) if seat != mover)]
    seen = {seat: pages[seat][1].evaluate(PAINTED_SINCE, counts[seat]) for seat in asked}
    t0 = float(pages[mover][1].evaluate("window.clickedAt"))
    return sample, [(viewed - t0, viewed - t0 + work, shown - t0)  # in each browser
                    for viewed, shown, work in (seen[seat] for seat in range(len(pages)))]


def moved_figures(times: list[tuple[float, float, float]], mover: int) -> dict[str, float]:
    """A move's figures, by label, from each browser's times (see `time_a_move`)."""
    return {
        "click -> mover's browser view": times[mover][0],
        "click -> mover's browser painted": times[mover][1],
        "click -> all 3 views": max(each[0] for each in times),
        "click -> all 3 painted": max(each[1] for each in times),
        "click -> all 3 frames shown": max(each[2] for each in times),
        "click -> slowest other browser painted":
            max(each[1] for seat, each in enumerate(times) if seat != mover),
    }


def cpu_per_move(used: dict[str, float], moves: int) -> str:
    """A line: the CPU time per move (ms) that each kind of process used, all three
    browsers together, the disc animations after each move included."""
    if not moves or not used:
        return "CPU per move: not measured (no /proc here)"
    kinds = "  ".join(f"{kind} {ms / moves:.0f}"
                      for kind, ms in sorted(used.items(), key=lambda item: -item[1])
                      if ms / moves >= 0.5)
    return (f"CPU per move, the three browsers and the server, animations included (ms, "
            f"{os.cpu_count()} cores, from /proc): {kinds}")


def settle(page: Page, most_ms: float = 2000) -> None:
    """Wait until the page's board has settled (SETTLED), or `most_ms` went by."""
    with contextlib.suppress(PlaywrightTimeoutError):
        page.wait_for_function(SETTLED, timeout=most_ms, polling=POLL_MS)


def three_browsers(browsers: list[Any], url: str, errors: list[str]
                   ) -> list[tuple[str, Page]]:
    """A Tribolo game with seat N held by a context of its own in `browsers[N]`, each
    watching its views."""
    sid, token = new_game(url, "tribolo", {"seats": ["human", "open", "open"]})
    tokens = [token] + [
        http().post(f"{url}/api/games/{sid}/join", json={"seat": seat}).json()["token"]
        for seat in (1, 2)
    ]
    pages = []
    for browser, held in zip(browsers, tokens, strict=True):
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        stored = json.dumps(json.dumps({sid: held}))
        context.add_init_script(f"localStorage.setItem('parlour.tokens', {stored});")
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{url}/play/tribolo?session={sid}")
        page.wait_for_function("() => document.body.dataset.views !== undefined")
        page.evaluate(WATCH_VIEWS)
        pages.append((sid, page))
    pages[0][1].wait_for_timeout(SETTLE_MS)
    return pages


GAMES = {"tictactoe": tictactoe, "minesweeper": minesweeper, "ishido": ishido,
         "tribolo": tribolo, "sliding": sliding, "escalator": escalator}


def main() -> None:
    unpaced()
    parser = argparse.ArgumentParser(description="Time click to updated board in Chromium.")
    parser.add_argument("--samples", type=int, default=400, help="moves to time (default 400)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", default="tictactoe", choices=(*GAMES, "all"))
    parser.add_argument("--parts", action="store_true",
                        help="also where the time goes: server parts (PARLOUR_TIMING) and "
                        "browser parts (a Chromium trace, which slows the page a little)")
    args = parser.parse_args()
    for game in GAMES if args.game == "all" else (args.game,):
        figures = run(game, args.samples, args.seed, args.parts)
        heading(f"Chromium, /play/{game}: action -> updated board (ms)")
        for label, samples in figures.items():
            if samples:
                report(label, samples)
                print(f"  {share_under(samples, FRAME_MS):.1%} under {FRAME_MS:.0f} ms")
        for note in figures.notes:
            print(note)
        if figures.table:
            print(f"\nwhere the time goes, {game}, all actions above (ms):")
            print("\n".join(figures.table))


if __name__ == "__main__":
    main()
