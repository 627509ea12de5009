"""The rate limits' buckets in Redis, so that every process of a hosted Parlour counts a
client's moves together (the limits' rules: `limits/__init__.py`).

One key per client and kind holds the time its bucket is full again, in microseconds of
Redis's own clock (one clock for every process, whatever their machines' say); a Lua
script reads and moves it in one step, so two processes never both spend the last of a
bucket. The key expires when the bucket is full: an idle client costs Redis nothing.

Limits must never hold up a move: a call gives Redis `TIMEOUT` seconds, and if Redis is
away the move passes (fails open: a host loses its limits for a while, never its games).
After a failure Redis is left alone for `RETRY_AFTER` seconds, so that while it is down
no move waits even that long; the outage and the recovery are logged once each.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import RedisError

from parlour.server.limits import Kind, Rules, rules_from_environment

TIMEOUT = 0.25
"""Seconds a take may wait for Redis (a loaded Redis answers in well under 1 ms)."""
RETRY_AFTER = 5.0
"""Seconds Redis is left alone after it failed: moves pass unlimited meanwhile."""
KEY_PREFIX = "parlour:limit:"
log = logging.getLogger("parlour")

# KEYS[1]: the bucket; ARGV: the amount, the period (µs), the allowance. Answers nil
# once taken, else the microseconds to wait. As `limits.bucket_after`.
TAKE = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000000 + tonumber(clock[2])
local period = tonumber(ARGV[2])
local allowance = tonumber(ARGV[3])
local amount = math.min(tonumber(ARGV[1]), allowance)
local full_at = tonumber(redis.call('GET', KEYS[1])) or now
local after = math.max(full_at, now) + amount * period / allowance
local ahead = after - now
if ahead > period then
  return math.ceil(ahead - period)
end
redis.call('SET', KEYS[1], string.format('%d', math.ceil(after)),
           'PX', math.ceil(ahead / 1000) + 1)
return false
"""


class RedisLimits:
    """The buckets in Redis, shared by every process that uses the same server."""

    def __init__(self, client: aioredis.Redis, rules: Rules | None = None,
                 prefix: str = KEY_PREFIX, clock: Callable[[], float] = time.monotonic,
                 timeout: float = TIMEOUT) -> None:
        self.rules = rules_from_environment() if rules is None else rules
        self.timeout = timeout
        self._redis = client
        self._take = client.register_script(TAKE)
        self._prefix = prefix
        self._clock = clock
        self._away_until: float | None = None  # Redis failed: left alone until then

    @classmethod
    def from_url(cls, url: str, rules: Rules | None = None, prefix: str = KEY_PREFIX,
                 timeout: float = TIMEOUT) -> RedisLimits:
        """Limits kept in the Redis server at `url` (`redis://host:port/db`); it is
        connected to on the first take. Each call is tried once, within `timeout`."""
        client = aioredis.Redis.from_url(
            url, socket_connect_timeout=timeout, socket_timeout=timeout,
            retry=Retry(NoBackoff(), 0), health_check_interval=0)
        return cls(client, rules, prefix, timeout=timeout)

    async def take(self, client: str, kind: Kind, amount: int = 1) -> float | None:
        rule = self.rules[kind]
        if not rule.on or amount <= 0 or self._left_alone():
            return None
        try:
            wait = await asyncio.wait_for(self._take(
                keys=[f"{self._prefix}{kind}:{client}"],
                args=[amount, round(rule.period * 1e6), rule.allowance]), self.timeout)
        except (RedisError, OSError, TimeoutError) as error:
            self._failed(error)
            return None
        self._answered()
        return None if wait is None else int(wait) / 1e6

    def _left_alone(self) -> bool:
        return self._away_until is not None and self._clock() < self._away_until

    def _failed(self, error: BaseException) -> None:
        if self._away_until is None:
            log.warning("rate limits: Redis did not answer (%s): moves, new games and "
                        "uploads pass unlimited until it does", type(error).__name__)
        self._away_until = self._clock() + RETRY_AFTER

    def _answered(self) -> None:
        if self._away_until is not None:
            log.warning("rate limits: Redis answers again; limits apply")
            self._away_until = None

    async def close(self) -> None:
        await self._redis.aclose()
