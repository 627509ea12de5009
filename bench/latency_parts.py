"""Where a click's time goes, for bench/click_latency.py --parts.

Browser side: a Chromium trace (DevTools timeline categories) taken while the samples
run. Each sample is marked in the page (`performance.mark("sample-start <name>")` before the
click, "sample-end <name>" once the new view is painted); within each window the
renderer main thread's time is split by what it was doing, counting each trace event's
own time (its duration less its children's) once:

- input: the action's event handlers (click, right click, pointer up: the move sent);
- waiting: nothing running on the main thread (the server, the network, idle frames);
- view script: the WebSocket message handler's own JavaScript (JSON.parse, the patch);
- parse HTML: markup parsed into elements (the patch's template);
- style, layout, paint (pre-paint, paint, layerize, commit to the compositor), GC;
- other: the rest (timers, tasks' own overhead, animation frame callbacks).

Each part is given twice: in wall time, and in the main thread's CPU time (the trace's
thread clock), which a machine loaded by other work inflates much less.

Server side: the server started with PARLOUR_TIMING=1 times each part of an action
(parlour/server/timing.py) and hands the durations over at /api/debug/timing.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import httpx

from bench.common import percentile

CATEGORIES = [
    "devtools.timeline", "disabled-by-default-devtools.timeline", "blink.user_timing",
    "v8", "disabled-by-default-v8.gc",
]
BROWSER_PARTS = ("input", "waiting", "view script", "parse HTML", "style", "layout", "paint",
                 "GC", "other")
SERVER_PARTS = ("parse", "apply", "commit", "observe", "render", "view (who acted)",
                "views (those watching)", "diff", "send", "received -> first view sent",
                "received -> view sent",
                *(f"GC pause (generation {n})" for n in range(3)))
PAINTING = {"PrePaint", "Paint", "PaintImage", "Layerize", "Commit", "UpdateLayer",
            "UpdateLayerTree", "RasterTask", "CompositeLayers"}
INPUT = {"click", "contextmenu", "pointerup", "pointerdown", "pointermove"}
OWN_PART = {"ParseHTML": "parse HTML", "UpdateLayoutTree": "style", "Layout": "layout",
            **dict.fromkeys(PAINTING, "paint")}


def own_part(event: dict[str, Any]) -> str | None:
    """The part an event's own time counts to, or None to take its parent's."""
    name = event["name"]
    if name in OWN_PART:
        return OWN_PART[name]
    if "GC" in name and (name.startswith(("V8.GC", "BlinkGC", "CppGC")) or name in
                         ("MinorGC", "MajorGC")):
        return "GC"
    if name == "EventDispatch" and event.get("args", {}).get("data", {}).get("type") in INPUT:
        return "input"
    if name == "FunctionCall" and "onmessage" in str(
            event.get("args", {}).get("data", {}).get("functionName", "")):
        return "view script"
    return None


def browser_parts(trace: bytes, clock: str = "dur") -> dict[str, dict[str, float]]:
    """Per sample marked in `trace`, by name: the ms spent in each of `BROWSER_PARTS`, in
    wall time (`clock` "dur") or the main thread's CPU time ("tdur")."""
    events = json.loads(trace)
    events = events["traceEvents"] if isinstance(events, dict) else events
    samples: dict[str, dict[str, float]] = {}
    for thread in _main_threads(events):
        ours = [e for e in events if (e.get("pid"), e.get("tid")) == thread]
        starts = {e["name"][len("sample-start "):]: e["ts"] for e in ours
                  if e["name"].startswith("sample-start ")}
        ends: dict[str, list[float]] = {}
        for event in ours:
            if event["name"].startswith("sample-end "):
                ends.setdefault(event["name"][len("sample-end "):], []).append(event["ts"])
        spans = sorted((e for e in ours if e.get("ph") == "X" and "dur" in e),
                       key=lambda e: (e["ts"], -e["dur"]))
        for name, start in starts.items():
            end = min((t for t in ends.get(name, []) if t > start), default=None)
            if end is not None:
                samples[name] = _split(spans, start, end, clock)
    return samples


def _main_threads(events: Iterable[dict[str, Any]]) -> list[tuple[int, int]]:
    return [(e["pid"], e["tid"]) for e in events if e.get("ph") == "M"
            and e["name"] == "thread_name" and e["args"].get("name") == "CrRendererMain"]


def _split(spans: list[dict[str, Any]], start: float, end: float,
           clock: str) -> dict[str, float]:
    """The window's time by part: each event's own time, clipped to the window (its CPU
    time, `clock` "tdur", in proportion to the part of it inside)."""
    parts = dict.fromkeys(BROWSER_PARTS, 0.0)
    stack: list[tuple[float, str]] = []  # (end, part) of the enclosing events
    for event in spans:
        begin, finish = event["ts"], event["ts"] + event["dur"]
        if finish <= start or begin >= end:
            continue
        while stack and stack[-1][0] <= begin:
            stack.pop()
        part = own_part(event) or (stack[-1][1] if stack else "other")
        clipped = (min(finish, end) - max(begin, start)) / 1000
        if clock != "dur":
            clipped *= event.get(clock, 0) / max(event["dur"], 1)
        parts[part] += clipped
        if stack:  # the parent's own time is what its children leave
            parts[stack[-1][1]] -= clipped
        stack.append((finish, part))
    busy = sum(parts.values())
    parts["waiting"] = (end - start) / 1000 - busy if clock == "dur" else 0.0
    return parts


def server_parts(url: str) -> dict[str, list[float]]:
    """The server's times per part since the last call (its PARLOUR_TIMING must be 1)."""
    reply = httpx.get(f"{url}/api/debug/timing", timeout=30)
    if reply.status_code == 404:  # a Parlour from before the timers: the browser's parts only
        return {}
    reply.raise_for_status()
    found: dict[str, list[float]] = reply.json()
    return found


def parts_table(kinds: dict[str, list[str]], browser: dict[str, dict[str, float]],
                server: dict[str, list[float]],
                cpu: dict[str, dict[str, float]] | None = None) -> list[str]:
    """The table's lines: p50 / p95 (ms) of each part, the server's over every action,
    the browser's for each kind of action (`kinds`: its samples' names), in wall time
    and, given `cpu`, in the main thread's CPU time."""
    lines = [f"  {'server part (every action)':<30} {'p50':>7} {'p95':>7} {'n':>5}"
             f"   {'CPU p50':>7} {'CPU p95':>7}"]
    for name in SERVER_PARTS:
        if server.get(name):
            found, cpu_time = server[name], server.get(f"{name} CPU")
            line = (f"  {name:<30} {percentile(found, 50):7.2f} "
                    f"{percentile(found, 95):7.2f} {len(found):5d}")
            if cpu_time:  # the server thread's own work, without its waits
                line += f"   {percentile(cpu_time, 50):7.2f} {percentile(cpu_time, 95):7.2f}"
            lines.append(line)
    for kind, names in kinds.items():
        lines.extend(_browser_rows(f"browser, {kind}", [browser[n] for n in names if n in browser]))
        if cpu is not None:
            lines.extend(_browser_rows(f"  main thread CPU, {kind}",
                                       [cpu[n] for n in names if n in cpu], ("waiting",)))
    return lines


def _browser_rows(title: str, split: list[dict[str, float]], left_out: tuple[str, ...] = ()
                  ) -> list[str]:
    lines: list[str] = []
    if split:
        lines.append(f"  {title} (n={len(split)}): p50 / p95")
        cells = [f"{part} {percentile(values, 50):.1f}/{percentile(values, 95):.1f}"
                 for part in (*BROWSER_PARTS, "whole") if part not in left_out
                 for values in [[s[part] for s in split] if part != "whole"
                                else [sum(s.values()) for s in split]]]
        lines.extend("    " + "  ".join(cells[i:i + 5]) for i in range(0, len(cells), 5))
    return lines
