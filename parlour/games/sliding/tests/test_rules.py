"""The sliding puzzle's rules: line slides, refused cells with their reasons, shuffles that
can always be solved, and start positions that cannot be refused."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.core.game import BadParams, IllegalMove, Status
from parlour.games.sliding.logic import (
    DIFFICULTIES,
    QUICK_WALK,
    SEED_STEPS,
    STEPS_MOST,
    Puzzle,
    Slide,
    Sliding,
    goal,
    is_solvable,
    slide,
    uniform,
    walk,
)

GAME = Sliding()
sizes = st.integers(min_value=3, max_value=8)


def position(rows: int, cols: int, text: str) -> Puzzle:
    return GAME.parse_position(GAME.validate({"rows": rows, "cols": cols}), text)


def reachable(rows: int, cols: int) -> set[tuple[int, ...]]:
    """Every position single-tile slides reach from the goal (small boards only)."""
    start = goal(rows, cols)
    seen, frontier = {start}, [start]
    while frontier:
        tiles = frontier.pop()
        gap_row, gap_col = divmod(tiles.index(0), cols)
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            row, col = gap_row + dr, gap_col + dc
            if 0 <= row < rows and 0 <= col < cols:
                after = slide(rows, cols, tiles, row, col)
                if after not in seen:
                    seen.add(after)
                    frontier.append(after)
    return seen


def test_a_tile_next_to_the_gap_slides_into_it() -> None:
    puzzle = position(3, 3, "1,2,3,4,5,6,7,0,8")
    after = GAME.apply(puzzle, Slide(2, 2))
    assert after.tiles == goal(3, 3)
    assert after.moved == 1
    assert GAME.status(after) is Status.WON


def test_a_click_further_along_the_gaps_row_slides_the_whole_line() -> None:
    puzzle = position(3, 4, "1,2,3,4,5,6,7,8,0,9,10,11")
    after = GAME.apply(puzzle, Slide(2, 3))  # three tiles slide left at once
    assert GAME.text(GAME.observe(after, 0)) == " 1  2  3  4\n 5  6  7  8\n 9 10 11  ."
    assert after.moved == 3
    assert GAME.status(after) is Status.WON


def test_a_click_in_the_gaps_column_slides_that_column() -> None:
    puzzle = position(4, 3, "0,2,3,1,5,6,4,8,9,7,10,11")
    after = GAME.apply(puzzle, Slide(3, 0))
    assert after.tiles[:12:3] == (1, 4, 7, 0)
    assert after.moved == 3


@pytest.mark.parametrize(("cell", "reason"), [
    ((0, 0), "not in the gap's row or column"),
    ((1, 2), "is the gap"),
    ((3, 0), "no cell [3, 0] on a 3×3 board"),
    ((-1, 2), "no cell [-1, 2]"),
])
def test_illegal_cells_are_refused_with_a_reason(cell: tuple[int, int], reason: str) -> None:
    puzzle = position(3, 3, "1,2,3,4,5,0,7,8,6")
    with pytest.raises(IllegalMove, match=reason.replace("[", r"\[").replace("]", r"\]")):
        GAME.apply(puzzle, Slide(*cell))


def test_malformed_moves_are_refused() -> None:
    for bad in ({"cell": [1]}, {"cell": ["1", 2]}, {"tile": 3}, {"cell": [1, 2], "x": 1}, 7):
        with pytest.raises(IllegalMove, match="malformed move"):
            GAME.parse_move(bad)


def test_the_legal_moves_are_the_gaps_row_and_column() -> None:
    puzzle = position(3, 4, "1,2,3,4,5,0,7,8,9,10,11,6")
    cells = {(move.row, move.col) for move in GAME.legal_moves(puzzle)}
    assert cells == {(1, 0), (1, 2), (1, 3), (0, 1), (2, 1)}


def test_no_move_is_legal_once_solved() -> None:
    solved = position(3, 3, "1,2,3,4,5,6,7,8,0")
    assert GAME.legal_moves(solved) == ()
    assert GAME.to_move(solved) is None
    with pytest.raises(IllegalMove, match="solved"):
        GAME.apply(solved, Slide(2, 1))


def test_text_has_one_line_per_row_with_two_character_cells() -> None:
    puzzle = position(3, 4, "1,2,3,4,5,6,7,8,9,10,0,11")
    assert GAME.text(GAME.observe(puzzle, 0)) == " 1  2  3  4\n 5  6  7  8\n 9 10  . 11"


def test_the_solvability_test_agrees_with_every_position_slides_reach() -> None:
    """On 3×3 (and 3×4 by parity too) exactly the positions reachable from the goal pass."""
    rows, cols = 3, 3
    reached = reachable(rows, cols)
    every = list(itertools.permutations(range(rows * cols)))
    assert len(reached) == len(every) // 2
    assert all(is_solvable(rows, cols, tiles) == (tiles in reached) for tiles in every)


@pytest.mark.parametrize("text", ["2,1,3,4,5,6,7,8,0", "1,2,3,4,5,6,8,7,0"])
def test_an_unsolvable_start_position_is_refused(text: str) -> None:
    with pytest.raises(BadParams, match="no sequence of slides can solve"):
        position(3, 3, text)


@pytest.mark.parametrize(("text", "reason"), [
    ("1,2,3", "each of the numbers 0 to 8 once"),
    ("1,2,3,4,5,6,7,8,8", "each of the numbers 0 to 8 once"),
    ("1,2,3,4,5,6,7,8,9", "each of the numbers 0 to 8 once"),
    ("1,2,x,4,5,6,7,8,0", "whole numbers"),
])
def test_a_malformed_start_position_is_refused(text: str, reason: str) -> None:
    with pytest.raises(BadParams, match=reason):
        position(3, 3, text)


@settings(max_examples=300, deadline=None)
@given(rows=sizes, cols=sizes, steps=st.integers(1, 400), seed=st.integers(0, 2**32))
def test_every_walk_shuffle_can_be_solved(rows: int, cols: int, steps: int, seed: int) -> None:
    tiles = walk(rows, cols, steps, random.Random(seed))
    assert sorted(tiles) == list(range(rows * cols))
    assert is_solvable(rows, cols, tiles)
    assert tiles != goal(rows, cols)


@settings(max_examples=300, deadline=None)
@given(rows=sizes, cols=sizes, seed=st.integers(0, 2**32))
def test_every_random_shuffle_can_be_solved(rows: int, cols: int, seed: int) -> None:
    tiles = uniform(rows, cols, random.Random(seed))
    assert is_solvable(rows, cols, tiles)
    assert tiles != goal(rows, cols)


@settings(max_examples=100, deadline=None)
@given(rows=sizes, cols=sizes, seed=st.integers(0, 2**32),
       preset=st.sampled_from(sorted(DIFFICULTIES)))
def test_every_deal_of_every_preset_can_be_solved(rows: int, cols: int, seed: int,
                                                  preset: str) -> None:
    params = GAME.validate({**DIFFICULTIES[preset], "rows": rows, "cols": cols})
    puzzle = GAME.deal(params, random.Random(seed))
    assert (puzzle.rows, puzzle.cols) == (rows, cols)
    assert is_solvable(rows, cols, puzzle.tiles)
    assert GAME.status(puzzle) is Status.PLAYING


def test_the_easy_walk_is_the_seeds_ten_steps() -> None:
    """Ten slides of the gap leave it at most ten cells from home, on an even distance."""
    assert DIFFICULTIES["easy"]["steps"] == SEED_STEPS == 10
    for seed in range(200):
        tiles = walk(4, 4, SEED_STEPS, random.Random(seed))
        gap_row, gap_col = divmod(tiles.index(0), 4)
        distance = (3 - gap_row) + (3 - gap_col)
        assert distance <= 10 and distance % 2 == 0
        assert sum(tile != home for tile, home in zip(tiles, goal(4, 4), strict=True)) <= 11


def test_a_long_walk_can_leave_the_gap_in_any_cell_of_the_board() -> None:
    """The walk's gap goes everywhere, the top row and the left column too (an even walk
    to the cells an even number of slides from its corner, an odd one to the others)."""
    ends = {walk(3, 4, steps, random.Random(seed)).index(0)
            for seed in range(300) for steps in (30, 31)}
    assert ends == set(range(12))


def test_walks_of_other_lengths_are_compared_in_ranges_each_ending_at_its_own_top() -> None:
    def group(steps: int) -> str:
        return GAME.stat_group(GAME.validate({"steps": steps}))

    assert group(1) == group(9) == "4×4 walk of 1–9"  # below easy's 10
    assert group(11) == group(39) == "4×4 walk of 11–39"
    assert group(161) == group(640) == "4×4 walk of 161–640"  # 640 is no preset: its range's
    assert group(641) == "4×4 walk of 641–2560"
    assert group(100_000) == "4×4 walk of 40961–100000"


def test_the_figures_count_the_tiles_moved() -> None:
    state = GAME.deal(GAME.validate({"rows": 3, "cols": 3, "steps": 10}), random.Random(4))
    assert GAME.figures(state, 0, 0) == {"tiles_moved": 0}
    move = GAME.legal_moves(state)[0]
    assert GAME.figures(GAME.apply(state, move), 1000, 1)["tiles_moved"] >= 1


def test_the_random_shuffle_is_uniform_over_solvable_3x3_positions() -> None:
    """Every solvable 3×3 position is about as likely (181 440 of them; chi-square)."""
    rng = random.Random(7)
    draws = 200_000
    counts = Counter(uniform(3, 3, rng) for _ in range(draws))
    solvable = len(reachable(3, 3)) - 1  # never the solved position
    expected = draws / solvable
    chi2 = sum((counts[t] - expected) ** 2 / expected for t in counts)
    chi2 += (solvable - len(counts)) * expected  # positions never drawn
    assert abs(chi2 - solvable) < 5 * (2 * solvable) ** 0.5


def test_harder_presets_walk_further() -> None:
    steps = [DIFFICULTIES[name]["steps"] for name in ("easy", "medium", "hard")]
    assert steps == sorted(steps) and len(set(steps)) == 3
    assert DIFFICULTIES["random"]["shuffle"] == "random"


def test_only_long_walks_are_dealt_off_the_event_loop() -> None:
    """The presets deal at once; a script's walk of many thousand steps goes to a worker."""
    for preset in DIFFICULTIES.values():
        assert not GAME.slow_deal(GAME.validate({**preset, "rows": 8, "cols": 8}))
    assert GAME.slow_deal(GAME.validate({"steps": QUICK_WALK + 1}))
    assert not GAME.slow_deal(GAME.validate({"shuffle": "random", "steps": STEPS_MOST}))


def test_statistics_group_by_size_and_difficulty() -> None:
    assert GAME.stat_group(GAME.validate({"rows": 3, "cols": 5, "steps": 10})) == "3×5 easy"
    assert GAME.stat_group(GAME.validate({"shuffle": "random"})) == "4×4 random"
    assert GAME.stat_group(GAME.validate({"steps": 77, "picture": "sea"})) == "4×4 walk of 41–159"


@pytest.mark.parametrize(("params", "reason"), [
    ({"rows": 2}, "at least 3"), ({"cols": 9}, "at most 8"), ({"shuffle": "spiral"}, "one of"),
    ({"picture": "nowhere"}, "uploaded picture or one of meadow"), ({"zoom": 50}, "at least 100"),
    ({"zoom": 401}, "at most 400"), ({"crop_x": -1}, "at least 0"),
    ({"crop_y": 101}, "at most 100"),
    ({"steps": 0}, "at least 1"), ({"steps": STEPS_MOST + 1}, "at most"),
    ({"picture": "../../etc/passwd"}, "uploaded picture"),
])
def test_bad_parameters_are_refused(params: dict[str, object], reason: str) -> None:
    with pytest.raises(BadParams, match=reason):
        GAME.validate(params)


def test_the_same_seed_deals_the_same_puzzle() -> None:
    params = GAME.validate({"rows": 5, "cols": 7, "steps": 300})
    first = GAME.deal(params, random.Random("x"))
    assert first == GAME.deal(params, random.Random("x"))
    assert first != GAME.deal(params, random.Random("y"))


def test_a_click_left_of_or_above_the_gap_slides_the_line_towards_it() -> None:
    start = goal(3, 3)  # the gap bottom right
    assert slide(3, 3, start, 2, 0) == (1, 2, 3, 4, 5, 6, 0, 7, 8)
    assert slide(3, 3, start, 0, 2) == (1, 2, 0, 4, 5, 3, 7, 8, 6)


@pytest.mark.parametrize(("row", "col", "reason"), [
    (0, 3, "there is no cell [0, 3] on a 3×3 board"),
    (2, 2, "that is the gap: click a tile in its row or column"),
    (0, 0, "that tile is not in the gap's row or column"),
])
def test_a_click_that_slides_nothing_says_why(row: int, col: int, reason: str) -> None:
    with pytest.raises(IllegalMove) as refused:
        slide(3, 3, goal(3, 3), row, col)
    assert str(refused.value) == reason


def test_a_solved_puzzle_takes_no_more_moves() -> None:
    with pytest.raises(IllegalMove) as refused:
        GAME.apply(position(3, 3, "1,2,3,4,5,6,7,8,0"), Slide(2, 0))
    assert str(refused.value) == "the puzzle is solved"


@pytest.mark.parametrize(("text", "reason"), [
    ("1,2,x", "tiles are whole numbers separated by commas, 0 for the gap"),
    ("2,1,3,4,5,6,7,8,0", "no sequence of slides can solve this position (two tiles would "
                          "have to swap places): it is refused"),
])
def test_a_position_that_cannot_be_played_says_why(text: str, reason: str) -> None:
    with pytest.raises(BadParams) as refused:
        position(3, 3, text)
    assert str(refused.value) == reason


@pytest.mark.parametrize("seed", range(3))
def test_each_shuffle_deals_as_it_says(seed: int) -> None:
    for shuffle, dealt in (("random", uniform(3, 3, random.Random(seed))),
                           ("walk", walk(3, 3, 12, random.Random(seed)))):
        params = GAME.validate({"rows": 3, "cols": 3, "shuffle": shuffle, "steps": 12})
        assert GAME.deal(params, random.Random(seed)).tiles == dealt


def test_a_walk_longer_than_the_quick_one_is_dealt_in_a_worker() -> None:
    def slow(steps: int) -> bool:
        return GAME.slow_deal(GAME.validate({"steps": steps}))

    assert not slow(QUICK_WALK) and slow(QUICK_WALK + 1)


def test_the_headline_counts_the_moves_and_a_move_sounds_a_slide() -> None:
    state = position(3, 3, "1,2,3,4,5,6,7,0,8")
    assert GAME.headline(GAME.observe(state, 0)) == "3×3 · 0 moves"
    moved = GAME.apply(position(3, 3, "1,2,3,4,5,6,0,7,8"), Slide(2, 1))
    assert GAME.headline(GAME.observe(moved, 0)) == "3×3 · 1 move"
    assert GAME.headline(GAME.observe(GAME.apply(moved, Slide(1, 1)), 0)) == "3×3 · 2 moves"
    assert GAME.sound(state, Slide(2, 2), moved) == "slide"
    assert GAME.move_to_json(Slide(2, 1)) == {"cell": [2, 1]}


def test_a_board_is_named_as_its_statistics_name_it() -> None:
    """The past games and the Resume list name a board as its statistics card does."""
    custom = GAME.validate({"rows": 3, "cols": 3, "steps": 10})
    assert GAME.summary(custom) == GAME.stat_group(custom) == "3×3 easy"
    assert GAME.summary(GAME.validate(GAME.presets["medium"])) == "4×4 medium"
