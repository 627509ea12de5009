"""Menus and commands as data (`parlour/core/commands.py`): every game's menus in the
catalog, the checks on what a game declares, and the server-command path, proven with
`Peek`, a tiny test double (no real game needs a server command yet)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, ClassVar, TypeVar

import pytest
from fastapi.testclient import TestClient
from pydantic import BaseModel, ConfigDict

from parlour.core.commands import (
    BROWSER_KEYS,
    Command,
    client,
    menu_commands,
    new_game,
    option,
    server,
    server_command_states,
)
from parlour.core.game import (
    JSON,
    Game,
    GameSpec,
    Hint,
    IllegalMove,
    Params,
    Playback,
    Replay,
    Status,
)
from parlour.core.gameid import SHOWN
from parlour.games import GAMES
from parlour.server.app import create_app
from parlour.server.compute import Compute, Progress
from parlour.store.sqlite import SqliteStore as Store

T = TypeVar("T")
MENUS = ["game", "edit", "view", "help"]


def catalog_games(client: TestClient) -> dict[str, dict[str, Any]]:
    response = client.get("/api/catalog")
    assert response.status_code == 200
    return {game["name"]: game for game in response.json()["games"]}


def commands_of(game: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    return {command["name"]: command for command in game["commands"]}


# -- the real games' menus, in the catalog ----------------------------------------------
def test_every_game_has_the_four_menus(client: TestClient) -> None:
    for name, game in catalog_games(client).items():
        assert [(m["name"], m["label"]) for m in game["menus"]] == [
            ("game", "Game"), ("edit", "Edit"), ("view", "View"), ("help", "Help")
        ], name
        menus = [command["menu"] for command in game["commands"]]
        assert sorted(set(menus), key=MENUS.index) == MENUS, name
        assert menus == sorted(menus, key=MENUS.index), f"{name}: commands not menu by menu"
        standard = commands_of(game)
        for needed in ("new", "restart", "export", "import", "quit", "undo", "redo",
                       "display", "theme", "sound", "help", "keys", "about", "api"):
            assert standard[needed]["kind"] == "client", (name, needed)
            assert standard[needed]["args"] == {"action": needed}, (name, needed)


def test_keys_are_unique_within_a_game_and_none_is_kept_by_the_browser(
    client: TestClient,
) -> None:
    for name, game in catalog_games(client).items():
        keys = [key.upper() for command in game["commands"] for key in command["keys"]]
        assert len(keys) == len(set(keys)), f"{name}: a key is taken twice: {sorted(keys)}"
        assert not set(keys) & {key.upper() for key in BROWSER_KEYS}, name
        commands = commands_of(game)
        # the seed's accelerators, with alternatives a browser lets through
        assert commands["new"]["keys"] == ["N", "Alt+N"]
        assert commands["quit"]["keys"] == ["Q", "Alt+Q"]
        # Ctrl+Z everywhere; U too, but where a game's seed gave U another job (the
        # sliding puzzle's unmute) and the game rebinds Undo (GameSpec.command_keys)
        expected_undo = ["Ctrl+Z", "Backspace"] if name == "sliding" else ["U", "Ctrl+Z"]
        assert commands["undo"]["keys"] == expected_undo
        assert commands["redo"]["keys"][:2] == ["Y", "Ctrl+Y"]
        assert commands["help"]["keys"] == ["?", "F1"]


def test_a_games_own_commands_are_in_its_menus(client: TestClient) -> None:
    games = catalog_games(client)
    minesweeper = commands_of(games["minesweeper"])
    assert minesweeper["no-guess"] == {
        "name": "no-guess", "label": "New no-guess game", "menu": "game", "group": 1,
        "keys": ["G"], "kind": "new-game",
        "args": {"params": {"first_click": "no_guess"}, "seats": []}, "in_menu": True,
    }
    assert minesweeper["easy"]["keys"] == ["1"]
    assert minesweeper["expert"]["args"]["params"] == {"rows": 16, "cols": 30, "mines": 99}
    ishido = commands_of(games["ishido"])
    assert ishido["new-1990"]["args"]["params"] == {"rules": "classic"}
    assert [ishido[f"tiles-{tiles}"]["args"] for tiles in ("birds", "shapes", "symbols")] == [
        {"option": "tiles", "value": tiles} for tiles in ("birds", "shapes", "symbols")
    ]
    assert ishido["assist"]["keys"] == ["A"] and "assist" not in commands_of(games["tictactoe"])
    tictactoe = commands_of(games["tictactoe"])
    assert tictactoe["new-perfect"]["args"]["seats"] == ["human", "ai:perfect"]
    assert "invite-link" in tictactoe and "invite-link" not in minesweeper


def test_the_key_table_has_no_row_twice(client: TestClient) -> None:
    """The page's key table is the commands' keys plus the board's own shortcuts."""
    for name, game in catalog_games(client).items():
        command_keys = {key for command in game["commands"] for key in command["keys"]}
        for shortcut in game["shortcuts"]:
            assert not set(shortcut["keys"].split(", ")) & command_keys, (name, shortcut)


def test_every_game_has_an_about_box(client: TestClient) -> None:
    for game in catalog_games(client).values():
        about = commands_of(game)["about"]
        assert about["label"] == f"About {game['title']}" and about["menu"] == "help"
        assert about["group"] > 0  # last, below a line, as in a desktop program
        assert "Parlour added" in game["about_html"]
    assert "Harsányi" in catalog_games(client)["ishido"]["about_html"]
    assert "Factor" in catalog_games(client)["minesweeper"]["about_html"]
    assert "ClojureScript" in catalog_games(client)["tictactoe"]["about_html"]


def test_declarations_are_checked_where_they_are_made() -> None:
    with pytest.raises(ValueError, match="browser keeps Ctrl\\+N"):
        client("new", "New game", "game", "Ctrl+N")
    with pytest.raises(ValueError, match="no client action"):
        client("launch", "Launch", "game")
    with pytest.raises(ValueError, match="is written like"):
        new_game("small", "Small", "ctrl+s")
    with pytest.raises(ValueError, match="menu must be one of"):
        Command("odd", "Odd", "tools")  # type: ignore[arg-type]
    spec = GAMES["minesweeper"]
    with pytest.raises(ValueError, match="both take the key G"):
        replace(spec, commands=(*spec.commands, new_game("more", "More", "G")))
    with pytest.raises(ValueError, match="two commands are named 'undo'"):
        replace(spec, commands=(client("undo", "Undo again", "edit"),))
    with pytest.raises(ValueError, match="command_handlers differ \\(peek\\)"):
        replace(spec, commands=(server("peek", "Peek", "edit"),))
    for options in ({"tile-set": ("birds",)}, {"marks": ("-flags",)}):  # as data-opt-* reads
        with pytest.raises(ValueError, match="display option"):
            replace(spec, display_options=options)


# -- the standard menus, as a player reads them --------------------------------------------
def layout(spec: GameSpec) -> list[tuple[str, int, str, str, tuple[str, ...]]]:
    """Each entry of the game's menus: menu, group, name, label and keys."""
    return [(c.menu, group, c.name, c.label, c.keys) for c, group in menu_commands(spec)]


def test_a_game_for_two_has_the_standard_menus_with_seats_and_an_invite() -> None:
    assert layout(GAMES["tictactoe"]) == [
        ("game", 0, "new", "New game…", ("N", "Alt+N")),
        ("game", 0, "restart", "Restart", ("R",)),
        *(("game", 1, f"new-{level.lower()}", f"New game against the computer ({level})", ())
          for level in ("Random", "Medium", "Hard", "Perfect")),
        ("game", 1, "new-two", "New game for two on this screen", ()),
        ("game", 1, "new-friend", "New game with a friend in another browser (invite link)",
         ()),
        ("game", 2, "take-seat", "Take a seat…", ()),
        ("game", 2, "leave-seat", "Leave your seat", ()),
        ("game", 3, "export", "Export…", ()),
        ("game", 3, "import", "Import…", ()),
        ("game", 4, "stats", "Statistics", ()),
        ("game", 5, "quit", "Quit", ("Q", "Alt+Q")),
        ("edit", 0, "undo", "Undo", ("U", "Ctrl+Z")),
        ("edit", 0, "redo", "Redo", ("Y", "Ctrl+Y", "Ctrl+Shift+Z")),
        ("edit", 1, "hint", "Hint", ("H",)),
        ("edit", 2, "copy-link", "Copy link to this game", ()),  # (it has no deal)
        ("edit", 2, "invite-link", "Copy invite link", ()),
        ("view", 0, "display", "Display…", ()),
        ("view", 0, "theme", "Next theme", ("T",)),
        ("view", 0, "sound", "Sound", ("M",)),
        ("help", 0, "help", "Rules", ("?", "F1")),
        ("help", 0, "keys", "Keyboard shortcuts", ()),
        ("help", 1, "about", "About Tic Tac Toe", ()),
        ("help", 1, "api", "For developers: the API", ()),
    ]


def test_a_solitaire_has_no_seats_to_take_and_its_display_options_in_view() -> None:
    assert layout(GAMES["ishido"]) == [
        ("game", 0, "new", "New game…", ("N", "Alt+N")),
        ("game", 0, "restart", "Restart", ("R",)),
        ("game", 1, "new-original", "New game, Simple rules", ()),
        ("game", 1, "new-1990", "New game, Classic 1990 rules", ()),
        ("game", 2, "export", "Export…", ()),
        ("game", 2, "import", "Import…", ()),
        ("game", 3, "stats", "Statistics", ()),
        ("game", 4, "quit", "Quit", ("Q", "Alt+Q")),
        ("edit", 0, "undo", "Undo", ("U", "Ctrl+Z")),
        ("edit", 0, "redo", "Redo", ("Y", "Ctrl+Y", "Ctrl+Shift+Z")),
        ("edit", 1, "hint", "Hint", ("H",)),
        ("edit", 1, "assist", "Assist: show every valid move", ("A",)),
        ("edit", 2, "copy-link", "Copy link to this deal", ()),
        ("view", 0, "display", "Display…", ()),
        ("view", 0, "theme", "Next theme", ("T",)),
        ("view", 0, "sound", "Sound", ("M",)),
        ("view", 1, "tiles-birds", "Tiles: Birds", ()),
        ("view", 1, "tiles-shapes", "Tiles: Shapes and letters", ()),
        ("view", 1, "tiles-symbols", "Tiles: Symbols", ()),
        ("help", 0, "help", "Rules", ("?", "F1")),
        ("help", 0, "keys", "Keyboard shortcuts", ()),
        ("help", 1, "about", "About Ishido", ()),
        ("help", 1, "api", "For developers: the API", ()),
    ]


def test_a_game_without_hints_offers_no_hint() -> None:
    names = [command.name for command, _ in menu_commands(PEEK_SPEC)]
    assert "hint" not in names and "assist" not in names
    assert "invite-link" not in names  # one seat: nobody to invite


def test_a_game_may_relabel_and_rebind_a_standard_command() -> None:
    spec = replace(GAMES["minesweeper"], command_labels={"undo": "Take back"},
                   command_keys={"undo": ("Backspace",)})
    undo = next(command for command, _ in menu_commands(spec) if command.name == "undo")
    assert (undo.label, undo.keys) == ("Take back", ("Backspace",))


@pytest.mark.parametrize("field_name", ["command_labels", "command_keys"])
def test_a_game_cannot_relabel_a_command_it_does_not_have(field_name: str) -> None:
    given: dict[str, Any] = {"warp": ("W",), "launch": ("L",)}
    with pytest.raises(ValueError) as refused:
        replace(GAMES["minesweeper"], **{field_name: given})
    assert str(refused.value) == f"{field_name} names no standard command: launch, warp"


def test_a_new_game_command_carries_its_label_parameters_and_seats() -> None:
    duel = new_game("duel", "New duel", "D", params={"rows": 9}, seats=("human", "ai:perfect"))
    assert (duel.label, duel.menu, duel.keys, duel.kind) == ("New duel", "game", ("D",),
                                                             "new-game")
    assert duel.args() == {"params": {"rows": 9}, "seats": ["human", "ai:perfect"]}
    assert new_game("plain", "Plain").args() == {"params": {}, "seats": []}


def test_client_option_and_server_commands_say_what_they_do() -> None:
    sound = client("sound", "Sound", "view", "M")
    assert (sound.label, sound.kind, sound.args()) == ("Sound", "client", {"action": "sound"})
    assert client("off", "Sound off", "view", action="mute").args() == {"action": "mute"}
    birds = option("tiles-birds", "Tiles: Birds", "tiles", "birds")
    assert (birds.label, birds.menu, birds.kind) == ("Tiles: Birds", "view", "option")
    assert birds.args() == {"option": "tiles", "value": "birds"}
    peek = server("peek", "Peek", "edit", "P")
    assert (peek.label, peek.keys, peek.kind, peek.args()) == ("Peek", ("P",), "server", {})


@pytest.mark.parametrize(("declare", "message"), [
    (lambda: client("Bad name", "Bad", "game"),
     "command name 'Bad name': lower-case letters, digits and '-'"),
    (lambda: Command("odd", "Odd", "tools"),  # type: ignore[arg-type]
     "command odd: menu must be one of game, edit, view, help"),
    (lambda: Command("odd", "Odd", "game", kind="macro"),  # type: ignore[arg-type]
     "command odd: kind must be one of client, new-game, option, server"),
    (lambda: option("tiles-x", "Tiles", "tiles", ""),
     "command tiles-x: an option command needs option and value"),
    (lambda: option("tiles-x", "Tiles", "", "birds"),
     "command tiles-x: an option command needs option and value"),
    (lambda: client("new", "New game", "game", "Ctrl+N"),
     "command new: the browser keeps Ctrl+N; use a plain key or Alt+key"),
    (lambda: client("undo", "Undo", "edit", "Enter"), "command undo: the page uses Enter itself"),
    (lambda: replace(GAMES["minesweeper"], commands=(
        *GAMES["minesweeper"].commands, new_game("more", "More", "G"))),
     "minesweeper: more and no-guess both take the key G"),
])
def test_a_refused_declaration_says_what_is_wrong(declare: Callable[[], Any], message: str) -> None:
    with pytest.raises(ValueError) as refused:
        declare()
    assert str(refused.value) == message


def test_the_docs_describe_the_menus(client: TestClient) -> None:
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    assert {"menu", "group", "keys", "kind", "args"} <= set(schemas["CommandInfo"]["properties"])
    assert "commands" in schemas["GameInfo"]["properties"]
    assert "about_html" in schemas["GameInfo"]["properties"]
    assert "commands" in schemas["View"]["properties"]


# -- the server-command path, with a test double -----------------------------------------
@dataclass(frozen=True)
class PeekState:
    hidden: tuple[int, ...]
    taken: tuple[int, ...] = ()


class PeekMove(BaseModel):
    model_config = ConfigDict(extra="forbid")
    take: int


class Peek(Game[PeekState, int]):
    """Take hidden numbers one at a time; won if the last one taken is the largest."""

    name: ClassVar[str] = "peek"
    title: ClassVar[str] = "Peek"
    move_model: ClassVar[type[BaseModel]] = PeekMove

    def deal(self, params: Params, rng: random.Random) -> PeekState:
        return PeekState(tuple(rng.sample(range(100), 3)))

    def to_move(self, state: PeekState) -> int | None:
        return 0 if state.hidden else None

    def legal_moves(self, state: PeekState) -> Sequence[int]:
        return range(len(state.hidden))

    def apply(self, state: PeekState, move: int) -> PeekState:
        if not 0 <= move < len(state.hidden):
            raise IllegalMove(f"there is no number {move}")
        rest = state.hidden[:move] + state.hidden[move + 1 :]
        return PeekState(rest, (*state.taken, state.hidden[move]))

    def status(self, state: PeekState) -> Status:
        if state.hidden:
            return Status.PLAYING
        return Status.WON if state.taken[-1] == max(state.taken) else Status.LOST

    def scores(self, state: PeekState) -> tuple[int, ...]:
        return (len(state.taken),)

    def observe(self, state: PeekState, seat: int | None) -> JSON:
        return {"left": len(state.hidden), "taken": list(state.taken)}

    def text(self, observation: JSON) -> str:
        return f"{observation['left']} left, taken {observation['taken']}"

    def headline(self, observation: JSON) -> str:
        return "Peek"

    def shown_headline(self, observation: JSON) -> str:
        return "Peeked by the solver"

    def move_from_model(self, model: Any) -> int:
        take: int = model.take
        return take

    def move_to_json(self, move: int) -> JSON:
        return {"take": move}


def peek_largest(state: PeekState, seat: int) -> Hint:
    largest = state.hidden.index(max(state.hidden))
    return Hint({"take": largest}, "the largest number is there")


def count_left(state: PeekState, seat: int) -> str:
    return f"{len(state.hidden)} numbers left"


def replay_firsts(state: PeekState, seat: int) -> Replay:
    return Replay(({"take": 0},) * 3, "the firsts, to step through with Redo")


def peek_enabled(observation: JSON) -> Mapping[str, bool]:
    return {"largest": observation["left"] > 1, "count": True, "firsts": True}


PEEK_SPEC = GameSpec(
    game=Peek(), render=lambda observation, ctx: f"<p>{observation['left']}</p>",
    rules_html="<p>Peek</p>", thumbnail_svg="<svg/>",
    commands=(server("largest", "Show the largest", "edit", "L"),
              server("count", "Count what is left", "view"),
              server("firsts", "Replay taking the first", "game")),
    command_handlers={"largest": peek_largest, "count": count_left, "firsts": replay_firsts},
    commands_enabled=peek_enabled,
)


class Inline(Compute):
    """Runs the work in this process (the double's functions live in a test module)."""

    async def run(
        self, budget: float, work: Callable[..., T], *args: Any, progress: Progress | None = None,
        started: Callable[[], None] | None = None,
    ) -> T:
        return work(*args)


@pytest.fixture
def peek(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(Store(tmp_path / "db.sqlite3"), {"peek": PEEK_SPEC}, ai_delay_scale=0,
                     allowed_hosts=("testserver",), compute=Inline(workers=1))
    with TestClient(app) as test_client:
        yield test_client


def started(client: TestClient) -> tuple[str, str, JSON]:
    created = client.post("/api/games", json={"game": "peek"}).json()
    return created["session"], created["token"], created["view"]


def receive(socket: Any, kind: str) -> JSON:
    """The next message of `kind` (views before it are skipped, and the progress of work
    that took long enough to report it: on a busy machine, a command's may)."""
    while True:
        message: JSON = socket.receive_json()
        if message["type"] == kind:
            return message
        assert message["type"] in ("view", "progress"), message


def test_the_catalog_carries_a_server_command(peek: TestClient) -> None:
    commands = commands_of(catalog_games(peek)["peek"])
    assert commands["largest"] == {"name": "largest", "label": "Show the largest",
                                   "menu": "edit", "group": 1, "keys": ["L"],
                                   "kind": "server", "args": {}, "in_menu": True}
    assert commands["count"]["menu"] == "view"


def test_a_server_command_answers_with_a_hint_or_a_note(peek: TestClient) -> None:
    sid, token, view = started(peek)
    assert view["commands"] == {"largest": True, "count": True, "firsts": True}
    assert peek.get(f"/api/games/{sid}").json()["commands"] == {
        "largest": False, "count": False, "firsts": False}
    with peek.websocket_connect(f"/ws/{sid}") as socket:
        socket.send_json({"type": "hello", "token": token})
        receive(socket, "view")
        socket.send_json({"type": "command", "name": "largest"})
        hint = receive(socket, "hint")
        assert hint["note"] == "the largest number is there"
        shown = peek.get(f"/api/games/{sid}", headers={"Authorization": f"Bearer {token}"})
        assert shown.json()["hint"]["move"] == hint["move"] and shown.json()["assisted"]

        socket.send_json({"type": "command", "name": "count"})
        assert receive(socket, "note") == {"type": "note", "note": "3 numbers left"}

        socket.send_json({"type": "move", "move": {"take": 0}})
        assert receive(socket, "view")["view"]["commands"]["largest"] is True
        socket.send_json({"type": "move", "move": {"take": 0}})
        assert receive(socket, "view")["view"]["commands"] == {
            "largest": False, "count": True, "firsts": True}
        socket.send_json({"type": "command", "name": "largest"})
        assert receive(socket, "error")["error"] == "Largest cannot be used now"
        socket.send_json({"type": "command", "name": "launch"})
        assert receive(socket, "error")["error"] == "Peek has no command 'launch'"


def test_a_spectator_cannot_send_a_command(peek: TestClient) -> None:
    sid, _, _ = started(peek)
    with peek.websocket_connect(f"/ws/{sid}") as socket:
        socket.send_json({"type": "hello", "token": None})
        assert receive(socket, "view")["view"]["commands"] == {
            "largest": False, "count": False, "firsts": False}
        socket.send_json({"type": "command", "name": "count"})
        assert "You hold no seat" in receive(socket, "error")["error"]


def open_replay(client: TestClient) -> tuple[str, str, JSON]:
    """A new game, and the replay its "firsts" command opens: (sid, token, the open
    message)."""
    sid, token, _ = started(client)
    with client.websocket_connect(f"/ws/{sid}") as socket:
        socket.send_json({"type": "hello", "token": token})
        receive(socket, "view")
        socket.send_json({"type": "command", "name": "firsts"})
        return sid, token, receive(socket, "open")


def test_a_command_may_open_a_replay_of_the_deal(peek: TestClient) -> None:
    sid, token, opened = open_replay(peek)
    assert opened["note"] == "the firsts, to step through with Redo"
    assert opened["session"] != sid
    mine = {"Authorization": f"Bearer {opened['token']}"}
    replay = peek.get(f"/api/games/{opened['session']}", headers=mine).json()
    original = peek.get(f"/api/games/{sid}", headers={"Authorization": f"Bearer {token}"}).json()
    assert (replay["moves"], replay["line_length"], replay["assisted"]) == (0, 3, True)
    assert replay["id"] == original["id"]  # the same deal
    stepped = peek.post(f"/api/games/{opened['session']}/redo", headers=mine).json()
    assert stepped["moves"] == 1
    assert original["moves"] == 0  # the game it came from is as it was


def test_a_game_that_does_not_say_which_commands_are_on_has_them_all_on() -> None:
    observation = {"left": 3, "taken": []}
    every = replace(PEEK_SPEC, commands_enabled=None)
    assert server_command_states(every, observation, holder=True) == {
        "largest": True, "count": True, "firsts": True}
    only_count = replace(PEEK_SPEC, commands_enabled=lambda observation: {"count": True})
    assert server_command_states(only_count, observation, holder=True) == {
        "largest": False, "count": True, "firsts": False}
    assert server_command_states(every, observation, holder=False) == {
        "largest": False, "count": False, "firsts": False}


def test_sound_is_one_switch_on_m_in_every_game() -> None:
    """One ticked "Sound" entry, not Sound, Mute and Unmute side by side."""
    for name, spec in GAMES.items():
        sounds = [c for c, _ in menu_commands(spec)
                  if c.action in ("sound", "mute", "unmute") and c.in_menu]
        assert [(c.name, c.label) for c in sounds] == [("sound", "Sound")], name
        assert "M" in sounds[0].keys, name


def test_a_replay_the_solver_stepped_to_its_end_is_filed_apart_from_the_players_games(
    peek: TestClient,
) -> None:
    _, _, opened = open_replay(peek)
    mine = {"Authorization": f"Bearer {opened['token']}"}
    for _ in range(3):
        stepped = peek.post(f"/api/games/{opened['session']}/redo", headers=mine).json()
    assert stepped["status"] != "playing"
    (group,) = peek.get("/api/stats?game=peek").json()["groups"]
    assert (group["preset"], group["apart"], group["played"]) == (SHOWN, True, 1)
    assert "not counted with yours" in group["note"]
    (past,) = peek.get("/api/replays").json()  # the past games say who played it
    assert past["players"] == SHOWN


def play_out(state: PeekState, seat: int) -> Playback:
    return Playback(({"take": 0},) * len(state.hidden), "played out", step_seconds=0)


AUTO_SPEC = replace(PEEK_SPEC, commands=(server("auto", "Play it out", "game"),),
                    command_handlers={"auto": play_out}, commands_enabled=None)


def test_a_game_the_solvers_playback_ended_is_filed_apart_until_the_player_ends_it(
    tmp_path: Path,
) -> None:
    app = create_app(Store(tmp_path / "db.sqlite3"), {"peek": AUTO_SPEC}, ai_delay_scale=0,
                     allowed_hosts=("testserver",), compute=Inline(workers=1))

    def filed(client: TestClient) -> dict[str, int]:
        groups = client.get("/api/stats?game=peek").json()["groups"]
        return {group["preset"]: group["played"] for group in groups}

    with TestClient(app) as client:
        sid, token, _ = started(client)
        with client.websocket_connect(f"/ws/{sid}") as socket:
            socket.send_json({"type": "hello", "token": token})
            receive(socket, "view")
            socket.send_json({"type": "command", "name": "auto"})
            while (view := receive(socket, "view")["view"])["status"] == "playing":
                pass
        assert filed(client) == {SHOWN: 1}
        assert (view["shown"], view["headline"]) == (True, "Peeked by the solver")
    # the server restarts: the game still knows the solver ended it
    app = create_app(Store(tmp_path / "db.sqlite3"), {"peek": AUTO_SPEC}, ai_delay_scale=0,
                     allowed_hosts=("testserver",), compute=Inline(workers=1))
    with TestClient(app) as client:
        auth = {"Authorization": f"Bearer {token}"}
        again = client.get(f"/api/games/{sid}", headers=auth).json()
        assert (again["shown"], again["headline"]) == (True, "Peeked by the solver")
        (resumed,) = client.get("/api/replays").json()
        assert resumed["headline"] == "Peeked by the solver"
        last = again["moves"]  # and the replay's last position (the one before: the game's)
        for ply, headline in ((last, "Peeked by the solver"), (last - 1, "Peek")):
            position = client.get(f"/api/games/{sid}/positions/{ply}", headers=auth).json()
            assert position["headline"] == headline
        # the solver's last move taken back, kept so through another restart, then again
        assert client.post(f"/api/games/{sid}/undo", headers=auth).status_code == 200
    app = create_app(Store(tmp_path / "db.sqlite3"), {"peek": AUTO_SPEC}, ai_delay_scale=0,
                     allowed_hosts=("testserver",), compute=Inline(workers=1))
    with TestClient(app) as client:
        assert client.post(f"/api/games/{sid}/redo", headers=auth).json()["shown"] is True
        assert filed(client) == {SHOWN: 1}
        for step in ("undo", "redo"):  # the solver's last move again: still its end
            assert client.post(f"/api/games/{sid}/{step}", headers=auth).status_code == 200
        assert filed(client) == {SHOWN: 1}
        # the player's own last move: the end is theirs
        assert client.post(f"/api/games/{sid}/undo", headers=auth).status_code == 200
        played = client.post(f"/api/games/{sid}/moves", json={"move": {"take": 0}},
                             headers=auth)
        assert played.status_code == 200 and played.json()["status"] != "playing"
        assert SHOWN not in filed(client) and sum(filed(client).values()) == 1
