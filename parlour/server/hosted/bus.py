"""The bus: what travels between the processes of a hosted Parlour, over Redis.

Each process has a channel of its own (`parlour:process:<id>`) that it listens to; a
process is on the bus while it listens (`alive`: a process that dies stops listening at
once, as its connection closes). Messages are JSON
objects, delivered in order from one sender while the connection lasts. Redis keeps
nothing that cannot be lost: a message sent while a process's connection is down is
gone, so a lost connection and each reconnection are a gap (`on_gap`), after which whoever
relied on it (the relay's forwarded sockets) starts again from PostgreSQL, through the
owner.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

import redis.asyncio as redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError

log = logging.getLogger("parlour")

TIMEOUT_SECONDS = 2.0
"""A Redis command that takes longer than this fails: nothing waits on a lost server."""
RETRY_SECONDS = 0.5

Message = dict[str, Any]
Receiver = Callable[[Message], Awaitable[None] | None]


class BusDown(RuntimeError):
    """Redis cannot be reached: nothing could be sent."""


def channel(process: str) -> str:
    return f"parlour:process:{process}"



class Bus:
    """This process's end of the bus: `send` to another process, `receive` is called with
    each message for this one (on the event loop, in order), `on_gap` whenever messages
    may have been lost: the connection was lost, or made again."""

    def __init__(self, url: str, process: str, receive: Receiver,
                 on_gap: Callable[[], None] = lambda: None) -> None:
        self.url = url
        self.process = process
        self.receive = receive
        self.on_gap = on_gap
        self.connected = asyncio.Event()
        # a connection idle for a second is checked before use (and made anew if Redis
        # restarted meanwhile): a command is never sent twice, nor lost on a stale one
        self._redis: redis.Redis = redis.Redis.from_url(
            url, socket_timeout=TIMEOUT_SECONDS, socket_connect_timeout=TIMEOUT_SECONDS,
            health_check_interval=1)
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        """Listen and beat from now on; returns once connected (or after a few seconds
        without Redis: the bus keeps trying meanwhile)."""
        self._tasks = [asyncio.create_task(self._listen())]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.connected.wait(), 3 * TIMEOUT_SECONDS)

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self._redis.aclose()

    async def send(self, process: str, message: Message) -> bool:
        """Publish `message` to `process`: whether it was listening (a process that died
        is not); BusDown if Redis cannot be reached."""
        text = json.dumps(message)
        for _attempt in range(2):
            try:
                return bool(await self._redis.publish(channel(process), text))
            except RedisConnectionError as error:
                # once more, on a new connection: a connection that Redis's restart broke
                # fails when it is written to, so the message did not go
                failed: Exception = error
            except (RedisError, OSError) as error:
                failed = error
                break
        raise BusDown(f"the bus cannot be reached ({failed})")

    async def alive(self, processes: Iterable[str]) -> set[str]:
        """Which of `processes` are listening on the bus: a process that died is not (its
        connection closed with it), one that hangs still is (its lease decides). All of
        them if Redis cannot be reached: nobody is given up for dead on its account."""
        asked = sorted(set(processes))
        if not asked:
            return set()
        try:
            counts = await self._redis.pubsub_numsub(*(channel(p) for p in asked))
        except (RedisError, OSError):
            return set(asked)
        listening = {name.decode() if isinstance(name, bytes) else name
                     for name, count in counts if count}
        return {process for process in asked if channel(process) in listening}

    async def _listen(self) -> None:
        while True:
            try:
                await self._subscribed()
            except (RedisError, OSError) as error:
                if self.connected.is_set():
                    log.warning("the bus's connection was lost (%s): reconnecting", error)
                    self.on_gap()
                self.connected.clear()
            await asyncio.sleep(RETRY_SECONDS)

    async def _subscribed(self) -> None:
        async with self._redis.pubsub() as pubsub:
            await pubsub.subscribe(channel(self.process))
            self.connected.set()
            self.on_gap()
            while True:
                found = await pubsub.get_message(ignore_subscribe_messages=True,
                                                 timeout=TIMEOUT_SECONDS)
                if found is None:
                    await pubsub.ping()  # a dead server is found out within seconds
                elif found["type"] == "message":
                    await self._deliver(found["data"])

    async def _deliver(self, data: bytes) -> None:
        try:
            message = json.loads(data)
        except ValueError:
            log.warning("a message on the bus that is not JSON was ignored")
            return
        try:
            done = self.receive(message)
            if done is not None:
                await done
        except Exception:  # one bad message must not stop the bus
            log.exception("a message on the bus could not be handled")
