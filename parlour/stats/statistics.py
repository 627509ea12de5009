"""Statistics from finished games, per game, group (`Game.stat_group`: board, difficulty...)
and mode: the figures as numbers for the API, the same figures worded for the page, and
charts (`parlour.stats.charts`).

What a game's page shows is what its `GameSpec` declares: the outcomes its games can end
with (`stat_outcomes`; win rate and streaks only where a game can be lost) and its own
figures (`stat_figures`: best time, fewest moves, best score...). Nothing shows a "best
score" for a game that has none.
"""

from __future__ import annotations

import hashlib
import threading
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from parlour.core.game import GameSpec, readable
from parlour.stats.charts import figure_chart, results_chart
from parlour.stats.numbers import summary
from parlour.stats.wording import shown
from parlour.store import Result

OUTCOMES = {"won": "won", "lost": "lost", "draw": "drawn"}
"""A game's outcomes when it does not declare them."""


def statistics(results: Sequence[Result], games: Mapping[str, GameSpec]) -> dict[str, Any]:
    """Every group's figures and charts, the groups in the order of the games' list."""
    groups: dict[tuple[str, str, str], list[Result]] = defaultdict(list)
    for result in results:
        # with several people at one game, each seat's record is kept apart
        mode = f"{result.mode}, as {result.seat_name}" if result.seat_name else result.mode
        groups[(result.game, result.preset, mode)].append(result)

    def place(key: Key) -> tuple[int, str, str, str]:
        spec = games.get(key[0])
        return (spec.order if spec else 1_000, *key)

    return {"groups": [drawn(key, groups[key], games.get(key[0]))
                       for key in sorted(groups, key=place)]}


Key = tuple[str, str, str]
"""A group: (game, stat group, mode)."""
_drawn: dict[tuple[Key, bool, tuple[tuple[str, int, float], ...]], dict[str, Any]] = {}
_drawing = threading.Lock()
DRAWN_KEPT = 200


def drawn(key: Key, finished: Sequence[Result], spec: GameSpec | None) -> dict[str, Any]:
    """`group`, kept while its results stay the same: drawing the charts is the slow part
    (tens of milliseconds each), and the page is opened far more often than a game ends."""
    seen = (key, spec is None, tuple((r.sid, r.round, r.finished) for r in finished))
    with _drawing:
        kept = _drawn.get(seen)
    if kept is None:
        kept = group(key, finished, spec)
        with _drawing:  # (the server draws in threads)
            while len(_drawn) >= DRAWN_KEPT:
                _drawn.pop(next(iter(_drawn)))
            _drawn[seen] = kept
    return kept


def group(key: Key, finished: Sequence[Result], spec: GameSpec | None) -> dict[str, Any]:
    """One group's figures (oldest result first) and charts, for a game `spec` (None: a
    game no longer offered, shown with the standard figures)."""
    game, preset, mode = key
    declared = spec.stat_figures if spec else ()
    outcomes = dict(spec.stat_outcomes) if spec else OUTCOMES
    numbers = summary(finished, declared)
    charts = [results_chart(finished, outcomes)] if finished else []
    charts += [c for figure in declared if (c := figure_chart(figure, finished, outcomes))]
    return {
        "game": game,
        "title": spec.game.title if spec else game,
        "preset": preset,
        "heading": spec.game.preset_label(preset) if spec else readable(preset),
        "mode": mode,
        **numbers,
        "shown": shown(numbers, declared, outcomes),
        "charts": [chart.as_json(_chart_id(key, number)) for number, chart in enumerate(charts)],
    }


def _chart_id(key: Key, number: int) -> str:
    return "stat-" + hashlib.sha1(repr((key, number)).encode()).hexdigest()[:12]
