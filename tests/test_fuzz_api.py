"""Schema-driven fuzzing of the REST API, in-process and bounded so that the suite stays
fast (the long run, against a server process: `python -m bench.fuzz_api`).

Every operation of the app's OpenAPI gets valid and invalid requests from Schemathesis,
half of them dressed with real session ids, seat tokens, legal moves, games and uploads
(see `tests.support.fuzz.pool.Pool`), and each answer must:

- not be a server error (5xx);
- have a status the OpenAPI documents for that operation;
- conform to the documented content type and schema;
- when it is an error, be JSON `{"error": "<text>"}` and nothing else.

Requests outside the schema (unknown routes, other methods, broken or oversized bodies)
must be refused with the same kind of error.

Every failure is collected (not only the first), and the test fails with one request and
answer for each distinct one. Schemathesis' pytest plugin (`schema.parametrize()` with
`schemathesis.pytest.from_fixture`) is not used: with pytest 9.2 it fails on the node's
`_nodeid`, and a schema loaded at import would need the app, and its database, at
collection time.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.fuzz.runner import Fuzzer, in_process
from tests.support.fuzz.tally import Tally, failure_report

EXAMPLES = 20  # cases per operation for valid data, and as many for invalid data
PROBES = 150  # requests outside the schema
SEED = 8


def fuzz(folder: Path, examples: int, probes: int) -> Tally:
    with in_process(folder) as target:
        return Fuzzer(target, SEED).each_operation(examples, probes)


def test_every_operation_answers_as_documented(tmp_path: Path) -> None:
    tally = fuzz(tmp_path, EXAMPLES, PROBES)
    operations = {label for label, _ in tally.statuses if not label.startswith("(")}
    assert len(operations) >= 14, operations  # every operation was tried
    # a move the game played or refused as a move (409) went past the ids, the token and
    # the schema: which of the two depends on the games' rules, not on the fuzzing
    reached = {label for (label, status) in tally.statuses if 200 <= status < 300 or status == 409}
    assert "POST /api/games/{sid}/moves" in reached, "no move reached a game: real ids unused?"
    if tally.failures:
        pytest.fail(f"{sum(tally.kinds.values())} of {tally.tried} requests failed a check:\n"
                    + failure_report(tally), pytrace=False)


def test_every_documented_error_is_an_error_body(tmp_path: Path) -> None:
    """What /docs promises for errors: `{"error": "..."}`, never FastAPI's `{"detail": ...}`
    (a promise the fuzzing above can only catch for the errors it happens to provoke)."""
    with in_process(tmp_path) as target:
        paths = target.schema.raw_schema["paths"]
    wrong = [
        f"{method.upper()} {path} {status}: {json.dumps(response.get('content'))[:120]}"
        for path, operations in paths.items()
        for method, operation in operations.items()
        for status, response in operation["responses"].items()
        if int(status) >= 400 and "#/components/schemas/ErrorBody" not in json.dumps(response)
    ]
    assert not wrong, "documented errors that are not ErrorBody:\n" + "\n".join(wrong)
