"""Tribolo's moments for the browser checks (`tests/browser/scene.py`): three players on
one screen."""

from tests.browser.scene import Scene

SCENES = (
    Scene("tribolo", "play", {"id": "tribolo:standard#s0", "seats": ["human"] * 3}, moves=6),
    Scene("tribolo", "won", {"id": "tribolo:standard#s0", "seats": ["human"] * 3}),
)
