"""Tic-Tac-Toe rules (seed 001): Cross moves first; winning cell sets are data."""

from __future__ import annotations

import functools
import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field, StrictInt

from parlour.core.game import JSON, Game, IllegalMove, Params, Status

SIZE = 3
CROSS, CIRCLE = 0, 1
SEAT_NAMES = ("Cross", "Circle")
MARKS = ("X", "O")

Cell = tuple[int, int]  # (x, y): column from the left, row from the top
COORDINATES: tuple[Cell, ...] = tuple((x, y) for y in range(SIZE) for x in range(SIZE))

ROWS = tuple(tuple((x, y) for x in range(SIZE)) for y in range(SIZE))
COLUMNS = tuple(tuple((x, y) for y in range(SIZE)) for x in range(SIZE))
DIAGONALS = (
    tuple((i, i) for i in range(SIZE)),
    tuple((i, SIZE - 1 - i) for i in range(SIZE)),
)
WINNING_CELL_SETS: tuple[tuple[Cell, ...], ...] = ROWS + COLUMNS + DIAGONALS
"""Owning every cell of one set wins. Change the rules by changing this data."""


@dataclass(frozen=True)
class Turn:
    """One position: who owns each cell, and whose turn it is."""

    owners: tuple[int | None, ...]  # indexed by y * SIZE + x
    player: int = CROSS

    def owner(self, cell: Cell) -> int | None:
        x, y = cell
        return self.owners[y * SIZE + x]


START = Turn(owners=(None,) * SIZE * SIZE)


@functools.lru_cache(maxsize=2**16)  # every position there is: views and the AI ask often
def winning_set(turn: Turn) -> tuple[Cell, ...] | None:
    for cells in WINNING_CELL_SETS:
        owners = {turn.owner(cell) for cell in cells}
        if len(owners) == 1 and None not in owners:
            return cells
    return None


def winner(turn: Turn) -> int | None:
    cells = winning_set(turn)
    return None if cells is None else turn.owner(cells[0])


ROW_NAMES = ("top", "middle", "bottom")
COLUMN_NAMES = ("left", "centre", "right")


def square_name(cell: Cell) -> str:
    """A square as players name it: "top left", "middle right", "centre"."""
    x, y = cell
    return "centre" if (x, y) == (1, 1) else f"{ROW_NAMES[y]} {COLUMN_NAMES[x]}"


def taken(cell: Cell) -> str:
    """Why a cell cannot be played, naming it as the move list does: "the top left
    square is taken"."""
    return f"the {square_name(cell)} square is taken"


def is_over(turn: Turn) -> bool:
    return winner(turn) is not None or None not in turn.owners


class CellMove(BaseModel):
    model_config = ConfigDict(extra="forbid")
    cell: tuple[StrictInt, StrictInt] = Field(
        description="[x, y]: column 0-2 from the left, row 0-2 from the top"
    )


class TicTacToe(Game[Turn, Cell]):
    name: ClassVar[str] = "tictactoe"
    title: ClassVar[str] = "Tic Tac Toe"  # as the seed writes it, in its headline too
    random_deal: ClassVar[bool] = False  # every game starts on the empty board
    scores_shown: ClassVar[bool] = False  # 1 for the winner: the series counts the games
    move_model: ClassVar[type[BaseModel]] = CellMove

    def seat_names(self, params: Params) -> tuple[str, ...]:
        return SEAT_NAMES

    def deal(self, params: Params, rng: random.Random) -> Turn:
        return START

    def to_move(self, state: Turn) -> int | None:
        return None if is_over(state) else state.player

    def legal_moves(self, state: Turn) -> Sequence[Cell]:
        if is_over(state):
            return ()
        return tuple(cell for cell in COORDINATES if state.owner(cell) is None)

    def apply(self, state: Turn, move: Cell) -> Turn:
        if is_over(state):
            raise IllegalMove("the game is over")
        x, y = move
        if not (0 <= x < SIZE and 0 <= y < SIZE):
            raise IllegalMove(f"cell {list(move)} is off the board (x and y go from 0 to 2)")
        if state.owner(move) is not None:
            raise IllegalMove(taken(move))
        owners = list(state.owners)
        owners[y * SIZE + x] = state.player
        return Turn(owners=tuple(owners), player=1 - state.player)

    def status(self, state: Turn) -> Status:
        if winner(state) is not None:
            return Status.WON
        return Status.DRAW if is_over(state) else Status.PLAYING

    def winners(self, state: Turn) -> tuple[int, ...]:
        found = winner(state)
        return () if found is None else (found,)

    def scores(self, state: Turn) -> tuple[int, ...]:
        found = winner(state)
        return tuple(int(seat == found) for seat in (CROSS, CIRCLE))

    def observe(self, state: Turn, seat: int | None) -> JSON:
        line = winning_set(state)
        return {
            "owners": [list(state.owners[y * SIZE : (y + 1) * SIZE]) for y in range(SIZE)],
            "player": state.player,
            "winner": winner(state),
            "line": [list(cell) for cell in line] if line else None,
            "over": is_over(state),
        }

    def text(self, observation: JSON) -> str:
        return "\n".join(
            "".join("." if owner is None else MARKS[owner] for owner in row)
            for row in observation["owners"]
        )

    def headline(self, observation: JSON) -> str:
        if observation["winner"] is not None:
            return f"{SEAT_NAMES[observation['winner']]} wins"
        return "Draw Game" if observation["over"] else "Tic Tac Toe"

    def headline_for(self, observation: JSON, seats: Collection[int]) -> str:
        """"You win!" to a winner playing against someone else; the seed's words to
        the players of both seats on one screen and to spectators."""
        if len(seats) == 1 and observation["winner"] in seats:
            return "You win!"
        return self.headline(observation)

    def move_from_model(self, model: CellMove) -> Cell:
        return model.cell

    def move_to_json(self, move: Cell) -> JSON:
        return {"cell": list(move)}
