"""Editions: a view as it goes out, shared by every viewer of one kind.

A view depends on who watches only through their kind (their seats, whether they see the
id, their part in a take-back: `broadcast.ViewKind`), so the spectators of a game are
one audience, and each player's seats another. An edition is one view of one audience:
its JSON text is encoded once, and its patch from an earlier edition (the board's parts
that changed, the move list's new notes) is worked out once for all the viewers that
have that earlier one, and encoded once. A thousand spectators of a 40x60 board then
cost one render, one diff and one encoding per change, not a thousand of each; and a
viewer keeps only a reference to the edition it was last sent, never a copy of the board.
"""

from __future__ import annotations

import json
import weakref
from typing import Any

from parlour.core.game import JSON
from parlour.server import timing
from parlour.server.patch import board_patch

PATCHES_KEPT = 4
"""Patches an edition keeps, each from another earlier edition. Viewers that keep up
share the one from the edition before; a few slow ones skipped some; beyond this, a
viewer's patch is worked out for it alone (it is not kept)."""


def encoded(message: JSON) -> str:
    """A message as sent on a WebSocket (compact, as Starlette's `send_json` writes it)."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


class Edition:
    """One view of one audience, with its text: whole, and as patches from earlier ones."""

    __slots__ = ("__weakref__", "_patches", "_whole", "stamp", "view")

    def __init__(self, view: JSON, stamp: Any = None) -> None:
        self.view = view
        self.stamp = stamp
        """What the view was made from (`Broadcast` reuses it for a new page while the
        game is unchanged)."""
        self._whole: str | None = None
        # patches by the earlier edition they start from: gone when it is (no chains kept)
        self._patches: weakref.WeakKeyDictionary[Edition, str] = weakref.WeakKeyDictionary()

    def text_after(self, shown: Edition | None) -> str:
        """The message for a viewer that has `shown` (None: nothing yet): the view with
        its board as the parts changed since `shown`, its move list as the notes after
        those of `shown`; whole when a patch cannot say it."""
        if shown is None:
            return self._whole_text()
        kept = self._patches.get(shown)
        if kept is not None:
            return kept
        text = self._patch_text(shown.view)
        if text is None:
            return self._whole_text()
        if len(self._patches) < PATCHES_KEPT:
            self._patches[shown] = text
        return text

    def _whole_text(self) -> str:
        if self._whole is None:
            with timing.part("encode"):
                view = self.view
                if view.get("move_list") is not None:
                    view = {**view, "move_list_from": 0}
                self._whole = encoded({"type": "view", "view": view})
        return self._whole

    def _patch_text(self, old: JSON) -> str | None:
        """The patch from view `old` (see `patch.py`), encoded; None: send it whole."""
        view = self.view
        html = view["html"]
        # a board not laid out a part per line (a small one) is sent whole
        with timing.part("diff"):
            patch = None if "\n" not in html else board_patch(old["html"], html)
        start, fresh = notes_tail(old.get("move_list"), view.get("move_list"))
        if patch is None and start == 0:
            return None
        if patch is not None:
            view = {**view, "html": None, "parts": patch.parts}
            if patch.orders:
                view["orders"] = patch.orders
            if patch.gone:
                view["gone"] = patch.gone
        if fresh is not None:
            view = {**view, "move_list": fresh, "move_list_from": start}
        with timing.part("encode"):
            return encoded({"type": "view", "view": view})


def notes_tail(shown: list[JSON] | None, notes: list[JSON] | None
               ) -> tuple[int, list[JSON] | None]:
    """What a viewer that has the move list `shown` needs of `notes`: the index they
    start from, and the notes from there (all of them when `shown` is not their start)."""
    if notes is None:
        return 0, None
    if shown is None or len(shown) > len(notes):
        return 0, notes
    same = all(a is b or a == b for a, b in zip(shown, notes, strict=False))
    return (len(shown), notes[len(shown):]) if same else (0, notes)
