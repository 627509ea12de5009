"""How well the sliding puzzle's built-in pictures tell their tiles apart: each picture,
drawn by Chromium as the game draws it (its data: URL) at 640 pixels, is cut into an
N×N board's tiles, and every pair of tiles is compared. A pair is "alike" when fewer than
1 % of their pixels differ by more than 12 levels in any channel: a player then cannot
place one rather than the other by looking (plain sky was the usual culprit).

Run from the repository root (Chromium at /usr/bin/chromium), in about 20 seconds:
    .venv/bin/python -m bench.sliding_pictures --sizes 4,6,8
"""

from __future__ import annotations

import argparse
import io
import itertools

from PIL import Image, ImageChops
from playwright.sync_api import Page, sync_playwright

from bench.common import heading
from parlour.games.sliding import pictures
from tests.support.chromium import launch_chromium

SIDE = 640
LEVELS = 12  # a difference of more than this, in a channel, is one a player sees
SHARE = 0.01  # pairs whose pixels differ so in less than this share are alike


def drawn(page: Page, name: str) -> Image.Image:
    """The picture `name` as Chromium draws it, SIDE pixels square."""
    page.set_content(f'<body style="margin:0"><img width="{SIDE}" height="{SIDE}" '
                     f'src="{pictures.data_url(name)}"></body>')
    page.wait_for_timeout(300)  # (a large picture is painted in tiles: all of them)
    return Image.open(io.BytesIO(page.screenshot())).convert("RGB")


def alike_pairs(picture: Image.Image, size: int) -> int:
    """The pairs of tiles of a `size`×`size` board that look alike."""
    side = SIDE // size
    tiles = [picture.crop((col * side, row * side, (col + 1) * side, (row + 1) * side))
             for row in range(size) for col in range(size)]
    pixels = side * side
    alike = 0
    for first, second in itertools.combinations(tiles, 2):
        seen = ImageChops.difference(first, second).split()
        differing = ImageChops.lighter(ImageChops.lighter(seen[0], seen[1]), seen[2])
        counts = differing.point(lambda level: 255 if level > LEVELS else 0).histogram()
        alike += counts[255] < SHARE * pixels
    return alike


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="4,6,8", help="board sizes, N for N×N")
    sizes = [int(size) for size in parser.parse_args().sizes.split(",")]
    heading(f"Pairs of tiles alike (< {SHARE:.0%} of pixels differ by > {LEVELS} levels)")
    print(f"{'picture':<10}" + "".join(f"{f'{size}×{size}':>8}" for size in sizes))
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        page = browser.new_page(viewport={"width": SIDE, "height": SIDE})
        for name in pictures.BUILT_IN:
            picture = drawn(page, name)
            print(f"{name:<10}" + "".join(f"{alike_pairs(picture, size):>8}" for size in sizes))
        browser.close()


if __name__ == "__main__":
    main()
