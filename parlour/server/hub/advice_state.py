"""The advice a game is being given, as `Live.advice` holds it: the moves a command
plays out for a player, what the assist switch shows of the current position, and the
best play possible from the start of a game that has ended.

State only: `advice.py` changes it (under the game's lock, or in the tasks it starts),
`views.py` reads it, and the hub's core asks whether moves are still being played out
before a game leaves memory.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from parlour.core.game import JSON, BestPossible


@dataclass
class AdviceState:
    playback: asyncio.Task[None] | None = None  # moves a command plays out (`Playback`)
    assist_facts: tuple[Any, JSON] | None = None  # (state, what GameSpec.assist_facts said)
    assist_task: asyncio.Task[None] | None = None  # working them out for the new position
    # (final state, what GameSpec.best_possible says of the game ended there, once known):
    # asked again (the end card reopened, or many times at once), it is worked out once
    best_possible: tuple[Any, asyncio.Future[BestPossible | None]] | None = None

    def facts_of(self, state: Any) -> JSON:
        """The assist facts of `state`, if worked out (None for any other position)."""
        known = self.assist_facts
        return known[1] if known is not None and known[0] is state else None
