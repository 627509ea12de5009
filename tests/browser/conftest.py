"""Helpers for the browser tests: fresh browser contexts, pages that wait for views, REST set-up.

Every browser context made here is closed when the test ends, and an uncaught script error
in any of its pages fails the test. Waits use short timeouts (`TIMEOUT_MS`): a page that
does not update fails fast instead of hanging the suite.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from tests.browser.links import confirm_link
from tests.browser.scenes import Stage
from tests.browser.views import TIMEOUT_MS as TIMEOUT_MS  # the tests import these from here
from tests.browser.views import expect_views as expect_views
from tests.browser.views import view_count as view_count
from tests.browser.views import wait_for_views as wait_for_views
from tests.support.servers import RunningServer

NewContext = Callable[..., BrowserContext]
OpenPage = Callable[..., Page]
NextView = Callable[..., AbstractContextManager[None]]
WaitViews = Callable[[Page, int], int]
CreateGame = Callable[..., dict[str, Any]]

# Runs before the page's own scripts: adds the given tokens to the ones the page keeps.
_TOKENS_SCRIPT = """
(() => {
  if (!location.protocol.startsWith("http")) return;  // about:blank has no localStorage
  const given = %s;
  const kept = JSON.parse(localStorage.getItem("parlour.tokens") || "{}");
  localStorage.setItem("parlour.tokens", JSON.stringify({ ...kept, ...given }));
})();
"""


@pytest.fixture(scope="session")
def stage(server: RunningServer) -> Iterator[Stage]:
    """Every game brought to its moments over REST, each once per run (see scenes.py)."""
    made = Stage(server.url)
    yield made
    made.close()


@pytest.fixture
def base_url(server: RunningServer) -> str:
    return server.url


@pytest.fixture
def new_context(browser: Browser, server: RunningServer) -> Iterator[NewContext]:
    """A factory of fresh browser contexts (own localStorage: another person, in effect).

    `new_context(tokens={sid: token})` starts with those seat tokens in localStorage;
    other keywords go to Playwright's `Browser.new_context` (a phone: `has_touch=True`...).
    """
    contexts: list[BrowserContext] = []
    errors: list[str] = []

    def make(*, tokens: Mapping[str, str] | None = None, **options: Any) -> BrowserContext:
        context = browser.new_context(base_url=server.url, **options)
        context.set_default_timeout(TIMEOUT_MS)
        context.on("weberror", lambda error: errors.append(str(error.error)))
        if tokens:
            context.add_init_script(_TOKENS_SCRIPT % json.dumps(dict(tokens)))
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()
    assert not errors, f"uncaught errors in the page: {errors}"


@pytest.fixture
def open_page(new_context: NewContext) -> OpenPage:
    """Open `path` in a new page and wait for its first view.

    `open_page("/play/tictactoe?session=...", context=..., tokens=...)`: without a
    context, a new one is made (with `tokens` in its localStorage, if given).
    `confirm=True`: the path is a deal or seat link, which asks first (links.py): the
    player clicks its main button.
    """

    def open_(
        path: str = "/play/tictactoe",
        *,
        context: BrowserContext | None = None,
        tokens: Mapping[str, str] | None = None,
        wait: bool = True,
        confirm: bool = False,
    ) -> Page:
        page = (context or new_context(tokens=tokens)).new_page()
        page.goto(path)
        if confirm:
            confirm_link(page)
        if wait:  # (not when the page first asks the player something, e.g. a seat)
            wait_for_views(page, 1)
        return page

    return open_


@pytest.fixture
def next_view() -> NextView:
    """`with next_view(page[, count]): <action>` waits for the views the action causes."""
    return expect_views


@pytest.fixture
def wait_views() -> WaitViews:
    """`wait_views(page, n)` waits until the page has applied n views since it loaded."""
    return wait_for_views


@pytest.fixture
def create_game(server: RunningServer) -> CreateGame:
    """Create a session through the REST API: `create_game("tictactoe", seats=[...])`.

    Returns the API's answer: {"session", "token", "seats", "view", ...}.
    """

    def create(game: str, **options: Any) -> dict[str, Any]:
        # a winnable deal is searched for: 0.1 s as a rule, a second at times, more on a
        # busy machine than httpx's 5 s
        response = httpx.post(f"{server.url}/api/games", json={"game": game, **options},
                              timeout=30)
        assert response.status_code == 201, response.text
        created: dict[str, Any] = response.json()
        return created

    return create


ServerView = Callable[..., dict[str, Any]]
"""(session id, player's token or None for a spectator) -> the view the server gives."""


@pytest.fixture
def server_view(base_url: str) -> ServerView:
    """What the server holds for a session, through the REST API: a spectator's view, or
    with a token the view of that player (help and "assisted" are each player's own)."""

    def fetch(sid: str, token: str | None = None) -> dict[str, Any]:
        headers = {} if token is None else {"Authorization": f"Bearer {token}"}
        response = httpx.get(f"{base_url}/api/games/{sid}", headers=headers)
        assert response.status_code == 200, response.text
        found: dict[str, Any] = response.json()
        return found

    return fetch
