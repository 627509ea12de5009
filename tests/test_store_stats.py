"""Statistics from hand-made results, and the stores' round trips: those through the
Store's interface run on SQLite's and on PostgreSQL's alike (`on_both_stores`)."""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import sqlite3
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from parlour.core.game import StatFigure, counted
from parlour.core.gameid import SHOWN
from parlour.core.times import written
from parlour.games import GAMES
from parlour.stats.charts import RATE_GAMES, WINDOW, figure_chart, win_rate_chart
from parlour.stats.numbers import summary
from parlour.stats.statistics import statistics
from parlour.stats.svg import LEFT, RIGHT, WIDTH, Histogram, x_label_indices
from parlour.stats.wording import clock, number, players
from parlour.store import (
    KeptSession,
    Progress,
    Restored,
    Result,
    SeriesRow,
    SessionRow,
    series_saved,
    session_created,
    together,
)
from parlour.store.sqlite import SqliteStore as Store
from parlour.store.sqlite.store import default_path
from tests.support.loops import run_async
from tests.support.stores import integrity_errors, on_both_stores, reopened

NOW = 1_700_000_000.0


def result(
    outcome: str,
    elapsed_ms: int = 10_000,
    *,
    assisted: bool = False,
    score: int | None = None,
    sid: str = "s",
    round: int = 1,
    game: str = "tictactoe",
    preset: str = "standard",
    mode: str = "two players",
    finished: float = NOW,
    figures: dict[str, float] | None = None,
) -> Result:
    return Result(
        sid=sid, round=round, game=game, preset=preset, mode=mode, outcome=outcome,
        score=score, elapsed_ms=elapsed_ms, moves=5, assisted=assisted, finished=finished,
        figures=figures or {},
    )


def results_of(outcomes: str) -> list[Result]:
    """'WWLD' -> won, won, lost, draw, oldest first."""
    names = {"W": "won", "L": "lost", "D": "draw"}
    return [result(names[letter], round=i) for i, letter in enumerate(outcomes)]


# -- summary ---------------------------------------------------------------------------------
def test_summary_of_nothing() -> None:
    figures = summary([])
    assert figures["played"] == 0
    assert figures["won"] == 0
    assert figures["win_rate"] == 0.0
    assert figures["current_streak"] == 0
    assert figures["best_streak"] == 0
    assert figures["best_time_ms"] is None
    assert figures["best_unassisted_time_ms"] is None
    assert figures["best_score"] is None
    assert figures["assisted"] == 0
    assert figures["figures"] == {}


def test_summary_counts_and_win_rate() -> None:
    figures = summary(results_of("WWLWWWD"))
    assert figures["played"] == 7
    assert figures["won"] == 5
    assert figures["lost"] == 1
    assert figures["drawn"] == 1
    assert figures["win_rate"] == pytest.approx(5 / 7)


@pytest.mark.parametrize(
    ("outcomes", "current", "best"),
    [
        ("", 0, 0),
        ("W", 1, 1),
        ("L", 0, 0),
        ("WWLWWWD", 0, 3),
        ("WWLWWW", 3, 3),
        ("WWWLW", 1, 3),
        ("LWWWW", 4, 4),
        ("WDW", 1, 1),  # a draw breaks a streak
        ("DDD", 0, 0),
        ("WWWWLLWW", 2, 4),
    ],
)
def test_streaks(outcomes: str, current: int, best: int) -> None:
    figures = summary(results_of(outcomes))
    assert figures["current_streak"] == current
    assert figures["best_streak"] == best


def test_best_time_only_from_wins() -> None:
    results = [
        result("won", 5_000),
        result("lost", 1_000),  # quicker, but lost
        result("draw", 500),
        result("won", 3_000, assisted=True),
        result("won", 4_000),
    ]
    figures = summary(results)
    assert figures["best_time_ms"] == 3_000
    assert figures["best_unassisted_time_ms"] == 4_000
    assert summary([result("lost", 1_000), result("draw", 2_000)])["best_time_ms"] is None


def test_assisted_counts() -> None:
    results = [
        result("won", assisted=True),
        result("won"),
        result("lost", assisted=True),
        result("won"),
        result("draw"),
    ]
    figures = summary(results)
    assert figures["assisted"] == 2
    assert figures["unassisted_played"] == 3
    assert figures["unassisted_won"] == 2
    assert figures["won"] == 3  # assisted wins still count as wins


def test_best_score_ignores_missing_scores() -> None:
    results = [result("won", score=3), result("lost", score=None), result("lost", score=7)]
    assert summary(results)["best_score"] == 7
    assert summary([result("won", score=None)])["best_score"] is None


def test_game_figures_are_best_and_mean_over_wins() -> None:
    results = [
        result("won", figures={"3bv_per_s": 2.0}),
        result("lost", figures={"3bv_per_s": 9.0}),  # not a win: ignored
        result("won", figures={"3bv_per_s": 4.0, "clicks": 10.0}),
        result("won"),
    ]
    figures = summary(results)["figures"]
    assert figures == {
        "3bv_per_s": {"best": 4.0, "mean": 3.0},
        "clicks": {"best": 10.0, "mean": 10.0},
    }


# -- a game's own figures ---------------------------------------------------------------------
TIME = StatFigure("time", "time", "lowest", unit="seconds", of="won")
SCORE = StatFigure("score", "score", "highest", unit="points")


def test_the_best_time_is_the_lowest_over_wins_without_help_the_mean_over_every_win() -> None:
    results = [
        result("won", 50_000),
        result("lost", 1_000),  # quicker, but lost
        result("won", 20_000, assisted=True),  # quicker, but helped
        result("won", 30_000),
    ]
    (time,) = summary(results, [TIME])["over_all"]
    # the mean is of every game the chart shows, helped or not: the best is a record
    assert time == {"name": "time", "label": "time", "show": "lowest", "games": 3,
                    "unhelped": 2, "best": 30.0, "mean": 100 / 3}


def test_a_best_that_only_helped_games_could_set_is_explained() -> None:
    spec = GAMES["minesweeper"]
    helped = [result("won", 15_000, assisted=True, game="minesweeper", preset="beginner",
                     mode="solo")]
    (group,) = statistics(helped, {"minesweeper": spec})["groups"]
    tiles = {t["label"]: t["value"] for t in group["shown"]}
    assert tiles["best time"] == "–" and tiles["mean time"] == "15.00"
    assert group["note"].startswith("Every game won here had help")
    unhelped = [*helped, result("won", 20_000, game="minesweeper", preset="beginner",
                                mode="solo", round=2)]
    (group,) = statistics(unhelped, {"minesweeper": spec})["groups"]
    assert group["note"] == "Games played with help (hints or Assist) set no best."


def test_games_the_solver_played_show_no_win_rate_or_streaks() -> None:
    spec = GAMES["escalator"]
    shown_games = [result("won", 15_000, assisted=True, game="escalator",
                          preset=SHOWN, mode="solo")]
    (group,) = statistics(shown_games, {"escalator": spec})["groups"]
    labels = [t["label"] for t in group["shown"]]
    assert "played" in labels and not {"win rate", "current streak", "best streak"} & set(labels)


def test_the_best_score_is_the_highest_over_every_game() -> None:
    results = [result("lost", score=120), result("won", score=90), result("lost", score=None),
               result("lost", score=400, assisted=True)]
    (score,) = summary(results, [SCORE])["over_all"]
    assert (score["best"], score["mean"], score["games"]) == (120.0, 610 / 3, 3)


def test_a_declared_figure_is_not_also_shown_as_best_and_mean_of_wins() -> None:
    moves = StatFigure("tiles_moved", "moves", "lowest", of="won")
    numbers = summary([result("won", figures={"tiles_moved": 30.0, "other": 2.0})], [moves])
    assert numbers["figures"] == {"other": {"best": 2.0, "mean": 2.0}}
    assert numbers["over_all"][0]["best"] == 30.0


def test_the_moves_a_result_counts_are_a_figure_a_game_may_declare() -> None:
    fewest = StatFigure("moves", "moves", "lowest", of="won")
    results = [dataclasses.replace(result("won"), moves=moves) for moves in (9, 7)]
    (moves,) = summary([*results, result("lost")], [fewest])["over_all"]
    assert (moves["best"], moves["mean"], moves["games"]) == (7.0, 8.0, 2)


def test_a_count_takes_the_plural_it_is_given() -> None:
    assert [counted(n, "press", "presses") for n in (1, 3)] == ["1 press", "3 presses"]
    assert [counted(n, "mine") for n in (0, 1, 2)] == ["0 mines", "1 mine", "2 mines"]


def test_values_are_worded_for_players() -> None:
    assert [clock(s) for s in (None, 0, 9.9, 65.2, 3_725)] == ["–", "0:00", "0:09", "1:05",
                                                               "1:02:05"]


def test_a_time_compared_finely_is_written_to_its_places_cut_as_the_clock_cuts() -> None:
    assert [written(ms, 2) for ms in (0, 4_329, 4_290, 59_999, 64_320, 3_725_450)] == [
        "0.00", "4.32", "4.29", "59.99", "1:04.32", "1:02:05.45"]  # 4.29 is not 4.28
    assert [written(ms, 3) for ms in (4_321, 64_005)] == ["4.321", "1:04.005"]
    assert written(4_329) == "0:04" and clock(4.329, 2) == "4.32"
    assert written(4_000.4, 2) == "4.00"  # a mean, in fractions of a millisecond
    assert GAMES["minesweeper"].time_written(64_329) == "1:04.32"
    assert GAMES["escalator"].time_written(64_329) == "1:04"  # its score is the cards
    with pytest.raises(ValueError, match="only a time"):
        StatFigure("score", "score", "highest", places=2)
    assert [number(v) for v in (None, 3, 1063.55, 56.65, 18.0, 0.8333, 2.5)] == [
        "–", "3", "1064", "56.6", "18", "0.83", "2.5"]


def shown_of(game: str, results: Sequence[Result]) -> dict[str, str]:
    (group,) = statistics(results, GAMES)["groups"]
    assert group["game"] == game
    return {tile["label"]: tile["value"] for tile in group["shown"]}


def test_tictactoe_shows_results_and_streaks_but_no_score_or_time() -> None:
    against = [dataclasses.replace(each, mode="vs AI (medium)") for each in results_of("WWLDW")]
    shown = shown_of("tictactoe", against)
    assert shown == {"played": "5", "won": "3", "lost": "1", "drawn": "1", "win rate": "60%",
                     "current streak": "1", "best streak": "2"}


def test_games_at_one_screen_are_won_by_a_seat_not_by_whoever_held_them_all() -> None:
    """Two players at one screen: a result is the first seat's, so the page counts
    Cross's wins and losses, with no win rate, streak or chart of them (it showed 100 %
    won for a player who had played both sides)."""
    results = results_of("WWLDW")  # mode "two players", no seat named: the hot seat
    shown = shown_of("tictactoe", results)
    assert shown == {"played": "5", "Cross won": "3", "Cross lost": "1", "drawn": "1"}
    (group,) = statistics(results, GAMES)["groups"]
    assert group["players"] == "Two players here" and group["charts"] == []


def test_minesweeper_shows_its_best_time_and_no_score() -> None:
    mines = {"game": "minesweeper", "preset": "beginner", "mode": "solo"}
    figures = {"3BV": 10.0, "3BV/s": 0.5, "efficiency": 0.9}
    results = [result("won", 20_000, figures=figures, **mines),
               result("lost", 3_000, figures=figures, **mines),
               result("won", 75_000, figures={**figures, "3BV/s": 0.13}, **mines),
               result("won", 9_000, assisted=True, figures=figures, **mines)]
    shown = shown_of("minesweeper", results)
    assert shown == {"played": "4", "won": "3", "lost": "1", "win rate": "75%",
                     # its times to the hundredth (StatFigure.places), as players
                     # compare them; rates to two places, as the end card writes them
                     "current streak": "2", "best streak": "2", "best time": "20.00",
                     "mean time": "34.66", "best 3BV/s": "0.50", "best efficiency": "0.90",
                     "played with help": "1"}


def test_the_sliding_puzzle_counts_puzzles_solved_and_the_fewest_moves() -> None:
    sliding = {"game": "sliding", "preset": "4×4 easy", "mode": "solo"}
    results = [result("won", 61_000, figures={"tiles_moved": 40.0}, **sliding),
               result("won", 30_000, figures={"tiles_moved": 24.0}, **sliding),
               result("won", 5_000, figures={"tiles_moved": 12.0}, assisted=True, **sliding)]
    shown = shown_of("sliding", results)
    assert shown == {"played": "3", "fewest moves": "24", "mean moves": "25.3",
                     "best time": "0:30", "mean time": "0:32", "played with help": "1"}
    (group,) = statistics(results, GAMES)["groups"]
    assert [c["title"] for c in group["charts"]] == [  # a puzzle is never lost: no win rate
        "Moves of games solved", "Time of games solved"]
    assert group["note"] == "Games played with help (hints or Assist) set no best."


def test_ishido_and_tribolo_show_their_scores() -> None:
    ishido = [result(o, score=s, game="ishido", mode="solo",
                     figures={"4-ways": 2.0, "tiles placed": 60.0})
              for o, s in (("lost", 300), ("won", 1_000))]
    shown = shown_of("ishido", ishido)
    assert (shown["best score"], shown["mean score"], shown["most 4-ways"]) == ("1000", "650",
                                                                                "2")
    tribolo = [result(o, score=s, game="tribolo", mode="vs AI (medium, medium)")
               for o, s in (("won", 30), ("lost", 12), ("draw", 21))]
    shown = shown_of("tribolo", tribolo)
    assert (shown["drawn"], shown["most cells"], shown["mean cells"]) == ("1", "30", "21")
    assert "best score" not in shown


def test_escalator_shows_the_winnable_share_and_the_cards_left() -> None:
    results = [result("won" if left == 0 else "lost", game="escalator", mode="solo",
                      figures={"cards_left": float(left), "winnable": float(left < 6)})
               for left in (0, 5, 12, 7)]
    shown = shown_of("escalator", results)
    assert (shown["could have been won"], shown["mean cards left"]) == ("50%", "6")
    (group,) = statistics(results, GAMES)["groups"]
    (distribution,) = [c for c in group["charts"] if c["title"] == "Cards left at the end"]
    assert distribution["rows"][0] == ["0", "1"] and distribution["rows"][5] == ["5", "1"]
    assert len(distribution["rows"]) == 13  # every value from 0 to 12, those never seen too


# -- charts -------------------------------------------------------------------------------------
SVG = "{http://www.w3.org/2000/svg}"
TTT = {"won": "won", "lost": "lost", "draw": "drawn"}


def test_the_win_rate_is_a_line_over_the_last_games_game_by_game() -> None:
    chart = win_rate_chart(results_of("WWLL" + "W" * 10), TTT)
    assert chart is not None and chart.title == f"Win rate over the last {WINDOW}, game by game"
    rates = [point.value for point in chart.points]
    assert rates[:4] == [1, 1, 2 / 3, 0.5]  # the games so far, until there are ten
    assert rates[-1] == 1.0 and rates[-3] == 0.8  # the last ten only
    assert chart.overall == 12 / 14 and chart.overall_label == "all games 86%"
    svg = ET.fromstring(chart.as_json("stat-test")["svg"])
    (line,) = svg.iter(f"{SVG}polyline")
    assert len(line.get("points", "").split()) == 14  # a point per game
    assert len(list(svg.iter(f"{SVG}circle"))) == 14  # and a dot per game, by its result
    assert svg.get("role") == "img" and "Win rate" in (svg.get("aria-label") or "")


def test_the_win_rate_shows_the_latest_games_and_is_absent_where_none_is_lost() -> None:
    many = win_rate_chart(results_of("WL" * RATE_GAMES), TTT)
    assert many is not None and len(many.points) == RATE_GAMES
    assert many.first == RATE_GAMES + 1 and many.table.rows[0][0] == str(RATE_GAMES + 1)
    (line,) = ET.fromstring(many.as_json("x")["svg"]).iter(f"{SVG}polyline")
    assert len(line.get("points", "").split()) == RATE_GAMES
    assert win_rate_chart(results_of("WWW"), {"won": "solved"}) is None  # a puzzle
    assert win_rate_chart([], TTT) is None
    assert win_rate_chart(results_of("W"), TTT) is None  # one game's lone dot tells nothing
    assert win_rate_chart(results_of("WL"), TTT) is not None


def times(*seconds: float, helped: Sequence[int] = ()) -> list[Result]:
    return [result("won", int(s * 1000), assisted=i in helped, round=i, game="minesweeper",
                   preset="beginner", mode="solo") for i, s in enumerate(seconds)]


def test_times_are_a_histogram_with_the_best_without_help_marked() -> None:
    games = times(95, 61, 130, 72, 200, 44, helped=[5])  # the fastest was helped
    chart = figure_chart(TIME, games, {"won": "won"})
    assert isinstance(chart, Histogram) and chart.title == "Time of games won"
    assert chart.best == 61.0  # the helped 0:44 sets no record
    assert sum(bar.free for bar in chart.bars) == 5 and sum(bar.helped for bar in chart.bars) == 1
    widths = {bar.high - bar.low for bar in chart.bars}
    assert widths == {20} and len(chart.bars) == 9  # round steps: 0:40 to 3:40
    svg = ET.fromstring(chart.as_json("t")["svg"])
    texts = ["".join(t.itertext()) for t in svg.iter(f"{SVG}text")]
    assert "Best 1:01" in texts  # the marker says the best
    assert {"without help", "with help", "0:40", "3:40", "time"} <= set(texts)
    (best,) = [g for g in svg.iter(f"{SVG}g") if g.get("class") == "best"]
    assert best.find(f"{SVG}line") is not None
    bars = [r for r in svg.iter(f"{SVG}rect") if r.get("class") == "bar"]
    assert len(bars) == len([b for b in chart.bars if b.free]) + 1
    assert "script" not in ET.tostring(svg, encoding="unicode")


def test_the_best_s_marker_stands_where_its_words_say() -> None:
    """Times are kept to the millisecond and written in whole seconds: "Best 0:11" for
    11.6 s stands on the 0:11 tick (it stood 0.6 s to the right of it); a best written
    exactly, 12 s, stands where it is."""
    for games, shown in ((times(11.6, 8.2, 19.2, helped=[1]), 11),
                         (times(12.0, 8.2, 19.2, helped=[1]), 12),
                         (times(1.6, 1.7, 1.8), 1)):  # the play-test's Easy
        chart = figure_chart(TIME, games, {"won": "won"})
        assert isinstance(chart, Histogram) and chart.edges
        first, last = chart.bars[0].low, chart.bars[-1].high
        tick = LEFT + (shown - first) / (last - first) * (WIDTH - RIGHT - LEFT)
        svg = ET.fromstring(chart.as_json("t")["svg"])
        (best,) = [g for g in svg.iter(f"{SVG}g") if g.get("class") == "best"]
        rule = best.find(f"{SVG}line")
        assert rule is not None and float(rule.get("x1", "")) == pytest.approx(tick, abs=0.1)
        assert f"Best 0:{shown:02}" in ["".join(t.itertext()) for t in best.iter(f"{SVG}text")]


def test_a_chart_of_times_to_the_hundredth_marks_the_best_so_and_its_axis_in_seconds() -> None:
    (minesweeper_time, *_) = GAMES["minesweeper"].stat_figures
    chart = figure_chart(minesweeper_time, times(4.329, 5.1, 9.87, 12.0), {"won": "won"})
    assert isinstance(chart, Histogram)
    svg = ET.fromstring(chart.as_json("t")["svg"])
    texts = ["".join(t.itertext()) for t in svg.iter(f"{SVG}text")]
    assert "Best 4.32" in texts  # as the card and the tiles write it
    # the bars' edges: whole seconds, written as the tiles write times (4.32), not 0:04
    assert {"4", "7", "10"} <= set(texts) and "0:04" not in texts, texts
    assert not [text for text in texts if text.endswith(".00")], texts  # no 12.00 under a bar
    assert "time in seconds" in texts  # bare numbers under the bars: the axis says what


def test_no_best_is_marked_when_every_game_had_help() -> None:
    chart = figure_chart(TIME, times(30, 40, helped=[0, 1]), {"won": "won"})
    assert isinstance(chart, Histogram) and chart.best is None
    svg = ET.fromstring(chart.as_json("t")["svg"])
    assert not [g for g in svg.iter(f"{SVG}g") if g.get("class") == "best"]
    # helped bars are the bars' colour made pale, never the card's own grey
    fills = {r.get("fill") for r in svg.iter(f"{SVG}rect") if r.get("class") == "bar"}
    assert fills == {"color-mix(in srgb, var(--accent) 35%, var(--surface))"}


def test_one_time_sits_on_an_axis_of_several_bars() -> None:
    chart = figure_chart(TIME, times(53.4), {"won": "won"})
    assert isinstance(chart, Histogram) and chart.edges
    assert [(bar.low, bar.high, bar.free) for bar in chart.bars] == [
        (40, 45, 0), (45, 50, 0), (50, 55, 1), (55, 60, 0), (60, 65, 0)]
    quick = figure_chart(TIME, times(0.4), {"won": "won"})  # never below zero
    assert quick is not None and quick.bars[0].low == 0 and len(quick.bars) == 5
    assert figure_chart(StatFigure("time", "time", "lowest", chart=False), times(3), {}) is None


def test_a_few_whole_values_get_a_bar_each() -> None:
    cells = StatFigure("score", "cells", "highest", unit="cells", best="most cells")
    games = [result(o, score=s, game="tribolo") for o, s in
             (("won", 30), ("lost", 22), ("won", 27), ("won", 30))]
    chart = figure_chart(cells, games, {"won": "won", "lost": "lost"})
    assert isinstance(chart, Histogram) and not chart.edges
    assert [bar.low for bar in chart.bars] == list(range(22, 31))
    assert [bar.free for bar in chart.bars] == [1, 0, 0, 0, 0, 1, 0, 0, 2]
    assert chart.best == 30 and chart.best_caption == "Most"
    assert chart.table.rows[-1] == ["30", "2"]


def test_one_score_sits_among_several_bars_below_it_never_below_zero() -> None:
    points = StatFigure("score", "score", "highest", unit="points")
    chart = figure_chart(points, [result("won", score=107, game="ishido")], {"won": "won"})
    assert chart is not None and not chart.edges
    assert [(bar.low, bar.free) for bar in chart.bars] == [
        (103, 0), (104, 0), (105, 0), (106, 0), (107, 1)]
    low = figure_chart(points, [result("won", score=1, game="ishido")], {"won": "won"})
    assert low is not None and [bar.low for bar in low.bars] == [0, 1, 2, 3, 4]


def test_every_chart_comes_with_its_table() -> None:
    chart = win_rate_chart(results_of("WL"), {"won": "won", "lost": "lost"})
    assert chart is not None
    table = chart.as_json("x")
    assert table["columns"] == ["game", "result", f"won of the last {WINDOW}"]
    assert table["rows"] == [["1", "won", "100%"], ["2", "lost", "50%"]]


def test_the_charts_follow_the_page_s_theme() -> None:
    line = win_rate_chart(results_of("WLD"), TTT)
    assert line is not None
    svg = line.as_json("x")["svg"]
    assert "var(--won)" in svg and "var(--lost)" in svg and "currentColor" in svg
    assert "#" not in svg  # no colour of its own: the page's light or dark theme colours it


def test_statistics_groups_by_game_preset_and_mode() -> None:
    results = [
        result("won", mode="two players"),
        result("lost", mode="vs AI (perfect)"),
        result("draw", mode="vs AI (perfect)"),
        result("won", game="oldgame", preset="big", mode="solo"),
        result("lost", game="oldgame", preset="big", mode="solo"),
        result("won", game="minesweeper", preset="expert", mode="solo"),
    ]
    groups = statistics(results, GAMES)["groups"]
    keys = [(g["game"], g["preset"], g["mode"]) for g in groups]
    assert GAMES["tictactoe"].order < GAMES["minesweeper"].order
    assert keys == [  # in the order of the list of games; one no longer offered last
        ("tictactoe", "standard", "two players"),
        ("tictactoe", "standard", "vs AI (perfect)"),
        ("minesweeper", "expert", "solo"),
        ("oldgame", "big", "solo"),
    ]
    by_key = {(g["game"], g["preset"], g["mode"]): g for g in groups}
    versus = by_key[("tictactoe", "standard", "vs AI (perfect)")]
    assert (versus["played"], versus["won"], versus["lost"], versus["drawn"]) == (2, 0, 1, 1)
    assert versus["title"] == GAMES["tictactoe"].game.title
    assert by_key[("minesweeper", "expert", "solo")]["heading"] == "Expert"
    old = by_key[("oldgame", "big", "solo")]
    assert old["title"] == "oldgame"
    assert old["charts"][0]["title"] == "Win rate over the last 10, game by game"
    ids = [ET.fromstring(c["svg"]).get("id") for g in groups for c in g["charts"]]
    assert len(ids) == len(set(ids))  # unique in the page: each chart's style is scoped by it
    assert statistics(results, GAMES) == statistics(list(results), GAMES)  # the same drawing


@pytest.mark.parametrize(("mode", "seat_name", "words"), [
    ("solo", "", ""),  # one player: nothing to say
    ("two players", "", "Two players here"),  # the hot seat
    ("two players", "Cross", "Online with a friend, as Cross"),  # an invite link
    ("vs AI (medium)", "", "Against the computer (medium)"),
    ("vs AI (medium, medium)", "", "Against the computer (medium)"),
    ("vs AI (medium)", "Red", "Online with a friend and the computer (medium), as Red"),
    ("3 players", "", "Three players here"),
])
def test_who_played_is_worded_as_the_player_chose(mode: str, seat_name: str, words: str
                                                 ) -> None:
    assert players(mode, seat_name) == words


def test_bests_per_difficulty_come_from_games_without_help() -> None:
    mines = {"game": "minesweeper", "mode": "solo"}
    results = [result("won", 90_000, preset="expert", **mines),
               result("won", 20_000, preset="beginner", **mines),
               result("won", 8_000, preset="beginner", assisted=True, **mines),
               result("won", 50_000, preset="intermediate", assisted=True, **mines),
               result("lost", 1_000, preset="expert", **mines)]
    (table,) = statistics(results, GAMES)["bests"]
    assert table["game"] == "minesweeper" and table["columns"] == ["Best time"]
    presets = GAMES["minesweeper"].game
    assert [(row["heading"], row["values"]) for row in table["rows"]] == [
        (presets.preset_label("beginner"), ["20.00"]),  # the helped 8.00 is no record
        (presets.preset_label("intermediate"), ["–"]),  # every win there was helped
        (presets.preset_label("expert"), ["1:30.00"]),  # in the order of the presets
    ]


# -- the store: sessions -----------------------------------------------------------------
def fresh_row(sid: str = "sid1", seats: Sequence[str] = ("human", "ai:perfect")) -> SessionRow:
    """A row as the hub creates it: nothing played yet."""
    return SessionRow(
        sid=sid, game="tictactoe", game_id="tictactoe:standard#abc", seats=list(seats),
        mode="vs AI (perfect)", preset="standard", cursor=0, round=1, assisted=False,
        elapsed_ms=0, clock_last_at=None, status="playing", headline="Tic Tac Toe",
        updated=NOW,
    )


def progress(sid: str = "sid1", **changes: Any) -> Progress:
    fields: dict[str, Any] = {
        "sid": sid, "cursor": 0, "round": 1, "assisted": False, "elapsed_ms": 0,
        "clock_last_at": None, "status": "playing", "headline": "Tic Tac Toe", "now": NOW,
    }
    return Progress(**(fields | changes))


MOVES = [{"cell": [1, 1]}, {"cell": [0, 0]}, {"cell": [2, 2]}, {"cell": [0, 2]}]


@on_both_stores
def test_create_and_load_a_session(store: Store) -> None:
    row = fresh_row()
    store.create_session(row, {"tok": [0]}, NOW)
    loaded = store.load_session("sid1")
    assert loaded == (row, [])
    assert store.tokens("sid1") == {"tok": [0]}
    assert store.load_session("nope") is None
    assert store.tokens("nope") == {}


@on_both_stores
def test_a_session_id_is_unique(store: Store) -> None:
    store.create_session(fresh_row(), {"tok": [0]}, NOW)
    with pytest.raises(integrity_errors()):
        store.create_session(fresh_row(), {"other": [1]}, NOW)
    assert store.tokens("sid1") == {"tok": [0]}  # nothing of the refused one was kept


@on_both_stores
def test_save_moves_cursor_and_redo_line(store: Store) -> None:
    store.create_session(fresh_row(), {"tok": [0]}, NOW)
    store.save(progress(cursor=3, elapsed_ms=1234, clock_last_at=NOW + 5, now=NOW + 5,
                        new_moves_from=0, new_moves=MOVES[:3]))
    row, moves = store.load_session("sid1") or pytest.fail("not saved")
    assert moves == MOVES[:3]
    assert (row.cursor, row.elapsed_ms, row.clock_last_at, row.updated) == (3, 1234, NOW + 5,
                                                                            NOW + 5)

    # undo: the cursor moves back, the moves stay as the redo line
    store.save(progress(cursor=1, assisted=True, now=NOW + 6))
    row, moves = store.load_session("sid1") or pytest.fail("not saved")
    assert row.cursor == 1
    assert row.assisted is True
    assert moves == MOVES[:3]

    # a new move after undo cuts the redo line
    store.save(progress(cursor=2, now=NOW + 7, new_moves_from=1, new_moves=[MOVES[3]]))
    row, moves = store.load_session("sid1") or pytest.fail("not saved")
    assert row.cursor == 2
    assert moves == [MOVES[0], MOVES[3]]

    # restart: the line is cleared and a new round begins
    store.save(progress(cursor=0, round=2, now=NOW + 8, new_moves_from=0, new_moves=[]))
    row, moves = store.load_session("sid1") or pytest.fail("not saved")
    assert (row.cursor, row.round, moves) == (0, 2, [])


@on_both_stores
def test_a_game_created_with_its_line_goes_on_after_its_last_move(store: Store) -> None:
    """An imported game starts with its moves: a take-back and a new move keep those
    before it, as in a game played here."""
    store.write(session_created(fresh_row(), {"tok": [0]}, NOW, moves=MOVES[:3]))
    assert (store.load_session("sid1") or pytest.fail("not saved"))[1] == MOVES[:3]
    store.save(progress(cursor=2, now=NOW + 1, new_moves_from=1, new_moves=[MOVES[3]]))
    assert (store.load_session("sid1") or pytest.fail("lost"))[1] == [MOVES[0], MOVES[3]]


@on_both_stores
def test_a_change_the_store_cannot_write_is_refused_with_nothing_written(store: Store) -> None:
    with pytest.raises(TypeError, match=r"^a store cannot apply object$"):
        store.write(together(session_created(fresh_row(), {"tok": [0]}, NOW), object()))
    assert store.session_row("sid1") is None


@on_both_stores
def test_a_saved_session_survives_reopening(store: Store) -> None:
    store.create_session(fresh_row(), {"tok": [0]}, NOW)
    store.add_token("sid1", "joined", [1])
    store.save(progress(cursor=2, status="playing", headline="Tic Tac Toe", now=NOW + 1,
                        new_moves_from=0, new_moves=MOVES[:3]))
    store.close()
    again = reopened(store)
    row, moves = again.load_session("sid1") or pytest.fail("lost")
    assert row.cursor == 2
    assert row.seats == ["human", "ai:perfect"]
    assert moves == MOVES[:3]
    assert again.tokens("sid1") == {"tok": [0], "joined": [1]}
    assert list(again.tokens("sid1")) == ["tok", "joined"]  # the creator first
    again.close()


@on_both_stores
def test_unfinished_sessions(store: Store) -> None:
    for i, (cursor, status) in enumerate(
        [(0, "playing"), (2, "playing"), (3, "won"), (1, "playing"), (9, "draw")]
    ):
        sid = f"s{i}"
        store.create_session(fresh_row(sid), {f"t{i}": [0]}, NOW)
        store.save(progress(sid, cursor=cursor, status=status, now=NOW + i,
                            new_moves_from=0, new_moves=MOVES[:cursor]))
    assert [row.sid for row in store.unfinished()] == ["s3", "s1"]  # newest first
    assert [row.sid for row in store.unfinished(limit=1)] == ["s3"]


@on_both_stores
def test_a_failed_save_changes_nothing(store: Store) -> None:
    store.create_session(fresh_row(), {"tok": [0]}, NOW)
    store.save(progress(cursor=1, new_moves_from=0, new_moves=MOVES[:1]))
    before = store.load_session("sid1")
    broken = Result(
        sid="sid1", round=1, game=None, preset="standard",  # type: ignore[arg-type]
        mode="vs AI (perfect)", outcome="won", score=1, elapsed_ms=1, moves=2,
        assisted=False, finished=NOW,
    )
    with pytest.raises(integrity_errors()):
        store.save(progress(cursor=2, status="won", new_moves_from=1, new_moves=[MOVES[1]]),
                   broken)
    assert store.load_session("sid1") == before
    assert store.results() == []


# -- the store: results ------------------------------------------------------------------
@on_both_stores
def test_results_round_trip(store: Store) -> None:
    store.create_session(fresh_row(), {"tok": [0]}, NOW)
    saved = result("won", 4321, assisted=True, score=1, sid="sid1", figures={"speed": 1.5})
    store.save(progress(cursor=5, status="won"), saved)
    assert store.results() == [saved]
    assert store.results()[0].assisted is True


@on_both_stores
def test_a_sessions_moves_made_and_solver_ended_flag_are_kept(store: Store) -> None:
    store.create_session(fresh_row(), {"tok": [0]}, NOW)
    row = store.session_row("sid1")
    assert row is not None and (row.moves_made, row.shown_to_end) == (None, False)
    store.save(progress(cursor=5, status="won", moves_made=9, shown_to_end=True))
    row = store.session_row("sid1")
    assert row is not None and (row.moves_made, row.shown_to_end) == (9, True)
    store.save(progress(cursor=4, moves_made=7))  # a move of the player's own since
    row = store.session_row("sid1")
    assert row is not None and (row.moves_made, row.shown_to_end) == (7, False)


@on_both_stores
def test_results_are_one_per_session_and_round(store: Store) -> None:
    store.create_session(fresh_row(), {"tok": [0]}, NOW)
    store.create_session(fresh_row("sid2"), {"tok2": [0]}, NOW)
    store.save(progress(status="won"), result("won", sid="sid1", round=1, finished=NOW + 1))
    # the same round finished again (after an undo): replaces, not adds
    store.save(progress(status="lost"), result("lost", sid="sid1", round=1, finished=NOW + 2))
    assert [(r.sid, r.round, r.outcome) for r in store.results()] == [("sid1", 1, "lost")]
    store.save(progress(round=2, status="draw"),
               result("draw", sid="sid1", round=2, finished=NOW + 3))
    store.save(progress("sid2", status="won"),
               result("won", sid="sid2", round=1, finished=NOW + 4, game="othergame"))
    assert [(r.sid, r.round, r.outcome) for r in store.results()] == [
        ("sid1", 1, "lost"), ("sid1", 2, "draw"), ("sid2", 1, "won"),
    ]
    assert [r.sid for r in store.results("othergame")] == ["sid2"]
    assert [r.round for r in store.results("tictactoe")] == [1, 2]
    assert store.results("nosuchgame") == []


@on_both_stores
def test_results_come_oldest_first(store: Store) -> None:
    store.create_session(fresh_row(), {"tok": [0]}, NOW)
    for round, finished in [(1, NOW + 30), (2, NOW + 10), (3, NOW + 20)]:
        store.save(progress(round=round), result("won", round=round, sid="sid1",
                                                  finished=finished))
    assert [r.round for r in store.results()] == [2, 3, 1]


def test_a_group_is_drawn_again_when_its_results_change() -> None:
    def played(results: Sequence[Result]) -> list[int]:
        return [g["played"] for g in statistics(results, GAMES)["groups"]]

    assert played(results_of("WL")) == [2]
    assert played(results_of("WLW")) == [3]  # a game more
    again = [result("won", round=0), result("draw", round=1, finished=NOW + 5)]
    (group,) = statistics(again, GAMES)["groups"]  # the second round finished again, a draw
    assert (group["won"], group["drawn"], group["lost"]) == (1, 1, 0)


def test_group_headings_read_as_the_games_name_their_presets() -> None:
    results = [result("won", game="ishido", preset="seed", mode="solo"),
               result("won", game="minesweeper", preset="custom", mode="solo")]
    headings = [g["heading"] for g in statistics(results, GAMES)["groups"]]
    assert headings == [GAMES["ishido"].game.preset_label("seed"), "Custom"]
    assert "seed" not in headings[0].lower()


# -- durability with sync "full" ----------------------------------------------------------
def session_row(sid: str) -> SessionRow:
    return SessionRow(
        sid=sid, game="tictactoe", game_id="tictactoe:standard#abc", seats=["human", "human"],
        mode="two players", preset="standard", cursor=0, round=1, assisted=False,
        elapsed_ms=0, clock_last_at=None, status="playing", headline="Cross to move",
        updated=NOW,
    )


@pytest.fixture
def full_path(tmp_path: Path) -> Path:
    return tmp_path / "full.sqlite3"


@pytest.fixture
def full_store(full_path: Path) -> Iterator[Store]:
    """A store whose commits wait for the disk (`--sync full`: the writer thread)."""
    store = Store(full_path, sync="full")
    yield store
    store.close()


def test_a_full_sync_commit_returns_once_the_change_is_on_disk(full_store: Store, full_path: Path
                                                              ) -> None:
    run_async(full_store.commit(session_created(session_row("s1"), {"t": [0, 1]}, NOW)))
    assert kept_sessions_of(full_path) == ["s1"]


def test_a_full_sync_commit_that_fails_is_never_acknowledged(full_store: Store) -> None:
    created = session_created(session_row("s1"), {"t": [0, 1]}, NOW)
    run_async(full_store.commit(created))
    with pytest.raises(sqlite3.IntegrityError):  # the same session twice
        run_async(full_store.commit(created))


# the writer thread of a sync "full" store, kept busy so that changes wait for it together
def commit_while_the_disk_is_busy(
    store: Store, *changes: Any, closing: bool = False
) -> list[BaseException | None]:
    """Commit `changes` while the writer thread is still busy with an earlier one, so that
    they wait for it and are then committed as one batch (with `closing`, the store is
    closed meanwhile too); what each commit raised, or None."""
    busy, free = threading.Event(), threading.Event()

    def slow_change(db: sqlite3.Connection) -> None:
        busy.set()
        free.wait(10)

    async def commits() -> list[BaseException | None]:
        first = asyncio.create_task(store.commit(slow_change))
        assert await asyncio.to_thread(busy.wait, 10), "the writer never started"
        waiting = [asyncio.create_task(store.commit(change)) for change in changes]
        await asyncio.sleep(0.05)  # each task has handed its change to the writer
        closed = asyncio.create_task(asyncio.to_thread(store.close)) if closing else None
        await asyncio.sleep(0.2 if closing else 0)  # the close waits behind the changes
        free.set()
        outcomes = await asyncio.wait_for(
            asyncio.gather(first, *waiting, return_exceptions=True), 10)
        if closed is not None:
            await asyncio.wait_for(closed, 10)
        return [None if outcome is None else outcome for outcome in outcomes[1:]]

    return run_async(commits())


def kept_sessions_of(path: Path) -> list[str]:
    reader = Store(path)  # another connection: it sees only what was committed
    try:
        return [kept.row.sid for kept in reader.kept_sessions()]
    finally:
        reader.close()


def test_changes_that_waited_together_are_kept_and_one_that_fails_is_undone_alone(
    full_store: Store, full_path: Path,
) -> None:
    half_done = together(session_created(session_row("s2"), {"t2": [0, 1]}, NOW),
                         session_created(session_row("s1"), {"t3": [0, 1]}, NOW))
    outcomes = commit_while_the_disk_is_busy(
        full_store, session_created(session_row("s1"), {"t1": [0, 1]}, NOW), half_done,
        session_created(session_row("s3"), {"t4": [0, 1]}, NOW))
    assert outcomes[0] is None and outcomes[2] is None
    assert isinstance(outcomes[1], sqlite3.IntegrityError)  # s1 is kept already
    assert kept_sessions_of(full_path) == ["s1", "s3"]  # nothing of the failed one, s2


def test_a_batch_that_cannot_commit_fails_every_change_in_it_and_the_next_commit_works(
    full_store: Store, full_path: Path,
) -> None:
    def move_of_no_game(db: sqlite3.Connection) -> None:
        """Refused only when the batch commits: the foreign keys checked at the end."""
        db.execute("PRAGMA defer_foreign_keys=ON")
        db.execute("INSERT INTO moves (sid, ply, move) VALUES ('nowhere', 0, '{}')")

    outcomes = commit_while_the_disk_is_busy(
        full_store, session_created(session_row("s1"), {"t1": [0, 1]}, NOW), move_of_no_game)
    assert all(isinstance(outcome, sqlite3.IntegrityError) for outcome in outcomes)
    assert kept_sessions_of(full_path) == []  # a failed commit acknowledges nothing
    run_async(asyncio.wait_for(
        full_store.commit(session_created(session_row("s1"), {"t1": [0, 1]}, NOW)), 10))
    assert kept_sessions_of(full_path) == ["s1"]


def test_closing_a_full_sync_store_commits_what_waits_and_returns_at_once(
    full_store: Store, full_path: Path,
) -> None:
    started = time.monotonic()
    outcomes = commit_while_the_disk_is_busy(
        full_store, session_created(session_row("s1"), {"t1": [0, 1]}, NOW),
        session_created(session_row("s2"), {"t2": [0, 1]}, NOW), closing=True)
    assert outcomes == [None, None]
    assert time.monotonic() - started < 10  # the writer thread ended, not waited out
    assert kept_sessions_of(full_path) == ["s1", "s2"]


def test_a_full_sync_stores_writer_never_keeps_parlour_from_exiting(tmp_path: Path) -> None:
    before = set(threading.enumerate())
    store = Store(tmp_path / "here.sqlite3", sync="full")
    run_async(store.commit(lambda db: None))  # the writer thread is started
    started = set(threading.enumerate()) - before
    assert started and all(thread.daemon for thread in started)  # exiting never waits for it
    store.close()
    script = (
        "import asyncio, sys\n"
        "from parlour.store.sqlite import SqliteStore\n"
        "store = SqliteStore(sys.argv[1], sync='full')\n"
        "asyncio.run(store.commit(lambda db: None))\n"  # the writer thread is started
    )
    finished = subprocess.run([sys.executable, "-c", script, str(tmp_path / "full.sqlite3")],
                              timeout=60, check=False, capture_output=True)
    assert finished.returncode == 0, finished.stderr


def test_the_database_is_where_parlour_db_says_or_else_in_the_players_data_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    monkeypatch.setenv("PARLOUR_DB", str(tmp_path / "mine.sqlite3"))
    assert default_path() == tmp_path / "mine.sqlite3"
    monkeypatch.setenv("PARLOUR_DB", "")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_path() == tmp_path / "data" / "parlour" / "parlour.sqlite3"


def test_a_normal_sync_store_writes_each_commit_at_once_with_no_writer_thread(
    tmp_path: Path,
) -> None:
    """A move's commit is a tenth of a millisecond there: no hop to a thread and back."""
    before = set(threading.enumerate())
    store = Store(tmp_path / "normal.sqlite3", sync="normal")
    try:
        run_async(store.commit(session_created(session_row("s1"), {"t": [0, 1]}, NOW)))
        started = set(threading.enumerate()) - before
        assert [thread.name for thread in started] == ["parlour-store-checkpointer"]
        assert all(thread.daemon for thread in started)  # exiting never waits for it
    finally:
        store.close()
    assert kept_sessions_of(tmp_path / "normal.sqlite3") == ["s1"]


def test_only_a_normal_sync_file_store_has_a_checkpointer(tmp_path: Path) -> None:
    """A full-sync store's writer flushes each commit, and a store in memory has no disk."""
    for path, sync in ((tmp_path / "full.sqlite3", "full"), (":memory:", "normal")):
        before = set(threading.enumerate())
        store = Store(path, sync=sync)
        started = {thread.name for thread in set(threading.enumerate()) - before}
        store.close()
        assert "parlour-store-checkpointer" not in started


def test_closing_a_normal_sync_store_leaves_every_commit_in_the_database_file(
    tmp_path: Path,
) -> None:
    """Nothing is left in the write-ahead log for the next start to replay."""
    path = tmp_path / "normal.sqlite3"
    store = Store(path, sync="normal")
    run_async(store.commit(session_created(session_row("marker-of-the-last-commit"),
                                           {"t": [0]}, NOW)))
    store.close()
    assert not path.with_name("normal.sqlite3-wal").exists()
    assert b"marker-of-the-last-commit" in path.read_bytes()


def test_on_windows_the_database_is_in_the_local_app_data_parlour_folder(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Not under a vendor's folder as well (platformdirs' default on Windows)."""
    import platformdirs
    import platformdirs.windows

    local = r"C:\Users\player\AppData\Local"
    monkeypatch.setenv("PARLOUR_DB", "")
    monkeypatch.setattr(platformdirs, "PlatformDirs", platformdirs.windows.Windows)
    monkeypatch.setattr(platformdirs.windows, "get_win_folder", lambda name: local)
    assert default_path() == Path(local) / "parlour" / "parlour.sqlite3"


@on_both_stores
def test_the_resume_list_holds_the_twenty_latest_unfinished_games(store: Store) -> None:
    for i in range(21):
        sid = f"s{i:02}"
        store.create_session(fresh_row(sid), {f"t{i}": [0]}, NOW)
        store.save(progress(sid, cursor=1, now=NOW + i, new_moves_from=0, new_moves=MOVES[:1]))
    assert [row.sid for row in store.unfinished()] == [f"s{i:02}" for i in range(20, 0, -1)]


@on_both_stores
def test_a_big_backup_s_games_kept_already_are_all_recognised(store: Store) -> None:
    store.create_session(fresh_row("kept"), {"kept-token": [0]}, NOW)
    others = [f"other{i}" for i in range(1200)]  # more than one query's parameters
    found = store.identities([*others, "kept"], [*others, "kept-token"], [*others])
    assert found.sessions == {"kept": "tictactoe:standard#abc"}
    assert found.tokens == {"kept-token": "kept"}


@on_both_stores
def test_a_restore_adds_each_game_not_kept_whole_with_who_left_and_who_forgot_it(
    store: Store,
) -> None:
    store.create_session(fresh_row("kept"), {"kept-token": [0]}, NOW)
    left = dataclasses.replace(fresh_row("new", seats=("human", "human")), cursor=1,
                               stand_ins={1: "medium"})
    store.write(Restored(
        sessions=(KeptSession(fresh_row("kept"), NOW, [], {"other-token": [0]}),
                  KeptSession(left, NOW, MOVES[:1], {"mine": [0], "gone": [1]},
                              forgotten=frozenset({"gone"}))),
        results=(), pictures=(), now=NOW))
    restored = {kept.row.sid: kept for kept in store.kept_sessions()}
    assert restored["kept"].tokens == {"kept-token": [0]}  # what was kept stays as it is
    assert restored["new"].row.stand_ins == {1: "medium"}
    assert (restored["new"].tokens, restored["new"].forgotten) == (
        {"mine": [0], "gone": [1]}, frozenset({"gone"}))
    assert store.held_unfinished(["mine", "gone"]) == [("new", [0])]


def restore_of(sid: str, token: str) -> Restored:
    return Restored(sessions=(KeptSession(fresh_row(sid), NOW, [], {token: [0]}),),
                    results=(), pictures=(), now=NOW)


@on_both_stores
def test_a_restore_whose_token_is_another_games_fails_whole_and_says_why(store: Store) -> None:
    store.create_session(fresh_row("kept"), {"kept-token": [0]}, NOW)
    with pytest.raises(integrity_errors()):
        run_async(store.commit_apart(restore_of("new", "kept-token")))
    assert [kept.row.sid for kept in store.kept_sessions()] == ["kept"]


def test_a_store_in_memory_restores_and_reads_back_its_games_too() -> None:
    store = Store(":memory:")
    try:
        run_async(store.commit_apart(restore_of("new", "mine")))
        assert [kept.row.sid for kept in store.kept_sessions()] == ["new"]
    finally:
        store.close()


@on_both_stores
def test_every_game_is_read_back_whole_with_its_place_in_a_series_and_none_held_too(
    store: Store,
) -> None:
    store.create_session(fresh_row("first", seats=("human", "human")), {"a": [0], "b": [1]},
                         NOW)
    store.create_session(fresh_row("rematch", seats=("human", "human")), {"c": [0, 1]}, NOW)
    store.create_session(fresh_row("computers", seats=("ai:perfect", "ai:perfect")), {}, NOW)
    place = SeriesRow("rematch", "first", 1, [[1, 0, 0], [0, 0, 1]])
    run_async(store.commit(series_saved(place)))
    kept = {game.row.sid: game for game in store.kept_sessions()}
    assert kept["rematch"].series == place
    assert kept["first"].series is None and kept["first"].tokens == {"a": [0], "b": [1]}
    assert (kept["computers"].tokens, kept["computers"].forgotten) == ({}, frozenset())


@on_both_stores
def test_a_games_help_switch_and_who_had_help_are_read_back_as_saved(store: Store) -> None:
    helped = dataclasses.replace(fresh_row("helped", seats=("human", "human")), assist=True,
                                 assisted_seats=frozenset({0}), assist_seats=frozenset({1}))
    store.create_session(helped, {"t": [0, 1]}, NOW)
    read = store.session_row("helped")
    assert read is not None
    assert (read.assist, read.assisted_seats, read.assist_seats) == (
        True, frozenset({0}), frozenset({1}))


def test_the_databases_folder_is_made_when_missing(tmp_path: Path) -> None:
    store = Store(tmp_path / "new" / "deeper" / "parlour.sqlite3")
    try:
        store.create_session(fresh_row("s1"), {"t": [0, 1]}, NOW)
        assert (tmp_path / "new" / "deeper" / "parlour.sqlite3").is_file()
    finally:
        store.close()


@pytest.mark.parametrize(("count", "most", "expected"), [
    (1, 5, [0]), (5, 5, [0, 1, 2, 3, 4]), (6, 5, [0, 2, 4]), (7, 5, [0, 2, 4, 6]),
    (9, 5, [0, 2, 4, 6, 8]), (10, 5, [0, 3, 6, 9]), (12, 7, [0, 2, 4, 6, 8, 10]),
])
def test_an_axis_labels_places_evenly_ending_on_the_last_where_it_can(
    count: int, most: int, expected: list[int],
) -> None:
    indices = x_label_indices(count, most)
    assert indices == expected
    assert len(indices) <= most and len({b - a for a, b in itertools.pairwise(indices)}) <= 1
