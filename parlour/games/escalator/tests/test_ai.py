"""Escalator's hints and verdicts: they use only what the player may know."""

from __future__ import annotations

import random
from dataclasses import replace

from parlour.core.gameid import GameId
from parlour.games.escalator.ai import hint, still_winnable, verdict_of_deal
from parlour.games.escalator.logic import Escalator, Layout

GAME = Escalator()


def deal(seed: str) -> Layout:
    return GameId("escalator", {"winnable": False}, seed, GAME.deal_version).deal(GAME)


def test_the_hint_never_depends_on_the_stock_order() -> None:
    rng = random.Random(5)
    for number in range(8):
        layout = deal(f"hint{number}")
        unseen = list(layout.stock[1:])
        rng.shuffle(unseen)
        other = replace(layout, stock=(layout.stock[0], *unseen))
        found = hint(layout, 0)
        assert found is not None and found == hint(other, 0)
        assert "ways the stock can fall" in found.note


def test_a_winnable_deal_has_a_line_that_the_rules_accept() -> None:
    for number in range(30):
        layout = deal(f"line{number}")
        found = verdict_of_deal(layout)
        if not found.winnable:
            continue
        state = layout
        for move in found.line:
            state = GAME.apply(state, move)
        assert GAME.status(state).value == "won"
        assert still_winnable(layout)  # the true order wins, so some order does
