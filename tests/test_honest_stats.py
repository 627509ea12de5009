"""Statistics that are honest and cheap (issue 33): a group per board a player chooses,
never one per value of a free parameter; custom positions and imported games filed apart
and setting no records; help counted when a player has seen what the deal hides; and
GET /api/stats bounded in size and work, refused to other sites' pages."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from parlour.core.game import BadParams, GameSpec
from parlour.core.gameid import CUSTOM_POSITION, IMPORTED, parse_game_id
from parlour.core.session import Session
from parlour.games import GAMES
from parlour.games.minesweeper.logic import OPEN
from parlour.stats import statistics as stats
from parlour.stats.past_games import SCANNED
from parlour.store import Store as AnyStore
from parlour.store.assembly import RESULT_COLUMNS
from parlour.store.sqlite import SqliteStore as Store
from tests.support.stores import on_both_stores, reopened

ESCALATOR, ISHIDO, MINESWEEPER = GAMES["escalator"], GAMES["ishido"], GAMES["minesweeper"]


NEXT_TO_SOLVED = "sliding:rows=3,cols=3,steps={steps}:1,2,3,4,5,6,7,0,8"
SOLVING_SLIDE = {"cell": [2, 2]}


def alone_at(spec: GameSpec, seed: str = "honest") -> Session:
    return Session(spec, parse_game_id(spec.game, f"{spec.name}:#{seed}"), ("human",))


def play_where(session: Session, wanted: Any) -> None:
    """Play the first legal move `wanted` accepts."""
    move = next(m for m in session.game.legal_moves(session.state) if wanted(m))
    session.play(session.game.move_to_json(move), 0)


def is_draw(move: Any) -> bool:
    return type(move).__name__ == "Draw"


# -- what the deal hides, seen, is help ---------------------------------------------------
def test_escalator_restart_after_turning_the_stock_counts_as_help() -> None:
    session = alone_at(ESCALATOR)
    for _ in range(3):
        play_where(session, is_draw)
    assert session.restart_helps({0})  # (the player is told so before restarting)
    session.restart()
    assert session.assisted_for({0})  # the second pass knows the stock's order
    assert not session.restart_helps({0})  # counted once


def test_escalator_restart_that_turned_no_stock_card_is_no_help() -> None:
    session = alone_at(ESCALATOR, "picks0")
    picks = [m for m in ESCALATOR.game.legal_moves(session.state) if not is_draw(m)]
    assert picks, "this deal should have a card to pick up at once"
    play_where(session, lambda m: not is_draw(m))
    assert not session.restart_helps({0})
    session.restart()
    assert not session.assisted_for({0})


def test_escalator_restart_of_a_saved_game_that_turned_the_stock_counts_as_help() -> None:
    played = alone_at(ESCALATOR)
    play_where(played, is_draw)
    reloaded = Session(ESCALATOR, played.game_id, ("human",), played.line, played.cursor)
    reloaded.restart()
    assert reloaded.assisted_for({0})


def test_ishido_undo_that_showed_the_next_tile_counts_as_help() -> None:
    session = alone_at(ISHIDO)
    play_where(session, lambda m: True)
    play_where(session, lambda m: True)
    assert session.undo_help({0}) == "the next tile"  # (the page says so at the Undo)
    session.undo({0})
    assert session.assisted_for({0})  # the tile after the one put back was shown
    assert session.undo_help({0}) is None  # counted once


def test_ishido_restart_after_placing_counts_as_help() -> None:
    session = alone_at(ISHIDO)
    play_where(session, lambda m: True)
    session.restart()
    assert session.assisted_for({0})


def test_ishido_restart_before_placing_anything_is_no_help() -> None:
    session = alone_at(ISHIDO)
    session.restart()
    assert not session.assisted_for({0})


def test_an_undo_of_a_finished_game_counts_as_help_and_one_mid_game_does_not() -> None:
    """Tic Tac Toe against the computer: taking back a move is free, but a loss taken
    back and played on is not a result at the first try."""
    spec = GAMES["tictactoe"]
    session = Session(spec, parse_game_id(spec.game, "tictactoe:#honest"), ("human", "human"))
    for cell in ([0, 0], [1, 1], [0, 1]):
        session.play({"cell": cell}, session.to_move)
    assert session.undo_help({0, 1}) is None
    session.undo({0, 1})
    assert not session.assisted_for({0, 1})
    for cell in ([0, 1], [2, 2], [0, 2]):  # Cross's column: the game is over
        session.play({"cell": cell}, session.to_move)
    assert session.status.value == "won"
    assert session.undo_help({0, 1}) == "how the game ends"
    session.undo({0, 1})
    assert session.assisted_for({0, 1}) and session.undo_help({0, 1}) is None


def test_minesweeper_undo_after_a_win_counts_as_help() -> None:
    session = small_minefield()
    while session.status.value == "playing":  # (a safe first click lays no mine there)
        play_where(session, lambda m: m[0] == "open" and m[1] * 6 + m[2] not in session.state.mined)
    assert session.status.value == "won"
    assert session.undo_help({0}) == "how the game ends"
    session.undo({0})
    assert session.assisted_for({0})


def small_minefield() -> Session:
    """A 6x6 Minesweeper game with 4 mines, one player."""
    return Session(MINESWEEPER, parse_game_id(
        MINESWEEPER.game, "minesweeper:rows=6,cols=6,mines=4,first_click=safe#calm"),
        ("human",))


def test_minesweeper_restart_after_opening_cells_is_no_help_as_undo_is_none() -> None:
    session = small_minefield()
    play_where(session, lambda m: m[0] == "open")
    assert session.undo_help({0}) is None and not session.restart_helps({0})
    session.restart()
    assert not session.assisted_for({0})


def test_minesweeper_restart_after_hitting_a_mine_counts_as_help() -> None:
    session = small_minefield()
    play_where(session, lambda m: m[0] == "open")
    mine = min(session.state.mined)
    session.play({"open": list(divmod(mine, 6))}, 0)
    assert session.state.exploded is not None
    assert session.undo_help({0}) == "where a mine is" and session.restart_helps({0})
    session.restart()
    assert session.assisted_for({0})


def test_escalator_result_after_a_restart_that_knew_the_stock_is_stored_assisted(
    client: TestClient,
) -> None:
    created = client.post("/api/games", json={"game": "escalator", "id": "escalator:#honest"})
    assert created.status_code == 201, created.text
    sid, auth = created.json()["session"], {"Authorization": f"Bearer {created.json()['token']}"}
    assert client.post(f"/api/games/{sid}/moves", json={"move": {"draw": True}},
                       headers=auth).status_code == 200
    assert client.post(f"/api/games/{sid}/restart", headers=auth).status_code == 200
    view = client.post(f"/api/games/{sid}/moves", json={"move": {"draw": True}}, headers=auth)
    assert view.json()["assisted"] is True


def test_a_lost_game_taken_back_says_so_and_its_next_result_is_stored_assisted(
    client: TestClient,
) -> None:
    created = client.post("/api/games", json={"game": "tictactoe",
                                              "seats": ["human", "human"]}).json()
    sid, token = created["session"], created["token"]
    auth = {"Authorization": f"Bearer {token}"}
    for cell in ([0, 0], [1, 1], [0, 1], [2, 2], [0, 2]):  # Cross's column
        assert client.post(f"/api/games/{sid}/moves", json={"move": {"cell": cell}},
                           headers=auth).status_code == 200
    shown = client.get(f"/api/games/{sid}", headers=auth).json()
    assert (shown["status"], shown["undo_help"]) == ("won", "how the game ends")
    with client.websocket_connect(f"/ws/{sid}") as socket:
        socket.send_json({"type": "hello", "token": token})
        socket.send_json({"type": "undo"})
        while (message := socket.receive_json())["type"] != "note":
            pass
    assert message["note"] == ("Undo counts as help here: you had seen how the game ends, so"
                               " this game now counts as played with help.")
    view = client.post(f"/api/games/{sid}/moves", json={"move": {"cell": [0, 2]}}, headers=auth)
    assert view.json()["assisted"] is True


SMALL_MINEFIELD = "minesweeper:rows=6,cols=6,mines=4,first_click=safe#calm"


def lost_minesweeper(client: TestClient) -> tuple[str, dict[str, str]]:
    """A small Minesweeper game lost at its second click: (session, its auth header)."""
    created = client.post("/api/games", json={"game": "minesweeper", "id": SMALL_MINEFIELD})
    assert created.status_code == 201, created.text
    sid, auth = created.json()["session"], {"Authorization": f"Bearer {created.json()['token']}"}
    mirror = small_minefield()  # the same deal, to know where its mines are
    for move in ({"open": [0, 0]}, None):
        if move is None:
            move = {"open": list(divmod(min(mirror.state.mined), 6))}
        mirror.play(move, 0)
        played = client.post(f"/api/games/{sid}/moves", json={"move": move}, headers=auth)
        assert played.status_code == 200, played.text
    assert played.json()["status"] == "lost"
    return sid, auth


def lost_and_played(client: TestClient) -> tuple[int, int]:
    (group,) = client.get("/api/stats").json()["groups"]
    return group["lost"], group["played"]


@on_both_stores
def test_a_loss_taken_back_stands_if_the_player_restarts_or_leaves(
    client: TestClient, store: AnyStore
) -> None:
    """An Undo of a lost game lets the player play on (with help), but the loss is not
    erased by starting the deal again or leaving the game in play: it stands until the
    game ends again."""
    sid, auth = lost_minesweeper(client)
    assert lost_and_played(client) == (1, 1)
    undone = client.post(f"/api/games/{sid}/undo", headers=auth)
    assert undone.status_code == 200 and undone.json()["status"] == "playing"
    assert lost_and_played(client) == (1, 1)  # left in play: still a loss
    assert client.post(f"/api/games/{sid}/restart", headers=auth).status_code == 200
    assert lost_and_played(client) == (1, 1)
    later = reopened(store)  # and after the server restarts
    try:
        (result,) = later.results()
    finally:
        later.close()
    assert (result.sid, result.round, result.outcome, result.assisted) == (sid, 1, "lost", False)


@on_both_stores
def test_a_loss_taken_back_and_played_to_a_win_counts_once_as_a_win_with_help(
    client: TestClient, store: AnyStore
) -> None:
    sid, auth = lost_minesweeper(client)
    assert client.post(f"/api/games/{sid}/undo", headers=auth).status_code == 200
    mirror = small_minefield()
    mirror.play({"open": [0, 0]}, 0)
    view: dict[str, Any] = {}
    while mirror.status.value == "playing":
        safe = next(cell for cell in range(36) if cell not in mirror.state.mined
                    and mirror.state.marks[cell] != OPEN)
        move = {"open": list(divmod(safe, 6))}
        mirror.play(move, 0)
        view = client.post(f"/api/games/{sid}/moves", json={"move": move}, headers=auth).json()
    assert view["status"] == "won" and view["assisted"] is True
    (group,) = client.get("/api/stats").json()["groups"]
    assert (group["played"], group["won"], group["lost"]) == (1, 1, 0)


# -- heavy reads only for this server's own pages -----------------------------------------
HEAVY_READS = ["/api/stats", "/api/stats?game=sliding", "/api/replays", "/api/daily",
               "/api/results.csv", "/api/games/aaaaaaaaaaaa/records"]


@pytest.mark.parametrize("path", HEAVY_READS)
@pytest.mark.parametrize("headers", [
    {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors"},  # fetch(url, no-cors)
    {"Sec-Fetch-Site": "same-site", "Sec-Fetch-Mode": "no-cors"},  # a page on another port
    {"Origin": "http://evil.example"},
], ids=["cross-site", "another-port", "other-origin"])
def test_a_heavy_read_from_another_sites_page_is_refused_before_any_work(
    client: TestClient, store: Store, monkeypatch: pytest.MonkeyPatch, path: str,
    headers: dict[str, str],
) -> None:
    def no_reading(*args: object) -> None:
        raise AssertionError("the store was read for a refused request")

    monkeypatch.setattr(store, "results", no_reading)
    refused = client.get(path, headers=headers)
    assert refused.status_code == 403
    assert refused.json() == {"error": "This read is answered only to this server's own pages"}


@pytest.mark.parametrize("headers", [
    {"Sec-Fetch-Site": "same-origin", "Origin": "http://testserver"},  # the stats page
    {"Sec-Fetch-Site": "none"},  # an address typed or bookmarked
    {},  # a script
], ids=["own-page", "typed", "script"])
def test_own_pages_typed_addresses_and_scripts_read_the_statistics(
    client: TestClient, headers: dict[str, str],
) -> None:
    answer = client.get("/api/stats", headers=headers)
    assert answer.status_code == 200
    assert answer.json()["groups"] == []


def test_a_light_read_stays_open_to_other_sites(client: TestClient) -> None:
    assert client.get("/api/catalog", headers={"Sec-Fetch-Site": "cross-site"}).status_code == 200


# -- a group per board a player chooses ---------------------------------------------------
def test_600_walk_lengths_of_the_sliding_puzzle_make_a_handful_of_groups() -> None:
    game = GAMES["sliding"].game
    groups = {game.stat_group(game.validate({"steps": steps})) for steps in range(1, 601)}
    assert len(groups) <= 8, sorted(groups)
    assert game.stat_group(game.validate({"steps": 40})) == "4×4 medium"  # a preset stays itself


@pytest.mark.parametrize("spec", GAMES.values(), ids=list(GAMES))
def test_no_parameter_of_any_game_makes_a_group_per_value(spec: GameSpec) -> None:
    """Each parameter over its whole range (others at their defaults): a few groups."""
    game = spec.game
    for param in game.parameters:
        if param.kind == "int":
            assert param.minimum is not None and param.maximum is not None
            values: list[object] = list(range(param.minimum, param.maximum + 1,
                                              max(1, (param.maximum - param.minimum) // 600)))
        else:
            values = list(param.choices) or [True, False]
        groups = set()
        for value in values:
            try:
                groups.add(game.stat_group(game.validate({param.name: value})))
            except BadParams:  # e.g. more mines than the default board holds
                continue
        assert len(groups) <= 12, (param.name, sorted(groups))


# -- games not dealt here: filed apart, no records ----------------------------------------
def solve_next_to_solved(client: TestClient, steps: int = 40) -> dict[str, Any]:
    created = client.post("/api/games", json={"game": "sliding",
                                              "id": NEXT_TO_SOLVED.format(steps=steps)})
    assert created.status_code == 201, created.text
    made: dict[str, Any] = created.json()
    view = client.post(f"/api/games/{made['session']}/moves", json={"move": SOLVING_SLIDE},
                       headers={"Authorization": f"Bearer {made['token']}"})
    assert view.json()["status"] == "won"
    return made


def test_a_win_from_a_given_position_is_filed_apart_and_sets_no_record(
    client: TestClient, store: Store,
) -> None:
    solve_next_to_solved(client)
    assert [r.preset for r in store.results("sliding")] == [CUSTOM_POSITION]
    answer = client.get("/api/stats?game=sliding").json()
    (group,) = answer["groups"]
    assert (group["heading"], group["apart"], group["won"]) == ("Custom position", True, 1)
    assert group["best_time_ms"] is None and group["best_unassisted_time_ms"] is None
    assert all(figure.get("best") is None for figure in group["over_all"])
    assert "set no records" in group["note"]
    assert answer["bests"] == []  # nothing on the records


def test_an_imported_game_is_filed_apart(client: TestClient, store: Store) -> None:
    created = client.post("/api/games", json={"game": "sliding", "id": "sliding:#imported"})
    made = created.json()
    saved = client.get(f"/api/games/{made['session']}/export",
                       headers={"Authorization": f"Bearer {made['token']}"}).json()
    imported = client.post("/api/games/import", json=saved)
    assert imported.status_code == 201, imported.text
    sid = imported.json()["session"]
    assert store.session_row(sid).preset == IMPORTED  # type: ignore[union-attr]
    assert store.session_row(made["session"]).preset == "4×4 medium"  # type: ignore[union-attr]


def test_a_custom_position_saved_before_is_filed_apart_when_the_store_opens(
    store: Store,
) -> None:
    path = store.path
    made = {"dealt": "sliding:rows=3,cols=3#seed", "given": NEXT_TO_SOLVED.format(steps=7)}
    for sid, game_id in made.items():
        store.db.execute(
            "INSERT INTO sessions (sid, game, game_id, seats, mode, preset, cursor, round,"
            " assisted, elapsed_ms, status, headline, updated, created)"
            " VALUES (?, 'sliding', ?, '[\"human\"]', 'solo', 'walk of 7', 1, 1, 0, 5,"
            " 'won', '', 0, 0)", (sid, game_id))
        store.db.execute(f"INSERT INTO results ({RESULT_COLUMNS}) VALUES"
                         " (?, 1, 0, '', 'sliding', 'walk of 7', 'solo', 'won', NULL, 5, 1,"
                         " 0, 1, '{}')", (sid,))
    for index in ("results_by_group", "results_by_time"):  # as a store of schema 6 was
        store.db.execute(f"DROP INDEX {index}")
    store.db.execute("DROP TABLE imports")
    store.db.execute("ALTER TABLE sessions DROP COLUMN moves_made")
    store.db.execute("ALTER TABLE sessions DROP COLUMN shown_to_end")
    store.db.execute("PRAGMA user_version = 6")
    store.close()
    reopened = Store(path)
    try:
        filed = {r.sid: r.preset for r in reopened.results()}
        assert filed == {"dealt": "walk of 7", "given": CUSTOM_POSITION}
    finally:
        reopened.close()


# -- GET /api/stats bounded whatever is kept ----------------------------------------------
def keep_results(store: Store, groups: int, per_group: int) -> None:
    """Results written straight into the store, as years of play (or an attack) leave
    them: `groups` sliding groups of `per_group` won games each."""
    rows = [(f"s{group}-{number}", 1, 0, "", "sliding", f"4×4 walk of {group + 1}", "solo",
             "won", None, 1_000 + number, 10, 0, 1_700_000_000.0 + group * 10_000 + number,
             json.dumps({"tiles_moved": 10}))
            for group in range(groups) for number in range(per_group)]
    store.db.executemany(f"INSERT INTO results ({RESULT_COLUMNS}) VALUES"
                         " (?,?,?,?,?,?,?,?,?,?,?,?,?,?)", rows)


def test_600_groups_answer_with_the_most_recent_few(client: TestClient, store: Store) -> None:
    keep_results(store, groups=600, per_group=1)
    answer = client.get("/api/stats")
    groups = answer.json()["groups"]
    assert len(groups) == stats.GROUPS_PER_GAME
    shown = {g["preset"] for g in groups}
    assert "4×4 walk of 600" in shown and "4×4 walk of 1" not in shown  # the latest played
    assert answer.json()["left_off"] == {"sliding": 600 - stats.GROUPS_PER_GAME}
    assert len(answer.content) < 400_000, len(answer.content)


def test_a_huge_group_is_drawn_from_its_latest_games_and_counts_them_all(
    client: TestClient, store: Store, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(stats, "RESULTS_PER_GROUP", 50)
    keep_results(store, groups=1, per_group=120)
    drawn: list[int] = []
    drawing = stats.statistics
    monkeypatch.setattr(stats, "statistics",
                        lambda results, *rest: drawn.append(len(results)) or drawing(results,
                                                                                     *rest))
    (group,) = client.get("/api/stats").json()["groups"]
    assert drawn == [50]
    assert (group["played"], group["played_in_all"]) == (50, 120)
    assert group["note"].startswith("Figures of the last 50 of 120 games.")


def test_a_huge_group_of_one_seat_counts_all_its_games_too(
    client: TestClient, store: Store, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Several people at one game each have a record of their seat."""
    monkeypatch.setattr(stats, "RESULTS_PER_GROUP", 30)
    rows = [(f"t{number}", 1, 0, "X", "tictactoe", "standard", "vs random", "won", None,
             1_000, 5, 0, 1_700_000_000.0 + number, "{}") for number in range(70)]
    store.db.executemany(f"INSERT INTO results ({RESULT_COLUMNS}) VALUES"
                         " (?,?,?,?,?,?,?,?,?,?,?,?,?,?)", rows)
    (group,) = client.get("/api/stats").json()["groups"]
    assert (group["played"], group["played_in_all"]) == (30, 70)


def test_the_statistics_of_one_game_hold_only_its_groups(client: TestClient, store: Store
                                                        ) -> None:
    keep_results(store, groups=2, per_group=1)
    rows = [("t1", 1, 0, "X", "tictactoe", "standard", "vs random", "won", None, 1_000, 5, 0,
             1_700_000_000.0, "{}")]
    store.db.executemany(f"INSERT INTO results ({RESULT_COLUMNS}) VALUES"
                         " (?,?,?,?,?,?,?,?,?,?,?,?,?,?)", rows)
    assert {g["game"] for g in client.get("/api/stats").json()["groups"]} == {
        "sliding", "tictactoe"}
    assert {g["game"] for g in client.get("/api/stats?game=sliding").json()["groups"]} == {
        "sliding"}


def test_the_answer_is_kept_until_a_result_changes(
    client: TestClient, store: Store, monkeypatch: pytest.MonkeyPatch,
) -> None:
    keep_results(store, groups=3, per_group=2)
    reads: list[str | None] = []
    reading = store.stat_reading

    def counted(game: str | None, *bounds: int) -> Any:
        reads.append(game)
        return reading(game, *bounds)

    monkeypatch.setattr(store, "stat_reading", counted)
    first = client.get("/api/stats").json()
    assert client.get("/api/stats").json() == first
    assert reads == [None]
    solve_next_to_solved(client)
    assert len(client.get("/api/stats").json()["groups"]) == 4
    assert reads == [None, None]


def test_the_past_games_list_looks_through_a_bounded_number_of_results(
    client: TestClient, store: Store, monkeypatch: pytest.MonkeyPatch,
) -> None:
    keep_results(store, groups=1, per_group=SCANNED + 500)  # none of them has its game kept
    read: list[int] = []
    reading = store.latest_results

    def counted(game: str | None, limit: int) -> Any:
        found = reading(game, limit)
        read.append(len(found))
        return found

    monkeypatch.setattr(store, "latest_results", counted)
    assert client.get("/api/replays?limit=100").json() == []
    assert read == [SCANNED]
