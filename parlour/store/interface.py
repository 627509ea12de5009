"""What every store does, whatever keeps its data: the Store the hub, the routes and the
statistics use. Each backend (SQLite's in parlour.store.sqlite, PostgreSQL's in
parlour.store.postgres) implements the writes and reads; the writes made of a single
change are the same for all."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Protocol

from parlour.core.game import JSON
from parlour.store.changes import (
    Change,
    progress_saved,
    session_created,
    token_added,
    upload_saved,
    uploads_expired,
)
from parlour.store.pictures import Picture
from parlour.store.rows import (
    DailyStart,
    Identities,
    KeptSession,
    Progress,
    Result,
    SeriesRow,
    SessionRow,
    StatReading,
)


class ResultReads(Protocol):
    """The reads of finished games that the statistics, the daily deals, the past games
    and a game's records are drawn from: a Store's, of every result it keeps, or a
    player's own (parlour.stats.own.HeldResults). Each may block: call it in a thread."""

    def stat_reading(self, game: str | None, groups_per_game: int, per_group: int
                     ) -> StatReading: ...
    def daily_starts(self) -> list[DailyStart]: ...
    def daily_results(self) -> list[Result]: ...
    def latest_results(self, game: str | None, limit: int
                       ) -> list[tuple[Result, SessionRow | None]]: ...
    def result_and_group(self, sid: str, seat: int | None, per_group: int
                         ) -> tuple[Result, list[Result]] | None: ...


class NewerStore(RuntimeError):
    """The database was written by a newer Parlour, whose schema this one cannot read."""


class Fenced(RuntimeError):
    """A write of a game's play refused: another process plays the game now (its lease,
    parlour.store.postgres.leases, is no longer the writer's)."""


class Store(ABC):
    """Sessions with their moves, seat tokens, finished-game results and uploaded
    pictures, kept durably. Every write is a Change, applied whole or not at all; a read
    sees every write made before it. Opening a store brings its schema up to date."""

    @abstractmethod
    def write(self, change: Change) -> None:
        """Make `change` durable now, in its own transaction, on the caller's thread."""

    @abstractmethod
    async def commit(self, change: Change) -> None:
        """Make `change` durable without holding up the event loop; returns only once it
        is durable (a move is acknowledged after this). Raises what applying it raised."""

    def unavailable(self, error: Exception) -> bool:
        """Whether `error`, raised by a write, means the database cannot be reached just
        now (try again soon), rather than that the write itself was wrong."""
        return False

    @abstractmethod
    def close(self) -> None:
        """Finish the durability work under way and let go of the database."""

    # -- sessions ---------------------------------------------------------------------
    @abstractmethod
    def load_session(self, sid: str) -> tuple[SessionRow, list[JSON]] | None:
        """A session and its line of moves."""

    @abstractmethod
    def session_row(self, sid: str) -> SessionRow | None:
        """A session without its moves."""

    @abstractmethod
    def unfinished(self, limit: int = 20) -> list[SessionRow]:
        """The unfinished sessions with a move made, most recently updated first."""

    @abstractmethod
    def held_unfinished(self, tokens: Sequence[str]) -> list[tuple[str, list[int]]]:
        """The unfinished games (with a move made) in which one of `tokens` holds a seat
        and has not taken the game off its Resume list, most recent first: (sid, seats)."""

    @abstractmethod
    def series(self, sid: str) -> SeriesRow | None:
        """The game's place in its series of rematches; None for a game none came from
        and none followed."""

    # -- seat tokens, pictures, results -----------------------------------------------------
    @abstractmethod
    def tokens(self, sid: str) -> dict[str, list[int]]:
        """The session's seat tokens and the seats each holds, oldest token first."""

    @abstractmethod
    def load_upload(self, upload_id: str) -> Picture | None: ...

    @abstractmethod
    def results(self, game: str | None = None) -> list[Result]:
        """Every seat's results (of `game`, or of all games), oldest first. Safe to call
        from a thread, as `kept_sessions`."""

    @abstractmethod
    def result_game_ids(self) -> dict[str, str]:
        """The game id of each session that has results. Safe to call from a thread."""

    @abstractmethod
    def results_version(self) -> tuple[float, ...]:
        """Changes whenever a result is added or taken back, in time that does not grow
        with the results kept: what the statistics' answers are kept by. Safe to call
        from a thread while the event loop uses the store."""

    @abstractmethod
    def stat_reading(self, game: str | None, groups_per_game: int, per_group: int
                     ) -> StatReading:
        """The statistics' read (of `game`, or of all games), bounded whatever is kept:
        of each game the `groups_per_game` groups played most recently, of each group its
        `per_group` latest results. Safe to call from a thread, as `kept_sessions`."""

    @abstractmethod
    def daily_starts(self, sids: Sequence[str] | None = None) -> list[DailyStart]:
        """Every game started on a seed that names a date (`daily-YYYY-MM-DD`), oldest
        first: the candidates for the daily deals (`parlour.core.daily` says which are);
        only those of `sids`, if given. Safe to call from a thread, as `kept_sessions`."""

    @abstractmethod
    def daily_results(self) -> list[Result]:
        """The first player's result of the first round of each of those games, oldest
        first (what a daily deal's day counts). Safe to call from a thread."""

    @abstractmethod
    def latest_results(self, game: str | None, limit: int
                       ) -> list[tuple[Result, SessionRow | None]]:
        """The latest `limit` results (of `game`, or of all games), newest first, each
        with its session as it is now. Safe to call from a thread."""

    @abstractmethod
    def result_and_group(self, sid: str, seat: int | None, per_group: int
                         ) -> tuple[Result, list[Result]] | None:
        """Game `sid`'s last result (of its last round; `seat`'s, else its first seat's),
        with the `per_group` latest results of its statistics group finished no later,
        oldest first, itself among them: what its records are measured by. None if it
        has no result. Safe to call from a thread."""

    # -- a player's own, on a shared Parlour (parlour.stats.own) ----------------------
    @abstractmethod
    def held_seats(self, tokens: Sequence[str]) -> dict[str, list[int]]:
        """The seats these tokens (digests, as kept) hold, by session: every game, over
        or not, on a Resume list or taken off it. Safe to call from a thread."""

    @abstractmethod
    def results_of(self, sids: Sequence[str], limit: int) -> list[Result]:
        """Every seat's results of these sessions, the latest `limit` of them, oldest
        first. Safe to call from a thread."""

    @abstractmethod
    def session_rows(self, sids: Sequence[str]) -> dict[str, SessionRow]:
        """These sessions as they are now (those kept), without their moves. Safe to call
        from a thread."""

    # -- backups ------------------------------------------------------------------------
    @abstractmethod
    def kept_sessions(self) -> list[KeptSession]:
        """Every session whole (moves, tokens, place in its series), oldest first: what a
        backup holds. Safe to call from a thread while the event loop uses the store."""

    async def commit_apart(self, change: Change) -> None:
        """Make a large `change` (a restored backup) durable, holding up the event loop
        as little as the store can; by default as `commit`."""
        await self.commit(change)

    @abstractmethod
    def identities(self, sids: Sequence[str], tokens: Sequence[str],
                   uploads: Sequence[str]) -> Identities:
        """Which of these sessions (with their results), tokens and pictures are kept."""

    # -- writes of one change, the same for every store --------------------------------
    def create_session(self, row: SessionRow, tokens: dict[str, list[int]], now: float) -> None:
        self.write(session_created(row, tokens, now))

    def save(self, progress: Progress, *results: Result) -> None:
        self.write(progress_saved(progress, results))

    def add_token(self, sid: str, token: str, seats: list[int]) -> None:
        self.write(token_added(sid, token, seats))

    def save_upload(self, picture: Picture, owner: str, now: float) -> None:
        """Keep `picture` for `owner`; raises OverQuota (see UploadSaved)."""
        self.write(upload_saved(picture, owner, now))

    def expire_uploads(self, now: float) -> None:
        self.write(uploads_expired(now))
