"""What a viewer is sent: the position as its seats may see it, rendered, with what it
may do. `View` documents the shape (OpenAPI); `build_view` makes one as plain data."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from pydantic import BaseModel, Field

from parlour.core.commands import server_command_states
from parlour.core.game import JSON, RenderContext, Status
from parlour.core.gameid import SHOWN, params_text
from parlour.core.outcome import outcome
from parlour.core.session import Session
from parlour.server import timing
from parlour.server.hub.live import Live
from parlour.server.hub.movelist import move_list
from parlour.server.hub.series import MAX_OFFERS, player_of, seat_scores
from parlour.server.hub.takebacks import may_ask, role_of
from parlour.server.hub.tokens import raw_token
from parlour.store import SeriesRow
from parlour.store.seat_tokens import unseal


class SeatView(BaseModel):
    name: str
    kind: str = Field(description="'human' or 'ai'")
    level: str | None = Field(description="the level of the AI playing it")
    open: bool = Field(
        description="a human seat nobody holds: POST /api/games/{sid}/join takes it"
    )
    stand_in: bool = Field(
        description="a human seat whose player left: the computer plays it until someone "
        "takes it"
    )
    held: bool
    you: bool
    score: int | None = Field(description="the seat's score; none where the scores only "
                              "say who won (Tic Tac Toe)")


class HintView(BaseModel):
    move: Any
    note: str


class MoveListEntry(BaseModel):
    """One move of the move list."""

    ply: int = Field(description="its number, from 1")
    seat: int | None = Field(description="who made it")
    text: str = Field(description="where it went and what it took, e.g. 'd5, turned 3'")
    passed: list[int] = Field(description="the seats that could not move after it")


class EndFigure(BaseModel):
    """A figure of a finished game, as its end card shows it (`GameSpec.end_figures`)."""

    label: str
    value: int | float
    shown: str = Field(description="the figure as the card shows it: a count as it is, "
                       "a fraction or rate to two places (0.70, 13.00)")


class EndActionView(BaseModel):
    """A button of the end card beside New game and Same deal again (`GameSpec.end_actions`)."""

    label: str
    command: str = Field(description="the name of the game's command it runs")


class TakebackView(BaseModel):
    """A take-back asked for by one player, waiting for the others."""

    seats: list[int] = Field(description="the seats of the player who asked")
    moves: int = Field(description="the moves it takes back: the asker's last, and any "
                       "played after it")
    yours: bool = Field(description="you asked: you may withdraw it")
    waiting_for_you: bool = Field(description="you may accept or refuse it")


class SeriesScore(BaseModel):
    """One seat's player's score in the series."""

    won: int
    drawn: int
    lost: int
    player: int = Field(description="the series' player in this seat, numbered from 0 by "
                        "their seat in the series' first game (a rematch rotates them)")


class SeriesView(BaseModel):
    """The series this game belongs to: consecutive games with the same seats."""

    number: int = Field(description="this game's number in the series, from 1")
    seats: list[SeriesScore] = Field(
        description="per seat of this game, its player's games won, drawn and lost in the "
        "series, this one included once it is over (a rematch rotates the seats: the "
        "score follows the player)")


class RematchOfferView(BaseModel):
    """A rematch offered by one player, waiting for the others."""

    seats: list[int] = Field(description="the seats of the player who offered it")
    yours: bool = Field(description="you offered it: you may withdraw it")
    waiting_for_you: bool = Field(description="you may accept or decline it")


class RematchNext(BaseModel):
    session: str = Field(description="the rematch's session")
    token: str | None = Field(description="your token for your seats in the rematch "
                              "(null for a spectator: watch it)")


class RematchView(BaseModel):
    """A finished game of several players: the next game of its series."""

    can_offer: bool = Field(description="you may offer a rematch (POST "
                            "/api/games/{sid}/rematch)")
    offer: RematchOfferView | None
    next: RematchNext | None = Field(description="the rematch has started: where it is")


class View(BaseModel):
    """A game as the seats of one viewer see it."""

    game: str
    title: str
    id: str | None = Field(
        description="the game id, which reveals the deal: sent only to the game's owner "
        "while it is on, and to anyone once it is over"
    )
    session: str
    status: str = Field(description="playing, won, lost or draw")
    to_move: int | None
    scores: list[int]
    winners: list[int]
    places: list[int] = Field(description="each seat's place once the game is over (1: "
                              "first; seats level share one); [] while it is on")
    moves: int = Field(description="moves played up to the current position (as the game "
                       "counts them: the sliding puzzle counts tiles moved)")
    line_length: int = Field(description="moves in the line, the redo line included")
    headline: str
    text: str = Field(description="the position as plain text")
    html: str | None = Field(description="the board's markup (null when `parts` is sent)")
    parts: list[str] | None = Field(
        None, description="WebSocket only: the board's lines that changed since the last view"
    )
    orders: list[list[str]] | None = Field(
        None, description="WebSocket only, with `parts`: for each run of sibling elements "
        "(consecutive lines, each one element with an id) whose ids were reordered, added "
        "to or removed from, its new ids in order; absent when none changed"
    )
    gone: list[str] | None = Field(
        None, description="WebSocket only, with `parts`: the ids of the elements removed "
        "from their runs; absent when none were"
    )
    seats: list[SeatView]
    you: list[int] = Field(description="the seats this viewer holds")
    can_move: bool
    can_undo: bool = Field(
        description="Undo may be used now; with other players in the game it asks them "
        "(a take-back request)"
    )
    undo_refusal: str | None = Field(
        description="why Undo is off now, when the game's rules forbid taking the move back"
    )
    undo_asks: bool = Field(description="Undo is a take-back request to the other players")
    undo_help: str | None = Field(
        None, description="Undo now would make the game count as played with help: what "
        "the player has seen (\"the next tile\", or \"how the game ends\" once it is over)")
    restart_help: str | None = Field(
        None, description="Restart would make the game count as played with help: what "
        "the player has seen (\"the stock's cards\")")
    takeback: TakebackView | None
    can_leave: bool = Field(
        description="you may leave your seats (POST /api/games/{sid}/leave): they open "
        "for others, and the computer plays them meanwhile"
    )
    can_restart: bool = Field(description="the player may play the deal again from the start: "
                              "in place while the game is on (POST …/restart), as a new game of "
                              "its id once it has ended (the finished game is kept)")
    can_redo: bool
    outcome: str | None = Field(description="won, lost or draw for this viewer, at the end")
    assisted: bool = Field(description="this viewer's player used help (a hint, the "
                           "assist, an assisted undo): their result counts as assisted")
    assist: bool = Field(description="this viewer's assist switch is on (each player has "
                         "their own)")
    help_refusal: str | None = Field(
        None, description="why Hint and the assist are off for this viewer: another person "
        "holds a seat in the game")
    elapsed_ms: int = Field(description="the time played: it counts only while a player's "
                            "page is open, visible and connected")
    clock_running: bool = Field(description="the clock runs on from elapsed_ms: the game is "
                                "on and a player's page is visible")
    time_shown: str = Field(description="elapsed_ms as the end card writes it: 1:05, or to "
                            "the game's places where its times are compared finely "
                            "(Minesweeper's 4.32, 1:04.32: `GameSpec.time_places`)")
    hint: HintView | None
    commands: dict[str, bool] = Field(
        description="the game's server commands (see the catalog): which may be sent now"
    )
    preset: str
    params: dict[str, int | str | bool]
    params_text: str
    uses_upload: bool = Field(
        description="the id names an uploaded picture, kept only on this server: a link "
        "to the deal works only here; export the game (GET /api/games/{sid}/export) to "
        "take the picture along"
    )
    sound: str | None
    end_figures: list[EndFigure] = Field(
        description="at the end of the game: the figures its end card shows (moves, score...); "
        "empty while playing")
    move_list: list[MoveListEntry] | None = Field(
        None, description="games of several players: every move up to the current position "
        "(null for a game without a move list); GET /api/games/{sid}/positions/{ply} is the "
        "board after any of them")
    move_list_from: int | None = Field(
        None, description="WebSocket only: `move_list` holds the notes from this index on, "
        "those before it as last sent")
    play_note: str | None = Field(
        None, description="a solitaire in play: what its status line says now, where the game "
        "has more to tell than its first note (null: the first note before the first move, "
        "else nothing)")
    end_note: str | None = Field(
        None, description="at the end of the game: what the end card says under its headline, "
        "where the game has more to tell (null: the platform's words)")
    end_actions: list[EndActionView] = Field(
        default_factory=list,
        description="at the end of the game: the end card's own buttons, each running one of "
        "the game's commands; empty while playing")
    series: SeriesView | None = Field(
        None, description="games of several players: the series' score, once it has one")
    rematch: RematchView | None = Field(
        None, description="games of several players, once over: a rematch offered, or "
        "started")
    playing_back: bool = Field(
        description="moves a command plays out (e.g. a solution shown) are still coming; "
        "any action of a player stops them"
    )
    shown: bool = Field(
        False, description="a solver's line opened to step through with Redo (e.g. "
        "Escalator's winning line), or a game a solver's playback ended (the sliding "
        "puzzle's solution played out): its results are filed apart")


def build_view(
    live: Live, seats: Collection[int], token: str | None, clock_now: float,
    sound: str | None = None,
) -> JSON:
    """The view of `seats` (held with `token`), as plain data shaped like `View`;
    `clock_now`: the game clock's time (`Hub.clock`)."""
    session, game = live.session, live.session.game
    to_move = session.to_move
    perspective = to_move if to_move in seats else min(seats, default=None)
    with timing.part("observe"):
        observation = live.observe(perspective)
    can_move = to_move is not None and to_move in seats
    hint = session.hints.get(perspective) if perspective is not None else None
    sharers = live.sharers(token) if seats else []
    help_refusal = live.help_refusal(token) if seats else None
    # this viewer's switch (another player's is theirs), off while help is refused
    assist = session.assist_for(seats) and not help_refusal
    context = RenderContext(perspective, can_move, hint.move if hint else None, assist,
                            live.advice.facts_of(session.state) if assist else None)
    with timing.part("render"):
        markup = session.spec.render(observation, context)
    alone = bool(seats) and not sharers
    return {
        "game": game.name,
        "title": game.title,
        "id": session.id_text if live.reveals_id(token) else None,
        "session": live.sid,
        "status": session.status.value,
        "to_move": to_move,
        "scores": list(session.facts().scores),
        "winners": list(session.facts().winners),
        "places": list(game.places(session.state)),
        "moves": session.moves_made,
        "line_length": session.line_length,
        "headline": live.headline_for(observation, seats),
        "text": game.text(observation),
        "html": markup,
        "seats": _seats(live, seats),
        "you": sorted(seats),
        "can_move": can_move,
        "can_undo": bool(seats) and live.takeback is None and (
            may_ask(session, seats) if sharers else session.can_undo(seats)),
        "undo_refusal": session.undo_refusal(seats) if seats else None,
        "undo_asks": bool(sharers),
        "undo_help": session.undo_help(seats),
        "restart_help": game.hidden_seen if session.restart_helps(seats) else None,
        "takeback": _takeback(live, token),
        "can_leave": bool(sharers) and session.status is Status.PLAYING,
        "can_restart": alone and session.line_length > 0,
        "can_redo": alone and session.cursor < session.line_length,
        "outcome": outcome(session, seats),
        "assisted": session.assisted_for(seats),
        "assist": assist,
        "help_refusal": help_refusal,
        "elapsed_ms": session.clock.reading_ms(clock_now),
        "clock_running": session.clock.running,
        "time_shown": session.spec.time_written(session.clock.reading_ms(clock_now)),
        "hint": {"move": hint.move, "note": hint.note} if hint else None,
        "commands": server_command_states(session.spec, observation, bool(seats)),
        "preset": game.preset_of(session.game_id.params) or "custom",
        "params": session.game_id.params,
        "params_text": params_text(game, session.game_id.params),
        "uses_upload": bool(session.game_id.uploads(game)),
        "sound": sound,
        "end_figures": end_figures(session, perspective, seats),
        "play_note": play_note(session, observation),
        "end_note": end_note(session, observation),
        "end_actions": end_actions(session, observation),
        "playing_back": live.advice.playback is not None,
        "shown": live.group == SHOWN,
        "move_list": move_list(live),
        "series": _series(live),
        "rematch": _rematch(live, token, seats),
    }


def _series(live: Live) -> JSON:
    """The series' score per seat, once there is one: none while a first game is on."""
    session, state = live.session, live.series
    if len(session.seats) < 2 or (state.number() == 0 and session.status is Status.PLAYING):
        return None
    count = len(session.seats)
    return {"number": state.number() + 1,
            "seats": [{"won": won, "drawn": drawn, "lost": lost,
                       "player": player_of(seat, state.number(), count)}
                      for seat, (won, drawn, lost)
                      in enumerate(seat_scores(state, live.sid, session))]}


def _rematch(live: Live, token: str | None, seats: Collection[int]) -> JSON:
    """The rematch as `token`'s player sees it: theirs to offer, offered, or started."""
    session, state = live.session, live.series
    if len(session.seats) < 2 or session.status is Status.PLAYING:
        return None
    offer, place = state.offer, state.place
    if place and place.next_sid:
        started = {"session": place.next_sid, "token": _handed_over(place, token)}
    else:
        started = None
    return {
        "can_offer": bool(seats) and started is None and offer is None
        and state.offers_made.get(token or "", 0) < MAX_OFFERS,
        "offer": None if offer is None else {
            "seats": sorted(live.seats_of(offer.asker)),
            "yours": token == offer.asker,
            "waiting_for_you": bool(seats) and token not in offer.accepted,
        },
        "next": started,
    }


def _handed_over(place: SeriesRow, token: str | None) -> str | None:
    """The rematch's token of `token`'s player, which only their own token unseals."""
    sealed, raw = place.handover.get(token or ""), raw_token(token)
    return None if sealed is None or raw is None else unseal(sealed, raw)


def _takeback(live: Live, token: str | None) -> JSON:
    request, role = live.takeback, role_of(live.takeback, token)
    if request is None:
        return None
    seats = sorted(live.seats_of(request.asker))
    target = live.session.undo_target(seats)
    return {"seats": seats, "moves": 0 if target is None else live.session.cursor - target,
            "yours": role == "asker", "waiting_for_you": role == "asked"}


def _seats(live: Live, seats: Collection[int]) -> list[JSON]:
    session = live.session
    names = session.game.seat_names(session.game_id.params)
    scores = session.facts().scores
    held, open_seats = live.held(), live.open_seats()
    return [
        {
            "name": names[seat],
            "kind": "human" if session.is_human(seat) else "ai",
            "level": session.ai_level(seat) if session.is_ai(seat) else None,
            "open": seat in open_seats,
            "stand_in": seat in session.stand_ins,
            "held": seat in held,
            "you": seat in seats,
            "score": scores[seat] if session.game.scores_shown else None,
        }
        for seat in range(len(names))
    ]


def play_note(session: Session, observation: JSON) -> str | None:
    """A solitaire's status line in play (`GameSpec.play_note`); none once it is over."""
    declared = session.spec.play_note
    if session.status is not Status.PLAYING or declared is None:
        return None
    return declared(observation)


def end_note(session: Session, observation: JSON) -> str | None:
    """The end card's words under its headline (`GameSpec.end_note`); none while playing."""
    declared = session.spec.end_note
    if session.status is Status.PLAYING or declared is None:
        return None
    return declared(observation)


def end_actions(session: Session, observation: JSON) -> list[JSON]:
    """The end card's own buttons (`GameSpec.end_actions`); none while playing."""
    declared = session.spec.end_actions
    if session.status is Status.PLAYING or declared is None:
        return []
    return [{"label": action.label, "command": action.command}
            for action in declared(observation, session.game_id.params)]


def end_figures(session: Session, seat: int | None, seats: Collection[int] = ()
                ) -> list[JSON]:
    """What the end card shows besides the time (`GameSpec.end_figures`); none while playing.
    A seat's score is for its holder ("Your cells 39"); a screen that holds several seats
    is shown each of theirs, named ("Blue cells 39", "Red cells 77"): a "Your" there
    would be one player's alone; a spectator is shown the other figures. A player who
    holds one of the seats is shown their own moves ("Your moves 39", not the 128 of
    Tribolo's three players); several seats' moves are the game's."""
    declared = dict(session.spec.end_figures)
    if session.status is Status.PLAYING or not declared:
        return []
    game = session.game
    known: dict[str, float] = {"moves": session.moves_made}
    if len(seats) == 1 < len(session.seats) and "moves" in declared:
        known["moves"], declared["moves"] = session.moves_by(seats), "Your moves"
    if declared.keys() - known.keys() - {"score"}:
        known |= game.figures(session.state, session.clock.elapsed_ms, session.cursor)
    figures: list[JSON] = []
    for name, label in declared.items():
        if name == "score":
            scores = _scores(session, seat, seats, label)
            figures += [_figure(seat_label, score) for seat_label, score in scores]
        elif name in known:
            figures.append(_figure(label, known[name]))
    return figures


def _scores(session: Session, seat: int | None, seats: Collection[int], label: str
            ) -> list[tuple[str, float]]:
    """The scores an end card shows, each with its label: the one seat's (a solitaire's, to
    anyone), the player's own, or each of a shared screen's seats by name."""
    scores = session.facts().scores
    if len(session.seats) == 1 or len(seats) == 1:
        return [] if seat is None else [(label, scores[seat])]
    names = session.game.seat_names(session.game_id.params)
    return [(_seat_label(names[held], label), scores[held]) for held in sorted(seats)]


def _seat_label(name: str, label: str) -> str:
    """A seat's figure: "Red cells" for "Your cells", "Red score" for "Score"."""
    rest = label.removeprefix("Your ")
    return f"{name} {rest if rest != label else rest[:1].lower() + rest[1:]}"


def _figure(label: str, value: float) -> JSON:
    return {"label": label, "value": _plain(value), "shown": _shown(value)}


def _plain(value: float) -> int | float:
    """2 rather than 2.0; a fraction to two places."""
    return int(value) if float(value).is_integer() else round(value, 2)


def _shown(value: float) -> str:
    """A count as it is, a fraction or a rate (a float, even a whole one) to two places."""
    return str(value) if isinstance(value, int) else f"{value:.2f}"

