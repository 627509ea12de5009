"""Saved game files for tests and benchmarks of POST /api/games/import."""

from __future__ import annotations

from typing import Any

EIGHT_BY_EIGHT = ",".join(str(tile) for tile in [*range(1, 63), 0, 63])
"""An 8x8 sliding position one slide from solved: the gap left of the last tile."""


def to_and_fro_file(moves: int, picture: str | None = None) -> dict[str, Any]:
    """A legal 8x8 sliding game file of `moves` moves: the tile left of the gap slides
    right and back again, so the puzzle is never solved and every move is replayed.
    `picture`: an upload id its game id names, for files that carry a picture."""
    params = "rows=8,cols=8" + (f",picture={picture}" if picture else "")
    to, fro = {"cell": [7, 5]}, {"cell": [7, 6]}
    return {
        "format": "parlour-saved-game", "version": 1, "game": "sliding",
        "id": f"sliding:{params}:{EIGHT_BY_EIGHT}", "seats": ["human"],
        "moves": [to if ply % 2 == 0 else fro for ply in range(moves)],
        "cursor": moves, "assisted": False, "elapsed_ms": 1000, "uploads": {},
    }
