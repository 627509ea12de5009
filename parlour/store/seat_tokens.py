"""What a store keeps of a seat token: its digest, never the token.

A seat token is a bearer secret a browser holds (seat links, the Resume list, the hello
on the WebSocket): whoever presents it moves for its seats. So the store keeps only its
SHA-256, and a token a client presents is hashed and compared with what is kept: a copy
of the database gives no one a seat. The tokens are long random strings (18 random bytes
or more, `secrets.token_urlsafe`), not passwords: nobody can guess one from its digest,
so a plain hash is enough, with no salt and no slow hash (which would only cost every
request time).

A rematch hands each of its players a new token (`SeriesRow.handover`); what is kept of
that is the new token sealed with the old one (`seal`): only the holder of the old token
can open it, and the database alone opens nothing.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re

DIGEST_PATTERN = re.compile(r"^[0-9a-f]{64}$")
_HANDOVER_PAD = b"parlour rematch handover\x00"


def token_digest(token: str) -> str:
    """What is kept of `token`: its SHA-256, in hexadecimal."""
    return hashlib.sha256(token.encode()).hexdigest()


def is_digest(text: str) -> bool:
    return DIGEST_PATTERN.match(text) is not None


def _pad(old_token: str, length: int) -> bytes:
    # one pad per old token, used once: a game's token hands over to one rematch only
    return hashlib.shake_256(_HANDOVER_PAD + old_token.encode()).digest(length)


def seal(new_token: str, old_token: str) -> str:
    """`new_token` readable only with `old_token` (what a rematch's handover keeps)."""
    data = new_token.encode()
    mixed = bytes(a ^ b for a, b in zip(data, _pad(old_token, len(data)), strict=True))
    return base64.urlsafe_b64encode(mixed).decode().rstrip("=")


def unseal(sealed: str, old_token: str) -> str | None:
    """The token `seal` sealed with `old_token`; None if it does not open."""
    try:
        mixed = base64.urlsafe_b64decode(sealed + "=" * (-len(sealed) % 4))
        data = bytes(a ^ b for a, b in zip(mixed, _pad(old_token, len(mixed)), strict=True))
        return data.decode("ascii")
    except (binascii.Error, ValueError):
        return None


def hashed_handover(handover: dict[str, str]) -> dict[str, str]:
    """A handover of tokens (old -> new, as kept before tokens were hashed, or as an older
    backup holds it) as it is kept now: old digest -> new token sealed with the old."""
    return {token_digest(old): seal(new, old) for old, new in handover.items()}
