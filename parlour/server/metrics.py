"""What a process of Parlour counts for Prometheus (`GET /metrics`, `api/monitoring.py`).

- `parlour_moves_total{game, by}`: moves carried out, by a player or the computer;
- `parlour_move_ack_seconds{game}`: from a player's move arriving (its WebSocket message
  read, its REST request routed) to its acknowledgement: saved, and its view queued for
  the player;
- `parlour_live_games`, `parlour_viewers`: games in this process's memory, WebSockets open;
- `parlour_refusals_total{limit}`: requests refused by a rate limit (`limits/`) or by
  pacing (`requests`);
- `parlour_takeovers_total`: games this process took over from another (hosted mode);
- and prometheus-client's own process and Python metrics.

Each app has a registry of its own, not prometheus-client's global one: tests run many
apps in a process, and two apps' counters are two things. prometheus-client comes with
the hosted extra; without it `create` gives `Metrics`, which counts nothing, and there is
no /metrics.
"""

from __future__ import annotations

from collections.abc import Callable

try:
    import prometheus_client as prometheus
except ImportError:  # the embedded default needs nothing of it
    prometheus = None  # type: ignore[assignment]

ACK_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.016, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
               5.0)
"""Seconds; 16 ms is one frame at 60 Hz, the spec's bar for a click's whole round trip."""


class Metrics:
    """Counts nothing: the app without prometheus-client. `PrometheusMetrics` counts."""

    def move(self, game: str, by: str) -> None:
        """A move was carried out in `game` `by` "player" or "computer"."""

    def acknowledged(self, game: str, seconds: float) -> None:
        """A player's move was acknowledged `seconds` after it arrived."""

    def refused(self, limit: str) -> None:
        """A request was refused by `limit` (a `limits.Kind`, or "requests": pacing)."""

    def takeover(self) -> None:
        """This process took a game over from another (hosted mode)."""

    def watch(self, live_games: Callable[[], int], viewers: Callable[[], int]) -> None:
        """Read the gauges from these when scraped."""

    def exposition(self) -> tuple[bytes, str] | None:
        """The metrics in Prometheus's text format, and its media type; None: none kept."""
        return None


class PrometheusMetrics(Metrics):
    def __init__(self) -> None:
        assert prometheus is not None
        self.registry = registry = prometheus.CollectorRegistry(auto_describe=True)
        prometheus.ProcessCollector(registry=registry)
        prometheus.PlatformCollector(registry=registry)
        prometheus.GCCollector(registry=registry)
        self._moves = prometheus.Counter(
            "parlour_moves", "Moves carried out", ["game", "by"], registry=registry)
        self._ack = prometheus.Histogram(
            "parlour_move_ack_seconds", "From a player's move arriving to its "
            "acknowledgement (saved, view queued)", ["game"], buckets=ACK_BUCKETS,
            registry=registry)
        self._refusals = prometheus.Counter(
            "parlour_refusals", "Requests refused by a rate limit or pacing", ["limit"],
            registry=registry)
        self._takeovers = prometheus.Counter(
            "parlour_takeovers", "Games this process took over from another",
            registry=registry)
        self._live_games = prometheus.Gauge(
            "parlour_live_games", "Games in this process's memory", registry=registry)
        self._viewers = prometheus.Gauge(
            "parlour_viewers", "WebSockets open to this process", registry=registry)

    def move(self, game: str, by: str) -> None:
        self._moves.labels(game, by).inc()

    def acknowledged(self, game: str, seconds: float) -> None:
        self._ack.labels(game).observe(seconds)

    def refused(self, limit: str) -> None:
        self._refusals.labels(limit).inc()

    def takeover(self) -> None:
        self._takeovers.inc()

    def watch(self, live_games: Callable[[], int], viewers: Callable[[], int]) -> None:
        self._live_games.set_function(live_games)
        self._viewers.set_function(viewers)

    def exposition(self) -> tuple[bytes, str]:
        assert prometheus is not None
        return prometheus.generate_latest(self.registry), prometheus.CONTENT_TYPE_LATEST


def create() -> Metrics:
    """An app's metrics: counted if prometheus-client is installed."""
    return Metrics() if prometheus is None else PrometheusMetrics()
