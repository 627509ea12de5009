"""Send a viewer only the parts of the board markup that changed since its last view.

A 16x30 Minesweeper board is ~500 elements and ~100 KB of markup, and most moves change
a handful of cells; parsing and comparing the whole board in the browser on every move
costs more than a frame. Views therefore put each element that changes on its own
(a cell, a tile) on a line of its own, and the markup's other lines are the structure
around them. Between two renders of the same structure, a changed line is one of:

- a whole element with an id: `<div id="c1" ...>...</div>`, which replaces that element;
- a lone opening tag with an id: `<div id="grid" class="lost">`, whose attributes replace
  that element's attributes (its children are lines of their own).

Anything else (lines added or removed, a changed line that is neither) means the whole
markup is sent again, as it is when more than half of the lines changed.
"""

from __future__ import annotations

import re

_OPENING = re.compile(r'<([a-zA-Z][\w:-]*)(?=[\s>])[^<>]*?\sid="([^"<>]+)"[^<>]*>')


def changed_parts(old: str, new: str) -> list[str] | None:
    """The lines that turn `old` into `new`, each an element or opening tag with an id;
    None when `new` must be sent whole."""
    if old == new:
        return []
    before, after = old.split("\n"), new.split("\n")
    if len(before) != len(after):
        return None
    parts: list[str] = []
    for was, line in zip(before, after, strict=True):
        if was == line:
            continue
        key = part_key(line)
        if key is None or key != part_key(was) or 2 * len(parts) >= len(after):
            return None
        parts.append(line)
    return parts


def part_key(line: str) -> tuple[str, str] | None:
    """(tag, id) of a line that is one whole element or one opening tag, else None."""
    opening = _OPENING.match(line)
    if opening is None:
        return None
    tag, element_id = opening.groups()
    if opening.end() == len(line) or _closes_at_end(line, tag):
        return tag.lower(), element_id
    return None


def _closes_at_end(line: str, tag: str) -> bool:
    """Whether the element opened at the start of `line` is closed by its last characters
    and not before, counting nested elements of the same tag."""
    closing = f"</{tag}>"
    if not line.endswith(closing):
        return False
    depth = 0
    for match in re.finditer(rf"<(/?){re.escape(tag)}(?=[\s>/])", line):
        depth += -1 if match.group(1) else 1
        if depth == 0:
            return match.start() == len(line) - len(closing)
    return False
