"""A player's own results, on a shared Parlour.

On one player's Parlour (the embedded default) every result kept is that player's: the
statistics, the daily deals, the past games and a game's records read them all. On a
shared one (hosted, or started with `--shared`) many people play on one store, and each
sees their own only: the results of the seats their browser's tokens hold. Nobody signs
in; a seat is proven by its token, as the Resume list proves the games it lists.

`HeldResults` reads those results as a store reads all of its own (`ResultReads`), so the
statistics, daily deals, past games and records are drawn from them unchanged.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence

from parlour.store import Result, Store
from parlour.store.assembly import stat_groups, with_sessions
from parlour.store.rows import DailyStart, SessionRow, StatReading
from parlour.store.seat_tokens import token_digest

MAX_HELD = 10_000
"""Tokens a browser may send for its own results: its most recent games."""
MAX_RESULTS = 50_000
"""A player's latest results read at most, whatever they have kept (a game restarted
files a result each round): each request's work and memory stay bounded."""

GroupKey = tuple[str, str, str, str]  # game, preset, mode, seat_name


class HeldResults:
    """The results of the seats `tokens` hold in `store`, read as the store reads every
    result it keeps. Reads the store when made: blocking, make it in a thread."""

    def __init__(self, store: Store, tokens: Sequence[str]) -> None:
        self.store = store
        self.held = store.held_seats([token_digest(token) for token in set(tokens)])
        self.results = [result for result in store.results_of(list(self.held), MAX_RESULTS)
                        if result.seat in self.held[result.sid]]  # oldest first
        self._daily: list[DailyStart] | None = None

    def game_ids(self) -> dict[str, str]:
        """The game id of each session with a result held."""
        rows = self.store.session_rows(sorted({result.sid for result in self.results}))
        return {sid: row.game_id for sid, row in rows.items()}

    def stat_reading(self, game: str | None, groups_per_game: int, per_group: int
                     ) -> StatReading:
        """As the store's: of each game the groups played most recently first."""
        groups: defaultdict[GroupKey, list[Result]] = defaultdict(list)
        for result in self.results:
            if game is None or result.game == game:
                groups[result.game, result.preset, result.mode, result.seat_name].append(result)
        ranked = sorted(groups.items(),
                        key=lambda item: (item[0][0], -item[1][-1].finished, item[0][1:]))
        places: Counter[str] = Counter()
        rows = []
        for key, results in ranked:
            places[key[0]] += 1
            rows.append((*key, len(results), places[key[0]]))

        def latest(game: str, preset: str, mode: str, seat_name: str) -> list[Result]:
            return groups[game, preset, mode, seat_name][-per_group:]

        kept, left_off = stat_groups(rows, groups_per_game, latest)
        return StatReading((), kept, left_off)  # (no version: no two players share it)

    def daily_starts(self) -> list[DailyStart]:
        if self._daily is None:
            self._daily = self.store.daily_starts(list(self.held))
        return self._daily

    def daily_results(self) -> list[Result]:
        daily = {start.sid for start in self.daily_starts()}
        return [result for result in self.results
                if result.sid in daily and result.round == 1 and result.seat == 0]

    def latest_results(self, game: str | None, limit: int
                       ) -> list[tuple[Result, SessionRow | None]]:
        latest = [result for result in reversed(self.results)
                  if game is None or result.game == game][:limit]
        rows = self.store.session_rows(sorted({result.sid for result in latest}))
        return with_sessions(latest, rows.get)

    def result_and_group(self, sid: str, seat: int | None, per_group: int
                         ) -> tuple[Result, list[Result]] | None:
        """Game `sid`'s last result (of `seat`, else of the first seat held), and the
        player's own latest results of its group finished no later."""
        mine = [result for result in self.results
                if result.sid == sid and (seat is None or result.seat == seat)]
        if not mine:
            return None
        this = max(mine, key=lambda result: (result.round, -result.seat))
        group = [result for result in self.results if result.finished <= this.finished
                 and (result.game, result.preset, result.mode, result.seat_name)
                 == (this.game, this.preset, this.mode, this.seat_name)]
        return this, group[-per_group:]
