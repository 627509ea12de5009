"""Views sent as a patch: which lines count as parts, when elements are sent by id with
their runs' new order, and that applying the patch of every move of random games (and of
random reorders) gives the new markup exactly."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.core.game import RenderContext
from parlour.games import GAMES
from parlour.server.patch import Patch, board_patch, changed_parts, element_key, part_key

BOARD = "\n".join([
    '<div class="grid" id="grid">',
    '<i id="a" class="x">1</i>',
    '<i id="b">2</i>',
    '<i id="c">3</i>',
    '<i id="d">4</i>',
    "</div>",
])


@pytest.mark.parametrize(("line", "key"), [
    ('<i id="a">1</i>', ("i", "a")),
    ('<div class="cell" id="c-1"><div>x</div><div>y</div></div>', ("div", "c-1")),
    ('<div id="grid" class="lost">', ("div", "grid")),
    ('<g id="t" transform="translate(1 2)"><rect x="1"/></g>', ("g", "t")),
    ('<div id="a"><div>unclosed</div>', None),  # the first div is still open at the end
    ('<div id="a"></div><div></div>', None),  # two elements
    ('<div class="no-id">1</div>', None),
    ("</div></div>", None),
    ("text", None),
    ('<span data-id="x">1</span>', None),  # an id only inside another attribute's name
])
def test_which_lines_are_parts(line: str, key: tuple[str, str] | None) -> None:
    assert part_key(line) == key


@pytest.mark.parametrize(("line", "key"), [
    ('<i id="a">1</i>', "a"),
    ('<path id="p" d="M0 0"/>', "p"),
    ('<div id="grid" class="lost">', None),  # a lone opening tag: its children follow
    ('<div id="a"></div><div></div>', None),
])
def test_which_lines_are_keyed_elements(line: str, key: str | None) -> None:
    assert element_key(line) == key


def test_same_markup_has_no_parts() -> None:
    assert changed_parts(BOARD, BOARD) == []


def test_changed_elements_and_opening_tags_are_sent() -> None:
    new = BOARD.replace('<i id="b">2</i>', '<i id="b" class="open">5</i>').replace(
        'class="grid"', 'class="grid lost"')
    assert changed_parts(BOARD, new) == ['<div class="grid lost" id="grid">',
                                         '<i id="b" class="open">5</i>']


def test_an_element_of_another_tag_is_sent_as_a_part_that_replaces_it() -> None:
    new = BOARD.replace('<i id="b">2</i>', '<svg id="b"><rect/></svg>')
    assert changed_parts(BOARD, new) == ['<svg id="b"><rect/></svg>']


@pytest.mark.parametrize("new", [
    BOARD.replace('<i id="b">2</i>\n', ""),  # a line fewer
    BOARD.replace('<i id="b">2</i>', '<i id="z">2</i>'),  # another element
    BOARD.replace('<div class="grid"', '<p class="grid"'),  # an opening tag of another tag
    BOARD.replace("</div>", "</div><p>after</p>"),  # a line that is not a part
    BOARD.replace('">1<', '">9<').replace('">2<', '">9<').replace('">3<', '">9<')
    .replace('">4<', '">9<'),  # more than half of the lines
])
def test_the_whole_markup_is_sent_when_parts_cannot_say_it(new: str) -> None:
    assert changed_parts(BOARD, new) is None


def apply(old: str, patch: Patch) -> str:
    """What the browser does with a patch, on the markup: drop the lines gone, replace the
    line with the id of each part (the browser morphs that element, or copies an opening
    tag's attributes), then lay each run out in its new order, adding the new elements."""
    parts = {key[1]: part for part in patch.parts if (key := part_key(part))}
    lines = [line for line in old.split("\n") if element_key(line) not in patch.gone]
    lines = [parts.get(key[1], line) if (key := part_key(line)) else line for line in lines]
    for order in patch.orders:
        at = [index for index, line in enumerate(lines) if element_key(line) in order]
        assert at == list(range(at[0], at[-1] + 1)), "a run's elements are siblings in a row"
        kept = {element_key(lines[index]): lines[index] for index in at}
        lines[at[0]:at[-1] + 1] = [kept.get(element_id) or parts[element_id]
                                    for element_id in order]
    return "\n".join(lines)


@pytest.mark.parametrize("name", ["minesweeper", "ishido", "tictactoe", "escalator", "sliding"])
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_parts_of_every_move_rebuild_the_new_markup(name: str, seed: int) -> None:
    spec = GAMES[name]
    game, rng = spec.game, random.Random(seed)
    params = game.validate(rng.choice(list(game.presets.values())))
    state = game.deal(params, random.Random(seed))
    shown = spec.render(game.observe(state, 0), RenderContext(0, True, None, False))
    sent_as_parts = 0
    for _ in range(120):  # (a sliding puzzle played at random is never solved)
        if game.status(state).value != "playing":
            break
        moves = game.legal_moves(state)
        state = game.apply(state, rng.choice(moves))
        assist = rng.random() < 0.3
        html = spec.render(game.observe(state, 0), RenderContext(0, True, None, assist))
        patch = board_patch(shown, html)
        if patch is not None:
            assert apply(shown, patch) == html
            sent_as_parts += 1
        shown = html
    assert sent_as_parts > 0


# Boards of two runs of keyed lines, one in a group whose opening tag may change.
def keyed(element_id: str, text: str) -> str:
    return f'<i id="{element_id}" class="t">{text}</i>'


def board(first: list[tuple[str, str]], second: list[tuple[str, str]], group: str) -> str:
    return "\n".join(['<div id="box">', *(keyed(*cell) for cell in first), "<hr>",
                      f'<g id="group" class="{group}">', *(keyed(*cell) for cell in second),
                      "</g>", "</div>"])


RUN = [(f"k{n}", str(n)) for n in range(12)]


def test_a_card_moved_to_the_end_of_its_run_is_sent_with_the_runs_new_order() -> None:
    before = board(RUN[:8], RUN[8:], "a")
    picked = ("k2", "picked")
    after = board([*RUN[:2], *RUN[3:8], picked], RUN[8:], "a")
    patch = board_patch(before, after)
    assert patch == Patch(parts=[keyed(*picked)],
                          orders=[["k0", "k1", "k3", "k4", "k5", "k6", "k7", "k2"]])
    assert changed_parts(before, after) is None  # not in place


def test_elements_added_and_gone_from_a_run() -> None:
    before = board(RUN[:6], RUN[8:], "a")
    after = board([*RUN[1:6], ("new", "n")], RUN[8:], "b")
    assert board_patch(before, after) == Patch(
        parts=[keyed("new", "n"), '<g id="group" class="b">'],
        orders=[["k1", "k2", "k3", "k4", "k5", "new"]], gone=["k0"])
    shrunk = board(RUN[:6], RUN[8:10], "a")  # no order to send: the rest stay in place
    assert board_patch(before, shrunk) == Patch(gone=["k10", "k11"])


@pytest.mark.parametrize("after", [
    board([("x", "1"), ("y", "2")], RUN[8:], "a"),  # a run keeps none of its ids
    board(RUN[:6], RUN[8:], "a").replace("<hr>", "<br>"),  # the structure changed
    board(RUN[:6], RUN[8:], "a").replace("<hr>\n", ""),  # the runs are one now
    board([*RUN[:5], ("k9", "9")], [RUN[8], *RUN[10:]], "a"),  # an id moved to another run
    board(RUN[:6], [*RUN[8:], ("k1", "1")], "a"),  # two elements with one id
    board([(cell_id, "changed") for cell_id, _ in reversed(RUN[:6])],
          [(cell_id, "changed") for cell_id, _ in RUN[8:]], "a"),  # more than half
])
def test_the_whole_markup_is_sent_when_a_patch_cannot_say_it(after: str) -> None:
    assert board_patch(board(RUN[:6], RUN[8:], "a"), after) is None


def test_a_run_at_the_very_start_is_not_reordered() -> None:
    """The browser moves each element with the line break before it: the first line has
    none."""
    before, after = "\n".join([keyed("a", "1"), keyed("b", "2"), "<hr>"]), "\n".join(
        [keyed("b", "2"), keyed("a", "1"), "<hr>"])
    assert board_patch(before, after) is None


@st.composite
def run_edits(draw: st.DrawFn, cells: list[tuple[str, str]], fresh: str
              ) -> list[tuple[str, str]]:
    """A run reordered, some of its elements changed, gone or added: never all gone."""
    kept = draw(st.lists(st.sampled_from(cells), min_size=1, max_size=len(cells),
                         unique=True))
    changed = [(cell_id, draw(st.sampled_from([text, text + "*"]))) for cell_id, text in kept]
    added = [(f"{fresh}{n}", "new") for n in range(draw(st.integers(0, 3)))]
    return draw(st.permutations(changed + added))


@settings(max_examples=300, deadline=None)
@given(data=st.data(), sizes=st.tuples(st.integers(1, 14), st.integers(1, 14)))
def test_any_patch_rebuilds_the_new_markup(data: st.DataObject, sizes: tuple[int, int]) -> None:
    first = [(f"a{n}", str(n)) for n in range(sizes[0])]
    second = [(f"b{n}", str(n)) for n in range(sizes[1])]
    before = board(first, second, "a")
    new_first, new_second = data.draw(run_edits(first, "x")), data.draw(run_edits(second, "y"))
    after = board(new_first, new_second, data.draw(st.sampled_from("ab")))
    patch = board_patch(before, after)
    changed_or_added = {*new_first, *new_second} - {*first, *second}
    gone = {cell_id for cell_id, _ in first + second} - {
        cell_id for cell_id, _ in new_first + new_second}
    changes = len(changed_or_added) + len(gone) + 1  # (and the group's tag, maybe)
    if 2 * changes <= len(after.split("\n")):  # few enough to send as a patch
        assert patch is not None
    if patch is not None:
        assert apply(before, patch) == after
