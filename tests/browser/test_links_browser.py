"""Links that ask (links.js): a deal link or a seat link opened from outside Parlour (a
pasted address, another site, a stripped referrer) says what it will do and starts no
game and takes no seat before the player's click, by mouse or by Enter; a link to watch
opens at once; Parlour's own pages go straight in. What the server holds is read from its
store and its API, not from the page."""

from __future__ import annotations

import re
import sqlite3
import uuid
from contextlib import closing
from pathlib import Path
from urllib.parse import quote

import pytest
from playwright.sync_api import Page, Route, expect

from parlour.core.gameid import board_words
from parlour.games import GAMES
from tests.browser.conftest import CreateGame, NewContext, ServerView, wait_for_views
from tests.browser.links import LINK_DIALOG, go_from_parlour, link_prompt
from tests.browser.scenes import SCENES, Stage
from tests.support.servers import RunningServer

pytestmark = pytest.mark.browser

ELSEWHERE = "http://elsewhere.example"  # another site, served by the test itself


def a_deal_nobody_played(create_game: CreateGame) -> str:
    """An Expert Minesweeper deal with a seed of its own: no game of it exists yet."""
    made = create_game("minesweeper", params={"rows": 16, "cols": 30, "mines": 99})["id"]
    return f"{made.rpartition('#')[0]}#links{uuid.uuid4().hex[:12]}"


def deal_link(deal: str) -> str:
    return f"/play/minesweeper?id={quote(deal)}"


def games_of(db: Path, deal: str) -> int:
    """How many games of this deal the server has stored."""
    with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as store:
        found: int = store.execute(
            "SELECT count(*) FROM sessions WHERE game_id = ?", (deal,)).fetchone()[0]
    return found


def writes_of(page: Page) -> list[str]:
    """Every request the page makes that could change something (all but GET), as made."""
    sent: list[str] = []
    page.on("request", lambda request: sent.append(f"{request.method} {request.url}")
            if request.method != "GET" else None)
    return sent


def test_a_pasted_deal_link_shows_the_deal_and_starts_it_only_after_the_click(
    new_context: NewContext, create_game: CreateGame, server: RunningServer
) -> None:
    deal = a_deal_nobody_played(create_game)
    page = new_context().new_page()
    sent = writes_of(page)
    page.goto(deal_link(deal))  # no referrer: an address pasted or typed

    prompt = link_prompt(page)
    expect(prompt.locator("#link-title")).to_have_text("Minesweeper")
    expect(prompt.locator("#link-board")).to_have_text(str(board_words(
        GAMES["minesweeper"].game, deal)))  # "Expert 16×30"
    play = prompt.get_by_role("button", name="Play this deal")
    expect(play).to_be_focused()
    page.wait_for_load_state("networkidle")
    assert sent == [] and games_of(server.db, deal) == 0
    assert page.evaluate("localStorage.getItem('parlour.tokens')") in (None, "{}")
    # no game yet: the toolbar behind the prompt has nothing to undo, hint or restart
    for button in ("restart", "undo", "redo", "hint"):
        expect(page.locator(f"#btn-{button}")).to_be_disabled()

    play.click()
    wait_for_views(page, 1)
    expect(page.locator("#btn-hint")).to_be_enabled()
    expect(page).to_have_url(re.compile(r"/play/minesweeper\?session="))
    assert games_of(server.db, deal) == 1
    assert [write for write in sent if "/api/games" in write] == [
        f"POST {server.url}/api/games"]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_behind_a_links_prompt_no_empty_board_or_bare_deal_line_shows(
    new_context: NewContext, create_game: CreateGame, game: str
) -> None:
    """No game is there yet: the board's frame showed as an empty strip 40 px high, and
    the deal line as a bare "Deal". Both come with the game's first view."""
    deal = create_game(game)["id"]
    page = new_context().new_page()
    page.goto(f"/play/{game}?id={quote(deal)}")
    prompt = link_prompt(page)
    for part in ("#board-wrap", ".idbar"):
        expect(page.locator(part)).to_have_css("visibility", "hidden")
    # a game that always starts the same (Tic Tac Toe) has no deal: the link is to a game
    start = "deal" if GAMES[game].game.random_deal else "game"
    expect(prompt).to_contain_text(f"A link to a {start}", ignore_case=True)
    prompt.get_by_role("button", name=f"Play this {start}").click()
    wait_for_views(page, 1)
    expect(page.locator("#board-wrap")).to_be_visible()
    # (Tic-Tac-Toe's deal line has nothing to show: no deal, always the same start)
    expect(page.locator(".idbar")).to_have_css("visibility", "visible")


def test_a_seat_link_names_the_seat_and_who_plays_and_enter_takes_it(
    new_context: NewContext, create_game: CreateGame, server_view: ServerView
) -> None:
    sid = create_game("tribolo", seats=["human", "open", "ai:easy"])["session"]
    page = new_context().new_page()
    sent = writes_of(page)
    page.goto(f"/play/tribolo?session={sid}&seat=1")

    prompt = link_prompt(page)
    expect(prompt.locator("#link-title")).to_have_text("Tribolo")
    expect(prompt.locator("#link-seats li")).to_have_text(
        ["Blue: a player", "Red: open", "Green: the computer (Easy)"])
    expect(prompt.locator("#link-actions .btn")).to_have_text(["Just watch", "Take the Red seat"])
    expect(prompt.get_by_role("button", name="Take the Red seat")).to_be_focused()
    page.wait_for_load_state("networkidle")
    assert sent == [] and server_view(sid)["seats"][1]["open"]

    page.keyboard.press("Enter")  # the keyboard alone: the main button has the focus
    expect(page.locator('#seats [data-seat="1"]')).to_contain_text("You")
    assert not server_view(sid)["seats"][1]["open"]


def test_just_watch_on_a_seat_link_takes_no_seat(
    new_context: NewContext, create_game: CreateGame, server_view: ServerView
) -> None:
    sid = create_game("tribolo", seats=["human", "open", "open"])["session"]
    page = new_context().new_page()
    page.goto(f"/play/tribolo?session={sid}")
    prompt = link_prompt(page)
    expect(prompt.locator("#link-actions .btn")).to_have_text(
        ["Just watch", "Take the Red seat", "Take the Green seat"])
    prompt.get_by_role("button", name="Just watch").click()
    wait_for_views(page, 1)
    expect(page.locator("#message")).to_contain_text("You are watching")
    assert [seat["open"] for seat in server_view(sid)["seats"]] == [False, True, True]


def test_watching_a_solitaire_names_no_player_to_play(
    new_context: NewContext, create_game: CreateGame
) -> None:
    sid = create_game("escalator")["session"]  # its one seat is taken by its maker
    page = new_context().new_page()
    page.goto(f"/play/escalator?session={sid}")
    wait_for_views(page, 1)
    # (not "You are watching. Player to play.")
    expect(page.locator("#message")).to_have_text("You are watching this game.")


def test_a_link_to_watch_opens_at_once(
    new_context: NewContext, create_game: CreateGame
) -> None:
    sid = create_game("tictactoe", seats=["human", "ai:perfect"])["session"]  # no seat open
    page = new_context().new_page()
    sent = writes_of(page)
    page.goto(f"/play/tictactoe?session={sid}")
    wait_for_views(page, 1)
    expect(page.locator("#message")).to_contain_text("You are watching")
    expect(page.locator(LINK_DIALOG)).to_be_hidden()
    assert sent == []


def test_home_and_escape_leave_a_deal_link_without_starting_it(
    new_context: NewContext, create_game: CreateGame, server: RunningServer
) -> None:
    deal = a_deal_nobody_played(create_game)
    page = new_context().new_page()
    page.goto(deal_link(deal))
    link_prompt(page).get_by_role("link", name="Home").click()
    expect(page).to_have_url(f"{server.url}/")

    page.goto(deal_link(deal))
    link_prompt(page)
    page.keyboard.press("Escape")
    expect(page).to_have_url(f"{server.url}/")
    assert games_of(server.db, deal) == 0


def test_a_deal_link_that_cannot_be_played_says_why_and_offers_the_way_home(
    new_context: NewContext
) -> None:
    page = new_context().new_page()
    page.goto("/play/sliding?id=sliding:nonsense")
    prompt = link_prompt(page)
    expect(prompt.locator("#link-what")).to_contain_text("This link's deal cannot be played")
    expect(prompt.locator("#link-actions .btn")).to_have_count(0)
    expect(prompt.get_by_role("link", name="Home")).to_be_focused()


def test_a_link_from_another_site_asks(
    new_context: NewContext, create_game: CreateGame, server: RunningServer
) -> None:
    deal = a_deal_nobody_played(create_game)
    context = new_context()
    page_there = f'<a href="{server.url}{deal_link(deal)}">a tempting deal</a>'

    def serve_elsewhere(route: Route) -> None:
        route.fulfill(content_type="text/html", body=page_there)

    context.route(f"{ELSEWHERE}/**", serve_elsewhere)
    page = context.new_page()
    page.goto(f"{ELSEWHERE}/")
    page.get_by_role("link", name="a tempting deal").click()
    link_prompt(page)
    assert page.evaluate("document.referrer") == f"{ELSEWHERE}/"  # named, not stripped
    assert games_of(server.db, deal) == 0


def test_a_link_in_parlour_without_its_referrer_asks(
    new_context: NewContext, create_game: CreateGame, server: RunningServer
) -> None:
    deal = a_deal_nobody_played(create_game)
    page = new_context().new_page()
    page.goto("/")
    page.evaluate("""link => {
      const a = Object.assign(document.createElement("a"), { href: link, rel: "noreferrer",
        textContent: "no referrer" });
      document.body.append(a);
    }""", deal_link(deal))
    page.get_by_role("link", name="no referrer").click()
    link_prompt(page)  # a stripped referrer counts as outside Parlour
    assert games_of(server.db, deal) == 0


def test_links_followed_from_parlours_own_pages_go_straight_in(
    new_context: NewContext, create_game: CreateGame, server: RunningServer,
    server_view: ServerView,
) -> None:
    deal = a_deal_nobody_played(create_game)
    page = new_context().new_page()
    go_from_parlour(page, deal_link(deal))
    wait_for_views(page, 1)
    expect(page.locator(LINK_DIALOG)).to_be_hidden()
    assert games_of(server.db, deal) == 1

    sid = create_game("tribolo", seats=["human", "open", "ai:easy"])["session"]
    friend = new_context().new_page()
    go_from_parlour(friend, f"/play/tribolo?session={sid}&seat=1")
    expect(friend.locator('#seats [data-seat="1"]')).to_contain_text("You")
    expect(friend.locator(LINK_DIALOG)).to_be_hidden()
    assert not server_view(sid)["seats"][1]["open"]


def test_the_replays_play_this_deal_starts_it_without_asking(
    new_context: NewContext, stage: Stage
) -> None:
    reached = stage.reach(next(
        scene for scene in SCENES if scene.game == "minesweeper" and scene.moment != "play"))
    page = new_context().new_page()
    page.goto(f"/replay/{reached.session}")
    page.get_by_role("link", name="Play this deal").click()
    page.wait_for_url("**/play/minesweeper?session=*")
    wait_for_views(page, 1)
    expect(page.locator(LINK_DIALOG)).to_be_hidden()
    assert page.url.rpartition("session=")[2] != reached.session  # a game of its own


def test_back_and_forward_go_between_the_games_started_in_the_page(
    new_context: NewContext, create_game: CreateGame
) -> None:
    """A new game gets an address of its own, as on lichess: Back returns to the game
    before it, as it stands, and Forward to the new one again."""
    first = create_game("minesweeper")
    context = new_context(tokens={first["session"]: first["token"]})
    page = context.new_page()
    page.goto(f"/play/minesweeper?session={first['session']}")
    wait_for_views(page, 1)
    first_id = page.locator("#game-id").inner_text()
    page.locator("#ms-face").click()  # a new game of this size
    expect(page.locator("#game-id")).not_to_have_text(first_id)
    second_url, second_id = page.url, page.locator("#game-id").inner_text()
    assert second_url.rpartition("session=")[2] != first["session"]

    page.go_back()
    expect(page.locator("#game-id")).to_have_text(first_id)
    assert page.url.rpartition("session=")[2] == first["session"]
    page.go_forward()
    expect(page.locator("#game-id")).to_have_text(second_id)
    assert page.url == second_url
