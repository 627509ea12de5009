// Input on the board, for every game alike: clicks, right clicks and long presses, swipes,
// drag and drop (pointer events: mouse, pen and touch), and keys (a cell's own keys, the
// board's data-key, arrows between data-nav cells, the commands' keys). Each becomes a
// move sent to the server or a command; the board's markup declares which, as data.
import { $, longPressMs, play } from "/static/common.js";

// a finger that slides farther than this while it holds a cell with a long press (a
// Minesweeper flag) plays nothing: neither the long press nor, on lifting, a tap (the
// tap opened the mine the player meant to flag when the finger rolled 9 px)
const LONG_PRESS_SLOP_PX = 10;
const DRAG_THRESHOLD_PX = 6;
// what a dragged element's ghost keeps of each part's look (its whole, the ghost's own
// opacity and shadow aside; its parts, whether they show too)
const GHOST_PAINT = ["fill", "stroke", "stroke-width", "color", "background-color", "border-color",
  "font-family", "font-size", "font-weight", "font-style"];
const GHOST_SHOWN = ["display", "visibility", "opacity"];
// A finger aims with its tip, as in the phone apps of lichess and chess.com: a piece it drags
// drops on the place under the fingertip, and rides above it, where the finger does not
// hide it, its centre TOUCH_LIFT of its heights up (its lower edge 0.6 of them clear). A
// ring round that place, at least a fingertip wide (FINGERTIP_PX, Apple's 44-point
// target) and AIM_MARGIN_PX more, shows around the finger where the piece will go.
const TOUCH_LIFT = 1.1;
const FINGERTIP_PX = 44;
const AIM_MARGIN_PX = 8;
const SWIPE_PX = 24;
const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
// the cursor to the far end of its row (Home, End) or column (Page Up, Page Down): big boards
const JUMPS = { Home: [-1, 0], End: [1, 0], PageUp: [0, -1], PageDown: [0, 1] };

// info: the game's catalog entry; send(message): to the server; actions: the page's own
// actions by name (data-command names one); commands: the game's commands (commands.js);
// newGameWith(params): a new game at once (data-preset); endCard: the end card (endcard.js);
// clearRefusal(): a new try begins, the note of the last one refused goes; showNote(text):
// a plain note (what a key on a board element that plays nothing says: its data-why).
export function createInput({ info, send, actions, commands, newGameWith, endCard, clearRefusal, showNote }) {
  const state = {
    droppedGhost: null,  // {ghost, home}: a dropped piece waiting for the server's answer
    mouse: null,  // {x, y}: where the mouse last moved over the board, until the arrows move
    altMode: false,  // the board's data-alt-mode switch is on: a click plays data-alt-move
    cursorAt: null,  // {cell, x, y}: the data-nav cell that last had the focus, and where
    turn: null,  // "session:moves" of the view shown, while this page may move in it
    pressedCell: null,  // what a held pointer shows pressed (pressUnder)
  };

  // -- pointer actions on the board ----------------------------------------------------
  // A part of the board marked aria-disabled (e.g. a finished game) sends no moves.
  function parseMove(element, name) {
    if (element.closest('[aria-disabled="true"]')) return null;
    try { return JSON.parse(element.getAttribute(chosenVariant(element, name))); } catch { return null; }
  }

  // A display option may change what an element plays: its data-move-<option>-<value> (or
  // data-alt-move-…) is played instead while the player has chosen that value (Minesweeper's
  // Marks: flags only, where a flag's second action clears it with no question mark between).
  function chosenVariant(element, name) {
    const board = $("board");
    for (const option of Object.keys(info.display_options)) {
      const variant = `${name}-${option}-${board.getAttribute(`data-opt-${option}`)}`;
      if (element.hasAttribute(variant)) return variant;
    }
    return name;
  }

  function sendMove(move, byKey = false) {
    if (!move) return;
    if (byKey) keys.movedAt = performance.now();
    send({ type: "move", move }, { byKey });
  }

  // A key that plays a move reads the board shown: pressed again before the server has
  // answered (an arrow held down repeats every 30 ms or so), it would read the board its
  // last move left behind and play a tile no longer there, or one refused. Keys pressed
  // while a key's move waits for its answer wait too, and run in order once it comes.
  const keys = { movedAt: 0, waiting: [] };
  const KEYS_WAITING = 16;  // (more are dropped: a stuck key must not queue forever)
  const KEY_ANSWER_MS = 2000;  // (no answer by then: the keys go, the next runs at once)

  function waitsForAnswer(event) {
    if (!keys.movedAt) return false;
    if (performance.now() - keys.movedAt > KEY_ANSWER_MS) { keys.movedAt = 0; keys.waiting.length = 0; return false; }
    event.preventDefault();
    if (keys.waiting.length < KEYS_WAITING) keys.waiting.push(event.key);
    return true;
  }

  // The server answered: a dropped piece settles, and the keys that waited run (until one
  // of them plays a move and so waits in turn).
  function answered(accepted) {
    settleDrop(accepted);
    keys.movedAt = 0;
    while (keys.waiting.length && !keys.movedAt) {
      const key = keys.waiting.shift();
      onKey({ key, target: document.activeElement ?? document.body, ctrlKey: false, metaKey: false,
        altKey: false, preventDefault() {} });
    }
  }

  // Why an element plays nothing, when the board says (data-why), said in the status line;
  // whether it was. Not in a part of the board marked aria-disabled (a game over: its
  // end stays said, where Tic Tac Toe's "Column 2, row 2 is taken" replaced it).
  function whyNot(element) {
    const why = element.closest('[aria-disabled="true"]') ? "" : element.dataset.why;
    if (why) showNote(why);
    return Boolean(why);
  }

  // What an element does when clicked or pressed (`byKey`: with a key); false when it
  // does nothing.
  function activate(element, alternative = false, byKey = false) {
    if (element.hasAttribute("data-alt-mode")) {
      if (!element.disabled) setAltMode(!state.altMode);  // disabled: no move can be made (its key too)
      return true;
    }
    if (element.dataset.command) { actions[element.dataset.command]?.(); return true; }
    if (element.dataset.preset) { newGameWith(info.presets[element.dataset.preset]); return true; }
    const attribute = alternative && element.hasAttribute("data-alt-move") ? "data-alt-move" : "data-move";
    if (!element.hasAttribute(attribute)) return false;
    sendMove(parseMove(element, attribute), byKey);
    return true;
  }

  // data-alt-mode marks a switch (Minesweeper's flag mode, for touch screens): while it is
  // on, a click, a tap or Enter plays an element's data-alt-move, and a long press or
  // Space its data-move (a right click too). The page keeps it, for this game, across
  // reloads (the board's markup is the server's) and shows it on the switch's aria-pressed.
  const ALT_MODE_KEY = `parlour.altMode.${info.name}`;
  function setAltMode(on) {
    state.altMode = on;
    try { if (on) localStorage.setItem(ALT_MODE_KEY, "1"); else localStorage.removeItem(ALT_MODE_KEY); } catch { /* private mode: for this page only */ }
    showAltMode();
  }

  // After each view: the cursor stays on the board. When the cell it was on is no longer
  // one (gone, or no longer data-nav: Escalator's base once it has turned a card), the
  // browser drops the focus, a frame later; the data-nav cell nearest where it was takes it.
  function keepCursor() {
    const at = state.cursorAt;
    if (!at || (at.cell.isConnected && at.cell.matches("[data-nav]"))) return;
    requestAnimationFrame(() => {
      const holder = document.activeElement;
      if (holder && holder !== document.body && holder !== at.cell) return;  // the player moved on
      nearest($("board").querySelectorAll("[data-nav]"), at)?.focus({ preventScroll: true });
    });
  }

  // After each view: when a turn comes to a seat this page plays (a view that lets it move,
  // after one that did not or after a move), a cursor left on a cell the player may not
  // play now (Tribolo's cell just filled) goes to the nearest the view marks data-playable,
  // so that one Enter plays. The focus off the board (a menu, a dialog, a button) and a
  // cursor on a playable cell stay where they are.
  function cursorToTurn(view) {
    const turn = view?.can_move ? `${view.session}:${view.moves}` : null;
    const comes = turn !== null && turn !== state.turn;
    state.turn = turn;
    const board = $("board"), holder = document.activeElement;
    if (!comes || !holder?.matches("[data-nav]") || !board.contains(holder) || holder.matches("[data-playable]")) return;
    nearest(board.querySelectorAll("[data-nav][data-playable]"), centre(holder))?.focus({ preventScroll: true });
  }

  // The switch is on and the view does not pause it (data-paused: Minesweeper's, until the
  // first cell is open, so that a new game's first tap opens).
  function altOn() {
    return state.altMode && !$("board").querySelector("[data-alt-mode][data-paused]");
  }

  // After each view: the server's markup says the switch is off.
  function showAltMode() {
    for (const toggle of $("board").querySelectorAll("[data-alt-mode]")) {
      if (toggle.getAttribute("aria-pressed") !== String(state.altMode)) toggle.setAttribute("aria-pressed", String(state.altMode));
    }
  }

  function bindBoard() {
    try { if (localStorage.getItem(ALT_MODE_KEY)) setAltMode(true); } catch { /* none kept */ }
    const board = $("board-wrap");
    board.addEventListener("focusin", (event) => {
      const cell = event.target.closest("[data-nav]");
      if (cell) state.cursorAt = { cell, ...centre(cell) };
    });
    let suppressClick = false;  // the click that ends a long press is not a click
    let pressTimer = 0;
    let pointerKind = "mouse";
    let press = null;  // where, on what and with which button the last pointer went down,
                       // and whether it ended running transitions (settled)
    board.addEventListener("click", (event) => {
      if (suppressClick) { suppressClick = false; return; }
      const playable = `[data-move], [data-command], [data-preset], [data-alt-mode]${altOn() ? ", [data-alt-move]" : ""}`;
      const target = event.target.closest(playable) ?? slidOnto(event, playable) ?? landedOn(event, playable);
      if (target && board.contains(target)) activate(target, altOn());
    });
    const playableAt = (event, playable) => {
      const under = document.elementFromPoint(event.clientX, event.clientY)?.closest(playable);
      return under && $("board").contains(under) ? under : null;
    };
    // A mouse pressed on one cell of a grid and released on another makes a click on what
    // holds both: the cell under the release is played, as in Windows' Minesweeper and
    // minesweeper.online (a fast player's click slid over a cell's edge, and was lost).
    // (Not after a drag: its drop has played; nor off a grid's cells: a press on
    // Escalator's stock let go over a card is no click of that card.)
    const GRID_CELL = '[role="gridcell"]';
    const slidOnto = (event, playable) => {
      const pressed = press?.target.closest(playable);
      if (!pressed?.matches(GRID_CELL) || pointerKind !== "mouse" || press.button !== 0
          || press.target.closest("[data-drag]")) return null;
      const released = playableAt(event, playable);
      return released?.matches(GRID_CELL) ? released : null;
    };
    // A press ends the board's running transitions at once (a sliding tile is where it
    // is going, as in Tatham's puzzles), and its click plays what is under it then: a fast
    // player's tap on the tile that had just slid, still on its way there, was lost.
    const landedOn = (event, playable) => (press?.settled ? playableAt(event, playable) : null);
    const settleTransitions = () => {
      const running = $("board").getAnimations({ subtree: true }).filter((each) => each instanceof CSSTransition);
      for (const each of running) each.finish();
      return running.length > 0;
    };
    board.addEventListener("contextmenu", (event) => {
      if (event.target.closest("[data-middle]")) { event.preventDefault(); return; }  // a chord's button, no menu
      // the other action than a click's: in flag mode, the move (a mouse can still open)
      const other = altOn() ? "data-move" : "data-alt-move";
      const target = event.target.closest(`[${other}]`);
      if (!target) return;
      event.preventDefault();
      // on touch the long-press timer sends the move; a menu event as well would send it twice
      if (pointerKind === "mouse" && !suppressClick) sendMove(parseMove(target, other));
    });
    board.addEventListener("pointerdown", (event) => {
      suppressClick = false;
      pointerKind = event.pointerType;
      const from = press = { x: event.clientX, y: event.clientY, target: event.target, button: event.button,
                             settled: settleTransitions() };
      if (event.button === 0 && !event.target.closest("[data-drag]")) {
        // a swipe: released far enough away, it is a gesture, not a click
        document.addEventListener("pointerup", (up) => {
          if (Math.hypot(up.clientX - from.x, up.clientY - from.y) >= SWIPE_PX
              && swipe(from.target, up.clientX - from.x, up.clientY - from.y, up)) {
            suppressClick = true;  // the click this release makes, if any, comes at once
            setTimeout(() => { suppressClick = false; }, 0);
          }
        }, { once: true });
      }
      if (event.target.closest('[aria-disabled="true"]')) return;  // sends nothing: no "uh-oh", no long press
      // "pressing" lets a game show it, e.g. Minesweeper's "uh-oh" face
      if (event.target.closest("[data-move], [data-alt-move]")) document.documentElement.classList.add("pressing");
      if (event.button === 0) pressUnder(event.target);
      const pressed = altOn() ? "data-move" : "data-alt-move";  // what a long press plays
      const target = event.target.closest(`[${pressed}]`);
      if (target && event.pointerType !== "mouse") {
        pressTimer = setTimeout(() => {
          pressTimer = 0;
          suppressClick = true;
          navigator.vibrate?.(30);
          sendMove(parseMove(target, pressed));
        }, longPressMs());
      }
      const draggable = event.target.closest("[data-drag]");
      if (draggable && event.button === 0) {
        event.preventDefault();  // no text selection, which would start a native drag next time
        startDrag(draggable, event);
      }
    });
    // data-middle: a middle click, or both buttons pressed together (Windows Minesweeper's
    // chord), plays the element's data-move; the left button's release is then no click
    const middleTarget = (event) => {
      const target = event.target.closest("[data-middle][data-move]");
      return target && board.contains(target) ? target : null;
    };
    board.addEventListener("mousedown", (event) => {
      const target = middleTarget(event);
      if (!target) return;
      if (event.button === 1) event.preventDefault();  // no scrolling by the wheel
      if ((event.buttons & 3) === 3) { suppressClick = true; activate(target); }
    });
    board.addEventListener("auxclick", (event) => {
      const target = middleTarget(event);
      if (event.button === 1 && target) { event.preventDefault(); activate(target); }
    });
    const release = () => {
      document.documentElement.classList.remove("pressing"); clearTimeout(pressTimer); pressTimer = 0;
      for (const cell of $("board").querySelectorAll(".pressed")) cell.classList.remove("pressed");
      state.pressedCell = null;
    };
    for (const type of ["pointerup", "pointercancel", "pointerleave"]) board.addEventListener(type, release);
    board.addEventListener("pointermove", (event) => {
      if (pressTimer && Math.hypot(event.clientX - press.x, event.clientY - press.y) > LONG_PRESS_SLOP_PX) {
        clearTimeout(pressTimer);
        pressTimer = 0;
        suppressClick = true;
        pressUnder(board);  // a slid finger plays nothing: nothing looks pressed
      }
      if (event.pointerType === "mouse") state.mouse = { x: event.clientX, y: event.clientY };
      // the pressed look follows a held mouse, as the cell its release plays (slidOnto)
      if (event.pointerType === "mouse" && (event.buttons & 1) && press?.button === 0
          && !press.target.closest("[data-drag]")) pressUnder(event.target);
    });
    board.addEventListener("pointerleave", () => { state.mouse = null; });
  }

  // While a pointer holds a cell down, what its release would play shows pressed (class
  // "pressed"), and the look follows the mouse as Windows' Minesweeper's does: the cell
  // under it when that is a cell a click plays; around a data-press-around (Minesweeper's
  // numbers, which a click chords), the cells within a cell of it that a click plays
  // (data-move: the closed ones), what a chord would open.
  function pressUnder(element) {
    const around = element.closest("[data-press-around]");
    const cell = around ?? element.closest("[data-nav][data-move]");
    if (cell === state.pressedCell) return;
    for (const shown of $("board").querySelectorAll(".pressed")) shown.classList.remove("pressed");
    state.pressedCell = cell;
    if (!cell || !$("board").contains(cell) || cell.closest('[aria-disabled="true"]')) return;
    if (around) pressAround(around);
    else cell.classList.add("pressed");
  }

  function pressAround(element) {
    const a = element.getBoundingClientRect();
    for (const cell of $("board").querySelectorAll("[data-nav][data-move]:not([data-press-around])")) {
      const b = cell.getBoundingClientRect();
      if (Math.abs(b.left - a.left) < a.width * 1.5 && Math.abs(b.top - a.top) < a.height * 1.5) cell.classList.add("pressed");
    }
  }

  // The cell under the mouse, when the mouse moved last (not the arrows): a cell's keys
  // (Space, C...) act on it, as Minesweeper players expect of the cell they point at.
  function pointedCell() {
    if (!state.mouse) return null;
    const cell = document.elementFromPoint(state.mouse.x, state.mouse.y)?.closest("[data-nav]");
    return cell && $("board").contains(cell) ? cell : null;
  }

  // A swipe (or a drag) of `dx`, `dy` that began on `start` and ended at `end` ({clientX,
  // clientY}): from an element with a move toward an empty data-drop in line with it (a
  // tile toward the gap), that element's move, if it ended on the one or the other (a
  // press on Escalator's stock let go over the pyramid's foot, on the way to the base,
  // turned a card, which no Undo takes back); else the element marked data-swipe with the
  // swipe's direction (left, right, up, down), if any (one with no move says why, data-why).
  function swipe(start, dx, dy, end) {
    const board = $("board");
    const across = Math.abs(dx) > Math.abs(dy);
    const direction = across ? (dx < 0 ? "left" : "right") : (dy < 0 ? "up" : "down");
    const from = start.closest?.("[data-move]");
    if (from && board.contains(from)) {
      const a = from.getBoundingClientRect();
      for (const target of board.querySelectorAll('[data-drop=""]')) {
        const b = target.getBoundingClientRect();
        const ahead = { left: b.right <= a.left + 2, right: b.left >= a.right - 2, up: b.bottom <= a.top + 2, down: b.top >= a.bottom - 2 }[direction];
        const offset = across ? (b.top + b.bottom - a.top - a.bottom) / 2 : (b.left + b.right - a.left - a.right) / 2;
        const on = (box) => end.clientX >= box.left && end.clientX <= box.right
          && end.clientY >= box.top && end.clientY <= box.bottom;
        if (ahead && (on(a) || on(b)) && Math.abs(offset) < (across ? a.height : a.width) / 2) { activate(from); return true; }
      }
    }
    const keyed = board.querySelector(`[data-swipe~="${direction}"]`);
    if (keyed) { if (!activate(keyed)) whyNot(keyed); return true; }
    return false;
  }

  // -- drag and drop ---------------------------------------------------------------------
  // The server answered the move a drop sent: a view places the piece, an error sends it home.
  function settleDrop(accepted) {
    const dropped = state.droppedGhost;
    if (!dropped) return;
    if (accepted) dropped.ghost.remove(); else sendGhostHome(dropped);
    state.droppedGhost = null;
  }

  function sendGhostHome({ ghost, home }) {
    ghost.classList.add("returning");
    ghost.classList.remove("snapped");
    ghost.style.left = `${home.left + home.width / 2}px`; ghost.style.top = `${home.top + home.height / 2}px`;
    ghost.style.width = `${home.width}px`; ghost.style.height = `${home.height}px`;
    setTimeout(() => ghost.remove(), 450);
  }

  // The ghost is put on the page's body, away from the board whose custom properties
  // (Ishido's tile colours) and display options (data-opt-* on the board) style it there:
  // it takes each part's paint as the source shows it at rest, or it would turn black.
  function keepLook(source, ghost) {
    const parts = [source, ...source.querySelectorAll("*")];
    const copies = [ghost, ...ghost.querySelectorAll("*")];
    parts.forEach((part, index) => {
      const style = getComputedStyle(part);
      const properties = index === 0 ? GHOST_PAINT : GHOST_PAINT.concat(GHOST_SHOWN);
      for (const property of properties) copies[index].style.setProperty(property, style.getPropertyValue(property));
    });
  }

  function dropAt(x, y) {
    return document.elementFromPoint(x, y)?.closest("[data-drop]") || null;
  }

  // Whether the dragged `source` may go on `target`, as the board says (data-fits on the
  // source: the ids of the places where it fits); null where the board does not say.
  function fitsOn(source, target) {
    const fits = source.getAttribute("data-fits");
    return fits === null ? null : fits.split(/\s+/).includes(target.id);
  }

  // The piece is drawn at the size of the place it is over (as large as the place lets
  // it), else at its own; its height so drawn is returned. With `snap` it sits in that
  // place, showing where it would land (a piece larger than the place, as Ishido's next
  // tile is than a cell, hid the place's highlight); else it is centred on `x`, `y`.
  function placeGhost(ghost, target, x, y, size, snap) {
    const at = target?.getBoundingClientRect();
    const scale = at ? Math.min(at.width / size.width, at.height / size.height) : 1;
    ghost.classList.toggle("snapped", Boolean(at && snap));
    ghost.style.left = `${at && snap ? at.left + at.width / 2 : x}px`;
    ghost.style.top = `${at && snap ? at.top + at.height / 2 : y}px`;
    ghost.style.width = `${size.width * scale}px`; ghost.style.height = `${size.height * scale}px`;
    return size.height * scale;
  }

  // The ring round the place under a fingertip (the finger hides the place itself).
  function showAim(aim, target, fits) {
    aim.hidden = !target;
    if (!target) return;
    const at = target.getBoundingClientRect();
    const reach = Math.max(AIM_MARGIN_PX, FINGERTIP_PX / 2 + AIM_MARGIN_PX - Math.min(at.width, at.height) / 2);
    aim.style.left = `${at.left - reach}px`; aim.style.top = `${at.top - reach}px`;
    aim.style.width = `${at.width + 2 * reach}px`; aim.style.height = `${at.height + 2 * reach}px`;
    aim.classList.toggle("no-fit", fits === false);
  }

  // A drag: the place the piece is over is lit (class drop-target), with no-fit too
  // where the board says it may not go there (the ghost then shows no-fit as well); the
  // drop plays the place's move even so, and the server's refusal says why.
  function startDrag(source, down) {
    const finger = down.pointerType === "touch";
    let ghost = null, aim = null, over = null, size = null, shownHeight = 0;
    const move = (event) => {
      if (!ghost) {
        if (Math.hypot(event.clientX - down.clientX, event.clientY - down.clientY) < DRAG_THRESHOLD_PX) return;
        ghost = source.cloneNode(true);
        ghost.removeAttribute("id");
        keepLook(source, ghost);
        ghost.classList.add("drag-ghost");
        const box = source.getBoundingClientRect();
        size = { width: box.width, height: box.height };
        shownHeight = box.height;
        document.body.append(ghost);
        if (finger) { aim = document.createElement("div"); aim.className = "drop-aim"; document.body.append(aim); }
        source.classList.add("dragging");
        clearRefusal();  // a new try: the last one's refusal has been read
      }
      const x = event.clientX, y = event.clientY;
      const lift = finger ? shownHeight * TOUCH_LIFT : 0;
      // under the fingertip; else under the piece, where a player may aim a large place
      // (Escalator's base) with the card itself
      const target = dropAt(x, y) || (lift ? dropAt(x, y - lift) : null);
      const fits = target ? fitsOn(source, target) : null;
      if (target !== over) { over?.classList.remove("drop-target", "no-fit"); target?.classList.add("drop-target"); over = target; }
      target?.classList.toggle("no-fit", fits === false);
      ghost.classList.toggle("no-fit", fits === false);
      if (finger) {
        shownHeight = placeGhost(ghost, target, x, y, size, false);
        ghost.style.top = `${y - shownHeight * TOUCH_LIFT}px`;  // lifted by its size as now drawn
        showAim(aim, target, fits);
      } else {
        placeGhost(ghost, target, x, y, size, fits !== false);
      }
    };
    const up = () => {
      document.removeEventListener("pointermove", move);
      document.removeEventListener("pointerup", up);
      document.removeEventListener("pointercancel", up);
      source.classList.remove("dragging");
      over?.classList.remove("drop-target", "no-fit");
      aim?.remove();
      if (!ghost) return;
      const suppress = (event) => { event.stopPropagation(); event.preventDefault(); };
      document.addEventListener("click", suppress, { capture: true, once: true });
      setTimeout(() => document.removeEventListener("click", suppress, { capture: true }), 0);
      const home = source.getBoundingClientRect();
      // an empty data-drop takes the dragged element's own move (several cards, one pile)
      const dropped = !over ? null
        : over.getAttribute("data-drop") === "" ? parseMove(source, "data-move") : parseMove(over, "data-drop");
      if (dropped) {  // the ghost waits where it was dropped: the answer places it or sends it back
        state.droppedGhost = { ghost, home };
        sendMove(dropped);
        return;
      }
      sendGhostHome({ ghost, home });
      play("error");
    };
    document.addEventListener("pointermove", move);
    document.addEventListener("pointerup", up);
    document.addEventListener("pointercancel", up);
  }

  // -- keyboard --------------------------------------------------------------------------
  function bindKeys() {
    document.addEventListener("keydown", onKey);
  }

  function onKey(event) {
    if (document.querySelector("dialog[open]")) {
      const command = event.target.closest("input, select, textarea") ? null : commands.forKey(event);
      if (command?.kind === "client" && command.args.action === "play") { event.preventDefault(); commands.run(command); }
      return;
    }
    if (event.target.closest("input, select, textarea, #menus")) return;
    const key = event.key;
    if (key === "Escape" && (endCard.shown() || endCard.coming())) { event.preventDefault(); endCard.hide(); return; }
    if (!(event.ctrlKey || event.metaKey || event.altKey) && waitsForAnswer(event)) return;
    if (event.ctrlKey || event.metaKey || event.altKey) {
      // Ctrl and Alt keys are the commands' (Ctrl+Z, Alt+N...); the rest stay the browser's
      const command = commands.forKey(event);
      if (command) { event.preventDefault(); commands.run(command); }
      return;
    }
    const board = $("board");
    const pointed = ARROWS[key] || JUMPS[key] ? null : pointedCell();
    if (pointed && pointed !== document.activeElement) pointed.focus({ preventScroll: true });
    const focused = pointed || document.activeElement?.closest?.("[data-nav]");
    const focusedKeys = focused && focused.dataset.keymoves ? parseMove(focused, "data-keymoves") : null;
    if (focusedKeys && focusedKeys[key.toLowerCase()]) { event.preventDefault(); sendMove(focusedKeys[key.toLowerCase()], true); return; }
    // data-key lists the keys that activate an element, e.g. "d Space"; but Space on a
    // cell with a move that the keyboard's cursor is on acts on that cell, as Enter does
    // (Escalator's Space turned the stock, which no Undo takes back, with the cursor on a
    // card to pick; the mouse's pointed cell keeps to the key's element)
    const name = key === " " ? "Space" : key;
    const onCursor = name === "Space" && !pointed && focused && board.contains(focused)
      && focused.matches("[data-move], [data-alt-move]");
    const keyed = onCursor ? null
      : board.querySelector(`[data-key~="${CSS.escape(name)}"]`) || board.querySelector(`[data-key~="${CSS.escape(name.toLowerCase())}"]`);
    if (keyed) {
      event.preventDefault();
      // a key on what plays nothing is told why, when the board says (data-why)
      if (!activate(keyed, false, true)) whyNot(keyed);
      return;
    }
    if (ARROWS[key]) { event.preventDefault(); state.mouse = null; moveCursor(...ARROWS[key]); return; }
    if (JUMPS[key] && focused && board.contains(focused)) { event.preventDefault(); state.mouse = null; jumpCursor(focused, ...JUMPS[key]); return; }
    if ((key === "Enter" || key === " ") && focused && board.contains(focused)) {
      event.preventDefault();
      // on a cell with nothing to play (Tribolo's own disc, once the others have moved),
      // Enter brings the cursor to the hinted cell, else to where the view says a move is
      const start = board.querySelector(".hint[data-nav]") || board.querySelector("[data-start]");
      if (activate(focused, (key === " ") !== altOn(), true)) return;
      if (!whyNot(focused) && key === "Enter" && start) focusCell(start);
      return;
    }
    // Enter with nothing focused puts the cursor on the board (on a hint, if any), as an arrow does
    const idle = [document.body, $("board-wrap"), null].includes(document.activeElement);
    if (key === "Enter" && idle && !focused && board.querySelector("[data-nav]")) { event.preventDefault(); moveCursor(0, 0); return; }
    const command = commands.forKey(event);
    if (command) { event.preventDefault(); commands.run(command); }
  }

  return { bindBoard, bindKeys, answered, showAltMode, keepCursor, cursorToTurn };
}

// The data-nav cell nearest the focused one in the arrow's direction gets the focus
// (`firstCell`, when none has it): the nearest within 63° of the arrow's line, else the
// nearest anywhere on that side, so that a board's scattered cells (Escalator's free
// cards: one a row up between two of the row below) are each reached by some arrow.
function moveCursor(dx, dy) {
  const cells = [...$("board").querySelectorAll("[data-nav]")];
  if (!cells.length) return;
  const current = document.activeElement?.closest?.("[data-nav]");
  if (!current || !cells.includes(current)) { focusCell(firstCell(cells)); return; }
  const from = centre(current);
  let best = null, bestScore = Infinity, aside = null, asideScore = Infinity;
  for (const cell of cells) {
    if (cell === current) continue;
    const to = centre(cell);
    const along = (to.x - from.x) * dx + (to.y - from.y) * dy;
    const across = Math.abs((to.x - from.x) * dy) + Math.abs((to.y - from.y) * dx);
    if (along <= 1) continue;
    const score = along + across * 2;
    if (across > along * 2) {
      if (score < asideScore) { aside = cell; asideScore = score; }
    } else if (score < bestScore) { best = cell; bestScore = score; }
  }
  if (best || aside) focusCell(best || aside);
}

// The data-nav cell farthest from `current` in the direction given, in its row or column
// (its centre within half a cell of `current`'s line), gets the focus.
function jumpCursor(current, dx, dy) {
  const from = centre(current), box = current.getBoundingClientRect();
  const half = (dx ? box.height : box.width) / 2;
  let best = null, farthest = 1;
  for (const cell of $("board").querySelectorAll("[data-nav]")) {
    const to = centre(cell);
    const along = (to.x - from.x) * dx + (to.y - from.y) * dy;
    const across = Math.abs((to.x - from.x) * dy) + Math.abs((to.y - from.y) * dx);
    if (across <= half && along > farthest) { best = cell; farthest = along; }
  }
  if (best) focusCell(best);
}

// Where the cursor comes onto the board: the hinted cell (class "hint"), else the cell the
// view marks data-start (a move the player may make), else the first that plays a move.
function firstCell(cells) {
  return cells.find((c) => c.classList.contains("hint")) || cells.find((c) => c.hasAttribute("data-start"))
    || cells.find((c) => c.hasAttribute("data-move")) || cells[0];
}

// The cell of `cells` whose centre is nearest the point {x, y} (null: none); of cells as
// near, within a pixel, the first.
function nearest(cells, { x, y }) {
  let best = null, bestDistance = Infinity;
  for (const cell of cells) {
    const at = centre(cell);
    const distance = Math.hypot(at.x - x, at.y - y);
    if (distance < bestDistance - 1) { best = cell; bestDistance = distance; }
  }
  return best;
}

function centre(element) {
  const box = element.getBoundingClientRect();
  return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
}

function focusCell(cell) {
  cell.focus({ preventScroll: false });
}
