"""Schema-driven fuzzing of the whole REST API: random requests from its OpenAPI, each
answer checked against the schema and the API's error rule.

Requests come from Schemathesis (valid and invalid data for every operation), dressed
half the time with what exists on the server: real session ids and their seat tokens,
legal moves read from the last view, real game names, presets and upload ids, so that
requests reach the games and not only the "not found" answers. A few requests in every
hundred go outside the schema: unknown routes, methods a route does not take, broken and
oversized bodies. Every answer is checked:

- no server error (5xx);
- its status is one the OpenAPI documents for that operation;
- its content type and body conform to the documented schema;
- every error (4xx) is JSON `{"error": "<text>"}` and nothing else.

It prints the requests tried, the failures by kind with one request and answer for each
distinct failure, and the statuses seen per operation.

Run: .venv/bin/python -m bench.fuzz_api [--requests 100000] [--seed N] [--workers N]
     [--in-process]   (the app in this process instead of a `parlour` server process)
"""

from __future__ import annotations

import argparse
import multiprocessing
import tempfile
import time
from collections import Counter
from pathlib import Path

from tests.support.fuzz.runner import Fuzzer, in_process, real_server
from tests.support.fuzz.tally import Tally, failure_report


def worker(job: tuple[int, int, bool]) -> Tally:
    wanted, seed, here = job
    serve = in_process if here else real_server
    with tempfile.TemporaryDirectory() as folder, serve(Path(folder)) as target:
        fuzzer = Fuzzer(target, seed)
        fuzzer.progress = True
        tally = fuzzer.run(wanted)
        tally.server_log = target.log()
        return tally


def print_report(tally: Tally, args: argparse.Namespace) -> None:
    rate = tally.tried / tally.seconds if tally.seconds else 0.0
    where = "in-process app" if args.in_process else "parlour server process"
    print(f"\nFuzzed the REST API ({where}): {tally.tried} requests in {tally.seconds:.0f} s "
          f"({rate:.0f} per second), seed {args.seed}, {args.workers} worker(s)")
    failures = sum(tally.kinds.values())
    print(f"failures: {failures} in {len(tally.failures)} distinct kinds of answer")
    for kind, count in tally.kinds.most_common():
        print(f"  {count:7d}  {kind}")
    print("\nstatuses seen:")
    by_operation: dict[str, Counter[int]] = {}
    for (label, status), count in tally.statuses.items():
        by_operation.setdefault(label, Counter())[status] += count
    for label in sorted(by_operation):
        counts = "  ".join(f"{status}×{n}" for status, n in sorted(by_operation[label].items()))
        print(f"  {label:<44} {counts}")
    if tally.failures:
        print("\ndistinct failures (kind | where | status | body), one request each:")
        print(failure_report(tally))
    if tally.server_log:
        print(f"\nthe server printed (last {len(tally.server_log)} lines):")
        print("\n".join(f"  | {line}" for line in tally.server_log[-30:]))
    elif not args.in_process:
        print("\nthe server printed nothing (no traceback, no warning)")
    again = f".venv/bin/python -m bench.fuzz_api --requests {args.requests} --seed {args.seed}"
    again += f" --workers {args.workers}" + (" --in-process" if args.in_process else "")
    print(f"\nre-run: {again}")
    print("(the same seed draws the same requests; answers depend on the server's timing "
          "and the ids it hands out)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=100_000, help="requests to send in all")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2,
                        help="processes generating requests (each with its own server)")
    parser.add_argument("--in-process", action="store_true",
                        help="run the app in each worker, not as a `parlour` process")
    args = parser.parse_args()
    share = -(-args.requests // args.workers)
    jobs = [(min(share, args.requests - i * share), args.seed * 1000 + i, args.in_process)
            for i in range(args.workers)]
    tally = Tally()
    began = time.perf_counter()
    if args.workers == 1:
        tally.merge(worker(jobs[0]))
    else:
        with multiprocessing.get_context("spawn").Pool(args.workers) as processes:
            for part in processes.imap_unordered(worker, jobs):
                tally.merge(part)
    tally.seconds = time.perf_counter() - began
    print_report(tally, args)


if __name__ == "__main__":
    main()
