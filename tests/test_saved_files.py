"""Saved games as files: a game exported (GET /api/games/{sid}/export) and imported
(POST /api/games/import) on another server comes back as it was, with the uploaded
picture its id names; only who may see the deal gets the file, and a file that is not a
game that can be replayed is refused, saying why, with nothing kept."""

from __future__ import annotations

import base64
import json
import random
import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pytest
from fastapi.testclient import TestClient
from pydantic import BaseModel, ConfigDict, StrictInt

from parlour.core.game import JSON, Game, GameSpec, IllegalMove, Param, Params, RenderContext
from parlour.core.game import Status as GameStatus
from parlour.games import GAMES
from parlour.server.app import create_app
from parlour.server.hub.saved_games import FILE_LIMIT
from parlour.store import quota as store_module
from parlour.store.pictures import content_id
from parlour.store.sqlite import SqliteStore as Store
from tests.support.markup import legal_moves
from tests.support.servers import TEST_HOSTS
from tests.test_api import (
    CROSS_WINS,
    auth,
    error_of,
    get_view,
    move,
    new_game,
    session_count,
    two_humans,
)
from tests.test_uploads import png

SAME = ("id", "moves", "line_length", "text", "status", "headline", "scores", "assisted",
        "params", "preset", "to_move", "uses_upload")
"""What an imported game's view shares with the exported one's."""


# -- a game whose id names an uploaded picture (no game of Parlour's has one yet) ----------
@dataclass(frozen=True)
class Taps:
    taps: int


class TapModel(BaseModel):
    model_config = ConfigDict(extra="forbid")
    tap: StrictInt


class PictureGame(Game[Taps, int]):
    """Tap the picture three times. Module-level: worker processes import it by name."""

    name: ClassVar[str] = "picture"
    title: ClassVar[str] = "Picture"
    move_model: ClassVar[type[BaseModel]] = TapModel
    parameters: ClassVar[tuple[Param, ...]] = (Param("image", "Picture", "upload", ""),)

    def deal(self, params: Params, rng: random.Random) -> Taps:
        return Taps(0)

    def to_move(self, state: Taps) -> int | None:
        return 0 if state.taps < 3 else None

    def legal_moves(self, state: Taps) -> Sequence[int]:
        return [state.taps] if state.taps < 3 else []

    def apply(self, state: Taps, move: int) -> Taps:
        if move != state.taps:
            raise IllegalMove(f"tap {state.taps} comes next, not {move}")
        return Taps(state.taps + 1)

    def status(self, state: Taps) -> GameStatus:
        return GameStatus.WON if state.taps >= 3 else GameStatus.PLAYING

    def scores(self, state: Taps) -> tuple[int, ...]:
        return (state.taps,)

    def observe(self, state: Taps, seat: int | None) -> JSON:
        return {"taps": state.taps}

    def text(self, observation: JSON) -> str:
        return f"taps: {observation['taps']}"

    def headline(self, observation: JSON) -> str:
        return "Tap"

    def move_from_model(self, model: Any) -> int:
        return int(model.tap)

    def move_to_json(self, move: int) -> JSON:
        return {"tap": move}


def render_picture(observation: JSON, context: RenderContext) -> str:
    return f"<div>{observation['taps']}</div>"


PICTURE = GameSpec(PictureGame(), render_picture, "<p>Tap.</p>", "<svg></svg>")
WITH_PICTURES = {**GAMES, "picture": PICTURE}


# -- helpers -------------------------------------------------------------------------------
@contextmanager
def server(store: Store, games: Mapping[str, GameSpec] = GAMES) -> Iterator[TestClient]:
    """Another Parlour (another machine, in effect) on `store`."""
    app = create_app(store, games, ai_delay_scale=0, allowed_hosts=TEST_HOSTS)
    with TestClient(app) as client:
        yield client


@pytest.fixture
def elsewhere(tmp_path: Path) -> Store:
    """The store of another machine."""
    return Store(tmp_path / "elsewhere.sqlite3")


def export(client: TestClient, sid: str, token: str | None) -> dict[str, Any]:
    response = client.get(f"/api/games/{sid}/export", headers=auth(token))
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "application/json"
    disposition = response.headers["content-disposition"]
    assert re.fullmatch(r'attachment; filename="[a-z]+-\d{4}-\d\d-\d\d\.parlour\.json"',
                        disposition), disposition
    saved: dict[str, Any] = response.json()
    return saved


def import_file(client: TestClient, saved: Any) -> dict[str, Any]:
    response = client.post("/api/games/import", json=saved)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def refused(client: TestClient, store: Store, saved: Any, status: int) -> str:
    """The import's error for `saved`, checking that it kept nothing."""
    sessions, uploads = session_count(store), upload_count(store)
    message = error_of(client.post("/api/games/import", json=saved), status)
    assert (session_count(store), upload_count(store)) == (sessions, uploads)
    return message


def upload_count(store: Store) -> int:
    count: int = store.db.execute("SELECT count(*) FROM uploads").fetchone()[0]
    return count


def same_game(view: dict[str, Any], imported: dict[str, Any]) -> None:
    for key in SAME:
        assert imported[key] == view[key], key


def tictactoe_file(client: TestClient) -> dict[str, Any]:
    """A Tic-Tac-Toe file: four moves, the last two taken back."""
    sid, token = two_humans(client)
    for cell in ((1, 1), (0, 0), (2, 2), (0, 2)):
        move(client, sid, token, cell)
    for _ in range(2):
        assert client.post(f"/api/games/{sid}/undo", headers=auth(token)).status_code == 200
    return export(client, sid, token)


# -- round trips -------------------------------------------------------------------------------
def test_a_tictactoe_game_with_its_undo_line_comes_back_elsewhere(
    client: TestClient, elsewhere: Store
) -> None:
    sid, token = two_humans(client)
    for cell in ((1, 1), (0, 0), (2, 2), (0, 2)):
        move(client, sid, token, cell)
    for _ in range(2):
        client.post(f"/api/games/{sid}/undo", headers=auth(token))
    view = get_view(client, sid, token)
    saved = export(client, sid, token)
    assert saved["format"] == "parlour-saved-game" and saved["version"] == 1
    assert (saved["game"], saved["id"], saved["seats"]) == ("tictactoe", view["id"],
                                                            ["human", "human"])
    assert saved["moves"] == [{"cell": [1, 1]}, {"cell": [0, 0]}, {"cell": [2, 2]},
                              {"cell": [0, 2]}]
    assert (saved["cursor"], saved["uploads"]) == (2, {})
    with server(elsewhere) as other:
        created = import_file(other, saved)
        imported = created["view"]
        same_game(view, imported)
        assert (imported["moves"], imported["line_length"]) == (2, 4)
        assert created["seats"] == [0, 1] and imported["can_redo"]
        assert imported["session"] != sid and not imported["uses_upload"]
        redone = other.post(f"/api/games/{created['session']}/redo",
                            headers=auth(created["token"])).json()
        here = client.post(f"/api/games/{sid}/redo", headers=auth(token)).json()
        same_game(here, redone)
    with server(Store(elsewhere.path)) as again:  # kept there: back after a restart
        same_game(redone, get_view(again, created["session"], created["token"]))


def test_a_minesweeper_game_comes_back_with_its_board(
    client: TestClient, elsewhere: Store
) -> None:
    created = client.post("/api/games", json={"game": "minesweeper"}).json()
    sid, token = created["session"], created["token"]
    view, rnd = created["view"], random.Random(3)
    for _ in range(6):
        moves = legal_moves(view["html"])
        if view["status"] != "playing" or not moves:
            break
        answer = client.post(f"/api/games/{sid}/moves", json={"move": rnd.choice(moves)},
                             headers=auth(token))
        view = answer.json() if answer.status_code == 200 else view
    assert view["moves"] >= 1
    saved = export(client, sid, token)
    assert len(saved["moves"]) == view["moves"] == saved["cursor"]
    with server(elsewhere) as other:
        imported = import_file(other, saved)["view"]
        same_game(view, imported)
        assert imported["html"] == view["html"]
        assert imported["elapsed_ms"] >= saved["elapsed_ms"]


def test_the_seats_and_help_used_come_from_the_file(client: TestClient) -> None:
    created = new_game(client, seats=["human", "ai:perfect"])
    sid, token = created["session"], created["token"]
    move(client, sid, token, (1, 1))
    assert client.post(f"/api/games/{sid}/hint", headers=auth(token)).status_code == 200
    saved = export(client, sid, token)
    assert saved["seats"] == ["human", "ai:perfect"] and saved["assisted"]
    imported = import_file(client, saved)
    assert imported["seats"] == [0] and imported["view"]["assisted"]
    assert [seat["kind"] for seat in imported["view"]["seats"]] == ["human", "ai"]
    same_game(get_view(client, sid, token), imported["view"])


def test_a_picture_the_id_names_travels_with_the_file(store: Store, elsewhere: Store) -> None:
    with server(store, WITH_PICTURES) as here:
        uploaded = here.post("/api/uploads", content=png(40, 30),
                             headers={"Content-Type": "image/png"}).json()["upload"]
        created = here.post("/api/games", json={"game": "picture",
                                                "params": {"image": uploaded}}).json()
        sid, token = created["session"], created["token"]
        assert created["view"]["uses_upload"]
        move_picture = here.post(f"/api/games/{sid}/moves", json={"move": {"tap": 0}},
                                 headers=auth(token))
        assert move_picture.status_code == 200, move_picture.text
        saved = export(here, sid, token)
        kept = here.get(f"/api/uploads/{uploaded}").content
    assert set(saved["uploads"]) == {uploaded}
    assert base64.b64decode(saved["uploads"][uploaded]["data"]) == kept
    with server(elsewhere, WITH_PICTURES) as there:
        assert there.get(f"/api/uploads/{uploaded}").status_code == 404
        # without the file, the id means nothing there, and says why
        message = error_of(there.post("/api/games", json={"game": "picture",
                                                          "id": saved["id"]}), 422)
        assert uploaded in message and "only where it was uploaded" in message
        imported = import_file(there, saved)
        assert imported["view"]["uses_upload"] and imported["id"] == saved["id"]
        assert imported["view"]["text"] == "taps: 1"
        served = there.get(f"/api/uploads/{uploaded}")
        assert served.status_code == 200 and served.headers["content-type"] == "image/jpeg"
        # the id now means the deal there too
        assert there.post("/api/games", json={"game": "picture",
                                              "id": saved["id"]}).status_code == 201


def picture_game(client: TestClient) -> tuple[str, dict[str, Any]]:
    """A picture uploaded, and a game of it started: (its upload id, the game created)."""
    uploaded: str = client.post("/api/uploads", content=png(8, 8),
                                headers={"Content-Type": "image/png"}).json()["upload"]
    created = client.post("/api/games", json={"game": "picture",
                                              "params": {"image": uploaded}}).json()
    return uploaded, created


def test_a_damaged_or_unasked_picture_is_refused(store: Store) -> None:
    with server(store, WITH_PICTURES) as here:
        uploaded, created = picture_game(here)
        saved = export(here, created["session"], created["token"])
        picture = saved["uploads"][uploaded]
        cut = picture["data"][:40]
        cut_id = content_id(base64.b64decode(cut))  # the id the damaged bytes make
        damaged = {**saved, "id": saved["id"].replace(uploaded, cut_id),
                   "uploads": {cut_id: {**picture, "data": cut}}}
        assert "damaged" in refused(here, store, damaged, 422)
        not_base64 = {**saved, "uploads": {uploaded: {**picture, "data": "@@@@"}}}
        assert "base64" in refused(here, store, not_base64, 422)
        unasked = {**saved, "uploads": {**saved["uploads"], "0123456789abcdef": picture}}
        assert "0123456789abcdef" in refused(here, store, unasked, 422)


def test_pictures_over_the_importers_quota_are_refused_with_nothing_kept(
    store: Store, elsewhere: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    with server(store, WITH_PICTURES) as here:
        _, created = picture_game(here)
        saved = export(here, created["session"], created["token"])
    monkeypatch.setattr(store_module, "UPLOADS_PER_OWNER", 0)
    with server(elsewhere, WITH_PICTURES) as there:
        assert "pictures" in refused(there, elsewhere, saved, 429)


# -- who gets the file ----------------------------------------------------------------------
def test_only_the_owner_exports_a_game_that_is_on(client: TestClient) -> None:
    created = new_game(client, seats=["human", "open"])
    sid, owner = created["session"], created["token"]
    friend = client.post(f"/api/games/{sid}/join").json()["token"]
    game_id = created["id"]
    for token in (friend, None, "not-a-token"):
        message = error_of(client.get(f"/api/games/{sid}/export", headers=auth(token)), 403)
        assert game_id not in message and "deal" in message
    assert export(client, sid, owner)["id"] == game_id
    bad_header = client.get(f"/api/games/{sid}/export", headers={"Authorization": "Basic x"})
    error_of(bad_header, 401)
    error_of(client.get("/api/games/nosuchgame/export", headers=auth(owner)), 404)


def test_once_over_any_player_may_export_but_a_spectator_never(client: TestClient) -> None:
    created = new_game(client, seats=["human", "open"])
    sid, owner = created["session"], created["token"]
    friend = client.post(f"/api/games/{sid}/join").json()["token"]
    for number, cell in enumerate(CROSS_WINS):
        move(client, sid, owner if number % 2 == 0 else friend, cell)
    assert get_view(client, sid)["status"] == "won"
    assert export(client, sid, friend)["id"] == created["id"]
    for token in (None, "not-a-token"):
        error_of(client.get(f"/api/games/{sid}/export", headers=auth(token)), 403)


# -- refused files -------------------------------------------------------------------------
@pytest.mark.parametrize("change, fragment", [
    ({"format": "chess-pgn"}, "format"),
    ({"version": 2}, "version"),
    ({"cursor": 5}, "cursor 5 is past the 4 moves"),
    ({"seats": ["human"]}, "2 seats"),
    ({"seats": ["human", "open"]}, "seats"),
    ({"seats": ["human", "ai:nobody"]}, "ai:nobody"),
    ({"id": "minesweeper:easy#abc"}, "tictactoe:"),
    ({"elapsed_ms": -1}, "elapsed_ms"),
    ({"uploads": {"not-an-id": {"media_type": "image/png", "data": ""}}}, "uploads"),
    ({"extra": 1}, "extra"),
])
def test_a_file_that_is_not_a_saved_game_is_refused(
    client: TestClient, store: Store, change: dict[str, Any], fragment: str
) -> None:
    saved = {**tictactoe_file(client), **change}
    assert fragment in refused(client, store, saved, 422).lower()  # (a sentence: its capital)


def test_a_damaged_file_is_refused_in_a_player_s_words(client: TestClient, store: Store) -> None:
    """The page says "That file cannot be imported: " and this: no "Bad request: format:
    Field required" from the validator's own words."""
    saved = tictactoe_file(client)
    del saved["format"]
    assert refused(client, store, saved, 422) == "Its 'format' is missing"
    assert refused(client, store, [], 422) == ("It is not a game file: a game file is one "
                                               "JSON object")
    answer = client.post("/api/games/import", content=b"{not json",
                         headers={"Content-Type": "application/json"})
    assert error_of(answer, 422) == "It is not a game file: its text is not JSON"


def test_a_file_of_a_game_this_server_lacks_is_refused(client: TestClient, store: Store) -> None:
    saved = {**tictactoe_file(client), "game": "chess"}
    assert "chess" in refused(client, store, saved, 404)
    not_objects: list[Any] = [[], "text", None]
    for body in not_objects:
        refused(client, store, body, 422)


@pytest.mark.parametrize("moves, fragment", [
    ([{"cell": [1, 1]}, {"cell": [0, 0]}, {"cell": [1, 1]}], "move 3 cannot be played"),
    ([{"cell": [1, 1]}, {"square": 4}], "move 2 cannot be played: malformed move"),
    ([{"cell": list(cell)} for cell in [*CROSS_WINS, (2, 2)]],
     "move 6 cannot be played: the game was already over"),
])
def test_moves_that_cannot_be_replayed_are_refused_saying_which(
    client: TestClient, store: Store, moves: list[Any], fragment: str
) -> None:
    saved = {**tictactoe_file(client), "moves": moves, "cursor": len(moves)}
    assert fragment in refused(client, store, saved, 422)


def test_a_file_over_the_limit_is_refused_before_it_is_read(
    client: TestClient, store: Store
) -> None:
    saved = tictactoe_file(client)
    sessions = session_count(store)
    padding = json.dumps({**saved, "pad": "x" * FILE_LIMIT}).encode()
    answer = client.post("/api/games/import", content=padding,
                         headers={"Content-Type": "application/json"})
    assert "8 MiB" in error_of(answer, 413)
    # a file far over the 16 KiB of other JSON bodies is read (and refused for its field)
    big = json.dumps({**saved, "pad": "x" * 2**20}).encode()
    answer = client.post("/api/games/import", content=big,
                         headers={"Content-Type": "application/json"})
    assert "pad" in error_of(answer, 422)
    error_of(client.post("/api/games/import", content=b"{}",
                         headers={"Content-Type": "text/plain"}), 415)
    assert session_count(store) == sessions


def test_the_import_route_is_documented(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    assert "8 MiB" in schema["info"]["description"]
    imported = schema["paths"]["/api/games/import"]["post"]
    assert {"201", "404", "413", "415", "422", "429", "503"} <= set(imported["responses"])
    exported = schema["paths"]["/api/games/{sid}/export"]["get"]
    assert {"200", "401", "403", "404", "409"} <= set(exported["responses"])
    assert "Content-Disposition" in exported["responses"]["200"]["headers"]
