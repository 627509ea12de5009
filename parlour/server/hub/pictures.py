"""Uploaded pictures, for a game's picture option: checked and re-encoded off the event
loop (`parlour.store.pictures`), kept per uploader within their quota, handed out by id."""

from __future__ import annotations

import asyncio

from parlour.server.hub.errors import ApiError
from parlour.store import BadUpload, OverQuota, Picture, Store, check_picture, upload_saved


async def kept_upload(store: Store, data: bytes, owner: str, now: float) -> Picture:
    """`data` kept as `owner`'s upload; ApiError 422 if it is no picture we take, 429 if
    they are over their quota."""
    try:
        # decoding takes CPU time the event loop must not wait for
        picture = await asyncio.to_thread(check_picture, data)
    except BadUpload as error:
        raise ApiError(422, str(error)) from None
    try:
        await store.commit(upload_saved(picture, owner, now))
    except OverQuota as error:
        raise ApiError(429, str(error)) from None
    return picture


def uploaded(store: Store, upload_id: str) -> Picture:
    """The picture kept as `upload_id`; ApiError 404 if there is none."""
    picture = store.load_upload(upload_id)
    if picture is None:
        raise ApiError(404, f"no uploaded picture {upload_id!r}")
    return picture
