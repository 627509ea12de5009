"""Tic Tac Toe's moments for the browser checks (`tests/browser/scene.py`); cells are
the game's moves, (x, y): column from the left, then row from the top."""

from tests.browser.scene import Scene

HOTSEAT = ["human", "human"]

SCENES = (
    Scene("tictactoe", "play", line=((1, 1),), moves=1),
    Scene("tictactoe", "won", {"seats": HOTSEAT},
          line=((0, 0), (1, 0), (0, 1), (1, 1), (0, 2))),
    Scene("tictactoe", "draw", {"seats": HOTSEAT},
          line=((0, 0), (1, 1), (2, 2), (0, 1), (2, 1), (2, 0), (0, 2), (1, 2), (1, 0))),
)
