"""Share this machine's cores out as if some processes ran on a machine of their own.

Three people playing Tribolo on their invite links each have a browser on their own
machine, but the benchmark runs the three browsers, the server and itself on the few cores
of one. To time the click as the player who made it sees it, the mover's browser (its
whole process tree: browser, GPU process, renderers) is pinned to a core of its own for
that move and everything else the benchmark started to the others, with Linux's CPU
affinity. Affinity is a thread's, so every thread of every process is pinned; threads
started later inherit it from the thread that starts them.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable
from pathlib import Path

PROC = Path("/proc")


def can_split() -> bool:
    """Whether this process may run on two cores or more, and Linux says which."""
    return hasattr(os, "sched_setaffinity") and len(os.sched_getaffinity(0)) >= 2


def halves() -> tuple[set[int], set[int]]:
    """This process's cores in two: a core (or the first half) for the one process tree
    pinned apart, the rest for everything else."""
    cores = sorted(os.sched_getaffinity(0))
    cut = max(1, len(cores) // 2)
    return set(cores[:cut]), set(cores[cut:])


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


def pin(pids: Iterable[int], cores: set[int]) -> None:
    """Run every thread of the processes `pids` on `cores` alone (those gone meanwhile
    are skipped)."""
    for pid in pids:
        for task in PROC.joinpath(str(pid), "task").glob("[0-9]*"):
            with contextlib.suppress(OSError):  # the thread or process ended meanwhile
                os.sched_setaffinity(int(task.name), cores)


def chromium_roots() -> set[int]:
    """The main processes of the Chromiums running now (those with no --type)."""
    found = set()
    for folder in PROC.glob("[0-9]*"):
        with contextlib.suppress(OSError, UnicodeDecodeError):
            words = folder.joinpath("cmdline").read_bytes().decode().replace("\0", " ").split()
            if words and words[0].endswith(("chromium", "chrome")) and not any(
                    word.startswith("--type=") for word in words):
                found.add(int(folder.name))
    return found


class OwnMachine:
    """Pins one of several process trees (a browser each) to a core of its own at a time;
    the others, and every other process descended from this one, to the other cores."""

    def __init__(self, roots: list[int]) -> None:
        self.roots = roots
        self.apart, self.rest = halves()

    def give(self, index: int) -> None:
        """The tree of `roots[index]` on its own core(s) from now on."""
        parent_of = parents()
        mine = tree(self.roots[index], parent_of)
        pin(mine, self.apart)
        pin(tree(os.getpid(), parent_of) - mine, self.rest)

    def release(self) -> None:
        """Every process this one started back on all its cores."""
        pin(tree(os.getpid(), parents()), self.apart | self.rest)
