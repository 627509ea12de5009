"""Tic-Tac-Toe board as SVG: cells carry their moves, marks animate in with CSS. Each cell
is a line of its own, so a move sends the browser only the cells it changed."""

from __future__ import annotations

import functools

from parlour.core.game import JSON, MoveNote, RenderContext
from parlour.core.markup import attr, classes, grid_rows, lines, move_attr
from parlour.games.tictactoe.logic import (
    SEAT_NAMES,
    SIZE,
    Cell,
    Turn,
    square_name,
    taken,
    winner,
)

CELL = 100
PAD = 14


def describe_move(before: Turn, move: Cell, after: Turn) -> MoveNote:
    """The move list's words for a move: the square, as players name it, and a win."""
    square = square_name(move)
    return MoveNote(f"{square}, wins" if winner(after) is not None else square)


def render(observation: JSON, ctx: RenderContext) -> str:
    owners = observation["owners"]
    hint = tuple(ctx.hint["cell"]) if ctx.hint else None
    won = {tuple(cell) for cell in observation["line"] or ()}
    start = _start(owners) if ctx.can_move else None
    cells = grid_rows(
        (_cell(x, y, owners[y][x], ctx.can_move, hint == (x, y), (x, y) in won, start == (x, y))
         for y in range(SIZE) for x in range(SIZE)),
        SIZE, svg=True,
    )
    grid = "".join(
        f'<line class="grid" x1="{i * CELL}" y1="6" x2="{i * CELL}" y2="{SIZE * CELL - 6}"/>'
        f'<line class="grid" x1="6" y1="{i * CELL}" x2="{SIZE * CELL - 6}" y2="{i * CELL}"/>'
        for i in range(1, SIZE)
    )
    size = SIZE * CELL
    label = attr(f"Tic Tac Toe board, {SEAT_NAMES[observation['player']]} to play")
    over = ' aria-disabled="true"' if observation["over"] else ""  # a key's "why" then says nothing
    return lines([
        f'<svg class="ttt-board" id="ttt-board" viewBox="0 0 {size} {size}" '
        f'role="grid" aria-label="{label}"{over}>',
        grid, *cells, *_win_line(observation["line"]), "</svg>",
    ])


def _start(owners: list[list[int | None]]) -> Cell | None:
    """Where the keyboard's cursor comes onto the board: the free cell nearest the centre,
    one step from any other (the first free one in reading order was a corner)."""
    free = [(x, y) for y in range(SIZE) for x in range(SIZE) if owners[y][x] is None]
    return min(free, key=lambda cell: abs(cell[0] - 1) + abs(cell[1] - 1), default=None)


@functools.lru_cache(maxsize=512)  # some 130 kinds of cell in all: each is made once
def _cell(x: int, y: int, owner: int | None, can_move: bool, hinted: bool, won: bool,
          start: bool) -> str:
    playable = can_move and owner is None
    actions = move_attr("data-move", {"cell": [x, y]}) + " data-playable" if playable else ""
    if start:
        actions += " data-start"
    if owner is not None:  # its number key, pressed in play, says why it plays nothing
        actions += f' data-why="{attr(taken((x, y)).capitalize())}"'
    name = "empty" if owner is None else SEAT_NAMES[owner]
    key = y * SIZE + x + 1
    css = classes("cell", "playable" if playable else None, "hint" if hinted else None)
    return (
        f'<g id="ttt-{x}-{y}" class="{css}" data-nav tabindex="-1" data-key="{key}"{actions} '
        f'role="gridcell" aria-label="{attr(f"column {x + 1}, row {y + 1}: {name}")}">'
        f'<rect x="{x * CELL + 4}" y="{y * CELL + 4}" width="{CELL - 8}" height="{CELL - 8}" '
        f'rx="10"/>{_mark(x, y, owner, won)}</g>'
    )


def _mark(x: int, y: int, owner: int | None, won: bool) -> str:
    left, top = x * CELL + PAD + 8, y * CELL + PAD + 8
    right, bottom = (x + 1) * CELL - PAD - 8, (y + 1) * CELL - PAD - 8
    cause = " data-end-cause" if won else ""  # the winning marks: the end card keeps clear
    if owner == 0:
        return (
            f'<path id="ttt-m-{x}-{y}" class="mark cross" pathLength="1"{cause} '
            f'd="M{left} {top}L{right} {bottom}M{right} {top}L{left} {bottom}"/>'
        )
    if owner == 1:
        cx, cy, r = x * CELL + CELL / 2, y * CELL + CELL / 2, CELL / 2 - PAD - 8
        return (
            f'<circle id="ttt-m-{x}-{y}" class="mark circle" pathLength="1"{cause} '
            f'cx="{cx}" cy="{cy}" r="{r}"/>'
        )
    return ""


def _win_line(line: list[list[int]] | None) -> list[str]:
    if not line:
        return []
    (x1, y1), (x2, y2) = line[0], line[-1]
    half = CELL / 2
    ends = (f'x1="{x1 * CELL + half}" y1="{y1 * CELL + half}" '
            f'x2="{x2 * CELL + half}" y2="{y2 * CELL + half}"')
    # opaque, on top of the marks, with a casing of the board's colour: no muddy overlap
    return [
        f'<line id="ttt-win-casing" class="win-casing" pathLength="1" {ends}/>',
        # data-end-cause: the end card keeps clear of it where it can
        f'<line id="ttt-win" class="win-line" pathLength="1" data-end-cause {ends}/>',
    ]


THUMBNAIL = (
    '<svg viewBox="0 0 120 120" aria-hidden="true">'
    '<g stroke="currentColor" stroke-width="5" stroke-linecap="round" opacity=".45" fill="none">'
    '<path d="M43 12V108M77 12V108M12 43H108M12 77H108"/></g>'
    '<g fill="none" stroke-width="9" stroke-linecap="round">'
    '<path stroke="var(--seat-0)" d="M17 17L36 36M36 17L17 36M51 51L70 70M70 51L51 70"/>'
    '<circle stroke="var(--seat-1)" cx="94" cy="27" r="11"/>'
    '<circle stroke="var(--seat-1)" cx="27" cy="94" r="11"/>'
    '<path stroke="var(--seat-0)" d="M85 85L104 104M104 85L85 104"/></g></svg>'
)
