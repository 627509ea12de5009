"""Debian's Chromium, launched through Playwright headless with Parlour's flags."""

from __future__ import annotations

from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

def chromium_available() -> bool:
    return Path(CHROMIUM).exists()


def launch_chromium(playwright: Any, **options: Any) -> Any:
    return launch_chromium_from(playwright.chromium, **options)


def launch_chromium_from(browser_type: Any, **options: Any) -> Any:
    """Debian's Chromium, headless with Parlour's flags, from Playwright's `browser_type`
    (a browser's own `browser_type` starts another beside it)."""
    return browser_type.launch(
        executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True, **options
    )
