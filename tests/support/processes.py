"""The CPU time that Chromium's processes and Parlour's servers have used, from /proc
(Linux), and what each process is."""

from __future__ import annotations

import os
from pathlib import Path

PROC = Path("/proc")


def cpu_ms_by_process() -> dict[str, float]:
    """The CPU time (ms) used so far by each Chromium process and Parlour server running on
    this machine, summed by kind: a Chromium process's --type ("renderer", "gpu-process", a
    utility's service; "browser" for the main one) or "server". Empty without /proc."""
    used: dict[str, float] = {}
    for folder in PROC.glob("[0-9]*"):
        try:
            kind = process_kind(folder.joinpath("cmdline").read_bytes().decode().split("\0"))
            if kind:
                used[kind] = used.get(kind, 0.0) + cpu_ms(int(folder.name))
        except (OSError, UnicodeDecodeError, IndexError, ValueError):
            continue  # gone meanwhile, or not ours to read
    return used


def cpu_ms(pid: int) -> float:
    """The CPU time (ms) process `pid` has used so far, in user and kernel mode."""
    fields = PROC.joinpath(str(pid), "stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def process_kind(words: list[str]) -> str | None:
    """What a process is, from its command line's words (see cpu_ms_by_process); None for
    one that is neither Chromium nor a Parlour server."""
    words = " ".join(words).split()  # Chromium rewrites its children's argv as one string
    if words and words[0].endswith(("chromium", "chrome")):
        flags = dict(word[2:].split("=", 1) for word in words if word.startswith("--")
                     and "=" in word)
        kind = flags.get("type", "browser")  # a utility is named by its service: "audio"
        return flags.get("utility-sub-type", kind).split(".")[0] if kind == "utility" else kind
    if "parlour" in words and "--no-browser" in words:
        return "server"
    return None
