"""The upload and import quotas, policies every store applies alike: how many pictures,
and how many MiB, each uploader keeps, how long a picture no game uses is kept, and which
of an uploader's pictures make room for a new one; how many moves of imported games each
importer keeps, and how long an imported game nobody opened is kept."""

from __future__ import annotations

from collections.abc import Iterable

UPLOADS_PER_OWNER = 20
UPLOAD_MIB_PER_OWNER = 32
UNUSED_UPLOAD_LIFETIME = 24 * 3600.0  # seconds an upload no game uses is kept
IMPORTED_MOVES_PER_OWNER = 100_000
"""Moves of imported games one player keeps: ten files of the most moves a file holds
(`saved_games.MAX_MOVES`), some 4 MB in the store."""
UNOPENED_IMPORT_LIFETIME = 24 * 3600.0
"""Seconds an imported game is kept if no page of its player opens it and no move is
played in it: a script's flood of imports goes away as unused uploads do."""


class OverQuota(Exception):
    """The uploader's pictures in saved games already fill their quota."""


def expired_before(now: float) -> float:
    """The time before which an upload no game uses, last uploaded then, is dropped."""
    return now - UNUSED_UPLOAD_LIFETIME


def over_quota(count: int, size: int) -> bool:
    """Whether an owner's `count` pictures of `size` bytes in all are over the quota."""
    return count > UPLOADS_PER_OWNER or size > UPLOAD_MIB_PER_OWNER * 2**20


def make_room(count: int, size: int, unused_oldest_first: Iterable[tuple[str, int]]) -> list[str]:
    """The ids of an owner's pictures to drop so that their `count` pictures of `size`
    bytes (the new one among them) fit the quota, taken from `unused_oldest_first` (their
    other pictures no game uses, as (id, size), least recently uploaded first).

    A picture belongs to whoever uploaded it last, and a player expects a new picture to
    just work, so the oldest unused ones make room. Pictures in saved games are never
    dropped: when those alone fill the quota this raises OverQuota, and the store keeps
    nothing of the upload."""
    dropped: list[str] = []
    for upload_id, dropped_size in unused_oldest_first:
        if not over_quota(count, size):
            break
        dropped.append(upload_id)
        count, size = count - 1, size - dropped_size
    if over_quota(count, size):
        raise OverQuota(
            f"your saved games already use the most pictures Parlour keeps for one player"
            f" ({UPLOADS_PER_OWNER} pictures, {UPLOAD_MIB_PER_OWNER} MiB), so this one was"
            f" not kept: start your game with a picture you uploaded before"
        )
    return dropped


class OverImportQuota(Exception):
    """The importer's games they opened already hold the moves they may keep."""


def unopened_imports_expire_before(now: float) -> float:
    """The time before which an imported game nobody opened, imported then, is dropped."""
    return now - UNOPENED_IMPORT_LIFETIME


def imports_to_drop(moves: int, unopened_oldest_first: Iterable[tuple[str, int]]) -> list[str]:
    """The sessions of an importer's unopened imports to drop so that their `moves` (the
    new import's among them) fit the quota, taken from `unopened_oldest_first` (as (sid,
    moves), least recently imported first); OverImportQuota when the games they opened
    alone fill it, and the store keeps nothing of the import."""
    dropped: list[str] = []
    for sid, dropped_moves in unopened_oldest_first:
        if moves <= IMPORTED_MOVES_PER_OWNER:
            break
        dropped.append(sid)
        moves -= dropped_moves
    if moves > IMPORTED_MOVES_PER_OWNER:
        raise OverImportQuota(
            f"your imported games already hold the most moves Parlour keeps for one player"
            f" ({IMPORTED_MOVES_PER_OWNER}), so this one was not imported"
        )
    return dropped
