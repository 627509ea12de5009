"""Ishido rules: the seed's (000) and the 1990 original's, on hand-made boards."""

from __future__ import annotations

import pickle
import random
from collections import Counter

import pytest

from parlour.core.game import IllegalMove, Status, UndoRule
from parlour.games.ishido.logic import (
    COLS,
    END_BONUS,
    FOUR_WAY_BONUS,
    KINDS,
    OPENING_CELLS,
    ROWS,
    Board,
    Ishido,
    _neighbour_table,
    colour,
    fits,
    glyph,
    valid_cells,
)

GAME = Ishido()


def tile(c: int, g: int) -> int:
    return c * KINDS + g


def board(placed: dict[tuple[int, int], int], pouch: list[int], rules: str = "seed",
          **extra: int) -> Board:
    cells: list[int | None] = [None] * (COLS * ROWS)
    for (col, row), t in placed.items():
        cells[row * COLS + col] = t
    return Board(rules=rules, cells=tuple(cells), pouch=tuple(pouch), **extra)


def at(col: int, row: int) -> int:
    return row * COLS + col


@pytest.mark.parametrize("seed", range(200))
def test_deal_opening_six_have_distinct_colours_and_glyphs(seed: int) -> None:
    for rules in ("seed", "classic"):
        state = GAME.deal(GAME.validate({"rules": rules}), random.Random(seed))
        opening = [state.cells[at(col, row)] for col, row in OPENING_CELLS]
        assert None not in opening
        assert sorted(colour(t) for t in opening if t is not None) == list(range(6))
        assert sorted(glyph(t) for t in opening if t is not None) == list(range(6))
        assert sum(t is not None for t in state.cells) == 6
        everything = Counter([t for t in state.cells if t is not None] + list(state.pouch))
        assert everything == Counter({t: 2 for t in range(36)})
        assert len(state.pouch) == 66


def test_deals_differ_by_seed_and_repeat_by_seed() -> None:
    params = GAME.validate({})
    assert GAME.deal(params, random.Random(1)) == GAME.deal(params, random.Random(1))
    assert GAME.deal(params, random.Random(1)) != GAME.deal(params, random.Random(2))


def test_a_tile_must_touch_another_tile() -> None:
    state = board({(5, 3): tile(0, 0)}, [tile(0, 1)])
    assert fits(state.cells, at(0, 0), tile(0, 1), "seed") == 0
    assert fits(state.cells, at(5, 4), tile(0, 1), "seed") == 1
    assert fits(state.cells, at(6, 4), tile(0, 1), "seed") == 0  # diagonal is not touching
    with pytest.raises(IllegalMove, match="does not fit"):
        GAME.apply(state, (0, 0))
    # the board has no coordinates: the refusal says "there", the cell the player chose
    with pytest.raises(IllegalMove, match=r"^the tile does not fit there: it must touch a "
                       r"tile$") as refused:
        GAME.apply(state, (11, 7))
    assert refused.value.marks == ()  # no tile to point at
    with pytest.raises(IllegalMove, match=r"^column 6, row 4 is taken$"):
        GAME.apply(state, (5, 3))


def test_a_refusal_says_which_neighbour_or_pairing_keeps_the_tile_out() -> None:
    # the tile (colour 0, bird 1) shares its bird with its left neighbour, nothing with the
    # one above: the refusal names its side (the board has no coordinates) and marks it
    cells = {(4, 3): tile(1, 1), (5, 2): tile(2, 2)}
    state = board(cells, [tile(0, 1)])
    with pytest.raises(IllegalMove, match=r"^the tile does not fit there: the one above it "
                       r"matches it in neither colour nor bird$") as refused:
        GAME.apply(state, (5, 3))
    assert refused.value.marks == ("ish-5-2",)
    for (col, row), side in (((4, 3), "to its left"), ((6, 3), "to its right"),
                             ((5, 4), "below it")):
        with pytest.raises(IllegalMove, match=f"the one {side} matches") as refused:
            GAME.apply(board({(col, row): tile(2, 2), (0, 0): tile(0, 0)}, [tile(0, 1)]), (5, 3))
        assert refused.value.marks == (f"ish-{col}-{row}",)
    # both neighbours share its bird: the seed's rules take it, the classic ones want one
    # match by colour and one by bird, and mark both
    cells = {(4, 3): tile(1, 1), (5, 2): tile(2, 1)}
    assert GAME.apply(board(cells, [tile(0, 1)]), (5, 3))
    with pytest.raises(IllegalMove, match=r": with 2 neighbours, classic rules: one must "
                       r"match its colour and the other its bird$") as refused:
        GAME.apply(board(cells, [tile(0, 1)], rules="classic"), (5, 3))
    assert set(refused.value.marks) == {"ish-4-3", "ish-5-2"}


def test_a_refusals_marks_survive_a_worker_process() -> None:
    """A refusal comes back from a worker pickled (a slow game's moves are applied there)."""
    with pytest.raises(IllegalMove) as refused:
        GAME.apply(board({(4, 3): tile(2, 2), (0, 0): tile(0, 0)}, [tile(0, 1)]), (5, 3))
    again = pickle.loads(pickle.dumps(refused.value))
    assert (str(again), again.marks) == (str(refused.value), ("ish-4-3",))


def test_rule_sets_and_presets_read_as_players_name_them() -> None:
    rules = GAME.parameters[0]
    assert [rules.choice_label(value) for value in rules.choices] == ["Simple", "Classic 1990"]
    assert {name: GAME.preset_label(name) for name in GAME.presets} == {
        "seed": "Simple", "classic": "Classic 1990"}
    assert GAME.validate({"rules": "seed"}) == {"rules": "seed"}  # ids keep their values


def test_every_neighbour_must_match_in_colour_or_glyph() -> None:
    placed = {(4, 3): tile(0, 0), (6, 3): tile(1, 1)}
    state = board(placed, [tile(0, 1), tile(2, 2)])
    assert fits(state.cells, at(5, 3), tile(0, 1), "seed") == 2  # colour, glyph
    assert fits(state.cells, at(5, 3), tile(2, 2), "seed") == 0
    assert fits(state.cells, at(5, 3), tile(0, 5), "seed") == 0  # second does not match


@pytest.mark.parametrize(("neighbours", "points"), [(1, 1), (2, 2), (3, 4), (4, 8)])
def test_seed_scores_1_2_4_8(neighbours: int, points: int) -> None:
    around = [(5, 2), (5, 4), (4, 3), (6, 3)][:neighbours]
    state = board({cell: tile(0, i) for i, cell in enumerate(around)}, [tile(0, 5), tile(1, 1)])
    after = GAME.apply(state, (5, 3))
    assert after.score == points
    assert after.cells[at(5, 3)] == tile(0, 5)
    assert after.pouch == (tile(1, 1),)


def test_game_is_won_when_the_pouch_is_empty() -> None:
    state = board({(5, 3): tile(0, 0)}, [tile(0, 1)])
    after = GAME.apply(state, (5, 4))
    assert GAME.status(after) is Status.WON
    assert GAME.headline_for(GAME.observe(after, 0), {0}) == "Game Over. You Win!"
    watched = GAME.headline_for(GAME.observe(after, None), set())
    assert watched == "Game Over. Every tile placed"
    assert GAME.to_move(after) is None


def test_game_is_over_when_the_next_tile_fits_nowhere() -> None:
    state = board({(5, 3): tile(0, 0)}, [tile(0, 1), tile(3, 3)])
    after = GAME.apply(state, (5, 4))
    assert GAME.status(after) is Status.LOST
    assert GAME.headline(GAME.observe(after, 0)) == "Game Over. No cell fits"  # the seed's, and why
    assert GAME.legal_moves(after) == ()
    with pytest.raises(IllegalMove, match="over"):
        GAME.apply(after, (0, 0))


def test_taken_and_off_board_cells_are_refused() -> None:
    state = board({(5, 3): tile(0, 0)}, [tile(0, 1)])
    with pytest.raises(IllegalMove, match="taken"):
        GAME.apply(state, (5, 3))
    with pytest.raises(IllegalMove, match="off the board"):
        GAME.apply(state, (12, 0))


# -- the 1990 rules ---------------------------------------------------------------------
def test_classic_two_neighbours_need_one_colour_and_one_glyph_match() -> None:
    two_colours = {(4, 3): tile(0, 1), (6, 3): tile(0, 2)}
    one_each = {(4, 3): tile(0, 1), (6, 3): tile(3, 5)}
    placing = tile(0, 5)
    assert fits(board(two_colours, []).cells, at(5, 3), placing, "seed") == 2
    assert fits(board(two_colours, []).cells, at(5, 3), placing, "classic") == 0
    assert fits(board(one_each, []).cells, at(5, 3), placing, "classic") == 2


def test_classic_three_neighbours_need_two_and_one() -> None:
    placing = tile(0, 0)
    two_colour_one_glyph = {(4, 3): tile(0, 1), (6, 3): tile(0, 2), (5, 2): tile(4, 0)}
    three_colour = {(4, 3): tile(0, 1), (6, 3): tile(0, 2), (5, 2): tile(0, 3)}
    one_colour_two_glyph = {(4, 3): tile(0, 1), (6, 3): tile(2, 0), (5, 2): tile(4, 0)}
    for placed, expected in ((two_colour_one_glyph, 3), (three_colour, 0),
                             (one_colour_two_glyph, 3)):
        assert fits(board(placed, []).cells, at(5, 3), placing, "classic") == expected


def test_classic_four_way_needs_two_colours_and_two_glyphs() -> None:
    placing = tile(0, 0)
    good = {(4, 3): tile(0, 1), (6, 3): tile(0, 2), (5, 2): tile(4, 0), (5, 4): tile(3, 0)}
    three_colours = {(4, 3): tile(0, 1), (6, 3): tile(0, 2), (5, 2): tile(0, 3),
                     (5, 4): tile(3, 0)}
    with_twin = {(4, 3): tile(0, 0), (6, 3): tile(0, 2), (5, 2): tile(0, 3), (5, 4): tile(3, 0)}
    assert fits(board(good, []).cells, at(5, 3), placing, "classic") == 4
    assert fits(board(three_colours, []).cells, at(5, 3), placing, "classic") == 0
    # an identical tile matches both ways, so it can stand in for a glyph match
    assert fits(board(with_twin, []).cells, at(5, 3), placing, "classic") == 4


def test_classic_outer_ring_scores_nothing() -> None:
    state = board({(0, 3): tile(0, 0)}, [tile(0, 1), tile(0, 2)], rules="classic")
    assert GAME.apply(state, (0, 4)).score == 0
    assert GAME.apply(state, (1, 3)).score == 1


def test_classic_four_way_bonus_and_doubling() -> None:
    around = {(4, 3): tile(0, 1), (6, 3): tile(0, 2), (5, 2): tile(4, 0), (5, 4): tile(3, 0)}
    state = board(around, [tile(0, 0), tile(0, 1), tile(0, 3)], rules="classic")
    after = GAME.apply(state, (5, 3))
    assert after.four_ways == 1
    assert after.score == 8 + FOUR_WAY_BONUS[0]
    # the next tile's points double after a 4-way: one neighbour now scores 2
    assert GAME.apply(after, (3, 3)).score == after.score + 2
    third = board(around, [tile(0, 0), tile(0, 4)], rules="classic", four_ways=2, score=100)
    assert GAME.apply(third, (5, 3)).score == 100 + (8 << 2) + FOUR_WAY_BONUS[2]


@pytest.mark.parametrize("left", [0, 1, 2, 3])
def test_classic_end_bonus_by_tiles_left(left: int) -> None:
    stuck = [tile(5, 5)] * left  # tiles that fit nowhere
    state = board({(5, 3): tile(0, 0)}, [tile(0, 1), *stuck], rules="classic")
    after = GAME.apply(state, (5, 4))
    assert GAME.status(after) is not Status.PLAYING
    assert after.score == 1 + END_BONUS.get(left, 0)
    # the end card itemises the score, as the 1990 game's end does: the tiles' points and
    # the bonus; with no bonus, the score alone
    parts = {"tile points": 1, "end bonus": END_BONUS[left]} if left in END_BONUS else {}
    assert GAME.figures(after, elapsed_ms=1000, moves=1) == {
        "tiles placed": 72 - left, "4-ways": 0, **parts}
    assert GAME.end_bonus(state) == 0  # none while the game goes on


def test_the_simple_rules_end_with_no_bonus_to_show() -> None:
    after = GAME.apply(board({(5, 3): tile(0, 0)}, [tile(0, 1)]), (5, 4))
    assert GAME.status(after) is Status.WON
    assert GAME.end_bonus(after) == 0
    assert GAME.figures(after, elapsed_ms=1000, moves=1) == {"tiles placed": 72, "4-ways": 0}


def test_seed_rules_have_no_bonuses() -> None:
    around = {(4, 3): tile(0, 1), (6, 3): tile(0, 2), (5, 2): tile(4, 0), (5, 4): tile(3, 0)}
    after = GAME.apply(board(around, [tile(0, 0)]), (5, 3))
    assert (after.score, after.four_ways) == (8, 1)


def test_text_is_eight_lines_of_twelve_cells_then_next() -> None:
    state = board({(0, 0): tile(0, 0), (11, 7): tile(5, 5)}, [tile(2, 3)])
    lines = GAME.text(GAME.observe(state, 0)).splitlines()
    assert len(lines) == 9
    assert lines[0] == "a1" + ".." * 11
    assert lines[7] == ".." * 11 + "f6"
    assert lines[8] == "next: c4"
    done = GAME.text(GAME.observe(board({(5, 3): tile(0, 0)}, []), 0))
    assert done.splitlines()[-1] == "next: none"


def test_observation_never_reveals_the_pouch_order() -> None:
    first = board({(5, 3): tile(0, 0)}, [tile(0, 1), tile(1, 1), tile(2, 2)])
    second = board({(5, 3): tile(0, 0)}, [tile(0, 1), tile(2, 2), tile(1, 1)])
    assert GAME.observe(first, 0) == GAME.observe(second, 0)


def test_legal_moves_are_exactly_the_valid_cells() -> None:
    state = GAME.deal(GAME.validate({"rules": "classic"}), random.Random(5))
    moves = {(col, row) for col, row in GAME.legal_moves(state)}
    assert moves == {(c % COLS, c // COLS) for c in valid_cells(state)}
    assert moves  # the opening guarantees a place for the first tile


def test_moves_as_json() -> None:
    assert GAME.parse_move({"place": [3, 4]}) == (3, 4)
    assert GAME.move_to_json((3, 4)) == {"place": [3, 4]}
    for bad in ({"place": [3]}, {"place": ["3", 4]}, {"put": [1, 1]}, {}):
        with pytest.raises(IllegalMove, match="malformed"):
            GAME.parse_move(bad)


def test_a_game_plays_on_with_the_rules_it_was_dealt() -> None:
    for rules in ("seed", "classic"):
        dealt = GAME.deal(GAME.validate({"rules": rules}), random.Random(3))
        assert dealt.rules == rules and GAME.to_move(dealt) == 0
        placed = GAME.apply(dealt, GAME.legal_moves(dealt)[0])
        assert GAME.observe(placed, 0)["rules"] == rules


def test_the_view_tells_the_score_the_tiles_left_and_where_the_next_may_go() -> None:
    state = board({(5, 3): tile(0, 0)}, [tile(0, 1), tile(3, 3), tile(4, 4)], score=7,
                  four_ways=1)
    view = GAME.observe(state, 0)
    assert (view["next"], view["left"], view["score"], view["four_ways"]) == (tile(0, 1), 3, 7, 1)
    assert view["placed"] == 72 - 3
    assert view["status"] == "playing"
    assert view["valid"] == {str(at(5, 2)): 1, str(at(4, 3)): 1, str(at(6, 3)): 1,
                             str(at(5, 4)): 1}
    assert GAME.headline(view) == "Ishido"


def test_a_move_after_the_end_is_refused_saying_the_game_is_over() -> None:
    over = GAME.apply(board({(5, 3): tile(0, 0)}, [tile(0, 1), tile(3, 3)]), (5, 4))
    with pytest.raises(IllegalMove) as refused:
        GAME.apply(over, (0, 0))
    assert str(refused.value) == "the game is over"


def test_a_cell_below_the_last_row_is_off_the_board() -> None:
    state = board({(5, 3): tile(0, 0)}, [tile(0, 1)])
    with pytest.raises(IllegalMove) as refused:
        GAME.apply(state, (5, ROWS))
    assert str(refused.value) == f"cell [5, {ROWS}] is off the board (12 columns, 8 rows)"


def test_where_a_given_tile_would_go_not_only_the_next_one() -> None:
    state = board({(5, 3): tile(0, 0)}, [tile(0, 1)])
    assert valid_cells(state, tile(3, 3)) == {}
    assert set(valid_cells(state, tile(0, 4))) == {at(5, 2), at(4, 3), at(6, 3), at(5, 4)}


def test_classic_pairing_holds_where_a_tile_goes_and_where_it_is_placed() -> None:
    two_colours = {(4, 3): tile(0, 1), (6, 3): tile(0, 2)}
    classic = board(two_colours, [tile(0, 5), tile(1, 1)], rules="classic")
    assert at(5, 3) not in valid_cells(classic)  # two colour matches: no glyph match
    with pytest.raises(IllegalMove, match="does not fit"):
        GAME.apply(classic, (5, 3))
    assert at(5, 3) in valid_cells(board(two_colours, [tile(0, 5), tile(1, 1)]))  # seed rules


def test_the_simple_rules_score_the_outer_ring_too() -> None:
    state = board({(0, 3): tile(0, 0)}, [tile(0, 1), tile(0, 2)])
    assert GAME.apply(state, (0, 4)).score == 1


def test_each_four_way_counts_and_rings_the_bell() -> None:
    around = {(4, 3): tile(0, 1), (6, 3): tile(0, 2), (5, 2): tile(4, 0), (5, 4): tile(3, 0)}
    state = board(around, [tile(0, 0), tile(0, 4)], four_ways=1)
    after = GAME.apply(state, (5, 3))
    assert after.four_ways == 2
    assert GAME.sound(state, (5, 3), after) == "bell"
    assert GAME.figures(after, elapsed_ms=1000, moves=1) == {
        "tiles placed": 72 - 1, "4-ways": 2}
    plain = GAME.apply(after, (3, 3))
    assert GAME.sound(after, (3, 3), plain) == "place"


def test_the_four_way_bonus_stays_at_its_last_step() -> None:
    around = {(4, 3): tile(0, 1), (6, 3): tile(0, 2), (5, 2): tile(4, 0), (5, 4): tile(3, 0)}
    last = len(FOUR_WAY_BONUS) - 1
    for done in (last, last + 3):
        state = board(around, [tile(0, 0), tile(0, 4)], rules="classic", four_ways=done)
        after = GAME.apply(state, (5, 3))
        assert after.score == (8 << done) + FOUR_WAY_BONUS[last]


def test_each_cell_touches_the_cells_beside_it_above_and_below() -> None:
    table = _neighbour_table()
    assert len(table) == COLS * ROWS
    assert set(table[at(5, 3)]) == {at(4, 3), at(6, 3), at(5, 2), at(5, 4)}
    assert set(table[at(0, 0)]) == {at(1, 0), at(0, 1)}  # a corner has two
    assert set(table[at(11, 7)]) == {at(10, 7), at(11, 6)}
    assert set(table[at(0, 4)]) == {at(0, 3), at(0, 5), at(1, 4)}  # an edge has three
    assert set(table[at(11, 0)]) == {at(10, 0), at(11, 1)}


def test_classic_pairing_wants_colour_and_glyph_both_represented() -> None:
    placing = tile(0, 0)
    two_glyphs = {(4, 3): tile(1, 0), (6, 3): tile(2, 0)}
    three_glyphs = {(4, 3): tile(1, 0), (6, 3): tile(2, 0), (5, 2): tile(3, 0)}
    four_with_three_glyphs = {(4, 3): tile(1, 0), (6, 3): tile(2, 0), (5, 2): tile(3, 0),
                              (5, 4): tile(0, 3)}
    for placed in (two_glyphs, three_glyphs, four_with_three_glyphs):
        assert fits(board(placed, []).cells, at(5, 3), placing, "classic") == 0
    # an identical tile may stand in for the colour match the two glyph matches lack
    twin_and_two_glyphs = {(4, 3): tile(0, 0), (6, 3): tile(2, 0), (5, 2): tile(3, 0)}
    assert fits(board(twin_and_two_glyphs, []).cells, at(5, 3), placing, "classic") == 3


def test_a_finished_classic_game_keeps_its_rules_pouch_and_four_ways() -> None:
    stuck = [tile(5, 5)]
    state = board({(5, 3): tile(0, 0)}, [tile(0, 1), *stuck], rules="classic", four_ways=2)
    after = GAME.apply(state, (5, 4))
    assert (after.rules, after.pouch, after.four_ways) == ("classic", tuple(stuck), 2)
    assert GAME.observe(after, 0)["left"] == 1


def test_the_classic_view_shows_no_points_on_the_outer_ring() -> None:
    state = board({(0, 3): tile(0, 0)}, [tile(0, 1)], rules="classic")
    assert GAME.observe(state, 0)["valid"] == {
        str(at(0, 2)): 0, str(at(1, 3)): 1, str(at(0, 4)): 0}


def test_taking_a_tile_back_is_help_while_the_pouch_showed_the_next_not_after_the_last() -> None:
    state = GAME.deal(GAME.validate({}), random.Random(2))
    move = GAME.legal_moves(state)[0]
    after = GAME.apply(state, move)
    assert after.pouch and GAME.undo_rule(state, move, after) is UndoRule.ASSISTED
    last = Board(state.rules, state.cells, state.pouch[:1])  # one tile left to place
    move = GAME.legal_moves(last)[0]
    after = GAME.apply(last, move)
    assert not after.pouch and GAME.undo_rule(last, move, after) is UndoRule.ALLOWED
