"""The typeface every page uses, served from its font package rather than the machine's.

Nunito (SIL Open Font License 1.1) comes from the `fontpkg-nunito` package as two variable
TTF files, upright and italic, each holding every weight. `app.css` names them in its
@font-face rules as /fonts/<name>; no other file is ever served from here.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import fontpkg

FAMILY = "Nunito"
CACHE_CONTROL = "public, max-age=604800"  # a week: the file changes only with the package
MEDIA_TYPE = "font/ttf"


@cache
def font_files() -> dict[str, Path]:
    """The names the pages ask for, each with its file in the installed package."""
    return {
        "nunito.ttf": fontpkg.path(FAMILY, style="normal"),
        "nunito-italic.ttf": fontpkg.path(FAMILY, style="italic"),
    }


def font_file(name: str) -> Path | None:
    """The file served as /fonts/`name`, or None: only the package's own files are."""
    return font_files().get(name)
