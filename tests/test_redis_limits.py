"""The rate limits kept in Redis (hosted mode), against a real redis-server: every
process shares each client's buckets, and a Redis away never holds up a move (the
limits then fail open for a while)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import pytest

from parlour.server.limits import Kind, limit_rules, on_redis
from parlour.server.limits.on_redis import RedisLimits
from tests.support.loops import run_async
from tests.support.redis import RedisServer

RULES = limit_rules(moves_per_minute=3, new_games_per_hour=2)
PATIENT = 5.0
"""The timeout of the tests that count, not time: a loaded machine may take longer than
a host's quarter of a second to answer (the limits would then fail open)."""


def test_two_processes_limiters_count_one_clients_moves_together(redis: RedisServer
                                                                   ) -> None:
    async def scenario() -> list[float | None]:
        first = RedisLimits.from_url(redis.url, RULES, timeout=PATIENT)
        second = RedisLimits.from_url(redis.url, RULES, timeout=PATIENT)
        try:
            return [await first.take("a", Kind.MOVES), await second.take("a", Kind.MOVES),
                    await first.take("a", Kind.MOVES), await second.take("a", Kind.MOVES),
                    await second.take("b", Kind.MOVES), await first.take("a", Kind.NEW_GAMES)]
        finally:
            await first.close()
            await second.close()

    *a_moves, b_move, a_game = run_async(scenario())
    assert a_moves[:3] == [None, None, None]
    assert a_moves[3] == pytest.approx(20.0, abs=0.05)  # a move back every 20 s
    assert b_move is None and a_game is None  # another client's, another kind's


def test_amounts_are_taken_whole_and_a_bucket_expires_once_full_again(redis: RedisServer
                                                                       ) -> None:
    import redis.asyncio as aioredis

    rules = limit_rules(upload_mib_per_hour=1)

    async def scenario() -> tuple[float | None, float | None, int]:
        limits = RedisLimits.from_url(redis.url, rules, prefix="test:", timeout=PATIENT)
        plain = aioredis.Redis.from_url(redis.url)
        try:
            half = await limits.take("a", Kind.UPLOAD_BYTES, 2**19)
            over = await limits.take("a", Kind.UPLOAD_BYTES, 2**19 + 2**10)
            return half, over, await plain.pttl("test:upload_bytes:a")
        finally:
            await limits.close()
            await plain.aclose()

    half, over, expires_in = run_async(scenario())
    assert half is None
    assert over == pytest.approx(2**10 * 3600 / 2**20, rel=0.01)
    assert 1_799_000 < expires_in <= 1_801_000  # half an hour of bytes to drain


def test_redis_stopped_mid_game_lets_moves_pass_at_once_until_it_is_back(
        redis: RedisServer, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(on_redis, "RETRY_AFTER", 0.3)

    async def scenario() -> tuple[list[float | None], float, list[float | None]]:
        limits = RedisLimits.from_url(redis.url, RULES, timeout=PATIENT)
        try:
            before = [await limits.take("a", Kind.MOVES) for _ in range(4)]
            redis.stop()
            started = time.perf_counter()
            while_away = [await limits.take("a", Kind.MOVES) for _ in range(20)]
            took = time.perf_counter() - started
            redis.start()  # empty: what it held is gone, as after a crash
            time.sleep(0.35)  # Redis left alone until then
            after = [await limits.take("a", Kind.MOVES) for _ in range(4)]
            return before, took, [*while_away, *after]
        finally:
            await limits.close()

    before, took, afterwards = run_async(scenario())
    assert before[:3] == [None] * 3 and before[3] is not None
    assert afterwards[:20] == [None] * 20  # failed open
    assert took < 1.0  # one failure, then no waiting at all
    assert afterwards[20:23] == [None] * 3 and afterwards[23] is not None  # limits again
    logged = [record.getMessage() for record in caplog.records]
    assert sum("Redis did not answer" in line for line in logged) == 1
    assert sum("Redis answers again" in line for line in logged) == 1


@pytest.fixture
def silent_server() -> Iterator[str]:
    """A Redis that accepts connections and never answers (hung, or a lost network)."""
    listener = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])
            except TimeoutError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"redis://127.0.0.1:{listener.getsockname()[1]}/0"
    stop.set()
    thread.join()
    for connection in held:
        connection.close()
    listener.close()


def test_a_hung_redis_holds_a_move_no_longer_than_the_timeout(silent_server: str) -> None:
    async def scenario() -> tuple[float | None, float, float | None, float]:
        limits = RedisLimits.from_url(silent_server, RULES)
        try:
            started = time.perf_counter()
            first = await limits.take("a", Kind.MOVES)
            took = time.perf_counter() - started
            started = time.perf_counter()
            second = await limits.take("a", Kind.MOVES)
            return first, took, second, time.perf_counter() - started
        finally:
            await limits.close()

    first, took, second, second_took = run_async(scenario())
    assert first is None and second is None
    assert took < on_redis.TIMEOUT + 0.25
    assert second_took < on_redis.TIMEOUT / 2  # left alone meanwhile, not waited on again
