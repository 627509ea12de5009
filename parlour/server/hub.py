"""The game loop: the live games, and every change to one of them.

Every action goes through `Hub.act`: it checks the caller's seats, lets the session
change, saves the change (committed before anyone hears of it), then leaves each
connected viewer the view of their own seats and lets the computer play if it is to
move. Its parts, one job each: `live.py` (a game in memory, its seats and viewers),
`views.py` (what a viewer is sent), `records.py` (what is saved), `turns.py` (the
computer's turns), `compute.py` (long work in worker processes), `viewers.py` (each
WebSocket's outbox). Games nobody uses leave memory and are reloaded when asked for.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import Callable, Collection, Mapping
from typing import Any, Literal, TypeVar

from parlour.core import work
from parlour.core.commands import server_command_states
from parlour.core.game import (
    JSON,
    BadParams,
    GameError,
    GameSpec,
    Hint,
    Playback,
    Replay,
    Status,
)
from parlour.core.gameid import GameId, new_seed, parse_game_id, position_id
from parlour.core.session import HUMAN, Clock, Session, seat_kind_error
from parlour.server import records, timing
from parlour.server.compute import (
    DEAL_BUDGET,
    MOVE_BUDGET,
    THINK_BUDGET,
    Compute,
    Progress,
    TooSlow,
    WorkerFailed,
    shared_compute,
)
from parlour.server.live import OPEN, ApiError, Live, Opened, Takeback, describe_mode
from parlour.server.saved_games import SavedGame, checked_pictures, pictures_kept
from parlour.server.turns import ComputerTurns
from parlour.server.viewers import Viewer
from parlour.server.views import build_view
from parlour.store import Change, OverQuota, Store, seating_changed

__all__ = ["OPEN", "Action", "ApiError", "Hub", "Live"]

Action = Literal["move", "undo", "redo", "restart", "hint", "assist", "command", "takeback"]
IDLE_SECONDS = 300.0
"""A session nobody has touched for this long leaves memory (it stays on disk)."""
MAX_LIVE = 200
"""Beyond this many sessions in memory, those idle for `GRACE_SECONDS` leave too."""
GRACE_SECONDS = 10.0
QUICK_REPLAY_MOVES = 100
"""Saved games of at most this many moves are replayed in place (a few ms at most),
longer ones in a worker process."""

T = TypeVar("T")
ViewKind = tuple[frozenset[int], bool, str | None]
"""What a viewer's view hangs on: its seats, whether it sees the game's id, its part in
a take-back. Viewers of one kind share one render."""


class Hub:
    def __init__(
        self,
        store: Store,
        games: Mapping[str, GameSpec],
        now: Callable[[], float] = time.time,
        ai_delay_scale: float = 1.0,
        compute: Compute | None = None,
    ) -> None:
        self.store = store
        self.games = games
        self.now = now
        self.ai_delay_scale = ai_delay_scale
        self.compute = compute or shared_compute()
        self.turns = ComputerTurns(self.compute, self._play_computer_move, ai_delay_scale)
        self.live: dict[str, Live] = {}
        self._loading: dict[str, asyncio.Task[Live]] = {}

    # -- creating and finding sessions -------------------------------------------
    def spec(self, game: str) -> GameSpec:
        if game not in self.games:
            raise ApiError(404, f"unknown game {game[:100]!r}; see /api/catalog")
        return self.games[game]

    async def create(
        self,
        game: str,
        id_text: str | None = None,
        params: Mapping[str, object] | None = None,
        seats: list[str] | None = None,
    ) -> tuple[Live, str]:
        spec = self.spec(game)
        game_id = self._game_id(spec, id_text, params)
        wanted = list(seats) if seats is not None else list(spec.default_seats)
        kinds, mine = self._seating(spec, game_id, wanted)
        start = await self._dealt(spec, game_id, 0, "dealing", work.deal, spec.game, game_id)
        return await self._open(Session(spec, game_id, kinds, start=start), mine)

    async def adopt(self, saved: SavedGame, owner: str) -> tuple[Live, str]:
        """A new session from a saved file (see `saved_games`): its pictures kept again as
        `owner`'s uploads, its moves replayed; the caller holds every human seat, and the
        cursor, help used and clock are the file's."""
        spec = self.spec(saved.game)
        game_id = self._game_id(spec, saved.id, None, brought=saved.uploads)
        kinds, mine = self._seating(spec, game_id, list(saved.seats))
        pictures = await checked_pictures(saved, game_id.uploads(spec.game))
        try:
            session = await self._dealt(
                spec, game_id, len(saved.moves), "replaying the saved game", work.replay,
                spec, game_id, kinds, saved.moves, saved.cursor,
            )
        except GameError as error:
            raise ApiError(422, f"this saved game cannot be replayed: {error}") from None
        session.assisted, session.assist = saved.assisted, saved.assist
        now = self.now()
        session.clock = Clock(saved.elapsed_ms, now if session.clock_running() else None)
        try:
            return await self._open(session, mine, pictures_kept(pictures, owner, now))
        except OverQuota as error:
            raise ApiError(429, str(error)) from None

    def _seating(
        self, spec: GameSpec, game_id: GameId, wanted: list[str]
    ) -> tuple[list[str], list[int]]:
        """Each seat's kind (an open seat is a human one nobody holds yet) and the seats
        the caller holds; ApiError 422 if `wanted` does not fit the game."""
        names = spec.game.seat_names(game_id.params)
        if len(wanted) != len(names):
            raise ApiError(422, f"{spec.name} has {len(names)} seats ({', '.join(names)})")
        for kind in wanted:
            error = None if kind == OPEN else seat_kind_error(spec, kind)
            if error:
                raise ApiError(422, f"bad seat {kind[:40]!r}: {error} or 'open'")
        mine = [seat for seat, kind in enumerate(wanted) if kind == HUMAN]
        return [HUMAN if kind == OPEN else kind for kind in wanted], mine

    async def _open(
        self, session: Session, mine: list[int], also: Change | None = None
    ) -> tuple[Live, str]:
        """Keep `session` as a new live game whose owner holds `mine`: committed first
        (with `also`, in the same transaction), then in memory."""
        spec, sid, token = session.spec, secrets.token_urlsafe(9), secrets.token_urlsafe(18)
        live = Live(
            sid=sid,
            session=session,
            mode=describe_mode(spec, list(session.seats)),
            preset=spec.game.stat_group(session.game_id.params),
            round=1,
            holders={token: frozenset(mine)},
        )
        await self.store.commit(records.created(live, self.now(), also))
        self._keep(live)
        self.turns.kick(live)
        return live, token

    def _game_id(
        self,
        spec: GameSpec,
        id_text: str | None,
        params: Mapping[str, object] | None,
        brought: Collection[str] = (),
    ) -> GameId:
        """The id asked for; ApiError 422 if it is not one, or names an uploaded picture
        neither kept here nor `brought` along."""
        try:
            if id_text is not None:
                if params:
                    raise BadParams("give either an id or params, not both")
                game_id = parse_game_id(spec.game, id_text)
            elif params and spec.game.position_param and spec.game.position_param in params:
                game_id = position_id(spec.game, params)
            else:
                game_id = GameId(spec.name, spec.game.validate(params or {}), new_seed(),
                                 spec.game.deal_version)
        except BadParams as error:
            raise ApiError(422, str(error)) from None
        for upload_id in game_id.uploads(spec.game):
            if upload_id not in brought and not self.store.load_upload(upload_id):
                raise ApiError(422, f"no uploaded picture {upload_id!r}: the game id names "
                               "a picture kept only where it was uploaded")
        return game_id

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
        loaded = self.store.load_session(sid) if len(sid) <= 64 else None
        if loaded is None:
            raise ApiError(404, f"no game session {sid[:64]!r}")
        row, line = loaded
        spec = self.spec(row.game)
        try:
            game_id = parse_game_id(spec.game, row.game_id)
            session = await self._dealt(
                spec, game_id, len(line), "replaying the saved game", work.replay,
                spec, game_id, row.seats, line, row.cursor,
            )
        except GameError as error:
            raise ApiError(409, f"this saved game cannot be replayed: {error}") from None
        session.assisted, session.assist = row.assisted, row.assist
        session.stand_ins = dict(row.stand_ins)
        session.clock.elapsed_ms, session.clock.last_at = row.elapsed_ms, row.clock_last_at
        holders = {t: frozenset(s) for t, s in self.store.tokens(sid).items()}
        live = Live(sid, session, row.mode, row.preset, row.round, holders)
        self._keep(live)
        self.turns.kick(live)
        self.work_out_assist(live)
        return live

    def _keep(self, live: Live) -> None:
        """Hold `live` in memory, letting sessions nobody uses go."""
        self.live[live.sid] = live
        now = time.monotonic()
        crowded = len(self.live) > MAX_LIVE
        for sid, other in list(self.live.items()):
            idle = now - other.last_used
            if (idle > IDLE_SECONDS or (crowded and idle > GRACE_SECONDS)) and not other.busy():
                del self.live[sid]

    # -- seats ----------------------------------------------------------------------
    async def join(
        self, live: Live, token: str | None = None, seat: int | None = None
    ) -> tuple[str | None, frozenset[int]]:
        """Give the caller `seat`, or the first open one if None; with none open they may
        still watch. A caller who held seats here before (`token`) keeps their token, so
        their browser comes back to the seat; the computer, if it stood in, gives it up."""
        async with live.lock:
            free = live.open_seats()
            if seat is None and free:
                seat = free[0]
            if seat is None:
                return (token if token in live.holders else None), live.seats_of(token)
            if seat not in free:
                raise ApiError(409, _taken(live, seat))
            if token not in live.holders:
                token = secrets.token_urlsafe(18)  # never one the caller chose
            live.holders[token] = live.seats_of(token) | {seat}
            live.session.stand_ins.pop(seat, None)
            live.takeback = None
            await self._seating_saved(live, token)
        self.broadcast(live, "join")
        return token, live.seats_of(token)

    async def leave(self, live: Live, token: str | None) -> None:
        """The caller gives up their seats: they become open, and the computer plays them
        meanwhile if the game has one (`GameSpec.stand_in_level`)."""
        seats = live.seats_of(token)
        if not seats or token is None:
            raise ApiError(403, "you hold no seat in this game")
        if not live.sharers(token):
            raise ApiError(409, "you are the only player here: start a new game instead")
        async with live.lock:
            session = live.session
            live.holders[token] = frozenset()
            level = session.spec.stand_in_level
            if level is not None and session.status is Status.PLAYING:
                session.stand_ins.update(dict.fromkeys(seats, level))
            live.takeback = None
            await self._seating_saved(live, token)
        self.broadcast(live, "leave")
        self.turns.kick(live)

    async def _seating_saved(self, live: Live, token: str) -> None:
        await self.store.commit(seating_changed(
            live.sid, {token: sorted(live.seats_of(token))}, live.session.stand_ins))

    # -- acting -------------------------------------------------------------------
    async def act(
        self, live: Live, token: str | None, action: Action, move: JSON = None
    ) -> Hint | str | Opened | None:
        """Carry out a player's action; raise ApiError (nothing changed) if refused. A hint,
        or a game's command, answers with a hint to show or a note for the player."""
        seats = live.seats_of(token)
        if not seats:
            raise ApiError(403, "you hold no seat in this game: you can only watch")
        self.play_on(live, token)
        async with live.lock:
            if action in ("undo", "restart", "takeback"):
                self.turns.stop(live)  # the AI was thinking about a position about to go
            before = live.session.cursor
            with timing.part("apply"):
                hint = await self._change(live, token, seats, action, move)
            with timing.part("commit"):
                await self._save(live, appended_from=before if action == "move" else None)
            await self._answer(live, _sound(action, live.session), token)
        self.turns.kick(live)
        self.work_out_assist(live)
        return hint

    async def _change(
        self, live: Live, token: str | None, seats: frozenset[int], action: Action,
        move: JSON,
    ) -> Hint | str | Opened | None:
        session = live.session
        try:
            if action == "move":
                await self._move(live, seats, move)
                live.takeback = None  # a take-back is of the last move: it is no longer
            elif action == "takeback":
                return self._answer_takeback(live, token, bool(move))
            elif action == "undo" and live.sharers(token):
                return self._ask_takeback(live, token, seats)
            elif action == "hint":
                return await self._hint(live, seats)
            elif action == "assist":
                session.set_assist(bool(move))
            elif action == "command":
                return await self._command(live, seats, str(move))
            elif live.held() - seats:
                raise GameError(f"{action} is off while another player shares this game")
            elif action == "undo":
                session.undo(seats)
            elif action == "redo":
                session.redo(seats)
            else:
                session.restart()
                live.round += 1
        except GameError as error:
            raise ApiError(409, str(error)) from None
        return None

    @staticmethod
    def _ask_takeback(live: Live, token: str | None, seats: frozenset[int]) -> str:
        """Undo when others play too: the others are asked first, as on chess servers."""
        if token is None or not live.session.can_undo(seats):
            raise GameError("there is no move of yours to take back")
        if live.takeback is not None:
            raise GameError("a take-back is already waiting for an answer")
        live.takeback = Takeback(token, set(live.sharers(token)))
        return "Asked to take back your last move: waiting for an answer"

    def _answer_takeback(self, live: Live, token: str | None, accept: bool) -> str:
        """Accept or refuse the take-back asked for; the asker may withdraw it."""
        request, role = live.takeback, live.takeback_role(token)
        if request is None or role is None or token is None:
            raise GameError("no take-back is waiting for your answer")
        if role == "asker" and accept:
            raise GameError("your take-back is waiting for the other players")
        if not accept:
            live.takeback = None
            if role == "asked":
                self._tell(live, request.asker, "Your take-back was refused")
            return "Take-back withdrawn" if role == "asker" else "Take-back refused"
        request.waiting_for.discard(token)
        if request.waiting_for:
            return "Accepted: waiting for the other players"
        live.takeback = None
        live.session.undo(live.seats_of(request.asker))
        self._tell(live, request.asker, "Your take-back was accepted")
        return "Take-back accepted"

    @staticmethod
    def _tell(live: Live, token: str, note: str) -> None:
        """A note for another player, sent after the view of the change it is about
        (a new view clears the note on the page)."""
        live.notes.append((token, note))

    async def _move(self, live: Live, seats: frozenset[int], move: JSON) -> None:
        session = live.session
        seat = session.to_move
        if seat not in seats:
            raise GameError("the game is over" if seat is None else "it is not your turn")
        after = None
        if session.game.slow_move(session.state, session.game.parse_move(move)):
            after = await self._long(
                MOVE_BUDGET, "this move", work.apply_move, session.game, session.state, move,
                live=live,
            )
        session.play(move, seat, after=after)

    async def _hint(self, live: Live, seats: frozenset[int]) -> Hint:
        session = live.session
        seat = session.to_move
        if seat not in seats:
            raise GameError("a hint is for the player to move")
        finder = session.hint_finder(seat)
        found = session.planned_hint(seat) or await self._long(
            THINK_BUDGET, "the hint", work.hint, finder, session.state, seat, live=live,
            advice=True,
        )
        return session.record_hint(seat, found)

    async def _command(
        self, live: Live, seats: frozenset[int], name: str
    ) -> Hint | str | Opened:
        """A game's server command (`GameSpec.command_handlers`), for the seat to move if
        the caller holds it: a hint is kept (shown on the board, the game now assisted); a
        replay opens as a new game."""
        session = live.session
        handler = session.spec.command_handlers.get(name)
        if handler is None:
            raise GameError(f"{session.game.title} has no command {name[:40]!r}")
        seat = session.to_move if session.to_move in seats else min(seats)
        if not server_command_states(session.spec, live.observe(seat), True)[name]:
            raise GameError(f"{name} cannot be used now")
        label = next(c.label for c in session.spec.commands if c.name == name)
        found = await self._long(THINK_BUDGET, label.rstrip("…"), handler, session.state, seat,
                                 live=live, advice=True)
        if isinstance(found, Replay):
            return await self._replay(live, seats, found)
        if isinstance(found, Playback):
            session.assisted = True
            live.playback = asyncio.get_running_loop().create_task(
                self._play_back(live, seat, found))
            return found.note
        return session.record_hint(seat, found) if isinstance(found, Hint) else found

    async def _replay(self, live: Live, seats: frozenset[int], replay: Replay) -> Opened:
        """The game's deal opened anew for the caller, `replay.moves` ahead to redo; it
        counts as assisted."""
        old = live.session
        try:
            session = await self._dealt(
                old.spec, old.game_id, len(replay.moves), "opening the replay", work.replay,
                old.spec, old.game_id, old.seats, replay.moves, 0,
            )
        except GameError as error:
            raise GameError(f"the replay cannot be played: {error}") from None
        session.assisted = True
        opened, token = await self._open(session, sorted(seats))
        return Opened(opened.sid, token, replay.note)

    async def _play_back(self, live: Live, seat: int, playback: Playback) -> None:
        """Play `playback.moves` for `seat`, one every `step_seconds`, each saved and
        shown as a move of the player's; it ends early if a move no longer fits."""
        for played, move in enumerate(playback.moves, 1):
            await asyncio.sleep(playback.step_seconds * self.ai_delay_scale)
            async with live.lock:
                session = live.session
                before = session.cursor
                try:
                    session.play(move, seat)
                except GameError:
                    live.playback = None
                    self.broadcast(live, None)
                    return
                await self._save(live, appended_from=before)
            if played == len(playback.moves):
                live.playback = None  # so that the last view says it is the player's turn
            self.broadcast(live, _sound("move", session))

    def play_on(self, live: Live, token: str | None) -> None:
        """A player acts: the advice they were waiting for (a hint, a solver) and any
        moves being played out for them are no longer wanted."""
        if not live.seats_of(token):
            return
        if live.advice is not None:
            live.advice.cancel()
        if live.playback is not None:
            live.playback.cancel()
            live.playback = None

    async def _dealt(
        self, spec: GameSpec, game_id: GameId, moves: int, what: str,
        job: Callable[..., T], *args: Any,
    ) -> T:
        """A deal, or a deal and its moves replayed: here when that is quick (no worker to
        wait for when the server has just started), in a worker when the game says its
        deals are slow or the line is long."""
        if spec.game.slow_deal(game_id.params) or moves > QUICK_REPLAY_MOVES:
            return await self._long(DEAL_BUDGET, what, job, *args)
        return job(*args)

    async def _long(
        self, budget: float, what: str, job: Callable[..., T], *args: Any,
        live: Live | None = None, advice: bool = False,
    ) -> T:
        """`job(*args)` in a worker process; a clear 503 if it cannot be done in time.
        For a game's players (`live`): its progress told to the viewers after half a
        second, and any of them may cancel it (`cancel`); `advice` (a hint, a solver)
        is also cancelled when they play on (`play_on`)."""
        if live is None:
            return await self._in_worker(budget, what, job, args, None)
        budget = live.budget(budget)
        with live.reporting(what[:1].upper() + what[1:], cancellable=True) as progress:
            running = asyncio.ensure_future(self._in_worker(budget, what, job, args, progress))
            live.work = running
            live.advice = running if advice else None
            try:
                return await running
            except asyncio.CancelledError:
                task = asyncio.current_task()
                if running.cancelled() and not (task and task.cancelling()):
                    raise ApiError(409, f"{what} was cancelled") from None
                raise
            finally:
                live.work = live.advice = None

    async def _in_worker(
        self, budget: float, what: str, job: Callable[..., T], args: tuple[Any, ...],
        progress: Progress | None,
    ) -> T:
        try:
            return await self.compute.run(budget, job, *args, progress=progress)
        except TooSlow:
            raise ApiError(503, f"{what} took too long ({budget:g} s): try again") from None
        except WorkerFailed as error:
            raise ApiError(503, f"{what} failed in its worker ({error}): try again") from None

    def cancel(self, live: Live, token: str | None) -> None:
        """Stop the long work a player of the game asked for (a hint, a solver...)."""
        if live.seats_of(token) and live.work is not None:
            live.work.cancel()

    async def _save(self, live: Live, appended_from: int | None = None) -> None:
        """Commit the session's new state; if that fails, forget the unsaved state."""
        try:
            await self.store.commit(records.progress(live, self.now(), appended_from))
        except Exception as error:
            self.live.pop(live.sid, None)  # the next request reloads what is on disk
            raise ApiError(500, f"the game could not be saved ({error}): try again") from None

    # -- the computer's turns -----------------------------------------------------
    async def _play_computer_move(self, live: Live, state: Any, move: JSON) -> bool:
        """Play the computer's `move`, thought out for `state`, if that is still the
        position (a player may have taken it back meanwhile)."""
        async with live.lock:
            session, seat = live.session, live.session.to_move
            # the position moved on, or a player took the seat back from the computer
            if session.state is not state or seat is None or not session.is_ai(seat):
                return False
            before = session.cursor
            session.play(move, seat)
            await self._save(live, appended_from=before)
        self.broadcast(live, _sound("move", session))
        self.work_out_assist(live)
        return True

    def work_out_assist(self, live: Live) -> None:
        """With the assist switch on, work out what it shows for the new position in a
        worker (`GameSpec.assist_facts`), then show it; a newer position cancels it."""
        session = live.session
        if not session.assist or session.spec.assist_facts is None or live.facts_now():
            return
        if live.assist_task is not None:
            live.assist_task.cancel()
        with contextlib.suppress(RuntimeError):  # no running loop: nobody to show it
            live.assist_task = asyncio.get_running_loop().create_task(self._assist(live))

    async def _assist(self, live: Live) -> None:
        state, spec = live.session.state, live.session.spec
        assert spec.assist_facts is not None
        try:
            facts = await self.compute.run(live.budget(THINK_BUDGET), spec.assist_facts, state)
        except (TooSlow, WorkerFailed):
            return  # the light stays unknown; the next move tries again
        if live.session.state is state:
            live.assist_facts = (state, facts)
            self.broadcast(live, None)

    async def settle(self, live: Live) -> None:
        """Wait until the computer is not thinking: a bot gets the position to answer."""
        await self.turns.settle(live)

    # -- views ----------------------------------------------------------------------
    def view(
        self, live: Live, seats: Collection[int], sound: str | None = None,
        token: str | None = None,
    ) -> JSON:
        return build_view(live, seats, token, self.now(), sound)

    def view_for(self, live: Live, token: str | None, sound: str | None = None) -> JSON:
        return self.view(live, live.seats_of(token), sound, token)

    def broadcast(self, live: Live, sound: str | None) -> None:
        """Leave every viewer its view (one render per kind of viewer); never waits."""
        notes, live.notes = live.notes, []
        self._show(live, sound, notes, {}, live.viewers)

    async def _answer(self, live: Live, sound: str | None, token: str | None) -> None:
        """`broadcast` after the action of player `token`, their own views first: those
        watching have theirs worked out only once the player's has gone out (on a machine
        the players share, their browsers then start after the player's has). The caller
        holds the game's lock, so every view is of the same position."""
        notes, live.notes = live.notes, []
        views: dict[ViewKind, JSON] = {}
        with timing.part("view (who acted)"):
            self._show(live, sound, notes, views,
                       [viewer for viewer in live.viewers if viewer.token == token])
        await asyncio.sleep(0)  # the player's outbox sends it now (see Viewer._pump)
        with timing.part("views (those watching)"):
            self._show(live, sound, notes, views,
                       [viewer for viewer in live.viewers if viewer.token != token])

    def _show(self, live: Live, sound: str | None, notes: list[tuple[str, str]],
              views: dict[ViewKind, JSON], viewers: Collection[Viewer]) -> None:
        """Leave each of `viewers` its view, rendered once per kind of viewer (`views`
        keeps those rendered), and the `notes` meant for it."""
        for viewer in list(viewers):
            if viewer.dropped.is_set():
                live.viewers.discard(viewer)
                continue
            viewer.seats = live.seats_of(viewer.token)
            key = (viewer.seats, live.reveals_id(viewer.token), live.takeback_role(viewer.token))
            if key not in views:
                views[key] = self.view_for(live, viewer.token, sound)
            viewer.show(views[key])
            for token, note in notes:
                if viewer.token == token:
                    viewer.tell({"type": "note", "note": note})

    def unfinished(self) -> list[dict[str, Any]]:
        """Unfinished games to resume; without their ids, which hold their deals."""
        return [
            {
                "session": row.sid,
                "game": row.game,
                "title": self.games[row.game].game.title if row.game in self.games else row.game,
                "mode": row.mode,
                "preset": row.preset,
                "moves": row.cursor,
                "headline": row.headline,
                "updated": row.updated,
            }
            for row in self.store.unfinished()
        ]


def _taken(live: Live, seat: int) -> str:
    names = live.session.game.seat_names(live.session.game_id.params)
    if not 0 <= seat < len(names):
        return f"there is no seat {seat}: this game has {len(names)}"
    if not live.session.is_human(seat):
        return f"{names[seat]} is the computer's seat"
    return f"{names[seat]} is taken"


def _sound(action: Action, session: Session) -> str:
    if action == "takeback":
        return "undo"
    if action != "move":
        return action
    return "end" if session.status is not Status.PLAYING else session.last_move_sound()
