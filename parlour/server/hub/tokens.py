"""A seat token as a client presents it, and the key the hub and the store know it by.

The hub keys seats by a token's digest (`parlour.store.seat_tokens`), the form the store
keeps: a game read back from the store has only digests, a game started here the same.
A token a client sends becomes a `Presented` at the door (the REST routes' bearer, the
socket's hello): a string equal to its digest, so that every comparison the hub makes
(its seats, the owner, a take-back's or a rematch's players) is of digests, which still
carries the token itself for the two things only it can do: be handed back to its holder,
and open the rematch's token sealed for it.
"""

from __future__ import annotations

from parlour.store.seat_tokens import token_digest


class Presented(str):
    """The digest of `token`, a token a client presented, which it keeps as `.token`."""

    token: str

    def __new__(cls, token: str) -> Presented:
        presented = super().__new__(cls, token_digest(token))
        presented.token = token
        return presented


def presented(token: str | None) -> Presented | None:
    return None if token is None else Presented(token)


def raw_token(key: str | None) -> str | None:
    """The token a key was presented as, if it was (a key read from the store was not)."""
    return key.token if isinstance(key, Presented) else None
