"""Ishido: a board of row boxes that fits the space it has, each tile a small SVG; the next
tile is dragged onto it.

Every tile carries its three looks (birds, shapes and letters, symbols); the player's
tile set, a display option, picks one with CSS, so switching never asks the server.
"""

from __future__ import annotations

from functools import cache, lru_cache

from parlour.core.game import JSON, RenderContext
from parlour.core.markup import attr, classes, grid_rows, lines, move_attr
from parlour.games.ishido.logic import COLS, END_BONUS, ROWS, cell_id, colour, glyph

CELL = 100
BIRDS = ("\U0001f99a", "\U0001f99c", "\U0001f9a9", "\U0001f989", "\U0001f986", "\U0001f985")
LETTERS = ("A", "B", "C", "D", "E", "F")
SYMBOLS = ("♠", "♥", "♦", "♣", "★", "▲")  # solid, each: a thin moon all but vanished
COLOUR_NAMES = ("blue", "cyan", "green", "yellow", "red", "purple")
BIRD_NAMES = ("peacock", "parrot", "flamingo", "owl", "duck", "eagle")
# for the shapes tile set: each colour is also a shape, so colour is never needed
SHAPES = (
    '<circle class="cshape" cx="50" cy="50" r="36"/>',
    '<path class="cshape" d="M50 12L88 80H12Z"/>',
    '<rect class="cshape" x="17" y="17" width="66" height="66"/>',
    '<path class="cshape" d="M50 10L90 50L50 90L10 50Z"/>',
    '<path class="cshape" d="M30 14H70L90 50L70 86H30L10 50Z"/>',
    '<path class="cshape" d="M50 10L61 38L90 38L66 56L75 86L50 68L25 86L34 56L10 38L39 38Z"/>',
)
TILE_SETS = ("birds", "shapes", "symbols")
RULES_LABELS = {"seed": "Simple rules", "classic": "Classic 1990 rules"}


@cache
def tile_svg(tile: int) -> str:
    """One tile in a 100 × 100 box, with every tile set's look."""
    c, g = colour(tile), glyph(tile)
    return (
        f'<rect class="face" x="4" y="4" width="92" height="92" rx="14"/>{SHAPES[c]}'
        f'<text class="glyph birds" x="50" y="54">{BIRDS[g]}</text>'
        f'<text class="glyph letters" x="50" y="54">{LETTERS[g]}</text>'
        f'<text class="glyph symbols" x="50" y="54">{SYMBOLS[g]}</text>'
    )


def tile_name(tile: int) -> str:
    return f"{COLOUR_NAMES[colour(tile)]} {BIRD_NAMES[glyph(tile)]}"


def render(observation: JSON, ctx: RenderContext) -> str:
    """One line per cell, so that a move sends the browser only the cells it changed.

    The cells sit in row boxes (app.css .board-rows), an empty cell a plain box and a
    tile a small SVG of its own: a drop lays out and repaints the rows it changed, where
    one SVG of the whole board repainted every tile in it."""
    playing = observation["status"] == "playing" and ctx.can_move
    valid = observation["valid"] if ctx.assist else {}
    hint = tuple(ctx.hint["place"]) if ctx.hint else None
    # Enter's cell: the first place the tile fits, when help shows them (never otherwise)
    start = min(map(int, valid), default=None)
    last = observation["last"]
    # (a tile that scored nothing, on the classic rules' outer ring, shows no "+0")
    gained = {last["cell"]: (last["points"], last["four_way"])} if last and last["points"] else {}
    cells = (
        _cell(col, row, observation["cells"][row * COLS + col], playing,
              valid.get(str(row * COLS + col)), hint == (col, row), row * COLS + col == start,
              gained.get(row * COLS + col))
        for row in range(ROWS)
        for col in range(COLS)
    )
    return lines([
        '<div class="ish" id="ish">',
        # the outer ring's dashed line only where it scores differently (classic rules)
        '<div class="ish-board board-rows sideways-on-phone'
        f'{" ringed" if observation["rules"] == "classic" else ""}" id="ish-board" role="grid" '
        f'aria-label="Ishido board, {COLS} by {ROWS}">',
        *grid_rows(cells, COLS, boxed=True),
        "</div>",
        _side(observation, playing, valid),
        "</div>",
    ])


FIRST_NOTES = {
    "seed": "Place the next tile beside tiles it matches, in colour or in bird.",
    "classic": "Place the next tile beside tiles it matches; beside two or more, mix colour "
               "and bird. The outer ring scores nothing.",
}


def play_note(observation: JSON) -> str | None:
    """The status line in play: the rules in a line before the first tile; after a
    4-way, what it earned (under the classic rules, a bonus and double points from then
    on, as the 1990 game's schedule has it)."""
    last = observation["last"]
    if last is None:
        return FIRST_NOTES[observation["rules"]]  # (the platform asks only in play)
    if not last["four_way"]:
        return None
    if observation["rules"] == "seed":
        return f"A 4-way: {last['points']} points."
    ways = observation["four_ways"]  # (the schedule doubles a tile's points at each)
    times = "double" if ways == 1 else f"{1 << ways} times its base points"
    return (f"A 4-way: {last['points']} points with its bonus, and every tile from now on "
            f"scores {times}.")


def end_note(observation: JSON) -> str | None:
    """A game that ends with a tile or two left is nearly won (the 1990 game's end bonus
    rewards it): the end card says so, not "Better luck next time"."""
    left = observation["left"]
    if observation["status"] != "lost" or left > max(END_BONUS):
        return None
    tiles = "1 tile" if left == 1 else f"{left} tiles"
    bonus = END_BONUS[left] if observation["rules"] == "classic" else 0
    return f"So close: {tiles} left" + (f", for an end bonus of {bonus}" if bonus else "")


@lru_cache(maxsize=65536)  # a cell's markup depends on these alone: most cells stay as they are
def _cell(col: int, row: int, tile: int | None, playing: bool, score: int | None,
          hinted: bool, start: bool = False, gained: tuple[int, bool] | None = None) -> str:
    where, at = f"column {col + 1}, row {row + 1}", cell_id(row * COLS + col)
    if tile is not None:
        return _tile_element(tile, "cell", f'id="{at}" data-nav tabindex="-1" '
                             f'role="gridcell" aria-label="{attr(f"{where}: {tile_name(tile)}")}"',
                             _gain(*gained) if gained else "")
    actions = _place_actions(col, row) if playing else ""
    if actions and start:
        actions += " data-start"
    css = classes("cell", "slot", "valid" if score is not None else None,
                  "hint" if hinted else None)
    return (
        f'<div id="{at}" class="{css}" data-nav tabindex="-1" role="gridcell" '
        f'aria-label="{where}: empty"{actions}>{"" if score is None else score}</div>'
    )


def _tile_element(tile: int, css: str, attributes: str, over: str = "") -> str:
    """A tile as a small SVG of its own (a cell's, or the next tile's), with `attributes`
    and `over` drawn on it."""
    return (f'<svg class="{css} tile c{colour(tile)} g{glyph(tile)}" viewBox="0 0 {CELL} {CELL}" '
            f'{attributes}>{tile_svg(tile)}{over}</svg>')


def _gain(points: int, four_way: bool) -> str:
    """The points the tile just placed scored, rising off it and fading (view.css), as
    the 1990 game showed them; a 4-way's with a burst. The status line says it in words
    (`play_note`), so this is for the eye alone; data-transient: after the move alone,
    not on a reload nor after an Undo (views.js)."""
    burst = '<circle class="ish-burst" cx="50" cy="50" r="40"/>' if four_way else ""
    words = f"+{points}"
    # as large as the tile's width holds ("+25025" too), a digit being about .6 em wide
    size = min(54 if four_way else 46, round(92 / (0.6 * len(words))))
    return (f'<g class="ish-gain{" four-way" if four_way else ""}" data-transient '
            f'aria-hidden="true">{burst}'
            f'<text x="50" y="52" font-size="{size}">{words}</text></g>')


@cache
def _place_actions(col: int, row: int) -> str:
    place = {"place": [col, row]}
    return move_attr("data-move", place) + move_attr("data-drop", place)


def _side(observation: JSON, playing: bool, valid: dict[str, int]) -> str:
    following = observation["next"]
    if following is None:
        next_tile = '<div class="ish-next-empty" id="ish-pouch-empty">Pouch empty</div>'
    else:
        # while dragged, it shows whether it fits where it is (input.js), when help shows
        # where it fits anyway: without it, a sweep of the board would find every place
        fits = " ".join(cell_id(int(cell)) for cell in valid)
        drag = (f' data-drag data-fits="{fits}"' if valid else " data-drag") if playing else ""
        # the tile that fitted nowhere ended the game: the end card keeps it in sight
        cause = " data-end-cause" if observation["status"] == "lost" else ""
        next_tile = _tile_element(following, "ish-next", f'id="ish-next"{drag}{cause} role="img" '
                                  f'aria-label="next tile: {attr(tile_name(following))}"')
    return lines([
        '<aside class="ish-side" id="ish-side"><div class="ish-label">Next</div>',
        next_tile,
        '<dl class="ish-figures"><dt>Left</dt>',
        f'<dd id="ish-left">{observation["left"]}</dd>',
        "<dt>Score</dt>",
        f'<dd id="ish-score">{observation["score"]}</dd>',
        "<dt>4-ways</dt>",
        f'<dd id="ish-fourways">{observation["four_ways"]}</dd>',
        f'</dl><div class="ish-rules" id="ish-rules">{RULES_LABELS[observation["rules"]]}</div>',
        "</aside>",
    ])


PAUL_TOL_BRIGHT = ("#4477aa", "#66ccee", "#228833", "#ccbb44", "#ee6677", "#aa3377")
"""The seed's tile colours (as view.css's --ish-c0..5)."""


def _thumbnail_tile(x: int, y: int, c: int, g: int) -> str:
    """A tile drawn with its own colours and font size: the home page does not load
    view.css, so the thumbnail must not need it."""
    return (
        f'<g transform="translate({x} {y}) scale(.32)">'
        f'<rect x="4" y="4" width="92" height="92" rx="14" fill="{PAUL_TOL_BRIGHT[c]}" '
        'stroke="rgba(0,0,0,.25)" stroke-width="2"/>'
        f'<text x="50" y="54" font-size="58" text-anchor="middle" dominant-baseline="middle" '
        f'font-family="Noto Color Emoji, Apple Color Emoji, Segoe UI Emoji, sans-serif">'
        f"{BIRDS[g]}</text></g>"
    )


THUMBNAIL = (
    '<svg viewBox="0 0 120 120" aria-hidden="true" class="ish-thumb">'
    + "".join(
        _thumbnail_tile(8 + 36 * (i % 3), 8 + 36 * (i // 3), c, g)
        for i, (c, g) in enumerate([(0, 0), (0, 3), (2, 3), (4, 1), (4, 4), (3, 4), (5, 5), (1, 5),
                                    (1, 2)])
    )
    + "</svg>"
)
