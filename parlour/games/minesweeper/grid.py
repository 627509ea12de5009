"""Cells of a rows × cols grid, numbered row by row, and their neighbours."""

from __future__ import annotations

from functools import cache

Cell = int  # row * cols + col


@cache
def neighbours(rows: int, cols: int) -> tuple[tuple[Cell, ...], ...]:
    """For each cell, the up to eight cells around it (computed once per size)."""
    around = []
    for row in range(rows):
        for col in range(cols):
            around.append(
                tuple(
                    r * cols + c
                    for r in range(max(0, row - 1), min(rows, row + 2))
                    for c in range(max(0, col - 1), min(cols, col + 2))
                    if (r, c) != (row, col)
                )
            )
    return tuple(around)


def counts_of(rows: int, cols: int, mined: frozenset[Cell]) -> tuple[int, ...]:
    """The number of mines around each cell."""
    around = neighbours(rows, cols)
    return tuple(sum(n in mined for n in around[cell]) for cell in range(rows * cols))
