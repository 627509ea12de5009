"""Deal and seat links in the browser tests (links.js). A test's `page.goto` has no
referrer, as a pasted address has none: the page asks before it starts a game or takes a
seat. `confirm_link` clicks what the prompt offers, as a player who opened the link would;
`go_from_parlour` opens a page as Parlour's own pages do, which goes straight in."""

from __future__ import annotations

from playwright.sync_api import Locator, Page, expect

LINK_DIALOG = "#link-dialog"


def link_prompt(page: Page) -> Locator:
    """The prompt of a deal or seat link, once it shows."""
    dialog = page.locator(LINK_DIALOG)
    expect(dialog).to_be_visible()
    return dialog


def confirm_link(page: Page) -> None:
    """Click the prompt's main button: "Play this deal", or "Take the … seat"."""
    link_prompt(page).locator("#link-actions .btn.primary").click()
    expect(page.locator(LINK_DIALOG)).to_be_hidden()


def go_from_parlour(page: Page, path: str) -> None:
    """Open `path` from Parlour's home page, as its own links do (its referrer is Parlour)."""
    page.goto("/")
    with page.expect_navigation():
        page.evaluate("path => { location.href = path; }", path)
