"""morph.js's cheap paths (issue 14) do what the whole morph did: a leaf's text changed in
place, attributes removed however many go at once, elements kept by id."""

from __future__ import annotations

from typing import Any

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
