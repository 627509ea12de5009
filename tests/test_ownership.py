"""Ownership (parlour.server.hosted.ownership) on a real PostgreSQL server: which games a
process keeps holding while it renews its leases."""

from __future__ import annotations

import asyncio

import pytest

from parlour.server.hosted import ownership
from parlour.server.hosted.ownership import Ownership
from parlour.store.postgres import PostgresStore
from tests.support.loops import run_async
from tests.test_leases import created, leases

TTL = 0.3  # seconds: renewed every tenth of a second


def test_a_game_just_created_is_kept_until_it_has_gone_unused_for_a_while(
        postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The lease of a game this process creates is held before its hub has the game in
    memory: a renewal meanwhile must not let it go, while one never used is, in time."""
    monkeypatch.setattr(ownership, "UNUSED_SECONDS", 1.0)
    store = PostgresStore(postgres_url)
    held = store.hold_leases("first", TTL)

    async def scenario() -> tuple[bool, bool]:
        owner = Ownership(held, lose=lambda sid: None, in_memory=set)
        owner.start()
        try:
            created(store, "g1")  # its lease held; not in the (empty) hub's memory
            await asyncio.sleep(0.5)  # five renewals
            kept = "g1" in held.held
            await asyncio.sleep(1.2)  # past UNUSED_SECONDS, still unused
            return kept, "g1" in held.held
        finally:
            await owner.stop()

    try:
        kept, still_held = run_async(scenario())
        assert kept, "a renewal let go of a game just created"
        assert not still_held, "a game never used is held for good"
        assert isinstance(leases(store).take("g1"), int)  # free: anyone may take it
    finally:
        store.close()
