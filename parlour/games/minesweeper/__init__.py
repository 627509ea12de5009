"""Minesweeper (seed 004): chording, first-click options, no-guess boards, solver hints."""

from parlour.core.commands import Command, new_game
from parlour.core.game import GameSpec, Shortcut, StatFigure
from parlour.games.minesweeper.logic import PRESETS, Minesweeper
from parlour.games.minesweeper.solver import hint
from parlour.games.minesweeper.view import (
    FLAGS_ONLY,
    MARKS,
    THUMBNAIL,
    WITH_QUESTION_MARKS,
    render,
)

RULES_HTML = """
<p>Some cells hide mines. Open every cell that does not.</p>
<p><b>Click</b> (or tap, or Enter) opens a cell. An open cell shows how many of its eight
neighbours hold a mine; a cell with none opens its neighbours by itself. Opening a mine
loses the game. Your first click is never a mine, and opens an area: the cell and its
neighbours are kept clear.</p>
<p><b>Right click</b> (or a long press, or Space) flags a closed cell 🚩, and again
takes the flag away; with <i>Marks: Flags and question marks</i> (the View menu, the
original's way) it cycles through a flag, a question mark and nothing. Flagged cells
will not open. On a touch screen, the ⛏️🚩 switch beside the counters (or key F) turns
on <b>flag mode</b>: a tap (or Enter) then flags and a long press (a right click, Space)
opens. The page remembers it. The counter on the left shows the mines left (mines minus
flags); the one on the right, the seconds since your first click.</p>
<p><b>Chording</b>: clicking an open number (or pressing C or Space on it) whose flags
around it match its number opens all its other neighbours — if a flag is wrong, that can
hit a mine. On a number whose flags are not all placed, it does nothing.</p>
<p>Options (New game): the first click opens an area (<i>Opens an area</i>), is only
sure to be no mine (<i>Safe</i>, the original's rule: the mine moves away), or starts a
<i>No guess</i> board that can always be cleared by logic alone (key G). After a loss,
Undo takes back the fatal click (the game then counts as assisted).
Hint shows a safe cell, or when none can be proven, the safest one with its odds.</p>
<p>Boards: Easy 7×7 with 10 mines, Medium 15×15 with 40 and Hard 15×30 with 99 (keys 1, 2,
3, and the buttons above the board), and the classic Beginner 9×9 with 10, Intermediate
16×16 with 40 and Expert 16×30 with 99 (keys 4, 5, 6, and the Game menu); <b>More…</b>
opens New game, for any size you like. A won board flags every mine.</p>
"""

ABOUT_HTML = """
<p><b>Minesweeper</b> was made popular by its place in Microsoft Windows from the early
1990s. Parlour's starts from John Benediktsson's Minesweeper in Factor (his blog
<i>Re: Factor</i>, February 2018): its Easy, Medium and Hard boards, a first click that is
never a mine, flags and question marks, the smiley and the two counters.</p>
<p>Parlour added chording, the classic Beginner, Intermediate and Expert boards and custom
sizes, a first click that opens an area (the seed's, which only moves a mine away, is an
option) or starts a board proven to need no guess, hints
from a solver that gives the odds when it must guess, Undo of the fatal click, and
statistics with 3BV per second.</p>
"""


def _preset(name: str, *keys: str) -> Command:
    size = PRESETS[name]
    return new_game(
        name, f"New {name.capitalize()} game ({size['rows']}×{size['cols']}, "
        f"{size['mines']} mines)", *keys, params=size,
    )


SPEC = GameSpec(
    daily_preset="medium",  # a daily deal worth a few minutes: 15×15, 40 mines
    order=60,
    game=Minesweeper(),
    render=render,
    rules_html=RULES_HTML,
    thumbnail_svg=THUMBNAIL,
    hint=hint,
    tagline="Clear the minefield: every number counts the mines that touch its cell.",
    about_html=ABOUT_HTML,
    first_note="Open a cell to begin: each number counts the mines that touch it.",
    # the first click's rule moves the mines under it (and around it, for an opening)
    deal_link_note="the same mines, but for any the first click's rule moves from under "
                   "and around where they first click",
    stat_outcomes={"won": "won", "lost": "lost"},
    # as minesweeper.online's end of a game: the board's 3BV, and a win's speed and
    # efficiency (3BV per click); a loss shows the 3BV and its moves
    end_figures={"3BV": "3BV", "3BV/s": "3BV/s", "efficiency": "Efficiency", "moves": "Moves"},
    stat_figures=(
        # time is the score, so it is written to the hundredth wherever players compare it
        # (4.32, 1:04.32); not to the thousandth: the clock runs from the first click's
        # arrival at the server to the last's, so its milliseconds carry the network's
        StatFigure("time", "time", "lowest", unit="seconds", of="won", places=2),
        StatFigure("3BV/s", "3BV/s", "highest", of="won", chart=False, fraction=True),
        StatFigure("efficiency", "efficiency", "highest", of="won", chart=False,
                   fraction=True),
    ),
    commands=(
        new_game("no-guess", "New no-guess game", "G", params={"first_click": "no_guess"}),
        *(_preset(name, key) for name, key in (("easy", "1"), ("medium", "2"), ("hard", "3"))),
        *(_preset(name, key) for name, key in (("beginner", "4"), ("intermediate", "5"),
                                               ("expert", "6"))),
    ),
    # flags alone, as modern Minesweepers by default (a flag's second action clears it:
    # the view's data-alt-move-marks-flags-only), or the seed's cycle through a ?
    # cells sized to fit the screen, or large ones over which the board pans in its box
    # (Expert's 16 columns across an upright phone fit at 22 px, small for a fingertip)
    display_options={"marks": MARKS, "cells": ("fit", "large")},
    display_labels={"marks": {FLAGS_ONLY: "Flags only",
                              WITH_QUESTION_MARKS: "Flags and question marks"},
                    "cells": {"fit": "Fit the screen", "large": "Large"}},
    second_action="flag, or clear a flag (the View menu's Marks: Flags and question marks "
                  "puts a question mark between; also a right click or a long press)",
    shortcuts=(
        Shortcut("Enter", "open the cell under the cursor (on a number, chord it)"),
        Shortcut("Space", "flag a closed cell, or clear a flag (also a right click or a long "
                          "press); on a number, chord it, as C does"),
        Shortcut("C", "chord: open the neighbours of a number whose flags are all placed"),
        Shortcut("F", "flag mode: a click, a tap or Enter flags; a long press, a right click "
                      "or Space opens"),
    ),
)
