"""Game ids: a deal anyone can reproduce, now and after Parlour changes.

Two forms, as in Tatham's puzzles:

- `<game>:<params>#<seed>` — a deal made from a random seed, e.g. `minesweeper:expert#k3f9a2`;
- `<game>:<params>:<position>` — a start position the player gives, in the form the
  game documents in the catalog, e.g. Minesweeper's mine layout.

`params` is a preset name, or `name=value` pairs (`rows=10,cols=12,mines=20`), or a preset
followed by overrides. The seed is any short string of letters, digits, `-` and `_`.

A game that changes how it deals from a seed bumps its `deal_version` and keeps the old
dealer; ids of later versions say theirs after the game's name (`minesweeper@2:...`), so
an id (and a saved game) keeps its deal for good. A game whose parameters' defaults
change says the old ones in `old_defaults`: an id of an earlier version that leaves a
parameter out still means what it meant (`minesweeper:medium#…`, a safe first click).
"""

from __future__ import annotations

import random
import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from parlour.core.game import BadParams, Game, Params

_SEED = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
_POSITION = re.compile(r"^[A-Za-z0-9_.,/*-]{1,4096}$")
_NAME = re.compile(r"^([a-z0-9_]+)(?:@([1-9][0-9]{0,3}))?$")
_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"  # Crockford's base 32, lower case


def new_seed() -> str:
    bits = secrets.randbits(50)
    return "".join(_ALPHABET[(bits >> shift) & 31] for shift in range(45, -1, -5))


@dataclass(frozen=True)
class GameId:
    game: str
    params: Params
    seed: str | None
    version: int = 1  # the game's deal version the seed is dealt with
    position: str | None = None  # a start position given instead of a seed

    def text(self, game: Game[Any, Any]) -> str:
        name = self.game if self.version == 1 else f"{self.game}@{self.version}"
        params = params_text(game, self.params, self.version)
        if self.position is not None:
            return f"{name}:{params}:{self.position}"
        return f"{name}:{params}#{self.seed}"

    def rng(self, game: Game[Any, Any]) -> random.Random:
        """The deal's generator: a function of the game, every parameter and the seed
        (or the position given)."""
        expanded = ",".join(f"{k}={v}" for k, v in self.params.items())
        chance = self.seed if self.position is None else f":{self.position}"
        return random.Random(f"{self.game}:{expanded}#{chance}")

    def deal(self, game: Game[Any, Any]) -> Any:
        """The start position this id stands for."""
        if self.position is not None:
            return game.parse_position(self.params, self.position)
        return game.deal_of_version(self.version, self.params, self.rng(game))

    def uploads(self, game: Game[Any, Any]) -> list[str]:
        """The uploaded pictures this id names (its parameters of kind "upload"): the id
        means this deal only where those pictures are kept."""
        return [
            str(self.params[param.name])
            for param in game.parameters
            if param.names_upload(self.params.get(param.name))
        ]


CUSTOM_POSITION = "custom position"
IMPORTED = "imported"
SHOWN = "shown by the solver"
FILED_APART = (CUSTOM_POSITION, IMPORTED, SHOWN)
"""The statistics groups of games not played here from their deal: a start position the
player gave, a game imported from a file (its moves and clock were never seen by this
server), and a game the solver played to its end (a solution played out; a game opened
on a solver's winning line, whatever is then played in it: its player has seen the
line). Like lichess's casual games they are counted apart and set no
records: anyone can write an id one move from the end, or a file's figures, and a win
the solver showed is not the player's, nor is its loss (PySolFC's demo counts neither)."""


def stat_group(game: Game[Any, Any], game_id: GameId, imported: bool = False,
               shown: bool = False) -> str:
    """The statistics group of a game of `game_id`: its board (`Game.stat_group`) when
    it was dealt here and played by its players, else one of `FILED_APART`."""
    if shown:
        return SHOWN
    if imported:
        return IMPORTED
    if game_id.position is not None:
        return CUSTOM_POSITION
    return game.stat_group(game_id.params)


def params_text(game: Game[Any, Any], params: Params, version: int | None = None) -> str:
    """`params` as an id of deal `version` (default: the game's) writes them: the preset
    they are (with that version's defaults), or every parameter."""
    preset = game.preset_of(params)
    if preset is not None and params == game.validate(
            {**_old_defaults(game, version), **game.presets[preset]}):
        return preset
    return ",".join(f"{k}={_value_text(v)}" for k, v in params.items())


def _old_defaults(game: Game[Any, Any], version: int | None) -> Params:
    return dict(game.old_defaults.get(game.deal_version if version is None else version, {}))


def _value_text(value: int | str | bool) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def parse_params(game: Game[Any, Any], text: str, version: int | None = None) -> Params:
    """The parameters an id of deal `version` (default: the game's) writes as `text`."""
    chosen: dict[str, object] = dict(_old_defaults(game, version))
    for part in filter(None, (piece.strip() for piece in text.split(","))):
        name, equals, value = part.partition("=")
        if equals:
            chosen[name.strip()] = value.strip()
        elif part in game.presets:
            chosen |= game.presets[part]
        else:
            raise BadParams(f"unknown preset {part[:40]!r} for {game.name}")
    return game.validate(chosen)


def parse_game_id(game: Game[Any, Any], text: str) -> GameId:
    """Read an id for `game`; raise BadParams with a reason if it is not one."""
    head, colon, rest = text.strip().partition(":")
    named = _NAME.match(head)
    if not colon or named is None or named.group(1) != game.name:
        raise BadParams(f"a {game.name} game id starts with '{game.name}:'")
    version = int(named.group(2) or 1)
    if version > game.deal_version:
        raise BadParams(
            f"this deal was made by a newer Parlour (deal version {version}; this one knows "
            f"up to {game.deal_version}): update Parlour to play it"
        )
    if "#" in rest:
        params, _, seed = rest.partition("#")
        if not _SEED.match(seed):
            raise BadParams("a game id ends with '#' and a seed: 1 to 40 letters, digits, "
                            "'-' or '_'")
        return GameId(game.name, parse_params(game, params, version), seed, version)
    params, colon, position = rest.partition(":")  # a colon after it is the position's fault
    if not colon:
        raise BadParams(
            "a game id ends with '#' and a seed, or ':' and a start position "
            f"({game.position_help or 'which ' + game.title + ' does not take'})"
        )
    if not _POSITION.match(position):
        raise BadParams("a start position is letters, digits and . , / * - _")
    game_id = GameId(game.name, parse_params(game, params, version), None, version, position)
    game.parse_position(game_id.params, position)  # refused here, with its reason
    return game_id


def position_id(game: Game[Any, Any], params: Mapping[str, object]) -> GameId:
    """The id of a start position given among a new game's parameters, under the game's
    `position_param` (e.g. Sliding's `tiles`); BadParams if it is not one."""
    rest = {name: value for name, value in params.items() if name != game.position_param}
    position = str(params[game.position_param]).replace(" ", "")
    if not _POSITION.match(position):
        raise BadParams(f"{game.position_param}: a start position is letters, digits "
                        "and . , / * - _")
    game_id = GameId(game.name, game.validate(rest), None, game.deal_version, position)
    game.parse_position(game_id.params, position)  # refused here, with its reason
    return game_id


def board_words(game: Game[Any, Any], text: str) -> str | None:
    """The board or rules of the id `text` in the game's own words (`Game.summary`:
    Minesweeper's "Expert 16×30"); None for an id this Parlour does not read (one from a
    Parlour that took other parameters)."""
    try:
        return game.summary(parse_game_id(game, text).params)
    except BadParams:
        return None
