"""Boards for Tribolo's tests, drawn as the contract's text: rows of B, R, G (players),
# (wall) and . (empty) from the top left; the rows and columns left out are empty."""

from __future__ import annotations

from parlour.games.tribolo.rules import HEIGHT, WIDTH, Board, board_from_rows


def rows(*top: str) -> list[str]:
    """The full 11 rows of 16 with `top` as the first rows, padded with empty cells."""
    return [row.ljust(WIDTH, ".") for row in top] + ["." * WIDTH] * (HEIGHT - len(top))


def board(*top: str) -> Board:
    return board_from_rows(rows(*top))
