"""Escalator in a real Chromium: a winnable deal won by following the solver's line, a
deal lost, pick-ups undone, an undo of a draw refused with the bell's reason, the menus
and their accelerators, drag onto the base."""

from __future__ import annotations

import math
import random
import re
from itertools import pairwise
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from playwright.sync_api import Page, expect

from parlour.core.gameid import GameId
from parlour.games.escalator.logic import Draw, Escalator, Layout, Pick, code, verdict_of_deal
from parlour.games.escalator.tests.scenes import stock_then_picks
from tests.browser.conftest import CreateGame, NewContext, OpenPage, ServerView, expect_views
from tests.browser.pages import overlap
from tests.browser.views import TIMEOUT_MS, wait_for_layout, wait_for_views

pytestmark = pytest.mark.browser

GAME = Escalator()
DEAL_WAIT_MS = 30_000  # a winnable deal, a loss's verdict: searched in a worker maybe starting


def deal_of(seed: str, winnable: bool = False) -> tuple[str, Layout]:
    game_id = GameId("escalator", {"winnable": winnable}, seed, GAME.deal_version)
    return game_id.text(GAME), game_id.deal(GAME)


def open_game(open_page: OpenPage, create_game: CreateGame, **options: Any
              ) -> tuple[Page, dict[str, Any]]:
    if "id" not in options and "params" not in options:  # a random deal: dealt at once
        options["params"] = {"winnable": False}
    created = create_game("escalator", **options)
    page = open_page(f"/play/escalator?session={created['session']}",
                     tokens={created["session"]: created["token"]})
    page.wait_for_selector("#esc-stock")
    return page, created


def play(page: Page, layout: Layout, move: Pick | Draw) -> None:
    """Click the card (or press D for the stock) and wait for the answer (a loss's the
    longer: its verdict is searched in a worker)."""
    with expect_views(page, timeout=DEAL_WAIT_MS if GAME.slow_move(layout, move) else TIMEOUT_MS):
        if isinstance(move, Draw):
            page.keyboard.press("d")
        else:
            page.locator(f"#esc-card-{code(layout.pyramid[move.at])}").click()


def test_a_winnable_deal_won_by_following_the_solvers_line(
    open_page: OpenPage, create_game: CreateGame, server_view: ServerView
) -> None:
    for number in range(200):
        game_id, layout = deal_of(f"win{number}")
        found = verdict_of_deal(layout)
        if found.winnable and len(found.line) < 45:
            break
    page, created = open_game(open_page, create_game, id=game_id)
    state = layout
    for move in found.line:
        play(page, state, move)
        state = GAME.apply(state, move)
    expect(page.locator("#headline")).to_have_text("You win! Pyramid cleared")
    expect(page.locator("#esc-banner")).to_be_attached()
    assert server_view(created["session"])["status"] == "won"
    # the cards fall for the win the player saw come; not again at each reload of it
    cascade = page.locator(".esc-cascade")
    expect(cascade).to_be_visible()
    page.reload()
    expect(page.locator("#esc-banner")).to_be_attached()
    expect(cascade).to_be_hidden()


def draw_first(layout: Layout) -> list[Pick | Draw]:
    """The moves that turn the whole stock first, then pick what fits, if they lose the
    deal; else none."""
    moves: list[Pick | Draw] = []
    while GAME.status(layout).value == "playing":
        move = stock_then_picks(GAME, layout)
        moves.append(move)
        layout = GAME.apply(layout, move)
    return moves if GAME.status(layout).value == "lost" else []


@pytest.mark.parametrize("winnable", [False, True], ids=["lost for good", "could be won"])
def test_a_deal_lost_says_whether_it_could_have_been_won(
    open_page: OpenPage, create_game: CreateGame, winnable: bool
) -> None:
    game_id = next((text for number in range(200)
                    for text, layout in [deal_of(f"card{number}")]
                    if draw_first(layout) and verdict_of_deal(layout).winnable == winnable),
                   None)
    assert game_id is not None, "no such deal among the first 200"
    page, created = open_game(open_page, create_game, id=game_id)
    state = deal_of_created(created)
    moves = draw_first(state)  # turn the whole stock, then pick what fits
    for move in moves[:-1]:
        play(page, state, move)
        state = GAME.apply(state, move)
    page.wait_for_function(ALL_STILL)
    before_end = {card: place_on_table(page, card) for card in left_in(state)}
    play(page, state, moves[-1])
    state = GAME.apply(state, moves[-1])
    left = 28 - bin(state.removed).count("1")
    expect(page.locator("#headline")).to_have_text(
        f"Game over: {left} card{'s' * (left != 1)} left")
    verdict = page.locator("#esc-verdict")
    expect(verdict).to_contain_text("could have been won" if winnable else "No order of play")
    # the end card says it, and the felt's line waits for the board seen without the card
    expect(page.locator("#end-detail")).to_have_text(
        {True: "This deal could have been won.",
         False: "No order of play could have won this deal."}[winnable])
    expect(verdict).to_be_hidden()
    page.locator("#end-see").click()
    expect(verdict).to_be_visible()
    page.locator("#end-show").click()
    expect(verdict).to_be_hidden()
    # the board re-fit under the end card: the table sized itself from the room the page
    # left it, and the room went no further, so the cards' shapes were not restyled
    room = page.evaluate(ROOM_SEEN)
    assert room["table"].endswith("px") and room["card"] == "", room

    # the cards left stay where they lay (as in Microsoft's Pyramid and PySolFC), the
    # covered ones covered, and the verdict lies over none of them
    page.wait_for_function(ALL_STILL)
    left_codes = left_in(state)
    for card in left_codes:
        assert place_on_table(page, card) == pytest.approx(before_end[card], abs=0.002), card
    covered = [code(state.pyramid[at]) for at in range(28)
               if not state.removed >> at & 1 and at not in state.free()]
    assert covered, "a deal lost with the whole stock turned first leaves covered cards"
    for card in covered:
        expect(page.locator(f"#esc-card-{card}")).to_have_class(re.compile(r"\bcovered\b"))
    # (measured together: the page may still be scrolling to the end card under the board)
    cards = [f"#esc-card-{card}" for card in left_codes]
    line, *boxes = page.evaluate(BOXES_SEEN, ["#esc-verdict", *cards])
    capitals = {**line, "y": line["y"] + 0.16 * line["height"]}  # 16 % down the line's box
    for card, box in zip(left_codes, boxes, strict=True):
        assert not overlap(box, capitals), card

    # a random deal lost: the end card offers to show how it could have been won, or a
    # winnable one, and deals it
    offer = page.locator("#end-card [data-end-command]")
    if winnable:
        expect(offer).to_have_text("Show a winning line")
        offer.click()
        expect(page.locator("#message")).to_contain_text("press Redo (Y)", timeout=DEAL_WAIT_MS)
        return
    expect(offer).to_have_text("Deal a winnable one")
    offer.click()
    expect(page.locator("#game-id")).to_have_text(re.compile(r"^escalator:winnable#"),
                                                  timeout=DEAL_WAIT_MS)
    dealt = deal_of_id(page.locator("#game-id").inner_text())
    assert verdict_of_deal(dealt).winnable  # the exact search proves it


def left_in(state: Layout) -> list[str]:
    return [code(state.pyramid[at]) for at in range(28) if not state.removed >> at & 1]


def place_on_table(page: Page, card: str) -> tuple[float, float]:
    """A card's top-left corner on the table, in the table's widths: the same whatever
    size the table takes when the end card comes."""
    return tuple(page.evaluate("""(card) => {
      const table = document.querySelector("#esc-table").getBoundingClientRect();
      const box = document.querySelector(`#esc-card-${card}`).getBoundingClientRect();
      return [(box.x - table.x) / table.width, (box.y - table.y) / table.width];
    }""", card))  # type: ignore[return-value]


def deal_of_id(text: str) -> Layout:
    from parlour.core.gameid import parse_game_id

    return parse_game_id(GAME, text).deal(GAME)


# Every card has finished moving (no transition running on the page).
ALL_STILL = "() => document.getAnimations().every((a) => a.playState !== 'running')"


# The boxes of the elements `selectors` name, measured at one moment.
BOXES_SEEN = """(selectors) => {
  const box = (selector) => { const r = document.querySelector(selector).getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height }; };
  return selectors.map(box);
}"""


# The room the page leaves the board, as the table and a card each see it.
ROOM_SEEN = """() => {
  const room = (selector) => getComputedStyle(document.querySelector(selector))
    .getPropertyValue("--board-room-h");
  return { table: room(".esc-table"), card: room(".esc-card") };
}"""


def deal_of_created(created: dict[str, Any]) -> Layout:
    from parlour.core.gameid import parse_game_id

    parsed = parse_game_id(GAME, created["id"])
    return GAME.deal(parsed.params, parsed.rng(GAME))


def test_pick_ups_are_undone_but_a_draw_is_not(
    open_page: OpenPage, create_game: CreateGame, server_view: ServerView
) -> None:
    for number in range(300):  # a deal with two picks at the start
        game_id, layout = deal_of(f"undo{number}")
        if layout.playable():
            after = GAME.apply(layout, Pick(layout.playable()[0]))
            if after.playable():
                break
    page, created = open_game(open_page, create_game, id=game_id)
    play(page, layout, Pick(layout.playable()[0]))
    play(page, after, Pick(after.playable()[0]))
    for _ in range(2):
        with expect_views(page):
            page.keyboard.press("u")
    assert server_view(created["session"])["moves"] == 0
    assert page.locator(".playable").count() == len(layout.playable())

    play(page, layout, Draw())
    expect(page.locator("#btn-undo")).to_be_disabled()  # (aria-disabled: it looks off)
    page.locator("#btn-undo").click(force=True)  # a tap says why: a phone has no hover title
    expect(page.locator("#message")).to_have_text(
        "Undo is off: a card turned from the stock stays turned")
    page.keyboard.press("u")
    expect(page.locator("#message")).to_have_text(
        "Undo is off: a card turned from the stock stays turned")
    assert server_view(created["session"])["moves"] == 1


def test_a_bad_pick_is_refused_and_says_why(
    open_page: OpenPage, create_game: CreateGame
) -> None:
    page, _ = open_game(open_page, create_game)
    free = page.locator(".free")  # free, but not one rank from the base
    if free.count() == 0:
        pytest.skip("every free card fits the base in this deal")
    free.first.click()
    expect(page.locator("#message")).to_contain_text("not one rank from the base")


def test_the_menus_and_their_accelerators(open_page: OpenPage, create_game: CreateGame) -> None:
    page, _ = open_game(open_page, create_game)
    page.click("#menu-game")
    game_menu = page.locator("#menu-game-list")
    expect(game_menu.locator('[data-run="new"] .menu-keys')).to_have_text("NAlt+N")
    expect(game_menu.locator('[data-run="quit"] .menu-keys')).to_have_text("QAlt+Q")
    page.keyboard.press("Escape")
    page.click("#menu-edit")
    undo = page.locator('#menu-edit-list [data-run="undo"]')
    expect(undo).to_contain_text("Undo pick-up")
    expect(undo.locator(".menu-keys")).to_have_text("UCtrl+Z")
    # the assist here is the "still winnable" light, and both its entry and its button say so
    assist = "Assist: say whether a win is still possible"
    expect(page.locator('#menu-edit-list [data-run="assist"]')).to_contain_text(assist)
    expect(page.locator("#btn-assist")).to_have_attribute("title", f"{assist} (A); counts as help")
    page.keyboard.press("Escape")
    page.keyboard.press("Alt+n")
    expect(page.locator("#new-dialog")).to_be_visible()
    page.keyboard.press("Escape")
    page.click("#menu-help")
    page.locator('#menu-help-list [data-run="about"]').click()
    expect(page.locator("#about")).to_contain_text("Tk timekiller")
    page.keyboard.press("Escape")
    page.locator("#board-wrap").focus()  # (the About entry had the focus: the menus')
    with expect_views(page):
        page.keyboard.press(" ")  # Space turns the stock too
    expect(page.locator("#esc-count .esc-count-n")).to_have_text("22")
    page.keyboard.press("Alt+q")
    page.wait_for_url("**/")


def test_a_card_dragged_onto_the_base_is_picked(
    open_page: OpenPage, create_game: CreateGame, server_view: ServerView
) -> None:
    for number in range(300):
        game_id, layout = deal_of(f"drag{number}")
        if layout.playable():
            break
    page, created = open_game(open_page, create_game, id=game_id)
    card = page.locator(f"#esc-card-{code(layout.pyramid[layout.playable()[0]])}")
    base = page.locator(f"#esc-card-{code(layout.base)}")
    with expect_views(page):
        card.drag_to(base)
    assert server_view(created["session"])["moves"] == 1


def test_a_press_on_the_stock_let_go_over_the_pyramid_turns_no_card(
    open_page: OpenPage, create_game: CreateGame, server_view: ServerView
) -> None:
    """A turn of the stock is for good (no Undo): a mouse pressed on the stock and let go
    over a card of the pyramid, covered or free, plays nothing; let go on the base, it is
    the stock turned onto it."""
    game_id, layout = next((text, layout) for number in range(300)
                           for text, layout in [deal_of(f"drag{number}")]
                           if any(at not in layout.playable() for at in layout.free()))
    page, created = open_game(open_page, create_game, id=game_id)
    stock = page.locator("#esc-stock").bounding_box()
    assert stock is not None
    covered = next(at for at in range(len(layout.pyramid)) if at not in layout.free())
    unplayable = next(at for at in layout.free() if at not in layout.playable())
    for at in (covered, unplayable):
        card = page.locator(f"#esc-card-{code(layout.pyramid[at])}").bounding_box()
        assert card is not None
        page.mouse.move(stock["x"] + stock["width"] / 2, stock["y"] + stock["height"] / 2)
        page.mouse.down()
        page.mouse.move(card["x"] + card["width"] / 2, card["y"] + 12, steps=10)
        page.mouse.up()
    page.wait_for_timeout(500)
    assert server_view(created["session"])["moves"] == 0
    expect(page.locator("#message.error")).to_have_count(0)  # nor a pick refused
    base = page.locator(f"#esc-card-{code(layout.base)}").bounding_box()
    assert base is not None
    with expect_views(page):
        page.mouse.move(stock["x"] + stock["width"] / 2, stock["y"] + stock["height"] / 2)
        page.mouse.down()
        page.mouse.move(base["x"] + base["width"] / 2, base["y"] + base["height"] / 2, steps=10)
        page.mouse.up()
    assert server_view(created["session"])["moves"] == 1


def test_space_picks_up_the_card_the_keyboards_cursor_is_on(
    open_page: OpenPage, create_game: CreateGame, server_view: ServerView
) -> None:
    """Space turns the stock, unless the cursor is on a card: a turn is for good, and with
    the cursor on a card to pick, Space turned the stock instead."""
    game_id, layout = next((text, layout) for number in range(300)
                           for text, layout in [deal_of(f"drag{number}")] if layout.playable())
    page, created = open_game(open_page, create_game, id=game_id)
    card = page.locator(f"#esc-card-{code(layout.pyramid[layout.playable()[0]])}")
    card.focus()  # (as the arrows would bring it there)
    with expect_views(page):
        page.keyboard.press("Space")
    expect(card).not_to_have_class(re.compile(r"\bplayable\b"))
    stock = page.locator("#esc-count .esc-count-n")
    expect(stock).to_have_text(str(layout.stock_left))
    page.evaluate("document.activeElement.blur()")  # the cursor off the board: the stock
    with expect_views(page):
        page.keyboard.press("Space")
    expect(stock).to_have_text(str(layout.stock_left - 1))
    assert server_view(created["session"])["moves"] == 2


def test_a_card_a_finger_drags_drops_where_the_fingertip_ends_too(
    open_page: OpenPage, new_context: NewContext, create_game: CreateGame,
    server_view: ServerView,
) -> None:
    """The card rides above the fingertip, where it is seen; a player who aims with the
    finger rather than the card still drops it on the base."""
    for number in range(300):
        game_id, layout = deal_of(f"drag{number}")
        if layout.playable():
            break
    created = create_game("escalator", id=game_id)
    sid = created["session"]
    phone = new_context(tokens={sid: created["token"]}, viewport={"width": 390, "height": 844},
                        has_touch=True, is_mobile=True)
    page = open_page(f"/play/escalator?session={sid}", context=phone)
    page.wait_for_selector("#esc-stock")
    touch = page.context.new_cdp_session(page)

    def finger(kind: str, x: float, y: float) -> None:
        points = [] if kind == "touchEnd" else [{"x": x, "y": y}]
        touch.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    def centre(selector: str) -> tuple[float, float]:
        box = page.locator(selector).bounding_box()
        assert box is not None
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    x, y = centre(f"#esc-card-{code(layout.pyramid[layout.playable()[0]])}")
    to_x, to_y = centre(f"#esc-card-{code(layout.base)}")
    finger("touchStart", x, y)
    for step in range(1, 9):
        finger("touchMove", x + (to_x - x) * step / 8, y + (to_y - y) * step / 8)
    with expect_views(page):
        finger("touchEnd", to_x, to_y)
    assert server_view(sid)["moves"] == 1


def test_restart_after_turning_the_stock_says_it_will_count_as_help(
    open_page: OpenPage, create_game: CreateGame, server_view: ServerView,
) -> None:
    page, created = open_game(open_page, create_game)
    with expect_views(page):
        page.keyboard.press("d")
    page.keyboard.press("r")
    dialog = page.locator("#restart-dialog")
    expect(dialog).to_contain_text("The game will then count as played with help: you have"
                                   " seen the stock's cards.")
    with expect_views(page):
        page.keyboard.press("Enter")
    expect(page.locator("#assisted")).to_be_visible()
    expect(page.locator("#message")).to_have_text(
        "Started again: you had seen the stock's cards, so this game now counts as played"
        " with help.")
    assert server_view(created["session"])["moves"] == 0


def test_the_four_colour_deck_inks_clubs_green_and_diamonds_blue(
    open_page: OpenPage, create_game: CreateGame,
) -> None:
    page, _ = open_game(open_page, create_game)

    def inks() -> list[str]:
        return [page.locator(f".esc-card.suit-{suit}").first.evaluate(
            "e => getComputedStyle(e).getPropertyValue('--ink').trim()") for suit in "cdhs"]

    assert inks() == ["#191919", "#c4122f", "#c4122f", "#191919"]
    page.evaluate("localStorage.setItem('parlour.display.escalator',"
                  " JSON.stringify({deck: 'four-colour'}))")
    page.reload()
    page.wait_for_selector("#esc-stock")
    assert inks() == ["#137a38", "#1859c0", "#c4122f", "#191919"]


def test_playable_cards_may_go_unmarked_as_in_microsofts_pyramid(
    open_page: OpenPage, create_game: CreateGame,
) -> None:
    for number in range(300):
        game_id, layout = deal_of(f"marks{number}")
        playable = set(layout.playable())
        if playable and set(layout.free()) - playable:
            break
    page, _ = open_game(open_page, create_game, id=game_id)
    picked = page.locator(f"#esc-card-{code(layout.pyramid[min(playable)])} .esc-face")
    stuck = page.locator(
        f"#esc-card-{code(layout.pyramid[min(set(layout.free()) - playable)])} .esc-face")
    stroke = "e => getComputedStyle(e).strokeWidth"
    assert picked.evaluate(stroke) != stuck.evaluate(stroke)  # marked: the default
    page.evaluate("localStorage.setItem('parlour.display.escalator',"
                  " JSON.stringify({highlight: 'none'}))")
    page.reload()
    page.wait_for_selector("#esc-stock")
    assert picked.evaluate(stroke) == stuck.evaluate(stroke)


def test_a_dragged_card_keeps_its_four_colour_ink(
    open_page: OpenPage, create_game: CreateGame
) -> None:
    for number in range(300):  # a club or a diamond to drag: the four-colour deck inks them
        game_id, layout = deal_of(f"drag{number}")
        if layout.playable() and layout.pyramid[layout.playable()[0]] % 4 in (0, 1):
            break
    page, _ = open_game(open_page, create_game, id=game_id)
    page.evaluate("localStorage.setItem('parlour.display.escalator',"
                  " JSON.stringify({deck: 'four-colour'}))")
    page.reload()
    page.wait_for_selector("#esc-stock")
    card = page.locator(f"#esc-card-{code(layout.pyramid[layout.playable()[0]])}")
    ink = "e => getComputedStyle(e.querySelector('.esc-ink')).fill"
    at_rest = card.evaluate(ink)
    assert at_rest in ("rgb(19, 122, 56)", "rgb(24, 89, 192)")  # green clubs, blue diamonds
    box = card.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 + 40, box["y"] + box["height"] + 60, steps=5)
    # the ghost lies on the page's body, away from the board's deck: it keeps the ink
    ghost = page.locator(".drag-ghost")
    expect(ghost).to_have_count(1)
    assert ghost.evaluate(ink) == at_rest
    page.mouse.up()


# For each card on the table: whether it is covered, the card the pointer meets at the
# middle of its top edge, and the cursor shown there.
POINTED = """() => [...document.querySelectorAll('.esc-cards > .esc-card')].map((card) => {
  const box = card.getBoundingClientRect();
  const met = document.elementFromPoint(box.left + box.width / 2, box.top + 8);
  return [card.id, card.classList.contains('covered'), met?.closest('svg.esc-card')?.id ?? null,
          met ? getComputedStyle(met).cursor : null];
})"""


def test_the_pointer_shows_which_cards_can_be_picked(
    open_page: OpenPage, create_game: CreateGame
) -> None:
    """A hand on the uncovered cards, the arrow on the covered ones: the cursor is set on a
    hit shape over each card (a cursor changed on the card restyled all drawn in it)."""
    page, _ = open_game(open_page, create_game)
    pointed = page.evaluate(POINTED)
    assert sum(covered for _, covered, _, _ in pointed) == 21  # rows 1 to 6 of 7
    for card, covered, met, cursor in pointed:
        assert met == card, f"the pointer meets {met} at the top of {card}"
        assert cursor == ("default" if covered else "pointer"), (card, covered, cursor)


def test_new_offers_a_winnable_or_a_random_deal_from_the_toolbar_and_a_key(
    open_page: OpenPage, create_game: CreateGame
) -> None:
    page, _ = open_game(open_page, create_game, params={"winnable": False})
    choices = page.locator("#new-choices")
    expect(choices).to_be_hidden()
    page.click("#btn-new-more")
    expect(choices.locator(".menu-label")).to_have_text(["New winnable deal", "New random deal"])
    expect(choices.locator("kbd")).to_have_text(["Shift+N"])
    # the kind of deal on the table is marked
    expect(choices.get_by_role("menuitemradio", name="New random deal")).to_have_attribute(
        "aria-checked", "true")
    expect(choices.get_by_role("menuitemradio", name="New winnable deal")).to_have_attribute(
        "aria-checked", "false")
    choices.get_by_role("menuitemradio", name="New winnable deal").click()
    expect(choices).to_be_hidden()
    winnable = page.locator("#game-id")
    # (a winnable deal is searched for in a worker: the first may wait for it to start)
    expect(winnable).to_have_text(re.compile(r"^escalator:winnable#"), timeout=DEAL_WAIT_MS)
    assert verdict_of_deal(deal_of_id(winnable.inner_text())).winnable  # the search proves it

    page.click("#btn-new-more")
    choices.get_by_role("menuitemradio", name="New random deal").click()
    expect(winnable).to_have_text(re.compile(r"^escalator:standard#"))

    page.keyboard.press("Shift+N")
    expect(winnable).to_have_text(re.compile(r"^escalator:winnable#"), timeout=DEAL_WAIT_MS)


def test_after_a_loss_the_winning_line_opens_with_a_note_that_stays_until_redo(
    open_page: OpenPage, create_game: CreateGame
) -> None:
    """W shows the solver's winning line as the same deal opened anew; what it says (press
    Redo to step through it) stays under the board until the player's first step."""

    for number in range(200):
        game_id, layout = deal_of(f"line{number}")
        if verdict_of_deal(layout).winnable and (losing := draw_first(layout)):
            break
    else:
        pytest.fail("no winnable deal among the first 200 is lost by turning the stock first")
    page, created = open_game(open_page, create_game, id=game_id)
    state = layout
    for move in losing:
        play(page, state, move)
        state = GAME.apply(state, move)
    expect(page.locator("#headline")).to_contain_text("Game over")
    page.keyboard.press("Escape")  # the end card
    page.keyboard.press("w")
    expect(page).not_to_have_url(re.compile(created["session"]), timeout=DEAL_WAIT_MS)
    message = page.locator("#message")
    expect(message).to_contain_text("press Redo (Y) to play it move by move")
    expect(page.locator("#btn-redo")).to_be_enabled()
    page.wait_for_timeout(3_000)  # longer than a toast stays
    expect(message).to_contain_text("press Redo (Y) to play it move by move")
    with expect_views(page):
        page.keyboard.press("y")
    # then, and after a reload, the status line says what the game is while Redo goes on
    expect(message).to_have_text("The solver's line: press Redo (Y) to play its next move.")
    page.reload()
    expect(message).to_have_text("The solver's line: press Redo (Y) to play its next move.")
    for _ in range(len(verdict_of_deal(layout).line) - 1):  # to its end: not the player's win
        with expect_views(page):
            page.keyboard.press("y")
    expect(page.locator("#headline")).to_have_text("Pyramid cleared by the solver")
    expect(message).to_have_text("The solver's line, played to its end.")


def test_enter_brings_the_keyboards_cursor_onto_the_board_and_then_plays(
    open_page: OpenPage, create_game: CreateGame
) -> None:
    game_id = next(text for number in range(100)
                   for text, layout in [deal_of(f"keys{number}")] if layout.playable())
    page, _ = open_game(open_page, create_game, id=game_id)
    views = page.evaluate("document.body.dataset.views")
    page.keyboard.press("Enter")  # nothing focused yet: the cursor comes onto the board
    assert page.evaluate("document.activeElement.hasAttribute('data-nav')")
    page.wait_for_timeout(300)
    assert page.evaluate("document.body.dataset.views") == views, "the first Enter played"
    playable = page.locator(".esc-card.playable").first
    playable.focus()  # (as the arrows would bring it there)
    picked = playable.get_attribute("id")
    with expect_views(page):
        page.keyboard.press("Enter")
    expect(page.locator(f"#{picked}")).not_to_have_class(re.compile(r"\bplayable\b"))


def test_the_keyboards_cursor_stays_in_the_pyramid_when_its_card_is_picked_up(
    open_page: OpenPage, create_game: CreateGame
) -> None:
    """The card picked becomes the base, which the cursor does not stop at (its next
    Enter would turn a card, which cannot be undone): the pyramid card nearest where the
    picked one was takes the cursor."""
    game_id = next(text for number in range(100)
                   for text, layout in [deal_of(f"keys{number}")] if layout.playable())
    page, _ = open_game(open_page, create_game, id=game_id)
    playable = page.locator(".esc-card.playable").first
    playable.focus()  # (as the arrows would bring it there)
    picked, was = playable.get_attribute("id"), playable.bounding_box()
    with expect_views(page):
        page.keyboard.press("Enter")
    page.wait_for_function("document.activeElement.hasAttribute('data-nav')", timeout=2_000)
    holder = page.evaluate("document.activeElement.id")
    assert holder != picked and holder.startswith("esc-card-")
    now = page.locator(f"#{holder}").bounding_box()
    assert was and now and abs(now["y"] - was["y"]) < was["height"], "the cursor left the row"


def test_a_first_deal_that_keeps_the_page_waiting_says_it_is_dealing(
    new_context: NewContext,
) -> None:
    """The page's first game, a winnable deal: until it comes, the page shows no table
    yet. Held back here (as a slow machine's search does), the wait says what it
    is after half a second, with no Cancel, and goes with the deal."""
    page = new_context(viewport={"width": 1366, "height": 768}).new_page()
    held: list[Any] = []
    page.route("**/api/games", lambda route: held.append(route)
               if route.request.method == "POST" else route.fallback())
    page.goto("/play/escalator")
    panel = page.locator(".progress-panel")
    expect(panel).to_be_visible()
    expect(panel.locator(".progress-what")).to_have_text("Dealing a winnable game…")
    expect(panel.locator(".progress-cancel")).to_be_hidden()
    assert len(held) == 1 and page.locator("#esc-stock").count() == 0
    expect(page.locator("#board-wrap")).to_have_css("visibility", "hidden")  # no empty felt
    held[0].fallback()
    page.wait_for_selector("#esc-stock")
    expect(panel).to_be_hidden()


def open_on_phone(open_page: OpenPage, new_context: NewContext, create_game: CreateGame,
                  width: int, height: int, **options: Any) -> Page:
    created = create_game("escalator", **(options or {"params": {"winnable": False}}))
    sid = created["session"]
    phone = new_context(tokens={sid: created["token"]}, viewport={"width": width, "height": height},
                        has_touch=True, is_mobile=True)
    page = open_page(f"/play/escalator?session={sid}", context=phone)
    page.wait_for_selector("#esc-stock")
    page.wait_for_function(ALL_STILL)
    return page


# Where the table, its cards and the deal line under it lie, and whether the page scrolls.
LAYOUT_SEEN = """() => {
  const box = (element) => { const r = element.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width }; };
  const cards = [...document.querySelectorAll("#esc-cards > .esc-card")].map(box);
  return {
    table: box(document.querySelector("#esc-table")), cards,
    stock: box(document.querySelector("#esc-stock")), idbar: box(document.querySelector(".idbar")),
    scrolls: document.documentElement.scrollHeight > document.documentElement.clientHeight,
  };
}"""


@pytest.mark.parametrize(("width", "height"), [(390, 844), (412, 915), (360, 740), (844, 390)])
def test_on_a_phone_the_table_takes_the_whole_screen_and_its_cards_the_whole_width(
    open_page: OpenPage, new_context: NewContext, create_game: CreateGame, width: int,
    height: int,
) -> None:
    """As Microsoft's Pyramid does: upright, the pyramid's foot spans the screen's width
    (its seven cards and their gaps are 7.6 cards wide) and the stock and the base stand
    at the foot of the screen, the table under the page's bars stretched to it; on its
    side, the table is as high as the screen leaves it. One screen, no scrolling; every
    card on the table, none over the stock's row."""
    page = open_on_phone(open_page, new_context, create_game, width, height)
    seen = page.evaluate(LAYOUT_SEEN)
    table, stock = seen["table"], seen["stock"]
    assert not seen["scrolls"]
    assert seen["idbar"]["bottom"] <= height
    for card in seen["cards"]:
        assert table["left"] - 0.5 <= card["left"] and card["right"] <= table["right"] + 0.5
        assert table["top"] - 0.5 <= card["top"] and card["bottom"] <= table["bottom"] + 0.5
    pyramid_foot = max(card["bottom"] for card in seen["cards"] if card["bottom"] < stock["top"])
    assert pyramid_foot < stock["top"]
    if height > width:
        assert seen["cards"][0]["width"] >= 0.92 * width / 7.6  # (the page keeps a margin)
        assert table["bottom"] >= 0.85 * height
    else:
        assert table["bottom"] >= height - 20


# The boxes of the pyramid's cards, the stock, the base and the table.
PARTS_SEEN = """() => {
  const box = (element) => { const r = element.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height }; };
  const all = (selector) => [...document.querySelectorAll(selector)].map(box);
  const one = (selector) => box(document.querySelector(selector));
  return {
    pyramid: all("#esc-cards > .esc-card:not(.esc-base):not(.esc-under)"),
    stock: one("#esc-stock"), base: one(".esc-base"), table: one("#esc-table"),
    sideways: document.documentElement.scrollWidth > document.documentElement.clientWidth,
  };
}"""


@pytest.mark.parametrize(("width", "height"), [(390, 844), (412, 915)])
def test_on_a_tall_phone_the_pyramids_rows_spread_to_the_stock_row(
    open_page: OpenPage, new_context: NewContext, create_game: CreateGame, width: int,
    height: int,
) -> None:
    """The table reached the screen's foot, but 183 px of empty felt (30 % of it) parted
    the pyramid from the stock's row at 390x844: the felt now spans the screen's width and
    the rows spread down, so the cards are as wide as the width allows and little felt is
    left between the pyramid's last row and the stock; the rows still overlap (each
    covers the foot of the row above), and no row reaches the stock's."""
    page = open_on_phone(open_page, new_context, create_game, width, height)
    seen = page.evaluate(PARTS_SEEN)
    pyramid, stock, table = seen["pyramid"], seen["stock"], seen["table"]
    assert not seen["sideways"]
    foot = max(card["y"] + card["height"] for card in pyramid)
    assert 0 < stock["y"] - foot <= 0.1 * table["height"]
    assert pyramid[0]["width"] >= 0.99 * width / 7.6  # the felt from edge to edge
    rows = sorted({round(card["y"]) for card in pyramid})
    steps = [lower - upper for upper, lower in pairwise(rows)]
    assert min(steps) >= 0.7 * pyramid[0]["height"]  # the rank and suit in sight, and more
    assert max(steps) <= 0.92 * pyramid[0]["height"]  # yet a pyramid, each row over the last


@pytest.mark.parametrize(("width", "height"), [(844, 390), (740, 360), (915, 412)])
def test_on_a_phones_side_the_stock_and_the_base_stand_beside_the_pyramid(
    open_page: OpenPage, new_context: NewContext, create_game: CreateGame, width: int,
    height: int,
) -> None:
    """Stacked under the pyramid, the stock's row took a third of the height, and the
    cards were 42 px wide on an 844x390 screen (38 at 740x360): the stock now stands left
    of the pyramid and the base right of it, level with its last row, and the cards are
    as tall as the height lets them be (54 px wide at 844x390). None overlaps a part it
    must not, and the page does not scroll. The assist light over the base stands a
    quarter of a card's width or more clear of every card (it was 5 px from the last
    row's last card at 844x390, an eighth of one)."""
    page = open_on_phone(open_page, new_context, create_game, width, height)
    page.keyboard.press("a")  # the assist light, above the base
    expect(page.locator("#esc-lamp")).to_be_visible(timeout=DEAL_WAIT_MS)
    seen = page.evaluate(PARTS_SEEN)
    pyramid, stock, base = seen["pyramid"], seen["stock"], seen["base"]
    assert not seen["sideways"]
    assert pyramid[0]["width"] >= 0.13 * height
    left = min(card["x"] for card in pyramid)
    right = max(card["x"] + card["width"] for card in pyramid)
    assert stock["x"] + stock["width"] <= left and right <= base["x"]
    foot = max(card["y"] + card["height"] for card in pyramid)
    assert base["y"] + base["height"] == pytest.approx(foot, abs=1)
    lamp = page.locator("#esc-lamp").bounding_box()
    count = page.locator("#esc-count").bounding_box()
    assert lamp is not None and count is not None
    for card in pyramid:
        for part in (stock, base, lamp, count):
            assert not overlap(card, part), (card, part)
    for card in (*pyramid, base):
        assert gap_between(card, lamp) >= 0.25 * base["width"], (card, lamp)
    table = seen["table"]
    for part in (stock, base, lamp, count, *pyramid):
        assert table["x"] - 0.5 <= part["x"]
        assert part["x"] + part["width"] <= table["x"] + table["width"] + 0.5


@pytest.mark.parametrize(("width", "height", "card_px"),
                         [(1280, 800, 85), (1366, 768, 85), (1440, 900, 112)])
def test_in_a_wide_window_the_stock_and_the_base_stand_beside_a_bigger_pyramid(
    open_page: OpenPage, new_context: NewContext, create_game: CreateGame, width: int,
    height: int, card_px: int,
) -> None:
    """Stacked under the pyramid in a 1280x800 window, the stock's row took the height the
    cards needed: they were 77 px wide (72 at 1366x768, 90 at 1440x900), with the felt
    empty either side (now 87, 87 and 116).
    A window wider than the upright table's shape lays the table as a phone on its side
    does, the stock left of the pyramid and the base right of it, and its cards are bigger;
    the whole table is in sight, and the page does not scroll sideways."""
    created = create_game("escalator", params={"winnable": False})
    context = new_context(tokens={created["session"]: created["token"]},
                          viewport={"width": width, "height": height})
    page = open_page(f"/play/escalator?session={created['session']}", context=context)
    page.wait_for_selector("#esc-stock")
    page.wait_for_function(ALL_STILL)
    seen = page.evaluate(PARTS_SEEN)
    pyramid, stock, base, table = seen["pyramid"], seen["stock"], seen["base"], seen["table"]
    assert not seen["sideways"]
    assert pyramid[0]["width"] >= card_px
    left = min(card["x"] for card in pyramid)
    right = max(card["x"] + card["width"] for card in pyramid)
    assert stock["x"] + stock["width"] <= left and right <= base["x"]
    assert table["y"] + table["height"] <= height


def test_a_window_made_narrow_stacks_the_stock_under_the_pyramid_again(
    open_page: OpenPage, new_context: NewContext, create_game: CreateGame,
) -> None:
    """Upright, the table's stacked shape gives the bigger cards (a tall window, a tablet):
    the stock's row stands under the pyramid again, and beside it once the window is wide
    again, without reloading."""
    created = create_game("escalator", params={"winnable": False})
    context = new_context(tokens={created["session"]: created["token"]},
                          viewport={"width": 1280, "height": 800})
    page = open_page(f"/play/escalator?session={created['session']}", context=context)
    page.wait_for_selector("#esc-stock")

    def stock_under_pyramid() -> bool:
        page.wait_for_function(ALL_STILL)
        seen = page.evaluate(PARTS_SEEN)
        foot = max(card["y"] + card["height"] for card in seen["pyramid"])
        return bool(seen["stock"]["y"] >= foot)

    assert not stock_under_pyramid()
    page.set_viewport_size({"width": 820, "height": 1100})
    expect(page.locator("#board-wrap")).to_have_attribute("data-room", "tall")
    assert stock_under_pyramid()
    seen = page.evaluate(PARTS_SEEN)
    assert seen["pyramid"][0]["width"] >= 95  # (beside the pyramid, they would be 73 px)
    page.set_viewport_size({"width": 1280, "height": 800})
    expect(page.locator("#board-wrap")).to_have_attribute("data-room", "wide")
    assert not stock_under_pyramid()
    # the table re-fit (as when the end card comes under it): the cards keep their places
    # on it, none flies (their places were px from the table's width, and all flew)
    page.set_viewport_size({"width": 1280, "height": 700})
    page.wait_for_function("() => document.getElementById('esc-table').offsetWidth < 900")
    assert page.evaluate(ALL_STILL)


# From each of the board's data-nav cells (its free cards and the stock), the cells the
# arrow keys reach, pressed in the page as a player does (keydown on the focused card).
ARROWS_REACH = """() => {
  const cells = [...document.querySelectorAll("#board [data-nav]")];
  const keys = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"];
  const step = (cell, key) => {
    cell.focus();
    cell.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true }));
    return document.activeElement.closest("[data-nav]");
  };
  const reached = {};
  for (const start of cells) {
    const seen = new Set([start.id]), todo = [start];
    while (todo.length) {
      const cell = todo.pop();
      for (const key of keys) {
        const next = step(cell, key);
        if (next && !seen.has(next.id)) { seen.add(next.id); todo.push(next); }
      }
    }
    reached[start.id] = [...seen].sort();
  }
  return { cells: cells.map((cell) => cell.id).sort(), reached };
}"""


def test_the_arrow_keys_reach_every_free_card_from_any_other(
    open_page: OpenPage, create_game: CreateGame,
) -> None:
    """Help says the arrows move over the free cards, but a free card a row up between two
    of the row below (the 7♣ between the 8♣ and the 5♠) was reached from none of them: the
    nearer card across the row won every arrow. In the positions of random play through
    two deals, every free card and the stock are reached from each of them."""
    rng = random.Random(7)
    for deal in ("nav0", "nav1"):
        game_id, layout = deal_of(deal)
        page, created = open_game(open_page, create_game, id=game_id)
        page.emulate_media(reduced_motion="reduce")  # (no cards flying to wait for)
        api = httpx.Client(base_url=page.url.split("/play/")[0], timeout=30,
                           headers={"Authorization": f"Bearer {created['token']}"})
        for _ in range(25):
            page.wait_for_function(ALL_STILL)
            seen = page.evaluate(ARROWS_REACH)
            for start, reached in seen["reached"].items():
                assert reached == seen["cells"], (deal, start, reached)
            moves = GAME.legal_moves(layout)
            if not moves:
                break
            move = rng.choice(moves)
            with expect_views(page):
                answer = api.post(f"/api/games/{created['session']}/moves",
                                  json={"move": GAME.move_to_json(move)})
            assert answer.status_code == 200, answer.text
            layout = GAME.apply(layout, move)


def test_a_long_hint_on_a_small_phone_does_not_move_the_board(
    open_page: OpenPage, new_context: NewContext, create_game: CreateGame,
) -> None:
    """The status line keeps two lines on a phone, and a hint to turn the stock rather than
    pick up a card (the longest) says it in two lines of a 360 px screen: the board stays
    where it was while the player reads it."""
    game_id, layout = deal_of("rather25")  # its hint turns the stock, with the J♣ to pick
    assert layout.playable()
    page = open_on_phone(open_page, new_context, create_game, 360, 740, id=game_id)
    board_top = page.locator("#board-wrap").bounding_box()
    page.keyboard.press("h")
    expect(page.locator("#message")).to_contain_text("Turn the stock", timeout=DEAL_WAIT_MS)
    assert page.locator("#board-wrap").bounding_box() == board_top


def test_a_hint_takes_no_cursor_on_a_finger_or_a_reload(
    open_page: OpenPage, new_context: NewContext, create_game: CreateGame,
) -> None:
    """A tapped Hint, or a hint shown again as the page reloads, leaves the focus where it
    was (the phone showed a keyboard's ring there); the first arrow then finds it."""
    game_id, _ = deal_of("rather25")
    page = open_on_phone(open_page, new_context, create_game, 390, 844, id=game_id)
    hinted = page.locator(".hint[data-nav]")
    page.locator("#btn-hint").tap()
    expect(hinted).to_have_count(1, timeout=DEAL_WAIT_MS)
    focused_hint = "document.activeElement?.classList.contains('hint') ?? false"
    assert not page.evaluate(focused_hint)
    page.reload()
    expect(hinted).to_have_count(1)
    wait_for_views(page, 1)
    assert page.evaluate("document.activeElement === document.body")
    page.keyboard.press("ArrowDown")  # the first arrow finds the hint
    assert page.evaluate(focused_hint)


def gap_between(one: dict[str, float], other: dict[str, float]) -> float:
    """How far apart two boxes are (0 where they touch or overlap)."""
    across = max(other["x"] - one["x"] - one["width"], one["x"] - other["x"] - other["width"], 0)
    down = max(other["y"] - one["y"] - one["height"], one["y"] - other["y"] - other["height"], 0)
    return float(math.hypot(across, down))


# Each part of the deal's id (the words between its ":" and "#") and the lines it is on.
ID_LINES = """() => {
  const code = document.getElementById("game-id");
  const parts = [...code.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE);
  const lines = (node) => { const range = document.createRange(); range.selectNodeContents(node);
    return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size; };
  return { parts: parts.map((node) => [node.textContent, lines(node)]),
    cut: code.scrollWidth > code.clientWidth || code.scrollHeight > code.clientHeight };
}"""


@pytest.mark.parametrize(("width", "height"), [(844, 390), (740, 360)])
def test_on_a_phones_side_the_deal_id_reads_whole_and_copy_link_copies_it(
    open_page: OpenPage, new_context: NewContext, create_game: CreateGame, width: int,
    height: int,
) -> None:
    """In the column beside the board the id was cut to "escal…" on one line (with Assist's
    "With help" badge beside it, the worst case): it now reads whole, broken only between
    its parts ("escalator:winnable#" over the seed), and Copy link, after it, copies the
    deal's link."""
    page = open_on_phone(open_page, new_context, create_game, width, height,
                         params={"winnable": True})
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.keyboard.press("a")
    expect(page.locator("#assisted")).to_be_visible(timeout=DEAL_WAIT_MS)
    wait_for_layout(page)
    code = page.locator("#game-id")
    deal = code.get_attribute("title") or ""
    assert deal.startswith("escalator:winnable#")
    expect(code).to_have_text(deal)
    seen = page.evaluate(ID_LINES)
    assert not seen["cut"], f"the id is cut short: {deal}"
    assert "".join(part for part, _ in seen["parts"]) == deal
    assert all(lines == 1 for _, lines in seen["parts"]), f"a part broken: {seen['parts']}"
    board = page.locator("#board-wrap").bounding_box()
    shown, button = code.bounding_box(), page.locator("#btn-copy").bounding_box()
    assert board and shown and button
    for part in (shown, button):
        assert part["x"] >= board["x"] + board["width"] and part["x"] + part["width"] <= width
        assert part["y"] >= 0 and part["y"] + part["height"] <= height
    assert not overlap(shown, button)
    expect(page.locator("#btn-copy")).to_have_attribute(
        "title", "Copy a link to this deal: whoever opens it gets the same deal, the stock's "
        "hidden cards included")
    page.locator("#btn-copy").tap()
    expect(page.locator(".toast")).to_have_text("Link to this deal copied")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.endswith(f"/play/escalator?id={quote(deal, safe='')}"), copied
