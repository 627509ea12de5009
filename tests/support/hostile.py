"""A hostile client: a WebSocket viewer that says hello and then never reads a byte."""

from __future__ import annotations

import base64
import json
import os
import socket
from urllib.parse import urlsplit


def masked_text_frame(text: str) -> bytes:
    """A client's WebSocket text frame (clients must mask what they send)."""
    payload = text.encode()
    if len(payload) >= 126:
        raise ValueError("a short message only")
    mask = os.urandom(4)
    masked = bytes(byte ^ mask[i % 4] for i, byte in enumerate(payload))
    return bytes([0x81, 0x80 | len(payload)]) + mask + masked


def stalled_viewer(url: str, sid: str) -> socket.socket:
    """A WebSocket on game `sid` that says hello and then never reads a byte: its
    receive buffer (made tiny) stays full, as a hostile or frozen client's would."""
    address = urlsplit(url)
    raw = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    raw.connect((address.hostname or "127.0.0.1", address.port or 80))
    key = base64.b64encode(os.urandom(16)).decode()
    raw.sendall(
        f"GET /ws/{sid} HTTP/1.1\r\nHost: {address.netloc}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    raw.sendall(masked_text_frame(json.dumps({"type": "hello", "token": None})))
    return raw
