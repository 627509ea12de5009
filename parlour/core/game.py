"""The game protocol: what every game in Parlour provides.

A game is pure: a state is built from validated parameters and a seeded random
generator, moves are applied without I/O, clocks or global random, so a game id plus
its move list reproduces every position. Hidden information stays in the state; what
a seat may see is `observe`, and everything shown to players is derived from that.
"""

from __future__ import annotations

import random
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from typing import Any, ClassVar, Generic, Literal, TypeVar

from pydantic import BaseModel, ValidationError

from parlour.core.commands import Command, menu_commands
from parlour.core.tables import Table
from parlour.core.times import units, written

JSON = Any
"""A value that `json.dumps` accepts."""

Params = dict[str, int | str | bool]
UPLOAD_ID = re.compile(r"^[0-9a-f]{16}$")
# a display option's name and values, as data-opt-<name>="<value>" and the attribute names
# of the moves a value selects (data-alt-move-<name>-<value>) can carry them
_OPTION_NAME = re.compile(r"^[a-z][a-z0-9]*$")
_OPTION_VALUE = re.compile(r"^[a-z0-9][a-z0-9-]*$")

S = TypeVar("S")
M = TypeVar("M")


class Status(StrEnum):
    PLAYING = "playing"
    WON = "won"
    LOST = "lost"
    DRAW = "draw"


class UndoRule(StrEnum):
    """What taking back one move means, declared by each game."""

    ALLOWED = "allowed"
    FORBIDDEN = "forbidden"  # e.g. a card turned from the stock: it was seen
    ASSISTED = "assisted"  # allowed, but the game no longer counts as unassisted


def readable(value: str) -> str:
    """A value as players read it, where a game gives no label: "no_guess" -> "No guess"."""
    words = re.sub(r"[_\s]+", " ", value).strip()
    return words[:1].upper() + words[1:]


def counted(number: int, noun: str, plural: str = "") -> str:
    """A count as players read it: "1 mine", "2 mines", "3 presses" (the plural given, or
    the noun and an s)."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"


def percent(number: int) -> str:
    """A share as players read it, "16 %", its sign held to the number by a no-break space:
    a wrapped line never starts with "%"."""
    return f"{number}\u00a0%"


class GameError(Exception):
    """A request the game refuses; the message is shown to the player as it is. `marks`
    are the ids of the board's elements it is about, which the page marks for a moment
    (Ishido's neighbour that matches the tile in nothing): a refusal the player can see
    on the board, where the board names no cells."""

    def __init__(self, message: str = "", *, marks: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.marks = tuple(marks)  # (kept through a worker process: pickled with __dict__)


class BadParams(GameError):
    pass


class IllegalMove(GameError):
    pass


class IgnoredMove(IllegalMove):
    """An illegal move that players make all the time in passing and expect to do nothing
    (Minesweeper's click on a number whose flags are not all placed: fast players click
    finished numbers). It changes nothing, as any refusal, but quietly: the page shows no
    error and makes no sound (a move made with a key gets the message as a plain note,
    for a player who cannot see that nothing changed); the API answers 409 with the
    message and `"quiet": true`."""


@dataclass(frozen=True)
class Param:
    """One option of a game, shown in the New game dialog and checked on the server."""

    name: str
    label: str
    kind: Literal["int", "choice", "bool", "upload"]  # upload: an id from /api/uploads
    default: int | str | bool
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    """choice: the values; upload: named alternatives to a picture of the player's own
    (e.g. built-in pictures), which are not uploads."""
    help: str = ""
    crop: tuple[str, ...] = ()
    """upload: the int parameters that keep the player's crop of the picture — the point
    kept in view, across and down in % of the picture, and the zoom in % (100: the
    picture covers the frame) — which the New game dialog lets the player adjust."""
    frame: tuple[str, ...] = ()
    """upload: the int parameters whose ratio is the shape of the crop, width to height
    (e.g. a board's columns and rows)."""
    choice_labels: Mapping[str, str] = field(default_factory=dict, hash=False)
    """choice, upload: how players read some of `choices` (e.g. {"no_guess": "No guess:
    solvable by logic"}); the others read as `readable(value)`. Only the New game dialog
    shows them: the values sent and kept in ids stay the choices themselves."""
    only_with: Mapping[str, str] = field(default_factory=dict, hash=False)
    """The values of other choice parameters it means something with (the sliding
    puzzle's steps, with a random walk: {"shuffle": "walk"}); with others, the New game
    dialog greys its field out."""

    def choice_label(self, value: str) -> str:
        return self.choice_labels.get(value) or readable(value)

    def coerce(self, value: object) -> int | str | bool:
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            if value in ("true", "1", 1):
                return True
            if value in ("false", "0", 0):
                return False
            raise BadParams(f"{self.name} must be true or false")
        if self.kind == "int":
            return self._coerce_int(value)
        text = str(value)
        if self.kind == "upload":
            if text and text not in self.choices and not UPLOAD_ID.match(text):
                named = f" or one of {', '.join(self.choices)}" if self.choices else ""
                raise BadParams(f"{self.name} must be the id of an uploaded picture{named}")
            return text
        if text not in self.choices:
            raise BadParams(f"{self.name} must be one of {', '.join(self.choices)}")
        return text

    def _coerce_int(self, value: object) -> int:
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise BadParams(f"{self.name} must be a whole number")
        try:
            number = int(value)
        except ValueError:
            raise BadParams(f"{self.name} must be a whole number") from None
        if self.minimum is not None and number < self.minimum:
            raise BadParams(f"{self.name} must be at least {self.minimum}")
        if self.maximum is not None and number > self.maximum:
            raise BadParams(f"{self.name} must be at most {self.maximum}")
        return number

    def describe(self) -> dict[str, JSON]:
        described: dict[str, JSON] = {
            "name": self.name,
            "label": self.label,
            "kind": self.kind,
            "default": self.default,
            "help": self.help,
        }
        if self.kind == "int":
            described |= {"min": self.minimum, "max": self.maximum}
        if self.kind in ("choice", "upload") and self.choices:
            described["choices"] = list(self.choices)
            described["choice_labels"] = {c: self.choice_label(c) for c in self.choices}
        if self.kind == "upload" and self.crop:
            described |= {"crop": list(self.crop), "frame": list(self.frame)}
        if self.only_with:
            described["only_with"] = dict(self.only_with)
        return described

    def names_upload(self, value: object) -> bool:
        """Whether `value` of this parameter names an uploaded picture."""
        return self.kind == "upload" and bool(value) and value not in self.choices


@dataclass(frozen=True)
class Hint:
    move: JSON
    note: str = ""
    line: tuple[Hint, ...] = ()
    """The hints that follow, should the player play `move` and then each of theirs (e.g.
    the rest of a solver's solution): while the player follows them, the session answers
    later hints from here without asking the hint finder again."""


@dataclass(frozen=True)
class RenderContext:
    """What a renderer may know beyond the observation: who looks, and display state."""

    seat: int | None  # None for a spectator
    can_move: bool  # the viewer holds the seat to move and the game is on
    hint: JSON | None = None  # the move a hint suggested, to highlight
    assist: bool = False  # the game's assist switch is on (e.g. show every valid cell)
    assist_facts: JSON = None  # what `GameSpec.assist_facts` worked out for this position


class Game(ABC, Generic[S, M]):
    """Rules of one game. Subclasses are stateless; states are immutable values."""

    name: ClassVar[str]
    title: ClassVar[str]
    parameters: ClassVar[tuple[Param, ...]] = ()
    presets: ClassVar[Mapping[str, Params]] = {"standard": {}}
    preset_labels: ClassVar[Mapping[str, str]] = {}
    """How players read some presets' names (the others read as `readable(name)`)."""
    move_model: ClassVar[type[BaseModel]]
    deal_version: ClassVar[int] = 1
    """Bump when `deal` would deal otherwise from the same seed, and keep the old dealer
    in `old_deals`: saved games and shared ids keep their deals."""
    random_deal: ClassVar[bool] = True
    """False for a game that always starts the same (Tic Tac Toe): it has no deal to show
    or share."""
    scores_shown: ClassVar[bool] = True
    """False where the scores only say who won (Tic Tac Toe's 1 and 0): the seats show
    none (a series' row shows the games won)."""
    old_deals: ClassVar[Mapping[int, Callable[[Params, random.Random], Any]]] = {}
    old_defaults: ClassVar[Mapping[int, Params]] = {}
    """Parameter defaults an earlier deal version had otherwise, per version: an id of that
    version that leaves such a parameter out means its old default (Minesweeper's first
    click was "safe" up to its version 1), so that the id deals and plays as it did."""
    position_help: ClassVar[str] = ""
    """How a start position given by the player is written (empty: none is taken)."""
    undo_refusal: ClassVar[str] = "that move cannot be taken back"
    """What the player is told when Undo meets a move `undo_rule` forbids."""
    hidden_seen: ClassVar[str] = "what the deal hides"
    """What a move whose undo counts as help (or is forbidden) showed, as in "you have
    seen the next tile": the player is told that an Undo or a Restart makes the game one
    played with help, before (the Undo button's title, Restart's question in the middle
    of a game) and after (the note of the Undo or Restart that did)."""
    new_game_preset: ClassVar[str | None] = None
    """The preset of a new game whose player chose no parameters (None: the parameters'
    defaults). Ids never read it: an id names its parameters, so it keeps its deal."""
    position_param: ClassVar[str] = ""
    """A name under which a script may also give a start position among the parameters
    of a new game (e.g. Sliding's `tiles`): the same as an id '<game>:<params>:<position>'."""

    # -- parameters ---------------------------------------------------------------
    def validate(self, params: Mapping[str, object]) -> Params:
        """Complete `params` with defaults and check them; raise BadParams if wrong."""
        known = {p.name: p for p in self.parameters}
        unknown = sorted(set(params) - set(known))
        if unknown:
            raise BadParams(f"unknown parameter {unknown[0]!r} for {self.name}")
        clean: Params = {
            p.name: p.coerce(params[p.name]) if p.name in params else p.default
            for p in self.parameters
        }
        self.check_params(clean)
        return clean

    def check_params(self, params: Params) -> None:
        """Checks between parameters (e.g. mines fit the board); raise BadParams."""

    def stat_group(self, params: Params) -> str:
        """The group a game's results are counted in by the statistics: its preset's name,
        or else the board as `summary` words it (Minesweeper's "Medium 16×16, no guess"),
        so a game is filed under the words its player chose; "custom" if it has none."""
        preset = self.preset_of(params)
        if preset:
            return preset
        words = self.summary(params)
        return "custom" if words in ("", "Custom") else words

    def summary(self, params: Params) -> str:
        """A few words saying which board or rules `params` make, shown with unfinished
        games (e.g. Minesweeper's "Expert 16×30"): by default the preset's name, as
        players read it, or "Custom"; nothing for a game without parameters."""
        if not self.parameters:
            return ""
        preset = self.preset_of(params)
        return self.preset_label(preset) if preset else "Custom"

    def preset_label(self, name: str) -> str:
        return self.preset_labels.get(name) or readable(name)

    def preset_of(self, params: Params) -> str | None:
        return next((name for name, full in self._full_presets.items() if full == params), None)

    @cached_property
    def _full_presets(self) -> dict[str, Params]:
        return {name: self.validate(preset) for name, preset in self.presets.items()}

    # -- seats --------------------------------------------------------------------
    def seat_names(self, params: Params) -> tuple[str, ...]:
        return ("Player",)

    # -- the rules ----------------------------------------------------------------
    @abstractmethod
    def deal(self, params: Params, rng: random.Random) -> S:
        """The starting position; every chance element comes from `rng`."""

    def deal_of_version(self, version: int, params: Params, rng: random.Random) -> S:
        """The deal of an id made when the game dealt as `version` did."""
        if version == self.deal_version:
            return self.deal(params, rng)
        if version in self.old_deals:
            dealt: S = self.old_deals[version](params, rng)
            return dealt
        raise BadParams(f"{self.title} cannot deal as its version {version} did")

    def parse_position(self, params: Params, text: str) -> S:
        """A start position given by the player (Tatham's game description), in the form
        `position_help` documents; raise BadParams saying what is wrong."""
        raise BadParams(f"{self.title} does not take a start position, only a seed")

    @abstractmethod
    def to_move(self, state: S) -> int | None:
        """The seat to move, or None once the game is over."""

    def can_move_again(self, state: S, seat: int) -> bool:
        """Whether `seat` may still move in this game (Tribolo's player left without a cell
        may not). Once no person's seat may, the computers play the game out without
        pausing between moves: nobody is left waiting for a turn."""
        return True

    @abstractmethod
    def legal_moves(self, state: S) -> Sequence[M]:
        """Every move the seat to move may make (empty when the game is over)."""

    @abstractmethod
    def apply(self, state: S, move: M) -> S:
        """The position after `move`; raise IllegalMove, saying why, if it is not legal."""

    @abstractmethod
    def status(self, state: S) -> Status:
        """Playing, or the result: for games with several seats, WON means someone won."""

    def winners(self, state: S) -> tuple[int, ...]:
        """Seats that won (solitaire: seat 0 when the status is WON)."""
        return (0,) if self.status(state) is Status.WON else ()

    @abstractmethod
    def scores(self, state: S) -> tuple[int, ...]:
        """One score per seat."""

    def places(self, state: S) -> tuple[int, ...]:
        """Each seat's place once the game is over (1: first; seats level share one), for
        the end card of a game of three or more ("Second place"); () while it is on. By
        default by score, the highest first: a game where less is better says so here."""
        if self.status(state) is Status.PLAYING:
            return ()
        scores = self.scores(state)
        return tuple(1 + sum(other > mine for other in scores) for mine in scores)

    def undo_rule(self, before: S, move: M, after: S) -> UndoRule:
        return UndoRule.ALLOWED

    def slow_deal(self, params: Params) -> bool:
        """Whether dealing a game of `params` may take long (e.g. Escalator's winnable
        deals, searched for): the server then does it in a worker process. Quick deals
        are made in place."""
        return False

    def slow_replay(self, params: Params, moves: int) -> bool:
        """Whether dealing a game of `params` and replaying its first `moves` moves may
        take long: the server then does it in a worker process (as it does any replay of
        over 100 moves). By default, when the deal is slow; a game whose first moves may
        be slow says so here too (Minesweeper's no-guess board, laid by the solver at the
        first click: a new one, with no mines yet, is dealt at once)."""
        return self.slow_deal(params)

    def clock_started(self, state: S) -> bool:
        """Whether the game's clock has started by `state`, a position after one move or
        more: by default at the first move; Minesweeper's at the first cell opened, as in
        every Minesweeper (flags planted before it count no time)."""
        return True

    def slow_move(self, state: S, move: M) -> bool:
        """Whether applying `move` may take long (e.g. laying a no-guess minefield): the
        server then applies it in a worker process, so that other games go on."""
        return False

    def moves_made(self, state: S, played: int) -> int:
        """What the view's `moves` counts, for a position reached by `played` moves: the
        moves themselves, unless the game counts otherwise (the sliding puzzle counts
        tiles moved, a click that slides a line of three being three)."""
        return played

    def figures(self, state: S, elapsed_ms: int, moves: int) -> dict[str, float]:
        """Extra figures of a finished game for the statistics (e.g. Minesweeper's 3BV/s):
        a count as an int, a rate or fraction as a float (the end card shows it to two
        places, 13.00 3BV/s beside 0.70 efficiency)."""
        return {}

    def sound(self, before: S, move: M, after: S) -> str:
        """The name of the sound a move makes (the client synthesises a set of them)."""
        return "move"

    # -- what players see ---------------------------------------------------------
    @abstractmethod
    def observe(self, state: S, seat: int | None) -> JSON:
        """Everything `seat` may know (None: a spectator), as plain JSON data."""

    @abstractmethod
    def text(self, observation: JSON) -> str:
        """The position as plain text, for scripts, tests and logs."""

    @abstractmethod
    def headline(self, observation: JSON) -> str:
        """The title line above the board, e.g. "Cross wins"."""

    def headline_for(self, observation: JSON, seats: Collection[int]) -> str:
        """The title line as the holder of `seats` reads it (none: a spectator): e.g.
        "You win!" to the winner of a game against others. By default, `headline`."""
        return self.headline(observation)

    def shown_headline(self, observation: JSON) -> str:
        """The title line once a solver's line played out for the player (`Playback`)
        ended the game, e.g. "Solver's line · 44 moves": not the player's own win. By default,
        `headline`."""
        return self.headline(observation)

    # -- moves as JSON ------------------------------------------------------------
    def parse_move(self, data: object) -> M:
        try:
            model = self.move_model.model_validate(data)
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(part) for part in first["loc"]) or "move"
            raise IllegalMove(f"malformed move ({where}: {first['msg']})") from None
        return self.move_from_model(model)

    @abstractmethod
    def move_from_model(self, model: Any) -> M: ...

    @abstractmethod
    def move_to_json(self, move: M) -> JSON: ...


AIPlayer = Callable[[Any, random.Random], Any]
"""Chooses a move for the seat to move: (state, rng) -> move."""

HintFinder = Callable[[Any, int], Hint | None]
"""Suggests a move for a seat: (state, seat) -> hint, using what that seat knows."""

Renderer = Callable[[JSON, RenderContext], str]
"""Markup for an observation; user actions are declared as data attributes."""

@dataclass(frozen=True)
class Replay:
    """A command's answer: the same deal opened anew with `moves` ahead of it, for the
    player to step through with Redo (e.g. the solver's winning line)."""

    moves: tuple[JSON, ...]
    note: str


@dataclass(frozen=True)
class Playback:
    """A command's answer: `moves` played out on the board, one every `step_seconds`, as
    if the player made them (e.g. a solver's solution shown). The game counts as
    assisted; any action of a player stops it, and they play on from there."""

    moves: tuple[JSON, ...]
    note: str
    step_seconds: float = 0.3


CommandHandler = Callable[[Any, int], "Hint | str | Replay | Playback"]
"""Answers a server command for a seat: (state, seat) -> a hint to show on the board (the
game then counts as assisted), a note for the player, a replay to open, or moves to play
out. Module-level: it runs in a worker."""

@dataclass(frozen=True)
class BestPossible:
    """What the best play from the same start would have scored, for the end card beside
    the player's own figures (the sliding puzzle's fewest moves: "Fewest possible 48")."""

    caption: str  # as the card writes it after a capital: "fewest possible"
    value: int
    met: str = ""  # the card's words when the player's game scored it too, else empty


BestPossibleFinder = Callable[[Any, Any], BestPossible | None]
"""(start state, final state) -> the best possible, or None where the game cannot tell
(the sliding puzzle proves the fewest moves on 3x3 and 4x4 only). Module-level: it runs
in a worker, once the game has ended."""

CommandStates = Callable[[JSON], Mapping[str, bool]]
"""Which server commands may be used, from the observation of the viewer's seat."""


@dataclass(frozen=True)
class StatFigure:
    """A figure the statistics page shows for a game, over the finished games of a group.
    `name`: a key of the game's `figures`, or "time" (seconds taken), "moves" or "score".
    `show`: "share" — the share of games where it is 1 (e.g. winnable deals);
    "distribution" — a chart of how often each value came (e.g. cards left at the end);
    "lowest" / "highest" — the best (smallest / largest) and the mean over the games
    played without help, with a chart of it game by game (`chart` False: the best only).
    `of`: "won" counts the games won only (e.g. the time to clear a minefield), "all"
    every game (e.g. Ishido's score). `unit` names the values on a chart's axis
    ("seconds", "moves", "points"); `best` is the best value's caption ("fewest moves";
    default "best <label>"); `fraction`: a rate or a share, written to two places (0.70,
    13.00) where a count is whole; `places`: a time's places after the seconds where
    players compare times finely (2: 4.32, 1:04.32, as Minesweeper's; 0: a clock of whole
    seconds, 1:05), which the end card, the records and the past games write it to too
    (`GameSpec.time_places`). Figures a game does not declare are in /api/stats only."""

    name: str
    label: str
    show: Literal["share", "distribution", "lowest", "highest"]
    unit: str = ""
    of: Literal["all", "won"] = "all"
    best: str = ""
    chart: bool = True
    fraction: bool = False
    places: int = 0

    def __post_init__(self) -> None:
        if self.places and self.unit != "seconds":
            raise ValueError(f"{self.name}: only a time (unit 'seconds') has places")
        units(0, self.places)  # raises if out of range

    @property
    def best_caption(self) -> str:
        return self.best or f"best {self.label}"


@dataclass(frozen=True)
class MoveNote:
    """One move as a game's move list reads it (the seat who made it is known)."""

    text: str  # where it went and what it took, in a few words: "d5, turned 3"
    passed: tuple[int, ...] = ()  # the seats that could not move after it, in turn


SPEEDS = ("normal", "slow", "fast", "instant")
"""The computers' speed, a display option of games where they play one after another
(`display_options={"computers": SPEEDS}`, read "Computers: Slow pace"): each player's
own, sent when their page connects; the slowest of the players watching paces the
computers (`SPEED_FACTORS`)."""
SPEED_LABELS = {"normal": "Normal pace", "slow": "Slow pace", "fast": "Fast pace",
                "instant": "No pause"}
SPEED_FACTORS = {"normal": 1.0, "slow": 2.5, "fast": 0.4, "instant": 0.0}
"""Each speed as a factor of the game's `ai_delay_seconds`."""


MoveDescriber = Callable[[Any, Any, Any], MoveNote]
"""(the position before, the move as the game's value, the position after) -> its note."""


@dataclass(frozen=True)
class Shortcut:
    keys: str
    action: str


@dataclass(frozen=True)
class EndAction:
    """A button of the card at a game's end beside New game and Same deal again: `label`, and the
    game's `command` it runs (e.g. Escalator's "Deal a winnable one" after a lost deal)."""

    label: str
    command: str


EndActions = Callable[[JSON, Params], Sequence[EndAction]]
"""The end card's own buttons for a finished game, from its observation and parameters."""

EndNote = Callable[[JSON], str | None]
"""What the end card says under its headline of a finished game, from its observation: a
sentence without its full stop (the card adds it, after "(with help)" where help was
used); None: the platform's words ("Better luck next time.")."""


PlayNote = Callable[[JSON], str | None]
"""What a solitaire's status line says in play, from its observation: a sentence with its
full stop; None: the platform's words."""


@dataclass(frozen=True)
class GameSpec:
    """Everything Parlour needs to offer a game: register one per game folder."""

    game: Game[Any, Any]
    render: Renderer
    rules_html: str
    thumbnail_svg: str
    ai_levels: Mapping[str, AIPlayer] = field(default_factory=dict)
    hint: HintFinder | None = None
    default_seats: tuple[str, ...] = ("human",)
    shortcuts: tuple[Shortcut, ...] = ()
    ai_delay_seconds: float = 0.4
    has_assist: bool = False  # offers an assist switch; turning it on counts as help
    assist_facts: Callable[[Any], JSON] | None = None
    """What the assist switch shows that takes a solver (e.g. Escalator's "still
    winnable?" light): (state) -> JSON, module-level, worked out in a worker after each
    change while the switch is on, and given to the renderer as `ctx.assist_facts`
    (None until it is known)."""
    display_options: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Choices the client keeps per player and sets on the board as `data-opt-<name>`
    (e.g. Ishido's tile sets); the first is the default. No rules: the board's stylesheet
    reads them, and an element may offer another move while one is chosen
    (`data-alt-move-<name>-<value>`: Minesweeper's Marks, a flag cleared at once)."""
    display_labels: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    """How players read some `display_options` values, per option (e.g. {"deck":
    {"four-colour": "Four colours"}}), in the View menu and the Display dialog; the
    others read as `readable(value)`."""
    second_action: str = ""
    """What the board's second action does (`data-alt-move`: Space on the cell under
    the cursor, a right click, a long press), for the key table, e.g. "flag a cell";
    empty: the board has none, and the key table does not offer Space for it."""
    commands: tuple[Command, ...] = ()
    """The game's own menu commands (`parlour.core.commands`), beside the standard ones."""
    command_handlers: Mapping[str, CommandHandler] = field(default_factory=dict)
    """The handler of each of `commands` of kind 'server'."""
    commands_enabled: CommandStates | None = None
    """Which server commands are enabled now (None: all, for a seat's holder)."""
    tagline: str = ""
    """The game in a sentence, for whoever has never met it, where a link to its page is
    pasted (the link's preview, `server/api/preview.py`)."""
    about_html: str = ""
    """The About box: what the game is, where it comes from, what Parlour added (HTML)."""
    first_note: str = ""
    """What the status line says to a solitaire's player before the first move: the game
    in one line, for whoever has never played it (a game of several seats says whose turn
    it is instead)."""
    play_note: PlayNote | None = None
    """What a solitaire's status line says in play, from its observation, where the
    position has more to tell than `first_note` (Ishido's rules in a line for the rules
    chosen, what a 4-way just earned); None: `first_note` before the first move, nothing
    after."""
    deal_link_note: str = "the same deal"
    """What whoever opens a deal link gets, as the Copy link button's tooltip ends ("Copy a
    link to this deal: whoever opens it gets …"), where the deal holds more than shows:
    Escalator's "the same deal, the stock's hidden cards included"."""
    dealing_note: str = "Dealing…"
    """What the page says while a new game's deal keeps it waiting over half a second (a
    slow deal, `Game.slow_deal`, made in a worker), e.g. "Dealing a winnable game…"."""
    order: int = 100
    """Where the game comes in the lists of games (smaller first)."""
    tables: tuple[Table[Any], ...] = ()
    """The tables its solvers and AI read (`parlour.core.tables`): while one is not built
    yet, their work gets the time a build takes."""
    warm_up: Callable[[], None] | None = None
    """Done in a worker when the server starts (e.g. compiling a numba kernel the first
    time; the compiled code is cached on disk for every worker), so that players' moves
    and hints do not pay for it. Module-level."""
    command_labels: Mapping[str, str] = field(default_factory=dict)
    """Labels of standard commands as this game calls them, e.g. {"undo": "Undo pick-up"}."""
    command_keys: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Keys of standard commands as this game binds them, freeing a key the game's own
    commands take (e.g. the sliding puzzle's U is the seed's unmute: {"undo": ("Ctrl+Z",
    "Backspace")})."""
    music: str = ""
    """Soft background music the page synthesises while the game is played (no audio
    files): the name of a style the client knows (`static/music.js`, e.g. "music-box");
    empty: none. It follows the sound switch (M) and the Display dialog's Music switch."""
    best_possible: BestPossibleFinder | None = None
    """What the best play from the game's start would have scored, for its end card."""
    stat_figures: tuple[StatFigure, ...] = ()
    """The game's own figures on the statistics page (best time, fewest moves, score...)."""
    stat_outcomes: Mapping[str, str] = field(
        default_factory=lambda: {"won": "won", "lost": "lost", "draw": "drawn"})
    """The outcomes its games can end with, as the statistics page names them (a puzzle
    that ends only when solved: {"won": "solved"}); with one, no win rate or streaks."""
    refusal_sound: str = "error"
    """The sound of a refused move (tktk rings a bell: "bell")."""
    end_figures: Mapping[str, str] = field(default_factory=lambda: {"moves": "Moves"})
    """What the card at the end of a game shows beside the time taken, name -> label:
    "moves" (the view's `moves`), "score" (the player's score; a screen holding several
    seats is shown each one's, the label's "Your" turned into the seat's name: "Red cells")
    or a key of the game's `figures` (e.g. {"score": "Score", "four_ways": "4-ways"});
    empty: the time only."""
    describe_move: MoveDescriber | None = None
    """How the move list of a game of several players reads each move (None: the game
    shows no move list)."""
    stand_in: str | None = None
    """The AI level that plays for a player who leaves their seat (None: the level of
    the default seats' computer, else the first level; a game without AI waits)."""
    new_choices: tuple[str, ...] = ()
    """Names of the game's new-game commands the toolbar offers beside New (a split
    button), where a player decides: e.g. Escalator's winnable and random deals."""
    end_actions: EndActions | None = None
    """The end card's own buttons (`EndAction`s), beside New game and Same deal again."""
    end_note: EndNote | None = None
    """What the end card says under its headline, where the game's end has more to tell
    than who won (Escalator's lost deal: whether any order of play could have won it).
    The board may say it too: on a small screen the card can scroll the board's top away."""
    daily_preset: str | None = None
    """The preset of a solitaire's daily deal (`parlour.core.daily`; None: the preset a
    newcomer's new game has, else the defaults). Changing it changes the daily deals to
    come and stops earlier ones counting as dailies: choose it once."""

    def __post_init__(self) -> None:
        menu_commands(self)  # raises if two commands share a name or a key
        starts = {command.name for command in self.commands if command.kind == "new-game"}
        if set(self.new_choices) - starts:
            raise ValueError(f"{self.name}: new_choices must name new-game commands")
        served = {command.name for command in self.commands if command.kind == "server"}
        if self.daily_preset is not None and self.daily_preset not in self.game.presets:
            raise ValueError(f"{self.name}: daily_preset must name one of its presets")
        if served != set(self.command_handlers):
            raise ValueError(f"{self.name}: server commands and command_handlers differ "
                             f"({', '.join(sorted(served ^ set(self.command_handlers)))})")
        for option, values in self.display_options.items():
            if not _OPTION_NAME.match(option) or not all(map(_OPTION_VALUE.match, values)):
                raise ValueError(f"{self.name}: display option {option!r}: its name lower-case "
                                 "letters and digits, its values also '-' (data-opt-*)")

    @property
    def name(self) -> str:
        return self.game.name

    @property
    def time_places(self) -> int:
        """The places after the seconds its times are written to wherever a finished game's
        time is shown (the end card, the records, the past games, the day's deal): those of
        its "time" `StatFigure`, else 0 (a clock of whole seconds)."""
        return next((f.places for f in self.stat_figures if f.name == "time"), 0)

    def time_written(self, elapsed_ms: float) -> str:
        """A game's time played as its players read it: 0:05, or 4.32 (`time_places`)."""
        return written(elapsed_ms, self.time_places)

    def display_label(self, option: str, value: str) -> str:
        return self.display_labels.get(option, {}).get(value) or readable(value)

    @property
    def stand_in_level(self) -> str | None:
        if self.stand_in is not None or not self.ai_levels:
            return self.stand_in
        prefix = "ai:"
        defaults = [kind[len(prefix):] for kind in self.default_seats if kind.startswith(prefix)]
        return next(iter(defaults), next(iter(self.ai_levels)))
