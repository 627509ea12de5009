"""Every game brought to the moments a player sees (just started, in play, won, lost,
drawn), made over the REST API so that the page checks (accessibility, layout) open them
at once instead of playing them out with clicks.

Each game lists its moments in its own folder, `parlour/games/<game>/tests/scenes.py`
(`SCENES`: each a `Scene` of `scene.py`, which says how to get there: the game's options
for `POST /api/games`, the moves, chosen by a policy that reads the position, worked out
with the game's own pure rules from the dealt id, and the status the game must then
have). `Stage` makes each scene once per server and hands out its session and token.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import httpx
from playwright.sync_api import Locator, Page, expect

from parlour.core.game import Status
from parlour.core.gameid import parse_game_id
from parlour.games import GAMES
from tests.browser.links import go_from_parlour, link_prompt
from tests.browser.scene import Scene
from tests.browser.views import wait_for_views

HINT_MS = 30_000  # (a hint is worked out in a worker: on a busy machine, it may wait)


def scenes_of_game(game: str) -> tuple[Scene, ...]:
    """The moments a game lists in its folder (none when it has no `tests/scenes.py`:
    the accessibility checks then fail, naming it)."""
    try:
        module = importlib.import_module(f"parlour.games.{game}.tests.scenes")
    except ModuleNotFoundError as missing:
        if missing.name != f"parlour.games.{game}.tests.scenes":
            raise
        return ()
    scenes: tuple[Scene, ...] = tuple(module.SCENES)
    return scenes


SCENES: tuple[Scene, ...] = tuple(scene for game in GAMES for scene in scenes_of_game(game))
GAME_NAMES: tuple[str, ...] = tuple(GAMES)


def scenes_of(moment: str | None = None) -> list[Scene]:
    return [scene for scene in SCENES if moment in (None, scene.moment)]


@dataclass
class Reached:
    session: str
    token: str

    def path(self, game: str) -> str:
        return f"/play/{game}?session={self.session}"


class Stage:
    """Makes each scene once on a running server (the games stay there)."""

    def __init__(self, base_url: str) -> None:
        self.api = httpx.Client(base_url=base_url, timeout=60)
        self.reached: dict[str, Reached] = {}

    def reach(self, scene: Scene) -> Reached:
        if scene.name not in self.reached:
            self.reached[scene.name] = self._play(scene)
        return self.reached[scene.name]

    def reach_all(self, scenes: Sequence[Scene] = SCENES) -> dict[str, str]:
        """Make every scene; answers their tokens by session (a browser that holds them
        is offered to resume the unfinished ones)."""
        reached = [self.reach(scene) for scene in scenes]
        return {each.session: each.token for each in reached}

    def _play(self, scene: Scene) -> Reached:
        reached, _ = self._play_until(scene, stop_before_end=False)
        status = self.api.get(f"/api/games/{reached.session}").json()["status"]
        assert status == scene.status, f"{scene.name} ended {status}"
        return reached

    def before_the_end(self, scene: Scene) -> tuple[Reached, Any]:
        """A new game of an ending scene, one move short of its end (not kept); answers
        it and that last move as JSON, for `play` to make while a page looks on."""
        reached, last = self._play_until(scene, stop_before_end=True)
        assert last is not None, f"{scene.name} does not end"
        return reached, last

    def play(self, reached: Reached, game: str, move: Any) -> dict[str, Any]:
        reply = self.api.post(f"/api/games/{reached.session}/moves", json={"move": move},
                              headers={"Authorization": f"Bearer {reached.token}"})
        assert reply.status_code == 200, reply.text
        answer: dict[str, Any] = reply.json()
        return answer

    def _play_until(self, scene: Scene, stop_before_end: bool) -> tuple[Reached, Any]:
        created = self.api.post("/api/games", json={"game": scene.game, **scene.options})
        assert created.status_code == 201, created.text
        reached = Reached(created.json()["session"], created.json()["token"])
        rules = GAMES[scene.game].game
        state = parse_game_id(rules, created.json()["id"]).deal(rules)
        played = 0
        while rules.status(state) is Status.PLAYING and played != scene.moves:
            move = (scene.line[played] if played < len(scene.line)
                    else scene.policy(rules, state))
            after = rules.apply(state, move)
            if stop_before_end and rules.status(after) is not Status.PLAYING:
                return reached, rules.move_to_json(move)
            self.play(reached, scene.game, rules.move_to_json(move))
            state = after
            played += 1
        return reached, None

    def close(self) -> None:
        self.api.close()


DIALOGS: dict[str, tuple[str, str]] = {
    "new": ("game", "new"), "help": ("help", "help"), "display": ("view", "display"),
    "about": ("help", "about"),
}
"""Each dialog of a game's page: the menu and the entry that open it."""


def open_dialog(page: Page, dialog: str) -> Locator:
    """Open a dialog from the menus, as a player does (on a phone, from the Menu button)."""
    menu, entry = DIALOGS[dialog]
    fold = page.locator("#menu-fold")
    if fold.is_visible():
        fold.click()
        page.locator(f'#menu-list [data-run="{entry}"]').click()
    else:
        page.locator(f"#menu-{menu}").click()
        page.locator(f'#menubar [data-run="{entry}"]').click()
    opened = page.locator(f"#{dialog}-dialog")
    expect(opened).to_be_visible()
    return opened


def close_dialog(page: Page, dialog: Locator) -> None:
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()


def open_scene(page: Page, scene: Scene, reached: Reached) -> None:
    """Go to the scene's game page and wait for its board (and the page's typeface)."""
    page.goto(reached.path(scene.game))
    wait_for_views(page, 1)
    page.evaluate("document.fonts.ready.then(() => true)")


def open_ready(page: Page, path: str) -> None:
    """Go to a page without a board (home, statistics) and wait until it is filled in."""
    page.goto(path)
    page.wait_for_function("document.body?.dataset.ready === '1'")
    page.evaluate("document.fonts.ready.then(() => true)")


def open_seat_dialog(page: Page, session: str) -> Locator:
    """Open, without a seat, a game that has two open seats, from Parlour's own pages (a
    link from outside asks in its own prompt, links.js): the page asks which to take."""
    go_from_parlour(page, f"/play/tribolo?session={session}")
    dialog = page.locator("#seat-dialog")
    expect(dialog).to_be_visible()
    page.evaluate("document.fonts.ready.then(() => true)")
    return dialog


def show_a_hint(page: Page) -> None:
    """Press H and wait for the hint's words in the status line."""
    before = page.locator("#message").text_content()
    page.keyboard.press("h")
    page.wait_for_function(
        "before => { const now = document.getElementById('message').textContent;"
        " return now.trim() !== '' && now !== before; }",
        arg=before, timeout=HINT_MS,
    )


SEATING = {"game": "tribolo", "seats": ["human", "open", "open"]}
"""A game made with this (`POST /api/games`) asks whoever opens it where to sit."""


def link_paths(seating: dict[str, Any]) -> dict[str, str]:
    """A deal link and a seat link of a game made with SEATING (its answer): opened from
    outside Parlour, each asks first (links.js)."""
    return {"deal link": f"/play/tribolo?id={quote(seating['id'])}",
            "seat link": f"/play/tribolo?session={seating['session']}&seat=1"}


def open_link_prompt(page: Page, path: str) -> Locator:
    """Open a deal or seat link as from outside Parlour: its prompt, fonts loaded."""
    page.goto(path)
    prompt = link_prompt(page)
    page.evaluate("document.fonts.ready.then(() => true)")
    return prompt
