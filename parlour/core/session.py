"""The session, or "midend": one game in progress, written once for every game.

It keeps the line of moves with a cursor (moves past the cursor are the redo line),
the states along it, who sits where (human or AI), whether help was used, and the
clock. It does no I/O and reads no clock: the caller passes the time in.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from parlour.core.game import JSON, GameError, GameSpec, Hint, Status, UndoRule
from parlour.core.gameid import GameId

IDLE_CAP_SECONDS = 120.0
"""A pause longer than this between actions counts as this long: a player who walks
away from an unfinished game does not come back to an hour on the clock."""

HUMAN = "human"
AI_PREFIX = "ai:"


def seat_kind_error(spec: GameSpec, kind: str) -> str | None:
    if kind == HUMAN:
        return None
    if kind.startswith(AI_PREFIX) and kind[len(AI_PREFIX) :] in spec.ai_levels:
        return None
    levels = ", ".join(f"ai:{level}" for level in spec.ai_levels) or "no AI"
    return f"a seat is 'human' or one of: {levels}"


@dataclass
class Clock:
    """Seconds of play: runs from the first move until the game ends."""

    elapsed_ms: int = 0
    last_at: float | None = None  # time of the last action while the clock ran

    def reading_ms(self, now: float) -> int:
        if self.last_at is None:
            return self.elapsed_ms
        return self.elapsed_ms + _capped_ms(now - self.last_at)

    def record(self, now: float, running: bool) -> None:
        """Account for an action at `now` after which the clock is `running` or not."""
        self.elapsed_ms = self.reading_ms(now)
        self.last_at = now if running else None


def _capped_ms(seconds: float) -> int:
    return int(max(0.0, min(seconds, IDLE_CAP_SECONDS)) * 1000)


class Session:
    def __init__(
        self,
        spec: GameSpec,
        game_id: GameId,
        seats: Sequence[str],
        moves: Sequence[JSON] = (),
        cursor: int | None = None,
    ) -> None:
        self.spec = spec
        self.game = spec.game
        self.game_id = game_id
        self.seats = tuple(seats)
        self.assisted = False
        self.assist = False
        self.clock = Clock()
        self.hints: dict[int, Hint] = {}
        self._start = self.game.deal(game_id.params, game_id.rng(self.game))
        self._line: list[JSON] = []
        self._states: list[Any] = [self._start]
        for move in moves:
            self._append(move)
        self.cursor = len(self._line) if cursor is None else cursor
        if not 0 <= self.cursor <= len(self._line):
            raise ValueError("cursor outside the line of moves")

    # -- reading ------------------------------------------------------------------
    @property
    def id_text(self) -> str:
        return self.game_id.text(self.game)

    @property
    def state(self) -> Any:
        return self._states[self.cursor]

    @property
    def moves(self) -> list[JSON]:
        """The moves that lead to the current position."""
        return self._line[: self.cursor]

    @property
    def line(self) -> list[JSON]:
        """Every move, including the redo line past the cursor."""
        return list(self._line)

    @property
    def status(self) -> Status:
        return self.game.status(self.state)

    @property
    def to_move(self) -> int | None:
        return self.game.to_move(self.state)

    def is_ai(self, seat: int | None) -> bool:
        return seat is not None and self.seats[seat].startswith(AI_PREFIX)

    def ai_level(self, seat: int) -> str:
        return self.seats[seat][len(AI_PREFIX) :]

    def clock_running(self) -> bool:
        return self.cursor > 0 and self.status is Status.PLAYING

    # -- changing -----------------------------------------------------------------
    def play(self, move: JSON, seat: int) -> JSON:
        """Make `seat`'s move; returns it in canonical JSON. Raises GameError."""
        if self.status is not Status.PLAYING:
            raise GameError("the game is over")
        if self.to_move != seat:
            raise GameError("it is not your turn")
        parsed = self.game.parse_move(move)
        after = self.game.apply(self.state, parsed)
        canonical = self.game.move_to_json(parsed)
        del self._line[self.cursor :]
        del self._states[self.cursor + 1 :]
        self._line.append(canonical)
        self._states.append(after)
        self.cursor += 1
        self.hints.clear()
        return canonical

    def undo_target(self, seats: Collection[int]) -> int | None:
        """The last earlier position where one of `seats` was to move, if any."""
        return next(
            (k for k in range(self.cursor - 1, -1, -1) if self._to_move_at(k) in seats), None
        )

    def can_undo(self, seats: Collection[int]) -> bool:
        target = self.undo_target(seats)
        return target is not None and UndoRule.FORBIDDEN not in self._undo_rules(target)

    def undo(self, seats: Collection[int]) -> None:
        """Go back to the last position where one of `seats` was to move."""
        target = self.undo_target(seats)
        if target is None:
            raise GameError("nothing to undo")
        rules = self._undo_rules(target)
        if UndoRule.FORBIDDEN in rules:
            raise GameError("that move cannot be taken back")
        self.assisted |= UndoRule.ASSISTED in rules
        self.cursor = target
        self.hints.clear()

    def redo(self, seats: Collection[int]) -> None:
        """Replay the redo line up to the next position where one of `seats` moves."""
        if self.cursor == len(self._line):
            raise GameError("nothing to redo")
        target = next(
            (
                k
                for k in range(self.cursor + 1, len(self._line) + 1)
                if self._to_move_at(k) in seats or self._to_move_at(k) is None
            ),
            len(self._line),
        )
        self.cursor = target
        self.hints.clear()

    def last_move_sound(self) -> str:
        """The sound of the move that led to the current position."""
        if self.cursor == 0:
            return "move"
        ply = self.cursor - 1
        move = self.game.parse_move(self._line[ply])
        return self.game.sound(self._states[ply], move, self._states[ply + 1])

    def restart(self) -> None:
        """The same deal from the start; the clock and help used start afresh."""
        self._line.clear()
        del self._states[1:]
        self.cursor = 0
        self.assisted = self.assist  # a switch left on helps from the start
        self.clock = Clock()
        self.hints.clear()

    def hint(self, seat: int) -> Hint:
        if self.status is not Status.PLAYING:
            raise GameError("the game is over")
        if self.spec.hint is None:
            raise GameError(f"{self.game.title} has no hints")
        found = self.spec.hint(self.state, seat)
        if found is None:
            raise GameError("no hint: there is no move to suggest")
        self.assisted = True
        self.hints[seat] = found
        return found

    def set_assist(self, on: bool) -> None:
        """The game's assist switch; turning it on counts as help for the statistics."""
        if not self.spec.has_assist:
            raise GameError(f"{self.game.title} has no assist switch")
        self.assist = on
        self.assisted |= on

    def choose_ai_move(self) -> JSON:
        """The AI's move for the seat to move (which must be an AI seat)."""
        seat = self.to_move
        if seat is None or not self.is_ai(seat):
            raise GameError("no AI is to move")
        player = self.spec.ai_levels[self.ai_level(seat)]
        rng = self.game_id.rng(self.game)
        rng.seed(f"{self.id_text}/ai/{self.cursor}")
        return self.game.move_to_json(player(self.state, rng))

    # -- internals ------------------------------------------------------------------
    def _append(self, move: JSON) -> None:
        parsed = self.game.parse_move(move)
        self._states.append(self.game.apply(self._states[-1], parsed))
        self._line.append(self.game.move_to_json(parsed))

    def _to_move_at(self, ply: int) -> int | None:
        return self.game.to_move(self._states[ply])

    def _undo_rules(self, target: int) -> list[UndoRule]:
        """What each move from position `target` to the current one says about undo."""
        return [
            self.game.undo_rule(
                self._states[ply], self.game.parse_move(self._line[ply]), self._states[ply + 1]
            )
            for ply in range(target, self.cursor)
        ]
