"""A finished game beside the records of its group, for its end card: "Best time so far
1:02", or this game's if it set a new one ("Your new record: best time!").

The records are the statistics page's (`numbers.record`: the best over the group's games
played without help, of its latest `RESULTS_PER_GROUP`), taken before this game: a game
with help sets none, and a group's first win without help to have a figure sets its first
record (the first win on a board is its best time so far: the statistics page says so at
once, and so does its card, on every screen).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from parlour.core.game import BestPossible, GameSpec, StatFigure
from parlour.core.gameid import FILED_APART
from parlour.core.times import units
from parlour.stats.numbers import counted, record
from parlour.stats.statistics import RESULTS_PER_GROUP
from parlour.stats.wording import fraction, writer
from parlour.store import Result, ResultReads


def end_records(spec: GameSpec, this: Result, group: Sequence[Result]) -> list[dict[str, Any]]:
    """For each record figure of the game (`StatFigure.show` "lowest" or "highest") that
    this game has: the group's record before it, or this game's value if it set a new
    one (`new`), with its caption and as the card writes it (`shown`). `group`: the
    results of this game's group, this one among them or not (those finished after it
    are left out: a game opened again later is measured as it was when it ended)."""
    if this.preset in FILED_APART:
        return []  # a position given or a game imported sets no records
    before = [r for r in group if r.finished <= this.finished
              and (r.sid, r.round, r.seat) != (this.sid, this.round, this.seat)]
    shown = []
    for figure in spec.stat_figures:
        value = _value(figure, this)
        if figure.show not in ("lowest", "highest") or value is None:
            continue
        best = record(figure, before)
        if best is None and (this.outcome != "won" or record(figure, [this]) is None):
            continue  # no record yet: the first is set by a win without help (`record`
            # counts none with help; a first game lost in third place is no "new record"
            # of the most cells), with some of the thing (no 4-way is no most 4-ways)
        new = not this.assisted and (best is None or _better(figure, value, best))
        kept = value if new or best is None else best
        # "so far": beside this game's own figures ("Your cells 16"), a record kept from
        # earlier games ("Most cells 69") read as this game's best score
        caption = figure.best_caption if new else f"{figure.best_caption} so far"
        shown.append({"name": figure.name, "caption": caption, "value": kept,
                      "shown": _shown(figure, kept), "new": new})
    return shown


def _shown(figure: StatFigure, value: float) -> str:
    """As the end card shows it: a time as 1:02 (or to its places: 4.32), a count as it
    is, a fraction to two places (efficiency 1.00), as the statistics page writes them."""
    if figure.unit == "seconds" or figure.fraction:
        return writer(figure)(value)
    return str(int(value)) if float(value).is_integer() else fraction(value)


def _value(figure: StatFigure, result: Result) -> float | None:
    """The figure of `result`, if the figure counts it (a time counts only games won)."""
    found = counted(figure, [result])
    return found[0][1] if found else None


def _better(figure: StatFigure, value: float, best: float) -> bool:
    """Whether `value` beats `best` by as much as the card shows: a time by a whole
    second, or by a hundredth where it is written so (0:41 against 0:41, or 4.32 against
    4.32, is no new record, whatever the milliseconds say)."""
    if figure.unit == "seconds":
        value, best = units(value * 1000, figure.places), units(best * 1000, figure.places)
    return value < best if figure.show == "lowest" else value > best


def best_possible_record(possible: BestPossible) -> dict[str, Any]:
    """The best possible from a game's start (`GameSpec.best_possible`), as the end card
    shows it after the records: never new, and `met` when the game scored it."""
    return {"name": "best_possible", "caption": possible.caption, "value": possible.value,
            "shown": str(possible.value), "new": False, "met": possible.met}


def store_end_records(store: ResultReads, spec: GameSpec, sid: str, seat: int | None
                      ) -> list[dict[str, Any]]:
    """`end_records` of the last result filed for game `sid` (at `seat`, else its first
    seat's), read from `store`: its group's latest results only, those finished after it
    left out. [] if it has none. Blocking: run it in a thread."""
    found = store.result_and_group(sid, seat, RESULTS_PER_GROUP)
    return [] if found is None else end_records(spec, *found)
