"""Statistics from finished games, per game, group (`Game.stat_group`: board, difficulty...)
and mode: the figures as numbers for the API, the same figures worded for the page, and
charts (`parlour.stat_charts`).

What a game's page shows is what its `GameSpec` declares: the outcomes its games can end
with (`stat_outcomes`; win rate and streaks only where a game can be lost) and its own
figures (`stat_figures`: best time, fewest moves, best score...). Nothing shows a "best
score" for a game that has none.
"""

from __future__ import annotations

import hashlib
import threading
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from parlour.core.game import GameSpec, StatFigure, readable
from parlour.stat_charts import Chart, Series
from parlour.store import Result

CHART_GAMES = 40
"""A chart game by game shows this many most recent games."""
PERIODS = 24
"""The results chart shows at most this many days, weeks or months."""
OUTCOMES = {"won": "won", "lost": "lost", "draw": "drawn"}
"""A game's outcomes when it does not declare them."""
OUTCOME_COLOURS = {"won": "var(--won)", "lost": "var(--lost)", "draw": "var(--draw)"}
HELP_FREE, HELPED = ("without help", "var(--accent)"), ("with help", "var(--muted)")


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


# -- the figures as numbers ------------------------------------------------------------------
def summary(results: Sequence[Result], declared: Sequence[StatFigure] = ()) -> dict[str, Any]:
    """Figures for one group, oldest result first: the standard ones, `declared` (the
    game's own: `over_all`), and the best and mean over the games won of figures the game
    does not declare (`figures`)."""
    won = [r for r in results if r.outcome == "won"]
    unassisted = [r for r in results if not r.assisted]
    scores = [r.score for r in results if r.score is not None]
    return {
        "played": len(results),
        "won": len(won),
        "lost": sum(r.outcome == "lost" for r in results),
        "drawn": sum(r.outcome == "draw" for r in results),
        "win_rate": len(won) / len(results) if results else 0.0,
        "current_streak": _current_streak(results),
        "best_streak": _best_streak(results),
        "best_time_ms": min((r.elapsed_ms for r in won), default=None),
        "best_unassisted_time_ms": min(
            (r.elapsed_ms for r in won if not r.assisted), default=None
        ),
        "best_score": max(scores, default=None),
        "assisted": len(results) - len(unassisted),
        "unassisted_played": len(unassisted),
        "unassisted_won": sum(r.outcome == "won" for r in unassisted),
        "figures": _figures(won, {f.name for f in declared}),
        "over_all": [over_all(figure, results) for figure in declared],
    }


def value_of(name: str, result: Result) -> float | None:
    """A figure of a finished game: "time" in seconds, "score", or one of its `figures`."""
    if name == "time":
        return result.elapsed_ms / 1000
    if name == "score":
        return None if result.score is None else float(result.score)
    return result.figures.get(name)


def counted(figure: StatFigure, results: Sequence[Result]) -> list[tuple[Result, float]]:
    """The games `figure` is taken over, with its value in each (oldest first)."""
    chosen = (r for r in results if figure.of == "all" or r.outcome == "won")
    return [(r, value) for r in chosen if (value := value_of(figure.name, r)) is not None]


def over_all(figure: StatFigure, results: Sequence[Result]) -> dict[str, Any]:
    values = [value for _, value in counted(figure, results)]
    numbers: dict[str, Any] = {"name": figure.name, "label": figure.label, "show": figure.show,
                               "games": len(values)}
    if figure.show == "share":
        numbers["share"] = sum(value == 1 for value in values) / len(values) if values else None
    elif figure.show == "distribution":
        numbers["counts"] = {str(int(v)): c for v, c in sorted(Counter(values).items())}
        numbers["mean"] = _mean(values)
    else:  # the best is a record: only games played without help count
        unhelped = [value for r, value in counted(figure, results) if not r.assisted]
        best = min if figure.show == "lowest" else max
        numbers |= {"games": len(unhelped), "best": best(unhelped, default=None),
                    "mean": _mean(unhelped)}
    return numbers


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _figures(won: Sequence[Result], apart: set[str]) -> dict[str, dict[str, float]]:
    """Best (largest) and mean of each game-specific figure over the games won, but those
    the game declares (shown `apart`, as it declares)."""
    names = sorted({name for result in won for name in result.figures} - apart)
    summary = {}
    for name in names:
        values = [r.figures[name] for r in won if name in r.figures]
        summary[name] = {"best": max(values), "mean": sum(values) / len(values)}
    return summary


def _current_streak(results: Sequence[Result]) -> int:
    streak = 0
    for result in reversed(results):
        if result.outcome != "won":
            break
        streak += 1
    return streak


def _best_streak(results: Sequence[Result]) -> int:
    best = run = 0
    for result in results:
        run = run + 1 if result.outcome == "won" else 0
        best = max(best, run)
    return best


# -- the figures worded for the page ---------------------------------------------------------
def shown(numbers: Mapping[str, Any], declared: Sequence[StatFigure],
          outcomes: Mapping[str, str]) -> list[dict[str, str]]:
    """The figures a player of the game wants, each a short value under a caption."""
    counts = {"won": numbers["won"], "lost": numbers["lost"], "draw": numbers["drawn"]}
    tiles = [("played", str(numbers["played"]))]
    tiles += [(word, str(counts[outcome])) for outcome, word in outcomes.items()
              if len(outcomes) > 1]
    if len(outcomes) > 1 and "won" in outcomes:
        tiles += [
            ("win rate", f"{round(numbers['win_rate'] * 100)}%"),
            ("current streak", str(numbers["current_streak"])),
            ("best streak", str(numbers["best_streak"])),
        ]
    for figure, figured in zip(declared, numbers["over_all"], strict=True):
        tiles += _figure_tiles(figure, figured)
    if numbers["assisted"]:
        tiles.append(("with help", str(numbers["assisted"])))
    return [{"label": label, "value": value} for label, value in tiles]


def _figure_tiles(figure: StatFigure, figured: Mapping[str, Any]) -> list[tuple[str, str]]:
    write = wording(figure.unit)
    if figure.show == "share":
        share = figured["share"]
        return [(figure.label, "–" if share is None else f"{round(share * 100)}%")]
    if figure.show == "distribution":
        return [(f"mean {figure.label}", write(figured["mean"]))]
    best = [(figure.best_caption, write(figured["best"]))]
    return [*best, (f"mean {figure.label}", write(figured["mean"]))] if figure.chart else best


def wording(unit: str) -> Callable[[float | None], str]:
    """How a value in `unit` is written: seconds as a clock (1:05), others as numbers."""
    return clock if unit == "seconds" else number


def clock(seconds: float | None) -> str:
    if seconds is None:
        return "–"
    whole = int(seconds)
    hours, minutes, rest = whole // 3600, whole // 60 % 60, whole % 60
    return f"{hours}:{minutes:02}:{rest:02}" if hours else f"{minutes}:{rest:02}"


def number(value: float | None) -> str:
    """Three significant digits or so: 1064, 56.7, 0.83 (a mean needs no more)."""
    if value is None:
        return "–"
    decimals = 0 if abs(value) >= 100 else 1 if abs(value) >= 10 else 2
    return f"{value:.{decimals}f}".rstrip("0").rstrip(".") if decimals else f"{value:.0f}"


# -- charts ------------------------------------------------------------------------------------
def results_chart(results: Sequence[Result], outcomes: Mapping[str, str]) -> Chart:
    """How many games ended each way, per day, week or month (as the games span)."""
    days = [datetime.fromtimestamp(r.finished).date() for r in results]  # the player's days
    period = Period.spanning(max(days) - min(days))
    starts = period.starts(min(days), max(days))[-PERIODS:]
    counts = Counter((period.start(day), r.outcome) for day, r in zip(days, results, strict=True))
    only = next(iter(outcomes.values())) if len(outcomes) == 1 else None
    return Chart(
        title=f"Games {only} per {period.name}" if only else f"Results per {period.name}",
        x_title=period.name,
        y_title="games",
        labels=[period.label(start) for start in starts],
        series=[Series(word, [counts[(start, outcome)] for start in starts],
                       OUTCOME_COLOURS.get(outcome, "var(--accent)"))
                for outcome, word in outcomes.items()],
        stacked=True,
        counts=True,
    )


@dataclass(frozen=True)
class Period:
    """A bar of the results chart: a day, a week (from Monday) or a month."""

    name: str
    length: int  # days; a month's start is found from a day in the next one

    @staticmethod
    def spanning(span: timedelta) -> Period:
        if span < timedelta(days=14):
            return Period("day", 1)
        if span < timedelta(weeks=PERIODS):
            return Period("week", 7)
        return Period("month", 31)

    def start(self, day: date) -> date:
        if self.name == "week":
            return day - timedelta(days=day.weekday())
        return day.replace(day=1) if self.name == "month" else day

    def starts(self, first: date, last: date) -> list[date]:
        """The first days of the periods from the one of `first` to the one of `last`."""
        starts = [self.start(first)]
        while starts[-1] < self.start(last):
            starts.append(self.start(starts[-1] + timedelta(days=self.length)))
        return starts

    def label(self, start: date) -> str:
        return f"{start:%b %Y}" if self.name == "month" else f"{start.day} {start:%b}"


def figure_chart(figure: StatFigure, results: Sequence[Result], outcomes: Mapping[str, str]
                 ) -> Chart | None:
    """A declared figure's chart: its value game by game, or how often each value came."""
    values = counted(figure, results)
    if not figure.chart or not values or figure.show == "share":
        return None
    if figure.show == "distribution":
        return _distribution(figure, [value for _, value in values])
    recent = values[-CHART_GAMES:]
    first = len(values) - len(recent) + 1
    games = "game" if figure.of == "all" else f"game {outcomes.get('won', 'won')}"
    kinds = [HELP_FREE, HELPED] if any(r.assisted for r, _ in recent) else [HELP_FREE]
    return Chart(
        title=f"{figure.label.capitalize()} of each {games}",
        x_title=games,
        y_title=figure.unit or figure.label,
        labels=[str(first + i) for i in range(len(recent))],
        series=[Series(name, [value if r.assisted == (name == HELPED[0]) else None
                              for r, value in recent], colour) for name, colour in kinds],
        stacked=True,
        columns=[games, *(f"{figure.unit or figure.label}, {name}" for name, _ in kinds)],
    )


def _distribution(figure: StatFigure, values: Sequence[float]) -> Chart:
    counts = Counter(int(v) for v in values)
    span = range(min(counts), max(counts) + 1)
    return Chart(
        title=f"{figure.label.capitalize()}: how often",
        x_title=figure.unit or figure.label,
        y_title="games",
        labels=[str(value) for value in span],
        series=[Series("games", [counts.get(value, 0) for value in span], "var(--accent)")],
        counts=True,
    )
