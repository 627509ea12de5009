"""Statistics from finished games, per game, group (`Game.stat_group`: board, difficulty...)
and mode: the figures as numbers for the API, the same figures worded for the page, and
charts (`parlour.stats.charts`). Each group is named in the words its player chose: the
board as the game describes it (`Game.stat_group`, e.g. "Medium 16×16, no guess") and who
played ("Two players here", "Online with a friend, as Cross", "Against the computer
(medium)"); and each game's bests per group, from games played without help, side by side.

What a game's page shows is what its `GameSpec` declares: the outcomes its games can end
with (`stat_outcomes`; win rate and streaks only where a game can be lost) and its own
figures (`stat_figures`: best time, fewest moves, best score...). Nothing shows a "best
score" for a game that has none.

Games not dealt here (a start position given, a game imported) and games the solver
played to their end (`gameid.FILED_APART`) have groups of their own, which set no
records. What a page asks for is bounded whatever is stored (`store_statistics`): the
`GROUPS_PER_GAME` groups of each game played most recently, each over its latest
`RESULTS_PER_GROUP` games, the answer kept until a result changes.
"""

from __future__ import annotations

import hashlib
import threading
import weakref
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from parlour.core.game import GameSpec, readable
from parlour.core.gameid import FILED_APART, SHOWN
from parlour.stats.charts import figure_chart, win_rate_chart
from parlour.stats.numbers import summary
from parlour.stats.svg import Chart
from parlour.stats.wording import at_one_screen, players, shown, writer
from parlour.store import Result, ResultReads, Store
from parlour.store.rows import StatReading

OUTCOMES = {"won": "won", "lost": "lost", "draw": "drawn"}
"""A game's outcomes when it does not declare them."""
GROUPS_PER_GAME = 40
"""The most groups of one game a page shows: those played most recently (a player chooses
a few boards; 1 000 groups took 10 s and 15 MB to answer)."""
RESULTS_PER_GROUP = 1_000
"""A group's figures and charts are of its latest games, up to this many (about 10 ms of
drawing); its count of games played is of every game."""
ANSWERS_KEPT = 8
"""Answers kept per store (the page of each game, and of all), until a result changes."""
_answers: weakref.WeakKeyDictionary[Store, dict[tuple[str | None, tuple[float, ...]],
                                                dict[str, Any]]] = weakref.WeakKeyDictionary()
_answering = threading.Lock()


def store_statistics(store: Store, games: Mapping[str, GameSpec], game: str | None = None
                     ) -> dict[str, Any]:
    """`statistics` of what `store` keeps (of `game`, or of every game), in work and size
    bounded whatever it keeps. Blocking: run it in a thread. Requests that come together
    wait for one answer and share it."""
    with _answering:
        kept = _answers.setdefault(store, {})
        answer = kept.get((game, store.results_version()))
        if answer is None:
            reading = store.stat_reading(game, GROUPS_PER_GAME, RESULTS_PER_GROUP)
            answer = _statistics_of(reading, games)
            while len(kept) >= ANSWERS_KEPT:
                kept.pop(next(iter(kept)))
            kept[(game, reading.version)] = answer
        return answer


def own_statistics(reads: ResultReads, games: Mapping[str, GameSpec], game: str | None = None
                   ) -> dict[str, Any]:
    """`statistics` of a player's own results (parlour.stats.own), bounded as
    `store_statistics` is; not kept, as no two players share them. Blocking."""
    return _statistics_of(reads.stat_reading(game, GROUPS_PER_GAME, RESULTS_PER_GROUP), games)


def _statistics_of(reading: StatReading, games: Mapping[str, GameSpec]) -> dict[str, Any]:
    played = {_key(g.game, g.preset, g.mode, g.seat_name): g.played for g in reading.groups}
    return statistics([r for g in reading.groups for r in g.latest], games, played,
                      reading.left_off)


def _key(game: str, preset: str, mode: str, seat_name: str) -> Key:
    # with several people at one game, each seat's record is kept apart
    return (game, preset, f"{mode}, as {seat_name}" if seat_name else mode)


def statistics(results: Sequence[Result], games: Mapping[str, GameSpec],
               played: Mapping[Key, int] | None = None,
               left_off: Mapping[str, int] | None = None) -> dict[str, Any]:
    """Every group's figures and charts, the groups in the order of the games' list;
    `played`: the games each group has in all, where `results` holds only the latest;
    `left_off`: the groups of each game not shown."""
    groups: dict[tuple[str, str, str], list[Result]] = defaultdict(list)
    seat_names: dict[str, str] = {}
    for result in results:
        key = _key(result.game, result.preset, result.mode, result.seat_name)
        groups[key].append(result)
        seat_names[key[2]] = result.seat_name

    def place(key: Key) -> tuple[int, int, str, str, str]:
        """In the order of the list of games, then of each game's presets (easy first)."""
        spec = games.get(key[0])
        presets = list(spec.game.presets) if spec else []
        preset = presets.index(key[1]) if key[1] in presets else len(presets)
        return (spec.order if spec else 1_000, preset, *key)

    drawn_groups = [_counted_in_all(drawn(key, groups[key], games.get(key[0]),
                                          seat_names[key[2]]),
                                    (played or {}).get(key, len(groups[key])))
                    for key in sorted(groups, key=place)]
    return {"groups": drawn_groups, "bests": bests(drawn_groups, games),
            "left_off": dict(left_off or {})}


def _counted_in_all(group: Mapping[str, Any], played: int) -> dict[str, Any]:
    """A drawn `group` (kept: not changed) that says how many games it has in all."""
    if played <= group["played"]:
        return {**group, "played_in_all": group["played"]}
    latest = f"Figures of the last {group['played']} of {played} games."
    return {**group, "played_in_all": played,
            "note": " ".join(filter(None, [latest, group["note"]]))}


def bests(groups: Sequence[Mapping[str, Any]], games: Mapping[str, GameSpec]
          ) -> list[dict[str, Any]]:
    """Each game's records side by side, a row per group (board, difficulty, players): the
    best of each figure the game keeps a record of, from games played without help."""
    tables = []
    for game in dict.fromkeys(g["game"] for g in groups):
        spec = games.get(game)
        figures = [f for f in spec.stat_figures
                   if f.show in ("lowest", "highest") and f.chart] if spec else []
        if not figures:
            continue
        rows = []
        for g in (g for g in groups if g["game"] == game and not g["apart"]):
            records = {f["name"]: f.get("best") for f in g["over_all"]}
            rows.append({"heading": g["heading"], "players": g["players"],
                         "values": [writer(f)(records.get(f.name)) for f in figures]})
        if rows:  # none when every group of the game is filed apart
            tables.append({"game": game, "title": spec.game.title if spec else game,
                           "columns": [_capital(f.best_caption) for f in figures],
                           "rows": rows})
    return tables


Key = tuple[str, str, str]
"""A group: (game, stat group, mode)."""
_drawn: dict[tuple[Key, bool, tuple[tuple[str, int, float], ...]], dict[str, Any]] = {}
_drawing = threading.Lock()
DRAWN_KEPT = 8 * GROUPS_PER_GAME
"""Every group a page shows (of up to eight games), drawn, fits."""


def drawn(key: Key, finished: Sequence[Result], spec: GameSpec | None, seat_name: str = ""
          ) -> dict[str, Any]:
    """`group`, kept while its results stay the same: drawing the charts is the slow part
    (milliseconds each), and the page is opened far more often than a game ends."""
    seen = (key, spec is None, tuple((r.sid, r.round, r.finished) for r in finished))
    with _drawing:
        kept = _drawn.get(seen)
    if kept is None:
        kept = group(key, finished, spec, seat_name)
        with _drawing:  # (the server draws in threads)
            while len(_drawn) >= DRAWN_KEPT:
                _drawn.pop(next(iter(_drawn)))
            _drawn[seen] = kept
    return kept


def group(key: Key, finished: Sequence[Result], spec: GameSpec | None, seat_name: str = ""
          ) -> dict[str, Any]:
    """One group's figures (oldest result first) and charts, for a game `spec` (None: a
    game no longer offered, shown with the standard figures); `seat_name`: the seat its
    player held when others played too."""
    game, preset, mode = key
    declared = spec.stat_figures if spec else ()
    outcomes = dict(spec.stat_outcomes) if spec else OUTCOMES
    apart = preset in FILED_APART
    numbers = summary(finished, declared, records=not apart)
    played_as = finished[0].mode if finished else mode
    who = players(played_as, seat_name)
    # players at one screen: a game is won by a seat, not by the one who held them all
    by_seat = False
    if spec is not None and at_one_screen(played_as, seat_name):
        by_seat, outcomes = True, _seat_outcomes(spec, outcomes)
    rate = None if by_seat else win_rate_chart(finished, outcomes)
    charts: list[Chart] = [rate] if rate else []
    charts += [c for figure in declared
               if (c := figure_chart(figure, finished, outcomes, marked=not apart))]
    keeps_records = any(f.show in ("lowest", "highest") for f in declared)
    note = _note(preset, numbers, keeps_records)
    return {
        "game": game,
        "title": spec.game.title if spec else game,
        "preset": preset,
        "heading": _heading(spec, preset, who),
        "mode": mode,
        "players": who,
        "apart": apart,
        **numbers,
        "note": note,
        "shown": shown(numbers, declared, outcomes, streaks=preset != SHOWN and not by_seat),
        "charts": [chart.as_json(_chart_id(key, number)) for number, chart in enumerate(charts)],
    }


def _seat_outcomes(spec: GameSpec, outcomes: Mapping[str, str]) -> dict[str, str]:
    """The outcomes of games at one screen, which are the first seat's: "Cross won",
    "Cross lost" and "drawn" (not "won", a win for whoever held every seat)."""
    first = spec.game.seat_names(spec.game.validate({}))[0]
    named = {"won": f"{first} won", "lost": f"{first} lost"}
    return {outcome: named.get(outcome, word) for outcome, word in outcomes.items()}


def _note(preset: str, numbers: Mapping[str, Any], keeps_records: bool) -> str:
    """Why a group's records are missing or partial, if they are."""
    if preset == SHOWN:
        return "Games the solver played to the end (a winning line, a solution) are not " \
               "counted with yours."
    if not keeps_records:
        return ""
    if preset in FILED_APART:
        return "Games not dealt here (a position given, a game imported) set no records."
    if not numbers["assisted"]:
        return ""
    if numbers["won"] and not numbers["unassisted_won"]:  # a best of "–" beside games won
        return "Every game won here had help (hints or Assist), and a game with help sets " \
               "no best."
    return "Games played with help (hints or Assist) set no best."


def _heading(spec: GameSpec | None, preset: str, who: str) -> str:
    """The board or difficulty; for a game with one board only (Tic Tac Toe's
    "standard"), who played, which is what tells its groups apart."""
    if spec is None:
        return readable(preset)
    if list(spec.game.presets) == [preset] and who:
        return who
    return spec.game.preset_label(preset)


def _capital(words: str) -> str:
    return words[:1].upper() + words[1:]


def _chart_id(key: Key, number: int) -> str:
    return "stat-" + hashlib.sha1(repr((key, number)).encode()).hexdigest()[:12]
