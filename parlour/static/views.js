// Showing a view: what the server sends (the board whole or as a patch, the headline, the
// seats, which buttons work, a take-back asked for) applied to the page in place, the
// status line or note under the headline, the clock and the tab's title. This module owns
// the view shown now; the rest of the page reads it through current().
import { actionAllowed } from "/static/commands.js";
import { $, escapeHtml, formatTime, play, playerNumber, seatDot, set, setText, sharedScreen, whenIdle } from "/static/common.js";
import { endDetail } from "/static/endcard.js";
import { morphInto, patchParts } from "/static/morph.js";
import { keepEndCauseInSight, panBoxTo } from "/static/panbox.js";

// a board on its side: its column runs down the screen, so a cell's left neighbour is above it
const SIDES_ON_ITS_SIDE = { "to its left": "above it", "above it": "to its left",
  "to its right": "below it", "below it": "to its right" };
const REFUSAL_MARK_MS = 1800;  // how long a refusal's marks stay on the board (its blinks, then still)
const PHONE_UPRIGHT = matchMedia("(max-width: 640px) and (orientation: portrait)");  // as app.css's .message

// How the player last acted on the page: "key", or a pointer's type ("mouse", "touch",
// "pen"); null before the first.
let lastInput = null;
document.addEventListener("keydown", () => { lastInput = "key"; }, true);
document.addEventListener("pointerdown", (event) => { lastInput = event.pointerType; }, true);

// endCard: the end card (endcard.js); shown(): called after each view (the menus follow
// it); resync(): a new connection, which starts with a whole view; undoKeys: the keys that
// undo in this game (["U", "Ctrl+Z"]), as Undo's title names them; levelLabels: how
// players read each AI level (the catalog's ai_level_labels); firstNote: what a
// solitaire's status line says before the first move (the game's first_note), where its
// view's play_note says nothing; moveNotes(view):
// the move list once that view is shown (movelist.js), whose passes the status line tells.
export function createViews({ endCard, shown, resync, undoKeys, levelLabels = {}, firstNote, moveNotes = () => [] }) {
  const undoTitle = undoKeys.length ? `Undo (${undoKeys.join(" or ")})` : "Undo";
  const firstUndoKey = undoKeys[0];
  const state = {
    view: null,          // the view shown now; null until a session's first view comes
    viewAt: 0,           // performance.now() when `view` arrived (for the clock)
    viewCount: 0,        // views shown so far (body[data-views], for tests and benchmarks)
    shownChips: "",      // the seats' markup shown now
    note: "",            // a hint's note or an error, shown under the board until the next view
    noteIsError: false,
    noteIsRefusal: false,  // the note is a refused move's, which a new try clears
    marked: [],          // the elements a refusal marks for a moment
    titleWanted: null,   // a title that waits for the page to be idle
    hinted: null,        // the board's cell a hint marked in the view shown now, if any
    fitted: { text: null, tight: false },  // the status line shown, and whether set smaller
    undone: "",          // what the Undo just shown took back ("Took back your d5, ..."), said
                         // until the next view
  };

  const endCauseInSight = keepEndCauseInSight($("board"));  // (panbox.js)

  function current() { return state.view; }

  // A new session is opening: its first view comes without a sound.
  function forget() { state.view = null; }

  // A view from the server; a new view clears the note.
  function showView(next) {
    const first = state.view === null;
    if (first) $("game").removeAttribute("data-no-game");
    state.note = ""; state.noteIsError = false;
    render(next, first ? null : next.sound);
  }

  function render(next, sound) {
    state.undone = sound === "undo" ? takenBack(state.view, next) : "";
    state.view = next;
    state.viewAt = performance.now();
    // (a headline that is the game's name, "Tic Tac Toe", is not said twice)
    showTitle(`${next.headline === next.title ? "" : `${next.headline} · `}${next.title} · Parlour`);
    for (const id of ["headline", "topbar-headline"]) {  // (each's class is its id)
      setText($(id), next.headline);
      set($(id), "className", `${id} ${next.outcome || ""}`);
    }
    const chips = next.seats.length > 1 ? next.seats.map(seatChip).join("") : "";
    // morphed, not rebuilt: a move changes a class or a score, not the chips
    if (chips !== state.shownChips) { morphInto($("seats"), chips); state.shownChips = chips; }
    showBoard(next);
    if (!sound || sound === "undo") spendTransients();
    cursorToHint();
    endCauseInSight();
    // refused by the rules (Escalator's turned card): it looks off, but a tap says why
    const refused = !next.can_undo && Boolean(next.undo_refusal);
    set($("btn-undo"), "disabled", !next.can_undo && !refused);
    set($("btn-undo"), "ariaDisabled", refused ? "true" : null);
    set($("btn-undo"), "title", next.undo_refusal ? `Undo is off: ${next.undo_refusal}`
      : next.undo_asks ? `Ask the other player to take back your last move${firstUndoKey ? ` (${firstUndoKey})` : ""}`
        : next.undo_help ? `${undoTitle}: counts as help, as you have seen ${next.undo_help}` : undoTitle);
    setText($("btn-undo").querySelector(".label"), next.undo_asks ? "Take back" : "Undo");
    showTakeback(next);
    // as the menus' entries and the keys (commands.js)
    for (const action of ["redo", "hint", "assist", "restart"]) {
      set($(`btn-${action}`), "disabled", !actionAllowed(action, next));
    }
    for (const [action, label] of [["hint", "Hint"], ["assist", "Assist"]]) {
      const button = $(`btn-${action}`);
      if (next.help_refusal) button.dataset.title ??= button.title;
      const title = next.help_refusal ? `${label} is off: ${next.help_refusal}` : button.dataset.title;
      if (title !== undefined) set(button, "title", title);
    }
    set($("btn-assist"), "ariaPressed", String(next.assist));
    // the id holds the deal: only the game's owner is sent it before the end
    showDealId(next.id ?? "shown when the game ends");
    set($("game-id"), "title", next.id ?? "");  // the whole id, where a long one is cut short
    set($("btn-copy"), "hidden", !next.id);
    set($("btn-invite"), "hidden", !actionAllowed("invite-link", next));
    set($("assisted"), "hidden", !next.assisted);
    endCard.show(next);
    showNote(state.note, state.noteIsError);
    tickClock();
    shown();
    if (sound) play(soundFor(sound, next));
    state.viewCount += 1;
    document.body.dataset.views = String(state.viewCount);
  }

  // The deal's id, free to break after each ":" and "#" (<wbr>, which a copy leaves out):
  // where it may wrap (a phone's side column), it breaks between its parts, not in a seed.
  function showDealId(id) {
    const code = $("game-id");
    if (code.textContent === id) return;
    code.replaceChildren();
    for (const part of id.split(/(?<=[:#])/)) {
      if (code.firstChild) code.append(document.createElement("wbr"));
      code.append(part);
    }
  }

  // The tab's title says what the headline says, for a player in another tab. Written once
  // the page is idle, after the view's frame: a new title costs that frame 0.3 ms (the
  // browser is told of it), on every move of a game whose headline says whose turn it is.
  function showTitle(text) {
    const waiting = state.titleWanted !== null;
    state.titleWanted = text;
    if (waiting) return;
    whenIdle(() => { set(document, "title", state.titleWanted); state.titleWanted = null; }, 300);
  }

  // A move's passing effect (an element marked data-transient: Ishido's points rising
  // off the tile just placed) plays after that move alone, not when a page shows the
  // board (a reload) nor when an Undo brings back the move before: those are marked spent.
  function spendTransients() {
    for (const effect of $("board").querySelectorAll("[data-transient]")) effect.dataset.transient = "spent";
  }

  // The board comes whole or as a patch: the parts that changed since the last view, the
  // new order of the runs of elements that moved, the ids of those gone.
  function showBoard(next) {
    if (!next.parts) { morphInto($("board"), next.html); return; }
    let patched = false;
    try { patched = patchParts($("board"), next.parts, next.orders, next.gone); } catch (error) { console.error(error); }
    // out of step (should not happen): a new connection starts with a whole view
    if (!patched) resync();
  }

  // A new hint takes the keyboard's cursor to its cell (the board's `.hint[data-nav]`), so
  // that one cell is marked, not two, and H then Enter plays the hint: when the cursor is
  // on the board, when the board as a whole has the focus (Tab), when nothing has it, or
  // when the Hint button asked for it. The focus elsewhere (a menu, a dialog) stays. Not
  // for a finger, nor before the player's first key or click (a hint shown again on a
  // reload): the browser drew a keyboard's ring on a phone (an arrow finds the hint first).
  function cursorToHint() {
    const hinted = $("board").querySelector(".hint[data-nav]");
    const holder = document.activeElement;
    const onBoard = !holder || holder === document.body || holder === $("board-wrap")
      || holder === $("btn-hint") || (holder.matches("[data-nav]") && $("board").contains(holder));
    const byKeyOrMouse = lastInput === "key" || lastInput === "mouse";
    if (hinted && hinted !== state.hinted && holder !== hinted && onBoard && byKeyOrMouse) {
      hinted.focus({ preventScroll: true });
    }
    if (hinted && hinted !== state.hinted) panToHint(hinted);
    state.hinted = hinted;
  }

  // A board that pans in a box of its own (.board-scroll: Minesweeper's Expert on a phone)
  // brings a new hint to the box's middle, along each way it is not well inside already
  // (three cells from the edges): the hint's note, which comes next, may take a line more
  // above the board and make the box a line shorter.
  function panToHint(hinted) {
    const inner = hinted.getBoundingClientRect();
    panBoxTo(hinted, inner, 3 * inner.width, 3 * inner.height);
  }

  function seatChip(seat, index) {
    const view = state.view;
    // a computer's level gives way on a phone (app.css), so that two chips keep one row
    const level = levelLabels[seat.level] ?? seat.level;
    const who = seat.kind === "ai" ? `Computer<span class="level"> (${escapeHtml(level)})</span>`
      : escapeHtml(seat.you ? (sharedScreen(view) ? playerNumber(view, index) : "You")
        : seat.stand_in ? "Computer, for now" : seat.open ? "Open seat" : "Opponent");
    const classes = ["seat"];
    if (view.to_move === index) classes.push("to-move");
    if (view.winners.includes(index)) classes.push("winner");
    if (seat.you && view.you.length < view.seats.length) classes.push("you");  // not on a shared screen
    // a player who holds no seat may sit in an open one (the computer gives it back)
    const sit = seat.open && view.you.length === 0 && view.status === "playing"
      ? `<button class="btn sit" data-take-seat="${index}" title="Play ${escapeHtml(seat.name)}">Sit here</button>`
      // a player may send each open seat its own invite link
      : seat.open && view.you.length > 0 && view.status === "playing"
        ? `<button class="btn sit" data-invite-seat="${index}" title="Copy the invite link for ${escapeHtml(seat.name)}">Invite</button>` : "";
    return `<span class="${classes.join(" ")}" style="--seat-color: var(--seat-${index})" data-seat="${index}">`
      + `${seatDot(index)}<b>${escapeHtml(seat.name)}</b><span class="who">${who}</span>`
      + (seat.score === null ? "" : `<span class="score">${seat.score}</span>`) + sit
      + "</span>";
  }

  // A take-back asked for: the other players answer it, the asker may withdraw it.
  function showTakeback(next) {
    const request = next.takeback;
    set($("takeback"), "hidden", !request);
    if (!request) return;
    const names = request.seats.map((s) => next.seats[s].name).join(" and ");
    const others = next.seats.filter((s) => s.held && !s.you).length > 1 ? "players" : "player";
    // the moves played since go back too: say so ("... and your reply", where it is yours)
    const after = request.moves - 1;
    const since = after === 1 && request.waiting_for_you && next.seats.length === 2 ? "your reply"
      : `the ${after === 1 ? "move" : `${after} moves`} played since`;
    const what = `their last move${after > 0 ? ` and ${since}` : ""}`;
    $("takeback-text").textContent = request.waiting_for_you ? `${names} asks to take back ${what}.`
      : request.yours ? `Waiting for the other ${others} to accept your take-back…`
        : `${names} asked to take back ${what}.`;
    $("takeback-accept").hidden = !request.waiting_for_you;
    $("takeback-refuse").hidden = !(request.waiting_for_you || request.yours);
    $("takeback-refuse").textContent = request.yours ? "Withdraw" : "Refuse";
  }

  function soundFor(sound, next) {
    if (sound === "end") return next.outcome === "won" ? "win" : next.outcome === "lost" ? "lose" : "draw";
    if (sound === "move" && next.can_move) return "ai";  // the other side just moved
    return sound;
  }

  function statusText() {
    const view = state.view;
    if (!view) return "";
    if (view.status !== "playing") return endDetail(view);
    const mover = view.seats[view.to_move];
    if (!mover) return "";
    if (view.you.length === 0) {  // (a solitaire's one seat is "Player": no name to give)
      return view.seats.length === 1 ? "You are watching this game." : `${passedNews(view)}You are watching. ${mover.name} to play.`;
    }
    if (view.playing_back) return "Playing the moves out: click or press a key to take over.";
    if (view.shown && view.can_redo) return "The solver's line: press Redo (Y) to play its next move.";
    // a solitaire: nobody else's turn to tell apart, but a first word for a new player
    if (view.seats.length === 1) return view.play_note || (view.moves === 0 && view.can_move ? firstNote : "");
    return state.undone + passedNews(view) + turnText(view, mover);
  }

  // The moves an Undo took back in a game of several players (to the player's own last
  // turn: the others' replies too), said as the move list names them: "Took back your
  // d5, Red's g3 and Green's h4. "; nothing where the board alone shows it (a solitaire).
  function takenBack(before, after) {
    if (!before || before.session !== after.session || after.seats.length < 2) return "";
    const was = moveNotes(before), now = moveNotes(after);
    if (was.length <= now.length) return "";
    const alone = after.you.length === 1;
    const seat = (index) => after.seats[index];  // (a move list's note names its seat)
    const whose = (index) => (alone && seat(index).you ? "your" : `${seat(index).name}'s`);
    const moves = was.slice(now.length).map((note) => `${whose(note.seat)} ${note.text.split(",")[0]}`);
    const listed = moves.length > 1 ? `${moves.slice(0, -1).join(", ")} and ${moves.at(-1)}` : moves[0];
    return `Took back ${listed}. `;
  }

  function turnText(view, mover) {
    if (view.can_move) {  // players sharing the screen are told by their number (the
      if (view.you.length <= 1) return "Your turn";  // headline names the colour)
      return sharedScreen(view) ? `${playerNumber(view, view.to_move)}: your turn` : `${mover.name} to play`;
    }
    if (mover.kind === "ai" || mover.stand_in) return `${mover.name} (computer) is thinking…`;
    if (mover.open) return "Waiting for a friend: send them the invite link.";
    return `Waiting for ${mover.name}…`;
  }

  // Who could not move and passed since the player to move last moved ("Red passed. "):
  // the move list says so too, but under the board, below the fold of an upright phone,
  // and the computers may have moved on since (Tribolo).
  function passedNews(view) {
    const notes = moveNotes(view);
    const passed = [];
    for (let ply = notes.length - 1; ply >= 0; ply -= 1) {
      const others = notes[ply].passed.filter((seat) => seat !== view.to_move && !passed.includes(seat));
      passed.unshift(...others);
      if (notes[ply].seat === view.to_move) break;
    }
    if (!passed.length) return "";
    const alone = view.you.length === 1;  // "You" for your one seat; names on a shared screen
    const names = passed.map((seat) => (alone && view.seats[seat].you ? "You" : view.seats[seat].name));
    return `${names.join(" and ")} passed. `;
  }

  // A hint's note or an error, kept until the next view; without one, the status line.
  function showNote(text, isError = false) {
    // a take-back this player asked for: its banner says so, with Withdraw
    if (state.view?.takeback?.yours && !isError) text = "";
    state.note = text; state.noteIsError = isError; state.noteIsRefusal = false;
    const message = $("message");
    const status = statusText();
    const seen = asSeen(text);
    const shown = seen || (status === state.view?.headline ? "" : status);  // not said twice
    const kind = `message${isError ? " error" : ""}`;
    if (shown !== state.fitted.text) {  // (measured once a text: a move keeps its status line)
      set(message, "className", kind);
      if (seen === text) setText(message, shown);
      else sayAsWalked(message, seen, text);
      state.fitted = { text: shown, tight: overRoom(message) };
    }
    set(message, "className", `${kind}${state.fitted.tight ? " tight" : ""}`);
  }

  // On a phone the status line keeps two lines' room (app.css): a note that runs to a third
  // (three in four of Minesweeper's hints on a 390-pixel phone) is set smaller to fit it,
  // so that the board under it does not move down a line as the note comes and back up as
  // it goes.
  function overRoom(message) {
    if (!message.textContent || !PHONE_UPRIGHT.matches) return false;
    return message.scrollHeight > Number.parseFloat(getComputedStyle(message).minHeight) + 1;
  }

  // A move refused: its reason, and for a moment a mark on the board's elements it is
  // about (`marks`, their ids: Ishido's tile that does not match), until a new try.
  function showRefusal(text, marks = []) {
    showNote(text, true);
    state.noteIsRefusal = true;
    unmark();
    state.marked = marks.map((id) => document.getElementById(id)).filter((element) => element && $("board").contains(element));
    for (const element of state.marked) element.classList.add("refusal-cause");
    if (state.marked.length) setTimeout(unmark, REFUSAL_MARK_MS);
  }

  function unmark() {
    for (const element of state.marked) element.classList.remove("refusal-cause");
    state.marked = [];
  }

  // A new try (a drag begins): the last refusal has been read, and would hide the status.
  function clearRefusal() {
    if (state.noteIsRefusal) showNote("");
    unmark();
  }

  // A board standing on its side (a wide one on a tall phone, .sideways-on-phone in
  // app.css) shows its rows as columns: a note names a cell, or the side a neighbour is
  // on ("the one to its left", Ishido's), as the player sees it.
  function asSeen(text) {
    const grid = $("board").querySelector(".sideways-on-phone");
    if (!text || !grid || getComputedStyle(grid).flexDirection !== "row") return text;
    return text.replace(/\b(row (\d+), column|column (\d+), row) (\d+)/g,
      (_, words, row, column, other) => row ? `row ${other}, column ${row}` : `column ${other}, row ${column}`)
      .replace(/\b(to its left|to its right|above it|below it)\b/g, (side) => SIDES_ON_ITS_SIDE[side]);
  }

  // A board on its side is seen turned, but a screen reader walks its grid as written (row
  // by row, markup.grid_rows): the eye reads the note as seen, the ear as the grid is walked.
  function sayAsWalked(message, seen, walked) {
    const eye = document.createElement("span"), ear = document.createElement("span");
    eye.setAttribute("aria-hidden", "true");
    eye.textContent = seen;
    ear.className = "visually-hidden";
    ear.textContent = walked;
    message.replaceChildren(eye, ear);
  }

  // The server's clock started or stopped: {elapsed_ms, clock_running}, as a view has them.
  function setClock({ elapsed_ms, clock_running }) {
    if (!state.view) return;
    state.view = { ...state.view, elapsed_ms, clock_running };
    state.viewAt = performance.now();
    tickClock();
  }

  // The page is hidden or cut off: the clock stands still until the server says more.
  function holdClock() {
    if (state.view?.clock_running) setClock({ elapsed_ms: clockReading(), clock_running: false });
  }

  function clockReading() {
    const view = state.view;
    return view.elapsed_ms + (view.clock_running ? performance.now() - state.viewAt : 0);
  }

  function tickClock() {
    const view = state.view;
    if (!view) return;
    const elapsed = clockReading();
    setText($("clock"), view.moves || view.elapsed_ms ? `⏱ ${formatTime(elapsed)}` : "");
    for (const clock of $("board").querySelectorAll("[data-clock=seconds]")) {
      const seconds = String(Math.min(999, Math.floor(elapsed / 1000))).padStart(3, "0");
      setText(clock, seconds);
    }
  }

  return { current, forget, showView, showNote, showRefusal, clearRefusal, tickClock, setClock, holdClock };
}
