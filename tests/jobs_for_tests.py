"""Module-level work for the worker-pool tests (a worker process imports it by name)."""

from __future__ import annotations

import os
import time
from pathlib import Path

from parlour.core import progress, tables


def square(number: int) -> int:
    return number * number


def sleep_then_mark(seconds: float, mark: str) -> int:
    """Sleep, then leave a file: if the file appears, the work was not stopped."""
    time.sleep(seconds)
    Path(mark).write_text("finished")
    return os.getpid()


def fail(message: str) -> None:
    raise ValueError(message)


# -- progress ---------------------------------------------------------------------------
def report_quarters(pause: float) -> str:
    """Report a quarter, a half and three quarters done, `pause` seconds apart."""
    for done in (0.25, 0.5, 0.75):
        progress.report(done, "counting")
        time.sleep(pause)
    return "counted"


def report_then_return(reports: int) -> int:
    """A burst of reports (each with its own note, so none is held back), then the end."""
    for number in range(reports):
        progress.report(number / reports, f"report {number}")
    return reports


def report_for(seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        progress.report(None, "still going")
        time.sleep(0.02)


# -- tables -----------------------------------------------------------------------------
def build_squares() -> list[int]:
    """A table that takes a moment, says how far it has got, and leaves a line in
    `builds.log` beside the table files each time it is built (it may be in a worker)."""
    tables.folder().mkdir(parents=True, exist_ok=True)
    with (tables.folder() / "builds.log").open("a") as log:
        log.write(f"{os.getpid()}\n")
    for step in range(4):
        progress.report(step / 4)
        time.sleep(0.1)
    return [number * number for number in range(1000)]


SQUARES = tables.Table("squares", version=1, build=build_squares, title="the squares")


def squares_from(folder: str) -> int:
    """In a worker: the squares table from `folder`, as a fresh process would get it."""
    os.environ[tables.FOLDER_VARIABLE] = folder
    tables.forget(SQUARES)
    squares = tables.get(SQUARES)
    return sum(squares)
