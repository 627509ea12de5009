"""The catalog: every game this server has, as a page or a bot needs to know it (its
seats, parameters, presets, AI levels, menus and keys), for GET /api/catalog."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, Field

from parlour.core.commands import MENU_LABELS, menu_commands
from parlour.core.game import GameSpec, readable
from parlour.core.keytable import key_table


class ShortcutInfo(BaseModel):
    keys: str
    action: str


class CommandInfo(BaseModel):
    """One entry of a game's menus, and what the page does to carry it out."""

    name: str
    label: str
    menu: str = Field(description="game, edit, view or help")
    group: int = Field(description="its group in the menu: a line is drawn between groups")
    keys: list[str] = Field(description="its keys, as shown: 'U', 'Ctrl+Z', 'Alt+N', 'F1'")
    in_menu: bool = Field(True, description="false: its keys alone, not shown in the menus")
    kind: str = Field(
        description="client: a built-in action of the page (args.action); new-game: start a "
        "game with args.params (the others as in the current game) and args.seats; option: "
        "show args.value for the display option args.option; server: send "
        "{\"type\": \"command\", \"name\": ...} on the WebSocket (enabled when the "
        "view's `commands` says so)"
    )
    args: dict[str, Any]


class MenuInfo(BaseModel):
    name: str
    label: str


class GameInfo(BaseModel):
    name: str
    title: str
    seats: list[str]
    parameters: list[dict[str, Any]]
    presets: dict[str, dict[str, Any]]
    preset_labels: dict[str, str] = Field(description="how players read each preset's name")
    ai_levels: list[str]
    ai_level_labels: dict[str, str] = Field(description="how players read each AI level")
    default_seats: list[str]
    position_help: str = Field(
        description="how a start position is written in an id '<game>:<params>:<position>' "
        "(empty: the game takes only seeds, '<game>:<params>#<seed>')"
    )
    has_hints: bool
    random_deal: bool = Field(description="whether a game's start is dealt from its seed "
                              "(false: every game starts the same, with no deal to share)")
    refusal_sound: str = Field(description="the sound the page plays when a move is refused")
    has_assist: bool
    music: str = Field(description="the background music the page plays (empty: none)")
    display_options: dict[str, list[str]]
    second_action: str = Field(description="what a right click, a long press or Space on "
                               "the board does (empty: the board has no second action)")
    shortcuts: list[ShortcutInfo] = Field(
        description="keys that are not commands (the board's own), for the key table"
    )
    key_table: list[ShortcutInfo] = Field(
        description="the Help dialog's key table: the commands' keys, the page's and the "
        "board's, every key once"
    )
    display_labels: dict[str, dict[str, str]] = Field(
        description="how players read each value of `display_options`, per option"
    )
    menus: list[MenuInfo]
    commands: list[CommandInfo] = Field(description="the menus' entries, menu by menu")
    new_choices: list[str] = Field(
        default_factory=list,
        description="names of new-game commands the toolbar offers beside New")
    about_html: str
    rules_html: str
    first_note: str = Field(description="a solitaire's status line before the first move "
                            "(empty: none)")
    deal_link_note: str = Field(description="what whoever opens a link to a deal gets "
                                "(the Copy link button's tooltip ends with it)")
    dealing_note: str = Field(description="what the page says while a new game's deal "
                              "takes over half a second")
    thumbnail_svg: str


class Catalog(BaseModel):
    games: list[GameInfo]
    shared: bool = Field(False, description="many people play on this Parlour: your "
                         "statistics, daily deals, past games and a game's records are read "
                         "with the seat tokens you keep (POST /api/stats/mine and the like)")


def describe_catalog(games: Mapping[str, GameSpec], shared: bool = False) -> Catalog:
    return Catalog(
        shared=shared,
        games=[
            GameInfo(
                name=spec.name,
                title=spec.game.title,
                seats=list(spec.game.seat_names(spec.game.validate({}))),
                parameters=[param.describe() for param in spec.game.parameters],
                presets={name: dict(values) for name, values in spec.game.presets.items()},
                preset_labels={name: spec.game.preset_label(name) for name in spec.game.presets},
                ai_levels=list(spec.ai_levels),
                ai_level_labels={level: readable(level) for level in spec.ai_levels},
                default_seats=list(spec.default_seats),
                position_help=spec.game.position_help,
                has_hints=spec.hint is not None,
                random_deal=spec.game.random_deal,
                refusal_sound=spec.refusal_sound,
                has_assist=spec.has_assist,
                music=spec.music,
                display_options={k: list(v) for k, v in spec.display_options.items()},
                second_action=spec.second_action,
                shortcuts=[ShortcutInfo(keys=s.keys, action=s.action) for s in spec.shortcuts],
                key_table=[ShortcutInfo(keys=keys, action=action)
                           for keys, action in key_table(spec)],
                display_labels={name: {value: spec.display_label(name, value) for value in values}
                                for name, values in spec.display_options.items()},
                menus=[MenuInfo(name=name, label=label) for name, label in MENU_LABELS.items()],
                commands=[
                    CommandInfo(name=command.name, label=command.label, menu=command.menu,
                                group=group, keys=list(command.keys), kind=command.kind,
                                args=command.args(), in_menu=command.in_menu)
                    for command, group in menu_commands(spec)
                ],
                new_choices=list(spec.new_choices),
                about_html=spec.about_html,
                rules_html=spec.rules_html,
                first_note=spec.first_note,
                deal_link_note=spec.deal_link_note,
                dealing_note=spec.dealing_note,
                thumbnail_svg=spec.thumbnail_svg,
            )
            for spec in games.values()
        ]
    )
