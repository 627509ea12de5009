"""What the hub writes to the store about a live game: its creation, each change of its
position (moves, cursor, clock, help used) and, at the end, its result.

The clock is saved as the time played so far, never as running: when it started is the
server's own monotonic time, of no use to another process, and a game read back from
the store waits, stopped, for a player's page (`presence.py`)."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from parlour.core.game import Status
from parlour.core.outcome import outcome
from parlour.server.hub.live import Live
from parlour.store import (
    Change,
    Progress,
    Result,
    SessionRow,
    progress_saved,
    session_created,
    together,
)


def created(live: Live, now: float, also: Change | None = None,
            line_text: Sequence[str] | None = None) -> Change:
    """The new session as it stands: a new deal, or an imported game with its line,
    cursor, clock and help used (an imported game over already adds no result: it was
    not played here). `also`: a change to write after it, in the same transaction;
    `line_text`: the line already in JSON (`work.replay_in_json`)."""
    session = live.session
    row = SessionRow(
        live.sid, session.game.name, session.id_text, list(session.seats), live.mode,
        live.preset, session.cursor, live.round, session.assisted, session.clock.elapsed_ms,
        None, session.status.value, live.headline(), now, session.assist,
        assisted_seats=frozenset(session.assisted_seats),
        assist_seats=frozenset(session.assist_seats),
        moves_made=session.moves_made,
        shown_to_end=live.shown_to_end,
    )
    holders = {t: sorted(s) for t, s in live.holders.items()}
    write = (session_created(row, holders, now, session.line) if line_text is None
             else session_created(row, holders, now, moves_text=line_text))
    return write if also is None else together(write, also)


def progress(live: Live, now: float, clock_now: float, appended_from: int | None) -> Change:
    """The session's position as it is now (`now`: the wall time; `clock_now`: the game
    clock's, see `Hub.clock`); `appended_from`: the first move not yet saved, if moves
    were added (a restart clears the line)."""
    session = live.session
    session.keep_time(clock_now)  # a first move starts the clock, the last one stops it
    session.clock.record(clock_now, session.clock.running)  # the time played so far
    if session.cursor == 0 and appended_from is None:
        appended_from = 0
    status = session.status
    return progress_saved(
        Progress(
            sid=live.sid,
            cursor=session.cursor,
            round=live.round,
            assisted=session.assisted,
            elapsed_ms=session.clock.elapsed_ms,
            clock_last_at=None,
            status=status.value,
            headline=live.headline(),
            now=now,
            assist=session.assist,
            assisted_seats=frozenset(session.assisted_seats),
            assist_seats=frozenset(session.assist_seats),
            moves_made=session.moves_made,
            shown_to_end=live.shown_to_end,
            new_moves_from=appended_from,
            new_moves=session.line_from(appended_from) if appended_from is not None else (),
        ),
        results(live, now) if status is not Status.PLAYING else (),
    )


def results(live: Live, now: float) -> list[Result]:
    """The finished game as each player holding seats at the end saw it, from their
    first seat (a seat the computer finished for a player who left has none)."""
    return [
        _result(live, now, seats, everyone=not live.sharers(token))
        for token, seats in live.holders.items()
        if seats
    ]


def help_of(row: SessionRow, seat_count: int) -> tuple[Collection[int], Collection[int]]:
    """The seats that used help and those with the assist on, as `row` keeps them (a row
    that says only that help was used, as a game saved before help was per seat: all)."""
    every = range(seat_count)
    assisted = row.assisted_seats or (every if row.assisted else ())
    assist = row.assist_seats or (every if row.assist else ())
    return assisted, assist


def _result(live: Live, now: float, seats: frozenset[int], everyone: bool) -> Result:
    session, seat = live.session, min(seats)
    scores = session.facts().scores
    names = session.game.seat_names(session.game_id.params)
    return Result(
        sid=live.sid,
        round=live.round,
        game=session.game.name,
        preset=live.group,
        mode=live.mode,
        outcome=outcome(session, {seat}) or "draw",
        score=scores[seat] if scores else None,
        elapsed_ms=session.clock.elapsed_ms,
        moves=session.moves_made,
        assisted=session.assisted_for(seats),  # their own help, not the other players'
        finished=now,
        figures=session.game.figures(session.state, session.clock.elapsed_ms, session.cursor),
        seat=seat,
        seat_name="" if everyone else names[seat],
    )
