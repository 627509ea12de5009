"""One group's figures as numbers (the API's): counts, win rate, streaks, records, and
each figure a game declares, taken over the games it counts."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from parlour.core.game import StatFigure
from parlour.store import Result


def summary(results: Sequence[Result], declared: Sequence[StatFigure] = (), *,
            records: bool = True) -> dict[str, Any]:
    """Figures for one group, oldest result first: the standard ones, `declared` (the
    game's own: `over_all`), and the best and mean over the games won of figures the game
    does not declare (`figures`). Without `records` (games not dealt here) every best is
    None, the counts and means kept."""
    numbers = _summary(results, declared)
    if records:
        return numbers
    return numbers | {
        "best_time_ms": None, "best_unassisted_time_ms": None, "best_score": None,
        "figures": {name: {**values, "best": None}
                    for name, values in numbers["figures"].items()},
        "over_all": [{**f, "best": None} if "best" in f else f for f in numbers["over_all"]],
    }


def _summary(results: Sequence[Result], declared: Sequence[StatFigure]) -> dict[str, Any]:
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
    """A figure of a finished game: "time" in seconds, "score", "moves", or one of its
    `figures`."""
    if name == "time":
        return result.elapsed_ms / 1000
    if name == "moves":
        return float(result.moves)
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
    else:  # the best is a record: only games played without help count; the mean is
        # of every game the chart shows, helped or not
        numbers |= {"games": len(values), "best": record(figure, results),
                    "mean": _mean(values),
                    "unhelped": sum(not r.assisted for r, _ in counted(figure, results))}
    return numbers


def record(figure: StatFigure, results: Sequence[Result]) -> float | None:
    """The best value of a "lowest" or "highest" figure over the games played without
    help (a game with hints or Assist sets no record); None if there is none. None of a
    thing is no most of it: a "highest" figure's 0 is no record (Ishido's 4-ways)."""
    unhelped = [value for r, value in counted(figure, results) if not r.assisted
                and (figure.show != "highest" or value > 0)]
    best = min if figure.show == "lowest" else max
    return best(unhelped, default=None)


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
