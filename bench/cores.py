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

(Pinning the mover's browser to a core of its own, and everything else to the other,
models a machine with a single core: its raster and compositor threads then wait for the
main thread's core, and a frame takes twice as long as on two.)
"""

from __future__ import annotations

import contextlib
import os
import resource
from collections.abc import Iterable
from pathlib import Path

PROC = Path("/proc")


def available() -> bool:
    """Whether Linux's scheduling classes can be set here, with /proc to find processes,
    and a thread put in SCHED_IDLE may be put back (Linux asks for root, or for leave to
    raise a thread's priority: RLIMIT_NICE 20)."""
    if not (hasattr(os, "sched_setscheduler") and hasattr(os, "SCHED_IDLE") and PROC.is_dir()):
        return False
    return os.geteuid() == 0 or resource.getrlimit(resource.RLIMIT_NICE)[0] >= 20


def parents() -> dict[int, int]:
    """Each running process's parent, from /proc."""
    found: dict[int, int] = {}
    for folder in PROC.glob("[0-9]*"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = folder.joinpath("stat").read_text().rsplit(")", 1)[1].split()
            found[int(folder.name)] = int(fields[1])
    return found


def tree(root: int, parent_of: dict[int, int]) -> set[int]:
    """`root` and every process descended from it."""
    children: dict[int, list[int]] = {}
    for pid, parent in parent_of.items():
        children.setdefault(parent, []).append(pid)
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
            with contextlib.suppress(OSError):  # the thread or process ended meanwhile
                os.sched_setscheduler(int(task.name), policy, os.sched_param(0))


def chromium_roots() -> set[int]:
    """The main processes of the Chromiums running now (those with no --type)."""
    found = set()
    for folder in PROC.glob("[0-9]*"):
        with contextlib.suppress(OSError, UnicodeDecodeError):
            words = folder.joinpath("cmdline").read_bytes().decode().replace("\0", " ").split()
            if (words and words[0].endswith(("chromium", "chrome"))
                    and not any(word.startswith("--type=") for word in words)):
                found.add(int(folder.name))
    return found


class OwnMachines:
    """Several browsers (their main processes' ids), one of which at a time has the cores:
    the others run only when it leaves them idle."""

    def __init__(self, roots: list[int]) -> None:
        self.roots = roots

    def give(self, index: int) -> None:
        """From now on the browser `roots[index]` runs as on a machine of its own."""
        parent_of = parents()
        for at, root in enumerate(self.roots):
            set_policy(tree(root, parent_of), os.SCHED_OTHER if at == index else os.SCHED_IDLE)

    def release(self) -> None:
        """Every browser back in the normal class."""
        parent_of = parents()
        for root in self.roots:
            set_policy(tree(root, parent_of), os.SCHED_OTHER)
