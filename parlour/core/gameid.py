"""Game ids: `<game>:<params>#<seed>`, a deal anyone can reproduce.

`params` is a preset name (`minesweeper:expert#k3f9a2`), or `name=value` pairs
(`minesweeper:rows=10,cols=12,mines=20,first_click=safe#k3f9a2`), or a preset followed
by overrides. The seed is any short string of letters, digits, `-` and `_`.
"""

from __future__ import annotations

import random
import re
import secrets
from dataclasses import dataclass
from typing import Any

from parlour.core.game import BadParams, Game, Params

_SEED = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"  # Crockford's base 32, lower case


def new_seed() -> str:
    bits = secrets.randbits(50)
    return "".join(_ALPHABET[(bits >> shift) & 31] for shift in range(45, -1, -5))


@dataclass(frozen=True)
class GameId:
    game: str
    params: Params
    seed: str

    def text(self, game: Game[Any, Any]) -> str:
        return f"{self.game}:{params_text(game, self.params)}#{self.seed}"

    def rng(self, game: Game[Any, Any]) -> random.Random:
        """The deal's generator: a function of the game, every parameter and the seed."""
        expanded = ",".join(f"{k}={v}" for k, v in self.params.items())
        return random.Random(f"{self.game}:{expanded}#{self.seed}")


def params_text(game: Game[Any, Any], params: Params) -> str:
    preset = game.preset_of(params)
    if preset is not None:
        return preset
    return ",".join(f"{k}={_value_text(v)}" for k, v in params.items())


def _value_text(value: int | str | bool) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def parse_params(game: Game[Any, Any], text: str) -> Params:
    chosen: dict[str, object] = {}
    for part in filter(None, (piece.strip() for piece in text.split(","))):
        name, equals, value = part.partition("=")
        if equals:
            chosen[name.strip()] = value.strip()
        elif part in game.presets:
            chosen |= game.presets[part]
        else:
            raise BadParams(f"unknown preset {part!r} for {game.name}")
    return game.validate(chosen)


def parse_game_id(game: Game[Any, Any], text: str) -> GameId:
    """Read an id for `game`; raise BadParams with a reason if it is not one."""
    name, colon, rest = text.strip().partition(":")
    if not colon or name != game.name:
        raise BadParams(f"a {game.name} game id starts with '{game.name}:'")
    params, hash_mark, seed = rest.partition("#")
    if not hash_mark or not _SEED.match(seed):
        raise BadParams("a game id ends with '#' and a seed of letters and digits")
    return GameId(game.name, parse_params(game, params), seed)
