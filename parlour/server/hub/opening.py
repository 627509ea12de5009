"""Opening games: a new deal or the deal of an id, a saved file adopted, a replay; the
seats filled at the start, the session's id and the owner's token.

A new game is committed before anyone hears of it, then kept in memory (`keep`) and the
computer starts if it is to move.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Collection, Mapping

from parlour.core import work
from parlour.core.game import BadParams, GameError, GameSpec
from parlour.core.gameid import GameId, new_seed, parse_game_id, position_id, stat_group
from parlour.core.session import AI_PREFIX, HUMAN, Clock, Session, seat_kind_error
from parlour.server.compute import DEAL_BUDGET
from parlour.server.hub import records
from parlour.server.hub.errors import ApiError
from parlour.server.hub.live import OPEN, Live
from parlour.server.hub.ready import ReadyDeals
from parlour.server.hub.saved_games import (
    QUICK_FILE,
    SavedGame,
    checked_pictures,
    pictures_kept,
    read_file,
)
from parlour.server.hub.turns import ComputerTurns
from parlour.server.hub.workers import QUICK_REPLAY_MOVES, Workers
from parlour.store import Change, OverImportQuota, OverQuota, Store, import_kept, together
from parlour.store.seat_tokens import token_digest


class Opening:
    def __init__(
        self, store: Store, games: Mapping[str, GameSpec], workers: Workers,
        turns: ComputerTurns, keep: Callable[[Live], None], now: Callable[[], float],
    ) -> None:
        self.store = store
        self.games = games
        self.workers = workers
        self.turns = turns
        self.keep = keep
        self.now = now
        self.ready = ReadyDeals(games)  # a slow first deal made early (`ready.py`)

    async def create(
        self,
        game: str,
        id_text: str | None = None,
        params: Mapping[str, object] | None = None,
        seats: list[str] | None = None,
        watched: bool = False,
    ) -> tuple[Live, str]:
        """A new game (`watched`: its computers start when a page opens it)."""
        spec = game_spec(self.games, game)
        game_id = self._game_id(spec, id_text, params)
        wanted = list(seats) if seats is not None else list(spec.default_seats)
        kinds, mine = _seating(spec, game_id, wanted)
        ready = self.ready.take(spec, game_id.params) if id_text is None else None
        if ready is not None:
            game_id, start = ready
        else:
            start = await self.workers.dealt(spec, game_id, 0, "dealing", work.deal,
                                             spec.game, game_id)
        return await self.open(Session(spec, game_id, kinds, start=start), mine,
                               watched=watched)

    async def adopt(self, data: bytes, owner: str) -> tuple[Live, str]:
        """A new session from a saved file's bytes (see `saved_games`): its pictures kept
        again as `owner`'s uploads, its moves replayed; the caller holds every human seat,
        and the cursor, help used and clock are the file's. A long file is read, replayed
        and written off the event loop: the others' requests go on meanwhile."""
        saved = await self._read(data)
        spec = game_spec(self.games, saved.game)
        game_id = self._game_id(spec, saved.id, None, brought=saved.uploads)
        kinds, mine = _seating(spec, game_id, list(saved.seats))
        pictures = await checked_pictures(saved, game_id.uploads(spec.game))
        try:
            session, line_text = await self.workers.dealt(
                spec, game_id, len(saved.moves), "replaying the saved game",
                work.replay_in_json, spec, game_id, kinds, saved.moves, saved.cursor,
            )
        except GameError as error:
            raise ApiError(422, f"this saved game cannot be replayed: {error}") from None
        every = range(len(session.seats))  # a file's help is its player's, who holds them all
        session.restore_help(every if saved.assisted else (), every if saved.assist else ())
        session.clock = Clock(saved.elapsed_ms)  # stopped until the player's page connects
        try:
            return await self.open(session, mine, pictures_kept(pictures, owner, self.now()),
                                   imported=(owner, line_text))
        except (OverQuota, OverImportQuota) as error:
            raise ApiError(429, str(error)) from None

    async def _read(self, data: bytes) -> SavedGame:
        """The saved file in `data`, read in place when short, else in a worker; ApiError
        422 saying what is wrong with it."""
        if len(data) <= QUICK_FILE:
            read = read_file(data)
        else:
            read = await self.workers.apart(DEAL_BUDGET, "reading the saved file",
                                            read_file, data)
        if isinstance(read, str):
            raise ApiError(422, read)
        return read

    async def open(
        self, session: Session, mine: list[int], also: Change | None = None,
        imported: tuple[str, list[str]] | None = None, shown: bool = False,
        watched: bool = False,
    ) -> tuple[Live, str]:
        """Keep `session` as a new live game whose owner holds `mine`: committed first
        (with `also`, in the same transaction), then in memory. `imported`: who brought
        it in a file (`Client.key`) and its line in JSON; a long one is written from a
        thread, and its results are filed apart (`gameid.FILED_APART`), as are those of a
        game `shown` (a solver's line to step through). `watched`: its computers wait for
        a page (`Hub.page_opened` starts them), so that their first moves are seen."""
        spec, sid, token = session.spec, secrets.token_urlsafe(9), secrets.token_urlsafe(18)
        live = Live(
            sid=sid,
            session=session,
            mode=describe_mode(spec, list(session.seats)),
            preset=stat_group(spec.game, session.game_id, imported is not None, shown),
            round=1,
            holders={token_digest(token): frozenset(mine)},
        )
        now = self.now()
        if imported is None:
            await self.store.commit(records.created(live, now, also))
        else:
            importer, line_text = imported
            live.unopened_import = True
            kept = together(records.created(live, now, also, line_text),
                            import_kept(sid, importer, len(line_text), now))
            long = len(line_text) > QUICK_REPLAY_MOVES
            await (self.store.commit_apart(kept) if long else self.store.commit(kept))
        # watched: as in a game everyone has left, its computers wait for a page (or a
        # request waiting for them), so that the first moves of a game they open are
        # played where its player sees them, at their pace, not found made before
        live.left = watched
        self.keep(live)
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
                game_id = GameId(spec.name, spec.game.validate(params or _unchosen(spec)),
                                 new_seed(), spec.game.deal_version)
        except BadParams as error:
            raise ApiError(422, str(error)) from None
        for upload_id in game_id.uploads(spec.game):
            if upload_id not in brought and not self.store.load_upload(upload_id):
                raise ApiError(422, f"no uploaded picture {upload_id!r}: the game id names "
                               "a picture kept only where it was uploaded")
        return game_id


def _unchosen(spec: GameSpec) -> Mapping[str, object]:
    """The parameters of a new game whose player chose none: the game's preset for a
    newcomer, if it names one (Escalator deals winnable deals), else the defaults."""
    preset = spec.game.new_game_preset
    return spec.game.presets[preset] if preset else {}


def game_spec(games: Mapping[str, GameSpec], game: str) -> GameSpec:
    """The game named `game`; ApiError 404 if this server has none."""
    if game not in games:
        raise ApiError(404, f"unknown game {game[:100]!r}; see /api/catalog")
    return games[game]


def _seating(spec: GameSpec, game_id: GameId, wanted: list[str]) -> tuple[list[str], list[int]]:
    """Each seat's kind (an open seat is a human one nobody holds yet) and the seats the
    caller holds; ApiError 422 if `wanted` does not fit the game."""
    names = spec.game.seat_names(game_id.params)
    if len(wanted) != len(names):
        raise ApiError(422, f"{spec.name} has {len(names)} seats ({', '.join(names)})")
    for kind in wanted:
        error = None if kind == OPEN else seat_kind_error(spec, kind)
        if error:
            raise ApiError(422, f"bad seat {kind[:40]!r}: {error} or 'open'")
    mine = [seat for seat, kind in enumerate(wanted) if kind == HUMAN]
    return [HUMAN if kind == OPEN else kind for kind in wanted], mine


def describe_mode(spec: GameSpec, seats: list[str]) -> str:
    """How the seats were filled, for grouping statistics: "solo", "vs AI (perfect)"..."""
    if len(seats) == 1:
        return "solo"
    levels = sorted({kind[len(AI_PREFIX) :] for kind in seats if kind.startswith(AI_PREFIX)})
    if not levels:
        return "two players" if len(seats) == 2 else f"{len(seats)} players"
    return f"vs AI ({', '.join(levels)})"
