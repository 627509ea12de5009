"""The worker pool: long work runs elsewhere, within a budget, and can be stopped."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from parlour.devtools import run_async
from parlour.server.compute import Compute, TooSlow
from tests import jobs_for_tests as jobs


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
    async def measure() -> float:
        work = asyncio.create_task(
            compute.run(10, jobs.sleep_then_mark, 1.0, str(tmp_path / "m"))
        )
        worst = 0.0
        while not work.done():
            started = time.perf_counter()
            await asyncio.sleep(0.01)
            worst = max(worst, time.perf_counter() - started - 0.01)
        await work
        return worst

    assert run_async(measure()) < 0.05
