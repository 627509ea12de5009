"""Module-level work for the worker-pool tests (a worker process imports it by name)."""

from __future__ import annotations

import os
import time
from pathlib import Path


def square(number: int) -> int:
    return number * number


def sleep_then_mark(seconds: float, mark: str) -> int:
    """Sleep, then leave a file: if the file appears, the work was not stopped."""
    time.sleep(seconds)
    Path(mark).write_text("finished")
    return os.getpid()


def fail(message: str) -> None:
    raise ValueError(message)
