"""Uploaded pictures: decoding and re-encoding, what is served, quota, expiry, and the
store's schema migrations; and the upload parameter kind."""

from __future__ import annotations

import hashlib
import io
import shutil
import sqlite3
import struct
import time
import zlib
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from httpx import Response
from PIL import Image

from parlour.core.game import BadParams, Param
from parlour.store import NewerStore, OverQuota, SessionRow
from parlour.store import quota as store_module
from parlour.store.pictures import KEPT_SIDE, MAX_BYTES, BadUpload, Picture, check_picture
from parlour.store.quota import UPLOADS_PER_OWNER, make_room
from parlour.store.seat_tokens import token_digest
from parlour.store.sqlite import SqliteStore as Store
from parlour.store.sqlite.schema import SCHEMA_VERSION
from tests.support.stores import on_both_stores, reopened, run_sql

DAY = 24 * 3600.0
NOW = 1_700_000_000.0


def chunk(kind: bytes, data: bytes) -> bytes:
    crc = struct.pack(">I", zlib.crc32(kind + data))
    return struct.pack(">I", len(data)) + kind + data + crc


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_header(width: int, height: int) -> bytes:
    return PNG_SIGNATURE + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))


def png(width: int, height: int) -> bytes:
    rows = b"".join(b"\x00" + b"\x10\x20\x30" * width for _ in range(height))
    return png_header(width, height) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def encoded(image: Image.Image, kind: str, **options: object) -> bytes:
    out = io.BytesIO()
    image.save(out, kind, **options)
    return out.getvalue()


def jpeg(width: int, height: int, **options: object) -> bytes:
    return encoded(Image.new("RGB", (width, height), (200, 30, 30)), "JPEG", **options)


def noisy_png(side: int) -> bytes:
    """A PNG that compresses badly, so that cutting it cuts its pixels."""
    return encoded(Image.effect_noise((side, side), 64).convert("RGB"), "PNG")


def decoded(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data))


def jpeg_whose_markers_lie() -> bytes:
    """A 65000×65000 JPEG that a reader taking a restart marker (which has no length) for
    a segment with one reads as 10×10: it skips to a start-of-frame inside an APP1."""
    def start_of_frame(width: int, height: int) -> bytes:
        return b"\xff\xc0" + struct.pack(">HBHHB", 11, 8, height, width, 1) + b"\x01\x11\x00"

    hidden = start_of_frame(10, 10)
    return (
        b"\xff\xd8" + b"\xff\xd0" + struct.pack(">H", 19)  # the "length" lands on `hidden`
        + start_of_frame(65000, 65000)
        + b"\xff\xe1" + struct.pack(">H", 2 + len(hidden)) + hidden
        + b"\xff\xda" + struct.pack(">HBBBBBB", 8, 1, 1, 0, 0, 0x3F, 0) + b"\x00" * 16
        + b"\xff\xd9"
    )


def post_picture(client: TestClient, data: bytes) -> Response:
    """POST `data` to /api/uploads as a PNG (the server decides what it really is)."""
    return client.post("/api/uploads", content=data, headers={"Content-Type": "image/png"})


def session_using(store: Store, sid: str, upload_id: str) -> None:
    """A saved game whose id has `upload_id` as a parameter value."""
    row = SessionRow(
        sid=sid, game="sliding", game_id=f"sliding:size=4,image={upload_id}#seed1",
        seats=["human"], mode="solo", preset="custom", cursor=0, round=1, assisted=False,
        elapsed_ms=0, clock_last_at=None, status="playing", headline="", updated=NOW,
    )
    store.create_session(row, {f"token-{sid}": [0]}, NOW)


def distinct_pictures(count: int) -> list[Picture]:
    return [check_picture(png(4 + i, 3)) for i in range(count)]


# -- decoding and re-encoding ---------------------------------------------------------


def test_an_opaque_picture_is_kept_as_jpeg_and_a_transparent_one_as_png() -> None:
    opaque = check_picture(png(12, 7))
    assert (opaque.media_type, opaque.width, opaque.height) == ("image/jpeg", 12, 7)
    assert decoded(opaque.data).format == "JPEG"
    see_through = Image.new("RGBA", (5, 4), (0, 0, 255, 255))
    see_through.putpixel((0, 0), (0, 0, 0, 0))
    kept = check_picture(encoded(see_through, "WEBP", lossless=True))
    assert (kept.media_type, kept.width, kept.height) == ("image/png", 5, 4)
    assert decoded(kept.data).getpixel((0, 0)) == (0, 0, 0, 0)


def test_a_real_jpeg_is_decoded_and_kept() -> None:
    picture = check_picture(jpeg(640, 480))
    assert (picture.media_type, picture.width, picture.height) == ("image/jpeg", 640, 480)
    assert picture.upload_id == hashlib.sha256(picture.data).hexdigest()[:16]


def test_a_big_picture_is_scaled_down() -> None:
    picture = check_picture(png(3000, 1000))
    assert (picture.width, picture.height) == (KEPT_SIDE, 683)
    assert decoded(picture.data).size == (KEPT_SIDE, 683)


def test_exif_orientation_is_applied_and_metadata_stripped() -> None:
    # a landscape picture, red on the left, whose EXIF says "turn a quarter clockwise"
    sideways = Image.new("RGB", (40, 20), (0, 0, 255))
    sideways.paste((255, 0, 0), (0, 0, 20, 20))
    exif = Image.Exif()
    exif[0x0112] = 6  # Orientation
    exif[0x013B] = "secret-artist"  # Artist
    data = encoded(sideways, "JPEG", exif=exif, comment=b"secret-comment", quality=95)
    assert b"secret" in data

    picture = check_picture(data)
    upright = decoded(picture.data)
    assert (picture.width, picture.height) == upright.size == (20, 40)
    red, _, blue = upright.convert("RGB").getpixel((10, 5))
    assert red > 200 and blue < 60  # the left half turned to the top
    assert b"secret" not in picture.data
    assert not upright.getexif()
    assert "comment" not in upright.info and "exif" not in upright.info

    with_text = Image.new("RGBA", (6, 6), (0, 0, 0, 0))
    from PIL.PngImagePlugin import PngInfo

    text = PngInfo()
    text.add_text("Comment", "secret-text")
    kept = check_picture(encoded(with_text, "PNG", pnginfo=text))
    assert kept.media_type == "image/png"
    assert b"secret" not in kept.data


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (encoded(Image.new("RGB", (4, 4)), "GIF"), "PNG, JPEG or WebP"),
        (b"<html><script>alert(1)</script></html>", "PNG, JPEG or WebP"),
        (png(8, 8)[:20], "damaged"),  # cut in its header
        (noisy_png(64)[:-2000], "damaged"),  # cut in its pixels
        (png_header(10, 10) + b"<html><script>alert(1)</script></html>", "damaged"),
        (jpeg(64, 64)[:300], "damaged"),
        (jpeg_whose_markers_lie(), "megapixels"),
        (png_header(65000, 65000) + chunk(b"IDAT", zlib.compress(b"\x00" * 1000)), "megapixels"),
        (png_header(5000, 4000) + chunk(b"IDAT", zlib.compress(b"")), "5000×4000"),
        (b"\x00" * (MAX_BYTES + 1), "MiB"),
    ],
    ids=["gif", "html", "png-cut-in-header", "truncated-png", "png-header-then-html",
         "truncated-jpeg", "jpeg-markers-lie", "png-bomb", "too-many-pixels", "too-long"],
)
def test_refused_pictures_say_why(data: bytes, reason: str) -> None:
    with pytest.raises(BadUpload, match=reason):
        check_picture(data)


# -- the API ------------------------------------------------------------------------


@on_both_stores
def test_upload_round_trip_through_the_api(client: TestClient) -> None:
    reply = post_picture(client, png(3, 3))
    assert reply.status_code == 201
    upload = reply.json()["upload"]
    assert (reply.json()["width"], reply.json()["height"]) == (3, 3)
    served = client.get(f"/api/uploads/{upload}")
    assert served.content == check_picture(png(3, 3)).data
    assert served.headers["content-type"] == "image/jpeg"


def test_uploads_are_served_so_that_they_can_only_be_pictures(client: TestClient) -> None:
    upload = post_picture(client, png(3, 3)).json()["upload"]
    served = client.get(f"/api/uploads/{upload}")
    assert served.headers["x-content-type-options"] == "nosniff"
    assert served.headers["content-security-policy"] == "default-src 'none'; sandbox"


@pytest.mark.parametrize(
    "data",
    [png(8, 8)[:20], noisy_png(64)[:-2000],
     png_header(10, 10) + b"<html><script>alert(1)</script></html>", jpeg_whose_markers_lie()],
    ids=["png-cut-in-header", "truncated-png", "png-header-then-html", "jpeg-markers-lie"],
)
def test_a_damaged_or_lying_picture_is_a_clear_error_not_a_crash(
    client: TestClient, data: bytes
) -> None:
    reply = post_picture(client, data)
    assert reply.status_code == 422
    assert reply.json()["error"]


def test_bad_upload_is_a_clear_error(client: TestClient) -> None:
    reply = post_picture(client, b"not a picture")
    assert reply.status_code == 422
    assert "PNG, JPEG or WebP" in reply.json()["error"]
    assert client.get("/api/uploads/0123456789abcdef").status_code == 404


@on_both_stores
def test_an_upload_over_quota_is_refused_when_every_picture_is_in_a_game(
    client: TestClient, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_module, "UPLOADS_PER_OWNER", 2)
    first, second = (post_picture(client, png(4 + i, 3)).json()["upload"] for i in range(2))
    session_using(store, "s1", first)
    session_using(store, "s2", second)
    reply = post_picture(client, png(9, 3))
    assert reply.status_code == 429
    assert "picture you uploaded before" in reply.json()["error"]
    assert client.get(f"/api/uploads/{first}").status_code == 200
    assert client.get(f"/api/uploads/{second}").status_code == 200


# -- quota and expiry -----------------------------------------------------------------


@on_both_stores
def test_same_picture_is_stored_once(store: Store) -> None:
    picture = check_picture(png(2, 2))
    store.save_upload(picture, "alice", 1.0)
    store.save_upload(picture, "alice", 2.0)
    assert store.load_upload(picture.upload_id) == picture
    assert run_sql(store, "SELECT count(*) FROM uploads") == [(1,)]


def upload_ids_of(store: Store, owner: str) -> set[str]:
    rows = run_sql(store, "SELECT upload_id FROM uploads WHERE owner=?", owner)
    return {upload_id for (upload_id,) in rows}


@on_both_stores
def test_a_new_upload_makes_room_by_dropping_the_owners_oldest_unused_picture(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_module, "UPLOADS_PER_OWNER", 3)
    oldest, in_a_game, newer, newest = distinct_pictures(4)
    for at, picture in enumerate([oldest, in_a_game, newer]):
        store.save_upload(picture, "alice", NOW + at)
    others = check_picture(png(20, 3))
    store.save_upload(others, "bob", NOW)
    session_using(store, "s1", in_a_game.upload_id)
    store.save_upload(in_a_game, "alice", NOW + 3)  # the one in a game, uploaded again

    store.save_upload(newest, "alice", NOW + 4)
    assert upload_ids_of(store, "alice") == {
        in_a_game.upload_id, newer.upload_id, newest.upload_id
    }
    assert upload_ids_of(store, "bob") == {others.upload_id}  # another player's stay


@on_both_stores
def test_the_size_quota_drops_unused_pictures_and_refuses_when_games_use_them_all(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second, third = distinct_pictures(3)
    monkeypatch.setattr(
        store_module, "UPLOAD_MIB_PER_OWNER", (len(first.data) + len(second.data)) / 2**20
    )
    store.save_upload(first, "alice", NOW)
    store.save_upload(second, "alice", NOW + 1)
    store.save_upload(third, "alice", NOW + 2)
    assert upload_ids_of(store, "alice") == {second.upload_id, third.upload_id}

    session_using(store, "s2", second.upload_id)
    session_using(store, "s3", third.upload_id)
    with pytest.raises(OverQuota, match="picture you uploaded before"):
        store.save_upload(first, "alice", NOW + 3)
    assert upload_ids_of(store, "alice") == {second.upload_id, third.upload_id}


@on_both_stores
def test_an_unused_upload_expires_after_a_day_and_one_in_a_game_stays(store: Store) -> None:
    unused, in_a_game, recent = distinct_pictures(3)
    store.save_upload(unused, "alice", NOW)
    store.save_upload(in_a_game, "alice", NOW)
    store.save_upload(recent, "alice", NOW + DAY)
    session_using(store, "s1", in_a_game.upload_id)

    store.expire_uploads(NOW + DAY - 1)
    assert store.load_upload(unused.upload_id) is not None
    store.expire_uploads(NOW + DAY + 1)
    assert store.load_upload(unused.upload_id) is None
    assert store.load_upload(in_a_game.upload_id) == in_a_game
    assert store.load_upload(recent.upload_id) == recent


@on_both_stores
def test_uploads_expire_on_each_upload_and_when_the_store_opens(store: Store) -> None:
    unused, in_a_game, later, last = distinct_pictures(4)
    first = store
    first.save_upload(unused, "alice", NOW)
    first.save_upload(later, "bob", NOW)
    first.save_upload(in_a_game, "alice", NOW)
    session_using(first, "s1", in_a_game.upload_id)
    first.save_upload(last, "carol", NOW + DAY + 1)  # anyone's upload expires old ones
    assert first.load_upload(unused.upload_id) is None
    assert first.load_upload(later.upload_id) is None
    first.save_upload(later, "bob", NOW + DAY + 2)
    first.close()

    again = reopened(first)  # opened long after NOW: the unused uploads are gone
    assert again.load_upload(later.upload_id) is None
    assert again.load_upload(last.upload_id) is None
    assert again.load_upload(in_a_game.upload_id) == in_a_game
    again.close()


# -- schema versions ----------------------------------------------------------------

SAVED_BY_0_1 = Path(__file__).parent / "fixtures" / "saved_by_0.1.sqlite3"
"""A database written by Parlour 0.1, before the schema was versioned (version 0)."""


def legacy_upload_id(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def database_before_versions(path: Path, uploads: list[tuple[bytes, int, int]]) -> str:
    """A database as main wrote it before versioning: a tic-tac-toe game with moves, a
    token and a result, and `uploads` (data as sent, width, height) kept as they came,
    the first used by a second game. Returns that game's id."""
    shutil.copy(SAVED_BY_0_1, path)
    db = sqlite3.connect(path)
    db.execute(
        "INSERT INTO sessions VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        ("sid1", "tictactoe", "tictactoe:standard#abc", '["human", "ai:perfect"]',
         "vs AI (perfect)", "standard", 3, 1, 0, 4200, None, "won", "Cross wins", NOW,
         NOW + 5, 0),
    )
    db.executemany(
        "INSERT INTO moves VALUES (?,?,?)",
        [("sid1", ply, f'{{"cell": [{ply}, {ply}]}}') for ply in range(3)],
    )
    db.execute("INSERT INTO tokens VALUES (?,?,?)", ("tok", "sid1", "[0]"))
    db.execute(
        "INSERT INTO results VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
        ("sid1", 1, "tictactoe", "standard", "vs AI (perfect)", "won", None, 4200, 3, 0,
         NOW + 5, '{"speed": 1.5}'),
    )
    for data, width, height in uploads:
        media_type = "image/png" if data.startswith(PNG_SIGNATURE) else "image/jpeg"
        db.execute(
            "INSERT INTO uploads VALUES (?,?,?,?,?,?)",
            (legacy_upload_id(data), media_type, width, height, data, NOW),
        )
    game_id = f"sliding:image={legacy_upload_id(uploads[0][0])}#seed"
    db.execute(
        "INSERT INTO sessions (sid, game, game_id, seats, mode, preset, created, updated)"
        " VALUES (?,?,?,?,?,?,?,?)",
        ("sid2", "sliding", game_id, '["human"]', "solo", "custom", NOW, NOW),
    )
    db.commit()
    db.close()
    return game_id


def test_a_database_from_before_versions_migrates_and_keeps_everything(
    tmp_path: Path,
) -> None:
    path = tmp_path / "parlour.sqlite3"
    picture = png(30, 20)
    database_before_versions(path, [(picture, 30, 20)])

    store = Store(path)
    assert store.db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
    row, moves = store.load_session("sid1") or pytest.fail("the game was lost")
    assert (row.cursor, row.status, row.seats) == (3, "won", ["human", "ai:perfect"])
    assert moves == [{"cell": [ply, ply]} for ply in range(3)]
    assert store.tokens("sid1") == {token_digest("tok"): [0]}  # kept hashed since 9
    [result] = [r for r in store.results("tictactoe") if r.sid == "sid1"]
    assert (result.outcome, result.moves, result.figures) == ("won", 3, {"speed": 1.5})

    kept = store.load_upload(legacy_upload_id(picture))  # under the id its game uses
    assert kept is not None
    assert (kept.media_type, kept.width, kept.height) == ("image/jpeg", 30, 20)
    assert decoded(kept.data).size == (30, 20)
    owner, size, last_uploaded = store.db.execute(
        "SELECT owner, size, last_uploaded FROM uploads"
    ).fetchone()
    assert (owner, size, last_uploaded) == ("", len(kept.data), NOW)

    # new writes use the new columns
    store.save_upload(check_picture(png(5, 5)), "alice", time.time())
    store.close()

    dump = list(sqlite3.connect(path).iterdump())
    again = Store(path)  # already at the latest version: opening changes nothing
    assert again.db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
    again.close()
    assert list(sqlite3.connect(path).iterdump()) == dump


def test_pictures_kept_before_decoding_are_rechecked_every_one(tmp_path: Path) -> None:
    """Each damaged picture is dropped, and each sound one kept, whatever came before it."""
    path = tmp_path / "parlour.sqlite3"
    bomb, cut = jpeg_whose_markers_lie(), PNG_SIGNATURE + b"no picture follows"
    pictures = [png(8, 8), bomb, cut, png(9, 9)]
    database_before_versions(path, [(picture, 8, 8) for picture in pictures])
    db = sqlite3.connect(path)  # each in a game, so that none expires unused
    db.executemany(
        "INSERT INTO sessions (sid, game, game_id, seats, mode, preset, created, updated)"
        " VALUES (?,?,?,?,?,?,?,?)",
        [(f"sid{i + 3}", "sliding", f"sliding:image={legacy_upload_id(picture)}#seed",
          '["human"]', "solo", "custom", NOW, NOW) for i, picture in enumerate(pictures)])
    db.commit()
    db.close()
    store = Store(path)
    assert store.load_upload(legacy_upload_id(bomb)) is None
    assert store.load_upload(legacy_upload_id(cut)) is None
    assert store.load_upload(legacy_upload_id(png(8, 8))) is not None
    assert store.load_upload(legacy_upload_id(png(9, 9))) is not None
    store.close()


def test_a_database_from_a_newer_parlour_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "parlour.sqlite3"
    Store(path).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(NewerStore, match="newer Parlour"):
        Store(path)


def test_upload_parameter_takes_only_upload_ids() -> None:
    param = Param("image", "Picture", "upload", "")
    assert param.coerce("0123456789abcdef") == "0123456789abcdef"
    assert param.coerce("") == ""
    with pytest.raises(BadParams, match="uploaded picture"):
        param.coerce("../../etc/passwd")


def test_an_uploader_over_the_picture_count_loses_just_enough_of_their_oldest_unused() -> None:
    unused_oldest_first = [(f"old{i}", 100) for i in range(5)]
    assert make_room(UPLOADS_PER_OWNER + 2, 1000, unused_oldest_first) == ["old0", "old1"]
    assert make_room(UPLOADS_PER_OWNER, 1000, unused_oldest_first) == []
