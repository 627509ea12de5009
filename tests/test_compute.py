"""The worker pool: long work runs elsewhere, within a budget, can be stopped, and tells
the server how far it has got."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from parlour.server.compute import Compute, TooSlow
from tests import jobs_for_tests as jobs
from tests.support.loops import run_async


@pytest.fixture(scope="module")
def compute() -> Iterator[Compute]:
    pool = Compute(workers=2)
    yield pool
    pool.close()


def test_work_runs_in_a_worker_and_returns_its_value(compute: Compute) -> None:
    assert run_async(compute.run(10, jobs.square, 12)) == 144


def test_an_error_in_the_work_reaches_the_caller(compute: Compute) -> None:
    with pytest.raises(ValueError, match="no such move"):
        run_async(compute.run(10, jobs.fail, "no such move"))


def test_work_over_its_budget_is_stopped(compute: Compute, tmp_path: Path) -> None:
    mark = tmp_path / "finished"
    started = time.perf_counter()
    with pytest.raises(TooSlow):
        run_async(compute.run(0.5, jobs.sleep_then_mark, 3.0, str(mark)))
    assert time.perf_counter() - started < 2.5
    time.sleep(3.0)
    assert not mark.exists()  # the worker was ended, not left to run on
    assert run_async(compute.run(10, jobs.square, 3)) == 9  # and the pool goes on


def test_cancelled_work_is_stopped(compute: Compute, tmp_path: Path) -> None:
    mark = tmp_path / "finished"

    async def cancel_soon() -> None:
        task = asyncio.create_task(compute.run(10, jobs.sleep_then_mark, 2.0, str(mark)))
        await asyncio.sleep(0.5)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    run_async(cancel_soon())
    time.sleep(2.5)
    assert not mark.exists()


def test_the_event_loop_is_free_while_work_runs(compute: Compute, tmp_path: Path) -> None:
    work_seconds = 2.0

    async def measure() -> float:
        work = asyncio.create_task(
            compute.run(10, jobs.sleep_then_mark, work_seconds, str(tmp_path / "m"))
        )
        worst = 0.0
        while not work.done():
            started = time.perf_counter()
            await asyncio.sleep(0.01)
            worst = max(worst, time.perf_counter() - started - 0.01)
        await work
        return worst

    # Work run on the loop would stall it for the work's whole length; a busy CI
    # machine's scheduler alone stalls it for a tenth of a second now and then.
    assert run_async(measure()) < work_seconds / 2


# -- progress reports -------------------------------------------------------------------
Reports = list[tuple[float | None, str]]


def test_progress_reaches_the_callback_in_order_on_the_loops_thread(compute: Compute) -> None:
    seen: Reports = []
    threads: set[int] = set()

    def heard(done: float | None, note: str) -> None:
        seen.append((done, note))
        threads.add(threading.get_ident())

    async def run() -> tuple[str, int]:
        result = await compute.run(10, jobs.report_quarters, 0.15, progress=heard)
        return result, threading.get_ident()

    result, loop_thread = run_async(run())
    assert result == "counted"
    assert seen == [(0.25, "counting"), (0.5, "counting"), (0.75, "counting")]
    assert threads == {loop_thread}


def test_no_report_arrives_after_the_work_has_ended(compute: Compute) -> None:
    seen: Reports = []

    async def run() -> tuple[int, int]:
        await compute.run(10, jobs.report_then_return, 200, progress=lambda *r: seen.append(r))
        heard_by_the_end = len(seen)
        await asyncio.sleep(0.5)  # any report still on its way has time to come
        return heard_by_the_end, len(seen)

    by_the_end, later = run_async(run())
    assert later == by_the_end
    assert seen == sorted(seen, key=lambda report: report[0] or 0)  # in the order made


def test_no_report_arrives_after_the_work_is_cancelled(compute: Compute) -> None:
    seen: Reports = []

    async def cancel_soon() -> tuple[int, int]:
        task = asyncio.create_task(
            compute.run(10, jobs.report_for, 3.0, progress=lambda *r: seen.append(r))
        )
        await asyncio.sleep(1.0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        at_cancel = len(seen)
        await asyncio.sleep(0.5)
        return at_cancel, len(seen)

    at_cancel, later = run_async(cancel_soon())
    assert at_cancel > 0  # it was heard while it ran
    assert later == at_cancel


def test_reports_are_at_most_ten_a_second(compute: Compute) -> None:
    seen: Reports = []
    run_async(compute.run(10, jobs.report_for, 1.0, progress=lambda *r: seen.append(r)))
    assert 5 <= len(seen) <= 11
    assert set(seen) == {(None, "still going")}


def test_work_that_reports_runs_as_before_without_a_callback(compute: Compute) -> None:
    assert run_async(compute.run(10, jobs.report_quarters, 0.0)) == "counted"
    assert jobs.report_quarters(0.0) == "counted"  # and outside any worker


def test_a_worker_warms_up_every_game_that_asks_and_survives_one_that_fails(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import dataclasses

    from parlour.games import GAMES
    from parlour.server import compute

    warmed: list[str] = []

    def failing() -> None:
        warmed.append("failing")
        raise RuntimeError("no compiler here")

    first, second = list(GAMES)[:2]
    monkeypatch.setitem(GAMES, first, dataclasses.replace(GAMES[first], warm_up=failing))
    monkeypatch.setitem(GAMES, second, dataclasses.replace(
        GAMES[second], warm_up=lambda: warmed.append("working")))
    compute._warm_up()
    assert warmed[:2] == ["failing", "working"]


def test_the_games_with_compiled_kernels_warm_them_up(monkeypatch: pytest.MonkeyPatch) -> None:
    from parlour.core import tables
    from parlour.games import GAMES
    from parlour.games.sliding import patterns

    read: list[str] = []
    get = tables.get
    monkeypatch.setattr(tables, "get", lambda table: (read.append(table.name), get(table))[1])
    assert GAMES["tribolo"].warm_up is not None and GAMES["sliding"].warm_up is not None
    GAMES["tribolo"].warm_up()
    GAMES["sliding"].warm_up()
    # the 15-puzzle's table is read (or built, once a machine) before any 4x4 hint
    assert patterns.FIFTEEN.name in read
