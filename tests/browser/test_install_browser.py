"""Chromium offers to install Parlour: every page of it is installable (Chromium's own
check, through the DevTools protocol, in a profile of its own: an incognito window may
install nothing), and an installed Parlour's title bar takes the theme the player chose."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.conftest import CreateGame, OpenPage
from tests.support.chromium import CHROMIUM, CHROMIUM_FLAGS
from tests.support.servers import RunningServer

pytestmark = pytest.mark.browser


def test_chromium_finds_every_page_of_parlour_installable(
    browser: Browser, server: RunningServer, create_game: CreateGame, tmp_path: Path,
) -> None:
    game = create_game("sliding")
    profile = browser.browser_type.launch_persistent_context(
        tmp_path / "profile", executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True,
        base_url=server.url)
    try:
        page = profile.new_page()
        devtools = profile.new_cdp_session(page)
        pages = ("/", "/stats", "/play/minesweeper", f"/play/sliding?session={game['session']}")
        for path in pages:
            page.goto(path)
            manifest = devtools.send("Page.getAppManifest")
            assert manifest["url"] == f"{server.url}/manifest.webmanifest"
            assert manifest["errors"] == [], path
            assert devtools.send("Page.getInstallabilityErrors")["installabilityErrors"] == [], path
        page.goto("/docs")  # a page without the manifest: the check can fail
        errors = devtools.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert [error["errorId"] for error in errors] == ["no-manifest"]
    finally:
        profile.close()


def test_the_title_bar_takes_the_theme_the_player_chose(open_page: OpenPage) -> None:
    page = open_page("/play/tictactoe")
    bars = page.locator('meta[name="theme-color"]')
    expect(bars).to_have_count(2)
    page.emulate_media(color_scheme="light")
    page.keyboard.press("t")  # Auto (light here) -> Dark
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    assert bars.evaluate_all("metas => metas.map((m) => m.content)") == ["#21242b"] * 2
    page.keyboard.press("t")  # -> Colour-blind
    expect(page.locator("html")).to_have_attribute("data-theme", "colour-blind")
    assert bars.evaluate_all("metas => metas.map((m) => m.content)") == ["#ffffff"] * 2
