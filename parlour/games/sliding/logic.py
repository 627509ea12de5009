"""The sliding picture puzzle (seed 002, "Fifteen"): the rules.

A picture is cut into `rows` x `cols` tiles and one cell is left empty: the gap. A tile in
the gap's row or column slides toward it, and every tile between slides with it (one
click moves a whole line, as in Tatham's Fifteen). The puzzle is solved when every tile
is home and the gap is in the last cell, bottom right.

Shuffles are random walks of the gap from the solved picture, as in the seed, so every
deal can be solved; the walk's length is the difficulty. "random" deals a position drawn
uniformly from all solvable ones. A position given by a script (`tiles`) is refused when
no sequence of slides can solve it.
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, StrictInt

from parlour.core.game import (
    JSON,
    BadParams,
    Game,
    IllegalMove,
    Param,
    Params,
    Status,
    counted,
)
from parlour.games.sliding.pictures import BUILT_IN

SMALLEST, LARGEST = 3, 8
GAP = 0
SEED_STEPS = 10  # the seed's shuffle: ten steps of the gap
DIFFICULTIES: dict[str, Params] = {
    "easy": {"shuffle": "walk", "steps": SEED_STEPS},
    "medium": {"shuffle": "walk", "steps": 40},
    "hard": {"shuffle": "walk", "steps": 160},
    "random": {"shuffle": "random"},
}
"""The presets: walks of growing length, then a uniformly random solvable position."""
STEPS: dict[int, str] = {int(values["steps"]): name for name, values in DIFFICULTIES.items()
                         if "steps" in values}
STEPS_MOST = 100_000
WALK_RANGES = (10, 40, 160, 640, 2_560, 10_240, 40_960, STEPS_MOST)
"""The statistics compare walks of other lengths than the presets' by these ranges (each
four times the last, as the presets grow), not one group per length: a player chooses a
difficulty, and 100 000 lengths would make as many groups."""
QUICK_WALK = 10_000
"""Walks longer than this (tens of milliseconds) are dealt in a worker, off the event loop."""
DIRECTIONS = ((-1, 0), (1, 0), (0, -1), (0, 1))


@dataclass(frozen=True, slots=True)
class Slide:
    """A click on the tile at (row, col): it and every tile between it and the gap slide."""

    row: int
    col: int


@dataclass(frozen=True, slots=True)
class Picture:
    """What the tiles show: a built-in picture's name or an upload id, and the crop."""

    name: str
    crop_x: int = 50  # the point of the picture kept in view, in % of its width
    crop_y: int = 50  # ... and of its height
    zoom: int = 100  # %: 100 fits the picture's short side to the board


@dataclass(frozen=True, slots=True)
class Puzzle:
    rows: int
    cols: int
    tiles: tuple[int, ...]  # reading order; 0 is the gap; solved: 1, 2, ..., n-1, 0
    picture: Picture
    moved: int = 0  # tiles moved so far (a line of three counts three)

    @property
    def gap(self) -> tuple[int, int]:
        return divmod(self.tiles.index(GAP), self.cols)

    def solved(self) -> bool:
        return self.tiles == goal(self.rows, self.cols)


class MoveModel(BaseModel):
    model_config = ConfigDict(extra="forbid")
    cell: tuple[StrictInt, StrictInt] = Field(
        description="[row, col] of the tile to slide toward the gap (with every tile "
        "between): it must be in the gap's row or column"
    )


def goal(rows: int, cols: int) -> tuple[int, ...]:
    return (*range(1, rows * cols), GAP)


def is_solvable(rows: int, cols: int, tiles: Sequence[int]) -> bool:
    """Whether slides can bring `tiles` home. A slide of one tile swaps the gap with a
    neighbour: it changes the permutation's parity and the gap's distance from its home
    cell by one each, so the two parities agree on every position slides can reach
    (and every such position can be reached)."""
    size = rows * cols
    values = [size if tile == GAP else tile for tile in tiles]
    inversions = sum(
        1 for i in range(size) for j in range(i + 1, size) if values[i] > values[j]
    )
    gap_row, gap_col = divmod(list(tiles).index(GAP), cols)
    distance = (rows - 1 - gap_row) + (cols - 1 - gap_col)
    return inversions % 2 == distance % 2


def slide(rows: int, cols: int, tiles: tuple[int, ...], row: int, col: int) -> tuple[int, ...]:
    """`tiles` after the tile at (row, col) slides toward the gap with those between;
    IllegalMove, saying why, if it cannot."""
    if not (0 <= row < rows and 0 <= col < cols):
        raise IllegalMove(f"there is no cell [{row}, {col}] on a {rows}×{cols} board")
    gap_row, gap_col = divmod(tiles.index(GAP), cols)
    if (row, col) == (gap_row, gap_col):
        raise IllegalMove("that is the gap: click a tile in its row or column")
    if row != gap_row and col != gap_col:
        raise IllegalMove("that tile is not in the gap's row or column")
    step = 1 if (row, col) > (gap_row, gap_col) else -1
    stride = 1 if row == gap_row else cols
    board = list(tiles)
    at = gap_row * cols + gap_col
    target = row * cols + col
    while at != target:  # the gap walks to the clicked cell; each tile it passes slides
        board[at], board[at + step * stride] = board[at + step * stride], GAP
        at += step * stride
    return tuple(board)


def walk(rows: int, cols: int, steps: int, rng: random.Random) -> tuple[int, ...]:
    """The solved picture after the gap's random walk of `steps` slides, never straight
    back along the slide before (which would undo it); longer if it ended solved."""
    solved = list(goal(rows, cols))
    board = solved.copy()
    around = _neighbour_cells(rows, cols)
    at, came_from = rows * cols - 1, -1
    taken = 0
    while taken < steps or board == solved:
        step = rng.choice([cell for cell in around[at] if cell != came_from])
        board[at], board[step] = board[step], GAP
        came_from, at = at, step
        taken += 1
    return tuple(board)


def _neighbour_cells(rows: int, cols: int) -> list[list[int]]:
    """For each cell (reading order), the cells next to it, in DIRECTIONS' order."""
    return [[(row + dr) * cols + col + dc for dr, dc in DIRECTIONS
             if 0 <= row + dr < rows and 0 <= col + dc < cols]
            for row, col in (divmod(cell, cols) for cell in range(rows * cols))]


def uniform(rows: int, cols: int, rng: random.Random) -> tuple[int, ...]:
    """A position drawn uniformly from the solvable ones (never the solved one). Swapping
    the first two tiles pairs each unsolvable arrangement with a solvable one, so fixing
    an unsolvable draw that way keeps the draw uniform."""
    while True:
        board = list(goal(rows, cols))
        rng.shuffle(board)
        if not is_solvable(rows, cols, board):
            first, second = [i for i, tile in enumerate(board) if tile != GAP][:2]
            board[first], board[second] = board[second], board[first]
        if tuple(board) != goal(rows, cols):
            return tuple(board)


class Sliding(Game[Puzzle, Slide]):
    name = "sliding"
    title = "Sliding Puzzle"
    parameters: ClassVar[tuple[Param, ...]] = (
        Param("rows", "Rows", "int", 4, minimum=SMALLEST, maximum=LARGEST),
        Param("cols", "Columns", "int", 4, minimum=SMALLEST, maximum=LARGEST),
        Param("shuffle", "Shuffle", "choice", "walk", choices=("walk", "random"),
              help="Random walk: the gap wanders from the solved picture (steps: how far); "
                   "Any solvable position: the hardest",
              choice_labels={"walk": "Random walk", "random": "Any solvable position"}),
        Param("steps", "Steps of the walk", "int", 40, minimum=1, maximum=STEPS_MOST,
              help="how many slides the shuffle makes (the original made 10)",
              only_with={"shuffle": "walk"}),
        Param("picture", "Picture", "upload", BUILT_IN[0], choices=BUILT_IN,
              crop=("crop_x", "crop_y", "zoom"), frame=("cols", "rows"),
              help="one of the built-in pictures, or your own photo"),
        Param("crop_x", "Crop: across (%)", "int", 50, minimum=0, maximum=100),
        Param("crop_y", "Crop: down (%)", "int", 50, minimum=0, maximum=100),
        Param("zoom", "Crop: zoom (%)", "int", 100, minimum=100, maximum=400),
    )
    presets: ClassVar[dict[str, Params]] = DIFFICULTIES
    position_help: ClassVar[str] = (
        "the tiles in reading order, row by row from the top left, 0 for the gap, "
        "comma-separated, e.g. sliding:rows=3,cols=3:1,2,3,4,5,6,7,0,8 (the solved 4×4 "
        "puzzle is 1,2,...,15,0); a position slides cannot solve is refused"
    )
    position_param: ClassVar[str] = "tiles"
    move_model = MoveModel

    def summary(self, params: Params) -> str:
        """The board as its statistics name it ("3×3 easy", "4×4 random"): a preset's name
        alone ("Medium") said nothing of a custom size, which read "Custom"."""
        return self.stat_group(params)

    def stat_group(self, params: Params) -> str:
        """Results are compared per size and difficulty, whatever the picture."""
        size = f"{params['rows']}×{params['cols']}"
        if params["shuffle"] == "random":
            return f"{size} random"
        steps = int(params["steps"])
        if steps in STEPS:
            return f"{size} {STEPS[steps]}"
        at = bisect.bisect_left(WALK_RANGES, steps)  # steps beyond the last are refused
        low = WALK_RANGES[at - 1] + 1 if at else 1
        high = WALK_RANGES[at]
        top = high - 1 if high in STEPS else high  # a preset's own length is its group
        return f"{size} walk of {low}–{top}"

    # -- dealing --------------------------------------------------------------------
    def slow_deal(self, params: Params) -> bool:
        return params["shuffle"] == "walk" and int(params["steps"]) > QUICK_WALK

    def deal(self, params: Params, rng: random.Random) -> Puzzle:
        rows, cols = int(params["rows"]), int(params["cols"])
        if params["shuffle"] == "random":
            tiles = uniform(rows, cols, rng)
        else:
            tiles = walk(rows, cols, int(params["steps"]), rng)
        return Puzzle(rows, cols, tiles, _picture(params))

    def parse_position(self, params: Params, text: str) -> Puzzle:
        rows, cols = int(params["rows"]), int(params["cols"])
        size = rows * cols
        try:
            tiles = tuple(int(part) for part in text.split(","))
        except ValueError:
            raise BadParams("tiles are whole numbers separated by commas, 0 for the gap") from None
        if sorted(tiles) != list(range(size)):
            raise BadParams(f"a {rows}×{cols} position has each of the numbers 0 to "
                            f"{size - 1} once ({len(tiles)} numbers given)")
        if not is_solvable(rows, cols, tiles):
            raise BadParams("no sequence of slides can solve this position (two tiles "
                            "would have to swap places): it is refused")
        return Puzzle(rows, cols, tiles, _picture(params))

    # -- the rules --------------------------------------------------------------------
    def to_move(self, state: Puzzle) -> int | None:
        return None if state.solved() else 0

    def legal_moves(self, state: Puzzle) -> Sequence[Slide]:
        if state.solved():
            return ()
        gap_row, gap_col = state.gap
        return [Slide(gap_row, col) for col in range(state.cols) if col != gap_col] + [
            Slide(row, gap_col) for row in range(state.rows) if row != gap_row
        ]

    def apply(self, state: Puzzle, move: Slide) -> Puzzle:
        if state.solved():
            raise IllegalMove("the puzzle is solved")
        gap_row, gap_col = state.gap
        tiles = slide(state.rows, state.cols, state.tiles, move.row, move.col)
        distance = abs(move.row - gap_row) + abs(move.col - gap_col)
        return replace(state, tiles=tiles, moved=state.moved + distance)

    def status(self, state: Puzzle) -> Status:
        return Status.WON if state.solved() else Status.PLAYING

    def scores(self, state: Puzzle) -> tuple[int, ...]:
        return (state.moved,)

    def moves_made(self, state: Puzzle, played: int) -> int:
        return state.moved

    def figures(self, state: Puzzle, elapsed_ms: int, moves: int) -> dict[str, float]:
        return {"tiles_moved": state.moved}

    def sound(self, before: Puzzle, move: Slide, after: Puzzle) -> str:
        return "slide"

    # -- what players see ---------------------------------------------------------------
    def observe(self, state: Puzzle, seat: int | None) -> JSON:
        picture = state.picture
        return {
            "rows": state.rows,
            "cols": state.cols,
            "tiles": list(state.tiles),
            "moves": state.moved,
            "status": self.status(state).value,
            "picture": {"name": picture.name, "built_in": picture.name in BUILT_IN,
                        "crop_x": picture.crop_x, "crop_y": picture.crop_y,
                        "zoom": picture.zoom},
        }

    def text(self, observation: JSON) -> str:
        cols = observation["cols"]
        cells = [" ." if tile == GAP else f"{tile:>2}" for tile in observation["tiles"]]
        return "\n".join(" ".join(cells[row * cols:(row + 1) * cols])
                         for row in range(observation["rows"]))

    def headline(self, observation: JSON) -> str:
        moves = observation["moves"]
        if observation["status"] == "won":
            return f"Solved · {counted(moves, 'move')}"
        size = f"{observation['rows']}×{observation['cols']}"
        return f"{size} · {counted(moves, 'move')}"

    def headline_for(self, observation: JSON, seats: Collection[int]) -> str:
        """"You win!" to the player; the plain words to someone watching."""
        if seats and observation["status"] == "won":
            return f"You win! {counted(observation['moves'], 'move')}"
        return self.headline(observation)

    def shown_headline(self, observation: JSON) -> str:
        return f"Solver's line · {counted(observation['moves'], 'move')}"

    # -- moves as JSON ----------------------------------------------------------------
    def move_from_model(self, model: Any) -> Slide:
        row, col = model.cell
        return Slide(row, col)

    def move_to_json(self, move: Slide) -> JSON:
        return {"cell": [move.row, move.col]}


def _picture(params: Params) -> Picture:
    return Picture(str(params["picture"]), int(params["crop_x"]), int(params["crop_y"]),
                   int(params["zoom"]))
