"""Tribolo in real Chromium against a real server: three browsers on their invite links,
one player against two computers to the end, help and hints, a take-back between people,
and a player who leaves and comes back.

Boards are compared as the contract's text: 11 rows of 16 characters, B, R, G, # and .,
read from the cells' classes in the page. The page's legal cells are worked out from that
text with the rules engine, as a player reads them off the board.

A test whose course the deal decides (who can move when, how long the computers play in
a row) plays a deal picked by `find_deal`: the first whose game, played by the engine as
the test plays it, goes the way the test needs. The computers' moves are seeded by the
game's id and the move's number, so the game in the browsers goes the same way (unless
the computer fails to think within 20 s, when the server plays a random move).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from parlour.core.gameid import parse_game_id
from parlour.core.session import Session
from parlour.games import GAMES
from parlour.games.tribolo.rules import (
    Board,
    board_from_rows,
    cell_at,
    cells,
    legal_moves,
    next_to_move,
    play,
    position,
)
from tests.browser.conftest import (
    TIMEOUT_MS,
    CreateGame,
    NewContext,
    NextView,
    OpenPage,
    ServerView,
    wait_for_views,
)
from tests.browser.pages import GamePage
from tests.browser.views import wait_for_layout

pytestmark = pytest.mark.browser

Cell = tuple[int, int]
NAMES = ("Blue", "Red", "Green")
AI_MS = 20_000  # the computers' turns, each shown for a moment before it plays
SPEC = GAMES["tribolo"]

BOARD_JS = """() => [...Array(11).keys()].map((y) => [...Array(16).keys()].map((x) => {
  const cell = document.getElementById(`tb-${x}-${y}`);
  if (!cell) return "?";
  const kind = ["p0", "p1", "p2", "wall", "vacant"].find((k) => cell.classList.contains(k));
  return { p0: "B", p1: "R", p2: "G", wall: "#", vacant: "." }[kind] || "?";
}).join("")).join("\\n")"""


class TriboloPage(GamePage):
    BOARD_JS = BOARD_JS

    def cell(self, x: int, y: int) -> Any:
        return self.page.locator(f"#tb-{x}-{y}")

    def mover(self) -> int | None:
        found = self.page.locator("#tb").get_attribute("data-mover")
        return int(found) if found else None

    def legal(self) -> list[Cell]:
        """The cells the player to move may play, read off the page's board."""
        mover = self.mover()
        if mover is None:
            return []
        return legal_on(board_from_rows(self.board().split("\n")), mover)

    def wait_my_turn(self, timeout: int = AI_MS) -> None:
        """Wait until this page may move (its grid is on), or the game is over."""
        self.page.wait_for_function(
            "() => document.querySelector('#tb-grid[aria-disabled=false], #tb-grid.over')",
            timeout=timeout)

    def click(self, x: int, y: int) -> None:
        with self.next_view(self.page):
            self.cell(x, y).click()

    def seat_chip(self, seat: int) -> Any:
        return self.page.locator(f'#seats [data-seat="{seat}"]')


OpenGame = Callable[..., TriboloPage]


@pytest.fixture
def tribolo(open_page: OpenPage, next_view: NextView) -> OpenGame:
    def open_game(path: str, **options: Any) -> TriboloPage:
        return TriboloPage(open_page(path, **options), next_view)

    return open_game


def rows_of(view: dict[str, Any]) -> str:
    return "\n".join(view["text"].split("\n")[:11])


def find_deal(seats: list[str], suits: Callable[[Session], bool]) -> str:
    """The first id (t0, t1, ...) whose game, seated as `seats`, suits a test: `suits`
    plays it as the test does, with the engine and the same computers."""
    for n in range(1000):
        game_id = f"tribolo:standard#t{n}"
        if suits(Session(SPEC, parse_game_id(SPEC.game, game_id), seats)):
            return game_id
    raise AssertionError("no deal suits the test")


def computers_play(session: Session) -> int:
    """The computers' moves (a stand-in's too) until a person is to move or the game is
    over: how many they played."""
    played = 0
    while (seat := session.to_move) is not None and session.is_ai(seat):
        session.play(session.choose_ai_move(), seat)
        played += 1
    return played


def legal_on(board: Board, mover: int) -> list[Cell]:
    """The cells where `mover` may play on `board`, in the order the tests take them."""
    return [position(cell) for cell in cells(legal_moves(board, mover))]


def legal_cells(session: Session) -> list[Cell]:
    """The cells the player to move may play, as `TriboloPage.legal` reads them."""
    mover = session.to_move
    assert mover is not None
    return legal_on(session.state.board, mover)


def host_with_open_seats(create_game: CreateGame, tribolo: OpenGame, green: str = "open",
                         game_id: str | None = None) -> tuple[str, TriboloPage]:
    chosen = {"id": game_id} if game_id else {}
    created = create_game("tribolo", seats=["human", "open", green], **chosen)
    sid = created["session"]
    return sid, tribolo(f"/play/tribolo?session={sid}", tokens={sid: created["token"]})


# Each transition that starts on a seat's chip or a player's box, from now on.
RECORD_TURN_TRANSITIONS = """() => {
  window.turnTransitions = [];
  document.addEventListener("transitionrun", (event) => {
    if (event.target.closest(".seat")) window.turnTransitions.push(event.propertyName);
  });
}"""


def test_three_browsers_on_their_invite_links_all_see_every_move(
    tribolo: OpenGame, create_game: CreateGame, server_view: ServerView
) -> None:
    sid, blue = host_with_open_seats(create_game, tribolo)
    expect(blue.page.locator("#seats [data-invite-seat]")).to_have_count(2)  # a link per seat
    green = tribolo(f"/play/tribolo?session={sid}&seat=2", confirm=True)
    red = tribolo(f"/play/tribolo?session={sid}&seat=1", confirm=True)
    players = [blue, red, green]
    for seat, page in enumerate(players):
        expect(page.seat_chip(seat)).to_contain_text("You")
    expect(blue.page.locator("#seats [data-invite-seat]")).to_have_count(0)

    for page in players:
        page.page.evaluate(RECORD_TURN_TRANSITIONS)
    rng = random.Random(12)
    for _ in range(6):
        view = server_view(sid)
        mover = players[view["to_move"]]
        x, y = rng.choice(mover.legal())
        mover.click(x, y)
        expected = rows_of(server_view(sid))
        assert expected[y * 17 + x] == "BRG"[view["to_move"]]
        for page in players:
            page.wait_board(expected)
    for seat, page in enumerate(players):  # each sees whose turn it is, and may move only then
        mover = server_view(sid)["to_move"]
        grid = page.page.locator("#tb-grid")
        expect(grid).to_have_attribute("aria-disabled", "false" if seat == mover else "true")
    assert server_view(sid)["moves"] == 6
    # whose turn it is showed at once: a transition there, in every browser on every move,
    # would be drawn frame by frame on each page's main thread (issue 14)
    for page in players:
        assert page.page.evaluate("window.turnTransitions") == []


def blue_waits_little(session: Session) -> bool:
    """Played as the test below plays it (Blue's cells drawn by random.Random(5)), the
    computers never play more than 12 moves in a row: Blue waits at most about 8 s for a
    turn (each computer move is shown for a moment first), well within AI_MS. Some deals
    shut Blue out for a hundred moves."""
    rng = random.Random(5)
    while computers_play(session) <= 12:
        if session.to_move is None:
            return True
        session.play(SPEC.game.move_to_json(rng.choice(legal_cells(session))), 0)
    return False


def test_one_player_beats_or_loses_to_two_computers_clicking_to_the_end(
    tribolo: OpenGame, create_game: CreateGame, server_view: ServerView,
    new_context: NewContext,
) -> None:
    seats = ["human", "ai:easy", "ai:easy"]
    created = create_game("tribolo", seats=seats, id=find_deal(seats, blue_waits_little))
    sid = created["session"]
    # the computers at "instant": this test is about the game's end (their pace has its own)
    game = tribolo(f"/play/tribolo?session={sid}",
                   context=with_speed(new_context, sid, created["token"], "instant"))
    rng = random.Random(5)
    keyboard_moves = 0
    last = (0, 0)  # Blue's move with the keys
    while True:
        game.wait_my_turn()
        if server_view(sid)["status"] != "playing":
            break
        legal = game.legal()
        assert legal, "Blue's turn with nowhere to play"
        x, y = rng.choice(legal)
        if keyboard_moves == 1:  # on Blue's own disc, Enter brings the cursor to a move
            game.cell(*last).focus()
            game.page.keyboard.press("Enter")
            x, y = min(legal, key=lambda cell: (cell[1], cell[0]))  # the view's data-start
            expect(game.cell(x, y)).to_be_focused()
            with game.next_view(game.page):
                game.page.keyboard.press("Enter")
            keyboard_moves += 1
        elif keyboard_moves < 1:  # the first move with the arrow keys and Enter
            game.cell(x, y).focus()
            game.page.keyboard.press("ArrowLeft" if x > 0 else "ArrowRight")
            game.page.keyboard.press("ArrowRight" if x > 0 else "ArrowLeft")
            with game.next_view(game.page):
                game.page.keyboard.press("Enter")
            keyboard_moves += 1
            last = (x, y)
        else:
            game.click(x, y)
        game.page.wait_for_function(
            "([x, y]) => !document.getElementById(`tb-${x}-${y}`).classList.contains('empty')",
            arg=[x, y], timeout=TIMEOUT_MS)
    final = server_view(sid)
    game.wait_board(rows_of(final))
    expect(game.headline).to_have_text(final["headline"])
    assert final["text"].endswith("to move: none")
    expect(game.page.locator("#tb-grid")).to_have_attribute("aria-disabled", "true")
    expect(game.page.locator("#tb-note")).to_contain_text("game is over")
    winners = [NAMES[seat] for seat in final["winners"]]
    for seat, name in enumerate(NAMES):  # the scores are the seat chips', shown once
        chip = game.seat_chip(seat)
        expect(chip.locator(".score")).to_have_text(str(final["scores"][seat]))
        assert ("winner" in (chip.get_attribute("class") or "")) == (name in winners)
    expect(game.page.locator("#board .tb-score")).to_have_count(0)
    expect(game.page.locator("#btn-undo")).to_be_enabled()  # alone: Undo, not a take-back
    # the end card says where Blue finished among the three: a place, not just "lost"
    scores = final["scores"]
    ahead = sum(score > scores[0] for score in scores)
    shared = scores.count(scores[0]) > 1
    said = ("Well played!" if final["winners"] == [0] else "Well held!" if 0 in final["winners"]
            else f"{['Second', 'Third'][ahead - 1]} place{', shared' if shared else ''}.")
    expect(game.page.locator("#end-detail")).to_have_text(said)


def test_your_legal_cells_show_help_adds_what_each_turns_and_a_hint_one_cell(
    tribolo: OpenGame, create_game: CreateGame
) -> None:
    created = create_game("tribolo", seats=["human", "human", "human"])
    sid = created["session"]
    game = tribolo(f"/play/tribolo?session={sid}", tokens={sid: created["token"]})
    legal = set(game.legal())

    def marked() -> set[Cell]:
        found = game.page.eval_on_selector_all("#tb-grid .legal", "cells => cells.map((c) => c.id)")
        return {(int(x), int(y)) for _, x, y in (name.split("-") for name in found)}

    assert marked() == legal  # where you may play, without help
    expect(game.page.locator("#tb-grid .gain")).to_have_count(0)
    expect(game.page.locator("#assisted")).to_be_hidden()
    with game.next_view(game.page):
        game.page.keyboard.press("a")
    assert marked() == legal
    expect(game.page.locator("#tb-grid .gain")).to_have_count(len(legal))
    expect(game.page.locator("#assisted")).to_be_visible()
    # each count is hollow: a ring in the mover's colour round the number, in the text's
    # colour, on the empty cell, in place of the dot; never a disc of the mover's (a
    # filled marker in Blue's colour was taken for Blue's discs)
    mover = game.mover()
    for theme in ("light", "dark", "colour-blind"):
        game.page.evaluate(f"document.documentElement.dataset.theme = '{theme}'")
        look = game.page.eval_on_selector("#tb-grid .legal .gain", GAIN_LOOK_JS, mover)
        assert look["ring"] == look["disc"] and look["width"] >= 2, (theme, look)
        assert look["fill"] == "rgba(0, 0, 0, 0)" and look["number"] == look["text"], (theme, look)
        assert look["dot"] == "none", (theme, look)
    game.page.keyboard.press("h")
    hinted = game.page.locator("#tb-grid .hint")
    expect(hinted).to_have_count(1, timeout=AI_MS)
    _, x, y = (hinted.get_attribute("id") or "").split("-")
    assert (int(x), int(y)) in legal


# A legal cell's count and its cell as the page draws them, beside the mover's disc.
GAIN_LOOK_JS = """(gain, mover) => {
  const style = getComputedStyle(gain);
  const disc = document.querySelector(`#tb-grid .p${mover} .disc`);
  return { ring: style.borderTopColor, width: parseFloat(style.borderTopWidth),
           fill: style.backgroundColor, number: style.color,
           text: getComputedStyle(document.body).color,
           disc: getComputedStyle(disc).backgroundColor,
           dot: getComputedStyle(gain.parentElement, "::after").content };
}"""


def test_the_assist_is_named_assist_in_its_menu_its_button_and_the_keys(
    tribolo: OpenGame, create_game: CreateGame
) -> None:
    created = create_game("tribolo", seats=["human", "human", "human"])
    sid = created["session"]
    page = tribolo(f"/play/tribolo?session={sid}", tokens={sid: created["token"]}).page
    assist = "Assist: show how many cells each move turns"
    page.click("#menu-edit")
    expect(page.locator('#menu-edit-list [data-run="assist"]')).to_contain_text(assist)
    page.keyboard.press("Escape")
    expect(page.locator("#btn-assist")).to_have_attribute("title", f"{assist} (A); counts as help")
    page.keyboard.press("F1")
    rows = page.locator("#keys tr")
    texts = [rows.nth(i).inner_text().replace("\t", " ") for i in range(rows.count())]
    assert f"A {assist}" in texts, texts
    assert not [text for text in texts if "Help: show" in text], texts


def test_a_hint_takes_the_keyboards_cursor_and_enter_plays_it(
    tribolo: OpenGame, create_game: CreateGame
) -> None:
    seats = ["human", "human", "human"]
    game_id = find_deal(seats, lambda session: session.to_move == 0)
    created = create_game("tribolo", seats=seats, id=game_id)
    sid = created["session"]
    game = tribolo(f"/play/tribolo?session={sid}", tokens={sid: created["token"]})
    page = game.page
    hinted = page.locator("#tb-grid .hint")

    # Tab onto the board (the board as a whole has the focus, no cell), then H: the
    # cursor goes to the hinted cell, not only the highlight, and Enter plays it
    page.locator("#board-wrap").focus()
    page.keyboard.press("h")
    expect(hinted).to_have_count(1, timeout=AI_MS)
    expect(hinted).to_be_focused()
    cell = str(hinted.get_attribute("id"))
    start = page.locator("#tb-grid [data-start]").get_attribute("id")
    assert cell != start, "the deal's hint is its first legal cell: the test would prove nothing"
    with game.next_view(page):
        page.keyboard.press("Enter")
    expect(page.locator(f"#{cell}")).to_have_class(re.compile(r"\bp0\b"))

    # Red's turn: a hint asked while the focus is elsewhere (a toolbar button) leaves it
    # there; Enter on the board then brings the cursor to the hinted cell, not to the
    # first legal one, and Enter again plays it
    assert game.mover() == 1
    page.locator("#btn-assist").focus()
    page.keyboard.press("h")
    expect(hinted).to_have_count(1, timeout=AI_MS)
    expect(page.locator("#btn-assist")).to_be_focused()
    cell = str(hinted.get_attribute("id"))
    assert cell != page.locator("#tb-grid [data-start]").get_attribute("id")
    page.locator("#board-wrap").focus()
    page.keyboard.press("Enter")
    expect(hinted).to_be_focused()
    with game.next_view(page):
        page.keyboard.press("Enter")
    expect(page.locator(f"#{cell}")).to_have_class(re.compile(r"\bp1\b"))


def test_keyboard_play_takes_one_enter_a_move_on_one_screen(
    tribolo: OpenGame, create_game: CreateGame, base_url: str
) -> None:
    """When the turn comes to a seat this page plays, the cursor left on the cell just filled
    goes to the nearest cell the new mover may play (it took a second Enter before, which
    only moved it there); a cursor on such a cell, or the focus off the board, stays."""
    created = create_game("tribolo", seats=["human", "human", "human"], id="tribolo:standard#t1")
    sid, token = created["session"], created["token"]
    game = tribolo(f"/play/tribolo?session={sid}", tokens={sid: token})
    page = game.page
    focused = page.locator(":focus")
    page.locator("#board-wrap").focus()
    page.keyboard.press("Enter")  # the cursor onto the board: the first cell Blue may play
    for _ in range(6):  # six moves, six Enters
        mover = game.mover()
        cell = str(focused.get_attribute("id"))
        x, y = (int(part) for part in cell.split("-")[1:])
        assert (x, y) in game.legal(), f"the cursor is on {cell}, where {NAMES[mover]} may not play"
        with game.next_view(page):
            page.keyboard.press("Enter")
        expect(page.locator(f"#{cell}")).to_have_class(re.compile(rf"\bp{mover}\b"))

    def moved_by_script(focus: str) -> None:  # the mover's first legal cell, played for them
        first = game.legal()[0]
        page.locator(focus).focus()
        with game.next_view(page):
            reply = httpx.post(f"{base_url}/api/games/{sid}/moves",
                               json={"move": {"cell": list(first)}},
                               headers={"Authorization": f"Bearer {token}"})
            assert reply.status_code == 200, reply.text

    # a cursor on a cell the next mover may play stays there, whichever is nearest
    board, mover = board_from_rows(game.board().split("\n")), game.mover()
    assert mover is not None
    after = play(board, mover, cell_at(*game.legal()[0]))
    waiting = next_to_move(after, mover)
    assert waiting is not None and waiting != mover, "the deal would test nothing"
    theirs = legal_on(after, waiting)[-1]
    moved_by_script(f"#tb-{theirs[0]}-{theirs[1]}")
    expect(page.locator(f"#tb-{theirs[0]}-{theirs[1]}")).to_be_focused()
    moved_by_script("#btn-assist")  # the focus off the board stays
    expect(page.locator("#btn-assist")).to_be_focused()
    wall = page.locator("#tb-grid .wall").first
    moved_by_script(f"#{wall.get_attribute('id')}")  # off a wall, onto a cell to play
    expect(focused).to_have_attribute("data-playable", "")


# -- the move list and the computers' speed -------------------------------------------------
SPEED_SCRIPT = """if (location.protocol.startsWith("http")) {
  localStorage.setItem("parlour.display.tribolo", JSON.stringify({ computers: %s }));
}"""
PAST_BOARD_JS = """() => {
  const cells = [...document.querySelectorAll("#past-board .tb-cell")];
  const mark = (cell) => ({ p0: "B", p1: "R", p2: "G", wall: "#", vacant: "." })[
    ["p0", "p1", "p2", "wall", "vacant"].find((k) => cell.classList.contains(k))] || "?";
  const row = (y) => cells.slice(y * 16, y * 16 + 16).map(mark).join("");
  return [...Array(11).keys()].map(row).join("\\n");
}"""
# The time each move came into the move list (performance.now(), in ms), by its number.
RECORD_MOVE_TIMES = """() => {
  window.moveTimes = {};
  new MutationObserver(() => {
    for (const item of document.querySelectorAll("#movelist-items .mv[data-ply]")) {
      window.moveTimes[item.dataset.ply] ??= performance.now();
    }
  }).observe(document.getElementById("movelist-items"), { childList: true, subtree: true });
}"""


def two_computers_answer(session: Session) -> bool:
    """Blue moves first, and its first legal cell is answered by Red and then Green."""
    return plays_first_cell(session, 0) and computers_play(session) == 2 and session.to_move == 0


def with_speed(new_context: NewContext, sid: str, token: str, speed: str) -> Any:
    """A browser whose player chose `speed` for the computers (the Display dialog's)."""
    context = new_context(tokens={sid: token})
    context.add_init_script(SPEED_SCRIPT % json.dumps(speed))
    return context


def position_text(base_url: str, sid: str, ply: int, token: str) -> str:
    """A past position as the player holding `token` saw it (only players may, before the end)."""
    reply = httpx.get(f"{base_url}/api/games/{sid}/positions/{ply}",
                      headers={"Authorization": f"Bearer {token}"})
    assert reply.status_code == 200, reply.text
    return "\n".join(str(reply.json()["text"]).split("\n")[:11])


def test_the_move_list_names_every_computer_move_and_shows_its_position(
    tribolo: OpenGame, create_game: CreateGame, server_view: ServerView,
    new_context: NewContext, base_url: str,
) -> None:
    seats = ["human", "ai:easy", "ai:easy"]
    created = create_game("tribolo", seats=seats, id=find_deal(seats, two_computers_answer))
    sid = created["session"]
    game = tribolo(f"/play/tribolo?session={sid}",
                   context=with_speed(new_context, sid, created["token"], "instant"))
    game.wait_my_turn()
    game.click(*game.legal()[0])
    game.wait_my_turn()
    view = server_view(sid)
    notes = view["move_list"]
    assert [note["seat"] for note in notes] == [0, 1, 2] and view["moves"] == 3
    items = game.page.locator("#movelist-items .mv:not(.mv-start)")
    expect(items).to_have_count(3)
    for item, note in zip(items.all(), notes, strict=True):  # who, where, what it took
        expect(item).to_contain_text(f"{note['ply']}{NAMES[note['seat']]} {note['text']}")
        assert note["text"].split(", turned ")[1].isdigit()

    live = game.board()
    items.nth(1).click()  # Red's move: the board as it was after it
    past = game.page.locator("#past-board")
    expect(past).to_be_visible()
    expect(game.page.locator("#board")).to_be_hidden()
    expect(game.page.locator("#movelist-title")).to_have_text("Move 2 of 3")
    token = created["token"]
    assert game.page.evaluate(PAST_BOARD_JS) == position_text(base_url, sid, 2, token) != live
    expect(past.locator(".placed.p1")).to_have_count(1)  # Red's move, ringed
    game.page.keyboard.press("ArrowUp")  # the list's keys step through the moves
    expect(game.page.locator("#movelist-title")).to_have_text("Move 1 of 3")
    first = json.dumps(position_text(base_url, sid, 1, token))
    game.page.wait_for_function(f"() => ({PAST_BOARD_JS})() === {first}")
    game.page.get_by_role("button", name="Back to the game").click()
    expect(game.page.locator("#board")).to_be_visible()
    expect(past).to_be_hidden()
    assert game.board() == live


def test_the_computers_play_at_the_speed_the_player_chose(
    tribolo: OpenGame, create_game: CreateGame, server_view: ServerView, new_context: NewContext,
) -> None:
    seats = ["human", "ai:easy", "ai:easy"]
    created = create_game("tribolo", seats=seats, id=find_deal(seats, two_computers_answer))
    sid = created["session"]
    game = tribolo(f"/play/tribolo?session={sid}",
                   context=with_speed(new_context, sid, created["token"], "instant"))
    page = game.page

    def gap_between_the_computers() -> float:
        page.evaluate(RECORD_MOVE_TIMES)
        game.wait_my_turn()
        game.click(*game.legal()[0])
        page.wait_for_function("() => window.moveTimes[3] !== undefined", timeout=AI_MS)
        seconds: float = page.evaluate("() => (window.moveTimes[3] - window.moveTimes[2]) / 1000")
        return seconds

    instant = gap_between_the_computers()
    with game.next_view(page):
        page.locator("#btn-undo").click()
    page.locator("#btn-theme").click()  # the Display dialog: the computers' speed
    # a speed chosen says hello again at once: the new connection's first view, before the
    # next click (one on the closing socket would not be played)
    with game.next_view(page):
        page.locator("#opt-computers").select_option("slow")
    page.locator("#display-dialog").get_by_role("button", name="Done").click()
    slow = gap_between_the_computers()
    assert slow >= 1.3, slow  # 2.5 times the game's pause of 0.6 s (1.5 s), less the network
    assert instant < 1.0, instant  # no pause: only the time the computer thinks


def red_moves_after_blue(session: Session) -> bool:
    """Played as the test below plays it (Red's first legal cell whenever Red is to move
    before Blue), Red is to move after Blue's first move: no computer move follows it
    while the take-back is asked and answered."""
    while session.to_move not in (0, None):
        if session.to_move == 1:
            plays_first_cell(session, 1)
        elif computers_play(session) > 12:
            return False
    return plays_first_cell(session, 0) and session.to_move == 1


def test_a_take_back_asked_of_the_other_player_and_accepted(
    tribolo: OpenGame, create_game: CreateGame, server_view: ServerView
) -> None:
    game_id = find_deal(["human", "human", "ai:easy"], red_moves_after_blue)
    sid, blue = host_with_open_seats(create_game, tribolo, green="ai:easy", game_id=game_id)
    red = tribolo(f"/play/tribolo?session={sid}&seat=1", confirm=True)
    expect(red.seat_chip(1)).to_contain_text("You")
    while server_view(sid)["to_move"] != 0:  # Red or the computer may move first
        if server_view(sid)["to_move"] == 1:
            red.wait_my_turn()
            red.click(*red.legal()[0])
        else:
            blue.page.wait_for_timeout(200)
    blue.wait_my_turn()
    before = rows_of(server_view(sid))
    blue.click(*blue.legal()[0])
    red.wait_board(rows_of(server_view(sid)))  # Red sees Blue's move

    undo = blue.page.locator("#btn-undo")
    expect(undo).to_have_text("↶Take back")
    undo.click()
    bar = red.page.locator("#takeback")
    expect(bar).to_contain_text("Blue asks to take back their last move")
    bar.get_by_role("button", name="Accept").click()
    blue.wait_board(before)
    red.wait_board(before)
    assert server_view(sid)["to_move"] == 0
    expect(blue.message).to_contain_text("accepted")


def red_comes_back_to_a_move(session: Session) -> bool:
    """Played as the test below plays it, Red has a move to make when back: Red leaves at
    once and the computer stands in; twice Blue plays its first legal cell and a computer
    answers; Red takes the seat back and Blue plays again. (In some deals Red has no
    capture then and passes, or Blue is shut out early.)"""
    level = SPEC.stand_in_level
    assert level is not None
    session.stand_ins[1] = level
    if computers_play(session) > 12:  # Blue waits for each turn within AI_MS
        return False
    for _ in range(2):
        if not plays_first_cell(session, 0) or not 0 < computers_play(session) <= 12:
            return False
    session.stand_ins.clear()
    return plays_first_cell(session, 0) and session.to_move == 1


def plays_first_cell(session: Session, seat: int) -> bool:
    """`seat` plays the first of its legal cells; False if it is not its turn."""
    if session.to_move != seat:
        return False
    session.play(SPEC.game.move_to_json(legal_cells(session)[0]), seat)
    return True


def test_a_player_leaves_the_computer_plays_for_them_and_they_come_back(
    tribolo: OpenGame, create_game: CreateGame, server_view: ServerView
) -> None:
    game_id = find_deal(["human", "human", "ai:easy"], red_comes_back_to_a_move)
    sid, blue = host_with_open_seats(create_game, tribolo, green="ai:easy", game_id=game_id)
    red = tribolo(f"/play/tribolo?session={sid}&seat=1", confirm=True)
    expect(red.seat_chip(1)).to_contain_text("You")

    red.page.click("#menu-game")
    red.page.get_by_role("menuitem", name="Leave your seat").click()
    expect(red.seat_chip(1)).to_contain_text("Computer, for now")
    expect(red.message).to_contain_text("You are watching")
    for _ in range(2):  # Blue plays; the computer answers for Red (and for Green)
        blue.wait_my_turn()
        moves = server_view(sid)["moves"]
        blue.click(*blue.legal()[0])
        blue.page.wait_for_function(
            "() => document.querySelector('#tb-grid[aria-disabled=false], #tb-grid.over')",
            timeout=AI_MS)
        assert server_view(sid)["moves"] >= moves + 2

    red.page.reload()
    wait_for_views(red.page, 1)
    red.page.locator('#seats [data-take-seat="1"]').click()
    expect(red.seat_chip(1)).to_contain_text("You")
    expect(blue.seat_chip(1)).to_contain_text("Opponent")
    blue.wait_my_turn()
    moves = server_view(sid)["moves"]
    blue.click(*blue.legal()[0])
    red.wait_my_turn()  # Red's turn is the player's again, not the computer's
    assert server_view(sid)["to_move"] == 1 and server_view(sid)["moves"] == moves + 1
    red.click(*red.legal()[0])
    assert server_view(sid)["moves"] >= moves + 2


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_the_coordinates_beside_the_board_name_cells_as_the_notes_do(
    tribolo: OpenGame, create_game: CreateGame, new_context: NewContext, phone: bool
) -> None:
    """Blue plays, and "Blue played k3" sits under the letter k and beside the number 3
    (on a phone, where the board stands on its side, the letters run down the side)."""
    created = create_game("tribolo", seats=["human", "human", "human"])
    sid = created["session"]
    tokens = {sid: created["token"]}
    size = {"width": 390, "height": 844} if phone else {"width": 1280, "height": 860}
    game = tribolo(f"/play/tribolo?session={sid}", tokens=tokens,
                   context=new_context(tokens=tokens, viewport=size))
    x, y = game.legal()[0]
    game.click(x, y)
    note = game.page.locator("#tb-note").inner_text()
    name = note.split(" played ")[1].split(" ")[0]
    letter, number = name[0], name[1:]
    assert (letter, number) == ("abcdefghijklmnop"[x], str(y + 1)), note
    cell = game.centre(game.page.locator(".tb-cell.placed"))
    files = game.page.locator(".tb-files span")
    ranks = game.page.locator(".tb-ranks span")
    expect(files).to_have_text(list("abcdefghijklmnop"))
    expect(ranks).to_have_text([str(n) for n in range(1, 12)])
    file_at = game.centre(files.nth(x))
    rank_at = game.centre(ranks.nth(y))
    across, down = (1, 0) if phone else (0, 1)  # the letters' axis, then the numbers'
    assert abs(file_at[across] - cell[across]) < 2, "the letter is not in line with the cell"
    assert abs(rank_at[down] - cell[down]) < 2, "the number is not in line with the cell"
    assert file_at[down] < cell[down] and rank_at[across] < cell[across], "labels outside"


# -- a tall phone: the board on its side ----------------------------------------------------
NARROW_PHONE = {"width": 360, "height": 740}


def on_a_phone(tribolo: OpenGame, create_game: CreateGame, new_context: NewContext,
               *, touch: bool = True, viewport: dict[str, int] = NARROW_PHONE,
               **options: Any) -> TriboloPage:
    """A game of three people on this screen, on a phone held upright (360x740 unless told)."""
    created = create_game("tribolo", seats=["human", "human", "human"], **options)
    sid = created["session"]
    tokens = {sid: created["token"]}
    context = new_context(tokens=tokens, viewport=viewport, has_touch=touch, is_mobile=touch)
    return tribolo(f"/play/tribolo?session={sid}", tokens=tokens, context=context)


def test_on_a_tall_phone_the_board_turns_and_its_cells_take_a_finger(
    tribolo: OpenGame, create_game: CreateGame, new_context: NewContext
) -> None:
    """11 cells across a 360-pixel phone and 16 down, each 30 px or more (20 before: the
    board fitted the height), and nothing wider than the screen."""
    game = on_a_phone(tribolo, create_game, new_context)
    first, across, down = (game.cell(*cell).bounding_box() for cell in ((0, 0), (0, 1), (1, 0)))
    assert first and across and down
    assert across["x"] > first["x"] and abs(across["y"] - first["y"]) < 1, "rows are not columns"
    assert down["y"] > first["y"] and abs(down["x"] - first["x"]) < 1, "columns are not rows"
    assert first["width"] >= 30 and first["height"] >= 30, f"cells too small for a finger: {first}"
    grid = game.page.locator("#tb-grid").bounding_box()
    assert grid and grid["x"] >= 0 and grid["x"] + grid["width"] <= NARROW_PHONE["width"]
    assert game.page.evaluate("document.documentElement.scrollWidth") <= NARROW_PHONE["width"]


# Upright phones, and the least cell each may take with the whole board in sight (before,
# a 360x740 phone scrolled 44 px to the board's last rows, under the note's two lines above
# the board, and a short 375x667 one 133 px)
WHOLE_BOARD_ON_A_PHONE = {
    "360x740": (NARROW_PHONE, 28),
    "375x667": ({"width": 375, "height": 667}, 24),
    "390x844": ({"width": 390, "height": 844}, 30),
    "412x915": ({"width": 412, "height": 915}, 30),
}


@pytest.mark.parametrize("size", WHOLE_BOARD_ON_A_PHONE)
def test_on_an_upright_phone_the_whole_board_and_the_scores_are_in_sight_unscrolled(
    tribolo: OpenGame, create_game: CreateGame, new_context: NewContext, size: str
) -> None:
    """A game under way, as it opens: the headline, the three seats' scores and every cell
    of the board stand in the first screen, none over another, the cells no smaller than a
    finger takes; the note and the move strip may go below the fold, never the board."""
    viewport, least = WHOLE_BOARD_ON_A_PHONE[size]
    game = on_a_phone(tribolo, create_game, new_context, viewport=viewport)
    for _ in range(3):
        game.click(*game.legal()[0])
    page = game.page
    page.evaluate("document.fonts.ready.then(() => true)")
    assert page.evaluate("window.scrollY") == 0
    cell = game.cell(0, 0).bounding_box()
    grid = page.locator("#tb-grid").bounding_box()
    bar = page.locator(".topbar").bounding_box()
    headline = page.locator("#topbar-headline").bounding_box()
    assert cell and grid and bar and headline
    assert cell["width"] >= least and cell["height"] >= least, f"cells too small: {cell}"
    assert grid["y"] + grid["height"] <= viewport["height"], (
        f"the board's foot at {grid['y'] + grid['height']} px, under the screen's {viewport}")
    assert headline["y"] >= 0 and headline["y"] + headline["height"] <= bar["y"] + bar["height"]
    chips = page.locator("#seats .seat").all()
    assert len(chips) == 3
    for chip in chips:
        shown = chip.bounding_box()
        assert shown and shown["y"] >= bar["y"] + bar["height"], f"a seat under the bar: {shown}"
        assert shown["y"] + shown["height"] <= grid["y"], f"a seat over the board: {shown}"
    for under in ("#tb-note", "#movelist"):
        shown = page.locator(under).bounding_box()
        assert shown and shown["y"] >= grid["y"] + grid["height"], f"{under} over the board"
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]


def test_a_tap_on_the_turned_board_plays_the_cell_under_the_finger(
    tribolo: OpenGame, create_game: CreateGame, new_context: NewContext
) -> None:
    """Near a cell's corner, on the board's last screen column (the page scrolled to it):
    the move played, the note and the move list name the game's own cell."""
    game = on_a_phone(tribolo, create_game, new_context)
    mover = game.mover()
    assert mover is not None
    x, y = max(game.legal(), key=lambda cell: (cell[0], cell[1]))  # the lowest on screen
    cell = game.cell(x, y)
    cell.scroll_into_view_if_needed()
    box = cell.bounding_box()
    assert box and box["y"] + box["height"] <= NARROW_PHONE["height"]
    with game.next_view(game.page):
        game.page.touchscreen.tap(box["x"] + 4, box["y"] + box["height"] - 4)
    expect(cell).to_have_class(re.compile(rf"\bp{mover}\b"))
    name = "abcdefghijklmnop"[x] + str(y + 1)
    expect(game.page.locator("#tb-note")).to_contain_text(f"{NAMES[mover]} played {name} ")
    expect(game.page.locator("#movelist-items .mv").last).to_contain_text(f"{name}, turned")


def test_on_the_turned_board_the_arrows_move_the_cursor_the_way_they_point(
    tribolo: OpenGame, create_game: CreateGame, new_context: NewContext
) -> None:
    """Down the screen is along the board's row (its letters), across it down its columns."""
    game = on_a_phone(tribolo, create_game, new_context, touch=False)
    page = game.page
    page.locator("#tb-5-5").focus()
    for key, (x, y) in (("ArrowDown", (6, 5)), ("ArrowRight", (6, 6)), ("ArrowUp", (5, 6)),
                        ("ArrowLeft", (5, 5))):
        page.keyboard.press(key)
        expect(page.locator(f"#tb-{x}-{y}")).to_be_focused()
        expect(page.locator(":focus")).to_have_attribute(
            "aria-label", re.compile(f"^{'abcdefghijklmnop'[x]}{y + 1}: "))


@pytest.mark.parametrize("size", [{"width": 390, "height": 844}, NARROW_PHONE],
                         ids=["390x844", "360x740"])
def test_on_a_phone_the_move_strip_shows_a_round_of_three_whole(
    tribolo: OpenGame, create_game: CreateGame, new_context: NewContext, size: dict[str, int]
) -> None:
    """Each of the last three moves (a round: who, their shape and the cell) stands whole
    in the strip under the board, none cut by its edges nor spilling out of its own box
    (on one line, two fitted a 360-pixel phone and the third was cut)."""
    game = on_a_phone(tribolo, create_game, new_context, viewport=size)
    for _ in range(4):
        game.click(*game.legal()[0])
    moves = game.page.locator("#movelist-items .mv:not(.mv-start)")
    expect(moves).to_have_count(4)
    strip = game.page.locator("#movelist-items").bounding_box()
    assert strip and strip["x"] >= 0 and strip["x"] + strip["width"] <= size["width"]
    for move in moves.all()[-3:]:
        shown = move.bounding_box()
        assert shown, "a move is not shown"
        assert strip["x"] - 0.5 <= shown["x"] and shown["x"] + shown["width"] <= (
            strip["x"] + strip["width"] + 0.5), f"{move.inner_text()!r} is cut: {shown} in {strip}"
        assert shown["y"] >= strip["y"] - 0.5 and shown["y"] + shown["height"] <= (
            strip["y"] + strip["height"] + 0.5), f"{move.inner_text()!r} spills out of the strip"
        spills = move.evaluate(
            "(m) => m.scrollWidth > m.clientWidth || m.scrollHeight > m.clientHeight")
        assert not spills, f"{move.inner_text()!r} spills out of its box"
    assert game.page.evaluate("document.documentElement.scrollWidth") <= size["width"]


def a_pass_comes_soon(session: Session) -> bool:
    """Three players on one screen, each playing their first legal cell: one of them
    cannot move and passes within the first three moves."""
    for _ in range(3):
        plays_first_cell(session, session.to_move)
        if session.state.passed:
            return True
    return False


@pytest.mark.parametrize("size", ["360x740", "375x667", "390x844"])
def test_on_an_upright_phone_a_pass_is_told_above_the_board_and_no_line_is_cut_at_the_foot(
    tribolo: OpenGame, create_game: CreateGame, new_context: NewContext, size: str
) -> None:
    """Red cannot move and passes: the status line over the seats says so, in the first
    screen (the note under the board said it below the fold, 8 px of it in sight at
    360x740); and what stands under the board (the note, the move strip, the deal line)
    is wholly in sight or wholly below the fold, never cut at the screen's foot (at
    375x667 the note's first line was cut in half, at 390x844 the move strip)."""
    viewport = WHOLE_BOARD_ON_A_PHONE[size][0]
    seats = ["human"] * 3
    game_id = find_deal(seats, a_pass_comes_soon)
    session = Session(SPEC, parse_game_id(SPEC.game, game_id), seats)
    game = on_a_phone(tribolo, create_game, new_context, viewport=viewport, id=game_id)
    while not session.state.passed:
        cell = legal_cells(session)[0]
        plays_first_cell(session, session.to_move)
        game.click(*cell)
    passed = NAMES[session.state.passed[0]]
    expect(game.page.locator("#tb-note")).to_contain_text(f"{passed} cannot move and passes")
    expect(game.message).to_contain_text(f"{passed} passed.")
    page = game.page
    page.evaluate("document.fonts.ready.then(() => true)")
    wait_for_layout(page)
    height = viewport["height"]
    assert page.evaluate("window.scrollY") == 0
    told = game.message.bounding_box()
    grid = page.locator("#tb-grid").bounding_box()
    assert told and grid
    assert told["y"] >= 0 and told["y"] + told["height"] <= grid["y"], f"the status line: {told}"
    assert grid["y"] + grid["height"] <= height, f"the board's foot under the screen's {height}"
    for under in ("#tb-note", "#movelist", ".idbar"):
        shown = page.locator(under).bounding_box()
        assert shown, f"{under} is not shown"
        top, bottom = shown["y"], shown["y"] + shown["height"]
        assert bottom <= height or top >= height, f"{under} cut at the foot: {top}-{bottom} px"


def computers_pass_before_blues_turn(session: Session) -> tuple[int, list[str]]:
    """Blue plays its first legal cell and the computers answer, round after round (four
    at most): in how many rounds Blue's turn comes back with a computer having passed
    since Blue's move, and who passed (0 rounds: none did)."""
    for rounds in range(1, 5):
        if not plays_first_cell(session, 0):
            return 0, []
        passed = set(session.state.passed)
        while (seat := session.to_move) is not None and session.is_ai(seat):
            session.play(session.choose_ai_move(), seat)
            passed |= set(session.state.passed)
        passed.discard(0)
        if session.to_move != 0:
            return 0, []
        if passed:
            return rounds, [NAMES[seat] for seat in sorted(passed)]
    return 0, []


def test_on_a_phone_a_computers_pass_is_told_when_your_turn_comes_back(
    tribolo: OpenGame, create_game: CreateGame, new_context: NewContext
) -> None:
    """You play, one computer passes, the other plays: when your turn comes the status
    line says who passed (the note under the board, below the fold, tells only the last
    computer's move)."""
    seats = ["human", "ai:easy", "ai:easy"]
    game_id = find_deal(seats, lambda session: computers_pass_before_blues_turn(session)[0] > 0)
    rounds, passed = computers_pass_before_blues_turn(
        Session(SPEC, parse_game_id(SPEC.game, game_id), seats))
    created = create_game("tribolo", seats=seats, id=game_id)
    sid, tokens = created["session"], {created["session"]: created["token"]}
    context = new_context(tokens=tokens, viewport=NARROW_PHONE, has_touch=True, is_mobile=True)
    context.add_init_script(SPEED_SCRIPT % json.dumps("instant"))
    game = tribolo(f"/play/tribolo?session={sid}", tokens=tokens, context=context)
    for _ in range(rounds):
        game.wait_my_turn()
        game.click(*game.legal()[0])
    game.wait_my_turn()
    expect(game.message).to_have_text(f"{' and '.join(passed)} passed. Your turn")
    told = game.message.bounding_box()
    assert told and told["y"] + told["height"] <= NARROW_PHONE["height"]
    assert game.page.evaluate("window.scrollY") == 0
