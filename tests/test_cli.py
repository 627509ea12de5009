"""The command line: which names the server answers to, and a warning when it is exposed."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from parlour.cli import allowed_hosts, limit_rules, parse_args
from parlour.server.limits import Kind


def test_a_local_server_answers_to_local_names_only() -> None:
    assert allowed_hosts("127.0.0.1", []) == {"127.0.0.1", "localhost", "::1"}
    assert "games.example" in allowed_hosts("127.0.0.1", ["Games.example"])


def test_a_server_on_every_interface_answers_to_this_machines_names() -> None:
    import socket

    assert socket.gethostname().lower() in allowed_hosts("0.0.0.0", [])


def test_listening_on_every_interface_prints_a_warning(tmp_path: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "parlour", "--host", "0.0.0.0", "--port", "0", "--no-browser",
         "--db", str(tmp_path / "db.sqlite3")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        assert process.stderr is not None and process.stdout is not None
        warning = process.stderr.readline()
        assert warning.startswith("WARNING: Parlour listens on 0.0.0.0")
        assert "ready at" in process.stdout.readline()
    finally:
        process.terminate()
        process.wait(10)


def test_sigterm_stops_the_workers_cleanly_and_the_server_dies_of_it(tmp_path: Path) -> None:
    """A service manager's stop: uvicorn shuts down, the worker pool is closed (no leaked
    semaphores for the resource tracker to warn of) and the process dies of the signal."""
    process = subprocess.Popen(
        [sys.executable, "-m", "parlour", "--port", "0", "--no-browser",
         "--db", str(tmp_path / "db.sqlite3")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        assert process.stdout is not None
        address = process.stdout.readline().split("ready at ")[1].split()[0]
        made = httpx.post(f"{address}api/games", json={"game": "minesweeper"}).json()
        hint = httpx.post(f"{address}api/games/{made['session']}/hint", timeout=60,
                          headers={"Authorization": f"Bearer {made['token']}"})
        assert hint.status_code == 200, hint.text  # answered by a worker: the pool is up
        process.send_signal(signal.SIGTERM)
        _, errors = process.communicate(timeout=30)
    finally:
        process.kill()
        process.wait(10)
    assert process.returncode == -signal.SIGTERM
    assert "leaked" not in errors and "Traceback" not in errors, errors


def test_a_host_sets_its_proxies_and_limits_by_option_or_environment(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PARLOUR_TRUSTED_PROXY", "10.0.0.0/8")
    monkeypatch.setenv("PARLOUR_NEW_GAMES_PER_HOUR", "30")
    args = parse_args(["--moves-per-minute", "600", "--metrics-from", "192.0.2.9"])
    assert (args.trusted_proxy, args.metrics_from) == ("10.0.0.0/8", "192.0.2.9")
    rules = limit_rules(args)
    assert (rules[Kind.MOVES].allowance, rules[Kind.NEW_GAMES].allowance) == (600, 30)
    assert rules[Kind.UPLOADS].allowance == 0  # the tests' environment: off


def test_a_trusted_proxy_that_is_not_an_address_is_refused(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        parse_args(["--trusted-proxy", "127.0.0.1,nginx"])
    assert "'nginx' is not an IP address or network" in capsys.readouterr().err
