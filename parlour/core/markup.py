"""Helpers for renderers: escaping, and user actions declared as data attributes.

The browser client is generic; it only knows these attributes:

- `data-move`      JSON move sent on click, tap or Enter;
- `data-alt-move`  JSON move sent on right click, long press or Space;
- `data-key`       a key that triggers the element's `data-move` from anywhere;
- `data-nav`       the element joins the keyboard cursor grid (arrow keys move it);
- `data-drag`      the element can be dragged onto elements that have `data-drop`;
- `data-drop`      JSON move sent when a dragged element is dropped here (empty: the
                   dragged element's own `data-move`, for a pile any of several cards fits);
- `aria-disabled="true"`  no moves are sent from inside this element.

Markup that puts each element that changes on its own (a cell, a tile) on a line of its
own, with an id, is sent to the browser as just the lines that changed: see
`parlour/server/patch.py`. `lines` joins such elements.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from html import escape

from parlour.core.game import JSON


def attr(value: object) -> str:
    """A value escaped for a double-quoted attribute."""
    return escape(str(value), quote=True)


def move_attr(name: str, move: JSON) -> str:
    """` data-move="{...}"`: the attribute that makes an element send `move`."""
    return f' {name}="{attr(json.dumps(move, separators=(",", ":")))}"'


def lines(elements: Iterable[str]) -> str:
    """Elements joined one per line, so that each can be sent alone when it changes."""
    return "\n".join(elements)


def grid_rows(cells: Iterable[str], per_row: int, svg: bool = False,
              boxed: bool = False) -> list[str]:
    """Cells in reading order, each on a line of its own, wrapped `per_row` at a time in
    `role="row"` elements (tags on lines of their own too): the ARIA grid pattern, where a
    `role="grid"` holds rows and rows hold the `role="gridcell"` cells, which screen
    readers walk by row and column. An HTML row is `display: contents`, so the board's
    own CSS grid lays the cells out as if the rows were not there. `boxed`: each row is a
    `board-row` box instead, laid out and painted on its own (app.css: the board is a
    `board-rows` element that sets `--row-cells`, `--cell` and `--cell-gap`)."""
    if svg:
        opening, closing = '<g role="row">', "</g>"
    elif boxed:
        opening, closing = '<div role="row" class="board-row">', "</div>"
    else:
        opening, closing = '<div role="row" style="display: contents">', "</div>"
    wrapped: list[str] = []
    for index, cell in enumerate(cells):
        if index % per_row == 0:
            wrapped += [closing, opening] if wrapped else [opening]
        wrapped.append(cell)
    return [*wrapped, closing] if wrapped else []


def classes(*names: str | None) -> str:
    return " ".join(name for name in names if name)
