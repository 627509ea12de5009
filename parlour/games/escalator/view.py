"""Escalator: the pyramid on a felt table, the stock and the base below it.

Every card is drawn here (no images): a white face, corner indices big enough to read
on a phone, pips or a court panel. The table is SVGs (the felt; the stock's row with its
count, at the table's foot, which a phone's side parts either side of the pyramid; the
win's panel); the pyramid's empty places and a lost game's verdict are HTML, so that a
phone can move them (view.css), and the cards lie on it as
HTML-level `<svg>` elements of their own, each with an id
(`esc-card-Qs`), placed by CSS custom properties in the table's units and stacked by
z-index. So each card is a compositor layer of its own: a pick restyles and repaints the
few cards that changed, and the picked card flies to the base as a CSS transition of its
transform, drawn by the compositor. The cards keep one order in the markup (the deck's),
so the morph never moves an element: where a card lies and what covers it is its style.
Colours (two- or four-colour deck) and card backs are CSS, chosen by the board's
`data-opt-deck` and `data-opt-back` display options, so switching them never asks the
server.
"""

from __future__ import annotations

from functools import cache

from parlour.core.game import JSON, RenderContext, counted
from parlour.core.markup import attr, classes, lines, move_attr
from parlour.games.escalator.logic import RANKS, ROWS, SUIT_NAMES, SUITS

RANK_LABELS = {"A": "Ace", "T": "10", "J": "Jack", "Q": "Queen", "K": "King"}
"""Ranks as a card's label reads them: as printed on the card (the rules' messages spell
every rank out, `logic.card_name`)."""
SUIT_LABELS = dict(zip(SUITS, SUIT_NAMES, strict=True))
BACKS = ("red", "blue", "green")

CARD_W, CARD_H = 100, 140
GAP = 6
PITCH = CARD_W + GAP  # a card and the gap beside it
ROW_STEP = CARD_H // 2  # each row covers the lower half of the row above
MARGIN = 12
WIDTH = 2 * MARGIN + ROWS * PITCH - GAP
TABLE_Y = MARGIN + (ROWS - 1) * ROW_STEP + CARD_H + 28  # the stock and the base
STOCK_X = MARGIN + 2 * PITCH
BASE_X = MARGIN + 4 * PITCH
HEIGHT = TABLE_Y + CARD_H + MARGIN
PILE_STEP = 3  # how far each layer under a pile shows
MINI = 0.72  # the scale of the cards revealed from the stock at the end
UNDER_Z = ROWS + 1  # the base pile lies over the pyramid: a picked card flies over it
PILES_TOP = TABLE_Y - 28  # the stock's row, and the gap above it where the verdict stands

# Suits in a 100 × 100 box, drawn once in <defs> and used by every pip.
SUIT_SHAPES = {
    "c": '<circle cx="50" cy="27" r="19"/><circle cx="27" cy="57" r="19"/>'
         '<circle cx="73" cy="57" r="19"/><circle cx="50" cy="50" r="12"/>'
         '<path d="M46.5 55C46.5 77 42 88 31 97H69C58 88 53.5 77 53.5 55Z"/>',
    "d": '<path d="M50 3C60 21 72 36 86 50C72 64 60 79 50 97C40 79 28 64 14 50'
         'C28 36 40 21 50 3Z"/>',
    "h": '<path d="M50 92C46 84 6 62 6 33C6 16 18 6 31 6C40 6 47 12 50 21C53 12 60 6 69 6'
         'C82 6 94 16 94 33C94 62 54 84 50 92Z"/>',
    "s": '<path d="M50 3C57 19 93 37 93 62C93 76 83 85 71 85C63 85 57 81 53.5 75'
         'C54 85 58 92 67 97H33C42 92 46 85 46.5 75C43 81 37 85 29 85C17 85 7 76 7 62'
         'C7 37 43 19 50 3Z"/>',
}

# Pip rows from 0 (top) to 1 (bottom) in three columns, as printed cards have them.
_L, _C, _R = 38, 50, 62
PIPS: dict[str, tuple[tuple[int, float], ...]] = {
    "2": ((_C, 0), (_C, 1)),
    "3": ((_C, 0), (_C, .5), (_C, 1)),
    "4": ((_L, 0), (_R, 0), (_L, 1), (_R, 1)),
    "5": ((_L, 0), (_R, 0), (_C, .5), (_L, 1), (_R, 1)),
    "6": ((_L, 0), (_R, 0), (_L, .5), (_R, .5), (_L, 1), (_R, 1)),
    "7": ((_L, 0), (_R, 0), (_C, .25), (_L, .5), (_R, .5), (_L, 1), (_R, 1)),
    "8": ((_L, 0), (_R, 0), (_C, .25), (_L, .5), (_R, .5), (_C, .75), (_L, 1), (_R, 1)),
    "9": ((_L, 0), (_R, 0), (_L, 1 / 3), (_R, 1 / 3), (_C, .5), (_L, 2 / 3), (_R, 2 / 3),
          (_L, 1), (_R, 1)),
    "T": ((_L, 0), (_R, 0), (_C, 1 / 6), (_L, 1 / 3), (_R, 1 / 3), (_L, 2 / 3), (_R, 2 / 3),
          (_C, 5 / 6), (_L, 1), (_R, 1)),
}
PIP_TOP, PIP_BOTTOM, PIP_SIZE = 28, 112, 19
# The cards' one order in the markup: a card keeps its element and its place whatever
# happens to it, and CSS (--x, --y, --z) says where it lies.
DECK_ORDER = {rank + suit: k for k, (suit, rank) in
              enumerate((suit, rank) for suit in SUITS for rank in RANKS)}

# Court emblems, drawn around (0, 0) about 28 wide: a king's crown, a queen's tiara,
# a jack's plumed cap.
EMBLEMS = {
    "K": '<path d="M-14 8V-6L-7 1L0-10L7 1L14-6V8Z"/><circle cx="-14" cy="-7" r="2.2"/>'
         '<circle cx="0" cy="-11" r="2.4"/><circle cx="14" cy="-7" r="2.2"/>'
         '<rect x="-14" y="8" width="28" height="3.5" rx="1"/>',
    "Q": '<path d="M-13 8C-13 1-11-4-9-7C-6-2-3-3 0-10C3-3 6-2 9-7C11-4 13 1 13 8Z"/>'
         '<circle cx="0" cy="-11.5" r="2.6"/><circle cx="-9" cy="-8.5" r="1.8"/>'
         '<circle cx="9" cy="-8.5" r="1.8"/><rect x="-13" y="8" width="26" height="3.5" rx="1"/>',
    "J": '<path d="M-13 9C-13 0-7-5 1-5C8-5 13 0 13 9Z"/>'
         '<path d="M3-5C5-11 11-14 15-13C12-11 10-8 9-5Z"/><rect x="-14" y="8" width="28" '
         'height="3.5" rx="1"/>',
}


def render(observation: JSON, ctx: RenderContext) -> str:
    """One line per card, pile and panel, each with an id: a move sends only what changed
    when it can, and the morph keeps each card's element wherever it goes."""
    status = observation["status"]
    live = status == "playing" and ctx.can_move
    hint = ctx.hint or {}
    hinted = tuple(hint["pick"]) if "pick" in hint else None
    won, over = status == "won", status != "playing"
    end_lines = _end_panel(observation) if over and not won else []
    height = HEIGHT  # the same at the end: the final board neither moves nor shrinks
    left = sum(card is not None for row in observation["pyramid"] for card in row)
    label = f"Escalator: {left} cards in the pyramid, {observation['stock']} in the stock"
    cards = _pyramid(observation, live, hinted) + _base_pile(observation, live)
    return lines([
        f'<div class="esc {status}" id="esc">',
        f'<div class="esc-table" id="esc-table" style="--h:{height}" role="group" '
        f'aria-label="{attr(label)}" aria-disabled="{str(not live).lower()}">',
        # the felt, stretched to the table, which a tall phone makes taller than the drawing
        f'<svg class="esc-board" id="esc-board" viewBox="0 0 {WIDTH} {height}" '
        'preserveAspectRatio="none">',
        _DEFS,
        f'<g id="esc-felt">{_felt(height)}</g>',
        "</svg>",
        _slots() if not won else "",
        # the stock's row, at the table's foot: on a tall phone, the screen's
        f'<svg class="esc-piles" id="esc-piles" viewBox="0 {PILES_TOP} {WIDTH} '
        f'{HEIGHT - PILES_TOP}">',
        _pile_slots(),
        _stock(observation["stock"], live, hint.get("draw") is True),
        _stock_count(observation["stock"]),
        _waste(len(observation["bases"])),
        *_lamp(observation, ctx),
        "</svg>",
        *end_lines,
        '<div class="esc-cards" id="esc-cards">',
        *(markup for _, markup in sorted(cards)),
        "</div>",
        f'<svg class="esc-over" id="esc-over" viewBox="0 0 {WIDTH} {height}">',
        *(_celebration(observation) if won else []),
        "</svg></div></div>",
    ])


# -- names --------------------------------------------------------------------------
def card_label(card: str) -> str:
    """A card's code ('Qs', '7c', as observations give them) as its label reads: 'Queen of
    spades', '7 of clubs'."""
    return f"{RANK_LABELS.get(card[0], card[0])} of {SUIT_LABELS[card[1]]}"


def _moves(move: JSON) -> str:
    return move_attr("data-move", move)


# -- the table ----------------------------------------------------------------------
def slot_xy(row: int, index: int) -> tuple[int, int]:
    """Top-left corner of a pyramid card: rows centred, each half a card lower."""
    return MARGIN + (ROWS - 1 - row) * PITCH // 2 + index * PITCH, MARGIN + row * ROW_STEP


@cache
def _felt(height: int) -> str:
    return (
        f'<rect class="esc-cloth" width="{WIDTH}" height="{height}"/>'
        f'<rect class="esc-sheen" width="{WIDTH}" height="{height}" fill="url(#esc-sheen)"/>'
    )


@cache
def _slots() -> str:
    """The pyramid's empty places, each what the row below leaves in sight: a rounded box
    open at the foot, or the whole card's in the last row. Placed as the cards are (the
    row, the rows' step that a tall phone lengthens: view.css), so they are HTML too."""
    return '<div class="esc-slots" id="esc-slots" aria-hidden="true">' + "".join(
        f'<i class="{"esc-slot" if row == ROWS - 1 else "esc-slot open"}" '
        f'style="--x:{x + 2};--y:{y + 2};--row:{row}"></i>'
        for row in range(ROWS)
        for index in range(row + 1)
        for x, y in [slot_xy(row, index)]
    ) + "</div>"


def _pile_slots() -> str:
    """The stock's place and the base's (each its class: a phone's side parts them)."""
    return "".join(
        f'<rect class="esc-slot esc-pile-slot esc-at-{pile}" x="{x + 2}" y="{TABLE_Y + 2}" '
        f'width="{CARD_W - 4}" height="{CARD_H - 4}" rx="8"/>'
        for pile, x in (("stock", STOCK_X), ("base", BASE_X))
    )


def _pyramid(observation: JSON, live: bool,
             hinted: tuple[int, ...] | None) -> list[tuple[int, str]]:
    free = {tuple(at) for at in observation["free"]}
    playable = {tuple(at) for at in observation["playable"]}
    cards = []
    for row, cards_in_row in enumerate(observation["pyramid"]):
        for index, card in enumerate(cards_in_row):
            if card is None:
                continue
            at = (row, index)
            x, y = slot_xy(row, index)
            z = row + 1  # each row covers the one above
            name = f"{card_label(card)}, row {row + 1}"
            hint = "hint" if at == hinted else None  # the platform's: the cursor goes there
            if not live:
                state = "covered" if at not in free else "free"
                cards.append(_card(card, x, y, z, classes(state, hint), role="img",
                                   label=name if at in free else f"{name}, covered", row=row))
            elif at in playable:
                cards.append(_card(card, x, y, z, classes("playable", hint), role="button",
                                   label=name, actions=_pick(row, index, drag=True), row=row))
            elif at in free:
                cards.append(_card(card, x, y, z, classes("free", hint), role="button",
                                   label=f"{name}: not one rank from the base, cannot be "
                                         "picked now",
                                   actions=_pick(row, index, drag=False), row=row))
            else:
                cards.append(_card(card, x, y, z, "covered", role="img",
                                   label=f"{name}, covered", row=row))
    return cards


@cache
def _pick(row: int, index: int, drag: bool) -> str:
    return _moves({"pick": [row, index]}) + (" data-drag" if drag else "") + (
        ' data-nav tabindex="-1"'
    )


def _card(card: str, x: float, y: float, z: int, css: str, *, role: str, label: str | None,
          actions: str = "", style: str = "", inner: str = "",
          row: int | None = None) -> tuple[int, str]:
    """A card as an <svg> of its own, with its place in the deck's order: placed by
    --x/--y in the table's units (and --row in the pyramid, or --pile in the stock's row,
    which a tall phone moves: view.css), so that a change of place is a CSS transition,
    and stacked by --z. No label: a card out of sight, hidden from screen readers too."""
    named = f'role="{role}" aria-label="{attr(label)}"' if label else 'aria-hidden="true"'
    place = f";--row:{row}" if row is not None else ";--pile:1"  # in the stock's row
    return DECK_ORDER[card], (
        f'<svg id="esc-card-{card}" class="{classes("esc-card", f"suit-{card[1]}", css)}" '
        f'viewBox="0 0 {CARD_W} {CARD_H}" style="--x:{x:g};--y:{y:g}{place};--z:{z}{style}" '
        f'{named}{actions}><g class="esc-in">{card_face(card)}{inner}{_RING}{_HIT}</g></svg>'
    )


# -- the stock and the base -----------------------------------------------------------
def _layers(count: int) -> int:
    """Layers drawn under the top card of a pile of `count` cards: a hint of its depth."""
    return 0 if count <= 1 else min(4, 1 + (count - 2) // 6)


def _stock(count: int, live: bool, hinted: bool) -> str:
    if count == 0:
        return (
            '<g id="esc-stock" class="esc-stock empty" role="img" aria-label="Stock: empty">'
            f'<rect class="esc-empty-pile" x="{STOCK_X + 2}" y="{TABLE_Y + 2}" '
            f'width="{CARD_W - 4}" height="{CARD_H - 4}" rx="8"/></g>'
        )
    layers = "".join(
        f'<rect class="esc-edge esc-back-edge" x="{STOCK_X + PILE_STEP * k}" '
        f'y="{TABLE_Y + PILE_STEP * k}" width="{CARD_W}" height="{CARD_H}" rx="8"/>'
        for k in range(_layers(count), 0, -1)
    )
    plural = "card" if count == 1 else "cards"
    actions = (
        _moves({"draw": True}) + ' data-key="d Space" data-nav tabindex="-1" role="button"'
        if live else ' role="img"'
    )
    label = f"Stock: {count} {plural}" + (", turn one (D)" if live else "")
    return (
        f'<g id="esc-stock" class="{classes("esc-stock", "hint" if hinted else None)}"'
        f'{actions} aria-label="{label}">{layers}'
        f'<g transform="translate({STOCK_X} {TABLE_Y})">{_BACK}'
        f"{_RING}</g></g>"
    )


def _stock_count(count: int) -> str:
    x = STOCK_X - 18
    return (
        f'<text id="esc-count" class="esc-count" x="{x}" y="{TABLE_Y + 66}" aria-hidden="true">'
        f'<tspan class="esc-count-n" x="{x}">{count}</tspan>'
        f'<tspan x="{x}" dy="32">in stock</tspan></text>'
    )


def _waste(count: int) -> str:
    """The edges of the cards under the base: a hint of how many there are."""
    edges = "".join(
        f'<rect class="esc-edge" x="{BASE_X + PILE_STEP * k}" y="{TABLE_Y + PILE_STEP * k}" '
        f'width="{CARD_W}" height="{CARD_H}" rx="8"/>'
        for k in range(_layers(count - 1), 0, -1)
    )
    return f'<g id="esc-waste" aria-hidden="true">{edges}</g>'


def _base_pile(observation: JSON, live: bool) -> list[tuple[int, str]]:
    bases, base = observation["bases"], observation["base"]  # the deal turns the first
    shown = []
    if len(bases) > 1 and bases[-2] != base:  # seen under a card that flies in
        shown.append(_card(bases[-2], BASE_X, TABLE_Y, UNDER_Z, "esc-under", role="img",
                           label=None))
    last = observation.get("last") or {}
    drawn = bool(last.get("draw")) and last.get("card") == base
    turns = live and observation["stock"] > 0  # as in tktk, a click on the base turns a card
    actions = ' data-drop=""' if live else ""  # a dragged card sends its own pick here
    label = f"Base: {card_label(base)}"
    if turns:  # a click, not a stop of the keyboard's cursor: the stock turns a card too,
        # and a card picked becomes the base, so the cursor, left in the pyramid where the
        # card was (input.js), does not turn a card at its next Enter (only a pick undoes)
        actions += _moves({"draw": True})
        label += "; drop a card here, or turn the next card from the stock (D)"
    style = f";--sx:{STOCK_X - BASE_X}px;--sy:0px" if drawn else ""
    css = classes("esc-base", "esc-drawn" if drawn else None)
    flip = f'<g class="esc-flipback">{_BACK}</g>' if drawn else ""
    shown.append(_card(base, BASE_X, TABLE_Y, UNDER_Z + 1, css,
                       role="button" if turns else "img",
                       label=label, actions=actions, style=style, inner=flip))
    return shown


def _lamp(observation: JSON, ctx: RenderContext) -> list[str]:
    """The assist light: does some order of the unseen stock still win from here? (Not
    "still winnable": a player read it as a promise, which the true order may break.)"""
    winnable = (ctx.assist_facts or {}).get("still_winnable")
    if not ctx.assist or winnable is None:
        return []
    words = ("Some order", "still wins") if winnable else ("No order", "wins now")
    said = f"{words[0]} of the stock {words[1]}"  # (the lamp's two lines, in full)
    x, y = BASE_X + CARD_W + 22, TABLE_Y + 50
    return [
        f'<g id="esc-lamp" class="esc-lamp {"on" if winnable else "off"}" role="status" '
        f'aria-label="{said}">'
        f'<circle class="esc-lamp-glow" cx="{x + 14}" cy="{y + 14}" r="22"/>'
        f'<circle class="esc-lamp-bulb" cx="{x + 14}" cy="{y + 14}" r="13"/>'
        f'<text class="esc-lamp-text" x="{x + 40}" y="{y + 4}">{words[0]}'
        f'<tspan x="{x + 40}" dy="30">{words[1]}</tspan></text></g>'
    ]


# -- the end --------------------------------------------------------------------------
# After a loss the cards left stay where they lay, as in Microsoft's Pyramid and PySolFC,
# those covered still covered (laid out whole in rows, a covered card looked playable), and
# the table keeps its size. The verdict stands in the gap between the pyramid's foot and
# the stock's row, clear of both (on a phone's side, where the stock and the base stand
# beside the pyramid, in the felt left of its top): a line of HTML, placed by view.css,
# that wraps where it must. A game is lost only with the stock spent (`logic.status`), so
# no stock is left to show.


def verdict_text(observation: JSON) -> str | None:
    """After a loss: whether any order of play could have won (the end card says it, and
    the felt once the card is put away: view.css)."""
    verdict = observation.get("verdict")
    if verdict is None:
        return None
    return ("This deal could have been won" if verdict["winnable"]
            else "No order of play could have won this deal")


def _end_panel(observation: JSON) -> list[str]:
    text = verdict_text(observation)
    if text is None:
        return []
    css = "esc-verdict " + ("winnable" if observation["verdict"]["winnable"] else "unwinnable")
    return [f'<p id="esc-verdict" class="{css}" role="status">{text}</p>']


# After a win, one plate holds the banner and the stock left, fanned under it: the cascade
# flies behind it, and the pyramid's empty places are not outlined.
BANNER_Y = 150
BANNER_H = 150  # the banner's part of the plate: "Cleared!" and its line
ORDER_H = 165  # the stock's part: its title and the fanned cards
PLATE_PAD = 20


def _stock_order(order: list[str], top: int) -> tuple[str, int]:
    """The cards left in the stock, in the order they would have come, fanned under a
    title from `top`, and the width they take."""
    w, h = round(CARD_W * MINI), round(CARD_H * MINI)
    span = WIDTH - 2 * (MARGIN + PLATE_PAD) - w
    step = min(w + 8, span / max(1, len(order) - 1))
    width = step * (len(order) - 1) + w
    left = (WIDTH - width) / 2
    minis = "".join(
        f'<svg class="esc-mini suit-{card[1]}" x="{left + i * step:.1f}" y="{top + 42}" '
        f'width="{w}" height="{h}" viewBox="0 0 {CARD_W} {CARD_H}" role="img" '
        f'aria-label="{attr(card_label(card))}">{card_face(card)}</svg>'
        for i, card in enumerate(order)
    )
    return (
        f'<g id="esc-order" class="esc-order" role="group" aria-label="The stock, in order">'
        f'<text class="esc-order-title" x="{WIDTH // 2}" y="{top + 26}">'
        f"Still in the stock, in order</text>{minis}</g>"
    ), round(width)


def _celebration(observation: JSON) -> list[str]:
    """The pyramid is cleared: cards leap from where it stood and bounce off the table
    (the solitaire win cascade), behind a plate that stays: the banner, and the stock
    left in order. Reduced motion: the plate only."""
    order = observation.get("stock_order") or []
    left = len(order)
    words = ("with the whole stock spent" if left == 0 else
             f"with {counted(left, 'card')} left in the stock")
    fan, fan_width = _stock_order(order, BANNER_Y + BANNER_H) if order else ("", 0)
    plate_w = max(480, fan_width + 2 * PLATE_PAD)
    plate_h = BANNER_H + (ORDER_H if order else 0)
    return [
        _cascade(observation["bases"]),
        '<g id="esc-banner" class="esc-banner">'
        f'<rect class="esc-banner-plate" x="{(WIDTH - plate_w) // 2}" y="{BANNER_Y}" '
        f'width="{plate_w}" height="{plate_h}" rx="22"/>'
        f'<g role="status" aria-label="Cleared! {words}">'
        f'<text class="esc-banner-title" x="{WIDTH // 2}" y="{BANNER_Y + 86}">Cleared!</text>'
        f'<text class="esc-banner-sub" x="{WIDTH // 2}" y="{BANNER_Y + 126}">{words}</text>'
        f"</g>{fan}</g>",  # (the banner has counted the stock's cards: the fan does not)
    ]


def _cascade(bases: list[str]) -> str:
    """Up to 14 cards, each with three fading copies that trail it, falling from the
    pyramid's slots one after another, bouncing along the foot of the table."""
    seen: list[str] = []
    for card in reversed(bases):
        if card not in seen:
            seen.append(card)
    cards = seen[:14]
    slots = [slot_xy(row, index) for row in range(5) for index in range(row + 1)]
    faces, flights = [], []
    for k, card in enumerate(cards):
        x, y = slots[k % len(slots)]
        direction = -1 if k % 2 else 1
        if x + CARD_W / 2 < WIDTH / 2 - 60:
            direction = -1
        elif x + CARD_W / 2 > WIDTH / 2 + 60:
            direction = 1
        dx = direction * (760 + 53 * (k % 5))
        fall = HEIGHT - CARD_H - y
        duration = 2.3 + 0.1 * (k % 4)
        faces.append(f'<g id="esc-fall-{card}" class="suit-{card[1]}">{card_face(card)}</g>')
        for trail, opacity in enumerate((1, .5, .28, .14)):
            delay = 0.45 + 0.22 * k + 0.045 * trail  # after the last card lands
            flights.append(
                f'<use class="esc-fall{" trail" if trail else ""}" href="#esc-fall-{card}" '
                f'x="{x}" y="{y}" style="--dx:{dx}px;--fall:{fall}px;--o:{opacity};'
                f'--delay:{delay:.3f}s;--t:{duration:.1f}s"/>'
            )
    # the trails first: each card flies over its own trail
    return (
        f'<g id="esc-cascade" class="esc-cascade" aria-hidden="true"><defs>{"".join(faces)}'
        f'</defs>{"".join(reversed(flights))}</g>'
    )


# -- drawing a card -------------------------------------------------------------------
@cache
def card_face(card: str) -> str:
    """The face of a card in a 100 × 140 box: indices in two corners, pips or a court."""
    rank, suit = card[0], card[1]
    corner = _index(rank, suit)
    return (
        f"{_SHADE}"
        f'<rect class="esc-face" x="1" y="1" width="{CARD_W - 2}" height="{CARD_H - 2}" rx="8"/>'
        f'<g class="esc-ink">{corner}<g transform="rotate(180 50 70)">{corner}</g>'
        f"{_centre(rank, suit)}</g>"
    )


def _index(rank: str, suit: str) -> str:
    # the rank's text is drawn from the defs (`_RANKS`): a card's visible text is then
    # none, not "4 4", which a card's name ("4 of clubs") would have to contain (WCAG
    # 2.5.3, as axe-core checks it)
    return (
        f'<use href="#esc-rank-{rank}"/>'
        f'<use href="#esc-suit-{suit}" x="4" y="39" width="22" height="22"/>'
    )


def _rank_text(rank: str) -> str:
    text = "10" if rank == "T" else rank
    # "10" squeezed to a single rank's width, clear of the top-left pip (at x 28.5 on)
    squeeze = ' textLength="23" lengthAdjust="spacingAndGlyphs"' if rank == "T" else ""
    return f'<text class="esc-rank" x="15" y="34"{squeeze}>{text}</text>'


def _pip(suit: str, x: float, y: float, size: float, flip: bool = False) -> str:
    turn = f' transform="rotate(180 {x:g} {y:g})"' if flip else ""
    return (
        f'<use href="#esc-suit-{suit}" x="{x - size / 2:g}" y="{y - size / 2:g}" '
        f'width="{size:g}" height="{size:g}"{turn}/>'
    )


def _centre(rank: str, suit: str) -> str:
    if rank == "A":
        size = 56 if suit == "s" else 46
        ring = ('<circle class="esc-ace-ring" cx="50" cy="70" r="34"/>' if suit == "s" else "")
        return ring + _pip(suit, 50, 70, size)
    if rank in "JQK":
        return _court(rank, suit)
    span = PIP_BOTTOM - PIP_TOP
    return "".join(
        _pip(suit, x, PIP_TOP + row * span, PIP_SIZE, flip=row > .5)
        for x, row in PIPS[rank]
    )


def _court(rank: str, suit: str) -> str:
    """A framed panel, double-ended as court cards are: an emblem, the letter, a pip."""
    half = (
        f'<g class="esc-emblem" transform="translate(50 34)">{EMBLEMS[rank]}</g>'
        f'<use href="#esc-letter-{rank}"/>'  # from the defs, as a rank is (`_index`)
        + _pip(suit, 38, 52, 10) + _pip(suit, 62, 52, 10)
    )
    return (
        '<rect class="esc-panel" x="29" y="15" width="42" height="110" rx="4"/>'
        '<rect class="esc-panel-line" x="32" y="18" width="36" height="104" rx="2.5"/>'
        f'{half}<g transform="rotate(180 50 70)">{half}</g>'
        '<line class="esc-panel-line" x1="34" y1="70" x2="66" y2="70"/>'
    )


def _patterns() -> str:
    red = (
        '<pattern id="esc-pat-red" width="9" height="9" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><rect width="9" height="9" fill="#a3192b"/>'
        '<path d="M0 0H9M0 0V9" stroke="#f4c9cf" stroke-width="1.1" opacity=".75"/></pattern>'
    )
    blue = (
        '<pattern id="esc-pat-blue" width="14" height="14" patternUnits="userSpaceOnUse">'
        '<rect width="14" height="14" fill="#1d4c8f"/>'
        '<path d="M7 1.5L12.5 7L7 12.5L1.5 7Z" fill="none" stroke="#9cc0f0" stroke-width="1"/>'
        '<circle cx="7" cy="7" r="1.6" fill="#d6e6fb"/><circle cx="0" cy="0" r="1.2" '
        'fill="#9cc0f0"/><circle cx="14" cy="0" r="1.2" fill="#9cc0f0"/>'
        '<circle cx="0" cy="14" r="1.2" fill="#9cc0f0"/><circle cx="14" cy="14" r="1.2" '
        'fill="#9cc0f0"/></pattern>'
    )
    green = (
        '<pattern id="esc-pat-green" width="14" height="12" patternUnits="userSpaceOnUse">'
        '<rect width="14" height="12" fill="#1c6a46"/>'
        '<path d="M0 12A7 7 0 0 1 14 12M-7 6A7 7 0 0 1 7 6A7 7 0 0 1 21 6" fill="none" '
        'stroke="#a5dcbc" stroke-width="1.1" opacity=".8"/></pattern>'
    )
    return red + blue + green


def _back(colour: str) -> str:
    medallion = (
        '<ellipse cx="50" cy="70" rx="22" ry="30" class="esc-medal"/>'
        '<ellipse cx="50" cy="70" rx="16" ry="23" class="esc-medal-line"/>'
    )
    return (
        f'<g id="esc-back-{colour}" class="esc-back-art">'
        f'<rect class="esc-back-face" x="1" y="1" width="98" height="138" rx="8"/>'
        f'<rect x="7" y="7" width="86" height="126" rx="5" fill="url(#esc-pat-{colour})"/>'
        f'<rect class="esc-back-frame" x="10" y="10" width="80" height="120" rx="3"/>'
        f"{medallion}</g>"
    )


_DEFS = (
    '<defs id="esc-defs">'
    + "".join(
        f'<symbol id="esc-suit-{suit}" viewBox="0 0 100 100">{shape}</symbol>'
        for suit, shape in SUIT_SHAPES.items()
    )
    + "".join(f'<g id="esc-rank-{rank}">{_rank_text(rank)}</g>' for rank in "A23456789TJQK")
    + "".join(f'<g id="esc-letter-{rank}"><text class="esc-court-letter" x="50" y="66">'
              f"{rank}</text></g>" for rank in "JQK")
    + _patterns()
    + "".join(_back(colour) for colour in BACKS)
    + '<radialGradient id="esc-sheen" cx="50%" cy="50%" r="52%">'
    '<stop offset="0" class="esc-sheen-in"/><stop offset="1" class="esc-sheen-out"/>'
    "</radialGradient></defs>"
)
# A card's shadow: two translucent rounded rectangles under it, a little lower, which
# darken where they overlap. An SVG drop shadow filter (a blur) made the page's raster
# threads redraw every card it touched: 21.5 ms of their CPU a move, 8.7 without.
_SHADE = (
    f'<rect class="esc-shade" x="0" y="2" width="{CARD_W}" height="{CARD_H}" rx="9"/>'
    f'<rect class="esc-shade" x="1" y="3" width="{CARD_W - 2}" height="{CARD_H - 2}" rx="8"/>'
)

_RING = (  # outside the card: the keyboard cursor, a hint, a drop target
    f'<rect class="esc-ring" x="-5" y="-5" width="{CARD_W + 10}" height="{CARD_H + 10}" rx="12"/>'
)
# Over all that is drawn on a card, the shape the pointer meets: the cursor is set on it
# alone. A cursor is inherited, so one set on the card and changed when the card is
# uncovered restyled every shape drawn in it (~45 elements with their <use> copies).
_HIT = f'<rect class="esc-hit" width="{CARD_W}" height="{CARD_H}" rx="8"/>'
_BACK = "".join(
    f'<use class="esc-back b-{colour}" href="#esc-back-{colour}"/>' for colour in BACKS
)


def _thumb_card(x: int, y: int, rank: str, suit: str, colour: str, turn: int) -> str:
    shape = SUIT_SHAPES[suit]
    return (
        f'<g transform="translate({x} {y}) rotate({turn} 17 24)">'
        '<rect x="0" y="0" width="34" height="48" rx="4" fill="#fffdf8" stroke="#6b6b6b" '
        f'stroke-width="1"/><text x="8" y="14" font-size="12" font-weight="700" '
        f'font-family="sans-serif" text-anchor="middle" fill="{colour}">{rank}</text>'
        f'<g fill="{colour}" transform="translate(11 23) scale(.2)">{shape}</g></g>'
    )


THUMBNAIL = (
    '<svg viewBox="0 0 120 120" aria-hidden="true">'
    '<rect x="2" y="2" width="116" height="116" rx="14" fill="#2f6e4f"/>'
    + _thumb_card(43, 10, "K", "s", "#1a1a1a", 0)
    + _thumb_card(25, 34, "Q", "h", "#c0182b", 0)
    + _thumb_card(61, 34, "7", "c", "#1a1a1a", 0)
    + _thumb_card(7, 58, "A", "d", "#c0182b", 0)
    + _thumb_card(43, 58, "9", "h", "#c0182b", 0)
    + _thumb_card(79, 58, "2", "s", "#1a1a1a", 0)
    + "</svg>"
)
