"""The positions along a line of moves, kept by snapshots plus replay.

Keeping one state per move costs a whole board per move (a 40x60 Minesweeper board is
19 KB, so 5 000 marks held 100 MB). Kept here instead: the start, a snapshot every
`interval` plies, and the few positions used last (those around the current one, so
that undo, redo and their rule checks cost no replay). Any other position is rebuilt by
replaying the moves from the nearest kept position before it.

Snapshots count from the position after the first move, not from the start: the first
move often does the deal's heavy work (Minesweeper lays a no-guess board at the first
click), and a replay should never redo it.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from parlour.core.game import JSON, Game

SNAPSHOT_INTERVAL = 32
"""Plies between snapshots. On a 40x60 Minesweeper game of 5 000 marks (replay costs
~20 µs a ply) the session holds 4.8 MiB instead of 94.5 (line included); a position far
from the recent ones is rebuilt in 0.3 ms (64: 3.4 MiB and 0.6 ms; 16: 7.4 MiB)."""

RECENT_POSITIONS = 32
"""Positions kept besides the snapshots, the most recently used: a block's worth, so
that stepping back through the line replays once per block, not once per step (an undo
costs ~26 µs; with 16 kept, ~44 µs)."""


class Positions:
    """A line of moves (canonical JSON) and every position along it, kept sparsely.

    Position `ply` is the one after the first `ply` moves: 0 is the start, and move
    `ply` leads from position `ply` to position `ply + 1`.
    """

    def __init__(
        self,
        game: Game[Any, Any],
        start: Any,
        interval: int = SNAPSHOT_INTERVAL,
        recent: int = RECENT_POSITIONS,
    ) -> None:
        if interval < 1 or recent < 1:
            raise ValueError("the snapshot interval and the recent positions must be 1 or more")
        self.game = game
        self.interval = interval
        self.recent_limit = recent
        self._line: list[JSON] = []
        self._snapshots: list[Any] = [start]  # positions 0, 1, 1 + interval, 1 + 2 * interval...
        self._recent: OrderedDict[int, Any] = OrderedDict({0: start})  # least recent first

    def __len__(self) -> int:
        """The number of moves."""
        return len(self._line)

    @property
    def start(self) -> Any:
        return self._snapshots[0]

    def moves(self, start: int = 0, stop: int | None = None) -> list[JSON]:
        """A copy of moves `start` to `stop` (a slice of the line)."""
        return self._line[start:stop]

    def move(self, ply: int) -> JSON:
        return self._line[ply]

    def state(self, ply: int) -> Any:
        """The position after `ply` moves."""
        if not 0 <= ply <= len(self._line):
            raise IndexError(f"no position {ply} on a line of {len(self._line)} moves")
        if ply in self._recent:
            self._recent.move_to_end(ply)
            return self._recent[ply]
        return self._rebuild(ply)

    def append(self, move: JSON, after: Any) -> None:
        """Add `move` (canonical JSON) at the end of the line; `after` is its position."""
        self._line.append(move)
        ply = len(self._line)
        if self._snapshot_ply(self._snapshot_index(ply)) == ply:
            self._snapshots.append(after)
        self._remember(ply, after)

    def truncate(self, length: int) -> None:
        """Keep the first `length` moves and the positions along them."""
        del self._line[length:]
        pass
        for ply in [ply for ply in self._recent if ply > length]:
            del self._recent[ply]

    # -- internals ------------------------------------------------------------------
    def _snapshot_index(self, ply: int) -> int:
        """The index of the last snapshot at or before position `ply`."""
        return 0 if ply == 0 else 1 + (ply - 1) // self.interval

    def _snapshot_ply(self, index: int) -> int:
        return 0 if index == 0 else 1 + (index - 1) * self.interval

    def _rebuild(self, ply: int) -> Any:
        """Replay to `ply` from the nearest kept position before it, remembering those
        passed (the ones just before `ply` are the likeliest to be asked for next)."""
        index = self._snapshot_index(ply)
        base = self._snapshot_ply(index)
        nearest = max((kept for kept in self._recent if base <= kept < ply), default=None)
        if nearest is None:
            nearest, state = base, self._snapshots[index]
        else:
            state = self._recent[nearest]
        game = self.game
        for move_ply in range(nearest, ply):
            state = game.apply(state, game.parse_move(self._line[move_ply]))
            self._remember(move_ply + 1, state)
        self._remember(ply, state)  # also when `ply` is a snapshot and nothing was replayed
        return state

    def _remember(self, ply: int, state: Any) -> None:
        self._recent[ply] = state
        self._recent.move_to_end(ply)
        while len(self._recent) > self.recent_limit:
            self._recent.popitem(last=False)
