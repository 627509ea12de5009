"""The search (`search.py`, on ranks) put to work while Escalator is played: hints that
never look at the stock, the "still winnable?" light, and the winning line as a replay.
(The verdict at the end and winnable deals are the rules' own: `logic.py`.)"""

from __future__ import annotations

import random
from collections import Counter

from parlour.core.game import Hint, Replay
from parlour.games.escalator import search
from parlour.games.escalator.logic import (
    PYRAMID,
    Escalator,
    Layout,
    Pick,
    card_name,
    code,
    move_of_step,
    rank,
    short_name,
    verdict_of_deal,
)

RULES = Escalator()


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
    found = search.best_move([rank(c) for c in state.pyramid], state.removed,
                             unseen_counts(state), rank(state.base),
                             random.Random(known_seed(state)))
    if found is None:
        return None
    move = move_of_step(found.move)
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
    return search.winnable_with_some_order([rank(c) for c in state.pyramid], state.removed,
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
