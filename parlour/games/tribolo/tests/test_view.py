"""Tribolo's board markup: a cell per line with its id and move, shapes beside colours, the
last move and its flips, passes, help and hints, and moves sent as a few changed lines."""

from __future__ import annotations

import json
import random
import re
from html.parser import HTMLParser
from pathlib import Path

import parlour
from parlour.core.game import MoveNote, RenderContext
from parlour.core.gameid import parse_game_id
from parlour.games.tribolo.logic import SEAT_NAMES, Position, Tribolo
from parlour.games.tribolo.rules import BLUE, HEIGHT, RED, WIDTH, board_from_rows, cell_name
from parlour.games.tribolo.view import SHAPES, describe_move, render
from parlour.server.patch import changed_parts

GAME = Tribolo()
PLAYING = RenderContext(seat=BLUE, can_move=True)
WATCHING = RenderContext(seat=None, can_move=False)
CELL_LINE = re.compile(r'^<div id="tb-(\d+)-(\d+)".*</div>$')


class Elements(HTMLParser):
    """Every element with an id: its attributes, by id, in document order."""

    def __init__(self, markup: str) -> None:
        super().__init__()
        self.by_id: dict[str, dict[str, str]] = {}
        self.feed(markup)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {name: value or "" for name, value in attrs}
        if "id" in found:
            self.by_id[found["id"]] = found


def cells(markup: str) -> dict[tuple[int, int], dict[str, str]]:
    return {
        (int(x), int(y)): found
        for element_id, found in Elements(markup).by_id.items()
        if element_id.startswith("tb-") and element_id.count("-") == 2
        for _, x, y in [element_id.split("-")]
    }


def css(found: dict[str, str]) -> set[str]:
    return set(found["class"].split())


def dealt(seed: str) -> Position:
    game_id = parse_game_id(GAME, f"tribolo:standard#{seed}")
    return GAME.deal(game_id.params, game_id.rng(GAME))


def draw(state: Position, ctx: RenderContext = PLAYING) -> str:
    return render(GAME.observe(state, ctx.seat), ctx)


def test_each_of_the_176_cells_is_a_line_of_its_own_with_an_id() -> None:
    markup = draw(dealt("cells"))
    found = cells(markup)
    assert len(found) == WIDTH * HEIGHT
    assert set(found) == {(x, y) for x in range(WIDTH) for y in range(HEIGHT)}
    cell_lines = [line for line in markup.split("\n") if CELL_LINE.match(line)]
    assert len(cell_lines) == WIDTH * HEIGHT
    order = [(int(x), int(y)) for x, y in (CELL_LINE.match(line).groups() for line in cell_lines)]
    assert order == [(x, y) for y in range(HEIGHT) for x in range(WIDTH)]  # reading order


def test_empty_cells_send_their_move_and_the_grid_is_off_out_of_turn() -> None:
    state = dealt("moves")
    rows = GAME.observe(state, None)["rows"]
    for (x, y), found in cells(draw(state)).items():
        if rows[y][x] == ".":
            assert json.loads(found["data-move"]) == {"cell": [x, y]}
        else:
            assert "data-move" not in found
        assert "data-nav" in found  # every cell joins the arrow-key cursor
    grid = Elements(draw(state)).by_id["tb-grid"]
    assert grid["aria-disabled"] == "false"
    assert Elements(draw(state, WATCHING)).by_id["tb-grid"]["aria-disabled"] == "true"


def test_each_player_has_a_shape_as_well_as_a_colour_and_walls_are_marked() -> None:
    state = dealt("shapes")
    rows = GAME.observe(state, None)["rows"]
    for (x, y), found in cells(draw(state)).items():
        mark = rows[y][x]
        if mark in "BRG":
            seat = "BRG".index(mark)
            assert {f"p{seat}", SHAPES[seat]} <= css(found)
            assert ("Blue", "Red", "Green")[seat] in found["aria-label"]
        elif mark == "#":
            assert "wall" in css(found) and "wall" in found["aria-label"]
        else:
            assert "vacant" in css(found) and "empty" in found["aria-label"]
    assert len(set(SHAPES)) == 3


def test_the_last_move_is_ringed_and_its_captures_flip_ring_by_ring() -> None:
    rows = ["BRRR." + "." * 11, "....." + "." * 11, "..R.BG" + "." * 10] + ["." * WIDTH] * 8
    after = GAME.apply(Position(board_from_rows(rows), BLUE), (4, 0))
    found = cells(draw(after))
    assert "placed" in css(found[(4, 0)])
    assert [found[(x, 0)].get("style") for x in (3, 2, 1)] == ["--ring:1", "--ring:2", "--ring:3"]
    assert all("turned" in css(found[(x, 0)]) for x in (1, 2, 3))
    assert not {"turned", "placed"} & css(found[(0, 0)])
    # the next move flips with the other parity, so a cell turned again animates again
    second = GAME.apply(after, GAME.legal_moves(after)[0])
    first_kinds = {c for c in css(found[(3, 0)]) if c.startswith("flip")}
    placed = next(cell for cell, f in cells(draw(second)).items() if "placed" in css(f))
    second_kinds = {c for c in css(cells(draw(second))[placed]) if c.startswith("pop")}
    assert len(first_kinds) == len(second_kinds) == 1
    assert {kind[-1] for kind in first_kinds} != {kind[-1] for kind in second_kinds}


def note_of(state: Position, seat: int = BLUE) -> str:
    """The note seat `seat` reads."""
    markup = draw(state, RenderContext(seat=seat, can_move=state.player == seat))
    found = re.search(r'<p id="tb-note" class="[^"]*" role="status">(.*?)</p>', markup)
    assert found is not None
    return found[1]


def test_a_pass_is_told_in_a_short_note() -> None:
    """A player left without cells is out for good, said so rather than "passes"."""
    rows = ["BR.." + "." * 12] + ["." * WIDTH] * 4 + [".....GB" + "." * 9] + ["." * WIDTH] * 5
    after = GAME.apply(Position(board_from_rows(rows), BLUE), (2, 0))
    assert note_of(after) == ("Blue played c1 and turned 1 cell. Red has no cells left and is "
                              "out: Green to play.")
    assert not GAME.can_move_again(after, RED) and GAME.can_move_again(after, BLUE)
    stuck = (["BR.." + "." * 12] + ["." * WIDTH] * 4 + [".....GB" + "." * 9]
             + ["." * WIDTH] * 4 + ["." * (WIDTH - 1) + "R"])  # a cell, but no capture
    after = GAME.apply(Position(board_from_rows(stuck), BLUE), (2, 0))
    assert note_of(after).endswith("Red cannot move and passes: Green to play.")
    assert describe_move(Position(board_from_rows(rows), BLUE), (2, 0), after) == MoveNote(
        "c1, turned 1", (RED,))


def test_scores_are_not_repeated_on_the_board() -> None:
    # the page's seat chips show each player's name, score and which is you
    markup = draw(dealt("boxes"))
    assert "tb-bar" not in markup and "tb-score" not in markup


def test_each_players_last_move_wears_a_corner_of_their_colour() -> None:
    state = dealt("lasts")
    played: dict[int, tuple[int, int]] = {}
    for _ in range(4):
        mover = state.player
        assert mover is not None
        move = GAME.legal_moves(state)[0]
        state = GAME.apply(state, move)
        played[mover] = move
    marked = {cell: found for cell, found in cells(draw(state)).items() if "last-of" in css(found)}
    assert {cell: f"last-p{seat}" in css(marked[cell]) for seat, cell in played.items()} == {
        cell: True for cell in played.values()}
    assert set(marked) == set(played.values())


def test_your_turn_marks_your_legal_cells_help_adds_what_each_turns_a_hint_its_cell() -> None:
    state = dealt("help")
    legal = set(GAME.legal_moves(state))
    mover = state.player
    yours = RenderContext(seat=mover, can_move=True)
    plain = {cell for cell, found in cells(draw(state, yours)).items() if "legal" in css(found)}
    assert plain == legal and "gain" not in draw(state, yours)
    assert not [c for c, f in cells(draw(state, WATCHING)).items() if "legal" in css(f)]
    helped = RenderContext(seat=None, can_move=False, assist=True)
    markup = draw(state, helped)
    marked = {cell for cell, found in cells(markup).items() if "legal" in css(found)}
    assert marked == legal and markup.count('class="gain"') == len(legal)
    waiting = RenderContext(seat=((mover or 0) + 1) % 3, can_move=False, assist=True)
    assert "legal" not in draw(state, waiting) and 'class="gain"' not in draw(state, waiting)
    for x, y in legal:
        line = next(ln for ln in markup.split("\n") if f'id="tb-{x}-{y}"' in ln)
        gain = int(line.split('class="gain" aria-hidden="true">')[1].split("<")[0])
        after = GAME.apply(state, (x, y))
        assert GAME.scores(after)[mover or 0] == GAME.scores(state)[mover or 0] + gain + 1
    target = sorted(legal)[0]
    hinted = RenderContext(seat=BLUE, can_move=True, hint={"cell": list(target)})
    assert [c for c, f in cells(draw(state, hinted)).items() if "hint" in css(f)] == [target]


def test_a_move_sends_only_the_lines_it_changed() -> None:
    rng = random.Random(4)
    state = dealt("patch")
    before = draw(state)
    for _ in range(30):
        moves = GAME.legal_moves(state)
        if not moves:
            break
        state = GAME.apply(state, rng.choice(list(moves)))
        after = draw(state)
        parts = changed_parts(before, after)
        assert parts is not None, "the whole board would be sent"
        assert len(parts) < 40
        before = after


def test_the_end_says_so_and_names_the_winner() -> None:
    rows = ["BBBR." + "." * 11] + ["." * WIDTH] * 9 + ["GG##" + "." * 12]
    after = GAME.apply(Position(board_from_rows(rows), BLUE), (4, 0))
    assert "game is over" in draw(after, WATCHING)
    assert GAME.headline(GAME.observe(after, None)) == "Blue wins"


def test_a_shared_first_place_is_a_tie_of_those_players() -> None:
    rows = ["BR.." + "." * 12] + ["." * WIDTH] * 9 + ["GGG#" + "." * 12]
    after = GAME.apply(Position(board_from_rows(rows), BLUE), (2, 0))
    assert GAME.scores(after) == (3, 0, 3) and after.player is None
    assert GAME.headline(GAME.observe(after, None)) == "Blue and Green tie"


def test_the_cells_use_no_class_the_page_styles_for_itself() -> None:
    # the page's own `.empty` (a notice with padding) once blew every empty cell up on phones
    page_css = (Path(parlour.__file__).parent / "static" / "app.css").read_text()
    page_classes = set(re.findall(r"\.([A-Za-z][\w-]*)", page_css))
    state = GAME.apply(dealt("classes"), GAME.legal_moves(dealt("classes"))[0])
    used = {name for found in cells(draw(state)).values() for name in css(found)}
    assert {"vacant", "wall", "p0", "placed"} <= used
    assert not used & page_classes


def test_the_keyboards_cursor_starts_on_the_first_cell_you_may_play() -> None:
    state = dealt("help")
    started = [c for c, f in cells(draw(state, RenderContext(seat=state.player, can_move=True)))
               .items() if "data-start" in f]
    assert started == [min(GAME.legal_moves(state), key=lambda cell: (cell[1], cell[0]))]
    assert not [c for c, f in cells(draw(state, WATCHING)).items() if "data-start" in f]
    helped = RenderContext(seat=None, can_move=False, assist=True)  # another's legal cells
    assert not [c for c, f in cells(draw(state, helped)).items() if "data-start" in f]


def test_every_cell_you_may_play_now_is_marked_playable_for_the_keyboards_cursor() -> None:
    """data-playable: where the cursor goes when your turn comes; not another's cells that
    help shows, and not the empty cells you may not play (each has a data-move, refused)."""
    state = dealt("help")
    playable = [c for c, f in cells(draw(state, RenderContext(seat=state.player, can_move=True)))
                .items() if "data-playable" in f]
    assert sorted(playable) == sorted(GAME.legal_moves(state))
    helped = RenderContext(seat=None, can_move=False, assist=True)
    assert not [c for c, f in cells(draw(state, helped)).items() if "data-playable" in f]


def test_before_the_first_move_the_note_says_who_plays_first() -> None:
    state = dealt("first")
    note = draw(state).split('id="tb-note"')[1].split("</p>")[0]
    assert note.endswith(f">{SEAT_NAMES[state.player or 0]} plays first.")
    after = GAME.apply(state, GAME.legal_moves(state)[0])
    assert "plays first" not in draw(after)


def test_your_turn_says_both_moves_made_since_yours() -> None:
    """The two computers play half a second apart: the note names both, in order, so the
    first is not lost behind the second."""
    state = dealt("since")
    you = state.player
    moves = []
    for _ in range(3):
        mover = state.player
        assert mover is not None
        cell = GAME.legal_moves(state)[0]
        before = state
        state = GAME.apply(state, cell)
        turned = bin(state.board.owned[mover] & ~before.board.owned[mover]).count("1") - 1
        moves.append((SEAT_NAMES[mover], cell_name(*cell), turned))
    assert state.player == you and not state.passed
    (red, at, turned), (green, then, turned_then) = moves[1:]
    assert you is not None and note_of(state, you) == (
        f"{red} played {at} ({turned} turned), then {green} {then} ({turned_then} turned).")
    after_yours = GAME.apply(state, GAME.legal_moves(state)[0])
    assert note_of(after_yours, you).startswith(f"{SEAT_NAMES[you]} played ")  # yours alone
    assert ", then " not in note_of(after_yours, you)
