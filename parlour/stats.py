"""Statistics from finished games: per game, preset and mode, with small SVG charts."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from parlour.core.game import GameSpec, StatFigure
from parlour.store import Result

CHART_GAMES = 40  # the chart shows this many most recent games


def statistics(results: Sequence[Result], games: Mapping[str, GameSpec]) -> dict[str, Any]:
    groups: dict[tuple[str, str, str], list[Result]] = defaultdict(list)
    for result in results:
        # with several people at one game, each seat's record is kept apart
        mode = f"{result.mode}, as {result.seat_name}" if result.seat_name else result.mode
        groups[(result.game, result.preset, mode)].append(result)
    return {
        "groups": [
            {
                "game": game,
                "title": games[game].game.title if game in games else game,
                "preset": preset,
                "mode": mode,
                **summary(finished, games[game].stat_figures if game in games else ()),
                "chart_svg": chart(finished[-CHART_GAMES:]),
            }
            for (game, preset, mode), finished in sorted(groups.items())
        ]
    }


def summary(results: Sequence[Result], declared: Sequence[StatFigure] = ()) -> dict[str, Any]:
    """Figures for one group, oldest result first; `declared`: the game's own figures
    shown over every game (the others: best and mean over the games won)."""
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
        "over_all": [_over_all(figure, results) for figure in declared],
    }


def _over_all(figure: StatFigure, results: Sequence[Result]) -> dict[str, Any]:
    values = [r.figures[figure.name] for r in results if figure.name in r.figures]
    shown: dict[str, Any] = {"name": figure.name, "label": figure.label, "show": figure.show,
                             "games": len(values)}
    if figure.show == "share":
        shown["share"] = sum(value == 1 for value in values) / len(values) if values else None
    elif figure.show == "fewest":
        unhelped = [r.figures[figure.name] for r in results
                    if r.outcome == "won" and not r.assisted and figure.name in r.figures]
        shown["games"] = len(unhelped)
        shown["fewest"] = min(unhelped, default=None)
        shown["mean"] = sum(unhelped) / len(unhelped) if unhelped else None
    else:
        shown["counts"] = {str(int(v)): c for v, c in sorted(Counter(values).items())}
        shown["chart_svg"] = distribution_chart(values, figure.label)
    return shown


def _figures(won: Sequence[Result], apart: set[str]) -> dict[str, dict[str, float]]:
    """Best (largest) and mean of each game-specific figure over the games won (but those
    shown `apart`, over every game)."""
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


def chart(results: Sequence[Result]) -> str:
    """One bar per game, newest on the right: height is the time taken, colour the outcome."""
    width, height, gap = 320, 90, 2
    if not results:
        return ""
    slot = width / max(len(results), 10)
    longest = max(r.elapsed_ms for r in results) or 1
    bars = []
    for i, result in enumerate(results):
        bar = max(4.0, (height - 14) * result.elapsed_ms / longest)
        seconds = result.elapsed_ms / 1000
        note = f"{result.outcome}, {seconds:.0f} s" + (", assisted" if result.assisted else "")
        bars.append(
            f'<rect class="bar {result.outcome}{" assisted" if result.assisted else ""}" '
            f'x="{i * slot + gap / 2:.1f}" y="{height - bar:.1f}" width="{slot - gap:.1f}" '
            f'height="{bar:.1f}" rx="2"><title>{note}</title></rect>'
        )
    return (
        f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="last {len(results)} games: bar height is time, colour is outcome">'
        f'<line class="axis" x1="0" y1="{height}" x2="{width}" y2="{height}"/>'
        + "".join(bars)
        + "</svg>"
    )


def distribution_chart(values: Sequence[float], label: str) -> str:
    """A bar per value from the smallest to the largest seen: how many games ended so."""
    if not values:
        return ""
    counts = Counter(int(v) for v in values)
    low, high = min(counts), max(counts)
    width, height, gap = 320, 90, 2
    slot = width / max(high - low + 1, 10)
    most = max(counts.values())
    bars = []
    for i, value in enumerate(range(low, high + 1)):
        count = counts.get(value, 0)
        bar = (height - 16) * count / most
        bars.append(
            f'<rect class="bar dist" x="{i * slot + gap / 2:.1f}" y="{height - 14 - bar:.1f}" '
            f'width="{slot - gap:.1f}" height="{bar:.1f}" rx="2"><title>{value}: {count} '
            f'game{"s" * (count != 1)}</title></rect>'
            f'<text class="tick" x="{i * slot + slot / 2:.1f}" y="{height - 2}">{value}</text>'
        )
    return (
        f'<svg class="chart distribution" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{label}: how many games ended with each value">' + "".join(bars)
        + "</svg>"
    )
