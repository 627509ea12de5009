"""Escalator's view: actions declared where the rules allow them, and nowhere else."""

from __future__ import annotations

import json
import re
from collections.abc import Collection
from html.parser import HTMLParser
from typing import Any

import pytest

from parlour.core.game import JSON, RenderContext
from parlour.games.escalator.view import THUMBNAIL, render
from parlour.games.escalator.view import card_label as card_name
from parlour.server.patch import changed_parts, part_key

RANKS = "A23456789TJQK"
# 28 distinct cards, row by row: row 0 is "Ks", row 3 is "7c 8c 9c Tc"...
PYRAMID_CARDS = ["Ks", "Qs", "Js", "Ts", "9s", "8s", "7c", "8c", "9c", "Tc",
                 "2h", "3h", "4h", "5h", "6h", "2d", "3d", "4d", "5d", "6d", "7d",
                 "8d", "9d", "Td", "Jd", "Qd", "Kd", "Ac"]
LIVE = RenderContext(seat=0, can_move=True)
WATCHING = RenderContext(seat=None, can_move=False)


def observation(removed: Collection[tuple[int, int]] = (), base: str = "6s",
                **changes: Any) -> JSON:
    """A position made by hand: the pyramid above without `removed`, on `base`."""
    pyramid = _pyramid_without(removed)
    free = [[r, i] for r in range(7) for i in range(r + 1)
            if pyramid[r][i] is not None
            and (r == 6 or (pyramid[r + 1][i] is None and pyramid[r + 1][i + 1] is None))]
    playable = [[r, i] for r, i in free if _adjacent(str(pyramid[r][i]), base)]
    obs: JSON = {
        "pyramid": pyramid, "free": free, "playable": playable, "base": base,
        "bases": ["4c", base] if base != "4c" else [base], "stock": 17, "status": "playing",
        "last": None, "verdict": None, "stock_order": None,
    }
    obs.update(changes)
    return obs


def _pyramid_without(removed: Collection[tuple[int, int]]) -> list[list[str | None]]:
    cards = iter(PYRAMID_CARDS)
    rows: list[list[str | None]] = []
    for r in range(7):
        row: list[str | None] = []
        for i in range(r + 1):
            card = next(cards)
            row.append(None if (r, i) in removed else card)
        rows.append(row)
    return rows


def _adjacent(card: str, base: str) -> bool:
    return (RANKS.index(card[0]) - RANKS.index(base[0])) % 13 in (1, 12)


class Elements(HTMLParser):
    """Every element with its attributes; fails on tags that do not nest."""

    VOID = frozenset({"br", "img", "input", "meta", "link", "hr"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, dict[str, str | None]]] = []
        self.open: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.append((tag, dict(attrs)))
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.append((tag, dict(attrs)))

    def handle_endtag(self, tag: str) -> None:
        assert self.open and self.open[-1] == tag, f"</{tag}> closes {self.open[-1:]}"
        self.open.pop()

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parse(markup: str) -> Elements:
    parser = Elements()
    parser.feed(markup)
    parser.close()
    assert parser.open == [], f"unclosed: {parser.open}"
    return parser


def by_id(markup: str) -> dict[str, dict[str, str | None]]:
    return {str(attrs["id"]): attrs for _, attrs in parse(markup).found if attrs.get("id")}


def card(markup: str, code: str) -> dict[str, str | None]:
    return by_id(markup)[f"esc-card-{code}"]


def moves_in(markup: str) -> list[JSON]:
    return [json.loads(attrs["data-move"] or "") for _, attrs in parse(markup).found
            if attrs.get("data-move")]


ACTIONS = ("data-move", "data-alt-move", "data-drag", "data-drop", "data-key", "data-nav")


# -- actions --------------------------------------------------------------------------
def test_only_the_bottom_row_is_free_at_the_start_and_the_playable_cards_carry_picks() -> None:
    markup = render(observation(base="6s"), LIVE)  # row 6: 8d 9d Td Jd Qd Kd Ac
    # nothing of row 6 is one from a six; the 7s below row 6 are covered
    assert all("pick" not in m or m["pick"][0] == 6 for m in moves_in(markup))
    seven = card(markup, "7c")  # row 3, covered
    assert not any(name in seven for name in ACTIONS)
    assert seven["aria-label"] == "7 of clubs, row 4, covered"


def test_a_playable_card_is_picked_by_click_drag_and_keys() -> None:
    markup = render(observation(base="9h"), LIVE)  # 8d and Td in row 6 are one from a nine
    for code, index in (("8d", 0), ("Td", 2)):
        attrs = card(markup, code)
        assert json.loads(attrs["data-move"] or "") == {"pick": [6, index]}
        assert "data-drag" in attrs and "data-nav" in attrs and attrs["tabindex"] == "-1"
        assert "playable" in (attrs["class"] or "")
        assert attrs["aria-label"] == f"{card_name(code)}, row 7"
    assert card(markup, "8d")["aria-label"] == "8 of diamonds, row 7"


def test_a_free_card_that_cannot_be_picked_still_sends_its_pick_so_the_bell_rings() -> None:
    markup = render(observation(base="9h"), LIVE)
    attrs = card(markup, "Qd")
    assert json.loads(attrs["data-move"] or "") == {"pick": [6, 4]}
    assert "data-drag" not in attrs and "data-nav" in attrs
    assert "free" in (attrs["class"] or "").split() and "playable" not in (attrs["class"] or "")
    assert "cannot be picked now" in (attrs["aria-label"] or "")


def test_a_card_is_free_once_both_cards_over_it_are_gone() -> None:
    markup = render(observation({(6, 0), (6, 1)}, base="9h"), LIVE)
    attrs = card(markup, "2d")  # row 5, index 0: its covers were 8d and 9d
    assert json.loads(attrs["data-move"] or "") == {"pick": [5, 0]}
    assert "esc-card-8d" not in markup and "esc-card-9d" not in markup


def test_the_stock_turns_a_card_by_click_or_the_d_key() -> None:
    stock = by_id(render(observation(), LIVE))["esc-stock"]
    assert json.loads(stock["data-move"] or "") == {"draw": True}
    assert stock["data-key"] == "d Space" and "data-nav" in stock
    assert stock["aria-label"] == "Stock: 17 cards, turn one (D)"


def test_an_empty_stock_is_an_outline_without_a_move() -> None:
    markup = render(observation(stock=0), LIVE)
    stock = by_id(markup)["esc-stock"]
    assert stock["aria-label"] == "Stock: empty"
    assert not any(name in stock for name in ACTIONS)
    assert {"draw": True} not in moves_in(markup)


def test_the_base_takes_a_dropped_card_and_as_in_tktk_a_click_turns_the_stock() -> None:
    base = card(render(observation(base="9h"), LIVE), "9h")
    assert base["data-drop"] == ""  # "the dragged card's own move"
    assert json.loads(base["data-move"] or "") == {"draw": True}
    assert "esc-base" in (base["class"] or "")
    assert "data-nav" not in base  # the keyboard's cursor turns cards at the stock
    spent = card(render(observation(base="9h", stock=0), LIVE), "9h")
    assert "data-move" not in spent and "data-drop" in spent


@pytest.mark.parametrize("status", ["won", "lost"])
def test_nothing_has_actions_when_the_game_is_over(status: str) -> None:
    removed = ({(r, i) for r in range(7) for i in range(r + 1)} if status == "won"
               else {(6, 0)})
    obs = observation(removed, base="9h", status=status, stock=0,
                      verdict={"winnable": False, "line": []}, stock_order=[])
    markup = render(obs, LIVE)
    for _, attrs in parse(markup).found:
        assert not any(name in attrs for name in ACTIONS), attrs
    assert by_id(markup)["esc-table"]["aria-disabled"] == "true"


def test_nothing_has_actions_for_a_viewer_who_cannot_move() -> None:
    markup = render(observation(base="9h"), WATCHING)
    for _, attrs in parse(markup).found:
        assert not any(name in attrs for name in ACTIONS), attrs
    assert by_id(markup)["esc-table"]["aria-disabled"] == "true"
    assert "playable" not in markup
    assert card(markup, "8d")["aria-label"] == "8 of diamonds, row 7"
    assert by_id(render(observation(base="9h"), LIVE))["esc-table"]["aria-disabled"] == "false"


# -- markup ---------------------------------------------------------------------------
def test_ids_are_unique_and_the_markup_nests() -> None:
    for obs in (observation(base="9h"), observation({(6, 0)}, status="lost", stock=0,
                                                    verdict={"winnable": True, "line": []},
                                                    stock_order=["5h"])):
        ids = [attrs["id"] for _, attrs in parse(render(obs, LIVE)).found if attrs.get("id")]
        assert len(ids) == len(set(ids))


def test_every_card_pile_and_panel_is_a_line_of_its_own_with_an_id() -> None:
    obs = observation(base="9h")
    markup = render(obs, RenderContext(seat=0, can_move=True, assist=True,
                                       assist_facts={"still_winnable": True}))
    parts = [line for line in markup.split("\n") if part_key(line)]
    ids = {part_key(line)[1] for line in parts}  # type: ignore[index]
    assert {"esc-stock", "esc-count", "esc-waste", "esc-lamp", "esc-card-9h"} <= ids
    assert sum(id_.startswith("esc-card-") for id_ in ids) == 28 + 1 + 1  # pyramid, base, under


def test_a_hint_changes_only_its_card() -> None:
    plain = render(observation(base="9h"), LIVE)
    hinted = render(observation(base="9h"), RenderContext(seat=0, can_move=True,
                                                          hint={"pick": [6, 2]}))
    parts = changed_parts(plain, hinted)
    assert parts is not None and len(parts) == 1 and 'id="esc-card-Td"' in parts[0]
    assert "hint" in (card(hinted, "Td")["class"] or "").split()


def test_a_draw_hint_highlights_the_stock() -> None:
    markup = render(observation(), RenderContext(seat=0, can_move=True, hint={"draw": True}))
    assert "hint" in (by_id(markup)["esc-stock"]["class"] or "").split()
    assert "hint" not in " ".join(
        attrs.get("class") or "" for _, attrs in parse(markup).found
        if (attrs.get("id") or "").startswith("esc-card-")
    )


def stacking(attrs: dict[str, str | None]) -> int:
    match = re.search(r"--z:(\d+)", attrs["style"] or "")
    assert match, attrs
    return int(match.group(1))


def test_a_picked_card_keeps_its_element_and_its_place_and_lands_on_top_of_the_base() -> None:
    before = render(observation(base="9h"), LIVE)
    after = render(observation({(6, 0)}, base="8d", bases=["4c", "9h", "8d"],
                               last={"pick": [6, 0], "card": "8d"}), LIVE)
    order = re.findall(r'id="(esc-card-\w\w)"', after)
    assert order == [name for name in re.findall(r'id="(esc-card-\w\w)"', before)
                     if name in order]  # no card moves among the elements: the morph moves none
    moved, was = card(after, "8d"), card(before, "8d")
    assert moved["style"] != was["style"]  # a new place: the CSS transition flies it there
    assert "esc-base" in (moved["class"] or "") and "esc-drawn" not in (moved["class"] or "")
    under = card(after, "9h")
    assert "esc-under" in (under["class"] or "")
    pyramid = [card(after, code) for code in PYRAMID_CARDS if code != "8d"]
    assert stacking(moved) > stacking(under) > max(map(stacking, pyramid))


def test_each_row_of_the_pyramid_lies_over_the_row_above() -> None:
    markup = render(observation(), LIVE)
    rows = [[stacking(card(markup, code)) for code in PYRAMID_CARDS[r * (r + 1) // 2:][:r + 1]]
            for r in range(7)]
    assert all(len(set(row)) == 1 for row in rows)
    assert [row[0] for row in rows] == sorted({row[0] for row in rows})


def test_a_card_turned_from_the_stock_flips_over() -> None:
    markup = render(observation(base="Qs", bases=["4c", "Qs"],
                                last={"draw": True, "card": "Qs"}), LIVE)
    base = card(markup, "Qs")
    assert "esc-drawn" in (base["class"] or "") and "--sx:" in (base["style"] or "")
    assert "esc-flipback" in markup


def test_every_deck_colour_and_card_back_is_in_the_markup_for_css_to_choose() -> None:
    markup = render(observation(), LIVE)
    for back in ("red", "blue", "green"):
        assert f'id="esc-back-{back}"' in markup and f"b-{back}" in markup
    for suit in "cdhs":
        assert f'id="esc-suit-{suit}"' in markup


def test_cards_are_drawn_with_corner_indices_pips_and_courts() -> None:
    markup = render(observation(base="9h"), LIVE)
    texts = "".join(parse(markup).text)
    assert "10" in texts and "K" in texts and "A" in texts
    assert "esc-panel" in markup and "esc-emblem" in markup  # the court cards
    assert "<image" not in markup


# -- the end --------------------------------------------------------------------------
def test_after_a_loss_the_verdict_is_shown() -> None:
    obs = observation({(6, 0)}, base="9h", status="lost", stock=0,
                      verdict={"winnable": True, "line": [{"draw": True}]}, stock_order=[])
    text = "".join(parse(render(obs, LIVE)).text)
    assert "This deal could have been won" in text

    obs["verdict"] = {"winnable": False, "line": []}
    markup = render(obs, LIVE)
    assert "No order of play could have won this deal" in markup and "esc-order" not in markup


def place(attrs: dict[str, str | None]) -> tuple[float, float, int]:
    """A card's place on the table: its --x, --y and --z."""
    found = dict(re.findall(r"--(x|y|z):([\d.]+)", attrs["style"] or ""))
    return float(found["x"]), float(found["y"]), int(found["z"])


def test_a_lost_games_cards_stay_where_they_lay_the_covered_ones_still_covered() -> None:
    """As in Microsoft's Pyramid and PySolFC: laid out whole in rows instead, a card that
    was covered (the Q♦ of deal p9z9p00sjh, one rank from the J♣ base) looked playable."""
    removed = {(6, 0), (6, 1)}
    playing = render(observation(removed, base="6s", stock=1), WATCHING)
    lost = observation(removed, base="6s", status="lost", stock=0,
                       verdict={"winnable": True, "line": []}, stock_order=[])
    ended = render(lost, LIVE)
    left = [code for row in lost["pyramid"] for code in row if code]
    for code in left:
        assert place(card(ended, code)) == place(card(playing, code)), code
        assert card(ended, code)["class"] == card(playing, code)["class"], code
        assert card(ended, code)["aria-label"] == card(playing, code)["aria-label"], code
    covered = card(ended, "5d")  # one rank from the base, under the Jd and Qd of row 7
    assert "covered" in (covered["class"] or "").split()
    assert covered["aria-label"] == "5 of diamonds, row 6, covered"
    assert "playable" not in ended and "data-move" not in ended
    assert 'class="esc-slot"' in ended  # the empty places outlined, as during play


def test_a_lost_game_keeps_the_tables_size_with_the_verdict_between_pyramid_and_stock() -> None:
    """The verdict's line is HTML over the table (view.css places it in the gap between
    the pyramid's foot and the stock's row, over no card, or on a phone's side beside the
    pyramid's top, where it wraps): the table neither grows nor shrinks its cards as the
    game ends."""
    playing = by_id(render(observation(), LIVE))
    lost = observation(base="9h", status="lost", stock=0,
                       verdict={"winnable": True, "line": []}, stock_order=[])
    markup = render(lost, LIVE)
    ended = by_id(markup)
    for part in ("esc-board", "esc-over"):
        assert ended[part]["viewbox"] == playing[part]["viewbox"]
    assert ended["esc-table"]["style"] == playing["esc-table"]["style"]
    piles_at = markup.index('id="esc-piles"')
    piles = markup[piles_at:markup.index("</svg>", piles_at)]
    assert "esc-verdict" not in piles
    assert '<p id="esc-verdict" class="esc-verdict winnable" role="status">' in markup


def test_a_cleared_pyramid_celebrates_and_shows_what_was_left_in_the_stock() -> None:
    everything = {(r, i) for r in range(7) for i in range(r + 1)}
    obs = observation(everything, base="Ac", bases=["4c", *PYRAMID_CARDS], status="won",
                      stock=2, verdict={"winnable": True, "line": []},
                      stock_order=["5h", "Kc"])
    markup = render(obs, LIVE)
    ids = by_id(markup)
    assert {"esc-cascade", "esc-banner", "esc-order"} <= set(ids)
    assert "Cleared!" in markup and "with 2 cards left in the stock" in markup
    # counted once, in the banner: the fanned cards are not counted again
    assert "cards left in the stock, in order" not in markup
    assert "Still in the stock, in order" in markup
    assert "could have been won" not in markup  # it was
    assert "esc-card-" not in "".join(  # the cascade's cards are copies without ids of cards
        line for line in markup.split("\n") if "esc-cascade" in line)
    assert markup.count('class="esc-fall"') == 14  # and three trailing copies of each


@pytest.mark.parametrize("left", [0, 1, 5, 23])
def test_a_cleared_table_has_no_empty_places_and_one_plate_over_the_cascade(left: int) -> None:
    """The banner and the stock left, fanned, lie on one plate drawn over the cascade,
    within the table; the pyramid's empty places are not outlined (they cluttered it)."""
    from parlour.games.escalator.view import WIDTH

    everything = {(r, i) for r in range(7) for i in range(r + 1)}
    stock = [f"{RANKS[k % 13]}{'hdcs'[k // 13]}" for k in range(left)]
    obs = observation(everything, base="Ac", bases=["4c", *PYRAMID_CARDS], status="won",
                      stock=left, verdict={"winnable": True, "line": []}, stock_order=stock)
    markup = render(obs, LIVE)
    assert 'class="esc-slot"' not in markup  # (the stock's and the base's places stay)
    assert 'class="esc-slot"' in render(observation(), LIVE)
    assert markup.index('id="esc-cascade"') < markup.index('id="esc-banner"')
    found = parse(markup).found
    plate = next(attrs for _, attrs in found if attrs.get("class") == "esc-banner-plate")
    x, y, w, h = (float(str(plate[k])) for k in ("x", "y", "width", "height"))
    assert x >= 0 and x + w <= WIDTH
    minis = [attrs for _, attrs in found if "esc-mini" in (attrs.get("class") or "")]
    assert len(minis) == left
    for mini in minis:
        mx, my, mw, mh = (float(str(mini[k])) for k in ("x", "y", "width", "height"))
        assert x < mx and mx + mw < x + w and y < my and my + mh < y + h
    texts = [attrs for _, attrs in found if (attrs.get("class") or "").startswith(
        ("esc-banner-title", "esc-banner-sub", "esc-order-title"))]
    assert len(texts) == 2 + bool(left)
    assert all(y < float(str(text["y"])) < y + h for text in texts)


def test_no_celebration_before_the_end() -> None:
    markup = render(observation(), LIVE)
    assert "esc-cascade" not in markup and "esc-verdict" not in markup


# -- the assist light --------------------------------------------------------------------
@pytest.mark.parametrize(("winnable", "words"), [(True, "Some order of the stock still wins"),
                                                  (False, "No order of the stock wins now")])
def test_the_assist_light_says_whether_the_deal_is_still_winnable(winnable: bool,
                                                                 words: str) -> None:
    obs, facts = observation(), {"still_winnable": winnable}
    assert "esc-lamp" not in render(obs, LIVE)
    assert "esc-lamp" not in render(obs, RenderContext(0, True, assist_facts=facts))  # off
    assert "esc-lamp" not in render(obs, RenderContext(0, True, assist=True))  # not known yet
    lamp = by_id(render(obs, RenderContext(seat=0, can_move=True, assist=True,
                                           assist_facts=facts)))["esc-lamp"]
    assert lamp["aria-label"] == words and ("on" if winnable else "off") in (lamp["class"] or "")


def test_the_thumbnail_is_a_picture_of_its_own() -> None:
    assert "href" not in THUMBNAIL and parse(THUMBNAIL).found[0][0] == "svg"
