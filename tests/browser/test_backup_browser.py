"""A backup in the browser: downloaded from the statistics page of one Parlour, restored
on the statistics page of another with a data directory of its own (a second machine,
in effect) in a browser that never played there, where the results show in the
statistics and the unfinished game is on the home page to resume (the file carried the
seat token of the browser that made it); and the results downloaded as CSV."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.conftest import TIMEOUT_MS, wait_for_views
from tests.browser.test_stats import CROSS_WINS, finish_tictactoe
from tests.support.servers import RunningServer, start_server

pytestmark = pytest.mark.browser


@pytest.fixture
def two_machines(tmp_path: Path) -> Iterator[tuple[RunningServer, RunningServer]]:
    """Two Parlours, each with its own --db."""
    here = start_server(tmp_path / "here" / "parlour.sqlite3")
    try:
        there = start_server(tmp_path / "there" / "parlour.sqlite3")
        try:
            yield here, there
        finally:
            there.stop()
    finally:
        here.stop()


@pytest.fixture
def contexts(browser: Browser) -> Iterator[list[BrowserContext]]:
    made: list[BrowserContext] = []
    yield made
    for context in made:
        context.close()


def stats_page(browser: Browser, contexts: list[BrowserContext], url: str) -> Page:
    context = browser.new_context(base_url=url, accept_downloads=True)
    context.set_default_timeout(TIMEOUT_MS)
    contexts.append(context)
    page = context.new_page()
    page.goto("/stats")
    page.wait_for_selector("body[data-ready='1']")
    return page


def minesweeper_begun(url: str) -> tuple[str, str]:
    """A game begun over REST: its session and its player's token."""
    made = httpx.post(f"{url}/api/games", json={"game": "minesweeper"}).json()
    moved = httpx.post(f"{url}/api/games/{made['session']}/moves",
                       json={"move": {"open": [3, 3]}},
                       headers={"Authorization": f"Bearer {made['token']}"})
    assert moved.status_code == 200 and moved.json()["status"] == "playing", moved.text
    return str(made["session"]), str(made["token"])


KEPT_TOKENS = "JSON.parse(localStorage.getItem('parlour.tokens') || '{}')"


def test_a_backup_downloaded_here_restores_games_and_statistics_there(
    browser: Browser, contexts: list[BrowserContext],
    two_machines: tuple[RunningServer, RunningServer], tmp_path: Path,
) -> None:
    here, there = two_machines
    finish_tictactoe(here.url, CROSS_WINS)
    unfinished, token = minesweeper_begun(here.url)

    mine = stats_page(browser, contexts, here.url)
    # this browser played it: it keeps its seat token, as the game's page would have
    mine.evaluate("([sid, token]) => localStorage.setItem('parlour.tokens', "
                  "JSON.stringify({ [sid]: token }))", [unfinished, token])
    with mine.expect_download() as downloading:
        mine.get_by_role("button", name="Download backup").click()
    file = tmp_path / downloading.value.suggested_filename
    downloading.value.save_as(file)
    assert file.name.startswith("parlour-backup-") and file.suffix == ".json"
    expect(mine.locator("#backup-note")).to_have_text("Backup downloaded.")
    games = json.loads(file.read_text())["games"]
    assert [game.get("your_token") for game in games if game["session"] == unfinished
            ] == [token]

    fresh = stats_page(browser, contexts, there.url)
    assert fresh.evaluate(KEPT_TOKENS) == {}  # a browser that never played there
    expect(fresh.locator("#groups")).to_contain_text("No finished games yet")
    with fresh.expect_file_chooser() as choosing:
        fresh.get_by_role("button", name="Restore a backup…").click()
    choosing.value.set_files(file)
    expect(fresh.locator("#backup-note")).to_have_text("Restored 2 games and 1 result.")
    card = fresh.locator(".stat-card[data-game='tictactoe']")
    expect(card).to_contain_text("Two players here")  # the restored result, counted
    expect(card.locator(".figure", has_text="played")).to_contain_text("1")
    assert fresh.evaluate(KEPT_TOKENS) == {unfinished: token}  # the seat, given back

    # the unfinished game is on the home page to resume there, and opens where it was
    fresh.goto("/")
    entry = fresh.locator(f"#resume li[data-session='{unfinished}'] a")
    expect(entry).to_contain_text("Minesweeper")
    entry.click()
    wait_for_views(fresh, 1)
    expect(fresh.locator("#board")).to_be_visible()

    # restoring the same file again adds nothing, and says so
    fresh.goto("/stats")
    fresh.wait_for_selector("body[data-ready='1']")
    with fresh.expect_file_chooser() as choosing:
        fresh.get_by_role("button", name="Restore a backup…").click()
    choosing.value.set_files(file)
    expect(fresh.locator("#backup-note")).to_have_text(
        "Nothing to add: the 2 games of this backup are already here.")


def test_a_file_that_is_not_a_backup_is_refused_in_words(
    browser: Browser, contexts: list[BrowserContext], server: RunningServer, tmp_path: Path,
) -> None:
    page = stats_page(browser, contexts, server.url)
    wrong = tmp_path / "notes.json"
    wrong.write_text('{"format": "something else"}')
    with page.expect_file_chooser() as choosing:
        page.get_by_role("button", name="Restore a backup…").click()
    choosing.value.set_files(wrong)
    note = page.locator("#backup-note")
    expect(note).to_have_text("This file is not a Parlour backup. Nothing was changed.")
    expect(note).to_have_class("backup-note error")


def test_the_results_download_as_csv(
    browser: Browser, contexts: list[BrowserContext], server: RunningServer,
) -> None:
    finish_tictactoe(server.url, CROSS_WINS)
    page = stats_page(browser, contexts, server.url)
    with page.expect_download() as downloading:
        page.get_by_role("link", name="Results as CSV").click()
    assert downloading.value.suggested_filename.startswith("parlour-results-")
    text = Path(downloading.value.path()).read_text(encoding="utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert rows and rows[-1]["Game"] == "Tic Tac Toe" and rows[-1]["Game id"]
