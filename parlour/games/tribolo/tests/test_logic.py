"""Tribolo as a Parlour game: deals from ids, turns and passes, the end and ties, what
every seat sees, the text for scripts, refused moves, and Undo back to a human's turn.

Boards are written as in the contract: rows of B, R, G (players), # (wall), . (empty).
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from parlour.core.game import IllegalMove, Status
from parlour.core.gameid import parse_game_id
from parlour.core.outcome import outcome
from parlour.core.session import Session
from parlour.games import GAMES
from parlour.games.tribolo.logic import LastMove, Position, Tribolo
from parlour.games.tribolo.rules import BLUE, GREEN, HEIGHT, RED, WIDTH
from parlour.games.tribolo.tests.boards import board

GAME = Tribolo()


def dealt(id_text: str) -> Position:
    game_id = parse_game_id(GAME, id_text)
    return GAME.deal(game_id.params, game_id.rng(GAME))


# -- the deal ---------------------------------------------------------------------------
def test_the_same_id_deals_the_same_board_and_first_player() -> None:
    assert dealt("tribolo:standard#k3j4h5") == dealt("tribolo:standard#k3j4h5")
    boards = {dealt(f"tribolo:standard#seed{n}").board for n in range(20)}
    assert len(boards) == 20


def test_a_deal_has_twelve_cells_each_and_twelve_walls_and_someone_to_move() -> None:
    for n in range(30):
        state = dealt(f"tribolo:standard#deal{n}")
        text = GAME.text(GAME.observe(state, None))
        board_text = "".join(text.split("\n")[:HEIGHT])
        assert [board_text.count(mark) for mark in "BRG#"] == [12, 12, 12, 12]
        assert state.player is not None and GAME.legal_moves(state)
        assert state.moves_made == (0, 0, 0) and state.last is None


def test_every_player_moves_first_in_some_deals() -> None:
    firsts = {dealt(f"tribolo:standard#first{n}").player for n in range(60)}
    assert firsts == {BLUE, RED, GREEN}


# -- moves, turns and passes --------------------------------------------------------------
def test_a_move_turns_its_captures_and_hands_the_turn_on() -> None:
    state = Position(board("BRR.", "....G", "....R.B"), BLUE)
    after = GAME.apply(state, (3, 0))  # Blue closes Red's run from the right
    rows = GAME.observe(after, None)["rows"]
    assert rows[0].startswith("BBBB")
    assert after.last == LastMove(BLUE, 3, 0b0110)
    assert after.player == RED and after.passed == ()
    assert after.moves_made == (1, 0, 0)


def test_a_player_who_cannot_move_passes() -> None:
    # after Blue takes Red's only cell, Red cannot move: Green plays next
    state = Position(board("BR..", "", "", "", "", ".....GB"), BLUE)
    after = GAME.apply(state, (2, 0))
    assert after.player == GREEN and after.passed == (RED,)
    assert GAME.observe(after, BLUE)["passed"] == [RED]


def test_the_mover_plays_again_when_both_others_pass() -> None:
    # Blue takes Red's only cell; Green's only line runs into a wall; Blue can still move
    state = Position(board("BR..", "", "", "", "", "...GB#"), BLUE)
    after = GAME.apply(state, (2, 0))
    assert after.player == BLUE and after.passed == (RED, GREEN)


def test_nobody_able_to_move_ends_the_game_with_the_most_cells_winning() -> None:
    state = Position(board("BBBR.", "", "", "", "", "", "", "", "", "", "GG##"), BLUE)
    after = GAME.apply(state, (4, 0))  # Blue takes Red's last cell; nobody can move
    assert after.player is None and after.passed == ()
    assert GAME.status(after) is Status.WON and GAME.winners(after) == (BLUE,)
    assert GAME.legal_moves(after) == ()
    assert GAME.headline(GAME.observe(after, None)) == "Blue wins"
    observation = GAME.observe(after, BLUE)
    assert GAME.headline_for(observation, {BLUE}) == "You win!"
    assert GAME.headline_for(observation, {RED}) == "Blue wins"
    assert GAME.headline_for(observation, {BLUE, GREEN}) == "Blue wins"  # one screen, two seats
    assert GAME.scores(after) == (5, 0, 2)
    assert GAME.places(after) == (1, 3, 2)  # the end card's "Third place" for Red


def test_two_players_sharing_the_most_cells_tie() -> None:
    state = Position(board("BR.", "", "", "", "", "", "", "", "", "", "GGG#"), BLUE)
    after = GAME.apply(state, (2, 0))
    assert after.player is None
    assert GAME.scores(after) == (3, 0, 3)
    assert GAME.status(after) is Status.WON and GAME.winners(after) == (BLUE, GREEN)
    assert GAME.headline(GAME.observe(after, None)) == "Blue and Green tie"
    assert GAME.headline_for(GAME.observe(after, BLUE), {BLUE}) == "Blue and Green tie"


def test_three_equal_scores_are_a_draw() -> None:
    state = Position(board("BR.", "", "", "", "", "", "", "", "RRR#", "", "GGG#"), BLUE)
    after = GAME.apply(state, (2, 0))
    assert after.player is None and GAME.scores(after) == (3, 3, 3)
    assert GAME.status(after) is Status.DRAW and GAME.winners(after) == ()
    assert GAME.headline(GAME.observe(after, None)) == "A three-way tie"


# -- refused moves ------------------------------------------------------------------------
@pytest.mark.parametrize(("cell", "reason"), [
    ((16, 0), "off the board"), ((0, 11), "off the board"), ((-1, 2), "off the board"),
    ((4, 0), "wall"), ((0, 0), "taken"), ((1, 0), "taken"),
    ((7, 5), "captures nothing"),
])
def test_a_refused_move_says_why(cell: tuple[int, int], reason: str) -> None:
    state = Position(board("BRR.#."), BLUE)
    with pytest.raises(IllegalMove, match=reason):
        GAME.apply(state, cell)


def test_no_move_once_the_game_is_over() -> None:
    over = Position(board("BR."), None)
    with pytest.raises(IllegalMove, match="over"):
        GAME.apply(over, (2, 0))


def test_a_capture_of_the_third_player_is_not_the_movers() -> None:
    # from (0, 0) the line is Red's run closed by Green: Green's capture, never Blue's
    state = Position(board(".RG", "B"), BLUE)
    with pytest.raises(IllegalMove, match="captures nothing"):
        GAME.apply(state, (0, 0))


def test_moves_read_and_write_as_the_contract_says() -> None:
    assert GAME.parse_move({"cell": [3, 7]}) == (3, 7)
    assert GAME.move_to_json((3, 7)) == {"cell": [3, 7]}
    for bad in ({"cell": ["3", 7]}, {"cell": [1.5, 2]}, {"cell": [1]}, {"at": [1, 2]},
                {"cell": [1, 2], "extra": 1}, [1, 2], None):
        with pytest.raises(IllegalMove, match="malformed"):
            GAME.parse_move(bad)


# -- what every seat sees -----------------------------------------------------------------
def test_every_seat_sees_the_same_position() -> None:
    state = dealt("tribolo:standard#observe")
    seen = [GAME.observe(state, seat) for seat in (None, BLUE, RED, GREEN)]
    assert all(view == seen[0] for view in seen)
    assert seen[0]["legal"] == [list(cell) for cell in GAME.legal_moves(state)]


def test_the_observation_has_the_last_move_and_what_it_turned() -> None:
    state = Position(board("BRR.", ".G..", ".R", ".B"), BLUE)
    after = GAME.apply(state, (3, 0))
    seen = GAME.observe(after, None)
    assert seen["last"] == {"player": BLUE, "cell": [3, 0], "turned": [[1, 0], [2, 0]]}
    assert seen["moves"] == [1, 0, 0] and seen["scores"] == [5, 1, 1]


def test_the_text_is_eleven_rows_of_sixteen_then_who_moves() -> None:
    state = dealt("tribolo:standard#text")
    lines = GAME.text(GAME.observe(state, None)).split("\n")
    assert len(lines) == HEIGHT + 1
    assert all(len(line) == WIDTH and set(line) <= set("BRG#.") for line in lines[:HEIGHT])
    assert lines[HEIGHT] == f"to move: {('Blue', 'Red', 'Green')[state.player or 0]}"
    over = Position(board("B"), None)
    assert GAME.text(GAME.observe(over, None)).split("\n")[-1] == "to move: none"
    assert GAME.text(GAME.observe(over, None)).split("\n")[0] == "B" + "." * (WIDTH - 1)


def test_the_rows_place_x_across_and_y_down() -> None:
    state = Position(board("BRR.", "", "", "", "", "", "", "", "", "", "...............G"), BLUE)
    rows = GAME.observe(state, None)["rows"]
    assert rows[0][0] == "B" and rows[10][15] == "G"
    assert (3, 0) in GAME.legal_moves(state)


# -- undo in a session ----------------------------------------------------------------------
def test_undo_goes_back_to_the_humans_last_turn_past_the_computers_moves() -> None:
    game_id = parse_game_id(GAME, "tribolo:standard#undo1")
    session = Session(GAMES["tribolo"], game_id, ["human", "ai:easy", "ai:easy"])
    rng = random.Random(5)
    human_turns = []
    while len(human_turns) < 3 and session.to_move is not None:
        if session.to_move == BLUE:
            human_turns.append(session.cursor)
            session.play(GAME.move_to_json(rng.choice(list(GAME.legal_moves(session.state)))), 0)
        else:
            session.play(session.choose_ai_move(), session.to_move)
    assert len(human_turns) == 3
    session.undo({BLUE})
    assert session.cursor == human_turns[-1] and session.to_move == BLUE
    session.undo({BLUE})
    assert session.cursor == human_turns[-2] and session.to_move == BLUE


def test_undo_with_three_humans_on_one_screen_takes_back_one_move() -> None:
    game_id = parse_game_id(GAME, "tribolo:standard#undo3")
    session = Session(GAMES["tribolo"], game_id, ["human", "human", "human"])
    rng = random.Random(2)
    for _ in range(4):
        seat = session.to_move
        assert seat is not None
        session.play(GAME.move_to_json(rng.choice(list(GAME.legal_moves(session.state)))), seat)
    before = session.state
    session.play(GAME.move_to_json(GAME.legal_moves(before)[0]), session.to_move or 0)
    session.undo({BLUE, RED, GREEN})
    assert session.state == before


def test_players_sharing_first_place_draw_and_the_third_loses() -> None:
    game_id = parse_game_id(GAME, "tribolo:standard#tie")
    tie = Position(board("BR.", "", "", "", "", "", "", "", "", "", "GGG#"), BLUE)
    session = Session(GAMES["tribolo"], game_id, ["human", "human", "human"], start=tie)
    session.play({"cell": [2, 0]}, BLUE)
    assert session.status is Status.WON
    assert [outcome(session, {seat}) for seat in (BLUE, RED, GREEN)] == ["draw", "lost", "draw"]
    assert outcome(session, {BLUE, RED, GREEN}) == "won"  # one person played every seat


def test_a_refusal_names_the_board_and_the_game_over() -> None:
    with pytest.raises(IllegalMove) as refused:
        GAME.apply(Position(board("BRR."), BLUE), (16, 0))
    assert str(refused.value) == (
        "cell [16, 0] is off the board (x goes from 0 to 15, y from 0 to 10)")
    with pytest.raises(IllegalMove) as refused:
        GAME.apply(Position(board("BR."), None), (2, 0))
    assert str(refused.value) == "the game is over"


def test_each_players_moves_are_counted_and_every_move_flips() -> None:
    state = Position(board("BR..", "", "", "", "", "...GB#"), BLUE)
    again = GAME.apply(state, (2, 0))  # Red and Green pass: Blue plays again
    after = GAME.apply(again, (2, 5))
    assert after.moves_made == (2, 0, 0)
    assert GAME.sound(state, (2, 0), again) == "flip"


def test_nobody_is_named_a_winner_while_the_game_goes_on() -> None:
    state = Position(board("BRR.", "....G", "....R.B"), BLUE)
    assert GAME.observe(state, None)["winners"] == []
    assert GAME.places(state) == ()


def test_the_view_shows_each_players_last_cell_even_in_the_corner_and_none_before() -> None:
    state = GAME.deal(GAME.validate({}), random.Random(1))
    assert GAME.observe(state, 0)["lasts"] == [None, None, None]
    corner = replace(state, lasts=(0, -1, WIDTH + 1))
    assert GAME.observe(corner, 0)["lasts"] == [[0, 0], None, [1, 1]]
