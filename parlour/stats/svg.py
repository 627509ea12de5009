"""The statistics page's charts: SVG drawn by pygal on the server, themed by the page.

Colours are CSS (`currentColor` and the page's custom properties such as `var(--won)`),
so one drawing follows the light and the dark theme. pygal's tooltip script is left out
(the page runs no script from a chart): each bar carries a `<title>` instead, and every
chart comes with its figures as a table for those who cannot see it.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pygal  # type: ignore[import-untyped]
from pygal.style import Style  # type: ignore[import-untyped]

WIDTH, HEIGHT = 360, 250
"""The drawing's size in SVG units; the page scales it to the card's width (about 320
pixels on a phone, as on a desktop, where cards sit three in a row)."""
LABELS = 5
"""At most this many labels along the x axis (every other one, every third... beyond)."""

THEME = Style(
    background="transparent",
    plot_background="transparent",
    foreground="currentColor",
    foreground_strong="currentColor",
    foreground_subtle="currentColor",
    guide_stroke_color="var(--line)",
    major_guide_stroke_color="var(--line)",
    font_family="inherit",
    title_font_size=17,
    legend_font_size=15,
    label_font_size=14,
    major_label_font_size=14,
    opacity="1",
    opacity_hover="1",
    colors=("var(--accent)",),
)

@dataclass(frozen=True)
class Series:
    name: str
    values: Sequence[float | None]
    colour: str  # a CSS colour, e.g. "var(--won)"


@dataclass(frozen=True)
class Chart:
    """A bar chart: `labels` along the x axis, one bar (or stack of bars) per label."""

    title: str
    x_title: str
    y_title: str
    labels: Sequence[str]
    series: Sequence[Series]
    stacked: bool = False
    counts: bool = False  # the values count games: whole numbers on the y axis
    columns: Sequence[str] = field(default=())  # the table's headings (default: derived)

    def table(self) -> dict[str, Any]:
        """The chart's figures as a table: a row per x label, a column per series."""
        columns = list(self.columns) or [self.x_title, *(s.name for s in self.series)]
        rows = [
            [label, *(_number(s.values[i]) for s in self.series)]
            for i, label in enumerate(self.labels)
        ]
        return {"columns": columns, "rows": rows}

    def as_json(self, ident: str) -> dict[str, Any]:
        """The chart for the page: drawn as the SVG element `ident`, with its table."""
        return {"title": self.title, "svg": draw(self, ident), **self.table()}


def _number(value: float | None) -> str:
    if value is None:
        return "–"
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}".rstrip("0")


def draw(chart: Chart, ident: str) -> str:
    """The chart as an SVG element with the id `ident`, unique in the page (its style
    rules are scoped by it)."""
    kind = pygal.StackedBar if chart.stacked else pygal.Bar
    style = Style(**{**THEME.to_dict(), "colors": tuple(s.colour for s in chart.series)})
    many = len(chart.labels) > LABELS
    drawing = kind(
        style=style,
        width=WIDTH,
        height=HEIGHT,
        explicit_size=False,
        disable_xml_declaration=True,
        js=[],
        title=chart.title,
        x_title=chart.x_title,
        y_title=chart.y_title,
        show_legend=len(chart.series) > 1,
        legend_at_bottom=True,
        legend_at_bottom_columns=len(chart.series),
        legend_box_size=13,
        truncate_legend=-1,
        truncate_label=-1,
        x_label_rotation=0,
        show_minor_x_labels=not many,
        x_labels_major_every=math.ceil(len(chart.labels) / LABELS) if many else None,
        show_x_guides=False,
        min_scale=2,
        max_scale=6,
        margin=8,
        spacing=8,
        rounded_bars=2,
        no_data_text="no games yet",
        include_x_axis=True,
        print_zeroes=False,
    )
    drawing.uuid = ident  # instead of a random one: the same figures, the same drawing
    drawing.x_labels = list(chart.labels)
    if chart.counts:
        drawing.y_labels = _whole_ticks(chart)
    for series in chart.series:
        drawing.add(series.name, list(series.values))
    drawing.add_xml_filter(lambda root: _accessible(root, chart))
    drawing.add_xml_filter(_smaller)
    return str(drawing.render(is_unicode=True))


def _accessible(root: ET.Element, chart: Chart) -> ET.Element:
    """Without pygal's script and comments; named for screen readers; a tooltip on each bar."""
    for parent in root.iter():
        for child in list(parent):
            if not isinstance(child.tag, str) or child.tag.endswith("script"):  # or a comment
                parent.remove(child)
    root.set("role", "img")
    root.set("aria-label", f"{chart.title}: a bar chart of {chart.y_title} by {chart.x_title}")
    for group in root.iter():
        classes = (group.get("class") or "").split()
        if "series" not in classes or not group.find("./*[@class='bars']"):
            continue
        number = next(int(c.removeprefix("serie-")) for c in classes if c.startswith("serie-"))
        for bar in group.iter():
            if bar.get("class") == "bar":
                _bar_title(bar, chart.series[number].name)
    return root


def _bar_title(bar: ET.Element, series: str) -> None:
    texts = {desc.get("class"): desc.text or "" for desc in bar}
    if texts.get("value", "0") != "0":
        ET.SubElement(bar, "title").text = f"{texts.get('x_label', '')}, {series}: {texts['value']}"


def _whole_ticks(chart: Chart) -> list[int]:
    """0 to the tallest bar (or stack) in at most about six whole steps."""
    heights = [
        sum(s.values[i] or 0 for s in chart.series) if chart.stacked
        else max((s.values[i] or 0 for s in chart.series), default=0)
        for i in range(len(chart.labels))
    ]
    top = max(1, math.ceil(max(heights, default=0)))
    step = max(1, math.ceil(top / 6))
    return list(range(0, top + step, step))


LONG_DECIMALS = re.compile(r"(\d\.\d)\d+")


def _smaller(root: ET.Element) -> ET.Element:
    """A third of the size: without the data kept for pygal's script (read for the
    titles already), coordinates to a tenth of a unit."""
    for parent in root.iter():
        for child in list(parent):
            if child.tag.endswith("desc"):
                parent.remove(child)
        for name, value in parent.attrib.items():
            if "." in value:
                parent.set(name, LONG_DECIMALS.sub(r"\1", value))
    return root
