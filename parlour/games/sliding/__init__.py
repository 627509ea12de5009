"""The sliding picture puzzle (seed 002, "Fifteen"): any picture, 3×3 to 8×8, hints and
solutions from an optimal solver."""

from collections.abc import Mapping

from parlour.core.commands import client, new_game, server
from parlour.core.game import JSON, GameSpec, Shortcut, StatFigure
from parlour.games.sliding import solver
from parlour.games.sliding.logic import Sliding
from parlour.games.sliding.view import THUMBNAIL, render

RULES_HTML = """
<p>A picture is cut into tiles and one cell is left empty. <b>Slide the tiles back</b>
until the picture is whole, with the empty cell in the bottom right corner.</p>
<p><b>Click or tap a tile</b> in the empty cell's row or column: it slides toward the
gap, and every tile between slides with it. The <b>arrow keys</b> slide the tile next
to the gap the way the arrow points: ← moves the tile right of the gap to the left.
<b>Swipe</b> or drag on the board the same way, or drag a tile onto the gap.</p>
<p><b>New game</b> (N) chooses the size (3 to 8 rows and columns), the picture and how
hard the shuffle is: <i>easy</i> is the original's shuffle, 10 random steps of the gap;
<i>medium</i> and <i>hard</i> walk further; <i>random</i> is any solvable position, the
hardest. <b>Your own picture</b>: choose <i>Upload…</i> in New game, or drop a photo on
the board, or paste one; then drag the preview to choose what shows, and zoom.</p>
<p><b>The finished picture</b> shows beside the board: <b>hold it</b> (mouse or finger)
to see it full size over the board, and let go to return; or press <b>F</b>, and F again
(or Esc) to return.</p>
<p><b>Numbers</b> (View menu) puts each tile's number on it (a photo of sky needs them).
<b>Hint</b> (H) shows the next tile of a solution and how many moves are left;
<b>Show me the solution</b> (Edit menu, W) plays it out; both count as help. Click a tile
or press a key to take over.</p>
<p>Keys from the original: <b>I</b> these instructions, <b>P</b> play, <b>M</b> mute (M again
turns the sound back on) and <b>U</b> unmute, <b>S</b> reshuffle. Undo is Ctrl+Z or
Backspace.</p>
"""

ABOUT_HTML = """
<p>The <b>15 puzzle</b> was sold from 1880 on and set off a craze; Sam Loyd later
claimed it as his own. This version starts from a p5.js sketch (seed 002): a 4×4 picture
puzzle with a shuffle of ten random steps, a win sound, instructions on I, play on P,
soft music with M and U to mute and unmute, and S to reshuffle. Its author's next step
was to slice any picture the player chooses into the grid.</p>
<p>Parlour added that: any photo, cropped to the board, as well as pictures drawn by the
program; sizes from 3×3 to 8×8, rectangular too; a click slides a whole line (as in
Simon Tatham's <i>Fifteen</i>); difficulty from a short walk to a uniformly random
position; hints and solutions from a solver that finds the shortest solution on 3×3 and
4×4 boards (IDA* with pattern databases, after Korf and Felner); moves, time and best
results per size and difficulty.</p>
"""


def commands_enabled(observation: JSON) -> Mapping[str, bool]:
    return {"solution": observation["status"] == "playing"}


SPEC = GameSpec(
    order=40,
    game=Sliding(),
    render=render,
    rules_html=RULES_HTML,
    tagline="Slide the tiles back into place until the picture is whole again.",
    about_html=ABOUT_HTML,
    first_note=("Slide the tiles home: click or tap one beside the gap, swipe, or use the "
                "arrow keys."),
    thumbnail_svg=THUMBNAIL,
    hint=solver.hint,
    best_possible=solver.fewest_moves,
    commands=(
        server("solution", "Show me the solution", "edit", "W"),
        new_game("reshuffle", "Reshuffle", "S"),
        # the seed's I and P: its instructions screen, and back to the puzzle from it
        client("instructions", "How to play", "help", "I", action="help"),
        client("play", "Back to the puzzle", "help", "P"),
        client("finished-picture", "See the finished picture", "view", "F", action="peek"),
        # the seed's U turns the sound back on (M, the Sound switch, also turns it off)
        client("unmute", "Sound on", "view", "U", in_menu=False),
    ),
    command_handlers={"solution": solver.show_solution},
    commands_enabled=commands_enabled,
    command_keys={"undo": ("Ctrl+Z", "Backspace")},
    display_options={"numbers": ("off", "on")},
    music="music-box",
    tables=solver.TABLES,
    warm_up=solver.warm_up,
    stat_outcomes={"won": "solved"},
    stat_figures=(
        StatFigure("tiles_moved", "moves", "lowest", unit="moves", of="won",
                   best="fewest moves"),
        StatFigure("time", "time", "lowest", unit="seconds", of="won"),
    ),
    shortcuts=(
        Shortcut("Arrows", "slide the tile next to the gap that way"),
        Shortcut("Click, tap", "slide a tile, with the line between it and the gap"),
        Shortcut("Swipe, drag", "slide the tile next to the gap that way, or a tile to the gap"),
        Shortcut("Hold", "the finished picture: see it full size until you let go"),
    ),
)
