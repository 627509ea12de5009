"""The statistics page in the browser: its heading, the figures a player of each game wants,
charts with axes and legends that follow the theme, and nothing cut off or overflowing on
a phone or a desktop, light or dark.

Other browser tests finish games on the same server, so the page is checked against what
/api/stats says at the time, after this test has finished games of its own.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from parlour.games.minesweeper.tests.scenes import open_safe_cells
from tests.browser.conftest import NewContext
from tests.browser.scene import Scene
from tests.browser.scenes import Stage, scenes_of
from tests.support.servers import RunningServer, start_server

pytestmark = pytest.mark.browser

CROSS_WINS = [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)]
DRAW = [(1, 1), (0, 0), (2, 2), (0, 2), (0, 1), (2, 1), (1, 0), (1, 2), (2, 0)]
SIZES = [(390, 844), (1366, 800)]


def finish_tictactoe(url: str, cells: list[tuple[int, int]], online: bool = False) -> None:
    """A hot-seat game played to its end through the REST API; `online`: one of two
    players, the other on an invite link (at one screen a game is won by a seat, and has
    no win rate: stats/statistics.py)."""
    made = httpx.post(f"{url}/api/games", json={
        "game": "tictactoe", "seats": ["human", "open" if online else "human"]}).json()
    tokens = [made["token"]]
    if online:
        tokens.append(httpx.post(f"{url}/api/games/{made['session']}/join").json()["token"])
    for turn, cell in enumerate(cells):
        token = tokens[turn % len(tokens)]
        reply = httpx.post(f"{url}/api/games/{made['session']}/moves",
                           json={"move": {"cell": list(cell)}},
                           headers={"Authorization": f"Bearer {token}"})
        assert reply.status_code == 200, reply.text
    assert reply.json()["status"] != "playing"


@pytest.fixture(scope="module")
def played(server: RunningServer) -> dict[str, Any]:
    """Two wins and a draw of Tic-Tac-Toe for Cross's player; the group they are counted
    in, as the API says."""
    for cells in (CROSS_WINS, DRAW, CROSS_WINS):
        finish_tictactoe(server.url, cells, online=True)
    groups = httpx.get(f"{server.url}/api/stats", params={"game": "tictactoe"}).json()["groups"]
    (group,) = [g for g in groups if g["players"] == "Online with a friend, as Cross"
                and g["preset"] == "standard"]
    return dict(group)


def open_stats(new_context: NewContext, path: str, size: tuple[int, int], scheme: str) -> Page:
    width, height = size
    page = new_context(viewport={"width": width, "height": height},
                       color_scheme=scheme).new_page()
    page.goto(path)
    page.wait_for_selector("body[data-ready='1']")
    return page


def card_of(page: Page, group: dict[str, Any]) -> Any:
    return page.locator(f".stat-card[data-game='{group['game']}'][data-group='{group['preset']}']"
                        ).filter(has_text=group["players"]).first


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", SIZES, ids=["phone", "desktop"])
def test_a_game_s_statistics_fit_the_screen(
    new_context: NewContext, played: dict[str, Any], size: tuple[int, int], scheme: str
) -> None:
    page = open_stats(new_context, "/stats?game=tictactoe", size, scheme)
    assert page.locator("h1").inner_text() == f"Statistics — {played['title']}"
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
    # every figure's value on one line, inside its box
    overflowing = page.evaluate("""() => [...document.querySelectorAll('.figure dd')]
        .filter((dd) => dd.scrollWidth > dd.clientWidth
            || dd.getBoundingClientRect().height > 2 * parseFloat(getComputedStyle(dd).fontSize))
        .map((dd) => dd.textContent)""")
    assert overflowing == []
    svg = card_of(page, played).locator("svg").first
    box = svg.bounding_box()
    assert box is not None and box["x"] > 0 and box["x"] + box["width"] <= size[0]
    # the chart is drawn in the theme's colours: its text is the page's text colour
    colours = page.evaluate("""() => {
        const text = document.querySelector('.stat-chart svg .axis text');
        return [getComputedStyle(text).fill, getComputedStyle(document.body).color];
    }""")
    assert colours[0] == colours[1]


def test_the_figures_are_the_game_s_own(new_context: NewContext, played: dict[str, Any]
                                        ) -> None:
    page = open_stats(new_context, "/stats?game=tictactoe", (1366, 800), "light")
    card = card_of(page, played)
    labels = card.locator(".figure dt").all_inner_texts()
    values = card.locator(".figure dd").all_inner_texts()
    assert dict(zip(labels, values, strict=True)) == {
        tile["label"]: tile["value"] for tile in played["shown"]}
    assert {"played", "won", "lost", "drawn", "win rate", "best streak"} <= set(labels)
    assert not {"best score", "best time"} & set(labels)  # nothing Tic-Tac-Toe does not have
    assert int(values[labels.index("won")]) >= 2 and int(values[labels.index("drawn")]) >= 1


def test_the_win_rate_is_a_line_with_a_point_per_game_and_a_table(
    new_context: NewContext, played: dict[str, Any]
) -> None:
    page = open_stats(new_context, "/stats?game=tictactoe", (390, 844), "light")
    chart = card_of(page, played).locator(".stat-chart").first
    texts = chart.locator("svg text").all_text_contents()
    assert {"Win rate over the last 10, game by game", "games played", "0%", "100%"} <= set(texts)
    assert chart.locator("svg").get_attribute("role") == "img"
    points = chart.locator("svg polyline").get_attribute("points") or ""
    assert len(points.split()) == played["played"]  # a point per game played
    line = chart.locator("svg polyline").bounding_box()
    assert line is not None and line["width"] > 200  # it spans the card, legible on a phone
    chart.locator("summary").click()
    table = chart.locator("table")
    assert table.is_visible()
    assert table.locator("thead th").all_inner_texts() == ["game", "result", "won of the last 10"]
    assert table.locator("tbody tr").count() == played["played"]
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # it fits the phone


def test_the_way_back_to_the_game(new_context: NewContext, played: dict[str, Any]) -> None:
    page = open_stats(new_context, "/stats?game=tictactoe", (390, 844), "dark")
    back = page.get_by_role("link", name=f"Play {played['title']}")
    assert back.is_visible() and back.inner_text().strip().endswith("Play")
    back.click()
    page.wait_for_url("**/play/tictactoe**")
    page.go_back()
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#game-filter", "")
    page.wait_for_function("document.querySelector('h1').textContent === 'Statistics'")
    assert page.locator("#back").is_hidden()  # every game: each card names its own


def test_every_game_at_once_and_back(new_context: NewContext, played: dict[str, Any]) -> None:
    page = open_stats(new_context, "/stats?game=tictactoe", (1366, 800), "dark")
    page.select_option("#game-filter", "")
    page.wait_for_function("document.querySelector('h1').textContent === 'Statistics'")
    assert "game=" not in page.url
    heading = card_of(page, played).locator("h2").inner_text()
    assert heading.startswith(played["title"])  # with every game, a card names its game
    page.select_option("#game-filter", "tictactoe")
    page.wait_for_function("document.querySelector('h1').textContent.startsWith('Statistics —')")
    assert page.url.endswith("/stats?game=tictactoe")


@pytest.fixture(scope="module")
def every_game(server: RunningServer, stage: Stage, played: dict[str, Any]) -> None:
    """Finished games of every game, and Minesweeper on two boards (so a table of its
    bests): cards of several heights, one with a chart, others with two."""
    stage.reach_all([scene for scene in scenes_of() if scene.moment != "play"])
    beginner = Stage(server.url)  # (its own: the shared stage knows "minesweeper-won")
    try:
        beginner.reach(Scene("minesweeper", "won", {"id": "minesweeper:beginner#packed"},
                             open_safe_cells))
    finally:
        beginner.close()


# Goes through the cards in reading order as the grid's auto-placement would, one column
# at a time: each card should sit at the top of the shortest column at that point (a hole
# above it, in its column, at most the gap and the 4px of a row), and each card's top be
# at or below the one before it, so that Tab and a screen reader go down as the eye does.
PACKING = """() => {
  const grid = document.querySelector('.stat-groups');
  const box = grid.getBoundingClientRect();
  const gap = parseFloat(getComputedStyle(grid).columnGap);
  const cards = [...grid.children].map((card) => ({
    name: card.querySelector('h2')?.textContent ?? card.textContent.slice(0, 40),
    ...JSON.parse(JSON.stringify(card.getBoundingClientRect()))}));
  const columns = getComputedStyle(grid).gridTemplateColumns.split(' ').length;
  const bottoms = new Map([...new Set(cards.map((c) => Math.round(c.left)))]
    .map((left) => [left, box.top - gap]));
  const holes = [], disorder = [], overlaps = [];
  let before = -Infinity;
  for (const [i, card] of cards.entries()) {
    const shortest = Math.min(...bottoms.values());
    const hole = card.top - (shortest + gap);
    if (hole > 4.5) holes.push([card.name, Math.round(hole)]);
    if (card.top < before - 0.5) disorder.push(card.name);
    before = card.top;
    bottoms.set(Math.round(card.left), Math.max(bottoms.get(Math.round(card.left)), card.bottom));
    for (const other of cards.slice(0, i))
      if (other.left < card.right - 1 && card.left < other.right - 1
          && other.top < card.bottom - 1 && card.top < other.bottom - 1)
        overlaps.push([other.name, card.name]);
  }
  return {columns, holes, disorder, overlaps, width: box.width,
          widest: Math.max(...cards.map((c) => c.width)),
          bests: cards.filter((c, i) => grid.children[i].classList.contains('bests'))
            .map((c) => c.width)};
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize(("size", "columns"), [((1366, 768), 3), ((1920, 1080), 4),
                                               ((390, 844), 1), ((360, 740), 1)],
                         ids=["1366", "1920", "phone", "small-phone"])
def test_every_game_s_cards_are_packed_in_columns(
    new_context: NewContext, every_game: None, size: tuple[int, int], columns: int, scheme: str
) -> None:
    """No card waits under a row's tallest card while a column beside it ends higher: each
    goes to the top of the shortest column, a game's bests a card one column wide among
    them (they spanned the row, two thirds of it empty, and /stats was 5,713 px tall at
    1366x768 after 25 games)."""
    page = open_stats(new_context, "/stats", size, scheme)
    packing = page.evaluate(PACKING)
    assert packing["columns"] == columns
    assert packing["holes"] == [] and packing["overlaps"] == []
    assert packing["disorder"] == []  # reading order is the order seen
    assert packing["bests"], "Minesweeper on two boards has a table of bests"
    column = (packing["width"] - (columns - 1) * 16) / columns
    assert max(packing["bests"]) <= column + 1 and packing["widest"] <= column + 1
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
    # a chart's table opened makes its card taller: the cards after it move, none overlap
    page.locator(".stat-groups .stat-chart summary").first.click()
    page.wait_for_function("""() => new Promise((done) =>
        requestAnimationFrame(() => requestAnimationFrame(() => done(true))))""")
    packing = page.evaluate(PACKING)
    assert packing["holes"] == [] and packing["overlaps"] == [] and packing["disorder"] == []


def test_a_game_never_finished_says_so(new_context: NewContext, tmp_path: Path) -> None:
    fresh = start_server(tmp_path / "parlour.sqlite3")  # no game finished on it yet
    try:
        first = httpx.get(f"{fresh.url}/api/catalog").json()["games"][0]
        name, title = first["name"], first["title"]
        page = new_context(viewport={"width": 390, "height": 844}).new_page()
        page.goto(f"{fresh.url}/stats?game={name}")
        page.wait_for_selector("body[data-ready='1']")
        assert page.locator(".empty").inner_text().startswith(f"No finished games yet of {title}")
    finally:
        fresh.stop()


def test_the_theme_changes_here_as_on_every_page(new_context: NewContext) -> None:
    """The statistics page had no theme button (home, the games and the replays have one):
    the button and T go through the themes, the charts drawn in the page's colours."""
    page = open_stats(new_context, "/stats", (390, 844), "light")
    page.locator("#btn-theme").click()  # from Auto (light, on this screen)
    expect(page.locator(".toast").last).to_have_text("Theme: Dark")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # the bar still fits
    page.keyboard.press("t")
    expect(page.locator(".toast").last).to_have_text("Theme: Colour-blind")
