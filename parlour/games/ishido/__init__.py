"""Ishido (seed 000): place all 72 tiles; the seed's Simple rules or the Classic 1990 rules."""

from parlour.core.commands import new_game
from parlour.core.game import GameSpec, Shortcut, StatFigure
from parlour.games.ishido.logic import Ishido
from parlour.games.ishido.solver import hint
from parlour.games.ishido.view import FIRST_NOTES, THUMBNAIL, TILE_SETS, end_note, play_note, render

RULES_HTML = """
<p>Place all 72 tiles on the 12 × 8 board. There are six colours and six birds, and two of
each combination. Six tiles, all of different colours and birds, start on the board.</p>
<p>Drag the <b>next tile</b> (shown beside the board with the number left) onto an empty
cell, or click the cell, or move the cursor with the arrow keys and press Enter. The cell
must touch at least one tile, and every tile it touches must match it in <b>colour</b> or
in <b>bird</b>. While you drag it, the cell it would go on (under your finger, on a touch
screen) is ringed; with Assist on, the ring is red and dashed where it cannot go. A drop
where it cannot go sends it back, and the tile it does not match blinks red.</p>
<p>A tile scores 1, 2, 4 or 8 points for 1, 2, 3 or 4 neighbours. The game ends when the
pouch is empty (you win) or the next tile fits nowhere.</p>
<p><b>Classic 1990 rules</b> (choose them in New game; the <b>Simple</b> rules above are the
default): with two neighbours the tile must match one
by colour and the other by bird; with three, two by one and the third by the other; with
four (a <b>4-way</b>), two by colour and two by bird. Tiles on the outer ring score
nothing; each 4-way earns a bonus (25, 50, 100, 200, 400, 600, 800, 1000, 5000, 10000,
25000, 50000) and doubles the points of every later tile. Ending with 0, 1 or 2 tiles left
earns 1000, 500 or 100.</p>
<p><b>Hint</b> asks the solver, which looks ahead using only what you know (the board,
the next tile and which tiles are still in the pouch, not their order).</p>
<p>The <b>Assist</b> switch shows every cell where the next tile fits, with its points; a
game where it was used counts as assisted. Tile sets (birds, shapes and letters for
colour-blind play, symbols) are in Display.</p>
"""

ABOUT_HTML = """
<p><b>Ishido: The Way of Stones</b> is a tile game published for home computers in 1990 by
Accolade. Parlour's begins with Alex Harsányi's Ishido in Racket (a blog post that builds
the game in less than 1000 lines): its board, pouch and tiles, Paul Tol's colours, and its
scoring of 1, 2, 4 and 8 points, which Parlour calls the Simple rules.</p>
<p>Parlour added the 1990 game's rules (its pairing of colours and birds, 4-way bonuses and
end bonuses), a solver for hints that knows only what you know, the Assist switch, tile
sets for colour-blind play, undo and redo, and a board that turns on a tall phone.</p>
"""

SPEC = GameSpec(
    order=10,
    # a classic game's score in its two parts when it ends with a bonus (as the 1990 game's
    # end does), and the tiles on the board (the six it starts with among them, so said)
    end_figures={"tiles placed": "Tiles on the board", "tile points": "Tile points",
                 "end bonus": "End bonus", "score": "Score", "4-ways": "4-ways"},
    game=Ishido(),
    render=render,
    end_note=end_note,
    rules_html=RULES_HTML,
    thumbnail_svg=THUMBNAIL,
    hint=hint,
    has_assist=True,
    display_options={"tiles": TILE_SETS},
    display_labels={"tiles": {"shapes": "Shapes and letters"}},
    stat_outcomes={"won": "won", "lost": "lost"},
    stat_figures=(
        StatFigure("score", "score", "highest", unit="points"),
        StatFigure("4-ways", "4-ways", "highest", best="most 4-ways", chart=False),
        StatFigure("tiles placed", "tiles on the board", "highest",
                   best="most tiles on the board", chart=False),
    ),
    tagline="Place all 72 stone tiles, each beside tiles that match it in colour or bird.",
    about_html=ABOUT_HTML,
    first_note=FIRST_NOTES["seed"],
    play_note=play_note,
    deal_link_note="the same tiles, in the same order",
    commands=(
        new_game("new-original", "New game, Simple rules", params={"rules": "seed"}),
        new_game("new-1990", "New game, Classic 1990 rules", params={"rules": "classic"}),
    ),
    shortcuts=(
        Shortcut("Arrows, Enter", "move the cursor, place the next tile there"),
    ),
)
