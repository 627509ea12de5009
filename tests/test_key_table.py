"""What the Help and New game dialogs are given to show: a key table that names each key
once and only keys the game has, and labels for players where the values are for code."""

from __future__ import annotations

from dataclasses import replace

import pytest
from fastapi.testclient import TestClient

from parlour.core.game import GameSpec, Param, Shortcut, readable
from parlour.core.keytable import key_names, key_table
from parlour.games import GAMES


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_key_is_listed_once(name: str) -> None:
    keys = [key.upper() for row_keys, _ in key_table(GAMES[name]) for key in key_names(row_keys)]
    assert len(keys) == len(set(keys)), sorted(k for k in keys if keys.count(k) > 1)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_command_key_and_board_key_is_in_the_table(name: str) -> None:
    spec = GAMES[name]
    listed = {key for row_keys, _ in key_table(spec) for key in key_names(row_keys)}
    declared = {key for shortcut in spec.shortcuts for key in key_names(shortcut.keys)}
    commands = {key for command in spec.commands for key in command.keys}
    assert declared | commands | {"N", "?", "Esc", "Arrows", "Enter", "Home", "End", "PgUp",
                                  "PgDn"} <= listed


@pytest.mark.parametrize("name", sorted(GAMES))
def test_space_is_listed_only_where_the_game_has_it(name: str) -> None:
    spec = GAMES[name]
    has_space = bool(spec.second_action) or any(
        "SPACE" in map(str.upper, key_names(shortcut.keys)) for shortcut in spec.shortcuts)
    listed = [action for keys, action in key_table(spec) if "Space" in key_names(keys)]
    assert bool(listed) == has_space
    assert not any("second action" in action for action in listed)


def test_tictactoe_has_no_second_action_and_ishido_lists_its_arrows_once() -> None:
    ttt = dict(key_table(GAMES["tictactoe"]))
    assert "Space" not in ttt and ttt["1 to 9"].startswith("claim a cell")
    ishido = [keys for keys, _ in key_table(GAMES["ishido"])]
    assert sum("Arrows" in key_names(keys) for keys in ishido) == 1
    assert sum("A" in key_names(keys) for keys in ishido) == 1


def test_a_declared_second_action_is_listed_on_space() -> None:
    spec: GameSpec = replace(GAMES["tictactoe"], second_action="mark a cell")
    assert dict(key_table(spec))["Space"] == "mark a cell"
    # a game that describes Space itself keeps its own words
    spec = replace(spec, shortcuts=(Shortcut("Space", "flag a cell"),))
    table = dict(key_table(spec))
    assert table["Space"] == "flag a cell" and "mark a cell" not in table.values()


def test_a_game_words_a_generic_row_of_two_keys_its_own_way() -> None:
    table = dict(key_table(GAMES["escalator"]))  # a pyramid of cards, not a grid of cells
    assert table["Home, End"] == "the first or the last free card of its row"
    assert not any("cell" in action for action in table.values())


def test_a_key_a_command_takes_is_not_repeated_by_a_board_row() -> None:
    spec = replace(GAMES["tictactoe"], shortcuts=(Shortcut("H, 5", "centre"),))
    table = key_table(spec)
    assert ("H", "Hint") in table and ("5", "centre") in table


@pytest.mark.parametrize(("value", "label"), [
    ("expert", "Expert"), ("no_guess", "No guess"), ("four-colour", "Four-colour"),
    ("custom", "Custom"), ("", ""),
])
def test_readable(value: str, label: str) -> None:
    assert readable(value) == label


def test_choice_labels_default_to_readable_values_and_values_stay_raw() -> None:
    param = Param("first", "First click", "choice", "safe", choices=("safe", "no_guess"),
                  choice_labels={"safe": "Safe: never a mine"})
    assert param.describe()["choices"] == ["safe", "no_guess"]
    assert param.describe()["choice_labels"] == {"safe": "Safe: never a mine",
                                                 "no_guess": "No guess"}
    assert param.coerce("no_guess") == "no_guess"


def test_the_catalog_gives_the_dialogs_labels(client: TestClient) -> None:
    games = {game["name"]: game for game in client.get("/api/catalog").json()["games"]}
    sweeper = games["minesweeper"]
    first_click = next(p for p in sweeper["parameters"] if p["name"] == "first_click")
    assert set(first_click["choice_labels"]) == set(first_click["choices"])
    assert first_click["choice_labels"]["no_guess"][:1] == "N"  # "No guess", not "no_guess"
    assert set(sweeper["preset_labels"]) == set(sweeper["presets"])
    assert sweeper["preset_labels"]["expert"].startswith("Expert")
    assert games["tictactoe"]["ai_level_labels"]["perfect"] == "Perfect"
    labels = games["escalator"]["display_labels"]
    assert set(labels) == set(games["escalator"]["display_options"])
    assert all(label[:1].isupper() for values in labels.values() for label in values.values())
    for game in games.values():
        rows = [(row["keys"], row["action"]) for row in game["key_table"]]
        assert rows == key_table(GAMES[game["name"]])


def test_minesweeper_lists_space_as_flag_and_chord() -> None:
    """One key for both, as on minesweeper.online: Space flags a closed cell and chords
    an open number (the generic row would say only its flag)."""
    space = dict(key_table(GAMES["minesweeper"]))["Space"]
    assert space.startswith("flag a closed cell") and "on a number, chord it" in space
