"""The app the fuzzer sends requests to in this process, and its OpenAPI."""

from __future__ import annotations

import inspect
from typing import Any

import schemathesis
from fastapi import FastAPI
from schemathesis.specs.openapi.schemas import OpenApiSchema

from parlour.games import GAMES
from parlour.server.app import create_app
from parlour.store import Store

TEST_HOST = "testserver"  # the Host header of in-process clients (Starlette's, Schemathesis')
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


def make_app(store: Store) -> FastAPI:
    """The app with AI replies at once; when it checks the Host header, it also answers
    the in-process clients' "testserver"."""
    options: dict[str, Any] = {}
    if "allowed_hosts" in inspect.signature(create_app).parameters:
        options["allowed_hosts"] = [TEST_HOST, *LOCAL_HOSTS]
    return create_app(store, GAMES, ai_delay_scale=0, **options)


def fuzz_config() -> schemathesis.Config:
    """Schemathesis' configuration: reports show tokens as they were sent (they are only
    test data)."""
    return schemathesis.Config.from_dict({"output": {"sanitization": {"enabled": False}}})


def load_in_process(app: FastAPI) -> OpenApiSchema:
    """The app's OpenAPI, its cases sent to the app in this process."""
    return schemathesis.openapi.from_asgi("/openapi.json", app, config=fuzz_config())


