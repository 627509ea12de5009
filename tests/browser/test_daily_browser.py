"""The daily deal in a real Chromium: a player opens today's Minesweeper deal from the home
page, clears it by clicks, and finds its result on the home page (where the tile now opens
that same game) and the streak on the statistics page.

The test knows where the mines are as the player cannot: it replays the day's id, from
/api/daily, in Python (`Minesweeper.deal`, then the same first click)."""

from __future__ import annotations

import datetime as dt
import re
from zoneinfo import ZoneInfo

import httpx
import pytest
from playwright.sync_api import Page, expect

from parlour.core.gameid import parse_game_id
from parlour.games.minesweeper.logic import OPEN, Minefield, Minesweeper
from tests.browser.conftest import NewContext, NextView

pytestmark = pytest.mark.browser

RULES = Minesweeper()
CENTRE = (7, 7)  # the first click: on the Medium 15×15 board it opens an area

CENTRES_JS = """() => Object.fromEntries(
  [...document.querySelectorAll('[id^="ms-"]')].map((cell) => {
  const box = cell.getBoundingClientRect();
  return [cell.id, [box.x + box.width / 2, box.y + box.height / 2]];
}))"""


def local_today(page: Page) -> str:
    return str(page.evaluate("import('/static/daily.js').then((m) => m.localToday())"))


def next_safe(field: Minefield) -> tuple[int, int]:
    """A closed cell without a mine, an empty one first (it opens its area): few clicks."""
    safe = [cell for cell in range(field.size)
            if field.marks[cell] != OPEN and cell not in field.mined]
    cell = min(safe, key=lambda cell: (field.counts[cell] != 0, cell))
    row, col = divmod(cell, field.cols)
    return row, col


def test_a_daily_deal_played_from_the_home_page_shows_its_result_and_streak(
    new_context: NewContext, next_view: NextView, base_url: str
) -> None:
    page = new_context(viewport={"width": 1366, "height": 800}).new_page()
    page.goto("/")
    page.wait_for_selector("body[data-ready]")
    tile = page.locator('.daily[data-game="minesweeper"]')
    expect(tile).to_contain_text("Medium 15×15")
    expect(tile).to_contain_text("Not played yet")
    today = local_today(page)
    daily = httpx.get(f"{base_url}/api/daily", params={"today": today}).json()
    daily_id = next(entry["id"] for entry in daily["games"] if entry["game"] == "minesweeper")

    with next_view(page):
        tile.get_by_role("link").click()
    expect(page).to_have_url(re.compile(r"/play/minesweeper\?session="))
    sid = page.url.rpartition("session=")[2]
    parsed = parse_game_id(RULES, daily_id)
    field = RULES.apply(RULES.deal(parsed.params, parsed.rng(RULES)), ("open", *CENTRE))
    with next_view(page):
        page.locator(f"#ms-{CENTRE[0]}-{CENTRE[1]}").click()
    centres = page.evaluate(CENTRES_JS)  # the board stays put while it is played
    while RULES.status(field).value == "playing":  # clicks in a row, as a quick player's
        row, col = next_safe(field)
        field = RULES.apply(field, ("open", row, col))
        page.mouse.click(*centres[f"ms-{row}-{col}"])
    expect(page.locator("#headline")).to_contain_text("You win")

    page.goto("/")
    page.wait_for_selector("body[data-ready]")
    expect(tile).to_have_attribute("data-state", "won")
    # its time as the end card writes it: Minesweeper's to the hundredth (4.32, 1:04.32)
    expect(tile.locator(".daily-result")).to_have_text(
        re.compile(r"^Won in (\d+:)?\d+\.\d\d$"))
    expect(tile).to_contain_text("1-day streak")
    # the tile opens the day's game again, not a new one: the day counts once
    expect(tile.get_by_role("link")).to_have_attribute(
        "href", f"/play/minesweeper?session={sid}")

    page.goto("/stats")
    page.wait_for_selector("body[data-ready]")
    row = page.locator('#daily tr[data-game="minesweeper"]')
    expect(row.locator(".streak-now")).to_have_text("1")
    expect(row.locator(".streak-best")).to_have_text("1")
    expect(row.locator(".day").last).to_have_class(re.compile(r"\bwon\b"))
    expect(page.locator("#daily")).to_contain_text("won without help")


@pytest.mark.parametrize("zone", ["Pacific/Kiritimati", "Pacific/Pago_Pago"])  # UTC+14, -11
def test_the_home_page_offers_the_deal_of_the_players_own_date(
    new_context: NewContext, zone: str
) -> None:
    page = new_context(timezone_id=zone).new_page()
    page.goto("/")
    page.wait_for_selector("body[data-ready]")
    before = dt.datetime.now(ZoneInfo(zone)).date()
    link = page.locator('.daily[data-game="ishido"] a')
    href = str(link.get_attribute("href"))
    after = dt.datetime.now(ZoneInfo(zone)).date()
    assert any(f"daily-{day.isoformat()}" in href.replace("%23", "#").replace("%2D", "-")
               for day in (before, after)), href


def test_a_daily_started_in_another_browser_is_watched_there_and_resumed_in_its_own(
    new_context: NewContext, base_url: str
) -> None:
    page = new_context().new_page()
    page.goto("/")
    page.wait_for_selector("body[data-ready]")
    daily = httpx.get(f"{base_url}/api/daily", params={"today": local_today(page)}).json()
    daily_id = next(entry["id"] for entry in daily["games"] if entry["game"] == "sliding")
    started = httpx.post(f"{base_url}/api/games", json={"game": "sliding", "id": daily_id}).json()
    page.reload()
    page.wait_for_selector("body[data-ready]")
    tile = page.locator('.daily[data-game="sliding"]')
    expect(tile.locator(".daily-result")).to_have_text("Started in another browser")
    expect(tile.locator(".daily-action")).to_have_text("Watch")

    own = new_context(tokens={started["session"]: started["token"]}).new_page()
    own.goto("/")
    own.wait_for_selector("body[data-ready]")
    tile = own.locator('.daily[data-game="sliding"]')
    expect(tile.locator(".daily-result")).to_have_text("In progress")
    expect(tile.locator(".daily-action")).to_have_text("Resume")
    expect(tile.get_by_role("link")).to_have_attribute(
        "href", f"/play/sliding?session={started['session']}")
