"""A refused request, as every part of the hub raises it: an HTTP status and a message
for the player (the API answers it as `{"error": ...}`, the WebSocket as an error note)."""

from __future__ import annotations

import math
from typing import Any


class ApiError(Exception):
    """A refused request: its HTTP status and a message for the player, which reads as a
    sentence (a game's refusal, "it is not your turn", is written to follow "because");
    `marks`, the game's ids of what the refusal points at on the board (`GameError`)."""

    def __init__(self, status: int, message: str, quiet: bool = False,
                 marks: tuple[str, ...] = ()) -> None:
        message = sentence(message)
        super().__init__(message)
        self.status = status
        self.message = message
        self.quiet = quiet  # a game's IgnoredMove: the page lets it pass without a word
        self.marks = marks


def sentence(text: str) -> str:
    """`text` as a sentence for the player: its first letter a capital."""
    return text[:1].upper() + text[1:]


class LimitReached(ApiError):
    """A client over one of its rate limits (`parlour/server/limits/`): a 429 that names
    the limit and says when to come back (`retry_after`, whole seconds; REST: the
    Retry-After header, WebSocket: the error's field)."""

    def __init__(self, what: str, bound: str, retry_after: float) -> None:
        self.retry_after = max(1, math.ceil(retry_after))
        wait = (f"{self.retry_after} s" if self.retry_after < 120
                else f"{math.ceil(self.retry_after / 60)} min")
        super().__init__(429, f"too many {what} from you ({bound}): try again in {wait}")


def fault(where: str, error: Any) -> str:
    """A file's first fault (one of pydantic's `ValidationError.errors()`) in a player's
    words: "its 'format' is missing", "its 'elapsed_ms': input should be greater than or
    equal to 0"; `where` names the place ("its 'made'", "game 3, its 'moves'")."""
    if error["type"] == "missing":
        return f"{where} is missing"
    message = str(error["msg"])
    return f"{where}: {message[:1].lower()}{message[1:]}"
