"""The tally of a fuzzing run: requests tried, statuses seen, failures by kind with one
request and answer for each."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from tests.support.fuzz.checks import AnyCase

SERVER_URL = re.compile(r"http://(?:testserver|127\.0\.0\.1:\d+)")
PLAY_URL = "http://127.0.0.1:8765"


@dataclass
class Example:
    count: int
    request: str
    answer: str


@dataclass
class Tally:
    tried: int = 0
    seconds: float = 0.0
    statuses: Counter[tuple[str, int]] = field(default_factory=Counter)
    kinds: Counter[str] = field(default_factory=Counter)
    failures: dict[tuple[str, str, int, str], Example] = field(default_factory=dict)
    server_log: list[str] = field(default_factory=list)  # the last lines a server printed

    def record(self, kind: str, where: str, status: int, content_type: str, content: bytes,
               request: Callable[[], str]) -> None:
        self.kinds[kind] += 1
        key = (kind, where, status, body_shape(content_type, content))
        if key in self.failures:
            self.failures[key].count += 1
        else:
            answer = f"{status} {content_type or '(no content type)'} {content[:300]!r}"
            self.failures[key] = Example(1, request(), answer)

    def merge(self, other: Tally) -> None:
        self.tried += other.tried
        self.seconds = max(self.seconds, other.seconds)
        self.statuses.update(other.statuses)
        self.kinds.update(other.kinds)
        self.server_log = [*self.server_log, *other.server_log][-60:]
        for key, example in other.failures.items():
            if key in self.failures:
                self.failures[key].count += example.count
            else:
                self.failures[key] = example


def body_shape(content_type: str, content: bytes) -> str:
    """What an answer's body looks like, to tell failures apart: its JSON keys or type."""
    if content_type.startswith("application/json"):
        try:
            body = json.loads(content)
        except ValueError:
            return "bad JSON"
        if isinstance(body, dict):
            return "{" + ", ".join(sorted(body)) + "}"
        return type(body).__name__
    return content_type.partition(";")[0] or "no content type"


def describe_request(case: AnyCase) -> str:
    """The case as a curl command against `./play`'s address (the bench's own server is
    gone by the time anyone reads it)."""
    try:
        curl = case.as_curl_command()
    except Exception as error:  # a case that cannot even be written down
        return f"{case.method} {case.path} ({error})"
    return SERVER_URL.sub(PLAY_URL, curl)


def failure_report(tally: Tally) -> str:
    """Each distinct failure: its kind, operation, status and body, and one request."""
    return "\n".join(
        f"\n* {kind} | {label} | {status} | {shape}   (×{example.count})"
        f"\n  request: {example.request[:600]}\n  answer:  {example.answer[:400]}"
        for (kind, label, status, shape), example in sorted(tally.failures.items())
    )


