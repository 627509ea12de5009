"""Tribolo as HTML: a line for the last move and passes, and the 16×11 grid, one cell per
line (a move sends only the cells it changed); and each move as the move list reads it.

Every player's cells have a colour from the theme (`--seat-N`) and a shape of their own
(Blue round, Red square, Green a diamond), so the board reads without colours too. The
players' names, scores and which is you are the page's seat chips, above the board: they
are not repeated here. The last move's cell pops in and the cells it turned flip, one
ring after another; the classes alternate with the move's parity so that a cell turned
twice in a row flips again. Each player's last cell wears a small corner in their colour.

The cells where the player to move may play are marked on their own board, as Othello
apps do: where the rules let you play is not help. Assist (A) adds on each of
them how many cells it would turn, for whoever is to move: that is help, and counts.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from parlour.core.game import JSON, MoveNote, RenderContext, counted
from parlour.core.markup import attr, classes, grid_rows, lines, move_attr
from parlour.games.tribolo import rules
from parlour.games.tribolo.logic import EMPTY, MARKS, SEAT_NAMES, WALL, Position
from parlour.games.tribolo.rules import COLUMNS, HEIGHT, WIDTH, cell_name

SHAPES = ("round", "square", "diamond")


def render(observation: JSON, ctx: RenderContext) -> str:
    rows: list[str] = observation["rows"]
    mover = observation["to_move"]
    parity = sum(observation["moves"]) % 2
    last = observation["last"]
    placed = tuple(last["cell"]) if last else None
    turned = {tuple(cell) for cell in last["turned"]} if last else set()
    # your turn: where you may play; help: what each turns, on your turn (the computers'
    # options flashing by on theirs read as your own in other colours), or to a watcher
    shown = ctx.can_move or (ctx.assist and ctx.seat is None)
    legal = {tuple(cell) for cell in observation["legal"]} if shown else set()
    gains = _gains(rows, mover, legal) if ctx.assist else {}
    lasts = {tuple(cell): seat for seat, cell in enumerate(observation["lasts"]) if cell}
    hint = tuple(ctx.hint["cell"]) if ctx.hint else None
    # Enter's cell: the first you may play (none for another's turn, the assist's cells)
    start = min(legal, key=lambda cell: (cell[1], cell[0]), default=None) if ctx.can_move \
        else None
    cells = (
        _cell(x, y, rows[y][x], _change(x, y, placed, turned), parity,
              (x, y) in legal, (x, y) == hint, lasts.get((x, y)), gains.get((x, y)),
              (x, y) == start, ctx.can_move and (x, y) in legal)
        for y in range(HEIGHT)
        for x in range(WIDTH)
    )
    over = "over" if observation["over"] else None
    mover_name = SEAT_NAMES[mover] if mover is not None else "nobody"
    grid_label = attr(f"Tribolo board, {WIDTH} columns by {HEIGHT} rows, {mover_name} to play")
    return lines([
        f'<div class="tb" id="tb" data-mover="{"" if mover is None else mover}">',
        _note(observation, parity),
        '<div class="tb-board">',
        COORDINATES,
        f'<div class="{classes("tb-grid board-rows sideways-on-phone", over)}" id="tb-grid" '
        f'role="grid" aria-label="{grid_label}" '
        f'aria-disabled="{str(not ctx.can_move).lower()}">',
        *grid_rows(cells, WIDTH, boxed=True),
        "</div></div></div>",
    ])


# The names the move list and the notes give cells ("k3"): the columns' letters along the
# top, the rows' numbers down the side (swapped over on a phone, where the board stands
# on its side). The cells' own labels name them so too, for a screen reader.
COORDINATES = (
    '<div class="tb-files" aria-hidden="true">'
    + "".join(f"<span>{letter}</span>" for letter in COLUMNS[:WIDTH]) + "</div>"
    '<div class="tb-ranks" aria-hidden="true">'
    + "".join(f"<span>{row + 1}</span>" for row in range(HEIGHT)) + "</div>"
)


def _gains(rows: list[str], mover: int | None, legal: set[tuple[int, ...]]
           ) -> dict[tuple[int, ...], int]:
    """How many cells each legal cell would turn for the player to move."""
    if mover is None or not legal:
        return {}
    board = rules.board_from_rows(rows)
    return {cell: rules.captures(board, mover, rules.cell_at(*cell)).bit_count()
            for cell in legal}


def _change(x: int, y: int, placed: tuple[int, ...] | None,
            turned: set[tuple[int, ...]]) -> int | None:
    """0 for the cell just played, the distance from it for a cell it turned, else None."""
    if placed is None:
        return None
    if (x, y) == placed:
        return 0
    if (x, y) in turned:
        return max(abs(x - placed[0]), abs(y - placed[1]))
    return None


@lru_cache(maxsize=8192)  # a cell's markup depends on these alone; most stay the same
def _cell(x: int, y: int, mark: str, change: int | None, parity: int, legal: bool,
          hinted: bool, last_of: int | None = None, gain: int | None = None,
          start: bool = False, playable: bool = False) -> str:
    if mark == WALL:
        kind, label = "wall", "wall"
    elif mark == EMPTY:
        kind, label = "vacant", "empty"  # not "empty": the platform styles .empty (a notice)
    else:
        seat = MARKS.index(mark)
        kind, label = f"p{seat} {SHAPES[seat]}", SEAT_NAMES[seat]
    moved = None
    if change is not None:
        moved = f"placed pop{parity}" if change == 0 else f"turned flip{parity}"
    css = classes("tb-cell", kind, moved, "legal" if legal else None, "hint" if hinted else None,
                  None if last_of is None else f"last-of last-p{last_of}")
    if change == 0:
        label += ", just played"
    elif change is not None:
        label += ", just turned"
    if last_of is not None:
        label += f", {SEAT_NAMES[last_of]}'s last move"
    if legal:
        label += ", you may play here" if gain is None else f", turns {gain}"
    actions = move_attr("data-move", {"cell": [x, y]}) if mark == EMPTY else ""
    if playable:  # yours to play now: the keyboard's cursor comes here when your turn does
        actions += " data-playable"
    if start:
        actions += " data-start"
    delay = f' style="--ring:{change}"' if change else ""
    inner = '<span class="disc"></span>' if kind not in ("wall", "vacant") else ""
    if gain is not None:
        inner += f'<span class="gain" aria-hidden="true">{gain}</span>'
    return (
        f'<div id="tb-{x}-{y}" class="{css}" data-nav tabindex="-1" role="gridcell" '
        f'aria-label="{attr(f"{cell_name(x, y)}: {label}")}"{actions}{delay}>'
        f"{inner}</div>"
    )


def _note(observation: JSON, parity: int) -> str:
    """The moves made since the player to move last played (both computers' between two of
    yours: the first went by in half a second), and who passed after them; before the
    first move, who plays first (drawn at random, rule 6, or passed on by a rematch)."""
    parts = []
    if observation["last"] is None and observation["to_move"] is not None \
            and not any(observation["moves"]):
        parts.append(f"{SEAT_NAMES[observation['to_move']]} plays first.")
    parts.extend(_moves_said(observation["since"]))
    out = set(observation["out"])
    passed = [SEAT_NAMES[seat] for seat in observation["passed"] if seat not in out]
    gone = [SEAT_NAMES[seat] for seat in observation["passed"] if seat in out]
    if observation["passed"] and not observation["over"]:
        again = SEAT_NAMES[observation["to_move"]]
        tail = f"{again} plays again." if len(observation["passed"]) == 2 else f"{again} to play."
        if gone:  # (they can never move again: not "passes" at every turn)
            has = "has" if len(gone) == 1 else "have"
            parts.append(f"{' and '.join(gone)} {has} no cells left and "
                         f"{'is' if len(gone) == 1 else 'are'} out{'.' if passed else f': {tail}'}")
        if passed:
            who = " and ".join(passed)
            parts.append(f"{who} cannot move and pass{'es' if len(passed) == 1 else ''}: {tail}")
    if observation["over"]:
        parts.append("Nobody can move: the game is over.")
    css = classes("tb-note", f"news{parity}" if passed else None)
    return f'<p id="tb-note" class="{css}" role="status">{" ".join(parts) or "&nbsp;"}</p>'


def _moves_said(moves: list[JSON]) -> list[str]:
    """One move: "Green played i11 and turned 1 cell." Two, short enough for a phone's two
    lines with a pass after them: "Red played i4 (2 turned), then Green i11 (1 turned)."."""
    if not moves:
        return []
    names = [(SEAT_NAMES[move["player"]], cell_name(*move["cell"]), move["turned"])
             for move in moves]
    if len(names) == 1:
        (who, where, turned), = names
        return [f"{who} played {where} and turned {counted(turned, 'cell')}."]
    (who, where, turned), (then, there, then_turned) = names
    return [f"{who} played {where} ({turned} turned), then {then} {there} "
            f"({then_turned} turned)."]


def describe_move(before: Position, move: Any, after: Position) -> MoveNote:
    """"d5, turned 3", and the seats that pass after it (the move list's words)."""
    x, y = move
    turned = after.last.turned.bit_count() if after.last else 0
    return MoveNote(f"{cell_name(x, y)}, turned {turned}", after.passed)


THUMBNAIL = (
    '<svg viewBox="0 0 120 120" aria-hidden="true">'
    '<rect x="6" y="14" width="108" height="92" rx="8" fill="var(--surface-2)"/>'
    + "".join(
        f'<rect x="{12 + 20 * x}" y="{20 + 20 * y}" width="16" height="16" rx="3" '
        f'fill="var(--line)" opacity=".35"/>'
        for x in range(5) for y in range(4)
    )
    + '<circle cx="40" cy="48" r="8" fill="var(--seat-0)"/>'
    '<circle cx="60" cy="48" r="8" fill="var(--seat-0)"/>'
    '<rect x="73" y="41" width="14" height="14" rx="2" fill="var(--seat-1)"/>'
    '<rect x="53" y="61" width="14" height="14" rx="2" fill="var(--seat-1)"/>'
    '<path d="M40 60l9 8-9 8-9-8z" fill="var(--seat-2)"/>'
    '<path d="M80 60l9 8-9 8-9-8z" fill="var(--seat-2)"/>'
    '<path d="M20 80l9 8-9 8-9-8z" fill="var(--seat-2)"/>'
    '<rect x="92" y="81" width="16" height="16" rx="3" fill="var(--text)" opacity=".7"/>'
    "</svg>"
)
