// Hold to see: a board's element marked data-peek (the sliding puzzle's finished picture)
// shows something while it is held down, with a mouse, a finger or a pen. Meanwhile the
// board's frame has the class "peeking", and the game's stylesheet shows what peeking
// shows (the picture full size over the board); letting go returns. A quick tap, Enter or
// Space on it, or the "peek" action (a command's key, the sliding puzzle's F) show it until
// pressed again; Esc, a press on the board or the next view return too. Holding the key
// down and letting go returns as letting go of the mouse does. Nothing is sent: it is a look.
import { $ } from "/static/common.js";

const HOLD_MS = 300;  // pressed this long, it was a hold: letting go returns

export function createPeek() {
  const wrap = $("board-wrap");
  const state = {
    since: 0,             // when the key or the pointer began showing it
    byKey: false,         // the key showed it: letting go of a key after a hold returns
    keyRepeats: false,    // the key event being handled is the key held down, repeating
  };

  const showing = () => wrap.classList.contains("peeking");

  function show(on) {
    if (on && !wrap.querySelector("[data-peek]")) return;  // this board has nothing to show
    wrap.classList.toggle("peeking", on);
    if (!on) state.byKey = false;
  }

  // The peek action: a key shows it, or returns if it is showing.
  function toggle() {
    if (state.keyRepeats) return;  // the key held down: its repeats change nothing
    if (showing()) { show(false); return; }
    show(true);
    state.since = performance.now();
    state.byKey = true;
  }

  function bind() {
    // in the capture phase: the board's own handlers (clicks, swipes) never see the press
    wrap.addEventListener("pointerdown", (event) => {
      const handle = event.target.closest("[data-peek]");
      if (!handle) {
        if (!showing()) return;
        show(false);  // a press on what covers the board returns, and plays nothing
        event.stopPropagation();
        return;
      }
      event.stopPropagation();
      if (event.button !== 0) return;
      event.preventDefault();  // no text selection, no focus ring from a mouse
      const wasShowing = showing();
      show(true);
      const since = performance.now();
      const release = () => {
        document.removeEventListener("pointerup", release);
        document.removeEventListener("pointercancel", release);
        if (wasShowing || performance.now() - since >= HOLD_MS) show(false);
      };
      document.addEventListener("pointerup", release);
      document.addEventListener("pointercancel", release);
    }, { capture: true });
    wrap.addEventListener("click", (event) => {
      if (!event.target.closest("[data-peek]")) return;
      event.stopPropagation();
      if (event.detail === 0) toggle();  // Enter or Space on the focused thumbnail
    }, { capture: true });
    wrap.addEventListener("contextmenu", (event) => {
      if (event.target.closest("[data-peek]")) event.preventDefault();  // a long press is a look
    }, { capture: true });
    document.addEventListener("keydown", (event) => {
      state.keyRepeats = event.repeat;
      if (event.key === "Escape" && showing() && !document.querySelector("dialog[open]")) {
        event.stopPropagation();
        show(false);
      }
    }, { capture: true });
    document.addEventListener("keyup", (event) => {
      state.keyRepeats = false;
      if (state.byKey && showing() && performance.now() - state.since >= HOLD_MS
          && !["Shift", "Control", "Alt", "Meta"].includes(event.key)) show(false);
    });
  }

  return { bind, toggle, hide: () => show(false) };
}
