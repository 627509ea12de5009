"""Tic-Tac-Toe (seed 001): two players, one screen or two browsers, or against the computer."""

from parlour.core.commands import new_game
from parlour.core.game import GameSpec, Shortcut, readable
from parlour.games.tictactoe import ai, solver
from parlour.games.tictactoe.logic import TicTacToe
from parlour.games.tictactoe.view import THUMBNAIL, describe_move, render

RULES_HTML = """
<p>Two players take turns to claim a cell of the 3&times;3 grid. <b>Cross</b> always moves
first, then <b>Circle</b>.</p>
<p>The first to own a whole row, column or diagonal wins. When all nine cells are taken
and nobody has a line, it is a <b>draw</b>.</p>
<p>Undo takes back your last move (and the computer's reply); at the start it does nothing.
Restart plays again from an empty board.</p>
<p>Opponents: the computer at four levels (<i>random</i>; <i>medium</i>, which takes wins
and blocks; <i>hard</i>, which plays well but slips now and then; and <i>perfect</i>, which
never loses), a friend on this screen, or a friend in another browser who opens your
invite link. The ▾ beside New starts each of them in one tap.</p>
"""

ABOUT_HTML = """
<p><b>Tic Tac Toe</b>, noughts and crosses, is older than anyone can date. Parlour's
begins with a blog post in ClojureScript that builds it as the proof of concept of a
bigger game, Tribolo: its game logic, rendering, store and game loop kept apart, with
Cross to move first, Undo and Restart. Parlour keeps that architecture for every game.</p>
<p>The original had no computer player. Parlour added one at four levels (the perfect one
never loses), hints, a friend in another browser through an invite link, the keys 1 to 9,
and statistics.</p>
"""

# New ▾ starts each kind of game in one tap, as lichess's "play with the computer" and
# "play with a friend"; the New game dialog still chooses seats one by one
ONE_TAP_GAMES = (
    *(new_game(f"new-{level}", f"New game against the computer ({readable(level)})",
               seats=("human", f"ai:{level}"))
      for level in ai.LEVELS),
    new_game("new-two", "New game for two on this screen", seats=("human", "human")),
    new_game("new-friend", "New game with a friend in another browser (invite link)",
             seats=("human", "open")),
)

SPEC = GameSpec(
    order=20,
    game=TicTacToe(),
    render=render,
    describe_move=describe_move,
    deal_link_note="a new game of it, from the empty board",  # (no deal: every game starts so)
    rules_html=RULES_HTML,
    thumbnail_svg=THUMBNAIL,
    ai_levels=ai.LEVELS,
    hint=solver.hint,
    tables=(solver.VALUES,),
    default_seats=("human", "ai:medium"),
    tagline="Three in a row on a 3 × 3 grid, against the computer or a friend.",
    about_html=ABOUT_HTML,
    commands=ONE_TAP_GAMES,
    new_choices=tuple(command.name for command in ONE_TAP_GAMES),
    shortcuts=(
        Shortcut("1 to 9", "claim a cell, in reading order from the top left"),
    ),
)
