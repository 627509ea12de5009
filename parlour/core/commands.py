"""Commands: what a game's menus offer, with their keys, as data the generic client runs.

A command is one entry of the menu bar (Game, Edit, View, Help). What it does is one of a
small closed set of kinds, so that the browser client, which holds no game code, can
carry out any command a game declares:

- `client`: a built-in action of the game page (`CLIENT_ACTIONS`: undo, hint, about…;
  `mute` and `unmute` set the sound, `play` closes the rules and plays on, as the seeds'
  keys did; `peek` shows, until pressed again, what the board's `data-peek` element shows
  while held: the sliding puzzle's finished picture);
- `new-game`: start a new game with these parameter values (and seats), e.g. Minesweeper's
  "New no-guess game" is `{"first_click": "no_guess"}` on the current board;
- `option`: choose one of the game's display options (`GameSpec.display_options`);
- `server`: ask the server; the game's handler (`GameSpec.command_handlers`) answers with a
  hint to show on the board or a note for the player.

Every game gets the standard commands (`standard_commands`) and adds its own in its folder
(`GameSpec.commands`); `menu_commands` lays them out. They read a game's declaration
through `MenuSource`, the shape of `parlour.core.game.GameSpec`, so that this module
imports nothing of `game.py`, which checks its menus with it when a game is declared.

Keys are written as they are shown: "U", "Ctrl+Z", "Alt+N", "F1", "?". A browser keeps
some keys for itself (Ctrl+N opens a window, Ctrl+W and Ctrl+Q close it): a command cannot
take them, and offers a plain key or Alt+key instead, which the menu shows.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol, get_args

Menu = Literal["game", "edit", "view", "help"]
Kind = Literal["client", "new-game", "option", "server"]
MENUS: tuple[Menu, ...] = get_args(Menu)
KINDS: tuple[Kind, ...] = get_args(Kind)
MENU_LABELS: Mapping[Menu, str] = {"game": "Game", "edit": "Edit", "view": "View", "help": "Help"}

CLIENT_ACTIONS = frozenset({
    "new", "restart", "undo", "redo", "hint", "assist", "help", "keys", "about", "display",
    "theme", "sound", "copy-link", "invite-link", "stats", "quit", "export", "import",
    "take-seat", "leave-seat", "mute", "unmute", "play", "api", "peek",
})
"""What the game page knows how to do by itself."""

BROWSER_KEYS = frozenset({
    "Ctrl+N", "Ctrl+Shift+N", "Ctrl+T", "Ctrl+Shift+T", "Ctrl+W", "Ctrl+Shift+W", "Ctrl+Q",
    "Ctrl+Tab", "Ctrl+Shift+Tab", "Ctrl+L", "Alt+F4", "F5", "F11", "F12", "Ctrl+R",
})
"""Keys a browser keeps for itself: the page never sees them."""
PAGE_KEYS = frozenset({
    "Enter", "Space", "Esc", "Tab", "F10", "Alt", "ArrowUp", "ArrowDown", "ArrowLeft",
    "ArrowRight",
})
"""Keys the page uses for the board's cursor and the menus."""
_KEY = re.compile(r"^((Ctrl|Alt|Shift)\+)*([A-Z0-9]|[^\sA-Za-z0-9+]|F[1-9][0-2]?|[A-Z][a-z]+)$")
_NAME = re.compile(r"^[a-z][a-z0-9-]{0,39}$")


@dataclass(frozen=True)
class Command:
    """One menu entry: its label, its menu, its keys and what it does (see the module).

    Declare them with `client`, `new_game`, `option` and `server`.
    """

    name: str
    label: str
    menu: Menu
    keys: tuple[str, ...] = ()
    kind: Kind = "client"
    action: str = ""
    """client: the built-in action (CLIENT_ACTIONS)."""
    params: Mapping[str, int | str | bool] = field(default_factory=dict)
    """new-game: parameter values; the others stay as in the game on the screen."""
    seats: tuple[str, ...] = ()
    """new-game: who sits where ('human', 'open', 'ai:<level>'); empty: as last chosen."""
    option: str = ""
    """option: which display option; `value` is the choice it selects."""
    value: str = ""
    in_menu: bool = True
    """False: its keys alone, listed among the keyboard shortcuts but not in the menus
    (the sliding puzzle's U, which turns the sound on beside the Sound switch's M)."""

    def __post_init__(self) -> None:
        if not _NAME.match(self.name):
            raise ValueError(f"command name {self.name!r}: lower-case letters, digits and '-'")
        if self.menu not in MENUS:
            raise ValueError(f"command {self.name}: menu must be one of {', '.join(MENUS)}")
        if self.kind not in KINDS:
            raise ValueError(f"command {self.name}: kind must be one of {', '.join(KINDS)}")
        if self.kind == "client" and self.action not in CLIENT_ACTIONS:
            raise ValueError(f"command {self.name}: no client action {self.action!r}")
        if self.kind == "option" and not (self.option and self.value):
            raise ValueError(f"command {self.name}: an option command needs option and value")
        for key in self.keys:
            if not _KEY.match(key):
                raise ValueError(f"command {self.name}: a key is written like 'U', "
                                 f"'Ctrl+Z', 'Alt+N' or 'F1', not {key!r}")
            if key in BROWSER_KEYS:
                raise ValueError(f"command {self.name}: the browser keeps {key}; "
                                 "use a plain key or Alt+key")
            if key in PAGE_KEYS:
                raise ValueError(f"command {self.name}: the page uses {key} itself")

    def args(self) -> dict[str, Any]:
        """What the client needs to carry the command out, by kind."""
        if self.kind == "client":
            return {"action": self.action}
        if self.kind == "new-game":
            return {"params": dict(self.params), "seats": list(self.seats)}
        if self.kind == "option":
            return {"option": self.option, "value": self.value}
        return {}


class Rules(Protocol):
    """What the menus read of a game's rules (`parlour.core.game.Game`)."""

    @property
    def title(self) -> str: ...

    @property
    def random_deal(self) -> bool: ...

    def validate(self, params: Mapping[str, object]) -> dict[str, int | str | bool]: ...

    def seat_names(self, params: dict[str, int | str | bool]) -> tuple[str, ...]: ...


class MenuSource(Protocol):
    """What the menus read of a game's declaration (`parlour.core.game.GameSpec`)."""

    @property
    def name(self) -> str: ...

    @property
    def game(self) -> Rules: ...

    @property
    def hint(self) -> object: ...

    @property
    def has_assist(self) -> bool: ...

    @property
    def display_options(self) -> Mapping[str, tuple[str, ...]]: ...

    @property
    def commands(self) -> tuple[Command, ...]: ...

    @property
    def command_labels(self) -> Mapping[str, str]: ...

    @property
    def command_keys(self) -> Mapping[str, tuple[str, ...]]: ...

    @property
    def commands_enabled(self) -> Callable[[Any], Mapping[str, bool]] | None: ...

    def display_label(self, option: str, value: str) -> str: ...


def client(
    name: str, label: str, menu: Menu, *keys: str, action: str = "", in_menu: bool = True
) -> Command:
    """A built-in action of the page (`action`, by default the name)."""
    return Command(name, label, menu, keys, "client", action=action or name, in_menu=in_menu)


def new_game(
    name: str, label: str, *keys: str, params: Mapping[str, int | str | bool] | None = None,
    seats: tuple[str, ...] = (), menu: Menu = "game",
) -> Command:
    """Start a new game at once with these parameters (and seats), e.g. a preset."""
    return Command(name, label, menu, keys, "new-game", params=dict(params or {}), seats=seats)


def option(name: str, label: str, option: str, value: str, *keys: str,
           menu: Menu = "view") -> Command:
    """Show the board with `value` for the display option `option`."""
    return Command(name, label, menu, keys, "option", option=option, value=value)


def server(name: str, label: str, menu: Menu, *keys: str) -> Command:
    """Ask the server: the game's `command_handlers[name]` answers."""
    return Command(name, label, menu, keys, "server")


def deal_word(game: Rules) -> str:
    """How a game's start is named to players: "deal", or "game" where every game starts
    the same (Tic Tac Toe: a link to it starts a new one from the empty board)."""
    return "deal" if game.random_deal else "game"


def standard_commands(spec: MenuSource) -> dict[Menu, list[list[Command]]]:
    """The commands every game has, per menu, in groups (a line between groups)."""
    seats = spec.game.seat_names(spec.game.validate({}))
    options = [
        option(f"{name}-{choice}", f"{name.capitalize()}: {spec.display_label(name, choice)}",
               name, choice)
        for name, choices in spec.display_options.items() for choice in choices
    ]
    edit_help = [client("hint", "Hint", "edit", "H")] if spec.hint else []
    if spec.has_assist:
        edit_help.append(client("assist", "Assist: show every valid move", "edit", "A"))
    # a game that always starts the same (Tic Tac Toe) has no deal: its link is the game's
    links = [client("copy-link", f"Copy link to this {deal_word(spec.game)}", "edit")]
    places: list[Command] = []
    if len(seats) > 1:
        links.append(client("invite-link", "Copy invite link", "edit"))
        places = [client("take-seat", "Take a seat…", "game"),
                  client("leave-seat", "Leave your seat", "game")]
    return {
        "game": [
            [client("new", "New game…", "game", "N", "Alt+N"),
             client("restart", "Restart", "game", "R")],
            places,
            [client("export", "Export…", "game"), client("import", "Import…", "game")],
            [client("stats", "Statistics", "game")],
            [client("quit", "Quit", "game", "Q", "Alt+Q")],
        ],
        "edit": [
            [client("undo", "Undo", "edit", "U", "Ctrl+Z"),
             client("redo", "Redo", "edit", "Y", "Ctrl+Y", "Ctrl+Shift+Z")],
            edit_help,
            links,
        ],
        "view": [
            [client("display", "Display…", "view"), client("theme", "Next theme", "view", "T"),
             client("sound", "Sound", "view", "M")],
            options,
        ],
        "help": [
            [client("help", "Rules", "help", "?", "F1"),
             client("keys", "Keyboard shortcuts", "help")],
            [client("about", f"About {spec.game.title}", "help"),
             client("api", "For developers: the API", "help")],
        ],
    }


def menu_commands(spec: MenuSource) -> list[tuple[Command, int]]:
    """Every command of the game's menus, menu by menu, each with its group in its menu:
    the standard ones, with the game's own after the first group of their menu.

    Raises ValueError if two commands share a name or a key.
    """
    laid_out: list[tuple[Command, int]] = []
    standard = _relabelled(standard_commands(spec), spec.command_labels, spec.command_keys)
    for menu, groups in standard.items():
        own = [command for command in spec.commands if command.menu == menu]
        arranged = [groups[0], own, *groups[1:]]
        for group, commands in enumerate(group for group in arranged if group):
            laid_out.extend((command, group) for command in commands)
    names: set[str] = set()
    keys: dict[str, str] = {}
    for command, _ in laid_out:
        if command.name in names:
            raise ValueError(f"{spec.name}: two commands are named {command.name!r}")
        names.add(command.name)
        for key in command.keys:
            if key.upper() in keys:
                raise ValueError(f"{spec.name}: {command.name} and {keys[key.upper()]} "
                                 f"both take the key {key}")
            keys[key.upper()] = command.name
    return laid_out


def _relabelled(
    menus: dict[Menu, list[list[Command]]], labels: Mapping[str, str],
    keys: Mapping[str, tuple[str, ...]],
) -> dict[Menu, list[list[Command]]]:
    """The standard commands with the labels and keys a game gives them."""
    names = {c.name for groups in menus.values() for g in groups for c in g}
    for field_name, given in (("command_labels", labels), ("command_keys", keys)):
        unknown = set(given) - names
        if unknown:
            raise ValueError(f"{field_name} names no standard command: "
                             f"{', '.join(sorted(unknown))}")
    return {
        menu: [[replace(c, label=labels.get(c.name, c.label), keys=keys.get(c.name, c.keys))
                for c in group] for group in groups]
        for menu, groups in menus.items()
    }


def server_command_states(spec: MenuSource, observation: Any, holder: bool) -> dict[str, bool]:
    """Whether each of the game's server commands may be used now, by a seat's holder
    (a spectator may use none)."""
    names = [command.name for command in spec.commands if command.kind == "server"]
    if not names:
        return {}
    known = spec.commands_enabled(observation) if spec.commands_enabled else {}
    return {name: holder and known.get(name, spec.commands_enabled is None) for name in names}
