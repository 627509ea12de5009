"""Hints and "Show me the solution": the solver's line, told move by move with how many
moves remain, followed without solving again, and played out on the board."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from parlour.core.game import Playback
from parlour.core.gameid import GameId
from parlour.core.session import Session
from parlour.games import GAMES
from parlour.games.sliding import solver
from parlour.games.sliding.logic import Puzzle, Sliding

GAME = Sliding()
SPEC = GAMES["sliding"]
HARDEST_8_PUZZLES = ("8,6,7,2,5,4,3,0,1", "6,4,7,8,5,0,3,2,1")  # 31 moves, the most there is


def session_at(text: str, rows: int = 3, cols: int = 3) -> Session:
    params = GAME.validate({"rows": rows, "cols": cols})
    return Session(SPEC, GameId("sliding", params, None, position=text), ["human"])


def test_a_hint_on_the_hardest_8_puzzle_says_31_moves_shortest() -> None:
    for text in HARDEST_8_PUZZLES:
        found = session_at(text).hint(0)
        assert found.note.endswith("31 moves to go (the shortest way)")
        assert len(found.line) == 30


def test_following_the_hints_solves_the_puzzle_without_solving_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    solves: list[tuple[int, ...]] = []
    solve = solver.solve

    def counted(rows: int, cols: int, tiles: Any) -> solver.Solution:
        solves.append(tuple(tiles))
        return solve(rows, cols, tiles)

    monkeypatch.setattr(solver, "solve", counted)
    monkeypatch.setattr(solver, "_known", type(solver._known)())
    session = session_at("4,1,3,7,2,6,0,5,8")
    counts = []
    while session.status.value == "playing":
        found = session.hint(0)
        counts.append(int(found.note.split(": ")[1].split(" ")[0]))
        session.play(found.move, 0)
    assert counts == list(range(counts[0], 0, -1))
    assert session.state.moved == counts[0]
    assert len(solves) == 1


def test_a_move_off_the_line_makes_the_next_hint_solve_afresh(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    session = session_at("1,2,3,4,5,6,0,7,8")
    first = session.hint(0)
    assert first.move == {"cell": [2, 1]}
    assert first.note.startswith(
        "Slide the tile at row 3, column 2 left: 2 moves")
    session.play({"cell": [1, 0]}, 0)  # not the hint: the tile above the gap comes down
    monkeypatch.setattr(solver, "_known", type(solver._known)())
    assert session.planned_hint(0) is None
    assert session.hint(0).note.endswith("3 moves to go (the shortest way)")


def test_a_hint_names_the_tile_by_where_it_is_and_never_by_its_number() -> None:
    """Tile numbers show only with the Numbers display option: each hint along a
    solution names its tile by its row and column (as the tile's label does for a
    screen reader) and says which way it slides into the gap."""
    state: Puzzle = session_at(HARDEST_8_PUZZLES[1]).state
    found = solver.hint(state, 0)
    assert found is not None
    told = re.compile(r"Slide the tile at row (\d), column (\d) "
                      r"(left|right|up|down): \d+ moves? to go \(the shortest way\)")
    ways = set()
    for step in (found, *found.line):
        said = told.fullmatch(step.note)
        assert said is not None, step.note
        row, col = int(said[1]) - 1, int(said[2]) - 1
        assert step.move == {"cell": [row, col]}
        gap_row, gap_col = divmod(state.tiles.index(0), state.cols)
        assert {"left": (0, -1), "right": (0, 1), "up": (-1, 0), "down": (1, 0)}[said[3]] == (
            gap_row - row, gap_col - col)
        ways.add(said[3])
        state = GAME.apply(state, GAME.parse_move(step.move))
    assert state.solved() and ways == {"left", "right", "up", "down"}


def test_a_4x4_hint_is_shortest() -> None:
    session = session_at("1,2,3,4,5,6,7,8,9,10,11,12,13,0,14,15", rows=4, cols=4)
    found = session.hint(0)
    assert found.move == {"cell": [3, 2]}
    assert found.note == ("Slide the tile at row 4, column 3 left: "
                          "2 moves to go (the shortest way)")


def test_on_big_boards_the_hint_says_it_is_not_proved_shortest() -> None:
    state = GAME.deal(GAME.validate({"rows": 5, "cols": 6, "shuffle": "random"}),
                      __import__("random").Random(5))
    found = solver.hint(state, 0)
    assert found is not None and found.note.endswith(
        " moves to go by the solver's quick way; fewer may do")
    for hint in (found, *found.line):
        state = GAME.apply(state, GAME.parse_move(hint.move))
    assert state.solved()


def test_the_solution_played_back_solves_the_puzzle() -> None:
    state: Puzzle = session_at(HARDEST_8_PUZZLES[0]).state
    shown = solver.show_solution(state, 0)
    assert isinstance(shown, Playback) and len(shown.moves) == 31
    assert "the shortest solution: 31 moves" in shown.note
    assert solver.PLAYBACK_STEP[0] <= shown.step_seconds <= solver.PLAYBACK_STEP[1]
    for move in shown.moves:
        state = GAME.apply(state, GAME.parse_move(move))
    assert state.solved()


def receive(socket: WebSocketTestSession, kind: str) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = socket.receive_json()
        if message["type"] == kind:
            return message


def test_show_me_the_solution_plays_it_out_and_counts_as_help(client: TestClient) -> None:
    created = client.post("/api/games", json={"game": "sliding", "params": {
        "rows": 3, "cols": 3, "tiles": "4,1,3,7,2,6,0,5,8"}}).json()
    sid, token = created["session"], created["token"]
    with client.websocket_connect(f"/ws/{sid}") as socket:
        socket.send_json({"type": "hello", "token": token})
        receive(socket, "view")
        socket.send_json({"type": "command", "name": "solution"})
        # the note and the moves' views come in either order: with no delay between the
        # moves (ai_delay_scale=0), a view ready to go is sent before a note
        notes: list[str] = []
        view: dict[str, Any] = {"status": "playing"}
        while view["status"] == "playing" or not notes:
            message = socket.receive_json()
            if message["type"] == "note":
                notes.append(message["note"])
            elif message["type"] == "view":
                view = message["view"]
                assert view["assisted"]
        assert notes[0].startswith("Playing the shortest solution: 6 moves")
    assert view["moves"] == 6 and view["text"] == " 1  2  3\n 4  5  6\n 7  8  ."
    groups = client.get("/api/stats?game=sliding").json()["groups"]
    assert groups[0]["assisted"] == 1


def test_the_solution_is_not_offered_once_solved() -> None:
    assert SPEC.commands_enabled is not None
    assert SPEC.commands_enabled({"status": "won"}) == {"solution": False}
    assert SPEC.commands_enabled({"status": "playing"}) == {"solution": True}
