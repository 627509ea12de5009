"""What a player asks of a game, one pydantic model per kind, and what the hub answers.

The WebSocket carries these as JSON tagged by `type` (`ClientMessage` reads one); the
REST routes build the same models from their paths and bodies, so both reach the hub's
one table of handlers (`Hub.act`). Each kind carries only its own field: a move, the
assist switch's position, a command's name, an answer to a take-back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from parlour.core.game import Hint


class Strict(BaseModel):
    """A model that refuses fields it does not know."""

    model_config = ConfigDict(extra="forbid")


class PlayMove(Strict):
    """Play a move for the seat to move."""

    type: Literal["move"] = "move"
    move: Any = None


class Undo(Strict):
    """Take back moves to the player's previous turn; with other players holding seats,
    ask them to accept a take-back."""

    type: Literal["undo"] = "undo"


class Redo(Strict):
    """Replay what Undo took back, up to the player's next turn."""

    type: Literal["redo"] = "redo"


class Restart(Strict):
    """Start the same deal again from the beginning."""

    type: Literal["restart"] = "restart"


class AskHint(Strict):
    """A suggested move for the seat to move (the game then counts as assisted)."""

    type: Literal["hint"] = "hint"


class SetAssist(Strict):
    """Turn the game's assist switch on or off."""

    type: Literal["assist"] = "assist"
    on: bool = False


class RunCommand(Strict):
    """Carry out one of the game's server commands (`GameSpec.command_handlers`)."""

    type: Literal["command"] = "command"
    name: str = Field("", max_length=40, description="a server command's name")


class AnswerTakeback(Strict):
    """Accept or refuse the take-back another player asked for; the asker withdraws it
    with accept false."""

    type: Literal["takeback"] = "takeback"
    accept: bool = False


class Leave(Strict):
    """Give up the sender's seats (WebSocket only: REST has its own route)."""

    type: Literal["leave"] = "leave"


class Cancel(Strict):
    """Stop the long work a player asked for (a hint, a solver), at once."""

    type: Literal["cancel"] = "cancel"


Action = PlayMove | Undo | Redo | Restart | AskHint | SetAssist | RunCommand | AnswerTakeback
"""A change a player asks of a game: each kind has one handler (`Hub.act`)."""
ClientMessage = Annotated[Action | Leave | Cancel, Field(discriminator="type")]
"""What a browser sends on the WebSocket after its hello."""
CLIENT_MESSAGE: TypeAdapter[Action | Leave | Cancel] = TypeAdapter(ClientMessage)


@dataclass(frozen=True)
class Opened:
    """A new game opened for a player (a command's replay): where, and their token."""

    sid: str
    token: str
    note: str


Answer = Hint | str | Opened | None
"""What a handler answers besides the new views: a hint to show, a note for the player,
a game opened for them, or nothing."""
