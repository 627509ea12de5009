"""The Minesweeper solver: deductions, exact probabilities, hints and no-guess boards.

Positions are drawn as text: `#` a closed cell, `*` a closed cell holding a mine (only
used to compute the numbers; the solver sees it closed), `o` an open cell whose number
is computed from the mines, or a digit for an open cell given directly. Probabilities
are checked against brute force: every placement of the mines on the closed cells,
kept when it fits all the numbers and the mine count.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
import random
import re
from collections.abc import Iterable, Iterator, Sequence

import pytest

from parlour.core.game import IllegalMove, Status
from parlour.games.minesweeper import analysis, endgame, solver
from parlour.games.minesweeper.analysis import UNKNOWN, Contradiction, analyse
from parlour.games.minesweeper.grid import counts_of, neighbours
from parlour.games.minesweeper.logic import FLAG, HIDDEN, OPEN, Minefield, Minesweeper
from parlour.games.minesweeper.noguess import (
    NoGuessBoardNotFound,
    no_guess_layout,
    solves_without_guessing,
)
from parlour.games.minesweeper.solver import (
    GUESS_NOTES,
    Field,
    Player,
    first_click,
    hint,
    suggest,
)

GAME = Minesweeper()


def position(picture: str) -> tuple[int, int, int, list[int]]:
    """(rows, cols, mines, known) from a picture (see the module docstring)."""
    lines = picture.split()
    rows, cols = len(lines), len(lines[0])
    mined = frozenset(
        r * cols + c for r, line in enumerate(lines) for c, ch in enumerate(line) if ch == "*"
    )
    counts = counts_of(rows, cols, mined)
    known = []
    for r, line in enumerate(lines):
        for c, ch in enumerate(line):
            if ch in "#*":
                known.append(UNKNOWN)
            elif ch == "o":
                known.append(counts[r * cols + c])
            else:
                known.append(int(ch))
    return rows, cols, len(mined), known


def cells(cols: int, *coords: tuple[int, int]) -> set[int]:
    return {r * cols + c for r, c in coords}


def brute_force(rows: int, cols: int, mines: int, known: Sequence[int]) -> dict[int, float]:
    """Mine probability of each closed cell, over every layout that fits."""
    around = neighbours(rows, cols)
    closed = [c for c, v in enumerate(known) if v == UNKNOWN]
    numbers = [(c, v) for c, v in enumerate(known) if v != UNKNOWN]
    hits = dict.fromkeys(closed, 0)
    fits = 0
    for layout in itertools.combinations(closed, mines):
        mined = set(layout)
        if all(sum(n in mined for n in around[c]) == v for c, v in numbers):
            fits += 1
            for cell in layout:
                hits[cell] += 1
    assert fits, "the picture has no layout"
    return {cell: hits[cell] / fits for cell in closed}


# -- deductions -------------------------------------------------------------------------


def test_a_one_touching_a_single_closed_cell_marks_it_a_mine() -> None:
    rows, cols, mines, known = position(
        """
        *o####
        oo####
        oo####
        """
    )
    mines += 3  # more mines in the closed area on the right: the count alone cannot tell
    result = analyse(rows, cols, mines, known)
    assert 0 in result.mined
    assert result.probability[0] == 1.0
    assert cells(cols, (0, 2), (1, 2), (2, 2)) <= result.safe  # the 1s are satisfied


def test_one_two_one_along_a_wall() -> None:
    # the 1-2-1 sits under a wall of closed cells; the cells beside it are closed too,
    # and the closed area on the right holds two more mines, so the count decides nothing
    rows, cols, mines, known = position(
        """
        #*#*##*##
        #121###*#
        """
    )
    result = analyse(rows, cols, mines, known)
    assert cells(cols, (0, 1), (0, 3)) == set(result.mined)
    assert cells(cols, (0, 0), (0, 2), (0, 4), (1, 0), (1, 4)) == set(result.safe)


def test_one_two_two_one_along_a_wall() -> None:
    rows, cols, mines, known = position(
        """
        ##**###*##
        #1221####*
        """
    )
    result = analyse(rows, cols, mines, known)
    assert cells(cols, (0, 2), (0, 3)) == set(result.mined)
    assert cells(cols, (0, 0), (0, 1), (0, 4), (0, 5), (1, 0), (1, 5)) == set(result.safe)


def test_subset_rule() -> None:
    # the 1 on the left sees two closed cells, the 1 next to it those two and two more:
    # the two more are safe
    rows, cols, mines, known = position(
        """
        #*#*
        11##
        """
    )
    result = analyse(rows, cols, mines, known)
    assert cells(cols, (0, 2), (1, 2)) == set(result.safe)
    assert not result.mined
    assert result.probability[cols * 0 + 0] == pytest.approx(0.5)


def test_only_the_mine_count_decides() -> None:
    # one mine in all: it is next to the 1, so every cell away from it is safe; the
    # numbers alone (the cheap rules) prove nothing
    rows, cols, mines, known = position(
        """
        *####
        1####
        """
    )
    around = set(neighbours(rows, cols)[cols])
    far = {c for c, v in enumerate(known) if v == UNKNOWN} - around
    result = analyse(rows, cols, mines, known)
    assert far == set(result.safe)
    assert not result.mined
    for cell in around:
        assert result.probability[cell] == pytest.approx(1 / 3)
    know = analysis.Knowledge(rows, cols, mines, known)
    _, safe, mine = analysis.simplify(know.constraints())
    assert safe == mine == 0


def test_the_mine_count_can_place_every_mine() -> None:
    # three mines: the 1s hold one, so the two closed cells on the right are both mines
    rows, cols, mines, known = position(
        """
        *o#*
        oo#*
        """
    )
    result = analyse(rows, cols, mines, known)
    assert cells(cols, (0, 0), (0, 3), (1, 3)) == set(result.mined)
    assert cells(cols, (0, 2), (1, 2)) == set(result.safe)


def test_inconsistent_positions_are_refused() -> None:
    with pytest.raises(Contradiction):
        analyse(2, 2, 1, [3, UNKNOWN, UNKNOWN, UNKNOWN])  # a 3 with 3 closed cells, 1 mine
    with pytest.raises(Contradiction):
        analyse(1, 3, 1, [UNKNOWN, 2, UNKNOWN])  # a 2 needs two mines
    with pytest.raises(ValueError):
        analyse(2, 2, 1, [UNKNOWN] * 3)


# -- exact probabilities ----------------------------------------------------------------


def random_positions(count: int, seed: int) -> list[tuple[int, int, int, list[int]]]:
    """Small boards with some cells opened by the rules (zeros flood), small enough for
    brute force."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        rows, cols = rng.randint(2, 5), rng.randint(2, 6)
        size = rows * cols
        mines = rng.randint(1, max(1, size // 3))
        field = Field(rows, cols, rng.sample(range(size), mines))
        known = [UNKNOWN] * size
        free = [c for c in range(size) if not field.mine_flags[c]]
        for cell in rng.sample(free, rng.randint(1, len(free))):
            for opened, value in field.open(cell):
                known[opened] = value
        if UNKNOWN in known and math.comb(known.count(UNKNOWN), mines) <= 30_000:
            out.append((rows, cols, mines, known))
    return out


@pytest.mark.parametrize("seed", range(4))
def test_probabilities_match_brute_force(seed: int) -> None:
    for rows, cols, mines, known in random_positions(60, seed):
        expected = brute_force(rows, cols, mines, known)
        result = analyse(rows, cols, mines, known)
        assert set(result.probability) == set(expected)
        for cell, p in expected.items():
            assert result.probability[cell] == pytest.approx(p, abs=1e-12)
            assert (cell in result.safe) == (p == 0)
            assert (cell in result.mined) == (p == 1)


def test_probabilities_of_a_hand_made_board() -> None:
    # a 1 in a corner touching three closed cells, six more closed cells, three mines
    rows, cols, _, known = position(
        """
        1####
        #####
        """
    )
    mines = 3
    expected = brute_force(rows, cols, mines, known)
    result = analyse(rows, cols, mines, known)
    for cell, p in expected.items():
        assert result.probability[cell] == pytest.approx(p, abs=1e-12)
    assert result.probability[1] == pytest.approx(1 / 3)


def test_the_approximate_fallback_stays_close(monkeypatch: pytest.MonkeyPatch) -> None:
    """With no budget for exact counts every component is approximated: the figures
    stay close, and only the cheap rules still prove cells."""
    monkeypatch.setattr(analysis, "WORK_LIMIT", 0)
    errors = []
    for rows, cols, mines, known in random_positions(60, 9):
        expected = brute_force(rows, cols, mines, known)
        result = analyse(rows, cols, mines, known)
        assert set(result.probability) == set(expected)
        assert all(0.0 <= p <= 1.0 for p in result.probability.values())
        assert all(expected[c] == 0 for c in result.safe)
        assert all(expected[c] == 1 for c in result.mined)
        errors += [abs(p - result.probability[c]) for c, p in expected.items()]
    assert sum(errors) / len(errors) < 0.03


# -- hints ------------------------------------------------------------------------------


def test_suggest_returns_a_proven_safe_cell_when_there_is_one() -> None:
    for rows, cols, mines, known in random_positions(80, 11):
        result = analyse(rows, cols, mines, known)
        if set(result.probability) == result.mined:  # only mines left: nothing to open
            with pytest.raises(ValueError):
                suggest(rows, cols, mines, known)
            continue
        hint = suggest(rows, cols, mines, known)
        if result.safe:
            assert hint.certain and hint.cell in result.safe
            assert hint.mine_probability == 0.0
        else:
            assert not hint.certain
            assert known[hint.cell] == UNKNOWN and hint.cell not in result.mined
            assert hint.mine_probability == pytest.approx(result.probability[hint.cell])
        assert suggest(rows, cols, mines, known) == hint  # deterministic


def test_a_guess_looks_further_than_the_safest_cell() -> None:
    # two mines: one under the left pair, one among the three cells on the right. The
    # three on the right (1/3 each) are dead: whatever they show is known in advance.
    # The left pair is a 50/50, but its top cell tells where the right mine is: playing
    # it first wins 1/2 * (1/3 + 2/3 * 1/2) = 1/3, the safest cell first only 1/6.
    rows, cols, mines, known = position(
        """
        01##1
        01###
        """
    )
    mines = 2
    hint = suggest(rows, cols, mines, known)
    assert (hint.cell, hint.mine_probability) == (2, pytest.approx(0.5))
    know = analysis.Knowledge(rows, cols, mines, known)
    know.deduce()
    end = endgame.Endgame.of_board(know)
    assert end.solve(end.all) == (pytest.approx(1 / 3), end.cells.index(2), True)


def test_the_hint_depends_only_on_what_the_player_sees() -> None:
    # the same open cells over different hidden layouts (every one that fits the
    # numbers): the hint, its cell and its words, never change
    rng = random.Random(5)
    compared = 0
    for seed in range(40):
        params = GAME.validate({"rows": 4, "cols": 5, "mines": 5, "first_click": "safe"})
        state = GAME.deal(params, random.Random(seed))
        for _ in range(rng.randint(1, 3)):
            closed = [c for c in range(20) if state.marks[c] != OPEN and c not in state.mined]
            if not closed or GAME.status(state) is not Status.PLAYING:
                break
            row, col = divmod(rng.choice(closed), 5)
            state = GAME.apply(state, GAME.parse_move({"open": [row, col]}))
        if GAME.status(state) is not Status.PLAYING:
            continue
        seen = hint(state, 0)
        known = known_of(state)
        around = neighbours(4, 5)
        closed = [c for c, v in enumerate(known) if v == UNKNOWN]
        numbers = [(c, v) for c, v in enumerate(known) if v != UNKNOWN]
        others = [
            frozenset(layout) for layout in itertools.combinations(closed, 5)
            if all(sum(n in layout for n in around[c]) == v for c, v in numbers)
        ]
        for mined in rng.sample(others, min(len(others), 6)):
            other = dataclasses.replace(state, mined=mined, counts=counts_of(4, 5, mined))
            assert known_of(other) == known
            assert hint(other, 0) == seen
            compared += mined != state.mined
    assert compared > 100


@pytest.mark.parametrize("rule", ["safe", "opening"])
def test_the_hint_plays_the_benchmarked_policy(rule: str) -> None:
    # in whole expert games played by the benchmark's Player, the hint on what the
    # player sees opens one of the Player's safe cells, or makes the Player's guess
    for seed in range(6):
        state = GAME.deal(GAME.validate({"rows": 16, "cols": 30, "mines": 99,
                                         "first_click": rule}), random.Random(seed))
        first = first_click(16, 30, 99, rule)
        state = GAME.apply(state, GAME.parse_move({"open": list(divmod(first, 30))}))
        field = Field(16, 30, state.mined)
        player = Player(16, 30, 99)
        for cell, value in field.open(first):
            player.reveal(cell, value)
        while not field.cleared and not field.exploded:
            advice = suggest(16, 30, 99, player.know.known)
            cells, certain = player.move()
            assert advice.certain == certain and advice.why == player.why
            assert advice.cell in cells if certain else [advice.cell] == cells
            for cell in cells:
                for opened, value in field.open(cell):
                    player.reveal(opened, value)
                if field.exploded:
                    break


def test_a_guess_hint_says_what_kind_of_guess_it_is() -> None:
    # games played by following the hint through the real rules: each guess's note says
    # why it is played, and a coin toss is always an even chance
    params = GAME.validate({"rows": 16, "cols": 30, "mines": 99, "first_click": "opening"})
    guess = re.compile(r"Open row \d+, column \d+ \(a guess: (\d\d?)\u00a0% mine, (.+)\)")
    said: dict[str, set[str]] = {}
    for seed in range(100):
        state = GAME.deal(params, random.Random(seed))
        while GAME.status(state) is Status.PLAYING and len(said) < len(GUESS_NOTES):
            found = hint(state, 0)
            assert found is not None
            told = guess.fullmatch(found.note)
            if told is not None:
                said.setdefault(told.group(2), set()).add(told.group(1))
            state = GAME.apply(state, GAME.parse_move(found.move))
        if len(said) == len(GUESS_NOTES):
            break
    assert set(said) == set(GUESS_NOTES.values())
    assert said[GUESS_NOTES["coin"]] == {"50"}


def test_suggest_on_an_empty_board_picks_a_corner() -> None:
    hint = suggest(16, 30, 99, [UNKNOWN] * 480)
    assert hint.cell in (0, 29, 450, 479)
    assert hint.mine_probability == pytest.approx(99 / 480)
    assert not hint.certain
    assert first_click(16, 30, 99, "safe") == 0
    assert first_click(16, 30, 99, "opening") == 3 * 30 + 3  # dense: three cells in
    assert first_click(16, 16, 40, "opening") == 2 * 16 + 2  # sparser: two
    assert first_click(9, 9, 10, "opening") == 2 * 9 + 2
    assert first_click(2, 5, 1, "opening") == 1 * 5 + 2  # a thin board: the last row


def test_suggest_refuses_a_finished_board() -> None:
    rows, cols, mines, known = position("*o\noo")
    with pytest.raises(ValueError):
        suggest(rows, cols, mines, known)


def test_the_end_game_search_plays_two_independent_fifty_fifties() -> None:
    # two separate pairs, each a 1 next to two closed cells that no other number sees:
    # whatever is played, the game is won a quarter of the time
    rows, cols, _, known = position(
        """
        *ooooo*
        #ooooo#
        """
    )
    know = analysis.Knowledge(rows, cols, 2, known)
    assert not know.deduce()
    end = endgame.Endgame.of_board(know)
    assert len(end.layouts) == 4
    assert end.solve(end.all)[0] == pytest.approx(0.25)


def perfect_play(
    rows: int, cols: int, mines: int, known: Sequence[int], goal: Iterable[int] | None = None
) -> tuple[float, dict[int, float]]:
    """The chance to win with perfect play, and the chance after each first move, over
    every layout that fits (all equally likely); see `perfect_play_over`."""
    around = [frozenset(cells) for cells in neighbours(rows, cols)]
    closed = [c for c, v in enumerate(known) if v == UNKNOWN]
    numbers = [(c, v) for c, v in enumerate(known) if v != UNKNOWN]
    layouts = [
        frozenset(layout)
        for layout in itertools.combinations(closed, mines)
        if all(len(around[c] & set(layout)) == v for c, v in numbers)
    ]
    return perfect_play_over(around, layouts, [1] * len(layouts), closed if goal is None else goal)


def perfect_play_over(
    around: Sequence[frozenset[int]],
    layouts: Sequence[frozenset[int]],
    weights: Sequence[int],
    goal: Iterable[int],
) -> tuple[float, dict[int, float]]:
    """By trying every move in every position: winning is knowing where the mines of
    `goal` are; moves open cells of `goal`; layout j is likely in proportion to
    weights[j]. Knows nothing of the solver: only small searches."""
    targets = frozenset(goal)

    @functools.cache
    def value(group: tuple[int, ...]) -> float:
        if len({layouts[j] & targets for j in group}) == 1:
            return 1.0
        return max(after(group, cell) for cell in targets)

    def after(group: tuple[int, ...], cell: int) -> float:
        shows: dict[int, list[int]] = {}
        for j in group:
            if cell not in layouts[j]:
                shows.setdefault(len(layouts[j] & around[cell]), []).append(j)
        if [len(part) for part in shows.values()] == [len(group)]:
            return 0.0  # safe and tells nothing: no progress
        total = sum(weights[j] for j in group)
        return sum(
            sum(weights[j] for j in part) * value(tuple(part)) for part in shows.values()
        ) / total

    everything = tuple(range(len(layouts)))
    return value(everything), {cell: after(everything, cell) for cell in targets}


def stuck(rows: int, cols: int, mines: int, known: list[int]) -> analysis.Knowledge | None:
    """The solver's knowledge of a position where it must guess, else None."""
    know = analysis.Knowledge(rows, cols, mines, known)
    if know.deduce() or not know.undetermined or know.engine is None:
        return None
    return know


def test_the_end_game_search_matches_perfect_play() -> None:
    checked = 0
    for rows, cols, mines, known in random_positions(300, 21):
        know = stuck(rows, cols, mines, known)
        if know is None or know.engine is None or know.engine.total > 60:
            continue
        best, after_first = perfect_play(rows, cols, mines, known)
        end = endgame.Endgame.of_board(know)
        chance, move, _ = end.solve(end.all)
        assert chance == pytest.approx(best, abs=1e-12)
        assert after_first[end.cells[move]] == pytest.approx(best, abs=1e-12)
        checked += 1
    assert checked > 30


def test_the_end_game_lists_every_layout_and_what_each_cell_shows() -> None:
    # against brute force: the layouts found component by component and combined with
    # the interior, and the numbers counted for all layouts at once (bit-sliced)
    checked = 0
    for rows, cols, mines, known in random_positions(200, 33):
        know = stuck(rows, cols, mines, known)
        if know is None or know.engine is None or know.engine.total > endgame.ENDGAME_LAYOUTS:
            continue
        end = endgame.Endgame.of_board(know)
        around = neighbours(rows, cols)
        closed = [c for c, v in enumerate(known) if v == UNKNOWN]
        expected = {
            sum(1 << cell for cell in layout)
            for layout in itertools.combinations(closed, mines)
            if all(sum(n in layout for n in around[c]) == v
                   for c, v in enumerate(known) if v != UNKNOWN)
        }
        assert {layout | know.mine for layout in end.layouts} == expected
        assert len(end.layouts) == len(expected)
        for index, cell in enumerate(end.cells):
            shows: dict[int, int] = {}
            for j, layout in enumerate(end.layouts):
                if not layout >> cell & 1:
                    number = sum(((layout | know.mine) >> n) & 1 for n in around[cell])
                    shows[number] = shows.get(number, 0) | 1 << j
            assert sorted(end.value_sets[index]) == sorted(shows.values())
        checked += 1
    assert checked > 30


def test_the_end_game_search_asked_for_a_bar_answers_exactly_or_with_a_bound() -> None:
    # asked whether a position can beat `need`, the search may stop short: then what it
    # answers bounds the true chance from above and is at most `need`; else it is exact
    checked = cut = 0
    for rows, cols, mines, known in random_positions(300, 21):
        know = stuck(rows, cols, mines, known)
        if know is None or know.engine is None or know.engine.total > 60:
            continue
        whole = endgame.Endgame.of_board(know)
        truth, exact = whole.win(whole.all)
        assert exact
        for need in (truth - 0.2, truth - 1e-6, truth, truth + 1e-6, truth + 0.2):
            end = endgame.Endgame.of_board(know)
            value, exact = end.win(end.all, need)
            if exact:
                assert value == pytest.approx(truth, abs=1e-12)
            else:
                assert truth <= value + 1e-12
                assert value <= need + 1e-12
                assert need >= truth - 1e-12  # never cut short below the truth
                cut += 1
        checked += 1
    assert checked > 30
    assert cut > checked  # most bars above the truth are answered without the full search


def weighted_pockets(seed: int) -> Iterator[tuple[analysis.Knowledge, endgame.Endgame]]:
    """The closed pockets, cells that touch no other undetermined cell, whose layouts
    hold different numbers of mines, in the order the solver's expert game `seed` meets
    them (the knowledge given with each moves on as the game goes on)."""
    rows, cols, mines = 16, 30, 99
    state = GAME.deal(GAME.validate({"rows": rows, "cols": cols, "mines": mines,
                                     "first_click": "safe"}), random.Random(seed))
    state = GAME.apply(state, GAME.parse_move({"open": [0, 0]}))
    field = Field(rows, cols, state.mined)
    player = Player(rows, cols, mines)
    for cell, value in field.open(0):
        player.reveal(cell, value)
    while not field.cleared and not field.exploded:
        know = player.know
        if not know.deduce() and know.engine is not None:
            for index in solver._pockets(know):
                end = endgame.Endgame.of_pocket(know, index)
                if end is not None and not end.uniform:
                    yield know, end
        cells, _ = player.move()
        for cell in cells:
            for opened, value in field.open(cell):
                player.reveal(opened, value)


def a_weighted_pocket(seed: int) -> tuple[analysis.Knowledge, endgame.Endgame] | None:
    return next(weighted_pockets(seed), None)


def test_a_closed_pocket_is_searched_with_the_mine_count_weighing_its_layouts() -> None:
    # each layout of the pocket weighs the ways to lay the other mines elsewhere, so its
    # cells' chances are the engine's, and the search plays as perfect play does
    found = next(filter(None, map(a_weighted_pocket, range(73, 273))), None)
    assert found is not None, "no game of 200 reaches a pocket"
    know, end = found
    assert end.weight_of_mines is not None
    layouts = [frozenset(c for c in end.cells if layout >> c & 1) for layout in end.layouts]
    weights = [end.weight_of_mines[len(layout)] for layout in layouts]
    probs = know.probabilities()
    for cell in end.cells:
        mined = sum(w for layout, w in zip(layouts, weights, strict=True) if cell in layout)
        assert mined / sum(weights) == pytest.approx(probs[cell], abs=1e-12)
    around = [frozenset(cells) for cells in neighbours(know.rows, know.cols)]
    best, after_first = perfect_play_over(around, layouts, weights, end.cells)
    chance, move, _ = end.solve(end.all)
    assert chance == pytest.approx(best, abs=1e-12)
    assert after_first[end.cells[move]] == pytest.approx(best, abs=1e-12)


def test_a_pocket_the_mine_count_may_settle_waits_for_the_rest_of_the_board() -> None:
    # its layouts hold different numbers of mines: played last, it knows the count.
    # Meanwhile, at each guess of expert game 106 with the pocket open and too many
    # layouts to search the board as a whole, the guess goes elsewhere.
    waited = 0
    for know, end in weighted_pockets(106):
        assert know.engine is not None
        if know.engine.total > endgame.ENDGAME_LAYOUTS:
            assert end.mixed and know.undetermined & ~end.cell_mask
            cell, why = solver._guess(know)
            assert not end.cell_mask >> cell & 1 and why == "best"
            waited += 1
    assert waited >= 10


def test_an_unavoidable_fifty_fifty_is_taken_before_safer_guesses() -> None:
    # left: a pair on a two-row board, seen only by the 1s next to it, one mine: no
    # number can ever tell which. Right: another pair, but its cells touch closed cells
    # that may tell, and eight cells beyond, one mine among them (the safest, 1/8).
    rows, cols, mines, known = position(
        """
        #1oo1*####
        *1oo1###*#
        """
    )
    know = stuck(rows, cols, mines, known)
    assert know is not None
    assert solver._unavoidable_fifty_fifty(know) in (0, 10)
    assert solver._Guesser(know).best()[0] not in (0, 10)  # without the rule: elsewhere
    hint = suggest(rows, cols, mines, known)
    assert hint.cell in (0, 10) and hint.mine_probability == pytest.approx(0.5)


def test_a_guess_chooses_the_cell_that_helps_most_over_the_safest() -> None:
    # one 1 on an empty board with 3 mines: the cells away from it are the safest (1/6)
    # but the corner next to it (1/5) shows a number that settles more; perfect play
    # over all 330 layouts agrees that the corner is the best first move
    rows, cols, mines, known = position(
        """
        ######
        1#####
        ######
        """
    )
    mines = 3
    know = stuck(rows, cols, mines, known)
    assert know is not None
    probs = know.probabilities()
    cell, _ = solver._Guesser(know).best()
    safest = min(probs.values())
    assert cell == 0 and probs[0] == pytest.approx(0.2) and safest == pytest.approx(1 / 6)
    best, after_first = perfect_play(rows, cols, mines, known)
    assert after_first[0] == pytest.approx(best)
    assert after_first[0] > max(after_first[c] for c, p in probs.items() if p == safest)


def test_a_look_ahead_too_tangled_to_count_falls_back_to_the_safest_cell(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # expert seed 8024007 after the opening click at (3, 3): the numbers ring closed
    # cells inside the opening, and opening any candidate makes a front whose exact
    # count passes the look-ahead's limit (it once took 42 s to give up on every one)
    picture = "\n".join(
        row + "#" * 23
        for row in ("#######", "#3#2#3#", "##111##", "#21012#", "##111##", "#2#2#2#", "#######")
    ) + ("\n" + "#" * 30) * 9
    rows, cols, _, known = position(picture)
    know = stuck(rows, cols, 99, known)
    assert know is not None and know.engine is not None and know.engine.exact
    guesser = solver._Guesser(know)
    candidates = guesser.candidates(solver.CANDIDATE_RATIO)
    with pytest.raises(solver._Tangled):
        guesser.score(candidates[0], -1.0)
    probs = know.probabilities()
    safest = min(candidates, key=lambda c: (probs[c], guesser.prior(c), c))
    assert guesser.best()[0] == safest
    # on a small board, the same limit at 0 turns the look-ahead off: the safest cell
    rows, cols, _, known = position("######\n1#####\n######")
    know = stuck(rows, cols, 3, known)
    assert know is not None
    assert solver._Guesser(know).best()[0] == 0
    monkeypatch.setattr(solver, "LOOKAHEAD_WORK", 0)
    cell = solver._Guesser(know).best()[0]
    assert cell != 0 and know.probabilities()[cell] == pytest.approx(1 / 6)


# -- the fast board and the real rules --------------------------------------------------


def known_of(state: Minefield) -> list[int]:
    text = "".join(GAME.observe(state, 0)["cells"])
    return [UNKNOWN if ch in "#F?" else 0 if ch == "." else int(ch) for ch in text]


@pytest.mark.parametrize(
    ("rows", "cols", "mines", "rule", "games"),
    [
        (9, 9, 10, "safe", 150),
        (16, 16, 40, "safe", 50),
        (16, 30, 99, "safe", 25),
        (16, 30, 99, "opening", 25),
    ],
)
def test_the_fast_board_plays_as_the_rules_do(
    rows: int, cols: int, mines: int, rule: str, games: int
) -> None:
    """Games dealt by the real rules, played move by move on both boards."""
    params = GAME.validate({"rows": rows, "cols": cols, "mines": mines, "first_click": rule})
    for seed in range(games):
        state = GAME.deal(params, random.Random(seed))
        first = first_click(rows, cols, mines, rule)
        state = GAME.apply(state, GAME.parse_move({"open": list(divmod(first, cols))}))
        field = Field(rows, cols, state.mined)
        player = Player(rows, cols, mines)
        for cell, value in field.open(first):
            player.reveal(cell, value)
        while GAME.status(state) is Status.PLAYING:
            assert known_of(state) == player.know.known
            assert not field.exploded and not field.cleared
            moves, _ = player.move()
            for cell in moves:
                if field.opened[cell]:
                    continue
                state = GAME.apply(state, GAME.parse_move({"open": list(divmod(cell, cols))}))
                for opened, value in field.open(cell):
                    player.reveal(opened, value)
                if field.exploded:
                    break
        assert (GAME.status(state) is Status.WON) == field.cleared
        assert (GAME.status(state) is Status.LOST) == field.exploded


# -- boards that need no guess ----------------------------------------------------------


def test_solves_without_guessing() -> None:
    # a 50/50 in the last column: the opening from the corner cannot tell the two apart
    assert not solves_without_guessing(2, 5, frozenset({4}), 0)
    # a third row: the zero at the bottom right opens the cell below the mine
    assert solves_without_guessing(3, 5, frozenset({4}), 0)
    with pytest.raises(ValueError):
        solves_without_guessing(3, 5, frozenset({0}), 0)


def check_no_guess(rows: int, cols: int, mines: int, seed: int) -> None:
    rng = random.Random(seed)
    first = rng.randrange(rows * cols)
    layout = no_guess_layout(rows, cols, mines, first, rng)
    assert len(layout) == mines
    assert first not in layout and not set(neighbours(rows, cols)[first]) & layout
    assert solves_without_guessing(rows, cols, layout, first)
    # and the player, from scratch, never has to guess
    field = Field(rows, cols, layout)
    player = Player(rows, cols, mines)
    for cell, value in field.open(first):
        player.reveal(cell, value)
    while not field.cleared:
        moves, certain = player.move()
        assert certain
        for cell in moves:
            for opened, value in field.open(cell):
                player.reveal(opened, value)


@pytest.mark.parametrize("seed", range(50))
def test_no_guess_intermediate(seed: int) -> None:
    check_no_guess(16, 16, 40, seed)


@pytest.mark.parametrize("seed", range(10))
def test_no_guess_expert(seed: int) -> None:
    check_no_guess(16, 30, 99, seed)


@pytest.mark.parametrize(("rows", "cols", "mines"), [(9, 9, 71), (16, 30, 300), (2, 40, 60)])
def test_no_guess_dense_and_narrow_boards(rows: int, cols: int, mines: int) -> None:
    check_no_guess(rows, cols, mines, 1)


def test_no_guess_is_deterministic_and_checks_its_mine_count() -> None:
    one = no_guess_layout(16, 30, 99, 77, random.Random(5))
    two = no_guess_layout(16, 30, 99, 77, random.Random(5))
    other = no_guess_layout(16, 30, 99, 77, random.Random(6))
    assert one == two
    assert one != other
    with pytest.raises(ValueError):
        no_guess_layout(4, 4, 8, 5, random.Random(0))  # 16 cells, 9 kept clear


def test_no_guess_gives_up_after_a_fixed_number_of_layouts() -> None:
    """2x6 with one mine always ends in a 50/50: the search stops, the same way every
    time (it counts layouts, not time), with a reason the player can act on; through
    the rules the first click is refused."""
    rngs = [random.Random(3), random.Random(3)]
    for rng in rngs:
        with pytest.raises(NoGuessBoardNotFound, match="no no-guess 2x6 board with 1 mine was"):
            no_guess_layout(2, 6, 1, 0, rng)
    assert rngs[0].getstate() == rngs[1].getstate()

    params = GAME.validate({"rows": 2, "cols": 6, "mines": 1, "first_click": "no_guess"})
    state = GAME.deal(params, random.Random(0))
    with pytest.raises(IllegalMove, match="choose another first click"):
        GAME.apply(state, GAME.parse_move({"open": [0, 0]}))


def test_a_cell_no_number_sees_is_safe_by_the_count_and_the_hint_says_so() -> None:
    """One mine, and the 1 in the corner holds it: every cell beyond that 1's reach is
    safe because no mine is left for it, which the hint says rather than naming numbers
    that do not touch the cell."""
    params = GAME.validate({"rows": 3, "cols": 3, "mines": 1, "first_click": "safe"})
    state = GAME.apply(GAME.parse_position(params, "080"), ("open", 0, 0))  # the mine: (1, 1)
    found = hint(state, 0)
    assert found is not None and "open" in found.move
    row, col = found.move["open"]
    assert max(row, col) == 2  # beyond the 1's reach
    assert found.note.endswith("(it is safe: the mines left are all accounted for elsewhere)")


def test_a_wrong_flag_hint_clears_the_flag_so_that_it_can_be_opened() -> None:
    """A flag the numbers prove wrong: the hint's move takes it away (whatever the
    player's Marks, with no question mark between), and its note says to open it."""
    params = GAME.validate({"rows": 3, "cols": 3, "mines": 1, "first_click": "safe"})
    state = GAME.apply(GAME.parse_position(params, "080"), ("open", 0, 0))  # the mine: (1, 1)
    state = GAME.apply(state, ("mark", 2, 2))  # a flag where no mine can be
    found = hint(state, 0)
    assert found is not None and found.move == {"unmark": [2, 2]}
    assert found.note.startswith("The flag at row 3, column 3 is wrong: open it")
    cleared = GAME.apply(state, GAME.parse_move(found.move))
    assert cleared.marks[8] == 0 and cleared.flags() == 0


def seen(picture: str) -> Minefield:
    """A game under way from a picture: `*` a closed mine, `F` a flagged mine, `#` a
    closed cell, `f` a flagged cell with no mine, `o` an open cell."""
    lines = picture.split()
    rows, cols = len(lines), len(lines[0])
    chars = "".join(lines)
    mined = frozenset(cell for cell, ch in enumerate(chars) if ch in "*F")
    marks = tuple(OPEN if ch == "o" else FLAG if ch in "Ff" else HIDDEN for ch in chars)
    return Minefield(rows=rows, cols=cols, mines=len(mined), first_click="safe",
                     mined=mined, counts=counts_of(rows, cols, mined), marks=marks,
                     first_seed=0, started=True, opened=marks.count(OPEN))


@pytest.mark.parametrize(("picture", "note"), [
    ("*o# oo#",  # no flag on the board: the note names the mine the numbers prove
     "Open row 1, column 3 (it is safe: the 1 at row 1, column 2 has its mine at "
     "row 1, column 1)"),
    ("Fo# oo#",  # the same words when the player has flagged it
     "Open row 1, column 3 (it is safe: the 1 at row 1, column 2 has its mine at "
     "row 1, column 1)"),
    ("*## ooo *oo",
     "Open row 1, column 3 (it is safe: the 2 at row 2, column 2 has its 2 mines at "
     "row 1, column 1 and row 3, column 1)"),
    ("oooo oo#o ***o",  # three mines or more are counted, not named
     "Open row 2, column 3 (it is safe: the 3 at row 2, column 2 has its 3 mines on "
     "other cells around it, as the numbers near it show)"),
    ("oooo oo#o *F*o",  # some flagged: those counted, the others named
     "Open row 2, column 3 (it is safe: the 3 at row 2, column 2 has its 3 mines: 1 flagged "
     "and two more at row 3, column 1 and row 3, column 3)"),
    ("oooo oo#o FF*o",
     "Open row 2, column 3 (it is safe: the 3 at row 2, column 2 has its 3 mines: 2 flagged "
     "and one more at row 3, column 3)"),
    ("oooo oo#o FFFo",  # each of them flagged by the player
     "Open row 2, column 3 (it is safe: the 3 at row 2, column 2 has its 3 mines flagged)"),
])
def test_a_safe_hint_names_the_mines_that_make_it_safe(picture: str, note: str) -> None:
    """A number full of mines makes the closed cells around it safe: the hint names
    where those mines are (worked out from the numbers, flagged or not), never says
    "already", which would send a player looking for flags that are not there."""
    found = hint(seen(picture), 0)
    assert found is not None and found.note == note


def test_a_wrong_flag_hint_names_the_mine_the_flag_is_not() -> None:
    found = hint(seen("*of oo#"), 0)
    assert found is not None and found.move == {"unmark": [0, 2]}
    assert found.note == ("The flag at row 1, column 3 is wrong: open it (it is safe: the 1 "
                          "at row 1, column 2 has its mine at row 1, column 1)")
