"""Send a viewer only the parts of the board markup that changed since its last view.

A 16x30 Minesweeper board is ~500 elements and ~100 KB of markup, and most moves change
a handful of cells; parsing and comparing the whole board in the browser on every move
costs more than a frame. Views therefore put each element that changes on its own
(a cell, a tile, a card) on a line of its own, and the markup's other lines are the
structure around them. A line that is one whole element with an id is *keyed*; a run
of consecutive keyed lines is a run of siblings. Between two renders of the same
structure, a patch says:

- `parts`: the lines that changed, each a whole element with an id, which replaces the
  element with that id (or, when no element has it yet, is added to its run; an element
  may change its tag, as an empty cell that becomes a tile drawn in SVG), or a lone
  opening tag with an id (`<div id="grid" class="lost">`), whose attributes replace that
  element's (its children are lines of their own);
- `orders`: for each run whose ids changed (reordered, some added or gone), its new ids
  in order. Elements in SVG paint in document order, so a card moved to the top of a
  pile is moved to the end of its run;
- `gone`: the ids of the elements removed from their runs.

The lines that are not keyed must stay as they are (an opening tag may change its
attributes), each run must keep at least one of its ids, and a run whose ids change
must follow a line that ends with a tag, so that the browser moves each element with
the line break before it. Anything else, or more than half of the lines changed, means
the whole markup is sent again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

# Lines are classified on each view and most come back unchanged in the next one.
LINES_REMEMBERED = 8192

_OPENING = re.compile(r'<([a-zA-Z][\w:-]*)(?=[\s>])[^<>]*?\sid="([^"<>]+)"[^<>]*>')


@dataclass(frozen=True)
class Patch:
    """What turns the markup a viewer has into the new one (see the module docstring)."""

    parts: list[str] = field(default_factory=list)
    orders: list[list[str]] = field(default_factory=list)
    gone: list[str] = field(default_factory=list)


def board_patch(old: str, new: str) -> Patch | None:
    """The patch that turns `old` into `new`; None when `new` must be sent whole."""
    if old == new:
        return Patch()
    before, after = old.split("\n"), new.split("\n")
    if len(before) == len(after):
        parts = _parts_in_place(before, after)
        if parts is not None:
            return None if _too_many(len(parts), after) else Patch(parts)
    return _patch_by_id(old, before, after)


def changed_parts(old: str, new: str) -> list[str] | None:
    """The lines that turn `old` into `new` when no element moved, was added or went;
    None otherwise (the whole markup, or a patch with orders)."""
    patch = board_patch(old, new)
    if patch is None or patch.orders or patch.gone:
        return None
    return patch.parts


def _parts_in_place(before: list[str], after: list[str]) -> list[str] | None:
    """The changed lines when each is still the element (or tag) that was on that line,
    the common case and the cheapest to check; None when a line holds another one."""
    parts: list[str] = []
    for was, line in zip(before, after, strict=True):
        if was == line:
            continue
        if not _same_element(was, line):
            return None
        parts.append(line)
        if _too_many(len(parts), after):
            return parts  # the caller sends the whole markup
    return parts


def _same_element(was: str, line: str) -> bool:
    """Whether `line` is the element (or lone opening tag) of line `was`, changed, so that
    it can be sent as a part: the same id, and the same tag unless both are whole elements
    (one of a new tag replaces the old; an opening tag's children stay)."""
    key, was_key = part_key(line), part_key(was)
    if key is None or was_key is None or key[1] != was_key[1]:
        return False
    return key == was_key or (element_key(line) is not None and element_key(was) is not None)


def _too_many(changes: int, after: list[str]) -> bool:
    return 2 * changes > len(after) + 1


@dataclass
class _Run:
    """Consecutive keyed lines: their ids in order and each id's line."""

    first: int  # the index of its first line
    ids: list[str] = field(default_factory=list)
    lines: dict[str, str] = field(default_factory=dict)


def _layout(lines: list[str]) -> list[str | _Run] | None:
    """The lines as the structure's lines and runs; None if two elements share an id."""
    segments: list[str | _Run] = []
    seen: set[str] = set()
    for index, line in enumerate(lines):
        element_id = element_key(line)
        if element_id is None:
            segments.append(line)
            continue
        if element_id in seen:
            return None
        seen.add(element_id)
        run = segments[-1] if segments and isinstance(segments[-1], _Run) else None
        if run is None:
            run = _Run(index)
            segments.append(run)
        run.ids.append(element_id)
        run.lines[element_id] = line
    return segments


def _patch_by_id(old: str, before: list[str], after: list[str]) -> Patch | None:
    """The patch comparing elements by id, run by run; None if the structure changed."""
    was_layout, layout = _layout(before), _layout(after)
    if was_layout is None or layout is None or len(was_layout) != len(layout):
        return None
    patch = Patch()
    for was, now in zip(was_layout, layout, strict=True):
        if isinstance(was, str) and isinstance(now, str):
            if was != now:
                if not _same_element(was, now):
                    return None
                patch.parts.append(now)
        elif isinstance(was, _Run) and isinstance(now, _Run):
            if not _patch_run(old, before, was, now, patch):
                return None
        else:
            return None
        if _too_many(len(patch.parts) + len(patch.gone), after):
            return None
    return patch


def _patch_run(old: str, before: list[str], was: _Run, now: _Run, patch: Patch) -> bool:
    """Add to `patch` what turns run `was` into `now`; False if a patch cannot say it."""
    for element_id, line in now.lines.items():
        was_line = was.lines.get(element_id)
        if was_line == line:
            continue
        patch.parts.append(line)  # changed (maybe to another tag), or added
    if now.ids == was.ids:
        return True
    kept = [element_id for element_id in was.ids if element_id in now.lines]
    added = [element_id for element_id in now.ids if element_id not in was.lines]
    if (not kept or was.first == 0 or not before[was.first - 1].endswith(">")
            # an added id must be new to the page, so the browser finds no element with it
            or any(f'id="{element_id}"' in old for element_id in added)):
        return False
    patch.gone.extend(element_id for element_id in was.ids if element_id not in now.lines)
    if now.ids != kept:
        patch.orders.append(now.ids)
    return True


@lru_cache(maxsize=LINES_REMEMBERED)
def part_key(line: str) -> tuple[str, str] | None:
    """(tag, id) of a line that is one whole element or one opening tag, else None."""
    opening = _OPENING.match(line)
    if opening is None:
        return None
    tag, element_id = opening.groups()
    if opening.end() == len(line) or _closes_at_end(line, tag):
        return tag.lower(), element_id
    return None


@lru_cache(maxsize=LINES_REMEMBERED)
def element_key(line: str) -> str | None:
    """The id of a line that is one whole element (not a lone opening tag), else None."""
    opening = _OPENING.match(line)
    if opening is None:
        return None
    tag, element_id = opening.groups()
    whole = line.endswith("/>") if opening.end() == len(line) else _closes_at_end(line, tag)
    return element_id if whole else None


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
