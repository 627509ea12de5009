"""Tic-Tac-Toe rules (seed 001), its computer players and its hint, checked exhaustively.

The positions are built by playing moves through the game protocol, and the winning lines
and the optimal moves are checked against an independent hand-written solver, so a
mistake in the data (`WINNING_CELL_SETS`) or in the AI's search cannot hide behind itself.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any

import pytest

from parlour.core import tables
from parlour.core.game import GameError, IllegalMove, RenderContext, Status
from parlour.core.gameid import GameId
from parlour.core.session import Session
from parlour.games import GAMES
from parlour.games.tictactoe import SPEC, ai, solver
from parlour.games.tictactoe.logic import (
    CIRCLE,
    CROSS,
    START,
    WINNING_CELL_SETS,
    Cell,
    TicTacToe,
    Turn,
)

GAME = TicTacToe()

Line = tuple[Cell, Cell, Cell]

# The eight lines, written out by hand as (column, row) from the top left.
HAND_WRITTEN_LINES: tuple[Line, ...] = (
    ((0, 0), (1, 0), (2, 0)),  # top row
    ((0, 1), (1, 1), (2, 1)),  # middle row
    ((0, 2), (1, 2), (2, 2)),  # bottom row
    ((0, 0), (0, 1), (0, 2)),  # left column
    ((1, 0), (1, 1), (1, 2)),  # middle column
    ((2, 0), (2, 1), (2, 2)),  # right column
    ((0, 0), (1, 1), (2, 2)),  # diagonal from the top left
    ((2, 0), (1, 1), (0, 2)),  # diagonal from the top right
)
ALL_CELLS: tuple[Cell, ...] = tuple((x, y) for y in range(3) for x in range(3))

# A full board without a line:  X O X / X O O / O X X, in an order of play.
DRAW_MOVES: tuple[Cell, ...] = (
    (0, 0), (1, 0), (2, 0), (1, 1), (0, 1), (2, 1), (1, 2), (0, 2), (2, 2),
)


# -- helpers ----------------------------------------------------------------------------
def start() -> Turn:
    turn: Turn = GAME.deal(GAME.validate({}), random.Random(0))
    return turn


def play(cells: Iterable[Cell]) -> Turn:
    turn = start()
    for cell in cells:
        turn = GAME.apply(turn, cell)
    return turn


@cache
def board(turn: Turn) -> dict[Cell, int | None]:
    """The board read through the observation, not through the state's own helpers."""
    owners = GAME.observe(turn, None)["owners"]
    return {(x, y): owners[y][x] for (x, y) in ALL_CELLS}


def owner_of(turn: Turn, cell: Cell) -> int | None:
    return board(turn)[cell]


@cache
def hand_winner(turn: Turn) -> int | None:
    for line in HAND_WRITTEN_LINES:
        owners = {owner_of(turn, cell) for cell in line}
        if len(owners) == 1 and None not in owners:
            return owners.pop()
    return None


def interleave(cross: Sequence[Cell], circle: Sequence[Cell]) -> list[Cell]:
    moves: list[Cell] = []
    for i in range(max(len(cross), len(circle))):
        moves += [*cross[i : i + 1], *circle[i : i + 1]]
    return moves


@cache
def reachable() -> tuple[Turn, ...]:
    """Every position reachable from the start by legal play."""
    seen = {START}
    frontier = [START]
    while frontier:
        turn = frontier.pop()
        for cell in GAME.legal_moves(turn):
            after = GAME.apply(turn, cell)
            if after not in seen:
                seen.add(after)
                frontier.append(after)
    return tuple(seen)


def playing_positions() -> list[Turn]:
    return [turn for turn in reachable() if GAME.status(turn) is Status.PLAYING]


@cache
def solve_soonest(turn: Turn) -> int:
    """Independent negamax scored as the AI's table is: a win with k empty cells left is
    worth k + 1 (a loss, -(k + 1)), so sooner wins and later losses score higher."""
    empty = [cell for cell in ALL_CELLS if owner_of(turn, cell) is None]
    found = hand_winner(turn)
    if found is not None:
        return (len(empty) + 1) * (1 if found == turn.player else -1)
    if not empty:
        return 0
    return max(-solve_soonest(GAME.apply(turn, cell)) for cell in empty)


@cache
def solve(turn: Turn) -> int:
    """Independent negamax: +1 if the player to move wins with best play, 0 draw, -1 loss."""
    found = hand_winner(turn)
    if found is not None:
        return 1 if found == turn.player else -1
    empty = [cell for cell in ALL_CELLS if owner_of(turn, cell) is None]
    if not empty:
        return 0
    return max(-solve(GAME.apply(turn, cell)) for cell in empty)


class Branch(random.Random):
    """An rng whose `choice` takes the option at `index`: enumerates every AI choice."""

    def __init__(self, index: int) -> None:
        super().__init__(0)
        self.index = index
        self.options = 1

    def choice(self, seq: Any) -> Any:
        self.options = len(seq)
        return seq[self.index % len(seq)]


def all_choices(player: Any, turn: Turn) -> set[Cell]:
    """Every move `player` can make in `turn`, whatever its random generator says."""
    probe = Branch(0)
    first: Cell = player(turn, probe)
    choices = {first}
    for index in range(1, probe.options):
        choices.add(player(turn, Branch(index)))
    return choices


def immediate_wins(turn: Turn, seat: int) -> set[Cell]:
    as_seat = Turn(turn.owners, seat)
    return {
        cell for cell in GAME.legal_moves(as_seat) if hand_winner(GAME.apply(as_seat, cell)) == seat
    }


def session(seats: Sequence[str], seed: str = "rules") -> Session:
    return Session(SPEC, GameId("tictactoe", GAME.validate({}), seed), seats)


# -- the board and the winning lines ----------------------------------------------------
def test_registered() -> None:
    assert GAMES["tictactoe"] is SPEC
    assert SPEC.game.name == "tictactoe"
    assert GAME.seat_names({}) == ("Cross", "Circle")


def test_winning_cell_sets_are_the_eight_lines() -> None:
    assert len(WINNING_CELL_SETS) == 8
    assert {frozenset(cells) for cells in WINNING_CELL_SETS} == {
        frozenset(line) for line in HAND_WRITTEN_LINES
    }
    assert all(len(cells) == 3 for cells in WINNING_CELL_SETS)


def test_cross_moves_first() -> None:
    turn = start()
    assert GAME.to_move(turn) == CROSS
    assert GAME.status(turn) is Status.PLAYING
    assert sorted(GAME.legal_moves(turn)) == sorted(ALL_CELLS)
    turn = GAME.apply(turn, (1, 1))
    assert owner_of(turn, (1, 1)) == CROSS
    assert GAME.to_move(turn) == CIRCLE
    turn = GAME.apply(turn, (0, 0))
    assert owner_of(turn, (0, 0)) == CIRCLE
    assert GAME.to_move(turn) == CROSS
    assert session(["human", "human"]).to_move == CROSS


def test_start_headline_and_text() -> None:
    observation = GAME.observe(start(), None)
    assert GAME.headline(observation) == "Tic Tac Toe"
    assert GAME.text(observation) == "...\n...\n..."
    assert GAME.scores(start()) == (0, 0)
    assert GAME.winners(start()) == ()


LINES_TO_CHECK = [
    pytest.param(tuple(cells), id=f"data-{i}") for i, cells in enumerate(WINNING_CELL_SETS)
] + [pytest.param(line, id=f"hand-{i}") for i, line in enumerate(HAND_WRITTEN_LINES)]


def other_cells(line: Sequence[Cell], count: int) -> list[Cell]:
    """`count` cells off `line` that do not themselves make a line."""
    rest = [cell for cell in ALL_CELLS if cell not in line]
    for chosen in itertools.combinations(rest, count):
        if not any(set(hand) <= set(chosen) for hand in HAND_WRITTEN_LINES):
            return list(chosen)
    raise AssertionError("no filler cells")


def check_won(turn: Turn, seat: int, line: Sequence[Cell]) -> None:
    assert GAME.status(turn) is Status.WON
    assert GAME.winners(turn) == (seat,)
    assert GAME.to_move(turn) is None
    assert list(GAME.legal_moves(turn)) == []
    assert GAME.scores(turn) == ((1, 0) if seat == CROSS else (0, 1))
    observation = GAME.observe(turn, None)
    assert observation["winner"] == seat
    assert observation["over"] is True
    assert {tuple(cell) for cell in observation["line"]} == set(line)
    assert GAME.headline(observation) == ("Cross wins" if seat == CROSS else "Circle wins")
    # the winner, playing someone else, reads "You win!"; the loser, the spectators and
    # two players sharing one screen read the seed's words
    assert GAME.headline_for(observation, {seat}) == "You win!"
    for seats in ({1 - seat}, set(), {CROSS, CIRCLE}):
        assert GAME.headline_for(observation, seats) == GAME.headline(observation)


@pytest.mark.parametrize("line", LINES_TO_CHECK)
def test_line_wins_for_cross(line: Line) -> None:
    moves = interleave(list(line), other_cells(line, 2))
    turn = start()
    for ply, cell in enumerate(moves):
        assert GAME.status(turn) is Status.PLAYING, f"over too early, at ply {ply}"
        turn = GAME.apply(turn, cell)
    check_won(turn, CROSS, line)


@pytest.mark.parametrize("line", LINES_TO_CHECK)
def test_line_wins_for_circle(line: Line) -> None:
    moves = interleave(other_cells(line, 3), list(line))
    turn = start()
    for ply, cell in enumerate(moves):
        assert GAME.status(turn) is Status.PLAYING, f"over too early, at ply {ply}"
        turn = GAME.apply(turn, cell)
    check_won(turn, CIRCLE, line)


def test_there_are_5478_positions() -> None:
    assert len(reachable()) == 5478


def test_winner_matches_hand_written_lines_everywhere() -> None:
    for turn in reachable():
        found = hand_winner(turn)
        full = all(owner_of(turn, cell) is not None for cell in ALL_CELLS)
        expected = Status.WON if found is not None else Status.DRAW if full else Status.PLAYING
        assert GAME.status(turn) is expected, turn
        assert GAME.winners(turn) == (() if found is None else (found,))
        assert (GAME.to_move(turn) is None) == (expected is not Status.PLAYING)


def test_full_board_without_a_line_is_a_draw() -> None:
    turn = play(DRAW_MOVES)
    assert GAME.status(turn) is Status.DRAW
    assert GAME.to_move(turn) is None
    assert list(GAME.legal_moves(turn)) == []
    assert GAME.winners(turn) == ()
    assert GAME.scores(turn) == (0, 0)
    observation = GAME.observe(turn, None)
    assert observation["line"] is None
    assert GAME.headline(observation) == "Draw Game"
    assert GAME.text(observation) == "XOX\nXOO\nOXX"


def test_win_on_the_last_cell_is_a_win_not_a_draw() -> None:
    # X O X / O X O / O X X  with Cross taking (2, 2) last: the diagonal.
    cross = [(0, 0), (2, 0), (1, 1), (1, 2), (2, 2)]
    circle = [(1, 0), (0, 1), (2, 1), (0, 2)]
    turn = play(interleave(cross, circle))
    check_won(turn, CROSS, ((0, 0), (1, 1), (2, 2)))


# -- refused moves ----------------------------------------------------------------------
def test_no_move_after_the_end() -> None:
    won = play(interleave([(0, 0), (1, 0), (2, 0)], [(0, 1), (1, 1)]))
    assert GAME.status(won) is Status.WON
    for cell in [(2, 2), (0, 2)]:
        with pytest.raises(IllegalMove, match="over"):
            GAME.apply(won, cell)
    with pytest.raises(IllegalMove, match="over"):
        GAME.apply(play(DRAW_MOVES), (0, 0))


def test_a_move_after_the_end_is_refused_saying_the_game_is_over() -> None:
    with pytest.raises(IllegalMove) as refused:
        GAME.apply(play(DRAW_MOVES), (0, 0))
    assert str(refused.value) == "the game is over"


def test_session_refuses_a_move_after_the_end() -> None:
    played = session(["human", "human"])
    for ply, cell in enumerate(interleave([(0, 0), (1, 0), (2, 0)], [(0, 1), (1, 1)])):
        played.play(GAME.move_to_json(cell), ply % 2)
    assert played.status is Status.WON
    line = played.line
    with pytest.raises(GameError, match="over"):
        played.play({"cell": [2, 2]}, CIRCLE)
    assert played.line == line


def test_taken_cell_is_refused() -> None:
    turn = play([(1, 1)])
    with pytest.raises(IllegalMove, match="taken"):
        GAME.apply(turn, (1, 1))
    turn = GAME.apply(turn, (0, 0))
    with pytest.raises(IllegalMove, match=r"^the top left square is taken$"):  # as the list says
        GAME.apply(turn, (0, 0))
    # the refused move changed nothing
    assert GAME.to_move(turn) == CROSS
    assert GAME.text(GAME.observe(turn, None)) == "O..\n.X.\n..."


@pytest.mark.parametrize("cell", [(3, 0), (0, 3), (-1, 0), (0, -1), (3, 3), (-1, -1), (9, 1)])
def test_off_board_cell_is_refused(cell: Cell) -> None:
    with pytest.raises(IllegalMove, match="off the board"):
        GAME.apply(start(), cell)
    with pytest.raises(IllegalMove, match="off the board"):
        GAME.apply(play([(1, 1)]), cell)


def test_session_refuses_moves_out_of_turn() -> None:
    played = session(["human", "human"])
    with pytest.raises(GameError, match="not your turn"):
        played.play({"cell": [0, 0]}, CIRCLE)
    assert played.cursor == 0
    played.play({"cell": [0, 0]}, CROSS)
    with pytest.raises(GameError, match="not your turn"):
        played.play({"cell": [1, 1]}, CROSS)
    with pytest.raises(IllegalMove, match="taken"):
        played.play({"cell": [0, 0]}, CIRCLE)
    assert played.moves == [{"cell": [0, 0]}]


# -- text and JSON ----------------------------------------------------------------------
def test_the_board_tells_a_screen_reader_who_is_to_play() -> None:
    for turn, mover in ((start(), "Cross"), (play([(1, 1)]), "Circle")):
        html = SPEC.render(GAME.observe(turn, None), RenderContext(None, can_move=False))
        assert f'aria-label="Tic Tac Toe board, {mover} to play"' in html


def test_text_is_three_lines_of_marks() -> None:
    turn = play([(2, 0), (0, 1)])
    assert GAME.text(GAME.observe(turn, None)) == "..X\nO..\n..."
    for turn in reachable():
        text = GAME.text(GAME.observe(turn, None))
        rows = text.split("\n")
        assert len(rows) == 3
        for y, row in enumerate(rows):
            assert len(row) == 3
            for x, mark in enumerate(row):
                assert mark == {None: ".", CROSS: "X", CIRCLE: "O"}[owner_of(turn, (x, y))]


def test_move_json_round_trip() -> None:
    for cell in ALL_CELLS:
        data = GAME.move_to_json(cell)
        assert data == {"cell": list(cell)}
        assert GAME.parse_move(json.loads(json.dumps(data))) == cell
    assert GAME.parse_move({"cell": [2, 1]}) == (2, 1)


@pytest.mark.parametrize(
    "data",
    [
        None,
        "b2",
        5,
        [1, 1],
        {},
        {"cell": [1]},
        {"cell": [1, 1, 1]},
        {"cell": "11"},
        {"cell": [1.5, 0]},
        {"cell": ["a", 0]},
        {"cell": None},
        {"cell": [1, 1], "extra": 1},
        {"cel": [1, 1]},
    ],
)
def test_malformed_moves_are_refused(data: object) -> None:
    with pytest.raises(IllegalMove, match="malformed move"):
        GAME.parse_move(data)


def test_session_keeps_moves_in_canonical_json() -> None:
    played = session(["human", "human"])
    assert played.play({"cell": (2, 1)}, CROSS) == {"cell": [2, 1]}
    assert played.line == [{"cell": [2, 1]}]
    for loose in (("2", 1), (2.0, 1), (True, 0)):  # coordinates are whole numbers, not text
        with pytest.raises(IllegalMove, match="malformed"):
            played.play({"cell": loose}, CIRCLE)
    assert owner_of(played.state, (2, 1)) == CROSS


def test_malformed_move_in_a_session_changes_nothing() -> None:
    played = session(["human", "human"])
    with pytest.raises(IllegalMove):
        played.play({"cell": "middle"}, CROSS)
    assert played.cursor == 0
    assert played.line == []
    assert played.state == START


# -- undo -------------------------------------------------------------------------------
def test_undo_at_the_start_does_nothing() -> None:
    played = session(["human", "ai:perfect"])
    state, line, cursor = played.state, played.line, played.cursor
    with pytest.raises(GameError, match="nothing to undo"):
        played.undo({CROSS})
    assert (played.state, played.line, played.cursor) == (state, line, cursor)
    assert played.assisted is False


def test_undo_against_the_ai_goes_back_to_the_humans_turn() -> None:
    played = session(["human", "ai:perfect"])
    played.play({"cell": [0, 0]}, CROSS)
    played.play(played.choose_ai_move(), CIRCLE)
    after_one_round = played.state
    empty = next(cell for cell in ALL_CELLS if owner_of(played.state, cell) is None)
    played.play(GAME.move_to_json(empty), CROSS)
    played.play(played.choose_ai_move(), CIRCLE)
    assert played.cursor == 4
    played.undo({CROSS})
    assert played.cursor == 2
    assert played.state == after_one_round
    assert played.to_move == CROSS
    played.undo({CROSS})
    assert played.cursor == 0
    assert played.state == START
    assert played.to_move == CROSS
    assert len(played.line) == 4  # the redo line is kept
    played.redo({CROSS})
    assert played.cursor == 2
    assert played.state == after_one_round


def test_undo_when_the_ai_is_cross() -> None:
    played = session(["ai:perfect", "human"])
    played.play(played.choose_ai_move(), CROSS)
    with pytest.raises(GameError, match="nothing to undo"):
        played.undo({CIRCLE})
    assert played.cursor == 1
    empty = next(cell for cell in ALL_CELLS if owner_of(played.state, cell) is None)
    played.play(GAME.move_to_json(empty), CIRCLE)
    played.play(played.choose_ai_move(), CROSS)
    played.undo({CIRCLE})
    assert played.cursor == 1
    assert played.to_move == CIRCLE


# -- the computer players ---------------------------------------------------------------
def test_the_value_table_agrees_with_a_direct_search() -> None:
    table = tables.get(solver.VALUES)
    assert len(table) == len(reachable()) == 5478
    for turn in reachable():
        assert table[solver.position_key(turn)] == solve_soonest(turn), turn
        assert solver.value(turn) == solve_soonest(turn)
        assert (solve_soonest(turn) > 0) - (solve_soonest(turn) < 0) == solve(turn)


def test_the_value_table_is_kept_and_read_back() -> None:
    tables.get(solver.VALUES)
    assert tables.ready(solver.VALUES)
    assert tables.path(solver.VALUES).is_file()
    tables.forget(solver.VALUES)
    assert tables.ready(solver.VALUES)  # from the file now
    assert solver.value(start()) == 0  # perfect play from the start is a draw


def explore(player: Any, ai_seat: int, turn: Turn, seen: set[Turn]) -> list[Turn]:
    """Every game where the opponent tries every move and `player` any choice it may make;
    returns the final positions `player` lost."""
    if turn in seen:
        return []
    seen.add(turn)
    if GAME.status(turn) is not Status.PLAYING:
        return [turn] if hand_winner(turn) == 1 - ai_seat else []
    if turn.player == ai_seat:
        moves = all_choices(player, turn)
        assert moves <= set(GAME.legal_moves(turn))
    else:
        moves = set(GAME.legal_moves(turn))
    losses: list[Turn] = []
    for cell in moves:
        losses += explore(player, ai_seat, GAME.apply(turn, cell), seen)
    return losses


@pytest.mark.parametrize("ai_seat", [CROSS, CIRCLE], ids=["as-cross", "as-circle"])
def test_perfect_never_loses(ai_seat: int) -> None:
    seen: set[Turn] = set()
    losses = explore(ai.perfect, ai_seat, start(), seen)
    assert losses == []
    assert len(seen) > 100  # the opponent's whole tree was searched


@pytest.mark.parametrize("ai_seat", [CROSS, CIRCLE], ids=["as-cross", "as-circle"])
def test_the_search_finds_losses_of_a_weak_player(ai_seat: int) -> None:
    """The same exhaustive search does catch a player that can lose."""
    assert explore(ai.random_move, ai_seat, start(), set()) != []


def test_perfect_plays_only_optimal_moves() -> None:
    for turn in playing_positions():
        for cell in all_choices(ai.perfect, turn):
            assert -solve(GAME.apply(turn, cell)) == solve(turn), (turn, cell)


def test_perfect_takes_an_immediate_win() -> None:
    checked = 0
    for turn in playing_positions():
        wins = immediate_wins(turn, turn.player)
        if wins:
            checked += 1
            assert all_choices(ai.perfect, turn) <= wins, turn
    assert checked > 100
    # X X . / O O . / . . .  : Cross takes (2, 0) rather than block or wander.
    turn = play(interleave([(0, 0), (1, 0)], [(0, 1), (1, 1)]))
    for seed in range(20):
        assert ai.perfect(turn, random.Random(seed)) == (2, 0)


def test_perfect_opens_where_most_replies_lose() -> None:
    """Every opening draws; a corner leaves Circle seven losing replies of eight (only the
    centre holds), the centre four and an edge fewer: perfect opens in a corner."""
    assert all_choices(ai.perfect, start()) == {(0, 0), (2, 0), (0, 2), (2, 2)}


def quiet_positions(level: Any) -> list[Turn]:
    """Every position in play where neither player can win at once, `level` checked on
    the others (more than a hundred blocks among them): it takes a win, else blocks."""
    quiet, blocks = [], 0
    for turn in playing_positions():
        choices = all_choices(level, turn)
        wins = immediate_wins(turn, turn.player)
        threats = immediate_wins(turn, 1 - turn.player)
        if wins:
            assert choices <= wins, turn
        elif threats:
            blocks += 1
            assert choices <= threats, turn
        else:
            quiet.append(turn)
    assert blocks > 100
    return quiet


def test_medium_takes_wins_and_blocks() -> None:
    for turn in quiet_positions(ai.medium):  # otherwise it plays anywhere
        assert all_choices(ai.medium, turn) == set(GAME.legal_moves(turn))
    # X X . / O . . / . . .  with Circle to move: Circle blocks at (2, 0).
    turn = play([(0, 0), (0, 1), (1, 0)])
    assert all_choices(ai.medium, turn) == {(2, 0)}
    # X X . / O O . / X . .  with Circle to move: Circle wins at (2, 1) instead of blocking.
    turn = play([(0, 0), (0, 1), (1, 0), (1, 1), (0, 2)])
    assert all_choices(ai.medium, turn) == {(2, 1)}


def chances(player: Any, turn: Turn) -> dict[Cell, float]:
    """How likely `player` is to make each move in `turn` (its one `choice`, uniform)."""
    probe = Branch(0)
    player(turn, probe)
    counted: dict[Cell, float] = {}
    for index in range(probe.options):
        cell = player(turn, Branch(index))
        counted[cell] = counted.get(cell, 0.0) + 1 / probe.options
    return counted


def test_hard_never_misses_a_win_or_a_block_and_slips_one_quiet_move_in_four() -> None:
    quiet = quiet_positions(ai.hard)
    for turn in quiet:
        odds = chances(ai.hard, turn)
        legal, best = set(GAME.legal_moves(turn)), set(solver.best_moves(turn))
        assert set(odds) == legal  # a slip may be any move
        off_best = sum(p for cell, p in odds.items() if cell not in best)
        assert off_best == pytest.approx(len(legal - best) / len(legal) / ai.SLIPS), turn
    assert len(quiet) > 100


def test_random_plays_only_legal_moves() -> None:
    for turn in playing_positions():
        legal = set(GAME.legal_moves(turn))
        assert all_choices(ai.random_move, turn) == legal
        for seed in range(3):
            assert ai.random_move(turn, random.Random(seed)) in legal
    seen = {ai.random_move(start(), random.Random(seed)) for seed in range(300)}
    assert seen == set(ALL_CELLS)


def test_ai_levels() -> None:
    assert set(SPEC.ai_levels) == {"random", "medium", "hard", "perfect"}
    assert SPEC.ai_levels["perfect"] is ai.perfect


def test_session_ai_moves_are_legal_and_reproducible() -> None:
    for level in SPEC.ai_levels:
        first = session(["human", f"ai:{level}"], seed="repro")
        second = session(["human", f"ai:{level}"], seed="repro")
        for played in (first, second):
            played.play({"cell": [1, 1]}, CROSS)
        reply = first.choose_ai_move()
        assert reply == second.choose_ai_move()
        assert GAME.parse_move(reply) in GAME.legal_moves(first.state)
        first.play(reply, CIRCLE)
        with pytest.raises(GameError, match="no AI"):
            first.choose_ai_move()


# -- hints ------------------------------------------------------------------------------
def test_a_hint_says_what_the_move_leads_to_as_a_player_would() -> None:
    assert solver.VERDICTS == {
        1: "Play here to win",
        0: "Play here to hold the draw: with best play on both sides, nobody wins",
        -1: "Every move loses against best play; this one holds out longest",
    }


def test_hint_suggests_an_optimal_move() -> None:
    for turn in playing_positions():
        found = solver.hint(turn, turn.player)
        assert found is not None
        cell = GAME.parse_move(found.move)
        assert cell in GAME.legal_moves(turn)
        assert -solve(GAME.apply(turn, cell)) == solve(turn), (turn, cell)
        assert found.note == solver.VERDICTS[solve(turn)]
        assert solver.hint(turn, 1 - turn.player) is None


def test_hint_at_the_start_is_the_centre_and_none_after_the_end() -> None:
    found = solver.hint(start(), CROSS)
    assert found is not None
    assert found.move == {"cell": [1, 1]}
    assert solver.hint(play(DRAW_MOVES), CROSS) is None
    assert solver.hint(play(DRAW_MOVES), CIRCLE) is None


def test_session_hint_marks_assisted() -> None:
    played = session(["human", "ai:perfect"])
    assert played.assisted is False
    found = played.hint(CROSS)
    assert played.assisted is True
    assert played.hints[CROSS] == found
    played.play(found.move, CROSS)
    assert played.hints == {}
    assert played.assisted is True
