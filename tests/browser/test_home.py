"""The home page in a real Chromium: the Resume list shows only this browser's games, the
most recent few with their boards, each removable (and the removal undoable); T changes
the theme, as the button's tooltip says."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from playwright.sync_api import BrowserContext, Page, expect

from parlour.games import GAMES
from tests.browser.conftest import CreateGame, NewContext

pytestmark = pytest.mark.browser

PHONE = {"has_touch": True, "is_mobile": True, "viewport": {"width": 390, "height": 844}}


def started(base_url: str, create_game: CreateGame, game: str, move: Any,
            **options: Any) -> tuple[str, str]:
    """A game with a move made, as a player would leave it to resume later."""
    created = create_game(game, **options)
    sid, token = created["session"], created["token"]
    reply = httpx.post(f"{base_url}/api/games/{sid}/moves", json={"move": move},
                       headers={"Authorization": f"Bearer {token}"}, timeout=30)
    assert reply.status_code == 200, reply.text
    return sid, token


def home(context: BrowserContext) -> Page:
    page = context.new_page()
    page.goto("/")
    page.wait_for_selector("body[data-ready]")
    return page


def listed(page: Page) -> list[str]:
    entries = page.locator("#resume li")
    return [str(entries.nth(i).get_attribute("data-session")) for i in range(entries.count())]


def test_resume_lists_only_this_browsers_games_the_newest_five_first(
    new_context: NewContext, create_game: CreateGame, base_url: str
) -> None:
    mine = [started(base_url, create_game, "tictactoe", {"cell": [1, 1]},
                    seats=["human", "ai:random"]) for _ in range(6)]
    expert = started(base_url, create_game, "minesweeper", {"open": [3, 3]},
                     params={"rows": 16, "cols": 30, "mines": 99})
    mine.append(expert)
    theirs = started(base_url, create_game, "tictactoe", {"cell": [0, 0]},
                     seats=["human", "human"])
    page = home(new_context(tokens=dict(mine), **PHONE))

    shown = listed(page)
    assert len(shown) == 5 and shown[0] == expert[0]  # the last played comes first
    assert theirs[0] not in shown
    first = page.locator("#resume li").first
    expect(first).to_contain_text("Minesweeper")
    expect(first).to_contain_text("16×30")  # the board: Minesweeper's summary of its params
    expect(first).to_contain_text("1 move")
    expect(page.locator("#resume")).not_to_contain_text("watch or join")
    assert_resume_comes_first_on_the_first_screen(page, 844)

    more = page.locator("#resume-more")
    expect(more).to_have_text("Show all 7")
    more.click()
    expect(page.locator("#resume li")).to_have_count(7)
    assert set(listed(page)) == {sid for sid, _ in mine}
    expect(more).to_be_hidden()


def assert_resume_comes_first_on_the_first_screen(page: Page, height: int) -> None:
    """The games to resume above the games' cards and the daily deals (a returning player's
    likeliest step: it was below both, at y 615 on a 390x844 phone, under the fold with
    taller deals), its first entry whole on the first screen, the page's order otherwise
    kept: the games, then the daily deals."""
    assert page.evaluate("scrollY") == 0
    headings = page.locator("main h2.section")
    expect(headings.first).to_have_text("Resume")
    first = page.locator("#resume li").first.bounding_box()
    assert first is not None and first["y"] + first["height"] <= height, first
    tops: dict[str, float] = {}
    for name in ("Resume", "Games", "Daily deals"):
        box = page.get_by_role("heading", name=name).bounding_box()
        assert box is not None, name
        tops[name] = box["y"]
    assert sorted(tops, key=tops.__getitem__) == ["Resume", "Games", "Daily deals"], tops


def assert_games_on_the_first_screen(page: Page, height: int) -> None:
    """Every game's card whole within the first viewport, without scrolling."""
    cards = page.locator("#games a.card")
    expect(cards).to_have_count(len(GAMES))
    assert page.evaluate("scrollY") == 0
    for i in range(len(GAMES)):
        box = cards.nth(i).bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, (
            cards.nth(i).get_attribute("data-game"), box)
        assert box["height"] >= 44  # a finger's target


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize(("options", "height"), [
    (PHONE, 844), ({"viewport": {"width": 1366, "height": 800}}, 800)], ids=["phone", "desktop"])
def test_every_game_fits_the_first_screen(
    new_context: NewContext, options: dict[str, Any], height: int, scheme: str
) -> None:
    page = home(new_context(color_scheme=scheme, **options))
    assert_games_on_the_first_screen(page, height)
    assert page.evaluate("document.documentElement.scrollWidth") <= options["viewport"]["width"]
    names = page.locator("#games a.card h3").all_inner_texts()
    for name in names:  # each name whole on its card, nothing cut off
        title = page.locator("#games a.card h3", has_text=name)
        assert title.evaluate("(h) => h.scrollWidth <= h.clientWidth"), name


@pytest.mark.parametrize(("options", "height"), [
    (PHONE, 844), ({"viewport": {"width": 1366, "height": 800}}, 800)], ids=["phone", "desktop"])
def test_a_returning_player_finds_the_game_to_resume_first_and_opens_it(
    new_context: NewContext, create_game: CreateGame, base_url: str,
    options: dict[str, Any], height: int,
) -> None:
    kept = started(base_url, create_game, "minesweeper", {"open": [2, 2]})
    page = home(new_context(tokens=dict([kept]), **options))
    assert_resume_comes_first_on_the_first_screen(page, height)
    entry = page.locator("#resume li a").first
    title, when = (entry.locator(part).bounding_box() for part in ("b", ".when"))
    assert title and when and abs(title["y"] + title["height"] / 2
                                  - (when["y"] + when["height"] / 2)) < 4, (
        "when the game was played is not on the line of its name")
    if options.get("has_touch"):
        entry.tap()
    else:
        entry.click()
    page.wait_for_url(f"**/play/minesweeper?session={kept[0]}")


def test_a_browser_with_no_seat_sees_no_resume_list(
    new_context: NewContext, create_game: CreateGame, base_url: str
) -> None:
    started(base_url, create_game, "tictactoe", {"cell": [1, 1]}, seats=["human", "human"])
    page = home(new_context())
    expect(page.locator("#resume-section")).to_be_hidden()
    expect(page.locator(".card").first).to_be_visible()


def test_removing_an_entry_is_kept_by_the_server_and_can_be_undone(
    new_context: NewContext, create_game: CreateGame, base_url: str
) -> None:
    kept = started(base_url, create_game, "tictactoe", {"cell": [1, 1]},
                   seats=["human", "ai:random"])
    gone = started(base_url, create_game, "minesweeper", {"open": [2, 2]})
    context = new_context(tokens=dict([kept, gone]))
    page = home(context)
    assert listed(page) == [gone[0], kept[0]]

    summary = httpx.post(f"{base_url}/api/sessions/mine",
                         json={"tokens": [gone[1]]}).json()["games"][0]["summary"]
    assert "7×7" in summary
    remove = page.get_by_role("button", name=f"Remove Minesweeper · {summary} from this list")
    remove.click()
    expect(page.locator("#resume li")).to_have_count(1)
    assert listed(page) == [kept[0]]
    expect(page.locator("#resume-undo")).to_contain_text(f"Removed Minesweeper · {summary}")
    again = home(context)  # the server keeps it off: a reload does not bring it back
    assert listed(again) == [kept[0]]
    answer = httpx.get(f"{base_url}/api/games/{gone[0]}",
                       headers={"Authorization": f"Bearer {gone[1]}"})
    assert answer.json()["status"] == "playing"  # the game itself is untouched

    page.locator("#resume-undo-button").click()
    expect(page.locator("#resume li")).to_have_count(2)
    expect(page.locator("#resume-undo")).to_be_hidden()
    assert listed(home(context)) == [gone[0], kept[0]]


def test_removing_the_last_entry_leaves_its_undo_in_sight(
    new_context: NewContext, create_game: CreateGame, base_url: str
) -> None:
    only = started(base_url, create_game, "minesweeper", {"open": [2, 2]})
    page = home(new_context(tokens=dict([only])))
    page.locator("#resume .forget").click()
    expect(page.locator("#resume li")).to_have_count(0)
    expect(page.locator("#resume-undo-button")).to_be_visible()
    expect(page.locator("#resume-undo-button")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#resume li")).to_have_count(1)


def test_t_changes_the_theme_on_the_home_page(new_context: NewContext) -> None:
    page = home(new_context(color_scheme="light"))
    assert page.evaluate("document.documentElement.dataset.theme") == "light"
    expect(page.locator("#theme-label")).to_have_text("Auto")
    seen = []
    for _ in range(4):
        page.keyboard.press("t")
        seen.append((page.locator("#theme-label").inner_text(),
                     page.evaluate("document.documentElement.dataset.theme")))
    # from Auto on a light screen, Dark first: Light would look the same, as if T did nothing
    assert seen == [("Dark", "dark"), ("Colour-blind", "colour-blind"), ("Auto", "light"),
                    ("Dark", "dark")]
    page.keyboard.press("Control+t")  # not T alone: the browser's, not the page's
    expect(page.locator("#theme-label")).to_have_text("Dark")
    page.keyboard.press("t")
    assert page.evaluate("JSON.parse(localStorage.getItem('parlour.prefs')).theme") == (
        "colour-blind")


def test_from_auto_on_a_dark_screen_t_brings_the_light_theme(new_context: NewContext) -> None:
    page = home(new_context(color_scheme="dark"))
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    page.keyboard.press("t")
    expect(page.locator("#theme-label")).to_have_text("Light")
    page.keyboard.press("t")
    expect(page.locator("#theme-label")).to_have_text("Dark")


def test_the_api_docs_work_without_internet(new_context: NewContext, base_url: str) -> None:
    page = new_context().new_page()
    elsewhere: list[str] = []

    def local_only(route: Any) -> None:
        if route.request.url.startswith(base_url):
            route.continue_()
        else:
            elsewhere.append(route.request.url)
            route.abort()

    page.route("**/*", local_only)
    page.goto("/docs", timeout=30_000)  # Swagger UI's 1.5 MB script, on a busy machine
    expect(page.locator(".opblock").first).to_be_visible(timeout=20_000)
    expect(page.locator(".opblock-summary-path", has_text="/api/sessions/mine")).to_have_count(1)
    assert elsewhere == []


@pytest.mark.parametrize("width", [320, 360])
def test_every_games_name_fits_its_card_on_a_narrow_phone(new_context: NewContext,
                                                         width: int) -> None:
    page = home(new_context(has_touch=True, is_mobile=True,
                            viewport={"width": width, "height": 740}))
    titles = page.locator(".home .card h3")
    expect(titles).to_have_count(len(GAMES))
    cut = titles.evaluate_all(
        "(all) => all.filter((h) => h.scrollWidth > h.clientWidth).map((h) => h.textContent)")
    assert cut == [], f"names cut off at {width} px: {cut}"
