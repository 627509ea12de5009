"""Which charts a group's results give: games ended each way per day, week or month, and
each declared figure game by game or as a distribution (drawn by parlour.stats.svg)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from parlour.core.game import StatFigure
from parlour.stats.numbers import counted
from parlour.stats.svg import Chart, Series
from parlour.store import Result

CHART_GAMES = 40
"""A chart game by game shows this many most recent games."""
PERIODS = 24
"""The results chart shows at most this many days, weeks or months."""
OUTCOME_COLOURS = {"won": "var(--won)", "lost": "var(--lost)", "draw": "var(--draw)"}
HELP_FREE, HELPED = ("without help", "var(--accent)"), ("with help", "var(--muted)")


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
