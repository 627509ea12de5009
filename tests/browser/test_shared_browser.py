"""A shared Parlour (`--shared`, as a hosted one is) in Chromium: people play on one
server, and each browser's statistics page, past games, daily deals and end-card records
are its own; a newcomer's are empty."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.conftest import _TOKENS_SCRIPT, TIMEOUT_MS, wait_for_views
from tests.browser.test_daily_browser import local_today
from tests.support.servers import RunningServer, start_server
from tests.test_daily import started, win

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def shared_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    running = start_server(tmp_path_factory.mktemp("shared") / "parlour.sqlite3",
                           options=("--shared",))
    yield running
    running.stop()


NewPerson = Callable[[dict[str, str]], Page]


@pytest.fixture
def new_person(browser: Browser, shared_server: RunningServer) -> Iterator[NewPerson]:
    """A factory of people's browsers on the shared server, each keeping the seat tokens
    it is given; an uncaught script error in any of their pages fails the test."""
    contexts: list[BrowserContext] = []
    errors: list[str] = []

    def make(tokens: dict[str, str]) -> Page:
        context = browser.new_context(base_url=shared_server.url)
        context.set_default_timeout(TIMEOUT_MS)
        context.on("weberror", lambda error: errors.append(str(error.error)))
        context.add_init_script(_TOKENS_SCRIPT % json.dumps(tokens))
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()
    assert not errors, f"uncaught errors in the page: {errors}"


def opened(page: Page, path: str) -> Page:
    page.goto(path)
    page.wait_for_selector("body[data-ready]")
    return page


def test_each_browser_sees_its_own_statistics_daily_deal_and_records(
    shared_server: RunningServer, new_person: NewPerson,
) -> None:
    url = shared_server.url
    newcomer = opened(new_person({}), "/")
    today = local_today(newcomer)
    with httpx.Client(base_url=url, timeout=30) as api:
        assert api.get("/api/catalog").json()["shared"] is True
        daily = api.post("/api/daily/mine", params={"today": today}, json={"tokens": []}).json()
        daily_id = next(e["id"] for e in daily["games"] if e["game"] == "minesweeper")
        win(api, started(api, daily_id))  # Carol clears today's Minesweeper at once,
        alices = started(api, daily_id)  # and then Alice, no faster
        win(api, alices)
        bobs = api.post("/api/games", json={"game": "tictactoe",
                                            "seats": ["human", "human"]}).json()
        for cell in ([0, 0], [0, 1], [1, 0], [1, 1], [2, 0]):  # Bob's game at one screen
            api.post(f"/api/games/{bobs['session']}/moves", json={"move": {"cell": cell}},
                     headers={"Authorization": f"Bearer {bobs['token']}"})
    alice = new_person({alices["session"]: alices["token"]})
    bob = new_person({bobs["session"]: bobs["token"]})

    opened(alice, "/stats")
    expect(alice.locator("#groups")).to_contain_text("Minesweeper")
    expect(alice.locator("#groups")).not_to_contain_text("Tic Tac Toe")
    expect(alice.locator(".past-game")).to_have_count(1)
    expect(alice.locator('#daily tr[data-game="minesweeper"] .streak-now')).to_have_text("1")
    opened(bob, "/stats")
    expect(bob.locator("#groups")).to_contain_text("Tic Tac Toe")
    expect(bob.locator("#groups")).not_to_contain_text("Minesweeper")
    expect(bob.locator(".past-game")).to_have_count(1)
    # no backup of everyone's games here: Bob's results as CSV are his game alone
    expect(bob.locator("#backup-download")).to_be_hidden()
    expect(bob.locator("#backup-restore")).to_be_hidden()
    with bob.expect_download() as got:
        bob.locator("#results-csv").click()
    rows = Path(got.value.path()).read_text(encoding="utf-8-sig").splitlines()
    assert len(rows) == 2 and ",Tic Tac Toe," in rows[1], rows
    opened(newcomer, "/stats")
    expect(newcomer.locator("#groups")).to_contain_text("No finished games yet")
    expect(newcomer.locator(".past-game")).to_have_count(0)

    # the day's deal: Alice's is won; Bob may still play his, not watch hers
    opened(alice, "/")
    expect(alice.locator('.daily[data-game="minesweeper"]')).to_have_attribute("data-state", "won")
    opened(bob, "/")
    tile = bob.locator('.daily[data-game="minesweeper"]')
    expect(tile.locator(".daily-result")).to_have_text("Not played yet")
    expect(tile.locator(".daily-action")).to_have_text("Play")

    # Alice's game again: its card's records are hers (her first win sets her best time,
    # however fast Carol was)
    alice.goto(f"/play/minesweeper?session={alices['session']}")
    wait_for_views(alice, 1)
    expect(alice.locator("#end-records")).to_contain_text("Best time")
    expect(alice.locator("#end-detail")).to_contain_text("Your new record: best time, ")


def test_the_keys_file_takes_a_players_games_to_another_browser(
    shared_server: RunningServer, new_person: NewPerson, tmp_path: Path,
) -> None:
    made = httpx.post(f"{shared_server.url}/api/games", timeout=30,
                      json={"game": "tictactoe", "seats": ["human", "human"]}).json()
    for cell in ([1, 1], [0, 0], [2, 2], [0, 2], [0, 1], [2, 1], [1, 0], [1, 2], [2, 0]):
        httpx.post(f"{shared_server.url}/api/games/{made['session']}/moves", timeout=30,
                   json={"move": {"cell": cell}},
                   headers={"Authorization": f"Bearer {made['token']}"})  # a draw
    laptop = opened(new_person({made["session"]: made["token"]}), "/stats")
    expect(laptop.locator("#backup-heading")).to_have_text("Your results and keys")
    expect(laptop.locator("#backup-download")).to_be_hidden()
    with laptop.expect_download() as got:
        laptop.get_by_role("button", name="Download your keys").click()
    keys = tmp_path / "keys.json"
    got.value.save_as(keys)
    assert json.loads(keys.read_text())["tokens"] == {made["session"]: made["token"]}

    phone = opened(new_person({}), "/stats")
    expect(phone.locator("#groups")).to_contain_text("No finished games yet")
    with phone.expect_file_chooser() as chooser:
        phone.get_by_role("button", name="Use keys from a file…").click()
    chooser.value.set_files(keys)
    expect(phone.locator("#backup-note")).to_have_text("Added the keys of 1 game.")
    expect(phone.locator("#groups")).to_contain_text("Tic Tac Toe")
    with phone.expect_file_chooser() as chooser:  # the same file again adds nothing
        phone.get_by_role("button", name="Use keys from a file…").click()
    chooser.value.set_files(keys)
    expect(phone.locator("#backup-note")).to_have_text(
        "Nothing to add: this browser has the keys of all these games already.")
    expect(phone.locator(".past-game")).to_have_count(1)  # its replay, from the phone too

    # a file of another Parlour, or not a keys file at all, changes nothing and says why
    for text, why in ((json.dumps({"format": "parlour-keys", "version": 1,
                                   "parlour": "http://elsewhere.example", "tokens": {}}),
                       "These keys are to games at http://elsewhere.example, not here"),
                      ('{"format": "parlour-backup"}', "This is not a Parlour keys file"),
                      ("[1, 2", "This is not a keys file (it is not JSON)")):
        error = phone.evaluate("async ([text]) => { const { keysOf } = await import("
                               "'/static/backup.js'); try { keysOf(text, location.origin); "
                               "return ''; } catch (e) { return e.message; } }", [text])
        assert error == why
