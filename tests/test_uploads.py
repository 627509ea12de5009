"""Uploaded pictures: format and size checks, storage, and the upload parameter kind."""

from __future__ import annotations

import struct
import zlib

import pytest
from fastapi.testclient import TestClient

from parlour.core.game import BadParams, Param
from parlour.store import Store
from parlour.uploads import MAX_BYTES, BadUpload, check_picture


def png(width: int, height: int) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = struct.pack(">I", zlib.crc32(kind + data))
        return struct.pack(">I", len(data)) + kind + data + crc

    rows = b"".join(b"\x00" + b"\x10\x20\x30" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


def jpeg_header(width: int, height: int) -> bytes:
    """A JPEG's start: an APP0 segment, then a baseline start-of-frame with the size."""
    app0 = b"\xff\xe0" + struct.pack(">H", 16) + b"JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
    sof = b"\xff\xc0" + struct.pack(">HBHHB", 11, 8, height, width, 1) + b"\x01\x11\x00"
    return b"\xff\xd8" + app0 + sof + b"\xff\xd9"


def test_png_size_is_read_from_its_header() -> None:
    picture = check_picture(png(12, 7))
    assert (picture.media_type, picture.width, picture.height) == ("image/png", 12, 7)


def test_jpeg_size_is_read_from_its_start_of_frame() -> None:
    picture = check_picture(jpeg_header(640, 480))
    assert (picture.media_type, picture.width, picture.height) == ("image/jpeg", 640, 480)


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"GIF89a" + b"\x00" * 20, "PNG or JPEG"),
        (png(5000, 2), "at most 4096"),
        (png(3000, 3000), "pixels"),
        (b"\xff\xd8\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00", "damaged"),
        (b"\x00" * (MAX_BYTES + 1), "MiB"),
    ],
)
def test_refused_pictures_say_why(data: bytes, reason: str) -> None:
    with pytest.raises(BadUpload, match=reason):
        check_picture(data)


def test_upload_round_trip_through_the_api(client: TestClient) -> None:
    data = png(3, 3)
    reply = client.post("/api/uploads", content=data, headers={"Content-Type": "image/png"})
    assert reply.status_code == 201
    upload = reply.json()["upload"]
    assert (reply.json()["width"], reply.json()["height"]) == (3, 3)
    served = client.get(f"/api/uploads/{upload}")
    assert served.content == data
    assert served.headers["content-type"] == "image/png"


def test_bad_upload_is_a_clear_error(client: TestClient) -> None:
    reply = client.post("/api/uploads", content=b"not a picture")
    assert reply.status_code == 422
    assert "PNG or JPEG" in reply.json()["error"]
    assert client.get("/api/uploads/0123456789abcdef").status_code == 404


def test_same_picture_is_stored_once(store: Store) -> None:
    picture = check_picture(png(2, 2))
    store.save_upload(picture, 1.0)
    store.save_upload(picture, 2.0)
    assert store.load_upload(picture.upload_id) == picture


def test_upload_parameter_takes_only_upload_ids() -> None:
    param = Param("image", "Picture", "upload", "")
    assert param.coerce("0123456789abcdef") == "0123456789abcdef"
    assert param.coerce("") == ""
    with pytest.raises(BadParams, match="uploaded picture"):
        param.coerce("../../etc/passwd")
