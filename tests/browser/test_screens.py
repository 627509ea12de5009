"""Every page at a phone's size (390x844, touch) and a laptop's (1366x800), checked as a
player would look at it: nothing makes the page scroll sideways, no text is cut off in a
button, a label, a select, a field or a dialog, nothing of that kind sits off the screen,
a game's board is all on the first screen and its headline and status line start there
(the home page's games too). Every game is checked in play (with each of its dialogs,
and with a hint explained in the status line) and at each of its ends; the seat dialog
too.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page

from tests.browser.conftest import CreateGame, NewContext
from tests.browser.scene import Scene
from tests.browser.scenes import (
    DIALOGS,
    GAME_NAMES,
    SCENES,
    SEATING,
    Stage,
    close_dialog,
    link_paths,
    open_dialog,
    open_link_prompt,
    open_ready,
    open_scene,
    open_seat_dialog,
    scenes_of,
    show_a_hint,
)

pytestmark = pytest.mark.browser

SIZES: dict[str, dict[str, Any]] = {
    "390x844": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
    "1366x800": {"viewport": {"width": 1366, "height": 800}},
}
# What must be on the first screen: [selector, whole] (the board all of it: the page
# sizes it to the room it has; the headline and the status line, their first line). The
# message is checked when it says something.
GAME_FOLD = (("#board", True), ("#headline", False), ("#message", False))

# What is wrong with the page (or with the part `scope` selects), as sentences. Widths
# are compared with the screen's as set, not innerWidth: a phone browser may zoom out
# to show a page that is too wide, and innerWidth grows with it.
PROBLEMS_JS = """
([width, height, scope, fold]) => {
  const problems = [];
  const root = scope ? document.querySelector(scope) : document.body;
  const shown = (el) => el.getClientRects().length > 0
    && getComputedStyle(el).visibility !== "hidden";
  const text = (el) => (el.selectedOptions?.[0]?.textContent || el.value || el.placeholder
      || el.textContent || el.ariaLabel || "")
    .trim().replace(/\\s+/g, " ").slice(0, 40);
  const name = (el) => {
    const what = el.id ? `#${el.id}` : el.localName
      + (typeof el.className === "string" && el.className ? `.${el.className.split(" ")[0]}` : "");
    return `${what} "${text(el)}"`;
  };
  if (!scope) {
    const wide = Math.max(document.documentElement.scrollWidth, document.body.scrollWidth);
    if (wide > width) problems.push(`the page is ${wide} px wide on a ${width} px screen`);
  }

  // Text wider than the room its element gives it. A select or a field shows one line
  // of text it does not scroll: measure that line in the element's own font.
  const canvas = document.createElement("canvas").getContext("2d");
  const lineWidth = (el, line) => {
    const style = getComputedStyle(el);
    canvas.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    return canvas.measureText(line).width;
  };
  const room = (el) => {
    const style = getComputedStyle(el);
    const arrow = el.localName === "select" && style.appearance !== "none" ? 20 : 0;
    return el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - arrow;
  };
  const scrolls = (el) => {
    for (let up = el.parentElement; up; up = up.parentElement) {
      if (/auto|scroll/.test(getComputedStyle(up).overflowX)) return true;
    }
    return false;
  };
  const candidates = new Set(root.querySelectorAll(
    "button, .btn, label, select, input, [role=menuitem], h1, h2, h3, .headline"));
  if (scope) for (const el of root.querySelectorAll("*")) candidates.add(el);
  for (const el of candidates) {
    if (!shown(el) || el instanceof SVGElement || el.closest("svg")) continue;
    if (getComputedStyle(el).display === "inline") continue;
    if (el.clientWidth <= 1 || el.clientHeight <= 1) continue;  // (visually hidden, for readers)
    if (el.localName === "select" && el.selectedOptions.length) {
      const line = el.selectedOptions[0].textContent.trim();
      if (lineWidth(el, line) > room(el) + 1) problems.push(`${name(el)} is cut off`);
    } else if (el.localName === "input" && /^(text|search|number|url|)$/.test(el.type)) {
      const line = el.value || el.placeholder;
      if (line && lineWidth(el, line) > room(el) + 1) problems.push(`${name(el)} is cut off`);
    } else if (el.scrollWidth > el.clientWidth + 1) {
      problems.push(`${name(el)} is cut off: ${el.scrollWidth} px of text in ${el.clientWidth} px`);
    }
    const box = el.getBoundingClientRect();
    if ((box.right > width + 1 || box.left < -1) && !scrolls(el)) {
      problems.push(`${name(el)} is off the screen: from x=${box.left} to ${box.right}`);
    }
  }

  // What must be seen without scrolling.
  for (const [selector, whole] of fold) {
    const el = document.querySelector(selector);
    if (!el) { problems.push(`${selector} is missing`); continue; }
    if (selector === "#message" && !el.textContent.trim()) continue;
    if (!shown(el)) { problems.push(`${selector} is not shown`); continue; }
    const box = el.getBoundingClientRect();
    const below = box.top >= height ? "starts" : whole && box.bottom > height + 1 ? "ends" : "";
    if (below) {
      problems.push(`${selector} ${below} below the first screen: from y=${Math.round(box.top)}`
        + ` to ${Math.round(box.bottom)}, on a screen ${height} px high`);
    }
  }
  return problems;
}
"""


def problems(page: Page, where: str, scope: str | None = None,
             fold: tuple[tuple[str, bool], ...] = ()) -> list[str]:
    size = page.viewport_size
    assert size is not None
    page.evaluate("window.scrollTo(0, 0)")
    found: list[str] = page.evaluate(
        PROBLEMS_JS, [size["width"], size["height"], scope, list(fold)]
    )
    return [f"{where}: {problem}" for problem in found]


def assert_none(found: list[str]) -> None:
    if found:
        pytest.fail("what a player would see wrong:\n" + "\n".join(found), pytrace=False)


def test_every_game_is_checked_in_play_and_at_an_end() -> None:
    """A game added to Parlour needs its scenes here, or these checks would miss it."""
    assert {scene.game for scene in scenes_of("play")} == set(GAME_NAMES)
    ended = {scene.game for scene in SCENES if scene.moment != "play"}
    assert ended == set(GAME_NAMES)


@pytest.mark.parametrize("size", SIZES)
def test_the_home_page(new_context: NewContext, stage: Stage, size: str) -> None:
    unfinished = stage.reach_all(scenes_of("play"))  # (held: the Resume list shows them)
    page = new_context(tokens=unfinished, **SIZES[size]).new_page()
    open_ready(page, "/")
    # the games to resume first, the games' cards starting on the first screen under them
    first = (("#resume-section", False), ("#games", False))
    assert_none(problems(page, f"home {size}", fold=first))


@pytest.mark.parametrize("size", SIZES)
def test_the_statistics_page(new_context: NewContext, stage: Stage, size: str) -> None:
    stage.reach_all()  # every game has finished games to show
    page = new_context(**SIZES[size]).new_page()
    open_ready(page, "/stats")
    assert_none(problems(page, f"statistics {size}"))


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("scene", SCENES, ids=lambda scene: scene.name)
def test_a_game_page(new_context: NewContext, stage: Stage, scene: Scene, size: str) -> None:
    """The page; in play, each of its dialogs too."""
    reached = stage.reach(scene)
    page = new_context(tokens={reached.session: reached.token}, **SIZES[size]).new_page()
    open_scene(page, scene, reached)
    where = f"{scene.name} {size}"
    found = problems(page, where, fold=GAME_FOLD)
    if scene.moment == "play":
        for name in DIALOGS:
            dialog = open_dialog(page, name)
            found += problems(page, f"{where} {name} dialog", f"#{name}-dialog")
            close_dialog(page, dialog)
        show_a_hint(page)  # (its explanation is the status line: it must be seen)
        found += problems(page, f"{where} with a hint", fold=GAME_FOLD)
    assert_none(found)



@pytest.mark.parametrize("size", SIZES)
def test_the_seat_dialog(new_context: NewContext, create_game: CreateGame, size: str) -> None:
    created = create_game(**SEATING)
    page = new_context(**SIZES[size]).new_page()
    open_seat_dialog(page, created["session"])
    assert_none(problems(page, f"seat dialog {size}", "#seat-dialog"))


@pytest.mark.parametrize("size", SIZES)
def test_the_prompts_of_deal_and_seat_links(
    new_context: NewContext, create_game: CreateGame, size: str
) -> None:
    links = link_paths(create_game(**SEATING))
    page = new_context(**SIZES[size]).new_page()
    found: list[str] = []
    for name, path in links.items():
        open_link_prompt(page, path)
        found += problems(page, f"{name} prompt {size}", "#link-dialog")
    assert_none(found)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_replay_page(new_context: NewContext, stage: Stage, game: str, size: str) -> None:
    """A finished game's replay: its controls and its board start on the first screen."""
    ended = next(scene for scene in SCENES if scene.game == game and scene.moment != "play")
    page = new_context(**SIZES[size]).new_page()
    open_ready(page, f"/replay/{stage.reach(ended).session}#move=1")
    assert_none(problems(page, f"replay of {game} {size}",
                         fold=(("#headline", True), ("#replay-controls", True), ("#board", False))))
