"""Parlour as an installed app: the web app manifest and its icons, so that a browser
offers "Install Parlour" and opens it in a window of its own (the local server still does
all the work). Every page links the manifest.

Chromium asks no service worker of an installable app since version 108 on Android and
112 on the desktop (a manifest with a name, a start URL and scope, a display of its own
and 192 and 512 px icons, on a secure origin: 127.0.0.1 and localhost are), so Parlour
has none: nothing in the browser keeps a page or a game that could go stale.

The icons are Parlour's logo (the pages' `LOGO` in `static/common.js`: a rounded square
with a circle, a square, a triangle and a ring), drawn here with Pillow when first asked
for: no image files, no art from elsewhere.
"""

from __future__ import annotations

import io
import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

from fastapi import APIRouter
from fastapi.responses import Response
from PIL import Image, ImageDraw

from parlour.server.api.deps import HubDep
from parlour.server.hub.errors import ApiError

MANIFEST_TYPE = "application/manifest+json"
MANIFEST_PATH = "/manifest.webmanifest"
ICON_CACHE = "public, max-age=86400"

# the pages' colours (app.css): the window's title bar is the top bar (--surface), the
# splash screen the page (--bg); light, and dark where the browser follows the system's
LIGHT = {"theme_color": "#ffffff", "background_color": "#f4f1ea"}
DARK = {"theme_color": "#21242b", "background_color": "#15171c"}

# the logo's colours (app.css, light theme): --accent, --accent-text, --seat-3, --seat-1
ACCENT, MARK, GOLD, ROSE = "#1f6f5c", "#ffffff", "#ccbb44", "#ee6677"
SUPERSAMPLE = 4  # drawn this much larger, then scaled down: smooth edges
MASKABLE_SPAN = 0.5  # of a maskable icon's side: the shapes' corners stay in its safe circle

Purpose = Literal["any", "maskable"]


@dataclass(frozen=True)
class Icon:
    """One icon file: its size in px and whether its background fills it (`maskable`:
    the platform cuts it to its own shape, so the logo keeps to the middle)."""

    name: str
    size: int
    purpose: Purpose

    @property
    def path(self) -> str:
        return f"/icons/{self.name}.png"


ICONS = (
    Icon("icon-192", 192, "any"),
    Icon("icon-512", 512, "any"),
    Icon("maskable-192", 192, "maskable"),
    Icon("maskable-512", 512, "maskable"),
    Icon("apple-touch-icon", 180, "maskable"),  # iOS rounds the corners of a full square
    Icon("favicon-32", 32, "any"),
)
"""In the manifest: the 192 and 512 px ones (`any` and `maskable`); iOS reads the
apple-touch-icon the pages link, and the tab the favicon."""
IN_MANIFEST = tuple(icon for icon in ICONS if icon.size in (192, 512))
ICONS_BY_NAME = {icon.name: icon for icon in ICONS}
PREVIEW_ICON = ICONS_BY_NAME["icon-512"].path  # the picture of a link's preview (preview.py)

router = APIRouter(include_in_schema=False)


def manifest(titles: Mapping[str, str]) -> dict[str, Any]:
    """The web app manifest; `titles`: each game's name and title, in the home page's
    order, offered as shortcuts (a right click on the app's icon)."""
    return {
        "id": "/",
        "name": "Parlour",
        "short_name": "Parlour",
        "description": "Classic tile, card and board games, played from a local server.",
        "lang": "en",
        "dir": "ltr",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "categories": ["games", "entertainment"],
        **LIGHT,
        # a proposal Chromium tries out: the colours while the system is dark
        "user_preferences": {"color_scheme_dark": dict(DARK)},
        "icons": [{"src": icon.path, "sizes": f"{icon.size}x{icon.size}", "type": "image/png",
                   "purpose": icon.purpose} for icon in IN_MANIFEST],
        "shortcuts": [{"name": title, "url": f"/play/{name}"} for name, title in titles.items()],
    }


@cache
def icon_png(icon: Icon) -> bytes:
    """The logo at `icon.size` px, as PNG bytes."""
    big = icon.size * SUPERSAMPLE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    if icon.purpose == "maskable":
        # the square fills the icon; the shapes keep inside the middle 80% circle,
        # which every platform's mask shows
        draw.rectangle((0, 0, big, big), fill=ACCENT)
        unit = MASKABLE_SPAN * big / 18  # the shapes span 18 units, from 7 to 25
        offset = big / 2 - 16 * unit
    else:
        offset, unit = 0.0, big / 32
        draw.rounded_rectangle(_at(offset, unit, 2, 2, 30, 30), radius=7 * unit, fill=ACCENT)
    _shapes(draw, offset, unit)
    image = image.resize((icon.size, icon.size), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()


def _at(offset: float, unit: float, *coordinates: float) -> tuple[float, ...]:
    return tuple(offset + unit * value for value in coordinates)


def _shapes(draw: ImageDraw.ImageDraw, offset: float, unit: float) -> None:
    """The logo's four shapes, in its 32-unit drawing (common.js's LOGO)."""
    draw.ellipse(_at(offset, unit, 7, 7, 15, 15), fill=MARK)
    draw.rounded_rectangle(_at(offset, unit, 17, 7, 25, 15), radius=2 * unit, fill=GOLD)
    draw.polygon(list(zip(*[iter(_at(offset, unit, 7, 25, 11, 18, 15, 25))] * 2, strict=True)),
                 fill=ROSE)
    # a ring of radius 4 and stroke 2.2 (Pillow's outline grows inward from the box)
    draw.ellipse(_at(offset, unit, 15.9, 15.9, 26.1, 26.1), outline=MARK, width=round(2.2 * unit))


@router.get(MANIFEST_PATH)
async def web_app_manifest(hub: HubDep) -> Response:
    titles = {name: spec.game.title for name, spec in hub.games.items()}
    return Response(json.dumps(manifest(titles), indent=1), media_type=MANIFEST_TYPE,
                    headers={"Cache-Control": "no-cache"})


@router.get("/icons/{name}.png")
def icon_file(name: str) -> Response:
    """Not async: the first drawing of an icon takes up to a third of a second, so it runs
    in the server's thread pool, off the event loop (then it is kept)."""
    icon = ICONS_BY_NAME.get(name)
    if icon is None:
        raise ApiError(404, f"no such icon: {name[:100]}")
    return Response(icon_png(icon), media_type="image/png", headers={"Cache-Control": ICON_CACHE})

