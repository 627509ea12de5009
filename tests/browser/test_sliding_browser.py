"""The sliding puzzle in a real Chromium against a real server: solved by clicks (one of
them sliding a whole line), by the arrow keys, by a swipe, and by following the hints;
a photo made here uploaded, cropped and played; the seed's keys M and U; the finished
picture beside the board, seen full size while held (mouse, finger) or with F.

Games start from given positions (`tiles`), so each test knows its way to the goal. The
board is read back as the server's text, from each tile's cell (`--r`, `--c`)."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image
from playwright.sync_api import Page, expect

from tests.browser.conftest import (
    CreateGame,
    NewContext,
    NextView,
    OpenPage,
    ServerView,
    view_count,
)
from tests.browser.views import wait_for_animations, wait_for_views

READ_BOARD = """() => {
  const board = document.querySelector('#sl');
  const rows = Number(board.style.getPropertyValue('--rows'));
  const cols = Number(board.style.getPropertyValue('--cols'));
  const cells = Array(rows * cols).fill(' .');
  for (const tile of board.querySelectorAll('.sl-tile')) {
    const [r, c] = ['--r', '--c'].map((name) => Number(tile.style.getPropertyValue(name)));
    cells[r * cols + c] = tile.id.slice(4).padStart(2, ' ');
  }
  const lines = [];
  for (let r = 0; r < rows; r++) lines.push(cells.slice(r * cols, (r + 1) * cols).join(' '));
  return lines.join('\\n');
}"""


def start(create_game: CreateGame, open_page: OpenPage, tiles: str, rows: int = 3,
          cols: int = 3, **params: object) -> Page:
    game = create_game("sliding", params={"rows": rows, "cols": cols, "tiles": tiles, **params})
    return open_page(f"/play/sliding?session={game['session']}",
                     tokens={game["session"]: game["token"]})


def board(page: Page) -> str:
    text: str = page.evaluate(READ_BOARD)
    return text


def wait_for_board(page: Page, text: str) -> None:
    """Until the board shows this position (Back opens the game left, and its view comes after)."""
    page.wait_for_function(f"(text) => ({READ_BOARD})() === text", arg=text)


def tile(page: Page, number: int) -> Page:
    return page.locator(f"#sl-t{number}")  # type: ignore[return-value]


def test_a_puzzle_solved_by_clicks_each_sliding_a_whole_line(
    create_game: CreateGame, open_page: OpenPage, next_view: NextView,
) -> None:
    page = start(create_game, open_page, "0,2,3,1,5,6,4,7,8")
    assert board(page) == " .  2  3\n 1  5  6\n 4  7  8"
    tile(page, 6).click()  # not in the gap's row or column: refused, with the reason
    expect(page.locator("#message")).to_contain_text("not in the gap's row or column")
    assert board(page) == " .  2  3\n 1  5  6\n 4  7  8"
    with next_view(page):
        tile(page, 4).click()  # 1 and 4 slide up together
    assert board(page) == " 1  2  3\n 4  5  6\n .  7  8"
    with next_view(page):
        tile(page, 8).click()  # 7 and 8 slide left together
    expect(page.locator("#headline")).to_have_text("You win! 4 moves")
    expect(page.locator("#sl-board")).to_have_attribute("aria-disabled", "true")
    # the end card: the fewest moves the solver proves from the start, and that they were met
    card = page.locator("#end-card")
    expect(card.locator(".end-records .record")).to_have_text("Fewest possible4")
    expect(card.locator("#end-detail")).to_contain_text("no solution is shorter")
    # the solved picture has no seams: every tile is whole pixels, at whole-pixel places
    # (once still: the end card above the board makes it re-fit, and the tiles glide)
    wait_for_animations(page)
    boxes = page.eval_on_selector_all(
        "#sl-board .sl-tile, #sl-gap",
        "cells => cells.map((c) => { const r = c.getBoundingClientRect();"
        " const b = c.parentElement.getBoundingClientRect();"
        " return [r.width, r.height, r.left - b.left, r.top - b.top]; })",
    )
    assert len(boxes) == 9
    assert all(value == int(value) for box in boxes for value in box), boxes


def test_a_puzzle_solved_by_the_arrow_keys(
    create_game: CreateGame, open_page: OpenPage, next_view: NextView,
) -> None:
    page = start(create_game, open_page, "1,2,3,4,0,5,7,8,6")
    with next_view(page):
        page.keyboard.press("ArrowLeft")  # the tile right of the gap moves left
    assert board(page) == " 1  2  3\n 4  5  .\n 7  8  6"
    with next_view(page):
        page.keyboard.press("ArrowUp")  # the tile below the gap moves up
    expect(page.locator("#headline")).to_have_text("You win! 2 moves")


def test_an_arrow_with_no_tile_to_slide_says_why(
    create_game: CreateGame, open_page: OpenPage, next_view: NextView,
) -> None:
    page = start(create_game, open_page, "1,2,3,4,5,0,7,8,6")  # the gap at the right edge
    page.keyboard.press("ArrowLeft")  # no tile right of the gap to move left
    expect(page.locator("#message")).to_have_text(
        "No tile can slide left: the gap is in the rightmost column")
    assert board(page) == " 1  2  3\n 4  5  .\n 7  8  6"
    with next_view(page):
        page.keyboard.press("ArrowUp")  # the tile below it can
    expect(page.locator("#headline")).to_have_text("You win! 1 move")


# Where the gap goes when an arrow key slides the tile beside it (ArrowLeft: the tile
# right of the gap moves left, so the gap moves right).
GAP_STEP = {"ArrowLeft": (0, 1), "ArrowRight": (0, -1), "ArrowUp": (1, 0), "ArrowDown": (-1, 0)}


def after_keys(tiles: list[int], cols: int, keys: list[str]) -> str:
    """The board's text once each key has slid its tile, in order."""
    tiles = list(tiles)
    for key in keys:
        gap = tiles.index(0)
        row, col = divmod(gap, cols)
        d_row, d_col = GAP_STEP[key]
        moved = (row + d_row) * cols + col + d_col
        tiles[gap], tiles[moved] = tiles[moved], 0
    cells = [f"{number:2d}" if number else " ." for number in tiles]
    return "\n".join(" ".join(cells[r * cols:(r + 1) * cols]) for r in range(len(tiles) // cols))


def test_arrow_keys_pressed_faster_than_the_server_answers_all_play_in_order(
    create_game: CreateGame, open_page: OpenPage, server_view: ServerView,
) -> None:
    """An arrow held down repeats every 30 ms or so: each key read the board as shown, so a
    key pressed before the last one's answer slid a tile that was no longer beside the gap
    (8 moves made of 12, or "That tile is not in the gap's row or column"). Each key now
    waits for the answer to the one before, and all twelve play, in order."""
    start_tiles = [*range(1, 13), 0, 13, 14, 15]  # the gap at the foot's left
    game = create_game("sliding", params={"rows": 4, "cols": 4,
                                          "tiles": ",".join(map(str, start_tiles))})
    page = open_page(f"/play/sliding?session={game['session']}",
                     tokens={game["session"]: game["token"]})
    keys = ["ArrowDown"] * 3 + ["ArrowLeft"] * 3 + ["ArrowUp"] * 3 + ["ArrowRight"] * 3
    for key in keys:  # (no wait between them: faster than any answer)
        page.keyboard.press(key)
    expected = after_keys(start_tiles, 4, keys)
    wait_for_board(page, expected)
    held = server_view(game["session"])
    assert (held["text"], held["moves"]) == (expected, 12)
    expect(page.locator("#headline")).to_have_text("4×4 · 12 moves")


def test_an_undo_of_a_won_game_asks_first_and_esc_keeps_the_win(
    create_game: CreateGame, open_page: OpenPage, next_view: NextView,
) -> None:
    page = start(create_game, open_page, "1,2,3,4,5,6,7,0,8")
    with next_view(page):
        page.keyboard.press("ArrowLeft")
    expect(page.locator("#headline")).to_have_text("You win! 1 move")
    page.keyboard.press("Escape")  # the end card put away
    dialog = page.locator("#undo-dialog")
    page.keyboard.press("Control+z")  # a stray key: it asks, and Esc keeps the win
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("You have seen how the game ends: taken back, this game"
                                   " will count as played with help")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(page.locator("#headline")).to_have_text("You win! 1 move")
    expect(page.locator("#assisted")).to_be_hidden()
    page.keyboard.press("Control+z")  # asked again, and Enter undoes it
    expect(dialog).to_be_visible()
    with next_view(page):
        page.keyboard.press("Enter")
    assert board(page) == " 1  2  3\n 4  5  6\n 7  .  8"
    expect(page.locator("#assisted")).to_be_visible()
    with next_view(page):  # played with help now, the win is still asked for
        page.keyboard.press("ArrowLeft")
    page.keyboard.press("Escape")
    page.keyboard.press("Control+z")
    expect(dialog).to_contain_text("the game already counts as played with help")
    page.keyboard.press("Escape")
    expect(page.locator("#headline")).to_have_text("You win! 1 move")
    page.keyboard.press("Control+z")
    with next_view(page):
        page.keyboard.press("Enter")
    expect(dialog).to_be_hidden()
    assert board(page) == " 1  2  3\n 4  5  6\n 7  .  8"
    with next_view(page):
        page.keyboard.press("ArrowRight")
    with next_view(page):  # and an Undo in play asks nothing
        page.keyboard.press("Control+z")
    expect(dialog).to_be_hidden()
    assert board(page) == " 1  2  3\n 4  5  6\n 7  .  8"


def test_enter_brings_the_cursor_onto_a_tile_beside_the_gap_and_enter_slides_it(
    create_game: CreateGame, open_page: OpenPage, next_view: NextView,
) -> None:
    page = start(create_game, open_page, "1,2,3,4,5,6,7,0,8")
    page.keyboard.press("Enter")  # nothing focused: the cursor comes onto the board
    expect(tile(page, 5)).to_be_focused()  # above the gap: a tile that slides
    ring = "(t) => getComputedStyle(t, '::after').boxShadow"
    assert tile(page, 5).evaluate(ring) != tile(page, 4).evaluate(ring), "no ring is drawn"
    with next_view(page):
        page.keyboard.press("Enter")
    assert board(page) == " 1  2  3\n 4  .  6\n 7  5  8"


@pytest.mark.parametrize("pointer", ["mouse", "touch"])
def test_a_tap_on_the_tile_still_sliding_into_its_cell_plays_it(
    create_game: CreateGame, new_context: NewContext, next_view: NextView, pointer: str,
) -> None:
    """A fast player taps the tile that has just slid where it is going, before it is
    there (its slide drawn over 3 s here): the press ends the slide, as Tatham's
    Fifteen does, and the tap slides it back. It was lost: nothing was there yet."""
    game = create_game("sliding", params={"rows": 3, "cols": 3, "tiles": "1,2,3,4,5,6,0,7,8"})
    touch = pointer == "touch"
    context = new_context(tokens={game["session"]: game["token"]}, has_touch=touch)
    page = context.new_page()
    page.goto(f"/play/sliding?session={game['session']}")
    wait_for_views(page, 1)
    page.add_style_tag(content=".sl-tile { transition-duration: 3s !important; }")
    gap = page.locator("#sl-gap").bounding_box()
    assert gap is not None
    with next_view(page):
        tile(page, 7).click()
    assert board(page) == " 1  2  3\n 4  5  6\n 7  .  8"
    x, y = gap["x"] + gap["width"] / 2, gap["y"] + gap["height"] / 2
    assert page.evaluate("([x, y]) => !document.elementFromPoint(x, y).closest('.sl-tile')",
                         [x, y]), "the tile is there already: the test shows nothing"
    with next_view(page):
        if touch:
            page.touchscreen.tap(x, y)
        else:
            page.mouse.click(x, y)
    assert board(page) == " 1  2  3\n 4  5  6\n .  7  8"


def test_a_swipe_moves_the_tile_next_to_the_gap_that_way(
    create_game: CreateGame, open_page: OpenPage, next_view: NextView,
) -> None:
    page = start(create_game, open_page, "1,2,3,4,5,6,0,7,8")
    box = page.locator("#sl-board").bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] * 0.5, box["y"] + box["height"] * 0.2
    with next_view(page):  # a drag leftwards anywhere on the board
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.move(x - 40, y, steps=4)
        page.mouse.move(x - 80, y, steps=4)
        page.mouse.up()
    assert board(page) == " 1  2  3\n 4  5  6\n 7  .  8"
    eight = page.locator("#sl-t8").bounding_box()
    assert eight is not None
    with next_view(page):  # a tile dragged toward the gap
        page.mouse.move(eight["x"] + 20, eight["y"] + 20)
        page.mouse.down()
        page.mouse.move(eight["x"] - 40, eight["y"] + 20, steps=6)
        page.mouse.up()
    assert board(page) == " 1  2  3\n 4  5  6\n 7  8  ."


# How far the hinted tile's arrow is turned from pointing right, and which way the gap is
# from that tile (each -1, 0 or 1 across and down).
ARROW_AND_GAP = """() => {
  const tile = document.querySelector(".sl-tile.hint"), gap = document.getElementById("sl-gap");
  const turn = Number.parseFloat(getComputedStyle(tile.querySelector(".sl-arrow")).rotate) || 0;
  const [from, to] = [tile, gap].map((element) => element.getBoundingClientRect());
  const way = (d) => Math.sign(Math.round(d / from.width));
  return { turn, toGap: `${way(to.x - from.x)},${way(to.y - from.y)}` };
}"""
TURNS = {"1,0": 0, "-1,0": 180, "0,-1": -90, "0,1": 90}


def test_a_puzzle_solved_by_following_the_hints(
    create_game: CreateGame, open_page: OpenPage, next_view: NextView,
) -> None:
    page = start(create_game, open_page, "4,1,3,7,2,6,0,5,8")
    for left in range(6, 0, -1):
        page.keyboard.press("h")  # the first may wait for the solver's table to be built
        expect(page.locator("#message")).to_contain_text(
            f"{left} move{'s' * (left != 1)} to go (the shortest way)", timeout=120_000)
        arrow = page.evaluate(ARROW_AND_GAP)  # the hinted tile's arrow points at the gap
        assert TURNS[arrow["toGap"]] == arrow["turn"], arrow
        with next_view(page):
            page.locator(".sl-tile.hint").click()
    expect(page.locator("#headline")).to_have_text("You win! 6 moves")
    expect(page.locator("#assisted")).to_be_visible()
    # the end card says who had help: the player, in a sentence of its own
    expect(page.locator("#end-detail")).to_contain_text("Well played! You played it with help")


# The depth of a tile's ::after rings (box-shadow spreads, inset), in px: the mark over its
# picture, less the pixel the tile's clip hides.
MARK_DEPTH = """(tile) => {
  const shadow = getComputedStyle(tile, '::after').boxShadow;
  const spreads = [...shadow.matchAll(/([\\d.]+)px inset/g)].map((m) => Number(m[1]));
  return { rings: spreads.length, depth: Math.max(...spreads) - 1 };
}"""


def test_the_hint_mark_leaves_a_small_tiles_picture_in_sight(
    create_game: CreateGame, open_page: OpenPage,
) -> None:
    """The hint's ring with the keyboard's cursor on it covered 7 px of each side of an 8x8
    board's 66 px tile (38 % of its picture), the hint's alone 5 px: now 4 px at most, and
    still two rings told apart."""
    page = start(create_game, open_page, "4,1,3,7,2,6,0,5,8")
    page.keyboard.press("h")  # the hint takes the keyboard's cursor to its tile
    hinted = page.locator(".sl-tile.hint")
    expect(hinted).to_be_focused(timeout=120_000)
    with_cursor = hinted.evaluate(MARK_DEPTH)
    assert with_cursor["rings"] == 2 and 3 <= with_cursor["depth"] <= 4, with_cursor
    page.evaluate("document.activeElement.blur()")
    alone = hinted.evaluate(MARK_DEPTH)
    assert alone["rings"] == 2 and 3 <= alone["depth"] <= 4, alone


def test_show_me_the_solution_plays_it_out(
    create_game: CreateGame, open_page: OpenPage,
) -> None:
    page = start(create_game, open_page, "4,1,3,7,2,6,0,5,8")
    page.keyboard.press("w")
    expect(page.locator("#message")).to_contain_text("Playing the moves out", timeout=120_000)
    expect(page.locator("#headline")).to_have_text("Solver's line · 6 moves",
                                                   timeout=120_000)
    assert board(page) == " 1  2  3\n 4  5  6\n 7  8  ."
    # the solver played it: not the player's "Well played"
    expect(page.locator("#message")).to_contain_text("The solver's line, played to its end.")


def photo_file(tmp_dir: object) -> bytes:
    image = Image.new("RGB", (900, 600))
    image.putdata([((x // 3) % 256, (y // 3) % 256, (x + y) % 256)
                   for y in range(600) for x in range(900)])
    data = io.BytesIO()
    image.save(data, "JPEG")
    return data.getvalue()


def test_a_photo_uploaded_and_cropped_becomes_the_puzzle(
    create_game: CreateGame, open_page: OpenPage, next_view: NextView,
) -> None:
    page = start(create_game, open_page, "1,2,3,4,5,6,0,7,8")
    page.keyboard.press("n")
    page.locator("#f-param-rows").fill("3")
    page.locator("#f-param-cols").fill("5")
    page.locator(".picture-field input[type=file]").set_input_files(
        files=[{"name": "me.jpg", "mimeType": "image/jpeg", "buffer": photo_file(None)}])
    picture = page.locator("#f-param-picture")
    expect(picture).to_have_value(re.compile(r"^[0-9a-f]{16}$"))
    frame = page.locator(".crop-frame")
    expect(frame).to_be_visible()
    box = frame.bounding_box()
    assert box is not None and abs(box["width"] / box["height"] - 5 / 3) < 0.05
    centre = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.move(*centre)
    page.mouse.down()
    page.mouse.move(centre[0] + box["width"] / 5, centre[1], steps=5)  # show more of the left
    page.mouse.up()
    upload = picture.input_value()
    with next_view(page):
        page.locator("#new-start").click()
    style = page.locator("#sl").get_attribute("style") or ""
    assert f"/api/uploads/{upload}" in style and "--cols:5" in style
    crop_x = int(re.search(r"--crop-x:(\d+)%", style).group(1))  # type: ignore[union-attr]
    assert crop_x < 50
    expect(page.locator(".sl-tile")).to_have_count(14)
    # the finished picture beside the board is the photo too
    target = page.eval_on_selector("#sl-target .sl-whole",
                                   "e => getComputedStyle(e).backgroundImage")
    assert f"/api/uploads/{upload}" in target


def test_m_mutes_and_u_unmutes(open_page: OpenPage) -> None:
    page = open_page("/play/sliding")
    sound = "JSON.parse(localStorage.getItem('parlour.prefs') || '{}').sound ?? true"
    page.keyboard.press("u")  # the seed's U only ever turns the sound on
    assert page.evaluate(sound) is True
    page.keyboard.press("m")
    assert page.evaluate(sound) is False
    page.keyboard.press("u")
    assert page.evaluate(sound) is True
    page.keyboard.press("u")
    assert page.evaluate(sound) is True
    # one Sound entry in the menus; U is listed among the keys
    expect(page.locator("#menu-view-list [data-run='unmute']")).to_have_count(0)
    expect(page.locator("#menu-view-list [data-run='sound']")).to_have_count(1)
    page.keyboard.press("i")
    expect(page.locator("#help-dialog")).to_be_visible()
    page.keyboard.press("p")
    expect(page.locator("#help-dialog")).to_be_hidden()
    # the Undo button names the keys that undo here, not the U the other games use
    expect(page.locator("#btn-undo")).to_have_attribute("title", "Undo (Ctrl+Z or Backspace)")


# -- the target: the finished picture beside the board, full size while held ------------
LAPTOP = {"width": 1366, "height": 800}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
THREE_MOVES_AWAY = "0,2,3,1,5,6,4,7,8"  # tile 4 then tile 8 solve it; five cells differ


def shot(page: Page, selector: str, size: tuple[int, int] = (48, 48)) -> Image.Image:
    """What an element shows, scaled to `size` so that pictures of two sizes compare."""
    picture = Image.open(io.BytesIO(page.locator(selector).screenshot(animations="disabled")))
    return picture.convert("RGB").resize(size, Image.Resampling.BOX)


def difference(one: Image.Image, other: Image.Image) -> float:
    """The mean difference of two pictures' channels, 0 (the same) to 255."""
    pairs = zip(one.tobytes(), other.tobytes(), strict=True)
    return sum(abs(a - b) for a, b in pairs) / (one.width * one.height * 3)


def full_size_shown(page: Page) -> bool:
    return page.locator("#sl-target-full").is_visible()


def test_the_finished_picture_beside_the_board_is_the_solved_board_and_shows_while_held(
    create_game: CreateGame, new_context: NewContext, open_page: OpenPage, next_view: NextView,
) -> None:
    game = create_game("sliding", params={"rows": 3, "cols": 3, "tiles": THREE_MOVES_AWAY})
    page = open_page(f"/play/sliding?session={game['session']}",
                     context=new_context(tokens={game["session"]: game["token"]}, viewport=LAPTOP))
    thumbnail, board_box = page.locator("#sl-target"), page.locator("#sl-board").bounding_box()
    expect(thumbnail).to_be_visible()
    expect(thumbnail).to_contain_text("Finished picture")
    held = thumbnail.bounding_box()
    assert held is not None and board_box is not None
    assert held["x"] + held["width"] <= board_box["x"], "the picture is beside the board"
    assert held["y"] < board_box["y"] + board_box["height"] / 2
    small, shuffled = shot(page, "#sl-target .sl-target-pic"), shot(page, "#sl-board")
    assert not full_size_shown(page)
    # held down, the finished picture covers the board, full size; let go, the board is back
    page.mouse.move(held["x"] + held["width"] / 2, held["y"] + held["height"] / 3)
    page.mouse.down()
    expect(page.locator("#sl-target-full")).to_be_visible()
    full_box = page.locator("#sl-target-full").bounding_box()
    assert full_box == page.locator("#sl-board").bounding_box()
    full = shot(page, "#sl-target-full")
    page.wait_for_timeout(400)
    page.mouse.up()
    expect(page.locator("#sl-target-full")).to_be_hidden()
    assert board(page) == " .  2  3\n 1  5  6\n 4  7  8"  # a look moves nothing
    with next_view(page):
        tile(page, 4).click()
    with next_view(page):
        tile(page, 8).click()
    expect(page.locator("#headline")).to_have_text("You win! 4 moves")
    page.keyboard.press("Escape")  # the end card put away: the solved board in sight
    expect(page.locator("#end-card")).to_be_hidden()
    wait_for_animations(page)
    solved = shot(page, "#sl-board")
    assert difference(full, solved) < 2, "full size, the target is the solved board"
    assert difference(small, solved) < 6, "the thumbnail is the solved board, small"
    assert difference(shuffled, solved) > 3 * difference(small, solved) + 10  # it could fail


def test_on_a_phone_the_finished_picture_sits_above_the_board_and_a_held_finger_shows_it(
    create_game: CreateGame, new_context: NewContext, open_page: OpenPage,
) -> None:
    game = create_game("sliding", params={"rows": 8, "cols": 8, "shuffle": "random"})
    page = open_page(f"/play/sliding?session={game['session']}",
                     context=new_context(tokens={game["session"]: game["token"]}, **PHONE))
    held = page.locator("#sl-target").bounding_box()
    board_box = page.locator("#sl-board").bounding_box()
    assert held is not None and board_box is not None
    assert held["y"] + held["height"] <= board_box["y"], "the picture is above the board"
    assert board_box["y"] + board_box["height"] <= 844, "and the board still fits the screen"
    touch = page.context.new_cdp_session(page)
    point = {"x": held["x"] + 20, "y": held["y"] + held["height"] / 2}
    touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
    expect(page.locator("#sl-target-full")).to_be_visible()
    page.wait_for_timeout(500)  # a long press: no menu, no selection, still the picture
    expect(page.locator("#sl-target-full")).to_be_visible()
    touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    expect(page.locator("#sl-target-full")).to_be_hidden()
    # a quick tap shows it until the next tap
    page.locator("#sl-target").tap()
    expect(page.locator("#sl-target-full")).to_be_visible()
    page.locator("#sl-target-full").tap()
    expect(page.locator("#sl-target-full")).to_be_hidden()


def test_f_shows_the_finished_picture_until_pressed_again_or_esc_or_a_move(
    create_game: CreateGame, open_page: OpenPage, next_view: NextView,
) -> None:
    page = start(create_game, open_page, "1,2,3,4,0,5,7,8,6")
    page.keyboard.press("f")
    expect(page.locator("#sl-target-full")).to_be_visible()
    page.keyboard.press("f")
    expect(page.locator("#sl-target-full")).to_be_hidden()
    page.keyboard.press("F")
    expect(page.locator("#sl-target-full")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#sl-target-full")).to_be_hidden()
    page.keyboard.press("f")  # a swipe on the picture over the board returns, and slides nothing
    over = page.locator("#sl-target-full").bounding_box()
    assert over is not None
    x, y = over["x"] + over["width"] * 0.8, over["y"] + over["height"] * 0.5
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x - 80, y, steps=4)
    page.mouse.up()
    expect(page.locator("#sl-target-full")).to_be_hidden()
    page.wait_for_timeout(300)
    assert view_count(page) == 1 and board(page) == " 1  2  3\n 4  .  5\n 7  8  6"
    page.keyboard.down("f")  # held down, it shows while held (its repeats change nothing)
    for _ in range(3):
        page.keyboard.down("f")
    expect(page.locator("#sl-target-full")).to_be_visible()
    page.wait_for_timeout(400)
    page.keyboard.up("f")
    expect(page.locator("#sl-target-full")).to_be_hidden()
    page.keyboard.press("f")
    with next_view(page):  # a slide brings the board back, to show it
        page.keyboard.press("ArrowLeft")
    expect(page.locator("#sl-target-full")).to_be_hidden()
    assert board(page) == " 1  2  3\n 4  5  .\n 7  8  6"
    page.keyboard.press("?")  # Help lists the key
    keys = page.locator("#keys")
    expect(keys.get_by_role("row").filter(has_text="See the finished picture")).to_contain_text("F")


def test_a_reshuffle_over_a_game_under_way_offers_it_back(
    create_game: CreateGame, open_page: OpenPage, next_view: NextView,
) -> None:
    """S starts a new game at once, as the seed's does; the game left is kept, one tap away."""
    page = start(create_game, open_page, "0,2,3,1,5,6,4,7,8")
    left = page.evaluate("new URLSearchParams(location.search).get('session')")
    page.keyboard.press("s")  # nothing played yet: nothing to offer back
    expect(page).not_to_have_url(re.compile(left))
    expect(page.locator(".toast")).not_to_be_visible()
    page.go_back()
    expect(page).to_have_url(re.compile(left))
    wait_for_board(page, " .  2  3\n 1  5  6\n 4  7  8")
    with next_view(page):
        tile(page, 1).click()
    page.keyboard.press("s")
    expect(page).not_to_have_url(re.compile(left))
    toast = page.locator(".toast")
    expect(toast).to_contain_text("the one you left is kept")
    toast.get_by_role("button", name="Back to it").click()
    expect(page).to_have_url(re.compile(left))
    # (the page swaps games without a reload: wait for the kept one's board, not any tile)
    wait_for_board(page, " 1  2  3\n .  5  6\n 4  7  8")
    expect(toast).not_to_be_visible()
    page.keyboard.press("s")  # again; this time the player plays on: the note goes at once
    expect(toast).to_be_visible()
    frame = page.locator("#board-wrap").bounding_box()
    assert frame
    page.mouse.click(frame["x"] + 3, frame["y"] + 3)
    expect(toast).not_to_be_visible(timeout=4000)  # (it would stay six seconds)
    page.go_back()  # and a key: the keyboard's player moves on too (Tab reaches its button)
    expect(page).to_have_url(re.compile(left))
    wait_for_board(page, " 1  2  3\n .  5  6\n 4  7  8")  # (a key before it reshuffles the other)
    page.keyboard.press("s")
    expect(toast).to_be_visible()
    page.keyboard.press("Tab")
    expect(toast).to_be_visible()
    page.keyboard.press("ArrowLeft")
    expect(toast).not_to_be_visible(timeout=4000)
