"""An accessibility audit with axe-core (npm's, at the version tests/browser/axe pins:
./run-tests installs it there, so the audit itself needs no network) of every page a
player sees: the home page, the statistics, every game new, in play (with a hint shown,
too; on a phone as well) and at each of its ends, every dialog of every game (and its
Game menu, open), and the seat dialog, in the light and the dark theme. A serious or
critical violation (contrast included) fails the test, with each offending element and
axe's reasons printed. axe leaves disabled controls out of its contrast rule: their labels
are measured here in every theme (contrast.py), legible yet plainly fainter; and so are
Minesweeper's mines at a loss, an emoji whose colours no style tells, on the screen.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import CreateGame, NewContext, wait_for_views
from tests.browser.contrast import DISABLED_LEAST, GRAPHICS_LEAST, measure, picture_contrast
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
from tests.browser.views import expect_views, wait_for_animations

pytestmark = pytest.mark.browser

COLOUR_RULES = ("color-contrast", "link-in-text-block")
FAILING_IMPACTS = ("serious", "critical")
SHOWN_ELEMENTS = 4  # per violation: the rest are counted
# (no transitions: colours are read as they end, not halfway through a fade)
STILL = {"reduced_motion": "reduce", "viewport": {"width": 1366, "height": 800}}
PHONE = {"reduced_motion": "reduce", "viewport": {"width": 390, "height": 844},
         "has_touch": True, "is_mobile": True}  # (the menus fold, the labels hide)


THEMES = ("light", "dark", "colour-blind")  # every theme the ◐ button offers (Auto is one of two)
_THEME_SCRIPT = """if (location.protocol.startsWith("http"))
  localStorage.setItem("parlour.prefs", JSON.stringify({ theme: %s }));"""
FAINTER = 0.6  # a disabled label's contrast, at most, of the least an enabled button's has

AXE_FOLDER = Path(__file__).parent / "axe"


@cache
def axe_script() -> str:
    """axe-core's script, at the version the lock pins; the test fails (never skips)
    without it, saying how to install it."""
    pinned = json.loads((AXE_FOLDER / "package.json").read_text())["dependencies"]["axe-core"]
    script = AXE_FOLDER / "node_modules" / "axe-core" / "axe.min.js"
    if not script.exists():
        pytest.fail(f"axe-core is not installed: ./run-tests installs it, or "
                    f"npm ci --prefix {AXE_FOLDER}", pytrace=False)
    text = script.read_text()
    found = re.match(r"/\*! axe v([\d.]+)", text)
    if not found or found[1] != pinned:
        pytest.fail(f"axe-core {found[1] if found else '?'} is installed, {pinned} pinned: "
                    f"npm ci --prefix {AXE_FOLDER}", pytrace=False)
    return text


def use_theme(page: Page, theme: str) -> None:
    """The page's Auto theme follows the system's, as a player's would."""
    page.emulate_media(color_scheme=theme)  # type: ignore[arg-type]
    page.wait_for_function("t => document.documentElement.dataset.theme === t", arg=theme)
    # a page without reduced motion fades its colours in: audit the theme's, not a blend
    wait_for_animations(page)


def audit(page: Page, where: str, within: str | None = None,
          rules: tuple[str, ...] = ()) -> list[str]:
    """axe-core's serious and critical violations on the page (or in `within`, a CSS
    selector), each told readably: rule, impact, help, and each element with its reasons.
    Every rule is run, or only `rules` if given."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(axe_script())
    options: dict[str, Any] = {"resultTypes": ["violations"]}
    if rules:
        options["runOnly"] = {"type": "rule", "values": list(rules)}
    results: dict[str, Any] = page.evaluate(
        "([within, options]) => axe.run(within ? { include: [within] } : document, options)",
        [within, options],
    )
    return [
        describe(violation, where)
        for violation in results["violations"]
        if violation["impact"] in FAILING_IMPACTS
    ]


def describe(violation: dict[str, Any], where: str) -> str:
    nodes = violation["nodes"]
    lines = [f"{where}: {violation['id']} ({violation['impact']}): {violation['help']}, "
             f"{len(nodes)} element(s)"]
    for node in nodes[:SHOWN_ELEMENTS]:
        lines.append(f"    {' '.join(map(str, node['target']))}  {node['html'][:160]}")
        reasons = node.get("any", []) + node.get("all", []) + node.get("none", [])
        lines.extend(f"        - {reason['message']}" for reason in reasons)
    if len(nodes) > SHOWN_ELEMENTS:
        lines.append(f"    ... and {len(nodes) - SHOWN_ELEMENTS} more")
    return "\n".join(lines)


def audit_in_both_themes(page: Page, where: str, within: str | None = None) -> list[str]:
    """Every rule in the light theme; in the dark one, the rules about colour (a theme
    changes nothing else), which halves the time."""
    use_theme(page, "light")
    found = audit(page, f"{where}, light", within)
    use_theme(page, "dark")
    return found + audit(page, f"{where}, dark", within, COLOUR_RULES)


def assert_none(found: list[str]) -> None:
    if found:
        pytest.fail("accessibility violations:\n" + "\n".join(found), pytrace=False)


def test_every_game_has_a_scene_in_play_and_one_at_its_end() -> None:
    """A game added without its scenes is audited nowhere: say so, by name."""
    for game in GAME_NAMES:
        moments = {scene.moment for scene in SCENES if scene.game == game}
        assert "play" in moments and moments - {"play"}, (
            f"parlour/games/{game}/tests/scenes.py has no scene of {game} in play and at its end")


def test_the_home_page(new_context: NewContext, stage: Stage) -> None:
    unfinished = stage.reach_all(scenes_of("play"))  # (held: the Resume list shows them)
    page = new_context(tokens=unfinished, **STILL).new_page()
    open_ready(page, "/")
    assert_none(audit_in_both_themes(page, "home"))


def test_the_statistics_page(new_context: NewContext, stage: Stage) -> None:
    stage.reach_all()  # every game has finished games to show
    page = new_context(**STILL).new_page()
    open_ready(page, "/stats")
    assert_none(audit_in_both_themes(page, "statistics"))


@pytest.mark.parametrize("scene", SCENES, ids=lambda scene: scene.name)
def test_a_game_page(new_context: NewContext, stage: Stage, scene: Scene) -> None:
    reached = stage.reach(scene)
    page = new_context(tokens={reached.session: reached.token}, **STILL).new_page()
    open_scene(page, scene, reached)
    found = audit_in_both_themes(page, scene.name)
    if scene.moment == "play":
        show_a_hint(page)  # (a hinted cell has colours of its own)
        found += audit_in_both_themes(page, f"{scene.name} with a hint")
    assert_none(found)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_new_game_page(new_context: NewContext, game: str) -> None:
    """A game as it opens, before a move: the clock is still empty (axe 4.12 on found a
    label on it that an empty element without a role may not have)."""
    page = new_context(**STILL).new_page()
    page.goto(f"/play/{game}")
    wait_for_views(page, 1)
    assert_none(audit(page, f"{game}, new"))


@pytest.mark.parametrize("scene", scenes_of("play"), ids=lambda scene: scene.name)
def test_a_game_page_on_a_phone(new_context: NewContext, stage: Stage, scene: Scene) -> None:
    reached = stage.reach(scene)
    page = new_context(tokens={reached.session: reached.token}, **PHONE).new_page()
    open_scene(page, scene, reached)
    assert_none(audit_in_both_themes(page, f"{scene.name} on a phone"))


@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_dialogs_and_menus_of_a_game(new_context: NewContext, stage: Stage, game: str) -> None:
    scene = next(scene for scene in scenes_of("play") if scene.game == game)
    reached = stage.reach(scene)
    page = new_context(tokens={reached.session: reached.token}, **STILL).new_page()
    open_scene(page, scene, reached)
    found = []
    for name in DIALOGS:
        dialog = open_dialog(page, name)
        found += audit_in_both_themes(page, f"{game} {name} dialog", f"#{name}-dialog")
        close_dialog(page, dialog)
    page.locator("#menu-game").click()  # and a menu, open
    expect(page.locator("#menu-game-list")).to_be_visible()
    found += audit_in_both_themes(page, f"{game} Game menu", "#menus")
    assert_none(found)


def test_the_seat_dialog(new_context: NewContext, create_game: CreateGame) -> None:
    created = create_game(**SEATING)
    page = new_context(**STILL).new_page()
    open_seat_dialog(page, created["session"])
    assert_none(audit_in_both_themes(page, "seat dialog", "#seat-dialog"))


def test_the_prompts_of_deal_and_seat_links(
    new_context: NewContext, create_game: CreateGame
) -> None:
    links = link_paths(create_game(**SEATING))
    page = new_context(**STILL).new_page()
    found: list[str] = []
    for name, path in links.items():
        open_link_prompt(page, path)
        found += audit_in_both_themes(page, f"{name} prompt", "#link-dialog")
    assert_none(found)


@pytest.mark.parametrize("game", ["tribolo", "escalator"])
def test_a_replay_page(new_context: NewContext, stage: Stage, game: str) -> None:
    ended = next(scene for scene in SCENES if scene.game == game and scene.moment != "play")
    page = new_context(**STILL).new_page()
    open_ready(page, f"/replay/{stage.reach(ended).session}#move=3")
    assert_none(audit_in_both_themes(page, f"replay of {game}"))


def test_a_replay_refused_before_the_end(new_context: NewContext, stage: Stage) -> None:
    playing = stage.reach(scenes_of("play")[0])
    page = new_context(**STILL).new_page()
    open_ready(page, f"/replay/{playing.session}")
    assert_none(audit_in_both_themes(page, "a replay refused"))


def open_in_theme(new_context: NewContext, created: dict[str, Any], theme: str) -> Page:
    """The page of a game just created, by its player, in `theme`."""
    context = new_context(tokens={created["session"]: created["token"]}, **STILL)
    context.add_init_script(_THEME_SCRIPT % json.dumps(theme))
    page = context.new_page()
    page.goto(f"/play/{created['view']['game']}?session={created['session']}")
    wait_for_views(page, 1)
    assert page.evaluate("document.documentElement.dataset.theme") == theme
    return page


@pytest.mark.parametrize("theme", THEMES)
def test_disabled_labels_stay_legible_and_look_disabled_in_every_theme(
    new_context: NewContext, create_game: CreateGame, stage: Stage, theme: str
) -> None:
    """A new game's Restart, Undo and Redo, the Game menu's entries that cannot be chosen
    yet, and the replay's Start and Back at its first move: each label at least 3:1 on
    its background as seen (opacity included), and at most 0.6 of the contrast of the
    toolbar's enabled buttons, so that it still reads as disabled."""
    page = open_in_theme(new_context, create_game("tictactoe"), theme)
    enabled = measure(page, ".toolbar .btn:not(:disabled, .primary, .quiet)")
    labels = measure(page)
    page.locator("#menu-game").click()
    expect(page.locator("#menu-game-list")).to_be_visible()
    labels += measure(page, '#menu-game-list .menu-item[aria-disabled="true"]')
    ended = next(scene for scene in SCENES if scene.game == "tictactoe" and scene.moment != "play")
    open_ready(page, f"/replay/{stage.reach(ended).session}#move=0")
    labels += measure(page)
    measured = {label["control"] for label in labels}
    assert {"btn-restart", "btn-undo", "btn-redo", "rp-start", "rp-back"} <= measured, measured
    assert any(label["part"] == "menu-label" for label in labels), labels
    faint = [label for label in labels if label["ratio"] < DISABLED_LEAST]
    assert not faint, f"disabled labels fainter than {DISABLED_LEAST}:1 in {theme}: {faint}"
    least = min(label["ratio"] for label in enabled)
    bold = [label for label in labels if label["ratio"] > FAINTER * least]
    assert not bold, f"disabled labels as clear as enabled ones ({least:.2f}:1) in {theme}: {bold}"


@pytest.mark.parametrize("theme", THEMES)
def test_a_refusals_reason_is_legible_in_every_theme(
    new_context: NewContext, create_game: CreateGame, theme: str
) -> None:
    """A refusal's reason (why Undo is off), in the page's danger colour, at WCAG's 4.5:1
    or more on the page: the dark theme's red was 2.7:1 on its near-black."""
    page = open_in_theme(new_context, create_game("escalator"), theme)
    with expect_views(page):
        page.keyboard.press("d")  # a card turned from the stock: Undo is off
    page.keyboard.press("u")
    expect(page.locator("#message.error")).to_contain_text("Undo is off")
    ratios = [label["ratio"] for label in measure(page, "#message.error")]
    assert ratios and min(ratios) >= 4.5, f"a refusal at {min(ratios):.2f}:1 in the {theme} theme"


@pytest.mark.parametrize("theme", THEMES)
def test_the_mines_shown_at_a_loss_stand_out_in_every_theme(
    new_context: NewContext, stage: Stage, theme: str
) -> None:
    """Minesweeper's 💣, drawn in the emoji's own dark grey, at 3:1 or more on its cell
    (WCAG's figure for graphics), measured on the screen: the dark theme's open cell
    left it at 2.1:1."""
    lost = next(scene for scene in SCENES if scene.name == "minesweeper-lost")
    reached = stage.reach(lost)
    context = new_context(tokens={reached.session: reached.token}, **STILL)
    context.add_init_script(_THEME_SCRIPT % json.dumps(theme))
    page = context.new_page()
    open_scene(page, lost, reached)
    assert page.evaluate("document.documentElement.dataset.theme") == theme
    page.keyboard.press("Escape")  # the end card away
    mines = page.locator("#ms-grid .ms-cell.mine:not(.exploded)")
    expect(mines.first).to_be_visible()
    ratios = [picture_contrast(mine.screenshot(animations="disabled"))
              for mine in mines.all()]
    assert ratios and min(ratios) >= GRAPHICS_LEAST, (
        f"mines at {min(ratios):.2f}:1 on their cells in the {theme} theme")
