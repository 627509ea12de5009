"""Boards updated from the parts that changed look exactly like boards loaded whole.

The server sends a move's view as the changed lines of the board markup when it can
(parlour/server/patch.py). Here a player clicks through games in one page while a
second page is loaded fresh after every few moves: both boards must be the same markup,
and most views must have come as parts. In Escalator a pick changes the picked card's
place and stacking (its style), never its place among the elements: the view comes as
parts, and the card keeps its element, never taken out, so that it flies to the base.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from playwright.sync_api import Page, WebSocket

from tests.browser.conftest import CreateGame, NextView, OpenPage, wait_for_views

GAMES = {
    "minesweeper": {"params": {"rows": 16, "cols": 30, "mines": 30}},
    # a fixed deal that 24 random placements do not end: a random one that ended early
    # went on as the game's end and an Undo, each view whole (CI saw 15 parts of 26)
    "ishido": {"id": "ishido:seed#parts"},
    "tictactoe": {"seats": ["human", "human"]},
}
# Ishido: the next tile goes on a cell where it fits (assist marks them with "valid")
PLAYABLE = {"minesweeper": '#board [aria-disabled="false"] .closed[data-move]',
            "ishido": "#board .valid[data-move]", "tictactoe": "#board .playable[data-move]"}

# The board's markup, attributes in order of name: an element morphed keeps the ones it
# had in their places and adds the others after them, unlike one parsed afresh. A move's
# passing effect is the page's to spend (views.js): a fresh load's is spent at once.
BOARD = """() => {
  const board = document.getElementById("board").cloneNode(true);
  board.querySelector("#ms-time")?.replaceChildren();  // the running clock
  for (const effect of board.querySelectorAll("[data-transient]")) effect.dataset.transient = "";
  for (const element of board.querySelectorAll("*")) {
    const names = element.getAttributeNames().sort();
    const values = names.map((name) => element.getAttribute(name));
    names.forEach((name) => element.removeAttribute(name));
    names.forEach((name, i) => element.setAttribute(name, values[i]));
  }
  return board.innerHTML;
}"""


def count_parts(page: Page, counts: dict[str, int]) -> None:
    def watch(socket: WebSocket) -> None:
        def frame(payload: str | bytes) -> None:
            message: dict[str, Any] = json.loads(payload)
            if message["type"] == "view":
                counts["parts" if message["view"].get("parts") is not None else "whole"] += 1

        socket.on("framereceived", frame)

    page.on("websocket", watch)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_parts_keep_the_board_equal_to_a_fresh_load(
    game: str, create_game: CreateGame, open_page: OpenPage, next_view: NextView
) -> None:
    created = create_game(game, **GAMES[game])
    sid, token = created["session"], created["token"]
    path = f"/play/{game}?session={sid}"
    counts = {"parts": 0, "whole": 0}
    player = open_page(path, tokens={sid: token})
    count_parts(player, counts)
    player.reload()
    wait_for_views(player, 1)
    if game == "ishido":
        with next_view(player):
            player.click("#btn-assist")
    rng = random.Random(7)
    for move in range(24):
        cells = player.locator(PLAYABLE[game])
        if cells.count() == 0:  # the game is over: take the last move back
            with next_view(player):
                player.click("#btn-undo")
                if player.locator("#undo-dialog").is_visible():  # (not once played with help)
                    player.click("#undo-yes")
            continue
        with next_view(player):
            cells.nth(rng.randrange(cells.count())).click()
        if move % 6 == 5:
            same_as_fresh(player, open_page(path, context=player.context))
    same_as_fresh(player, open_page(path, context=player.context))
    assert counts["parts"] >= 20, counts


def same_as_fresh(player: Page, fresh: Page) -> None:
    assert fresh.evaluate(BOARD) == player.evaluate(BOARD)
    fresh.close()


# Mark the card about to be picked, and watch the board for elements taken out of it
# (a move is a removal and an insertion): the card must stay the same element, never out.
MARK = """(id) => {
  document.getElementById(id).pickedHere = true;
  window.boardWatch = new MutationObserver(() => {});
  window.boardWatch.observe(document.getElementById("board"), { childList: true, subtree: true });
}"""
STILL_THERE = """(id) => {
  const card = document.getElementById(id);
  const records = window.boardWatch.takeRecords();
  window.boardWatch.disconnect();
  return { same: card.pickedHere === true,
           detached: records.some((record) => [...record.removedNodes].includes(card)) };
}"""


def test_escalator_picks_keep_the_card_and_the_board_equal_to_a_fresh_load(
    create_game: CreateGame, open_page: OpenPage, next_view: NextView
) -> None:
    created = create_game("escalator", params={"winnable": False})  # a random deal: at once
    sid = created["session"]
    path = f"/play/escalator?session={sid}"
    counts = {"parts": 0, "whole": 0}
    player = open_page(path, tokens={sid: created["token"]})
    count_parts(player, counts)
    player.reload()
    wait_for_views(player, 1)
    rng, picks = random.Random(3), 0
    for move in range(30):
        cards = player.locator("#board .esc-card.playable")
        if cards.count() == 0:
            if player.locator("#esc-stock[data-move]").count() == 0:
                break  # the game is over
            with next_view(player):
                player.keyboard.press("d")
            continue
        card_id = cards.nth(rng.randrange(cards.count())).get_attribute("id")
        player.evaluate(MARK, card_id)
        with next_view(player):
            player.locator(f"#{card_id}").click()
        picks += 1
        assert player.evaluate(STILL_THERE, card_id) == {"same": True, "detached": False}
        if move % 5 == 4:
            same_as_fresh(player, open_page(path, context=player.context))
    same_as_fresh(player, open_page(path, context=player.context))
    assert picks >= 5
    assert counts["whole"] <= 2 and counts["parts"] >= picks
