"""Pictures players upload (e.g. for the sliding puzzle): decoded, checked and re-encoded.

Nothing a client sends is kept or served as it came: Pillow decodes the picture (only
PNG, JPEG or WebP, at most MAX_PIXELS, refused from its header before decoding), turns
it upright from its EXIF orientation, scales it to at most KEPT_SIDE on its longest side
and encodes it afresh without metadata: JPEG when opaque, PNG when it has transparency.
A file that only looks like a picture, or hides a huge one behind a small header, is
refused with BadUpload. Decoding is CPU work: call `check_picture` off the event loop.
One exception: a picture a saved file brings under the id its own bytes make, already in
the form kept here, is kept as it came (`check_brought_picture`), so that it goes on
matching its id from one export to the next.

It belongs to the store: a Picture is what every store keeps and hands back, and
`check_picture` is the rule for what may be kept, applied by the upload routes and by
the store's own migration of pictures kept before uploads were decoded.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass

from PIL import Image, ImageOps

MAX_BYTES = 4 * 1024 * 1024  # the upload's body, as sent
MAX_PIXELS = 16_000_000  # the picture as sent (a 12-megapixel phone photo fits)
KEPT_SIDE = 2048  # longest side of the picture kept and served
JPEG_QUALITY = 90
ACCEPTED_FORMATS = ("PNG", "JPEG", "WEBP")
UPLOAD_ID_LENGTH = 16


DAMAGED = "the picture is damaged or incomplete: save it again and retry"


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
        return content_id(self.data)


def content_id(data: bytes) -> str:
    """The id of a picture kept as `data`: the start of its SHA-256, so an id names one
    picture only."""
    return hashlib.sha256(data).hexdigest()[:UPLOAD_ID_LENGTH]


def check_picture(data: bytes) -> Picture:
    """The picture in `data`, re-encoded for keeping, or BadUpload saying why it is refused."""
    if len(data) > MAX_BYTES:
        raise BadUpload(f"a picture may be at most {MAX_BYTES // (1024 * 1024)} MiB")
    try:
        image = Image.open(io.BytesIO(data), formats=ACCEPTED_FORMATS)
    except Image.DecompressionBombError:
        raise BadUpload(_too_many_pixels()) from None
    except Exception:  # Pillow raises many kinds of error on bytes that are not a picture
        if _starts_like_a_picture(data):
            raise BadUpload(DAMAGED) from None
        raise BadUpload("a picture must be a PNG, JPEG or WebP image") from None
    with image:
        width, height = image.size
        if width * height > MAX_PIXELS:
            raise BadUpload(_too_many_pixels(f" (this one is {width}×{height})"))
        # a JPEG can be decoded at 1/2, 1/4 or 1/8 scale: cheaper when it is shrunk anyway
        image.draft("RGB", (KEPT_SIDE, KEPT_SIDE))
        try:
            image.load()  # the whole picture: a truncated or damaged file fails here
            upright = ImageOps.exif_transpose(image)
        except Exception:  # as above: any decoder failure means the file is damaged
            raise BadUpload(DAMAGED) from None
        return _reencoded(upright)


_METADATA = frozenset({"exif", "icc_profile", "xmp", "XML:com.adobe.xmp", "comment",
                       "photoshop", "adobe"})
_KEPT_KINDS = {b"\x89PNG\r\n\x1a\n": "image/png", b"\xff\xd8\xff": "image/jpeg"}


def check_brought_picture(data: bytes) -> Picture:
    """A picture a saved file brings under the id its bytes make (`content_id`): checked
    as an upload is, and kept as it came, so that its id still names it when the game is
    exported again (re-encoding a JPEG changes its bytes). Only a picture already as
    Parlour keeps them is taken: a PNG or JPEG of at most KEPT_SIDE, upright, with no
    metadata; anything else is BadUpload (upload it instead)."""
    checked = check_picture(data)
    kind = next((kind for start, kind in _KEPT_KINDS.items() if data.startswith(start)), None)
    with Image.open(io.BytesIO(data)) as image:
        extra = _METADATA & image.info.keys() or getattr(image, "text", None)
        size = image.size
    if kind is None or extra or size != (checked.width, checked.height):
        raise BadUpload("it is not a picture as Parlour exports them: upload it instead")
    return Picture(kind, checked.width, checked.height, data)


def _starts_like_a_picture(data: bytes) -> bool:
    """Whether `data` starts as a PNG, JPEG or WebP file does."""
    return data.startswith((b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff")) or (
        data.startswith(b"RIFF") and data[8:12] == b"WEBP"
    )


def _too_many_pixels(detail: str = "") -> str:
    return f"a picture may have at most {MAX_PIXELS // 1_000_000} megapixels{detail}"


def _reencoded(image: Image.Image) -> Picture:
    """`image` scaled to KEPT_SIDE and encoded without any of the sender's metadata."""
    has_alpha = image.mode in ("RGBA", "LA", "PA", "RGBa", "La") or "transparency" in image.info
    clean = image.convert("RGBA" if has_alpha else "RGB")
    if has_alpha and clean.getchannel("A").getextrema()[0] == 255:
        clean = clean.convert("RGB")  # an alpha channel that hides nothing: keep it small
    clean.thumbnail((KEPT_SIDE, KEPT_SIDE), Image.Resampling.LANCZOS)
    clean.info.clear()  # no EXIF, comments, text chunks or colour profile carried over
    encoded = io.BytesIO()
    if clean.mode == "RGBA":
        clean.save(encoded, "PNG", optimize=True)
        media_type = "image/png"
    else:
        clean.save(encoded, "JPEG", quality=JPEG_QUALITY, optimize=True)
        media_type = "image/jpeg"
    return Picture(media_type, clean.width, clean.height, encoded.getvalue())
