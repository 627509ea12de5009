"""Rate limits per client, for a public host: moves, new games and uploads over time.

Pacing (`api/pace.py`) smooths a burst of any requests, and fair shares (`hub/shares.py`)
bound what a client has going at once; these bound what a client does over minutes and
hours, whatever the door (REST or WebSocket) and, in hosted mode, whichever process
serves it. Each limit is a bucket per client (`api/clients.py`'s key): it holds
`allowance`, each move (game, upload, byte) takes one out, and it fills back at
`allowance` per `period` (the generic cell rate algorithm: one timestamp per client and
limit, an exact time to retry). The defaults are far above what a player does;
a host sets them (`--moves-per-minute`...; 0 turns one off).

`Limits` is what the hub asks; `MemoryLimits` keeps the buckets in this process (the
embedded default), `on_redis.RedisLimits` in Redis, shared by every process.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol


class Kind(StrEnum):
    """What a limit counts."""

    MOVES = "moves"  # every action in a game: a move, an undo, a hint...
    NEW_GAMES = "new_games"  # a game started, imported or rematched
    UPLOADS = "uploads"  # pictures uploaded and files imported
    UPLOAD_BYTES = "upload_bytes"  # their bytes


@dataclass(frozen=True)
class Rule:
    """At most `allowance` in any `period` seconds at once, regained at that rate."""

    allowance: int
    period: float
    what: str  # "moves", in "too many moves ..."
    unit: str = ""  # how `allowance` reads: "" (a count) or "MiB"

    @property
    def on(self) -> bool:
        return self.allowance > 0

    def bound(self) -> str:
        """As a refusal says it: "at most 1200 an hour"."""
        amount = (f"{self.allowance / 2**20:g} MiB" if self.unit == "MiB"
                  else f"{self.allowance}")
        return f"at most {amount} {_PERIODS.get(self.period, f'per {self.period:g} s')}"


_PERIODS = {60.0: "a minute", 3600.0: "an hour"}

MOVES_PER_MINUTE = 1200
"""Actions in games (moves, undos, hints...) a minute: 20 a second for a whole minute.
A quick Minesweeper player clicks 3-5 a second, a held arrow key in the sliding puzzle
repeats at ~30 a second for a few seconds; a script playing flat out does thousands."""
NEW_GAMES_PER_HOUR = 1200
"""New games an hour: one every 3 s for an hour (a beginner's board lost on the first
clicks and dealt again); each is a row kept for good and maybe a worker's deal."""
UPLOADS_PER_HOUR = 60
"""Pictures uploaded and games imported an hour: a player picks a few pictures."""
UPLOAD_MIB_PER_HOUR = 256
"""Their MiB an hour: 64 pictures of the largest (4 MiB); each is decoded and re-encoded."""

VARIABLES = {
    Kind.MOVES: "PARLOUR_MOVES_PER_MINUTE",
    Kind.NEW_GAMES: "PARLOUR_NEW_GAMES_PER_HOUR",
    Kind.UPLOADS: "PARLOUR_UPLOADS_PER_HOUR",
    Kind.UPLOAD_BYTES: "PARLOUR_UPLOAD_MIB_PER_HOUR",
}
"""The environment variable that sets each limit (the command line's options' default)."""
DEFAULTS = {Kind.MOVES: MOVES_PER_MINUTE, Kind.NEW_GAMES: NEW_GAMES_PER_HOUR,
            Kind.UPLOADS: UPLOADS_PER_HOUR, Kind.UPLOAD_BYTES: UPLOAD_MIB_PER_HOUR}

Rules = Mapping[Kind, Rule]


def limit_rules(moves_per_minute: int = MOVES_PER_MINUTE,
                new_games_per_hour: int = NEW_GAMES_PER_HOUR,
                uploads_per_hour: int = UPLOADS_PER_HOUR,
                upload_mib_per_hour: int = UPLOAD_MIB_PER_HOUR) -> Rules:
    """The rules with these allowances (0: that limit off)."""
    return {
        Kind.MOVES: Rule(moves_per_minute, 60.0, "moves and other actions in games"),
        Kind.NEW_GAMES: Rule(new_games_per_hour, 3600.0, "new games"),
        Kind.UPLOADS: Rule(uploads_per_hour, 3600.0, "uploads"),
        Kind.UPLOAD_BYTES: Rule(upload_mib_per_hour * 2**20, 3600.0, "bytes uploaded", "MiB"),
    }


def configured(kind: Kind, environ: Mapping[str, str] = os.environ) -> int:
    """A limit's allowance as the host set it in the environment, else its default."""
    text = environ.get(VARIABLES[kind], "")
    return int(text) if text.strip() else DEFAULTS[kind]


def rules_from_environment(environ: Mapping[str, str] = os.environ) -> Rules:
    """The rules as the environment sets them (`VARIABLES`), defaults elsewhere."""
    return limit_rules(*(configured(kind, environ) for kind in Kind))


class Limits(Protocol):
    """Buckets per client and kind. `take` answers None when `amount` was taken, or the
    seconds until it could be (nothing taken then)."""

    rules: Rules

    async def take(self, client: str, kind: Kind, amount: int = 1) -> float | None: ...

    async def close(self) -> None: ...


def bucket_after(full_at: float, now: float, amount: int, rule: Rule
                 ) -> tuple[float | None, float]:
    """One take from a bucket that is full again at `full_at` (its "theoretical arrival
    time"): (when it is full again after the take, None if refused; seconds to wait).
    An amount over the whole allowance takes all of it (else it would never pass)."""
    interval = rule.period / rule.allowance
    # how far ahead of now the bucket is, counted from now (not now + x - now: a large
    # clock reading would round a full allowance's worth past the period)
    ahead = max(full_at - now, 0.0) + min(amount, rule.allowance) * interval
    if ahead > rule.period:
        return None, ahead - rule.period
    return now + ahead, 0.0


class MemoryLimits:
    """The buckets in this process: the embedded default."""

    KEPT = 100_000
    """Buckets kept before the full ones are forgotten (a full bucket is no bucket)."""

    def __init__(self, rules: Rules | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rules = rules_from_environment() if rules is None else rules
        self._clock = clock
        self._full_at: dict[tuple[Kind, str], float] = {}

    async def take(self, client: str, kind: Kind, amount: int = 1) -> float | None:
        rule = self.rules[kind]
        if not rule.on or amount <= 0:
            return None
        now = self._clock()
        after, wait = bucket_after(self._full_at.get((kind, client), now), now, amount, rule)
        if after is None:
            return wait
        self._full_at[(kind, client)] = after
        if len(self._full_at) > self.KEPT:
            self._forget_full(now)
        return None

    def _forget_full(self, now: float) -> None:
        for key in [key for key, full_at in self._full_at.items() if full_at <= now]:
            del self._full_at[key]

    async def close(self) -> None:
        pass
