"""A time played as players read it: a clock of whole seconds (1:05), or, in a game whose
players compare times finely (its "time" `StatFigure.places`), with the fraction of a
second (4.32, 1:04.32), as minesweeper.online and speedrunners write them."""

from __future__ import annotations

MOST_PLACES = 3  # the clock keeps milliseconds


def units(ms: float, places: int) -> int:
    """`ms` in whole units of `places` places after the seconds (hundredths for 2), cut
    as the running clock cuts its seconds: 4.329 s is 432 hundredths, not 433, which the
    clock had not reached. (From milliseconds in integers: 4.29 * 100 is 428.999...)"""
    if not 0 <= places <= MOST_PLACES:
        raise ValueError(f"a time has 0 to {MOST_PLACES} places, not {places}")
    return round(ms) // int(10 ** (MOST_PLACES - places))


def written(ms: float, places: int = 0) -> str:
    """`ms` milliseconds as a clock, to `places` after the seconds: 0:04 and 1:04 with
    none; with some, 4.32 under a minute (its seconds alone, as a speedrun's time is read)
    and 1:04.32 above."""
    whole, fraction = divmod(units(ms, places), 10 ** places)
    hours, minutes, seconds = whole // 3600, whole // 60 % 60, whole % 60
    tail = f".{fraction:0{places}}" if places else ""
    if hours:
        return f"{hours}:{minutes:02}:{seconds:02}{tail}"
    if minutes or not places:
        return f"{minutes}:{seconds:02}{tail}"
    return f"{seconds}{tail}"


def seconds(ms: float, places: int) -> str:
    """`ms` as a plain number of seconds for a spreadsheet, cut to `places` (4.32)."""
    whole, fraction = divmod(units(ms, places), 10 ** places)
    return f"{whole}.{fraction:0{places}}" if places else str(whole)
