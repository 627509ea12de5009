"""/docs and /redoc work without internet: every script, style sheet and picture they
name is served by Parlour itself (from the fastapi-offline package), none from a CDN."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

ASSET = re.compile(r"""(?:src|href)\s*=\s*["']([^"']+)["']|url:\s*["']([^"']+)["']""")


def assets_of(page: str) -> list[str]:
    return [src or url for src, url in ASSET.findall(page)]


@pytest.mark.parametrize("path", ["/docs", "/redoc"])
def test_api_docs_name_no_external_url(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 200
    assert "http://" not in response.text and "https://" not in response.text
    assets = assets_of(response.text)
    assert any(asset.endswith(".js") for asset in assets), assets
    for asset in assets:
        assert asset.startswith("/"), f"{path} loads {asset} from elsewhere"


@pytest.mark.parametrize("path", ["/docs", "/redoc"])
def test_api_docs_assets_load(client: TestClient, path: str) -> None:
    for asset in assets_of(client.get(path).text):
        response = client.get(asset)
        assert response.status_code == 200, asset
        assert len(response.content) > 0, asset
    scripts = [asset for asset in assets_of(client.get(path).text) if asset.endswith(".js")]
    # the real bundle, not an error page: Swagger UI's is over a megabyte
    assert max(len(client.get(script).content) for script in scripts) > 500_000


def test_openapi_the_docs_read_is_served(client: TestClient) -> None:
    page = client.get("/docs").text
    assert "/openapi.json" in page
    assert client.get("/openapi.json").json()["info"]["title"] == "Parlour"
