"""Every game brought to the moments a player sees (just started, in play, won, lost,
drawn), made over the REST API so that the page checks (accessibility, layout) open them
at once instead of playing them out with clicks.

A `Scene` says how to get there: the game's options for `POST /api/games`, the moves
(chosen by a policy that reads the position, which the test works out with the game's own
pure rules from the dealt id), and the status the game must then have. `Stage` makes each
scene once per server and hands out its session and token.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import httpx
from playwright.sync_api import Locator, Page, expect

from parlour.core.game import Game, Status
from parlour.core.gameid import GameId, parse_game_id
from parlour.games import GAMES
from parlour.games.escalator.logic import Draw, Layout, Pick
from parlour.games.ishido.logic import COLS as ISHIDO_COLS
from parlour.games.ishido.logic import Board, valid_cells
from parlour.games.minesweeper.logic import OPEN, Minefield
from parlour.games.sliding.logic import Puzzle, Slide, goal
from tests.browser.links import go_from_parlour, link_prompt
from tests.browser.views import wait_for_views

HINT_MS = 30_000  # (a hint is worked out in a worker: on a busy machine, it may wait)
Policy = Callable[[Game[Any, Any], Any], Any]
"""(rules, position) -> the move to play next."""


def first_legal(rules: Game[Any, Any], state: Any) -> Any:
    return rules.legal_moves(state)[0]


def most_neighbours(rules: Game[Any, Any], board: Board) -> tuple[int, int]:
    """Ishido: the cell touching the most tiles, the first in reading order among equals
    (this greedy play clears the pouch of some deals)."""
    valid = valid_cells(board)
    cell = max(valid, key=lambda cell: (valid[cell], -cell))
    return cell % ISHIDO_COLS, cell // ISHIDO_COLS


def stock_then_picks(rules: Game[Any, Any], layout: Layout) -> Draw | Pick:
    """Escalator: turn the whole stock, then pick what fits (this loses most deals)."""
    return Draw() if layout.stock_left else Pick(layout.playable()[0])


def open_a_mine(rules: Game[Any, Any], field: Minefield) -> tuple[str, int, int]:
    """Minesweeper: the centre first (the first click is safe), then a mine."""
    if not field.started:
        return "open", field.rows // 2, field.cols // 2
    mine = min(field.mined)
    return "open", *divmod(mine, field.cols)


def open_safe_cells(rules: Game[Any, Any], field: Minefield) -> tuple[str, int, int]:
    """Minesweeper: the centre first, then every closed cell without a mine."""
    if not field.started:
        return "open", field.rows // 2, field.cols // 2
    cell = next(cell for cell, mark in enumerate(field.marks)
                if mark != OPEN and cell not in field.mined)
    return "open", *divmod(cell, field.cols)


def the_solving_slide(rules: Game[Any, Any], puzzle: Puzzle) -> Slide:
    return next(move for move in rules.legal_moves(puzzle) if rules.apply(puzzle, move).solved())


@dataclass(frozen=True)
class Scene:
    game: str
    moment: str  # "play", or the status it ends with: "won", "lost", "draw"
    options: dict[str, Any] = field(default_factory=dict)  # for POST /api/games
    policy: Policy = first_legal
    moves: int | None = None  # how many moves to play; None: until the game is over
    line: tuple[Any, ...] = ()  # moves played first, as they are, before the policy's

    @property
    def name(self) -> str:
        return f"{self.game}-{self.moment}"

    @property
    def status(self) -> str:
        return "playing" if self.moment == "play" else self.moment


def sliding_one_slide_from_solved() -> str:
    rules = GAMES["sliding"].game
    params = rules.validate({"rows": 3, "cols": 3})
    tiles = list(goal(3, 3))
    tiles[-2], tiles[-1] = tiles[-1], tiles[-2]  # the gap one step left of its place
    return GameId("sliding", params, None, position=",".join(map(str, tiles))).text(rules)


HOTSEAT = ["human", "human"]
# (tic-tac-toe cells are [row, column])
SCENES: tuple[Scene, ...] = (
    Scene("tictactoe", "play", line=((1, 1),), moves=1),
    Scene("tictactoe", "won", {"seats": HOTSEAT},
          line=((0, 0), (1, 0), (0, 1), (1, 1), (0, 2))),
    Scene("tictactoe", "draw", {"seats": HOTSEAT},
          line=((0, 0), (1, 1), (2, 2), (0, 1), (2, 1), (2, 0), (0, 2), (1, 2), (1, 0))),
    Scene("minesweeper", "play", {"id": "minesweeper:easy#scene"}, open_safe_cells, moves=2),
    Scene("minesweeper", "won", {"id": "minesweeper:easy#scene"}, open_safe_cells),
    Scene("minesweeper", "lost", {"id": "minesweeper:easy#scene"}, open_a_mine),
    Scene("ishido", "play", {"id": "ishido:seed#b3"}, most_neighbours, moves=6),
    Scene("ishido", "won", {"id": "ishido:seed#b3"}, most_neighbours),
    Scene("ishido", "lost", {"id": "ishido:seed#s2"}),
    Scene("escalator", "play", {"id": "escalator:standard#s0"}, stock_then_picks, moves=3),
    Scene("escalator", "lost", {"id": "escalator:standard#s0"}, stock_then_picks),
    Scene("sliding", "play", {"id": "sliding:easy#scene"}, moves=1),
    Scene("sliding", "won", {"id": sliding_one_slide_from_solved()}, the_solving_slide),
    Scene("tribolo", "play", {"id": "tribolo:standard#s0", "seats": ["human"] * 3}, moves=6),
    Scene("tribolo", "won", {"id": "tribolo:standard#s0", "seats": ["human"] * 3}),
)
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
