"""Waiting for a page's views: the page counts the server views it has applied in
`document.body.dataset.views`, so a test waits for a count rather than for a delay; and
for its animations to end. Its own module so that both conftest and scenes (which
conftest imports) can use it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

TIMEOUT_MS = 5_000  # a page that does not update fails fast instead of hanging the suite


def view_count(page: Page) -> int:
    """How many server views the page has applied since it loaded."""
    return int(page.evaluate("Number(document.body?.dataset.views || 0)"))


def wait_for_views(page: Page, at_least: int, timeout: int = TIMEOUT_MS) -> int:
    """Wait until the page has applied `at_least` views in all; returns the count. (After a
    click that opens another page, the new document may have no body yet: not a view.)"""
    try:
        page.wait_for_function(
            "n => Number(document.body?.dataset.views || 0) >= n", arg=at_least, timeout=timeout
        )
    except PlaywrightTimeout:
        said = page_said(page)
        raise AssertionError(f"waited {timeout} ms for view {at_least}: {said}") from None
    return view_count(page)


def page_said(page: Page) -> str:
    """What a page that stopped getting views shows: its count, its status line (a move
    refused says why there), whether it is offline."""
    return str(page.evaluate("""() => ({
      views: Number(document.body?.dataset.views || 0),
      message: document.getElementById("message")?.textContent?.trim() ?? null,
      offline: document.body?.classList.contains("offline") ?? null,
    })"""))


@contextmanager
def expect_views(page: Page, count: int = 1, timeout: int = TIMEOUT_MS) -> Iterator[None]:
    """`with expect_views(page): ...` waits, after the block, for `count` more views."""
    before = view_count(page)
    yield
    wait_for_views(page, before + count, timeout)


# An animation cancelled on the way (a card put away mid-fade, a glide restarted) rejects
# its `finished` with an AbortError: that is an end too, and whatever replaced it is awaited.
ANIMATIONS_DONE = """async () => {
  for (;;) {
    const running = document.getAnimations().filter((a) => a.playState === "running");
    if (!running.length) return;
    await Promise.all(running.map((a) => a.finished.catch(() => null)));
  }
}"""


def wait_for_animations(page: Page) -> None:
    """Wait until no animation on the page is running."""
    page.evaluate(ANIMATIONS_DONE)


# The board's frame and the page's scroll the same for three frames running: the board has
# taken the room the page measured after its first view (fit.js), and any scroll is over.
LAYOUT_STILL = """() => new Promise((done) => {
  let last = "", same = 0;
  const tick = () => {
    const box = document.getElementById("board-wrap")?.getBoundingClientRect();
    const now = box ? `${box.top} ${box.width} ${box.height} ${scrollY}` : `${scrollY}`;
    same = now === last ? same + 1 : 0;
    last = now;
    if (same >= 3) done(); else requestAnimationFrame(tick);
  };
  tick();
})"""


def wait_for_layout(page: Page) -> None:
    """Wait until the board stands still where the page has fitted it, its animations done."""
    wait_for_animations(page)
    page.evaluate(LAYOUT_STILL)
