"""Which charts a group's results give: the win rate over time (where a game can be lost)
and, for each figure a game declares a chart of, how often each value came with the best
marked (drawn by parlour.stats.svg)."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

from parlour.core.game import StatFigure
from parlour.stats.numbers import counted, record
from parlour.stats.svg import Bar, Histogram, Line, Point, Table
from parlour.stats.wording import clock, writer
from parlour.store import Result

WINDOW = 10
"""The win rate over time is the share of wins among this many games up to each one."""
RATE_GAMES = 200
"""The win rate is drawn over this many most recent games."""
RATE_FROM = 2
"""The win rate is drawn once this many games are played: one game's is a lone dot at 0 %
or 100 %, a chart that shows nothing the card's figures do not (a new player's page was
a column of such charts, one per opponent)."""
DOTS_UP_TO = 60
"""Up to this many games, each is a dot coloured by its result."""
BARS = 8
"""A histogram has about this many bars (fewer when the values are few)."""
FEWEST_BARS = 5
"""Ranges are drawn at least this many bars wide, so that one game or a few close ones
sit on an axis that reads as one (0:50 to 1:15), not in a bar filling the chart."""
OUTCOME_COLOURS = {"won": "var(--won)", "lost": "var(--lost)", "draw": "var(--draw)"}
NICE_SECONDS = (1, 2, 5, 10, 15, 20, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200)


def win_rate_chart(results: Sequence[Result], outcomes: Mapping[str, str]) -> Line | None:
    """The share of wins over the last `WINDOW` games, game by game, and over every game;
    None where a game cannot be lost (a puzzle is solved or left), or before `RATE_FROM`
    games."""
    if len(outcomes) < 2 or "won" not in outcomes or len(results) < RATE_FROM:
        return None
    wins = [r.outcome == "won" for r in results]
    rates = [sum(wins[max(0, i - WINDOW + 1): i + 1]) / min(i + 1, WINDOW)
             for i in range(len(wins))]
    first = max(0, len(results) - RATE_GAMES)
    points = [
        Point(rates[i], OUTCOME_COLOURS.get(results[i].outcome, "var(--draw)"),
              f"Game {i + 1}: {outcomes.get(results[i].outcome, results[i].outcome)}, "
              f"{_percent(rates[i])} of the last {min(i + 1, WINDOW)} won")
        for i in range(first, len(results))
    ]
    overall = sum(wins) / len(wins)
    return Line(
        title=f"Win rate over the last {WINDOW}, game by game",
        x_title="games played",
        points=points,
        first=first + 1,
        overall=overall,
        overall_label=f"all games {_percent(overall)}",
        table=Table(["game", "result", f"won of the last {WINDOW}"],
                    [[str(i + 1), outcomes.get(results[i].outcome, results[i].outcome),
                      _percent(rates[i])] for i in range(first, len(results))]),
        dots=len(points) <= DOTS_UP_TO,
    )


def _percent(share: float) -> str:
    return f"{round(share * 100)}%"


def figure_chart(figure: StatFigure, results: Sequence[Result], outcomes: Mapping[str, str],
                 marked: bool = True) -> Histogram | None:
    """A declared figure's chart: how often each value (or range of values) came, games
    played with help drawn apart, and the best (over games without help) `marked`."""
    values = counted(figure, results)
    if not figure.chart or not values or figure.show == "share":
        return None
    best = None if figure.show == "distribution" or not marked else record(figure, results)
    write = _axis_writer(figure, best)
    games = "every game" if figure.of == "all" else f"games {outcomes.get('won', 'won')}"
    spread = [value for _, value in values]
    whole = all(float(v).is_integer() for v in spread)
    if figure.show == "distribution" or (whole and max(spread) - min(spread) <= 2 * BARS):
        bars, edges = _one_per_value(values), False
    else:
        bars, edges = _ranges(values, figure.unit), True
    x_title = figure.label if figure.unit in ("", "seconds") else figure.unit
    if figure.places and max(spread) < 60:  # edges of bare seconds ("4 7 10"): say so
        x_title = f"{figure.label} in seconds"
    free = sum(bar.free for bar in bars)
    title = (figure.unit or figure.label if figure.show == "distribution"
             else f"{figure.label} of {games}")
    return Histogram(
        title=title[:1].upper() + title[1:],
        x_title=x_title,
        bars=bars,
        write=write,
        best=best,
        best_caption=_best_word(figure),
        table=Table(
            [x_title, "games", *(["with help"] if free < len(values) else [])],
            [[_range_words(bar, write, edges), str(bar.free),
              *([str(bar.helped)] if free < len(values) else [])] for bar in bars]),
        edges=edges,
    )


def _axis_writer(figure: StatFigure, best: float | None) -> Callable[[float], str]:
    """How the chart writes values: as the page does (the best, 4.32), but a time written
    to places (`StatFigure.places`) has its bars' edges, whole seconds, written as its
    times are without their fraction (4, 1:30: "1:30.00" under every bar would crowd the
    axis, and "0:04" under the tiles' 4.32 read as another way of writing time)."""
    write = writer(figure)
    if not figure.places:
        return write
    return lambda value: write(value) if value == best or not float(value).is_integer() \
        else clock(value, figure.places).split(".")[0]


def _best_word(figure: StatFigure) -> str:
    """The marker's caption: "best" (a time), "most" (cells), "fewest" (moves)."""
    return figure.best_caption.split()[0].capitalize()


def _range_words(bar: Bar, write: Callable[[float], str], edges: bool) -> str:
    return f"{write(bar.low)} to {write(bar.high)}" if edges else write(bar.low)


def _one_per_value(values: Sequence[tuple[Result, float]]) -> list[Bar]:
    """A bar for every whole value from the least to the greatest, those never seen too,
    at least `FEWEST_BARS` of them, added below the values down to zero and only then
    above (a lone score of 107: 103 to 107; Tic Tac Toe's 9 moves: 5 to 9, never a
    10th): one bar alone filled the chart."""
    low, high = int(min(v for _, v in values)), int(max(v for _, v in values))
    missing = FEWEST_BARS - (high - low + 1)
    if missing > 0:
        low -= min(missing, max(low, 0))
        high = max(high, low + FEWEST_BARS - 1)
    return [Bar(n, n + 1, sum(int(v) == n and not r.assisted for r, v in values),
                sum(int(v) == n and r.assisted for r, v in values))
            for n in range(low, high + 1)]


def _ranges(values: Sequence[tuple[Result, float]], unit: str) -> list[Bar]:
    """About `BARS` bars of a round width (10 s, 30 s, 1 min...; 5, 10, 20 points...)."""
    least, most = min(v for _, v in values), max(v for _, v in values)
    # close values: bars of a width that suits their size (53 s: 5 s), not their spread
    width = _nice_width(max(most - least, abs(most) / 2) / BARS, unit)
    start = math.floor(least / width) * width
    count = math.floor((most - start) / width) + 1
    if count < FEWEST_BARS:  # widen the axis around the values, never below zero
        before = min((FEWEST_BARS - count) // 2, math.floor(start / width)) if start >= 0 \
            else (FEWEST_BARS - count) // 2
        start -= before * width
        count = FEWEST_BARS
    bars = [[0, 0] for _ in range(count)]
    for result, value in values:
        bars[min(int((value - start) // width), count - 1)][result.assisted] += 1
    return [Bar(start + i * width, start + (i + 1) * width, free, helped)
            for i, (free, helped) in enumerate(bars)]


def _nice_width(rough: float, unit: str) -> float:
    if unit == "seconds":
        return next((s for s in NICE_SECONDS if s >= rough), NICE_SECONDS[-1])
    power = 10 ** math.floor(math.log10(rough)) if rough > 0 else 1
    return next((power * m for m in (1, 2, 5, 10) if power * m >= rough), power * 10)
