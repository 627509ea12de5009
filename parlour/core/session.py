"""The session, or "midend": one game in progress, written once for every game.

It keeps the line of moves with a cursor (moves past the cursor are the redo line),
the states along it (sparsely: `positions.py`), who sits where (human or AI), which
seats used help or turned the assist on (each player's own), and the clock. It does no
I/O and reads no clock: the caller passes the time in.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from parlour.core.game import (
    JSON,
    AIPlayer,
    GameError,
    GameSpec,
    Hint,
    HintFinder,
    Status,
    UndoRule,
)
from parlour.core.gameid import GameId
from parlour.core.positions import Positions

HUMAN = "human"
AI_PREFIX = "ai:"
ENDING_SEEN = "how the game ends"  # what an Undo of a finished game has seen (undo_help)


def seat_kind_error(spec: GameSpec, kind: str) -> str | None:
    if kind == HUMAN:
        return None
    if kind.startswith(AI_PREFIX) and kind[len(AI_PREFIX) :] in spec.ai_levels:
        return None
    levels = ", ".join(f"ai:{level}" for level in spec.ai_levels) or "no AI"
    return f"a seat is 'human' or one of: {levels}"


class Facts(NamedTuple):
    status: Status
    to_move: int | None
    scores: tuple[int, ...]
    winners: tuple[int, ...]


@dataclass
class Clock:
    """Milliseconds of play. It runs while the session says so (`Session.clock_running`):
    the game has begun, is not over, and a player's page is open, visible and connected.
    It reads no time of its own: each change is recorded at the time the caller passes.

    A long think on a visible page is play and counts in full, as in every Minesweeper;
    a page hidden, closed or cut off stops the clock, so no cap on a pause is needed
    (one made long thinks read short and the shown clock jump back)."""

    elapsed_ms: int = 0
    last_at: float | None = None  # when the clock last started; None while it is stopped

    @property
    def running(self) -> bool:
        return self.last_at is not None

    def reading_ms(self, now: float) -> int:
        if self.last_at is None:
            return self.elapsed_ms
        return self.elapsed_ms + int(max(0.0, now - self.last_at) * 1000)

    def record(self, now: float, running: bool) -> None:
        """From `now` on, the clock is `running` or not."""
        self.elapsed_ms = self.reading_ms(now)
        self.last_at = now if running else None


class Session:
    """One game in progress. Picklable (with its spec), so that a worker process may
    deal or replay a game and hand the session back."""

    def __init__(
        self,
        spec: GameSpec,
        game_id: GameId,
        seats: Sequence[str],
        moves: Sequence[JSON] = (),
        cursor: int | None = None,
        *,
        start: Any = None,
    ) -> None:
        """`start`: the deal of `game_id` if already made (e.g. in a worker process,
        as a big deal takes a while); None deals it here."""
        self.spec = spec
        self.game = spec.game
        self.game_id = game_id
        self.seats = tuple(seats)
        self.stand_ins: dict[int, str] = {}
        """Human seats the computer plays, at this AI level, while their player is away."""
        self.assisted_seats: set[int] = set()
        """The seats whose players used help (a hint, the assist, an assisted undo)."""
        self.assist_seats: set[int] = set()
        """The seats whose players have the assist switch on (each sees its marks)."""
        self.seen_hidden = False
        """Whether a move of this deal showed what its start hides (a move whose undo the
        game forbids or counts as help: a stock card turned, the next tile drawn). The
        knowledge stays: starting the deal again then counts as help for every seat."""
        self.clock = Clock()
        self.present = False
        """Whether a player's page is open, visible and connected (the server knows its
        pages; the session only hears of them, `set_present`)."""
        self.hints: dict[int, Hint] = {}
        self._plans: dict[int, tuple[Hint, ...]] = {}
        """Per seat, the hint for the current position and those after it (`Hint.line`),
        kept while the seat's player follows them."""
        self._facts: tuple[Any, Facts] | None = None
        if start is None:
            start = game_id.deal(self.game)
        self._positions = Positions(self.game, start)
        for move in moves:
            self._append(move)
        self.cursor = len(self._positions) if cursor is None else cursor
        if not 0 <= self.cursor <= len(self._positions):
            raise ValueError("cursor outside the line of moves")

    # -- reading ------------------------------------------------------------------
    @property
    def id_text(self) -> str:
        return self.game_id.text(self.game)

    @property
    def state(self) -> Any:
        return self._positions.state(self.cursor)

    @property
    def moves(self) -> list[JSON]:
        """The moves that lead to the current position."""
        return self._positions.moves(0, self.cursor)

    @property
    def line(self) -> list[JSON]:
        """Every move, including the redo line past the cursor (a copy: see line_from)."""
        return self._positions.moves()

    @property
    def line_length(self) -> int:
        """The number of moves in the line, redo line included."""
        return len(self._positions)

    def position(self, ply: int) -> Any:
        """The state after the first `ply` moves of the line (0: the deal)."""
        return self._positions.state(ply)

    def move_at(self, ply: int) -> Any:
        """Move `ply` of the line (0 is the first), as the game's own value."""
        return self._positions.move(ply)

    def line_from(self, ply: int) -> list[JSON]:
        """The moves from move `ply` on (e.g. those not saved yet), without copying the
        whole line."""
        return self._positions.moves(ply)

    @property
    def status(self) -> Status:
        return self.facts().status

    @property
    def moves_made(self) -> int:
        """The moves made so far as the game counts them (`Game.moves_made`)."""
        return self.game.moves_made(self.state, self.cursor)

    def moves_by(self, seats: Collection[int]) -> int:
        """The moves so far made by `seats` (plies: Tribolo's three players' each count)."""
        return sum(self._to_move_at(ply) in seats for ply in range(self.cursor))

    @property
    def to_move(self) -> int | None:
        return self.facts().to_move

    def facts(self) -> Facts:
        """What the rules say of the current position, worked out once per position:
        every viewer's view and the save ask for them."""
        state = self.state
        if self._facts is None or self._facts[0] is not state:
            game = self.game
            facts = Facts(game.status(state), game.to_move(state), game.scores(state),
                          game.winners(state))
            self._facts = (state, facts)
        return self._facts[1]

    @property
    def assisted(self) -> bool:
        """Whether any seat's player used help (a saved file's flag)."""
        return bool(self.assisted_seats)

    @property
    def assist(self) -> bool:
        """Whether any seat's player has the assist switch on (its facts are worked out)."""
        return bool(self.assist_seats)

    def assisted_for(self, seats: Collection[int]) -> bool:
        """Whether the player of `seats` used help: their result counts as assisted."""
        return not self.assisted_seats.isdisjoint(seats)

    def assist_for(self, seats: Collection[int]) -> bool:
        """Whether the player of `seats` has the assist switch on: their view shows it."""
        return not self.assist_seats.isdisjoint(seats)

    def is_ai(self, seat: int | None) -> bool:
        """Whether the computer plays `seat` (an AI seat, or one it stands in for)."""
        return seat is not None and (
            self.seats[seat].startswith(AI_PREFIX) or seat in self.stand_ins
        )

    def is_human(self, seat: int) -> bool:
        """Whether `seat` is a person's, even while the computer stands in for them."""
        return self.seats[seat] == HUMAN

    def ai_level(self, seat: int) -> str:
        return self.stand_ins.get(seat) or self.seats[seat][len(AI_PREFIX) :]

    def clock_running(self) -> bool:
        """Whether the clock should run: from the first move (`Game.clock_started`) until
        the game ends, while a player is present."""
        return (self.present and self.cursor > 0 and self.status is Status.PLAYING
                and self.game.clock_started(self.state))

    # -- changing -----------------------------------------------------------------
    def set_present(self, present: bool, now: float) -> bool:
        """A player's page came or went (or was hidden or shown) at `now`: the clock
        starts or stops with it. Returns whether it started or stopped."""
        self.present = present
        return self.keep_time(now)

    def keep_time(self, now: float) -> bool:
        """Start or stop the clock at `now` as the game and its players stand; returns
        whether it started or stopped."""
        running = self.clock_running()
        if running == self.clock.running:
            return False
        self.clock.record(now, running)
        return True

    def play(self, move: JSON, seat: int, after: Any = None) -> JSON:
        """Make `seat`'s move; returns it in canonical JSON. Raises GameError. `after`:
        the position the move leads to, if already worked out (by `work.apply_move`)."""
        if self.status is not Status.PLAYING:
            raise GameError("the game is over")
        if self.to_move != seat:
            raise GameError("it is not your turn")
        parsed = self.game.parse_move(move)
        if after is None:
            after = self.game.apply(self.state, parsed)
        self._note_hidden_seen(self.state, parsed, after)
        self._positions.truncate(self.cursor)
        self._positions.append(parsed, after)
        self.cursor += 1
        self.hints.clear()
        played = self.game.move_to_json(parsed)
        plan = self._plans.pop(seat, ())
        if plan and plan[0].move == played:  # followed: the next hint is ready, if any
            self._plans[seat] = plan[1:]
        return played

    def undo_target(self, seats: Collection[int]) -> int | None:
        """The last earlier position where one of `seats` was to move, if any."""
        return next(
            (k for k in range(self.cursor - 1, -1, -1) if self._to_move_at(k) in seats), None
        )

    def undo_refusal(self, seats: Collection[int]) -> str | None:
        """Why Undo cannot take back the last move of `seats`, if a rule forbids it."""
        rules = self._undo_rules_of(seats)
        return self.game.undo_refusal if UndoRule.FORBIDDEN in rules else None

    def undo_help(self, seats: Collection[int]) -> str | None:
        """What the player of `seats` has seen that would make an Undo now count as help
        (None: it would not, or their game counts so already): where the game's rules
        make the Undo help, its `hidden_seen`; else, for an Undo that takes back the
        game's end, how it ends (a lost game taken back and played on is not a win at the
        first try)."""
        rules = self._undo_rules_of(seats)
        if not rules or UndoRule.FORBIDDEN in rules or set(seats) <= self.assisted_seats:
            return None  # no Undo, a refused one, or a game already played with help
        if UndoRule.ASSISTED in rules:
            return self.game.hidden_seen
        return ENDING_SEEN if self.status is not Status.PLAYING else None

    def restart_helps(self, seats: Collection[int]) -> bool:
        """Whether Restart would make the game of `seats` count as played with help (see
        `restart`)."""
        return self.seen_hidden and bool(seats) and not set(seats) <= self.assisted_seats

    def can_undo(self, seats: Collection[int]) -> bool:
        rules = self._undo_rules_of(seats)
        return bool(rules) and UndoRule.FORBIDDEN not in rules

    def undo(self, seats: Collection[int]) -> None:
        """Go back to the last position where one of `seats` was to move."""
        target = self.undo_target(seats)
        if target is None:
            raise GameError("nothing to undo")
        rules = self._undo_rules(target)
        if UndoRule.FORBIDDEN in rules:
            raise GameError(self.game.undo_refusal)
        if UndoRule.ASSISTED in rules or self.status is not Status.PLAYING:
            self.assisted_seats |= set(seats)
        self.cursor = target
        self.hints.clear()
        self._plans.clear()

    def redo(self, seats: Collection[int]) -> None:
        """Replay the redo line up to the next position where one of `seats` moves."""
        length = len(self._positions)
        if self.cursor == length:
            raise GameError("nothing to redo")
        target = next(
            (
                k
                for k in range(self.cursor + 1, length + 1)
                if self._to_move_at(k) in seats or self._to_move_at(k) is None
            ),
            length,
        )
        self.cursor = target
        self.hints.clear()
        self._plans.clear()

    def last_move_sound(self) -> str:
        """The sound of the move that led to the current position."""
        if self.cursor == 0:
            return "move"
        ply = self.cursor - 1
        before, after = self._positions.state(ply), self._positions.state(ply + 1)
        return self.game.sound(before, self._positions.move(ply), after)

    def restart(self) -> None:
        """The same deal from the start; the clock and help used start afresh, but for what
        the line showed of the deal's hidden part (`seen_hidden`)."""
        self._positions.truncate(0)
        self.cursor = 0
        # the second pass knows the stock, the pouch, the mines; a switch left on helps
        self.assisted_seats = (set(range(len(self.seats))) if self.seen_hidden
                               else set(self.assist_seats))
        self.clock = Clock()
        self.hints.clear()
        self._plans.clear()

    def hint(self, seat: int) -> Hint:
        """A suggested move for `seat`, found here (the server finds it elsewhere with
        `hint_finder` and `record_hint`)."""
        finder = self.hint_finder(seat)
        return self.record_hint(seat, self.planned_hint(seat) or finder(self.state, seat))

    def planned_hint(self, seat: int) -> Hint | None:
        """The hint for the current position from an earlier hint's line, if the player
        has followed it so far."""
        plan = self._plans.get(seat)
        return plan[0] if plan else None

    def hint_finder(self, seat: int) -> HintFinder:
        """The game's hint finder, if a hint may be asked for now; raises GameError."""
        if self.status is not Status.PLAYING:
            raise GameError("the game is over")
        if self.spec.hint is None:
            raise GameError(f"{self.game.title} has no hints")
        return self.spec.hint

    def record_hint(self, seat: int, found: Hint | None) -> Hint:
        """Keep the hint found for `seat` (shown on its board); the game is now helped."""
        if found is None:
            raise GameError("no hint: there is no move to suggest")
        self.assisted_seats.add(seat)
        self.hints[seat] = found
        if found.line:
            self._plans[seat] = (found, *found.line)
        return found

    def set_assist(self, on: bool, seats: Collection[int] | None = None) -> None:
        """The assist switch of the player of `seats` (None: every seat); turning it on
        while the game is on counts as help in that player's statistics, not the others'."""
        if not self.spec.has_assist:
            raise GameError(f"{self.game.title} has no assist switch")
        chosen = set(range(len(self.seats)) if seats is None else seats)
        if on:
            self.assist_seats |= chosen
            if self.status is Status.PLAYING:  # a look at a finished game helps no result
                self.assisted_seats |= chosen
        else:
            self.assist_seats -= chosen

    def mark_assisted(self, seats: Collection[int] | None = None) -> None:
        """The player of `seats` (None: every seat) was helped."""
        self.assisted_seats |= set(range(len(self.seats)) if seats is None else seats)

    def restore_help(self, assisted: Collection[int], assist: Collection[int]) -> None:
        """The seats that used help and those with the assist on, as saved."""
        self.assisted_seats, self.assist_seats = set(assisted), set(assist)

    def choose_ai_move(self) -> JSON:
        """The AI's move for the seat to move (which must be an AI seat)."""
        player, rng = self.ai_player()
        return self.game.move_to_json(player(self.state, rng))

    def ai_player(self) -> tuple[AIPlayer, random.Random]:
        """The AI to move and the generator it plays with (the same at the same ply of
        the same deal, so replays agree)."""
        seat = self.to_move
        if seat is None or not self.is_ai(seat):
            raise GameError("no AI is to move")
        rng = self.game_id.rng(self.game)
        rng.seed(f"{self.id_text}/ai/{self.cursor}")
        return self.spec.ai_levels[self.ai_level(seat)], rng

    # -- internals ------------------------------------------------------------------
    def _append(self, move: JSON) -> None:
        parsed = self.game.parse_move(move)
        before = self._positions.state(len(self._positions))
        after = self.game.apply(before, parsed)
        self._note_hidden_seen(before, parsed, after)
        self._positions.append(parsed, after)

    def _note_hidden_seen(self, before: Any, move: Any, after: Any) -> None:
        if not self.seen_hidden:
            self.seen_hidden = self.game.undo_rule(before, move, after) is not UndoRule.ALLOWED

    def _to_move_at(self, ply: int) -> int | None:
        return self.game.to_move(self._positions.state(ply))

    def _undo_rules_of(self, seats: Collection[int]) -> list[UndoRule]:
        """What the moves an Undo of `seats` would take back say about undo (none: there
        is nothing to undo)."""
        target = self.undo_target(seats)
        return [] if target is None else self._undo_rules(target)

    def _undo_rules(self, target: int) -> list[UndoRule]:
        """What each move from position `target` to the current one says about undo."""
        positions = self._positions
        return [
            self.game.undo_rule(positions.state(ply), positions.move(ply), positions.state(ply + 1))
            for ply in range(target, self.cursor)
        ]
