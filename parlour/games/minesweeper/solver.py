"""The Minesweeper solver's moves: a proven safe cell, else the best guess; the hint; and
whole games played by it (`Player`, on `Field`, from `first_click`) for tests and benchmarks.

Guessing: a pair no number can ever tell apart (an unavoidable 50/50) is taken first.
When few layouts remain (ENDGAME_LAYOUTS), an exact search over all of them picks the
move that wins most often; a closed pocket of the front (cells nothing else will ever
tell about) is searched the same way on its own, or, when its layouts hold different
numbers of mines, left for last, so that the mine count left may settle it. Otherwise
each candidate among the safest cells is scored by the chance of surviving it and then
the next move: for each number it may show, 1 if that number lets the solver prove a
safe cell, else the safety of the best next guess (blended with the second best). Cells
whose number is already determined ("dead") are only played when nothing else is left,
as playing them first cannot help. A look-ahead front too tangled to count exactly
within LOOKAHEAD_WORK steps ends the look-ahead: the guess is then the safest cell.

What a position proves (the deductions and the probability engine) is `analysis.py`; the
end game's exact search is `endgame.py`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from parlour.core.game import Hint, percent
from parlour.games.minesweeper.analysis import (
    Component,
    Constraint,
    Contradiction,
    Engine,
    Knowledge,
    bits_of,
    check_known,
    geometry,
    groups_of,
    simplify,
)
from parlour.games.minesweeper.endgame import ENDGAME_LAYOUTS, Endgame
from parlour.games.minesweeper.grid import neighbours
from parlour.games.minesweeper.logic import FLAG, OPEN, Minefield

Why = Literal["safe", "coin", "endgame", "best"]
"""Why the solver plays a cell: it is proven safe; a coin toss no number will ever
settle (taken now); the end game, searched through every layout left (or a closed
pocket's); the guess with the best chance to go on."""


@dataclass(frozen=True)
class Suggestion:
    cell: int
    mine_probability: float
    why: Why
    proof: int | None = None  # an open number beside a safe cell, all of its mines known
    proof_mines: tuple[int, ...] = ()  # those mines, proven from the numbers, in order

    @property
    def certain(self) -> bool:  # proven safe
        return self.why == "safe"


def suggest(rows: int, cols: int, mines: int, known: Sequence[int]) -> Suggestion:
    """The solver's next move: a proven safe cell if there is one (preferring one likely
    to show a zero, so it opens an area), else its chosen guess. Deterministic.

    Raises ValueError when no closed cell is left to open, and Contradiction (a
    ValueError) when no layout fits the numbers.
    """
    check_known(rows, cols, mines, known)
    know = Knowledge(rows, cols, mines, known)
    safe = know.deduce()
    if safe:
        cell = _pick_safe(know, safe)
        proof = _full_number(know, known, cell)
        proven = () if proof is None else tuple(bits_of(know.around_mask[proof] & know.mine))
        return Suggestion(cell, 0.0, "safe", proof, proven)
    if not know.undetermined:
        raise ValueError("no closed cell is left to open")
    cell, why = _guess(know)
    return Suggestion(cell, know.probabilities()[cell], why)


def _full_number(know: Knowledge, known: Sequence[int], cell: int) -> int | None:
    """An open number next to `cell` with as many proven mines around it as it shows, if
    any: what a hint names to say why the cell is safe (the plainest of proofs)."""
    return next((n for n in bits_of(know.around_mask[cell]) if known[n] > 0
                 and (know.around_mask[n] & know.mine).bit_count() == known[n]), None)


def _pick_safe(know: Knowledge, safe: int) -> int:
    """The proven safe cell likeliest to be a zero: no mine known next to it, and the
    fewest closed cells around it that are not known to be safe."""
    masks, mine, free = know.around_mask, know.mine, know.undetermined
    return min(
        bits_of(safe),
        key=lambda c: (bool(masks[c] & mine), (masks[c] & free).bit_count(), c),
    )


# -- playing a whole game ---------------------------------------------------------------


class Player:
    """Plays one game: call `move` for the cells to open, `reveal` with what they show."""

    def __init__(self, rows: int, cols: int, mines: int, known: Sequence[int] | None = None):
        self.know = Knowledge(rows, cols, mines, known)
        self.guesses = 0
        self.why: Why = "safe"  # why the last move was played

    def reveal(self, cell: int, value: int) -> None:
        self.know.reveal(cell, value)

    def move(self) -> tuple[list[int], bool]:
        """The cells to open next: all proven safe ones (certain), else one guess."""
        know = self.know
        safe = know.deduce()
        if safe:
            self.why = "safe"
            return bits_of(safe), True
        self.guesses += 1
        cell, self.why = _guess(know)
        return [cell], False


# The guess's constants, each tried again on 20 000 expert games a line paired by seed
# (seeds 7000000+, net games won against these values, safe / opening): BLEND 0.2
# +50 / +12, 0.6 +4 / +5; CANDIDATE_RATIO 0.85 +1 / -1, 0.95 -50 / +8; NEAR_INTERIOR 24
# -2 / -1; the end game from 6000 layouts and 100 000 nodes +10 / +7, at 3-4x the CPU
# (50-64 ms a game); a score of safety ** 1.5 (not 1) times the chance to survive the
# next move, +96 / -10 over 130 000 games a line (README); BLEND 0.2 and the power 1.5
# together, -116 safe on the 100 000 seeds of the README's table, and BLEND 0.2 alone
# -110 safe there. None gained by two standard errors on a line, so they stay.
CANDIDATE_RATIO = 0.9  # look ahead on cells at least this fraction as safe as the safest
NEAR_INTERIOR = 12  # interior cells next to the front looked at individually
BLEND = 0.4  # weight of the second safest move in the safety of the next position


# Steps the exact count of a look-ahead position may take. In 6000 expert games (seeds
# 5000000+) no look-ahead took more than 5000; the rare front that needs far more (a
# first opening ringed by numbers) gave up at 200 000 steps on every number of every
# candidate, and one guess took 42 s. Past this limit the guess is the safest cell.
LOOKAHEAD_WORK = 20_000


def _guess(know: Knowledge) -> tuple[int, Why]:
    engine = know.engine
    if engine is not None and engine.exact:
        coin = _unavoidable_fifty_fifty(know)
        if coin is not None:
            return coin, "coin"
        if engine.total <= ENDGAME_LAYOUTS:
            found = Endgame.of_board(know).best()
            if found is not None:
                return found, "endgame"
        found, waiting = _pocket_move(know)
        if found is not None:
            return found, "endgame"
        return _Guesser(know, waiting).best()[0], "best"
    return _Guesser(know).best()[0], "best"


def _pocket_move(know: Knowledge) -> tuple[int | None, int]:
    """The best move of a closed pocket (see `_pockets`) searched now, if any; and the
    cells of the pockets left for last.

    A pocket whose layouts hold different numbers of mines waits while other cells
    remain: the mine count left at the end may settle it, and what it shows would tell
    the rest nothing but that count. Paired by seed on the 100 000 expert games a line
    of the README's table, waiting won 34 more games with a safe first click and 95
    with an opening one.
    """
    pockets = [end for index in _pockets(know)
               if (end := Endgame.of_pocket(know, index)) is not None]
    waiting = 0
    for end in pockets:
        if end.mixed:
            waiting |= end.cell_mask
    if not know.undetermined & ~waiting:
        waiting = 0
    for end in pockets:
        found = None if end.cell_mask & waiting else end.best()
        if found is not None:
            return found, waiting
    return None, waiting


def _unavoidable_fifty_fifty(know: Knowledge) -> int | None:
    """A cell of a pair that no move can ever tell apart, if there is one.

    The pair holds exactly one mine (a number sees just those two cells), every number
    sees both or neither, and every closed cell next to only one of them is a known
    mine: no number opened later can say which of the two is the mine, so the pair is
    a coin toss the game will have to take. Taking it first costs nothing and may show
    a number that spares a later guess.
    """
    engine = know.engine
    assert engine is not None
    masks = know.around_mask
    unsure = know.closed & ~know.mine
    for comp in engine.components:
        for box in comp.box_masks:
            if box.bit_count() != 2 or (box, 1) not in comp.key:
                continue
            first, second = bits_of(box)
            apart = (masks[first] ^ masks[second]) & ~box
            if not apart & unsure:
                return first
    return None


def _pockets(know: Knowledge) -> list[int]:
    """The components of the front that are closed pockets: no undetermined cell outside
    them touches their cells, so what they show depends on them alone and nothing
    opened elsewhere will ever tell anything about them (the mine count aside)."""
    engine = know.engine
    assert engine is not None
    masks, free = know.around_mask, know.undetermined
    found = []
    for index, comp in enumerate(engine.components):
        cells = 0
        for box in comp.box_masks:
            cells |= box
        if all(not (masks[cell] & free & ~cells) for cell in bits_of(cells)):
            found.append(index)
    return found


class _Tangled(Exception):
    """A look-ahead position too tangled to count exactly within LOOKAHEAD_WORK."""


class _Guesser:
    """Chooses a guess: the cell that maximises the chance of surviving it and the move
    after it (a certain move when the number it shows lets the solver prove a safe cell,
    else the safest cell then), over the candidates nearly as safe as the safest."""

    def __init__(self, know: Knowledge, avoid: int = 0) -> None:
        """`avoid`: cells not to guess (pockets left for last)."""
        self.know = know
        self.free = know.undetermined
        self.avoid = avoid
        self.mines_left = know.mines_left
        engine = know.engine
        self.engine = engine
        self.probs = know.probabilities()
        self.cell_comp: dict[int, int] = {}
        self.comp_best: list[tuple[float, int]] = []
        if engine is not None and engine.exact:
            for index, comp in enumerate(engine.components):
                best = 0.0
                for mask in comp.box_masks:
                    for cell in bits_of(mask):
                        self.cell_comp[cell] = index
                        best = max(best, 1.0 - self.probs[cell])
                self.comp_best.append((best, index))
            self.comp_best.sort(reverse=True)

    def prior(self, cell: int) -> int:
        """Fewer undetermined neighbours: likelier to show a zero or a small number."""
        return (self.know.around_mask[cell] & self.free).bit_count()

    def safest_first(self, cell: int) -> tuple[float, int, int]:
        """Sort key: the least likely mine first, then the likeliest to show a zero."""
        return self.probs[cell], self.prior(cell), cell

    def candidates(self, ratio: float = 0.9) -> list[int]:
        """Front cells at least `ratio` times as safe as the safest cell, and if the
        interior is that safe, one interior cell of each shape (neighbours closed and
        known mines) away from the front and the likeliest zeros next to it."""
        know, probs, free = self.know, self.probs, self.free
        cells = bits_of(free & ~self.avoid)
        best = max(1.0 - probs[cell] for cell in cells)
        floor = best * ratio - 1e-12
        chosen = [c for c in cells if c in self.cell_comp and 1.0 - probs[c] >= floor]
        interior = know.interior_mask & free
        if interior and 1.0 - probs[bits_of(interior)[0]] >= floor:
            pure: dict[tuple[int, int], int] = {}
            near: list[int] = []
            front = free & ~interior
            for cell in bits_of(interior):
                around = know.around_mask[cell]
                if around & front:
                    near.append(cell)
                else:
                    key = ((around & free).bit_count(), (around & know.mine).bit_count())
                    pure.setdefault(key, cell)
            near.sort(key=lambda c: (self.prior(c), c))
            chosen.extend(pure.values())
            chosen.extend(near[:NEAR_INTERIOR])
        return chosen

    def best(self) -> tuple[int, float]:
        """(cell, mine probability) of the chosen guess."""
        probs = self.probs
        engine = self.engine
        exact = engine is not None and engine.exact
        cells = self.candidates(CANDIDATE_RATIO) if exact else []
        if not cells:
            cell = min(bits_of(self.free & ~self.avoid), key=self.safest_first)
            return cell, probs[cell]
        try:
            best, dead = self.pick(cells)
            if best < 0:  # every candidate is dead: is any cell at all living?
                seen = set(cells)
                best, _ = self.pick([c for c in self.candidates(0.0) if c not in seen])
        except _Tangled:
            best = dead = min(cells, key=self.safest_first)
        if best < 0:
            best = dead
        return best, probs[best]

    def pick(self, cells: list[int]) -> tuple[int, int]:
        """The best living candidate (-1 if none) and the best dead one (-1 if none).

        A dead cell shows a number known in advance if it is safe: opening it first can
        never do better than opening it last, so it is only played when all are dead.
        """
        probs = self.probs
        cells = sorted(cells, key=self.safest_first)
        best, best_score = -1, -1.0
        dead, dead_score = -1, -1.0
        for cell in cells:
            safety = 1.0 - probs[cell]
            if safety < best_score - 1e-9:
                break  # no later candidate can score more than its own safety
            score, values = self.score(cell, best_score)
            if values == 1:
                if score > dead_score + 1e-9:
                    dead, dead_score = cell, score
            elif score > best_score + 1e-9:
                best, best_score = cell, score
        return best, dead

    def score(self, cell: int, to_beat: float) -> tuple[float, int]:
        """(P(cell is safe, and the move after it is survived), the numbers it may show);
        once the score cannot reach to_beat, an upper bound of it and -1."""
        assert self.engine is not None
        total = self.engine.total
        left = 1.0 - self.probs[cell]
        score = 0.0
        values = 0
        around = self.know.around_mask[cell] & self.free & ~(1 << cell)
        for value in range(around.bit_count() + 1):
            ways, safety = self.after(cell, value)
            if ways:
                values += 1
                share = ways / total
                score += share * safety
                left -= share
            if score + left < to_beat - 1e-9:
                return score + max(left, 0.0), -1
        return score, values

    def after(self, cell: int, value: int) -> tuple[float, float]:
        """If `cell` opens showing `value` more mines than known around it: the number of
        layouts that allow it, and the safety of the best move then (1 if certain)."""
        know = self.know
        engine = self.engine
        assert engine is not None
        bit = 1 << cell
        around = know.around_mask[cell] & self.free & ~bit
        comps = engine.components
        affected = {self.cell_comp[c] for c in bits_of(around | bit) if c in self.cell_comp}
        local: list[Constraint] = [(around, value)]
        for index in affected:
            for mask, number in comps[index].key:
                local.append((mask & ~bit, number))
        try:
            cons, safe, mine = simplify(local)
            interior = (know.interior_mask & ~around & ~bit).bit_count()
            left = self.mines_left - mine.bit_count()
            new = [Component(group, work_limit=LOOKAHEAD_WORK) for group in groups_of(cons)]
            if not all(comp.exact for comp in new):
                raise _Tangled
            kept = engine.excluding(affected) if affected else engine.prefix[-1]
            result = Engine(new, interior, left, kept)
        except Contradiction:
            return 0, 0.0
        ways = result.total
        if safe or left == 0:
            return ways, 1.0
        fresh = range(len(new))
        proven, _, inside = result.settled(fresh)
        if proven or inside == 1:
            return ways, 1.0
        options: list[float] = []
        for index in fresh:
            comp = result.components[index]
            for size, weight in zip(comp.box_sizes, result.weights(index), strict=True):
                options.append(1.0 - weight / (size * ways))
        if interior:
            options += [1.0 - result.interior_probability()] * min(interior, 2)
        found = 0
        for safety, index in self.comp_best:
            if index not in affected:
                options.append(safety)
                found += 1
                if found == 2:
                    break
        if not options:
            return ways, 0.0
        options.sort(reverse=True)
        if len(options) == 1 or not BLEND:
            return ways, options[0]
        return ways, (1 - BLEND) * options[0] + BLEND * options[1]


# -- a fast board for simulations -------------------------------------------------------


class Field:
    """A board with its mines known, opened as the rules do (zeros flood their
    neighbours); used to play games quickly and to check layouts."""

    def __init__(self, rows: int, cols: int, mined: Iterable[int]) -> None:
        self.rows, self.cols = rows, cols
        self.around, _ = geometry(rows, cols)
        self.mined = frozenset(mined)
        self.mine_flags = [False] * (rows * cols)
        for cell in self.mined:
            self.mine_flags[cell] = True
        self.counts = [
            sum(self.mine_flags[n] for n in self.around[cell]) for cell in range(rows * cols)
        ]
        self.opened = [False] * (rows * cols)
        self.open_count = 0
        self.exploded = False

    @property
    def cleared(self) -> bool:
        return not self.exploded and self.open_count == len(self.opened) - len(self.mined)

    def open(self, cell: int) -> list[tuple[int, int]]:
        """Open a cell: the (cell, number) pairs revealed; sets `exploded` on a mine."""
        if self.opened[cell]:
            return []
        if self.mine_flags[cell]:
            self.exploded = True
            self.opened[cell] = True
            return []
        revealed: list[tuple[int, int]] = []
        stack = [cell]
        opened, counts, around = self.opened, self.counts, self.around
        opened[cell] = True
        while stack:
            current = stack.pop()
            value = counts[current]
            revealed.append((current, value))
            if value == 0:
                for other in around[current]:
                    if not opened[other]:
                        opened[other] = True
                        stack.append(other)
        self.open_count += len(revealed)
        return revealed


# -- where to click first ----------------------------------------------------------------


SAFE_CLICK = (0, 0)
# (row, col) from the corner for the 'opening' first click, by the share of cells that
# are mines. Paired by seed (opening first click, seeds 5000000+): David Hill's (3, 3)
# beat (2, 2) at a density of 0.20 (expert 16x30/99: +271 games net in 100 000, and +162
# in 60 000 on seeds 8000000+; 16x16/52: +196 in 50 000) and lost below it (16x30/75 at
# 0.16: -60 in 50 000; intermediate at 0.16: -300 in 100 000; beginner at 0.12: -258).
DENSE_OPENING_CLICK = (3, 3)
SPARSE_OPENING_CLICK = (2, 2)
DENSE = 0.18  # mines per cell from which the dense board's click is used


def first_click(rows: int, cols: int, mines: int, rule: str = "safe") -> int:
    """Where the solver clicks first on an empty board.

    With `safe` (only the clicked cell is mine-free) a corner, which has the fewest
    neighbours and so is the likeliest to be a zero; with `opening` (the clicked cell
    and its neighbours are mine-free) a cell near a corner, two or three rows and columns
    in (further on denser boards), whose opening often reaches the edges (measured by
    bench/minesweeper_solver.py).
    """
    if rule != "opening":
        row, col = SAFE_CLICK
    elif mines >= DENSE * rows * cols:
        row, col = DENSE_OPENING_CLICK
    else:
        row, col = SPARSE_OPENING_CLICK
    return min(row, rows - 1) * cols + min(col, cols - 1)


# -- the hint ---------------------------------------------------------------------------


FIRST_CLICK_NOTES = {
    "opening": "the first click is never a mine and opens an area",
    "safe": "the first click is never a mine; a corner opens an area most often",
    "no_guess": "the first click opens a board you can clear by logic alone",
}


def hint(state: Minefield, seat: int) -> Hint | None:
    """The solver's move, from what the player can see only: the open cells (the hidden
    mines never), and the flags for the words alone."""
    if state.over():
        return None
    if not state.started:  # the rule makes the first click safe, wherever it is
        row, col = divmod(first_click(state.rows, state.cols, state.mines,
                                      "safe" if state.first_click == "safe" else "opening"),
                          state.cols)
        why = FIRST_CLICK_NOTES.get(state.first_click, FIRST_CLICK_NOTES["opening"])
        return Hint(move={"open": [row, col]},
                    note=f"Open row {row + 1}, column {col + 1} (it is safe: {why})")
    known = [
        state.counts[cell] if mark == OPEN else -1 for cell, mark in enumerate(state.marks)
    ]
    found = suggest(state.rows, state.cols, state.mines, known)
    row, col = divmod(found.cell, state.cols)
    where = _cell_name(found.cell, state.cols)
    # the note follows the client's "Hint: ", so it says why in one clause of its own
    why = _why_safe(found, state, known) if found.certain else \
        f"a guess: {_percent(found.mine_probability)} mine, {GUESS_NOTES[found.why]}"
    if state.marks[found.cell] == FLAG:
        verdict = "is wrong" if found.certain else "may be wrong"
        return Hint(move={"unmark": [row, col]},  # cleared, so that it can be opened
                    note=f"The flag at {where} {verdict}: open it ({why})")
    return Hint(move={"open": [row, col]}, note=f"Open {where} ({why})")


MINES_NAMED = 2
"""A number's mines a hint names cell by cell, at most; more would make a long note."""


def _why_safe(found: Suggestion, state: Minefield, known: Sequence[int]) -> str:
    """Why a proven safe cell is safe, in the player's words: an open number beside it
    whose mines the numbers prove are all elsewhere, named ("it is safe: the 2 at row 3,
    column 4 has its 2 mines at row 2, column 3 and row 2, column 5"; from 3 mines on,
    those the player has flagged counted and the one or two others named, or only
    counted: a note never sends the player looking for flags that are not there); or,
    where no one number shows it, that the numbers around it prove it; or, where no
    number sees it, the count of mines left."""
    cols = state.cols
    if found.proof is None:
        around = neighbours(state.rows, cols)[found.cell]
        if all(known[n] < 0 for n in around):  # no number sees it: the count proves it
            return "it is safe: the mines left are all accounted for elsewhere"
        return "it is safe: the numbers around it leave no mine there"
    count = known[found.proof]
    number = f"the {count} at {_cell_name(found.proof, cols)}"
    if len(found.proof_mines) <= MINES_NAMED:
        where = " and ".join(_cell_name(mine, cols) for mine in found.proof_mines)
        mines = "its mine" if count == 1 else f"its {count} mines"
        return f"it is safe: {number} has {mines} at {where}"
    unflagged = [mine for mine in found.proof_mines if state.marks[mine] != FLAG]
    if not unflagged:
        return f"it is safe: {number} has its {count} mines flagged"
    if len(unflagged) <= MINES_NAMED:  # (some are flagged: the count is 3 or more)
        where = " and ".join(_cell_name(mine, cols) for mine in unflagged)
        more = "one more" if len(unflagged) == 1 else "two more"
        return (f"it is safe: {number} has its {count} mines: "
                f"{count - len(unflagged)} flagged and {more} at {where}")
    return (f"it is safe: {number} has its {count} mines on other cells around it, "
            "as the numbers near it show")


def _cell_name(cell: int, cols: int) -> str:
    """"row R, column C", counted from 1: the form the page swaps on a board that stands
    on its side."""
    row, col = divmod(cell, cols)
    return f"row {row + 1}, column {col + 1}"


GUESS_NOTES: dict[Why, str] = {
    "coin": "a coin toss no number can settle, best taken now",
    "endgame": "the best chance to win, found by trying every layout left",
    "best": "best chance to go on",
}


def _percent(probability: float) -> str:
    """A chance as players read it: a whole percent, never 0 % or 100 % for a guess."""
    return percent(min(max(round(probability * 100), 1), 99))
