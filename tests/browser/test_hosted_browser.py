"""Tribolo across three hosted processes, in three browsers: each browser is connected to
a process of its own, the process that plays the game is killed mid-game (and started
again, as a host's supervisor would), and the three players play on, each page seeing
every move. Real servers: PostgreSQL, Redis and three Parlour processes."""

from __future__ import annotations

import random
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, expect

from tests.browser.conftest import _TOKENS_SCRIPT, TIMEOUT_MS, expect_views, wait_for_views
from tests.browser.links import confirm_link
from tests.browser.test_tribolo_browser import TriboloPage, rows_of
from tests.support.hosted import Hosted, start_hosted
from tests.support.postgres import PostgresServer
from tests.support.redis import RedisServer

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

FIRST_VIEW_MS = 20_000
"""A page's first view, from processes just started: their workers may still be warming
up beside the rest of the suite (one full run on a loaded machine took over 5 s)."""


@pytest.fixture
def hosted(postgres: PostgresServer, redis: RedisServer) -> Iterator[Hosted]:
    running = start_hosted(postgres, redis, count=3)
    yield running
    running.stop()


def owner_index(hosted: Hosted, sid: str) -> int:
    import psycopg

    with psycopg.connect(hosted.database) as db:
        row = db.execute("SELECT owner FROM leases WHERE sid = %s", (sid,)).fetchone()
    assert row is not None
    pid = int(row[0].rsplit("-", 2)[1])
    return next(i for i, p in enumerate(hosted.processes) if p.process.pid == pid)


def test_tribolo_in_three_browsers_on_three_processes_survives_its_owner_killed(
        browser: Browser, hosted: Hosted) -> None:
    made = httpx.post(f"{hosted.processes[0].url}/api/games",
                      json={"game": "tribolo", "seats": ["human", "open", "open"]}).json()
    sid = made["session"]
    contexts: list[BrowserContext] = []
    players: list[TriboloPage] = []
    for seat, process in enumerate(hosted.processes):  # Blue on 0, Red on 1, Green on 2
        context = browser.new_context(base_url=process.url)
        context.set_default_timeout(TIMEOUT_MS)
        if seat == 0:
            context.add_init_script(_TOKENS_SCRIPT % f'{{"{sid}": "{made["token"]}"}}')
        contexts.append(context)
        page = context.new_page()
        page.goto(f"/play/tribolo?session={sid}" + (f"&seat={seat}" if seat else ""))
        if seat:
            confirm_link(page)
        wait_for_views(page, 1, FIRST_VIEW_MS)
        players.append(TriboloPage(page, expect_views))
    try:
        for seat, player in enumerate(players):
            expect(player.seat_chip(seat)).to_contain_text("You")
        rng = random.Random(3)
        play_moves(hosted, sid, players, rng, 3)

        owner = owner_index(hosted, sid)
        hosted.processes[owner].kill()  # mid-game, with a page connected to it
        for player in players:  # no turn is vouched for meanwhile: the status line says so
            expect(player.page.locator("#message")).to_have_text(
                "Not connected: reconnecting…", timeout=30_000)
        hosted.restart(owner)  # its supervisor starts it again (on its port)
        for player in players:  # every page reconnects by itself
            expect(player.page.locator("#offline")).to_be_hidden(timeout=30_000)
        play_moves(hosted, sid, players, rng, 3)
        owner_index(hosted, sid)  # (raises unless a live process holds the game now)
        for seat, player in enumerate(players):
            player.page.screenshot(path=f"/tmp/hosted-tribolo-{seat}.png")
    finally:
        for context in contexts:
            context.close()


def play_moves(hosted: Hosted, sid: str, players: list[TriboloPage], rng: random.Random,
               count: int) -> None:
    """`count` moves, each by the page whose turn it is; every page shows each one."""
    for _ in range(count):
        view = httpx.get(f"{hosted.url}/api/games/{sid}", timeout=30).json()
        mover = players[view["to_move"]]
        mover.wait_my_turn()
        x, y = rng.choice(mover.legal())
        mover.click(x, y)
        expected = rows_of(httpx.get(f"{hosted.url}/api/games/{sid}", timeout=30).json())
        for player in players:
            player.wait_board(expected)
