"""What a player asks of a game, one pydantic model per kind, and what the hub answers.

The WebSocket carries these as JSON tagged by `type` (`KINDS`; `api/socket.py` reads
them); the REST routes build the same models from their paths and bodies, so both reach
the hub's one table of handlers (`Hub.act`). Each kind carries only its own field: a move, the
assist switch's position, a command's name, an answer to a take-back, a page's visibility.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool

from parlour.core.game import Hint


class Strict(BaseModel):
    """A model that refuses fields it does not know."""

    model_config = ConfigDict(extra="forbid")


class Message(Strict):
    """A kind of client message, and what the hub must know of its kind besides its
    handler (`Hub.handlers`): the loop reads these flags, never the kinds' names."""

    type: str
    plays_on: ClassVar[bool] = False
    """The player acts on the board: advice they were waiting for is moot at once."""
    stops_the_computer: ClassVar[bool] = False
    """It takes away the position the computer is thinking about."""
    appends_moves: ClassVar[bool] = False
    """It adds to the line of moves (saved as an append, not a rewrite)."""


class PlayMove(Message):
    """Play a move for the seat to move."""

    type: Literal["move"] = "move"
    move: Any = None
    plays_on = True
    appends_moves = True


class Undo(Message):
    """Take back moves to the player's previous turn; with other players holding seats,
    ask them to accept a take-back."""

    type: Literal["undo"] = "undo"
    plays_on = True
    stops_the_computer = True


class Redo(Message):
    """Replay what Undo took back, up to the player's next turn."""

    type: Literal["redo"] = "redo"
    plays_on = True


class Restart(Message):
    """Start the same deal again from the beginning."""

    type: Literal["restart"] = "restart"
    plays_on = True
    stops_the_computer = True


class AskHint(Message):
    """A suggested move for the seat to move (the game then counts as assisted)."""

    type: Literal["hint"] = "hint"


class SetAssist(Message):
    """Turn the game's assist switch on or off."""

    type: Literal["assist"] = "assist"
    on: bool = False


class RunCommand(Message):
    """Carry out one of the game's server commands (`GameSpec.command_handlers`)."""

    type: Literal["command"] = "command"
    name: str = Field("", max_length=40, description="a server command's name")


class AnswerTakeback(Message):
    """Accept or refuse the take-back another player asked for; the asker withdraws it
    with accept false."""

    type: Literal["takeback"] = "takeback"
    accept: bool = False
    stops_the_computer = True


class AnswerRematch(Message):
    """Once the game is over: offer a rematch, or accept the one offered (accept true);
    refuse it, or withdraw one's own offer (accept false). See series.py."""

    type: Literal["rematch"] = "rematch"
    accept: bool = False


class Leave(Message):
    """Give up the sender's seats (WebSocket only: REST has its own route)."""

    type: Literal["leave"] = "leave"


class Cancel(Message):
    """Stop the long work a player asked for (a hint, a solver), at once."""

    type: Literal["cancel"] = "cancel"


class SetVisibility(Message):
    """The page was shown or hidden (a tab in the background, a window minimised): a
    game's clock runs only while a player's page is visible (`presence.py`). Not a
    change to the game: the socket tells the hub at once, and REST has no such page."""

    type: Literal["visibility"] = "visibility"
    visible: StrictBool


Action = (PlayMove | Undo | Redo | Restart | AskHint | SetAssist | RunCommand | AnswerTakeback
          | AnswerRematch)
"""A change a player asks of a game: each kind has one handler (`Hub.act`)."""
KINDS: dict[str, type[Action | Leave | Cancel | SetVisibility]] = {
    kind.model_fields["type"].default: kind
    for kind in (PlayMove, Undo, Redo, Restart, AskHint, SetAssist, RunCommand,
                 AnswerTakeback, Leave, Cancel,
                 SetVisibility, AnswerRematch)
}
"""Every kind of client message by the `type` that names it on the wire."""


@dataclass(frozen=True)
class Opened:
    """A new game opened for a player (a command's replay): where, and their token."""

    sid: str
    token: str
    note: str


Answer = Hint | str | Opened | None
"""What a handler answers besides the new views: a hint to show, a note for the player,
a game opened for them, or nothing."""
