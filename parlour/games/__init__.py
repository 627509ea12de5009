"""The games Parlour offers: every package in this folder with a `SPEC` (a `GameSpec`).

Adding a game is adding its folder: nothing here or elsewhere in the platform changes.
Every folder has one shape (`__init__.py` the spec, `logic.py`, `view.py`, `solver.py`,
`ai.py` where computers play: the README's "Adding a game").
They are listed by `GameSpec.order`, then title.
"""

import importlib
import pkgutil

from parlour.core.game import GameSpec


def _discovered() -> list[GameSpec]:
    specs = []
    for found in pkgutil.iter_modules(__path__):
        if found.ispkg:
            spec = getattr(importlib.import_module(f"{__name__}.{found.name}"), "SPEC", None)
            if isinstance(spec, GameSpec):
                specs.append(spec)
    return sorted(specs, key=lambda spec: (spec.order, spec.game.title))


GAMES: dict[str, GameSpec] = {spec.name: spec for spec in _discovered()}
