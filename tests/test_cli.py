"""The command line: which names the server answers to, and a warning when it is exposed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from parlour.cli import allowed_hosts


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
