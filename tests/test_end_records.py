"""A finished game beside its group's records, as its end card shows them
(`stats/records.py`, GET /api/games/{sid}/records): the best before this game, or this
game's own when it beat it or was the group's first; none for a game with help or a
position given."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from fastapi.testclient import TestClient

from parlour.core.gameid import CUSTOM_POSITION
from parlour.games import GAMES
from parlour.games.minesweeper.logic import OPEN
from parlour.stats.records import end_records
from parlour.store import Result, Store
from tests.support.stores import on_both_stores
from tests.test_honest_stats import SMALL_MINEFIELD, small_minefield

MINESWEEPER, SLIDING = GAMES["minesweeper"], GAMES["sliding"]


def won(sid: str, seconds: float, assisted: bool = False, **figures: float) -> Result:
    return Result(sid=sid, round=1, game="minesweeper", preset="easy", mode="solo",
                  outcome="won", score=None, elapsed_ms=int(seconds * 1000), moves=9,
                  assisted=assisted, finished=1.0, figures=dict(figures))


BEFORE = [won("a", 60, **{"3BV/s": 0.5}), won("b", 50, **{"3BV/s": 0.4}),
          won("c", 20, assisted=True, **{"3BV/s": 2.0})]  # a game with help sets no record


def records(this: Result, group: list[Result]) -> dict[str, tuple[str, bool]]:
    return {r["name"]: (r["shown"], r["new"]) for r in end_records(MINESWEEPER, this, group)}


def test_a_faster_win_sets_a_new_record_and_a_slower_one_is_shown_the_record() -> None:
    faster = won("d", 45.7, **{"3BV/s": 0.45})
    found = records(faster, [*BEFORE, faster])
    assert found["time"] == ("45.70", True)  # Minesweeper's times to the hundredth
    assert found["3BV/s"] == ("0.50", False)  # the record before it, not its own 0.45
    assert "efficiency" not in found  # this game has none: nothing to show
    slower = won("e", 75)
    assert records(slower, [*BEFORE, slower])["time"] == ("50.00", False)


def test_a_game_opened_again_later_is_measured_as_it_was_when_it_ended() -> None:
    this = won("d", 55)
    later = replace(won("e", 30), finished=2.0)  # a faster game, played after it
    assert records(this, [*BEFORE, this, later])["time"] == ("50.00", False)


def test_a_record_is_beaten_by_as_much_as_the_card_shows() -> None:
    """A Minesweeper time must be better by a hundredth (the card shows 50.00 for both 50.009
    and 50.000), and a rate is written to two places even when it is whole."""
    close = won("d", 50.009)
    assert records(close, [*BEFORE, close])["time"] == ("50.00", False)
    sharp = won("d", 49.99, efficiency=1.0)
    found = records(sharp, [won("a", 60, efficiency=1.0), sharp])
    assert found["time"] == ("49.99", True) and found["efficiency"] == ("1.00", False)


def test_a_time_written_in_whole_seconds_is_beaten_by_a_whole_second() -> None:
    def solved(sid: str, seconds: float) -> Result:
        return Result(sid=sid, round=1, game="sliding", preset="4x4", mode="solo",
                      outcome="won", score=None, elapsed_ms=int(seconds * 1000), moves=40,
                      assisted=False, finished=1.0, figures={"tiles_moved": 40.0})

    def time_of(this: Result, *before: Result) -> tuple[str, bool]:
        (time,) = [(r["shown"], r["new"]) for r in end_records(SLIDING, this, [*before, this])
                   if r["name"] == "time"]
        return time

    assert time_of(solved("b", 50.1), solved("a", 50.9)) == ("0:50", False)
    assert time_of(solved("b", 49.9), solved("a", 50.0)) == ("0:49", True)


def test_a_win_with_help_or_a_loss_sets_no_record() -> None:
    helped = won("d", 10, assisted=True)
    assert records(helped, BEFORE)["time"] == ("50.00", False)
    lost = replace(won("d", 10), outcome="lost")
    assert "time" not in records(lost, BEFORE)  # a time counts the games won only
    assert records(won("d", 10, assisted=True), []) == {}  # none to show, none set


def test_a_boards_first_win_sets_its_first_records() -> None:
    """The end card says a first win is the best so far, as the statistics page does at
    once: on every screen (it used to say nothing, on a desktop as on a phone)."""
    first = won("d", 64.321, **{"3BV/s": 1.5})
    assert records(first, [first]) == {"time": ("1:04.32", True), "3BV/s": ("1.50", True)}
    after_help = won("e", 70)  # the games before it had help: they set no record
    assert records(after_help, [won("a", 20, assisted=True), after_help])["time"] == (
        "1:10.00", True)
    lost = replace(won("f", 30, **{"3BV/s": 1.5}), outcome="lost")
    assert records(lost, [lost]) == {}  # a first game lost sets none: not "a new record"


def test_a_first_game_lost_in_third_place_is_no_record_of_the_most_cells() -> None:
    tribolo = GAMES["tribolo"]
    (figure,) = [f for f in tribolo.stat_figures if f.show == "highest"][:1]
    third = Result(sid="a", round=1, game="tribolo", preset="standard", mode="ai",
                   outcome="lost", score=20, elapsed_ms=60_000, moves=40, assisted=False,
                   finished=1.0, figures={figure.name: 20.0})
    assert end_records(tribolo, third, [third]) == []


def test_none_of_a_thing_is_no_record_of_the_most_of_it() -> None:
    """A first Ishido win with no 4-way: its score is a record, "most 4-ways 0" is not
    (the card said "Your new record: most 4-ways", and listed 0)."""
    ishido = GAMES["ishido"]
    first = Result(sid="a", round=1, game="ishido", preset="seed", mode="solo", outcome="won",
                   score=200, elapsed_ms=600_000, moves=66, assisted=False, finished=1.0,
                   figures={"4-ways": 0.0, "tiles placed": 72.0})
    names = [found["name"] for found in end_records(ishido, first, [first])]
    assert "score" in names and "4-ways" not in names
    second = replace(first, sid="b", finished=2.0, figures={"4-ways": 2.0, "tiles placed": 72.0})
    found = {r["name"]: (r["shown"], r["new"])
             for r in end_records(ishido, second, [first, second])}
    assert found["4-ways"] == ("2", True)


def test_a_position_given_sets_no_record() -> None:
    given = replace(won("d", 10), preset=CUSTOM_POSITION)
    assert end_records(MINESWEEPER, given, [*BEFORE, given]) == []


def test_sliding_counts_fewest_moves_as_a_whole_number() -> None:
    def solved(sid: str, moves: int) -> Result:
        return Result(sid=sid, round=1, game="sliding", preset="4x4", mode="solo",
                      outcome="won", score=None, elapsed_ms=90_000, moves=moves,
                      assisted=False, finished=1.0, figures={"tiles_moved": float(moves)})

    this = solved("b", 40)
    found = {r["name"]: (r["caption"], r["shown"], r["new"])
             for r in end_records(SLIDING, this, [solved("a", 52), this])}
    assert found["tiles_moved"] == ("fewest moves", "40", True)
    assert found["time"] == ("best time so far", "1:30", False)  # a tie is no new record


def win_small_minefield(client: TestClient) -> dict[str, Any]:
    created = client.post("/api/games", json={"game": "minesweeper", "id": SMALL_MINEFIELD})
    assert created.status_code == 201, created.text
    game = created.json()
    mirror = small_minefield()
    while mirror.status.value == "playing":
        safe = next(cell for cell in range(36) if cell not in mirror.state.mined
                    and mirror.state.marks[cell] != OPEN)
        move = {"open": list(divmod(safe, 6))}
        mirror.play(move, 0)
        reply = client.post(f"/api/games/{game['session']}/moves", json={"move": move},
                            headers={"Authorization": f"Bearer {game['token']}"})
        assert reply.status_code == 200, reply.text
    return game


@on_both_stores
def test_the_end_card_asks_for_its_records(client: TestClient, store: Store) -> None:
    first = win_small_minefield(client)
    (time,) = [r for r in client.get(f"/api/games/{first['session']}/records").json()
               if r["name"] == "time"]
    assert time["caption"] == "best time" and time["new"]  # the board's first win
    second = win_small_minefield(client)
    answer = client.get(f"/api/games/{second['session']}/records",
                        headers={"Authorization": f"Bearer {second['token']}"})
    assert answer.status_code == 200, answer.text
    (time,) = [r for r in answer.json() if r["name"] == "time"]
    assert time["caption"] == "best time so far" and time["shown"] == "0.00"  # a tie
    playing = client.post("/api/games", json={"game": "minesweeper"}).json()
    assert client.get(f"/api/games/{playing['session']}/records").json() == []


def solve_position(client: TestClient, tiles: str, cells: list[list[int]]) -> str:
    """A 3x3 sliding game from `tiles`, played by sliding the tiles at `cells`: its sid."""
    created = client.post("/api/games", json={"game": "sliding",
                                              "id": f"sliding:rows=3,cols=3:{tiles}"})
    assert created.status_code == 201, created.text
    game = created.json()
    for cell in cells:
        reply = client.post(f"/api/games/{game['session']}/moves", json={"move": {"cell": cell}},
                            headers={"Authorization": f"Bearer {game['token']}"})
        assert reply.status_code == 200, reply.text
    return str(game["session"])


def test_the_end_card_gets_the_fewest_moves_possible_and_whether_they_were_met(
    client: TestClient,
) -> None:
    """The sliding puzzle's solver proves the fewest moves from the start (GameSpec.
    best_possible), given last among the records, a position given too."""
    two_away = "1,2,3,4,5,6,0,7,8"  # 7 and 8 slide left, in one move of the line or two
    for cells, moves, met in (([[2, 2]], 2, True), ([[1, 0], [2, 0], [2, 1], [2, 2]], 4, False)):
        sid = solve_position(client, two_away, cells)
        (possible,) = client.get(f"/api/games/{sid}/records").json()
        assert possible["name"] == "best_possible" and possible["caption"] == "fewest possible"
        assert (possible["value"], possible["shown"], possible["new"]) == (2, "2", False)
        assert bool(possible["met"]) is met, moves
    playing = solve_position(client, two_away, [[2, 1]])
    assert client.get(f"/api/games/{playing}/records").json() == []
