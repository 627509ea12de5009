"""Watching a replay as a player does: a finished game of every game stepped through with
the keyboard (← → Home End), played at a chosen speed, jumped about with the slider and
the move list, swiped on a phone; opened from the end card, from the statistics page's
past games and from a shared link; refused, with the reason, to a watcher while the game
is on.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from playwright.sync_api import Locator, Page, expect

from parlour.core.gameid import parse_game_id
from parlour.games.minesweeper.logic import Minesweeper
from parlour.games.minesweeper.tests.scenes import open_safe_cells
from tests.browser.conftest import CreateGame, NewContext, wait_for_views
from tests.browser.pages import game_style_comes_late, in_its_box, width_and_room_once_styled
from tests.browser.scene import Scene
from tests.browser.scenes import SCENES, Stage, open_ready
from tests.browser.views import wait_for_layout

pytestmark = pytest.mark.browser

ENDED = {scene.game: scene for scene in reversed(SCENES) if scene.moment != "play"}
"""A finished game of each game (its first ending scene)."""
MINESWEEPER = Minesweeper()
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def open_replay(new_context: NewContext, sid: str, tokens: dict[str, str] | None = None,
                path: str | None = None, **options: Any) -> Page:
    """The replay of `sid` (or `path`, a link to one of its moves) in a new browser."""
    page = new_context(tokens=tokens, **options).new_page()
    open_ready(page, path or f"/replay/{sid}")
    return page


def position_html(base_url: str, sid: str, ply: int) -> str:
    reply = httpx.get(f"{base_url}/api/games/{sid}/positions/{ply}")
    assert reply.status_code == 200, reply.text
    html: str = reply.json()["html"]
    return html


def board_is(page: Page, html: str) -> None:
    """The board shows `html` (as the browser parses it)."""
    page.wait_for_function(
        "(html) => { const t = document.createElement('template'); t.innerHTML = html;"
        " return document.getElementById('board').innerHTML === t.innerHTML; }", arg=html)


def shown_at(ply: int, plies: int) -> str:
    """What the replay says of the move shown."""
    if ply == 0:
        return f"Start · {plies} move{'' if plies == 1 else 's'}"
    return f"Move {ply} of {plies}"


def plies_of(base_url: str, sid: str) -> int:
    plies: int = httpx.get(f"{base_url}/api/games/{sid}/replay").json()["plies"]
    return plies


@pytest.mark.parametrize("game", sorted(ENDED))
def test_a_finished_game_is_watched_move_by_move_with_the_keyboard(
    new_context: NewContext, stage: Stage, base_url: str, game: str,
) -> None:
    sid = stage.reach(ENDED[game]).session
    plies = plies_of(base_url, sid)
    page = open_replay(new_context, sid)  # no seat: anyone may watch a finished game
    count = page.locator("#replay-count")
    expect(count).to_have_text(shown_at(0, plies))
    board_is(page, position_html(base_url, sid, 0))
    page.keyboard.press("ArrowRight")
    expect(count).to_have_text(f"Move 1 of {plies}")
    board_is(page, position_html(base_url, sid, 1))
    page.keyboard.press("End")
    expect(count).to_have_text(f"Move {plies} of {plies}")
    board_is(page, position_html(base_url, sid, plies))
    # the figures at the end, not the headline again: it is just above ("Game over: a mine")
    expect(page.locator("#message")).to_contain_text("At the end: time ")
    assert page.locator("#headline").inner_text() not in page.locator("#message").inner_text()
    # coloured as the result is taken: a solitaire's by anyone, no one's of several players
    replay = httpx.get(f"{base_url}/api/games/{sid}/replay").json()
    coloured = replay["status"] if len(replay["seats"]) == 1 else None
    if coloured in ("won", "lost"):
        expect(page.locator("#headline")).to_have_class(re.compile(rf"\b{coloured}\b"))
    else:
        expect(page.locator("#headline")).not_to_have_class(re.compile(r"\b(won|lost)\b"))
    if game == "minesweeper":  # its figures as written, mid-sentence ("3BV", not "3bv")
        expect(page.locator("#message")).to_contain_text("3BV ")
    expect(page.get_by_role("button", name="Forward a move")).to_be_disabled()
    page.keyboard.press("ArrowLeft")
    expect(count).to_have_text(shown_at(plies - 1, plies))
    board_is(page, position_html(base_url, sid, plies - 1))
    page.keyboard.press("Home")
    expect(count).to_have_text(shown_at(0, plies))
    expect(page.get_by_role("button", name="Back a move")).to_be_disabled()
    assert page.url.endswith("#move=0")
    # a past board plays nothing (a look at it aside: the sliding puzzle's finished picture)
    expect(page.locator("#board button:enabled:not([data-peek])")).to_have_count(0)


def test_keys_pressed_faster_than_positions_come_ask_one_at_a_time_and_end_on_the_last(
    new_context: NewContext, stage: Stage, base_url: str,
) -> None:
    game = max(ENDED, key=lambda name: plies_of(base_url, stage.reach(ENDED[name]).session))
    sid = stage.reach(ENDED[game]).session
    plies = plies_of(base_url, sid)
    presses = min(plies, 8)
    page = open_replay(new_context, sid)
    in_flight, most = 0, 0

    def slowly(route: Any) -> None:  # a server pacing this browser: each position late
        nonlocal in_flight, most
        in_flight += 1
        most = max(most, in_flight)
        page.wait_for_timeout(150)
        route.continue_()
        in_flight -= 1

    page.route("**/positions/*", slowly)
    for _ in range(presses):
        page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-count")).to_have_text(f"Move {presses} of {plies}")
    board_is(page, position_html(base_url, sid, presses))
    assert most == 1


def test_play_runs_the_game_to_its_end_at_the_chosen_speed(
    new_context: NewContext, stage: Stage, base_url: str,
) -> None:
    sid = stage.reach(ENDED["tictactoe"]).session
    plies = plies_of(base_url, sid)
    page = open_replay(new_context, sid)
    page.get_by_label("Speed").select_option("100")
    play = page.get_by_role("button", name="Play")
    play.focus()
    page.keyboard.press("Space")
    expect(page.get_by_role("button", name="Pause")).to_be_visible()
    expect(page.locator("#replay-count")).to_have_text(f"Move {plies} of {plies}")
    expect(page.get_by_role("button", name="Play")).to_be_visible()  # it stops at the end
    board_is(page, position_html(base_url, sid, plies))


def test_the_slider_and_the_move_list_jump_to_any_move(
    new_context: NewContext, stage: Stage, base_url: str,
) -> None:
    sid = stage.reach(ENDED["tribolo"]).session
    plies = plies_of(base_url, sid)
    page = open_replay(new_context, sid)
    page.get_by_role("slider", name="Move").fill(str(plies // 2))
    expect(page.locator("#replay-count")).to_have_text(f"Move {plies // 2} of {plies}")
    board_is(page, position_html(base_url, sid, plies // 2))
    # each player's mark in the list has its shape as in the game (● ■ ◆), not colour alone
    shapes = page.evaluate("""() => [1, 2, 3].map((ply) => {
      const dot = document.querySelector(`#movelist-items .mv[data-ply='${ply}'] .dot`);
      const style = getComputedStyle(dot);
      return `${style.borderRadius} ${style.clipPath}`; })""")
    assert len(set(shapes)) == 3, shapes
    page.locator("#movelist-items .mv[data-ply='3']").click()
    expect(page.locator("#replay-count")).to_have_text(f"Move 3 of {plies}")
    expect(page.locator("#message")).to_contain_text(" played ")
    board_is(page, position_html(base_url, sid, 3))


def test_a_shared_link_opens_at_its_move_and_a_phone_steps_by_tap_and_swipe(
    new_context: NewContext, stage: Stage, base_url: str,
) -> None:
    sid = stage.reach(ENDED["minesweeper"]).session
    plies = plies_of(base_url, sid)
    page = new_context(**PHONE).new_page()
    page.goto(f"/replay/{sid}#move=1")
    expect(page.locator("#replay-count")).to_have_text(f"Move 1 of {plies}")
    page.get_by_role("button", name="Back a move").tap()
    expect(page.locator("#replay-count")).to_have_text(shown_at(0, plies))
    wrap = page.locator("#board-wrap").bounding_box()
    assert wrap is not None
    y = wrap["y"] + wrap["height"] / 2
    page.mouse.move(wrap["x"] + wrap["width"] * 0.8, y)
    page.mouse.down()
    page.mouse.move(wrap["x"] + wrap["width"] * 0.2, y, steps=5)
    page.mouse.up()  # a swipe to the left: the next move
    expect(page.locator("#replay-count")).to_have_text(f"Move 1 of {plies}")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # a replay starts no game and keeps no seconds: Minesweeper's boards and clock are gone
    expect(page.locator("#ms-mines")).to_be_visible()
    expect(page.locator("#ms-presets")).to_be_hidden()
    expect(page.locator("#ms-time")).to_be_hidden()


def test_a_move_written_in_the_address_bar_is_followed_and_steps_do_not_echo_back(
    new_context: NewContext, stage: Stage, base_url: str,
) -> None:
    """A player opens a link at move 10, then edits the address to move 30: the replay goes
    there (it stayed at "Move 10"). Stepping after it rewrites the address in place (no
    history entry, no hashchange fighting the step), so Back returns to move 10 and
    Forward to the move stepped to; an address past the end shows the end."""
    sid = stage.reach(ENDED["tribolo"]).session
    plies = plies_of(base_url, sid)
    assert plies > 31, plies
    page = open_replay(new_context, sid, path=f"/replay/{sid}#move=10")
    count = page.locator("#replay-count")
    expect(count).to_have_text(f"Move 10 of {plies}")
    page.evaluate("window.hashchanges = 0;"
                  " addEventListener('hashchange', () => { window.hashchanges += 1; })")

    page.goto(f"/replay/{sid}#move=30")  # the address bar edited: the same page, a new hash
    expect(count).to_have_text(f"Move 30 of {plies}")
    board_is(page, position_html(base_url, sid, 30))
    expect(page.get_by_role("slider", name="Move")).to_have_value("30")
    page.keyboard.press("ArrowRight")
    expect(count).to_have_text(f"Move 31 of {plies}")
    assert page.url.endswith("#move=31")
    page.wait_for_timeout(300)  # time for an echo of the step's own address to undo it
    expect(count).to_have_text(f"Move 31 of {plies}")
    assert page.evaluate("window.hashchanges") == 1  # the player's edit alone

    page.go_back()
    expect(count).to_have_text(f"Move 10 of {plies}")
    board_is(page, position_html(base_url, sid, 10))
    page.go_forward()
    expect(count).to_have_text(f"Move 31 of {plies}")
    page.goto(f"/replay/{sid}#move=99999")
    expect(count).to_have_text(f"Move {plies} of {plies}")
    page.wait_for_function(f"location.hash === '#move={plies}'")


def test_a_replay_s_face_starts_no_game_and_does_not_look_as_if_it_would(
    new_context: NewContext, stage: Stage, base_url: str,
) -> None:
    """Minesweeper's face starts a game of the board's size on the game's page. On a
    replay it starts nothing, so it offers nothing: disabled, never reached by Tab, no
    "New game of this size" title, and a tap on it leaves the replay where it was."""
    won = Scene("minesweeper", "won", {"id": "minesweeper:easy#x"}, open_safe_cells)
    sid = stage.reach(won).session
    plies = plies_of(base_url, sid)
    page = open_replay(new_context, sid, path=f"/replay/{sid}#move=2", **PHONE)
    count = page.locator("#replay-count")
    expect(count).to_have_text(f"Move 2 of {plies}")
    face = page.locator("#ms-face")
    expect(face).to_be_visible()
    expect(face).to_be_disabled()
    assert face.get_attribute("title") is None
    assert face.evaluate("(face) => getComputedStyle(face).cursor") == "default"
    asked: list[str] = []
    page.on("request", lambda request: asked.append(f"{request.method} {request.url}"))
    box = face.bounding_box()
    assert box is not None
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_timeout(300)
    expect(count).to_have_text(f"Move 2 of {plies}")
    assert page.url.endswith(f"/replay/{sid}#move=2")
    assert not [request for request in asked if request.startswith("POST")], asked

    page.get_by_role("button", name="The end").tap()  # the face of the end: still nothing
    expect(count).to_have_text(f"Move {plies} of {plies}")
    expect(face).to_have_text("😎")
    expect(face).to_be_disabled()
    reached = []
    page.locator("body").focus()
    for _ in range(20):  # every stop of Tab: the page's controls, never the board's
        page.keyboard.press("Tab")
        reached.append(page.evaluate("document.activeElement.id || document.activeElement.tagName"))
    assert "ms-face" not in reached, reached
    assert "rp-slider" in reached, reached  # Tab did go round the page's own controls


def lose_hard_at_its_far_end(create_game: CreateGame, base_url: str) -> tuple[str, str]:
    """A game of Hard in two moves: a cell at its near end, then a mine at its far end.
    Answers its session and the mine's selector."""
    game_id, first = "minesweeper:hard#replay-far", (7, 1)
    parsed = parse_game_id(MINESWEEPER, game_id)
    dealt = MINESWEEPER.deal(parsed.params, parsed.rng(MINESWEEPER))
    mined = MINESWEEPER.apply(dealt, ("open", *first)).mined
    far = divmod(max(mined, key=lambda cell: cell % dealt.cols), dealt.cols)
    assert far[1] >= dealt.cols - 2, "the mine is not at the far end"
    created = create_game("minesweeper", id=game_id)
    sid, token = created["session"], created["token"]
    for cell in (first, far):
        moved = httpx.post(f"{base_url}/api/games/{sid}/moves", json={"move": {"open": list(cell)}},
                           headers={"Authorization": f"Bearer {token}"})
        assert moved.status_code == 200, moved.text
    return sid, f"#ms-{far[0]}-{far[1]}"


def test_on_a_tall_phone_the_replay_pans_the_board_s_box_to_the_mine_that_ended_the_game(
    new_context: NewContext, create_game: CreateGame, base_url: str,
) -> None:
    """Hard on an upright 390x844 phone pans in a box that shows its top; the game is lost
    at the board's far end. At the losing move the replay pans the box to the exploded
    mine, as the game's page does (the box stayed at the top, the mine out of its sight
    below), and so does a link that opens there."""
    sid, mine = lose_hard_at_its_far_end(create_game, base_url)
    page = open_replay(new_context, sid, **PHONE)
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-count")).to_have_text("Move 1 of 2")
    wait_for_layout(page)
    assert not in_its_box(page.locator(mine)), "the box shows the whole board"
    page.keyboard.press("End")
    expect(page.locator(mine)).to_have_class(re.compile(r"\bexploded\b"))
    wait_for_layout(page)
    assert in_its_box(page.locator(mine)), "the mine that lost is out of sight"
    expect(page.locator(mine)).to_be_in_viewport()

    page = open_replay(new_context, sid, **PHONE, path=f"/replay/{sid}#move=2")
    expect(page.locator(mine)).to_have_class(re.compile(r"\bexploded\b"))
    wait_for_layout(page)
    assert in_its_box(page.locator(mine)), "opened at the end, the mine is out of sight"


def touch_swipe(page: Page, within: Locator, from_x: float, to_x: float) -> None:
    """A finger drawn across `within`, at mid-height, from `from_x` to `to_x` (fractions of
    its width): touch events, which a box that pans by touch may take for itself."""
    box = within.bounding_box()
    assert box is not None
    y = box["y"] + box["height"] / 2
    touch = page.context.new_cdp_session(page)
    steps = 6
    for index in range(steps + 1):
        x = box["x"] + box["width"] * (from_x + (to_x - from_x) * index / steps)
        kind = "touchStart" if index == 0 else "touchMove"
        touch.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [{"x": x, "y": y}]})
    touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    touch.detach()


def test_on_a_tall_phone_each_step_keeps_the_board_s_box_where_the_player_panned_it(
    new_context: NewContext, create_game: CreateGame, base_url: str,
) -> None:
    """Hard on an upright 390x844 phone: a player pans the board's box to its far end and
    steps, by key, by the buttons (tapped) and by a swipe across the box; the box stays
    there (the board was drawn anew at each step, and the box went back to its top). After
    the last move's pan to the exploded mine, a step back keeps the mine's cell in sight."""
    sid, mine = lose_hard_at_its_far_end(create_game, base_url)
    page = open_replay(new_context, sid, **PHONE)
    count = page.locator("#replay-count")
    box = page.locator(".board-scroll")
    wait_for_layout(page)
    panned = box.evaluate("(box) => box.scrollTop = box.scrollHeight - box.clientHeight")
    assert panned > 100, "the box shows the whole board"

    def still_panned() -> None:
        wait_for_layout(page)
        assert abs(box.evaluate("(box) => box.scrollTop") - panned) <= 1

    page.keyboard.press("ArrowRight")
    expect(count).to_have_text("Move 1 of 2")
    still_panned()
    page.get_by_role("button", name="Back a move").tap()
    expect(count).to_have_text(shown_at(0, 2))
    still_panned()
    touch_swipe(page, box, 0.8, 0.2)  # to the left: the next move
    expect(count).to_have_text("Move 1 of 2")
    still_panned()

    box.evaluate("(box) => { box.scrollTop = 0; }")  # back to the board's top
    page.keyboard.press("End")
    expect(page.locator(mine)).to_have_class(re.compile(r"\bexploded\b"))
    wait_for_layout(page)
    page.keyboard.press("ArrowLeft")
    expect(count).to_have_text("Move 1 of 2")
    expect(page.locator(mine)).not_to_have_class(re.compile(r"\bexploded\b"))
    wait_for_layout(page)
    assert in_its_box(page.locator(mine)), "a step back lost the mine's place"


def test_on_a_tall_phone_the_board_s_box_takes_the_screen_down_to_its_foot(
    new_context: NewContext, create_game: CreateGame, base_url: str,
) -> None:
    """Hard on an upright 390x844 phone: the replay's bar over the grid is one row (no
    boards to start), so the box the grid pans in takes the boards' row's room too: the
    deal line ends at the screen's foot (50 px were left blank under it, the box 455 px
    high; 504 now, its cells as in play), the replay's controls in sight above the board,
    at the start and at the end, whose figures take a line more."""
    sid, _ = lose_hard_at_its_far_end(create_game, base_url)
    page = open_replay(new_context, sid, **PHONE)
    for key, shown in (("Home", shown_at(0, 2)), ("End", "Move 2 of 2")):
        page.keyboard.press(key)
        expect(page.locator("#replay-count")).to_have_text(shown)
        wait_for_layout(page)
        deal_line = page.locator(".idbar").bounding_box()
        assert deal_line is not None
        assert 844 - 8 <= deal_line["y"] + deal_line["height"] <= 844, deal_line
        assert page.evaluate("document.documentElement.scrollHeight") <= 844
        for control in ("#rp-start", "#rp-end", "#rp-slider"):
            expect(page.locator(control)).to_be_in_viewport(ratio=1)


def test_the_board_is_fitted_to_the_room_its_game_s_layout_leaves_it(
    new_context: NewContext, stage: Stage,
) -> None:
    """The game's stylesheet comes late (a busy server): the board is fitted once it has
    come, to the room Minesweeper's layout leaves it on a phone (the board's panel reaches
    the screen's sides). Fitted before it came, Easy's cells were 48 px across a 390-pixel
    phone, not 52."""
    sid = stage.reach(ENDED["minesweeper"]).session
    page = new_context(**PHONE).new_page()
    game_style_comes_late(page, 400)
    open_ready(page, f"/replay/{sid}")
    room, fitted = width_and_room_once_styled(page)
    assert fitted == room


def test_on_a_phones_side_the_replay_opens_at_its_top_and_says_play_this_deal(
    new_context: NewContext, stage: Stage,
) -> None:
    """640x360: putting the move list's current move in sight scrolls the list alone, not
    the page (the title sat under the bar); "Play this deal" keeps its words, beside the
    replay's own ▶. A game that always starts the same shows no deal, as in play."""
    sid = stage.reach(ENDED["tictactoe"]).session
    page = open_replay(new_context, sid, viewport={"width": 640, "height": 360},
                       is_mobile=True, has_touch=True)
    expect(page.locator("#movelist")).to_be_visible()
    page.keyboard.press("End")  # the last move: the strip scrolls to it
    page.wait_for_timeout(300)
    assert page.evaluate("scrollY") == 0
    items = page.locator("#movelist-items")
    assert items.evaluate("(list) => list.scrollLeft") > 0
    expect(page.locator("#btn-play-deal .label")).to_be_visible()
    expect(page.locator("#game-id")).to_be_hidden()


def test_a_game_being_played_has_no_replay_for_watchers_yet(
    new_context: NewContext, stage: Stage,
) -> None:
    reached = stage.reach(next(s for s in SCENES if s.name == "minesweeper-play"))
    page = open_replay(new_context, reached.session)
    expect(page.get_by_role("heading", name="This replay is not open yet")).to_be_visible()
    expect(page.locator("#refused-reason")).to_contain_text("still being played")
    expect(page.locator("#board")).to_be_hidden()
    mine = open_replay(new_context, reached.session, {reached.session: reached.token})
    expect(mine.locator("#replay-count")).to_have_text("Start · 2 moves")  # its player may


def test_the_end_card_opens_the_replay_and_deals_the_same_again_under_its_own_name(
    new_context: NewContext, stage: Stage,
) -> None:
    reached = stage.reach(ENDED["minesweeper"])
    page = new_context(tokens={reached.session: reached.token}).new_page()
    page.goto(f"/play/minesweeper?session={reached.session}")
    wait_for_views(page, 1)
    card = page.locator("#end-card")
    expect(card.get_by_role("button", name="Same deal again")).to_be_visible()
    card.get_by_role("link", name="Watch the replay").click()
    page.wait_for_url(f"**/replay/{reached.session}")
    expect(page.locator("#replay-count")).to_contain_text("Start")
    deal = quote(page.locator("#game-id").inner_text(), safe="-_.!~*'()")
    expect(page.get_by_role("link", name="Play this deal")).to_have_attribute(
        "href", f"/play/minesweeper?id={deal}")


def test_the_statistics_page_lists_past_games_each_with_a_replay(
    new_context: NewContext, base_url: str,
) -> None:
    own = Stage(base_url)
    try:
        reached = own.reach(ENDED["escalator"])  # the last game to end
    finally:
        own.close()
    page = new_context().new_page()
    open_ready(page, "/stats?game=escalator")
    row = page.locator(f".past-game[data-session='{reached.session}']")
    expect(row).to_contain_text("moves")
    expect(page.locator(".past-game").first).to_have_attribute("data-session", reached.session)
    row.get_by_role("link", name="Replay").click()
    page.wait_for_url(f"**/replay/{reached.session}")
    expect(page.locator("#replay-title")).to_have_text("Replay · Escalator")


def test_the_sliding_puzzle_s_finished_picture_still_shows_while_held_on_its_replay(
    new_context: NewContext, stage: Stage, base_url: str,
) -> None:
    """A look changes no game: on the replay the finished picture beside the board is
    held (or pressed with Enter) to see it full size, as in play, and steps nothing."""
    sid = stage.reach(ENDED["sliding"]).session
    page = open_replay(new_context, sid, path=f"/replay/{sid}#move=0")
    count, full = page.locator("#replay-count"), page.locator("#sl-target-full")
    thumbnail = page.locator("#sl-target")
    expect(thumbnail).to_be_enabled()
    expect(thumbnail).to_contain_text("Hold to see it full size")
    held = thumbnail.bounding_box()
    assert held is not None
    page.mouse.move(held["x"] + held["width"] / 2, held["y"] + held["height"] / 3)
    page.mouse.down()
    expect(full).to_be_visible()
    page.wait_for_timeout(400)
    page.mouse.up()
    expect(full).to_be_hidden()
    thumbnail.focus()
    page.keyboard.press("Enter")  # pressed: shown until pressed again
    expect(full).to_be_visible()
    page.keyboard.press("Space")  # on the picture, Space is the picture's, not Play's
    expect(full).to_be_hidden()
    page.keyboard.press("ArrowRight")  # a step puts the look away
    expect(count).to_have_text(shown_at(1, plies_of(base_url, sid)))
    expect(full).to_be_hidden()
