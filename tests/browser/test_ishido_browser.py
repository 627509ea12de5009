"""Ishido in a real Chromium against a real server: drag and drop, clicks, keys, assist,
tile sets, window sizes, a whole game, reload.

Boards are compared as the server's text: 8 lines of 12 cells, each cell a colour letter
a-f and a glyph digit 1-6 ("c4"), or ".." when empty, then "next: c4" (or "next: none").
The test reads the same text off the page (the classes of `#ish-{col}-{row}` and of
`#ish-next`), and works out where the next tile fits with the game's own rules
(`logic.fits`), so it never needs the assist switch (which marks a game as assisted).
"""

from __future__ import annotations

import io
import re
import statistics
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image
from playwright.sync_api import FloatRect, Locator, Page, expect

from parlour.core.game import Status
from parlour.core.gameid import parse_game_id
from parlour.games.ishido import SPEC as ISHIDO
from parlour.games.ishido.logic import COLS, KINDS, NEIGHBOURS, ROWS, Ishido, fits, valid_cells
from parlour.games.ishido.view import LETTERS, SYMBOLS
from tests.browser.conftest import (
    CreateGame,
    NewContext,
    NextView,
    OpenPage,
    ServerView,
    WaitViews,
    wait_for_views,
)
from tests.browser.pages import GamePage
from tests.browser.views import wait_for_layout

pytestmark = pytest.mark.browser

Cell = tuple[int, int]  # (col, row)

DRAG_DEAL = "ishido:seed#d1"  # a fixed deal, so that a drag test fails the same way each run
QUIET_MS = 300  # how long to watch for a change that must not happen
# from a click to the view it brings, measured in the page: a loose guard on the median
# only (a busy machine's wall clock is no measure; bench.click_latency gives the figures)
CLICK_BUDGET_MS = 100

# The board as the page shows it, in the server's text format.
BOARD_JS = """() => {
  const text = (element) => {
    const kind = (prefix) => [...element.classList].find((k) => k.length === 2 && k[0] === prefix);
    const c = kind("c"), g = kind("g");
    return c && g ? "abcdef"[Number(c[1])] + String(Number(g[1]) + 1) : "??";
  };
  const lines = [];
  for (let row = 0; row < 8; row++) {
    let line = "";
    for (let col = 0; col < 12; col++) {
      const cell = document.getElementById(`ish-${col}-${row}`);
      line += !cell ? "??" : cell.classList.contains("tile") ? text(cell) : "..";
    }
    lines.push(line);
  }
  const next = document.getElementById("ish-next");
  lines.push(`next: ${next ? text(next) : "none"}`);
  return lines.join("\\n");
}"""

# Which looks of a tile are drawn (not `display: none`).
# Records, in the page, how long each click takes to bring its view.
LATENCY_JS = """() => {
  window.clickToView = [];
  let clickedAt = null;
  document.addEventListener("click", () => { clickedAt = performance.now(); }, true);
  new MutationObserver(() => {
    if (clickedAt === null) return;
    window.clickToView.push(performance.now() - clickedAt);
    clickedAt = null;
  }).observe(document.body, { attributes: true, attributeFilter: ["data-views"] });
}"""

GLYPHS_JS = """(tile) => {
  const shown = (selector) => getComputedStyle(tile.querySelector(selector)).display !== "none";
  return { birds: shown(".glyph.birds"), letters: shown(".glyph.letters"),
           symbols: shown(".glyph.symbols"), shape: shown(".cshape") };
}"""


# -- the rules, worked out in the test from the text the server gives -----------------
def parse_text(text: str) -> tuple[list[int | None], int | None]:
    """The cells (tile numbers, `row * 12 + col`) and the next tile of a board text."""
    *rows, following = text.splitlines()
    assert len(rows) == ROWS and all(len(row) == 2 * COLS for row in rows), text

    def tile(code: str) -> int | None:
        if code in ("..", "none"):
            return None
        return "abcdef".index(code[0]) * KINDS + int(code[1]) - 1

    cells = [tile(row[2 * col : 2 * col + 2]) for row in rows for col in range(COLS)]
    return cells, tile(following.removeprefix("next: "))


def fitting(text: str, rules: str = "seed") -> dict[Cell, int]:
    """Each cell where the next tile fits, with its number of neighbours."""
    cells, tile = parse_text(text)
    if tile is None:
        return {}
    found = {}
    for index in range(COLS * ROWS):
        neighbours = fits(cells, index, tile, rules)
        if neighbours:
            found[(index % COLS, index // COLS)] = neighbours
    return found


def misfits(text: str, rules: str = "seed") -> list[Cell]:
    """Empty cells beside a tile where the next tile does not fit (a plausible mistake)."""
    cells, tile = parse_text(text)
    assert tile is not None
    return [
        (index % COLS, index // COLS)
        for index in range(COLS * ROWS)
        if cells[index] is None
        and any(cells[n] is not None for n in NEIGHBOURS[index])
        and not fits(cells, index, tile, rules)
    ]


def best(valid: dict[Cell, int]) -> Cell:
    """The cell with the most neighbours, the first in reading order among equals."""
    return max(valid, key=lambda cell: (valid[cell], -(cell[1] * COLS + cell[0])))


def placed(text: str, cell: Cell) -> str:
    """The code ("c4") of the tile on `cell`, ".." when empty."""
    col, row = cell
    return text.splitlines()[row][2 * col : 2 * col + 2]


def next_code(text: str) -> str:
    return text.splitlines()[-1].removeprefix("next: ")


# -- the page ------------------------------------------------------------------------
class IshidoPage(GamePage):
    """One browser tab on the Ishido page, with the moves and reads the tests need."""

    BOARD_JS = BOARD_JS

    def __init__(self, page: Page, next_view: NextView) -> None:
        super().__init__(page, next_view)
        self.left = page.locator("#ish-left")
        self.next_tile = page.locator("#ish-next")

    # -- reading ------------------------------------------------------------------
    def cell(self, cell: Cell) -> Locator:
        col, row = cell
        return self.page.locator(f"#ish-{col}-{row}")

    def tiles_left(self) -> int:
        return int(self.left.inner_text())

    # -- acting -------------------------------------------------------------------
    def click(self, cell: Cell) -> None:
        with self.next_view(self.page):
            self.cell(cell).click()

    def drag_next_to(self, cell: Cell, fits: bool | None = True) -> None:
        """Drag the next tile with the mouse and drop it on `cell`; checks the drag shows,
        and shows whether the tile `fits` there (None: the page is not told, as without
        Assist, and shows it as if it fitted)."""
        mouse = self.page.mouse
        mouse.move(*self.centre(self.next_tile))
        mouse.down()
        mouse.move(*self.centre(self.cell(cell)), steps=12)
        # during the drag: a ghost under the pointer, the tile dimmed, the cell lit
        ghost = self.page.locator(".drag-ghost")
        expect(ghost).to_have_count(1)
        expect(self.next_tile, "the drag stopped before the drop (pointercancel?)").to_have_class(
            re.compile(r"\bdragging\b")
        )
        expect(self.cell(cell)).to_have_class(re.compile(r"\bdrop-target\b"))
        expect(self.page.locator(".drop-target")).to_have_count(1)
        # where it fits, the tile sits in the cell; where not, the cell is marked so, and
        # the tile in the hand is faint
        no_fit = re.compile(r"\bno-fit\b")
        for shown in (self.cell(cell), ghost):
            (expect(shown).to_have_class if fits is False else expect(shown).not_to_have_class)(
                no_fit)
        (expect(ghost).not_to_have_class if fits is False else expect(ghost).to_have_class)(
            re.compile(r"\bsnapped\b"))
        mouse.up()


OpenGame = Callable[..., IshidoPage]


@pytest.fixture
def ishido(open_page: OpenPage, next_view: NextView, create_game: CreateGame) -> OpenGame:
    """A new Ishido game made over REST (`id` replays a deal), open in a new browser."""

    def open_game(**options: Any) -> IshidoPage:
        created = create_game("ishido", **options)
        sid = created["session"]
        page = open_page(f"/play/ishido?session={sid}", tokens={sid: created["token"]})
        game = IshidoPage(page, next_view)
        assert game.session() == sid
        game.wait_board(created["view"]["text"])
        return game

    return open_game


def test_drag_the_next_tile_onto_a_cell_where_it_fits(
    ishido: OpenGame, server_view: ServerView
) -> None:
    game = ishido(id=DRAG_DEAL)
    sid = game.session()
    before = game.board()
    assert game.tiles_left() == 66
    target = best(fitting(before))
    tile = next_code(before)

    with game.next_view(game.page):
        game.drag_next_to(target)

    expect(game.cell(target)).to_have_class(re.compile(r"\btile\b"))
    after = game.board()
    assert placed(after, target) == tile, "the dragged tile is not where it was dropped"
    assert after.splitlines()[:-1] == [
        line if row != target[1] else line[: 2 * target[0]] + tile + line[2 * target[0] + 2 :]
        for row, line in enumerate(before.splitlines()[:-1])
    ], "only the target cell should change"
    expect(game.left).to_have_text("65")
    expect(game.page.locator(".drag-ghost")).to_have_count(0)
    expect(game.page.locator(".drop-target")).to_have_count(0)
    expect(game.next_tile).not_to_have_class(re.compile(r"\bdragging\b"))
    expect(game.message).to_have_text("")  # no refusal; a solitaire says no "Your turn"
    expect(game.page.locator("#ish-score")).to_have_text(str(1 << (fitting(before)[target] - 1)))

    # the drop is one move: no click slips through to the cell under the pointer
    views = game.views()
    game.page.wait_for_timeout(QUIET_MS)
    assert game.views() == views
    seen = server_view(sid)
    assert seen["moves"] == 1 and seen["text"] == after

    # and each next tile can be dragged in its turn
    for left in (64, 63):
        before = game.board()
        target = best(fitting(before))
        with game.next_view(game.page):
            game.drag_next_to(target)
        assert placed(game.board(), target) == next_code(before)
        expect(game.left).to_have_text(str(left))
        expect(game.page.locator(".drag-ghost")).to_have_count(0)


def test_a_drop_where_the_tile_does_not_fit_sends_it_back(
    ishido: OpenGame, server_view: ServerView
) -> None:
    game = ishido(id=DRAG_DEAL)
    sid = game.session()
    before = game.board()
    wrong = misfits(before)[0]
    views = game.views()

    game.drag_next_to(wrong, fits=None)  # without Assist, a sweep must not find the places

    # the board has no coordinates: the note names none, and the tile it does not match
    # is marked on the board for a moment
    expect(game.message).to_have_text(re.compile(
        r"^The tile does not fit there: the one (to its left|to its right|above it|below it) "
        r"matches it in neither colour nor bird$"))
    expect(game.message).to_have_class(re.compile(r"\berror\b"))
    clash = game.page.locator(".refusal-cause")
    expect(clash).to_have_count(1)
    clash_id = clash.get_attribute("id")
    assert clash_id is not None
    col, row = map(int, clash_id.split("-")[1:])
    assert abs(col - wrong[0]) + abs(row - wrong[1]) == 1, (clash_id, wrong)
    side = {(-1, 0): "to its left", (1, 0): "to its right", (0, -1): "above it",
            (0, 1): "below it"}[col - wrong[0], row - wrong[1]]
    expect(game.message).to_contain_text(f"the one {side} matches")
    # the ghost flies back to the next tile's place, then goes
    home = game.page.wait_for_function(
        """() => { const ghost = document.querySelector(".drag-ghost.returning");
          return ghost && [parseFloat(ghost.style.left), parseFloat(ghost.style.top)]; }"""
    ).json_value()
    x, y = game.centre(game.next_tile)
    assert abs(home[0] - x) < 2 and abs(home[1] - y) < 2, f"the ghost went to {home}, not home"
    expect(game.page.locator(".drag-ghost")).to_have_count(0)
    expect(game.page.locator(".drop-target")).to_have_count(0)
    expect(game.next_tile).not_to_have_class(re.compile(r"\bdragging\b"))
    expect(game.next_tile).to_have_attribute("data-drag", "")
    expect(clash).to_have_count(0)  # marked only for a moment

    assert game.board() == before
    assert game.tiles_left() == 66
    assert game.views() == views
    expect(game.cell(wrong)).not_to_have_class(re.compile(r"\btile\b"))
    assert server_view(sid)["moves"] == 0

    # the tile is back where it can be dragged again: this time to a good cell, and the
    # refusal's note goes as the new drag begins (it would stand over the new try)
    game.drag_next_to(wrong, fits=None)
    expect(game.message).to_have_class(re.compile(r"\berror\b"))
    target = best(fitting(before))
    x, y = game.centre(game.next_tile)
    game.page.mouse.move(x, y)
    game.page.mouse.down()
    game.page.mouse.move(x - 40, y + 40, steps=4)
    expect(game.page.locator(".drag-ghost")).to_have_count(1)
    expect(game.message).not_to_have_class(re.compile(r"\berror\b"))
    expect(game.message).not_to_contain_text("does not fit")
    game.page.mouse.up()
    ghost_gone(game.page)
    with game.next_view(game.page):
        game.drag_next_to(target)
    assert placed(game.board(), target) == next_code(before)
    expect(game.left).to_have_text("65")
    expect(game.message).not_to_have_class(re.compile(r"\berror\b"))


def test_click_a_cell_to_place_the_tile(ishido: OpenGame, server_view: ServerView) -> None:
    game = ishido()
    before = game.board()
    valid = fitting(before)
    assert game.page.locator("#ish-board [data-move]").count() == 96 - 6
    # a first word for a new player (the game's first_note), until the first tile is down
    expect(game.message).to_have_text(ISHIDO.first_note)

    game.click(target := best(valid))

    expect(game.message).to_have_text("")
    # its points rise off it, and off no other tile (seed rules: 1, 2, 4 or 8)
    expect(game.page.locator("#ish-board .ish-gain")).to_have_count(1)
    expect(game.cell(target).locator(".ish-gain text")).to_have_text(f"+{1 << (valid[target] - 1)}")
    after = game.board()
    assert placed(after, target) == next_code(before)
    expect(game.left).to_have_text("65")
    expect(game.cell(target)).not_to_have_attribute("data-move", re.compile(".*"))
    assert server_view(game.session())["text"] == after
    assert game.page.locator("#ish-board [data-move]").count() == 96 - 7
    # a cell where the new tile does not fit: the click is refused, nothing moves
    wrong = misfits(after)[0]
    game.cell(wrong).click()
    expect(game.message).to_contain_text("does not fit")
    assert game.board() == after
    expect(game.left).to_have_text("65")
    # the points rose after the move alone: a reload shows the tile without them
    game.page.reload()
    expect(game.cell(target).locator(".ish-gain")).to_have_attribute("data-transient", "spent")
    expect(game.cell(target).locator(".ish-gain")).to_be_hidden()


def test_an_undo_that_counts_as_help_asks_first_and_says_so(ishido: OpenGame) -> None:
    game = ishido()
    page = game.page
    game.click(best(fitting(game.board())))
    expect(page.locator("#btn-undo")).to_have_attribute(
        "title", re.compile("counts as help, as you have seen the next tile"))
    asked = page.locator("#undo-dialog")
    page.keyboard.press("u")
    expect(asked).to_be_visible()
    expect(asked.locator("h2")).to_have_text("Undo this move?")  # (the game has no end yet)
    expect(asked).to_contain_text("You have seen the next tile: taken back, this game will "
                                  "count as played with help")
    expect(asked.locator("#undo-keep")).to_have_text("Keep playing")
    page.keyboard.press("Escape")  # kept as it is
    expect(asked).to_be_hidden()
    expect(game.left).to_have_text("65")
    expect(page.locator("#assisted")).to_be_hidden()
    page.keyboard.press("u")
    with game.next_view(page):
        page.keyboard.press("Enter")
    expect(game.left).to_have_text("66")
    expect(page.locator("#assisted")).to_be_visible()
    expect(game.message).to_have_text("Undo counts as help here: you had seen the next tile,"
                                      " so this game now counts as played with help.")
    game.click(best(fitting(game.board())))  # the next Undo asks and says nothing: no news
    with game.next_view(page):
        page.keyboard.press("u")
    expect(asked).to_be_hidden()
    expect(game.message).not_to_contain_text("Undo counts as help")


def test_keyboard_placement(ishido: OpenGame, server_view: ServerView) -> None:
    game = ishido()
    before = game.board()
    target = best(fitting(before))
    keys = game.page.keyboard

    wrap = game.page.locator("#board-wrap")
    wrap.click(position={"x": 4, "y": 4})  # the margin round the board
    assert game.focused() == "board-wrap"

    keys.press("ArrowRight")  # the cursor appears on the first free cell
    assert game.focused() == "ish-1-0"
    col, row = 1, 0
    while (col, row) != target:
        if col != target[0]:
            step = 1 if target[0] > col else -1
            keys.press("ArrowRight" if step > 0 else "ArrowLeft")
            col += step
        else:
            keys.press("ArrowDown")
            row += 1
        assert game.focused() == f"ish-{col}-{row}"
    with game.next_view(game.page):
        keys.press("Enter")

    after = game.board()
    assert placed(after, target) == next_code(before)
    expect(game.left).to_have_text("65")
    assert server_view(game.session())["text"] == after
    # the cell became a tile (another element) and the cursor stayed on it
    assert game.focused() == f"ish-{col}-{row}"
    assert game.page.evaluate("document.activeElement.matches(':focus-visible')")

    # Enter on a cell where the next tile does not fit changes nothing
    wrong = misfits(after)[0]
    game.cell(wrong).focus()
    assert game.focused() == f"ish-{wrong[0]}-{wrong[1]}"
    keys.press("Enter")
    expect(game.message).to_contain_text("does not fit")
    assert game.board() == after


def test_assist_shows_where_the_tile_fits(ishido: OpenGame, server_view: ServerView) -> None:
    game = ishido()
    sid = game.session()
    assist = game.page.locator("#btn-assist")
    badge = game.page.locator("#assisted")
    expect(assist).to_be_visible()
    expect(assist).to_have_attribute("aria-pressed", "false")
    expect(badge).to_be_hidden()
    expect(game.page.locator("#ish-board .valid")).to_have_count(0)

    def check_marks() -> None:
        valid = fitting(game.board())
        marked = game.page.eval_on_selector_all(
            "#ish-board .cell.valid",
            "cells => cells.map((c) => [c.id, c.textContent])",
        )
        expected = {f"ish-{c}-{r}": str(1 << (n - 1)) for (c, r), n in valid.items()}
        assert dict(marked) == expected
        expect(game.page.locator("#ish-board .valid").first).to_be_visible()

    with game.next_view(game.page):
        assist.click()
    expect(assist).to_have_attribute("aria-pressed", "true")
    expect(badge).to_be_visible()
    check_marks()
    assert server_view(sid, game.token())["assisted"] is True

    game.click(best(fitting(game.board())))  # the marks follow the next tile
    check_marks()
    # a drag shows where the tile cannot go (a drop there is refused)
    before = game.board()
    game.drag_next_to(misfits(before)[0], fits=False)
    expect(game.message).to_have_class(re.compile(r"\berror\b"))
    assert game.board() == before

    with game.next_view(game.page):
        game.page.keyboard.press("a")
    expect(assist).to_have_attribute("aria-pressed", "false")
    expect(game.page.locator("#ish-board .valid")).to_have_count(0)
    assert game.page.locator("#ish-board .slot").all_text_contents() == [""] * (96 - 7)
    expect(badge).to_be_visible()  # a game helped once stays assisted
    seen = server_view(sid, game.token())
    assert seen["assisted"] is True and seen["assist"] is False


def test_tile_sets_switch_mid_game(ishido: OpenGame, server_view: ServerView) -> None:
    game = ishido()
    sid = game.session()
    game.click(best(fitting(game.board())))
    before = game.board()
    views = game.views()
    board = game.page.locator("#board")
    expect(board).to_have_attribute("data-opt-tiles", "birds")
    tile = game.cell((0, 0))
    glyph = parse_text(before)[0][0]
    assert glyph is not None
    glyph %= KINDS
    assert tile.evaluate(GLYPHS_JS) == {
        "birds": True, "letters": False, "symbols": False, "shape": False
    }
    looks = {"birds": tile.screenshot(animations="disabled")}

    game.page.click("#btn-theme")
    dialog = game.page.locator("#display-dialog")
    expect(dialog).to_be_visible()
    tiles = game.page.locator("#opt-tiles")
    expect(tiles).to_have_value("birds")

    tiles.select_option("shapes")
    expect(board).to_have_attribute("data-opt-tiles", "shapes")
    assert tile.evaluate(GLYPHS_JS) == {
        "birds": False, "letters": True, "symbols": False, "shape": True
    }
    assert tile.locator(".glyph.letters").text_content() == LETTERS[glyph]
    assert game.next_tile.evaluate(GLYPHS_JS)["letters"] is True
    looks["shapes"] = tile.screenshot(animations="disabled")

    tiles.select_option("symbols")
    expect(board).to_have_attribute("data-opt-tiles", "symbols")
    assert tile.evaluate(GLYPHS_JS) == {
        "birds": False, "letters": False, "symbols": True, "shape": False
    }
    assert tile.locator(".glyph.symbols").text_content() == SYMBOLS[glyph]
    looks["symbols"] = tile.screenshot(animations="disabled")
    assert len(set(looks.values())) == 3, "the tile looks the same in two tile sets"

    game.page.locator("#display-dialog button", has_text="Done").click()
    expect(dialog).to_be_hidden()
    # switching is the page's own business: the board and the game are as they were
    assert game.board() == before
    assert game.views() == views
    assert server_view(sid)["text"] == before
    assert game.page.evaluate("localStorage.getItem('parlour.display.ishido')") == (
        '{"tiles":"symbols"}'
    )
    game.click(best(fitting(before)))  # and play goes on in the new look
    expect(game.left).to_have_text("64")
    expect(board).to_have_attribute("data-opt-tiles", "symbols")


def test_the_board_fits_the_window(ishido: OpenGame) -> None:
    game = ishido()
    page = game.page
    widths = []
    for width, height in ((1280, 800), (700, 900), (844, 390)):
        box = fitted_board(page, width, height)
        assert abs(box["width"] / box["height"] - 1212 / 812) < 0.02, "the board is distorted"
        assert box["width"] > width * 0.5 or box["height"] > height * 0.5, (
            f"the board is tiny at {width}x{height}: {box}")
        widths.append(box["width"])
    assert widths[0] > widths[1], f"the board does not follow the window: {widths}"


def test_a_tall_phone_stands_the_board_on_its_side_with_tiles_upright(ishido: OpenGame) -> None:
    game = ishido()
    page = game.page
    box = fitted_board(page, 390, 844)
    assert abs(box["height"] / box["width"] - 1212 / 812) < 0.02, "the board is not on its side"
    assert box["width"] > 390 * 0.85, f"the board on its side does not use the width: {box}"
    # columns run down the screen, rows from left to right
    corner, down, right = (game.centre(game.cell(at)) for at in ((0, 0), (1, 0), (0, 1)))
    assert down[1] > corner[1] + 30 and abs(down[0] - corner[0]) < 2
    assert right[0] > corner[0] + 30 and abs(right[1] - corner[1]) < 2
    cell = game.cell((0, 0)).bounding_box()
    assert cell is not None and cell["width"] >= 40, f"cells too small to hit: {cell}"
    # a tile's glyph is upright: its screen matrix has no rotation
    a, b = page.evaluate("""() => {
        const m = document.querySelector('#ish-board .tile .glyph.birds').getScreenCTM();
        return [m.a, m.b];
    }""")
    assert a > 0 and abs(b) < 1e-6 * a, f"the glyph is turned: a={a}, b={b}"
    # still playable, by click and by drag
    game.click(best(fitting(game.board())))
    expect(game.left).to_have_text("65")
    with game.next_view(page):
        game.drag_next_to(best(fitting(game.board())))
    expect(game.left).to_have_text("64")


@pytest.mark.parametrize(("width", "height", "side"), [
    (640, 360, "beside"), (667, 375, "beside"), (740, 360, "beside"), (844, 390, "beside"),
    (915, 412, "beside"), (360, 740, "above"), (390, 844, "above"),
])
def test_a_phone_on_its_side_has_the_next_tile_beside_the_board(
    new_context: NewContext, create_game: CreateGame, width: int, height: int, side: str
) -> None:
    """A phone on its side keeps the next tile beside the board, which takes the screen's
    height: at 640x360 it stood above it (the rule for 640 px and narrower), and the board
    had 25-pixel cells; beside it, 27, as at 667x375. Upright, the tile is above."""
    created = create_game("ishido", id="ishido:seed#b3")
    page = new_context(tokens={created["session"]: created["token"]}, has_touch=True,
                       is_mobile=True, viewport={"width": width, "height": height}).new_page()
    page.goto(f"/play/ishido?session={created['session']}")
    wait_for_views(page, 1)
    wait_for_layout(page)
    board, tile, wrap = (page.locator(part).bounding_box()
                         for part in ("#ish-board", "#ish-next", "#board-wrap"))
    assert board is not None and tile is not None and wrap is not None
    if side == "beside":
        assert tile["x"] >= board["x"] + board["width"], f"the tile is not beside: {tile} {board}"
        assert tile["y"] < board["y"] + board["height"] / 2, f"the tile is low: {tile} {board}"
        assert tile["x"] + tile["width"] <= wrap["x"] + wrap["width"]  # not in the page's column
        cell = page.locator("#ish-0-0").bounding_box()
        assert cell is not None and cell["width"] >= 27, f"cells smaller than they fit: {cell}"
    else:
        assert tile["y"] + tile["height"] <= board["y"], f"the tile is not above: {tile} {board}"
    assert board["y"] + board["height"] <= height, f"the board runs off the screen: {board}"
    scroll = page.evaluate("[document.documentElement.scrollWidth,"
                           " document.documentElement.scrollHeight]")
    assert scroll[0] <= width and scroll[1] <= height, f"the page scrolls: {scroll}"


def fitted_board(page: Page, width: int, height: int) -> FloatRect:
    """The board as drawn at this window size, checked to fit the window; its box."""
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => done(null)))")
    felt = page.locator("#ish-board").bounding_box()
    assert felt is not None
    assert felt["x"] >= -0.5, f"the board starts left of the window at {width}x{height}"
    assert felt["x"] + felt["width"] <= width + 0.5, (
        f"the board overflows the window at {width}x{height}: {felt}")
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"the page scrolls sideways at {width}x{height}"
    cell = page.locator("#ish-0-0").bounding_box()
    assert cell is not None and cell["width"] >= 24, "cells too small to hit"
    side = page.locator("#ish-side").bounding_box()
    assert side is not None and side["x"] + side["width"] <= width + 0.5
    return felt


def greedy_outcome(game_id: str) -> tuple[str, int]:
    """The end of `game_id`'s deal played by `best`, worked out from its id."""
    rules = Ishido()
    parsed = parse_game_id(rules, game_id)
    board = rules.deal(parsed.params, parsed.rng(rules))
    moves = 0
    while rules.status(board) is Status.PLAYING:
        valid = {(c % COLS, c // COLS): n for c, n in valid_cells(board).items()}
        board = rules.apply(board, best(valid))
        moves += 1
    return rules.status(board).value, moves


@pytest.mark.parametrize(
    ("game_id", "status", "headline"),
    [("ishido:seed#b3", "won", "Game Over. You Win!"),
     ("ishido:seed#b17", "lost", "Game Over. No cell fits")],
)
def test_play_to_the_end_with_clicks(
    ishido: OpenGame, server_view: ServerView, game_id: str, status: str, headline: str
) -> None:
    expected_status, expected_moves = greedy_outcome(game_id)
    assert expected_status == status  # the deal is fixed: so is how it ends
    game = ishido(id=game_id)
    sid = game.session()
    expect(game.headline).to_have_text("Ishido")
    game.page.evaluate(LATENCY_JS)
    centres: dict[str, tuple[float, float]] = game.page.eval_on_selector_all(
        "#ish-board .cell",
        """cells => Object.fromEntries(cells.map((cell) => {
          const box = cell.getBoundingClientRect();
          return [cell.id, [box.left + box.width / 2, box.top + box.height / 2]];
        }))""",
    )
    moves = 0
    seen = server_view(sid)
    while seen["status"] == "playing":
        valid = fitting(seen["text"])
        assert valid, f"the server says playing, yet the tile fits nowhere:\n{seen['text']}"
        target = best(valid)
        with game.next_view(game.page):  # a real mouse click, without re-measuring the cell
            game.page.mouse.click(*centres[f"ish-{target[0]}-{target[1]}"])
        moves += 1
        assert moves <= 66
        seen = server_view(sid)
        assert placed(seen["text"], target) != ".."

    assert seen["status"] == status
    assert moves == expected_moves == seen["moves"]
    game.wait_board(seen["text"])
    expect(game.headline).to_have_text(headline)
    expect(game.left).to_have_text(str(66 - moves))
    expect(game.page.locator("#ish-board [data-move]")).to_have_count(0)
    expect(game.page.locator("#ish-board [data-drop]")).to_have_count(0)
    if status == "won":
        expect(game.next_tile).to_have_count(0)
        expect(game.page.locator(".ish-next-empty")).to_have_text("Pouch empty")
        expect(game.message).to_contain_text("Well played")
    else:
        expect(game.next_tile).not_to_have_attribute("data-drag", re.compile(".*"))
        expect(game.message).to_contain_text("Better luck next time")
        # the tile that fitted nowhere stays in sight: the end card keeps clear of it
        expect(game.page.locator("#end-card")).to_be_visible()  # (a beat after the end)
        wait_for_layout(game.page)
        card, tile = (game.page.locator(f).bounding_box() for f in ("#end-card", "#ish-next"))
        assert card is not None and tile is not None
        assert (card["x"] >= tile["x"] + tile["width"] or tile["x"] >= card["x"] + card["width"]
                or card["y"] >= tile["y"] + tile["height"]
                or tile["y"] >= card["y"] + card["height"]), (card, tile)
    latencies: list[float] = game.page.evaluate("window.clickToView")
    assert len(latencies) == moves
    assert statistics.median(latencies) < CLICK_BUDGET_MS, f"click to view, ms: {latencies}"

    # a finished board ignores clicks and keys
    game.page.keyboard.press("Escape")  # the end card, which may lie over the board, put away
    expect(game.page.locator("#end-card")).to_be_hidden()
    views = game.views()
    free = next(
        (c, r) for r in range(ROWS) for c in range(COLS) if placed(seen["text"], (c, r)) == ".."
    )
    game.cell(free).click()
    game.page.keyboard.press("Enter")
    game.page.wait_for_timeout(QUIET_MS)
    assert game.views() == views
    assert server_view(sid)["moves"] == moves


def test_reload_resumes_the_game(
    ishido: OpenGame, server_view: ServerView, wait_views: WaitViews
) -> None:
    game = ishido()
    sid = game.session()
    game_id = game.page.locator("#game-id").inner_text()
    assert game_id.startswith("ishido:seed#")
    for _ in range(3):
        game.click(best(fitting(game.board())))
    before = game.board()
    expect(game.left).to_have_text("63")
    score = game.page.locator("#ish-score").inner_text()

    game.page.reload()
    wait_views(game.page, 1)
    assert game.session() == sid
    game.wait_board(before)
    assert server_view(sid)["text"] == before
    expect(game.page.locator("#game-id")).to_have_text(game_id)
    expect(game.left).to_have_text("63")
    expect(game.page.locator("#ish-score")).to_have_text(score)
    expect(game.next_tile).to_have_attribute("data-drag", "")  # still ours to play
    game.click(target := best(fitting(before)))
    assert placed(game.board(), target) == next_code(before)

    # the plain address brings back the last unfinished game too
    after = game.board()
    game.page.goto("/play/ishido")
    wait_views(game.page, 1)
    assert game.session() == sid
    game.wait_board(after)


# -- the dragged tile looks as the tile at rest ----------------------------------------
# Each drawn part of a tile as the eye sees it: whether it shows, its paint and its font.
LOOK_JS = """(tile) => [tile, ...tile.querySelectorAll("*")].map((part) => {
  const s = getComputedStyle(part);
  return [part.localName, s.display, s.fill, s.stroke, s.strokeWidth, s.paintOrder, s.color,
          s.fontFamily, s.fontSize, s.fontWeight, part.textContent];
})"""
# each theme once and each tile set once, for the mouse and for the finger
MOUSE_LOOKS = (("light", "birds"), ("dark", "shapes"), ("colour-blind", "symbols"))
FINGER_LOOKS = (("light", "symbols"), ("dark", "birds"), ("colour-blind", "shapes"))
BLACK = "rgb(0, 0, 0)"
# A point of the tile's face, in its 100 × 100 box, clear of every glyph and shape.
FACE_POINT = (0.10, 0.12)


def face_pixel(page: Page, box: FloatRect) -> tuple[int, ...]:
    """The colour on screen of the face of the tile drawn in `box`."""
    x = box["x"] + box["width"] * FACE_POINT[0]
    y = box["y"] + box["height"] * FACE_POINT[1]
    shot = page.screenshot(clip={"x": x - 1, "y": y - 1, "width": 3, "height": 3},
                           animations="disabled")
    return tuple(Image.open(io.BytesIO(shot)).convert("RGB").getpixel((1, 1)))


def show(page: Page, theme: str, tiles: str) -> None:
    """The page in `theme`, its tiles in `tiles` (as the Display dialog sets them)."""
    page.evaluate("""([theme, tiles]) => {
        document.documentElement.dataset.theme = theme;
        document.getElementById("board").dataset.optTiles = tiles;
    }""", [theme, tiles])


def ghost_gone(page: Page) -> None:
    """Wait until the ghost of a drop on no cell has flown home and gone."""
    page.wait_for_function("() => !document.querySelector('.drag-ghost')")


def settled_box(page: Page, ghost: Locator) -> FloatRect:
    """The ghost's box once the last move has reached it: Chromium hands touch moves to
    the page with the next frame, so the box read at once may be the one before."""
    boxes: list[FloatRect | None] = [None]
    for _ in range(20):
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => "
                      "requestAnimationFrame(done)))")
        boxes.append(ghost.bounding_box())
        if boxes[-1] is not None and boxes[-1] == boxes[-2]:
            return boxes[-1]
    raise AssertionError(f"the dragged tile never came to rest: {boxes[-3:]}")


def assert_ghost_looks_like_rest(page: Page, at_rest: list[Any], rest_pixel: tuple[int, ...],
                                 what: str) -> None:
    ghost = page.locator(".drag-ghost")
    expect(ghost).to_have_count(1)
    held = ghost.evaluate(LOOK_JS)
    face = held[1]  # (the svg, then its face)
    assert face[2] != BLACK, f"the dragged tile is black ({what})"
    assert held[1:] == at_rest[1:], f"the dragged tile does not look as it does at rest ({what})"
    pixel = face_pixel(page, settled_box(page, ghost))
    assert all(abs(a - b) <= 6 for a, b in zip(pixel, rest_pixel, strict=True)), (
        f"the dragged tile's face is {pixel} on screen, {rest_pixel} at rest ({what})")


def test_the_dragged_tile_keeps_its_colour_and_symbol_with_a_mouse(ishido: OpenGame) -> None:
    game = ishido(id=DRAG_DEAL)
    page, mouse = game.page, game.page.mouse
    page.set_viewport_size({"width": 1366, "height": 800})
    for theme, tiles in MOUSE_LOOKS:
        show(page, theme, tiles)
        at_rest = game.next_tile.evaluate(LOOK_JS)
        box = game.next_tile.bounding_box()
        assert box is not None
        rest_pixel = face_pixel(page, box)
        x, y = game.centre(game.next_tile)
        mouse.move(x, y)
        mouse.down()
        mouse.move(x, y + 150, steps=6)  # below the tile, off the board
        assert_ghost_looks_like_rest(page, at_rest, rest_pixel, f"{theme}, {tiles}")
        mouse.up()  # (no cell there: the tile goes home)
        ghost_gone(page)
    assert game.tiles_left() == 66


def test_the_dragged_tile_keeps_its_colour_and_symbol_under_a_finger(
    open_page: OpenPage, new_context: NewContext, next_view: NextView, create_game: CreateGame
) -> None:
    created = create_game("ishido", id=DRAG_DEAL)
    sid = created["session"]
    phone = new_context(tokens={sid: created["token"]}, viewport={"width": 390, "height": 844},
                        has_touch=True, is_mobile=True)
    game = IshidoPage(open_page(f"/play/ishido?session={sid}", context=phone), next_view)
    page = game.page
    touch = page.context.new_cdp_session(page)

    def finger(kind: str, x: float, y: float) -> None:
        points = [] if kind == "touchEnd" else [{"x": x, "y": y}]
        touch.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    for theme, tiles in FINGER_LOOKS:
        show(page, theme, tiles)
        at_rest = game.next_tile.evaluate(LOOK_JS)
        box = game.next_tile.bounding_box()
        assert box is not None
        rest_pixel = face_pixel(page, box)
        x, y = game.centre(game.next_tile)
        finger("touchStart", x, y)
        for step in range(1, 7):
            finger("touchMove", x + 12 * step, y)  # beside the tile, above the board
        assert_ghost_looks_like_rest(page, at_rest, rest_pixel, f"{theme}, {tiles}, a finger")
        finger("touchEnd", x + 72, y)
        ghost_gone(page)
    assert game.tiles_left() == 66


@pytest.mark.parametrize(("width", "height"), [(390, 844), (844, 390)])
def test_a_finger_drops_the_tile_on_the_cell_under_it(
    open_page: OpenPage, new_context: NewContext, next_view: NextView, create_game: CreateGame,
    width: int, height: int,
) -> None:
    """A finger aims with its tip: the tile rides above it, where the finger does not
    hide it, and drops on the cell under the fingertip, which a ring wider than the finger
    marks, dashed where the tile cannot go. (It dropped on the cell it was seen over, 1.2
    to 1.7 cells up: 11 drags of 12 released over a cell where it fits were refused.)
    Upright, the board stands on its side; on its side, the phone shows it as it is."""
    created = create_game("ishido", id=DRAG_DEAL)
    sid = created["session"]
    phone = new_context(tokens={sid: created["token"]}, viewport={"width": width, "height": height},
                        has_touch=True, is_mobile=True)
    game = IshidoPage(open_page(f"/play/ishido?session={sid}", context=phone), next_view)
    page = game.page
    with next_view(page):  # the page is told where the tile fits while help shows it
        page.locator("#btn-assist").click()
    wait_for_layout(page)
    touch = page.context.new_cdp_session(page)

    def finger(kind: str, x: float, y: float) -> None:
        points = [] if kind == "touchEnd" else [{"x": x, "y": y}]
        touch.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    def hold_over(cell: Cell) -> tuple[float, float]:
        """Drag the next tile by touch until the fingertip rests on `cell`'s centre."""
        x, y = game.centre(game.next_tile)
        to_x, to_y = game.centre(game.cell(cell))
        finger("touchStart", x, y)
        for step in range(1, 13):
            finger("touchMove", x + (to_x - x) * step / 12, y + (to_y - y) * step / 12)
        settled_box(page, page.locator(".drag-ghost"))
        return to_x, to_y

    def empty_above(cell: Cell) -> bool:
        """Whether the cells the old lift (0.8 of the next tile's height) dropped on, one
        and two cells up the screen from `cell`, are empty: a drop there was refused."""
        box = game.cell(cell).bounding_box()
        assert box is not None
        x = box["x"] + box["width"] / 2
        return all(page.evaluate("([x, y]) => document.elementFromPoint(x, y)?.matches('.slot')",
                                 [x, box["y"] + box["height"] * (0.5 - up)]) for up in (1, 2))

    before = game.board()
    wrong = next(cell for cell in misfits(before) if empty_above(cell))
    target = next(cell for cell in fitting(before) if empty_above(cell))
    no_fit = re.compile(r"\bno-fit\b")

    # over a cell where it cannot go: that cell is the target, marked so, ring and all
    to_x, to_y = hold_over(wrong)
    expect(game.cell(wrong)).to_have_class(re.compile(r"\bdrop-target\b"))
    expect(page.locator(".drop-target")).to_have_count(1)
    for marked in (game.cell(wrong), page.locator(".drop-aim"), page.locator(".drag-ghost")):
        expect(marked).to_have_class(no_fit)
    held = settled_box(page, page.locator(".drag-ghost"))
    cell = game.cell(wrong).bounding_box()
    assert cell is not None
    assert held["y"] + held["height"] < to_y - 0.4 * cell["height"], (
        f"the tile is under the finger at {to_y}: {held}")
    # (a cell's size, lifted: 1.08 times as large)
    assert cell["width"] <= held["width"] < 1.1 * cell["width"], (held, cell)
    # the ring shows around a fingertip (44 px) on the cell
    aim = page.locator(".drop-aim").bounding_box()
    assert aim is not None
    assert aim["width"] >= 44 + 16 and aim["height"] >= 44 + 16, aim
    assert abs(aim["x"] + aim["width"] / 2 - to_x) < 2, "the ring is not round the fingertip"
    assert abs(aim["y"] + aim["height"] / 2 - to_y) < 2, "the ring is not round the fingertip"
    finger("touchEnd", to_x, to_y)
    expect(game.message).to_have_text(re.compile(r"^The tile does not fit there: "))
    # the note names the side of the tile it does not match as the screen shows it (a
    # board on its side too), and that tile is marked
    clash = page.locator(".refusal-cause").bounding_box()
    assert clash is not None
    across, down = clash["x"] - cell["x"], clash["y"] - cell["y"]
    side = (("to its right" if across > 0 else "to its left") if abs(across) > abs(down)
            else ("below it" if down > 0 else "above it"))
    expect(game.message).to_contain_text(f"the one {side} matches it in neither")
    expect(page.locator(".drop-aim")).to_have_count(0)
    ghost_gone(page)
    assert game.board() == before

    # over a cell where it fits: ringed as a place it may go, and released there, it is
    # placed there
    to_x, to_y = hold_over(target)
    expect(game.message).not_to_have_class(re.compile(r"\berror\b"))  # a new try
    expect(game.cell(target)).to_have_class(re.compile(r"\bdrop-target\b"))
    for marked in (game.cell(target), page.locator(".drop-aim"), page.locator(".drag-ghost")):
        expect(marked).not_to_have_class(no_fit)
    with next_view(page):
        finger("touchEnd", to_x, to_y)
    assert placed(game.board(), target) == next_code(before)
    expect(game.left).to_have_text("65")
    expect(game.message).not_to_have_class(re.compile(r"\berror\b"))
