"""Ishido rules: the seed's (000) and the original 1990 rules (`classic`).

Tiles are numbered `colour * 6 + glyph`; two of each make the 72-tile pouch. The board
is 12 columns by 8 rows, cells numbered `row * 12 + col`. The pouch order is hidden
information: players see the next tile and how many are left.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field, StrictInt

from parlour.core.game import JSON, Game, IllegalMove, Param, Params, Status, UndoRule

COLS, ROWS = 12, 8
KINDS = 6  # colours, and glyphs
TILES = KINDS * KINDS * 2
OPENING_CELLS = ((0, 0), (11, 0), (5, 3), (6, 4), (0, 7), (11, 7))  # (col, row)
FOUR_WAY_BONUS = (25, 50, 100, 200, 400, 600, 800, 1000, 5000, 10000, 25000, 50000)
END_BONUS = {0: 1000, 1: 500, 2: 100}  # classic: by tiles left in the pouch

Tile = int
Cell = int
Move = tuple[int, int]  # (col, row)


def colour(tile: Tile) -> int:
    return tile // KINDS


def glyph(tile: Tile) -> int:
    return tile % KINDS


def _neighbour_table() -> tuple[tuple[Cell, ...], ...]:
    table = []
    for cell in range(COLS * ROWS):
        row, col = divmod(cell, COLS)
        around = [(col - 1, row), (col + 1, row), (col, row - 1), (col, row + 1)]
        table.append(tuple(r * COLS + c for c, r in around if 0 <= c < COLS and 0 <= r < ROWS))
    return tuple(table)


NEIGHBOURS = _neighbour_table()
OUTER_RING = frozenset(
    cell for cell in range(COLS * ROWS)
    if cell % COLS in (0, COLS - 1) or cell // COLS in (0, ROWS - 1)
)


@dataclass(frozen=True)
class Placement:
    """A tile just placed: where, the points it scored (its 4-way bonus included), and
    whether it made a 4-way."""

    cell: Cell
    points: int
    four_way: bool


@dataclass(frozen=True)
class Board:
    rules: str  # "seed" or "classic"
    cells: tuple[Tile | None, ...]
    pouch: tuple[Tile, ...]  # pouch[0] is the next tile; the order is secret
    score: int = 0
    four_ways: int = 0
    last: Placement | None = None  # the tile placed last, for the board to show its points

    @property
    def next_tile(self) -> Tile | None:
        return self.pouch[0] if self.pouch else None

    @property
    def placed(self) -> int:
        return TILES - len(self.pouch)


def fits(cells: Sequence[Tile | None], cell: Cell, tile: Tile, rules: str) -> int:
    """How many neighbours `tile` has on `cell` if it may go there, else 0.

    Seed rules: every neighbour matches in colour or glyph. Classic rules add the 1990
    pairing: with 2 neighbours one matches by colour and one by glyph; with 3, two by
    one attribute and one by the other; with 4, two by colour and two by glyph.
    """
    if cells[cell] is not None:
        return 0
    around = [t for n in NEIGHBOURS[cell] if (t := cells[n]) is not None]
    if not around:
        return 0
    by_colour = [colour(t) == colour(tile) for t in around]
    by_glyph = [glyph(t) == glyph(tile) for t in around]
    if not all(c or g for c, g in zip(by_colour, by_glyph, strict=True)):
        return 0
    if rules == "classic" and not _pairing_holds(by_colour, by_glyph):
        return 0
    return len(around)


_PAIRINGS = {2: "one must match its colour and the other its bird",
             3: "two must match it by colour and one by bird, or the other way round",
             4: "two must match its colour and two its bird"}
# where a neighbour is, as the board shows it upright (a phone that stands the board on
# its side swaps these words in the note, as it shows them: the page's views.js)
_SIDES = {-1: "to its left", 1: "to its right", -COLS: "above it", COLS: "below it"}


def cell_id(cell: Cell) -> str:
    """The id of `cell`'s element on the board (view.py), which a refusal marks."""
    row, col = divmod(cell, COLS)
    return f"ish-{col}-{row}"


def why_it_does_not_fit(cells: Sequence[Tile | None], cell: Cell, tile: Tile, rules: str
                        ) -> IllegalMove:
    """The refusal of `tile` on the empty `cell` (where `fits` says 0), as the player is
    told it: the board has no coordinates, so it names the neighbour that matches the
    tile in neither colour nor bird by its side, and marks it (or marks the neighbours
    that the classic rules' pairing cannot split)."""
    around = [(n, t) for n in NEIGHBOURS[cell] if (t := cells[n]) is not None]
    if not around:
        return IllegalMove("the tile does not fit there: it must touch a tile")
    for n, other in around:
        if colour(other) != colour(tile) and glyph(other) != glyph(tile):
            return IllegalMove(f"the tile does not fit there: the one {_SIDES[n - cell]} "
                               "matches it in neither colour nor bird", marks=[cell_id(n)])
    return IllegalMove(f"the tile does not fit there: with {len(around)} neighbours, "
                       f"classic rules: {_PAIRINGS[len(around)]}",
                       marks=[cell_id(n) for n, _ in around])


def _pairing_holds(by_colour: list[bool], by_glyph: list[bool]) -> bool:
    """Can the neighbours be split into colour matches and glyph matches as required?"""
    count = len(by_colour)
    needed = {1: [(1, 0), (0, 1)], 2: [(1, 1)], 3: [(2, 1), (1, 2)], 4: [(2, 2)]}[count]
    # a neighbour identical to the tile may count as either
    only_colour = sum(c and not g for c, g in zip(by_colour, by_glyph, strict=True))
    only_glyph = sum(g and not c for c, g in zip(by_colour, by_glyph, strict=True))
    return any(only_colour <= want_colour and only_glyph <= want_glyph
               for want_colour, want_glyph in needed)


def placement_score(board: Board, cell: Cell, neighbours: int) -> int:
    """Points for placing a tile with `neighbours` neighbours on `cell` (before bonuses)."""
    base = 1 << (neighbours - 1)  # 1, 2, 4, 8
    if board.rules == "seed":
        return base
    if cell in OUTER_RING:
        return 0
    return base << board.four_ways  # the schedule doubles after each 4-way


def valid_cells(board: Board, tile: Tile | None = None) -> dict[Cell, int]:
    """Each cell where `tile` (default: the next one) may go, with its neighbour count."""
    tile = board.next_tile if tile is None else tile
    if tile is None:
        return {}
    return dict(_valid_cells(board.cells, tile, board.rules))


@lru_cache(maxsize=256)  # status, legal moves and the view all ask about the same board
def _valid_cells(
    cells: tuple[Tile | None, ...], tile: Tile, rules: str
) -> tuple[tuple[Cell, int], ...]:
    found = []
    for cell in range(COLS * ROWS):
        neighbours = fits(cells, cell, tile, rules)
        if neighbours:
            found.append((cell, neighbours))
    return tuple(found)


def deal_pouch(rng: random.Random) -> tuple[Tile, ...]:
    """The pouch: six tiles of six different colours and glyphs first, then the rest."""
    colours = list(range(KINDS))
    glyphs = list(range(KINDS))
    rng.shuffle(colours)
    rng.shuffle(glyphs)
    opening = [c * KINDS + g for c, g in zip(colours, glyphs, strict=True)]
    rest = [tile for tile in range(KINDS * KINDS) for _ in range(2)]
    for tile in opening:
        rest.remove(tile)
    rng.shuffle(rest)
    return tuple(opening + rest)


class PlaceModel(BaseModel):
    model_config = ConfigDict(extra="forbid")
    place: tuple[StrictInt, StrictInt] = Field(
        description="[col, row]: column 0-11 from the left, row 0-7 from the top"
    )


class Ishido(Game[Board, Move]):
    name: ClassVar[str] = "ishido"
    title: ClassVar[str] = "Ishido"
    move_model: ClassVar[type[BaseModel]] = PlaceModel
    parameters: ClassVar[tuple[Param, ...]] = (
        Param("rules", "Rules", "choice", "seed", choices=("seed", "classic"),
              help="Simple: any match, 1, 2, 4, 8 points; Classic 1990: the 1990 game's "
              "pairing, 4-way bonuses and end bonus",
              choice_labels={"seed": "Simple", "classic": "Classic 1990"}),
    )
    # The values ("seed": the Racket article's rules) are in ids and saves: only labels change.
    presets: ClassVar[dict[str, Params]] = {"seed": {"rules": "seed"},
                                           "classic": {"rules": "classic"}}
    preset_labels: ClassVar[Mapping[str, str]] = {"seed": "Simple", "classic": "Classic 1990"}

    def deal(self, params: Params, rng: random.Random) -> Board:
        pouch = deal_pouch(rng)
        cells: list[Tile | None] = [None] * (COLS * ROWS)
        for (col, row), tile in zip(OPENING_CELLS, pouch, strict=False):
            cells[row * COLS + col] = tile
        return Board(rules=str(params["rules"]), cells=tuple(cells), pouch=pouch[6:])

    def to_move(self, state: Board) -> int | None:
        return 0 if self.status(state) is Status.PLAYING else None

    def legal_moves(self, state: Board) -> Sequence[Move]:
        if state.next_tile is None:
            return ()
        return tuple((cell % COLS, cell // COLS) for cell in valid_cells(state))

    def apply(self, state: Board, move: Move) -> Board:
        col, row = move
        tile = state.next_tile
        if tile is None or not valid_cells(state):
            raise IllegalMove("the game is over")
        if not (0 <= col < COLS and 0 <= row < ROWS):
            raise IllegalMove(f"cell [{col}, {row}] is off the board (12 columns, 8 rows)")
        cell = row * COLS + col
        if state.cells[cell] is not None:
            raise IllegalMove(f"column {col + 1}, row {row + 1} is taken")
        neighbours = fits(state.cells, cell, tile, state.rules)
        if not neighbours:
            raise why_it_does_not_fit(state.cells, cell, tile, state.rules)
        return self._placed(state, cell, tile, neighbours)

    def _placed(self, state: Board, cell: Cell, tile: Tile, neighbours: int) -> Board:
        cells = list(state.cells)
        cells[cell] = tile
        points = placement_score(state, cell, neighbours)
        four_ways = state.four_ways
        if neighbours == 4:
            if state.rules == "classic":
                points += FOUR_WAY_BONUS[min(four_ways, len(FOUR_WAY_BONUS) - 1)]
            four_ways += 1
        last = Placement(cell, points, neighbours == 4)
        after = Board(state.rules, tuple(cells), state.pouch[1:], state.score + points,
                      four_ways, last)
        if bonus := self.end_bonus(after):
            after = replace(after, score=after.score + bonus)
        return after

    def end_bonus(self, state: Board) -> int:
        """The classic rules' bonus for the tiles left when the game ends (0 while it
        goes on, and under the seed's rules), which the score includes."""
        if state.rules != "classic" or self.status(state) is Status.PLAYING:
            return 0
        return END_BONUS.get(len(state.pouch), 0)

    hidden_seen: ClassVar[str] = "the next tile"

    def undo_rule(self, before: Board, move: Move, after: Board) -> UndoRule:
        """Taking back a tile is allowed, but it is help: the tile after it was shown,
        and the player now knows which comes next."""
        return UndoRule.ASSISTED if after.pouch else UndoRule.ALLOWED

    def status(self, state: Board) -> Status:
        if state.next_tile is None:
            return Status.WON
        return Status.PLAYING if valid_cells(state) else Status.LOST

    def scores(self, state: Board) -> tuple[int, ...]:
        return (state.score,)

    def sound(self, before: Board, move: Move, after: Board) -> str:
        return "bell" if after.four_ways > before.four_ways else "place"

    def figures(self, state: Board, elapsed_ms: int, moves: int) -> dict[str, float]:
        """The tiles on the board (the six it starts with too) and the 4-ways; with an end
        bonus, the score's two parts, as the 1990 game's end itemises it (1102: 102 for the
        tiles, 1000 for the end)."""
        figures: dict[str, float] = {"tiles placed": state.placed, "4-ways": state.four_ways}
        if bonus := self.end_bonus(state):
            figures |= {"tile points": state.score - bonus, "end bonus": bonus}
        return figures

    # -- what the player sees ---------------------------------------------------
    def observe(self, state: Board, seat: int | None) -> JSON:
        """The board, the next tile and the pouch's size, never its order."""
        return {
            "rules": state.rules,
            "cells": list(state.cells),
            "next": state.next_tile,
            "left": len(state.pouch),
            "score": state.score,
            "four_ways": state.four_ways,
            "placed": state.placed,
            "last": None if state.last is None else {
                "cell": state.last.cell, "points": state.last.points,
                "four_way": state.last.four_way},
            "status": self.status(state).value,
            # not secret (anyone can work it out), shown only with the assist switch on
            "valid": {str(cell): placement_score(state, cell, n)
                      for cell, n in valid_cells(state).items()},
        }

    def text(self, observation: JSON) -> str:
        lines = [
            "".join(_tile_text(observation["cells"][row * COLS + col]) for col in range(COLS))
            for row in range(ROWS)
        ]
        following = observation["next"]
        lines.append(f"next: {_tile_text(following) if following is not None else 'none'}")
        return "\n".join(lines)

    def headline(self, observation: JSON) -> str:
        # the seed's words, and for a loss the reason; a win as someone watching reads it
        return {"won": "Game Over. Every tile placed", "lost": "Game Over. No cell fits"}.get(
            observation["status"], "Ishido"
        )

    def headline_for(self, observation: JSON, seats: Collection[int]) -> str:
        """The seed's "Game Over. You Win!" to the player; the plain words to someone
        watching."""
        if seats and observation["status"] == "won":
            return "Game Over. You Win!"
        return self.headline(observation)

    def move_from_model(self, model: PlaceModel) -> Move:
        return model.place

    def move_to_json(self, move: Move) -> JSON:
        return {"place": list(move)}


def _tile_text(tile: Tile | None) -> str:
    return ".." if tile is None else f"{'abcdef'[colour(tile)]}{glyph(tile) + 1}"
