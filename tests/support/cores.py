"""Run one browser as if it had this machine to itself, and others as if on machines of
their own.

Three people playing Tribolo on their invite links each have a browser on their own
machine, but the benchmark runs the three browsers, the server and itself on the few cores
of one. To time the click as the player who made it sees it, for each move the other two
browsers' process trees are put in Linux's SCHED_IDLE class, which runs only when nothing
else wants a core, and the mover's in the normal one, beside the server: the mover's
browser has the cores, as on its own machine, and the others still draw their frames once
it is done. A policy is a thread's, so every thread of every process is set; threads
started later inherit it from the thread that starts them.

(Pinning the mover's browser to a core of its own and everything else to the other, as
tried first, models a machine with a single core: its raster and compositor threads then
wait for the main thread's core, and a frame takes twice as long as on two.)
"""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterable

from tests.support.processes import PROC, process_kind


def available() -> bool:
    """Whether a thread can be put in SCHED_IDLE and back here, with /proc to find
    processes (Linux asks for CAP_SYS_NICE, or RLIMIT_NICE 20, to put one back): tried on
    a child that only sleeps."""
    if not (hasattr(os, "sched_setscheduler") and hasattr(os, "SCHED_IDLE") and PROC.is_dir()):
        return False
    trial = subprocess.Popen(["sleep", "30"])
    try:
        os.sched_setscheduler(trial.pid, os.SCHED_IDLE, os.sched_param(0))
        os.sched_setscheduler(trial.pid, os.SCHED_OTHER, os.sched_param(0))
        return os.sched_getscheduler(trial.pid) == os.SCHED_OTHER
    except PermissionError:
        return False
    finally:
        trial.kill()
        trial.wait()


def children() -> dict[int, list[int]]:
    """Each running process's children, from /proc."""
    found: dict[int, list[int]] = {}
    for folder in PROC.glob("[0-9]*"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = folder.joinpath("stat").read_text().rsplit(")", 1)[1].split()
            found.setdefault(int(fields[1]), []).append(int(folder.name))
    return found


def tree(root: int, children: dict[int, list[int]]) -> set[int]:
    """`root` and every process descended from it."""
    found, waiting = set(), [root]
    while waiting:
        pid = waiting.pop()
        found.add(pid)
        waiting.extend(children.get(pid, ()))
    return found


def set_policy(pids: Iterable[int], policy: int) -> None:
    """Put every thread of the processes `pids` in scheduling class `policy` (those gone
    meanwhile are skipped)."""
    for pid in pids:
        for task in PROC.joinpath(str(pid), "task").glob("[0-9]*"):
            with contextlib.suppress(ProcessLookupError):  # the thread ended meanwhile
                os.sched_setscheduler(int(task.name), policy, os.sched_param(0))


def chromium_started_here() -> set[int]:
    """The main processes (those with no --type) of the Chromiums this process started,
    through Playwright's driver."""
    found = set()
    for pid in tree(os.getpid(), children()):
        with contextlib.suppress(OSError, UnicodeDecodeError):
            words = PROC.joinpath(str(pid), "cmdline").read_bytes().decode().split("\0")
            if process_kind(words) == "browser":
                found.add(pid)
    return found


class OwnMachines:
    """Several browsers (their main processes' ids), one of which at a time has the cores:
    the others run only when it leaves them idle."""

    def __init__(self, roots: list[int]) -> None:
        self.roots = roots

    def give(self, index: int) -> None:
        """From now on the browser `roots[index]` runs as on a machine of its own."""
        running = children()
        for at, root in enumerate(self.roots):
            set_policy(tree(root, running), os.SCHED_OTHER if at == index else os.SCHED_IDLE)
        if os.sched_getscheduler(self.roots[index]) != os.SCHED_OTHER:
            raise RuntimeError("the mover's browser could not be given the cores")

    def release(self) -> None:
        """Every browser in the normal class (Chromium's threads all start in it)."""
        running = children()
        for root in self.roots:
            set_policy(tree(root, running), os.SCHED_OTHER)
