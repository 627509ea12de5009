// The move list of a game of several players, as lichess shows one: every move, who made
// it and what it took, in the server's words (the view's `move_list`, sent as the notes
// this page has not had yet); passes on lines of their own. Choosing a move (a click,
// Enter, or the arrow keys in the list) shows the board as it was then, asked of the
// server, in place of the live board, which keeps being updated underneath until the
// player goes back to the game (the button, End or Escape). Beside the board on a wide
// screen, a strip under it on a phone (app.css .movelist).
import { $, api, escapeHtml, scrollIntoList, seatDot, set, toast, tokens } from "/static/common.js";

// sessionId(): the game's session, for asking the server for a past position.
export function createMoveList({ sessionId }) {
  const state = {
    notes: [],        // the move list as the server sent it: {ply, seat, text, passed}
    seats: [],        // the view's seats: their names
    looking: null,    // the ply of the position looked at; null: the live game
    asked: 0,         // the last position asked for (a later answer wins)
    session: null,
  };

  // A new view: its notes from `move_list_from` on replace those after that point.
  function show(view) {
    const list = $("movelist");
    const wrap = $("board-wrap");
    if (!view || !view.move_list) {
      if (!list.hidden) { list.hidden = true; wrap.classList.remove("with-moves", "looking"); refit(); }
      state.notes = [];
      return;
    }
    if (state.session !== view.session) { state.session = view.session; state.notes = []; stopLooking(); }
    const start = view.move_list_from ?? 0;
    const kept = state.notes.length === start;  // the page had every note before `start`
    state.notes = state.notes.slice(0, start).concat(view.move_list);
    state.seats = view.seats;
    if (list.hidden) { list.hidden = false; wrap.classList.add("with-moves"); refit(); }
    const items = $("movelist-items");
    if (kept && start > 0 && items.childElementCount > 1) {
      items.insertAdjacentHTML("beforeend", view.move_list.map(item).join(""));
    } else {
      items.innerHTML = startItem() + state.notes.map(item).join("");
    }
    if (state.looking !== null && state.looking > state.notes.length) stopLooking();
    markCurrent();
    if (state.looking === null) scrollToEnd();
  }

  function startItem() {
    return '<li data-after="0"><button type="button" class="mv mv-start" data-ply="0">Start</button></li>';
  }

  function item(note) {
    return moveItems(note, (seat) => state.seats[seat]?.name ?? "", ` data-after="${note.ply}"`);
  }

  // The move shown: the one looked at, or the last one played.
  function markCurrent() {
    const shown = state.looking ?? state.notes.length;
    for (const button of $("movelist-items").querySelectorAll(".mv[aria-current]")) button.removeAttribute("aria-current");
    const current = $("movelist-items").querySelector(`.mv[data-ply="${shown}"]`);
    if (current) current.setAttribute("aria-current", state.looking === null ? "step" : "true");
    $("movelist").classList.toggle("looking", state.looking !== null);
    $("movelist-live").hidden = state.looking === null;
    $("movelist-title").textContent = state.looking === null ? "Moves"
      : state.looking === 0 ? "The start" : `Move ${state.looking} of ${state.notes.length}`;
  }

  function scrollToEnd() {
    const items = $("movelist-items");
    items.scrollTop = items.scrollHeight;
    items.scrollLeft = items.scrollWidth;
  }

  // Show the board after move `ply` (the live board when it is the last one).
  async function lookAt(ply) {
    if (ply >= state.notes.length) { stopLooking(); return; }
    const asked = ++state.asked;
    let past;
    try {
      past = await api("GET", `/api/games/${encodeURIComponent(sessionId())}/positions/${Math.max(0, ply)}`,
        undefined, tokens()[sessionId()]);
    } catch (error) {  // a watcher, while the game is on: only its players may look back
      if (asked === state.asked) toast(error.message);
      return;
    }
    if (asked !== state.asked) return;  // another move was chosen meanwhile
    state.looking = past.ply;
    // without ids: the live board, beside it, keeps them (morph.js finds elements by id)
    $("past-board").innerHTML = past.html.replace(/\sid="[^"]*"/g, "");
    $("past-board").setAttribute("aria-label", `The board after move ${past.ply}`);
    $("board-wrap").classList.add("looking");
    markCurrent();
    const item = $("movelist-items").querySelector(`.mv[data-ply="${past.ply}"]`);
    if (item) scrollIntoList($("movelist-items"), item);
  }

  function stopLooking() {
    state.asked += 1;
    state.looking = null;
    $("board-wrap").classList.remove("looking");
    $("past-board").innerHTML = "";
    if (state.notes.length || !$("movelist").hidden) markCurrent();
  }

  function bind() {
    markEdges($("movelist-items"));
    $("movelist-items").addEventListener("click", (event) => {
      const button = event.target.closest(".mv");
      if (button) lookAt(Number(button.dataset.ply));
    });
    $("movelist-live").addEventListener("click", () => { stopLooking(); scrollToEnd(); });
    // the list's own keys: the board's (input.js) are not for it
    $("movelist").addEventListener("keydown", (event) => {
      const at = state.looking ?? state.notes.length;
      const steps = { ArrowUp: -1, ArrowLeft: -1, ArrowDown: 1, ArrowRight: 1 };
      if (event.key in steps) lookAt(Math.max(0, Math.min(state.notes.length, at + steps[event.key])));
      else if (event.key === "Home") lookAt(0);
      else if (event.key === "End" || event.key === "Escape") stopLooking();
      else if (event.key === "Enter" || event.key === " ") return;  // the button's own click
      else return;
      event.preventDefault(); event.stopPropagation();
      const focus = () => $("movelist-items").querySelector(`.mv[data-ply="${state.looking ?? state.notes.length}"]`)?.focus();
      setTimeout(focus, 0);
    });
  }

  function looking() { return state.looking; }

  // The move list as it stands once `view` is shown (show() may not have had it yet): the
  // notes kept before its `move_list_from`, then its own.
  function notesWith(view) {
    if (!view?.move_list) return [];
    const kept = state.session === view.session ? state.notes.slice(0, view.move_list_from ?? 0) : [];
    return kept.concat(view.move_list);
  }

  return { show, bind, lookAt, stopLooking, looking, notesWith };
}

// The board's room changed (the list came or went): fit.js measures it again.
function refit() { window.dispatchEvent(new Event("resize")); }

// Which ends of the strip (a phone's move list, here and on the replay page) have moves
// beyond them, kept in its data-more as it scrolls or changes size, for app.css to fade
// that edge: the latest move stands whole at the right, and the one the left edge cuts
// reads as more to scroll back to, not as a slip.
export function markEdges(list) {
  const mark = () => {
    const more = [];
    if (list.scrollLeft > 1) more.push("before");
    if (list.scrollLeft + list.clientWidth < list.scrollWidth - 1) more.push("after");
    set(list.dataset, "more", more.join(" "));
  };
  list.addEventListener("scroll", mark, { passive: true });
  new ResizeObserver(mark).observe(list);
}

// A move's line and the passes after it, in the game's list and the replay's: `nameOf`
// names a seat; `after`, the game's list's data-after, ties each line to its move.
// (data-seat: a game's own marks for its seats, Tribolo's ● ■ ◆.)
export function moveItems(note, nameOf, after = "") {
  const passes = note.passed.map((who) => `<li class="mv-pass"${after} style="--seat-color: var(--seat-${who})">`
    + `${seatDot(who)}${escapeHtml(nameOf(who))} passes</li>`).join("");
  return `<li${after}><button type="button" class="mv" data-ply="${note.ply}" data-seat="${note.seat}"`
    + ` style="--seat-color: var(--seat-${note.seat})">`
    + `<span class="visually-hidden">Move </span><span class="mv-n">${note.ply}</span>${seatDot(note.seat)}`
    + `<b class="mv-who">${escapeHtml(nameOf(note.seat))}</b> <span class="mv-text">${moveWords(note.text)}</span></button></li>`
    + passes;
}

// A move's words for a list too narrow for them on one line, broken only after a comma
// ("bottom left," over "wins"; "m10," over "turned 3"), never inside a part: the 200-pixel
// list beside Tic-Tac-Toe's board split "bottom" from "left".
export function moveWords(text) {
  return text.split(/(?<=,) /).map((part) => `<span class="mv-part">${escapeHtml(part)}</span>`).join(" ");
}
