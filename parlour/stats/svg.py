"""The statistics page's charts drawn as SVG on the server: a line (the win rate over
time) and a histogram (how often each time or score came, the best marked).

Colours are CSS (`currentColor` and the page's custom properties such as `var(--won)`),
so one drawing follows the light and the dark theme. Text is at least 13 units tall in a
360-unit-wide drawing, which the page scales to the card (about 330 pixels on a phone).
Every chart comes with its figures as a table for those who cannot see it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any
from xml.sax.saxutils import escape, quoteattr

WIDTH = 360
LEFT, RIGHT = 44, 14
"""The plot's margins: room for the y axis's labels on the left."""
FONT = 13
BEST = "var(--focus)"
"""The best's marker: amber in every theme, apart from the bars' colour."""
HELPED = "color-mix(in srgb, var(--accent) 35%, var(--surface))"
"""Games played with help: the bars' colour, pale (they are no record), yet clearly a bar
on the card in every theme."""
TITLE_FONT = 15


@dataclass(frozen=True)
class Table:
    """A chart's figures: a heading per column, a row per point or bar."""

    columns: Sequence[str]
    rows: Sequence[Sequence[str]]


@dataclass(frozen=True)
class Point:
    """A game on the line: its value (0 to 1) and the colour of its dot."""

    value: float
    colour: str
    label: str  # what a tooltip says of it


@dataclass(frozen=True)
class Line:
    """A line over the games in order, from 0 to 100 %: e.g. the win rate over the last
    few games, game by game, with the rate over every game as a dashed rule."""

    title: str
    x_title: str
    points: Sequence[Point]
    first: int  # the number of the first game drawn
    overall: float | None  # the rate over every game, drawn as a dashed rule
    overall_label: str
    table: Table
    dots: bool = True  # a dot per game, coloured by its result (when there is room)

    def as_json(self, ident: str) -> dict[str, Any]:
        return {"title": self.title, "kind": "line", "svg": draw_line(self, ident),
                **_table(self.table)}


@dataclass(frozen=True)
class Bar:
    """A bar of a histogram: the games whose value fell from `low` up to `high`."""

    low: float
    high: float
    free: int  # games played without help
    helped: int  # games played with help (drawn pale: they are no record)


@dataclass(frozen=True)
class Histogram:
    """How often each value came, a bar per range of values, the best marked."""

    title: str
    x_title: str
    bars: Sequence[Bar]
    write: Callable[[float], str]  # a value as the page writes it (1:05, 1064)
    best: float | None  # marked with a rule and its value
    best_caption: str
    table: Table
    helped_name: str = "with help"
    free_name: str = "without help"
    edges: bool = True  # labels at the bars' edges (ranges); False: under each bar
    colour: str = "var(--accent)"
    notes: Sequence[str] = field(default=())

    def as_json(self, ident: str) -> dict[str, Any]:
        return {"title": self.title, "kind": "histogram", "svg": draw_histogram(self, ident),
                **_table(self.table)}


Chart = Line | Histogram


def _table(table: Table) -> dict[str, Any]:
    return {"columns": list(table.columns), "rows": [list(row) for row in table.rows]}


# -- drawing ---------------------------------------------------------------------------------
def _svg(ident: str, height: int, label: str, body: list[str]) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" id={quoteattr(ident)} class="chart" '
            f'viewBox="0 0 {WIDTH} {height}" role="img" aria-label={quoteattr(label)} '
            f'font-size="{FONT}" fill="currentColor">' + "".join(body) + "</svg>")


HALO = ' stroke="var(--surface)" stroke-width="4" paint-order="stroke" stroke-linejoin="round"'
"""Around words drawn over lines: the card's colour, so they stay legible."""


def _text(x: float, y: float, words: str, anchor: str = "start", css: str = "",
          size: int = FONT, weight: str = "", halo: bool = False) -> str:
    bold = f' font-weight="{weight}"' if weight else ""
    bold += HALO if halo else ""
    kind = f' class="{css}"' if css else ""
    return (f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" font-size="{size}"'
            f'{bold}{kind}>{escape(words)}</text>')


def _rule(x1: float, y1: float, x2: float, y2: float, colour: str = "var(--line)",
          width: float = 1, dash: str = "") -> str:
    dashes = f' stroke-dasharray="{dash}"' if dash else ""
    return (f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
            f'stroke="{colour}" stroke-width="{width}"{dashes}/>')


def _legend(y: float, entries: Sequence[tuple[str, str]]) -> list[str]:
    """Swatches and their names in a row, from the left."""
    parts, x = ['<g class="legend">'], float(LEFT)
    for name, colour in entries:
        parts.append(f'<rect x="{x:.1f}" y="{y - 10:.1f}" width="11" height="11" rx="2" '
                     f'fill="{colour}"/>')
        parts.append(_text(x + 16, y, name))
        x += 16 + len(name) * 7.2 + 18
    return [*parts, "</g>"]


def draw_line(chart: Line, ident: str) -> str:
    # the rate over every game has its key on a row of its own under the title: beside a
    # long title ("Win rate over the last 10, game by game") the two ran into each other
    keyed = chart.overall is not None
    height, top, bottom = (238, 52, 198) if keyed else (220, 34, 180)
    n = len(chart.points)
    right = WIDTH - RIGHT
    step = (right - LEFT) / max(n - 1, 1)

    def x_of(i: int) -> float:
        return LEFT + i * step if n > 1 else (LEFT + right) / 2

    def y_of(value: float) -> float:
        return bottom - value * (bottom - top)

    body = [_text(0, 17, chart.title, size=TITLE_FONT, weight="700", css="title"),
            '<g class="axis y">']
    for share in (0, 0.25, 0.5, 0.75, 1):
        body.append(_rule(LEFT, y_of(share), right, y_of(share), "var(--line)", 0.6,
                          "" if share in (0, 1) else "2 3"))
        body.append(_text(LEFT - 6, y_of(share) + 4.5, f"{round(share * 100)}%", "end"))
    body.append("</g>")
    body += _x_labels([(x_of(i), str(chart.first + i)) for i in range(n)], bottom)
    body.append(_text((LEFT + right) / 2, height - 6, chart.x_title, "middle", css="x-title"))
    if chart.overall is not None:  # the rule, and its key under the title, from the left
        y = y_of(chart.overall)
        body.append(_rule(LEFT, y, right, y, "currentColor", 1.2, "6 4"))
        body.append(_rule(LEFT, 33, LEFT + 22, 33, "currentColor", 1.2, "6 4"))
        body.append(_text(LEFT + 28, 38, chart.overall_label, css="overall"))
    coordinates = " ".join(f"{x_of(i):.1f},{y_of(p.value):.1f}"
                           for i, p in enumerate(chart.points))
    body.append(f'<polyline class="rate" points="{coordinates}" fill="none" '
                f'stroke="var(--accent)" stroke-width="2.5" stroke-linejoin="round" '
                f'stroke-linecap="round"/>')
    radius = 3.2 if chart.dots else 0
    body.append('<g class="games">')
    for i, point in enumerate(chart.points):
        shown = radius or (4 if i == n - 1 else 0)  # the latest game is always marked
        if shown:
            body.append(f'<circle cx="{x_of(i):.1f}" cy="{y_of(point.value):.1f}" '
                        f'r="{shown}" fill="{point.colour}" stroke="var(--surface)" '
                        f'stroke-width="1"><title>{escape(point.label)}</title></circle>')
    body.append("</g>")
    return _svg(ident, height, f"{chart.title}: a line of the win rate, game by game", body)


def _x_labels(places: Sequence[tuple[float, str]], bottom: float, most: int = 5
              ) -> list[str]:
    """At most `most` labels along the x axis, evenly spaced from the first: every k-th
    place, k the least that keeps to `most` and, if one near it does, that ends on the
    last place. (A last label added out of step read 0:30, 0:40, 0:50, 0:55.)"""
    if not places:
        return []
    chosen = [places[i] for i in x_label_indices(len(places), most)]
    body = ['<g class="axis x">', _rule(LEFT, bottom, WIDTH - RIGHT, bottom, "var(--line)")]
    for x, words in chosen:
        body.append(_rule(x, bottom, x, bottom + 4, "var(--line)"))
        body.append(_text(x, bottom + 18, words, "middle"))
    return [*body, "</g>"]


def x_label_indices(count: int, most: int) -> list[int]:
    """Which of `count` places along an axis get a label (see `_x_labels`)."""
    least = max(1, -(-(count - 1) // (most - 1)))
    every = next((k for k in range(least, least + 3) if (count - 1) % k == 0), least)
    return list(range(0, count, every))


def draw_histogram(chart: Histogram, ident: str) -> str:
    helped = any(bar.helped for bar in chart.bars)
    height = 238 if helped else 220
    top, bottom = (56 if helped else 40), height - 40
    right = WIDTH - RIGHT
    tallest = max((bar.free + bar.helped for bar in chart.bars), default=0)
    ticks = _whole_ticks(tallest)
    width = (right - LEFT) / max(len(chart.bars), 1)

    def y_of(count: float) -> float:
        return bottom - count / ticks[-1] * (bottom - top)

    body = [_text(0, 17, chart.title, size=TITLE_FONT, weight="700", css="title")]
    if helped:
        body += _legend(38, [(chart.free_name, chart.colour),
                             (chart.helped_name, HELPED)])
    body.append('<g class="axis y">')
    for tick in ticks:
        body.append(_rule(LEFT, y_of(tick), right, y_of(tick), "var(--line)", 0.6,
                          "" if tick == 0 else "2 3"))
        body.append(_text(LEFT - 6, y_of(tick) + 4.5, str(tick), "end"))
    body.append("</g>")
    body.append('<g class="bars">')
    for i, bar in enumerate(chart.bars):
        x = LEFT + i * width + min(2, width * 0.1)
        bar_width = width - 2 * min(2, width * 0.1)
        range_words = _range_words(chart, bar)
        for count, base, colour, name in ((bar.free, 0, chart.colour, chart.free_name),
                                          (bar.helped, bar.free, HELPED,
                                           chart.helped_name)):
            if count:
                outline = 0 if colour == chart.colour else 1  # pale bars need an edge
                body.append(
                    f'<rect class="bar" x="{x:.1f}" y="{y_of(base + count):.1f}" '
                    f'width="{bar_width:.1f}" height="{y_of(base) - y_of(base + count):.1f}" '
                    f'fill="{colour}" stroke="var(--line)" stroke-width="{outline}">'
                    f'<title>{escape(range_words)}: {count} {_games(count)}'
                    f'{", " + name if helped else ""}</title></rect>')
    body.append("</g>")
    if chart.edges:
        edges = [(LEFT + i * width, chart.write(bar.low)) for i, bar in enumerate(chart.bars)]
        edges.append((right, chart.write(chart.bars[-1].high)) if chart.bars else (right, ""))
        body += _x_labels(edges, bottom)
    else:
        body += _x_labels([(LEFT + (i + 0.5) * width, chart.write(bar.low))
                           for i, bar in enumerate(chart.bars)], bottom, most=7)
    body.append(_text((LEFT + right) / 2, height - 6, chart.x_title, "middle", css="x-title"))
    if chart.best is not None and chart.bars:
        body += _best_marker(chart, width, top, bottom)
    return _svg(ident, height, f"{chart.title}: a bar chart of games by {chart.x_title}", body)


def _best_marker(chart: Histogram, width: float, top: float, bottom: float) -> list[str]:
    """A rule where the best value falls, and the best written beside it."""
    assert chart.best is not None
    first, last = chart.bars[0], chart.bars[-1]
    if chart.edges:
        share = (_as_written(chart) - first.low) / ((last.high - first.low) or 1)
        x = LEFT + share * width * len(chart.bars)
    else:
        index = next((i for i, bar in enumerate(chart.bars) if bar.low == chart.best), 0)
        x = LEFT + (index + 0.5) * width
    x = min(max(x, LEFT + 1), WIDTH - RIGHT - 1)
    words = f"{chart.best_caption} {chart.write(chart.best)}"
    anchor, shift = ("start", 5) if x < (LEFT + WIDTH - RIGHT) / 2 else ("end", -5)
    return ['<g class="best">',
            _rule(x, top - 8, x, bottom, BEST, 2.5),
            f'<circle cx="{x:.1f}" cy="{top - 8:.1f}" r="4" fill="{BEST}"/>',
            _text(x + shift, top - 4, words, anchor, weight="700", halo=True),
            "</g>"]


def _as_written(chart: Histogram) -> float:
    """Where the best's words put it: a time of 11.6 s written in whole seconds ("Best
    0:11") stands on the 0:11 tick, not 0.6 s past it; a value its words write exactly
    (a score, or a time to hundredths) stands where it is."""
    assert chart.best is not None
    words = chart.write(chart.best)
    return next((whole for whole in (math.floor(chart.best), math.ceil(chart.best))
                 if chart.write(whole) == words), chart.best)


def _range_words(chart: Histogram, bar: Bar) -> str:
    if not chart.edges or (bar.high - bar.low <= 1 and bar.low == int(bar.low)):
        return chart.write(bar.low)
    return f"{chart.write(bar.low)} to {chart.write(bar.high)}"


def _games(count: int) -> str:
    return "game" if count == 1 else "games"


def _whole_ticks(tallest: int) -> list[int]:
    """0 to the tallest bar in at most about four whole steps."""
    top = max(1, tallest)
    step = max(1, -(-top // 4))
    return list(range(0, top + step, step)) if top % step else list(range(0, top + 1, step))
