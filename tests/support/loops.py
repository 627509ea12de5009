"""Coroutines run to the end from code that may already have an event loop running."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def run_async(coroutine: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run` in a thread of its own: in a test run, Playwright's sync API keeps an
    event loop running in the main thread, where `asyncio.run` is refused."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()
