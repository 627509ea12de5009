"""The sliding puzzle's view: each tile an element of its own with an id, moved by its
cell's transform; a slide sends only the tiles it moved; keys, swipes and the gap."""

from __future__ import annotations

import json
import random
import re

from parlour.core.game import RenderContext
from parlour.games.sliding.logic import Puzzle, Slide, Sliding
from parlour.games.sliding.view import THUMBNAIL, render
from parlour.server.patch import changed_parts

GAME = Sliding()
LIVE = RenderContext(seat=0, can_move=True)


def puzzle(text: str, rows: int = 3, cols: int = 3, **params: object) -> Puzzle:
    return GAME.parse_position(GAME.validate({"rows": rows, "cols": cols, **params}), text)


def html(state: Puzzle, ctx: RenderContext = LIVE) -> str:
    return render(GAME.observe(state, 0), ctx)


def tile_cells(markup: str) -> dict[int, tuple[int, int]]:
    """Each tile's cell, from its style."""
    return {int(tile): (int(row), int(col)) for tile, row, col in
            re.findall(r'id="sl-t(\d+)" style="--r:(\d+);--c:(\d+);', markup)}


def keyed_moves(markup: str) -> dict[str, list[int]]:
    return {key: json.loads(move.replace("&quot;", '"'))["cell"] for key, move in
            re.findall(r'data-key="(\w+)" data-swipe="\w+" data-move="([^"]+)"', markup)}


def test_every_tile_is_an_element_with_an_id_in_its_cell() -> None:
    state = puzzle("4,1,3,7,2,6,0,5,8")
    markup = html(state)
    assert tile_cells(markup) == {4: (0, 0), 1: (0, 1), 3: (0, 2), 7: (1, 0), 2: (1, 1),
                                  6: (1, 2), 5: (2, 1), 8: (2, 2)}
    assert 'id="sl-gap" style="--r:2;--c:0;' in markup
    for line in markup.split("\n"):
        if 'class="sl-tile' in line:  # one tile per line, whole
            assert line.startswith("<div") and line.endswith("</div>")


def test_a_tile_shows_the_picture_of_its_home_cell_and_is_marked_when_home() -> None:
    markup = html(puzzle("4,1,3,7,2,6,0,5,8"))
    assert re.search(r'class="sl-tile home" id="sl-t3" style="--r:0;--c:2;--hr:0;--hc:2"', markup)
    assert re.search(r'class="sl-tile" id="sl-t4" style="--r:0;--c:0;--hr:1;--hc:0"', markup)


def test_a_slide_changes_only_the_lines_of_the_tiles_it_moved() -> None:
    """And of the tiles where the keyboard's cursor starts, before and after (above the
    gap, in a row the slide leaves alone)."""
    rng = random.Random(3)
    state = GAME.deal(GAME.validate({"rows": 8, "cols": 8, "shuffle": "random"}), rng)
    before = html(state)
    gap_row, gap_col = state.gap
    far = 0 if gap_col > 3 else 7
    after = html(GAME.apply(state, Slide(gap_row, far)))
    parts = changed_parts(before, after)
    assert parts is not None
    assert gap_row > 0
    moved = abs(far - gap_col)
    # the tiles moved, the two start tiles, the gap, and the keys' line (the tiles next
    # to the gap changed)
    assert len(parts) == moved + 2 + 2
    assert sum('class="sl-tile' in part for part in parts) == moved + 2
    assert sum("data-start" in part for part in parts) == 1


def test_each_arrow_slides_the_tile_that_moves_that_way() -> None:
    """Left moves the tile right of the gap to the left; and so on (the arrow's way)."""
    markup = html(puzzle("1,2,3,4,0,5,7,8,6"))  # the gap in the middle
    assert keyed_moves(markup) == {"ArrowLeft": [1, 2], "ArrowRight": [1, 0],
                                   "ArrowUp": [2, 1], "ArrowDown": [0, 1]}
    corner = html(puzzle("1,2,3,4,5,6,7,0,8"))  # the gap bottom middle: nothing below it
    assert set(keyed_moves(corner)) == {"ArrowLeft", "ArrowRight", "ArrowDown"}


def test_tiles_send_their_cell_and_the_gap_takes_dropped_tiles() -> None:
    markup = html(puzzle("1,2,3,4,5,6,7,0,8"))
    assert 'id="sl-t8" style="--r:2;--c:2;--hr:2;--hc:1" role="button"' in markup
    assert 'data-move="{&quot;cell&quot;:[2,2]}"' in markup
    assert re.search(r'id="sl-gap"[^>]*data-drop=""', markup)


def test_the_hinted_tile_is_marked() -> None:
    state = puzzle("1,2,3,4,5,6,7,0,8")
    markup = html(state, RenderContext(seat=0, can_move=True, hint={"cell": [2, 2]}))
    assert 'class="sl-tile hint" id="sl-t8"' in markup


def test_a_solved_or_watched_board_sends_no_moves() -> None:
    solved = GAME.apply(puzzle("1,2,3,4,5,6,7,0,8"), Slide(2, 2))
    assert 'aria-disabled="true"' in html(solved)
    assert 'class="sl won' in html(solved)
    watched = html(puzzle("1,2,3,4,5,6,7,0,8"), RenderContext(seat=None, can_move=False))
    assert 'aria-disabled="true"' in watched


def test_the_picture_and_its_crop_are_on_the_board() -> None:
    built_in = html(puzzle("1,2,3,4,5,6,7,0,8", picture="sea"))
    assert "--picture:url(&#x27;data:image/svg+xml," in built_in
    photo = html(puzzle("1,2,3,4,5,6,7,0,8", picture="0123456789abcdef", crop_x=20,
                        crop_y=70, zoom=250))
    assert "--picture:url(&#x27;/api/uploads/0123456789abcdef&#x27;)" in photo
    assert "--crop-x:20%;--crop-y:70%;--zoom:2.5" in photo


def test_a_rectangular_board_says_its_shape() -> None:
    markup = html(puzzle("1,2,3,4,5,6,7,8,9,10,0,11,12,13,14", rows=3, cols=5))
    assert "--rows:3;--cols:5;" in markup and 'class="sl playing wide"' in markup
    assert len(tile_cells(markup)) == 14


def test_every_tile_carries_its_number_for_the_overlay() -> None:
    markup = html(puzzle("1,2,3,4,5,6,7,0,8"))
    assert re.findall(r'<b class="sl-num">(\d+)</b>', markup) == [str(n) for n in range(1, 9)]


def test_the_thumbnail_is_svg() -> None:
    assert THUMBNAIL.startswith("<svg") and THUMBNAIL.endswith("</svg>")


def target_numbers(markup: str, part: str) -> list[int]:
    """The numbers the target `part` (its id) shows in order, from its own line."""
    line = next(line for line in markup.split("\n") if f'id="{part}"' in line)
    return [int(n) for n in re.findall(r"<b>(\d+)</b>", line)]


def test_every_board_shows_its_finished_picture_small_beside_it_and_full_size_over_it() -> None:
    """The target is the whole picture of the board's shape (the page crops it as the
    tiles), with every tile's number in its home cell for a player who shows numbers."""
    rng = random.Random(5)
    for rows in range(3, 9):
        for cols in range(3, 9):
            state = GAME.deal(GAME.validate({"rows": rows, "cols": cols}), rng)
            markup = html(state)
            everything = list(range(1, rows * cols))
            assert target_numbers(markup, "sl-target") == everything
            assert target_numbers(markup, "sl-target-full") == everything
            lines = markup.split("\n")
            thumbnail = next(i for i, line in enumerate(lines) if 'id="sl-target"' in line)
            board = next(i for i, line in enumerate(lines) if 'id="sl-board"' in line)
            full = next(i for i, line in enumerate(lines) if 'id="sl-target-full"' in line)
            assert thumbnail < board < full, "the thumbnail beside the board, the full one in it"
            assert 'data-peek' in lines[thumbnail] and "sl-whole" in lines[full]


def test_the_finished_picture_is_a_look_that_moves_nothing_and_a_slide_leaves_it_alone() -> None:
    before = html(puzzle("1,2,3,4,0,5,7,8,6"))
    for part in ("sl-target", "sl-target-full"):
        line = next(line for line in before.split("\n") if f'id="{part}"' in line)
        assert "data-move" not in line and "data-key" not in line
    after = html(GAME.apply(puzzle("1,2,3,4,0,5,7,8,6"), Slide(1, 2)))
    parts = changed_parts(before, after)
    assert parts is not None and not any("sl-target" in part for part in parts)


def test_a_photo_is_the_finished_picture_too() -> None:
    """The target shows the picture the board's root names, an upload as a built-in one."""
    photo = html(puzzle("1,2,3,4,5,6,7,0,8", picture="0123456789abcdef"))
    root = photo.split("\n")[0]
    assert "/api/uploads/0123456789abcdef" in root and 'id="sl"' in root
    assert photo.count('<i class="sl-whole"></i>') == 2  # drawn from the root's --picture


def started_tiles(markup: str) -> list[int]:
    return [int(tile) for tile in re.findall(r'id="sl-t(\d+)"[^>]* data-start', markup)]


def test_the_keyboards_cursor_starts_on_a_tile_beside_the_gap() -> None:
    """The first in reading order: above the gap, else left of it, else right of it."""
    assert started_tiles(html(puzzle("1,2,3,4,0,5,7,8,6"))) == [2]
    assert started_tiles(html(puzzle("0,1,2,3,4,5,6,7,8"))) == [1]
    assert started_tiles(html(puzzle("1,2,3,0,4,5,6,7,8"))) == [1]
    assert started_tiles(html(puzzle("1,2,3,4,8,5,7,6,0"))) == [5]


def test_a_watched_or_solved_board_has_no_start_tile() -> None:
    watching = RenderContext(seat=None, can_move=False)
    assert started_tiles(html(puzzle("1,2,3,4,0,5,7,8,6"), watching)) == []
    solved = GAME.apply(puzzle("1,2,3,4,5,6,7,0,8"), Slide(2, 2))
    assert started_tiles(html(solved)) == []
