"""The results as CSV for a spreadsheet: one row per finished game of each player, in
the order they finished, dated in local time, with the game id that deals it again.

Cells are quoted where CSV needs it (commas, quotes, line breaks), and a text cell that
a spreadsheet would read as a formula (=, +, -, @ first) starts with an apostrophe."""

from __future__ import annotations

import csv
import io
import time
from collections.abc import Mapping, Sequence

from parlour.core.game import GameSpec
from parlour.core.times import seconds
from parlour.store.rows import Result

# A time to the tenth of a second, or as finely as the game's players read it (4.32).
LEAST_PLACES = 1
COLUMNS = ("Date", "Game", "Board", "Players", "Seat", "Result", "Score", "Time (s)",
           "Moves", "With help", "Game id")
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_OUTCOMES = {"won": "Won", "lost": "Lost", "draw": "Draw"}


def results_csv(results: Sequence[Result], game_ids: Mapping[str, str],
                games: Mapping[str, GameSpec]) -> str:
    """`results` as CSV text (a byte-order mark first, so spreadsheets read UTF-8);
    `game_ids`: each session's game id."""
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    for result in results:
        writer.writerow(_row(result, game_ids.get(result.sid, ""), games.get(result.game)))
    return out.getvalue()


def _row(result: Result, game_id: str, spec: GameSpec | None) -> list[str]:
    title = spec.game.title if spec else result.game
    board = spec.game.preset_label(result.preset) if spec else result.preset
    return [
        time.strftime("%Y-%m-%d %H:%M", time.localtime(result.finished)),
        _text(title), _text(board), _text(result.mode), _text(result.seat_name),
        _OUTCOMES.get(result.outcome, _text(result.outcome)),
        "" if result.score is None else str(result.score),
        seconds(result.elapsed_ms, max(LEAST_PLACES, spec.time_places if spec else 0)),
        str(result.moves),
        "yes" if result.assisted else "no", _text(game_id),
    ]


def _text(value: str) -> str:
    """A text cell no spreadsheet runs as a formula."""
    return "'" + value if value.startswith(_FORMULA_START) else value
