"""The session's rules a player meets beside the moves (`parlour/core/session.py`): who
may sit where, hints and the line a solver's hint carries, the assist switch, and the
computer standing in for a player who left."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from parlour.core.game import GameError, GameSpec, Hint, UndoRule
from parlour.core.gameid import parse_game_id
from parlour.core.session import Session, seat_kind_error
from parlour.games import GAMES

TICTACTOE = GAMES["tictactoe"]


def cell(x: int, y: int) -> dict[str, list[int]]:
    return {"cell": [x, y]}


def session_of(spec: GameSpec, seats: tuple[str, ...], seed: str = "seed") -> Session:
    return Session(spec, parse_game_id(spec.game, f"{spec.name}:#{seed}"), seats)


CROSS_WINS = [cell(0, 0), cell(1, 0), cell(0, 1), cell(1, 1), cell(0, 2)]
"""X takes the first column while O plays beside it."""


def two_humans(spec: GameSpec = TICTACTOE) -> Session:
    return session_of(spec, ("human", "human"))


# -- who may sit where -------------------------------------------------------------------
def test_a_seat_is_a_human_or_one_of_the_games_computer_levels() -> None:
    assert seat_kind_error(TICTACTOE, "human") is None
    assert seat_kind_error(TICTACTOE, "ai:perfect") is None
    levels = "a seat is 'human' or one of: ai:random, ai:medium, ai:hard, ai:perfect"
    assert seat_kind_error(TICTACTOE, "ai:genius") == levels
    assert seat_kind_error(TICTACTOE, "xx:perfect") == levels  # a level needs its "ai:"


def test_a_game_without_a_computer_player_says_so() -> None:
    assert seat_kind_error(GAMES["minesweeper"], "ai:perfect") == (
        "a seat is 'human' or one of: no AI"
    )


def test_the_computer_plays_a_player_who_left_at_the_stand_in_level() -> None:
    session = session_of(TICTACTOE, ("human", "ai:perfect"))
    assert (session.is_ai(0), session.ai_level(1)) == (False, "perfect")
    session.stand_ins[0] = "random"
    assert session.is_ai(0) and session.is_human(0) and not session.is_human(1)
    assert session.ai_level(0) == "random"
    player, _ = session.ai_player()
    assert player is TICTACTOE.ai_levels["random"]


def test_the_computer_plays_the_same_game_again_from_the_same_deal() -> None:
    """Its choices come from the game's id and the ply, so that a game replayed from its
    id and moves meets the same replies (and another deal, other ones)."""
    def computer_game(seed: str) -> list[Any]:
        session = session_of(TICTACTOE, ("ai:random", "ai:random"), seed)
        while session.to_move is not None:
            session.play(session.choose_ai_move(), session.to_move)
        return session.moves

    games = {seed: computer_game(seed) for seed in ("one", "two", "three", "four")}
    assert all(computer_game(seed) == moves for seed, moves in games.items())
    assert len({str(moves) for moves in games.values()}) > 1


def test_the_computer_does_not_move_for_a_player_at_the_board() -> None:
    with pytest.raises(GameError) as refused:
        two_humans().ai_player()
    assert str(refused.value) == "no AI is to move"


# -- hints -------------------------------------------------------------------------------
class Finder:
    """A hint finder that remembers what it was asked: X in the centre, then the line
    of X's moves after it."""

    def __init__(self, *line: Hint) -> None:
        self.line = line
        self.asked: list[tuple[Any, int]] = []

    def __call__(self, state: Any, seat: int) -> Hint | None:
        self.asked.append((state, seat))
        return Hint(cell(1, 1), "the centre", self.line)


def with_finder(finder: Any) -> Session:
    return two_humans(replace(TICTACTOE, hint=finder))


def test_a_hint_suggests_a_move_to_the_seat_that_asked_and_counts_as_help() -> None:
    finder = Finder()
    session = with_finder(finder)
    hint = session.hint(0)
    assert hint == Hint(cell(1, 1), "the centre")
    assert finder.asked == [(session.state, 0)]
    assert session.hints == {0: hint}
    assert session.assisted_for({0}) and not session.assisted_for({1})


def test_following_a_hints_line_gives_the_next_hints_without_searching_again() -> None:
    corner, edge = Hint(cell(0, 0), "a corner"), Hint(cell(0, 1), "an edge")
    finder = Finder(corner, edge)
    session = with_finder(finder)
    session.hint(0)
    session.play(cell(1, 1), 0)
    session.play(cell(2, 2), 1)
    assert session.hint(0) == corner  # from the line: the finder is not asked again
    session.play(cell(0, 0), 0)
    session.play(cell(2, 0), 1)
    assert session.hint(0) == edge
    assert len(finder.asked) == 1


def test_a_hint_is_refused_once_the_game_is_over() -> None:
    session = with_finder(Finder())
    for x, y, seat in ((0, 0, 0), (0, 1, 1), (1, 0, 0), (1, 1, 1), (2, 0, 0)):
        session.play(cell(x, y), seat)
    with pytest.raises(GameError) as refused:
        session.hint(1)
    assert str(refused.value) == "the game is over"


def test_a_finder_with_nothing_to_suggest_gives_no_hint_and_no_help() -> None:
    session = with_finder(lambda state, seat: None)
    with pytest.raises(GameError) as refused:
        session.hint(0)
    assert str(refused.value) == "no hint: there is no move to suggest"
    assert not session.assisted


# -- the assist switch -------------------------------------------------------------------
def test_the_assist_switch_counts_as_help_even_once_turned_off() -> None:
    session = session_of(GAMES["ishido"], ("human",))
    session.set_assist(True)
    assert session.assist is True and session.assisted
    session.set_assist(False)
    assert session.assist is False and session.assisted


def test_a_switch_left_on_helps_a_restarted_game_from_the_start() -> None:
    session = session_of(GAMES["ishido"], ("human",))
    session.set_assist(True)
    session.restart()
    assert session.assisted
    session.set_assist(False)
    session.restart()
    assert not session.assisted


def test_each_player_has_an_assist_switch_of_their_own() -> None:
    session = session_of(GAMES["tribolo"], ("human", "human", "human"))
    session.set_assist(True, {0})
    session.set_assist(True, {2})
    assert session.assist_seats == {0, 2} and session.assisted_seats == {0, 2}
    session.set_assist(False, {2})  # one turns theirs off: the other's stays on
    assert session.assist_seats == {0} and session.assisted_seats == {0, 2}
    assert session.assisted_for({0}) and not session.assisted_for({1})
    session.set_assist(True)  # a hot seat's one switch: every seat
    assert session.assist_seats == {0, 1, 2}


def test_help_counts_for_the_players_helped_and_adds_up() -> None:
    session = session_of(GAMES["tribolo"], ("human", "human", "human"))
    session.mark_assisted({1})
    session.mark_assisted({2})
    assert session.assisted_seats == {1, 2}
    session.mark_assisted()
    assert session.assisted_seats == {0, 1, 2}


def test_the_computer_is_not_asked_for_a_human_players_move() -> None:
    with pytest.raises(GameError) as refused:
        two_humans().choose_ai_move()
    assert str(refused.value) == "no AI is to move"


def test_a_game_without_assist_refuses_the_switch() -> None:
    with pytest.raises(GameError) as refused:
        two_humans().set_assist(True)
    assert str(refused.value) == "Tic Tac Toe has no assist switch"


# -- the clock, sounds, restart and undo's refusal -----------------------------------------
def test_the_clock_runs_from_the_first_move_until_the_game_ends_while_a_player_is_here(
) -> None:
    session = two_humans()
    session.set_present(True, 0.0)
    assert not session.clock_running()
    session.play(cell(0, 0), 0)
    assert session.clock_running()
    session.set_present(False, 0.0)
    assert not session.clock_running()  # nobody's page is visible
    session.set_present(True, 0.0)
    for x, y, seat in ((0, 1, 1), (1, 0, 0), (1, 1, 1), (2, 0, 0)):
        session.play(cell(x, y), seat)
    assert not session.clock_running()


def test_a_minesweepers_clock_starts_at_the_first_cell_opened_not_at_a_flag() -> None:
    """As in every Minesweeper: flags planted before the first click count no time."""
    session = session_of(GAMES["minesweeper"], ("human",))
    session.set_present(True, 0.0)
    session.play({"mark": [0, 0]}, 0)
    assert not session.clock_running()
    session.play({"open": [5, 5]}, 0)
    assert session.clock_running()


def test_the_clock_starts_and_stops_as_the_player_comes_and_goes() -> None:
    session = two_humans()
    session.play(cell(0, 0), 0)
    assert session.set_present(True, 10.0) and session.clock.running
    assert not session.set_present(True, 11.0)  # no change
    assert session.set_present(False, 14.0) and not session.clock.running
    assert session.clock.reading_ms(100.0) == 4000


def test_a_restart_starts_the_clock_afresh() -> None:
    session = two_humans()
    session.play(cell(0, 0), 0)
    session.clock.record(10.0, running=True)
    session.clock.record(70.0, running=True)
    session.restart()
    assert session.clock.reading_ms(100.0) == 0 and session.moves == []


def test_the_sound_is_that_of_the_move_that_led_here() -> None:
    session = session_of(GAMES["minesweeper"], ("human",))
    assert session.last_move_sound() == "move"  # nothing played yet
    session.play({"mark": [0, 0]}, 0)
    assert session.last_move_sound() == "flag"


def test_undo_says_why_a_turned_card_cannot_be_taken_back() -> None:
    escalator = GAMES["escalator"]
    session = session_of(escalator, ("human",))
    assert session.undo_refusal({0}) is None  # nothing to take back
    session.play({"draw": True}, 0)
    assert session.undo_refusal({0}) == escalator.game.undo_refusal
    assert not session.can_undo({0})
    with pytest.raises(GameError) as refused:
        session.undo({0})
    assert str(refused.value) == escalator.game.undo_refusal


def test_undo_and_redo_say_when_there_is_nothing_to_take_back_or_replay() -> None:
    session = two_humans()
    with pytest.raises(GameError) as refused:
        session.undo({0, 1})
    assert str(refused.value) == "nothing to undo"
    session.play(cell(0, 0), 0)
    with pytest.raises(GameError) as refused:
        session.redo({0, 1})
    assert str(refused.value) == "nothing to redo"


def test_a_move_is_refused_out_of_turn_or_after_the_end_saying_why() -> None:
    session = two_humans()
    with pytest.raises(GameError) as refused:
        session.play(cell(0, 0), 1)
    assert str(refused.value) == "it is not your turn"
    for x, y, seat in ((0, 0, 0), (0, 1, 1), (1, 0, 0), (1, 1, 1), (2, 0, 0)):
        session.play(cell(x, y), seat)
    with pytest.raises(GameError) as refused:
        session.play(cell(2, 2), 1)
    assert str(refused.value) == "the game is over"


def test_a_saved_line_with_its_cursor_past_the_end_is_refused() -> None:
    game_id = parse_game_id(TICTACTOE.game, "tictactoe:#seed")
    with pytest.raises(ValueError) as refused:
        Session(TICTACTOE, game_id, ("human", "human"), [cell(0, 0)], cursor=2)
    assert str(refused.value) == "cursor outside the line of moves"


def test_the_rules_are_asked_once_per_position_however_many_look() -> None:
    asked: list[Any] = []
    game = TICTACTOE.game

    class Counting(type(game)):  # type: ignore[misc]
        def status(self, state: Any) -> Any:
            asked.append(state)
            return super().status(state)

    session = two_humans(replace(TICTACTOE, game=Counting()))
    session.play(cell(0, 0), 0)
    asked.clear()
    for _ in range(3):
        session.facts()
    assert len(asked) == 1


def test_undo_goes_back_to_the_players_own_last_move_and_redo_forward_to_the_next() -> None:
    session = two_humans()
    for seat, move in enumerate((cell(1, 1), cell(0, 0), cell(2, 2))):
        session.play(move, seat % 2)
    session.undo({1})  # past X's last move, to O's
    assert session.cursor == 1
    session.undo({0})
    assert session.cursor == 0
    session.redo({1})  # to where O is to move next, past X's move
    assert session.cursor == 1
    session.redo({1})  # O never moves again on this line: to its end
    assert session.cursor == 3


def test_redo_stops_where_the_game_ends() -> None:
    session = two_humans()
    for seat, move in enumerate(CROSS_WINS):
        session.play(move, seat % 2)
    session.undo({0})
    session.undo({0})
    session.redo({1})
    assert session.cursor == 3  # O to move
    session.redo({1})  # past X's move, which ends the game
    assert (session.cursor, session.status.value) == (len(CROSS_WINS), "won")


def test_a_game_helped_once_stays_helped_after_an_ordinary_undo() -> None:
    session = with_finder(Finder())
    session.hint(0)
    session.play(cell(1, 1), 0)
    session.undo({0})
    assert session.assisted


def test_an_undo_that_is_help_adds_its_player_to_those_helped_before() -> None:
    game = TICTACTOE.game

    class HelpfulUndo(type(game)):  # type: ignore[misc]
        def undo_rule(self, before: Any, move: Any, after: Any) -> UndoRule:
            return UndoRule.ASSISTED  # as a game where a take-back shows what was hidden

    session = two_humans(replace(TICTACTOE, game=HelpfulUndo()))
    session.play(cell(0, 0), 0)
    session.mark_assisted({0})
    session.play(cell(1, 1), 1)
    session.undo({1})
    assert session.assisted_seats == {0, 1}
