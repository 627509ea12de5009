"""The contrast a player sees, measured in the page: WCAG's ratio between a label's colour
and its background as they reach the screen, from the computed colours of the element and
every ancestor, each composited with its background and its opacity (a disabled button's
opacity dims its label and its fill alike). axe leaves disabled controls out of its
contrast rule (WCAG excuses them); Parlour still wants their labels legible.
"""

from __future__ import annotations

import io
from collections import Counter
from typing import Any

from PIL import Image
from playwright.sync_api import Page

# A disabled label's least contrast with its background: WCAG's for large text and for
# the parts of a control (1.4.11), enough to read while plainly fainter than the rest.
DISABLED_LEAST = 3.0
GRAPHICS_LEAST = 3.0  # WCAG 1.4.11: a picture a player must make out (a mine) on its ground

# (selector) -> [{control, part, text, ratio}] for every visible control the selector
# finds: each of its visible labels (an element with text of its own, or an icon drawn in
# the label's colour, as an SVG is), its colour and its background seen through the
# opacity of every element up to the page, which is set on white.
MEASURE_JS = """
(selector) => {
  const probe = document.createElement("canvas").getContext("2d");
  const rgba = (css) => {  // any CSS colour -> [r, g, b, a], r..b in 0..1
    let m = css.match(/^color\\(srgb ([\\d.e-]+) ([\\d.e-]+) ([\\d.e-]+)(?: \\/ ([\\d.]+))?\\)$/);
    if (m) return [+m[1], +m[2], +m[3], m[4] === undefined ? 1 : +m[4]];
    m = css.match(/^rgba?\\(([\\d.]+),? ([\\d.]+),? ([\\d.]+)(?:[,/] ?([\\d.]+))?\\)$/);
    if (m) return [m[1] / 255, m[2] / 255, m[3] / 255, m[4] === undefined ? 1 : +m[4]];
    probe.clearRect(0, 0, 1, 1); probe.fillStyle = css; probe.fillRect(0, 0, 1, 1);
    const [r, g, b, a] = probe.getImageData(0, 0, 1, 1).data;
    return [r / 255, g / 255, b / 255, a / 255];
  };
  const premultiplied = ([r, g, b, a]) => [r * a, g * a, b * a, a];
  const over = (top, under) => top.map((v, i) => v + under[i] * (1 - top[3]));
  // the colour seen at a pixel of `element`: its own colour painted on its background (or
  // its background alone), each element a group faded by its opacity on its parent's
  const seen = (element, colour) => {
    let inner = colour ? premultiplied(rgba(colour)) : [0, 0, 0, 0];
    for (let e = element; e; e = e.parentElement) {
      const style = getComputedStyle(e);
      const painted = over(inner, premultiplied(rgba(style.backgroundColor)));
      inner = painted.map((v) => v * Number(style.opacity));
    }
    return over(inner, [1, 1, 1, 1]).slice(0, 3);
  };
  const luminance = (rgb) => {
    const [r, g, b] = rgb.map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  const emoji = /^[\\p{Extended_Pictographic}\\uFE0F\\u200D\\s]+$/u;  // drawn in its own colours
  const shown = (e) => e.checkVisibility({ visibilityProperty: true }) && e.getClientRects().length
    && !e.closest(".visually-hidden");
  const found = [];
  for (const control of document.querySelectorAll(selector)) {
    if (!shown(control)) continue;
    for (const part of [control, ...control.querySelectorAll("*")]) {
      if (!shown(part)) continue;
      const text = [...part.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE)
        .map((n) => n.textContent).join("").trim();
      const icon = part.localName === "svg";
      if (!icon && (!text || emoji.test(text))) continue;
      const style = getComputedStyle(part);
      let ink = icon ? style.fill === "none" ? style.stroke : style.fill : style.color;
      if (ink === "currentcolor") ink = style.color;
      found.push({
        control: control.id || control.textContent.trim().slice(0, 30),
        part: part === control ? "" : part.className?.baseVal ?? part.className,
        text: text || "(icon)",
        ratio: Math.round(ratio(seen(part, ink), seen(part, null)) * 100) / 100,
      });
    }
  }
  return found;
}
"""

DISABLED = '.btn:disabled, .btn[aria-disabled="true"], .menu-item[aria-disabled="true"]'


def measure(page: Page, selector: str = DISABLED) -> list[dict[str, Any]]:
    """Every visible label of the controls `selector` finds (by default: every disabled
    button and menu entry), with its contrast as seen."""
    found: list[dict[str, Any]] = page.evaluate(MEASURE_JS, selector)
    return found


def luminance(rgb: tuple[int, ...]) -> float:
    """WCAG's relative luminance of an sRGB colour (0-255 a channel)."""
    linear = [c / 255 / 12.92 if c <= 10 else ((c / 255 + 0.055) / 1.055) ** 2.4
              for c in rgb[:3]]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def picture_contrast(shot: bytes) -> float:
    """The contrast, as seen, of what an element draws in colours that CSS does not know
    (an emoji, such as Minesweeper's 💣) with the element's background: `shot` is its
    screenshot; the background is its commonest colour, and the picture's is the
    commonest of the colours that differ from it (its body, as a player sees its shape:
    not its blended edges nor a small highlight)."""
    data = Image.open(io.BytesIO(shot)).convert("RGB").tobytes()
    pixels = Counter(tuple(data[i:i + 3]) for i in range(0, len(data), 3)).most_common()
    background = luminance(pixels[0][0])

    def ratio(colour: tuple[int, ...]) -> float:
        light, dark = sorted((luminance(colour), background), reverse=True)
        return (light + 0.05) / (dark + 0.05)

    body = next((colour for colour, _ in pixels[1:] if ratio(colour) > 1.1), pixels[0][0])
    return ratio(body)
