"""Daily deals: one deal a day per solitaire, the same on every machine, made from the date
and the game alone (no network).

The daily deal of a date is an ordinary game id whose seed names the date,
`<game>@<version>:<every parameter>#daily-YYYY-MM-DD`: the game's deal version and every
parameter written out, so that the id deals the same board for good, even once the game's
presets, defaults or dealer change (`gameid`: deal versions, `old_defaults`). Which date is
"today" is the player's own (their local calendar); the deal of a date depends on nothing
else. A game is that day's daily when its seed names the date and its parameters are the
daily's: a game dealt with the same seed on another board is not.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from parlour.core.game import BadParams, Game, GameSpec, Params
from parlour.core.gameid import GameId

SEED_PREFIX = "daily-"
_DAILY_SEED = re.compile(r"^daily-(\d{4}-\d{2}-\d{2})$")
# A date is somebody's today from its midnight in UTC+14 (14 hours before its UTC
# midnight) to its end in UTC-12 (12 hours after the end of its UTC day).
EARLIEST_OFFSET = dt.timedelta(hours=14)
LATEST_OFFSET = dt.timedelta(hours=12)


def has_daily(spec: GameSpec) -> bool:
    """Solitaires with a deal to share have a daily deal (Tic Tac Toe has neither)."""
    game = spec.game
    return game.random_deal and len(game.seat_names(daily_params(spec))) == 1


def daily_params(spec: GameSpec) -> Params:
    """The parameters of the game's daily deal: its `daily_preset`, or else the preset a
    newcomer's new game has, or else the defaults."""
    game = spec.game
    preset = spec.daily_preset or game.new_game_preset
    return game.validate(game.presets[preset] if preset else {})


def seed_of(day: dt.date) -> str:
    return f"{SEED_PREFIX}{day.isoformat()}"


def daily_id(spec: GameSpec, day: dt.date) -> GameId:
    """The daily deal of `day` (the player's local date)."""
    return GameId(spec.name, daily_params(spec), seed_of(day), spec.game.deal_version)


def id_text(game: Game[Any, Any], game_id: GameId) -> str:
    """`game_id` with its version and every parameter written out, not a preset's name,
    so that the text keeps its deal should the game's presets or defaults change."""
    params = ",".join(f"{name}={_value(value)}" for name, value in game_id.params.items())
    return f"{game_id.game}@{game_id.version}:{params}#{game_id.seed}"


def _value(value: int | str | bool) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def day_of(seed: str | None) -> dt.date | None:
    """The date a daily seed names; None if it names none."""
    named = _DAILY_SEED.match(seed or "")
    if named is None:
        return None
    try:
        return dt.date.fromisoformat(named.group(1))
    except ValueError:
        return None


def daily_day(spec: GameSpec, game_id: GameId) -> dt.date | None:
    """The date whose daily deal `game_id` is (whatever deal version dealt it), or None if
    it is no daily deal: another seed, or the seed on a board other than the daily's."""
    day = day_of(game_id.seed)
    if day is None or game_id.game != spec.name or game_id.position is not None:
        return None
    return day if game_id.params == daily_params(spec) else None


def is_today_somewhere(day: dt.date, moment: dt.datetime) -> bool:
    """Whether `day` is the local date somewhere on Earth at `moment` (time zones run from
    UTC-12 to UTC+14): a daily deal is played on its own day, not days before or after."""
    utc = moment.astimezone(dt.UTC).replace(tzinfo=None)
    midnight = dt.datetime.combine(day, dt.time())
    return midnight - EARLIEST_OFFSET <= utc < midnight + dt.timedelta(days=1) + LATEST_OFFSET


def parse_day(text: str) -> dt.date:
    """A date given as YYYY-MM-DD; BadParams if it is not one."""
    try:
        if len(text) != 10:
            raise ValueError
        return dt.date.fromisoformat(text)
    except ValueError:
        raise BadParams("a date is written YYYY-MM-DD") from None
