"""The first click opens an area by default, as in every modern Minesweeper; the seed's
rule (only the clicked cell is safe) stays a named choice, and the ids made before the
default changed (deal version 1) deal and play exactly as they did."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from parlour.core.game import Status
from parlour.core.gameid import GameId, parse_game_id
from parlour.games.minesweeper.grid import neighbours
from parlour.games.minesweeper.logic import OPEN, PRESETS, Minefield, Minesweeper
from parlour.games.minesweeper.solver import GUESS_NOTES, hint

GAME = Minesweeper()
DEALS_PER_BOARD = 200


def centre_click(state: Minefield) -> Minefield:
    return GAME.apply(state, ("open", state.rows // 2, state.cols // 2))


@pytest.mark.parametrize("board", PRESETS)
def test_the_default_first_click_always_opens_an_area(board: str) -> None:
    params = GAME.validate(PRESETS[board])
    assert params["first_click"] == "opening"
    for seed in range(DEALS_PER_BOARD):
        state = GameId("minesweeper", params, f"s{seed}", GAME.deal_version).deal(GAME)
        after = centre_click(state)
        centre = after.cell(state.rows // 2, state.cols // 2)
        area = {centre, *neighbours(state.rows, state.cols)[centre]}
        assert after.counts[centre] == 0 and not after.mined & area, f"{board}#s{seed}"
        assert after.opened >= len(area), f"{board}#s{seed} opened {after.opened} cells"
        assert GAME.status(after) is not Status.LOST


# what main at 693af44 (the safe first click by default) showed after a centre click
OLD_IDS = {
    "minesweeper:medium#old1": (1, "#######1#######"),  # a single cell: the seed's rule
    "minesweeper:expert#old2": (28, "###########1111.1#############"),
}


@pytest.mark.parametrize("text", OLD_IDS)
def test_an_id_of_the_first_deal_version_keeps_the_safe_first_click(text: str) -> None:
    game_id = parse_game_id(GAME, text)
    assert game_id.version == 1 and game_id.params["first_click"] == "safe"
    assert game_id.text(GAME) == text
    after = centre_click(game_id.deal(GAME))
    opened, row = OLD_IDS[text]
    assert after.opened == opened
    assert GAME.text(GAME.observe(after, 0)).splitlines()[after.rows // 2] == row


def test_ids_name_the_rule_only_where_it_is_not_their_versions_default() -> None:
    medium = GAME.validate(PRESETS["medium"])
    assert GameId("minesweeper", medium, "a", 2).text(GAME) == "minesweeper@2:medium#a"
    safe = {**medium, "first_click": "safe"}
    assert GameId("minesweeper", safe, "a", 1).text(GAME) == "minesweeper:medium#a"
    written = GameId("minesweeper", safe, "a", 2).text(GAME)
    assert parse_game_id(GAME, written).params == safe
    assert parse_game_id(GAME, "minesweeper@2:medium#a").params == medium


def test_both_versions_deal_the_same_mines_from_the_same_parameters() -> None:
    safe = {**GAME.validate(PRESETS["hard"]), "first_click": "safe"}
    assert (GameId("minesweeper", safe, "x", 1).deal(GAME)
            == GameId("minesweeper", safe, "x", 2).deal(GAME))


def new_game(client: TestClient, **options: Any) -> dict[str, Any]:
    reply = client.post("/api/games", json={"game": "minesweeper", **options})
    assert reply.status_code == 201, reply.text
    created: dict[str, Any] = reply.json()
    return created


def test_a_new_game_opens_an_area_and_an_old_id_plays_the_old_way(client: TestClient) -> None:
    fresh = new_game(client, params=PRESETS["medium"])
    assert fresh["id"].startswith("minesweeper@2:medium#")
    assert fresh["view"]["params"]["first_click"] == "opening"
    old = new_game(client, id="minesweeper:medium#old1")
    opened = []
    for game in (fresh, old):
        reply = client.post(f"/api/games/{game['session']}/moves", json={"move": {"open": [7, 7]}},
                            headers={"Authorization": f"Bearer {game['token']}"})
        cells = "".join(reply.json()["text"].split())
        opened.append(len(cells) - cells.count("#"))
    assert opened[0] >= 9 and opened[1] == 1  # an area; the seed's rule, a single cell


def test_a_no_guess_medium_keeps_its_board_name(client: TestClient) -> None:
    created = new_game(client, params={**PRESETS["medium"], "first_click": "no_guess"})
    view = created["view"]
    assert view["preset"] == "medium" and view["headline"] == "Medium, no guess"
    assert 'aria-current="true">Medium<' in view["html"]
    assert GAME.summary(view["params"]) == "Medium 15×15, no guess"
    assert GAME.stat_group(view["params"]) == "medium, no guess"
    assert GAME.preset_label(GAME.stat_group(view["params"])) == "Medium, no guess"
    assert GAME.stat_group(GAME.validate(PRESETS["medium"])) == "medium"


def test_the_seeds_rule_is_a_named_choice_of_new_game(client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/api/catalog").json()["games"]}
    first_click = next(p for p in games["minesweeper"]["parameters"]
                       if p["name"] == "first_click")
    assert first_click["default"] == "opening"
    assert first_click["choices"][0] == "opening" and "safe" in first_click["choices"]
    assert "original" in first_click["choice_labels"]["safe"]


def test_the_hint_before_the_first_click_says_it_is_safe() -> None:
    state = GameId("minesweeper", GAME.validate(PRESETS["expert"]), "h", 2).deal(GAME)
    found = hint(state, 0)
    assert found is not None and "never a mine" in found.note and "open" in found.move


@pytest.mark.parametrize("board", ["easy", "medium", "hard", "expert"])
def test_a_hint_after_the_opening_is_safe_or_gives_its_odds(board: str) -> None:
    params = GAME.validate(PRESETS[board])
    for seed in range(25):
        after = centre_click(GameId("minesweeper", params, f"h{seed}", 2).deal(GAME))
        if GAME.status(after) is not Status.PLAYING:
            continue
        found = hint(after, 0)
        assert found is not None
        row, col = found.move["open"]
        if "(it is safe" in found.note:
            assert after.cell(row, col) not in after.mined, f"{board}#h{seed}"
            named = re.search(r"the (\d) at row (\d+), column (\d+) has (.*)\)$", found.note)
            if named:  # an open number beside it, whose mines are all elsewhere around it
                count, at = int(named[1]), after.cell(int(named[2]) - 1, int(named[3]) - 1)
                assert after.counts[at] == count and after.marks[at] == OPEN
                assert abs(at // after.cols - row) <= 1 and abs(at % after.cols - col) <= 1
                assert "already" not in found.note  # no flags on the board to look for
                mines = {after.cell(int(r) - 1, int(c) - 1)
                         for r, c in re.findall(r"row (\d+), column (\d+)", named[4])}
                if count <= 2:  # named: that number's own mines, each of them
                    told = "its mine" if count == 1 else f"its {count} mines"
                    assert named[4].startswith(f"{told} at "), found.note
                    assert mines == {n for n in neighbours(after.rows, after.cols)[at]
                                     if n in after.mined}, found.note
                else:
                    assert named[4] == (f"its {count} mines on other cells around it, "
                                        "as the numbers near it show")
            else:
                assert found.note.endswith(("the numbers around it leave no mine there)",
                                            "the mines left are all accounted for elsewhere)"))
        else:
            kinds = "|".join(map(re.escape, GUESS_NOTES.values()))
            assert re.fullmatch(rf"Open row \d+, column \d+ \(a guess: \d\d?\u00a0% mine, "
                                rf"({kinds})\)", found.note), found.note


def test_the_seeds_boards_keep_keys_1_to_3_and_the_classic_boards_are_as_near() -> None:
    from parlour.games import GAMES

    keys = {command.name: command.keys for command in GAMES["minesweeper"].commands}
    assert [keys[name] for name in ("easy", "medium", "hard")] == [("1",), ("2",), ("3",)]
    assert [keys[name] for name in ("beginner", "intermediate", "expert")] == [
        ("4",), ("5",), ("6",)]
