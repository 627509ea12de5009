"""Who won: a finished game's outcome for the player holding some of its seats, as the
records save it and the end card shows it."""

from __future__ import annotations

from collections.abc import Collection

from parlour.core.game import Status
from parlour.core.session import Session


def outcome(session: Session, seats: Collection[int]) -> str | None:
    """Won, lost or draw for someone holding `seats`; None while playing or to watchers."""
    status = session.status
    if status is Status.PLAYING or not seats:
        return None
    if status is Status.DRAW:
        return "draw"
    winners = set(session.facts().winners)
    if not winners & set(seats):
        return "lost"
    # a first place shared with another player's seat (e.g. two of Tribolo's three) is a draw
    return "won" if winners <= set(seats) else "draw"
