"""The pages' typeface is served from its font package at /fonts/<name>, and nothing else is."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from parlour.server.api.fonts import font_files

TRUETYPE_MAGIC = b"\x00\x01\x00\x00"


@pytest.mark.parametrize("name", ["nunito.ttf", "nunito-italic.ttf"])
def test_a_font_of_the_package_is_served_with_long_caching(client: TestClient, name: str) -> None:
    response = client.get(f"/fonts/{name}")
    assert response.status_code == 200
    assert response.headers["content-type"] == "font/ttf"
    assert "max-age=604800" in response.headers["cache-control"]
    assert response.content.startswith(TRUETYPE_MAGIC)
    assert response.content == font_files()[name].read_bytes()


def test_the_files_come_from_the_installed_font_package() -> None:
    for path in font_files().values():
        assert "fontpkg_nunito" in path.parts
        assert path.is_file()


@pytest.mark.parametrize(
    "name",
    ["missing.ttf", "Nunito[wght].ttf", "..%2Fapp.css", "..%2F..%2Fpyproject.toml", "LICENSE",
     "nunito.TTF"],
)
def test_any_other_name_is_a_404(client: TestClient, name: str) -> None:
    response = client.get(f"/fonts/{name}")
    assert response.status_code == 404
    assert "error" in response.json()


def test_the_stylesheet_names_the_served_files(client: TestClient) -> None:
    css = client.get("/static/app.css").text
    for name in font_files():
        assert f'url("/fonts/{name}")' in css
    assert 'font-family: "Nunito"' in css
