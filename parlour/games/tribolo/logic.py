"""Tribolo as a Parlour game: the rules engine (`rules.py`) plus turns, passes, the last
move and what every seat sees.

A position remembers the move that led to it (who played where, what it turned, who
passed after it), so that the board can show it and the client can animate it.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field, StrictInt

from parlour.core.game import JSON, Game, IllegalMove, Params, Status
from parlour.games.tribolo import rules
from parlour.games.tribolo.rules import HEIGHT, WIDTH, Board

SEATS = 3
SEAT_NAMES = rules.NAMES
MARKS = rules.LETTERS
WALL, EMPTY = rules.WALL_LETTER, rules.EMPTY_LETTER

Cell = tuple[int, int]  # (x, y): column from the left, row from the top


@dataclass(frozen=True, slots=True)
class LastMove:
    player: int
    cell: int  # y * WIDTH + x
    turned: int  # bitset of the cells the move turned


@dataclass(frozen=True, slots=True)
class Position:
    board: Board
    player: int | None  # the seat to move; None once nobody can move
    moves_made: tuple[int, int, int] = (0, 0, 0)
    last: LastMove | None = None
    passed: tuple[int, ...] = ()  # seats that could not move before `player`'s turn
    lasts: tuple[int, ...] = (-1, -1, -1)  # each seat's last cell played (-1: none yet)
    before_last: LastMove | None = None  # the move before `last`: a note tells both


class CellMove(BaseModel):
    model_config = ConfigDict(extra="forbid")
    cell: tuple[StrictInt, StrictInt] = Field(
        description=f"[x, y]: column 0-{WIDTH - 1} from the left, row 0-{HEIGHT - 1} from the top"
    )


def xy(cell: int) -> list[int]:
    return list(rules.position(cell))


def turn_after(board: Board, mover: int) -> tuple[int | None, tuple[int, ...]]:
    """Who moves after `mover` (SPEC §3 rule 5) and the seats that pass on the way."""
    following = rules.next_to_move(board, mover)
    if following is None:
        return None, ()
    order = [(mover + 1) % SEATS, (mover + 2) % SEATS, mover]
    return following, tuple(order[: order.index(following)])


class Tribolo(Game[Position, Cell]):
    name: ClassVar[str] = "tribolo"
    title: ClassVar[str] = "Tribolo"
    move_model: ClassVar[type[BaseModel]] = CellMove

    def seat_names(self, params: Params) -> tuple[str, ...]:
        return SEAT_NAMES

    def deal(self, params: Params, rng: random.Random) -> Position:
        board, first = rules.deal(rng)  # a first player who can move
        return Position(board, first)

    def to_move(self, state: Position) -> int | None:
        return state.player

    def can_move_again(self, state: Position, seat: int) -> bool:
        """A player left with no cells can never capture again: they are out."""
        return state.player is not None and state.board.owned[seat] != 0

    def legal_moves(self, state: Position) -> Sequence[Cell]:
        if state.player is None:
            return ()
        cells = rules.cells(rules.legal_moves(state.board, state.player))
        return tuple(rules.position(cell) for cell in cells)

    def apply(self, state: Position, move: Cell) -> Position:
        player = state.player
        if player is None:
            raise IllegalMove("the game is over")
        x, y = move
        if not (0 <= x < WIDTH and 0 <= y < HEIGHT):
            raise IllegalMove(f"cell {list(move)} is off the board "
                              f"(x goes from 0 to {WIDTH - 1}, y from 0 to {HEIGHT - 1})")
        cell = rules.cell_at(x, y)
        try:
            board = rules.play(state.board, player, cell)
        except ValueError as error:
            raise IllegalMove(str(error)) from None  # the reason says it for a player
        turned = board.owned[player] & ~state.board.owned[player] & ~(1 << cell)
        following, passed = turn_after(board, player)
        made = list(state.moves_made)
        made[player] += 1
        lasts = list(state.lasts)
        lasts[player] = cell
        return Position(board, following, (made[0], made[1], made[2]),
                        LastMove(player, cell, turned), passed, tuple(lasts), state.last)

    def status(self, state: Position) -> Status:
        if state.player is not None:
            return Status.PLAYING
        return Status.WON if self.winners(state) else Status.DRAW

    def winners(self, state: Position) -> tuple[int, ...]:
        """The seats with the most cells at the end; a tie of all three is a draw."""
        if state.player is not None:
            return ()
        best = rules.winners(state.board)
        return () if len(best) == SEATS else tuple(best)

    def scores(self, state: Position) -> tuple[int, ...]:
        return tuple(rules.scores(state.board))

    def sound(self, before: Position, move: Cell, after: Position) -> str:
        return "flip"

    # -- what players see ---------------------------------------------------------
    def observe(self, state: Position, seat: int | None) -> JSON:
        """Everything is public in Tribolo: every seat sees the same board (the note tells
        each the moves since their own)."""
        last = state.last
        return {
            "rows": rules.board_rows(state.board),
            "to_move": state.player,
            "scores": list(self.scores(state)),
            "moves": list(state.moves_made),
            "last": None if last is None else {
                "player": last.player,
                "cell": xy(last.cell),
                "turned": [xy(cell) for cell in rules.cells(last.turned)],
            },
            "since": [_said(move) for move in _since(state, seat)],
            "out": [player for player in range(SEATS) if not state.board.owned[player]],
            "passed": list(state.passed),
            "lasts": [None if cell < 0 else xy(cell) for cell in state.lasts],
            "legal": [list(cell) for cell in self.legal_moves(state)],
            "over": state.player is None,
            "winners": list(rules.winners(state.board)) if state.player is None else [],
        }

    def text(self, observation: JSON) -> str:
        mover = observation["to_move"]
        return "\n".join([*observation["rows"],
                          f"to move: {'none' if mover is None else SEAT_NAMES[mover]}"])

    def headline(self, observation: JSON) -> str:
        if not observation["over"]:
            return f"{SEAT_NAMES[observation['to_move']]} to play"
        best = observation["winners"]
        if len(best) == 1:
            return f"{SEAT_NAMES[best[0]]} wins"
        if len(best) == SEATS:
            return "A three-way tie"
        return f"{SEAT_NAMES[best[0]]} and {SEAT_NAMES[best[1]]} tie"

    def headline_for(self, observation: JSON, seats: Collection[int]) -> str:
        """"You win!" to the sole winner who holds one seat; seat names to the others."""
        if observation["over"] and len(seats) == 1 and observation["winners"] == list(seats):
            return "You win!"
        return self.headline(observation)

    def move_from_model(self, model: CellMove) -> Cell:
        return model.cell

    def move_to_json(self, move: Cell) -> JSON:
        return {"cell": list(move)}


def _since(state: Position, seat: int | None) -> list[LastMove]:
    """The moves the others made since `seat` (a watcher: the player to move) last played,
    oldest first: the two computers' between two of yours. The last move alone where
    there are none, and once the game is over."""
    made = [move for move in (state.before_last, state.last) if move is not None]
    anchor = state.player if seat is None else seat
    if state.player is None or anchor is None:
        return made[-1:]
    while made and anchor in {move.player for move in made}:
        made.pop(0)
    return made or ([state.last] if state.last else [])


def _said(move: LastMove) -> JSON:
    return {"player": move.player, "cell": xy(move.cell), "turned": move.turned.bit_count()}
