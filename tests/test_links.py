"""What a deal or seat link will do, asked before it does it (`GET /api/links/...`): the
game and its board in the game's words, a refusal that says why, and nothing started."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from parlour.store import Store

EXPERT = {"rows": 16, "cols": 30, "mines": 99}


def test_a_deal_link_names_its_game_and_board_and_starts_nothing(
    client: TestClient, store: Store
) -> None:
    deal = client.post("/api/games", json={"game": "minesweeper", "params": EXPERT}).json()["id"]
    before = len(store.unfinished(limit=1000))
    response = client.get("/api/links/deal", params={"game": "minesweeper", "id": deal})
    assert response.status_code == 200, response.text
    assert response.json() == {"game": "minesweeper", "title": "Minesweeper",
                               "board": "Expert 16×30", "position": False}
    assert len(store.unfinished(limit=1000)) == before


def test_a_deal_link_with_its_own_start_position_says_so(client: TestClient) -> None:
    found = client.get("/api/links/deal", params={
        "game": "sliding", "id": "sliding:rows=3,cols=3:1,2,3,4,5,6,7,0,8"}).json()
    assert found["position"] is True and found["title"] == "Sliding Puzzle"


def test_a_deal_link_that_cannot_be_played_says_why(client: TestClient) -> None:
    response = client.get("/api/links/deal", params={"game": "minesweeper", "id": "tictactoe:#1"})
    assert response.status_code == 422
    assert "a minesweeper game id starts with 'minesweeper:'" in response.json()["error"]
    unknown = client.get("/api/links/deal", params={"game": "chess", "id": "chess:#1"})
    assert unknown.status_code == 404


def test_a_deal_link_longer_than_any_id_is_refused(client: TestClient) -> None:
    response = client.get("/api/links/deal", params={"game": "sliding", "id": "x" * 4501})
    assert response.status_code == 422


def test_a_seat_link_names_its_game_and_board_and_takes_no_seat(client: TestClient) -> None:
    created = client.post("/api/games", json={
        "game": "minesweeper", "params": EXPERT, "seats": ["open"]}).json()
    sid = created["session"]
    found = client.get(f"/api/links/session/{sid}").json()
    assert (found["title"], found["board"]) == ("Minesweeper", "Expert 16×30")
    assert client.get(f"/api/games/{sid}").json()["seats"][0]["open"]
    assert client.get("/api/links/session/nosuchgame").status_code == 404


def test_the_pages_of_a_deal_or_seat_link_start_and_take_nothing(
    client: TestClient, store: Store
) -> None:
    """The game starts, or the seat is taken, by the POST the page's click makes, never by
    loading the link."""
    deal = client.post("/api/games", json={"game": "minesweeper", "params": EXPERT}).json()["id"]
    sid = client.post("/api/games", json={"game": "tribolo", "seats": ["human", "open", "open"]}
                      ).json()["session"]
    before = len(store.unfinished(limit=1000))
    assert client.get("/play/minesweeper", params={"id": deal}).status_code == 200
    assert client.get("/play/tribolo", params={"session": sid, "seat": 1}).status_code == 200
    assert len(store.unfinished(limit=1000)) == before
    assert [seat["open"] for seat in client.get(f"/api/games/{sid}").json()["seats"]] == [
        False, True, True]


def preview_of(client: TestClient, path: str, **params: str) -> dict[str, str]:
    """The title and Open Graph tags of a page, as a chat reads them from the page sent."""
    page = client.get(path, params=params)
    assert page.status_code == 200
    head = page.text.partition("</head>")[0]
    found = dict(re.findall(r'<meta property="og:(\w+)" content="([^"]*)">', head))
    found["<title>"] = re.findall(r"<title>(.*?)</title>", head)[0]
    return found


def test_a_deal_links_preview_names_its_game_and_board(client: TestClient) -> None:
    deal = client.post("/api/games", json={"game": "minesweeper", "params": EXPERT}).json()["id"]
    shown = preview_of(client, "/play/minesweeper", id=deal)
    assert shown["<title>"] == "Minesweeper · Expert 16×30 · Parlour"
    assert shown["title"] == "Minesweeper · Expert 16×30"
    assert shown["description"].startswith("A deal of Minesweeper to play: whoever opens this "
                                           "link gets the same mines")
    assert shown["image"] == "http://testserver/icons/icon-512.png"
    assert client.get("/icons/icon-512.png").status_code == 200
    position = preview_of(client, "/play/sliding", id="sliding:rows=3,cols=3:1,2,3,4,5,6,7,0,8")
    assert position["title"] == "Sliding Puzzle · 3×3 medium · a start position"


def test_a_seat_links_preview_says_a_seat_is_waiting(client: TestClient) -> None:
    sid = client.post("/api/games", json={"game": "tribolo", "seats": ["human", "open", "open"]}
                      ).json()["session"]
    shown = preview_of(client, "/play/tribolo", session=sid, seat="1")
    assert shown["title"] == "Join a game of Tribolo"
    assert "waiting for whoever opens this link" in shown["description"]


def test_a_games_page_says_what_the_game_is(client: TestClient) -> None:
    games = client.get("/api/catalog").json()["games"]
    assert len(games) == 6
    for game in games:
        shown = preview_of(client, f"/play/{game['name']}")
        assert (shown["title"], shown["<title>"]) == (game["title"], f"{game['title']} · Parlour")
        assert not shown["description"].endswith("played in the browser."), shown  # its own


def test_a_links_preview_echoes_nothing_the_link_makes_up(client: TestClient) -> None:
    """A chat shows a preview as the server wrote it: a made-up id is no deal, and no part
    of the link comes back, escaped or not."""
    bait = '"><script>alert(1)</script>'
    for params in ({"id": bait}, {"id": "minesweeper:" + bait}, {"id": "x" * 5000}):
        page = client.get("/play/minesweeper", params=params).text
        assert "alert(1)" not in page and "xxxxx" not in page
        assert preview_of(client, "/play/minesweeper", **params)["title"] == "Minesweeper"
