"""Debian's Chromium, launched through Playwright headless with Parlour's flags."""

from __future__ import annotations

from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
# Each browser context opens a window of its own, whose address bar preloads two WebUI
# popups (the omnibox's and its AI Mode's), each in a renderer process: about 1.1 s of CPU
# a context, half of what a fresh page costs in all. No test opens the address bar.
UNUSED_BROWSER_UI = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup")
# Chromium keeps only the last --disable-features switch, and Playwright passes its own
# first, so ours repeats Playwright's list (its chromiumSwitches, as of 1.65).
PLAYWRIGHT_DISABLED_FEATURES = (
    "AvoidUnnecessaryBeforeUnloadCheckSync", "DestroyProfileOnBrowserClose", "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable", "LensOverlay", "MediaRouter", "PaintHolding",
    "ThirdPartyStoragePartitioning", "AvoidCorsURLLoaderRestartOnRedirect",
    "TcpPortRandomizationWin", "OptimizationHints", "NetworkTimeServiceQuerying", "AimEnabled",
    "PreconnectToSearch",
)
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-features=" + ",".join(PLAYWRIGHT_DISABLED_FEATURES + UNUSED_BROWSER_UI),
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
