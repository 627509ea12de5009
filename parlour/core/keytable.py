"""The key table of a game's Help dialog: every key the game really has, each once.

The rows are the menus' commands with keys, the page's own keys (the menus, Esc, the
board's cursor) and the board's keys the game declares (`GameSpec.shortcuts`). A key the
game describes itself gets the game's words in place of the page's generic ones, Space is
listed only for a game whose board has a second action (`GameSpec.second_action`), and a
key that several rows name stays in the first of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from parlour.core.commands import menu_commands

if TYPE_CHECKING:
    from parlour.core.game import GameSpec

KeyRow = tuple[str, str]  # (keys as shown, "U, Ctrl+Z"; what they do)

PAGE_ROWS: tuple[KeyRow, ...] = (("Alt, F10", "the menus"), ("Esc", "close a menu or a dialog"))
CURSOR_ROWS: tuple[KeyRow, ...] = (
    ("Arrows", "move the cursor on the board"),
    ("Home, End", "the cursor to the first or the last cell of its row"),
    ("PgUp, PgDn", "the cursor to the top or the bottom cell of its column"),
    ("Enter", "play the cell under the cursor"),
)


def key_names(keys: str) -> list[str]:
    """The keys of a row: "D, Space" -> ["D", "Space"]."""
    return [key.strip() for key in keys.split(",") if key.strip()]


def key_table(spec: GameSpec) -> list[KeyRow]:
    rows = [(", ".join(command.keys), command.label.removesuffix("…"))
            for command, _ in menu_commands(spec) if command.keys]
    own = [(shortcut.keys, shortcut.action) for shortcut in spec.shortcuts]
    generic = [*CURSOR_ROWS, *([("Space", spec.second_action)] if spec.second_action else [])]
    # the game's own words for a key take the place of the generic row that names it
    board = [next((row for row in own if set(key_names(keys)) & set(key_names(row[0]))),
                  (keys, action))
             for keys, action in generic]
    return _each_key_once([*rows, *PAGE_ROWS, *board, *own])


def _each_key_once(rows: list[KeyRow]) -> list[KeyRow]:
    seen: set[str] = set()
    kept: list[KeyRow] = []
    for keys, action in rows:
        fresh = [key for key in key_names(keys) if key.upper() not in seen]
        seen.update(key.upper() for key in fresh)
        if fresh:
            kept.append((", ".join(fresh), action))
    return kept
