"""Pictures players upload (e.g. for the sliding puzzle): checked, then kept in the store.

The browser scales a chosen picture down and sends it as PNG or JPEG; the server reads
only the header to learn the format and size, and refuses anything too large.
"""

from __future__ import annotations

import hashlib
import struct
from dataclasses import dataclass

MAX_BYTES = 4 * 1024 * 1024
MAX_SIDE = 4096
MAX_PIXELS = 8_000_000
UPLOAD_ID_LENGTH = 16


class BadUpload(ValueError):
    pass


@dataclass(frozen=True)
class Picture:
    media_type: str
    width: int
    height: int
    data: bytes

    @property
    def upload_id(self) -> str:
        return hashlib.sha256(self.data).hexdigest()[:UPLOAD_ID_LENGTH]


def check_picture(data: bytes) -> Picture:
    """The picture in `data`, or BadUpload saying why it is refused."""
    if len(data) > MAX_BYTES:
        raise BadUpload(f"a picture may be at most {MAX_BYTES // (1024 * 1024)} MiB")
    if data.startswith(b"\x89PNG\r\n\x1a\n") and data[12:16] == b"IHDR":
        width, height = struct.unpack(">II", data[16:24])
        media_type = "image/png"
    elif data.startswith(b"\xff\xd8"):
        width, height = _jpeg_size(data)
        media_type = "image/jpeg"
    else:
        raise BadUpload("a picture must be a PNG or JPEG image")
    if not (0 < width <= MAX_SIDE and 0 < height <= MAX_SIDE) or width * height > MAX_PIXELS:
        raise BadUpload(
            f"a picture may be at most {MAX_SIDE} by {MAX_SIDE} and {MAX_PIXELS:,} pixels"
        )
    return Picture(media_type, width, height, data)


_SOF_MARKERS = set(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}


def _jpeg_size(data: bytes) -> tuple[int, int]:
    """Width and height from the first start-of-frame segment of a JPEG."""
    at = 2
    while at + 9 < len(data):
        if data[at] != 0xFF:
            raise BadUpload("the JPEG image is damaged")
        marker = data[at + 1]
        if marker == 0xFF:  # fill byte
            at += 1
            continue
        (length,) = struct.unpack(">H", data[at + 2 : at + 4])
        if marker in _SOF_MARKERS:
            height, width = struct.unpack(">HH", data[at + 5 : at + 9])
            return width, height
        at += 2 + length
    raise BadUpload("the JPEG image has no size")
