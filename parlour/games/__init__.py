"""The games Parlour offers. Adding a game: add its folder, then one line here."""

from parlour.core.game import GameSpec
from parlour.games.ishido import SPEC as ISHIDO
from parlour.games.minesweeper import SPEC as MINESWEEPER
from parlour.games.tictactoe import SPEC as TICTACTOE

GAMES: dict[str, GameSpec] = {spec.name: spec for spec in (ISHIDO, TICTACTOE, MINESWEEPER)}
