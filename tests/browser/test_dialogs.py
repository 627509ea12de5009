"""The Help and New game dialogs in a real Chromium: Help opens at its top with the focus
on its title and lists each key once (only the keys the game has); the New game dialog
shows every field whole on a phone, and labels for players where values are for code."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from parlour.games import GAMES
from tests.browser.conftest import CreateGame, NewContext, OpenPage

pytestmark = pytest.mark.browser

PHONE = {"has_touch": True, "is_mobile": True, "viewport": {"width": 390, "height": 844}}
DESKTOP = {"viewport": {"width": 1366, "height": 800}}

OpenGame = Callable[..., Page]


@pytest.fixture
def game_page(open_page: OpenPage, new_context: NewContext, create_game: CreateGame) -> OpenGame:
    """`game_page("minesweeper", phone=True, **options)`: a new game, open in a browser
    that holds its seats."""

    def open_game(game: str, phone: bool = False, **options: Any) -> Page:
        created = create_game(game, **options)
        tokens = {created["session"]: created["token"]}
        context = new_context(tokens=tokens, **(PHONE if phone else DESKTOP))
        return open_page(f"/play/{game}?session={created['session']}", context=context)

    return open_game


def key_rows(page: Page) -> list[tuple[str, str]]:
    rows = page.locator("#keys tr")
    return [(rows.nth(i).locator("td").nth(0).inner_text(),
             rows.nth(i).locator("td").nth(1).inner_text()) for i in range(rows.count())]


def keys_of(rows: list[tuple[str, str]]) -> list[str]:
    return [key.strip() for keys, _ in rows for key in keys.split(",")]


# -- Help ------------------------------------------------------------------------------
@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_help_opens_at_its_top_with_the_focus_on_its_title(
    game_page: OpenGame, phone: bool
) -> None:
    page = game_page("minesweeper", phone=phone)
    page.keyboard.press("F1")
    dialog = page.locator("#help-dialog")
    expect(dialog).to_be_visible()
    assert page.evaluate("document.activeElement.id") == "help-title"
    title = page.locator("#help-title").bounding_box()
    box = dialog.bounding_box()
    assert title is not None and box is not None
    assert box["y"] <= title["y"] and title["y"] + title["height"] <= box["y"] + box["height"]
    assert page.evaluate("document.getElementById('help-dialog').scrollTop") == 0
    assert page.evaluate(
        "document.querySelector('#help-dialog .dialog-body').scrollTop") == 0
    # the start of the rules is in sight under the title
    first = page.locator("#rules > *").first.bounding_box()
    assert first is not None and first["y"] < box["y"] + box["height"]

    # still a keyboard dialog: Tab reaches Close, Esc closes
    for _ in range(30):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.textContent") == "Close":
            break
    else:
        pytest.fail("Tab never reached Close")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()


def test_the_help_button_opens_at_the_top_too_and_keyboard_shortcuts_at_the_keys(
    game_page: OpenGame,
) -> None:
    page = game_page("ishido")
    page.locator("#btn-help").click()
    expect(page.locator("#help-dialog")).to_be_visible()
    assert page.evaluate("document.activeElement.id") == "help-title"
    page.keyboard.press("Escape")
    page.locator("#menu-help").click()
    page.locator('#menubar [data-run="keys"]').click()
    expect(page.locator("#help-dialog")).to_be_visible()
    assert page.evaluate("document.activeElement.id") == "keys-title"
    keys = page.locator("#keys-title").bounding_box()
    box = page.locator("#help-dialog").bounding_box()
    assert keys is not None and box is not None
    assert box["y"] <= keys["y"] < box["y"] + box["height"] - keys["height"]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_key_table_names_each_key_once(
    game_page: OpenGame, base_url: str, name: str
) -> None:
    page = game_page(name)
    page.keyboard.press("?")
    expect(page.locator("#help-dialog")).to_be_visible()
    rows = key_rows(page)
    keys = [key.upper() for key in keys_of(rows)]
    assert len(keys) == len(set(keys)), rows
    assert all(action for _, action in rows)
    catalog = httpx.get(f"{base_url}/api/catalog").json()
    declared = next(game for game in catalog["games"] if game["name"] == name)["key_table"]
    assert rows == [(row["keys"], row["action"]) for row in declared]


def test_the_key_table_lists_only_keys_the_game_has(game_page: OpenGame) -> None:
    ttt = game_page("tictactoe")
    ttt.keyboard.press("F1")
    rows = dict(key_rows(ttt))
    assert "Space" not in keys_of(list(rows.items()))  # Tic-Tac-Toe has no second action
    assert not any("second action" in action for action in rows.values())
    assert rows["1 to 9"].startswith("claim a cell")

    sweeper = game_page("minesweeper")
    sweeper.keyboard.press("F1")
    rows = dict(key_rows(sweeper))
    assert keys_of(list(rows.items())).count("Space") == 1
    assert "flag" in rows["Space"]
    assert keys_of(list(rows.items())).count("Enter") == 1


# -- New game ----------------------------------------------------------------------------
# Every label, field and option of the dialog whose text does not fit its box.
CUT_TEXT_JS = """
(dialog) => {
  const measure = document.createElement("canvas").getContext("2d");
  const textWidth = (element, text) => {
    const style = getComputedStyle(element);
    measure.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    return measure.measureText(text).width;
  };
  const right = dialog.getBoundingClientRect().right;
  const cut = [];
  const fields = dialog.querySelectorAll(
    "label, select, input:not([type=checkbox], [type=hidden], [type=range], [type=file])");
  for (const element of fields) {
    if (!element.getClientRects().length) continue;  // not shown
    const style = getComputedStyle(element);
    const arrow = element.tagName === "SELECT" ? 24 : 0;  // a select's drop-down arrow
    const room = element.clientWidth - parseFloat(style.paddingLeft)
      - parseFloat(style.paddingRight) - arrow;
    const texts = element.tagName === "SELECT" ? [...element.options].map((o) => o.text)
      : element.tagName === "INPUT" ? [element.value || element.placeholder] : [];
    for (const text of texts) {
      if (textWidth(element, text) > room) cut.push(`${element.id}: ${text}`);
    }
    if (element.tagName === "LABEL" && element.scrollWidth > element.clientWidth + 1) {
      cut.push(`label ${element.textContent}`);
    }
    if (element.getBoundingClientRect().right > right + 0.5) cut.push(`${element.id} sticks out`);
  }
  return cut;
}
"""


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_field_of_new_game_shows_its_whole_text(
    game_page: OpenGame, name: str, phone: bool
) -> None:
    page = game_page(name, phone=phone)
    page.keyboard.press("n")
    dialog = page.locator("#new-dialog")
    expect(dialog).to_be_visible()
    assert dialog.evaluate(CUT_TEXT_JS) == []
    width = 390 if phone else 1366
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.locator("#new-dialog button[value=cancel]").click()
    expect(dialog).to_be_hidden()


def test_on_a_phone_labels_stand_above_their_fields(game_page: OpenGame) -> None:
    page = game_page("minesweeper", phone=True)
    page.locator("#btn-new").click()
    label = page.locator('label[for="f-param-first_click"]').bounding_box()
    field = page.locator("#f-param-first_click").bounding_box()
    assert label is not None and field is not None
    assert label["y"] + label["height"] <= field["y"] + 1
    assert field["width"] > 250


def test_an_option_says_what_it_means_under_its_field(game_page: OpenGame, base_url: str
                                                       ) -> None:
    """Each option's meaning (the catalog's help) shows under its field and is read with
    it, on a phone as on a desktop: a title on the label showed only to a mouse."""
    catalog = httpx.get(f"{base_url}/api/catalog").json()
    sweeper = next(game for game in catalog["games"] if game["name"] == "minesweeper")
    meaning = next(p for p in sweeper["parameters"] if p["name"] == "first_click")["help"]
    page = game_page("minesweeper", phone=True)
    page.keyboard.press("n")
    field = page.locator("#f-param-first_click")
    help_line = page.locator("#f-param-first_click-help")
    expect(help_line).to_be_visible()
    expect(help_line).to_have_text(meaning[0].upper() + meaning[1:])
    expect(field).to_have_attribute("aria-describedby", "f-param-first_click-help")
    below, box = help_line.bounding_box(), field.bounding_box()
    assert below is not None and box is not None and below["y"] >= box["y"] + box["height"]


def test_new_game_shows_labels_and_sends_the_values(
    game_page: OpenGame, base_url: str
) -> None:
    catalog = httpx.get(f"{base_url}/api/catalog").json()
    sweeper = next(game for game in catalog["games"] if game["name"] == "minesweeper")
    labels = next(p for p in sweeper["parameters"] if p["name"] == "first_click")["choice_labels"]
    page = game_page("minesweeper")
    page.keyboard.press("n")
    first_click = page.locator("#f-param-first_click option")
    assert first_click.all_inner_texts() == [labels[v] for v in ("opening", "safe", "no_guess")]
    assert all(text[:1].isupper() for text in first_click.all_inner_texts())
    presets = page.locator("#f-preset option").all_inner_texts()
    assert presets == [*sweeper["preset_labels"].values(), "Custom"]
    assert all(text[:1].isupper() for text in presets)
    page.select_option("#f-preset", label=sweeper["preset_labels"]["beginner"])
    page.select_option("#f-param-first_click", label=labels["no_guess"])
    page.locator("#new-start").click()
    expect(page.locator("#new-dialog")).to_be_hidden()
    page.wait_for_function(
        "() => new URLSearchParams(location.search).get('session') !== null")
    sid = page.evaluate("new URLSearchParams(location.search).get('session')")
    token = page.evaluate(f"JSON.parse(localStorage.getItem('parlour.tokens'))['{sid}']")
    view = httpx.get(f"{base_url}/api/games/{sid}",
                     headers={"Authorization": f"Bearer {token}"}).json()
    assert view["params"]["first_click"] == "no_guess"
    assert (view["params"]["rows"], view["params"]["cols"]) == (9, 9)


def test_seats_and_display_options_read_as_words(game_page: OpenGame, base_url: str) -> None:
    page = game_page("tictactoe")
    page.keyboard.press("n")
    seats = page.locator("#f-seat-1 option").all_inner_texts()
    assert "Computer: Perfect" in seats and "A friend (invite link)" in seats
    page.keyboard.press("Escape")

    cards = game_page("escalator", params={"winnable": False})
    cards.locator("#menu-view").click()
    options = cards.locator('#menubar [role="menuitemradio"] .menu-label').all_inner_texts()
    assert options and all(text.split(": ")[1][:1].isupper() for text in options), options
    cards.locator('#menubar [data-run="display"]').click()
    expect(cards.locator("#display-dialog")).to_be_visible()
    catalog = httpx.get(f"{base_url}/api/catalog").json()
    escalator = next(game for game in catalog["games"] if game["name"] == "escalator")
    values = escalator["display_options"]["deck"]
    deck = cards.locator("#opt-deck option")
    assert deck.all_inner_texts() == [escalator["display_labels"]["deck"][v] for v in values]
    assert all(text[:1].isupper() for text in deck.all_inner_texts())
    assert [deck.nth(i).get_attribute("value") for i in range(len(values))] == values


def test_a_game_started_from_new_game_is_played_by_enter_at_once(
    game_page: OpenGame,
) -> None:
    page = game_page("sliding", params={"rows": 3, "cols": 3, "tiles": "1,2,3,4,5,6,7,8,0"})
    first = page.evaluate("new URLSearchParams(location.search).get('session')")
    page.locator("#btn-new").click()  # (the button keeps the focus)
    expect(page.locator("#new-dialog")).to_be_visible()
    page.keyboard.press("Enter")  # Start: the dialog opens on it
    expect(page.locator("#new-dialog")).to_be_hidden()
    page.wait_for_function(
        f"() => new URLSearchParams(location.search).get('session') !== {first!r}")
    page.keyboard.press("Enter")  # the board's cursor, not New game once more
    expect(page.locator("#new-dialog")).to_be_hidden()
    expect(page.locator("#board [data-nav]:focus")).to_have_count(1)


# The dialog's fields of each kind: Enter in the first of each starts the game.
FIELD_KINDS = ("select", "input[type=number]", "input[type=checkbox]", "input:not([type])")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_enter_in_any_field_of_new_game_starts_the_game(game_page: OpenGame, game: str) -> None:
    """As a form's Enter does: a select's Enter opened its list instead (Tab to Start was
    needed), and Enter in a box to type in pressed the form's first button, Cancel."""
    page = game_page(game)
    session = "new URLSearchParams(location.search).get('session')"
    tried = []
    for kind in FIELD_KINDS:
        page.keyboard.press("n")
        expect(page.locator("#new-dialog")).to_be_visible()
        field = page.locator(f"#new-fields {kind}:not([hidden])").first
        if not field.count():
            page.keyboard.press("Escape")
            continue
        before = page.evaluate(session)
        field.focus()
        page.keyboard.press("Enter")
        expect(page.locator("#new-dialog")).to_be_hidden()
        page.wait_for_function(f"() => {session} !== {before!r}")
        tried.append(kind)
    rules = GAMES[game].game
    chooses = (any(p.kind != "bool" for p in rules.parameters)
               or len(rules.seat_names(rules.validate({}))) > 1)
    # a game with a choice or a number among its parameters has a select (the choice's,
    # or the presets'), one of several seats the seats'; a game with neither (Lights Out)
    # still has the field of a game id
    assert ("select" in tried) == chooses and tried


def test_a_field_that_means_nothing_with_the_others_is_greyed_out(game_page: OpenGame) -> None:
    """The walk's steps, with a shuffle that is no walk: its field, label and help grey out
    (the value went into the game id as if it counted)."""
    page = game_page("sliding")
    page.keyboard.press("n")
    steps, label = page.locator("#f-param-steps"), page.locator('label[for="f-param-steps"]')
    expect(steps).to_be_enabled()
    page.select_option("#f-param-shuffle", "random")
    expect(steps).to_be_disabled()
    expect(label).to_have_class(re.compile(r"\bunused\b"))
    expect(page.locator("#f-param-steps-help")).to_have_class(re.compile(r"\bunused\b"))
    page.select_option("#f-param-shuffle", "walk")
    expect(steps).to_be_enabled()
    expect(label).not_to_have_class(re.compile(r"\bunused\b"))


def test_the_preset_shown_follows_the_fields_changed_by_hand(game_page: OpenGame) -> None:
    sweeper = game_page("minesweeper", params={"rows": 9, "cols": 9, "mines": 10})
    sweeper.keyboard.press("n")
    expect(sweeper.locator("#f-preset")).to_have_value("beginner")
    sweeper.locator("#f-param-mines").fill("11")
    expect(sweeper.locator("#f-preset")).to_have_value("")  # Custom
    sweeper.locator("#f-param-mines").fill("10")
    expect(sweeper.locator("#f-preset")).to_have_value("beginner")


@pytest.mark.parametrize(("game", "field"), [("ishido", "#f-param-rules"),
                                             ("escalator", "#f-param-winnable")])
def test_no_preset_row_where_each_preset_is_one_value_of_a_field(
    game_page: OpenGame, game: str, field: str
) -> None:
    """Ishido's two rule sets, Escalator's winnable deals: the field alone offers them (a
    Preset row beside it offered the same choice twice)."""
    page = game_page(game)
    page.keyboard.press("n")
    expect(page.locator(field)).to_be_visible()
    expect(page.locator("#f-preset")).to_have_count(0)
