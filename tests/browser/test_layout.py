"""The page's layout as a player first sees it: every game's largest board fits the first
screen under its headline and status line (at a laptop's 1366x800 and a phone's 390x844);
the end of a game brings a card with the result, New game, Same deal again and Watch the
replay; every page is set
in the typeface Parlour ships.
"""

from __future__ import annotations

import io
import re
from collections import Counter
from typing import Any

import pytest
from PIL import Image
from playwright.sync_api import Page, expect

from parlour.games import GAMES
from parlour.games.minesweeper.tests.scenes import open_a_mine
from tests.browser.conftest import CreateGame, NewContext, NextView, ServerView, wait_for_views
from tests.browser.pages import game_style_comes_late, session_in, width_and_room_once_styled
from tests.browser.scene import Scene
from tests.browser.scenes import HINT_MS, SCENES, Stage
from tests.browser.views import wait_for_layout

pytestmark = pytest.mark.browser

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1366, "height": 800}}
# smaller phones, for what must fit across them too (not every screen check: a tall board
# is scrolled to there)
SMALL_PHONES = {"small phone": {"width": 320, "height": 568},
                "narrow phone": {"width": 360, "height": 740}}
# each game's largest board, where it is not the default one (the sliding puzzle's is a
# custom 8x8); a game not named here is tried on its default board
LARGEST = {name: {} for name in GAMES} | {
    "minesweeper": {"id": "minesweeper:expert#fit"},
    "ishido": {"id": "ishido:classic#fit"},
    "tribolo": {"id": "tribolo:standard#fit"},
    "sliding": {"id": "sliding:rows=8,cols=8,shuffle=random#fit"},
    "escalator": {"id": "escalator:standard#fit"},
}
SCROLLS_ON_A_PHONE = {"minesweeper"}  # 30 rows of cells big enough to tap: the page scrolls


def box(page: Page, selector: str) -> dict[str, float]:
    found: dict[str, float] = page.evaluate(
        "s => { const r = document.querySelector(s).getBoundingClientRect();"
        " return { top: r.top, bottom: r.bottom, left: r.left, right: r.right }; }",
        selector,
    )
    return found


def open_game(new_context: NewContext, create_game: CreateGame, game: str, size: str,
              **options: Any) -> Page:
    created = create_game(game, **options)
    viewport = SIZES.get(size) or SMALL_PHONES[size]
    context = new_context(tokens={created["session"]: created["token"]}, viewport=viewport)
    page = context.new_page()
    page.goto(f"/play/{game}?session={created['session']}")
    wait_for_views(page, 1)
    page.evaluate("document.fonts.ready.then(() => true)")
    return page


def test_the_board_is_fitted_to_the_room_left_once_the_games_stylesheet_comes(
        new_context: NewContext, create_game: CreateGame) -> None:
    """The game's stylesheet comes late (a busy server): the board is fitted again once it
    has come, to the room Minesweeper's layout leaves it on a phone (its panel reaches the
    screen's sides), not to the page's narrower room measured before it came."""
    created = create_game("minesweeper", id="minesweeper:easy#late")
    context = new_context(tokens={created["session"]: created["token"]},
                          viewport=SIZES["phone"], has_touch=True, is_mobile=True)
    page = context.new_page()
    game_style_comes_late(page, 600)
    page.goto(f"/play/minesweeper?session={created['session']}")
    wait_for_views(page, 1)
    room, fitted = width_and_room_once_styled(page)
    assert fitted == room


@pytest.mark.parametrize("game", ["escalator", "ishido"])  # New ▾ and Assist: the most buttons
def test_on_a_phone_every_toolbar_button_is_a_fingers_target(
    new_context: NewContext, create_game: CreateGame, game: str
) -> None:
    page = open_game(new_context, create_game, game, "phone")
    sizes = page.eval_on_selector_all(
        ".toolbar.wide .btn", "buttons => buttons.filter((b) => b.checkVisibility())"
        ".map((b) => [b.id, b.getBoundingClientRect().width, b.getBoundingClientRect().height])")
    assert len(sizes) >= 8, sizes
    small = [(name, width, height) for name, width, height in sizes if width < 34 or height < 44]
    assert not small, f"too small for a finger: {small}"


def test_on_a_touch_screen_the_small_buttons_and_minesweepers_boards_take_a_finger(
    new_context: NewContext, create_game: CreateGame
) -> None:
    created = create_game("minesweeper")
    context = new_context(tokens={created["session"]: created["token"]}, has_touch=True,
                          is_mobile=True, viewport=SIZES["phone"])
    page = context.new_page()
    page.goto(f"/play/minesweeper?session={created['session']}")
    wait_for_views(page, 1)
    for part in ("#btn-copy", "#ms-new-easy"):
        shown = box(page, part)
        assert shown["bottom"] - shown["top"] >= 40, f"{part} is too low for a finger: {shown}"


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", LARGEST)
def test_status_line_and_board_are_in_the_first_screen(
    new_context: NewContext, create_game: CreateGame, game: str, size: str
) -> None:
    page = open_game(new_context, create_game, game, size, **LARGEST[game])
    height = SIZES[size]["height"]
    wait_for_layout(page)
    for part in ("#headline", "#message"):
        shown = box(page, part)
        assert shown["top"] >= 0 and shown["bottom"] <= height, f"{part} is off screen: {shown}"
    assert page.locator("#headline").inner_text().strip(), "the headline says nothing"
    if size == "phone":  # shown in the bar's first row, beside the logo
        said = page.locator("#topbar-headline")
        expect(said).to_be_visible()
        expect(said).to_have_text(page.locator("#headline").inner_text())
        assert box(page, "#topbar-headline")["bottom"] <= box(page, ".topbar")["bottom"]
    # a solitaire's status line may be empty ("Your turn" tells nothing there) but keeps
    # its line, so a hint or a refusal written into it later moves nothing
    assert box(page, "#message")["bottom"] - box(page, "#message")["top"] > 10
    board = box(page, "#board > *")
    assert board["top"] < height / 2, f"the board starts low: {board}"
    if not (size == "phone" and game in SCROLLS_ON_A_PHONE):
        assert board["bottom"] <= height, f"the board runs off the first screen: {board}"
    if size == "laptop":  # and the deal's id under it
        assert box(page, "#game-id")["bottom"] <= height
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]


ON_ITS_SIDE = {**LARGEST, "minesweeper": {"id": "minesweeper:medium#fit"}}  # Hard scrolls


@pytest.mark.parametrize("game", ON_ITS_SIDE)
def test_on_a_phone_on_its_side_the_headline_joins_the_bar_and_the_board_fits(
    new_context: NewContext, create_game: CreateGame, game: str
) -> None:
    """844x390: the menus fold into one button and the headline takes their room in the
    bar, so the board has the headline's row (the sliding puzzle ran 10 px off); the status
    line, seats and deal stand in a column beside the board (Tribolo's last rows ran 86 px
    off under them, Minesweeper Medium's 5). Minesweeper's hardest board still scrolls."""
    created = create_game(game, **ON_ITS_SIDE[game])
    context = new_context(tokens={created["session"]: created["token"]},
                          viewport={"width": 844, "height": 390}, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto(f"/play/{game}?session={created['session']}")
    wait_for_views(page, 1)
    wait_for_layout(page)
    expect(page.locator("#menu-fold")).to_be_visible()
    said = page.locator("#topbar-headline")
    expect(said).to_be_visible()
    expect(said).to_have_text(page.locator("#headline").inner_text())
    assert box(page, "#topbar-headline")["bottom"] <= box(page, ".topbar")["bottom"]
    assert box(page, "#board > *")["bottom"] <= 390
    assert page.evaluate("document.documentElement.scrollHeight") <= 390
    board_right = box(page, "#board-wrap")["right"]
    for beside in ("#seats", "#status-row", ".idbar"):
        assert box(page, beside)["left"] >= board_right


@pytest.mark.parametrize("width, height", [(640, 360), (844, 390)])
def test_on_a_phones_side_the_menu_opens_whole_on_the_screen(
    new_context: NewContext, width: int, height: int
) -> None:
    """The folded menu opens from its button in the bar's middle: moved in if it would
    run off the edge (at 640 px it ran 9 px off the right)."""
    page = new_context(viewport={"width": width, "height": height}, has_touch=True,
                       is_mobile=True).new_page()
    page.goto("/play/sliding")  # fewest buttons: the Menu button stands furthest right
    wait_for_views(page, 1)
    page.locator("#menu-fold").tap()
    shown = box(page, "#menu-list")
    assert shown["left"] >= 0 and shown["right"] <= width, shown


def test_a_short_window_on_a_desktop_keeps_its_menu_bar(new_context: NewContext) -> None:
    """Only a phone's side folds the menus: a desktop window 480 px high keeps them."""
    page = new_context(viewport={"width": 1400, "height": 480}).new_page()
    page.goto("/play/tictactoe")
    wait_for_views(page, 1)
    expect(page.locator("#menubar")).to_be_visible()
    expect(page.locator("#menu-fold")).to_be_hidden()


def test_a_short_upright_phone_keeps_its_toolbar_across_the_screen(
    new_context: NewContext,
) -> None:
    """320x480, upright: the toolbar's buttons share the width (the rule for a phone on
    its side, one row beside the headline, is not for it)."""
    page = new_context(viewport={"width": 320, "height": 480}, has_touch=True,
                       is_mobile=True).new_page()
    page.goto("/play/tictactoe")
    wait_for_views(page, 1)
    widths = [width for width in page.eval_on_selector_all(
        ".toolbar.wide > .btn", "bs => bs.map((b) => b.getBoundingClientRect().width)") if width]
    assert len(widths) >= 5 and min(widths) >= 30, widths


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", ["minesweeper", "tictactoe"])
def test_a_hint_is_explained_above_the_board_which_stays_as_it_was(
    new_context: NewContext, create_game: CreateGame, next_view: NextView, game: str, size: str
) -> None:
    """The hint's words above the board and its "With help" badge under it (Tic Tac Toe's
    deal line is otherwise empty) move the board and resize it not a pixel."""
    options = {"id": "minesweeper:expert#h"} if game == "minesweeper" else {}
    page = open_game(new_context, create_game, game, size, **options)
    with next_view(page):
        page.locator("#board [data-move]").first.click()
    expect(page.locator("#btn-hint")).to_be_enabled()  # (the computer has answered)
    before = box(page, "#board-wrap")
    page.locator("#btn-hint").click()
    expect(page.locator("#message")).to_contain_text("Hint", timeout=HINT_MS)
    expect(page.locator("#assisted")).to_be_visible()
    # two frames: the page fits the board again in the first, if anything under it grew
    page.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    message = box(page, "#message")
    assert message["bottom"] <= box(page, "#board-wrap")["top"]
    if game == "minesweeper":  # on a phone the hint takes two lines, which the page keeps
        lines = round((message["bottom"] - message["top"]) / 23)
        assert lines == (2 if size == "phone" else 1), f"{lines} lines"
    assert box(page, "#board-wrap") == before, "the board moved or changed size"


# -- the end of a game ----------------------------------------------------------------
def scene(name: str) -> Scene:
    return next(s for s in SCENES if s.name == name)


@pytest.fixture
def own_stage(base_url: str) -> Any:
    """Scenes of this test's own (the shared ones must stay at their end for others)."""
    made = Stage(base_url)
    yield made
    made.close()


def open_scene_at(new_context: NewContext, stage: Stage, name: str, size: str = "laptop") -> Page:
    reached = stage.reach(scene(name))
    context = new_context(tokens={reached.session: reached.token}, viewport=SIZES[size])
    page = context.new_page()
    page.goto(reached.path(scene(name).game))
    wait_for_views(page, 1)
    return page


@pytest.mark.parametrize("size", SIZES)
def test_the_end_card_tells_the_result_and_same_deal_again_deals_it_again(
    new_context: NewContext, own_stage: Stage, server_view: ServerView, size: str
) -> None:
    page = open_scene_at(new_context, own_stage, "minesweeper-lost", size)
    card = page.get_by_role("dialog", name=page.locator("#headline").inner_text())
    expect(card).to_be_visible()
    expect(card).to_contain_text("Better luck")
    figures = card.locator(".end-figures dt").all_inner_texts()
    assert figures[:1] == ["Time"] and "Moves" in figures
    expect(card).to_be_focused()  # the card itself, not New game: an Enter meant for the board
    deal, finished = page.locator("#game-id").inner_text(), session_in(page.url)
    card.get_by_role("button", name="Same deal again").click()
    expect(page).not_to_have_url(re.compile(finished))  # a new game, of the same deal
    expect(card).to_be_hidden()
    expect(page.locator("#headline")).not_to_contain_text("mine")
    assert page.locator("#game-id").inner_text() == deal
    assert page.locator("#ms-grid .open").count() == 0  # from the start
    # the finished game is kept as it was played: its replay, its place among past games
    kept = server_view(finished)
    assert kept["status"] == "lost" and kept["moves"] > 0


def test_a_won_minesweeper_shows_its_speed_and_efficiency_to_two_places(
    new_context: NewContext, own_stage: Stage
) -> None:
    page = open_scene_at(new_context, own_stage, "minesweeper-won")
    card = page.get_by_role("dialog", name=page.locator("#headline").inner_text())
    expect(card).to_be_visible()
    expect(card.locator(".end-figures")).to_contain_text("Efficiency")
    # (read in one go: the records, which come after, add figures to the card)
    shown = dict(page.evaluate("""(card) => [...card.querySelectorAll('.end-figures dt')]
        .map((term) => [term.innerText, term.nextElementSibling.innerText])""",
        card.element_handle()))
    assert re.fullmatch(r"\d+", shown["3BV"]), shown
    for fraction in ("3BV/s", "Efficiency"):
        assert re.fullmatch(r"\d+\.\d\d", shown[fraction]), shown
    assert re.fullmatch(r"\d+\.\d\d", shown["Time"]), shown  # to the hundredth: 4.32


@pytest.mark.parametrize("viewport", [{"width": 1920, "height": 1080}, SIZES["laptop"],
                                      SIZES["phone"], {"width": 1100, "height": 700}])
def test_the_end_cards_figures_fill_their_rows_evenly(
    new_context: NewContext, own_stage: Stage, viewport: dict[str, int]
) -> None:
    """Five figures on one row where they fit, else 3 and 2: never a lone fifth on a row
    of its own (at 1920x1080, "82 Moves" wrapped below the other four)."""
    reached = own_stage.reach(scene("minesweeper-won"))
    page = new_context(tokens={reached.session: reached.token}, viewport=viewport).new_page()
    page.goto(reached.path("minesweeper"))
    card = page.locator("#end-card")
    expect(card).to_be_visible()
    tops = page.evaluate("""() => [...document.querySelectorAll('#end-figures > div')]
        .map((figure) => Math.round(figure.getBoundingClientRect().top))""")
    rows = Counter(tops).values()
    assert sum(rows) == 5 and max(rows) - min(rows) <= 1, tops
    figures = page.locator("#end-figures")
    assert figures.evaluate("(dl) => dl.scrollWidth <= dl.clientWidth")  # none cut off


def test_the_end_cards_figure_labels_keep_to_one_line_on_a_small_phone(
    new_context: NewContext, own_stage: Stage
) -> None:
    """The columns are counted by what fits: a label that wrapped let six of Ishido's
    figures into six columns across a phone, "Tiles on the board" down four lines."""
    reached = own_stage.reach(scene("ishido-lost"))
    page = new_context(tokens={reached.session: reached.token},
                       viewport={"width": 320, "height": 640}).new_page()
    page.goto(reached.path("ishido"))
    expect(page.locator("#end-card")).to_be_visible()
    expect(page.locator("#end-figures")).to_contain_text("Tiles on the board")
    lines = page.evaluate("""() => [...document.querySelectorAll('#end-figures dt')].map((dt) => {
      const range = document.createRange(); range.selectNodeContents(dt);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size; })""")
    assert set(lines) == {1}, lines
    assert page.locator("#end-figures").evaluate("(dl) => dl.scrollWidth <= dl.clientWidth")


def test_a_win_seen_as_it_comes_shows_the_board_first_then_the_card_with_the_record(
    new_context: NewContext, own_stage: Stage
) -> None:
    won = scene("minesweeper-won")
    own_stage.reach(won)  # a game of the same board won before: a record to measure against
    reached, last = own_stage.before_the_end(won)
    page = new_context(tokens={reached.session: reached.token},
                       viewport=SIZES["laptop"]).new_page()
    page.goto(reached.path(won.game))
    wait_for_views(page, 1)
    own_stage.play(reached, won.game, last)
    expect(page.locator("#headline")).to_have_text("You win! Board cleared")
    card = page.locator("#end-card")
    expect(card).to_be_hidden()  # the cleared board first, for a beat
    expect(card).to_be_visible()
    expect(card.locator(".end-records .record dt")).to_contain_text(["Best time"])


def test_a_dialog_opened_during_the_beat_keeps_the_end_card_away_until_asked_for(
    new_context: NewContext, own_stage: Stage
) -> None:
    won = scene("minesweeper-won")
    reached, last = own_stage.before_the_end(won)
    page = new_context(tokens={reached.session: reached.token},
                       viewport=SIZES["laptop"]).new_page()
    page.goto(reached.path(won.game))
    wait_for_views(page, 1)
    page.locator("#board-wrap").focus()
    own_stage.play(reached, won.game, last)
    expect(page.locator("#headline")).to_have_text("You win! Board cleared")
    page.keyboard.press("n")  # New game, during the beat
    dialog = page.locator("dialog[open]")
    expect(dialog).to_be_visible()
    page.wait_for_timeout(1500)  # the beat is over
    expect(page.locator("#end-card")).to_be_hidden()  # not behind the dialog
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    page.locator("#end-show").click()
    expect(page.locator("#end-card")).to_be_visible()
    expect(page.locator("#end-title")).to_have_text("You win! Board cleared")


def in_the_page(page: Page, selector: str) -> dict[str, float]:
    """An element's box in the page, not the window: the same however far it scrolled."""
    shown = box(page, selector)
    down = page.evaluate("scrollY")
    return {**shown, "top": shown["top"] + down, "bottom": shown["bottom"] + down}


def below_the_board(page: Page) -> bool:
    """Whether the end card sits under the board, in the page's flow (endcard.js)."""
    return bool(page.evaluate("document.getElementById('end-card').classList.contains('below')"))


def assert_in_sight_and_focused(page: Page, width: int, height: int) -> None:
    """The card has the focus itself (not an action, which a player's next Enter would
    press) and is in sight: whole between the bar and the screen's foot wherever it fits
    there (floating, or under the board, where the page scrolled to it), else its top just
    under the bar."""
    expect(page.locator("#end-card")).to_be_focused()
    shown, bar = box(page, "#end-card"), box(page, ".topbar")["bottom"]
    assert shown["left"] >= 0 and shown["right"] <= width, f"the card is cut off: {shown}"
    assert shown["top"] >= bar - 1, f"the card is under the bar: {shown}"
    if shown["bottom"] - shown["top"] <= height - bar:
        assert shown["bottom"] <= height + 0.5, f"the card is cut off: {shown}"
    else:
        assert shown["top"] <= bar + 1, f"a card taller than the room is not at its top: {shown}"


# What stands above the board in the page's column (the headline, the status line, the
# seats: each box and each line of text) that the top bar's lower edge cuts in two, the one
# part hidden under the bar, the other showing below it.
CUT_BY_THE_BAR_JS = """() => {
  const bar = document.querySelector(".topbar").getBoundingClientRect().bottom;
  const wrap = document.getElementById("board-wrap"), cut = [];
  for (const part of wrap.parentElement.children) {
    if (part === wrap) break;
    const range = document.createRange();
    range.selectNodeContents(part);
    for (const line of range.getClientRects()) {
      if (line.height > 0 && line.top < bar - 0.5 && line.bottom > bar + 0.5) {
        cut.push({ in: part.id, top: line.top, bottom: line.bottom, bar });
      }
    }
  }
  return cut;
}"""


def assert_nothing_cut_by_the_bar(page: Page) -> None:
    cut = page.evaluate(CUT_BY_THE_BAR_JS)
    assert not cut, f"the bar's edge cuts through these, their rest peeking out under it: {cut}"


def same_box(before: dict[str, float], after: dict[str, float], what: str) -> None:
    moved = {side: round(after[side] - before[side], 1) for side in before
             if abs(after[side] - before[side]) > 1}
    assert not moved, f"{what} moved or changed size: {moved}"


EXPERT_LOST = Scene("minesweeper", "lost", {"id": "minesweeper:expert#scene"}, open_a_mine)
ENDINGS = {  # one ending per game, and the biggest board on a phone
    **{scene.game: scene for scene in SCENES if scene.moment != "play"},
    "minesweeper-expert": EXPERT_LOST,
}


HARD_LOST = Scene("minesweeper", "lost", {"id": "minesweeper:hard#endcard"}, open_a_mine)


def test_the_page_scrolled_to_the_end_card_leaves_no_line_half_under_the_bar(
    new_context: NewContext, own_stage: Stage
) -> None:
    """1280x800: Hard's card goes under the board, and the page scrolls to it. It scrolled
    just so far as to show the card whole, and the bar's edge cut the status line in two:
    its last 5 px showed under the bar (the descenders of "Better luck next time (with
    help)."). The page scrolls on a little, until the line is hidden whole, the board and
    the card still whole."""
    reached, last_move = own_stage.before_the_end(HARD_LOST)
    page = new_context(tokens={reached.session: reached.token}, color_scheme="dark",
                       viewport={"width": 1280, "height": 800}).new_page()
    page.goto(reached.path("minesweeper"))
    views = wait_for_views(page, 1)
    page.evaluate("document.fonts.ready.then(() => true)")
    wait_for_layout(page)
    own_stage.play(reached, "minesweeper", last_move)
    wait_for_views(page, views + 1)
    expect(page.locator("#end-card")).to_be_visible()
    expect(page.locator("#message")).not_to_be_empty()
    wait_for_layout(page)
    assert below_the_board(page) and page.evaluate("scrollY") > 0, "the page did not scroll"
    assert_nothing_cut_by_the_bar(page)
    bar, grid, card = box(page, ".topbar")["bottom"], box(page, "#ms-grid"), box(page, "#end-card")
    assert grid["top"] >= bar and card["bottom"] <= 800, f"not whole: {grid} {card}"


SAYS_THE_END_IN_THE_BOARD = {"tribolo"}  # its board ends with a note of its own, under the cells


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("ending", ENDINGS)
def test_the_end_card_is_in_sight_and_leaves_the_final_board_where_it_was(
    new_context: NewContext, own_stage: Stage, ending: str, size: str
) -> None:
    scene_at_end = ENDINGS[ending]
    reached, last_move = own_stage.before_the_end(scene_at_end)
    context = new_context(tokens={reached.session: reached.token}, viewport=SIZES[size])
    page = context.new_page()
    page.goto(reached.path(scene_at_end.game))
    views = wait_for_views(page, 1)
    page.evaluate("document.fonts.ready.then(() => true)")
    wait_for_layout(page)
    board, wrap = in_the_page(page, "#board > *"), in_the_page(page, "#board-wrap")
    own_stage.play(reached, scene_at_end.game, last_move)
    wait_for_views(page, views + 1)
    card = page.locator("#end-card")
    expect(card).to_be_visible()
    page.evaluate("document.fonts.ready.then(() => true)")  # the end's words may load a face
    wait_for_layout(page)
    assert_in_sight_and_focused(page, SIZES[size]["width"], SIZES[size]["height"])
    assert_nothing_cut_by_the_bar(page)
    if below_the_board(page):  # under the board's frame, in the page's flow
        assert box(page, "#end-card")["top"] >= box(page, "#board-wrap")["bottom"]
    if scene_at_end.game in SAYS_THE_END_IN_THE_BOARD:  # a line under the board's cells
        del board["bottom"], wrap["bottom"]
    # (the page may scroll to a card under the board: the board stays where it was in it)
    same_box(board, in_the_page(page, "#board > *"), "the board")
    same_box(wrap, in_the_page(page, "#board-wrap"), "the board's frame")


DRAWN = {"ishido": ("#ish-board", "#ish-side"), "sliding": ("#sl-board", "#sl-target"),
         "tictactoe": ("#ttt-board",), "minesweeper": ("#ms-grid",), "escalator": ("#esc-board",)}
"""What each board draws that a player looks at, for a card that must keep clear of it."""
MINESWEEPER_LOST = {board: Scene("minesweeper", "lost", {"id": f"minesweeper:{board}#endcard"},
                                 open_a_mine) for board in ("medium", "intermediate")}
NEVER_OVER_THE_BOARD = [  # (the ending, the screen): where the card covered the board
    ("tictactoe-won", "390x844"), ("tictactoe-won", "360x740"),  # two friends at one phone
    ("minesweeper-medium", "390x844"), ("minesweeper-medium", "360x740"),
    ("minesweeper-intermediate", "360x740"),  # 16x16
    ("ishido-won", "1280x800"), ("ishido-won", "1440x900"), ("ishido-lost", "1280x800"),
    ("ishido-won", "1366x768"), ("sliding-won", "1366x768"),  # a card 181 px wide there
    ("escalator-lost", "390x844"),  # (measured as it slid in, 12 px low, it missed the board)
]
MIN_CARD_PX = 17 * 16  # narrower, a card's words wrap into a tall column


@pytest.mark.parametrize("ending, screen", NEVER_OVER_THE_BOARD)
def test_the_end_card_never_covers_the_board_and_is_wide_enough_to_read(
    new_context: NewContext, own_stage: Stage, ending: str, screen: str
) -> None:
    """Where no place beside the board has room for it, the card sits under the board's
    frame, in the page's flow, and the page scrolls to show it whole: it lay over Tic Tac
    Toe's and Minesweeper's cells on a phone, over the corner of Ishido's board at
    1280x800 and 1440x900, and at 1366x768 it was squeezed into the 181 px beside
    Ishido's and the sliding puzzle's, its words a tall column."""
    width, height = map(int, screen.split("x"))
    phone = width < 640
    board = ending.removeprefix("minesweeper-")
    ended = MINESWEEPER_LOST[board] if board in MINESWEEPER_LOST else scene(ending)
    reached = own_stage.reach(ended)
    page = new_context(tokens={reached.session: reached.token}, has_touch=phone, is_mobile=phone,
                       viewport={"width": width, "height": height}).new_page()
    page.goto(reached.path(ended.game))
    wait_for_views(page, 1)
    expect(page.locator("#end-card")).to_be_visible()
    page.evaluate("document.fonts.ready.then(() => true)")
    wait_for_layout(page)
    card = box(page, "#end-card")
    for part in DRAWN[ended.game]:
        drawn = box(page, part)
        apart = (card["left"] >= drawn["right"] or drawn["left"] >= card["right"]
                 or card["top"] >= drawn["bottom"] or drawn["top"] >= card["bottom"])
        assert apart, f"the card covers {part}: {card} {drawn}"
        # (under the board, the card whole in sight comes first: the board's top may have
        # gone under the bar, a scroll up away, but never its foot, just above the card)
        assert drawn["bottom"] <= height, f"{part} is out of sight: {drawn}"
    assert card["right"] - card["left"] >= min(MIN_CARD_PX, width - 24), f"a narrow card: {card}"
    assert_in_sight_and_focused(page, width, height)
    assert box(page, "#end-actions .btn:last-child")["bottom"] <= card["bottom"]  # none cut off
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    # put away and brought back, the card comes to the same place
    page.keyboard.press("Escape")
    expect(page.locator("#end-card")).to_be_hidden()
    page.locator("#end-show").click()
    expect(page.locator("#end-card")).to_be_visible()
    wait_for_layout(page)
    again = box(page, "#end-card")
    assert again["right"] - again["left"] == pytest.approx(card["right"] - card["left"], abs=1)
    assert_in_sight_and_focused(page, width, height)


@pytest.mark.parametrize("ending", ["tictactoe-won", "tribolo-won", "escalator-lost",
                                    "minesweeper-lost", "ishido-won", "sliding-won"])
@pytest.mark.parametrize("width, height", [(640, 360), (844, 390)])
def test_on_a_phones_side_the_end_card_takes_the_column_beside_the_board(
    new_context: NewContext, own_stage: Stage, ending: str, width: int, height: int
) -> None:
    """Centred, the card hid a 640x360 screen's whole Tic Tac Toe board."""
    reached = own_stage.reach(scene(ending))
    context = new_context(tokens={reached.session: reached.token}, has_touch=True,
                          is_mobile=True, viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(reached.path(scene(ending).game))
    wait_for_views(page, 1)
    expect(page.locator("#end-card")).to_be_visible()
    wait_for_layout(page)
    # (Minesweeper's page keeps one column below 800 px: its grid stays clear of the card)
    board = box(page, "#ms-grid" if ending.startswith("minesweeper") else "#board-wrap")
    card = box(page, "#end-card")
    assert card["left"] >= board["right"], f"the card covers the board: {card} {board}"
    assert box(page, "#end-actions .btn:last-child")["bottom"] <= height  # all in sight
    assert card["top"] >= box(page, ".topbar")["bottom"] and card["bottom"] <= height
    assert card["right"] <= width


def test_a_series_of_three_players_keeps_its_score_in_a_phones_line(
    new_context: NewContext, own_stage: Stage
) -> None:
    """On a phone, three seats' games won are told by their dots (each name too, "Computer,
    Red ...", ran the line off the screen and hid the last seat's score)."""
    reached = own_stage.reach(scene("tribolo-won"))
    page = new_context(tokens={reached.session: reached.token}, viewport=SIZES["phone"],
                       has_touch=True, is_mobile=True).new_page()
    page.goto(reached.path("tribolo"))
    wait_for_views(page, 1)
    page.locator("#end-card").get_by_role("button", name="Rematch", exact=True).click()
    row = page.locator("#series")
    expect(row.locator(".series-label")).to_have_text("Game 2, won:", use_inner_text=True)
    expect(row.locator(".series-seat")).to_have_text([re.compile(r"^[01]$")] * 3,
                                                     use_inner_text=True)  # the dot, won
    assert page.evaluate("(row) => row.scrollWidth <= row.clientWidth", row.element_handle())
    page.set_viewport_size({"width": 844, "height": 390})  # on its side: in the column
    expect(row.locator(".series-label")).to_have_text("Game 2, won:", use_inner_text=True)
    assert page.evaluate("(row) => row.scrollWidth <= row.clientWidth", row.element_handle())
    assert box(page, "#series")["right"] <= 844


def test_tribolos_note_of_a_pass_leaves_the_grid_where_it_was_on_a_phone(
    new_context: NewContext, create_game: CreateGame
) -> None:
    """A pass's note wraps on a 360-pixel phone: it has two lines' room, so neither the grid
    nor the move strip under the note moves under a finger."""
    created = create_game("tribolo", id="tribolo:standard#note", seats=["human"] * 3)
    page = new_context(tokens={created["session"]: created["token"]}, has_touch=True,
                       is_mobile=True, viewport={"width": 360, "height": 640}).new_page()
    page.goto(f"/play/tribolo?session={created['session']}")
    wait_for_views(page, 1)
    before = box(page, "#tb-grid"), box(page, "#movelist-items")
    long_note = ("Green played m10 and turned 3 cells. Blue cannot move and passes:"
                 " Red to play.")
    page.evaluate("(text) => { document.getElementById('tb-note').textContent = text; }",
                  long_note)
    assert box(page, "#tb-note")["bottom"] - box(page, "#tb-note")["top"] < 60  # two lines
    after = box(page, "#tb-grid"), box(page, "#movelist-items")
    for was, now in zip(before, after, strict=True):
        assert now["top"] == was["top"], f"it moved by {now['top'] - was['top']} px"


# Scrolls the move strip so that its left or right edge runs through the middle of the
# seat dot of its first or last move; answers the dot's box.
_CUT_A_DOT = """
(edge) => {
  const list = document.getElementById("movelist-items");
  const dots = list.querySelectorAll(".mv .dot");
  const dot = dots[edge === "left" ? 0 : dots.length - 1];
  const box = () => dot.getBoundingClientRect();
  const strip = list.getBoundingClientRect();
  const by = (box().left + box().right) / 2 - strip[edge];
  const max = list.scrollWidth - list.clientWidth;
  if (list.scrollLeft + by < 0 || list.scrollLeft + by > max) return null;
  list.scrollLeft += by;
  const { top, bottom, left, right } = box();
  return { top, bottom, left, right };
}
"""


@pytest.mark.parametrize("size", ["phone", "narrow phone"])
def test_on_a_phone_the_move_strip_fades_out_where_its_edge_cuts_a_move(
    new_context: NewContext, stage: Stage, size: str
) -> None:
    """The move list under the board, a strip on a phone, shows the latest move whole at
    its right; a move an edge cuts in two (the left one, scrolled to the end; either, as
    the player scrolls) is faded out there, so that the cut reads as more moves that way,
    not as a slip: cut through a move's seat dot, the strip's outermost pixels at that
    edge show no dot (before the fade, its colour stood at the edge, mid-move)."""
    reached = stage.reach(scene("tribolo-play"))  # six moves: more than a phone's width
    viewport = SIZES.get(size) or SMALL_PHONES[size]
    page = new_context(tokens={reached.session: reached.token}, has_touch=True,
                       is_mobile=True, viewport=viewport).new_page()
    page.goto(reached.path("tribolo"))
    wait_for_views(page, 1)
    page.evaluate("document.fonts.ready.then(() => true)")
    page.locator("#movelist-items").scroll_into_view_if_needed()  # (under a tall board)
    strip = box(page, "#movelist-items")
    latest = box(page, "#movelist-items > li:last-child")
    assert strip["left"] < latest["left"] and latest["right"] <= strip["right"] + 0.5, (
        f"the latest move is cut: {latest} in {strip}")
    for edge in ("left", "right"):
        dot = page.evaluate(_CUT_A_DOT, edge)
        assert dot, f"the strip cannot scroll its {edge} edge through a move"
        page.evaluate("new Promise((done) => requestAnimationFrame("
                      "() => requestAnimationFrame(done)))")  # (painted as scrolled)
        column = int(strip["left"]) + 1 if edge == "left" else int(strip["right"]) - 1
        shot = page.screenshot(clip={"x": column, "y": int(dot["top"]) - 3, "width": 1,
                                     "height": int(dot["bottom"] - dot["top"]) + 6})
        image = Image.open(io.BytesIO(shot)).convert("RGB")
        pixels = [image.getpixel((0, y)) for y in range(image.height)]
        spread = max(max(channel) - min(channel) for channel in zip(*pixels, strict=True))
        assert spread <= 16, (
            f"the {edge} edge at x={column} shows the move it cuts: colours {sorted(set(pixels))}")


def test_the_end_card_put_away_shows_the_final_board_and_comes_back(
    new_context: NewContext, own_stage: Stage
) -> None:
    page = open_scene_at(new_context, own_stage, "minesweeper-won", "phone")
    card = page.locator("#end-card")
    expect(card).to_be_visible()
    wait_for_layout(page)
    board = in_the_page(page, "#board > *")  # (the page shortens: its scroll may go back)
    card.get_by_role("button", name="See the board").click()
    expect(card).to_be_hidden()
    expect(page.locator("#board-wrap")).to_be_focused()
    again = page.get_by_role("button", name="Show result")
    expect(again).to_be_visible()
    # the result stays in sight, in the bar's first row on a phone
    expect(page.locator("#topbar-headline")).to_contain_text("You win")
    expect(page.locator("#topbar-headline")).to_be_visible()
    wait_for_layout(page)
    same_box(board, in_the_page(page, "#board > *"), "the board")
    again.click()
    expect(card).to_be_visible()
    expect(card).to_be_focused()
    expect(again).to_be_hidden()


def test_new_game_on_the_end_card_deals_another_game(
    new_context: NewContext, own_stage: Stage
) -> None:
    page = open_scene_at(new_context, own_stage, "tictactoe-won")
    deal, session = page.locator("#game-id").inner_text(), page.url
    page.locator("#end-new").click()
    page.wait_for_function("s => location.href !== s", arg=session)
    expect(page.locator("#end-card")).to_be_hidden()
    expect(page.locator("#ttt-board .mark")).to_have_count(0)
    assert page.locator("#game-id").inner_text() != deal


def test_the_end_card_can_be_put_away_to_see_the_board(
    new_context: NewContext, own_stage: Stage
) -> None:
    page = open_scene_at(new_context, own_stage, "tictactoe-draw")
    card = page.locator("#end-card")
    expect(card).to_be_visible()
    expect(page.locator("#message")).to_contain_text("Well played, both")
    page.locator("#end-close").click()
    expect(card).to_be_hidden()
    expect(page.locator("#ttt-board")).to_be_visible()
    expect(page.locator("#board-wrap")).to_be_focused()
    page.reload()  # a finished game opened again shows its card again; Esc puts it away
    wait_for_views(page, 1)
    expect(card).to_be_visible()
    page.keyboard.press("Escape")
    expect(card).to_be_hidden()


def test_no_end_card_while_playing(new_context: NewContext, own_stage: Stage) -> None:
    page = open_scene_at(new_context, own_stage, "tictactoe-play")
    page.wait_for_timeout(100)
    expect(page.locator("#end-card")).to_be_hidden()


# -- the chrome ------------------------------------------------------------------------
def test_the_api_is_for_developers_in_help_not_a_settings_button(new_context: NewContext) -> None:
    page = new_context(viewport=SIZES["laptop"]).new_page()
    page.goto("/")
    expect(page.locator(".topbar a[href='/docs']")).to_have_count(0)
    expect(page.get_by_role("link", name="the REST API")).to_have_attribute("href", "/docs")
    page.goto("/play/escalator")
    wait_for_views(page, 1)
    page.locator("#menu-help").click()
    expect(page.locator('#menubar [data-run="api"]')).to_contain_text("For developers")
    page.keyboard.press("Escape")
    page.locator("#btn-help").click()
    expect(page.locator("#help-dialog").get_by_role("link", name="the API")).to_have_attribute(
        "href", "/docs")


def test_sound_is_a_quiet_switch_that_says_its_state(new_context: NewContext) -> None:
    page = new_context(viewport=SIZES["laptop"]).new_page()
    page.goto("/play/sliding")
    wait_for_views(page, 1)
    sound = page.locator("#btn-sound")
    expect(sound).to_have_attribute("aria-pressed", "true")
    plain = page.evaluate("getComputedStyle(document.querySelector('#btn-sound')).backgroundColor")
    new = page.evaluate("getComputedStyle(document.querySelector('#btn-new')).backgroundColor")
    assert plain != new and plain == "rgba(0, 0, 0, 0)", "only New is filled with the accent"
    sound.click()
    expect(sound).to_have_attribute("aria-pressed", "false")
    expect(sound).to_have_attribute("title", re.compile("off"))
    expect(page.locator("#sound-icon")).to_have_text("🔇")


SOUND_STATE = "async () => (await import('/static/common.js')).soundState()"


def sound_state_becomes(page: Page, state: str, within_ms: int) -> None:
    for _ in range(within_ms // 100):
        if page.evaluate(SOUND_STATE) == state:
            return
        page.wait_for_timeout(100)
    assert page.evaluate(SOUND_STATE) == state


def test_sounds_rest_the_audio_once_quiet_and_wake_it_for_the_next(
    new_context: NewContext, create_game: CreateGame,
) -> None:
    """A running AudioContext costs the machine CPU even in silence: five quiet seconds
    after the last sound it is suspended, and a move's sound starts it again."""
    page = open_game(new_context, create_game, "tictactoe", "laptop",
                     seats=["human", "human"])  # no computer's move to sound meanwhile
    cells = page.locator("#board [data-move]")
    cells.first.click()
    sound_state_becomes(page, "running", 2_000)
    page.wait_for_timeout(4_000)
    assert page.evaluate(SOUND_STATE) == "running", "suspended before five quiet seconds"
    sound_state_becomes(page, "suspended", 2_500)
    cells.first.click()
    sound_state_becomes(page, "running", 2_000)


# Each AudioContext the page makes and each tone it starts, noted with whether the page
# had been pressed by then (Playwright's own evaluations may count as a press, so the
# test asks what the page knew at the time rather than when it looks).
SOUND_WATCH = """(() => {
  window.madeSound = [];
  const note = (what) => window.madeSound.push([what, navigator.userActivation.hasBeenActive]);
  const Real = window.AudioContext;
  window.AudioContext = class extends Real {
    constructor(...args) { super(...args); note("context"); }
  };
  const tone = BaseAudioContext.prototype.createOscillator;
  BaseAudioContext.prototype.createOscillator = function () {
    note("tone");
    return tone.call(this);
  };
})()"""


def test_a_computer_s_moves_before_the_player_has_pressed_anything_make_no_sound(
    new_context: NewContext, create_game: CreateGame,
) -> None:
    """Browsers refuse sound before the page's first press (and warn in the console each
    time): the computer's opening move on a page just opened is silent, the audio is not
    even made, and the player's first move sounds as any other."""
    created = create_game("tictactoe", seats=["ai:perfect", "human"])
    context = new_context(tokens={created["session"]: created["token"]},
                          viewport=SIZES["phone"], has_touch=True, is_mobile=True)
    context.add_init_script(SOUND_WATCH)
    page = context.new_page()
    said: list[str] = []
    page.on("console", lambda message: said.append(message.text))
    page.goto(f"/play/tictactoe?session={created['session']}")
    expect(page.locator("#board [data-move]")).to_have_count(8)  # the computer has moved
    page.wait_for_timeout(3_500)  # past the idle time at which the audio was warmed
    page.locator("#board [data-move]").first.tap()
    # The press itself may make the audio (warmed once pressed); the move's tone follows
    # the server's answer, which a loaded machine can keep a while.
    page.wait_for_function("window.madeSound.some(([what]) => what === 'tone')", timeout=5_000)
    sound_state_becomes(page, "running", 2_000)
    made = page.evaluate("window.madeSound")
    assert ["context", True] in made and ["tone", True] in made, made
    assert all(pressed for _, pressed in made), made  # nothing before the first press
    assert not [text for text in said if "AudioContext" in text], said


# -- the typeface ------------------------------------------------------------------------
FONT_LOADED = """async () => {
  await document.fonts.ready;
  await document.fonts.load('16px Nunito');
  const faces = [...document.fonts].filter((f) => f.family.replace(/"/g, '') === 'Nunito');
  return { loaded: faces.some((f) => f.status === 'loaded'),
           check: document.fonts.check('16px Nunito'),
           body: getComputedStyle(document.body).fontFamily };
}"""


@pytest.mark.parametrize("path", ["/", "/stats", "/play/ishido"])
def test_every_page_is_set_in_the_shipped_typeface(new_context: NewContext, path: str) -> None:
    page = new_context().new_page()
    page.goto(path)
    found = page.evaluate(FONT_LOADED)
    assert found["loaded"] and found["check"], found
    assert found["body"].startswith('"Nunito"') or found["body"].startswith("Nunito"), found


@pytest.mark.parametrize("size", ["phone", "small phone"])
def test_two_seat_chips_keep_one_row_on_a_phone(
    new_context: NewContext, create_game: CreateGame, size: str
) -> None:
    page = open_game(new_context, create_game, "tictactoe", size, seats=["human", "ai:perfect"])
    chips = page.locator("#seats .seat")
    expect(chips).to_have_count(2)
    tops = {round(box["y"]) for box in (chips.nth(i).bounding_box() for i in range(2)) if box}
    assert len(tops) == 1, "the chips wrap"
    expect(chips.nth(1)).to_contain_text("Computer")
    level = chips.nth(1).locator(".level")
    if size == "phone":  # 390 px: room for which computer it is
        expect(level).to_be_visible()
        expect(level).to_have_text(" (Perfect)")
    else:  # 320 px: its level gives way
        expect(level).to_be_hidden()


@pytest.mark.parametrize("size", ["phone", "small phone"])
def test_three_seat_chips_keep_one_row_down_to_a_small_phone(
    new_context: NewContext, create_game: CreateGame, size: str
) -> None:
    page = open_game(new_context, create_game, "tribolo", size,
                     seats=["human", "ai:easy", "ai:easy"])
    chips = page.locator("#seats .seat")
    expect(chips).to_have_count(3)
    tops = {round(box["y"]) for box in (chips.nth(i).bounding_box() for i in range(3)) if box}
    assert len(tops) == 1, "the chips wrap"
    expect(chips.nth(0)).to_contain_text("You")  # yours still says so


@pytest.mark.parametrize("size", ["small phone", "narrow phone"])
def test_minesweepers_medium_board_fits_across_a_narrow_phone(
    new_context: NewContext, create_game: CreateGame, size: str
) -> None:
    page = open_game(new_context, create_game, "minesweeper", size,
                     params={"rows": 15, "cols": 15, "mines": 40})
    width = SMALL_PHONES[size]["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    wrap = page.locator("#board-wrap")
    assert wrap.evaluate("(w) => w.scrollWidth <= w.clientWidth"), "the board scrolls sideways"
    grid = page.locator(".ms-grid").bounding_box()
    assert grid is not None and grid["x"] >= 0 and grid["x"] + grid["width"] <= width
    cell = page.locator(".ms-cell").first.bounding_box()
    assert cell is not None and cell["width"] >= 18  # still a fingertip's cell


# each board on an upright 360x740 phone, and the least its cells may be there: as wide as
# the width allows, the board's panel reaching the screen's sides (before, 12 px of page and
# 8 px of panel on each side left Medium's and Hard's cells 20 px, Expert's 18)
NARROW_TOUCH_PHONE = {"width": 360, "height": 740}
BOARDS_ACROSS_A_NARROW_PHONE = {
    "easy": ({"rows": 7, "cols": 7, "mines": 10}, 44),
    "medium": ({"rows": 15, "cols": 15, "mines": 40}, 22),
    "hard": ({"rows": 15, "cols": 30, "mines": 99}, 22),  # on its side: 15 cells across
    "expert": ({"rows": 16, "cols": 30, "mines": 99}, 20),
}


@pytest.mark.parametrize("board", BOARDS_ACROSS_A_NARROW_PHONE)
def test_on_a_narrow_touch_phone_every_board_fits_across_in_cells_as_wide_as_it_allows(
    new_context: NewContext, create_game: CreateGame, board: str
) -> None:
    params, least_cell = BOARDS_ACROSS_A_NARROW_PHONE[board]
    created = create_game("minesweeper", params=params)
    context = new_context(tokens={created["session"]: created["token"]}, has_touch=True,
                          is_mobile=True, viewport=NARROW_TOUCH_PHONE)
    page = context.new_page()
    page.goto(f"/play/minesweeper?session={created['session']}")
    wait_for_views(page, 1)
    wait_for_layout(page)
    width = NARROW_TOUCH_PHONE["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width, "sideways scroll"
    grid = box(page, ".ms-grid")
    assert grid["left"] >= 0 and grid["right"] <= width, grid
    cell = box(page, ".ms-cell")
    assert cell["right"] - cell["left"] >= least_cell, cell


def test_a_wide_board_grows_on_a_big_screen(new_context: NewContext,
                                            create_game: CreateGame) -> None:
    """Expert's 30 columns: wider cells on 1600 x 1000 than on a laptop, and still the
    whole board on the first screen."""
    created = create_game("minesweeper", params={"rows": 16, "cols": 30, "mines": 99})
    widths = {}
    for width, height in ((1366, 800), (1600, 1000)):
        context = new_context(tokens={created["session"]: created["token"]},
                              viewport={"width": width, "height": height})
        page = context.new_page()
        page.goto(f"/play/minesweeper?session={created['session']}")
        wait_for_views(page, 1)
        grid = box(page, ".ms-grid")
        assert grid["right"] <= width and grid["bottom"] <= height, grid
        widths[width] = box(page, ".ms-cell")["right"] - box(page, ".ms-cell")["left"]
    assert widths[1600] >= widths[1366] * 1.25, widths


ON_A_PHONE = {"phone": (390, 844), "narrow phone": (360, 740),  # upright: the board on its side
              "phone on its side": (844, 390), "small phone on its side": (667, 375)}
THIRTY_CELLS_LONG = {"hard": {"rows": 15, "cols": 30, "mines": 99},
                     "expert": {"rows": 16, "cols": 30, "mines": 99}}
_CELLS_ACROSS = """() => {
  const wrap = document.getElementById('board-wrap'), style = getComputedStyle(wrap);
  const grid = document.getElementById('ms-grid').getBoundingClientRect();
  const cell = document.querySelector('.ms-cell').getBoundingClientRect();
  const padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
  return { usable: wrap.clientWidth - padding,
           grid: grid.width, cell: cell.width, wrapScrolls: wrap.scrollWidth > wrap.clientWidth,
           boxPans: (b => b.scrollHeight > b.clientHeight)(document.getElementById('ms-scroll')),
           pageWidth: document.documentElement.scrollWidth,
           pageHeight: document.documentElement.scrollHeight };
}"""


@pytest.mark.parametrize("board", THIRTY_CELLS_LONG)
@pytest.mark.parametrize("size", ON_A_PHONE)
def test_on_a_phone_a_board_too_long_for_the_screen_takes_its_width(
    new_context: NewContext, create_game: CreateGame, size: str, board: str
) -> None:
    """Hard's and Expert's 30 cells do not fit a phone's height even at 18 px, so they pan
    (upright, in a box of their own; on its side, with the page) down to their end, and
    their cells are as wide as the width allows: sized to
    the height and floored at 18 px, they left 43 to 62 px of a 390x844 phone's width
    unused (grids of 307 and 288 px in 350) while still running 82 px under the screen.
    The counters stay at the top of the page, the last row is scrolled to, and nothing
    scrolls sideways."""
    width, height = ON_A_PHONE[size]
    created = create_game("minesweeper", params=THIRTY_CELLS_LONG[board])
    context = new_context(tokens={created["session"]: created["token"]}, has_touch=True,
                          is_mobile=True, viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(f"/play/minesweeper?session={created['session']}")
    wait_for_views(page, 1)
    wait_for_layout(page)
    shown = page.evaluate(_CELLS_ACROSS)
    across = THIRTY_CELLS_LONG[board]["rows" if height > width else "cols"]
    assert shown["cell"] >= 18, shown
    assert shown["grid"] <= shown["usable"], f"the grid is wider than its panel: {shown}"
    # whole pixels: one more per cell would not fit (at 390x844 Hard's cells are 22 px,
    # Expert's 20; before, 18)
    assert shown["grid"] + across > shown["usable"], f"the width is not used: {shown}"
    assert shown["pageWidth"] <= width and not shown["wrapScrolls"], f"sideways: {shown}"
    # upright, the grid pans in a box of its own and the page stays; on its side, where
    # that box would be a strip, the page scrolls
    upright = height > width
    if upright:
        assert shown["boxPans"] and shown["pageHeight"] <= height, shown
        page.evaluate("(b => b.scrollTop = b.scrollHeight)(document.getElementById('ms-scroll'))")
    else:
        assert shown["pageHeight"] > height, "the board fits: it should not be cut to the width"
    for counter in ("#ms-mines", "#ms-face", "#ms-time", "#message"):
        expect(page.locator(counter)).to_be_in_viewport()
    if not upright:
        page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_timeout(100)
    if upright:  # the board's last row in sight, and the counters still
        for counter in ("#ms-mines", "#ms-face", "#ms-time", "#message"):
            expect(page.locator(counter)).to_be_in_viewport()
    last = page.locator(".ms-cell").last
    cell = box(page, f"#{last.get_attribute('id')}")
    assert cell["bottom"] <= height and cell["top"] >= box(page, ".topbar")["bottom"], cell
    assert page.evaluate(  # in sight, under nothing (the bar stays at the top)
        "([x, y]) => document.elementFromPoint(x, y)?.closest('.ms-cell')?.id",
        [(cell["left"] + cell["right"]) / 2, (cell["top"] + cell["bottom"]) / 2],
    ) == last.get_attribute("id")


RING = "(e) => [getComputedStyle(e).outlineStyle, getComputedStyle(e).outlineWidth]"


def test_every_link_and_button_reached_by_tab_shows_the_same_ring(
    new_context: NewContext, create_game: CreateGame,
) -> None:
    """The keyboard's ring is the page's 3 px one on a game's own bar (Minesweeper's
    boards and face) and on the logo, not the browser's thin default."""
    page = open_game(new_context, create_game, "minesweeper", "laptop")
    page.locator("body").focus()
    rings: dict[str, list[str]] = {}
    for _ in range(40):
        page.keyboard.press("Tab")
        found = page.evaluate("document.activeElement.id || document.activeElement.className")
        if found in ("ms-face", "brand") or "ms-preset" in str(found):
            rings[str(found)] = page.evaluate(f"({RING})(document.activeElement)")
    assert "ms-face" in rings and len(rings) >= 2, rings
    assert all(ring == ["solid", "3px"] for ring in rings.values()), rings
