"""Tribolo's rules (SPEC §3 "Tribolo") on bitboards: the brain the game and its AI share.

A position is a `Board`: one bitset of cells per player and one of walls, where cell
`y * WIDTH + x` is bit `1 << (y * WIDTH + x)` (x the column from the left, y the row from
the top). Python ints are arbitrary-precision, so 176 cells fit in one int and a whole
line of the board moves one step with a shift and a mask; the search AI relies on this.

Captures (rule 3): from an empty cell, in each of 8 directions, the first cell belongs to
some player L, the run continues over L's cells, and the first cell of a *different* player
W closes it: the run is W's capture. An empty cell, a wall or the edge first (or before a
closing cell) means no capture. So, for a mover, the captures are exactly Othello's
against each opponent separately: a run of one opponent closed by the mover. A run of one
opponent closed by the third player is the third player's capture, which the mover
ignores; a run that starts on the mover's own cell is never the mover's.

As in the original ClojureScript port (QuentinDuval/triboard, `src/cljs/triboard/logic/
board.cljs`, `move.cljs`, `turn.cljs`):
- the deal shuffles every cell, then gives the first 12 to Blue, the next 12 to Red, the
  next 12 to Green and the next 12 to walls; the first player is drawn at random;
- a player to move who has no legal move passes; the next to move is the first of next,
  next-but-one and the mover who can move (`next_to_move`), and nobody able to move ends it.
Where this differs: the original never checks that its randomly drawn first player can
move (with 36 cells spread at random that player nearly always can). `deal` hands the first
turn on by rule 5 when the drawn player cannot move, and deals again in the (astronomically
rare) case where nobody can, so a fresh game always has someone to move.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

WIDTH, HEIGHT = 16, 11
CELLS = WIDTH * HEIGHT
BLUE, RED, GREEN = 0, 1, 2
PLAYERS = (BLUE, RED, GREEN)
NAMES = ("Blue", "Red", "Green")
LETTERS = "BRG"
WALL_LETTER, EMPTY_LETTER = "#", "."
DEAL_CELLS = 12  # per player, and walls

FULL = (1 << CELLS) - 1
_COLUMN_0 = sum(1 << (y * WIDTH) for y in range(HEIGHT))
_NOT_FIRST_COLUMN = FULL & ~_COLUMN_0
_NOT_LAST_COLUMN = FULL & ~(_COLUMN_0 << (WIDTH - 1))

# One step in each of the 8 directions as (shift, mask): a positive shift moves bits left
# (towards higher cells), a negative one right. The mask drops the bits that left the board
# or wrapped around to the other side of a row.
_STEPS: tuple[tuple[int, int], ...] = (
    (1, _NOT_FIRST_COLUMN),               # east
    (-1, _NOT_LAST_COLUMN),               # west
    (WIDTH, FULL),                        # south
    (-WIDTH, FULL),                       # north
    (WIDTH + 1, _NOT_FIRST_COLUMN),       # south-east
    (WIDTH - 1, _NOT_LAST_COLUMN),        # south-west
    (-(WIDTH - 1), _NOT_FIRST_COLUMN),    # north-east
    (-(WIDTH + 1), _NOT_LAST_COLUMN),     # north-west
)
_LEFT_STEPS = tuple((shift, mask) for shift, mask in _STEPS if shift > 0)
_RIGHT_STEPS = tuple((-shift, mask) for shift, mask in _STEPS if shift < 0)
# The same steps as (left shift, right shift, mask), one of the shifts 0: no sign test.
_SINGLE_STEPS = tuple((max(shift, 0), max(-shift, 0), mask) for shift, mask in _STEPS)
# For each cell, its neighbour in each direction that has one, with the step that follows.
_NEIGHBOURS = tuple(
    tuple((neighbour, left, right, mask) for left, right, mask in _SINGLE_STEPS
          if (neighbour := (((1 << cell) << left) >> right) & mask))
    for cell in range(CELLS))


@dataclass(frozen=True, slots=True)
class Board:
    """Who owns which cell. The three bitsets and the walls never overlap."""

    owned: tuple[int, int, int]  # bitset of cells per player
    walls: int  # bitset of walls (never change)

    @property
    def empty(self) -> int:
        blue, red, green = self.owned
        return FULL & ~(blue | red | green | self.walls)


def cell_at(x: int, y: int) -> int:
    return y * WIDTH + x


def position(cell: int) -> tuple[int, int]:
    """(x, y) of a cell index."""
    return cell % WIDTH, cell // WIDTH


COLUMNS = "abcdefghijklmnop"


def cell_name(x: int, y: int) -> str:
    """A cell as players name it: its column a-p from the left, its row 1-11 from the
    top, as the letters and numbers beside the board show them ("k3")."""
    return f"{COLUMNS[x]}{y + 1}"


def cells(bitset: int) -> Iterator[int]:
    """The cell indexes in a bitset, lowest first."""
    while bitset:
        low = bitset & -bitset
        yield low.bit_length() - 1
        bitset ^= low


def others(player: int) -> tuple[int, int]:
    """The two other players, in turn order after `player`."""
    return (player + 1) % 3, (player + 2) % 3


def deal(rng: random.Random) -> tuple[Board, int]:
    """12 random cells per player, 12 random walls, and the first player (module docstring)."""
    while True:
        order = list(range(CELLS))
        rng.shuffle(order)
        groups = [sum(1 << cell for cell in order[k * DEAL_CELLS:(k + 1) * DEAL_CELLS])
                  for k in range(4)]
        board = Board((groups[0], groups[1], groups[2]), groups[3])
        first = rng.choice(PLAYERS)
        if legal_moves(board, first):
            return board, first
        following = next_to_move(board, first)
        if following is not None:
            return board, following


def legal_moves(board: Board, player: int) -> int:
    """The bitset of the empty cells where `player` captures something (rule 4).

    From the mover's cells, step over a run of one opponent's cells in each direction: an
    empty cell right after the run is a legal move (seen from it, the line is that
    opponent's run closed by the mover).
    """
    own = board.owned[player]
    empty = board.empty
    moves = 0
    for opponent in others(player):
        theirs = board.owned[opponent]
        for shift, mask in _LEFT_STEPS:
            run = (own << shift) & mask & theirs
            while run:
                ahead = (run << shift) & mask
                moves |= ahead & empty
                run = ahead & theirs
        for shift, mask in _RIGHT_STEPS:
            run = (own >> shift) & mask & theirs
            while run:
                ahead = (run >> shift) & mask
                moves |= ahead & empty
                run = ahead & theirs
    return moves


def captures(board: Board, player: int, cell: int) -> int:
    """The bitset of the cells `player` turns by playing `cell`; 0 when it is not a move.

    In each direction the first cell names the run's owner; the run is the mover's capture
    only when the mover's own cell closes it.
    """
    if not 0 <= cell < CELLS:
        return 0
    start = 1 << cell
    if not start & board.empty:
        return 0
    owned = board.owned
    own = owned[player]
    first_opponent, second_opponent = others(player)
    theirs_first, theirs_second = owned[first_opponent], owned[second_opponent]
    opponents = theirs_first | theirs_second
    taken = 0
    for first, left, right, mask in _NEIGHBOURS[cell]:
        if not first & opponents:
            continue
        theirs = theirs_first if first & theirs_first else theirs_second
        line, run = first, ((first << left) >> right) & mask
        while run & theirs:
            line |= run
            run = ((run << left) >> right) & mask
        if run & own:
            taken |= line
    return taken


def play(board: Board, player: int, cell: int) -> Board:
    """The board after `player` plays `cell`; ValueError (reason for a player) if illegal."""
    if not isinstance(cell, int) or not 0 <= cell < CELLS:
        raise ValueError("that cell is not on the board")
    bit = 1 << cell
    if bit & board.walls:
        raise ValueError("that cell is a wall")
    if not bit & board.empty:
        raise ValueError("that cell is already taken")
    taken = captures(board, player, cell)
    if not taken:
        raise ValueError(f"{NAMES[player]} captures nothing at {cell_name(*position(cell))}: "
                         "no line of one other player's cells runs from it to one of "
                         f"{NAMES[player]}'s")
    return apply_capture(board, player, cell, taken)


def apply_capture(board: Board, player: int, cell: int, taken: int) -> Board:
    """`play` without the checks: `taken` must be `captures(board, player, cell)`."""
    keep = ~taken
    gained = taken | (1 << cell)
    owned = tuple(cells_of | gained if owner == player else cells_of & keep
                  for owner, cells_of in enumerate(board.owned))
    return Board((owned[0], owned[1], owned[2]), board.walls)


def next_to_move(board: Board, mover: int) -> int | None:
    """Rule 5: the first of next, next-but-one and `mover` who can move; None: game over."""
    for player in (*others(mover), mover):
        if legal_moves(board, player):
            return player
    return None


def scores(board: Board) -> tuple[int, int, int]:
    blue, red, green = board.owned
    return blue.bit_count(), red.bit_count(), green.bit_count()


def winners(board: Board) -> tuple[int, ...]:
    """The players with the most cells (several: a tie between them)."""
    counts = scores(board)
    best = max(counts)
    return tuple(player for player in PLAYERS if counts[player] == best)


def board_from_rows(rows: Sequence[str]) -> Board:
    """A board from HEIGHT rows of WIDTH letters: B, R, G, # (wall) and . (empty)."""
    if len(rows) != HEIGHT or any(len(row) != WIDTH for row in rows):
        raise ValueError(f"a board is {HEIGHT} rows of {WIDTH} cells")
    owned = [0, 0, 0]
    walls = 0
    for y, row in enumerate(rows):
        for x, letter in enumerate(row):
            bit = 1 << cell_at(x, y)
            if letter in LETTERS:
                owned[LETTERS.index(letter)] |= bit
            elif letter == WALL_LETTER:
                walls |= bit
            elif letter != EMPTY_LETTER:
                raise ValueError(f"unknown cell {letter!r} at ({x}, {y})")
    return Board((owned[0], owned[1], owned[2]), walls)


def board_rows(board: Board) -> list[str]:
    """The inverse of `board_from_rows`."""
    def letter(cell: int) -> str:
        bit = 1 << cell
        for player in PLAYERS:
            if board.owned[player] & bit:
                return LETTERS[player]
        return WALL_LETTER if board.walls & bit else EMPTY_LETTER
    return ["".join(letter(cell_at(x, y)) for x in range(WIDTH)) for y in range(HEIGHT)]
