"""The search (`search.py`, on ranks) put to work while Escalator is played: hints that
never look at the stock, the "still winnable?" light, and the winning line as a replay.
(The verdict at the end and winnable deals are the rules' own: `logic.py`.)"""

from __future__ import annotations

import random
from collections import Counter

from parlour.core.game import Hint, Replay, percent
from parlour.games.escalator import search
from parlour.games.escalator.logic import (
    PYRAMID,
    Draw,
    Escalator,
    Layout,
    Pick,
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
    """The move after which a win stays possible in the largest share of the orders the
    unseen stock may fall in, said as a player would (after the page's "Hint: "), in two
    lines of a phone: "Pick up the 7♣: a win stays possible in 40 % of stock orders". On a
    deal dealt winnable only the orders that let it be won count (the player knows the
    true one does): "...: the deal stays winnable in 97 % of stock orders". A turn of the
    stock with a card to pick up says that card's share, and its own shorter: "Turn the
    stock: winnable in 40 % of stock orders (picking the 7♠: 9 %)". A share of the
    orders, not a chance to win: playing on, the player still cannot see the stock."""
    if RULES.to_move(state) is None:
        return None
    turned = [rank(card) for card in state.stock[:state.turned]]  # seen, in order
    found = search.best_move([rank(c) for c in state.pyramid], state.removed,
                             unseen_counts(state), rank(state.base),
                             random.Random(known_seed(state)),
                             winnable_from=turned if state.dealt_winnable else None)
    if found is None:
        return None
    if found.wins:
        move = move_of_step(found.move)
        rather = _rather(state, found)
        if rather:  # two lines of a phone still: the share said short, the card's beside it
            note = f"{_doing(state, move)}: winnable in {_share(found)} stock orders {rather}"
        else:
            note = f"{_doing(state, move)}: {_odds(state, found)}"
        return Hint(move=RULES.move_to_json(move), note=note)
    # no sampled order won: the first move that keeps a win in reach, if any does
    for step, _ in found.odds:
        move = move_of_step(step)
        if keeps_a_win(state, move):
            return Hint(move=RULES.move_to_json(move),
                        note=f"{_doing(state, move)} to keep a win in reach, if the "
                             "stock falls kindly")
    move = move_of_step(found.move)
    return Hint(move=RULES.move_to_json(move),
                note=f"{_doing(state, move)}, though no order of the stock can win from "
                     "here now")


def _doing(state: Layout, move: Pick | Draw) -> str:
    if isinstance(move, Pick):
        return f"Pick up the {short_name(state.pyramid[move.at])}"
    return "Turn the stock"


def _odds(state: Layout, found: search.MoveOdds) -> str:
    """The sampled share in a player's words."""
    if state.dealt_winnable:
        return f"the deal stays winnable in {_share(found)} stock orders"
    return f"a win stays possible in {_share(found)} stock orders"


def _share(found: search.MoveOdds) -> str:
    """"40 % of" or "nearly all", before "stock orders"."""
    return ("nearly all" if found.wins == found.samples
            else f"{percent(_percent(found.wins, found.samples))} of")


def _rather(state: Layout, found: search.MoveOdds) -> str:
    """Why turn the stock with a card to pick up on the table: the best pick's share,
    "(picking the 7♠: 9 %)", "(picking the 6♣: none)"; nothing for a pick."""
    if not isinstance(move_of_step(found.move), Draw):
        return ""
    picks = [(wins, move) for step, wins in found.odds
             if isinstance(move := move_of_step(step), Pick)]
    if not picks:
        return ""
    wins, pick = max(picks, key=lambda pair: pair[0])
    share = _percent(wins, found.samples)
    # the turn wins strictly more (ties go to a pick), but the two may read alike: "15 %"
    # twice, or "99 %" beside "nearly all", would give no reason to turn
    # and "0 %" read as a figure to weigh, not as the pick that wins in no order tried
    said = ("fewer" if share >= min(99, _percent(found.wins, found.samples))
            else percent(share) if share else "none")
    return f"(picking the {short_name(state.pyramid[pick.at])}: {said})"


def _percent(wins: int, samples: int) -> int:
    """A share in whole percent: 1 to 99 unless none or all."""
    share = round(100 * wins / samples) if samples else 0
    return share if wins in (0, samples) else max(1, min(99, share))


def keeps_a_win(state: Layout, move: Pick | Draw) -> bool:
    """Whether some order of the unseen stock still wins after `move`."""
    pyramid, counts = [rank(c) for c in state.pyramid], unseen_counts(state)
    if isinstance(move, Pick):
        removed = state.removed | 1 << move.at
        return removed.bit_count() == PYRAMID or search.winnable_with_some_order(
            pyramid, removed, counts, rank(state.pyramid[move.at]))
    return any(  # the card turned may be of any rank still face down
        search.winnable_with_some_order(
            pyramid, state.removed, [n - (r == turned) for r, n in enumerate(counts)], turned + 1)
        for turned in range(13) if counts[turned]
    )


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
    # two lines on a phone at most (the status line's room); the deal is the one lost
    return Replay(tuple(RULES.move_to_json(move) for move in found.line),
                  "The solver's winning line: press Redo (Y) to play it move by move")
