"""Minesweeper rules (seed 004) with chording, first-click options and no-guess boards.

Cells are numbered row by row (`row * cols + col`). The mines are laid at the deal; the
first click then makes the board fit the `first_click` option: `opening` (the default,
as in every modern Minesweeper) clears the clicked cell and its neighbours, so that it
opens an area; `safe` moves a mine that was hit elsewhere (the seed's rule, the default
of deal version 1: its ids keep it); `no_guess` lays a board the solver proves can be
cleared by logic alone.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, model_validator

from parlour.core.game import (
    JSON,
    BadParams,
    Game,
    IgnoredMove,
    IllegalMove,
    Param,
    Params,
    Status,
    UndoRule,
    counted,
)
from parlour.games.minesweeper.grid import Cell, counts_of, neighbours
from parlour.games.minesweeper.noguess import no_guess_layout

HIDDEN, FLAG, QUESTION, OPEN = 0, 1, 2, 3
NEXT_MARK = {HIDDEN: FLAG, FLAG: QUESTION, QUESTION: HIDDEN}

Action = Literal["open", "mark", "unmark", "chord"]
Move = tuple[Action, int, int]  # (action, row, col)

PRESETS: dict[str, Params] = {
    "easy": {"rows": 7, "cols": 7, "mines": 10},
    "medium": {"rows": 15, "cols": 15, "mines": 40},
    "hard": {"rows": 15, "cols": 30, "mines": 99},
    "beginner": {"rows": 9, "cols": 9, "mines": 10},
    "intermediate": {"rows": 16, "cols": 16, "mines": 40},
    "expert": {"rows": 16, "cols": 30, "mines": 99},
}

FIRST_CLICK = Param(
    "first_click", "First click", "choice", "opening",
    choices=("opening", "safe", "no_guess"),
    help="Opens an area: the cell you click and its neighbours hold no mine. Safe: only "
    "the cell you click is sure to hold none (the original rule). No guess: a board you "
    "can clear by logic alone",
    choice_labels={"opening": "Opens an area", "safe": "Safe: never a mine (original)",
                   "no_guess": "No guess: logic alone"},
)
RULE_WORDS = {"opening": "", "safe": "safe first click", "no_guess": "no guess"}
"""How a board's name goes on when its first click is not the default: "Medium, no guess"."""


@dataclass(frozen=True)
class Minefield:
    rows: int
    cols: int
    mines: int
    first_click: str
    mined: frozenset[Cell]
    counts: tuple[int, ...]
    marks: tuple[int, ...]  # HIDDEN, FLAG, QUESTION or OPEN per cell
    first_seed: int  # draws what the first click rearranges
    started: bool = False
    exploded: Cell | None = None
    clicks: int = 0
    opened: int = 0  # open cells, kept so that asking "won?" costs nothing

    @property
    def size(self) -> int:
        return self.rows * self.cols

    def cell(self, row: int, col: int) -> Cell:
        return row * self.cols + col

    def won(self) -> bool:
        return self.exploded is None and self.opened == self.size - self.mines

    def over(self) -> bool:
        return self.exploded is not None or self.won()

    def flags(self) -> int:
        return sum(mark == FLAG for mark in self.marks)


Where = tuple[StrictInt, StrictInt]


class MoveModel(BaseModel):
    model_config = ConfigDict(extra="forbid")
    open: Where | None = Field(None, description="[row, col] to open")
    mark: Where | None = Field(None, description="[row, col] to mark: flag, ?, none")
    unmark: Where | None = Field(None, description="[row, col] of a flag or ? to clear")
    chord: Where | None = Field(None, description="[row, col] of an open number to chord")

    @model_validator(mode="after")
    def one_action(self) -> MoveModel:
        actions = (self.open, self.mark, self.unmark, self.chord)
        if sum(value is not None for value in actions) != 1:
            raise ValueError("a move is exactly one of open, mark, unmark or chord")
        return self


class Minesweeper(Game[Minefield, Move]):
    name: ClassVar[str] = "minesweeper"
    title: ClassVar[str] = "Minesweeper"
    move_model: ClassVar[type[BaseModel]] = MoveModel
    parameters: ClassVar[tuple[Param, ...]] = (
        Param("rows", "Rows", "int", 7, minimum=2, maximum=40),
        Param("cols", "Columns", "int", 7, minimum=2, maximum=60),
        Param("mines", "Mines", "int", 10, minimum=1, maximum=2000),
        FIRST_CLICK,
    )
    presets: ClassVar[dict[str, Params]] = PRESETS
    deal_version: ClassVar[int] = 2
    """Version 2: the first click opens an area by default. The deal itself is the same."""
    old_defaults: ClassVar[dict[int, Params]] = {1: {"first_click": "safe"}}
    position_help: ClassVar[str] = (
        "the mine layout: the cells row by row as bits (1: a mine), written in hex, "
        "e.g. minesweeper:rows=2,cols=4,mines=3:e0 (a given layout is played as laid: "
        "the first click may find a mine)"
    )

    def check_params(self, params: Params) -> None:
        rows, cols, mines = int(params["rows"]), int(params["cols"]), int(params["mines"])
        first_area = 1 if params["first_click"] == "safe" else 9
        most = rows * cols - min(first_area, rows * cols) - 1
        if mines > most:
            kept = "" if first_area == 1 else " (the first click keeps up to nine cells clear)"
            room = f"at most {most}" if most > 0 else "choose a safe first click or a larger board"
            fit = "does not fit" if mines == 1 else "do not fit"
            raise BadParams(f"{counted(mines, 'mine')} {fit} a {rows}×{cols} board{kept}: {room}")

    def preset_of(self, params: Params) -> str | None:
        """The board's name: a preset is a board, whatever the first click's rule (a
        no-guess Medium is a Medium); an id writes the rule after it when it differs."""
        board = {name: params.get(name) for name in ("rows", "cols", "mines")}
        return next((name for name, values in PRESETS.items() if values == board), None)

    def stat_group(self, params: Params) -> str:
        """The board, and the first click's rule where it is not the default: "medium",
        "medium, no guess", "custom, safe first click"."""
        return ", ".join([self.preset_of(params) or "custom", *self._rule_words(params)])

    def summary(self, params: Params) -> str:
        """E.g. "Expert 16×30", "Custom 10×12, 20 mines", "Easy 7×7, no guess"."""
        preset = self.preset_of(params)
        size = f"{params['rows']}×{params['cols']}"
        words = [f"{self.preset_label(preset)} {size}" if preset else
                 f"Custom {size}, {counted(int(params['mines']), 'mine')}"]
        return ", ".join([*words, *self._rule_words(params)])

    def _rule_words(self, params: Params) -> list[str]:
        words = RULE_WORDS[str(params["first_click"])]
        return [words] if words else []

    # -- the rules ----------------------------------------------------------------
    def deal(self, params: Params, rng: random.Random) -> Minefield:
        rows, cols, mines = int(params["rows"]), int(params["cols"]), int(params["mines"])
        mined = frozenset(rng.sample(range(rows * cols), mines))
        return Minefield(
            rows=rows,
            cols=cols,
            mines=mines,
            first_click=str(params["first_click"]),
            mined=mined,
            counts=counts_of(rows, cols, mined),
            marks=(HIDDEN,) * (rows * cols),
            first_seed=rng.getrandbits(64),
        )

    def parse_position(self, params: Params, text: str) -> Minefield:
        rows, cols, mines = int(params["rows"]), int(params["cols"]), int(params["mines"])
        size = rows * cols
        digits = (size + 3) // 4
        if len(text) != digits or any(c not in "0123456789abcdefABCDEF" for c in text):
            raise BadParams(
                f"a {rows}x{cols} mine layout is {digits} hex digits ({size} cells as bits)"
            )
        bits = int(text, 16) >> (4 * digits - size)
        mined = frozenset(cell for cell in range(size) if bits >> (size - 1 - cell) & 1)
        if len(mined) != mines:
            raise BadParams(f"the layout has {len(mined)} mines, not {mines}")
        return Minefield(
            rows=rows, cols=cols, mines=mines, first_click=str(params["first_click"]),
            mined=mined, counts=counts_of(rows, cols, mined), marks=(HIDDEN,) * size,
            first_seed=0, started=True,  # laid by the player: no first-click rule moves it
        )

    def to_move(self, state: Minefield) -> int | None:
        return None if state.over() else 0

    def legal_moves(self, state: Minefield) -> Sequence[Move]:
        if state.over():
            return ()
        moves: list[Move] = []
        for cell, mark in enumerate(state.marks):
            row, col = divmod(cell, state.cols)
            if mark != OPEN:
                moves.append(("mark", row, col))
                if mark != HIDDEN:
                    moves.append(("unmark", row, col))
                if mark != FLAG:
                    moves.append(("open", row, col))
            elif _chord_targets(state, cell):
                moves.append(("chord", row, col))
        return moves

    def apply(self, state: Minefield, move: Move) -> Minefield:
        action, row, col = move
        if state.over():
            raise IllegalMove("the game is over")
        if not (0 <= row < state.rows and 0 <= col < state.cols):
            raise IllegalMove(
                f"cell [{row}, {col}] is off the board ({state.rows} rows, {state.cols} columns)"
            )
        cell = state.cell(row, col)
        if action == "mark":
            return self._mark(state, cell)
        if action == "unmark":
            return self._unmark(state, cell)
        if action == "open":
            if state.marks[cell] == OPEN:
                raise IllegalMove(f"row {row + 1}, column {col + 1} is already open")
            if state.marks[cell] == FLAG:
                raise IllegalMove(
                    f"row {row + 1}, column {col + 1} is flagged: unflag it to open it"
                )
            if not state.started:
                state = _first_click(state, cell)
            return _open(state, [cell])
        if state.marks[cell] != OPEN or not state.counts[cell]:
            raise IllegalMove(
                f"row {row + 1}, column {col + 1} cannot be chorded: only an open number can"
            )
        targets = _chord_targets(state, cell)
        if not targets:  # fast players click finished numbers: nothing happens, as anywhere
            raise IgnoredMove(_why_no_chord(state, cell))
        return _open(state, targets)

    def _mark(self, state: Minefield, cell: Cell) -> Minefield:
        if state.marks[cell] == OPEN:
            raise IllegalMove("an open cell cannot be marked")
        marks = list(state.marks)
        marks[cell] = NEXT_MARK[marks[cell]]
        return replace(state, marks=tuple(marks), clicks=state.clicks + 1)

    def _unmark(self, state: Minefield, cell: Cell) -> Minefield:
        """Clear a flag or a question mark at once: the second action of a player who
        marks with flags alone (the Marks display option), where the seed's cycle would
        put a question mark between."""
        if state.marks[cell] not in (FLAG, QUESTION):
            raise IllegalMove("only a flag or a question mark can be cleared")
        marks = list(state.marks)
        marks[cell] = HIDDEN
        return replace(state, marks=tuple(marks), clicks=state.clicks + 1)

    def status(self, state: Minefield) -> Status:
        if state.exploded is not None:
            return Status.LOST
        return Status.WON if state.won() else Status.PLAYING

    def scores(self, state: Minefield) -> tuple[int, ...]:
        return (state.opened,)

    def slow_replay(self, params: Params, moves: int) -> bool:
        """A no-guess game's replay lays its board again (its first click); a new one,
        with no mines yet, is dealt at once (in 0.3 ms for Easy, 1.4 ms for Expert)."""
        return moves > 0 and params["first_click"] == "no_guess"

    def clock_started(self, state: Minefield) -> bool:
        """At the first cell opened: flags planted before it count no time."""
        return state.opened > 0

    def slow_move(self, state: Minefield, move: Move) -> bool:
        """The first click of a no-guess board lays the mines with the solver."""
        return move[0] == "open" and not state.started and state.first_click == "no_guess"

    hidden_seen: ClassVar[str] = "where a mine is"

    def undo_rule(self, before: Minefield, move: Move, after: Minefield) -> UndoRule:
        """Taking back the fatal click is allowed, as in Tatham's Mines, but it is help."""
        return UndoRule.ASSISTED if after.exploded is not None else UndoRule.ALLOWED

    def sound(self, before: Minefield, move: Move, after: Minefield) -> str:
        if move[0] in ("mark", "unmark"):
            return "flag"
        return "reveal" if after.opened - before.opened > 1 else "move"

    def figures(self, state: Minefield, elapsed_ms: int, moves: int) -> dict[str, float]:
        """The board's 3BV (the clicks it needs at least); for a win, the speed and the
        efficiency they make (a lost game's would not be comparable)."""
        bbbv = three_bv(state)
        if not state.won():
            return {"3BV": bbbv}
        seconds = max(elapsed_ms / 1000, 1.0)
        return {
            "3BV": bbbv,
            "3BV/s": round(bbbv / seconds, 3),
            "efficiency": round(bbbv / max(state.clicks, 1), 3),
        }

    # -- what the player sees ---------------------------------------------------
    def observe(self, state: Minefield, seat: int | None) -> JSON:
        over, won = state.over(), state.won()
        return {
            "rows": state.rows,
            "cols": state.cols,
            "mines": state.mines,
            "mines_left": 0 if won else state.mines - state.flags(),  # a win flags them all
            "cells": [
                "".join(
                    _symbol(state, row * state.cols + col, over, won)
                    for col in range(state.cols)
                )
                for row in range(state.rows)
            ],
            "status": self.status(state).value,
            "started": state.started,
            "first_click": state.first_click,
            "preset": self.preset_of({"rows": state.rows, "cols": state.cols,
                                      "mines": state.mines}),
        }

    def text(self, observation: JSON) -> str:
        return "\n".join(observation["cells"])

    def headline(self, observation: JSON) -> str:
        """Short enough for one line on a phone, in the voice every game's ends share:
        "Board cleared" ("You win! Board cleared" to its player), "Game over: <why>"."""
        status = observation["status"]
        if status == "won":
            return "Board cleared"
        if status == "lost":
            return "Game over: a mine"
        return self.board_name(observation)  # the board being played, e.g. "Medium, no guess"

    def headline_for(self, observation: JSON, seats: Collection[int]) -> str:
        """"You win!" to the player; the plain words to someone watching."""
        line = self.headline(observation)
        return f"You win! {line}" if seats and observation["status"] == "won" else line

    def board_name(self, observation: JSON) -> str:
        """"Medium", "Expert, no guess", "10×12, 20 mines, safe first click"."""
        preset = observation["preset"]
        size = f"{observation['rows']}×{observation['cols']}"
        name = (self.preset_label(preset) if preset else
                f"{size}, {counted(observation['mines'], 'mine')}")
        return ", ".join([name, *self._rule_words({"first_click": observation["first_click"]})])

    def move_from_model(self, model: MoveModel) -> Move:
        for action in ("open", "mark", "unmark", "chord"):
            target = getattr(model, action)
            if target is not None:
                return (action, target[0], target[1])
        raise IllegalMove("a move is exactly one of open, mark, unmark or chord")

    def move_to_json(self, move: Move) -> JSON:
        action, row, col = move
        return {action: [row, col]}


# Version 1 dealt as version 2 does: only the first click's default changed (`old_defaults`).
Minesweeper.old_deals = {1: Minesweeper().deal}


def _symbol(state: Minefield, cell: Cell, over: bool, won: bool) -> str:
    """One character of the text rendering; mines show only once the game is over: a
    win flags every one (as Windows' Minesweeper does), a loss shows them as mines."""
    mark = state.marks[cell]
    if over and cell in state.mined:
        if cell == state.exploded:
            return "X"
        return "F" if mark == FLAG or won else "*"
    if over and mark == FLAG:
        return "!"  # a flag on a cell without a mine
    if mark == OPEN:
        count = state.counts[cell]
        return str(count) if count else "."
    return {HIDDEN: "#", FLAG: "F", QUESTION: "?"}[mark]


def _chord_targets(state: Minefield, cell: Cell) -> list[Cell]:
    """The closed, unflagged cells a chord on `cell` opens (none if it may not chord)."""
    if state.marks[cell] != OPEN or not state.counts[cell]:
        return []
    around = neighbours(state.rows, state.cols)[cell]
    if sum(state.marks[n] == FLAG for n in around) != state.counts[cell]:
        return []
    return [n for n in around if state.marks[n] in (HIDDEN, QUESTION)]


def _why_no_chord(state: Minefield, cell: Cell) -> str:
    """Why the open number `cell` opens nothing when chorded, in a few neutral words."""
    row, col = divmod(cell, state.cols)
    around = neighbours(state.rows, state.cols)[cell]
    flags = sum(state.marks[n] == FLAG for n in around)
    if flags != state.counts[cell]:
        return (f"row {row + 1}, column {col + 1} has {counted(flags, 'flag')} around it, "
                f"not {state.counts[cell]}: nothing to chord")
    return f"row {row + 1}, column {col + 1} has no closed cell left around it: nothing to chord"


def _first_click(state: Minefield, cell: Cell) -> Minefield:
    rng = random.Random(state.first_seed)
    rows, cols = state.rows, state.cols
    if state.first_click == "no_guess":
        mined = no_guess_layout(rows, cols, state.mines, cell, rng)
    else:
        keep_clear = {cell}
        if state.first_click == "opening":
            keep_clear.update(neighbours(rows, cols)[cell])
        mined = _move_mines_away(state.mined, keep_clear, state.size, rng)
    return replace(state, mined=mined, counts=counts_of(rows, cols, mined), started=True)


def _move_mines_away(
    mined: frozenset[Cell], clear: set[Cell], size: int, rng: random.Random
) -> frozenset[Cell]:
    """Move each mine in `clear` to a random free cell outside it, as the seed does."""
    moving = sorted(mined & clear)
    if not moving:
        return mined
    free = [c for c in range(size) if c not in mined and c not in clear]
    return (mined - clear) | frozenset(rng.sample(free, len(moving)))


def _open(state: Minefield, cells: Iterable[Cell]) -> Minefield:
    """Open `cells`; zeros open their neighbours (flood fill); a mine ends the game."""
    marks = list(state.marks)
    around = neighbours(state.rows, state.cols)
    exploded = None
    opened = state.opened
    stack = list(cells)
    while stack:
        cell = stack.pop()
        if marks[cell] in (OPEN, FLAG):
            continue
        marks[cell] = OPEN
        opened += 1
        if cell in state.mined:
            exploded = cell if exploded is None else exploded
        elif state.counts[cell] == 0:
            stack.extend(n for n in around[cell] if marks[n] != OPEN)
    return replace(
        state, marks=tuple(marks), exploded=exploded, clicks=state.clicks + 1, opened=opened
    )


def three_bv(state: Minefield) -> int:
    """The board's 3BV: the fewest clicks that clear it (each opening counts once)."""
    around = neighbours(state.rows, state.cols)
    seen: set[Cell] = set()
    clicks = 0
    for cell in range(state.size):
        if cell in state.mined or cell in seen or state.counts[cell]:
            continue
        clicks += 1  # an opening, with its border of numbers
        stack = [cell]
        while stack:
            current = stack.pop()
            if current in seen:
                continue
            seen.add(current)
            if state.counts[current] == 0:
                stack.extend(n for n in around[current] if n not in seen)
    return clicks + sum(
        1 for cell in range(state.size) if cell not in state.mined and cell not in seen
    )
