"""The end card as a demanding new player meets it: the final standings of a game of
several seats (Tribolo against two computers, on a phone), the page scrolled so that the
whole card is in sight (Escalator at 1280x800, Minesweeper on a phone), and again when it
grows after it came (its records a moment later), and the keyboard's focus on the card
itself, so that an Enter or a Space meant for the board throws no result away.

test_layout.py checks where the card stands beside or under every game's board."""

from __future__ import annotations

import functools
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from parlour.games.escalator.logic import verdict_of_deal
from parlour.games.tribolo.rules import board_from_rows
from tests.browser.conftest import NewContext, expect_views, wait_for_views
from tests.browser.scene import Scene
from tests.browser.scenes import SCENES, Reached, Stage
from tests.browser.test_accessibility import assert_none, audit_in_both_themes
from tests.browser.test_escalator_browser import deal_of
from tests.browser.test_layout import assert_in_sight_and_focused, below_the_board, box
from tests.browser.test_tribolo_browser import legal_on
from tests.browser.views import wait_for_layout

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}


def scene(name: str) -> Scene:
    return next(s for s in SCENES if s.name == name)


@functools.cache
def escalator_won() -> Scene:
    """A deal the solver wins, won by its line (the first of the seeds that has a short one)."""
    for number in range(200):
        game_id, layout = deal_of(f"win{number}")
        found = verdict_of_deal(layout)
        if found.winnable and len(found.line) < 45:
            return Scene("escalator", "won", {"id": game_id}, line=tuple(found.line))
    raise AssertionError("no deal the solver wins")


def open_at(new_context: NewContext, reached: Reached, game: str, **options: Any) -> Page:
    page = new_context(tokens={reached.session: reached.token}, **options).new_page()
    page.goto(reached.path(game))
    wait_for_views(page, 1)
    page.evaluate("document.fonts.ready.then(() => true)")
    return page


def end_before_the_eyes(new_context: NewContext, stage: Stage, ending: Scene,
                        **options: Any) -> Page:
    """A page open on a game one move short of its end; the last move is played, and the
    card comes a beat later."""
    reached, last_move = stage.before_the_end(ending)
    page = open_at(new_context, reached, ending.game, **options)
    wait_for_layout(page)
    stage.play(reached, ending.game, last_move)
    expect(page.locator("#end-card")).to_be_visible()
    return page


# -- the standings -----------------------------------------------------------------------
def against_two_computers(base_url: str) -> tuple[Reached, dict[str, Any]]:
    """Tribolo played to its end over REST, Blue (the player) on its first legal cell each
    turn, Red and Green the computers; answers the game and its final view."""
    with httpx.Client(base_url=base_url, timeout=60) as api:
        created = api.post("/api/games", json={
            "game": "tribolo", "id": "tribolo:standard#standings",
            "seats": ["human", "ai:easy", "ai:easy"]}).json()
        reached = Reached(created["session"], created["token"])
        auth = {"Authorization": f"Bearer {reached.token}"}
        path = f"/api/games/{reached.session}"
        while (view := api.get(path, headers=auth).json())["status"] == "playing":
            board = board_from_rows(view["text"].split("\n")[:11])
            x, y = legal_on(board, view["to_move"])[0]
            played = api.post(f"{path}/moves", headers=auth, json={"move": {"cell": [x, y]}})
            assert played.status_code == 200, played.text
    return reached, view


def standings(page: Page) -> list[dict[str, Any]]:
    """The card's standings as the player sees them, in order: each seat's place, mark,
    name and score, whether it is marked as theirs, and where it stands."""
    found: list[dict[str, Any]] = page.evaluate("""() => [...document.querySelectorAll(
        '#end-standings > li')].map((item) => { const r = item.getBoundingClientRect();
        const part = (name) => item.querySelector(name);
        return { place: part('.place').innerText, name: part('.name').firstChild.textContent,
          score: part('.score').innerText, mark: part('.dot').dataset.mark,
          yours: item.classList.contains('you'), top: Math.round(r.top), right: r.right }; })""")
    return found


def test_against_two_computers_on_a_phone_the_card_gives_every_seats_place_and_score(
    new_context: NewContext, base_url: str
) -> None:
    """The card said "Green wins / Second place." and "Your cells 40", and the seats' chips
    with the scores had scrolled under the bar: it now gives each seat's place, mark, name
    and score in finishing order on one line, the player's own as "You"."""
    reached, final = against_two_computers(base_url)
    page = open_at(new_context, reached, "tribolo", **PHONE)
    card = page.locator("#end-card")
    expect(card).to_be_visible()
    wait_for_layout(page)
    names = [seat["name"] for seat in final["seats"]]
    order = sorted(range(3), key=lambda seat: (final["places"][seat], seat))
    ordinals = {1: "1st", 2: "2nd", 3: "3rd"}
    shown = standings(page)
    assert [(item["place"], item["mark"], item["name"], item["score"], item["yours"])
            for item in shown] == [
        (ordinals[final["places"][seat]], str(seat), "You" if seat == 0 else names[seat],
         str(final["scores"][seat]), seat == 0) for seat in order]
    assert len({item["top"] for item in shown}) == 1, f"not on one line: {shown}"
    assert max(item["right"] for item in shown) <= box(page, "#end-standings")["right"]
    # ... in sight, with the whole card, where the chips are not
    assert below_the_board(page)
    assert box(page, "#seats")["bottom"] <= box(page, ".topbar")["bottom"]
    assert_in_sight_and_focused(page, 390, 844)
    # a screen reader hears them with the result (the card's description), "You" by name
    heard = [f"{item['place']} {item['name']} {item['score']}" for item in shown]
    heard = [words.replace(" You ", f" You ({names[0]}) ") for words in heard]
    detail = page.locator("#end-detail").inner_text()
    expect(card).to_have_accessible_description(f"{detail} {' '.join(heard)}")
    assert_none(audit_in_both_themes(page, "the end card's standings", "#end-card"))


@pytest.mark.parametrize("ending, names", [
    ("tribolo-won", {"Blue", "Red", "Green"}),  # three at one screen: no "You", each its name
    ("tictactoe-won", None),  # its scores (1 and 0) say only who won: the headline says it
])
def test_the_standings_name_every_seat_at_a_shared_screen_and_skip_scores_that_say_nothing(
    new_context: NewContext, stage: Stage, ending: str, names: set[str] | None
) -> None:
    page = open_at(new_context, stage.reach(scene(ending)), scene(ending).game,
                   viewport=DESKTOP["viewport"])
    expect(page.locator("#end-card")).to_be_visible()
    if names is None:
        expect(page.locator("#end-standings")).to_be_hidden()
        return
    shown = standings(page)
    assert {item["name"] for item in shown} == names and not any(item["yours"] for item in shown)
    scores = [int(item["score"]) for item in shown]
    assert scores == sorted(scores, reverse=True)  # the most cells first


# -- in sight ------------------------------------------------------------------------------
@pytest.mark.parametrize("ending, options", [
    ("escalator-won", DESKTOP),  # its card ended at 858 px, the record row below the screen
    ("escalator-lost", DESKTOP),  # its last actions cut off, the page 100 px from its end
    ("minesweeper-won", PHONE),  # its figures' labels cut off at 861 px
    ("minesweeper-lost", PHONE),
], ids=["escalator-won-1280x800", "escalator-lost-1280x800", "minesweeper-won-phone",
        "minesweeper-lost-phone"])
def test_the_page_scrolls_to_show_the_whole_card_under_the_board(
    new_context: NewContext, stage: Stage, ending: str, options: dict[str, Any]
) -> None:
    """The page scrolled no further than kept the board's top under the bar, though the
    card under the board fits the screen: now the whole card is in sight, its last figure,
    record and action too."""
    ended = escalator_won() if ending == "escalator-won" else scene(ending)
    page = end_before_the_eyes(new_context, stage, ended, **options)
    if ended.moment == "won":  # a first win without help: a record, which comes after
        expect(page.locator("#end-records .record")).not_to_have_count(0)
    wait_for_layout(page)
    assert below_the_board(page)
    height = options["viewport"]["height"]
    assert_in_sight_and_focused(page, options["viewport"]["width"], height)
    last_parts = ("#end-figures > div:last-child dt, #end-records:not(:empty),"
                  " #end-actions .btn:last-child")
    for part in page.locator(last_parts).all():
        assert part.evaluate("(e) => e.getBoundingClientRect().bottom") <= height, part


def test_a_card_taller_than_the_room_under_the_bar_shows_its_top_there(
    new_context: NewContext, base_url: str
) -> None:
    reached, _ = against_two_computers(base_url)
    short_phone = {**PHONE, "viewport": {"width": 390, "height": 440}}
    page = open_at(new_context, reached, "tribolo", **short_phone)
    expect(page.locator("#end-card")).to_be_visible()
    wait_for_layout(page)
    card, bar = box(page, "#end-card"), box(page, ".topbar")["bottom"]
    assert card["bottom"] - card["top"] > 440 - bar, "the card fits: no test of a tall one"
    assert bar - 1 <= card["top"] <= bar + 1, f"not just under the bar ({bar}): {card}"
    expect(page.locator("#end-actions .btn").first).to_be_in_viewport()


# Holds back the records (GET .../records) until the test calls releaseRecords(): the
# card comes without them, and grows when they come (a busy server).
RECORDS_HELD = """(() => { const fetched = window.fetch;
  const held = new Promise((release) => { window.releaseRecords = release; });
  window.fetch = (url, ...rest) => (String(url).endsWith("/records")
    ? held.then(() => fetched(url, ...rest)) : fetched(url, ...rest)); })();"""


def records_late(new_context: NewContext, stage: Stage, **options: Any) -> Page:
    """Escalator won before the eyes, the card in sight (the page scrolled to it) before
    its records come."""
    reached, last_move = stage.before_the_end(escalator_won())
    context = new_context(tokens={reached.session: reached.token}, **options)
    context.add_init_script(RECORDS_HELD)
    page = context.new_page()
    page.goto(reached.path("escalator"))
    wait_for_views(page, 1)
    wait_for_layout(page)
    stage.play(reached, "escalator", last_move)
    expect(page.locator("#end-card")).to_be_visible()
    wait_for_layout(page)
    assert page.locator("#end-records .record").count() == 0, "the records came early"
    return page


@pytest.mark.parametrize("options", [{**DESKTOP, "reduced_motion": "reduce"},
                                     {**PHONE, "reduced_motion": "no-preference"}],
                         ids=["1280x800", "phone-smooth"])
def test_the_page_follows_the_card_when_its_records_come_after_it(
    new_context: NewContext, stage: Stage, options: dict[str, Any]
) -> None:
    page = records_late(new_context, stage, **options)
    before, scrolled = box(page, "#end-card"), page.evaluate("scrollY")
    page.evaluate("releaseRecords()")
    expect(page.locator("#end-records .record")).not_to_have_count(0)
    wait_for_layout(page)
    after = box(page, "#end-card")
    assert after["bottom"] - after["top"] > before["bottom"] - before["top"], "it did not grow"
    assert page.evaluate("scrollY") > scrolled, "the page did not follow it"
    assert_in_sight_and_focused(page, options["viewport"]["width"], options["viewport"]["height"])


def test_a_player_who_scrolled_away_is_not_brought_back_when_the_card_grows(
    new_context: NewContext, stage: Stage
) -> None:
    page = records_late(new_context, stage, **DESKTOP, reduced_motion="reduce")
    assert page.evaluate("scrollY") > 0
    page.mouse.move(640, 300)
    page.mouse.wheel(0, -2000)  # back up to the board
    page.wait_for_function("() => scrollY === 0")
    page.evaluate("releaseRecords()")
    expect(page.locator("#end-records .record")).not_to_have_count(0)
    wait_for_layout(page)
    assert page.evaluate("scrollY") == 0


# -- the keyboard -----------------------------------------------------------------------------
def test_the_next_game_opens_at_the_top_of_the_page(new_context: NewContext, stage: Stage
                                                    ) -> None:
    """On a phone the page scrolls to the card under the board; the next game (a rematch,
    New game) opened still scrolled there, its seats and status under the bar of buttons.
    It opens at the page's top."""
    page = end_before_the_eyes(new_context, stage, scene("tribolo-won"), **PHONE)
    expect(page.locator("#end-card")).to_be_visible()
    page.wait_for_function("() => window.scrollY > 0")
    address = page.url
    page.locator("#end-card").get_by_role("button", name="New game").tap()
    page.wait_for_function("(address) => location.href !== address", arg=address)
    wait_for_views(page, 1)
    expect(page.locator("#end-card")).to_be_hidden()
    assert page.evaluate("window.scrollY") == 0


@pytest.mark.parametrize("ending", ["minesweeper-won", "minesweeper-lost"])
def test_enter_or_space_after_the_end_keeps_the_result_and_tab_then_enter_starts_a_new_game(
    new_context: NewContext, stage: Stage, ending: str
) -> None:
    """The card gave New game the focus: a keyboard player's next Enter (or Space, the
    flag and the chord) started a new game at once, the result gone before it was read.
    The card itself has the focus now; Tab brings it to New game."""
    reached, last_move = stage.before_the_end(scene(ending))
    page = open_at(new_context, reached, "minesweeper", **DESKTOP)
    ((_, (row, col)),) = last_move.items()
    page.locator(f"#ms-{row}-{col}").focus()
    with expect_views(page):
        page.keyboard.press("Enter")  # the last move, with the keys
    card = page.get_by_role("dialog", name=page.locator("#headline").inner_text())
    expect(card).to_be_visible()
    expect(card).to_be_focused()
    result, address = page.locator("#headline").inner_text(), page.url
    for key in ("Enter", "Space", "Enter", "Space"):
        page.keyboard.press(key)
    page.wait_for_timeout(300)  # (a new game would be asked for at once)
    assert page.url == address
    expect(card).to_be_visible()
    expect(card).to_be_focused()
    expect(page.locator("#headline")).to_have_text(result)
    page.keyboard.press("Tab")
    expect(card.get_by_role("button", name="New game")).to_be_focused()
    page.keyboard.press("Enter")
    page.wait_for_function("(address) => location.href !== address", arg=address)
    expect(page.locator("#end-card")).to_be_hidden()
    expect(page.locator("#ms-grid .open")).to_have_count(0)
    # Esc still puts a card away, and gives the board the focus
    page.goto(address)
    wait_for_views(page, 1)
    expect(card).to_be_focused()
    page.keyboard.press("Escape")
    expect(card).to_be_hidden()
    expect(page.locator("#board-wrap")).to_be_focused()
