"""The built-in pictures, drawn by the program as SVG: no image files.

Each is a square scene, 1000 units a side, with something to see in every part of it
(a sliding puzzle of plain sky is hard to solve), drawn from a generator seeded with the
picture's name, so it is the same everywhere and every time. A board crops it to its own
shape as it crops a photo.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from functools import cache
from urllib.parse import quote

SIDE = 1000
Drawing = Callable[[random.Random], str]


def _gradient(name: str, stops: list[tuple[float, str]], vertical: bool = True) -> str:
    x2, y2 = ("0", "1") if vertical else ("1", "0")
    inner = "".join(f'<stop offset="{offset}" stop-color="{colour}"/>' for offset, colour in stops)
    return f'<linearGradient id="{name}" x1="0" y1="0" x2="{x2}" y2="{y2}">{inner}</linearGradient>'


def _light(x: float, y: float, colour: str, reach: float = 700) -> str:
    """Light falling across the scene from (x, y), a sun's or a moon's, fading towards a
    corner: every part of a plain sky, hill or sea then has a shade of its own, so that
    no two of a large board's tiles look alike (a board of 8×8 had dozens of pairs)."""
    glow = (f'<radialGradient id="light" cx="{x / SIDE:.2f}" cy="{y / SIDE:.2f}" '
            f'r="{reach / SIDE:.2f}"><stop offset="0" stop-color="{colour}" stop-opacity="0.45"/>'
            f'<stop offset="1" stop-color="{colour}" stop-opacity="0"/></radialGradient>')
    shade = ('<linearGradient id="shade" x1="0" y1="0" x2="1" y2="0.6">'
             '<stop offset="0" stop-color="#000" stop-opacity="0"/>'
             '<stop offset="1" stop-color="#000" stop-opacity="0.2"/></linearGradient>')
    if x > SIDE / 2:  # the shade falls away from the light
        shade = shade.replace('x1="0" y1="0" x2="1"', 'x1="1" y1="0" x2="0"')
    return (f"<defs>{glow}{shade}</defs>" + el("rect", width=SIDE, height=SIDE, fill="url(#light)")
            + el("rect", width=SIDE, height=SIDE, fill="url(#shade)"))


def _ridge(rng: random.Random, base: float, height: float, roughness: float,
           points: int = 24) -> str:
    """A closed path: a wavy skyline from left to right, filled down to the bottom."""
    phase = rng.uniform(0, math.tau)
    step = SIDE / points
    coords = []
    for i in range(points + 1):
        x = i * step
        y = base - height * (0.5 + 0.35 * math.sin(i / points * math.tau * 1.3 + phase)
                             + roughness * rng.uniform(-0.5, 0.5))
        coords.append(f"{x:.0f},{y:.0f}")
    return f"M0,{SIDE} L{' L'.join(coords)} L{SIDE},{SIDE} Z"


def _hills(rng: random.Random, base: float, height: float, waves: float) -> str:
    """A smooth rolling line of hills, as cubic curves."""
    phase = rng.uniform(0, math.tau)
    parts = [f"M0,{SIDE} L0,{base:.0f}"]
    segments = 8
    for i in range(1, segments + 1):
        x = SIDE * i / segments
        y = base - height * math.sin(i / segments * math.pi * waves + phase) ** 2
        cx = x - SIDE / segments / 2
        parts.append(f"S{cx:.0f},{y - height * 0.3:.0f} {x:.0f},{y:.0f}")
    parts.append(f"L{SIDE},{SIDE} Z")
    return " ".join(parts)


def el(tag: str, inner: str = "", **attrs: object) -> str:
    """An SVG element; numbers are rounded, `_` in a name becomes `-` (stroke_width)."""
    text = " ".join(f'{name.rstrip("_").replace("_", "-")}="{_number(value)}"'
                    for name, value in attrs.items())
    return f"<{tag} {text}>{inner}</{tag}>" if inner else f"<{tag} {text}/>"


def _number(value: object) -> str:
    return f"{value:.1f}".removesuffix(".0") if isinstance(value, float) else str(value)


def group(transform: str, *children: str, **attrs: object) -> str:
    return el("g", "".join(children), transform=transform, **attrs)


def meadow(rng: random.Random) -> str:
    """Rolling green hills under a morning sky, a red-roofed house, trees and flowers."""
    out = [f"<defs>{_gradient('sky', [(0, '#5aa9e6'), (0.6, '#a8dcf0'), (1, '#fdf1c7')])}</defs>",
           el("rect", width=SIDE, height=SIDE, fill="url(#sky)"),
           el("circle", cx=780, cy=190, r=90, fill="#ffe27a"),
           el("circle", cx=780, cy=190, r=125, fill="#ffe27a", opacity=0.25)]
    for _ in range(9):  # clouds, clear of the sun
        x, y, s = 780.0, 190.0, 1.0
        while math.hypot(x + 40 - 780, y - 190) < 220:
            x, y, s = rng.uniform(-40, 900), rng.uniform(30, 400), rng.uniform(0.5, 1.3)
        out.append(group(f"translate({x:.0f},{y:.0f}) scale({s:.2f})",
                         el("ellipse", cx=0, cy=0, rx=70, ry=34),
                         el("ellipse", cx=50, cy=-18, rx=50, ry=38),
                         el("ellipse", cx=95, cy=4, rx=55, ry=28), fill="#fff", opacity=0.92))
    for base, height, colour in ((560, 120, "#8fc16b"), (660, 110, "#6aa84f"),
                                 (780, 90, "#4f8f3a"), (900, 70, "#3d7a2c")):
        out.append(el("path", d=_hills(rng, base, height, 2.2), fill=colour))
    out.append(group("translate(300,540)",
                     el("rect", width=120, height=90, fill="#f4e3c1"),
                     el("path", d="M-14,4 L60,-56 L134,4 Z", fill="#c0392b"),
                     el("rect", x=48, y=40, width=26, height=50, fill="#7b4a2a"),
                     el("rect", x=14, y=22, width=22, height=20, fill="#6fb7e0"),
                     el("rect", x=86, y=22, width=22, height=20, fill="#6fb7e0")))
    for _ in range(9):  # trees
        x, y, s = rng.uniform(20, 980), rng.uniform(600, 760), rng.uniform(0.7, 1.2)
        out.append(group(f"translate({x:.0f},{y:.0f}) scale({s:.2f})",
                         el("rect", x=-7, y=0, width=14, height=40, fill="#6b4423"),
                         el("circle", cx=0, cy=-18, r=34, fill="#2e6b2a"),
                         el("circle", cx=-16, cy=-4, r=22, fill="#3b8a35")))
    colours = ("#ff6f91", "#ffd166", "#f8f9fa", "#c77dff", "#ff9f1c")
    for _ in range(140):  # flowers in the front field
        out.append(el("circle", cx=rng.uniform(0, SIDE), cy=rng.uniform(820, 995),
                      r=rng.uniform(4, 9), fill=rng.choice(colours)))
    out.append(_light(780, 190, "#fff6c2"))
    return "".join(out)


def mountains(rng: random.Random) -> str:
    """Ranges fading into a dusk sky, a lake mirroring them, and a crescent moon."""
    sky = _gradient("sky", [(0, "#1d2b64"), (0.45, "#6a4c93"), (0.75, "#f08a5d"), (1, "#f9d976")])
    out = [f"<defs>{sky}</defs>", el("rect", width=SIDE, height=SIDE, fill="url(#sky)")]
    for _ in range(180):  # stars, in every part of the sky
        out.append(el("circle", cx=rng.uniform(0, SIDE), cy=rng.uniform(0, 420),
                      r=rng.uniform(0.8, 2.4), fill="#fff", opacity=round(rng.uniform(0.4, 1), 2)))
    out.append(el("circle", cx=220, cy=170, r=46, fill="#fdf6d8")
               + el("circle", cx=242, cy=156, r=42, fill="#2a3470"))
    for base, height, colour in ((520, 260, "#8e6c9e"), (590, 240, "#6b4f85"),
                                 (650, 200, "#4a3768"), (700, 150, "#2f2450")):
        out.append(el("path", d=_ridge(rng, base, height, 0.5), fill=colour))
    out.append(el("rect", x=0, y=720, width=SIDE, height=280, fill="#3b4a7a"))
    for i in range(26):  # the lake's ripples, catching the sky
        out.append(el("rect", x=rng.uniform(-100, 900), y=735 + i * 10,
                      width=rng.uniform(120, 420), height=3, rx=1.5, fill="#f6b48f",
                      opacity=round(0.7 - i * 0.02, 2)))
    for _ in range(90):  # stars in the water, and the moon's glints
        out.append(el("rect", x=rng.uniform(0, SIDE), y=rng.uniform(730, 995),
                      width=rng.uniform(6, 26), height=2, fill=rng.choice(("#fdf6d8", "#b9a7e0")),
                      opacity=round(rng.uniform(0.35, 0.8), 2)))
    for _ in range(16):  # pines along the shore
        x, h = rng.uniform(0, SIDE), rng.uniform(50, 110)
        out.append(el("path", d=f"M{x:.0f},{720 - h:.0f} L{x + h * 0.28:.0f},724 "
                                f"L{x - h * 0.28:.0f},724 Z", fill="#171a33"))
    out.append(_light(220, 170, "#fdf6d8"))
    return "".join(out)


def sea(rng: random.Random) -> str:
    """A sunset over the sea: the sun's path on the water, a sailing boat, gulls."""
    defs = (_gradient("sky", [(0, "#ff7e5f"), (0.5, "#feb47b"), (1, "#ffe29f")])
            + _gradient("water", [(0, "#2b5876"), (1, "#0b2239")]))
    out = [f"<defs>{defs}</defs>", el("rect", width=SIDE, height=560, fill="url(#sky)"),
           el("circle", cx=500, cy=520, r=150, fill="#fff1b8", opacity=0.95),
           el("rect", y=540, width=SIDE, height=460, fill="url(#water)")]
    for i in range(7):
        out.append(el("rect", x=0, y=300 + i * 30, width=SIDE, height=8, fill="#ff9a6b",
                      opacity=0.35))
    for _ in range(14):  # long thin clouds, lit from below
        x, y, w = rng.uniform(-100, 950), rng.uniform(30, 280), rng.uniform(120, 320)
        out.append(el("ellipse", cx=x, cy=y, rx=w / 2, ry=rng.uniform(6, 14), fill="#ffd3a8",
                      opacity=round(rng.uniform(0.45, 0.8), 2)))
    for i in range(40):  # the sun's path on the water
        w = 260 - i * 4 + rng.uniform(-30, 30)
        out.append(el("rect", x=500 - w / 2, y=560 + i * 11, width=w, height=4, rx=2,
                      fill="#ffd28a", opacity=round(0.9 - i * 0.018, 2)))
    for _ in range(120):  # waves
        x, y, w = rng.uniform(0, SIDE), rng.uniform(580, 990), rng.uniform(20, 70)
        out.append(el("path", d=f"M{x:.0f},{y:.0f} q{w / 2:.0f},-10 {w:.0f},0",
                      stroke="#7fb3d5", stroke_width=3, fill="none", opacity=0.6))
    out.append(group("translate(690,600)",
                     el("path", d="M0,0 L120,0 L100,26 L14,26 Z", fill="#3a2618"),
                     el("path", d="M58,-6 L58,-170 L128,-10 Z", fill="#fdfdfd"),
                     el("path", d="M52,-6 L52,-140 L4,-10 Z", fill="#e8e2d0")))
    for _ in range(16):  # gulls
        x, y, s = rng.uniform(20, 980), rng.uniform(30, 420), rng.uniform(0.5, 1.2)
        out.append(el("path", transform=f"translate({x:.0f},{y:.0f}) scale({s:.2f})",
                      d="M-20,0 q10,-12 20,0 q10,-12 20,0", stroke="#4a2c2a",
                      stroke_width=4, fill="none"))
    out.append(el("path", d="M0,470 q120,-60 240,-10 q60,30 90,70 L0,540 Z", fill="#6d3b47"))
    out.append(_light(500, 520, "#fff1b8"))
    return "".join(out)


def mosaic(rng: random.Random) -> str:
    """A tiled mosaic of triangles in warm and cool colours around a bright rosette."""
    palette = ("#264653", "#2a9d8f", "#e9c46a", "#f4a261", "#e76f51", "#8ab17d", "#e63946",
               "#457b9d", "#a8dadc", "#f1faee")
    size = 100
    out = []
    for row in range(10):
        for col in range(10):
            x, y = col * size, row * size
            first, second = rng.choice(palette), rng.choice(palette)
            if (row + col) % 2:
                halves = (f"M{x},{y} h{size} L{x},{y + size} Z",
                          f"M{x + size},{y} v{size} h-{size} Z")
            else:
                halves = (f"M{x},{y} h{size} v{size} Z", f"M{x},{y} v{size} h{size} Z")
            out.append(el("path", d=halves[0], fill=first) + el("path", d=halves[1], fill=second))
    rings = ((330, "#f1faee"), (280, "#e63946"), (220, "#e9c46a"), (160, "#2a9d8f"),
             (100, "#264653"), (45, "#f4a261"))
    for ring, (radius, colour) in enumerate(rings):
        petals = 12 + ring * 2
        out.append(el("circle", cx=500, cy=500, r=radius, fill=colour, opacity=0.92))
        for i in range(petals):
            angle = math.tau * i / petals + ring * 0.2
            out.append(el("circle", cx=500 + radius * 0.85 * math.cos(angle),
                          cy=500 + radius * 0.85 * math.sin(angle), r=radius * 0.09,
                          fill=palette[(i + ring) % len(palette)]))
    return "".join(out)


def city(rng: random.Random) -> str:
    """A city at night: lit windows, a river of reflections and a full moon."""
    out = [f"<defs>{_gradient('sky', [(0, '#0f0c29'), (0.6, '#302b63'), (1, '#24243e')])}</defs>",
           el("rect", width=SIDE, height=SIDE, fill="url(#sky)"),
           el("circle", cx=760, cy=160, r=70, fill="#fef9e7"),
           el("circle", cx=760, cy=160, r=110, fill="#fef9e7", opacity=0.12)]
    for _ in range(160):  # stars, in every part of the sky
        out.append(el("circle", cx=rng.uniform(0, SIDE), cy=rng.uniform(0, 560),
                      r=rng.uniform(0.8, 2.2), fill="#fff"))
    walls = ("#1b1f3b", "#232850", "#2d2f5e", "#1a1c33")
    lights = ("#ffd166", "#ffe8a3", "#f9c74f", "#90e0ef")
    windows = "".join(  # lit windows, a pattern that every building shows a part of
        el("rect", x=10 + 20 * col, y=16 + 26 * row, width=10, height=14, fill=rng.choice(lights))
        for row in range(12) for col in range(14) if rng.random() < 0.45)
    out.append(el("pattern", windows, id="windows", width=280, height=312,
                  patternUnits="userSpaceOnUse"))
    x = -20.0
    while x < SIDE:  # buildings, left to right
        width, height = rng.uniform(60, 130), rng.uniform(200, 520)
        top = 760 - height
        out.append(el("rect", x=x, y=top, width=width, height=height, fill=rng.choice(walls))
                   + el("rect", x=x + 6, y=top + 8, width=width - 12, height=height - 28,
                        fill="url(#windows)"))
        if rng.random() < 0.3:  # an aerial with its red light
            out.append(el("rect", x=x + width / 2 - 2, y=top - 50, width=4, height=50,
                          fill="#3c3f6e")
                       + el("circle", cx=x + width / 2, cy=top - 52, r=5, fill="#ff4d6d"))
        x += width + rng.uniform(2, 14)
    out.append(el("rect", y=760, width=SIDE, height=240, fill="#141633"))
    for _ in range(240):  # reflections in the river
        out.append(el("rect", x=rng.uniform(0, SIDE), y=rng.uniform(770, 990),
                      width=rng.uniform(8, 40), height=3, fill=rng.choice(lights),
                      opacity=round(rng.uniform(0.3, 0.8), 2)))
    out.append(_light(760, 160, "#fef9e7"))
    return "".join(out)


def garden(rng: random.Random) -> str:
    """Big flowers and leaves on a soft ground: colour everywhere."""
    out = [f"<defs>{_gradient('ground', [(0, '#f7efe2'), (1, '#e8d8c3')])}</defs>",
           el("rect", width=SIDE, height=SIDE, fill="url(#ground)")]
    for _ in range(80):  # leaves
        x, y, angle = rng.uniform(0, SIDE), rng.uniform(0, SIDE), rng.uniform(0, 360)
        out.append(el("ellipse", cx=x, cy=y, rx=60, ry=22,
                      fill=rng.choice(("#52796f", "#84a98c", "#354f52")),
                      transform=f"rotate({angle:.0f} {x:.0f} {y:.0f})"))
    colours = (("#ef476f", "#ffd166"), ("#f78c6b", "#fff3b0"), ("#7b2cbf", "#ffbe0b"),
               ("#118ab2", "#ffd166"), ("#ff99c8", "#fcf6bd"), ("#e63946", "#1d3557"))
    for across in range(5):
        for down in range(5):
            cx = across * 200 + 100 + rng.uniform(-50, 50)
            cy = down * 200 + 100 + rng.uniform(-50, 50)
            petal, heart = rng.choice(colours)
            radius, count, turn = rng.uniform(45, 80), rng.choice((5, 6, 8)), rng.uniform(0, 360)
            for i in range(count):
                out.append(el("ellipse", cx=cx, cy=cy - radius * 0.6, rx=radius * 0.35,
                              ry=radius * 0.6, fill=petal,
                              transform=f"rotate({turn + 360 * i / count:.0f} {cx:.0f} {cy:.0f})"))
            out.append(el("circle", cx=cx, cy=cy, r=radius * 0.3, fill=heart))
    return "".join(out)


DRAWINGS: dict[str, Drawing] = {
    "meadow": meadow,
    "mountains": mountains,
    "sea": sea,
    "garden": garden,
    "city": city,
    "mosaic": mosaic,
}
BUILT_IN: tuple[str, ...] = tuple(DRAWINGS)


@cache
def svg(name: str) -> str:
    """The picture `name` as a standalone SVG document."""
    body = DRAWINGS[name](random.Random(f"sliding-picture/{name}"))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {SIDE} {SIDE}" '
            f'width="{SIDE}" height="{SIDE}">{body}</svg>')


@cache
def data_url(name: str) -> str:
    """The picture as a `data:` URL, to be the background of every tile."""
    return "data:image/svg+xml," + quote(svg(name), safe=" =:/,;()")
