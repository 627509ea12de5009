"""Statistics from hand-made results, and the SQLite store's round trips."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from parlour.games import GAMES
from parlour.stats import CHART_GAMES, chart, statistics, summary
from parlour.store import Progress, Result, SessionRow, Store

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


# -- charts and groups -----------------------------------------------------------------------
def test_chart_has_a_bar_per_game() -> None:
    assert chart([]) == ""
    svg = chart([result("won", 1_000), result("lost", 4_000, assisted=True), result("draw")])
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert svg.count("<rect") == 3
    assert 'class="bar won"' in svg
    assert 'class="bar lost assisted"' in svg
    assert 'class="bar draw"' in svg
    assert "last 3 games" in svg


def test_statistics_groups_by_game_preset_and_mode() -> None:
    results = [
        result("won", mode="two players"),
        result("lost", mode="vs AI (perfect)"),
        result("draw", mode="vs AI (perfect)"),
        result("won", game="oldgame", preset="big", mode="solo"),
    ]
    groups = statistics(results, GAMES)["groups"]
    keys = [(g["game"], g["preset"], g["mode"]) for g in groups]
    assert keys == sorted(keys)
    assert set(keys) == {
        ("tictactoe", "standard", "two players"),
        ("tictactoe", "standard", "vs AI (perfect)"),
        ("oldgame", "big", "solo"),
    }
    by_key = {(g["game"], g["preset"], g["mode"]): g for g in groups}
    versus = by_key[("tictactoe", "standard", "vs AI (perfect)")]
    assert (versus["played"], versus["won"], versus["lost"], versus["drawn"]) == (2, 0, 1, 1)
    assert versus["title"] == "Tic-Tac-Toe"
    assert by_key[("oldgame", "big", "solo")]["title"] == "oldgame"  # no longer offered
    assert all(g["chart_svg"].startswith("<svg") for g in groups)


def test_chart_shows_only_the_latest_games() -> None:
    results = [result("won", round=i) for i in range(CHART_GAMES + 15)]
    (group,) = statistics(results, GAMES)["groups"]
    assert group["played"] == CHART_GAMES + 15
    assert group["chart_svg"].count("<rect") == CHART_GAMES


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


def test_create_and_load_a_session(store: Store) -> None:
    row = fresh_row()
    store.create_session(row, {"tok": [0]}, NOW)
    loaded = store.load_session("sid1")
    assert loaded == (row, [])
    assert store.tokens("sid1") == {"tok": [0]}
    assert store.load_session("nope") is None
    assert store.tokens("nope") == {}


def test_a_session_id_is_unique(store: Store) -> None:
    store.create_session(fresh_row(), {"tok": [0]}, NOW)
    with pytest.raises(sqlite3.IntegrityError):
        store.create_session(fresh_row(), {"other": [1]}, NOW)
    assert store.tokens("sid1") == {"tok": [0]}  # nothing of the refused one was kept


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


def test_a_saved_session_survives_reopening(tmp_path: Path) -> None:
    path = tmp_path / "parlour.sqlite3"
    first = Store(path)
    first.create_session(fresh_row(), {"tok": [0]}, NOW)
    first.add_token("sid1", "joined", [1])
    first.save(progress(cursor=2, status="playing", headline="Tic Tac Toe", now=NOW + 1,
                        new_moves_from=0, new_moves=MOVES[:3]))
    first.close()
    again = Store(path)
    row, moves = again.load_session("sid1") or pytest.fail("lost")
    assert row.cursor == 2
    assert row.seats == ["human", "ai:perfect"]
    assert moves == MOVES[:3]
    assert again.tokens("sid1") == {"tok": [0], "joined": [1]}
    assert list(again.tokens("sid1")) == ["tok", "joined"]  # the creator first
    again.close()


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


def test_a_failed_save_changes_nothing(store: Store) -> None:
    store.create_session(fresh_row(), {"tok": [0]}, NOW)
    store.save(progress(cursor=1, new_moves_from=0, new_moves=MOVES[:1]))
    before = store.load_session("sid1")
    broken = Result(
        sid="sid1", round=1, game=None, preset="standard",  # type: ignore[arg-type]
        mode="vs AI (perfect)", outcome="won", score=1, elapsed_ms=1, moves=2,
        assisted=False, finished=NOW,
    )
    with pytest.raises(sqlite3.IntegrityError):
        store.save(progress(cursor=2, status="won", new_moves_from=1, new_moves=[MOVES[1]]),
                   broken)
    assert store.load_session("sid1") == before
    assert store.results() == []


# -- the store: results ------------------------------------------------------------------
def test_results_round_trip(store: Store) -> None:
    store.create_session(fresh_row(), {"tok": [0]}, NOW)
    saved = result("won", 4321, assisted=True, score=1, sid="sid1", figures={"speed": 1.5})
    store.save(progress(cursor=5, status="won"), saved)
    assert store.results() == [saved]
    assert store.results()[0].assisted is True


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


def test_results_come_oldest_first(store: Store) -> None:
    store.create_session(fresh_row(), {"tok": [0]}, NOW)
    for round, finished in [(1, NOW + 30), (2, NOW + 10), (3, NOW + 20)]:
        store.save(progress(round=round), result("won", round=round, sid="sid1",
                                                  finished=finished))
    assert [r.round for r in store.results()] == [2, 3, 1]
