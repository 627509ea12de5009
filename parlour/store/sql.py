"""What the SQL backends share: a Store whose every read is one of its backend's read
functions (its `reads` module), handed a connection. Each backend says which connection
serves a read the event loop makes (`_at_once`) and which a read that may run in a
thread while the loop uses the store (`_apart`: the reads documented "safe to call from
a thread")."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Generic, Protocol, TypeVar

from parlour.core.game import JSON
from parlour.store.interface import Store
from parlour.store.pictures import Picture
from parlour.store.rows import (
    DailyStart,
    Identities,
    KeptSession,
    Result,
    SeriesRow,
    SessionRow,
    StatReading,
)

Db = TypeVar("Db")
Db_contra = TypeVar("Db_contra", contravariant=True)


class Reads(Protocol[Db_contra]):
    """A backend's read functions (its `reads` module), each given a connection."""

    def load_session(self, db: Db_contra, sid: str
                     ) -> tuple[SessionRow, list[JSON]] | None: ...
    def session_row(self, db: Db_contra, sid: str) -> SessionRow | None: ...
    def unfinished(self, db: Db_contra, limit: int) -> list[SessionRow]: ...
    def held_unfinished(self, db: Db_contra, tokens: Sequence[str]
                        ) -> list[tuple[str, list[int]]]: ...
    def series(self, db: Db_contra, sid: str) -> SeriesRow | None: ...
    def tokens(self, db: Db_contra, sid: str) -> dict[str, list[int]]: ...
    def load_upload(self, db: Db_contra, upload_id: str) -> Picture | None: ...
    def results(self, db: Db_contra, game: str | None) -> list[Result]: ...
    def result_game_ids(self, db: Db_contra) -> dict[str, str]: ...
    def results_version(self, db: Db_contra) -> tuple[float, ...]: ...
    def stat_reading(self, db: Db_contra, game: str | None, groups_per_game: int,
                     per_group: int) -> StatReading: ...
    def daily_starts(self, db: Db_contra, sids: Sequence[str] | None) -> list[DailyStart]: ...
    def daily_results(self, db: Db_contra) -> list[Result]: ...
    def latest_results(self, db: Db_contra, game: str | None, limit: int
                       ) -> list[tuple[Result, SessionRow | None]]: ...
    def result_and_group(self, db: Db_contra, sid: str, seat: int | None, per_group: int
                         ) -> tuple[Result, list[Result]] | None: ...
    def held_seats(self, db: Db_contra, tokens: Sequence[str]) -> dict[str, list[int]]: ...
    def results_of(self, db: Db_contra, sids: Sequence[str], limit: int) -> list[Result]: ...
    def session_rows(self, db: Db_contra, sids: Sequence[str]) -> dict[str, SessionRow]: ...
    def kept_sessions(self, db: Db_contra) -> list[KeptSession]: ...
    def identities(self, db: Db_contra, sids: Sequence[str], tokens: Sequence[str],
                   uploads: Sequence[str]) -> Identities: ...


class SqlStore(Store, Generic[Db]):
    """A Store read through `reads`, its backend's read functions."""

    reads: Reads[Db]

    @abstractmethod
    def _at_once(self) -> AbstractContextManager[Db]:
        """The connection for a read the event loop makes (and waits for)."""

    @abstractmethod
    def _apart(self) -> AbstractContextManager[Db]:
        """A connection for a read that may run in a thread while the loop uses the store,
        seeing one moment of it."""

    def load_session(self, sid: str) -> tuple[SessionRow, list[JSON]] | None:
        with self._at_once() as db:
            return self.reads.load_session(db, sid)

    def session_row(self, sid: str) -> SessionRow | None:
        with self._at_once() as db:
            return self.reads.session_row(db, sid)

    def unfinished(self, limit: int = 20) -> list[SessionRow]:
        with self._at_once() as db:
            return self.reads.unfinished(db, limit)

    def held_unfinished(self, tokens: Sequence[str]) -> list[tuple[str, list[int]]]:
        with self._at_once() as db:
            return self.reads.held_unfinished(db, tokens)

    def series(self, sid: str) -> SeriesRow | None:
        with self._at_once() as db:
            return self.reads.series(db, sid)

    def tokens(self, sid: str) -> dict[str, list[int]]:
        with self._at_once() as db:
            return self.reads.tokens(db, sid)

    def load_upload(self, upload_id: str) -> Picture | None:
        with self._at_once() as db:
            return self.reads.load_upload(db, upload_id)

    def identities(self, sids: Sequence[str], tokens: Sequence[str],
                   uploads: Sequence[str]) -> Identities:
        with self._at_once() as db:
            return self.reads.identities(db, sids, tokens, uploads)

    # -- the reads that may run in a thread -----------------------------------------------
    def results(self, game: str | None = None) -> list[Result]:
        with self._apart() as db:
            return self.reads.results(db, game)

    def result_game_ids(self) -> dict[str, str]:
        with self._apart() as db:
            return self.reads.result_game_ids(db)

    def results_version(self) -> tuple[float, ...]:
        with self._apart() as db:
            return self.reads.results_version(db)

    def stat_reading(self, game: str | None, groups_per_game: int, per_group: int
                     ) -> StatReading:
        with self._apart() as db:
            return self.reads.stat_reading(db, game, groups_per_game, per_group)

    def daily_starts(self, sids: Sequence[str] | None = None) -> list[DailyStart]:
        with self._apart() as db:
            return self.reads.daily_starts(db, sids)

    def daily_results(self) -> list[Result]:
        with self._apart() as db:
            return self.reads.daily_results(db)

    def latest_results(self, game: str | None, limit: int
                       ) -> list[tuple[Result, SessionRow | None]]:
        with self._apart() as db:
            return self.reads.latest_results(db, game, limit)

    def result_and_group(self, sid: str, seat: int | None, per_group: int
                         ) -> tuple[Result, list[Result]] | None:
        with self._apart() as db:
            return self.reads.result_and_group(db, sid, seat, per_group)

    def held_seats(self, tokens: Sequence[str]) -> dict[str, list[int]]:
        with self._apart() as db:
            return self.reads.held_seats(db, tokens)

    def results_of(self, sids: Sequence[str], limit: int) -> list[Result]:
        with self._apart() as db:
            return self.reads.results_of(db, sids, limit)

    def session_rows(self, sids: Sequence[str]) -> dict[str, SessionRow]:
        with self._apart() as db:
            return self.reads.session_rows(db, sids)

    def kept_sessions(self) -> list[KeptSession]:
        with self._apart() as db:
            return self.reads.kept_sessions(db)
