"""Statistics from finished games, per game, group (`Game.stat_group`: board, difficulty...)
and mode: the figures as numbers for the API, the same figures worded for the page, and
charts (`parlour.stats.charts`). Each group is named in the words its player chose: the
board as the game describes it (`Game.stat_group`, e.g. "Medium 16×16, no guess") and who
played ("Two players here", "Online with a friend, as Cross", "Against the computer
(medium)"); and each game's bests per group, from games played without help, side by side.

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
from parlour.stats.charts import figure_chart, win_rate_chart
from parlour.stats.numbers import summary
from parlour.stats.svg import Chart
from parlour.stats.wording import players, shown, wording
from parlour.store import Result

OUTCOMES = {"won": "won", "lost": "lost", "draw": "drawn"}
"""A game's outcomes when it does not declare them."""


def statistics(results: Sequence[Result], games: Mapping[str, GameSpec]) -> dict[str, Any]:
    """Every group's figures and charts, the groups in the order of the games' list."""
    groups: dict[tuple[str, str, str], list[Result]] = defaultdict(list)
    seat_names: dict[str, str] = {}
    for result in results:
        # with several people at one game, each seat's record is kept apart
        mode = f"{result.mode}, as {result.seat_name}" if result.seat_name else result.mode
        groups[(result.game, result.preset, mode)].append(result)
        seat_names[mode] = result.seat_name

    def place(key: Key) -> tuple[int, int, str, str, str]:
        """In the order of the list of games, then of each game's presets (easy first)."""
        spec = games.get(key[0])
        presets = list(spec.game.presets) if spec else []
        preset = presets.index(key[1]) if key[1] in presets else len(presets)
        return (spec.order if spec else 1_000, preset, *key)

    drawn_groups = [drawn(key, groups[key], games.get(key[0]), seat_names[key[2]])
                    for key in sorted(groups, key=place)]
    return {"groups": drawn_groups, "bests": bests(drawn_groups, games)}


def bests(groups: Sequence[Mapping[str, Any]], games: Mapping[str, GameSpec]
          ) -> list[dict[str, Any]]:
    """Each game's records side by side, a row per group (board, difficulty, players): the
    best of each figure the game keeps a record of, from games played without help."""
    tables = []
    for game in dict.fromkeys(g["game"] for g in groups):
        spec = games.get(game)
        figures = [f for f in spec.stat_figures
                   if f.show in ("lowest", "highest") and f.chart] if spec else []
        if not figures:
            continue
        rows = []
        for g in (g for g in groups if g["game"] == game):
            records = {f["name"]: f.get("best") for f in g["over_all"]}
            rows.append({"heading": g["heading"], "players": g["players"],
                         "values": [wording(f.unit)(records.get(f.name)) for f in figures]})
        tables.append({"game": game, "title": spec.game.title if spec else game,
                       "columns": [_capital(f.best_caption) for f in figures],
                       "rows": rows})
    return tables


Key = tuple[str, str, str]
"""A group: (game, stat group, mode)."""
_drawn: dict[tuple[Key, bool, tuple[tuple[str, int, float], ...]], dict[str, Any]] = {}
_drawing = threading.Lock()
DRAWN_KEPT = 200


def drawn(key: Key, finished: Sequence[Result], spec: GameSpec | None, seat_name: str = ""
          ) -> dict[str, Any]:
    """`group`, kept while its results stay the same: drawing the charts is the slow part
    (milliseconds each), and the page is opened far more often than a game ends."""
    seen = (key, spec is None, tuple((r.sid, r.round, r.finished) for r in finished))
    with _drawing:
        kept = _drawn.get(seen)
    if kept is None:
        kept = group(key, finished, spec, seat_name)
        with _drawing:  # (the server draws in threads)
            while len(_drawn) >= DRAWN_KEPT:
                _drawn.pop(next(iter(_drawn)))
            _drawn[seen] = kept
    return kept


def group(key: Key, finished: Sequence[Result], spec: GameSpec | None, seat_name: str = ""
          ) -> dict[str, Any]:
    """One group's figures (oldest result first) and charts, for a game `spec` (None: a
    game no longer offered, shown with the standard figures); `seat_name`: the seat its
    player held when others played too."""
    game, preset, mode = key
    declared = spec.stat_figures if spec else ()
    outcomes = dict(spec.stat_outcomes) if spec else OUTCOMES
    numbers = summary(finished, declared)
    who = players(finished[0].mode if finished else mode, seat_name)
    rate = win_rate_chart(finished, outcomes)
    charts: list[Chart] = [rate] if rate else []
    charts += [c for figure in declared if (c := figure_chart(figure, finished, outcomes))]
    helped = numbers["assisted"] and any(f.show in ("lowest", "highest") for f in declared)
    return {
        "game": game,
        "title": spec.game.title if spec else game,
        "preset": preset,
        "heading": _heading(spec, preset, who),
        "mode": mode,
        "players": who,
        **numbers,
        "note": "Games played with help (hints or Assist) set no best." if helped else "",
        "shown": shown(numbers, declared, outcomes),
        "charts": [chart.as_json(_chart_id(key, number)) for number, chart in enumerate(charts)],
    }


def _heading(spec: GameSpec | None, preset: str, who: str) -> str:
    """The board or difficulty; for a game with one board only (Tic Tac Toe's
    "standard"), who played, which is what tells its groups apart."""
    if spec is None:
        return readable(preset)
    if list(spec.game.presets) == [preset] and who:
        return who
    return spec.game.preset_label(preset)


def _capital(words: str) -> str:
    return words[:1].upper() + words[1:]


def _chart_id(key: Key, number: int) -> str:
    return "stat-" + hashlib.sha1(repr((key, number)).encode()).hexdigest()[:12]
