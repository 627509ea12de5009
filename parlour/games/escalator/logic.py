"""Escalator, the pyramid solitaire of Greg Bacon's tktk (seed 003): the rules.

Twenty-eight cards make a seven-row pyramid, each card covered by the two below it; the
other twenty-four are the stock, whose first card starts face up as the base. A free
pyramid card one rank above or below the base (aces next to kings and twos, suits aside)
may be picked up and becomes the base; the stock may be turned for a new base at any
time. Clear the pyramid to win; with the stock spent and nothing to pick, the game is
lost. A turn of the stock cannot be undone: it showed the next card.

When a game is lost, the search (`search.py`, on ranks; it imports nothing of the game)
says whether the deal could have been won, and with "Deal only winnable games" it checks every
deal first.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, model_validator

from parlour.core.game import (
    JSON,
    Game,
    IllegalMove,
    Param,
    Params,
    Status,
    UndoRule,
    counted,
)
from parlour.games.escalator import search

ROWS = 7
PYRAMID = ROWS * (ROWS + 1) // 2  # 28 cards
STOCK = 52 - PYRAMID  # 24 cards
RANKS = "A23456789TJQK"
SUITS = "cdhs"
RANK_NAMES = ("ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
              "jack", "queen", "king")
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
SUIT_SYMBOLS = "♣♦♥♠"
FULL = (1 << PYRAMID) - 1

Card = int
"""0..51: rank (1..13) is card // 4 + 1, suit card % 4 (clubs, diamonds, hearts, spades)."""


def rank(card: Card) -> int:
    return card // 4 + 1


def code(card: Card) -> str:
    """'Th', 'As': rank letter and suit letter."""
    return RANKS[card // 4] + SUITS[card % 4]


def card_name(card: Card) -> str:
    return f"{RANK_NAMES[card // 4]} of {SUIT_NAMES[card % 4]}"


def short_name(card: Card) -> str:
    """'7♣', for notes and hints."""
    return f"{RANKS[card // 4].replace('T', '10')}{SUIT_SYMBOLS[card % 4]}"


def adjacent(a: int, b: int) -> bool:
    """Ranks one apart, aces next to both twos and kings."""
    return (a - b) % 13 in (1, 12)


def index(row: int, col: int) -> int:
    """The flat index of pyramid position (row, col): row 0 is the top card."""
    return row * (row + 1) // 2 + col


POSITIONS: tuple[tuple[int, int], ...] = tuple(
    (row, col) for row in range(ROWS) for col in range(row + 1)
)
COVERS: tuple[int, ...] = tuple(
    0 if row == ROWS - 1 else (1 << index(row + 1, col)) | (1 << index(row + 1, col + 1))
    for row, col in POSITIONS
)
"""Per pyramid card, the mask of the two cards covering it (none for the bottom row)."""


def is_free(removed: int, at: int) -> bool:
    """Whether pyramid card `at` is uncovered: both cards over it are gone."""
    return removed & COVERS[at] == COVERS[at] and not removed >> at & 1


@dataclass(frozen=True)
class Pick:
    at: int  # flat pyramid index


@dataclass(frozen=True)
class Draw:
    pass


Move = Pick | Draw


@dataclass(frozen=True)
class Verdict:
    """Whether the deal, fully known once the game is over, could have been won."""

    winnable: bool
    line: tuple[Move, ...] = ()  # a winning line from the deal, if there is one


@dataclass(frozen=True)
class Layout:
    """A position: the deal (fixed), what has been removed and turned, and the bases."""

    pyramid: tuple[Card, ...]  # 28 cards by flat index
    stock: tuple[Card, ...]  # 24 cards, in the order they are turned
    removed: int = 0  # mask of pyramid cards picked up
    turned: int = 1  # stock cards turned so far (the first starts as the base)
    bases: tuple[Card, ...] = ()  # every card that has been the base, oldest first
    last: Move | None = None
    # set when the game is lost (a win needs none: the player has shown the deal winnable)
    verdict: Verdict | None = None
    dealt_winnable: bool = False  # dealt as a winnable deal: the player knows it can be won

    @property
    def base(self) -> Card:
        return self.bases[-1]

    @property
    def stock_left(self) -> int:
        """Cards still face down."""
        return STOCK - self.turned

    def free(self) -> list[int]:
        return [at for at in range(PYRAMID) if is_free(self.removed, at)]

    def playable(self) -> list[int]:
        base = rank(self.base)
        return [at for at in self.free() if adjacent(rank(self.pyramid[at]), base)]

    def unseen(self) -> list[Card]:
        """The stock's cards still face down, in no order the player may know."""
        return sorted(self.stock[self.turned :])


def dealt(deck: Sequence[Card]) -> Layout:
    """The layout of a shuffled deck: the first 28 cards make the pyramid."""
    stock = tuple(deck[PYRAMID:])
    return Layout(tuple(deck[:PYRAMID]), stock, bases=(stock[0],))


def shuffled_deck(rng: random.Random) -> list[Card]:
    """Fisher–Yates, as the seed shuffles, from the game's seeded generator."""
    deck = list(range(52))
    for i in range(len(deck) - 1, 0, -1):
        j = rng.randint(0, i)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def move_of_step(step: search.Step) -> Move:
    """The solver's step (on ranks) as a move of the game."""
    return Pick(step.index) if isinstance(step, search.Pick) else Draw()


def verdict_of_deal(state: Layout) -> Verdict:
    """Whether the deal of `state`, played from its start, can be won, and how."""
    return _verdict(state.pyramid, state.stock)


@lru_cache(maxsize=4096)  # a replayed game asks again, and so do many games of one shared deal
def _verdict(pyramid: tuple[int, ...], stock: tuple[int, ...]) -> Verdict:
    line = search.solve([rank(c) for c in pyramid], [rank(c) for c in stock])
    if line is None:
        return Verdict(False)
    return Verdict(True, tuple(move_of_step(step) for step in line))


def deal_is_winnable(state: Layout) -> bool:
    return _verdict(state.pyramid, state.stock).winnable


class MoveModel(BaseModel):
    model_config = ConfigDict(extra="forbid")
    pick: tuple[StrictInt, StrictInt] | None = Field(
        None, description="[row, index] of a free pyramid card: row 0 is the top card, "
        "index 0 the leftmost of its row"
    )
    draw: StrictBool | None = Field(None, description="true: turn the next stock card as the base")

    @model_validator(mode="after")
    def one_action(self) -> MoveModel:
        if (self.pick is None) == (self.draw is None) or self.draw is False:
            raise ValueError('a move is {"pick": [row, index]} or {"draw": true}')
        return self


class Escalator(Game[Layout, Move]):
    name: ClassVar[str] = "escalator"
    title: ClassVar[str] = "Escalator"
    move_model: ClassVar[type[BaseModel]] = MoveModel
    parameters: ClassVar[tuple[Param, ...]] = (
        Param("winnable", "Deal only winnable games", "bool", False,
              help="the solver checks every deal before you see it"),
    )
    presets: ClassVar[dict[str, Params]] = {
        "standard": {"winnable": False},
        "winnable": {"winnable": True},
    }
    preset_labels: ClassVar[Mapping[str, str]] = {"standard": "Random deals",
                                                  "winnable": "Winnable deals"}
    new_game_preset: ClassVar[str | None] = "winnable"
    """A newcomer is dealt winnable deals: about 85 % of random deals cannot be won by any
    order of play, and a first game lost that way teaches nothing. Random deals are one
    click away (New ▾, the Game menu), counted apart in the statistics."""

    # -- dealing ---------------------------------------------------------------------
    def deal(self, params: Params, rng: random.Random) -> Layout:
        layout = dealt(shuffled_deck(rng))
        if params["winnable"]:
            while not deal_is_winnable(layout):  # the next shuffle, from the same generator
                layout = dealt(shuffled_deck(rng))
            return replace(layout, dealt_winnable=True)
        return layout

    def slow_deal(self, params: Params) -> bool:
        return bool(params["winnable"])

    # -- the rules -------------------------------------------------------------------
    def to_move(self, state: Layout) -> int | None:
        return 0 if self.status(state) is Status.PLAYING else None

    def legal_moves(self, state: Layout) -> list[Move]:
        if self.status(state) is not Status.PLAYING:
            return []
        moves: list[Move] = [Pick(at) for at in state.playable()]
        return [*moves, Draw()] if state.stock_left else moves

    def apply(self, state: Layout, move: Move) -> Layout:
        after = self._step(state, move)
        if self.status(after) is Status.LOST:  # the deal is known to all by now
            after = replace(after, verdict=verdict_of_deal(after))
        return after

    def _step(self, state: Layout, move: Move) -> Layout:
        """The position after `move`, without the verdict an ending move brings."""
        if self.status(state) is not Status.PLAYING:
            raise IllegalMove("the game is over")
        if isinstance(move, Draw):
            if not state.stock_left:
                raise IllegalMove("the stock is empty")
            card = state.stock[state.turned]
            return replace(state, turned=state.turned + 1, bases=(*state.bases, card),
                           last=move)
        self._check_pick(state, move.at)
        return replace(state, removed=state.removed | 1 << move.at,
                       bases=(*state.bases, state.pyramid[move.at]), last=move)

    @staticmethod
    def _check_pick(state: Layout, at: int) -> None:
        card, base = state.pyramid[at], state.base
        row, _ = POSITIONS[at]
        if state.removed >> at & 1:
            raise IllegalMove("that card has already been picked up")
        if not is_free(state.removed, at):
            raise IllegalMove(f"the {card_name(card)} is covered by cards of row {row + 2}")
        if not adjacent(rank(card), rank(base)):
            raise IllegalMove(f"the {card_name(card)} is not one rank from the base, the "
                              f"{card_name(base)}")

    def status(self, state: Layout) -> Status:
        if state.removed == FULL:
            return Status.WON
        if not state.stock_left and not state.playable():
            return Status.LOST
        return Status.PLAYING

    def scores(self, state: Layout) -> tuple[int, ...]:
        """Cards picked up from the pyramid."""
        return (state.removed.bit_count(),)

    def undo_rule(self, before: Layout, move: Move, after: Layout) -> UndoRule:
        return UndoRule.FORBIDDEN if isinstance(move, Draw) else UndoRule.ALLOWED

    undo_refusal: ClassVar[str] = "a card turned from the stock stays turned"
    hidden_seen: ClassVar[str] = "the stock's cards"

    def slow_move(self, state: Layout, move: Move) -> bool:
        """A move that loses the game: the solver then tells whether the deal could have
        been won (in a worker). The winning move is shown at once."""
        try:
            return self.status(self._step(state, move)) is Status.LOST
        except IllegalMove:
            return False

    def figures(self, state: Layout, elapsed_ms: int, moves: int) -> dict[str, float]:
        # counts as whole numbers: the end card shows a float to two places, as a rate
        figures: dict[str, float] = {"cards_left": PYRAMID - state.removed.bit_count()}
        if not figures["cards_left"]:  # cleared: the cards the stock had still to give
            figures["stock_left"] = state.stock_left
            figures["winnable"] = 1
        if state.verdict is not None:
            figures["winnable"] = int(state.verdict.winnable)
        return figures

    def sound(self, before: Layout, move: Move, after: Layout) -> str:
        return "flip" if isinstance(move, Draw) else "card"

    # -- what the player sees ----------------------------------------------------------
    def observe(self, state: Layout, seat: int | None) -> JSON:
        over = self.status(state) is not Status.PLAYING
        verdict = state.verdict
        return {
            "pyramid": [
                [None if state.removed >> index(row, col) & 1
                 else code(state.pyramid[index(row, col)]) for col in range(row + 1)]
                for row in range(ROWS)
            ],
            "free": [list(POSITIONS[at]) for at in state.free()],
            "playable": [list(POSITIONS[at]) for at in state.playable()],
            "base": code(state.base),
            "bases": [code(card) for card in state.bases],
            "stock": state.stock_left,
            "status": self.status(state).value,
            "last": _last(state),
            "verdict": None if verdict is None else {
                "winnable": verdict.winnable,
                "line": [self.move_to_json(move) for move in verdict.line],
            },
            # the stock's order is the deal's secret until the end
            "stock_order": [code(c) for c in state.stock[state.turned:]] if over else None,
        }

    def text(self, observation: JSON) -> str:
        rows = [  # centred: each card takes three characters
            " " * (3 * (ROWS - 1 - r) // 2) + " ".join(card or ".." for card in cards)
            for r, cards in enumerate(observation["pyramid"])
        ]
        return "\n".join([*rows, f"base: {observation['base']}",
                          f"stock: {observation['stock']}"])

    def headline(self, observation: JSON) -> str:
        status = observation["status"]
        if status == "won":
            return "Pyramid cleared"
        left = sum(card is not None for row in observation["pyramid"] for card in row)
        if status == "lost":
            return f"Game over: {counted(left, 'card')} left"
        return "Escalator"  # the board shows what is left; a phone has room for one line

    def headline_for(self, observation: JSON, seats: Collection[int]) -> str:
        """"You win!" to the player; the plain words to someone watching."""
        line = self.headline(observation)
        return f"You win! {line}" if seats and observation["status"] == "won" else line

    def shown_headline(self, observation: JSON) -> str:
        if observation["status"] == "won":
            return "Pyramid cleared by the solver"
        return self.headline(observation)

    # -- moves as JSON -----------------------------------------------------------------
    def move_from_model(self, model: Any) -> Move:
        if model.draw:
            return Draw()
        row, col = model.pick
        if not (0 <= row < ROWS and 0 <= col <= row):
            raise IllegalMove(f"there is no pyramid card at [{row}, {col}]: row 0 has one "
                              "card, row r has r + 1")
        return Pick(index(row, col))

    def move_to_json(self, move: Move) -> JSON:
        if isinstance(move, Draw):
            return {"draw": True}
        return {"pick": list(POSITIONS[move.at])}


def _last(state: Layout) -> JSON:
    move = state.last
    if move is None:
        return None
    if isinstance(move, Draw):
        return {"draw": True, "card": code(state.base)}
    return {"pick": list(POSITIONS[move.at]), "card": code(state.pyramid[move.at])}
