"""The solver (`solver.py`, on ranks) put to work on Escalator's positions: the verdict at
the end, winnable deals, hints that never look at the stock, the "still winnable?" light,
and the winning line as a replay."""

from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache

from parlour.core.game import Hint, Replay
from parlour.games.escalator import solver
from parlour.games.escalator.logic import (
    PYRAMID,
    Draw,
    Escalator,
    Layout,
    Move,
    Pick,
    Verdict,
    card_name,
    code,
    rank,
    short_name,
)

RULES = Escalator()


def _move(step: solver.Step) -> Move:
    return Pick(step.index) if isinstance(step, solver.Pick) else Draw()


def verdict_of_deal(state: Layout) -> Verdict:
    """Whether the deal of `state`, played from its start, can be won, and how."""
    return _verdict(state.pyramid, state.stock)


@lru_cache(maxsize=4096)  # a replayed game asks again, and so do many games of one shared deal
def _verdict(pyramid: tuple[int, ...], stock: tuple[int, ...]) -> Verdict:
    line = solver.solve([rank(c) for c in pyramid], [rank(c) for c in stock])
    if line is None:
        return Verdict(False)
    return Verdict(True, tuple(_move(step) for step in line))


def verdict(state: Layout) -> Verdict:
    """The verdict a finished game carries (its deal is known to all by then)."""
    return verdict_of_deal(state)


def deal_is_winnable(state: Layout) -> bool:
    return _verdict(state.pyramid, state.stock).winnable


def unseen_counts(state: Layout) -> list[int]:
    """How many cards of each rank are still face down: all the player knows of them."""
    counts = Counter(rank(card) for card in state.unseen())
    return [counts[r] for r in range(1, 14)]


def known_seed(state: Layout) -> str:
    """A seed made of what the player can see only: a hint drawn from it cannot depend
    on the order of the stock."""
    pyramid = "".join(code(card) for card in state.pyramid)
    return f"escalator-hint/{pyramid}/{state.removed}/{''.join(map(code, state.bases))}"


def hint(state: Layout, seat: int) -> Hint | None:
    """The move that wins most often over the ways the unseen stock may fall."""
    if RULES.to_move(state) is None:
        return None
    found = solver.best_move([rank(c) for c in state.pyramid], state.removed,
                             unseen_counts(state), rank(state.base),
                             random.Random(known_seed(state)))
    if found is None:
        return None
    move = _move(found.move)
    chance = f"{round(100 * found.rate)} %"
    if isinstance(move, Pick):
        what = f"picking {short_name(state.pyramid[move.at])}"
    else:
        what = "turning the stock"
    ways = f"of {found.samples} ways the stock can fall"
    note = (f"{what} wins {chance} {ways}" if found.wins else
            f"{what} is the best try: no move wins in any {ways}")
    return Hint(move=RULES.move_to_json(move), note=note[0].upper() + note[1:])


def still_winnable(state: Layout) -> bool:
    """Whether some order of the unseen stock still lets the pyramid be cleared."""
    if state.removed.bit_count() == PYRAMID:
        return True
    return solver.winnable_with_some_order([rank(c) for c in state.pyramid], state.removed,
                                           unseen_counts(state), rank(state.base))


def assist_facts(state: Layout) -> dict[str, bool]:
    """The assist light: whether the pyramid can still be cleared."""
    return {"still_winnable": still_winnable(state)}


def winning_line(state: Layout, seat: int) -> Replay | str:
    """The solver's winning line for the deal, to step through with Redo."""
    found = verdict_of_deal(state) if state.verdict is None else state.verdict
    if not found.winnable:
        return "No order of play could have won this deal."
    first = card_name(state.stock[0])
    return Replay(tuple(RULES.move_to_json(move) for move in found.line),
                  f"The winning line, from the deal with the {first} as base: press Redo "
                  "(Y) to play it move by move")
