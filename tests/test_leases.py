"""Leases and fencing (parlour.store.postgres.leases), on a real PostgreSQL server: one
writer per game, whatever the processes believe. Two stores on one database stand for
two processes."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from parlour.store import Fenced, progress_saved, session_created, together, token_added
from parlour.store.postgres import PostgresStore
from parlour.store.postgres.leases import Holder
from tests.test_store_stats import NOW, progress, session_row

TTL = 0.5  # seconds: short, so a lease expires within a test


@pytest.fixture
def two(postgres_url: str) -> Iterator[tuple[PostgresStore, PostgresStore]]:
    first, second = PostgresStore(postgres_url), PostgresStore(postgres_url)
    first.hold_leases("first", TTL)
    second.hold_leases("second", TTL)
    yield first, second
    first.close()
    second.close()


def leases(store: PostgresStore):
    assert store.leases is not None
    return store.leases


def created(store: PostgresStore, sid: str) -> None:
    store.write(session_created(session_row(sid), {"tok-" + sid: [0]}, NOW))


def test_a_game_created_is_its_creators_and_another_is_told_who_holds_it(two) -> None:
    first, second = two
    created(first, "g1")
    assert "g1" in leases(first).held
    assert leases(second).take("g1") == Holder("first", live=True)
    assert "g1" not in leases(second).held


def test_a_game_nobody_holds_is_taken_and_a_missing_one_is_not(two) -> None:
    first, second = two
    created(first, "g1")
    leases(first).release(["g1"])
    assert isinstance(leases(second).take("g1"), int)
    assert leases(second).take("no-such-game") is None


def test_an_expired_lease_is_taken_over_and_the_old_writer_is_fenced(two) -> None:
    first, second = two
    created(first, "g1")
    first.write(progress_saved(progress("g1", cursor=1)))  # its own: written
    time.sleep(TTL + 0.2)  # first is paused past its lease
    epoch = leases(second).take("g1")
    assert isinstance(epoch, int) and epoch > leases(first).held["g1"]
    second.write(progress_saved(progress("g1", cursor=2)))
    with pytest.raises(Fenced):  # first still believes it plays g1: refused
        first.write(progress_saved(progress("g1", cursor=3)))
    with pytest.raises(Fenced):
        first.write(token_added("g1", "intruder", [1]))
    assert first.load_session("g1")[0].cursor == 2
    assert "intruder" not in first.tokens("g1")


def test_a_lease_renewed_is_kept_past_its_first_expiry(two) -> None:
    first, second = two
    created(first, "g1")
    for _ in range(4):
        time.sleep(TTL / 2)
        assert leases(first).renew() == set()
    assert leases(second).take("g1") == Holder("first", live=True)


def test_renewing_finds_the_games_another_took(two) -> None:
    first, second = two
    created(first, "g1")
    created(first, "g2")
    time.sleep(TTL + 0.2)
    leases(second).take("g1")
    assert leases(first).renew() == {"g1"}
    assert set(leases(first).held) == {"g2"}


def test_a_process_writes_nothing_of_a_game_it_never_held(two) -> None:
    first, second = two
    created(first, "g1")
    with pytest.raises(Fenced):
        second.write(progress_saved(progress("g1", cursor=5)))
    assert second.load_session("g1")[0].cursor == 0


def test_a_write_of_a_new_game_with_its_first_seats_is_one_transaction(two) -> None:
    first, _ = two
    first.write(together(session_created(session_row("g9"), {}, NOW),
                         token_added("g9", "mine", [0])))
    assert "g9" in leases(first).held and first.tokens("g9") == {"mine": [0]}


def test_a_store_without_leases_writes_as_before(postgres_store: PostgresStore) -> None:
    created(postgres_store, "g1")
    postgres_store.write(progress_saved(progress("g1", cursor=1)))
    assert postgres_store.load_session("g1")[0].cursor == 1
