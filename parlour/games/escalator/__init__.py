"""Escalator (seed 003, tktk): the pyramid solitaire, with an exact solver, hints that
never peek at the stock, a "still winnable?" light and deals that can always be won."""

from collections.abc import Mapping

from parlour.core.commands import new_game, server
from parlour.core.game import JSON, EndAction, GameSpec, Params, Shortcut, StatFigure
from parlour.games.escalator import solver
from parlour.games.escalator.logic import Escalator
from parlour.games.escalator.view import THUMBNAIL, render, verdict_text

RULES_HTML = """
<p>Clear the <b>pyramid</b> of 28 cards. The other 24 cards are the <b>stock</b>, face
down; its first card starts face up as the <b>base</b>.</p>
<p>Pick up any <b>free</b> pyramid card (no card of the row below lies on it) whose rank
is <b>one above or one below</b> the base's, whatever its suit: it becomes the new base.
Aces are next to both kings and twos, so you can go round the corner:
Q → K → A → 2. When nothing fits, or whenever you like, <b>turn the stock</b> (click it,
or press D, or Space unless the keyboard's cursor is on a card: Space picks that one up)
for a new base.</p>
<p>You win when the pyramid is empty, and lose when the stock is spent and no card can
be picked up.</p>
<p><b>Undo</b> (U) takes back pick-ups, several in a row, but never a turn of the stock:
a card turned stays turned, or you could look one card ahead.</p>
<p>Click or tap a card, drag it onto the base, or move over the free cards with the
arrow keys and press Enter. <b>Hint</b> (H) suggests the move after which a win stays
possible in the largest share of the orders the unseen stock may fall in, and says how
large ("Pick up the 7♣: a win stays possible in 40 % of stock orders"; on a winnable
deal, "the deal stays winnable in 97 % of stock orders"): it
never looks at the stock. The <b>Assist</b> light (A) says whether some order of the
unseen stock could still clear the pyramid; turning it on counts as help.</p>
<p>After the game, Parlour's solver tells you whether the deal could have been won;
<b>Show a winning line</b> (W, in the Game menu, and on the end card of a deal that
could have been won) opens the deal again with the solver's line to step through with
Redo (Y). A game the solver plays to its end counts apart in your statistics.</p>
<p>Most random deals (about 85 %) cannot be won whatever you do, so Parlour deals
<b>winnable deals</b> unless you ask otherwise: the solver checks each before you see it.
<b>New ▾</b> on the toolbar (or the Game menu) offers a <b>New winnable deal</b> (Shift+N)
or a <b>New random deal</b>, and the end card of a random deal lost for good offers a
winnable one. The
statistics count the two kinds apart.</p>
<p>The game is tktk's; its author took the rules from <i>Pyramid</i> as his wife played
it. PySolFC and others call this game <b>Escalator</b>.</p>
"""

ABOUT_HTML = """
<p><b>Escalator</b> comes from <b>tktk</b>, the "Tk timekiller" that Greg Bacon wrote in
Perl/Tk after watching his wife play a solitaire whose name he never learnt (he called it
Pyramid, after the rules he linked; PySolFC knows it as Escalator). His version dealt with
a Fisher–Yates shuffle, drew the cards from images, and had a Game menu with New game,
Undo pick-up and Quit, keyboard accelerators and an About box; he wished for "something
neat" when the pyramid is cleared.</p>
<p>Parlour added cards drawn as SVG (a four-colour deck and three backs), drag and
keyboard play, an exact solver that tells after every game whether the deal could have
been won and shows a winning line, deals that are always winnable (an option), hints that
weigh every way the unseen stock may fall without peeking, the "still winnable?" light,
statistics, and the cascade of cards he wished for.</p>
"""

def commands_enabled(observation: JSON) -> Mapping[str, bool]:
    """A winning line once the game is over, unless the solver has found there is none
    (it was offered, and said only what the felt said already)."""
    verdict = observation.get("verdict") or {}
    return {"winning-line": observation["status"] != "playing" and verdict.get("winnable", True)}


def end_actions(observation: JSON, params: Params) -> list[EndAction]:
    """A deal lost that could have been won: the card offers to show how (the felt says
    it could); a random deal lost that could not: one that can."""
    if observation["status"] != "lost":
        return []
    if (observation.get("verdict") or {}).get("winnable"):
        return [EndAction("Show a winning line", "winning-line")]
    if not params["winnable"]:
        return [EndAction("Deal a winnable one", "new-winnable")]
    return []


SPEC = GameSpec(
    order=50,
    # a win shows the stock left over, a loss the pyramid's cards (0 on a win)
    end_figures={"cards_left": "Pyramid cards left", "stock_left": "Stock cards left",
                 "moves": "Moves"},
    game=Escalator(),
    render=render,
    rules_html=RULES_HTML,
    tagline="Pyramid solitaire: clear 28 cards by taking one a rank above or below the base.",
    about_html=ABOUT_HTML,
    first_note="Pick a free card one rank above or below the base, or turn the stock.",
    # (only a winnable deal is slow: a random one is dealt at once, in place)
    dealing_note="Dealing a winnable game…",
    deal_link_note="the same deal, the stock's hidden cards included",
    thumbnail_svg=THUMBNAIL,
    hint=solver.hint,
    has_assist=True,
    assist_facts=solver.assist_facts,
    commands=(
        server("winning-line", "Show a winning line", "game", "W"),
        new_game("new-winnable", "New winnable deal", "Shift+N", params={"winnable": True}),
        new_game("new-random", "New random deal", params={"winnable": False}),
    ),
    new_choices=("new-winnable", "new-random"),
    end_note=verdict_text,  # (the felt's line scrolls away under the card on a low screen)
    end_actions=end_actions,
    command_handlers={"winning-line": solver.winning_line},
    commands_enabled=commands_enabled,
    stat_outcomes={"won": "won", "lost": "lost"},
    stat_figures=(
        StatFigure("time", "time", "lowest", unit="seconds", of="won"),
        StatFigure("winnable", "could have been won", "share"),
        StatFigure("cards_left", "cards left", "distribution", unit="cards left at the end"),
    ),
    refusal_sound="bell",
    command_labels={"undo": "Undo pick-up", "new": "New game…",
                    "assist": "Assist: say whether a win is still possible"},
    display_options={"deck": ("two-colour", "four-colour"), "back": ("red", "blue", "green"),
                     "highlight": ("playable", "none")},
    display_labels={"deck": {"two-colour": "Two colours", "four-colour": "Four colours"},
                    "highlight": {"playable": "Playable cards"}},
    shortcuts=(
        Shortcut("D, Space", "turn the stock (Space with the cursor on a card picks it up, "
                             "as Enter does)"),
        Shortcut("Arrows, Enter", "move over the free cards, pick one up"),
        Shortcut("Home, End", "the first or the last free card of its row"),
        Shortcut("PgUp, PgDn", "the highest or the lowest free card in line with it"),
    ),
)
