"""Minesweeper rules from seed 004, and what Parlour adds (chording, first-click options)."""

from __future__ import annotations

import hashlib
import random

import pytest

from parlour.core.game import BadParams, IgnoredMove, IllegalMove, Status, UndoRule
from parlour.core.gameid import parse_game_id
from parlour.games.minesweeper.grid import counts_of
from parlour.games.minesweeper.logic import (
    FLAG,
    HIDDEN,
    OPEN,
    PRESETS,
    QUESTION,
    Minefield,
    Minesweeper,
    three_bv,
)

GAME = Minesweeper()


def field(picture: str, first_click: str = "safe", started: bool = True) -> Minefield:
    """A started board from a picture: `*` is a mine, anything else is free."""
    lines = picture.split()
    rows, cols = len(lines), len(lines[0])
    mined = frozenset(r * cols + c for r, line in enumerate(lines) for c, ch in enumerate(line)
                      if ch == "*")
    return Minefield(
        rows=rows, cols=cols, mines=len(mined), first_click=first_click, mined=mined,
        counts=counts_of(rows, cols, mined), marks=(HIDDEN,) * (rows * cols),
        first_seed=7, started=started,
    )


def text(state: Minefield) -> str:
    return GAME.text(GAME.observe(state, 0))


def test_counts_are_the_mines_around_each_cell() -> None:
    state = field("*.. .*. ...")
    assert state.counts == (1, 2, 1, 2, 1, 1, 1, 1, 1)


def test_opening_a_zero_floods_to_the_numbers_around_it() -> None:
    state = field("..... ..... ..... ...** ...*.")
    opened = GAME.apply(state, ("open", 0, 0))
    assert text(opened) == "\n".join([".....", ".....", "..122", "..2##", "..2##"])
    assert GAME.status(opened) is Status.PLAYING


def test_opening_a_number_opens_only_that_cell() -> None:
    state = GAME.apply(field("*.. ... ..."), ("open", 0, 1))
    assert text(state) == "#1#\n###\n###"


def test_flood_fill_stops_at_flags() -> None:
    state = field("... ... ..*")
    state = GAME.apply(state, ("mark", 0, 2))
    state = GAME.apply(state, ("open", 0, 0))
    assert text(state).splitlines()[0] == "..F"


def test_mark_cycles_flag_question_none() -> None:
    state = field("*.. ... ...")
    marks = []
    for _ in range(3):
        state = GAME.apply(state, ("mark", 2, 2))
        marks.append(state.marks[8])
    assert marks == [FLAG, QUESTION, HIDDEN]


def test_open_cells_ignore_marks_and_flagged_cells_do_not_open() -> None:
    state = GAME.apply(field("*.. ... ..."), ("open", 0, 1))
    with pytest.raises(IllegalMove, match="open cell"):
        GAME.apply(state, ("mark", 0, 1))
    with pytest.raises(IllegalMove, match="already open"):
        GAME.apply(state, ("open", 0, 1))
    state = GAME.apply(field("*.. ... ..."), ("mark", 0, 0))
    with pytest.raises(IllegalMove, match="flagged"):
        GAME.apply(state, ("open", 0, 0))


def test_question_marked_cells_open() -> None:
    state = field("*.. ... ...")
    state = GAME.apply(GAME.apply(state, ("mark", 0, 1)), ("mark", 0, 1))
    assert state.marks[1] == QUESTION
    assert GAME.apply(state, ("open", 0, 1)).marks[1] == OPEN


def test_win_when_every_free_cell_is_open() -> None:
    state = GAME.apply(field("*.. ... ..."), ("open", 2, 2))
    assert GAME.status(state) is Status.WON
    assert GAME.to_move(state) is None
    assert text(state) == "F1.\n11.\n..."  # a win flags the mines, as Windows' does
    with pytest.raises(IllegalMove, match="over"):
        GAME.apply(state, ("open", 0, 0))


def test_a_won_board_flags_every_mine_and_counts_none_left() -> None:
    state = field("*.* ... *..")
    state = GAME.apply(state, ("mark", 0, 0))  # one flagged by the player, two not
    assert GAME.observe(state, 0)["mines_left"] == 2
    for row, col in ((0, 1), (1, 0), (1, 1), (1, 2), (2, 1), (2, 2)):
        state = GAME.apply(state, ("open", row, col))
    observation = GAME.observe(state, 0)
    assert GAME.status(state) is Status.WON
    assert observation["cells"] == ["F2F", "231", "F1."]
    assert observation["mines_left"] == 0
    assert GAME.headline_for(observation, {0}) == "You win! Board cleared"
    assert GAME.headline_for(GAME.observe(state, None), set()) == "Board cleared"  # watched


def test_a_lost_board_shows_the_mines_and_keeps_the_counter() -> None:
    state = GAME.apply(field("*.* ... ..."), ("mark", 0, 2))
    state = GAME.apply(state, ("open", 0, 0))
    observation = GAME.observe(state, 0)
    assert observation["cells"][0] == "X#F"
    assert observation["mines_left"] == 1
    assert GAME.headline(observation) == "Game over: a mine"


@pytest.mark.parametrize(("move", "reason"), [
    (("open", 0, 1), "row 1, column 2 is already open"),
    (("open", 2, 2), "row 3, column 3 is flagged"),
    (("chord", 0, 1), "row 1, column 2 has 0 flags around it, not 1: nothing to chord"),
])
def test_refusals_name_cells_as_players_count_them(move: tuple[str, int, int],
                                                     reason: str) -> None:
    state = GAME.apply(field("*.. ... ..*"), ("open", 0, 1))
    state = GAME.apply(state, ("mark", 2, 2))
    with pytest.raises(IllegalMove, match=reason):
        GAME.apply(state, move)  # type: ignore[arg-type]


def test_loss_shows_every_mine_the_fatal_one_and_wrong_flags() -> None:
    state = field("*.* ... ...")
    state = GAME.apply(state, ("mark", 0, 2))  # right flag
    state = GAME.apply(state, ("mark", 2, 2))  # wrong flag
    assert text(state) == "##F\n###\n##F"  # nothing given away while playing
    state = GAME.apply(state, ("open", 0, 0))
    assert GAME.status(state) is Status.LOST
    assert text(state) == "X#F\n###\n##!"
    assert GAME.legal_moves(state) == ()


def test_hidden_mines_never_appear_in_the_observation_while_playing() -> None:
    state = GAME.apply(field("*.. ... ..*"), ("open", 0, 2))
    assert "*" not in str(GAME.observe(state, 0))


@pytest.mark.parametrize("seed", range(30))
def test_a_safe_first_click_is_never_a_mine(seed: int) -> None:
    params = GAME.validate({"rows": 4, "cols": 4, "mines": 14, "first_click": "safe"})
    state = GAME.deal(params, random.Random(seed))
    clicked = sorted(state.mined)[0]  # click a cell that holds a mine
    row, col = divmod(clicked, state.cols)
    after = GAME.apply(state, ("open", row, col))
    assert clicked not in after.mined
    assert len(after.mined) == 14
    assert GAME.status(after) is not Status.LOST
    # the seed's rule: only the clicked mine moves
    assert len(after.mined - state.mined) == 1


@pytest.mark.parametrize("seed", range(30))
def test_opening_first_click_clears_the_cell_and_its_neighbours(seed: int) -> None:
    params = GAME.validate({"rows": 6, "cols": 6, "mines": 20, "first_click": "opening"})
    state = GAME.deal(params, random.Random(seed))
    after = GAME.apply(state, ("open", 2, 3))
    area = {r * 6 + c for r in (1, 2, 3) for c in (2, 3, 4)}
    assert not after.mined & area
    assert len(after.mined) == 20
    assert after.counts[2 * 6 + 3] == 0


def test_first_click_rearranges_only_once() -> None:
    state = GAME.deal(GAME.validate({"rows": 5, "cols": 5, "mines": 20, "first_click": "safe"}),
                      random.Random(3))
    safe = next(c for c in range(25) if c not in state.mined)
    after_first = GAME.apply(state, ("open", *divmod(safe, 5)))
    mine = sorted(after_first.mined)[0]
    after_second = GAME.apply(after_first, ("open", *divmod(mine, 5)))
    assert GAME.status(after_second) is Status.LOST


def test_chord_opens_the_other_neighbours_when_flags_match() -> None:
    state = GAME.apply(field("*.. ... ..."), ("open", 1, 1))
    with pytest.raises(IllegalMove, match="chord"):
        GAME.apply(state, ("chord", 1, 1))  # no flag yet
    state = GAME.apply(state, ("mark", 0, 0))
    state = GAME.apply(state, ("chord", 1, 1))
    assert GAME.status(state) is Status.WON


def test_chord_with_a_wrong_flag_hits_the_mine() -> None:
    state = GAME.apply(field("*.. ... ..."), ("open", 1, 1))
    state = GAME.apply(state, ("mark", 0, 1))
    state = GAME.apply(state, ("chord", 1, 1))
    assert GAME.status(state) is Status.LOST
    assert state.exploded == 0
    assert text(state).startswith("X!")


def test_chord_is_refused_with_more_flags_than_its_number() -> None:
    state = GAME.apply(field("*.. ... ..."), ("open", 1, 1))  # a 1
    state = GAME.apply(GAME.apply(state, ("mark", 0, 0)), ("mark", 0, 1))  # two flags
    with pytest.raises(IgnoredMove, match="has 2 flags around it, not 1: nothing to chord"):
        GAME.apply(state, ("chord", 1, 1))


def test_a_number_that_cannot_chord_is_passed_over_quietly() -> None:
    """Fast players click finished numbers, and numbers not yet ready, all the time:
    as in Google's Minesweeper or minesweeper.online, nothing happens (an IgnoredMove,
    which the page shows no error for), with a short reason for a player who asks."""
    one = GAME.apply(field("*.. ... ..."), ("open", 1, 1))
    with pytest.raises(IgnoredMove) as too_few:
        GAME.apply(one, ("chord", 1, 1))
    assert str(too_few.value) == "row 2, column 2 has 0 flags around it, not 1: nothing to chord"
    finished = GAME.apply(field("*.. ... ..*"), ("mark", 0, 0))
    finished = GAME.apply(GAME.apply(finished, ("open", 0, 2)), ("open", 1, 0))
    assert text(finished).splitlines() == ["F1.", "121", "###"]
    with pytest.raises(IgnoredMove) as done:
        GAME.apply(finished, ("chord", 0, 1))
    assert str(done.value) == (
        "row 1, column 2 has no closed cell left around it: nothing to chord")


def test_a_mine_opened_with_one_safe_cell_left_is_a_loss_with_its_mines_still_to_find(
) -> None:
    state = GAME.apply(field("*.* ... ..."), ("open", 2, 1))  # opens the two lower rows
    assert text(state) == "###\n121\n..."
    state = GAME.apply(state, ("open", 0, 0))  # (0, 1) was the last safe cell
    assert GAME.status(state) is Status.LOST
    assert not state.won()
    assert GAME.observe(state, 0)["mines_left"] == 2  # no flag placed: two to find


def test_undo_of_the_fatal_click_is_assisted_and_other_undos_are_not() -> None:
    state = field("*.. ... ...")
    safe = GAME.apply(state, ("open", 2, 2))
    assert GAME.undo_rule(state, ("open", 2, 2), safe) is UndoRule.ALLOWED
    lost = GAME.apply(state, ("open", 0, 0))
    assert GAME.undo_rule(state, ("open", 0, 0), lost) is UndoRule.ASSISTED


@pytest.mark.parametrize(
    ("preset", "size"),
    [("easy", (7, 7, 10)), ("medium", (15, 15, 40)), ("hard", (15, 30, 99)),
     ("beginner", (9, 9, 10)), ("intermediate", (16, 16, 40)), ("expert", (16, 30, 99))],
)
def test_presets(preset: str, size: tuple[int, int, int]) -> None:
    params = GAME.validate(GAME.presets[preset])
    state = GAME.deal(params, random.Random(1))
    assert (state.rows, state.cols, state.mines) == size
    assert len(state.mined) == size[2]
    assert GAME.preset_of(params) == preset


@pytest.mark.parametrize(
    ("params", "reason"),
    [
        ({"rows": 3, "cols": 3, "mines": 8, "first_click": "safe"},
         "^8 mines do not fit a 3×3 board: at most 7$"),
        ({"rows": 4, "cols": 4, "mines": 7},
         r"^7 mines do not fit a 4×4 board \(the first click keeps up to nine cells clear\): "
         "at most 6$"),
        ({"rows": 3, "cols": 3, "mines": 1},
         r"^1 mine does not fit a 3×3 board \(the first click keeps up to nine cells clear\): "
         "choose a safe first click or a larger board$"),
        ({"rows": 2, "cols": 5, "mines": 1},  # the opening fills all but one cell
         r"^1 mine does not fit a 2×5 board \(the first click keeps up to nine cells clear\): "
         "choose a safe first click or a larger board$"),
        ({"rows": 1, "cols": 5, "mines": 1}, "at least 2"),
        ({"rows": 5, "cols": 5, "mines": 0}, "at least 1"),
        ({"rows": "many", "cols": 5, "mines": 1}, "whole number"),
        ({"first_click": "lucky"}, "one of"),
    ],
)
def test_custom_sizes_are_validated(params: dict[str, object], reason: str) -> None:
    with pytest.raises(BadParams, match=reason):
        GAME.validate(params)


def test_moves_as_json() -> None:
    for move in (("open", 1, 2), ("mark", 0, 0), ("unmark", 0, 0), ("chord", 3, 4)):
        assert GAME.parse_move(GAME.move_to_json(move)) == move
    for bad in ({}, {"open": [1]}, {"open": [1, 2], "mark": [1, 2]},
                {"mark": [1, 2], "unmark": [1, 2]}, {"dig": [1, 2]}):
        with pytest.raises(IllegalMove, match="malformed"):
            GAME.parse_move(bad)
    with pytest.raises(IllegalMove, match="off the board"):
        GAME.apply(field("*.. ... ..."), ("open", 3, 0))


def test_three_bv_counts_openings_and_lonely_numbers() -> None:
    # one opening (with its border) plus the numbers not on any opening's border
    assert three_bv(field("..... ..... ..... ...** ...*.")) == 1 + 1
    assert three_bv(field("*.* ... *.*")) == 5


def test_figures_report_3bv_speed_and_efficiency() -> None:
    state = GAME.apply(field("*.. ... ..."), ("open", 2, 2))
    figures = GAME.figures(state, elapsed_ms=2000, moves=1)
    assert figures == {"3BV": 1, "3BV/s": 0.5, "efficiency": 1.0}


def test_a_lost_game_has_its_boards_3bv_but_no_speed_or_efficiency() -> None:
    state = GAME.apply(field("*.. ... ..."), ("open", 0, 1))
    state = GAME.apply(state, ("open", 0, 0))
    assert GAME.status(state).value == "lost"
    assert GAME.figures(state, elapsed_ms=2000, moves=2) == {"3BV": three_bv(state)}


def test_a_board_with_two_openings_takes_a_click_for_each() -> None:
    assert three_bv(field("..*.. ..*.. ..*..")) == 2  # mines down the middle, one each side


def test_unmark_clears_a_flag_or_a_question_mark_at_once() -> None:
    """The second action of a player who marks with flags alone (the Marks option)."""
    state = GAME.apply(field("*.. ... ..."), ("mark", 0, 0))
    assert state.marks[0] == FLAG and state.flags() == 1
    cleared = GAME.apply(state, ("unmark", 0, 0))
    assert cleared.marks[0] == HIDDEN and cleared.flags() == 0
    assert cleared.clicks == 2  # a click, as a mark is
    question = GAME.apply(state, ("mark", 0, 0))
    assert question.marks[0] == QUESTION
    assert GAME.apply(question, ("unmark", 0, 0)).marks[0] == HIDDEN
    opened = GAME.apply(state, ("open", 1, 1))  # a 1: nothing else opens
    for where in ((2, 2), (1, 1)):  # a closed cell with no mark, an open one
        with pytest.raises(IllegalMove, match="only a flag or a question mark"):
            GAME.apply(opened, ("unmark", *where))


def test_every_click_counts_towards_efficiency_and_speed_is_per_second() -> None:
    state = field("..*.. ..*.. ..*..")
    state = GAME.apply(state, ("mark", 0, 2))  # a flag is a click too
    state = GAME.apply(state, ("open", 0, 0))
    state = GAME.apply(state, ("open", 0, 4))
    assert state.clicks == 3
    assert GAME.figures(state, elapsed_ms=3000, moves=3) == {
        "3BV": 2, "3BV/s": 0.667, "efficiency": 0.667}
    assert GAME.figures(state, elapsed_ms=500, moves=3)["3BV/s"] == 2.0  # at least a second


def test_the_moves_open_to_a_player() -> None:
    state = GAME.apply(field("*.. ..."), ("open", 1, 2))
    assert text(state) == "#1.\n#1."
    # closed cells are marked or opened; an open number without its flags is not chorded
    assert GAME.legal_moves(state) == [
        ("mark", 0, 0), ("open", 0, 0), ("mark", 1, 0), ("open", 1, 0)]
    # a flag is marked again (to ?) or cleared, not opened
    state = GAME.apply(state, ("mark", 0, 0))
    assert GAME.legal_moves(state) == [("mark", 0, 0), ("unmark", 0, 0), ("chord", 0, 1),
                                       ("mark", 1, 0), ("open", 1, 0), ("chord", 1, 1)]
    assert GAME.legal_moves(GAME.apply(state, ("open", 1, 0))) == ()  # won


def test_a_closed_cell_cannot_be_chorded_even_with_its_flags_around_it() -> None:
    """No click of the page sends it (a closed cell's click opens it): a plain refusal."""
    state = GAME.apply(field("*.. ... ..."), ("mark", 0, 0))
    with pytest.raises(IllegalMove) as refused:
        GAME.apply(state, ("chord", 1, 1))
    assert not isinstance(refused.value, IgnoredMove)
    assert str(refused.value) == "row 2, column 2 cannot be chorded: only an open number can"


def test_an_open_cell_cannot_be_marked() -> None:
    state = GAME.apply(field("*.. ... ..."), ("open", 0, 1))
    with pytest.raises(IllegalMove) as refused:
        GAME.apply(state, ("mark", 0, 1))
    assert str(refused.value) == "an open cell cannot be marked"


LAID = {"rows": 3, "cols": 3, "mines": 2, "first_click": "safe"}


def test_a_mine_layout_given_in_hex_is_played_as_laid() -> None:
    # 3x3 cells as 9 bits, padded to 3 hex digits: 1000 0000 1000 -> cells 0 and 8
    state = GAME.parse_position(LAID, "808")
    assert (state.rows, state.cols, state.mines) == (3, 3, 2)
    assert state.mined == {0, 8} and state.started and state.first_click == "safe"
    assert state.counts == counts_of(3, 3, frozenset({0, 8}))
    assert text(state) == "###\n###\n###"
    assert GAME.parse_position(LAID, "C00").mined == {0, 1}  # capitals are hex digits too
    lost = GAME.apply(state, ("open", 0, 0))  # no first-click rule moves a laid mine
    assert GAME.status(lost) is Status.LOST


@pytest.mark.parametrize(("layout", "reason"), [
    ("80", "a 3x3 mine layout is 3 hex digits (9 cells as bits)"),
    ("8g8", "a 3x3 mine layout is 3 hex digits (9 cells as bits)"),
    ("800", "the layout has 1 mines, not 2"),
])
def test_a_mine_layout_that_does_not_fit_the_board_is_refused(layout: str, reason: str) -> None:
    with pytest.raises(BadParams) as refused:
        GAME.parse_position(LAID, layout)
    assert str(refused.value) == reason


@pytest.mark.parametrize(("params", "summary"), [
    ({}, "Easy 7×7"),
    ({"rows": 16, "cols": 30, "mines": 99}, "Expert 16×30"),
    ({"rows": 10, "cols": 12, "mines": 20}, "Custom 10×12, 20 mines"),
    ({"rows": 10, "cols": 12, "mines": 20, "first_click": "safe"},
     "Custom 10×12, 20 mines, safe first click"),
    ({"rows": 15, "cols": 15, "mines": 40, "first_click": "no_guess"}, "Medium 15×15, no guess"),
    ({"first_click": "no_guess"}, "Easy 7×7, no guess"),
])
def test_a_game_is_summed_up_by_its_board_and_first_click(
    params: dict[str, object], summary: str,
) -> None:
    assert GAME.summary(GAME.validate(params)) == summary


@pytest.mark.parametrize("seed", range(5))
def test_a_no_guess_first_click_opens_an_area(seed: int) -> None:
    state = GAME.deal(GAME.validate({"first_click": "no_guess"}), random.Random(seed))
    opened = GAME.apply(state, ("open", 3, 3))
    assert opened.counts[3 * 7 + 3] == 0 and opened.opened > 1


def test_the_same_first_click_on_the_same_deal_moves_the_mines_the_same_way() -> None:
    state = GAME.deal(GAME.validate({}), random.Random(4))
    mine = min(state.mined)
    row, col = divmod(mine, state.cols)
    first, again = (GAME.apply(state, ("open", row, col)) for _ in range(2))
    assert mine not in first.mined
    assert first.mined == again.mined  # a replay of the game finds the same board


def test_the_documented_mine_layout_reads_as_its_example_says() -> None:
    # "minesweeper:rows=2,cols=4,mines=3:e0": 1110 0000, mines on the first three cells
    laid = GAME.parse_position({"rows": 2, "cols": 4, "mines": 3, "first_click": "safe"}, "e0")
    assert laid.mined == {0, 1, 2}
    assert GAME.parse_position(LAID, "c00").mined == {0, 1}  # lower case too
    with pytest.raises(BadParams):
        GAME.parse_position(LAID, "8X8")


def test_speed_is_3bv_per_second_of_play() -> None:
    state = field("..*.. ..*.. ..*..")
    state = GAME.apply(GAME.apply(state, ("open", 0, 0)), ("open", 0, 4))
    assert GAME.figures(state, elapsed_ms=2000, moves=2)["3BV/s"] == 1.0


# -- what the player is told ---------------------------------------------------------------
def test_a_question_mark_reads_as_one_until_the_cell_is_opened() -> None:
    state = GAME.apply(GAME.apply(field("*.. ... ..."), ("mark", 2, 2)), ("mark", 2, 2))
    assert text(state) == "###\n###\n##?"


def test_a_finished_board_takes_no_move_and_says_so() -> None:
    lost = GAME.apply(field("*.. ... ..."), ("open", 0, 0))
    for move in (("open", 1, 1), ("mark", 1, 1), ("chord", 1, 1)):
        with pytest.raises(IllegalMove, match=r"^the game is over$"):
            GAME.apply(lost, move)


def test_a_cell_one_past_the_last_row_or_column_is_off_the_board() -> None:
    state = field("*... .... ....")
    for row, col in ((0, 4), (3, 0), (-1, 0), (0, -1)):
        with pytest.raises(IllegalMove, match=rf"^cell \[{row}, {col}\] is off the board "
                                              r"\(3 rows, 4 columns\)$"):
            GAME.apply(state, ("open", row, col))
    GAME.apply(state, ("open", 2, 3))  # the last cell is on it


def test_while_playing_the_headline_is_the_board_and_its_first_click_rule() -> None:
    def headline(state: Minefield) -> str:
        return GAME.headline(GAME.observe(state, 0))

    assert headline(field("*.. ... ...")) == "3×3, 1 mine, safe first click"
    assert headline(field("*.* ... ...", first_click="opening")) == "3×3, 2 mines"
    expert = GAME.deal(GAME.validate({**PRESETS["expert"], "first_click": "no_guess"}),
                       random.Random(1))
    assert headline(expert) == "Expert, no guess"
    assert GAME.summary(GAME.validate({"rows": 4, "cols": 4, "mines": 1})) == "Custom 4×4, 1 mine"


def test_statistics_group_boards_by_preset_and_first_click_rule() -> None:
    assert GAME.stat_group(GAME.validate(PRESETS["medium"])) == "medium"
    assert GAME.stat_group(GAME.validate({"rows": 5, "cols": 6, "mines": 4,
                                          "first_click": "safe"})) == "custom, safe first click"


@pytest.mark.parametrize("first_click", ["opening", "safe", "no_guess"])
def test_only_a_no_guess_board_is_laid_by_the_solver_at_its_first_click(first_click: str) -> None:
    no_guess = first_click == "no_guess"
    params = GAME.validate({**PRESETS["easy"], "first_click": first_click})
    assert not GAME.slow_deal(params)  # no mines yet: dealt at once, in place
    assert not GAME.slow_replay(params, 0)
    assert GAME.slow_replay(params, 1) is no_guess  # its replay lays the mines again
    state = GAME.deal(params, random.Random(3))
    assert GAME.slow_move(state, ("open", 3, 3)) is no_guess
    assert not GAME.slow_move(state, ("mark", 3, 3))
    started = GAME.apply(state, ("open", 3, 3))
    if not started.over():
        closed = next(divmod(c, 7) for c, mark in enumerate(started.marks) if mark != OPEN)
        assert not GAME.slow_move(started, ("open", *closed))


def test_marks_sound_a_flag_one_cell_a_click_and_more_cells_a_reveal() -> None:
    state = field("*. ..")  # every free cell is a 1
    flagged = GAME.apply(state, ("mark", 0, 0))
    assert GAME.sound(state, ("mark", 0, 0), flagged) == "flag"
    one = GAME.apply(flagged, ("open", 1, 1))
    assert GAME.sound(flagged, ("open", 1, 1), one) == "move"
    another = GAME.apply(one, ("open", 0, 1))
    assert GAME.sound(one, ("open", 0, 1), another) == "move"
    two = GAME.apply(one, ("chord", 1, 1))  # opens the other two cells
    assert two.opened - one.opened == 2
    assert GAME.sound(one, ("chord", 1, 1), two) == "reveal"


def test_a_script_can_tell_whether_the_first_click_is_still_to_come() -> None:
    """Before it, the first click's rule may still move the mines."""
    state = GAME.deal(GAME.validate(PRESETS["easy"]), random.Random(5))
    assert GAME.observe(state, 0)["started"] is False
    assert GAME.observe(GAME.apply(state, ("open", 3, 3)), 0)["started"] is True


@pytest.mark.parametrize(
    ("game_id", "dealt", "after_first_click"),
    [
        ("minesweeper:expert#dealsstay", "10d9b0ceecc7f8b7", "10d9b0ceecc7f8b7"),
        ("minesweeper@2:expert#dealsstay", "7794e90620803dd5", "39f258694c39552f"),
    ],
)
def test_an_id_deals_the_same_mines_in_every_release(game_id: str, dealt: str,
                                                     after_first_click: str) -> None:
    """A saved game is its id and its moves: the mines it deals, and where the first click
    moves them, are written here as they were first dealt (digests of the mined cells)."""
    def digest(mined: frozenset[int]) -> str:
        return hashlib.sha256(",".join(map(str, sorted(mined))).encode()).hexdigest()[:16]

    state = parse_game_id(GAME, game_id).deal(GAME)
    assert digest(state.mined) == dealt
    assert digest(GAME.apply(state, ("open", 8, 15)).mined) == after_first_click
