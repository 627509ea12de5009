"""Backups: one file holds a player's games (finished or not, resumable), results and
pictures; restoring it elsewhere merges (nothing kept is changed, nothing is doubled, a
second restore adds nothing); every game is replayed before it is accepted, and a
malformed or malicious file changes nothing and says why. The results as CSV."""

from __future__ import annotations

import base64
import csv
import io
import json
import shutil
import sqlite3
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlour.cli import main as parlour_main
from parlour.core.gameid import SHOWN
from parlour.games import GAMES
from parlour.server.api.own import HELD_BODY_LIMIT
from parlour.server.app import create_app
from parlour.server.hub import backup
from parlour.server.hub.backup import BACKUP_LIMIT, MAX_PICTURE_TEXT
from parlour.stats.own import MAX_HELD
from parlour.stats.spreadsheet import COLUMNS, results_csv
from parlour.store import Result
from parlour.store.seat_tokens import token_digest
from parlour.store.sqlite import SqliteStore as Store
from tests.support.loops import run_async
from tests.support.servers import TEST_HOSTS
from tests.test_api import auth, error_of
from tests.test_honest_stats import lost_minesweeper
from tests.test_uploads import png, png_header

THIS_MACHINE = ("127.0.0.1", 50000)
JSON_BODY = {"Content-Type": "application/json"}


@contextmanager
def parlour_on(store: Store, client: tuple[str, int] = THIS_MACHINE) -> Iterator[TestClient]:
    """A Parlour (a machine, in effect) on `store`, asked from `client`'s address."""
    app = create_app(store, GAMES, ai_delay_scale=0, allowed_hosts=TEST_HOSTS)
    with TestClient(app, client=client) as test_client:
        yield test_client


def tictactoe_to_the_end(client: TestClient, hint: bool = False) -> dict[str, Any]:
    """A game against the computer played to its end (a hint first if `hint`)."""
    created = client.post("/api/games", json={"game": "tictactoe",
                                              "seats": ["human", "ai:random"]}).json()
    sid, token = created["session"], created["token"]
    if hint:
        assert client.post(f"/api/games/{sid}/hint", headers=auth(token)).status_code == 200
    for cell in range(9):
        view = client.get(f"/api/games/{sid}", headers=auth(token)).json()
        if view["status"] != "playing":
            break
        client.post(f"/api/games/{sid}/moves", json={"move": {"cell": [cell // 3, cell % 3]}},
                    headers=auth(token))
    assert client.get(f"/api/games/{sid}", headers=auth(token)).json()["status"] != "playing"
    return created


def minesweeper_begun(client: TestClient) -> dict[str, Any]:
    created = client.post("/api/games", json={"game": "minesweeper"}).json()
    moved = client.post(f"/api/games/{created['session']}/moves",
                        json={"move": {"open": [3, 3]}}, headers=auth(created["token"]))
    assert moved.status_code == 200, moved.text
    return created


def sliding_of_my_picture(client: TestClient) -> dict[str, Any]:
    upload = client.post("/api/uploads", content=png(60, 60),
                         headers={"Content-Type": "image/png"}).json()["upload"]
    created = client.post("/api/games", json={"game": "sliding", "params": {
        "rows": 3, "cols": 3, "picture": upload}}).json()
    assert created["view"]["uses_upload"], created
    return created


def some_games(client: TestClient) -> list[dict[str, Any]]:
    return [tictactoe_to_the_end(client), tictactoe_to_the_end(client, hint=True),
            minesweeper_begun(client), sliding_of_my_picture(client)]


def backup_of(client: TestClient, held: list[str] | None = None) -> bytes:
    """The backup `client`'s Parlour makes: as the statistics page asks for it, carrying
    the tokens `held` (the browser's), or without them (GET, as a script asks)."""
    response = (client.get("/api/backup") if held is None
                else client.post("/api/backup/mine", json={"tokens": held}))
    assert response.status_code == 200, response.text
    assert response.headers["content-disposition"].startswith(
        'attachment; filename="parlour-backup-')
    return response.content


def views_of(client: TestClient, games: list[dict[str, Any]]) -> dict[str, Any]:
    """Each game's view, as its player sees it, by session."""
    return {game["session"]: client.get(f"/api/games/{game['session']}",
                                        headers=auth(game["token"])).json() for game in games}


def restore(client: TestClient, data: bytes) -> Any:
    return client.post("/api/backup", content=data, headers=JSON_BODY)


def kept(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Everything the store at `path` keeps, table by table, in a stable order (an
    upload's own times and owner aside: when and by whom it was kept here)."""
    db = sqlite3.connect(path)
    try:
        return {
            "sessions": db.execute("SELECT * FROM sessions ORDER BY sid").fetchall(),
            "moves": db.execute("SELECT * FROM moves ORDER BY sid, ply").fetchall(),
            "tokens": db.execute("SELECT * FROM tokens ORDER BY token").fetchall(),
            "results": db.execute("SELECT * FROM results ORDER BY sid, round, seat").fetchall(),
            "uploads": db.execute("SELECT upload_id, media_type, width, height, data"
                                  " FROM uploads ORDER BY upload_id").fetchall(),
            "series": db.execute("SELECT * FROM series ORDER BY sid").fetchall(),
        }
    finally:
        db.close()


# -- round trip ---------------------------------------------------------------------------
def test_a_backup_restored_on_another_machine_brings_back_games_results_and_pictures(
    tmp_path: Path,
) -> None:
    with parlour_on(Store(tmp_path / "here.sqlite3")) as here:
        games = some_games(here)
        data = backup_of(here, held=[game["token"] for game in games])
        views = views_of(here, games)
        stats = here.get("/api/stats").json()
        picture = games[-1]["view"]["params"]["picture"]
        kept_picture = here.get(f"/api/uploads/{picture}").content
    with parlour_on(Store(tmp_path / "there.sqlite3")) as there:
        assert there.get(f"/api/uploads/{picture}").status_code == 404
        report = restore(there, data).json()
        assert report["games_added"] == 4 and report["games_already_here"] == 0
        assert report["results_added"] == 2 and report["pictures_added"] == 1
        # the browser restoring it never played them: the report hands it their seats
        given = report["tokens"]
        assert given == {game["session"]: game["token"] for game in games}
        for game in games:
            sid = game["session"]
            view = there.get(f"/api/games/{sid}", headers=auth(given[sid])).json()
            for key in ("id", "moves", "line_length", "status", "text", "scores", "assisted",
                        "you"):
                assert view[key] == views[sid][key], key
            assert view["you"] == [0]
        assert there.get("/api/stats").json() == stats
        assert there.get(f"/api/uploads/{picture}").content == kept_picture
        # an unfinished game goes on where it was, and is on its player's Resume list
        sid = games[2]["session"]
        held = there.post("/api/sessions/mine", json={"tokens": list(given.values())}).json()
        assert [g["session"] for g in held["games"]] == [sid]
        hint = there.post(f"/api/games/{sid}/hint", headers=auth(given[sid]))
        moved = there.post(f"/api/games/{sid}/moves",
                           json={"move": hint.json()["move"]}, headers=auth(given[sid]))
        assert moved.status_code == 200, moved.text
        assert moved.json()["moves"] == views[sid]["moves"] + 1


def test_a_loss_taken_back_and_left_in_play_is_restored_with_its_game(tmp_path: Path) -> None:
    """A round's result stands while an Undo has it in play again (with help): a backup
    carries both, and restoring it keeps the loss and the game to play on."""
    with parlour_on(Store(tmp_path / "here.sqlite3")) as here:
        sid, headers = lost_minesweeper(here)
        assert here.post(f"/api/games/{sid}/undo", headers=headers).status_code == 200
        data = backup_of(here, held=[headers["Authorization"].removeprefix("Bearer ")])
        stats = here.get("/api/stats").json()
    with parlour_on(Store(tmp_path / "there.sqlite3")) as there:
        report = restore(there, data).json()
        assert (report["games_added"], report["results_added"]) == (1, 1), report
        assert there.get("/api/stats").json() == stats
        token = report["tokens"][sid]
        view = there.get(f"/api/games/{sid}", headers=auth(token)).json()
        assert (view["status"], view["assisted"]) == ("playing", True)


def test_restoring_a_backup_twice_adds_nothing_the_second_time(tmp_path: Path) -> None:
    with parlour_on(Store(tmp_path / "here.sqlite3")) as here:
        some_games(here)
        data = backup_of(here)
    there = tmp_path / "there.sqlite3"
    with parlour_on(Store(there)) as client:
        first = restore(client, data).json()
        once = kept(there)
        second = restore(client, data).json()
        assert kept(there) == once
    assert second["games_added"] == second["results_added"] == second["pictures_added"] == 0
    assert second["games_already_here"] == first["games_added"] == 4


def test_restoring_merges_and_keeps_what_is_here(tmp_path: Path) -> None:
    """Games played on the new machine stay; restoring a machine's own backup onto
    itself (games played on since) changes nothing of them."""
    here = tmp_path / "here.sqlite3"
    with parlour_on(Store(here)) as client:
        game = minesweeper_begun(client)
        data = backup_of(client)
        # played on after the backup: the restore must not take it back
        hint = client.post(f"/api/games/{game['session']}/hint", headers=auth(game["token"]))
        assert client.post(f"/api/games/{game['session']}/moves", json={
            "move": hint.json()["move"]}, headers=auth(game["token"])).status_code == 200
        ours = tictactoe_to_the_end(client)
        before = kept(here)
        report = restore(client, data).json()
        assert report["games_added"] == 0 and report["games_already_here"] == 1
        assert kept(here) == before
        assert client.get(f"/api/games/{ours['session']}",
                          headers=auth(ours["token"])).status_code == 200


# -- restore twice equals restore once, over random sets of games ------------------------
@pytest.fixture(scope="module")
def pool(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A backup of a few games of several kinds, made once."""
    path = tmp_path_factory.mktemp("pool") / "pool.sqlite3"
    with parlour_on(Store(path)) as client:
        for _ in range(2):
            some_games(client)
        return json.loads(backup_of(client))


def restored_into(path: Path, document: dict[str, Any]) -> dict[str, Any]:
    store = Store(path)
    try:
        report = run_async(backup.restore(store, GAMES, json.dumps(document).encode(),
                                            1.7e9, backup.replay_in_place))
    finally:
        store.close()
    return report.model_dump()


def part_of(pool: dict[str, Any], chosen: list[bool]) -> dict[str, Any]:
    games = [g for g, keep in zip(pool["games"], chosen, strict=False) if keep]
    sids = {g["session"] for g in games}
    ids = " ".join(g["id"] for g in games)
    return {**pool, "games": games,
            "results": [r for r in pool["results"] if r["session"] in sids],
            "pictures": {k: v for k, v in pool["pictures"].items() if k in ids}}


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(first=st.lists(st.booleans(), min_size=8, max_size=8),
       second=st.lists(st.booleans(), min_size=8, max_size=8))
def test_restore_twice_equals_restore_once_and_order_does_not_matter(
    pool: dict[str, Any], first: list[bool], second: list[bool],
) -> None:
    one, other = part_of(pool, first), part_of(pool, second)
    with tempfile.TemporaryDirectory() as folder:
        once, twice = Path(folder, "once.sqlite3"), Path(folder, "twice.sqlite3")
        restored_into(once, one)
        restored_into(twice, one)
        again = restored_into(twice, one)
        assert kept(twice) == kept(once)
        assert again["games_added"] == again["results_added"] == again["pictures_added"] == 0
        # merging two backups gives the same whichever comes first
        ab, ba = Path(folder, "ab.sqlite3"), Path(folder, "ba.sqlite3")
        restored_into(ab, one)
        restored_into(ab, other)
        restored_into(ba, other)
        restored_into(ba, one)
        assert kept(ab) == kept(ba)
        assert len(kept(ab)["sessions"]) == sum(a or b for a, b in zip(first, second,
                                                                         strict=False))


# -- malformed and malicious files change nothing, and say why ----------------------------
Mutation = Callable[[dict[str, Any]], Any]


def game_of(doc: dict[str, Any], name: str) -> dict[str, Any]:
    return next(g for g in doc["games"] if g["game"] == name)


def _set(path: str, value: Any) -> Mutation:
    def mutate(doc: dict[str, Any]) -> dict[str, Any]:
        *parents, last = path.split(".")
        target: Any = doc
        for part in parents:
            target = game_of(target, part) if part in GAMES else (
                target[int(part)] if part.isdigit() else target[part])
        target[last] = value
        return doc
    return mutate


def _illegal_move(doc: dict[str, Any]) -> dict[str, Any]:
    game = game_of(doc, "tictactoe")
    game["moves"][1] = game["moves"][0]  # the same cell twice
    return doc


def _twice_the_game(doc: dict[str, Any]) -> dict[str, Any]:
    doc["games"].append(dict(doc["games"][0]))
    return doc


def _a_token_twice(doc: dict[str, Any]) -> dict[str, Any]:
    doc["games"][1]["tokens"] = list(doc["games"][0]["tokens"])
    return doc


def _result_twice(doc: dict[str, Any]) -> dict[str, Any]:
    doc["results"].append(dict(doc["results"][0]))
    return doc


def _result_of_no_game(doc: dict[str, Any]) -> dict[str, Any]:
    doc["results"][0]["session"] = "nosuchgame00"
    return doc


def _result_lies(doc: dict[str, Any]) -> dict[str, Any]:
    result = doc["results"][0]
    result["outcome"] = "lost" if result["outcome"] != "lost" else "won"
    return doc


def _result_of_a_game_in_play(doc: dict[str, Any]) -> dict[str, Any]:
    mines = game_of(doc, "minesweeper")
    doc["results"].append({**doc["results"][0], "session": mines["session"],
                           "game": "minesweeper"})
    return doc


def _picture(change: Callable[[dict[str, Any]], None]) -> Mutation:
    def mutate(doc: dict[str, Any]) -> dict[str, Any]:
        change(next(iter(doc["pictures"].values())))
        return doc
    return mutate


def _picture_no_game_uses(doc: dict[str, Any]) -> dict[str, Any]:
    doc["pictures"]["0123456789abcdef"] = next(iter(doc["pictures"].values()))
    return doc


def _picture_left_out(doc: dict[str, Any]) -> dict[str, Any]:
    doc["pictures"] = {}
    return doc


def _bomb(picture: dict[str, Any]) -> None:
    picture["data"] = base64.b64encode(png_header(100_000, 100_000)).decode()


REFUSED: dict[str, tuple[Mutation, str]] = {
    "not JSON": (lambda doc: b'{"format": "parlour-backup", ', "not JSON"),
    "not UTF-8": (lambda doc: b"\xff\xfe{}", "not JSON"),
    "a list": (lambda doc: [doc], "not a Parlour backup"),
    "another format": (_set("format", "zip"), "not a Parlour backup"),
    "a saved game": (_set("format", "parlour-saved-game"), "one saved game"),
    "a newer version": (_set("version", 4), "made by a newer Parlour"),
    "a version as text": (_set("version", "1"), "version is not a number"),
    "a duplicate key": (lambda doc: json.dumps(doc).replace(
        '"version": 3', '"version": 3, "version": 3').encode(), "appears twice"),
    "NaN": (lambda doc: json.dumps(doc).replace('"made": ', '"made": NaN, "x": ').encode(),
            "not JSON"),
    "deep nesting": (lambda doc: json.dumps(doc).replace(
        '"moves": [', '"moves": [' + "[" * 100_000 + "]" * 100_000 + ",", 1).encode(),
        "not JSON"),
    "a flood of lists": (lambda doc: json.dumps(doc).replace(
        '"moves": [', '"moves": [' + "[]," * 4_000_001, 1).encode(), "over 4,000,000 lists"),
    "an unknown field": (_set("extra", 1), "extra"),
    "an unknown game": (_set("tictactoe.game", "chess"), "not a game this Parlour has"),
    "an id that does not parse": (_set("tictactoe.id", "tictactoe:???#"), "id does not read"),
    "an illegal move": (_illegal_move, "does not replay"),
    "a status its moves do not make": (_set("minesweeper.status", "won"), "leave it playing"),
    "a cursor past the moves": (_set("minesweeper.cursor", 99), "past the"),
    "a session id with a path": (_set("tictactoe.session", "../../etc/passwd"), "session"),
    "a token that is no token": (_set("tictactoe.tokens", [{"token": "<script>", "seats": [0]}]),
                                 "token"),
    "no token": (_set("tictactoe.tokens", []), "no seat token"),
    "a seat it has not": (_set("tictactoe.tokens", [{"token": "a" * 24, "seats": [5]}]),
                          "a seat it does not have"),
    "a seat of another kind": (_set("tictactoe.seats", ["human", "ai:godlike"]), "seat"),
    "the same game twice": (_twice_the_game, "in it twice"),
    "a token twice": (_a_token_twice, "token is in it twice"),
    "a result twice": (_result_twice, "in it twice"),
    "a result of no game": (_result_of_no_game, "not in the backup"),
    "a result its moves do not make": (_result_lies, "but its game's moves make it"),
    "a result of a game in play": (_result_of_a_game_in_play, "still being played"),
    "a huge number": (_set("results.0.elapsed_ms", 10**30), "elapsed_ms"),
    "a picture not in base64": (_picture(lambda p: p.update(data="not*base64")), "base64"),
    "a picture over the limit": (_picture(lambda p: p.update(data="A" * (MAX_PICTURE_TEXT + 4))),
                                 "its 'data'"),
    "a decompression bomb": (_picture(_bomb), "picture"),
    "a picture no game uses": (_picture_no_game_uses, "no game uses"),
    "a picture left out": (_picture_left_out, "does not hold"),
    "a picture id with a path": (lambda doc: {**doc, "pictures": {
        "../uploads/x": next(iter(doc["pictures"].values()))}}, "the id of picture"),
}


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A backup with a game of each kind the mutations touch."""
    path = tmp_path_factory.mktemp("sample") / "sample.sqlite3"
    with parlour_on(Store(path)) as client:
        some_games(client)
        return json.loads(backup_of(client))


@pytest.mark.parametrize("case", REFUSED)
def test_a_malformed_or_malicious_backup_changes_nothing_and_says_why(
    case: str, sample: dict[str, Any], tmp_path: Path,
) -> None:
    mutate, reason = REFUSED[case]
    changed = mutate(json.loads(json.dumps(sample)))
    data = changed if isinstance(changed, bytes) else json.dumps(changed).encode()
    there = tmp_path / "there.sqlite3"
    with parlour_on(Store(there)) as client:
        minesweeper_begun(client)  # what was here before
        before = kept(there)
        message = error_of(restore(client, data), 422)
        assert kept(there) == before
    assert reason in message, message
    assert message[0].isupper(), message  # a sentence


def test_a_backup_over_the_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    with parlour_on(Store(tmp_path / "there.sqlite3")) as client:
        message = error_of(restore(client, b" " * (BACKUP_LIMIT + 1)), 413)
    assert "64 MiB" in message
    with pytest.raises(backup.ApiError, match="over 64 MiB"):
        run_async(backup.check(b" " * (BACKUP_LIMIT + 1), GAMES, backup.replay_in_place))


def test_a_game_kept_here_under_the_same_id_is_never_replaced(sample: dict[str, Any],
                                                               tmp_path: Path) -> None:
    there = tmp_path / "there.sqlite3"
    with parlour_on(Store(there)) as client:
        mine = minesweeper_begun(client)
        doc = json.loads(json.dumps(sample))
        game_of(doc, "minesweeper")["session"] = mine["session"]  # another deal, same sid
        before = kept(there)
        message = error_of(restore(client, json.dumps(doc).encode()), 422)
        assert "not the game kept here" in message and kept(there) == before
        # nor is a seat token of a game here taken over by a game of the file
        doc = json.loads(json.dumps(sample))
        game_of(doc, "minesweeper")["tokens"][0]["token"] = token_digest(mine["token"])
        message = error_of(restore(client, json.dumps(doc).encode()), 422)
        assert "another game's here" in message and kept(there) == before


def test_only_this_machine_may_make_or_restore_a_backup(sample: dict[str, Any],
                                                        tmp_path: Path) -> None:
    """A backup holds every deal and seat token: not for a browser on another machine
    (a server started with --host 0.0.0.0)."""
    there = tmp_path / "there.sqlite3"
    with parlour_on(Store(there), client=("192.168.1.20", 50000)) as client:
        assert "only on the machine" in error_of(client.get("/api/backup"), 403)
        before = kept(there)
        error_of(restore(client, json.dumps(sample).encode()), 403)
        assert kept(there) == before


# -- the seat tokens of the browser that made it ------------------------------------------
def test_a_backup_carries_only_the_sent_tokens_that_hold_a_seat_in_its_games(
    tmp_path: Path,
) -> None:
    with parlour_on(Store(tmp_path / "here.sqlite3")) as here:
        mines, played = minesweeper_begun(here), tictactoe_to_the_end(here)
        with parlour_on(Store(tmp_path / "elsewhere.sqlite3")) as elsewhere:
            other = minesweeper_begun(elsewhere)["token"]  # a token of another Parlour
        sent = [mines["token"], other, token_digest(played["token"]), "x", "<b>" * 21]
        data = backup_of(here, held=sent)
        plain = backup_of(here)
    doc = json.loads(data)
    assert doc["version"] == 3
    yours = {game["session"]: game.get("your_token") for game in doc["games"]}
    assert yours == {mines["session"]: mines["token"], played["session"]: None}
    for token in (other, played["token"], "<b>"):  # a digest sent seats no one
        assert token.encode() not in data
    assert all("your_token" not in game for game in json.loads(plain)["games"])


def test_the_tokens_sent_for_a_backup_are_bounded(tmp_path: Path) -> None:
    with parlour_on(Store(tmp_path / "here.sqlite3")) as here:
        mine = "/api/backup/mine"
        many = ["a" * 24] * (MAX_HELD + 1)
        assert "tokens" in error_of(here.post(mine, json={"tokens": many}), 422)
        assert "tokens" in error_of(here.post(mine, json={"tokens": ["a" * 65]}), 422)
        assert "tokens" in error_of(here.post(mine, json={"held": []}), 422)
        huge = b'{"tokens": ["' + b"a" * HELD_BODY_LIMIT + b'"]}'
        error_of(here.post(mine, content=huge, headers=JSON_BODY), 413)
        error_of(here.post(mine, data={"tokens": "a"}), 415)
        assert here.post(mine, json={"tokens": ["a" * 24] * MAX_HELD}).status_code == 200
        # a page of another site cannot have a browser send its tokens here
        evil = {"Origin": "http://evil.example"}
        error_of(here.post(mine, json={"tokens": []}, headers=evil), 403)
    with parlour_on(Store(tmp_path / "there.sqlite3"), client=("192.168.1.20", 50000)) as there:
        assert "only on the machine" in error_of(there.post(mine, json={"tokens": []}), 403)


@pytest.fixture(scope="module")
def carrying(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A backup of two games carrying the tokens of the browser that played them."""
    path = tmp_path_factory.mktemp("carrying") / "carrying.sqlite3"
    with parlour_on(Store(path)) as client:
        games = [minesweeper_begun(client), tictactoe_to_the_end(client)]
        doc: dict[str, Any] = json.loads(backup_of(client, [g["token"] for g in games]))
    assert all(game["your_token"] for game in doc["games"])
    return doc


def _your_token(value: Callable[[dict[str, Any]], str], version: int = 3) -> Mutation:
    def mutate(doc: dict[str, Any]) -> dict[str, Any]:
        doc["games"][0]["your_token"] = value(doc)
        doc["version"] = version
        return doc
    return mutate


FORGED: dict[str, tuple[Mutation, str]] = {
    "a token that is not the game's": (_your_token(lambda doc: "forged-token-0123456789ab"),
                                       "game 1: the seat token it holds for you is not one"),
    "another game's token": (_your_token(lambda doc: doc["games"][1]["your_token"]),
                             "game 1: the seat token it holds for you is not one"),
    "the game's digest as its token": (
        _your_token(lambda doc: doc["games"][0]["tokens"][0]["token"]), "not one of the game"),
    "a token that is no token": (_your_token(lambda doc: "<script>"),
                                 "game 1, its 'your_token'"),
    "a token in a version 2 file": (_your_token(lambda doc: doc["games"][0]["your_token"], 2),
                                    "only a version 3 backup holds"),
}


@pytest.mark.parametrize("case", FORGED)
def test_a_forged_token_in_a_backup_refuses_it_whole(
    case: str, carrying: dict[str, Any], tmp_path: Path,
) -> None:
    """A token is handed back only if its digest is the game's in the file: one that is
    not (changed, or another game's) is no seat of that game, and the file was changed
    since it was made, so nothing of it is restored."""
    refused_whole(carrying, *FORGED[case], tmp_path)


def test_a_version_2_backup_still_restores_and_hands_back_no_token(
    carrying: dict[str, Any], tmp_path: Path,
) -> None:
    doc = json.loads(json.dumps(carrying))
    doc["version"] = 2
    for game in doc["games"]:
        del game["your_token"]
    with parlour_on(Store(tmp_path / "there.sqlite3")) as client:
        report = restore(client, json.dumps(doc).encode()).json()
    assert report["games_added"] == 2 and report["tokens"] == {}


def test_a_game_kept_here_already_hands_back_a_token_only_if_it_seats_it_here(
    carrying: dict[str, Any], tmp_path: Path,
) -> None:
    first, second = carrying["games"]
    elsewhere = json.loads(json.dumps(carrying))  # the same games, with other seat tokens
    for game in elsewhere["games"]:
        game["tokens"][0]["token"] = token_digest(game["session"] + "-another-token")
        del game["your_token"]
    with parlour_on(Store(tmp_path / "there.sqlite3")) as client:
        restore(client, json.dumps({**elsewhere, "games": elsewhere["games"][:1],
                                    "results": []}).encode())
        report = restore(client, json.dumps(carrying).encode()).json()
        assert report["games_added"] == 1 and report["games_already_here"] == 1
        # the first game is here with other tokens: its token from the file seats no one
        assert report["tokens"] == {second["session"]: second["your_token"]}
        # restored again, the second game is here with the file's own token: handed back
        again = restore(client, json.dumps(carrying).encode()).json()
        assert again["games_added"] == 0
        assert again["tokens"] == {second["session"]: second["your_token"]}
        assert client.get(f"/api/games/{first['session']}", headers=auth(
            first["your_token"])).json()["you"] == []


# -- series and rematches ------------------------------------------------------------------
def played_to_the_end(client: TestClient, sid: str, token: str) -> dict[str, Any]:
    """Tic Tac Toe against the computer: the first free cell each turn, the computer's
    replies waited for."""
    deadline = time.monotonic() + 10
    while (view := client.get(f"/api/games/{sid}", headers=auth(token)).json()
           )["status"] == "playing":
        assert time.monotonic() < deadline, view
        if not view["can_move"]:
            time.sleep(0.02)
            continue
        free = view["text"].replace("\n", "").index(".")
        client.post(f"/api/games/{sid}/moves", json={"move": {"cell": [free % 3, free // 3]}},
                    headers=auth(token))
    return view


def a_series_of_two(client: TestClient) -> tuple[dict[str, Any], dict[str, Any]]:
    """A game against the computer played to the end, then its rematch too: (the first
    game, the rematch), each as {session, token}."""
    first = tictactoe_to_the_end(client)
    answered = client.post(f"/api/games/{first['session']}/rematch", json={"accept": True},
                           headers=auth(first["token"]))
    assert answered.status_code == 200, answered.text
    second = answered.json()["rematch"]["next"]
    played_to_the_end(client, second["session"], second["token"])
    return first, second


SERIES_KEYS = ("series", "rematch", "you", "status", "text", "moves")


def test_a_restored_series_keeps_its_score_and_its_games_lead_to_their_rematch(
    tmp_path: Path,
) -> None:
    with parlour_on(Store(tmp_path / "here.sqlite3")) as here:
        first, second = a_series_of_two(here)
        data = backup_of(here)
        views = {game["session"]: here.get(f"/api/games/{game['session']}",
                                           headers=auth(game["token"])).json()
                 for game in (first, second)}
    assert views[second["session"]]["series"]["number"] == 2
    with parlour_on(Store(tmp_path / "there.sqlite3")) as there:
        assert restore(there, data).json()["games_added"] == 2
        for game in (first, second):
            view = there.get(f"/api/games/{game['session']}", headers=auth(game["token"]))
            for key in SERIES_KEYS:
                assert view.json()[key] == views[game["session"]][key], key
        # the first game's page still goes to the rematch, with the player's new token
        assert views[first["session"]]["rematch"]["next"] == second
        # and the series goes on: a third game, its score counting both before it
        third = there.post(f"/api/games/{second['session']}/rematch", json={"accept": True},
                           headers=auth(second["token"])).json()["rematch"]["next"]
        view = there.get(f"/api/games/{third['session']}", headers=auth(third["token"])).json()
        assert view["series"]["number"] == 3
        assert [seat["won"] + seat["drawn"] + seat["lost"]
                for seat in view["series"]["seats"]] == [2, 2]


def test_restoring_a_series_twice_adds_nothing_the_second_time(tmp_path: Path) -> None:
    with parlour_on(Store(tmp_path / "here.sqlite3")) as here:
        a_series_of_two(here)
        data = backup_of(here)
    there = tmp_path / "there.sqlite3"
    with parlour_on(Store(there)) as client:
        restore(client, data)
        once = kept(there)
        assert len(once["series"]) == 2  # the first game's place, and its rematch's
        second = restore(client, data).json()
        assert kept(there) == once and second["games_already_here"] == 2


@pytest.fixture(scope="module")
def series_sample(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A backup of a series of two games: the first is games[0], its rematch games[1]."""
    path = tmp_path_factory.mktemp("series") / "series.sqlite3"
    with parlour_on(Store(path)) as client:
        first, second = a_series_of_two(client)
        doc: dict[str, Any] = json.loads(backup_of(client))
    SERIES_PLAYER_TOKENS[:] = [first["token"], second["token"]]
    assert [game["session"] for game in doc["games"]] == [first["session"], second["session"]]
    return doc


SERIES_PLAYER_TOKENS: list[str] = []
"""The tokens `series_sample`'s player holds in each game (the backup keeps digests)."""


def _series_of(game: int, /, **fields: Any) -> Mutation:
    def mutate(doc: dict[str, Any]) -> dict[str, Any]:
        doc["games"][game]["series"].update(fields)
        return doc
    return mutate


def _rematch_left_out(doc: dict[str, Any]) -> dict[str, Any]:
    rematch = doc["games"].pop(1)
    doc["results"] = [r for r in doc["results"] if r["session"] != rematch["session"]]
    return doc


def _hand_over(to: str) -> Mutation:
    def mutate(doc: dict[str, Any]) -> dict[str, Any]:
        handover = doc["games"][0]["series"]["handover"]
        handover[next(iter(handover))] = to
        return doc
    return mutate


SERIES_REFUSED: dict[str, tuple[Mutation, str]] = {
    "a score of three players": (_series_of(1, tally=[[1, 0, 0]] * 3), "game 2, its 'series': "
                                 "its score is of 3 players"),
    "a score of games it has not": (_series_of(1, tally=[[5, 0, 0], [0, 0, 5]]),
                                    "does not count the 1 games"),
    "a negative count": (_series_of(1, tally=[[-1, 2, 0], [0, 0, 1]]),
                         "game 2, its 'series.tally.0.0'"),
    "a huge number": (_series_of(1, number=10**12), "game 2, its 'series.number'"),
    "a score that is not three counts": (_series_of(1, tally=[[1, 0], [0, 1]]),
                                         "its 'series.tally.0'"),
    "a series id with a path": (_series_of(1, series="../../etc"), "its 'series.series'"),
    "a rematch id with a path": (_series_of(0, next_sid="../x"), "its 'series.next_sid'"),
    "a first game that is not its series": (_series_of(0, series="another0001"),
                                            "only the first game"),
    "a rematch that is the game itself": (
        lambda doc: _series_of(0, next_sid=doc["games"][0]["session"])(doc), "a game before it"),
    "a rematch numbered out of turn": (_series_of(1, number=3, tally=[[3, 0, 0], [0, 0, 3]]),
                                       "not the next game of its series"),
    "a rematch that is nowhere": (_rematch_left_out, "neither in it nor kept here"),
    "a handover to no rematch": (_series_of(1, handover={"a" * 24: "b" * 24}),
                                 "to no rematch"),
    "a handover of another game's token": (
        lambda doc: _series_of(0, handover={doc["games"][1]["tokens"][0]["token"]:
                                            doc["games"][1]["tokens"][0]["token"]})(doc),
        "not the game's"),
    "a handover token that is no token": (_hand_over("<script>"), "series.handover"),
    "a handover key that is no token": (_series_of(0, handover={"<x>": "c" * 24}),
                                        "game 1, a key of its 'series.handover'"),
    "too many handovers": (_series_of(0, handover={f"{i:024}": "c" * 24 for i in range(17)}),
                           "series.handover"),
}


@pytest.mark.parametrize("case", SERIES_REFUSED)
def test_a_malformed_place_in_a_series_refuses_the_backup_and_changes_nothing(
    case: str, series_sample: dict[str, Any], tmp_path: Path,
) -> None:
    refused_whole(series_sample, *SERIES_REFUSED[case], tmp_path)


def refused_whole(backup: dict[str, Any], mutate: Mutation, reason: str,
                  tmp_path: Path) -> None:
    """`backup` changed by `mutate` is refused whole, saying `reason`, by a Parlour
    that keeps a game: it keeps just what it kept."""
    data = json.dumps(mutate(json.loads(json.dumps(backup)))).encode()
    there = tmp_path / "there.sqlite3"
    with parlour_on(Store(there)) as client:
        minesweeper_begun(client)
        before = kept(there)
        message = error_of(restore(client, data), 422)
        assert kept(there) == before
    assert reason in message, message
    assert message.startswith("This backup cannot be restored: "), message


def test_a_rematch_kept_here_already_may_be_left_out_of_the_file(
    series_sample: dict[str, Any], tmp_path: Path,
) -> None:
    """The first game of a series restored after its rematch: it leads to the rematch
    kept here, and its page hands its player over to the rematch's token."""
    rematch_only = json.loads(json.dumps(series_sample))
    rematch_only["games"] = rematch_only["games"][1:]
    rematch_only["results"] = [r for r in rematch_only["results"]
                               if r["session"] == rematch_only["games"][0]["session"]]
    with parlour_on(Store(tmp_path / "there.sqlite3")) as client:
        assert restore(client, json.dumps(rematch_only).encode()).json()["games_added"] == 1
        there = kept(tmp_path / "there.sqlite3")
        # the first game alone, naming a rematch that is not the one kept here
        lying = _series_of(0, next_sid="elsewhere01")(
            _rematch_left_out(json.loads(json.dumps(series_sample))))
        message = error_of(restore(client, json.dumps(lying).encode()), 422)
        assert "neither in it nor kept here" in message
        assert kept(tmp_path / "there.sqlite3") == there
        report = restore(client, json.dumps(series_sample).encode()).json()
        assert report["games_added"] == 1 and report["games_already_here"] == 1
        first, second = series_sample["games"]
        token, rematch_token = SERIES_PLAYER_TOKENS
        view = client.get(f"/api/games/{first['session']}", headers=auth(token)).json()
        assert view["rematch"]["next"] == {"session": second["session"],
                                           "token": rematch_token}


# -- the command line -----------------------------------------------------------------------
def in_a_thread(args: list[str]) -> None:
    """The command line as its own process runs it: `asyncio.run` refuses the main thread
    of a test run, where Playwright's sync API keeps a loop running (tests.support.loops)."""
    with ThreadPoolExecutor(1) as thread:
        thread.submit(parlour_main, args).result()


def test_the_command_line_backs_up_and_restores(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    here, there, file = tmp_path / "here.sqlite3", tmp_path / "there.sqlite3", tmp_path / "b.json"
    with parlour_on(Store(here)) as client:
        tictactoe_to_the_end(client)
        minesweeper_begun(client)
    in_a_thread(["--db", str(here), "--backup", str(file)])
    assert json.loads(file.read_bytes())["format"] == "parlour-backup"
    in_a_thread(["--db", str(there), "--restore", str(file)])
    assert "Restored 2 games, 1 result and 0 pictures" in capsys.readouterr().out
    assert kept(there)["sessions"] == kept(here)["sessions"]
    file.write_text(file.read_text().replace('"version":3', '"version":7'))
    with pytest.raises(SystemExit, match=r"newer Parlour.*Nothing was changed"):
        in_a_thread(["--db", str(there), "--restore", str(file)])


# -- results as CSV ---------------------------------------------------------------------------
def test_the_results_csv_has_a_row_per_finished_game_with_its_id(tmp_path: Path) -> None:
    with parlour_on(Store(tmp_path / "here.sqlite3")) as client:
        plain, helped = tictactoe_to_the_end(client), tictactoe_to_the_end(client, hint=True)
        minesweeper_begun(client)  # not finished: no row
        response = client.get("/api/results.csv")
    assert response.headers["content-type"] == "text/csv; charset=utf-8"
    assert response.headers["content-disposition"].startswith(
        'attachment; filename="parlour-results-')
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert tuple(rows[0]) == COLUMNS
    assert [row[-1] for row in rows[1:]] == [plain["id"], helped["id"]]
    for row in rows[1:]:
        cells = dict(zip(COLUMNS, row, strict=True))
        assert cells["Game"] == "Tic Tac Toe" and cells["Board"] == "Standard"
        assert cells["Result"] in ("Won", "Lost", "Draw") and int(cells["Moves"]) >= 5
        assert cells["Date"][:2] == "20" and float(cells["Time (s)"]) >= 0
    assert [row[COLUMNS.index("With help")] for row in rows[1:]] == ["no", "yes"]


def test_csv_cells_are_quoted_and_never_run_as_formulas() -> None:
    result = Result(sid="s", round=1, game="tictactoe", preset="standard",
                    mode='=HYPERLINK("http://evil")', outcome="won", score=-3, elapsed_ms=1500,
                    moves=5, assisted=False, finished=1.7e9, seat_name='Cross, "the first"\nX')
    text = results_csv([result], {"s": "@tictactoe:standard#abc"}, GAMES)
    assert text.startswith("\ufeff")
    (row,) = list(csv.reader(io.StringIO(text[1:])))[1:]
    cells = dict(zip(COLUMNS, row, strict=True))
    assert cells["Players"] == "'=HYPERLINK(\"http://evil\")"
    assert cells["Seat"] == 'Cross, "the first"\nX'  # quoted, kept whole
    assert cells["Game id"] == "'@tictactoe:standard#abc"
    assert cells["Score"] == "-3" and cells["Time (s)"] == "1.5"  # numbers stay numbers


def test_csv_times_are_as_fine_as_the_game_writes_them() -> None:
    """Minesweeper's 4.329 s reads 4.32 on its end card: so in the CSV, not 4.3 (or 4.33)."""
    def time_of(game: str, preset: str) -> str:
        result = Result(sid="s", round=1, game=game, preset=preset, mode="solo",
                        outcome="won", score=None, elapsed_ms=64_329, moves=9,
                        assisted=False, finished=1.7e9, seat_name="You")
        (row,) = list(csv.reader(io.StringIO(results_csv([result], {}, GAMES)[1:])))[1:]
        return row[COLUMNS.index("Time (s)")]

    assert time_of("minesweeper", "easy") == "64.32"
    assert time_of("tictactoe", "standard") == "64.3"


def test_games_saved_by_an_earlier_parlour_move_to_another_machine(tmp_path: Path) -> None:
    """The games of Parlour 0.1's file (tests/fixtures) pass the restore's every check."""
    old = tmp_path / "old.sqlite3"
    shutil.copy(Path(__file__).parent / "fixtures" / "saved_by_0.1.sqlite3", old)
    with parlour_on(Store(old)) as client:
        data = backup_of(client)
    new = tmp_path / "new.sqlite3"
    with parlour_on(Store(new)) as client:
        report = restore(client, data).json()
    assert report["games_added"] == 9 and report["results_added"] == 5, report
    before, after = kept(old), kept(new)
    assert after["moves"] == before["moves"] and after["results"] == before["results"]
    assert [row[:3] for row in after["sessions"]] == [row[:3] for row in before["sessions"]]


def test_a_game_a_solvers_line_ended_is_restored_as_such(tmp_path: Path) -> None:
    """The file carries no flag of it: its last round's result, filed as the solver's,
    says so, and the restored game keeps it (its headline and its Undo and Redo)."""
    with parlour_on(Store(tmp_path / "here.sqlite3")) as here:
        played = tictactoe_to_the_end(here)
        document = json.loads(backup_of(here))
    for result in document["results"]:
        result["preset"] = SHOWN  # as a solver's playback files it
    restored_into(tmp_path / "there.sqlite3", document)
    store = Store(tmp_path / "there.sqlite3")
    try:
        row = store.session_row(played["session"])
        assert row is not None and row.shown_to_end and row.preset != SHOWN
    finally:
        store.close()
