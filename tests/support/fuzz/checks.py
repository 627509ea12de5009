"""The checks on every answer: Schemathesis' own, and the API's error rule."""

from __future__ import annotations

import json
from typing import Any

import schemathesis
from schemathesis import Case, CheckContext, Response
from schemathesis.checks import CheckFunction, not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

AnyCase = Case[Any]


def error_problem(status: int, content_type: str, content: bytes) -> str | None:
    """Why an error answer is not exactly `{"error": "<text>"}` (with `"quiet": true` at
    most) as JSON; None if it is (or if the answer is not an error)."""
    if status < 400:
        return None
    if not content_type.startswith("application/json"):
        return f"its content type is {content_type or 'missing'}, not application/json"
    try:
        body = json.loads(content)
    except ValueError:
        return "its body is not JSON"
    # (a move the game lets pass without a word, an IgnoredMove, adds "quiet": true)
    if not isinstance(body, dict) or set(body) not in ({"error"}, {"error", "quiet"}):
        keys = sorted(body) if isinstance(body, dict) else type(body).__name__
        return f"its body has {keys}, not only 'error' (and 'quiet')"
    if not isinstance(body["error"], str) or not body["error"]:
        return "its 'error' is not a text"
    if body.get("quiet", True) is not True:
        return "its 'quiet' is not true"
    return None


@schemathesis.check
def error_is_json_error(ctx: CheckContext, response: Response, case: AnyCase) -> bool | None:
    """Every error answer is JSON `{"error": "<text>"}` and nothing else (but "quiet")."""
    problem = error_problem(response.status_code, header(response, "content-type"),
                            response.content)
    if problem is not None:
        raise AssertionError(f'the error is not {{"error": "..."}}: {problem}')
    return None


CHECKS: list[CheckFunction] = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    error_is_json_error,
]


def header(response: Response, name: str) -> str:
    values = response.headers.get(name.lower()) or [""]
    return values[0]


