"""A refused request, as every part of the hub raises it: an HTTP status and a message
for the player (the API answers it as `{"error": ...}`, the WebSocket as an error note)."""

from __future__ import annotations


class ApiError(Exception):
    """A refused request: its HTTP status and a message for the player, which reads as a
    sentence (a game's refusal, "it is not your turn", is written to follow "because")."""

    def __init__(self, status: int, message: str) -> None:
        message = sentence(message)
        super().__init__(message)
        self.status = status
        self.message = message


def sentence(text: str) -> str:
    """`text` as a sentence for the player: its first letter a capital."""
    return text[:1].upper() + text[1:]
