"""Shared helpers for the benchmarks: percentiles and a uniform way to print them; a
server process's output drained, a free port, the legal moves in a view; the CPU time
that Chromium's processes and Parlour's servers have used."""

from __future__ import annotations

import html
import json
import math
import os
import re
import socket
import statistics
import threading
from collections import deque
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from parlour.devtools import RunningServer


def percentile(samples: Sequence[float], pct: float) -> float:
    """The `pct`th percentile (0-100) with linear interpolation between ranks."""
    if not samples:
        raise ValueError("no samples")
    ordered = sorted(samples)
    rank = (len(ordered) - 1) * pct / 100
    low, high = math.floor(rank), math.ceil(rank)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def wilson(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95 % Wilson score interval for a proportion (all of [0, 1] with no trials)."""
    if not trials:
        return 0.0, 1.0
    share = successes / trials
    denominator = 1 + z * z / trials
    centre = (share + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(share * (1 - share) / trials + z * z / (4 * trials * trials))
    return centre - half / denominator, centre + half / denominator


def summary(samples: Sequence[float]) -> dict[str, float]:
    return {
        "n": float(len(samples)),
        "min": min(samples),
        "p50": statistics.median(samples),
        "p95": percentile(samples, 95),
        "p99": percentile(samples, 99),
        "max": max(samples),
        "mean": statistics.fmean(samples),
    }


def report(label: str, samples: Sequence[float], unit: str = "ms") -> dict[str, float]:
    """Print one line: count, min, p50, p95, p99, max and mean of `samples`."""
    figures = summary(samples)
    print(
        f"{label:<44} n={len(samples):<5d} min={figures['min']:7.2f}  p50={figures['p50']:7.2f}"
        f"  p95={figures['p95']:7.2f}  p99={figures['p99']:7.2f}  max={figures['max']:7.2f}"
        f"  mean={figures['mean']:7.2f} {unit}"
    )
    return figures


def share_under(samples: Sequence[float], limit: float) -> float:
    """The fraction of samples strictly below `limit`."""
    return sum(1 for sample in samples if sample < limit) / len(samples)


def heading(text: str) -> None:
    print()
    print(text)
    print("-" * len(text))


# -- a server process and its games, for the benchmarks that drive one over REST ----------------
MOVE_ATTRIBUTE = re.compile(r'data-(?:alt-)?move="([^"]*)"')


def legal_moves(markup: str) -> list[Any]:
    """The moves a view's markup offers: its elements' `data-move` and `data-alt-move`."""
    moves = []
    for found in MOVE_ATTRIBUTE.finditer(markup):
        try:
            moves.append(json.loads(html.unescape(found.group(1))))
        except ValueError:
            continue
    return moves


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now, so that a restarted server can take it again."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def drain_output(server: RunningServer, keep: int = 200) -> deque[str]:
    """Read the server's output in a thread, so that a full pipe never stalls it; the
    returned deque holds its last `keep` lines (tracebacks, warnings)."""
    lines: deque[str] = deque(maxlen=keep)
    stream = server.process.stdout

    def read() -> None:
        if stream is not None:
            for line in stream:
                lines.append(line.rstrip("\n"))

    threading.Thread(target=read, name="server-output", daemon=True).start()
    return lines


# -- CPU time by process, from /proc (Linux) ----------------------------------------------------
PROC = Path("/proc")


def cpu_ms_by_process() -> dict[str, float]:
    """The CPU time (ms) used so far by each Chromium process and Parlour server running on
    this machine, summed by kind: a Chromium process's --type ("renderer", "gpu-process", a
    utility's service; "browser" for the main one) or "server". Empty without /proc."""
    used: dict[str, float] = {}
    for folder in PROC.glob("[0-9]*"):
        try:
            kind = process_kind(folder.joinpath("cmdline").read_bytes().decode().split("\0"))
            if kind:
                used[kind] = used.get(kind, 0.0) + cpu_ms(int(folder.name))
        except (OSError, UnicodeDecodeError, IndexError, ValueError):
            continue  # gone meanwhile, or not ours to read
    return used


def cpu_ms(pid: int) -> float:
    """The CPU time (ms) process `pid` has used so far, in user and kernel mode."""
    fields = PROC.joinpath(str(pid), "stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def process_kind(words: list[str]) -> str | None:
    """What a process is, from its command line's words (see cpu_ms_by_process); None for
    one that is neither Chromium nor a Parlour server."""
    words = " ".join(words).split()  # Chromium rewrites its children's argv as one string
    if words and words[0].endswith(("chromium", "chrome")):
        flags = dict(word[2:].split("=", 1) for word in words if word.startswith("--")
                     and "=" in word)
        kind = flags.get("type", "browser")  # a utility is named by its service: "audio"
        return flags.get("utility-sub-type", kind).split(".")[0] if kind == "utility" else kind
    if "parlour" in words and "--no-browser" in words:
        return "server"
    return None
