"""The sliding puzzle over the REST API, as the issue's contract for scripts says: its
parameters, start positions, moves and text; bad input refused with a clear reason; and
pictures uploaded, real and malformed."""

from __future__ import annotations

import io
from typing import Any

import pytest
from fastapi.testclient import TestClient
from PIL import Image

from parlour.core.gameid import parse_game_id
from parlour.games.sliding.logic import Sliding

GAME = Sliding()


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    reply = client.post("/api/games", json={"game": "sliding", **body})
    assert reply.status_code == 201, reply.json()
    created: dict[str, Any] = reply.json()
    return created


def play(client: TestClient, game: dict[str, Any], row: int, col: int) -> Any:
    return client.post(f"/api/games/{game['session']}/moves", json={"move": {"cell": [row, col]}},
                       headers={"Authorization": f"Bearer {game['token']}"})


def photo(width: int, height: int, form: str = "JPEG") -> bytes:
    """A real picture made here: a gradient, so that it is not one flat colour."""
    image = Image.new("RGB", (width, height))
    image.putdata([(x * 255 // width, y * 255 // height, 128)
                   for y in range(height) for x in range(width)])
    data = io.BytesIO()
    image.save(data, form)
    return data.getvalue()


def test_a_new_game_is_4x4_with_its_moves_and_text(client: TestClient) -> None:
    game = create(client)
    view = game["view"]
    assert view["params"]["rows"] == view["params"]["cols"] == 4
    lines = view["text"].split("\n")
    assert len(lines) == 4 and all(len(line) == 11 for line in lines)
    assert view["text"].count(" .") == 1
    assert view["moves"] == 0


def test_a_start_position_given_as_tiles_is_played_to_the_win(client: TestClient) -> None:
    game = create(client, params={"rows": 3, "cols": 3, "tiles": "1,2,3,4,5,6,0,7,8"})
    assert game["view"]["text"] == " 1  2  3\n 4  5  6\n .  7  8"
    view = play(client, game, 2, 2).json()  # two tiles slide left at once
    assert view["text"] == " 1  2  3\n 4  5  6\n 7  8  ."
    assert view["status"] == "won"
    assert view["moves"] == 2
    assert view["headline"] == "You win! 2 moves"
    watched = client.get(f"/api/games/{game['session']}").json()  # no seat: not "You win!"
    assert watched["headline"] == "Solved · 2 moves"


def test_the_same_position_can_be_given_as_an_id(client: TestClient) -> None:
    game = create(client, id="sliding:rows=3,cols=3:1,2,3,4,5,6,0,7,8")
    assert game["view"]["text"] == " 1  2  3\n 4  5  6\n .  7  8"


@pytest.mark.parametrize(("params", "reason"), [
    ({"rows": 3, "cols": 3, "tiles": "2,1,3,4,5,6,7,8,0"}, "No sequence of slides can solve"),
    ({"rows": 3, "cols": 3, "tiles": "1,2,3"}, "each of the numbers 0 to 8 once"),
    ({"rows": 3, "cols": 3, "tiles": "1;2"}, "start position is letters, digits"),
    ({"rows": 9}, "Rows must be at most 8"),
    ({"cols": "four"}, "Cols must be a whole number"),
    ({"shuffle": "spin"}, "Shuffle must be one of walk, random"),
    ({"picture": "../../etc/passwd"}, "Picture must be the id of an uploaded picture"),
    ({"picture": "0123456789abcdef"}, "No uploaded picture '0123456789abcdef'"),
    ({"steps": 0}, "Steps must be at least 1"),
])
def test_bad_parameters_are_refused_with_a_reason(client: TestClient, params: dict[str, Any],
                                                  reason: str) -> None:
    reply = client.post("/api/games", json={"game": "sliding", "params": params})
    assert reply.status_code == 422
    assert reason in reply.json()["error"]


@pytest.mark.parametrize(("move", "reason"), [
    ({"cell": [0, 0]}, "not in the gap's row or column"),
    ({"cell": [1, 2]}, "is the gap"),
    ({"cell": [7, 7]}, "There is no cell [7, 7] on a 3×3 board"),
    ({"cell": [1]}, "Malformed move"),
    ({"tile": 5}, "Malformed move"),
])
def test_bad_moves_are_refused_and_change_nothing(client: TestClient, move: Any,
                                                  reason: str) -> None:
    game = create(client, params={"rows": 3, "cols": 3, "tiles": "1,2,3,4,5,0,7,8,6"})
    reply = client.post(f"/api/games/{game['session']}/moves", json={"move": move},
                        headers={"Authorization": f"Bearer {game['token']}"})
    assert reply.status_code in ((409, 422) if "Malformed" in reason else (409,))
    assert reason in reply.json()["error"]
    again = client.get(f"/api/games/{game['session']}").json()
    assert again["text"] == game["view"]["text"]


def test_the_deal_follows_the_id(client: TestClient) -> None:
    game = create(client, params={"rows": 5, "cols": 3, "shuffle": "random"})
    parsed = parse_game_id(GAME, game["id"])
    dealt = GAME.deal(parsed.params, parsed.rng(GAME))
    assert game["view"]["text"] == GAME.text(GAME.observe(dealt, 0))
    assert create(client, id=game["id"])["view"]["text"] == game["view"]["text"]


def test_an_uploaded_photo_becomes_the_picture(client: TestClient) -> None:
    reply = client.post("/api/uploads", content=photo(640, 480),
                        headers={"Content-Type": "image/jpeg"})
    assert reply.status_code == 201, reply.json()
    upload = reply.json()["upload"]
    game = create(client, params={"rows": 3, "cols": 5, "picture": upload, "crop_x": 30,
                                  "zoom": 150})
    assert game["view"]["uses_upload"]
    html = game["view"]["html"]
    assert f"url(&#x27;/api/uploads/{upload}&#x27;)" in html
    assert "--crop-x:30%" in html and "--zoom:1.5" in html
    served = client.get(f"/api/uploads/{upload}")
    assert served.status_code == 200
    assert Image.open(io.BytesIO(served.content)).size == (640, 480)


def test_a_png_with_transparency_is_kept_as_png(client: TestClient) -> None:
    image = Image.new("RGBA", (50, 40), (200, 10, 10, 100))
    data = io.BytesIO()
    image.save(data, "PNG")
    reply = client.post("/api/uploads", content=data.getvalue(),
                        headers={"Content-Type": "image/png"})
    assert reply.status_code == 201
    served = client.get(f"/api/uploads/{reply.json()['upload']}")
    assert served.headers["content-type"] == "image/png"


@pytest.mark.parametrize(("body", "reason"), [
    (b"GIF89a not really", "must be a PNG, JPEG or WebP"),
    (photo(64, 64)[:200], "damaged or incomplete"),
    (b"<svg xmlns='http://www.w3.org/2000/svg'/>", "must be a PNG, JPEG or WebP"),
])
def test_malformed_pictures_are_refused(client: TestClient, body: bytes, reason: str) -> None:
    reply = client.post("/api/uploads", content=body, headers={"Content-Type": "image/jpeg"})
    assert reply.status_code == 422
    assert reason in reply.json()["error"]


def test_a_built_in_picture_needs_no_upload(client: TestClient) -> None:
    game = create(client, params={"picture": "city"})
    assert not game["view"]["uses_upload"]
    assert "data:image/svg+xml," in game["view"]["html"]


def test_a_win_from_a_given_position_counts_apart_from_the_dealt_sizes(
        client: TestClient) -> None:
    game = create(client, params={"rows": 3, "cols": 4, "tiles": "1,2,3,4,5,6,7,8,9,10,0,11",
                                  "steps": 10})
    assert play(client, game, 2, 3).json()["status"] == "won"
    groups = client.get("/api/stats?game=sliding").json()["groups"]
    # anyone can write a position one slide from solved: it sets no 3×4 easy record
    assert [(g["preset"], g["apart"], g["won"]) for g in groups] == [
        ("custom position", True, 1)]
    moved = next(f for f in groups[0]["over_all"] if f["name"] == "tiles_moved")
    assert (moved["show"], moved.get("best")) == ("lowest", None)
