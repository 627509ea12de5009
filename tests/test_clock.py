"""The game clock: it counts play, not the time a game is left open."""

from __future__ import annotations

from parlour.core.session import IDLE_CAP_SECONDS, Clock


def test_the_clock_counts_the_time_between_moves() -> None:
    clock = Clock()
    clock.record(100.0, running=True)
    clock.record(103.5, running=True)
    assert clock.reading_ms(104.0) == 4000


def test_an_hour_away_counts_as_the_idle_cap_only() -> None:
    clock = Clock()
    clock.record(0.0, running=True)
    assert clock.reading_ms(3600.0) == IDLE_CAP_SECONDS * 1000 == 120_000
    clock.record(3600.0, running=True)
    assert clock.reading_ms(3601.0) == 121_000


def test_a_stopped_clock_reads_the_same_forever() -> None:
    clock = Clock()
    clock.record(0.0, running=True)
    clock.record(2.0, running=False)
    assert clock.reading_ms(10_000.0) == 2000


def test_a_clock_read_before_its_last_action_never_goes_back() -> None:
    clock = Clock()
    clock.record(10.0, running=True)
    assert clock.reading_ms(9.0) == 0
