"""Writes to a store, as data: each change says what happened, and each store applies it
in one transaction its own way (SQLite's in parlour.store.sqlite.writes), so the hub
describes a write once for every backend. The builders (`session_created`, ...) are the
names the server writes with; `Writes` is how a backend says how it writes each kind."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeAlias, TypeVar

from parlour.core.game import JSON
from parlour.store.pictures import Picture
from parlour.store.rows import KeptSession, Progress, Result, SeriesRow, SessionRow


@dataclass(frozen=True)
class SessionCreated:
    """A new session and its seat tokens; `moves`: its line, when it starts with one (an
    imported game), or `moves_text`: that line already in JSON, a move's text each (a
    long one, written out by a worker process)."""

    row: SessionRow
    tokens: Mapping[str, list[int]]
    now: float
    moves: Sequence[JSON] = ()
    moves_text: Sequence[str] = ()


@dataclass(frozen=True)
class ProgressSaved:
    """The session's new position, and its results if it is over (one per player): a
    game back in play (after an undo) has none."""

    progress: Progress
    results: Sequence[Result] = ()


@dataclass(frozen=True)
class TokenAdded:
    sid: str
    token: str
    seats: list[int]


@dataclass(frozen=True)
class ForgottenSet:
    """Take the game off the Resume list of `token`'s player, or put it back."""

    sid: str
    token: str
    forgotten: bool


@dataclass(frozen=True)
class SeatingChanged:
    """Who holds which seat now (`holders`: the tokens that changed, added if new; a
    token that left every seat is kept, so its browser may take a seat again) and which
    seats the computer plays for a player who left."""

    sid: str
    holders: Mapping[str, list[int]]
    stand_ins: Mapping[int, str]


@dataclass(frozen=True)
class UploadsExpired:
    """Drop the uploads no game uses that were last uploaded UNUSED_UPLOAD_LIFETIME
    before `now` (parlour.store.quota)."""

    now: float


@dataclass(frozen=True)
class UploadSaved:
    """Keep `picture` for `owner` (the uploader: `Client.key`), first expiring old uploads,
    then making room under the owner's quota (parlour.store.quota; raises OverQuota and
    changes nothing when the owner's saved games alone fill it). It is kept under the id
    its bytes make: an imported game's picture comes as it was exported, under that id
    (`check_brought_picture`). One kept under that id already stays as it is, and only
    changes owner."""

    picture: Picture
    owner: str
    now: float


@dataclass(frozen=True)
class ImportKept:
    """The session `sid`, just created from a saved file of `moves` moves, is `importer`'s
    (`Client.key`): first the imports nobody opened for UNOPENED_IMPORT_LIFETIME are
    dropped, then the importer's unopened imports make room under their quota
    (parlour.store.quota; raises OverImportQuota, and nothing is written, when the
    games they opened fill it)."""

    sid: str
    importer: str
    moves: int
    now: float


@dataclass(frozen=True)
class ImportOpened:
    """A page of the imported game `sid`'s player opened it: it is kept for good (a
    saved move marks it too)."""

    sid: str


@dataclass(frozen=True)
class SeriesSaved:
    """A game's place in its series (`SeriesRow`), replacing what was kept of it."""

    row: SeriesRow


@dataclass(frozen=True)
class Restored:
    """A backup merged in: each session, result and picture added unless one with its
    identity (sid; sid, round and seat; upload id) is kept already, which stays as it is.
    A session's moves, tokens and place in its series come with it. A restored picture
    is in use by a restored game, so it is no one's upload to count against a quota
    (owner '')."""

    sessions: tuple[KeptSession, ...]
    results: tuple[Result, ...]
    pictures: tuple[tuple[str, Picture], ...]
    now: float


@dataclass(frozen=True)
class Together:
    """Several changes written in order in the same transaction."""

    changes: tuple[Change, ...]


Change: TypeAlias = (
    SessionCreated | ProgressSaved | TokenAdded | ForgottenSet | SeatingChanged
    | UploadsExpired | UploadSaved | Restored | Together | SeriesSaved | ImportKept
    | ImportOpened
)
"""A write to a store, applied inside one transaction."""

Db = TypeVar("Db")


@dataclass
class Writes(Generic[Db]):
    """How a backend writes each kind of Change with its connection (`Db`), inside the
    caller's transaction: one function a kind, so that a kind added here is one that
    every backend must write (mypy and the constructor say which is missing). `apply`
    picks the function, and writes the parts of a Together in order."""

    session_created: Callable[[Db, SessionCreated], object]
    progress_saved: Callable[[Db, ProgressSaved], object]
    token_added: Callable[[Db, TokenAdded], object]
    forgotten_set: Callable[[Db, ForgottenSet], object]
    seating_changed: Callable[[Db, SeatingChanged], object]
    uploads_expired: Callable[[Db, UploadsExpired], object]
    upload_saved: Callable[[Db, UploadSaved], object]
    series_saved: Callable[[Db, SeriesSaved], object]
    restored: Callable[[Db, Restored], object]
    import_kept: Callable[[Db, ImportKept], object]
    import_opened: Callable[[Db, ImportOpened], object]

    def apply(self, db: Db, change: Change) -> None:
        match change:
            case SessionCreated():
                self.session_created(db, change)
            case ProgressSaved():
                self.progress_saved(db, change)
            case TokenAdded():
                self.token_added(db, change)
            case ForgottenSet():
                self.forgotten_set(db, change)
            case SeatingChanged():
                self.seating_changed(db, change)
            case UploadsExpired():
                self.uploads_expired(db, change)
            case UploadSaved():
                self.upload_saved(db, change)
            case SeriesSaved():
                self.series_saved(db, change)
            case Restored():
                self.restored(db, change)
            case ImportKept():
                self.import_kept(db, change)
            case ImportOpened():
                self.import_opened(db, change)
            case Together(changes):
                for part in changes:
                    self.apply(db, part)
            case _:  # not a Change: refused before anything is written
                raise TypeError(f"a store cannot apply {type(change).__name__}")


def session_created(
    row: SessionRow, tokens: Mapping[str, list[int]], now: float, moves: Sequence[JSON] = (),
    moves_text: Sequence[str] = (),
) -> Change:
    return SessionCreated(row, tokens, now, moves, moves_text)


def together(*changes: Change) -> Change:
    return Together(changes)


def progress_saved(progress: Progress, results: Sequence[Result] = ()) -> Change:
    return ProgressSaved(progress, tuple(results))


def token_added(sid: str, token: str, seats: list[int]) -> Change:
    return TokenAdded(sid, token, seats)


def forgotten_set(sid: str, token: str, forgotten: bool) -> Change:
    return ForgottenSet(sid, token, forgotten)


def seating_changed(
    sid: str, holders: Mapping[str, list[int]], stand_ins: Mapping[int, str]
) -> Change:
    return SeatingChanged(sid, holders, stand_ins)


def uploads_expired(now: float) -> Change:
    return UploadsExpired(now)


def upload_saved(picture: Picture, owner: str, now: float) -> Change:
    return UploadSaved(picture, owner, now)


def series_saved(row: SeriesRow) -> Change:
    return SeriesSaved(row)


def import_kept(sid: str, importer: str, moves: int, now: float) -> Change:
    return ImportKept(sid, importer, moves, now)


def import_opened(sid: str) -> Change:
    return ImportOpened(sid)
