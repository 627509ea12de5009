"""What every game's page object shares: reads of the page and of the board as text.

Each game's tests subclass `GamePage` with `BOARD_JS`, a script that reads the board
from the page in the game's text format, and add their own moves and reads.
"""

from __future__ import annotations

import contextlib
from typing import Any, ClassVar
from urllib.parse import parse_qs, urlparse

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import FloatRect, Locator, Page

from tests.browser.conftest import TIMEOUT_MS, NextView, view_count
from tests.browser.views import wait_for_layout


class GamePage:
    """One browser tab on a game's page."""

    BOARD_JS: ClassVar[str]  # (argument) => the board as text

    def __init__(self, page: Page, next_view: NextView) -> None:
        self.page = page
        self.next_view = next_view
        self.headline = page.locator("#headline")
        self.message = page.locator("#message")

    def board_argument(self) -> Any:
        """What `BOARD_JS` needs to read the board, e.g. its size."""
        return None

    def board(self) -> str:
        return str(self.page.evaluate(self.BOARD_JS, self.board_argument()))

    def wait_board(self, expected: str) -> None:
        """Wait (briefly) until the page shows `expected`, then check it does."""
        with contextlib.suppress(PlaywrightError):  # the assertion says what is there instead
            self.page.wait_for_function(
                f"([argument, want]) => ({self.BOARD_JS})(argument) === want",
                arg=[self.board_argument(), expected],
                timeout=TIMEOUT_MS,
            )
        assert self.board() == expected

    def session(self) -> str:
        return session_in(self.page.url)

    def token(self) -> str:
        """The player's seat token, as the page keeps it (for the player's own view)."""
        found: str = self.page.evaluate(
            "sid => JSON.parse(localStorage.getItem('parlour.tokens'))[sid]", self.session())
        return found

    def views(self) -> int:
        """How many server views the page has applied since it loaded."""
        return view_count(self.page)

    def focused(self) -> str | None:
        found: str | None = self.page.evaluate(
            "document.activeElement && document.activeElement.id"
        )
        return found

    def centre(self, locator: Locator) -> tuple[float, float]:
        box = locator.bounding_box()
        assert box is not None, "not on screen"
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def session_in(url: str) -> str:
    """The session a game page's address opens (`?session=`)."""
    return parse_qs(urlparse(url).query)["session"][0]


def overlap(a: FloatRect, b: FloatRect) -> bool:
    """Whether two boxes on the page share more than a rounding's half pixel."""
    return (a["x"] < b["x"] + b["width"] - 0.5 and b["x"] < a["x"] + a["width"] - 0.5
            and a["y"] < b["y"] + b["height"] - 0.5 and b["y"] < a["y"] + a["height"] - 0.5)


IN_ITS_BOX_JS = """(cell) => {
  const box = cell.closest(".board-scroll"), outer = box.getBoundingClientRect();
  const inner = cell.getBoundingClientRect();
  return inner.top >= outer.top - 0.5 && inner.bottom <= outer.top + box.clientHeight + 0.5
    && inner.left >= outer.left - 0.5 && inner.right <= outer.left + box.clientWidth + 0.5;
}"""


def in_its_box(cell: Locator) -> bool:
    """Whether a cell lies wholly inside the visible part of the box its board pans in."""
    return bool(cell.evaluate(IN_ITS_BOX_JS))


def game_style_comes_late(page: Page, ms: int) -> None:
    """The game's stylesheet (view.css) is sent `ms` late, as a busy server may send it."""

    def late(route: Any) -> None:
        page.wait_for_timeout(ms)
        route.continue_()

    page.route("**/view.css", late)


ROOM_JS = """(wrap) => {
  const style = getComputedStyle(wrap), px = (name) => Number.parseFloat(style[name]);
  return [Math.floor(wrap.clientWidth - px("paddingLeft") - px("paddingRight")),
    Number.parseFloat(style.getPropertyValue("--board-room-w"))]; }"""


def width_and_room_once_styled(page: Page) -> tuple[int, float]:
    """Once the game's stylesheet is in and the page stands still: the board area's inner
    width, and the room the page gave the board across (--board-room-w, fit.js)."""
    page.wait_for_function("document.getElementById('game-css').sheet?.cssRules.length > 0")
    wait_for_layout(page)
    width, room = page.locator("#board-wrap").evaluate(ROOM_JS)
    return int(width), float(room)
