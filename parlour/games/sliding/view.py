"""The sliding puzzle as HTML: one element per tile, each on its own line with an id.

A tile is placed by a transform from its cell (`--r`, `--c`), so a slide changes only the
lines of the tiles that moved (and the gap's), and CSS animates the slide. Every tile
shows the whole picture cropped to the board, shifted to its home cell (`--hr`, `--hc`):
the browser slices one image, no tile is a file of its own. The picture is a built-in
SVG (as a data URL, sent once on the board's line) or an uploaded photo.

Keys and swipes: four hidden buttons carry the arrow keys (`data-key`) and the swipes
(`data-swipe`); each slides the tile that moves the way the arrow points into the gap.

The target: beside the board, a thumbnail of the finished picture (`data-peek`: held down,
the page marks the board peeking), and over the board the same picture full size, which
the stylesheet shows while the board is peeking. Both are the same crop of the same
picture as the tiles, with the tiles' numbers in order for a player who shows numbers.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from parlour.core.game import JSON, RenderContext
from parlour.core.markup import attr, classes, lines, move_attr
from parlour.games.sliding.pictures import data_url

ARROWS = (  # key, swipe, label, where the tile that moves that way is, seen from the gap
    ("ArrowLeft", "left", "Slide left", (0, 1)),
    ("ArrowRight", "right", "Slide right", (0, -1)),
    ("ArrowUp", "up", "Slide up", (1, 0)),
    ("ArrowDown", "down", "Slide down", (-1, 0)),
)


def picture_url(picture: JSON) -> str:
    if picture["built_in"]:
        return data_url(picture["name"])
    return f"/api/uploads/{picture['name']}"


def render(observation: JSON, ctx: RenderContext) -> str:
    rows, cols, tiles = observation["rows"], observation["cols"], observation["tiles"]
    status = observation["status"]
    playing = status == "playing" and ctx.can_move
    picture = observation["picture"]
    hinted = tuple(ctx.hint["cell"]) if ctx.hint and "cell" in ctx.hint else None
    style = (f"--rows:{rows};--cols:{cols};--picture:url('{picture_url(picture)}');"
             f"--crop-x:{picture['crop_x']}%;--crop-y:{picture['crop_y']}%;"
             f"--zoom:{picture['zoom'] / 100:g}")
    gap = tiles.index(0)
    start = _next_to(gap, rows, cols) if playing else -1
    toward = next((way for _, way, _, cell in _beside(gap, rows, cols) if cell == hinted), None)
    return lines([
        f'<div class="sl {status}{" wide" if cols > rows else ""}" id="sl" style="{attr(style)}">',
        _target_thumbnail(rows, cols),
        f'<div class="sl-board" id="sl-board" role="group" aria-label="{rows} by {cols} '
        f'sliding puzzle" aria-disabled="{str(not playing).lower()}">',
        # in the order of the tiles, not of the cells: a slide then changes a few tiles'
        # places, never their order, so the page moves no element and each tile's
        # transition plays (the labels say where each tile is)
        *(_tile(tile, cell, cols, toward if (cell // cols, cell % cols) == hinted else None,
                cell == start)
          for tile, cell in sorted((tile, cell) for cell, tile in enumerate(tiles) if tile)),
        _gap(gap, rows, cols),
        _keys(gap, rows, cols),
        _target_full(rows, cols),
        "</div>",
        "</div>",
    ])


# a hinted tile's arrow, pointing right; view.css turns it the way the tile slides
HINT_ARROW = ('<svg class="sl-arrow" viewBox="0 0 24 24" aria-hidden="true">'
              '<path d="M5 12h13M12.5 6.5 18 12l-5.5 5.5"/></svg>')


@lru_cache(maxsize=16384)  # a tile's markup depends on these alone: most tiles stay put
def _tile(tile: int, cell: int, cols: int, hinted: str | None, start: bool = False) -> str:
    """A tile; `hinted`: the way the hint slides it (an arrow on it points there)."""
    row, col = divmod(cell, cols)
    home_row, home_col = divmod(tile - 1, cols)
    home = (row, col) == (home_row, home_col)
    label = f"tile {tile}" + (", home" if home else f", row {row + 1}, column {col + 1}")
    toward = f' data-toward="{hinted}"' if hinted else ""
    return (
        f'<div class="{classes("sl-tile", "home" if home else None, "hint" if hinted else None)}" '
        f'id="sl-t{tile}" style="--r:{row};--c:{col};--hr:{home_row};--hc:{home_col}" '
        f'role="button" aria-label="{label}" data-nav tabindex="-1"'
        f'{toward}{move_attr("data-move", {"cell": [row, col]})}{" data-start" if start else ""}>'
        f'<i class="sl-pic"></i><b class="sl-num">{tile}</b>{HINT_ARROW if hinted else ""}</div>'
    )


def _next_to(gap: int, rows: int, cols: int) -> int:
    """The first cell in reading order beside the gap: a tile that slides, where Enter
    brings the keyboard's cursor."""
    return min(cell[0] * cols + cell[1] for *_, cell in _beside(gap, rows, cols) if cell)


def _beside(gap: int, rows: int, cols: int
            ) -> Iterator[tuple[str, str, str, tuple[int, int] | None]]:
    """Each arrow (key, swipe, label) and the cell of the tile beside the gap that it
    slides (None: the gap is at that edge, with no tile beyond it)."""
    gap_row, gap_col = divmod(gap, cols)
    for key, swipe, label, (dr, dc) in ARROWS:
        row, col = gap_row + dr, gap_col + dc
        yield key, swipe, label, (row, col) if 0 <= row < rows and 0 <= col < cols else None


def _gap(gap: int, rows: int, cols: int) -> str:
    """The empty cell: tiles dragged onto it slide there; once solved, the last piece
    of the picture fills it."""
    row, col = divmod(gap, cols)
    return (f'<div class="sl-gap" id="sl-gap" style="--r:{row};--c:{col};--hr:{rows - 1};'
            f'--hc:{cols - 1}" data-drop="" aria-hidden="true"><i class="sl-pic"></i></div>')


# where the gap is when no tile can slide a way: that way's tile would be beyond the edge
EDGES = {"left": "in the rightmost column", "right": "in the leftmost column",
         "up": "in the bottom row", "down": "in the top row"}


def _keys(gap: int, rows: int, cols: int) -> str:
    """The arrow keys and swipes: each slides the tile that moves that way, or, where
    none can, says why (a key or a swipe that did nothing read as a page not listening)."""
    buttons = [f'<button type="button" tabindex="-1" data-key="{key}" data-swipe="{swipe}"'
               + (move_attr("data-move", {"cell": list(cell)}) if cell
                  else f' data-why="No tile can slide {swipe}: the gap is {EDGES[swipe]}"')
               + f">{label}</button>"
               for key, swipe, label, cell in _beside(gap, rows, cols)]
    return f'<div class="sl-keys" id="sl-keys" aria-hidden="true">{"".join(buttons)}</div>'


@lru_cache(maxsize=64)
def _target_numbers(rows: int, cols: int) -> str:
    """The tiles' numbers in their home cells, the last cell left empty (shown with the
    Numbers display option)."""
    numbers = "".join(f"<b>{tile}</b>" for tile in range(1, rows * cols))
    return f'<span class="sl-target-nums" aria-hidden="true">{numbers}</span>'


def _target_thumbnail(rows: int, cols: int) -> str:
    """The finished picture, small: held down (pointer) or pressed (keyboard), it shows
    full size over the board."""
    return (
        # its name is its words: "Finished picture. Hold to see it full size"
        '<button type="button" class="sl-target" id="sl-target" data-peek>'
        f'<span class="sl-target-pic"><i class="sl-whole"></i>{_target_numbers(rows, cols)}</span>'
        '<span class="sl-target-words"><b>Finished picture</b>'
        '<small>Hold to see it full size</small></span></button>'
    )


def _target_full(rows: int, cols: int) -> str:
    """The finished picture over the board, shown while the board is peeking."""
    return (f'<div class="sl-target-full" id="sl-target-full" role="img" '
            f'aria-label="The finished picture"><i class="sl-whole"></i>'
            f'{_target_numbers(rows, cols)}</div>')


THUMBNAIL = (
    '<svg viewBox="0 0 64 64" xmlns="http://www.w3.org/2000/svg">'
    '<defs><linearGradient id="slsky" x1="0" y1="0" x2="0" y2="1">'
    '<stop offset="0" stop-color="#5aa9e6"/>'
    '<stop offset="1" stop-color="#fdf1c7"/></linearGradient>'
    '<clipPath id="slclip"><rect x="4" y="4" width="56" height="56" rx="6"/></clipPath></defs>'
    '<g clip-path="url(#slclip)"><rect x="4" y="4" width="56" height="56" fill="url(#slsky)"/>'
    '<circle cx="46" cy="18" r="7" fill="#ffe27a"/>'
    '<path d="M4,40 C18,30 30,44 60,34 L60,60 L4,60 Z" fill="#6aa84f"/>'
    '<path d="M4,50 C22,42 40,54 60,46 L60,60 L4,60 Z" fill="#3d7a2c"/>'
    '<rect x="41.5" y="41.5" width="18.5" height="18.5" fill="var(--surface, #fff)"/></g>'
    '<g stroke="var(--surface, #fff)" stroke-width="1.5" fill="none">'
    '<path d="M22.7 4V60M41.3 4V60M4 22.7H60M4 41.3H60"/></g>'
    '</svg>'
)
