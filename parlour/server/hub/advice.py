"""Advice: hints, a game's own commands (a solver's hint or note, a replay opened as a
new game, moves played out for the player) and the assist switch. Help is the helped
player's own: their seats are marked assisted, their view alone shows the assist.

The handlers run under the game's lock (`Hub.act`); the long work they ask for goes to
a worker (`workers.py`) and is dropped when the player plays on (`play_on`). What the
assist shows is worked out after each change, off the lock, and shown when it is ready.
The state they keep is `Live.advice` (advice_state.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from parlour.core import work
from parlour.core.commands import server_command_states
from parlour.core.game import BestPossible, GameError, Hint, Playback, Replay, Status
from parlour.server.compute import THINK_BUDGET, TooSlow, WorkerFailed
from parlour.server.hub.broadcast import Broadcast, sound_after
from parlour.server.hub.live import Live
from parlour.server.hub.messages import Answer, AskHint, Opened, RunCommand, SetAssist
from parlour.server.hub.opening import Opening
from parlour.server.hub.workers import Workers, budget_for

log = logging.getLogger(__name__)

Save = Callable[[Live, int | None], Awaitable[None]]
"""Commits a game's new state (`Hub.save`): the moves from the given ply are new."""


class Advice:
    def __init__(
        self, workers: Workers, opening: Opening, broadcast: Broadcast, save: Save,
        delay_scale: float = 1.0,
    ) -> None:
        self.workers = workers
        self.opening = opening
        self.broadcast = broadcast
        self.save = save
        self.delay_scale = delay_scale

    async def best_possible(self, live: Live) -> BestPossible | None:
        """What the best play from the game's start would have scored, for the card at
        its end (`GameSpec.best_possible`, whose work the game bounds); None while it is
        on, where the game cannot tell, or when the worker fails. Worked out once per end
        in a worker, however many ask: later and simultaneous askers share the answer."""
        session = live.session
        finder = session.spec.best_possible
        if finder is None or session.status is Status.PLAYING:
            return None
        end = session.state
        known = live.advice.best_possible
        if known is None or known[0] is not end:
            work = self.workers.apart(budget_for(live, THINK_BUDGET), "the best possible",
                                      finder, session.position(0), end)
            known = (end, asyncio.ensure_future(work))
            live.advice.best_possible = known
        try:
            return await asyncio.shield(known[1])  # (an asker who leaves stops no one's)
        except Exception:  # the card stands without it, whatever failed
            log.warning("the best possible of game %s failed", live.sid, exc_info=True)
            return None

    async def hint(
        self, live: Live, token: str | None, seats: frozenset[int], message: AskHint
    ) -> Answer:
        session = live.session
        seat = session.to_move
        if seat not in seats:
            raise GameError("a hint is for the player to move")
        if refusal := live.help_refusal(token):
            raise GameError(refusal)
        finder = session.hint_finder(seat)
        found = session.planned_hint(seat) or await self.workers.long(
            live, THINK_BUDGET, "the hint", work.hint, finder, session.state, seat,
            advice=True,
        )
        return session.record_hint(seat, found)

    @staticmethod
    async def set_assist(
        live: Live, token: str | None, seats: frozenset[int], message: SetAssist
    ) -> Answer:
        if message.on and (refusal := live.help_refusal(token)):
            raise GameError(refusal)
        live.session.set_assist(message.on, seats)  # the caller's seats: not the others'
        return None

    async def command(
        self, live: Live, token: str | None, seats: frozenset[int], message: RunCommand
    ) -> Answer:
        """A game's server command (`GameSpec.command_handlers`), for the seat to move if
        the caller holds it: a hint is kept (shown on the board, the game now assisted); a
        replay opens as a new game."""
        session, name = live.session, message.name
        handler = session.spec.command_handlers.get(name)
        if handler is None:
            raise GameError(f"{session.game.title} has no command {name[:40]!r}")
        seat = session.to_move if session.to_move in seats else min(seats)
        if not server_command_states(session.spec, live.observe(seat), True)[name]:
            raise GameError(f"{name} cannot be used now")
        label = next(c.label for c in session.spec.commands if c.name == name)
        found = await self.workers.long(live, THINK_BUDGET, label.rstrip("…"), handler,
                                        session.state, seat, advice=True)
        if isinstance(found, Replay):
            return await self._replay(live, seats, found)
        if isinstance(found, Playback):
            session.mark_assisted({seat})
            live.advice.playback = asyncio.get_running_loop().create_task(
                self._play_back(live, seat, found))
            return found.note
        return session.record_hint(seat, found) if isinstance(found, Hint) else found

    async def _replay(self, live: Live, seats: frozenset[int], replay: Replay) -> Opened:
        """The game's deal opened anew for the caller, `replay.moves` ahead to redo; it
        counts as assisted, and its results are filed apart: the solver showed them."""
        old = live.session
        try:
            session = await self.workers.dealt(
                old.spec, old.game_id, len(replay.moves), "opening the replay", work.replay,
                old.spec, old.game_id, old.seats, replay.moves, 0,
            )
        except GameError as error:
            raise GameError(f"the replay cannot be played: {error}") from None
        session.mark_assisted(seats)
        opened, token = await self.opening.open(session, sorted(seats), shown=True)
        return Opened(opened.sid, token, replay.note)

    async def _play_back(self, live: Live, seat: int, playback: Playback) -> None:
        """Play `playback.moves` for `seat`, one every `step_seconds`, each saved and
        shown as a move of the player's; it ends early if a move no longer fits."""
        for played, move in enumerate(playback.moves, 1):
            await asyncio.sleep(playback.step_seconds * self.delay_scale)
            async with live.lock:
                session = live.session
                before = session.cursor
                try:
                    session.play(move, seat)
                except GameError:
                    live.advice.playback = None
                    self.broadcast.show_all(live, None)
                    return
                # the solver ended the game: its result is filed apart (`gameid.SHOWN`)
                live.shown_to_end = session.status is not Status.PLAYING
                await self.save(live, before)
            if played == len(playback.moves):
                live.advice.playback = None  # so that the last view says it is the player's turn
            self.broadcast.show_all(live, sound_after("move", session))

    def play_on(self, live: Live, token: str | None) -> None:
        """A player acts: the advice they were waiting for (a hint, a solver) and any
        moves being played out for them are no longer wanted."""
        if not live.seats_of(token):
            return
        self.workers.drop_advice(live)
        if live.advice.playback is not None:
            live.advice.playback.cancel()
            live.advice.playback = None

    def work_out_assist(self, live: Live) -> None:
        """With a player's assist switch on, work out what it shows for the new position in a
        worker (`GameSpec.assist_facts`), then show it; a newer position cancels it."""
        session, advice = live.session, live.advice
        if (not session.assist or session.spec.assist_facts is None
                or advice.facts_of(session.state)):
            return
        if advice.assist_task is not None:
            advice.assist_task.cancel()
        with contextlib.suppress(RuntimeError):  # no running loop: nobody to show it
            advice.assist_task = asyncio.get_running_loop().create_task(self._assist(live))

    async def _assist(self, live: Live) -> None:
        state, spec = live.session.state, live.session.spec
        assert spec.assist_facts is not None
        try:
            facts = await self.workers.compute.run(budget_for(live, THINK_BUDGET),
                                                   spec.assist_facts, state)
        except (TooSlow, WorkerFailed):
            return  # the light stays unknown; the next move tries again
        if live.session.state is state:
            live.advice.assist_facts = (state, facts)
            self.broadcast.show_all(live, None)

