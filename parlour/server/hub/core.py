"""The hub: the live games, and every change to one of them.

Every action goes through `Hub.act`: it checks the caller's seats, runs the handler of
the message's kind (`handlers`, the one table the REST routes and the WebSocket share)
under the game's lock, saves the change (committed before anyone hears of it), then
leaves each connected viewer the view of their own seats and lets the computer play if
it is to move. Games nobody uses leave memory and are reloaded from the store when asked
for (`get`).

The capabilities, composed here, one module each: opening.py (new games), play.py
(moves, undo, redo, restart), seats.py (joining, leaving, take-backs), advice.py (hints,
commands, the assist), workers.py (long work), broadcast.py (views to viewers), turns.py
(the computer's turns). What they share: live.py (a game in memory), views.py (what a
viewer is sent), records.py (what is saved), messages.py (what a player asks, what a
handler answers), viewers.py (each socket's outbox), errors.py (a refusal), and the
state a capability keeps on a live game: takebacks.py, advice_state.py. The API's own
reads and writes of the store: resume.py, saved_games.py, pictures.py.

Fair shares (shares.py): the API names the client of each new game and action; its work
is queued as theirs (`compute.working_for`), a new game over their share is refused, and
a game's computers stop once every page and request has left it (`Live.left`), until
someone returns. Rate limits (`parlour/server/limits/`): each action and new game of a
named client also takes from its buckets (`within_limit`; 429 once one is empty).
Metrics (`parlour/server/metrics.py`): moves carried out and how long a player's took to
be acknowledged.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, Protocol, TypeVar

from parlour.core import work
from parlour.core.game import GameError, GameSpec, IgnoredMove
from parlour.core.gameid import parse_game_id
from parlour.core.session import HUMAN, Clock, Session
from parlour.server import timing
from parlour.server.compute import ANYONE, Compute, shared_compute, working_for
from parlour.server.hub import records
from parlour.server.hub.advice import Advice
from parlour.server.hub.broadcast import Broadcast, sound_after
from parlour.server.hub.caps import ViewerCaps
from parlour.server.hub.errors import ApiError, LimitReached
from parlour.server.hub.live import Live
from parlour.server.hub.messages import (
    Action,
    Answer,
    AnswerRematch,
    AnswerTakeback,
    AskHint,
    PlayMove,
    Redo,
    Restart,
    RunCommand,
    SetAssist,
    Undo,
)
from parlour.server.hub.opening import Opening, game_spec
from parlour.server.hub.play import Play
from parlour.server.hub.presence import Presence
from parlour.server.hub.rematch import Rematches
from parlour.server.hub.seats import Seats, answer_takeback
from parlour.server.hub.shares import Shares
from parlour.server.hub.turns import ComputerTurns
from parlour.server.hub.viewers import Viewer
from parlour.server.hub.workers import Workers
from parlour.server.limits import Kind, Limits, MemoryLimits
from parlour.server.metrics import Metrics
from parlour.store import Fenced, Store, import_opened

log = logging.getLogger("parlour")
IDLE_SECONDS = 300.0
"""A session nobody has touched for this long leaves memory (it stays on disk)."""
MAX_LIVE = 200
"""Beyond this many sessions in memory, those idle for `GRACE_SECONDS` leave too."""
GRACE_SECONDS = 10.0
LEFT_GRACE_SECONDS = 2.0
"""Once everyone has left a game, its computers play no further move, and after this
long (a reloaded page is back by then) their thinking is dropped if it still waits for a
worker; thinking under way finishes (stopping it would end its worker, and a new one
takes seconds to start)."""

M = TypeVar("M", bound=Action)
Handler = Callable[[Live, str | None, frozenset[int], M], Awaitable[Answer]]
"""Carries out a message of one kind for the player holding a token and its seats,
under the game's lock; raises GameError (nothing changed) or ApiError to refuse it."""


def handles(kind: type[M], handler: Handler[M]) -> tuple[type[Any], Handler[Any]]:
    """An entry of the table of handlers, the handler checked against its kind."""
    return kind, handler


class Ownership(Protocol):
    """Which games this process plays, among many processes on one database (the hosted
    mode's, parlour.server.hosted.ownership)."""

    async def hold(self, sid: str) -> None:
        """Before the hub plays game `sid`: ApiError 503 if another process plays it."""

    def let_go(self, sids: Iterable[str]) -> None:
        """The hub no longer holds these games."""


class Hub:
    def __init__(
        self,
        store: Store,
        games: Mapping[str, GameSpec],
        now: Callable[[], float] = time.time,
        ai_delay_scale: float = 1.0,
        compute: Compute | None = None,
        clock: Callable[[], float] = time.monotonic,
        limits: Limits | None = None,
        metrics: Metrics | None = None,
        shared: bool = False,
    ) -> None:
        """`now`: the wall time, for what the store keeps; `clock`: the game clocks' time,
        monotonic, so that setting the machine's time (or, on Linux and macOS, a machine
        asleep) puts no time on a player's clock. `limits`: the clients' rate limits (by
        default this process's own, as the environment sets them). `shared`: many people
        play here, each seeing only their own results (parlour.stats.own)."""
        self.store = store
        self.shared = shared
        self.limits: Limits = MemoryLimits() if limits is None else limits
        self.metrics = Metrics() if metrics is None else metrics
        self.games = games
        self.now = now
        self.clock = clock
        self.live: dict[str, Live] = {}
        self.ownership: Ownership | None = None
        """With many processes on one database: which games this one plays (the hosted
        mode sets it, parlour.server.hosted)."""
        self.left_grace = LEFT_GRACE_SECONDS
        self._loading: dict[str, asyncio.Task[Live]] = {}
        self.shares = Shares(self.live)
        self.workers = Workers(compute or shared_compute(), self.shares)
        self.turns = ComputerTurns(self.workers.compute, self._play_computer_move,
                                   ai_delay_scale)
        self.broadcast = Broadcast(clock)
        self.caps = ViewerCaps()  # sockets per game and per client (caps.py)
        self.opening = Opening(store, games, self.workers, self.turns, self._keep, now)
        self.seats = Seats(store, self.broadcast, self.turns)
        self.play = Play(self.workers)
        self.advice = Advice(self.workers, self.opening, self.broadcast, self.save,
                             ai_delay_scale)
        self.presence = Presence(clock, self.save)
        self._writing: set[asyncio.Task[None]] = set()
        self.rematches = Rematches(store, self.workers, self.turns, self._keep, now)
        self.handlers: dict[type[Any], Handler[Any]] = dict([
            handles(PlayMove, self.play.move),
            handles(Undo, self.play.undo),
            handles(Redo, self.play.redo),
            handles(Restart, self.play.restart),
            handles(AskHint, self.advice.hint),
            handles(SetAssist, self.advice.set_assist),
            handles(RunCommand, self.advice.command),
            handles(AnswerTakeback, answer_takeback),
            handles(AnswerRematch, self.rematches.answer),
        ])

    # -- opening and finding games -------------------------------------------------
    def spec(self, game: str) -> GameSpec:
        return game_spec(self.games, game)

    async def create(
        self,
        game: str,
        id_text: str | None = None,
        params: Mapping[str, object] | None = None,
        seats: list[str] | None = None,
        client: str | None = None,
        watched: bool = False,
    ) -> tuple[Live, str]:
        """A new game for `client` (429 over their share, `shares.py`, or their limit of
        new games). `watched`: its computers wait for a page to open it, as in a game
        everyone has left (nor does it count as running meanwhile, `shares.py`)."""
        with acting_for(client) as key:
            self.shares.check_new_game(key, seats or list(self.spec(game).default_seats))
            await self.within_limit(client, Kind.NEW_GAMES)
            return await self.opening.create(game, id_text, params, seats, watched)

    async def adopt(self, data: bytes, owner: str, client: str | None = None
                    ) -> tuple[Live, str]:
        """A game from a saved file for `client` (429 over their share, `shares.py`): it
        counts as a game of theirs, its seats known once the file is read."""
        with acting_for(client) as key:
            self.shares.check_new_game(key, [HUMAN])
            await self.within_limit(client, Kind.NEW_GAMES)
            return await self.opening.adopt(data, owner)

    async def get(self, sid: str) -> Live:
        """The live session `sid`, reloaded from the store if it left memory (once, however
        many ask for it meanwhile)."""
        live = self.live.get(sid)
        if live is None:
            loading = self._loading.get(sid)
            if loading is None:
                loading = asyncio.create_task(self._load(sid))
                self._loading[sid] = loading
                loading.add_done_callback(lambda done: self._loaded(sid, done))
            live = await asyncio.shield(loading)
        live.last_used = time.monotonic()
        return live

    def _loaded(self, sid: str, done: asyncio.Task[Live]) -> None:
        del self._loading[sid]
        if not done.cancelled():
            done.exception()  # retrieved here, so an error nobody awaited is not logged

    async def _load(self, sid: str) -> Live:
        if self.ownership is not None:
            await self.ownership.hold(sid)  # 503 if another process plays it
        loaded = self.store.load_session(sid) if len(sid) <= 64 else None
        if loaded is None:
            raise ApiError(404, f"no game session {sid[:64]!r}")
        row, line = loaded
        spec = self.spec(row.game)
        try:
            game_id = parse_game_id(spec.game, row.game_id)
            session: Session = await self.workers.dealt(
                spec, game_id, len(line), "replaying the saved game", work.replay,
                spec, game_id, row.seats, line, row.cursor,
            )
        except GameError as error:
            raise ApiError(409, f"this saved game cannot be replayed: {error}") from None
        session.restore_help(*records.help_of(row, len(session.seats)))
        session.stand_ins = dict(row.stand_ins)
        # stopped until a page connects, whatever the row says (`records.py`)
        session.clock = Clock(row.elapsed_ms)
        holders = {t: frozenset(s) for t, s in self.store.tokens(sid).items()}
        live = Live(sid, session, row.mode, row.preset, row.round, holders)
        live.series.place = self.store.series(sid)
        live.shown_to_end = row.shown_to_end  # its result stays filed apart (live.py)
        live.left = True  # its computers wait for a page or a request to come for them
        self._keep(live)
        self.turns.kick(live)
        self.advice.work_out_assist(live)
        return live

    def _keep(self, live: Live) -> None:
        """Hold `live` in memory, letting sessions nobody uses go."""
        if live.client is None and working_for.get() != ANYONE:
            live.client = working_for.get()  # who started it
        self.live[live.sid] = live
        now = time.monotonic()
        crowded = len(self.live) > MAX_LIVE
        gone = []
        for sid, other in list(self.live.items()):
            idle = now - other.last_used
            if (idle > IDLE_SECONDS or (crowded and idle > GRACE_SECONDS)) and not other.busy():
                del self.live[sid]
                gone.append(sid)
        if gone and self.ownership is not None:
            self.ownership.let_go(gone)

    def lose(self, sid: str) -> None:
        """Another process plays game `sid` now: forget it, and end its pages' sockets
        (their browsers reconnect, and reach the new owner)."""
        live = self.live.pop(sid, None)
        if live is None:
            return
        self.turns.stop(live)
        for viewer in list(live.viewers):
            viewer.close()

    def in_memory(self) -> set[str]:
        """The games this process holds, or is loading."""
        return set(self.live) | set(self._loading)

    # -- seats ------------------------------------------------------------------------
    async def join(
        self, live: Live, token: str | None = None, seat: int | None = None
    ) -> tuple[str | None, frozenset[int]]:
        joined = await self.seats.join(live, token, seat)
        self.presence.update(live)  # a page watching may be the new player's
        return joined

    async def leave(self, live: Live, token: str | None) -> None:
        await self.seats.leave(live, token)
        self.presence.update(live)  # their page no longer keeps the clock running

    # -- pages: the clock runs while a player's page is visible (presence.py) ---------
    def page_opened(self, live: Live, viewer: Viewer, client: str | None = None) -> None:
        """A page connected (its first view is left to it after this). `client`: whose
        work its computers' is, if the game was read back from the store."""
        live.client = live.client or client
        live.viewers.add(viewer)
        self.presence.update(live)
        live.left = False
        self.turns.kick(live)  # its computers go on if they had stopped
        if live.unopened_import and live.seats_of(viewer.token):
            # its player has it now: an import kept for good (written while the page
            # gets its first view; nobody waits for it)
            live.unopened_import = False
            writing = asyncio.get_running_loop().create_task(self._opened(live.sid))
            self._writing.add(writing)
            writing.add_done_callback(self._writing.discard)

    async def _opened(self, sid: str) -> None:
        try:
            await self.store.commit(import_opened(sid))
        except Exception:  # its next saved move or clock marks it too
            log.exception("the import %s was not marked as opened", sid)

    def page_shown(self, live: Live, viewer: Viewer, visible: bool) -> None:
        """A page was shown or hidden (it is told what its clock shows now)."""
        viewer.visible = visible
        self.presence.update(live, asking=viewer)

    def page_closed(self, live: Live, viewer: Viewer) -> None:
        live.viewers.discard(viewer)
        self.presence.update(live)
        self._left_if_nobody_waits(live)

    def _left_if_nobody_waits(self, live: Live) -> None:
        """With no page open and no request waiting, its computers stop (and its queued
        work is dropped) until someone returns."""
        if not live.viewers and not live.waiting:
            live.left = True
            asyncio.get_running_loop().call_later(self.left_grace, self._stop_if_left, live)

    def _stop_if_left(self, live: Live) -> None:
        if live.left:
            self.turns.stop_if_queued(live)

    async def close(self) -> None:
        """The server stops: every clock is stopped and saved."""
        await self.presence.stop_all(self.live.values())
        await asyncio.gather(*self._writing, return_exceptions=True)

    # -- acting -----------------------------------------------------------------------
    async def act(self, live: Live, token: str | None, message: Action,
                  client: str | None = None, arrived: float | None = None) -> Answer:
        """Carry out a player's action; raise ApiError (nothing changed) if refused. A hint,
        or a game's command, answers with a hint to show or a note for the player.
        `client`: whose share its long work counts in and whose limit of moves it takes
        from (429 over either); `arrived`: when it arrived (`time.perf_counter()`), for
        the metrics."""
        arrived = time.perf_counter() if arrived is None else arrived
        seats = live.seats_of(token)
        if not seats:
            raise ApiError(403, "you hold no seat in this game: you can only watch")
        await self.within_limit(client, Kind.MOVES)
        live.client = live.client or client
        with acting_for(client or live.client):
            return await self._act(live, token, seats, message, arrived)

    async def within_limit(self, client: str | None, kind: Kind, amount: int = 1) -> None:
        """Take `amount` from `client`'s bucket of `kind` (`limits/`): LimitReached (429,
        when to retry) if it does not hold that much. Nothing for no client named."""
        if client is None:
            return
        wait = await self.limits.take(client, kind, amount)
        if wait is not None:
            self.metrics.refused(kind)
            rule = self.limits.rules[kind]
            raise LimitReached(rule.what, rule.bound(), wait)

    async def _act(self, live: Live, token: str | None, seats: frozenset[int],
                   message: Action, arrived: float) -> Answer:
        live.left = False  # a player is here
        self.advice.play_on(live, token)
        async with live.lock:
            if message.stops_the_computer:
                self.turns.stop(live)  # the AI was thinking about a position about to go
            before = live.session.cursor
            with timing.part("apply"):
                try:
                    answer = await self.handlers[type(message)](live, token, seats, message)
                except GameError as error:
                    raise ApiError(409, str(error), isinstance(error, IgnoredMove),
                                   error.marks) from None
            with timing.part("commit"):
                await self.save(live, before if message.appends_moves else None)
            await self.broadcast.answer(live, sound_after(message.type, live.session), token)
        if isinstance(message, PlayMove):
            game = live.session.game.name
            self.metrics.move(game, "player")
            self.metrics.acknowledged(game, time.perf_counter() - arrived)
        self.turns.kick(live)
        self.advice.work_out_assist(live)
        return answer

    def play_on(self, live: Live, token: str | None) -> None:
        """A player acts: the advice they were waiting for is no longer wanted."""
        self.advice.play_on(live, token)

    def cancel(self, live: Live, token: str | None) -> None:
        """Stop the long work a player of the game asked for (a hint, a solver...)."""
        self.workers.cancel(live, token)

    async def save(self, live: Live, appended_from: int | None = None) -> None:
        """Commit the session's new state; if that fails, forget the unsaved state."""
        try:
            await self.store.commit(
                records.progress(live, self.now(), self.clock(), appended_from))
        except Fenced:
            self.lose(live.sid)
            raise ApiError(503, "this game is played on another server now: nothing was"
                           " saved here, try again") from None
        except Exception as error:
            self.live.pop(live.sid, None)  # the next request reloads what is on disk
            if self.store.unavailable(error):
                raise ApiError(503, "the games' database cannot be reached just now:"
                               " nothing was saved, try again in a moment") from None
            raise ApiError(500, f"the game could not be saved ({error}): try again") from None

    # -- the computer's turns ---------------------------------------------------------
    async def _play_computer_move(self, live: Live, state: Any, move: Any) -> bool:
        """Play the computer's `move`, thought out for `state`, if that is still the
        position (a player may have taken it back meanwhile)."""
        async with live.lock:
            session, seat = live.session, live.session.to_move
            # the position moved on, or a player took the seat back from the computer
            if session.state is not state or seat is None or not session.is_ai(seat):
                return False
            before = session.cursor
            session.play(move, seat)
            await self.save(live, appended_from=before)
            self.metrics.move(session.game.name, "computer")
        self.broadcast.show_all(live, sound_after("move", session))
        self.advice.work_out_assist(live)
        return True

    async def settle(self, live: Live) -> None:
        """Wait until the computer is not thinking: a bot gets the position to answer.
        The computers play while someone waits so (they go on if they had stopped);
        when the last waiter gives up and no page is open, they stop."""
        live.waiting += 1
        live.left = False
        try:
            self.turns.kick(live)
            await self.turns.settle(live)
        finally:
            live.waiting -= 1
            self._left_if_nobody_waits(live)

    # -- views ------------------------------------------------------------------------
    def view_for(self, live: Live, token: str | None, sound: str | None = None) -> Any:
        """The view of the seats `token` holds (None: a spectator's), as plain data."""
        return self.broadcast.view_for(live, token, sound)


@contextmanager
def acting_for(client: str | None) -> Iterator[str]:
    """Work asked for meanwhile is `client`'s (the caller's own if None): queued as theirs
    and counted in their share."""
    if client is None:
        yield working_for.get()
        return
    reset = working_for.set(client)
    try:
        yield client
    finally:
        working_for.reset(reset)
