"""Daily deals' results and streaks: for each solitaire, today's daily deal (its id, and
its result once played), and the days whose daily the player won, in a row.

What counts for a day is its first attempt: the first game started on that day's deal
while the date was today somewhere on Earth, and the result of its first round (as the
statistics keep it: an Undo after the end takes it back, help counted). Starting the
deal again (by its id) or restarting it plays it for fun: it does not change the day's
result, and restarting the first attempt before it ends gives the day up. A streak counts
days in a row whose daily was won without help; today, while unplayed or unfinished,
does not break it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from parlour.core import daily
from parlour.core.game import BadParams, GameSpec
from parlour.core.gameid import parse_game_id
from parlour.store.rows import DailyStart, Result

RECENT_DAYS = 7
"""How many days, today's included, the statistics show one by one."""


@dataclass(frozen=True)
class DayResult:
    """The day's first attempt: "playing", or how it ended ("won", "lost", "drawn", or
    "given_up": restarted before its end)."""

    day: dt.date
    sid: str
    outcome: str
    elapsed_ms: int = 0
    moves: int = 0
    assisted: bool = False

    @property
    def won_unaided(self) -> bool:
        return self.outcome == "won" and not self.assisted

    @property
    def ended(self) -> bool:
        return self.outcome != "playing"


def day_results(spec: GameSpec, starts: Iterable[DailyStart], results: Iterable[Result]
                ) -> dict[dt.date, DayResult]:
    """Each day's result of `spec`'s daily deal, from the games started on daily seeds
    (oldest first) and the results of finished games."""
    firsts: dict[dt.date, DailyStart] = {}
    for start in starts:
        day = _daily_day(spec, start)
        if day is not None and day not in firsts:
            firsts[day] = start
    ended = _first_endings(results, {start.sid for start in firsts.values()})
    return {day: _result(day, start, ended.get(start.sid)) for day, start in firsts.items()}


def _daily_day(spec: GameSpec, start: DailyStart) -> dt.date | None:
    if start.game != spec.name:
        return None
    try:
        game_id = parse_game_id(spec.game, start.game_id)
    except BadParams:  # a deal this Parlour no longer reads: not a daily it can show
        return None
    day = daily.daily_day(spec, game_id)
    started = dt.datetime.fromtimestamp(start.created, dt.UTC)
    return day if day is not None and daily.is_today_somewhere(day, started) else None


def _first_endings(results: Iterable[Result], sids: set[str]) -> dict[str, Result]:
    """Each game's result of its first round (the results of later rounds, restarts, do
    not count)."""
    return {result.sid: result for result in results
            if result.sid in sids and result.round == 1 and result.seat == 0}


def _result(day: dt.date, start: DailyStart, ending: Result | None) -> DayResult:
    if ending is not None:
        outcome = "drawn" if ending.outcome == "draw" else ending.outcome
        return DayResult(day, start.sid, outcome, ending.elapsed_ms, ending.moves,
                         ending.assisted)
    return DayResult(day, start.sid, "given_up" if start.round > 1 else "playing")


def streaks(days: Mapping[dt.date, DayResult], today: dt.date) -> tuple[int, int]:
    """(current, best): the days in a row whose daily was won without help. The current
    run ends today, or yesterday while today's daily is unplayed or unfinished."""
    won = {day for day, result in days.items() if result.won_unaided}
    todays = days.get(today)
    day = today if todays is not None and todays.ended else today - dt.timedelta(days=1)
    current = 0
    while day in won:
        current += 1
        day -= dt.timedelta(days=1)
    return current, _longest_run(won)


def _longest_run(days: set[dt.date]) -> int:
    best = 0
    for day in days:
        if day - dt.timedelta(days=1) in days:
            continue  # not the start of a run
        length = 1
        while day + dt.timedelta(days=length) in days:
            length += 1
        best = max(best, length)
    return best


def daily_report(specs: Sequence[GameSpec], starts: Sequence[DailyStart],
                 results: Sequence[Result], today: dt.date) -> dict[str, Any]:
    """Today's daily deal of every solitaire, with its result, and the streaks."""
    return {"date": today.isoformat(), "games": [
        _game_report(spec, starts, results, today) for spec in specs if daily.has_daily(spec)
    ]}


def _game_report(spec: GameSpec, starts: Sequence[DailyStart], results: Sequence[Result],
                 today: dt.date) -> dict[str, Any]:
    days = day_results(spec, starts, results)
    current, best = streaks(days, today)
    params = daily.daily_params(spec)
    recent = [today - dt.timedelta(days=back) for back in range(RECENT_DAYS - 1, -1, -1)]
    return {
        "game": spec.name,
        "title": spec.game.title,
        "board": spec.game.summary(params),
        "id": daily.id_text(spec.game, daily.daily_id(spec, today)),
        "today": _described(spec, days.get(today)),
        "played": sum(1 for result in days.values() if result.ended),
        "won": sum(1 for result in days.values() if result.won_unaided),
        "current_streak": current,
        "best_streak": best,
        "recent": [{"date": day.isoformat(),
                    "outcome": days[day].outcome if day in days else "unplayed",
                    "assisted": day in days and days[day].assisted} for day in recent],
    }


def _described(spec: GameSpec, result: DayResult | None) -> dict[str, Any] | None:
    if result is None:
        return None
    return {"session": result.sid, "outcome": result.outcome,
            "elapsed_ms": result.elapsed_ms,
            "time_shown": spec.time_written(result.elapsed_ms), "moves": result.moves,
            "assisted": result.assisted}
