"""Properties every game must keep, checked on thousands of random games of each.

The games are every one registered in `parlour.games.GAMES` (a new game is covered as
soon as it is registered), plus `Pick`, a tiny test double with a random deal, parameters,
presets and every undo rule, so the session's replay and undo logic meets what
Tic-Tac-Toe alone would not exercise. Game ids (`core/gameid.py`) are tested at the end.
"""

from __future__ import annotations

import copy
import functools
import json
import pickle
import random
import string
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict

from parlour.core import session as session_module
from parlour.core.game import (
    JSON,
    BadParams,
    Game,
    GameError,
    GameSpec,
    IllegalMove,
    Param,
    Params,
    RenderContext,
    Status,
    UndoRule,
)
from parlour.core.gameid import GameId, new_seed, parse_game_id, position_id
from parlour.core.positions import RECENT_POSITIONS, SNAPSHOT_INTERVAL, Positions
from parlour.core.session import Session
from parlour.games import GAMES
from parlour.games.minesweeper.logic import FLAG, OPEN

MAX_PLIES = 400  # a random game longer than this is cut short
MOVES_CHECKED = 30  # per position: at most this many legal moves are applied and checked
FULL_CHECKS = 10  # per game: positions given every check (all of a Tic-Tac-Toe game)
REFERENCE_WEIGHT = 40  # `weight` of a game as big as Tic-Tac-Toe or a little bigger
AI_SECONDS = 60.0  # about what the AI test may spend on a game whose computer searches long
AI_MIN_PLIES = 10  # the fewest computer moves checked in a game, when it searches long
HINT_SECONDS = 8.0  # about what a solitaire's hints may take in the test of them
RANDOM_OPENING = 8  # random moves before hints are followed (more lose a Minesweeper game)


# -- a test double: a solitaire with a random deal -------------------------------------
@dataclass(frozen=True)
class PickState:
    remaining: tuple[int, ...]
    taken: tuple[int, ...] = ()


class PickMove(BaseModel):
    model_config = ConfigDict(extra="forbid")
    take: int


class Pick(Game[PickState, int]):
    """Take the dealt numbers one at a time; won if the last one taken is the largest.

    Taking a number below 10 cannot be taken back; below 20 it makes the game assisted.
    """

    name: ClassVar[str] = "pick"
    title: ClassVar[str] = "Pick"
    parameters: ClassVar[tuple[Param, ...]] = (
        Param("count", "Numbers", "int", 6, minimum=1, maximum=30),
        Param("colour", "Colour", "choice", "red", choices=("red", "blue")),
        Param("lucky", "Lucky", "bool", False),
    )
    presets: ClassVar[Mapping[str, Params]] = {
        "standard": {},
        "long": {"count": 20},
        "blue": {"colour": "blue", "lucky": True},
    }
    move_model: ClassVar[type[BaseModel]] = PickMove

    def check_params(self, params: Params) -> None:
        if params["lucky"] and int(params["count"]) < 2:
            raise BadParams("lucky needs at least 2 numbers")

    def deal(self, params: Params, rng: random.Random) -> PickState:
        return PickState(tuple(rng.randrange(100) for _ in range(int(params["count"]))))

    def to_move(self, state: PickState) -> int | None:
        return 0 if state.remaining else None

    def legal_moves(self, state: PickState) -> Sequence[int]:
        return tuple(range(len(state.remaining)))

    def apply(self, state: PickState, move: int) -> PickState:
        if not 0 <= move < len(state.remaining):
            raise IllegalMove(f"there is no number {move}")
        rest = state.remaining[:move] + state.remaining[move + 1 :]
        return PickState(rest, (*state.taken, state.remaining[move]))

    def status(self, state: PickState) -> Status:
        if state.remaining:
            return Status.PLAYING
        return Status.WON if state.taken[-1] == max(state.taken) else Status.LOST

    def scores(self, state: PickState) -> tuple[int, ...]:
        return (sum(state.taken),)

    def undo_rule(self, before: PickState, move: int, after: PickState) -> UndoRule:
        value = before.remaining[move]
        if value < 10:
            return UndoRule.FORBIDDEN
        return UndoRule.ASSISTED if value < 20 else UndoRule.ALLOWED

    def observe(self, state: PickState, seat: int | None) -> JSON:
        return {"remaining": list(state.remaining), "taken": list(state.taken)}

    def text(self, observation: JSON) -> str:
        return " ".join(map(str, observation["remaining"])) + " |" + "".join(
            f" {n}" for n in observation["taken"]
        )

    def headline(self, observation: JSON) -> str:
        return "Pick" if observation["remaining"] else "Done"

    def move_from_model(self, model: Any) -> int:
        take: int = model.take
        return take

    def move_to_json(self, move: int) -> JSON:
        return {"take": move}


def _render_pick(observation: JSON, ctx: RenderContext) -> str:
    return f"<p>{observation['remaining']}</p>"


def _first(state: PickState, rng: random.Random) -> int:
    return 0


PICK = Pick()
PICK_SPEC = GameSpec(
    game=PICK, render=_render_pick, rules_html="<p>Pick</p>", thumbnail_svg="<svg/>",
    ai_levels={"first": _first},
)

SPECS = [pytest.param(spec, id=name) for name, spec in GAMES.items()] + [
    pytest.param(PICK_SPEC, id="pick-test-double")
]

SEED_ALPHABET = string.ascii_letters + string.digits + "-_"
seeds = st.text(alphabet=SEED_ALPHABET, min_size=1, max_size=40)
rng_seeds = st.integers(min_value=0, max_value=2**32 - 1)


# -- helpers ----------------------------------------------------------------------------
def game_id_for(spec: GameSpec, preset_index: int, seed: str) -> GameId:
    """An id from a preset of the game, read back through the id parser."""
    presets = list(spec.game.presets)
    preset = presets[preset_index % len(presets)]
    return parse_game_id(spec.game, f"{spec.name}:{preset}#{seed}")


def seat_count(spec: GameSpec, game_id: GameId) -> int:
    return len(spec.game.seat_names(game_id.params))


def humans(spec: GameSpec, game_id: GameId) -> list[str]:
    return ["human"] * seat_count(spec, game_id)


def canonical(game: Game[Any, Any], move: Any) -> str:
    return json.dumps(game.move_to_json(move), sort_keys=True)


def replay(spec: GameSpec, game_id: GameId, moves: Sequence[JSON]) -> Any:
    """The position after `moves`, from the rules alone (no Session)."""
    game = spec.game
    state = game.deal(game_id.params, game_id.rng(game))
    for move in moves:
        state = game.apply(state, game.parse_move(move))
    return state


def weight(spec: GameSpec) -> int:
    """How big a game's positions are: legal moves plus text, over its presets' deals."""
    game = spec.game
    sizes = []
    for preset in game.presets:
        game_id = parse_game_id(game, f"{spec.name}:{preset}#weight")
        state = game.deal(game_id.params, game_id.rng(game))
        sizes.append(len(game.legal_moves(state)) + len(game.text(game.observe(state, None))))
    return max(1, sum(sizes) // len(sizes))


def budget(spec: GameSpec, examples: int) -> settings:
    """`examples` random games of Tic-Tac-Toe's size; fewer of a game with big positions,
    so that a newly registered game is covered without the suite taking minutes."""
    scaled = examples * REFERENCE_WEIGHT // max(weight(spec), REFERENCE_WEIGHT)
    return settings(
        max_examples=max(examples // 20, scaled),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


def check_basics(game: Game[Any, Any], params: Params, state: Any) -> list[Any]:
    """The cheap invariants, checked at every position; returns the legal moves."""
    seats = len(game.seat_names(params))
    status = game.status(state)
    to_move = game.to_move(state)
    legal = list(game.legal_moves(state))
    assert isinstance(status, Status)
    assert (status is Status.PLAYING) == (to_move is not None) == bool(legal), (
        status, to_move, len(legal),
    )
    assert to_move is None or 0 <= to_move < seats
    return legal


def check_position(spec: GameSpec, params: Params, state: Any, rng: random.Random) -> None:
    """Every invariant of one position; applies a sample of its legal moves."""
    game = spec.game
    seats = len(game.seat_names(params))
    legal = check_basics(game, params, state)
    status, to_move = game.status(state), game.to_move(state)
    scores = game.scores(state)
    assert len(scores) == seats
    assert all(isinstance(score, int) for score in scores)
    winners = game.winners(state)
    assert set(winners) <= set(range(seats))
    if status in (Status.PLAYING, Status.DRAW):
        assert winners == ()
    if status is Status.WON:
        assert winners != ()

    for seat in [None, *range(seats)]:
        observation = game.observe(state, seat)
        plain = json.loads(json.dumps(observation))  # raises if not JSON data
        text = game.text(observation)
        assert isinstance(text, str)
        assert game.text(plain) == text
        headline = game.headline(observation)
        assert isinstance(headline, str) and headline
        assert game.headline(plain) == headline
        html = spec.render(observation, RenderContext(seat, seat is not None and seat == to_move))
        assert isinstance(html, str) and html

    assert len({canonical(game, move) for move in legal}) == len(legal), "duplicate moves"
    sample = legal if len(legal) <= MOVES_CHECKED else rng.sample(legal, MOVES_CHECKED)
    snapshot = copy.deepcopy(state)
    seen_before = json.dumps(game.observe(state, None), sort_keys=True)
    for move in sample:
        data = game.move_to_json(move)
        assert game.parse_move(data) == move
        assert game.parse_move(json.loads(json.dumps(data))) == move
        game.apply(state, move)  # every legal move applies
        assert state == snapshot, "apply changed the old state"
    assert json.dumps(game.observe(state, None), sort_keys=True) == seen_before


def random_line(
    spec: GameSpec, game_id: GameId, rng: random.Random, plies: int
) -> tuple[list[Any], list[Any]]:
    """The states and moves of a random game of at most `plies` moves, from the deal."""
    game = spec.game
    states = [game.deal(game_id.params, game_id.rng(game))]
    moves: list[Any] = []
    while len(moves) < plies:
        legal = list(game.legal_moves(states[-1]))
        if not legal:
            break
        moves.append(rng.choice(legal))
        states.append(game.apply(states[-1], moves[-1]))
    return states, moves


def play_random(session: Session, rng: random.Random, plies: int) -> None:
    for _ in range(plies):
        legal = list(session.game.legal_moves(session.state))
        if not legal:
            return
        seat = session.to_move
        assert seat is not None
        session.play(session.game.move_to_json(rng.choice(legal)), seat)


def seat_subset(bits: int, seats: int) -> frozenset[int]:
    return frozenset(seat for seat in range(seats) if bits >> seat & 1)


# -- the rules ---------------------------------------------------------------------------
def test_games_are_registered_under_their_names() -> None:
    assert GAMES, "no games registered"
    assert "tictactoe" in GAMES
    for name, spec in GAMES.items():
        assert spec.name == name
        assert spec.game.presets, f"{name} has no presets"
        assert set(spec.default_seats) <= {"human", *(f"ai:{lv}" for lv in spec.ai_levels)}


def test_budget_keeps_thousands_of_tictactoe_games() -> None:
    assert budget(GAMES["tictactoe"], 600).max_examples == 600


@pytest.mark.parametrize("spec", SPECS)
def test_random_games_keep_the_invariants(spec: GameSpec) -> None:
    game = spec.game

    @budget(spec, 600)
    @given(preset=st.integers(0, 50), seed=seeds, move_seed=rng_seeds)
    def run(preset: int, seed: str, move_seed: int) -> None:
        game_id = game_id_for(spec, preset, seed)
        rng = random.Random(move_seed)
        states, _ = random_line(spec, game_id, rng, MAX_PLIES)
        for state in states:
            check_basics(game, game_id.params, state)
        # every position of a short game, a sample of a long one (always the first and last)
        chosen: Sequence[int] = range(len(states))
        if len(states) > FULL_CHECKS:
            chosen = sorted({0, len(states) - 1, *rng.sample(range(len(states)), FULL_CHECKS)})
        for ply in chosen:
            check_position(spec, game_id.params, states[ply], rng)

    run()


@pytest.mark.parametrize("spec", SPECS)
def test_a_solitaire_played_by_its_hints_plays_only_legal_moves(spec: GameSpec) -> None:
    """A player who asks for hint after hint from any position: each is a legal move (the
    same when asked twice), and playing it goes on until the game ends. (Games with a
    computer player are checked with it above.) Games are played for about HINT_SECONDS,
    as many as fit: a solver's hints cost from a millisecond to a second."""
    if spec.hint is None or spec.ai_levels:
        pytest.skip(f"{spec.name} has no hints, or they are checked with its AI")
    game = spec.game
    deadline = time.monotonic() + HINT_SECONDS
    followed: list[JSON] = []
    games_on = 0  # games still on after their random opening, started before the deadline

    @settings(budget(spec, 100), max_examples=100)  # the deadline sizes it
    @given(preset=st.integers(0, 50), seed=seeds, random_plies=st.integers(0, RANDOM_OPENING),
           move_seed=rng_seeds)
    def run(preset: int, seed: str, random_plies: int, move_seed: int) -> None:
        nonlocal games_on
        if time.monotonic() > deadline:
            return
        session = Session(spec, game_id_for(spec, preset, seed), ["human"])
        play_random(session, random.Random(move_seed), random_plies)
        assert spec.hint is not None
        games_on += session.to_move is not None
        while (seat := session.to_move) is not None and time.monotonic() < deadline:
            found = spec.hint(session.state, seat)
            if found is None:
                break
            assert found == spec.hint(session.state, seat), "the hint is not reproducible"
            legal = {canonical(game, move) for move in game.legal_moves(session.state)}
            assert canonical(game, game.parse_move(found.move)) in legal
            session.play(found.move, seat)
            followed.append(found.move)

    run()
    assert len(followed) >= games_on, "hints were seldom given"


_AI_COSTS: dict[str, float] = {}


def ai_seconds_per_ply(spec: GameSpec) -> float:
    """What a hint and a move of each AI level take at the start of the first preset
    (measured once per game: it sizes the AI test, it is never a result)."""
    if spec.name in _AI_COSTS:
        return _AI_COSTS[spec.name]
    game = spec.game
    game_id = parse_game_id(game, f"{spec.name}:{next(iter(game.presets))}#cost")
    state = game.deal(game_id.params, game_id.rng(game))
    seat = game.to_move(state)
    started = time.perf_counter()
    if spec.hint is not None and seat is not None:
        spec.hint(state, seat)
    for level in spec.ai_levels.values():
        level(state, random.Random(0))
    _AI_COSTS[spec.name] = time.perf_counter() - started
    return _AI_COSTS[spec.name]


def ai_plan(spec: GameSpec, examples: int) -> tuple[int, int]:
    """(games, computer moves per game) for the AI test: `examples` whole games when the
    computer is quick; when it searches for a second a move (Tribolo's strong level), a few
    games, each opened with random moves and checked for as many moves as about
    AI_SECONDS allow, rather than an hour of games."""
    cost = 2 * ai_seconds_per_ply(spec)  # each move is chosen twice (reproducible?)
    if cost * MAX_PLIES * examples <= AI_SECONDS:
        return examples, MAX_PLIES
    games = max(2, min(examples, int(AI_SECONDS / (cost * AI_MIN_PLIES))))
    return games, max(AI_MIN_PLIES, int(AI_SECONDS / (cost * games)))


@pytest.mark.parametrize("spec", SPECS)
def test_ai_and_hints_only_suggest_legal_moves(spec: GameSpec) -> None:
    if not spec.ai_levels:
        pytest.skip(f"{spec.name} has no AI")
    game = spec.game
    names = list(spec.ai_levels)
    settings_ = budget(spec, 200)
    games, plies = ai_plan(spec, settings_.max_examples)
    opening = 0 if plies == MAX_PLIES else MAX_PLIES // 4  # cut short: start anywhere

    @settings(settings_, max_examples=games)
    @given(preset=st.integers(0, 50), seed=seeds, levels=st.lists(st.integers(0, 20), min_size=1),
           random_plies=st.integers(0, opening), move_seed=rng_seeds)
    def run(preset: int, seed: str, levels: list[int], random_plies: int, move_seed: int) -> None:
        game_id = game_id_for(spec, preset, seed)
        seats = [f"ai:{names[levels[s % len(levels)] % len(names)]}"
                 for s in range(seat_count(spec, game_id))]
        session = Session(spec, game_id, seats)
        play_random(session, random.Random(move_seed), random_plies)
        for _ in range(plies):
            seat = session.to_move
            if seat is None:
                break
            legal = {canonical(game, move) for move in game.legal_moves(session.state)}
            if spec.hint is not None:
                found = spec.hint(session.state, seat)
                assert found is None or canonical(game, game.parse_move(found.move)) in legal
            move = session.choose_ai_move()
            assert move == session.choose_ai_move(), "the AI's choice is not reproducible"
            assert json.dumps(move, sort_keys=True) in legal
            session.play(move, seat)

    run()


# -- undo and redo -------------------------------------------------------------------------
@pytest.mark.parametrize("spec", SPECS)
def test_undo_all_then_redo_all_returns_the_same_game(spec: GameSpec) -> None:
    game = spec.game

    @budget(spec, 400)
    @given(preset=st.integers(0, 50), seed=seeds, move_seed=rng_seeds, plies=st.integers(0, 60))
    def run(preset: int, seed: str, move_seed: int, plies: int) -> None:
        game_id = game_id_for(spec, preset, seed)
        everyone = range(seat_count(spec, game_id))
        session = Session(spec, game_id, humans(spec, game_id))
        play_random(session, random.Random(move_seed), plies)
        final, line = session.state, session.line
        states = [replay(spec, game_id, line[:k]) for k in range(len(line) + 1)]
        assert session.cursor == len(line) and session.moves == line

        while True:
            cursor = session.cursor
            try:
                session.undo(everyone)
            except GameError as error:
                if cursor == 0:
                    assert "nothing to undo" in str(error)
                else:
                    before, after = states[cursor - 1], states[cursor]
                    move = game.parse_move(line[cursor - 1])
                    assert game.undo_rule(before, move, after) is UndoRule.FORBIDDEN, str(error)
                assert session.cursor == cursor
                break
            assert session.cursor == cursor - 1  # every seat moves: one ply back
            assert session.state == states[session.cursor]
            assert session.line == line
        stopped = session.cursor

        while session.cursor < len(line):
            cursor = session.cursor
            session.redo(everyone)
            assert session.cursor == cursor + 1
            assert session.state == states[session.cursor]
        with pytest.raises(GameError, match="nothing to redo"):
            session.redo(everyone)
        assert session.state == final
        assert session.line == line
        assert session.moves == line
        if stopped == 0:
            assert all(
                game.undo_rule(states[k], game.parse_move(line[k]), states[k + 1])
                is not UndoRule.FORBIDDEN
                for k in range(len(line))
            )

    run()


operations = st.lists(
    st.tuples(st.sampled_from(["play", "play", "play", "undo", "redo", "restart"]), rng_seeds),
    max_size=80,
)


@pytest.mark.parametrize("spec", SPECS)
def test_play_undo_redo_interleavings_match_a_replay(spec: GameSpec) -> None:
    """A model of the line and cursor is kept beside the session; after every action the
    session's position is the one its moves lead to from a fresh session of the same id."""
    game = spec.game

    @budget(spec, 400)
    @given(preset=st.integers(0, 50), seed=seeds, ops=operations)
    def run(preset: int, seed: str, ops: list[tuple[str, int]]) -> None:
        game_id = game_id_for(spec, preset, seed)
        seats = humans(spec, game_id)
        session = Session(spec, game_id, seats)
        line: list[JSON] = []
        cursor = 0
        assisted = False
        seen_hidden = False  # a move showed what the deal hides: a restart is then help

        def to_move_at(ply: int) -> int | None:
            return game.to_move(replay(spec, game_id, line[:ply]))

        def rule_at(ply: int) -> UndoRule:
            before = replay(spec, game_id, line[:ply])
            move = game.parse_move(line[ply])
            return game.undo_rule(before, move, game.apply(before, move))

        for action, value in ops:
            rng = random.Random(value)
            chosen = seat_subset(value, len(seats))
            before = (session.state, session.line, session.cursor, session.assisted)
            expect_error = False
            if action == "play":
                legal = list(game.legal_moves(session.state))
                if not legal:
                    with pytest.raises(GameError, match="over"):
                        session.play({}, 0)
                    expect_error = True
                else:
                    move = game.move_to_json(rng.choice(legal))
                    seat = session.to_move
                    assert seat is not None
                    assert session.play(move, seat) == move
                    line = [*line[:cursor], move]
                    seen_hidden |= rule_at(cursor) is not UndoRule.ALLOWED
                    cursor += 1
            elif action == "undo":
                target = next(
                    (k for k in range(cursor - 1, -1, -1) if to_move_at(k) in chosen), None
                )
                rules = [] if target is None else [rule_at(k) for k in range(target, cursor)]
                possible = target is not None and UndoRule.FORBIDDEN not in rules
                assert session.can_undo(chosen) == possible
                if not possible:
                    with pytest.raises(GameError):
                        session.undo(chosen)
                    expect_error = True
                else:
                    assert target is not None
                    session.undo(chosen)
                    # the game's rule, or an end taken back (a result seen) makes it help
                    ended = game.status(replay(spec, game_id, line[:cursor])) is not Status.PLAYING
                    assisted |= UndoRule.ASSISTED in rules or ended
                    cursor = target
            elif action == "redo":
                if cursor == len(line):
                    with pytest.raises(GameError, match="nothing to redo"):
                        session.redo(chosen)
                    expect_error = True
                else:
                    session.redo(chosen)
                    cursor = next(
                        (k for k in range(cursor + 1, len(line) + 1)
                         if to_move_at(k) in chosen or to_move_at(k) is None),
                        len(line),
                    )
            else:
                session.restart()
                line, cursor, assisted = [], 0, seen_hidden

            if expect_error:
                assert (session.state, session.line, session.cursor, session.assisted) == before
            assert session.line == line
            assert session.cursor == cursor
            assert session.moves == line[:cursor]
            assert session.assisted == assisted
            fresh = Session(spec, game_id, seats, moves=session.moves)
            assert fresh.state == session.state
            assert session.state == replay(spec, game_id, session.moves)
            restored = Session(spec, game_id, seats, moves=session.line, cursor=session.cursor)
            assert restored.state == session.state  # how the server reloads a saved game

    run()


# -- positions kept by snapshots -----------------------------------------------------------
jumps = st.lists(
    st.tuples(st.sampled_from(["undo", "redo", "play", "reload"]), st.integers(0, 2**32 - 1)),
    max_size=40,
)


@pytest.mark.parametrize("spec", SPECS)
def test_positions_rebuilt_from_snapshots_equal_those_played(spec: GameSpec) -> None:
    """With snapshots every few plies and few recent positions kept (so that lines span
    many snapshot intervals and most positions are rebuilt), the session's position
    after any jump back and forth is the one kept in a reference list as it was played."""
    game = spec.game

    @budget(spec, 300)
    @given(
        preset=st.integers(0, 50),
        seed=seeds,
        move_seed=rng_seeds,
        interval=st.sampled_from([1, 2, 3, 5, SNAPSHOT_INTERVAL]),
        recent=st.sampled_from([1, 2, 4, RECENT_POSITIONS]),
        ops=jumps,
    )
    def run(
        preset: int, seed: str, move_seed: int, interval: int, recent: int,
        ops: list[tuple[str, int]],
    ) -> None:
        game_id = game_id_for(spec, preset, seed)
        everyone = range(seat_count(spec, game_id))
        seats = humans(spec, game_id)
        sparse = functools.partial(Positions, interval=interval, recent=recent)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(session_module, "Positions", sparse)
            session = Session(spec, game_id, seats)
            played = [session.state]  # the reference: position k as it was played
            play_random(session, random.Random(move_seed), MAX_PLIES)
            for move in session.line:
                played.append(game.apply(played[-1], game.parse_move(move)))
            for action, value in ops:
                rng = random.Random(value)
                if action == "undo":
                    for _ in range(rng.randrange(1, 3 * interval + 2)):
                        if not session.can_undo(everyone):
                            break
                        session.undo(everyone)
                elif action == "redo":
                    for _ in range(rng.randrange(1, 3 * interval + 2)):
                        if session.cursor == session.line_length:
                            break
                        session.redo(everyone)
                elif action == "play" and session.to_move is not None:
                    del played[session.cursor + 1 :]
                    play_random(session, rng, rng.randrange(1, 2 * interval + 2))
                    for move in session.line_from(len(played) - 1):
                        played.append(game.apply(played[-1], game.parse_move(move)))
                elif action == "reload":
                    cursor = rng.randrange(len(played))
                    session = Session(spec, game_id, seats, session.line, cursor)
                assert session.line_length == len(played) - 1
                assert session.state == played[session.cursor]
                if session.cursor:
                    ply = session.cursor - 1
                    move = game.parse_move(session.line[ply])
                    sound = game.sound(played[ply], move, played[ply + 1])
                    assert session.last_move_sound() == sound

    run()


def long_minesweeper_session(plies: int, rng: random.Random) -> tuple[Session, list[Any]]:
    """A 16x30 Minesweeper game of `plies` moves: marks, and now and then a safe cell
    opened (random opens would soon hit a mine), with each position as it was played."""
    spec = GAMES["minesweeper"]
    session = Session(spec, parse_game_id(spec.game, "minesweeper:expert#long"), ["human"])
    played = [session.state]
    while session.cursor < plies and session.to_move is not None:
        state = session.state
        cell = rng.randrange(state.size)
        if state.marks[cell] == OPEN:
            continue
        opens = not state.started or (rng.random() < 0.02 and state.marks[cell] != FLAG)
        if opens and cell in state.mined:
            continue
        session.play({"open" if opens else "mark": list(divmod(cell, state.cols))}, 0)
        played.append(session.state)
    return session, played


@settings(max_examples=20, deadline=None)
@given(move_seed=rng_seeds, targets=st.lists(st.integers(0, 10**6), min_size=1, max_size=30))
def test_long_lines_rebuild_every_position(move_seed: int, targets: list[int]) -> None:
    """A line of ten snapshot intervals with the real interval: undoing to any ply and
    redoing back, and reloading the game there, give the positions as they were played."""
    session, played = long_minesweeper_session(10 * SNAPSHOT_INTERVAL, random.Random(move_seed))
    assert len(played) > 3 * SNAPSHOT_INTERVAL
    for target in targets:
        ply = target % len(played)
        while session.cursor > ply and session.can_undo([0]):
            session.undo([0])
        while session.cursor < ply:
            session.redo([0])
        assert session.state == played[session.cursor]
    reloaded = Session(session.spec, session.game_id, ["human"], session.line, session.cursor)
    assert reloaded.state == played[session.cursor]
    ply = session.cursor
    assert session.line_from(ply) == session.line[ply:]
    assert session.line_length == len(session.line) == len(played) - 1


@pytest.mark.parametrize("spec", SPECS)
def test_positions_alone_match_a_reference_line(spec: GameSpec) -> None:
    """Positions read in any order, cut back and extended, equal the states played."""
    game = spec.game

    @budget(spec, 300)
    @given(
        preset=st.integers(0, 50), seed=seeds, move_seed=rng_seeds,
        interval=st.integers(1, 9), recent=st.integers(1, 9),
        reads=st.lists(st.tuples(st.booleans(), st.integers(0, 10**6)), max_size=40),
    )
    def run(
        preset: int, seed: str, move_seed: int, interval: int, recent: int,
        reads: list[tuple[bool, int]],
    ) -> None:
        game_id = game_id_for(spec, preset, seed)
        rng = random.Random(move_seed)
        states, moves = random_line(spec, game_id, rng, MAX_PLIES)
        positions = Positions(game, states[0], interval, recent)
        for move, state in zip(moves, states[1:], strict=True):
            positions.append(move, state)
        for cut, value in reads:
            ply = value % len(states)
            if cut:  # a new branch from `ply`, as a move played after undoing there
                positions.truncate(ply)
                del states[ply + 1 :], moves[ply:]
                while len(moves) < ply + 2 * interval and game.to_move(states[-1]) is not None:
                    moves.append(rng.choice(list(game.legal_moves(states[-1]))))
                    states.append(game.apply(states[-1], moves[-1]))
                    positions.append(moves[-1], states[-1])
            assert positions.state(ply) == states[ply]
            assert len(positions) == len(moves)
        assert positions.moves() == [game.move_to_json(move) for move in moves]
        assert [positions.state(ply) for ply in range(len(states))] == states
        with pytest.raises(IndexError):
            positions.state(len(states))

    run()


class CountingPick(Pick):
    """Pick, counting the moves it applies: what a replay costs."""

    applied = 0

    def apply(self, state: PickState, move: int) -> PickState:
        self.applied += 1
        return super().apply(state, move)


def test_stepping_back_replays_from_the_nearest_position_kept() -> None:
    """Undo after undo on a long line replays a move or so each, not the whole way from
    the snapshot before them."""
    game = CountingPick()
    states, moves = random_line(PICK_SPEC, parse_game_id(PICK, "pick:count=30#s"),
                                random.Random(1), 30)
    positions = Positions(game, states[0], interval=64, recent=4)
    for move, state in zip(moves, states[1:], strict=True):
        positions.append(move, state)
    assert positions.state(20) == states[20]
    assert game.applied == 19  # from the snapshot after the first move
    for ply in (21, 22, 23):
        assert positions.state(ply) == states[ply]
    assert game.applied == 19 + 3
    positions.truncate(23)  # a new move played here, after undoing back to it
    assert positions.state(23) == states[23]
    assert game.applied == 19 + 3


def test_positions_need_a_snapshot_interval_and_a_recent_count_of_one_or_more() -> None:
    start = PICK.deal(PICK.validate({}), random.Random(1))
    for interval, recent in ((0, 4), (4, 0)):
        with pytest.raises(ValueError) as refused:
            Positions(PICK, start, interval=interval, recent=recent)
        assert str(refused.value) == ("the snapshot interval and the recent positions must "
                                      "be 1 or more")
    positions = Positions(PICK, start, interval=1, recent=1)
    with pytest.raises(IndexError) as missing:
        positions.state(1)
    assert str(missing.value) == "no position 1 on a line of 0 moves"


@pytest.mark.parametrize("spec", [pytest.param(spec, id=name) for name, spec in GAMES.items()])
def test_sessions_pickle_and_take_a_dealt_start(spec: GameSpec) -> None:
    """A worker process may deal a game, or build a session, and hand it back pickled."""
    game = spec.game
    game_id = game_id_for(spec, 0, "pickled")
    seats = humans(spec, game_id)
    session = Session(spec, game_id, seats)
    play_random(session, random.Random(7), 3 * SNAPSHOT_INTERVAL)
    assert session.line_length > 0
    if session.can_undo(range(len(seats))):
        session.undo(range(len(seats)))  # a redo line too
    else:  # (the rules forbid it, as Escalator's for a turn of the stock: step back anyway)
        session.cursor -= 1
    copied = pickle.loads(pickle.dumps(session))
    assert copied.state == session.state
    assert (copied.line, copied.cursor, copied.id_text) == (session.line, session.cursor,
                                                          session.id_text)
    assert game.observe(copied.state, None) == game.observe(session.state, None)
    for either in (copied, session):
        while either.cursor < either.line_length:
            either.redo(range(len(seats)))
    assert copied.state == session.state

    dealt = pickle.loads(pickle.dumps(game.deal(game_id.params, game_id.rng(game))))
    given_start = Session(spec, game_id, seats, session.line, start=dealt)
    assert given_start.state == session.state


# -- replay from the id --------------------------------------------------------------------
@pytest.mark.parametrize("spec", SPECS)
def test_id_and_moves_replay_the_game(spec: GameSpec) -> None:
    game = spec.game

    @budget(spec, 400)
    @given(preset=st.integers(0, 50), seed=seeds, move_seed=rng_seeds, plies=st.integers(0, 80))
    def run(preset: int, seed: str, move_seed: int, plies: int) -> None:
        game_id = game_id_for(spec, preset, seed)
        seats = humans(spec, game_id)
        session = Session(spec, game_id, seats)
        play_random(session, random.Random(move_seed), plies)

        text = session.id_text
        assert text == game_id.text(game)
        assert text.startswith(f"{spec.name}:") and text.endswith(f"#{seed}")
        reread = parse_game_id(game, text)
        assert reread == game_id
        assert reread.text(game) == text
        stored_moves = json.loads(json.dumps(session.moves))  # as the store keeps them
        again = Session(spec, reread, seats, moves=stored_moves)
        assert again.state == session.state
        assert again.moves == session.moves
        assert again.id_text == text
        assert game.observe(again.state, None) == game.observe(session.state, None)

    run()


@pytest.mark.parametrize("spec", SPECS)
def test_random_lines_replay_from_moves(spec: GameSpec) -> None:
    """Replaying the canonical JSON of a line's moves retraces every position."""
    game = spec.game

    @budget(spec, 200)
    @given(preset=st.integers(0, 50), seed=seeds, move_seed=rng_seeds)
    def run(preset: int, seed: str, move_seed: int) -> None:
        game_id = game_id_for(spec, preset, seed)
        states, moves = random_line(spec, game_id, random.Random(move_seed), MAX_PLIES)
        session = Session(spec, game_id, humans(spec, game_id))
        assert session.state == states[0]
        for move, state in zip(moves, states[1:], strict=True):
            seat = session.to_move
            assert seat is not None
            session.play(json.loads(json.dumps(game.move_to_json(move))), seat)
            assert session.state == state

    run()


def test_session_refusals() -> None:
    game_id = parse_game_id(PICK, "pick:standard#abc")
    with pytest.raises(ValueError, match="cursor"):
        Session(PICK_SPEC, game_id, ["human"], moves=[{"take": 0}], cursor=2)
    with pytest.raises(ValueError, match="cursor"):
        Session(PICK_SPEC, game_id, ["human"], cursor=-1)
    session = Session(PICK_SPEC, game_id, ["human"])
    with pytest.raises(GameError, match="Pick has no hints"):
        session.hint(0)
    with pytest.raises(GameError, match="no AI is to move"):
        session.choose_ai_move()
    with pytest.raises(IllegalMove, match="there is no number 99"):
        session.play({"take": 99}, 0)
    assert session.assisted is False and session.line == []
    with pytest.raises(IllegalMove, match="malformed move"):
        Session(PICK_SPEC, game_id, ["human"], moves=[{"take": "first"}])


# -- game ids ------------------------------------------------------------------------------
PICK_DEFAULTS: Params = {"count": 6, "colour": "red", "lucky": False}


def test_preset_ids() -> None:
    assert parse_game_id(PICK, "pick:standard#abc") == GameId("pick", PICK_DEFAULTS, "abc")
    long = parse_game_id(PICK, "pick:long#k3f9a2")
    assert long.params == {"count": 20, "colour": "red", "lucky": False}
    assert long.seed == "k3f9a2"
    assert long.text(PICK) == "pick:long#k3f9a2"
    blue = parse_game_id(PICK, "pick:blue#x")
    assert blue.params == {"count": 6, "colour": "blue", "lucky": True}
    assert blue.text(PICK) == "pick:blue#x"


def test_empty_params_are_the_defaults() -> None:
    game_id = parse_game_id(PICK, "pick:#s")
    assert game_id.params == PICK_DEFAULTS
    assert game_id.text(PICK) == "pick:standard#s"


def test_name_value_params() -> None:
    game_id = parse_game_id(PICK, "pick:count=7,colour=blue#s1")
    assert game_id.params == {"count": 7, "colour": "blue", "lucky": False}
    assert game_id.text(PICK) == "pick:count=7,colour=blue,lucky=false#s1"
    assert parse_game_id(PICK, game_id.text(PICK)) == game_id
    lucky = parse_game_id(PICK, "pick:lucky=true, count = 3#s")
    assert lucky.params == {"count": 3, "colour": "red", "lucky": True}
    assert lucky.text(PICK) == "pick:count=3,colour=red,lucky=true#s"


def test_params_equal_to_a_preset_are_named_by_it() -> None:
    assert parse_game_id(PICK, "pick:count=20#x").text(PICK) == "pick:long#x"
    assert parse_game_id(PICK, "pick:count=6#x").text(PICK) == "pick:standard#x"


def test_preset_with_overrides() -> None:
    game_id = parse_game_id(PICK, "pick:long,colour=blue#s")
    assert game_id.params == {"count": 20, "colour": "blue", "lucky": False}
    assert game_id.text(PICK) == "pick:count=20,colour=blue,lucky=false#s"
    assert parse_game_id(PICK, "pick:blue,lucky=false#s").params == {
        "count": 6, "colour": "blue", "lucky": False,
    }


def test_spaces_around_presets_are_ignored_like_around_values() -> None:
    """`name = value` parts are stripped, so a preset written with spaces must be too."""
    assert parse_game_id(PICK, "pick:long, colour = blue#s").params["colour"] == "blue"
    expected = parse_game_id(PICK, "pick:long,colour=blue#s")
    assert parse_game_id(PICK, "pick:colour=blue, long#s") == expected


def test_tictactoe_ids() -> None:
    game = GAMES["tictactoe"].game
    game_id = parse_game_id(game, "tictactoe:standard#abc")
    assert game_id == GameId("tictactoe", {}, "abc")
    assert game_id.text(game) == "tictactoe:standard#abc"
    assert parse_game_id(game, " tictactoe:#abc ").text(game) == "tictactoe:standard#abc"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("pick:standard", "ends with '#'"),
        ("pick:standard#", "ends with '#'"),
        ("pick:standard#a b", "ends with '#'"),
        ("pick:standard#a/b", "ends with '#'"),
        ("pick:standard#caf\u00e9", "ends with '#'"),
        ("pick:standard#a#b", "ends with '#'"),
        ("pick:standard#" + "a" * 41, "ends with '#'"),
        ("pick#abc", "starts with 'pick:'"),
        ("tictactoe:standard#abc", "starts with 'pick:'"),
        ("Pick:standard#abc", "starts with 'pick:'"),
        ("", "starts with 'pick:'"),
        ("pick:huge#abc", "unknown preset 'huge' for pick"),
        ("pick:standard,expert#abc", "unknown preset 'expert' for pick"),
        ("pick:size=3#abc", "unknown parameter 'size' for pick"),
        ("pick:long,size=3#abc", "unknown parameter 'size' for pick"),
        ("pick:count=abc#x", "count must be a whole number"),
        ("pick:count=2.5#x", "count must be a whole number"),
        ("pick:count=0#x", "count must be at least 1"),
        ("pick:count=31#x", "count must be at most 30"),
        ("pick:colour=green#x", "colour must be one of red, blue"),
        ("pick:lucky=maybe#x", "lucky must be true or false"),
        ("pick:count=1,lucky=true#x", "lucky needs at least 2 numbers"),
    ],
)
def test_bad_ids_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(BadParams) as raised:
        parse_game_id(PICK, text)
    assert message in str(raised.value)


SEED_RULE = "a game id ends with '#' and a seed: 1 to 40 letters, digits, '-' or '_'"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("pick:standard#a b", SEED_RULE),
        ("pick:standard#" + "a" * 41, SEED_RULE),
        ("pick:" + "x" * 50 + "#abc", f"unknown preset {'x' * 40!r} for pick"),
        ("pick:count=2=2#x", "count must be a whole number"),
        ("pick:standard:a:b", "a start position is letters, digits and . , / * - _"),
    ],
)
def test_a_bad_id_is_refused_in_a_sentence_about_the_part_at_fault(text: str, message: str
                                                                     ) -> None:
    with pytest.raises(BadParams) as raised:
        parse_game_id(PICK, text)
    assert str(raised.value) == message


def test_bad_tictactoe_ids() -> None:
    game = GAMES["tictactoe"].game
    with pytest.raises(BadParams, match="unknown parameter 'rows' for tictactoe"):
        parse_game_id(game, "tictactoe:rows=4#abc")
    with pytest.raises(BadParams, match="unknown preset 'expert' for tictactoe"):
        parse_game_id(game, "tictactoe:expert#abc")
    with pytest.raises(BadParams, match="starts with 'tictactoe:'"):
        parse_game_id(game, "minesweeper:expert#abc")


def test_new_seeds_are_valid_and_differ() -> None:
    made = {new_seed() for _ in range(200)}
    assert len(made) == 200
    for seed in made:
        assert len(seed) == 10
        assert parse_game_id(PICK, f"pick:standard#{seed}").seed == seed


def deal_of(text: str) -> PickState:
    game_id = parse_game_id(PICK, text)
    state: PickState = Session(PICK_SPEC, game_id, ["human"]).state
    return state


def test_same_id_same_deal() -> None:
    first = deal_of("pick:long#k3f9a2")
    assert first == deal_of("pick:long#k3f9a2")
    assert first == deal_of("pick:count=20#k3f9a2")  # the same id written out
    assert len(set(first.remaining)) > 5  # really random numbers


def test_different_seeds_give_different_deals() -> None:
    deals = {deal_of(f"pick:long#seed{i}").remaining for i in range(50)}
    assert len(deals) == 50


def test_params_are_part_of_the_deal() -> None:
    assert deal_of("pick:long#s").remaining != deal_of("pick:long,colour=blue#s").remaining


@settings(max_examples=200, deadline=None)
@given(first=seeds, second=seeds)
def test_deal_depends_on_the_seed_only_through_the_id(first: str, second: str) -> None:
    one = deal_of(f"pick:long#{first}")
    assert one == deal_of(f"pick:long#{first}")
    if first != second:
        assert one != deal_of(f"pick:long#{second}")


def test_rng_is_a_function_of_the_id() -> None:
    game_id = parse_game_id(PICK, "pick:long#abc")
    draws = [game_id.rng(PICK).random() for _ in range(3)]
    assert draws[0] == draws[1] == draws[2]
    other = parse_game_id(PICK, "pick:long#abd")
    assert other.rng(PICK).random() != draws[0]


SLIDING = GAMES["sliding"].game
SLIDING_3X3 = ("sliding:rows=3,cols=3,shuffle=walk,steps=40,picture=meadow,crop_x=50,crop_y=50,"
               "zoom=100")


def test_a_start_position_given_with_a_new_games_parameters_makes_a_position_id() -> None:
    game_id = position_id(SLIDING, {"rows": 3, "cols": 3, "tiles": "1, 2, 3, 4, 5, 6, 0, 7, 8"})
    assert game_id.text(SLIDING) == f"{SLIDING_3X3}:1,2,3,4,5,6,0,7,8"
    assert parse_game_id(SLIDING, game_id.text(SLIDING)) == game_id
    assert game_id.deal(SLIDING) == SLIDING.parse_position(game_id.params, "1,2,3,4,5,6,0,7,8")


@pytest.mark.parametrize(("tiles", "message"), [
    ("1;2", "tiles: a start position is letters, digits and . , / * - _"),
    ("2,1,3,4,5,6,7,8,0", "no sequence of slides can solve this position"),
])
def test_a_start_position_given_with_a_new_games_parameters_is_checked(
    tiles: str, message: str,
) -> None:
    with pytest.raises(BadParams) as refused:
        position_id(SLIDING, {"rows": 3, "cols": 3, "tiles": tiles})
    assert str(refused.value).startswith(message)


def test_an_id_names_the_uploaded_picture_it_deals_with() -> None:
    uploaded = parse_game_id(SLIDING, "sliding:rows=3,cols=3,picture=0123456789abcdef#s")
    assert uploaded.uploads(SLIDING) == ["0123456789abcdef"]
    assert parse_game_id(SLIDING, "sliding:rows=3,cols=3,picture=sea#s").uploads(SLIDING) == []
