"""Shared helpers for the benchmarks: percentiles and a uniform way to print them; a seat
token's header and a free port. (What the tests use too is in tests/support.)"""

from __future__ import annotations

import math
import os
import socket
import statistics
from collections.abc import Sequence


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


# -- a server, for the benchmarks that drive one over REST ----------------------------------------
def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now, so that a restarted server can take it again."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def unpaced() -> None:
    """Servers started from here on serve one client flat out: no pacing of its requests
    (`parlour/server/api/pace.py`), which this benchmark's one client would meet and a
    player's page never does. Benchmarks of fairness keep the host's default."""
    os.environ["PARLOUR_REQUEST_RATE"] = "0"
