"""The hub's parts alone: its one table of handlers, the take-back rules, and a handler
run on a game in memory with no hub, store or socket around it."""

from __future__ import annotations

import typing
from pathlib import Path

import pytest

from parlour.core.game import GameError
from parlour.core.gameid import GameId, new_seed
from parlour.core.session import HUMAN, Session
from parlour.games import GAMES
from parlour.server.api.socket import WireMessage
from parlour.server.compute import Compute
from parlour.server.hub.core import Hub
from parlour.server.hub.live import Live
from parlour.server.hub.messages import (
    KINDS,
    Action,
    AnswerTakeback,
    Cancel,
    Leave,
    PlayMove,
    SetVisibility,
    Undo,
)
from parlour.server.hub.play import Play
from parlour.server.hub.seats import answer_takeback, ask_takeback
from parlour.server.hub.takebacks import answered, asked
from parlour.server.hub.workers import Workers
from parlour.store.sqlite import SqliteStore as Store
from tests.support.loops import run_async


def test_every_kind_of_action_has_one_handler(tmp_path: Path) -> None:
    hub = Hub(Store(tmp_path / "db.sqlite3"), GAMES, ai_delay_scale=0)
    assert set(hub.handlers) == set(typing.get_args(Action))
    kinds = {kind.model_fields["type"].default for kind in typing.get_args(Action)}
    assert len(kinds) == len(hub.handlers)  # one wire `type` per kind
    hub.store.close()


def read(text: str) -> object:
    return WireMessage.model_validate_json(text).message()


def test_a_message_is_read_as_its_kind_with_only_its_own_field() -> None:
    assert read('{"type": "move", "move": {"cell": [1, 1]}}') == PlayMove(move={"cell": [1, 1]})
    assert read('{"type": "takeback", "accept": true}') == AnswerTakeback(accept=True)
    assert read('{"type": "undo", "accept": true, "move": null}') == Undo()  # as always
    assert isinstance(read('{"type": "leave"}'), Leave)
    assert isinstance(read('{"type": "cancel"}'), Cancel)
    assert read('{"type": "visibility", "visible": false}') == SetVisibility(visible=False)
    for wrong in ('{"type": "jump"}', '{"move": 1}', '{"type": "undo", "colour": 1}',
                  '{"type": "command", "name": "' + "x" * 41 + '"}',
                  '{"type": "visibility"}', '{"type": "visibility", "visible": "yes"}'):
        with pytest.raises(ValueError):
            read(wrong)


def test_the_hub_reads_what_a_kind_does_from_the_kind() -> None:
    assert set(KINDS) == {"move", "undo", "redo", "restart", "hint", "assist", "command",
                          "takeback", "leave", "cancel", "rematch",
                          "visibility"}
    assert {name for name, kind in KINDS.items() if kind.plays_on} == {
        "move", "undo", "redo", "restart"}
    assert {name for name, kind in KINDS.items() if kind.stops_the_computer} == {
        "undo", "restart", "takeback"}
    assert {name for name, kind in KINDS.items() if kind.appends_moves} == {"move"}


def test_a_takeback_waits_for_every_other_player_and_one_refusal_ends_it() -> None:
    request = asked(None, "a", can_undo=True, others=["b", "c"])
    with pytest.raises(GameError, match="already waiting"):
        asked(request, "b", can_undo=True, others=["a", "c"])
    with pytest.raises(GameError, match="waiting for the other players"):
        answered(request, "a", accept=True)
    assert answered(request, "b", accept=True) == "waiting"
    assert answered(request, "c", accept=True) == "accepted"
    request = asked(None, "a", can_undo=True, others=["b"])
    assert answered(request, "b", accept=False) == "refused"
    assert answered(asked(None, "a", True, ["b"]), "a", accept=False) == "withdrawn"
    with pytest.raises(GameError, match="no move of yours"):
        asked(None, "a", can_undo=False, others=["b"])


def two_players() -> tuple[Live, str, str]:
    """A Tic-Tac-Toe game in memory held by two players, one seat each."""
    spec = GAMES["tictactoe"]
    game_id = GameId(spec.name, spec.game.validate({}), new_seed(), spec.game.deal_version)
    session = Session(spec, game_id, [HUMAN, HUMAN])
    live = Live("sid", session, "two players", "standard", 1,
                {"x": frozenset({0}), "o": frozenset({1})})
    return live, "x", "o"


def test_handlers_run_alone_on_a_game_in_memory() -> None:
    async def scenario() -> None:
        live, x, o = two_players()
        play = Play(Workers(Compute(workers=1)))  # the pool starts only if work is sent
        await play.move(live, x, frozenset({0}), PlayMove(move={"cell": [1, 1]}))
        assert live.session.cursor == 1
        note = await play.undo(live, x, frozenset({0}), Undo())
        assert note == "Asked to take back your last move: waiting for an answer"
        assert live.takeback is not None and live.session.cursor == 1
        assert await answer_takeback(live, o, frozenset({1}),
                                     AnswerTakeback(accept=True)) == "Take-back accepted"
        assert live.session.cursor == 0 and live.takeback is None
        assert live.notes == [(x, "Your take-back was accepted")]
        with pytest.raises(GameError, match="no move of yours"):
            ask_takeback(live, x, frozenset({0}))

    run_async(scenario())
