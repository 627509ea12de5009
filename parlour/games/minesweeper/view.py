"""Minesweeper as HTML: a toolbar (new games, mines left, seconds, face) and the grid."""

from __future__ import annotations

from functools import cache, lru_cache

from parlour.core.game import JSON, RenderContext
from parlour.core.markup import attr, classes, grid_rows, lines, move_attr
from parlour.games.minesweeper.logic import PRESETS, RULE_WORDS, Minesweeper

FLAGS_ONLY = "flags-only"  # the Marks display option's choice with no question marks
WITH_QUESTION_MARKS = "with-question-marks"  # the seed's cycle: flag, ?, nothing
MARKS = (FLAGS_ONLY, WITH_QUESTION_MARKS)  # the first is the default, as in modern games
SEED_PRESETS = (("easy", "1"), ("medium", "2"), ("hard", "3"))
LABELS_OF_PRESETS = {name: Minesweeper().preset_label(name) for name in PRESETS}
FACES = {"won": "😎", "lost": "😵"}
LABELS = {"#": "closed", "F": "flagged", "?": "question mark", ".": "empty",
          "*": "mine", "X": "exploded mine", "!": "wrong flag"}


def render(observation: JSON, ctx: RenderContext) -> str:
    """One line per cell, so that a move sends the browser only the cells it changed."""
    rows, cols, status = observation["rows"], observation["cols"], observation["status"]
    playing = status == "playing" and ctx.can_move
    hint = _hint_cell(ctx.hint)
    start = _start_cell(observation["cells"]) if playing else None
    cells = (
        _cell(row, col, symbol, hint == (row, col), start == (row, col))
        for row, line in enumerate(observation["cells"])
        for col, symbol in enumerate(line)
    )
    return lines([
        f'<div class="ms{" wide" if cols > rows else ""}" id="ms" '
        f'style="--rows:{rows};--cols:{cols}">',
        _toolbar(observation, playing),
        # the grid pans in a box of its own where it does not fit (view.css), not the page
        '<div class="ms-scroll board-scroll" id="ms-scroll">',
        f'<div class="ms-grid board-rows{" sideways-on-phone" if cols > rows else ""} {status}" '
        f'id="ms-grid" role="grid" '
        f'aria-label="{rows} by {cols} minefield" aria-disabled="{str(not playing).lower()}">',
        *grid_rows(cells, cols, boxed=True),
        "</div></div></div>",
    ])


def _start_cell(cells: list[str]) -> tuple[int, int] | None:
    """Where the keyboard's cursor comes onto the board (data-start): the closed cell
    nearest the middle, where a first click opens most and, later, the edge of what is
    open (from the top left corner, the first arrow took a new game's cursor)."""
    middle_row, middle_col = (len(cells) - 1) / 2, (len(cells[0]) - 1) / 2
    closed = ((row, col) for row, line in enumerate(cells)
              for col, symbol in enumerate(line) if symbol in "#?")
    return min(closed, key=lambda at: (abs(at[0] - middle_row) + abs(at[1] - middle_col), at),
               default=None)


def _hint_cell(hint: JSON | None) -> tuple[int, int] | None:
    if not hint:
        return None
    target = hint.get("open") or hint.get("chord") or hint.get("mark") or hint.get("unmark")
    return (target[0], target[1]) if target else None


def _toolbar(observation: JSON, playing: bool) -> str:
    """The seed's toolbar: its three boards (keys 1, 2, 3) and one more button for the
    others (the New game dialog: the classic boards, any size), which names the board
    being played when it is one of those; then the counters, the face and flag mode
    (disabled while no move can be made: a finished game, or a game watched)."""
    status = observation["status"]
    current = observation["preset"]
    # a board button keeps the first-click rule of the game on (G's no guess, say)
    rule = RULE_WORDS[observation["first_click"]]
    buttons = "".join(
        _preset_button(f"ms-new-{name}", f'data-preset="{name}"', LABELS_OF_PRESETS[name],
                       f"New {LABELS_OF_PRESETS[name]} game, {_size(name)}"
                       f"{f', {rule}' if rule else ''} (key {key})",
                       name == current)
        for name, key in SEED_PRESETS
    )
    other = current not in dict(SEED_PRESETS)
    buttons += _preset_button(
        "ms-new-other", 'data-command="new"',
        _board_label(observation) if other else "More…",
        "Other boards: Beginner, Intermediate, Expert or your own size (New game)", other,
    )
    face = FACES.get(status, "")
    face_html = (
        f'<span class="face-end">{face}</span>'
        if face
        else '<span class="face-normal">🙂</span><span class="face-pressed">😮</span>'
    )
    return lines([
        '<div class="ms-bar" id="ms-bar">',
        f'<div class="ms-presets" id="ms-presets" role="group" aria-label="Boards">'
        f"{buttons}</div>",
        '<div class="ms-status" id="ms-status">',
        f'<span class="lcd" id="ms-mines" title="Mines left (mines − flags)" role="img" '
        f'aria-label="{observation["mines_left"]} mines left">'
        f'{observation["mines_left"]:03d}</span>',
        f'<button class="face" id="ms-face" data-command="again" '
        f'title="New game of this size" aria-label="New game">{face_html}</button>',
        # the seconds and the flag mode together: on a phone the face sits in the middle
        '<span class="ms-right"><span class="lcd" id="ms-time" data-clock="seconds" '
        'title="Seconds" role="timer" aria-label="Seconds played">000</span>',
        _flag_mode_of(observation, playing),
        "</span></div></div>",
    ])


# Flag mode, as on phone Minesweepers: while it is on (the page keeps it: data-alt-mode),
# a tap or Enter flags and a long press, a right click or Space opens. Shown where a
# finger plays (view.css), or once on. Until the first cell is open it waits
# (data-paused): a flag on a board with nothing open tells nothing, and a new game's first
# tap in flag mode, kept from the last game, would otherwise flag rather than open. Once
# no move can be made (the game over) it is disabled, greyed as the toolbar's buttons
# are: lit, it read as a control still in use.
def _flag_mode(paused: bool, disabled: bool = False) -> str:
    wait = " data-paused" if paused else ""
    off = " disabled" if disabled else ""
    when = ", from the first open cell on" if paused else ""
    return (
        f'<button class="ms-mode" id="ms-mode" data-alt-mode{wait}{off} data-key="f" '
        f'aria-pressed="false" aria-label="Flag mode" title="Flag mode (F){when}: a click or '
        'a tap flags a cell, a right click or a long press opens it">'
        '<span class="mode-open" aria-hidden="true">⛏️</span>'
        '<span class="mode-flag" aria-hidden="true">🚩</span></button>'
    )


FLAG_MODE, FLAG_MODE_PAUSED = _flag_mode(False), _flag_mode(True)
FLAG_MODE_DISABLED = _flag_mode(False, disabled=True)


def _flag_mode_of(observation: JSON, playing: bool) -> str:
    if not playing:
        return FLAG_MODE_DISABLED
    return FLAG_MODE if _any_open(observation["cells"]) else FLAG_MODE_PAUSED


def _any_open(cells: list[str]) -> bool:
    """Whether a cell is open (empty or a number) on the board's rows of symbols."""
    return any("." in line or any(symbol.isdigit() for symbol in line) for line in cells)


def _preset_button(ident: str, action: str, label: str, title: str, current: bool) -> str:
    marked = ' aria-current="true"' if current else ""
    return (f'<button class="ms-preset{" current" if current else ""}" id="{ident}" {action} '
            f'title="{attr(title)}"{marked}>{label}</button>')


def _size(preset: str) -> str:
    board = PRESETS[preset]
    return f"{board['rows']}×{board['cols']}, {board['mines']} mines"


def _board_label(observation: JSON) -> str:
    preset = observation["preset"]
    return LABELS_OF_PRESETS[preset] if preset else "Custom"


@lru_cache(maxsize=65536)  # a cell's markup depends on these alone; boards repeat most
def _cell(row: int, col: int, symbol: str, hinted: bool, start: bool = False) -> str:
    actions = _actions(row, col, symbol) + (" data-start" if start else "")
    state = "open" if symbol in ".12345678" else "closed"
    if symbol in "*X":
        state = "open mine"
    css = classes("ms-cell", state, f"n{symbol}" if symbol.isdigit() else None,
                  {"F": "flag", "?": "question", "X": "exploded", "!": "wrong"}.get(symbol),
                  "hint" if hinted else None)
    label = LABELS.get(symbol, symbol)
    cause = " data-end-cause" if symbol == "X" else ""  # the end card keeps it in sight
    return (
        f'<div id="ms-{row}-{col}" class="{css}" data-nav tabindex="-1" role="gridcell" '
        f'aria-label="{attr(f"row {row + 1}, column {col + 1}: {label}")}"{cause}{actions}>'
        f"{_face_of(symbol)}</div>"
    )


@cache
def _actions(row: int, col: int, symbol: str) -> str:
    """What a cell does: open and mark when closed, unmark when flagged, chord a number."""
    where = [row, col]
    if symbol in "#?":
        return move_attr("data-move", {"open": where}) + move_attr(
            "data-alt-move", {"mark": where}
        )
    if symbol == "F":  # to a question mark, or cleared at once for a player of flags only
        return move_attr("data-alt-move", {"mark": where}) + move_attr(
            f"data-alt-move-marks-{FLAGS_ONLY}", {"unmark": where})
    if symbol in "12345678":  # a click, C, a middle click or both buttons chord it
        chord = {"chord": where}
        return move_attr("data-move", chord) + move_attr("data-keymoves", {"c": chord}) + \
            " data-middle data-press-around"
    return ""


def _face_of(symbol: str) -> str:
    if symbol.isdigit():
        return symbol
    return {"F": "🚩", "?": "?", "*": "💣", "X": "💥", "!": "🚩"}.get(symbol, "")


THUMBNAIL = (
    '<svg viewBox="0 0 120 120" aria-hidden="true">'
    '<g stroke="var(--line)" stroke-width="2">'
    + "".join(
        f'<rect x="{12 + 24 * c}" y="{12 + 24 * r}" width="22" height="22" rx="3" '
        f'fill="{"var(--surface)" if (r, c) in {(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)} else "var(--line)"}" '  # noqa: E501
        'opacity=".85"/>'
        for r in range(4)
        for c in range(4)
    )
    + '</g><text x="47" y="30" font-size="17" font-weight="700" fill="#1f5fbf" '
    'text-anchor="middle">1</text><text x="23" y="78" font-size="17" font-weight="700" '
    'fill="#2a8a2a" text-anchor="middle">2</text>'
    '<text x="71" y="79" font-size="18" text-anchor="middle">🚩</text>'
    '<circle cx="95" cy="95" r="7" fill="#222"/><path d="M95 84v22M84 95h22" fill="none" '
    'stroke="#222" stroke-width="3"/></svg>'
)
