"""Imports no client can use against the others: a file holds at most the moves of a real
game, a long one is read, replayed and written off the event loop, each player keeps a
bounded number of imported moves and imports nobody opens expire; a picture is kept only
under the id its own bytes make, and each player (not each address) has their quota."""

from __future__ import annotations

import base64
import json
import threading
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from PIL import Image

from parlour.server.hub.saved_games import MAX_MOVES
from parlour.store import SessionRow, import_kept, import_opened, quota, session_created, together
from parlour.store.pictures import BadUpload, check_brought_picture, check_picture
from parlour.store.sqlite import SqliteStore as Store
from parlour.store.sqlite import writes
from tests.support.imports import to_and_fro_file
from tests.test_api import error_of, session_count
from tests.test_saved_files import WITH_PICTURES, export, import_file, refused, server
from tests.test_uploads import encoded, jpeg, png

DAY = 24 * 3600.0
NOW = 1_700_000_000.0
ALICE = {"parlour_player": "alice-plays-parlour-00"}
BOB = {"parlour_player": "bob-plays-parlour-0000"}


def post_file(client: TestClient, saved: dict[str, Any],
              cookies: dict[str, str] | None = None) -> Any:
    client.cookies.clear()
    client.cookies.update(cookies or {})
    return client.post("/api/games/import", content=json.dumps(saved),
                       headers={"Content-Type": "application/json"})


# -- moves per file ---------------------------------------------------------------------
def test_a_file_longer_than_any_real_game_is_refused(client: TestClient, store: Store) -> None:
    message = refused(client, store, to_and_fro_file(100_000), 422)
    assert "moves" in message and f"{MAX_MOVES}" in message


def test_a_file_of_the_most_moves_a_real_game_makes_comes_back(client: TestClient) -> None:
    reply = post_file(client, to_and_fro_file(MAX_MOVES))
    assert reply.status_code == 201, reply.text
    assert reply.json()["view"]["line_length"] == MAX_MOVES


def test_an_imported_game_is_kept_whole_and_served_again_after_a_restart(
        tmp_path: Any) -> None:
    saved = to_and_fro_file(300)
    with server(Store(tmp_path / "kept.sqlite3")) as before:
        imported = import_file(before, saved)
    with server(Store(tmp_path / "kept.sqlite3")) as after:  # read back from the disk
        again = export(after, imported["session"], imported["token"])
    assert again["moves"] == saved["moves"] and again["cursor"] == saved["cursor"]


# -- off the event loop ------------------------------------------------------------------
def test_other_requests_are_answered_while_a_long_import_is_written(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The import's moves are written while another client's request waits for nothing:
    the write is held until that request is answered, which it can only be if the write
    runs beside the event loop, not on it."""
    writing, answered = threading.Event(), threading.Event()
    answered_while_writing: list[bool] = []
    original: Callable[..., None] = writes.WRITES.session_created

    def held_write(db: Any, change: Any) -> None:
        if len(change.moves_text) == MAX_MOVES:
            writing.set()
            answered_while_writing.append(answered.wait(20))
        original(db, change)

    monkeypatch.setattr(writes.WRITES, "session_created", held_write)
    outcome: list[int] = []
    importing = threading.Thread(
        target=lambda: outcome.append(post_file(client, to_and_fro_file(MAX_MOVES)).status_code))
    importing.start()
    assert writing.wait(120), "the import never came to writing its moves"
    assert client.get("/api/catalog").status_code == 200
    answered.set()
    importing.join(120)
    assert outcome == [201]
    assert answered_while_writing == [True]


# -- imported moves per player, and imports nobody opens ------------------------------------
def imported(store: Store, sid: str, importer: str, moves: int, now: float) -> None:
    row = SessionRow(
        sid=sid, game="sliding", game_id="sliding:rows=3,cols=3:1,2,3,4,5,6,7,0,8",
        seats=["human"], mode="solo", preset="custom", cursor=0, round=1, assisted=False,
        elapsed_ms=0, clock_last_at=None, status="playing", headline="", updated=now,
    )
    store.write(together(session_created(row, {f"token-{sid}": [0]}, now),
                         import_kept(sid, importer, moves, now)))


def kept_sids(store: Store) -> set[str]:
    return {sid for (sid,) in store.db.execute("SELECT sid FROM sessions")}


def test_an_import_nobody_opened_expires_after_a_day_and_an_opened_one_stays(
    store: Store
) -> None:
    imported(store, "unopened", "player:a", 10, NOW)
    imported(store, "opened", "player:a", 10, NOW)
    store.write(import_opened("opened"))
    imported(store, "recent", "player:b", 10, NOW + DAY - 60)
    imported(store, "next-day", "player:b", 10, NOW + DAY + 1)
    assert kept_sids(store) == {"opened", "recent", "next-day"}
    assert store.db.execute("SELECT count(*) FROM moves WHERE sid='unopened'").fetchone() == (0,)


def test_an_import_page_opened_by_its_player_is_kept_for_good(client: TestClient,
                                                              store: Store) -> None:
    created = post_file(client, to_and_fro_file(4)).json()
    sid, token = created["session"], created["token"]
    with client.websocket_connect(f"/ws/{sid}") as socket:
        socket.send_json({"type": "hello", "token": token})
        socket.receive_json()
    opened = store.db.execute("SELECT opened FROM imports WHERE sid=?", (sid,)).fetchone()
    assert opened == (1,)


def test_each_player_keeps_a_bounded_number_of_imported_moves(
    client: TestClient, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(quota, "IMPORTED_MOVES_PER_OWNER", 25)
    first = post_file(client, to_and_fro_file(10), ALICE).json()["session"]
    post_file(client, to_and_fro_file(10), ALICE)
    # a third makes room by dropping Alice's oldest import she never opened
    assert post_file(client, to_and_fro_file(10), ALICE).status_code == 201
    assert first not in kept_sids(store) and session_count(store) == 2
    store.write(together(*(import_opened(sid) for sid in kept_sids(store))))
    # the games she opened are kept: over her quota an import is refused, nothing kept
    message = error_of(post_file(client, to_and_fro_file(10), ALICE), 429)
    assert "imported games" in message and session_count(store) == 2
    assert post_file(client, to_and_fro_file(10), BOB).status_code == 201  # his own quota


# -- pictures bound to their bytes --------------------------------------------------------
def test_a_picture_imported_under_another_pictures_id_cannot_claim_it(store: Store) -> None:
    real = check_picture(png(40, 30))  # a picture someone is about to upload
    green = base64.b64encode(check_picture(png(3, 3)).data).decode()
    claim = {**to_and_fro_file(0), "game": "picture", "seats": ["human"],
             "id": f"picture:image={real.upload_id}#seed1", "moves": [], "cursor": 0,
             "uploads": {real.upload_id: {"media_type": "image/jpeg", "data": green}}}
    with server(store, WITH_PICTURES) as here:
        message = refused(here, store, claim, 422)
        assert real.upload_id in message and "bytes" in message
        assert here.get(f"/api/uploads/{real.upload_id}").status_code == 404
        uploaded = here.post("/api/uploads", content=png(40, 30),
                             headers={"Content-Type": "image/png"}).json()["upload"]
        assert uploaded == real.upload_id
        assert here.get(f"/api/uploads/{uploaded}").content == real.data


def test_a_picture_travels_on_through_every_export_and_import(store: Store, tmp_path: Any
                                                              ) -> None:
    """A photo (kept as JPEG, whose every re-encoding changes its bytes) brought in a
    file is kept as it came, so the game exported again from there imports anywhere."""
    with server(store, WITH_PICTURES) as first:
        photo = encoded(Image.effect_noise((48, 32), 64).convert("RGB"), "JPEG")
        uploaded = first.post("/api/uploads", content=photo,
                              headers={"Content-Type": "image/jpeg"}).json()["upload"]
        created = first.post("/api/games", json={"game": "picture",
                                                 "params": {"image": uploaded}}).json()
        saved = export(first, created["session"], created["token"])
        photo = first.get(f"/api/uploads/{uploaded}").content
    for name in ("second", "third"):
        with server(Store(tmp_path / f"{name}.sqlite3"), WITH_PICTURES) as there:
            imported = import_file(there, saved)
            assert imported["id"] == saved["id"]
            assert there.get(f"/api/uploads/{uploaded}").content == photo
            saved = export(there, imported["session"], imported["token"])


def test_a_brought_picture_with_metadata_is_refused_not_kept_as_it_came() -> None:
    with_comment = jpeg(48, 32, comment=b"where I live")
    with pytest.raises(BadUpload, match="upload it instead"):
        check_brought_picture(with_comment)


def test_two_players_on_one_address_have_a_quota_each(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(quota, "UPLOADS_PER_OWNER", 1)
    ids = []
    for player, picture in ((ALICE, png(5, 4)), (BOB, png(6, 4))):
        client.cookies.clear()
        client.cookies.update(player)
        reply = client.post("/api/uploads", content=picture,
                            headers={"Content-Type": "image/png"})
        ids.append(reply.json()["upload"])
    # Bob's upload made no room out of Alice's: both are kept
    assert [client.get(f"/api/uploads/{upload_id}").status_code for upload_id in ids] == [
        200, 200]


def test_imports_make_room_by_dropping_the_oldest_unopened_ones_just_enough() -> None:
    most = quota.IMPORTED_MOVES_PER_OWNER
    unopened = [("oldest", 10), ("older", 10), ("newer", 10)]
    assert quota.imports_to_drop(most, unopened) == []  # exactly the quota fits
    assert quota.imports_to_drop(most + 15, unopened) == ["oldest", "older"]
    with pytest.raises(quota.OverImportQuota):
        quota.imports_to_drop(most + 31, unopened)  # even all three are not enough
