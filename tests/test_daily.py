"""Daily deals: the same deal for a date on every machine and after the rules change, a
day counted once (its first game), streaks across gaps and day boundaries, and the
`/api/daily` route."""

from __future__ import annotations

import dataclasses
import datetime as dt
import time
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

import httpx
import pytest
from fastapi.testclient import TestClient

from parlour.core import daily
from parlour.core.game import Param, Params
from parlour.core.gameid import GameId, parse_game_id
from parlour.games import GAMES
from parlour.games.minesweeper.logic import OPEN, Minefield, Minesweeper
from parlour.stats.daily import DayResult, day_results, streaks
from parlour.store import Result
from parlour.store.rows import DailyStart

DAY = dt.date(2026, 11, 26)
# (a game added later joins them by being a solitaire: no list here to extend)
SOLITAIRES = tuple(name for name, spec in GAMES.items() if daily.has_daily(spec))
MINESWEEPER = GAMES["minesweeper"]


def at(moment: str) -> float:
    """A UTC time given as 'YYYY-MM-DD HH:MM', as a timestamp."""
    return dt.datetime.fromisoformat(moment).replace(tzinfo=dt.UTC).timestamp()


# -- the deal of a date --------------------------------------------------------------------
def test_every_solitaire_has_a_daily_deal_and_the_games_for_several_do_not() -> None:
    assert {"ishido", "sliding", "escalator", "minesweeper"} <= set(SOLITAIRES)
    assert not {"tictactoe", "tribolo"} & set(SOLITAIRES)


def test_the_daily_id_is_the_same_on_every_machine_and_names_its_date() -> None:
    # written out in full, with the deal version: these exact words, forever
    text = daily.id_text(MINESWEEPER.game, daily.daily_id(MINESWEEPER, DAY))
    assert text == "minesweeper@2:rows=15,cols=15,mines=40,first_click=opening#daily-2026-11-26"
    # random.Random seeded with text is the same on every platform: so is the board
    dealt = parse_game_id(MINESWEEPER.game, text).deal(MINESWEEPER.game)
    assert sorted(dealt.mined)[:6] == [11, 26, 29, 48, 53, 56]


@pytest.mark.parametrize("name", ["ishido", "sliding", "minesweeper"])
def test_the_daily_id_parses_back_to_the_same_deal(name: str) -> None:
    spec = GAMES[name]
    game_id = daily.daily_id(spec, DAY)
    parsed = parse_game_id(spec.game, daily.id_text(spec.game, game_id))
    assert parsed == game_id
    assert parsed.deal(spec.game) == game_id.deal(spec.game)
    assert daily.daily_day(spec, parsed) == DAY


@pytest.mark.parametrize("name", SOLITAIRES)
def test_each_day_has_its_own_deal(name: str) -> None:
    spec = GAMES[name]
    ids = {daily.id_text(spec.game, daily.daily_id(spec, DAY + dt.timedelta(days=n)))
           for n in range(30)}
    assert len(ids) == 30
    if not spec.game.slow_deal(daily.daily_params(spec)):
        deals = [daily.daily_id(spec, DAY + dt.timedelta(days=n)).deal(spec.game)
                 for n in range(2)]
        assert deals[0] != deals[1]


class ChangedMinesweeper(Minesweeper):
    """Minesweeper as a later Parlour might have it: a new dealer (version 3), another
    default first click, and its presets' boards grown."""

    deal_version: ClassVar[int] = 3
    parameters: ClassVar[tuple[Param, ...]] = (
        *Minesweeper.parameters[:3],
        dataclasses.replace(Minesweeper.parameters[3], default="no_guess"),
    )
    presets: ClassVar[dict[str, Params]] = {"medium": {"rows": 16, "cols": 16, "mines": 50}}
    old_defaults: ClassVar[dict[int, Params]] = {1: {"first_click": "safe"},
                                                2: {"first_click": "opening"}}
    old_deals: ClassVar[Mapping[int, Callable[[Params, Any], Any]]] = {2: Minesweeper().deal}

    def deal(self, params: Params, rng: Any) -> Minefield:
        rng.random()  # deals otherwise from the same seed
        return super().deal(params, rng)


def test_a_days_deal_never_changes_when_the_rules_change_later() -> None:
    text = daily.id_text(MINESWEEPER.game, daily.daily_id(MINESWEEPER, DAY))
    before = parse_game_id(MINESWEEPER.game, text)
    changed = ChangedMinesweeper()
    after = parse_game_id(changed, text)
    assert after.params == before.params and after.version == 2
    assert after.deal(changed) == before.deal(MINESWEEPER.game)
    # ...whereas the new dealer deals that seed otherwise: the version is what kept it
    assert dataclasses.replace(after, version=3).deal(changed) != before.deal(MINESWEEPER.game)


def test_a_daily_preset_must_be_one_of_the_games_presets() -> None:
    with pytest.raises(ValueError, match="daily_preset"):
        dataclasses.replace(MINESWEEPER, daily_preset="huge")


def test_only_the_dailys_own_board_on_a_date_seed_is_a_daily() -> None:
    game = MINESWEEPER.game
    assert daily.daily_day(MINESWEEPER, daily.daily_id(MINESWEEPER, DAY)) == DAY
    easy = GameId("minesweeper", game.validate(game.presets["easy"]), daily.seed_of(DAY), 2)
    assert daily.daily_day(MINESWEEPER, easy) is None
    for seed in ("k3f9a2", "daily-2026-02-30", "daily-2026-1-5", "daily-2026-11-26x"):
        other = GameId("minesweeper", daily.daily_params(MINESWEEPER), seed, 2)
        assert daily.daily_day(MINESWEEPER, other) is None


@pytest.mark.parametrize(("moment", "today_somewhere"), [
    ("2026-11-25 09:59", False),  # not yet midnight of the 26th in UTC+14
    ("2026-11-25 10:00", True),  # midnight of the 26th in UTC+14 (Kiritimati)
    ("2026-11-26 12:00", True),
    ("2026-11-27 11:59", True),  # 23:59 of the 26th in UTC-12
    ("2026-11-27 12:00", False),  # the 26th is over everywhere
])
def test_a_date_is_today_from_the_first_time_zone_to_the_last(
    moment: str, today_somewhere: bool
) -> None:
    when = dt.datetime.fromtimestamp(at(moment), dt.UTC)
    assert daily.is_today_somewhere(DAY, when) is today_somewhere


# -- what counts for a day ----------------------------------------------------------------------
def start(sid: str, day: dt.date, created: float, round_: int = 1,
          game_id: str | None = None) -> DailyStart:
    text = game_id or daily.id_text(MINESWEEPER.game, daily.daily_id(MINESWEEPER, day))
    return DailyStart(sid, "minesweeper", text, created, round_, "playing")


def ended(sid: str, outcome: str, round_: int = 1, assisted: bool = False) -> Result:
    return Result(sid=sid, round=round_, game="minesweeper", preset="medium", mode="solo",
                  outcome=outcome, score=None, elapsed_ms=95_000, moves=30,
                  assisted=assisted, finished=0.0)


def test_a_days_result_is_its_first_games_first_ending() -> None:
    starts = [start("first", DAY, at("2026-11-26 08:00")),
              start("again", DAY, at("2026-11-26 09:00"), round_=2)]
    results = [ended("first", "lost"), ended("again", "won"), ended("again", "won", 2)]
    days = day_results(MINESWEEPER, starts, results)
    assert days == {DAY: DayResult(DAY, "first", "lost", 95_000, 30, False)}


def test_a_first_game_unfinished_is_in_progress_and_restarted_before_its_end_gives_up() -> None:
    playing = day_results(MINESWEEPER, [start("s", DAY, at("2026-11-26 08:00"))], [])
    assert playing[DAY].outcome == "playing" and not playing[DAY].ended
    restarted = [start("s", DAY, at("2026-11-26 08:00"), round_=2)]
    given_up = day_results(MINESWEEPER, restarted, [ended("s", "won", round_=2)])
    assert given_up[DAY].outcome == "given_up"


def test_a_daily_started_when_its_date_was_today_nowhere_does_not_count() -> None:
    early = start("early", DAY, at("2026-11-25 09:00"))
    late = start("late", DAY, at("2026-11-27 13:00"))
    kiritimati = start("kiritimati", DAY + dt.timedelta(days=1), at("2026-11-26 10:30"))
    days = day_results(MINESWEEPER, [early, late, kiritimati], [])
    assert set(days) == {DAY + dt.timedelta(days=1)}


def test_another_board_on_the_dates_seed_does_not_count() -> None:
    easy = start("easy", DAY, at("2026-11-26 08:00"), game_id="minesweeper@2:easy#daily-2026-11-26")
    assert day_results(MINESWEEPER, [easy], [ended("easy", "won")]) == {}


# -- streaks ----------------------------------------------------------------------------------
def days_of(outcomes: dict[int, str]) -> dict[dt.date, DayResult]:
    """Results by days before DAY (0: DAY itself); "help" is a win with help."""
    return {
        DAY - dt.timedelta(days=back): DayResult(
            DAY - dt.timedelta(days=back), f"s{back}", "won" if outcome == "help" else outcome,
            assisted=outcome == "help")
        for back, outcome in outcomes.items()
    }


@pytest.mark.parametrize(("outcomes", "current", "best"), [
    ({}, 0, 0),
    ({0: "won"}, 1, 1),
    ({1: "won", 2: "won"}, 2, 2),  # today unplayed: the streak still stands
    ({0: "playing", 1: "won", 2: "won"}, 2, 2),  # today unfinished: likewise
    ({0: "lost", 1: "won", 2: "won"}, 0, 2),  # today lost: it ends
    ({0: "won", 1: "won", 3: "won", 4: "won", 5: "won"}, 2, 3),  # a gap day
    ({2: "won", 3: "won"}, 0, 2),  # yesterday missed
    ({0: "won", 1: "help", 2: "won"}, 1, 1),  # won with help does not count
    ({0: "won", 1: "given_up", 2: "won"}, 1, 1),
])
def test_a_streak_is_days_in_a_row_won_without_help(
    outcomes: dict[int, str], current: int, best: int
) -> None:
    assert streaks(days_of(outcomes), DAY) == (current, best)


def test_the_streak_follows_the_players_own_date_across_midnight() -> None:
    won = days_of({1: "won", 2: "won"})  # the 25th and the 24th
    assert streaks(won, DAY) == (2, 2)  # on the 26th, before playing it
    assert streaks(won, DAY + dt.timedelta(days=1)) == (0, 2)  # the 26th was missed


# -- the API --------------------------------------------------------------------------------
def utc_today() -> str:
    return dt.datetime.now(dt.UTC).date().isoformat()


def report(client: TestClient, today: str) -> dict[str, dict[str, Any]]:
    reply = client.get("/api/daily", params={"today": today})
    assert reply.status_code == 200, reply.text
    return {entry["game"]: entry for entry in reply.json()["games"]}


def started(client: httpx.Client, game_id: str) -> dict[str, Any]:
    reply = client.post("/api/games", json={"game": "minesweeper", "id": game_id})
    assert reply.status_code == 201, reply.text
    body: dict[str, Any] = reply.json()
    return body


def open_cell(client: httpx.Client, game: dict[str, Any], row: int, col: int) -> dict[str, Any]:
    reply = client.post(f"/api/games/{game['session']}/moves", json={"move": {"open": [row, col]}},
                        headers={"Authorization": f"Bearer {game['token']}"})
    assert reply.status_code == 200, reply.text
    view: dict[str, Any] = reply.json()
    return view


def win(client: httpx.Client, game: dict[str, Any]) -> None:
    """Open the centre, then every safe cell still closed, as the deal says (through the
    app in-process, or a server's address: a TestClient is an httpx.Client)."""
    rules = MINESWEEPER.game
    parsed = parse_game_id(rules, game["id"])
    field = rules.apply(rules.deal(parsed.params, parsed.rng(rules)), ("open", 7, 7))
    open_cell(client, game, 7, 7)
    while rules.status(field).value == "playing":
        cell = next(c for c in range(field.size) if field.marks[c] != OPEN and c not in field.mined)
        field = rules.apply(field, ("open", *divmod(cell, field.cols)))
        view = open_cell(client, game, *divmod(cell, field.cols))
    assert view["status"] == "won"


def lose(client: httpx.Client, game: dict[str, Any]) -> None:
    rules = MINESWEEPER.game
    parsed = parse_game_id(rules, game["id"])
    field = rules.apply(rules.deal(parsed.params, parsed.rng(rules)), ("open", 7, 7))
    open_cell(client, game, 7, 7)
    assert open_cell(client, game, *divmod(min(field.mined), field.cols))["status"] == "lost"


def test_the_api_gives_each_solitaires_deal_of_the_day(client: TestClient) -> None:
    today = utc_today()
    games = report(client, today)
    assert list(games) == list(SOLITAIRES)
    for name, entry in games.items():
        assert entry["id"].endswith(f"#daily-{today}")
        assert parse_game_id(GAMES[name].game, entry["id"]).seed == f"daily-{today}"
        assert entry["today"] is None and entry["current_streak"] == 0
        assert [day["outcome"] for day in entry["recent"]] == ["unplayed"] * 7
    assert games["minesweeper"]["board"] == "Medium 15×15"


def test_the_days_first_game_is_its_result_and_a_second_changes_nothing(
    client: TestClient,
) -> None:
    today = utc_today()
    daily_id = report(client, today)["minesweeper"]["id"]
    first = started(client, daily_id)
    entry = report(client, today)["minesweeper"]
    assert entry["today"]["session"] == first["session"]
    assert entry["today"]["outcome"] == "playing"
    win(client, first)
    entry = report(client, today)["minesweeper"]
    assert entry["today"]["outcome"] == "won" and entry["today"]["assisted"] is False
    assert entry["today"]["time_shown"] == "0.00"  # "Won in 0.00": as the end card writes it
    assert (entry["played"], entry["won"], entry["current_streak"], entry["best_streak"]) == (
        1, 1, 1, 1)
    assert entry["recent"][-1] == {"date": today, "outcome": "won", "assisted": False}
    # playing it again, and losing, is for fun: the day's result stays the first game's
    lose(client, started(client, daily_id))
    again = report(client, today)["minesweeper"]
    assert again["today"]["session"] == first["session"] and again["won"] == 1
    # and the next day, the streak stands until that day's deal is played
    tomorrow = (dt.date.fromisoformat(today) + dt.timedelta(days=1)).isoformat()
    if daily.is_today_somewhere(dt.date.fromisoformat(tomorrow), dt.datetime.now(dt.UTC)):
        assert report(client, tomorrow)["minesweeper"]["current_streak"] == 1


def test_a_day_lost_shows_lost_and_no_streak(client: TestClient) -> None:
    today = utc_today()
    lose(client, started(client, report(client, today)["minesweeper"]["id"]))
    entry = report(client, today)["minesweeper"]
    assert entry["today"]["outcome"] == "lost"
    assert (entry["played"], entry["won"], entry["current_streak"]) == (1, 0, 0)


def test_a_game_on_a_days_seed_started_another_day_does_not_count(client: TestClient) -> None:
    today = dt.datetime.now(dt.UTC).date()
    long_ago = today - dt.timedelta(days=30)
    old_id = daily.id_text(MINESWEEPER.game, daily.daily_id(MINESWEEPER, long_ago))
    win(client, started(client, old_id))  # the id plays, as any id does...
    entry = report(client, today.isoformat())["minesweeper"]
    assert entry["played"] == 0 and entry["best_streak"] == 0  # ...but is no daily


@pytest.mark.parametrize(("today", "reason"), [
    ("2020-01-01", "not today anywhere"),
    ("2026-13-01", "YYYY-MM-DD"),
    ("yesterday", "YYYY-MM-DD"),
    ("2026-11-26T00", "at most 10"),
])
def test_a_date_that_is_no_ones_today_is_refused(client: TestClient, today: str,
                                                 reason: str) -> None:
    reply = client.get("/api/daily", params={"today": today})
    assert reply.status_code == 422
    assert reason in reply.json()["error"]


def test_without_a_date_the_servers_own_is_today(client: TestClient) -> None:
    reply = client.get("/api/daily")
    assert reply.status_code == 200
    assert reply.json()["date"] == dt.date.fromtimestamp(time.time()).isoformat()
