"""Seats in real browsers: choosing one from an invite link, leaving it to the computer
and taking it back, coming back after a reload and a server restart, and take-backs that
the other player accepts or refuses. Boards read as in test_tictactoe_browser."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, WebSocketRoute, expect

from tests.browser.conftest import TIMEOUT_MS, CreateGame, ServerView, wait_for_views
from tests.browser.links import confirm_link, link_prompt
from tests.browser.test_tictactoe_browser import OpenGame, TicTacToePage
from tests.browser.test_tictactoe_browser import ttt as ttt  # the fixture
from tests.support.servers import start_server

pytestmark = pytest.mark.browser


def seat_chip(game: TicTacToePage, seat: int) -> Any:
    return game.page.locator(f'#seats [data-seat="{seat}"]')


def test_a_friend_chooses_a_seat_and_the_last_one_takes_what_is_left(
    ttt: OpenGame, create_game: CreateGame, server_view: ServerView
) -> None:
    sid = create_game("tictactoe", seats=["open", "open"])["session"]  # a host who watches

    circle = ttt(f"/play/tictactoe?session={sid}", wait=False)
    dialog = link_prompt(circle.page)
    expect(dialog.locator("#link-actions .btn")).to_have_text(
        ["Just watch", "Take the Cross seat", "Take the Circle seat"])
    dialog.get_by_role("button", name="Take the Circle seat").click()
    expect(seat_chip(circle, 1)).to_contain_text("You")
    expect(seat_chip(circle, 0)).to_contain_text("Open seat")

    cross = ttt(f"/play/tictactoe?session={sid}", wait=False)  # one seat left: offered
    expect(link_prompt(cross.page).locator("#link-actions .btn")).to_have_text(
        ["Just watch", "Take the Cross seat"])
    confirm_link(cross.page)
    wait_for_views(cross.page, 1)
    expect(seat_chip(cross, 0)).to_contain_text("You")
    cross.click(1, 1)
    circle.wait_board(".../.X./...")
    circle.click(0, 0)
    cross.wait_board("O../.X./...")
    assert server_view(sid)["moves"] == 2


def test_just_watch_then_sit_down_from_the_seat_chip(
    ttt: OpenGame, create_game: CreateGame
) -> None:
    sid = create_game("tictactoe", seats=["open", "open"])["session"]
    watcher = ttt(f"/play/tictactoe?session={sid}", wait=False)
    link_prompt(watcher.page).get_by_role("button", name="Just watch").click()
    wait_for_views(watcher.page, 1)
    expect(watcher.message).to_contain_text("You are watching")
    watcher.page.locator('#seats [data-take-seat="0"]').click()
    expect(seat_chip(watcher, 0)).to_contain_text("You")
    expect(watcher.page.locator("#seats [data-take-seat]")).to_have_count(0)
    assert len(watcher.playable()) == 9


def test_a_player_leaves_the_computer_plays_and_they_come_back(
    ttt: OpenGame, server_view: ServerView
) -> None:
    cross = ttt()
    sid = cross.new_game("human", "open")
    circle = ttt(f"/play/tictactoe?session={sid}", confirm=True)
    cross.click(1, 1)
    circle.wait_board(".../.X./...")

    circle.page.click("#menu-game")
    circle.page.get_by_role("menuitem", name="Leave your seat").click()
    expect(seat_chip(circle, 1)).to_contain_text("Computer, for now")
    cross.page.wait_for_function(
        "() => document.querySelectorAll('#ttt-board [data-move]').length === 7",
        timeout=TIMEOUT_MS)  # the computer answered for Circle
    assert server_view(sid)["moves"] == 2
    expect(circle.message).to_contain_text("You are watching")

    circle.page.reload()  # the same browser, later: it may sit down again
    wait_for_views(circle.page, 1)
    circle.page.locator('#seats [data-take-seat="1"]').click()
    expect(seat_chip(circle, 1)).to_contain_text("You")
    free = [cell for cell in [(0, 0), (2, 0), (0, 2), (2, 2), (1, 0)] if cell in cross.playable()]
    cross.click(*free[0])
    circle.page.wait_for_function(
        "() => document.querySelectorAll('#ttt-board .cell.playable[data-move]').length === 6",
        timeout=TIMEOUT_MS)  # Circle's turn is the player's again, not the computer's
    assert server_view(sid)["moves"] == 3


def test_a_take_back_accepted_and_one_refused(ttt: OpenGame, server_view: ServerView) -> None:
    cross = ttt()
    sid = cross.new_game("human", "open")
    circle = ttt(f"/play/tictactoe?session={sid}", confirm=True)
    cross.click(1, 1)
    circle.wait_board(".../.X./...")
    circle.click(0, 0)
    cross.wait_board("O../.X./...")

    undo = circle.page.locator("#btn-undo")
    expect(undo).to_have_text("↶Take back")
    undo.click()
    expect(circle.page.locator("#takeback")).to_contain_text("Waiting for the other player")
    bar = cross.page.locator("#takeback")
    expect(bar).to_contain_text("Circle asks to take back their last move")
    expect(circle.message).not_to_contain_text("take back")  # the banner says it, once
    bar.get_by_role("button", name="Refuse").click()
    expect(circle.message).to_contain_text("Your take-back was refused")
    expect(circle.page.locator("#takeback")).to_be_hidden()
    assert server_view(sid)["moves"] == 2

    circle.page.keyboard.press("u")  # the key asks too
    bar.get_by_role("button", name="Accept").click()
    cross.wait_board(".../.X./...")
    circle.wait_board(".../.X./...")
    assert len(circle.playable()) == 8  # Circle to play again
    expect(circle.message).to_contain_text("accepted")

    # Cross asks after Circle answered: Circle's move would go back too, and it says so
    circle.click(0, 0)
    cross.wait_board("O../.X./...")
    cross.page.locator("#btn-undo").click()
    circle_bar = circle.page.locator("#takeback")
    expect(circle_bar).to_contain_text(
        "Cross asks to take back their last move and your reply.")
    circle_bar.get_by_role("button", name="Refuse").click()
    expect(circle_bar).to_be_hidden()


def test_seats_come_back_after_a_server_restart(browser: Browser, tmp_path: Path) -> None:
    server = start_server(tmp_path / "parlour.sqlite3")
    port = server.url.rsplit(":", 1)[1]
    try:
        pages = []
        for _ in range(2):
            context = browser.new_context(base_url=server.url)
            context.set_default_timeout(TIMEOUT_MS)
            pages.append(context.new_page())
        host, guest = pages
        host.goto("/play/tictactoe")
        wait_for_views(host, 1)
        host.click("#btn-new")
        host.select_option("#f-seat-0", "human")
        host.select_option("#f-seat-1", "open")
        host.click("#new-start")
        host.wait_for_function("() => document.querySelector('#btn-invite:not([hidden])')")
        guest.goto(host.url)  # the invite link, pasted: it asks first
        confirm_link(guest)
        wait_for_views(guest, 1)
        expect(guest.locator('#seats [data-seat="1"]')).to_contain_text("You")

        server.kill()  # a crash, mid-game
        expect(host.locator("#offline")).to_be_visible()
        # the board fades (after a second: a quick reconnect does not flash it)
        expect(host.locator("#board-wrap")).to_have_css("opacity", "0.55")
        host.click("#ttt-1-1")  # a move made meanwhile is not played, and it says so
        expect(host.locator("#message")).to_have_text(
            "Not connected, so that was not played: reconnecting…")
        host.wait_for_timeout(1_600)  # two more tries to reconnect: still said
        expect(host.locator("#message")).to_have_text(
            "Not connected, so that was not played: reconnecting…")
        server = start_server(tmp_path / "parlour.sqlite3", port=int(port))
        for page in (host, guest):  # each page reconnects by itself, in its seat
            expect(page.locator("#offline")).to_be_hidden()
            expect(page.locator("#board-wrap")).to_have_css("opacity", "1")
        expect(host.locator('#seats [data-seat="0"]')).to_contain_text("You")
        expect(guest.locator('#seats [data-seat="1"]')).to_contain_text("You")
        host.click("#ttt-1-1")
        guest.wait_for_function("() => document.getElementById('ttt-m-1-1')")
        expect(guest.locator("#message")).to_contain_text("Your turn")
    finally:
        server.stop()


def test_a_move_cut_off_before_its_answer_is_said_to_be_unsure(
    browser: Browser, tmp_path: Path
) -> None:
    """The server goes down after a move was sent and before its answer came: the page
    cannot know whether it was played, and says so (not the plain "reconnecting"); once
    back, the board shows which."""
    server = start_server(tmp_path / "parlour.sqlite3")
    try:
        context = browser.new_context(base_url=server.url)
        context.set_default_timeout(TIMEOUT_MS)
        page = context.new_page()
        cut: list[bool] = []

        def relay(socket: WebSocketRoute) -> None:
            """Passes everything on, but no answer once a move is sent."""
            upstream = socket.connect_to_server()

            def from_page(message: str | bytes) -> None:
                if '"move"' in str(message):
                    cut.append(True)
                upstream.send(message)

            socket.on_message(from_page)
            upstream.on_message(lambda message: None if cut else socket.send(message))

        page.route_web_socket("**/ws/**", relay)
        page.goto("/play/tictactoe")
        wait_for_views(page, 1)
        page.click("#ttt-1-1")
        page.wait_for_timeout(200)  # the move reached the server; its answer is held
        server.kill()
        expect(page.locator("#message")).to_have_text(
            "Not connected: your last move may not have been played. Reconnecting…")
    finally:
        server.stop()
