// Long work the page waits for (a hint, the computer's move, a solver table being built):
// after half a second without an answer, a panel under the board says what is being done,
// how far it has got (when the server knows), how long it has taken, and offers Cancel.
// An answer that comes sooner shows nothing; the panel goes as soon as the answer comes.
import { formatTime, setText } from "/static/common.js";

const SHOW_AFTER_MS = 500;
const TICK_MS = 250;

// board: the element the panel follows; cancel(): called when the player clicks Cancel
// (without it, as for a spectator, there is no Cancel button).
export function createProgress({ board, cancel }) {
  const panel = document.createElement("div");
  panel.className = "progress-panel";
  panel.setAttribute("role", "status");
  panel.setAttribute("aria-live", "polite");
  panel.hidden = true;
  // the text is read out when it changes; the bar and the seconds are not (they tick)
  panel.innerHTML = '<div class="progress-text"><span class="progress-what"></span>'
    + '<span class="progress-note"></span></div>'
    + '<div class="progress-bar" role="progressbar" aria-label="Progress" aria-valuemin="0" aria-valuemax="100">'
    + '<div class="progress-fill"></div></div>'
    + '<span class="progress-time" aria-hidden="true"></span>'
    + '<button type="button" class="btn progress-cancel">Cancel</button>';
  board.after(panel);
  const part = (name) => panel.querySelector(`.progress-${name}`);
  part("cancel").hidden = !cancel;
  part("cancel").addEventListener("click", () => { doneWaiting(); cancel(); });

  let startedAt = null;   // performance.now() when the wait began; null: not waiting
  let showTimer = 0, tickTimer = 0;
  let done = null;

  // The page has asked for something slow: `what` says what, for the player ("Thinking…").
  // `waitedMs`: how long the work has already run (the server tells it); `cancellable`:
  // false for work Cancel cannot stop (a new game's deal).
  function waitingFor(what, waitedMs = 0, cancellable = true) {
    part("cancel").hidden = !cancel || !cancellable;
    setText(part("what"), what);  // read out once
    if (startedAt !== null) return;  // already waiting: the clock runs on
    startedAt = performance.now() - waitedMs;
    done = null;
    part("note").textContent = "";
    showTimer = setTimeout(show, Math.max(0, SHOW_AFTER_MS - waitedMs));
  }

  // The server's {"type": "progress", what, done, note, elapsed_ms, cancellable}: done
  // from 0 to 1, or null. A report that comes unasked (the computer's own turn) starts
  // the wait, as long ago as the work began.
  function progressReported({ what, done: reported = null, note = "", elapsed_ms = 0, cancellable = true }) {
    waitingFor(what || part("what").textContent || "Working…", elapsed_ms, cancellable);
    done = typeof reported === "number" ? Math.min(1, Math.max(0, reported)) : null;
    setText(part("note"), note);
    if (!panel.hidden) draw();
  }

  // The answer came (or the wait was given up): hide at once.
  function doneWaiting() {
    clearTimeout(showTimer); clearInterval(tickTimer);
    startedAt = null;
    if (!panel.hidden) panel.hidden = true;  // called on every view: a write costs a style pass
  }

  function show() {
    panel.hidden = false;
    draw();
    tickTimer = setInterval(draw, TICK_MS);
  }

  function draw() {
    const bar = part("bar");
    bar.classList.toggle("indeterminate", done === null);
    if (done === null) bar.removeAttribute("aria-valuenow");
    else bar.setAttribute("aria-valuenow", String(Math.round(done * 100)));
    part("fill").style.width = done === null ? "" : `${done * 100}%`;
    const elapsed = performance.now() - startedAt;
    const percent = done === null ? "" : `${Math.round(done * 100)}% · `;
    part("time").textContent = percent + (elapsed < 60_000 ? `${Math.floor(elapsed / 1000)} s` : formatTime(elapsed));
  }

  return { waitingFor, progressReported, doneWaiting };
}
