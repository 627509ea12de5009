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


def classes(*names: str | None) -> str:
    return " ".join(name for name in names if name)
