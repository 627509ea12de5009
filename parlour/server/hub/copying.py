"""`parlour db copy`: everything one store keeps merged into another (a home SQLite file
into a hosted PostgreSQL database, or back), as a restored backup is merged.

The copy adds what the target does not keep yet and changes nothing it keeps: a game
already there under its session id (the same game id) is skipped with its results, a
picture already there too. A session id the target keeps for another game, a seat
token another game holds there, or a rematch that is nowhere refuses the whole copy,
which then writes nothing (a host wants no player's game replaced in silence). What is
copied is what a backup holds: every session with its moves, seat token digests and
place in its series, every result, and the pictures the games use; unused uploads
(which expire within a day) and the quota bookkeeping of imports stay behind. Games are
copied as kept, game id and moves unchanged: a game id holds its deal, so every game
replays to the same positions there.
"""

from __future__ import annotations

from collections.abc import Mapping

from parlour.core.game import GameSpec
from parlour.server.hub.backup import Checked, RestoreReport, merged, pictures_named
from parlour.store import Store


def copy_store(source: Store, target: Store, games: Mapping[str, GameSpec], now: float
               ) -> RestoreReport:
    """Merge what `source` keeps into `target`; ApiError 422 (nothing written) on a clash."""
    sessions = source.kept_sessions()
    needs = pictures_named(sessions, games)
    pictures = {upload_id: picture for upload_id in sorted(needs)
                if (picture := source.load_upload(upload_id)) is not None}
    checked = Checked(sessions=sessions, results=source.results(), pictures=pictures,
                      needs=set(pictures))
    places = [kept.series for kept in sessions if kept.series is not None]
    kept = target.identities(
        [kept.row.sid for kept in sessions] + [place.next_sid for place in places
                                               if place.next_sid],
        [token for kept in sessions for token in kept.tokens], sorted(pictures))
    change, report = merged(checked, kept, now)
    target.write(change)
    return report
