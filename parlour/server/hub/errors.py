"""A refused request, as every part of the hub raises it: an HTTP status and a message
for the player (the API answers it as `{"error": ...}`, the WebSocket as an error note)."""

from __future__ import annotations


class ApiError(Exception):
    """A refused request: its HTTP status and a message for the player."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
