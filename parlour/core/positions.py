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

SNAPSHOT_INTERVAL = 64
"""Plies between snapshots, measured on 40x60 Minesweeper marks (a replay costs ~20 µs a
ply; a request on that board ~12 ms). 5 000 moves: 3.1 MiB instead of 94 kept per move;
50 000: 19 MiB (32: 34 MiB, 128: 12 MiB). A position away from the recent ones is
rebuilt in 0.5 ms on average, 1.3 ms at worst (32: 0.3 ms; 128: 1.2 ms on average)."""

RECENT_POSITIONS = 32
"""The most recently used positions, kept besides the snapshots, so that stepping back
through the line replays about once per 32 steps: an undo costs ~25 µs on that board,
whether 32 or 64 are kept (0.6 MiB of a 40x60 game's memory)."""


class Positions:
    """A line of moves and every position along it, kept sparsely.

    Position `ply` is the one after the first `ply` moves: 0 is the start, and move
    `ply` leads from position `ply` to position `ply + 1`. Moves are kept as the game's
    own values, not JSON: a replay need not parse them, and they are smaller (a
    Minesweeper move is a 64-byte tuple, its JSON a dict and a list of 256 bytes).
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
        self._line: list[Any] = []  # the game's moves
        self._snapshots: list[Any] = [start]  # positions 0, 1, 1 + interval, 1 + 2 * interval...
        self._recent: OrderedDict[int, Any] = OrderedDict({0: start})  # least recent first

    def __len__(self) -> int:
        """The number of moves."""
        return len(self._line)

    @property
    def start(self) -> Any:
        return self._snapshots[0]

    def moves(self, start: int = 0, stop: int | None = None) -> list[JSON]:
        """Moves `start` to `stop` (a slice of the line) in canonical JSON."""
        return [self.game.move_to_json(move) for move in self._line[start:stop]]

    def move(self, ply: int) -> Any:
        """Move `ply`, as the game's own value (what `parse_move` gives)."""
        return self._line[ply]

    def state(self, ply: int) -> Any:
        """The position after `ply` moves."""
        if not 0 <= ply <= len(self._line):
            raise IndexError(f"no position {ply} on a line of {len(self._line)} moves")
        if ply in self._recent:
            self._recent.move_to_end(ply)
            return self._recent[ply]
        return self._rebuild(ply)

    def append(self, move: Any, after: Any) -> None:
        """Add `move` (the game's value) at the end of the line; `after` is its position."""
        self._line.append(move)
        ply = len(self._line)
        if self._snapshot_ply(self._snapshot_index(ply)) == ply:
            self._snapshots.append(after)
        self._remember(ply, after)

    def truncate(self, length: int) -> None:
        """Keep the first `length` moves and the positions along them."""
        del self._line[length:]
        del self._snapshots[self._snapshot_index(length) + 1 :]
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
            state = game.apply(state, self._line[move_ply])
            self._remember(move_ply + 1, state)
        self._remember(ply, state)  # also when `ply` is a snapshot and nothing was replayed
        return state

    def _remember(self, ply: int, state: Any) -> None:
        self._recent[ply] = state
        self._recent.move_to_end(ply)
        while len(self._recent) > self.recent_limit:
            self._recent.popitem(last=False)
