"""The hub's scheduling of long work: the computer thinks without holding the game, and
a player's undo stops it."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest

from parlour.core import tables
from parlour.games import GAMES
from parlour.games.tictactoe.solver import VALUES
from parlour.server.compute import (
    TABLE_BUDGET,
    THINK_BUDGET,
    Compute,
    Progress,
    TooSlow,
    WorkerFailed,
)
from parlour.server.hub.core import Hub
from parlour.server.hub.errors import ApiError
from parlour.server.hub.live import Live
from parlour.server.hub.messages import AskHint, PlayMove, SetAssist, Undo
from parlour.server.hub.tokens import Presented
from parlour.server.hub.viewers import Viewer
from parlour.store.sqlite import SqliteStore as Store
from tests.support.loops import run_async

T = TypeVar("T")


class SlowInline(Compute):
    """Runs work in this process after a pause, counting what was started and finished."""

    def __init__(self, pause: float) -> None:
        super().__init__(workers=1)
        self.pause = pause
        self.started = self.finished = 0
        self.budgets: list[float] = []

    async def run(
        self, budget: float, work: Callable[..., T], *args: Any, progress: Progress | None = None,
        started: Callable[[], None] | None = None,
    ) -> T:
        self.started += 1
        self.budgets.append(budget)
        for step in range(4):  # the work tells how far it has got, as a worker's would
            await asyncio.sleep(self.pause / 4)
            if progress is not None:
                progress((step + 1) / 4, "searching")
        self.finished += 1
        return work(*args)


async def against_the_computer(path: Path) -> tuple[Hub, SlowInline, Live, str]:
    """A hub whose work is inline, and a Tic-Tac-Toe game of a player against it."""
    compute = SlowInline(pause=0.0)
    hub = Hub(Store(path / "db.sqlite3"), GAMES, ai_delay_scale=0, compute=compute)
    live, token = await hub.create("tictactoe", seats=["human", "ai:perfect"])
    return hub, compute, live, Presented(token)


def test_undo_stops_the_computer_thinking(tmp_path: Path) -> None:
    async def scenario() -> None:
        hub, compute, live, token = await against_the_computer(tmp_path)
        compute.pause = 5.0
        await hub.act(live, token, PlayMove(move={"cell": [1, 1]}))
        await asyncio.sleep(0.1)
        assert compute.started == 1 and live.ai_task is not None  # the computer is thinking
        await asyncio.wait_for(hub.act(live, token, Undo()), 1.0)  # not held up by the AI
        await asyncio.wait_for(hub.settle(live), 1.0)
        assert live.session.cursor == 0 and live.session.line_length == 1
        assert compute.finished == 0  # the thinking was stopped, not finished
        hub.store.close()

    run_async(scenario())


class Failing(Compute):
    """Work that fails: with `error`, as the pool reports a fault (a worker gone, too
    slow) or as the work's own code raises it."""

    def __init__(self, error: Exception) -> None:
        super().__init__(workers=1)
        self.error = error

    async def run(
        self, budget: float, work: Callable[..., T], *args: Any, progress: Progress | None = None,
        started: Callable[[], None] | None = None,
    ) -> T:
        raise self.error


@pytest.mark.parametrize("error", [WorkerFailed("gone"), TooSlow("slow"), IndexError("a bug")])
def test_the_computer_plays_on_when_its_thinking_fails(tmp_path: Path, error: Exception) -> None:
    async def scenario() -> None:
        hub = Hub(Store(tmp_path / "db.sqlite3"), GAMES, ai_delay_scale=0, compute=Failing(error))
        live, token = await presented_as_a_client(hub.create(
            "tictactoe", seats=["human", "ai:perfect"]))
        await hub.act(live, token, PlayMove(move={"cell": [1, 1]}))
        await asyncio.wait_for(hub.settle(live), 5.0)
        assert live.session.cursor == 2 and live.session.to_move == 0  # a move, never a stall
        hub.store.close()

    run_async(scenario())


def test_the_game_can_be_read_while_the_computer_thinks(tmp_path: Path) -> None:
    async def scenario() -> None:
        hub, compute, live, token = await against_the_computer(tmp_path)
        compute.pause = 0.5
        await hub.act(live, token, PlayMove(move={"cell": [0, 0]}))
        assert not live.lock.locked()
        view = hub.view_for(live, token)
        assert view["to_move"] == 1 and view["moves"] == 1
        await hub.settle(live)
        assert live.session.cursor == 2
        hub.store.close()

    run_async(scenario())


def watching(live: Live, token: str | None) -> list[dict[str, Any]]:
    """What a viewer of `live` holding `token` is sent, as it is sent."""
    heard: list[dict[str, Any]] = []

    async def send(text: str) -> None:
        heard.append(json.loads(text))

    live.viewers.add(Viewer(live.seats_of(token), send, token))
    return heard


def test_long_work_is_shown_after_half_a_second_and_may_be_cancelled(tmp_path: Path) -> None:
    async def scenario() -> None:
        hub, compute, live, token = await against_the_computer(tmp_path)
        heard = watching(live, token)
        compute.pause = 0.2  # a quick hint: nothing said about it
        await hub.act(live, token, AskHint())
        await asyncio.sleep(0.05)
        assert not [m for m in heard if m["type"].startswith("progress")]

        compute.pause = 4.0
        hint = asyncio.ensure_future(hub.act(live, token, AskHint()))
        await asyncio.sleep(1.3)
        told = [m for m in heard if m["type"] == "progress"]
        assert told[0]["done"] is None and told[0]["elapsed_ms"] >= 500  # under way
        assert told[1]["done"] == 0.25 and told[1]["note"] == "searching"
        assert told[0]["what"] == "The hint" and told[0]["cancellable"] is True
        hub.cancel(live, None)  # a spectator cannot
        await asyncio.sleep(0.05)
        assert not hint.done()
        hub.cancel(live, token)
        try:
            await asyncio.wait_for(hint, 1.0)
            raise AssertionError("The hint was not cancelled")
        except ApiError as error:
            assert (error.status, error.message) == (409, "The hint was cancelled")
        await asyncio.sleep(0.05)
        assert heard[-1] == {"type": "progress-end"}
        assert compute.finished == 1 and hub.workers.running(live) is None
        assert hub.view_for(live, token)["hint"] is not None  # the first, quick hint
        hub.store.close()

    run_async(scenario())


def test_the_computers_long_thinking_is_shown_without_cancel(tmp_path: Path) -> None:
    async def scenario() -> None:
        hub, compute, live, token = await against_the_computer(tmp_path)
        heard = watching(live, token)
        compute.pause = 1.0
        await hub.act(live, token, PlayMove(move={"cell": [1, 1]}))
        await hub.settle(live)
        await asyncio.sleep(0.05)
        told = [m for m in heard if m["type"] == "progress"]
        assert told and {m["cancellable"] for m in told} == {False}
        assert told[0]["what"] == "The computer is thinking"
        assert heard[-1] == {"type": "progress-end"} or heard[-1]["type"] == "view"
        assert live.session.cursor == 2
        hub.store.close()

    run_async(scenario())


def test_work_that_builds_a_table_first_gets_the_time_it_takes(tmp_path: Path) -> None:
    async def scenario() -> None:
        hub, compute, live, token = await against_the_computer(tmp_path)
        tables.forget(VALUES)
        tables.path(VALUES).unlink(missing_ok=True)
        await hub.act(live, token, AskHint())
        assert compute.budgets[-1] == TABLE_BUDGET  # the table was not built yet
        tables.get(VALUES)  # built (here, as a worker would), and kept in its file
        await hub.act(live, token, AskHint())
        assert compute.budgets[-1] == THINK_BUDGET
        hub.store.close()

    run_async(scenario())


def test_what_the_assist_shows_is_worked_out_off_the_loop_then_shown(tmp_path: Path) -> None:
    async def scenario() -> None:
        compute = SlowInline(pause=0.2)
        hub = Hub(Store(tmp_path / "db.sqlite3"), GAMES, ai_delay_scale=0, compute=compute)
        live, token = await presented_as_a_client(hub.create("escalator"))
        heard = watching(live, token)
        assert "esc-lamp" not in hub.view_for(live, token)["html"]
        await hub.act(live, token, SetAssist(on=True))
        assert (live.advice.assist_task is not None
                and live.advice.facts_of(live.session.state) is None)  # being worked out
        await live.advice.assist_task
        # a new deal: some order wins
        assert live.advice.facts_of(live.session.state) == {"still_winnable": True}
        assert "esc-lamp" in hub.view_for(live, token)["html"]
        await asyncio.sleep(0.05)
        assert "esc-lamp" in (heard[-1]["view"]["html"] or "".join(heard[-1]["view"]["parts"]))
        await hub.act(live, token, PlayMove(move={"draw": True}))
        assert live.advice.facts_of(live.session.state) is None  # a new position: worked out again
        await live.advice.assist_task
        assert live.advice.facts_of(live.session.state) is not None
        hub.store.close()

    run_async(scenario())


async def tribolo_of_three(path: Path) -> tuple[Hub, Live, str, list[str]]:
    """A hub and a Tribolo game whose three seats are held by three players: the game's
    owner's token and the two others'."""
    hub = Hub(Store(path / "db.sqlite3"), GAMES, ai_delay_scale=0)
    live, first = await presented_as_a_client(
        hub.create("tribolo", seats=["human", "open", "open"]))
    others = [(await hub.join(live, seat=seat))[0] for seat in (1, 2)]
    return hub, live, first, [Presented(token) for token in others if token is not None]


async def presented_as_a_client(created: Awaitable[tuple[Live, str]]) -> tuple[Live, str]:
    """A game the hub started, with its token as a client presents it (hub/tokens.py)."""
    live, token = await created
    return live, Presented(token)


def test_the_player_who_moved_is_sent_the_answer_before_the_other_players(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        hub, live, first, others = await tribolo_of_three(tmp_path)
        order: list[str | None] = []
        for token in (*others, first):  # the mover's browser connected last
            async def send(text: str, token: str | None = token) -> None:
                if json.loads(text).get("type") == "view":
                    order.append(token)
            live.viewers.add(Viewer(live.seats_of(token), send, token))
        await asyncio.sleep(0.05)  # their outboxes wait, as those of browsers connected do
        mover = [first, *others][live.session.to_move or 0]
        cell = live.observe(live.session.to_move)["legal"][0]
        await hub.act(live, mover, PlayMove(move={"cell": cell}))
        await asyncio.sleep(0.05)
        assert order[0] == mover and sorted(map(str, order)) == sorted(map(str, [first, *others]))

    run_async(scenario())


def test_those_watching_have_their_views_worked_out_after_the_mover_was_sent_theirs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On a machine the players share, the mover's browser starts on its view while the
    server works out the others': and all see the same position."""
    async def scenario() -> None:
        hub, live, first, others = await tribolo_of_three(tmp_path)
        events: list[tuple[str, str | None, int]] = []
        for token in (first, *others, None):  # the three players and a spectator
            async def send(text: str, token: str | None = token) -> None:
                message = json.loads(text)
                if message.get("type") == "view":
                    events.append(("sent", token, message["view"]["moves"]))
            live.viewers.add(Viewer(live.seats_of(token), send, token))
        await asyncio.sleep(0.05)
        rendered = hub.broadcast.view_for

        def view_for(live: Live, token: str | None, sound: str | None = None) -> Any:
            view = rendered(live, token, sound)
            events.append(("rendered", token, view["moves"]))
            return view

        monkeypatch.setattr(hub.broadcast, "view_for", view_for)
        mover = [first, *others][live.session.to_move or 0]
        cell = live.observe(live.session.to_move)["legal"][0]
        await hub.act(live, mover, PlayMove(move={"cell": cell}))
        await asyncio.sleep(0.05)
        assert events[:2] == [("rendered", mover, 1), ("sent", mover, 1)]
        assert sorted((kind, str(token)) for kind, token, _ in events[2:]) == sorted(
            (kind, str(token)) for kind in ("rendered", "sent")
            for token in [first, *others, None] if token != mover)
        assert {moves for _, _, moves in events} == {1}

    run_async(scenario())


def test_the_computers_play_on_without_pausing_once_no_person_can_move_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Tribolo player left without a cell waited out 88 computer moves at the pace chosen
    for watching them: once no person's seat can move again, nobody waits for a turn."""
    async def scenario() -> None:
        hub = Hub(Store(tmp_path / "db.sqlite3"), GAMES, compute=SlowInline(pause=0.0))
        live, token = await hub.create("tribolo", seats=["human", "ai:easy", "ai:easy"])
        watching(live, token)
        paced = hub.turns.pause(live)
        assert paced > 0
        game = type(live.session.game)
        monkeypatch.setattr(game, "can_move_again", lambda self, state, seat: seat != 0)
        assert hub.turns.pause(live) == 0.0  # the person's seat is out
        monkeypatch.setattr(game, "can_move_again", lambda self, state, seat: seat == 0)
        assert hub.turns.pause(live) == paced  # a computer out changes nothing
        hub.store.close()

    run_async(scenario())
