"""The progress panel (static/progress.js): shown only after half a second of waiting,
with what is being done, a bar, the seconds and Cancel; gone as soon as the answer comes.

The page's clock is Playwright's, paused and moved by hand, so the half second is exact."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import OpenPage

pytestmark = pytest.mark.browser

SET_UP = """
import { createProgress } from "/static/progress.js";
// a panel of the test's own, with a cancel it counts, instead of the page's
document.querySelectorAll(".progress-panel").forEach((panel) => panel.remove());
window.cancels = 0;
window.progress = createProgress({
  board: document.getElementById("board-wrap"), cancel: () => { window.cancels += 1; },
});
"""


@pytest.fixture
def page(open_page: OpenPage) -> Page:
    page = open_page()
    page.clock.install()
    # paused: installed, the page's clock still flows with real time, and on a busy
    # machine that alone would cross the half second between two steps of a test
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)
    page.add_script_tag(type="module", content=SET_UP)
    page.wait_for_function("window.progress")
    return page


def test_an_answer_within_half_a_second_shows_nothing(page: Page) -> None:
    page.evaluate("progress.waitingFor('Thinking…')")
    page.clock.run_for(490)
    page.evaluate("progress.doneWaiting()")
    page.clock.run_for(2000)
    expect(page.locator(".progress-panel")).to_be_hidden()


def test_a_longer_wait_shows_what_is_done_until_the_answer(page: Page) -> None:
    panel = page.locator(".progress-panel")
    page.evaluate("progress.waitingFor('Thinking…')")
    page.clock.run_for(510)
    expect(panel).to_be_visible()
    expect(panel).to_have_attribute("role", "status")
    expect(panel.locator(".progress-what")).to_have_text("Thinking…")
    bar = panel.get_by_role("progressbar")
    expect(bar).to_have_class("progress-bar indeterminate")
    assert bar.get_attribute("aria-valuenow") is None  # how far is not known yet
    page.evaluate("""progress.progressReported(
        {what: 'Building the pattern database…', done: 0.25, note: 'first tiles'})""")
    page.clock.run_for(2000)
    expect(panel.locator(".progress-what")).to_have_text("Building the pattern database…")
    expect(panel.locator(".progress-note")).to_have_text("first tiles")
    expect(bar).to_have_attribute("aria-valuenow", "25")
    expect(panel.locator(".progress-time")).to_have_text("25% · 2 s")
    page.evaluate("progress.doneWaiting()")
    expect(panel).to_be_hidden()


def test_a_report_nobody_asked_for_starts_the_wait(page: Page) -> None:
    page.evaluate("progress.progressReported({what: 'Thinking…', done: null, note: ''})")
    page.clock.run_for(400)
    expect(page.locator(".progress-panel")).to_be_hidden()
    page.clock.run_for(200)
    expect(page.locator(".progress-panel")).to_be_visible()


def test_a_click_on_the_panel_goes_through_to_the_board_but_for_cancel(page: Page) -> None:
    """Shown over the board's bottom rows (it keeps to the screen's bottom), the panel
    must not take a quick player's next click: only Cancel is its own."""
    page.evaluate("progress.waitingFor('Working…')")
    page.clock.run_for(600)
    panel = page.locator(".progress-panel")
    expect(panel).to_be_visible()
    words = panel.locator(".progress-text").bounding_box()
    assert words
    hit = page.evaluate("([x, y]) => !document.querySelector('.progress-panel')"
                        ".contains(document.elementFromPoint(x, y))",
                        [words["x"] + 5, words["y"] + words["height"] / 2])
    assert hit, "the panel's words take the click"
    cancel = panel.get_by_role("button", name="Cancel").bounding_box()
    assert cancel
    assert page.evaluate("([x, y]) => document.elementFromPoint(x, y).closest('.progress-cancel')"
                         " !== null", [cancel["x"] + 5, cancel["y"] + 5])


def test_cancel_hides_the_panel_and_tells_the_page(page: Page) -> None:
    page.evaluate("progress.waitingFor('Thinking…')")
    page.clock.run_for(600)
    page.get_by_role("button", name="Cancel").click()
    expect(page.locator(".progress-panel")).to_be_hidden()
    assert page.evaluate("window.cancels") == 1


def test_a_spectator_sees_the_wait_without_cancel(page: Page) -> None:
    page.add_script_tag(type="module", content="""
        import { createProgress } from "/static/progress.js";
        window.watching = createProgress({ board: document.getElementById("seats") });
    """)
    page.wait_for_function("window.watching")
    page.evaluate("watching.waitingFor('Thinking…')")
    page.clock.run_for(600)
    panel = page.locator("#seats + .progress-panel")
    expect(panel).to_be_visible()
    expect(panel.get_by_role("button", name="Cancel")).to_be_hidden()
