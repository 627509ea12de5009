"""tests.support.cores (bench.click_latency's own machines): one process tree at a time
has the cores, the others run when they idle."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import pytest

from tests.support import cores
from tests.support.processes import PROC

# A parent that starts a child; each has a second thread, and tells when all are up.
FAMILY = """
import subprocess, sys, threading
threading.Thread(target=sys.stdin.read, daemon=True).start()
if sys.argv[1] == "parent":
    child = subprocess.Popen([sys.executable, "-c", sys.argv[2], "child", ""],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    child.stdout.readline()
print("up", flush=True)
sys.stdin.read()
"""


@pytest.fixture
def families() -> Iterator[list[subprocess.Popen[str]]]:
    """Two process trees of two processes, each process with two threads."""
    started = [subprocess.Popen([sys.executable, "-c", FAMILY, "parent", FAMILY],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
               for _ in range(2)]
    try:
        for family in started:
            assert family.stdout is not None and family.stdout.readline() == "up\n"
        yield started
    finally:
        for family in started:
            family.kill()
            family.wait()


def policies(root: int) -> list[int]:
    """The scheduling class of each thread of `root`'s tree."""
    return [os.sched_getscheduler(int(task))
            for pid in cores.tree(root, cores.children())
            for task in os.listdir(f"/proc/{pid}/task")]


@pytest.mark.skipif(not PROC.is_dir(), reason="processes are found in /proc")
def test_a_tree_is_a_process_and_all_it_started(families: list[subprocess.Popen[str]]) -> None:
    parent = families[0].pid
    running = cores.children()
    found = cores.tree(parent, running)
    assert len(found) == 2 and parent in found
    assert not found & cores.tree(families[1].pid, running)


@pytest.mark.skipif(not cores.available(), reason="SCHED_IDLE and back, on Linux")
def test_the_one_given_the_cores_runs_normally_and_the_others_when_they_idle(
    families: list[subprocess.Popen[str]],
) -> None:
    machines = cores.OwnMachines([family.pid for family in families])
    try:
        machines.give(1)
        assert policies(families[0].pid) == [os.SCHED_IDLE] * 4
        assert policies(families[1].pid) == [os.SCHED_OTHER] * 4
        machines.give(0)
        assert policies(families[0].pid) == [os.SCHED_OTHER] * 4
        assert policies(families[1].pid) == [os.SCHED_IDLE] * 4
    finally:
        machines.release()
    assert policies(families[0].pid) + policies(families[1].pid) == [os.SCHED_OTHER] * 8
