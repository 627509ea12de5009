"""The games' pictures on the home page: each draws with its own colours there.

The home page loads app.css only, not the games' view.css: a thumbnail that took its
colours from a game's stylesheet drew black tiles (Ishido's birds on nine black squares).
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from parlour.games import GAMES
from parlour.games.ishido.view import PAUL_TOL_BRIGHT
from tests.browser.conftest import NewContext

pytestmark = pytest.mark.browser

# Every shape of a game's picture with its computed fill (black is what SVG paints when
# nothing says otherwise).
FILLS_JS = """(game) => [...document.querySelectorAll(
    `[data-game="${game}"] svg :is(rect, circle, ellipse, path, polygon):not(defs *)`)]
  .map((shape) => getComputedStyle(shape).fill)"""


def hex_to_rgb(colour: str) -> str:
    red, green, blue = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return f"rgb({red}, {green}, {blue})"


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_every_thumbnail_draws_in_its_own_colours(new_context: NewContext, theme: str) -> None:
    context = new_context(viewport={"width": 1366, "height": 800})
    context.add_init_script(  # (not on about:blank, which has no localStorage)
        "if (location.protocol.startsWith('http')) "
        f"localStorage.setItem('parlour.prefs', '{json.dumps({'theme': theme})}')")
    page = context.new_page()
    page.goto("/")
    for game in GAMES:
        expect(page.locator(f'[data-game="{game}"] svg')).to_have_count(1)
        fills = page.evaluate(FILLS_JS, game)
        assert fills, f"{game}: no shapes in its picture"
        unpainted = [fill for fill in fills if fill == "rgb(0, 0, 0)"]
        assert not unpainted, f"{game}: {len(unpainted)} of {len(fills)} shapes unpainted"
    ishido = set(page.evaluate(FILLS_JS, "ishido"))
    assert ishido == {hex_to_rgb(colour) for colour in PAUL_TOL_BRIGHT}, ishido
