"""Parlour as an app: the web app manifest is valid and served as one, its icons are PNGs
of the sizes it says (the maskable ones full-bleed, the logo inside the safe circle),
every page links it, and its colours are the pages' own, light and dark."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from PIL import Image

from parlour.games import GAMES
from parlour.server.api.install import DARK, ICONS, LIGHT, MANIFEST_PATH

STATIC = Path(__file__).resolve().parent.parent / "parlour" / "static"
PAGES = sorted(STATIC.glob("*.html"))  # every page, a page added later too
SERVED_PAGES = ["/", "/stats", *(f"/play/{name}" for name in GAMES)]
HEX_COLOUR = re.compile(r"^#[0-9a-f]{6}$")


def served_manifest(client: TestClient) -> dict[str, object]:
    response = client.get(MANIFEST_PATH)
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/manifest+json"
    manifest: dict[str, object] = json.loads(response.text)
    return manifest


def test_the_manifest_has_what_a_browser_needs_to_install_parlour(client: TestClient) -> None:
    manifest = served_manifest(client)
    assert manifest["name"] == "Parlour" and manifest["short_name"] == "Parlour"
    assert manifest["start_url"] == "/" and manifest["scope"] == "/" and manifest["id"] == "/"
    assert manifest["display"] == "standalone"
    assert "prefer_related_applications" not in manifest
    for key in ("theme_color", "background_color"):
        assert HEX_COLOUR.match(str(manifest[key]))
    assert client.get(str(manifest["start_url"])).status_code == 200


def test_its_icons_are_pngs_of_the_sizes_it_says_with_a_maskable_one(client: TestClient) -> None:
    icons = served_manifest(client)["icons"]
    assert isinstance(icons, list)
    found = set()
    for icon in icons:
        response = client.get(icon["src"])
        assert response.status_code == 200 and response.headers["content-type"] == "image/png"
        picture = Image.open(io.BytesIO(response.content))
        assert picture.format == "PNG" and icon["type"] == "image/png"
        assert icon["sizes"] == f"{picture.width}x{picture.height}"
        found.add((picture.width, icon["purpose"]))
    assert {(192, "any"), (512, "any"), (512, "maskable")} <= found


def icon_picture(client: TestClient, name: str) -> Image.Image:
    response = client.get(f"/icons/{name}.png")
    assert response.status_code == 200
    return Image.open(io.BytesIO(response.content)).convert("RGBA")


@pytest.mark.parametrize("icon", [icon for icon in ICONS if icon.purpose == "maskable"],
                         ids=lambda icon: icon.name)
def test_a_maskable_icon_fills_its_square_and_keeps_the_logo_in_the_safe_circle(
    client: TestClient, icon: object,
) -> None:
    """A platform cuts a maskable icon to its own shape, at worst a circle of 80% of its
    side: the background must reach every edge and the logo stay within that circle."""
    picture = icon_picture(client, icon.name)  # type: ignore[attr-defined]
    size = picture.width
    background = picture.getpixel((0, 0))
    assert background[3] == 255, "the corners are filled"
    centre, safe = (size - 1) / 2, 0.4 * size
    outside = [picture.getpixel((x, y)) for y in range(size) for x in range(size)
               if (x - centre) ** 2 + (y - centre) ** 2 > safe ** 2]
    assert all(pixel == background for pixel in outside), "the logo leaves the safe circle"
    inside = {picture.getpixel((x, round(centre))) for x in range(size)}
    assert len(inside) > 3, "the logo is drawn"


def test_the_plain_icon_is_the_rounded_logo_on_a_clear_ground(client: TestClient) -> None:
    picture = icon_picture(client, "icon-512")
    assert picture.getpixel((0, 0))[3] == 0, "the corners are clear"
    assert picture.getpixel((256, 256))[3] == 255


def test_an_unknown_icon_is_a_404(client: TestClient) -> None:
    for name in ("icon-1024", "..%2Fapp", "ICON-192"):
        response = client.get(f"/icons/{name}.png")
        assert response.status_code == 404 and "error" in response.json()


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_page_links_the_manifest_its_icons_and_the_bar_colours(
    client: TestClient, page: Path,
) -> None:
    head = page.read_text().split("</head>")[0]
    assert f'<link rel="manifest" href="{MANIFEST_PATH}">' in head
    assert '<link rel="apple-touch-icon" href="/icons/apple-touch-icon.png">' in head
    for colours, scheme in ((LIGHT, "light"), (DARK, "dark")):
        assert (f'<meta name="theme-color" content="{colours["theme_color"]}" '
                f'media="(prefers-color-scheme: {scheme})">') in head
    for link in re.findall(r'<link rel="[^"]*icon" href="([^"]+)"', head):
        assert client.get(link).status_code == 200


@pytest.mark.parametrize("path", SERVED_PAGES)
def test_every_served_page_links_the_manifest(client: TestClient, path: str) -> None:
    assert f'<link rel="manifest" href="{MANIFEST_PATH}">' in client.get(path).text


def css_colours(theme_selector: str) -> dict[str, str]:
    """A theme's --surface and --bg in app.css."""
    css = (STATIC / "app.css").read_text()
    block = css.split(theme_selector, 1)[1].split("}", 1)[0]
    return dict(re.findall(r"--(surface|bg): (#[0-9a-f]{6})", block))


def test_the_app_takes_the_pages_colours_light_and_dark(client: TestClient) -> None:
    """The window's title bar is the pages' top bar (--surface), its splash screen the
    page (--bg); in a dark system, the dark theme's; the page's own choice of theme too."""
    manifest = served_manifest(client)
    for colours, selector in ((LIGHT, ":root {"), (DARK, ':root[data-theme="dark"] {')):
        css = css_colours(selector)
        assert colours == {"theme_color": css["surface"], "background_color": css["bg"]}
    assert {key: manifest[key] for key in LIGHT} == LIGHT
    assert manifest["user_preferences"] == {"color_scheme_dark": DARK}
    script = (STATIC / "common.js").read_text()
    bars = dict(re.findall(r'"?([a-z-]+)"?: "(#[0-9a-f]{6})"', script.split("BAR_COLOURS = ")[1]
                           .split("}")[0]))
    assert bars["light"] == LIGHT["theme_color"] and bars["dark"] == DARK["theme_color"]
    assert bars["colour-blind"] == css_colours(':root[data-theme="colour-blind"] {')["surface"]


def test_each_game_is_a_shortcut_of_the_installed_app(client: TestClient) -> None:
    shortcuts = served_manifest(client)["shortcuts"]
    assert isinstance(shortcuts, list)
    assert [item["url"] for item in shortcuts] == [f"/play/{name}" for name in GAMES]
    assert [item["name"] for item in shortcuts] == [spec.game.title for spec in GAMES.values()]
    for item in shortcuts:
        assert client.get(item["url"]).status_code == 200
