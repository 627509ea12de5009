"""morph.js's cheap paths (issue 14) do what the whole morph did: a leaf's text changed in
place, attributes removed however many go at once, elements kept by id; a patch that
reorders a run of elements gives the very markup, moving the others around the element
that moved."""

from __future__ import annotations

import random
from dataclasses import asdict
from typing import Any

import pytest

from parlour.server.patch import board_patch
from tests.browser.conftest import OpenPage

# In the page: morph `before` into `after` in a scratch container; what it became, and
# whether the elements and text nodes asked about are the very ones from before.
MORPH = """
async ([before, after]) => {
  const { morphInto } = await import("/static/morph.js");
  const box = document.createElement("div");
  document.body.append(box);
  box.innerHTML = before;
  const cell = box.querySelector("#c"), text = cell && cell.firstChild;
  morphInto(box, after);
  const found = { html: box.innerHTML, sameCell: box.querySelector("#c") === cell,
                  sameText: Boolean(text) && box.querySelector("#c")?.firstChild === text };
  box.remove();
  return found;
}
"""


def morph(open_page: OpenPage, before: str, after: str) -> dict[str, Any]:
    page = open_page("/", wait=False)  # any page of ours serves /static/morph.js
    found: dict[str, Any] = page.evaluate(MORPH, [before, after])
    return found


def test_a_leaf_text_is_changed_in_place(open_page: OpenPage) -> None:
    found = morph(open_page, '<div id="c" class="closed">1</div>',
                  '<div id="c" class="open n2">2</div>')
    assert found == {"html": '<div id="c" class="open n2">2</div>', "sameCell": True,
                     "sameText": True}


def test_a_leaf_gains_and_loses_its_text(open_page: OpenPage) -> None:
    assert morph(open_page, '<div id="c"></div>', '<div id="c">3</div>')["html"] == (
        '<div id="c">3</div>')
    assert morph(open_page, '<div id="c">3</div>', '<div id="c"></div>')["html"] == (
        '<div id="c"></div>')


def test_every_attribute_gone_is_removed_even_several_in_a_row(open_page: OpenPage) -> None:
    found = morph(open_page,
                  '<div id="c" data-move="1" data-alt-move="2" tabindex="-1" title="t">x</div>',
                  '<div id="c" role="gridcell">x</div>')
    assert found["html"] == '<div id="c" role="gridcell">x</div>'
    assert found["sameCell"]


def test_an_element_with_children_is_still_morphed_child_by_child(open_page: OpenPage) -> None:
    found = morph(open_page, '<div id="c"><span id="a">1</span><b>2</b></div>',
                  '<div id="c"><b>3</b><span id="a">1</span></div>')
    assert found["html"] == '<div id="c"><b>3</b><span id="a">1</span></div>'


# In the page: apply a patch (parlour/server/patch.py) made from `before` and `after`
# to a scratch board holding `before`; what it became, whether it applied, and whether
# the element `#c` is still the very one from before.
PATCH = """
async ([before, patch]) => {
  const { patchParts } = await import("/static/morph.js");
  const box = document.createElement("div");
  document.body.append(box);
  box.innerHTML = before;
  const cell = box.querySelector("#c");
  const applied = patchParts(box, patch.parts, patch.orders, patch.gone);
  const found = { html: box.innerHTML, applied, sameCell: box.querySelector("#c") === cell };
  box.remove();
  return found;
}
"""


def patched(open_page: OpenPage, before: str, after: str) -> dict[str, Any]:
    patch = board_patch(before, after)
    assert patch is not None
    page = open_page("/", wait=False)
    found: dict[str, Any] = page.evaluate(PATCH, [before, asdict(patch)])
    return found


def pile(cards: list[str], svg: bool = False) -> str:
    """A board whose cards (ids, each its text) are a run of siblings on lines of their own."""
    tag = "g" if svg else "i"
    cells = [f'<{tag} id="{card}" class="card">{card}</{tag}>' for card in cards]
    opening, closing = ('<svg id="board">', "</svg>") if svg else ('<div id="board">', "</div>")
    return "\n".join([opening, *cells, closing])


@pytest.mark.parametrize("svg", [False, True])
def test_a_card_moved_to_the_top_keeps_its_element(open_page: OpenPage, svg: bool) -> None:
    """The others move around it: moved, an element would restart its transitions."""
    before = pile(["a", "b", "c", "d", "e"], svg)
    after = pile(["a", "b", "d", "e", "c"], svg).replace('"c" class="card"', '"c" class="card top"')
    found = patched(open_page, before, after)
    assert found == {"html": after, "applied": True, "sameCell": True}


def test_cards_added_and_gone_are_laid_out_as_the_whole_markup(open_page: OpenPage) -> None:
    before = pile(["a", "b", "c", "d", "e", "f"], svg=True)
    after = pile(["b", "d", "new", "c", "f", "e", "g"], svg=True)
    found = patched(open_page, before, after)
    assert found == {"html": after, "applied": True, "sameCell": True}


def test_a_patch_out_of_step_with_the_page_is_refused(open_page: OpenPage) -> None:
    """The client then asks for the whole view."""
    page = open_page("/", wait=False)
    before = pile(["a", "b", "c"])
    missing = {"parts": [], "orders": [["a", "c", "zz"]], "gone": []}  # zz: no part for it
    elsewhere = {"parts": [], "orders": [["a", "c", "b", "elsewhere"]], "gone": []}
    page.evaluate('() => { const p = document.createElement("p"); p.id = "elsewhere";'
                  " document.body.append(p); }")
    assert page.evaluate(PATCH, [before, missing])["applied"] is False
    assert page.evaluate(PATCH, [before, elsewhere])["applied"] is False


# In the page: `before` made into `after` by the whole morph, then by the patch; for each,
# the markup it made and the namespace of `#c` and of its first child.
BOTH_WAYS = """
async ([before, after, patch]) => {
  const { morphInto, patchParts } = await import("/static/morph.js");
  const ways = [(box) => { morphInto(box, after); return true; },
                (box) => patchParts(box, patch.parts, patch.orders, patch.gone)];
  return ways.map((apply) => {
    const box = document.createElement("div");
    document.body.append(box);
    box.innerHTML = before;
    const applied = apply(box), cell = box.querySelector("#c");
    const found = { html: box.innerHTML, applied, ns: cell.namespaceURI,
                    child: cell.firstElementChild?.namespaceURI ?? null };
    box.remove();
    return found;
  });
}
"""
SVG_NS, HTML_NS = "http://www.w3.org/2000/svg", "http://www.w3.org/1999/xhtml"


@pytest.mark.parametrize("to_svg", [True, False])
def test_an_element_that_changes_its_tag_is_replaced(open_page: OpenPage, to_svg: bool) -> None:
    """An empty cell (a div) that becomes a tile (an SVG of its own), and back on undo."""
    slot = '<div id="c" class="slot">2</div>'
    tile = '<svg id="c" class="tile" viewBox="0 0 100 100"><rect class="face"></rect></svg>'
    row = '<div id="row">\n<div id="a">1</div>\n{}\n<div id="d"></div>\n</div>'
    before, after = (row.format(slot), row.format(tile))[:: 1 if to_svg else -1]
    patch = board_patch(before, after)
    assert patch is not None and not patch.orders and not patch.gone
    page = open_page("/", wait=False)
    made = page.evaluate(BOTH_WAYS, [before, after, asdict(patch)])
    expected = ({"html": after, "applied": True, "ns": SVG_NS, "child": SVG_NS} if to_svg
                else {"html": after, "applied": True, "ns": HTML_NS, "child": None})
    assert made == [expected, expected]


# In the page: each patch applied to its `before` board; the boards it made.
PATCHES = """
async (cases) => {
  const { patchParts } = await import("/static/morph.js");
  const box = document.createElement("div");
  document.body.append(box);
  const made = cases.map(([before, patch]) => {
    box.innerHTML = before;
    return patchParts(box, patch.parts, patch.orders, patch.gone) ? box.innerHTML : null;
  });
  box.remove();
  return made;
}
"""


@pytest.mark.parametrize("svg", [False, True])
def test_random_reorders_give_the_whole_markup(open_page: OpenPage, svg: bool) -> None:
    """Runs shuffled, cut and grown at random, each applied in the page as a patch."""
    rng = random.Random(14)
    cases, wanted = [], []
    for _ in range(300):
        before_ids = [f"k{i}" for i in range(rng.randint(1, 12))]
        after_ids = [card for card in before_ids if rng.random() > 0.2] + [
            f"n{i}" for i in range(rng.randint(0, 3))]
        rng.shuffle(after_ids)
        if not after_ids or not set(after_ids) & set(before_ids):
            continue  # a run with none left is a new board: sent whole
        before, after = pile(before_ids, svg), pile(after_ids, svg)
        patch = board_patch(before, after)
        if patch is not None:
            cases.append([before, asdict(patch)])
            wanted.append(after)
    page = open_page("/", wait=False)
    assert page.evaluate(PATCHES, cases) == wanted
    assert len(cases) > 200


# In the page: a pile whose cards glide (a transition on transform); the card at the
# bottom goes to the top, and its place changes with it. Which elements moved in the
# document, and whether that card is gliding.
GLIDE = """
async ([before, patch]) => {
  const { patchParts } = await import("/static/morph.js");
  const style = document.createElement("style");
  style.textContent = ".card { display: block; transition: transform 1s linear; }";
  document.head.append(style);
  const box = document.createElement("div");
  document.body.append(box);
  box.innerHTML = before;
  box.getBoundingClientRect();  // the cards' styles worked out: a change from here glides
  const moved = [];
  const watcher = new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) if (n.id) moved.push(n.id);
  });
  watcher.observe(box, { childList: true, subtree: true });
  const applied = patchParts(box, patch.parts, patch.orders, patch.gone);
  await new Promise((done) => requestAnimationFrame(() => done()));
  watcher.disconnect();
  const gliding = document.getElementById("c").getAnimations().length;
  return { applied, moved, gliding, html: box.innerHTML };
}
"""


def test_a_card_moved_to_the_top_moves_alone_and_still_glides(open_page: OpenPage) -> None:
    """Only the card picked moves in the document (not every card after it), and the
    change of its place is a transition from where it was."""
    before = pile(["c", "a", "b", "d", "e", "f"])
    after = pile(["a", "b", "d", "e", "f", "c"]).replace(
        '"c" class="card"', '"c" class="card" style="transform: translateX(200px)"')
    page = open_page("/", wait=False)
    found = page.evaluate(GLIDE, [before, asdict(board_patch(before, after))])
    assert found == {"applied": True, "moved": ["c"], "gliding": 1, "html": after}
