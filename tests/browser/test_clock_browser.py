"""The clock on the page stands still while the page is hidden, as the server's does, and
runs on when it is shown again; another tab of the player's left visible keeps it going.

A hidden tab is emulated: `document.visibilityState` is overridden and the
`visibilitychange` event sent, as the browser does when the player switches tabs.
"""

from __future__ import annotations

import re
import time

from playwright.sync_api import Page, expect

from tests.browser.conftest import CreateGame, OpenPage, ServerView

HIDE_JS = """hidden => {
  const state = hidden ? "hidden" : "visible";
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => state });
  Object.defineProperty(document, "hidden", { configurable: true, get: () => hidden });
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def set_hidden(page: Page, hidden: bool) -> None:
    page.evaluate(HIDE_JS, hidden)


def shown_seconds(page: Page) -> int:
    """The page's clock (⏱ m:ss) in seconds."""
    match = re.fullmatch(r"⏱ (\d+):(\d\d)", page.locator("#clock").text_content() or "")
    assert match, page.locator("#clock").text_content()
    return int(match[1]) * 60 + int(match[2])


def started(create_game: CreateGame, open_page: OpenPage) -> tuple[Page, str]:
    """A Tic-Tac-Toe game open on a page, a move made, its clock showing 0:01."""
    created = create_game("tictactoe", seats=["human", "human"])
    sid, token = created["session"], created["token"]
    page = open_page(f"/play/tictactoe?session={sid}", tokens={sid: token})
    page.locator("#ttt-1-1").click()
    expect(page.locator("#clock")).to_have_text("⏱ 0:01", timeout=3_000)
    return page, sid


def wait_until_stopped(server_view: ServerView, sid: str, timeout: float = 3.0) -> None:
    """Wait until the server says the game's clock is stopped."""
    deadline = time.monotonic() + timeout
    while server_view(sid)["clock_running"]:
        assert time.monotonic() < deadline, "the server's clock did not stop"
        time.sleep(0.05)


def test_a_hidden_page_stops_its_clock_and_the_servers(
    create_game: CreateGame, open_page: OpenPage, server_view: ServerView
) -> None:
    page, sid = started(create_game, open_page)
    set_hidden(page, True)
    wait_until_stopped(server_view, sid)
    held, served = shown_seconds(page), server_view(sid)["elapsed_ms"]
    time.sleep(1.5)
    assert shown_seconds(page) == held, "the page's clock ran on while the page was hidden"
    assert server_view(sid)["elapsed_ms"] == served, "the server counted a hidden page's time"

    set_hidden(page, False)
    expect(page.locator("#clock")).to_have_text(f"⏱ 0:0{held + 1}", timeout=2_500)
    assert server_view(sid)["clock_running"]
    assert served / 1000 + 0.5 < server_view(sid)["elapsed_ms"] / 1000 < served / 1000 + 2.5


def test_another_visible_tab_keeps_the_clock_running(
    create_game: CreateGame, open_page: OpenPage, server_view: ServerView
) -> None:
    page, sid = started(create_game, open_page)
    second = page.context.new_page()  # the same player, a second tab
    second.goto(page.url)
    set_hidden(page, True)
    before = server_view(sid)["elapsed_ms"]
    time.sleep(1.2)
    assert server_view(sid)["clock_running"]
    assert server_view(sid)["elapsed_ms"] >= before + 1000
    set_hidden(page, False)  # told the time the other tab kept running
    expect(page.locator("#clock")).to_have_text(
        re.compile(r"⏱ 0:0[3-9]"), timeout=2_000)
