"""The figures worded for the statistics page: the tiles a player of the game wants,
times as a clock and other values to three significant digits or so."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from parlour.core.game import StatFigure
from parlour.core.times import written


def shown(numbers: Mapping[str, Any], declared: Sequence[StatFigure],
          outcomes: Mapping[str, str], streaks: bool = True) -> list[dict[str, str]]:
    """The figures a player of the game wants, each a short value under a caption;
    `streaks`: whether the win rate and streaks mean something (not for games the
    solver played)."""
    counts = {"won": numbers["won"], "lost": numbers["lost"], "draw": numbers["drawn"]}
    tiles = [("played", str(numbers["played"]))]
    tiles += [(word, str(counts[outcome])) for outcome, word in outcomes.items()
              if len(outcomes) > 1]
    if len(outcomes) > 1 and "won" in outcomes and streaks:
        tiles += [
            ("win rate", f"{round(numbers['win_rate'] * 100)}%"),
            ("current streak", str(numbers["current_streak"])),
            ("best streak", str(numbers["best_streak"])),
        ]
    for figure, figured in zip(declared, numbers["over_all"], strict=True):
        if figured["games"]:  # nothing to say of a figure no game has yet
            tiles += _figure_tiles(figure, figured)
    if numbers["assisted"]:
        tiles.append(("played with help", str(numbers["assisted"])))
    return [{"label": label, "value": value} for label, value in tiles]


def _figure_tiles(figure: StatFigure, figured: Mapping[str, Any]) -> list[tuple[str, str]]:
    write = writer(figure)
    if figure.show == "share":
        share = figured["share"]
        return [(figure.label, "–" if share is None else f"{round(share * 100)}%")]
    if figure.show == "distribution":
        return [(f"mean {figure.label}", write(figured["mean"]))]
    best = [(figure.best_caption, write(figured["best"]))]
    return [*best, (f"mean {figure.label}", write(figured["mean"]))] if figure.chart else best


def writer(figure: StatFigure) -> Callable[[float | None], str]:
    """How a figure's values are written: a rate to two places (`StatFigure.fraction`),
    else as its unit's are (a time to its `places`)."""
    return fraction if figure.fraction else wording(figure.unit, figure.places)


def wording(unit: str, places: int = 0) -> Callable[[float | None], str]:
    """How a value in `unit` is written: seconds as a clock (1:05; with `places`, 4.32 and
    1:04.32), others as numbers."""
    if unit != "seconds":
        return number
    return clock if not places else lambda seconds: clock(seconds, places)


def fraction(value: float | None) -> str:
    """A rate to two places, as the end card writes it: efficiency 0.50, not 0.5."""
    return "–" if value is None else f"{value:.2f}"


def clock(seconds: float | None, places: int = 0) -> str:
    """A time in seconds as players read it (`parlour.core.times`): 1:05, or 4.32."""
    return "–" if seconds is None else written(seconds * 1000, places)


def number(value: float | None) -> str:
    """Three significant digits or so: 1064, 56.7, 0.83 (a mean needs no more)."""
    if value is None:
        return "–"
    decimals = 0 if abs(value) >= 100 else 1 if abs(value) >= 10 else 2
    return f"{value:.{decimals}f}".rstrip("0").rstrip(".") if decimals else f"{value:.0f}"


COMPUTER = re.compile(r"vs AI \((?P<levels>[^)]*)\)")
NUMBERS = {"two": "Two", "2": "Two", "3": "Three", "4": "Four"}


def at_one_screen(mode: str, seat_name: str) -> bool:
    """Whether one player held every seat of a game for several ("two players"): its
    results are the first seat's, no one player's wins."""
    return not seat_name and mode != "solo" and not COMPUTER.search(mode)


def players(mode: str, seat_name: str) -> str:
    """Who played, as the player chose it (the stored `mode`: "solo", "two players",
    "vs AI (medium)"...; `seat_name`: the seat they held when someone else played too):
    "" alone, "Two players here" at one screen, "Online with a friend, as Cross",
    "Against the computer (medium)"."""
    computer = COMPUTER.search(mode)
    levels = ", ".join(dict.fromkeys(
        level.strip().replace("_", " ") for level in computer["levels"].split(","))
    ) if computer else ""
    if seat_name:
        with_computer = f" and the computer ({levels})" if computer else ""
        return f"Online with a friend{with_computer}, as {seat_name}"
    if computer:
        return f"Against the computer ({levels})"
    if mode == "solo":
        return ""
    count = mode.split()[0]
    return f"{NUMBERS.get(count, count)} players here"
