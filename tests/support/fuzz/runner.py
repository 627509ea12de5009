"""Running the fuzzer: where requests go (a server process or the app in this process),
and the Fuzzer that sends cases and probes and tallies what fails."""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import requests
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode, Response
from schemathesis.core.failures import FailureGroup
from schemathesis.core.result import Err
from schemathesis.specs.openapi.schemas import OpenApiSchema

from parlour.store.sqlite import SqliteStore
from tests.support.fuzz.app import fuzz_config, load_in_process, make_app
from tests.support.fuzz.checks import CHECKS, AnyCase, header
from tests.support.fuzz.pool import Call, Pool, seed_pool, use_real_ids
from tests.support.fuzz.probes import Probe, make_probe, probe_problem
from tests.support.fuzz.tally import Tally, describe_request
from tests.support.servers import drain_output, start_server

CHUNK = 500  # cases per Hypothesis run; runs alternate valid and invalid data
PROBE_SHARE = 0.03  # the share of requests sent outside the schema


@dataclass
class Target:
    """Where requests go: a schema bound to a server, and how to send a raw request."""

    schema: OpenApiSchema
    call: Call
    send: Callable[[Probe], requests.Response]
    log: Callable[[], list[str]] = list  # what the server printed (a process's last lines)


@contextmanager
def real_server(folder: Path) -> Iterator[Target]:
    server = start_server(folder / "fuzz.sqlite3")
    output = drain_output(server)
    session = requests.Session()
    try:
        schema = schemathesis.openapi.from_url(f"{server.url}/openapi.json", config=fuzz_config())

        def call(case: AnyCase) -> Response:
            return case.call(session=session, timeout=60)

        def send(probe: Probe) -> requests.Response:
            return session.request(probe.method, server.url + probe.path, headers=probe.headers,
                                   data=probe.body, timeout=60, allow_redirects=False)

        yield Target(schema, call, send, lambda: list(output))
    finally:
        session.close()
        server.stop()


@contextmanager
def in_process(folder: Path) -> Iterator[Target]:
    """The app in this process, on a new database in `folder`."""
    from schemathesis.python import asgi  # the client that shares the cases' event loop

    app = make_app(SqliteStore(folder / "fuzz.sqlite3"))
    schema = load_in_process(app)
    application: Any = app  # an ASGI app, though typed differently by Starlette
    client = asgi.get_client(application)

    def call(case: AnyCase) -> Response:
        return case.call()

    def send(probe: Probe) -> requests.Response:
        return client.request(probe.method, probe.path, headers=probe.headers, data=probe.body,
                              allow_redirects=False)

    yield Target(schema, call, send)


class Fuzzer:
    """Sends cases and probes to a target, learns real ids from the answers, and tallies
    every failed check."""

    def __init__(self, target: Target, seed: int, pool: Pool | None = None) -> None:
        self.target = target
        self.pool = seed_pool(target.schema, target.call, pool)
        use_real_ids(target.schema, self.pool)
        self.tally = Tally()
        self.rnd = random.Random(seed)
        self.seed = seed
        self.limit: int | None = None  # stop sending at this many requests
        self.probe_share = 0.0
        self.progress = False

    def case(self, case: AnyCase) -> None:
        """Send `case` and check its answer (and, now and then, a probe before it)."""
        tally = self.tally
        if self.limit is not None and tally.tried >= self.limit:
            return
        if self.rnd.random() < self.probe_share:
            self.probe(make_probe(self.target.schema, self.pool, self.rnd))
        tally.tried += 1
        label = f"{case.method.upper()} {case.path}"
        try:
            response = self.target.call(case)
        except Exception as error:
            tally.statuses[(label, 0)] += 1
            tally.record(f"no answer: {type(error).__name__}", label, 0, "", b"",
                         lambda: describe_request(case))
            return
        tally.statuses[(label, response.status_code)] += 1
        self.pool.learn(case, response)
        try:
            case.validate_response(response, checks=CHECKS)
        except FailureGroup as group:
            for failure in group.exceptions:
                tally.record(failure.title, label, response.status_code,
                             header(response, "content-type"), response.content,
                             lambda: describe_request(case))
        if self.progress and tally.tried % 10_000 == 0:
            print(f"  worker {self.seed}: {tally.tried} requests, "
                  f"{sum(tally.kinds.values())} failures", flush=True)

    def probe(self, probe: Probe) -> None:
        """Send a request from outside the schema; its answer must be an error."""
        tally = self.tally
        tally.tried += 1
        label = f"{probe.method} {probe.path}"
        where = "(outside the schema)"  # one failure of a kind stands for every route
        try:
            answer = self.target.send(probe)
        except requests.RequestException as error:
            tally.record(f"no answer: {type(error).__name__}", where, 0, "", b"", lambda: label)
            return
        content_type = answer.headers.get("content-type", "")
        tally.statuses[(f"(outside the schema) {probe.kind}", answer.status_code)] += 1
        problem = probe_problem(probe, answer.status_code, content_type, answer.content)
        if problem is not None:
            shown = f"{label} {probe.headers} body={(probe.body or b'')[:60]!r}"
            tally.record(f"{probe.kind}: {problem}", where, answer.status_code, content_type,
                         answer.content, lambda: shown)

    def run(self, requests_wanted: int) -> Tally:
        """Cases drawn at random among all operations, valid and invalid data in turn, and
        probes among them, until `requests_wanted` requests are sent."""
        began = time.perf_counter()
        self.limit, self.probe_share = requests_wanted, PROBE_SHARE
        round_ = 0
        while self.tally.tried < requests_wanted:
            mode = GenerationMode.POSITIVE if round_ % 2 == 0 else GenerationMode.NEGATIVE
            strategy = self.target.schema.as_strategy(generation_mode=mode)
            examples = min(CHUNK, requests_wanted - self.tally.tried)
            run_generated(strategy, examples, self.seed * 100_003 + round_, self.case)
            round_ += 1
        self.tally.seconds = time.perf_counter() - began
        return self.tally

    def each_operation(self, examples: int, probes: int = 0) -> Tally:
        """`examples` cases of valid and as many of invalid data for every operation, in
        turn, then `probes` requests from outside the schema."""
        began = time.perf_counter()
        for number, result in enumerate(self.target.schema.get_all_operations()):
            if isinstance(result, Err):
                raise result.err()
            operation = result.ok()
            modes = [GenerationMode.POSITIVE]
            if admits_invalid_data(operation):
                modes.append(GenerationMode.NEGATIVE)
            for mode in modes:
                strategy = operation.as_strategy(generation_mode=mode)
                run_generated(strategy, examples, self.seed * 1_009 + number, self.case)
        for _ in range(probes):
            self.probe(make_probe(self.target.schema, self.pool, self.rnd))
        self.tally.seconds = time.perf_counter() - began
        return self.tally


def admits_invalid_data(operation: Any) -> bool:
    """Whether Schemathesis can make invalid data for the operation. It cannot when every
    input is a string of any kind (a session id in the path, a token header): every value
    is valid there, and Hypothesis would spend a second looking before it gave up."""
    if len(operation.body) or len(operation.query):
        return True
    inputs = [*operation.path_parameters, *operation.headers, *operation.cookies]
    return not all(any_string(parameter.definition.get("schema", {})) for parameter in inputs)


def any_string(schema: dict[str, Any]) -> bool:
    """A string schema without constraints (a header's "or null" is a missing header)."""
    kinds = schema.get("anyOf", [schema])
    untitled = [{key: value for key, value in kind.items() if key != "title"} for kind in kinds]
    return set(schema) <= {"anyOf", "type", "title"} and all(
        kind in ({"type": "string"}, {"type": "null"}) for kind in untitled)


def run_generated(strategy: st.SearchStrategy[AnyCase], examples: int, seed: int,
                  each: Callable[[AnyCase], None]) -> None:
    """Up to `examples` cases from `strategy`, given to `each`; nothing it does fails the
    run, so Hypothesis never stops early nor shrinks. A strategy with no case at all
    (invalid data for an operation that takes no input) gives none."""

    @hypothesis_seed(seed)
    @settings(max_examples=examples, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(case=strategy)
    def run(case: AnyCase) -> None:
        each(case)

    with contextlib.suppress(Unsatisfiable):
        run()


