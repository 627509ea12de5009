"""Tribolo: three-player Othello on a 16×11 board with walls, for people on one screen or
in three browsers, and computers at three levels."""

from functools import partial

from parlour.core.commands import new_game
from parlour.core.game import SPEED_LABELS, SPEEDS, GameSpec, Shortcut, StatFigure
from parlour.games.tribolo import ai, solver
from parlour.games.tribolo.logic import Tribolo
from parlour.games.tribolo.view import THUMBNAIL, describe_move, render

RULES_HTML = """
<p>Three players, <b>Blue</b> (round), <b>Red</b> (square) and <b>Green</b> (diamond),
take turns in that order on a board of 16 columns and 11 rows. Each starts with 12 cells
scattered at random; 12 <b>walls</b> (striped) never change. Who moves first is drawn.</p>
<p>Play on an empty cell from which you <b>capture</b>: going out from it in any of the
eight directions, a line of cells of <i>one</i> other player that ends on one of
<b>your</b> cells is turned to your colour. All your captures from that cell, in every
direction, are made at once.</p>
<p>A line is always one player's cells only: a line that ends on the third player's cell
is not yours (it would be theirs, from there), a line that starts on your own cell, or
that meets an empty cell, a wall or the edge first, captures nothing.</p>
<p>A player who cannot capture anywhere <b>passes</b>; the board says so. When nobody can
move, the game ends: the most cells wins; equal most is a tie between those players.</p>
<p><b>Undo</b> takes you back to your last turn (the computers' moves after yours go too);
with friends in the game it asks them to agree. On your turn, a dot marks each cell where
you can play. <b>Assist</b> (A, a switch) shows on each how many cells it would
turn, and <b>Hint</b> (H) asks the strong computer; either counts as help in your
statistics (only yours: each player's help is their own).</p>
<p>The <b>move list</b> beside the board (under it on a phone) names every move: who
played, where (columns a to p and rows 1 to 11, as the letters and numbers beside the
board show them; on a phone, where the board stands on its side, the letters run down
the side) and how many cells it turned. Choose one to see the board as it was then. A
small corner in each player's colour marks their last move. How fast the
<b>computers</b> play one after another is yours to choose in the View menu.</p>
<p>Any seat can be you, a friend on this screen, a friend in another browser (send them
the invite link of their seat) or the computer: <i>easy</i> plays as the computer of
triboard (the browser version Parlour's rules come from) did, <i>medium</i> and
<i>strong</i> search ahead. A player who leaves their
seat is replaced by the computer until someone sits down again.</p>
"""

ABOUT_HTML = """
<p><b>Tribolo</b> is a three-way Othello for DOS, from 1991. Quentin Duval brought it to
the browser in ClojureScript as <i>triboard</i> (github.com/QuentinDuval/triboard), in a
series of blog posts that begins with a Tic-Tac-Toe as its proof of concept (the seed 001
series): game logic, rendering, store and game loop kept apart. His rules, his random deal
and his computer player (the <i>easy</i> level here) are Parlour's.</p>
<p>Parlour added two computers that search ahead for three players, hints from the
strongest, players in other browsers with an invite link per seat, take-backs between
friends, shapes as well as colours for each player, animated flips, full keyboard and
touch play, and statistics.</p>
"""

SPEC = GameSpec(
    order=30,
    end_figures={"score": "Your cells", "moves": "Moves"},
    game=Tribolo(),
    render=render,
    rules_html=RULES_HTML,
    tagline="Othello for three: capture by outflanking, against two computers or friends.",
    about_html=ABOUT_HTML,
    thumbnail_svg=THUMBNAIL,
    ai_levels={level: partial(ai.computer_move, level) for level in ai.LEVELS},
    hint=solver.hint,
    warm_up=solver.warm_up,
    stand_in="medium",
    default_seats=("human", "ai:medium", "ai:medium"),
    has_assist=True,
    command_labels={"assist": "Assist: show how many cells each move turns"},
    ai_delay_seconds=0.6,  # "normal" speed: at least this long between the computers' moves
    describe_move=describe_move,
    display_options={"computers": SPEEDS},
    display_labels={"computers": SPEED_LABELS},
    stat_figures=(
        StatFigure("score", "cells", "highest", unit="cells", best="most cells"),
    ),
    commands=(
        new_game("new-strong", "New game against two strong computers",
                 seats=("human", "ai:strong", "ai:strong")),
        new_game("new-three", "New game for three on this screen",
                 seats=("human", "human", "human")),
    ),
    shortcuts=(
        Shortcut("Arrows, Enter", "move over the board, play the cell"),
    ),
)
