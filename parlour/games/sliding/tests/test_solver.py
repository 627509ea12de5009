"""The sliding puzzle solver against distances found independently.

References here share no code with the solver: a breadth-first search over every 8-puzzle
position, one over 15-puzzle positions near the goal, one over each small pattern space,
Korf's published optimal lengths, the inversion-count rule for solvability, and a replay
of every solution that checks each move slides a tile next to the gap.

The pattern databases are built once per test run into the run's own tables folder
(conftest.py): about 7 s of CPU for the 15-puzzle's, the slowest part of this file.
"""

from __future__ import annotations

import io
import itertools
import math
import random
import zlib
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.core import progress, tables
from parlour.games.sliding import patterns
from parlour.games.sliding.logic import Picture, Puzzle
from parlour.games.sliding.solver import Solution, fewest_moves, is_solvable, solve

Position = tuple[int, ...]

# Korf's instances (his convention: goal 0 1 .. 15, the gap top left), number: (tiles,
# published optimal length), chosen among those that solve in milliseconds.
KORF = {
    2: ("13 5 4 10 9 12 8 14 2 3 7 1 0 15 11 6", 55),
    6: ("14 7 1 9 12 3 6 15 8 11 2 5 10 0 4 13", 52),
    9: ("3 14 9 11 5 4 8 2 13 12 6 7 10 1 15 0", 46),
    12: ("14 1 9 6 4 8 12 5 7 2 3 0 10 11 13 15", 45),
    19: ("7 11 8 3 14 0 6 15 1 4 13 9 5 12 2 10", 46),
    42: ("4 5 7 2 9 14 12 13 0 3 6 11 8 1 15 10", 42),
    55: ("13 8 14 3 9 1 0 7 15 5 4 10 12 2 6 11", 41),
    71: ("5 7 0 11 12 1 9 10 15 6 2 3 8 4 13 14", 44),
}


def korf_to_ours(line: str) -> Position:
    """Turn the board by 180 degrees and renumber tile t as 16 - t: the goal becomes
    1..15 with the gap bottom right, and every distance stays the same."""
    return tuple((16 - int(tile)) % 16 for tile in reversed(line.split()))


def goal(rows: int, cols: int) -> Position:
    return (*range(1, rows * cols), 0)


def neighbours(cell: int, rows: int, cols: int) -> Iterator[int]:
    row, col = divmod(cell, cols)
    for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
        if 0 <= r < rows and 0 <= c < cols:
            yield r * cols + c


def slid(tiles: Position, cell: int) -> Position:
    """The position after the tile at `cell` slides into the gap next to it."""
    board = list(tiles)
    gap = board.index(0)
    board[gap], board[cell] = board[cell], 0
    return tuple(board)


def replay(rows: int, cols: int, tiles: Sequence[int], moves: Sequence[int]) -> Position:
    position = tuple(tiles)
    for cell in moves:
        assert cell in neighbours(position.index(0), rows, cols), "a move not next to the gap"
        position = slid(position, cell)
    return position


def assert_solves(rows: int, cols: int, tiles: Sequence[int], solution: Solution) -> None:
    assert replay(rows, cols, tiles, solution.moves) == goal(rows, cols)


def distances(rows: int, cols: int, depth: int | None = None) -> dict[Position, int]:
    """Breadth-first search from the goal: every position within `depth` moves."""
    found = {goal(rows, cols): 0}
    todo = deque(found)
    while todo:
        position = todo.popleft()
        if found[position] == depth:
            continue
        for cell in neighbours(position.index(0), rows, cols):
            following = slid(position, cell)
            if following not in found:
                found[following] = found[position] + 1
                todo.append(following)
    return found


def random_walk(rows: int, cols: int, steps: int, rng: random.Random) -> Position:
    position = goal(rows, cols)
    for _ in range(steps):
        position = slid(position, rng.choice(list(neighbours(position.index(0), rows, cols))))
    return position


def uniform(rows: int, cols: int, rng: random.Random) -> Position:
    """A uniformly random solvable position: a shuffle, two tiles swapped if needed."""
    tiles = list(range(rows * cols))
    rng.shuffle(tiles)
    if not inversion_rule(rows, cols, tiles):
        first, second = [i for i, tile in enumerate(tiles) if tile][:2]
        tiles[first], tiles[second] = tiles[second], tiles[first]
    return tuple(tiles)


def inversion_rule(rows: int, cols: int, tiles: Sequence[int]) -> bool:
    """The textbook test: inversions among the tiles, plus on even widths the gap's row
    counted from the bottom, must be even."""
    numbers = [tile for tile in tiles if tile]
    inversions = sum(a > b for i, a in enumerate(numbers) for b in numbers[i + 1:])
    if cols % 2:
        return inversions % 2 == 0
    return (inversions + rows - 1 - list(tiles).index(0) // cols) % 2 == 0


@pytest.fixture(scope="module")
def eight_distances() -> dict[Position, int]:
    return distances(3, 3)


# -- the 8-puzzle against every position -----------------------------------------------

def test_the_8_puzzle_has_two_positions_31_moves_away_and_both_are_solved_in_31(
        eight_distances: dict[Position, int]) -> None:
    assert len(eight_distances) == 181_440  # half of 9!: the solvable positions
    farthest = [position for position, moves in eight_distances.items() if moves == 31]
    assert sorted(farthest) == [(6, 4, 7, 8, 5, 0, 3, 2, 1), (8, 6, 7, 2, 5, 4, 3, 0, 1)]
    for position in farthest:
        solution = solve(3, 3, position)
        assert len(solution.moves) == 31 and solution.optimal
        assert_solves(3, 3, position, solution)


def test_8_puzzle_solutions_are_shortest(eight_distances: dict[Position, int]) -> None:
    rng = random.Random(8)
    for position in rng.sample(sorted(eight_distances), 300):
        solution = solve(3, 3, position)
        assert len(solution.moves) == eight_distances[position]
        assert_solves(3, 3, position, solution)


def test_8_puzzle_estimate_never_exceeds_the_distance(
        eight_distances: dict[Position, int]) -> None:
    database = patterns.for_side(3)
    rng = random.Random(9)
    for position in rng.sample(sorted(eight_distances), 5000):
        assert database.estimate(position) <= eight_distances[position]
    assert database.estimate(goal(3, 3)) == 0


# -- the 15-puzzle ----------------------------------------------------------------------

@pytest.mark.parametrize("number", sorted(KORF))
def test_korf_instances_are_solved_in_their_published_optimal_length(number: int) -> None:
    line, length = KORF[number]
    tiles = korf_to_ours(line)
    solution = solve(4, 4, tiles)
    assert len(solution.moves) == length
    assert solution.optimal and solution.nodes > 0
    assert_solves(4, 4, tiles, solution)
    assert patterns.for_side(4).estimate(tiles) <= length


def test_15_puzzle_near_the_goal_estimates_are_admissible_and_solutions_shortest() -> None:
    near = distances(4, 4, depth=13)
    database = patterns.for_side(4)
    for position, moves in near.items():
        assert database.estimate(position) <= moves
    rng = random.Random(15)
    for position in rng.sample(sorted(near), 200):
        solution = solve(4, 4, position)
        assert len(solution.moves) == near[position]
        assert_solves(4, 4, position, solution)


def test_random_15_puzzles_are_solved_no_longer_than_their_shuffle() -> None:
    rng = random.Random(16)
    for steps in (1, 2, 5, 20, 35):
        position = random_walk(4, 4, steps, rng)
        solution = solve(4, 4, position)
        assert len(solution.moves) <= steps and len(solution.moves) % 2 == steps % 2
        assert_solves(4, 4, position, solution)
        assert patterns.for_side(4).estimate(position) <= len(solution.moves)


@pytest.mark.parametrize("rows", [3, 4])
def test_a_solved_board_needs_no_move(rows: int) -> None:
    assert solve(rows, rows, goal(rows, rows)) == Solution((), optimal=True, nodes=0)


# -- the pattern databases --------------------------------------------------------------

@pytest.mark.parametrize("side", [3, 4])
def test_the_groups_hold_every_tile_once(side: int) -> None:
    database = patterns.for_side(side)
    tiles = sorted(tile for group in database.groups for tile in group)
    assert tiles == list(range(1, side * side))
    for group, offset in zip(database.groups, database.offsets, strict=True):
        home = sum(database.weights[tile, tile - 1] for tile in group)
        assert database.values[offset + home] == 0
    assert database.estimate(goal(side, side)) == 0


def pattern_distances(side: int, group: Sequence[int]) -> dict[tuple[int, ...], int]:
    """Moves of the group's tiles only, from the goal, to every placement of them: a
    0-1 breadth-first search over (their cells, the gap's cell) where moving another
    tile costs nothing."""
    start = (tuple(tile - 1 for tile in group), side * side - 1)
    cost = {start: 0}
    todo = deque([start])
    while todo:
        state = todo.popleft()
        cells, gap = state
        for source in neighbours(gap, side, side):
            moved = tuple(gap if cell == source else cell for cell in cells)
            step = 1 if source in cells else 0
            following = (moved, source)
            if cost[state] + step < cost.get(following, 1 << 30):
                cost[following] = cost[state] + step
                (todo.append if step else todo.appendleft)(following)
    best: dict[tuple[int, ...], int] = {}
    for (cells, _), moves in cost.items():
        best[cells] = min(moves, best.get(cells, moves))
    return best


@pytest.mark.parametrize(("side", "number"), [(3, 0), (3, 1), (4, 2)])
def test_small_groups_match_an_independent_search(side: int, number: int) -> None:
    database = patterns.for_side(side)
    group = database.groups[number]
    expected = pattern_distances(side, group)
    assert len(expected) == math.perm(side * side, len(group))  # every placement reached
    offset = database.offsets[number]
    for cells, moves in expected.items():
        index = sum(cell << (4 * slot) for slot, cell in enumerate(cells))
        assert database.values[offset + index] == moves


def test_a_left_right_mirror_group_reads_the_table_it_mirrors() -> None:
    """The 6-6-3 split stores one six-tile table: its right half mirrors its left."""
    assert patterns.sources(4, patterns.FIFTEEN_GROUPS) == [None, 0, None]
    left, _ = patterns.build_group(4, (1, 5, 9))
    right, _ = patterns.build_group(4, (4, 8, 12))  # tiles 1, 5, 9 mirrored
    mirror = patterns.left_right(4)
    for a, b, c in itertools.permutations(range(16), 3):
        mirrored = mirror[a] | mirror[b] << 4 | mirror[c] << 8
        assert right[a | b << 4 | c << 8] == left[mirrored]


def test_a_database_is_built_with_progress_written_and_read_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(tables.FOLDER_VARIABLE, str(tmp_path))
    monkeypatch.setattr(progress, "MIN_INTERVAL", 0.0)  # hear every report
    tables.forget(patterns.EIGHT)
    heard: list[tuple[float | None, str]] = []
    try:
        with progress.listening(lambda done, note: heard.append((done, note))):
            built = tables.get(patterns.EIGHT)
        shares = [done for done, _ in heard if done is not None]
        assert shares == sorted(shares) and shares[-1] == 1.0
        assert {note for _, note in heard} == {"Building the 8-puzzle pattern database"}
        tables.forget(patterns.EIGHT)
        read = tables.get(patterns.EIGHT)
        assert read.groups == built.groups and (read.values == built.values).all()
    finally:
        tables.forget(patterns.EIGHT)


def test_a_database_file_of_the_wrong_size_is_refused() -> None:
    database = patterns.for_side(3)
    file = io.BytesIO()
    patterns.dump(database, file)
    header, _ = file.getvalue().split(b"\n", 1)
    short = header + b"\n" + zlib.compress(database.values[:-1].tobytes())
    with pytest.raises(ValueError, match="wrong size"):
        patterns.load(io.BytesIO(short))


# -- solvability and refusals -----------------------------------------------------------

shapes = st.tuples(st.integers(3, 8), st.integers(3, 8))


@settings(max_examples=300, deadline=None)
@given(shapes, st.randoms(use_true_random=False))
def test_solvable_exactly_when_the_inversion_rule_says(
        shape: tuple[int, int], rng: random.Random) -> None:
    rows, cols = shape
    tiles = list(range(rows * cols))
    rng.shuffle(tiles)
    assert is_solvable(rows, cols, tiles) == inversion_rule(rows, cols, tiles)


@settings(max_examples=100, deadline=None)
@given(shapes, st.integers(0, 200), st.randoms(use_true_random=False))
def test_shuffles_are_solvable_and_two_swapped_tiles_are_not(
        shape: tuple[int, int], steps: int, rng: random.Random) -> None:
    rows, cols = shape
    position = list(random_walk(rows, cols, steps, rng))
    assert is_solvable(rows, cols, position)
    first, second = rng.sample([i for i, tile in enumerate(position) if tile], 2)
    position[first], position[second] = position[second], position[first]
    assert not is_solvable(rows, cols, position)
    with pytest.raises(ValueError, match="cannot be solved"):
        solve(rows, cols, position)


@pytest.mark.parametrize(("rows", "cols", "tiles", "message"), [
    (2, 3, (1, 2, 3, 4, 5, 0), "rows must be"),
    (3, 9, tuple(range(27)), "cols must be"),
    (3, 3, (1, 2, 3, 4, 5, 6, 7, 0), "numbers 0 to 8"),
    (3, 3, (1, 2, 3, 4, 5, 6, 7, 7, 0), "numbers 0 to 8"),
    (3, 3, (1, 2, 3, 4, 5, 6, 7, 8, 9), "numbers 0 to 8"),
    (3, 3, (1, 2, 3, 4, 5, 6, 8, 7, 0), "cannot be solved"),
])
def test_malformed_and_unsolvable_positions_are_refused(
        rows: int, cols: int, tiles: Position, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        solve(rows, cols, tiles)


def test_sides_must_be_whole_numbers() -> None:
    with pytest.raises(ValueError, match="rows must be"):
        solve(3.0, 3, goal(3, 3))  # type: ignore[arg-type]


# -- larger boards ------------------------------------------------------------------------

@pytest.mark.parametrize(("rows", "cols", "longest"), [
    (5, 5, 250), (3, 5, 110), (5, 3, 110), (4, 6, 250), (8, 3, 300), (3, 8, 300),
    (8, 8, 1200), (6, 8, 800),
])
def test_larger_boards_get_a_short_solution(rows: int, cols: int, longest: int) -> None:
    rng = random.Random(rows * 10 + cols)
    for _ in range(3):
        position = uniform(rows, cols, rng)
        solution = solve(rows, cols, position)
        assert not solution.optimal
        assert_solves(rows, cols, position, solution)
        assert len(solution.moves) <= longest  # about twice the shortest at most


@settings(max_examples=40, deadline=None)
@given(shapes, st.integers(0, 60), st.randoms(use_true_random=False))
def test_every_shape_is_solved(shape: tuple[int, int], steps: int, rng: random.Random) -> None:
    rows, cols = shape
    position = random_walk(rows, cols, steps, rng)
    solution = solve(rows, cols, position)
    assert_solves(rows, cols, position, solution)
    assert solution.optimal == (rows == cols and rows <= 4)
    if solution.optimal:
        assert len(solution.moves) <= steps


def test_the_fewest_moves_possible_are_told_where_proved_and_once_solved(
    eight_distances: dict[Position, int],
) -> None:
    """The end card's "fewest possible" (`fewest_moves`): the 8-puzzle's true distance
    from the start, met only by a game that moved no more tiles; none on a board the
    solver does not prove, nor before the puzzle is solved."""
    picture = Picture("meadow")
    start = next(p for p, d in eight_distances.items() if d == 20)
    end = Puzzle(3, 3, goal(3, 3), picture, moved=20)
    found = fewest_moves(Puzzle(3, 3, start, picture), end)
    assert found is not None and (found.caption, found.value) == ("fewest possible", 20)
    assert found.met
    longer = fewest_moves(Puzzle(3, 3, start, picture), replace(end, moved=22))
    assert longer is not None and longer.value == 20 and not longer.met
    assert fewest_moves(Puzzle(3, 3, start, picture), Puzzle(3, 3, start, picture)) is None
    five = Puzzle(5, 5, goal(5, 5), picture)
    assert fewest_moves(five, five) is None


def test_the_fewest_moves_of_a_start_too_hard_to_prove_soon_are_not_told() -> None:
    """One of the 15-puzzle's hardest starts (80 moves; a minute of search): the end card
    gets none, once the search has used its `FEWEST_NODES`, rather than a worker's minute
    for whoever asks; a start within reach is told."""
    picture = Picture("meadow")
    hardest = korf_to_ours("15 14 8 12 10 11 9 13 2 6 5 1 3 7 4 0")
    solved = Puzzle(4, 4, goal(4, 4), picture, moved=90)
    assert fewest_moves(Puzzle(4, 4, hardest, picture), solved) is None
    number, (tiles, length) = next(iter(KORF.items()))
    found = fewest_moves(Puzzle(4, 4, korf_to_ours(tiles), picture), solved)
    assert found is not None and found.value == length, number
