"""Viewers that cost the same however many there are (issue 33, finding 2): spectators
share one rendering, diff and encoding; sockets are capped per game and per client;
nothing of a viewer stays with the hub once it left; nobody is handed others' games."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections import defaultdict
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from parlour.games import GAMES
from parlour.server.api.clients import PLAYER_COOKIE
from parlour.server.hub import editions
from parlour.server.hub.core import Hub
from parlour.server.hub.messages import PlayMove
from parlour.server.hub.tokens import Presented
from parlour.server.hub.viewers import Viewer
from parlour.store.sqlite import SqliteStore as Store
from tests.support.loops import run_async
from tests.test_api import auth, new_game, open_socket

SPECTATORS = 40
BOARD = {"rows": 16, "cols": 30, "mines": 99}


def cookie(name: str) -> dict[str, str]:
    """The headers of a browser with its own player cookie (another client)."""
    return {"cookie": f"{PLAYER_COOKIE}={name:_<22}"}


def minesweeper(client: TestClient) -> tuple[str, str]:
    made = client.post("/api/games", json={"game": "minesweeper", "params": BOARD}).json()
    return made["session"], made["token"]


def mark(client: TestClient, sid: str, token: str, col: int) -> None:
    client.post(f"/api/games/{sid}/moves", json={"move": {"mark": [0, col]}},
                headers=auth(token)).raise_for_status()


# -- one rendering, diff and encoding per audience ------------------------------------------
def test_spectators_share_one_rendering_diff_and_encoding_per_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    changes = 3

    async def scenario() -> tuple[int, int, list[list[str]]]:
        hub = Hub(Store(tmp_path / "db.sqlite3"), GAMES, ai_delay_scale=0)
        live, raw = await hub.create("minesweeper", params=BOARD)
        token = Presented(raw)  # as the owner's page presents it
        received: dict[str | int, list[str]] = defaultdict(list)
        for who in [*range(SPECTATORS), "owner"]:
            async def send(text: str, who: str | int = who) -> None:
                received[who].append(text)
            live.viewers.add(Viewer(live.seats_of(token if who == "owner" else None),
                                    send, token if who == "owner" else None))
        renders, patches = 0, 0
        render, patch = hub.broadcast.view_for, editions.board_patch

        def counted_render(*args: Any, **kwargs: Any) -> Any:
            nonlocal renders
            renders += 1
            return render(*args, **kwargs)

        def counted_patch(old: str, new: str) -> Any:
            nonlocal patches
            patches += 1
            return patch(old, new)

        monkeypatch.setattr(hub.broadcast, "view_for", counted_render)
        monkeypatch.setattr(editions, "board_patch", counted_patch)
        for col in range(changes):
            await hub.act(live, token, PlayMove(move={"mark": [0, col]}))
            await asyncio.sleep(0.05)  # every outbox sends
        for viewer in live.viewers:
            viewer.close()
        return renders, patches, [received[who] for who in range(SPECTATORS)]

    renders, patches, sent = run_async(scenario())
    assert renders == 2 * changes  # the owner's view and the spectators', per change
    assert patches <= 2 * changes  # not one per spectator
    assert all(len(texts) == changes for texts in sent)
    for change in range(changes):  # the very same text went to every spectator
        assert len({id(texts[change]) for texts in sent}) == 1
    assert '"parts"' in sent[0][-1]  # and after the first, only the cells that changed


def test_pages_that_connect_to_watch_share_one_rendering(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    sid, _ = minesweeper(client)
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    renders = 0
    render = hub.broadcast.view_for

    def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal renders
        renders += 1
        return render(*args, **kwargs)

    monkeypatch.setattr(hub.broadcast, "view_for", counted)
    with ExitStack() as pages:
        views = [pages.enter_context(open_socket(client, sid)).receive_json()
                 for _ in range(6)]
    assert renders == 1
    assert all(view == views[0] for view in views) and views[0]["view"]["html"]


# -- caps on sockets ------------------------------------------------------------------------
def refusal(socket: Any) -> tuple[str, int]:
    """The error a refused socket is told, and the code it is closed with."""
    told = socket.receive_json()
    with pytest.raises(WebSocketDisconnect) as closed:
        socket.receive_json()
    return told["error"], closed.value.code


def test_a_client_beyond_its_sockets_is_refused_and_its_others_play_on(
    client: TestClient,
) -> None:
    client.app.state.hub.caps.per_client = 2  # type: ignore[attr-defined]
    sid, token = minesweeper(client)
    with open_socket(client, sid, token) as mine, open_socket(client, sid) as watching:
        mine.receive_json(), watching.receive_json()
        with open_socket(client, sid) as extra:
            error, code = refusal(extra)
        assert code == 4429 and "Too many connections from your browser (at most 2)" in error
        mark(client, sid, token, 0)
        assert mine.receive_json()["view"]["moves"] == 1
        assert watching.receive_json()["view"]["moves"] == 1
    with open_socket(client, sid) as again:  # the count went down as they closed
        assert again.receive_json()["type"] == "view"


def test_a_full_game_refuses_spectators_but_never_its_players(client: TestClient) -> None:
    client.app.state.hub.caps.per_game = 2  # type: ignore[attr-defined]
    sid, token = minesweeper(client)
    with ExitStack() as pages:
        spectators = []
        for name in ("ann", "bob"):
            socket = pages.enter_context(client.websocket_connect(f"/ws/{sid}",
                                                                  headers=cookie(name)))
            socket.send_json({"type": "hello"})
            socket.receive_json()
            spectators.append(socket)
        with client.websocket_connect(f"/ws/{sid}", headers=cookie("cat")) as third:
            third.send_json({"type": "hello"})
            error, code = refusal(third)
        assert code == 4429 and "This game has as many spectators as it can take (2)" in error
        player = pages.enter_context(client.websocket_connect(f"/ws/{sid}",
                                                              headers=cookie("dan")))
        player.send_json({"type": "hello", "token": token})
        assert player.receive_json()["view"]["you"] == [0]
        mark(client, sid, token, 1)
        assert [s.receive_json()["view"]["moves"] for s in (*spectators, player)] == [1, 1, 1]


# -- nothing kept once they left ------------------------------------------------------------
def test_nothing_of_a_viewer_stays_with_the_hub_once_it_left(client: TestClient) -> None:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    hub.caps.per_client = hub.caps.per_game = 100
    sid, token = minesweeper(client)
    live = run_async(hub.get(sid))
    gone: list[weakref.ref[Any]] = []
    with ExitStack() as pages:
        sockets = [pages.enter_context(open_socket(client, sid)) for _ in range(20)]
        for socket in sockets:
            socket.receive_json()
        gone = [weakref.ref(viewer) for viewer in live.viewers]
        mark(client, sid, token, 2)  # a change: every one of them is sent its patch
        for socket in sockets:
            socket.receive_json()
    mark(client, sid, token, 3)  # a change with nobody watching
    gc.collect()
    assert len(gone) == 20 and all(ref() is None for ref in gone)
    assert not live.viewers and hub.caps.open_sockets() == 0
    assert live.welcome is None  # the spectators' view for the next page went too


# -- the list of games ----------------------------------------------------------------------
def test_the_list_of_games_names_only_the_askers_own(client: TestClient) -> None:
    mine = new_game(client, seats=["human", "ai:random"])
    theirs = new_game(client, seats=["human", "ai:random"])
    for game in (mine, theirs):
        client.post(f"/api/games/{game['session']}/moves", json={"move": {"cell": [1, 1]}},
                    headers=auth(game["token"])).raise_for_status()
    anyone = client.get("/api/sessions")
    assert anyone.status_code == 200 and anyone.json() == []
    listed = client.get("/api/sessions", headers=auth(mine["token"]))
    assert [game["session"] for game in listed.json()] == [mine["session"]]
    assert theirs["session"] not in listed.text
