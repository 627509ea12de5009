"""tests.support.processes (CPU time by process, for the benchmarks): what each process
is, from its command line."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.support.processes import PROC, cpu_ms, cpu_ms_by_process, process_kind

CHROMIUM = "/usr/lib/chromium/chromium"


@pytest.mark.parametrize(("command", "kind"), [
    (f"{CHROMIUM} --no-sandbox --headless --user-data-dir=/tmp/x", "browser"),
    (f"{CHROMIUM} --type=renderer --lang=en-US --num-raster-threads=1", "renderer"),
    (f"{CHROMIUM} --type=gpu-process --use-angle=swiftshader-webgl", "gpu-process"),
    (f"{CHROMIUM} --type=utility --utility-sub-type=audio.mojom.AudioService", "audio"),
    (f"{CHROMIUM} --type=utility --utility-sub-type=network.mojom.NetworkService", "network"),
    (f"{sys.executable} -m parlour --no-browser --port 0 --db /tmp/b.sqlite3", "server"),
    (f"{sys.executable} -m parlour --port 0", None),  # a player's own Parlour, not the bench's
    (f"{sys.executable} -m pytest tests", None),
    ("", None),
])
def test_a_process_is_known_by_its_command_line(command: str, kind: str | None) -> None:
    assert process_kind(command.split()) == kind


@pytest.mark.skipif(not PROC.is_dir(), reason="CPU time by process is read from /proc")
def test_a_servers_cpu_time_is_read_and_counted() -> None:
    """A stand-in with a server's command line spends ~0.3 s of CPU, then waits."""
    busy = ("import sys, time\nend = time.process_time() + 0.3\n"
            "while time.process_time() < end: pass\nprint('done', flush=True)\nsys.stdin.read()")
    stand_in = subprocess.Popen([sys.executable, "-c", busy, "parlour", "--no-browser"],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert stand_in.stdout is not None and stand_in.stdout.readline() == "done\n"
        spent = cpu_ms(stand_in.pid)
        counted = cpu_ms_by_process().get("server", 0.0)
    finally:
        stand_in.kill()
        stand_in.wait()
    assert 250 <= spent < 2000
    assert counted >= spent  # with any other server running here
