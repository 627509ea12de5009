"""The game loop: live sessions, who holds which seat, saving, AI turns, pushing views.

Every action goes through `Hub.act`: it checks the caller's seats, lets the session
change, saves the change (committed before anyone hears of it), then leaves each
connected viewer the view of their own seats and starts the AI if it is to move.
Long work (deals, slow moves, hints, AI moves) runs in worker processes
(`parlour.server.compute`); sessions nobody uses are dropped from memory and reloaded
from the store when asked for again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from parlour.core import work
from parlour.core.game import (
    JSON,
    BadParams,
    GameError,
    GameSpec,
    Hint,
    RenderContext,
    Status,
)
from parlour.core.gameid import GameId, new_seed, params_text, parse_game_id
from parlour.core.session import AI_PREFIX, HUMAN, Session, seat_kind_error
from parlour.server.compute import (
    DEAL_BUDGET,
    MOVE_BUDGET,
    THINK_BUDGET,
    Compute,
    TooSlow,
    WorkerFailed,
    shared_compute,
)
from parlour.server.viewers import Viewer
from parlour.store import (
    Progress,
    Result,
    SessionRow,
    Store,
    progress_saved,
    session_created,
    token_added,
)

OPEN = "open"  # a human seat kept free for whoever opens the invite link
Action = Literal["move", "undo", "redo", "restart", "hint", "assist"]
IDLE_SECONDS = 300.0
"""A session nobody has touched for this long leaves memory (it stays on disk)."""
MAX_LIVE = 200
"""Beyond this many sessions in memory, those idle for `GRACE_SECONDS` leave too."""
GRACE_SECONDS = 10.0

log = logging.getLogger("parlour")
T = TypeVar("T")


class ApiError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass(eq=False)
class Live:
    sid: str
    session: Session
    mode: str
    preset: str
    round: int
    holders: dict[str, frozenset[int]]  # token -> seats; the first token is the owner's
    viewers: set[Viewer] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    ai_task: asyncio.Task[None] | None = None
    last_used: float = field(default_factory=time.monotonic)
    # the last observation per seat, with the state it was made from: every viewer and
    # the saved headline need the same one after each change
    observed: dict[int | None, tuple[Any, JSON]] = field(default_factory=dict)

    @property
    def owner(self) -> str | None:
        """The token of whoever started the game."""
        return next(iter(self.holders), None)

    def observe(self, seat: int | None) -> JSON:
        state = self.session.state
        cached = self.observed.get(seat)
        if cached is None or cached[0] is not state:
            cached = (state, self.session.game.observe(state, seat))
            self.observed[seat] = cached
        return cached[1]

    def seats_of(self, token: str | None) -> frozenset[int]:
        return self.holders.get(token or "", frozenset())

    def held(self) -> frozenset[int]:
        return frozenset().union(*self.holders.values())

    def open_seats(self) -> list[int]:
        return [
            seat
            for seat, kind in enumerate(self.session.seats)
            if kind == HUMAN and seat not in self.held()
        ]

    def reveals_id(self, token: str | None) -> bool:
        """The game id holds the deal (mines, pouch order): only its owner sees it while
        the game is on; once it is over, anyone may."""
        return (token is not None and token == self.owner) or (
            self.session.status is not Status.PLAYING
        )

    def busy(self) -> bool:
        return bool(self.viewers) or self.lock.locked() or (
            self.ai_task is not None and not self.ai_task.done()
        )


def describe_mode(spec: GameSpec, seats: list[str]) -> str:
    """How the seats were filled, for grouping statistics: "solo", "vs AI (perfect)"..."""
    if len(seats) == 1:
        return "solo"
    levels = sorted({kind[len(AI_PREFIX) :] for kind in seats if kind.startswith(AI_PREFIX)})
    if not levels:
        return "two players" if len(seats) == 2 else f"{len(seats)} players"
    return f"vs AI ({', '.join(levels)})"


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
        names = spec.game.seat_names(game_id.params)
        wanted = list(seats) if seats is not None else list(spec.default_seats)
        if len(wanted) != len(names):
            raise ApiError(422, f"{game} has {len(names)} seats ({', '.join(names)})")
        for kind in wanted:
            error = None if kind == OPEN else seat_kind_error(spec, kind)
            if error:
                raise ApiError(422, f"bad seat {kind[:40]!r}: {error} or 'open'")
        mine = [seat for seat, kind in enumerate(wanted) if kind == HUMAN]
        kinds = [HUMAN if kind == OPEN else kind for kind in wanted]
        start = await self._long(
            DEAL_BUDGET, "dealing", work.deal, spec.game, game_id.params, game_id.rng(spec.game)
        )
        session = Session(spec, game_id, kinds, start=start)
        sid, token = secrets.token_urlsafe(9), secrets.token_urlsafe(18)
        live = Live(
            sid=sid,
            session=session,
            mode=describe_mode(spec, kinds),
            preset=spec.game.preset_of(game_id.params) or "custom",
            round=1,
            holders={token: frozenset(mine)},
        )
        row = SessionRow(
            sid, game, session.id_text, kinds, live.mode, live.preset, 0, 1, False, 0,
            None, Status.PLAYING.value, self._headline(live), self.now(),
        )
        await self.store.commit(session_created(row, {token: mine}, self.now()))
        self._keep(live)
        self._kick_ai(live)
        return live, token

    def _game_id(
        self, spec: GameSpec, id_text: str | None, params: Mapping[str, object] | None
    ) -> GameId:
        try:
            if id_text is not None:
                if params:
                    raise BadParams("give either an id or params, not both")
                game_id = parse_game_id(spec.game, id_text)
            else:
                game_id = GameId(spec.name, spec.game.validate(params or {}), new_seed())
        except BadParams as error:
            raise ApiError(422, str(error)) from None
        for param in spec.game.parameters:
            chosen = game_id.params[param.name]
            if param.kind == "upload" and chosen and not self.store.load_upload(str(chosen)):
                raise ApiError(422, f"{param.name}: no uploaded picture {chosen!r}")
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
            session = await self._long(
                DEAL_BUDGET, "replaying the saved game", work.restore,
                spec, game_id, row.seats, line, row.cursor,
            )
        except GameError as error:
            raise ApiError(409, f"this saved game cannot be replayed: {error}") from None
        session.assisted, session.assist = row.assisted, row.assist
        session.clock.elapsed_ms, session.clock.last_at = row.elapsed_ms, row.clock_last_at
        holders = {t: frozenset(s) for t, s in self.store.tokens(sid).items()}
        live = Live(sid, session, row.mode, row.preset, row.round, holders)
        self._keep(live)
        self._kick_ai(live)
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

    async def join(self, live: Live) -> tuple[str | None, frozenset[int]]:
        """Give the caller the first open seat, or nothing: they may still watch."""
        free = live.open_seats()
        if not free:
            return None, frozenset()
        token = secrets.token_urlsafe(18)
        await self.store.commit(token_added(live.sid, token, free[:1]))
        live.holders[token] = frozenset(free[:1])
        return token, live.holders[token]

    # -- acting -------------------------------------------------------------------
    async def act(
        self, live: Live, token: str | None, action: Action, move: JSON = None
    ) -> Hint | None:
        """Carry out a player's action; raise ApiError (nothing changed) if refused."""
        seats = live.seats_of(token)
        if not seats:
            raise ApiError(403, "you hold no seat in this game: you can only watch")
        async with live.lock:
            if action in ("undo", "restart"):
                self._stop_ai(live)  # the AI was thinking about a position about to go
            before = live.session.cursor
            hint = await self._change(live, seats, action, move)
            await self._save(live, appended_from=before if action == "move" else None)
        self.broadcast(live, _sound(action, live.session))
        self._kick_ai(live)
        return hint

    async def _change(
        self, live: Live, seats: frozenset[int], action: Action, move: JSON
    ) -> Hint | None:
        session = live.session
        try:
            if action == "move":
                await self._move(session, seats, move)
            elif action == "hint":
                return await self._hint(session, seats)
            elif action == "assist":
                session.set_assist(bool(move))
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

    async def _move(self, session: Session, seats: frozenset[int], move: JSON) -> None:
        seat = session.to_move
        if seat not in seats:
            raise GameError("the game is over" if seat is None else "it is not your turn")
        after = None
        if session.game.slow_move(session.state, session.game.parse_move(move)):
            after = await self._long(
                MOVE_BUDGET, "this move", work.apply_move, session.game, session.state, move
            )
        session.play(move, seat, after=after)

    async def _hint(self, session: Session, seats: frozenset[int]) -> Hint:
        seat = session.to_move
        if seat not in seats:
            raise GameError("a hint is for the player to move")
        finder = session.hint_finder(seat)
        found = await self._long(THINK_BUDGET, "the hint", work.hint, finder, session.state, seat)
        return session.record_hint(seat, found)

    async def _long(self, budget: float, what: str, job: Callable[..., T], *args: Any) -> T:
        """`job(*args)` in a worker process; a clear 503 if it cannot be done in time."""
        try:
            return await self.compute.run(budget, job, *args)
        except TooSlow:
            raise ApiError(503, f"{what} took too long ({budget:g} s): try again") from None
        except WorkerFailed as error:
            raise ApiError(503, f"{what} failed in its worker ({error}): try again") from None

    async def _save(self, live: Live, appended_from: int | None = None) -> None:
        """Commit the session's new state; if that fails, forget the unsaved state."""
        session, now = live.session, self.now()
        session.clock.record(now, session.clock_running())
        if session.cursor == 0 and appended_from is None:
            appended_from = 0  # a restart clears the line
        status = session.status
        result = self._result(live) if status is not Status.PLAYING else None
        change = progress_saved(
            Progress(
                sid=live.sid,
                cursor=session.cursor,
                round=live.round,
                assisted=session.assisted,
                elapsed_ms=session.clock.elapsed_ms,
                clock_last_at=session.clock.last_at,
                status=status.value,
                headline=self._headline(live),
                now=now,
                assist=session.assist,
                new_moves_from=appended_from,
                new_moves=session.line_from(appended_from) if appended_from is not None else (),
            ),
            result,
        )
        try:
            await self.store.commit(change)
        except Exception as error:
            self.live.pop(live.sid, None)  # the next request reloads what is on disk
            raise ApiError(500, f"the game could not be saved ({error}): try again") from None

    def _result(self, live: Live) -> Result | None:
        """The finished game as the player who started it saw it (None if they hold no seat)."""
        session = live.session
        owner = min(live.seats_of(live.owner), default=None)
        if owner is None:
            return None
        scores = session.game.scores(session.state)
        return Result(
            sid=live.sid,
            round=live.round,
            game=session.game.name,
            preset=live.preset,
            mode=live.mode,
            outcome=_outcome(session, {owner}) or "draw",
            score=scores[owner] if scores else None,
            elapsed_ms=session.clock.elapsed_ms,
            moves=session.cursor,
            assisted=session.assisted,
            finished=self.now(),
            figures=session.game.figures(
                session.state, session.clock.elapsed_ms, session.cursor
            ),
        )

    # -- the computer's turns -----------------------------------------------------
    def _kick_ai(self, live: Live) -> None:
        session = live.session
        if not session.is_ai(session.to_move):
            return
        if live.ai_task is None or live.ai_task.done():
            with contextlib.suppress(RuntimeError):  # no running loop: played on load
                live.ai_task = asyncio.get_running_loop().create_task(self._ai_turns(live))

    def _stop_ai(self, live: Live) -> None:
        if live.ai_task is not None and not live.ai_task.done():
            live.ai_task.cancel()

    async def _ai_turns(self, live: Live) -> None:
        """Play the computer's turns. It thinks without holding the game, so a player's
        undo stops it; a move thought out for a position since left is dropped."""
        delay = live.session.spec.ai_delay_seconds * self.ai_delay_scale
        while live.session.is_ai(live.session.to_move):
            if live.viewers and delay:
                await asyncio.sleep(delay)  # let people see whose turn it was
            session = live.session
            state, seat = session.state, session.to_move
            if seat is None or not session.is_ai(seat):
                break
            move = await self._think(session, state)
            async with live.lock:
                if session.state is not state:
                    continue
                before = session.cursor
                session.play(move, seat)
                await self._save(live, appended_from=before)
            self.broadcast(live, _sound("move", live.session))

    async def _think(self, session: Session, state: Any) -> JSON:
        player, rng = session.ai_player()
        try:
            return await self.compute.run(
                THINK_BUDGET, work.ai_move, session.game, player, state, rng
            )
        except (TooSlow, WorkerFailed) as error:  # never leave the game waiting
            log.warning("%s: the AI failed (%s); it plays a random move", session.id_text, error)
            moves = session.game.legal_moves(state)
            return session.game.move_to_json(random.Random(session.cursor).choice(moves))

    async def settle(self, live: Live) -> None:
        """Wait until no AI is thinking: a bot gets the position it must answer."""
        while live.ai_task is not None and not live.ai_task.done():
            await asyncio.wait({live.ai_task})

    # -- views ----------------------------------------------------------------------
    def view(
        self, live: Live, seats: Collection[int], sound: str | None = None,
        token: str | None = None,
    ) -> JSON:
        session, game = live.session, live.session.game
        to_move = session.to_move
        perspective = to_move if to_move in seats else min(seats, default=None)
        observation = live.observe(perspective)
        can_move = to_move is not None and to_move in seats
        hint = session.hints.get(perspective) if perspective is not None else None
        context = RenderContext(
            perspective, can_move, hint.move if hint else None, session.assist
        )
        names = game.seat_names(session.game_id.params)
        scores = game.scores(session.state)
        winners = game.winners(session.state)
        held = live.held()
        alone = bool(seats) and not (held - set(seats))
        return {
            "game": game.name,
            "title": game.title,
            "id": session.id_text if live.reveals_id(token) else None,
            "session": live.sid,
            "status": session.status.value,
            "to_move": to_move,
            "scores": list(scores),
            "winners": list(winners),
            "moves": session.cursor,
            "line_length": session.line_length,
            "headline": game.headline(observation),
            "text": game.text(observation),
            "html": session.spec.render(observation, context),
            "seats": [
                {
                    "name": names[seat],
                    "kind": "ai" if session.is_ai(seat) else "human",
                    "level": session.ai_level(seat) if session.is_ai(seat) else None,
                    "open": seat in live.open_seats(),
                    "held": seat in held,
                    "you": seat in seats,
                    "score": scores[seat],
                }
                for seat in range(len(names))
            ],
            "you": sorted(seats),
            "can_move": can_move,
            "can_undo": alone and session.can_undo(seats),
            "can_restart": alone and session.line_length > 0,
            "can_redo": alone and session.cursor < session.line_length,
            "outcome": _outcome(session, set(seats)),
            "assisted": session.assisted,
            "assist": session.assist,
            "elapsed_ms": session.clock.reading_ms(self.now()),
            "clock_running": session.clock_running(),
            "hint": {"move": hint.move, "note": hint.note} if hint else None,
            "preset": live.preset,
            "params": session.game_id.params,
            "params_text": params_text(game, session.game_id.params),
            "sound": sound,
        }

    def view_for(self, live: Live, token: str | None, sound: str | None = None) -> JSON:
        return self.view(live, live.seats_of(token), sound, token)

    def broadcast(self, live: Live, sound: str | None) -> None:
        """Leave every viewer its view (one render per kind of viewer); never waits."""
        views: dict[tuple[frozenset[int], bool], JSON] = {}
        for viewer in list(live.viewers):
            if viewer.dropped.is_set():
                live.viewers.discard(viewer)
                continue
            viewer.seats = live.seats_of(viewer.token)
            key = (viewer.seats, live.reveals_id(viewer.token))
            if key not in views:
                views[key] = self.view_for(live, viewer.token, sound)
            viewer.show(views[key])

    def _headline(self, live: Live) -> str:
        return live.session.game.headline(live.observe(None))

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


def _outcome(session: Session, seats: Collection[int]) -> str | None:
    """Won, lost or draw for someone holding `seats`; None while playing or to watchers."""
    status = session.status
    if status is Status.PLAYING or not seats:
        return None
    if status is Status.DRAW:
        return "draw"
    winners = session.game.winners(session.state)
    return "won" if set(winners) & set(seats) else "lost"


def _sound(action: Action, session: Session) -> str:
    if action != "move":
        return action
    return "end" if session.status is not Status.PLAYING else session.last_move_sound()
