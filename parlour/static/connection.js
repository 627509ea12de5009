// The page's link to its game: which session it shows (an invite link's, a deal's id, the
// last one played, or a new one; a link from outside Parlour asks first, links.js), taking a seat, and the WebSocket to the session: hello
// with the seat's token, sending messages, reconnecting, and handing each message that
// comes back to the part of the page it is for; and telling the server when the page is
// hidden or shown, as the game's clock runs only while a player's page is visible and
// connected. This module owns the session and socket.
import { $, api, escapeHtml, play, saveToken, seatDot, toast, tokens } from "/static/common.js";
import { askDeal, askSeat, openedFromParlour } from "/static/links.js";
import { createProgress } from "/static/progress.js";

// Tries to reconnect come quickly (a restarted local server is back within seconds), each
// spread by a random quarter either way so that a host's many pages do not all come at once
const FIRST_RECONNECT_MS = 250;
const LAST_RECONNECT_MS = 2000;
const OFFLINE_NOTE = "Not connected: reconnecting…";
const UNANSWERED_NOTE = "Not connected: your last move may not have been played. Reconnecting…";

// What the page says it is waiting for, should an answer take over half a second.
const WAITING_FOR = { hint: "Thinking…", move: "Working…", undo: "Working…", redo: "Working…", restart: "Working…" };

// info: the game's catalog entry; views: the views shown (views.js); answered(accepted):
// the server answered (a view, or a refusal): a dragged piece waiting for it is placed or
// sent home, keys pressed meanwhile run (input.js); hello(): what the page says of its
// player besides the token (the computers' speed).
export function createConnection({ info, views, answered, hello = () => ({}) }) {
  const game = info.name;
  const state = {
    sessionId: null,
    socket: null,
    reconnectDelay: FIRST_RECONNECT_MS,
    reconnectTimer: 0,  // the next try to reconnect, while one waits
    openingNote: "",  // what a game opened for the player says, under its first view
    offlineNote: OFFLINE_NOTE,  // what the status line says while the page reconnects
    lastMoveByKey: false,  // the last move sent was made with a key (not a click or a tap)
    unanswered: 0,  // moves sent that the server has not answered yet
  };
  // the panel that shows long work after half a second
  const progress = createProgress({ board: $("board-wrap"), cancel: () => send({ type: "cancel" }) });
  document.addEventListener("visibilitychange", sayIfShown);
  window.addEventListener("online", reconnectNow);

  function sessionId() { return state.sessionId; }

  // -- which session ------------------------------------------------------------------
  // newGameChoices(): the parameters and seats of a new game, should one be started.
  async function choose(newGameChoices) {
    const query = new URLSearchParams(location.search);
    if (query.get("session")) return await joinIfNeeded(query.get("session"));
    if (query.get("id")) {
      if (!openedFromParlour()) await askDeal(info, query.get("id"));  // links.js
      return await create({ id: query.get("id") });
    }
    const last = localStorage.getItem(`parlour.last.${game}`);
    if (last && tokens()[last]) {
      try {
        const seen = await api("GET", `/api/games/${last}`);
        if (seen.status === "playing") return last;
      } catch { /* gone: start afresh */ }
    }
    return await create(newGameChoices());
  }

  // An invite link: with no seat open, watch at once. Opened from outside Parlour, the
  // player sees the game and takes the seat the link names (`&seat=N`), or one of the open
  // ones, or watches (links.js). From Parlour's own pages: the seat named if open, else
  // with one seat open, take it; with several, the player chooses one (or watches).
  async function joinIfNeeded(sid) {
    if (tokens()[sid]) return sid;
    const seen = await api("GET", `/api/games/${encodeURIComponent(sid)}`);
    const open = seen.seats.map((seat, index) => ({ ...seat, index })).filter((seat) => seat.open);
    if (open.length === 0) {  // (a game over has none: its seats stay with its players)
      if (seen.status === "playing") toast("Every seat is taken: you are watching");
      return sid;
    }
    const named = open.find((seat) => String(seat.index) === new URLSearchParams(location.search).get("seat"));
    if (!openedFromParlour()) {
      const seat = await askSeat(info, sid, seen, named ? [named.index] : open.map((s) => s.index));
      if (seat !== null) await takeSeat(sid, seat);
      return sid;
    }
    const seat = named ? named.index : open.length === 1 ? open[0].index : await chooseSeat(seen);
    if (seat !== null) await takeSeat(sid, seat);
    return sid;
  }

  // The seat the player picks in the seat dialog, or null to watch.
  function chooseSeat(seen) {
    const dialog = $("seat-dialog");
    $("seat-choices").innerHTML = seen.seats.map((seat, index) => (seat.open
      ? `<button class="btn seat-choice" value="${index}" style="--seat-color: var(--seat-${index})">`
        + `${seatDot(index)}${escapeHtml(seat.name)}${seat.stand_in ? " <small>(the computer plays it for now)</small>" : ""}</button>`
      : "")).join("");
    return new Promise((resolve) => {
      dialog.addEventListener("close", () => {
        const chosen = Number.parseInt(dialog.returnValue, 10);
        resolve(Number.isNaN(chosen) ? null : chosen);
      }, { once: true });
      dialog.returnValue = "";
      dialog.showModal();
    });
  }

  async function takeSeat(sid, seat) {
    const joined = await api("POST", `/api/games/${encodeURIComponent(sid)}/join`, { seat },
      tokens()[sid]);
    if (!joined.token) { toast("That seat was just taken: you are watching"); return; }
    saveToken(sid, joined.token);
    toast(`You play ${joined.seats.map((s) => joined.view.seats[s].name).join(" and ")}`);
    if (sid === state.sessionId) connect();  // say hello again, with the seat's token
  }

  async function takeSeatNow(seat) {
    try { await takeSeat(state.sessionId, seat); } catch (error) { views.showNote(error.message, true); }
  }

  async function create(options) {
    // a slow deal (Escalator's winnable one, searched for in a worker) is said after half
    // a second: the first game's page shows nothing else meanwhile but an empty table
    progress.waitingFor(info.dealing_note, 0, false);
    let created;
    try {
      // watched: the computers' first moves wait for this page, to be seen as they come
      created = await api("POST", "/api/games", { game, ...options, watch: true });
    } finally {
      progress.doneWaiting();
    }
    saveToken(created.session, created.token);
    return created.session;
  }

  // Show session `sid`. A game opened from another (New game, a rematch, a replay) gets an
  // address of its own in the history, so Back returns to the game before, as on lichess;
  // the page's first game, and one reached by Back or Forward, take the address in place.
  async function open(sid, { inPlace = !state.sessionId } = {}) {
    const address = `/play/${encodeURIComponent(game)}?session=${encodeURIComponent(sid)}`;
    if (inPlace || sid === state.sessionId) history.replaceState(null, "", address);
    else history.pushState(null, "", address);
    // another game (a rematch, a new game from the end card) opens at the page's top: on a
    // phone the page had scrolled to the end card, the new game's seats and status under the bar
    if (state.sessionId && sid !== state.sessionId) window.scrollTo({ top: 0, behavior: "instant" });
    state.sessionId = sid;
    localStorage.setItem(`parlour.last.${game}`, sid);
    views.forget();
    connect();
  }

  // Back or Forward to another game's address: that game, as it stands now, with no
  // dialog of the one left open over it.
  window.addEventListener("popstate", () => {
    const sid = new URLSearchParams(location.search).get("session");
    if (!sid || sid === state.sessionId) return;
    for (const dialog of document.querySelectorAll("dialog[open]")) dialog.close();
    open(sid, { inPlace: true });
  });

  // -- the socket ---------------------------------------------------------------------
  function connect() {
    clearTimeout(state.reconnectTimer);
    state.reconnectTimer = 0;
    if (state.socket) { state.socket.onclose = null; state.socket.close(); }
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(state.sessionId)}`);
    state.socket = ws;
    ws.onopen = () => {
      // the token goes in the first message, not the URL: URLs end up in logs and history
      ws.send(JSON.stringify({ type: "hello", token: tokens()[state.sessionId] ?? null, visible: shown(), ...hello() }));
      state.reconnectDelay = FIRST_RECONNECT_MS; showOffline(false);
      state.offlineNote = OFFLINE_NOTE;
    };
    ws.onmessage = (event) => receive(JSON.parse(event.data));
    ws.onclose = (event) => {
      if (state.socket !== ws) return;
      views.holdClock();  // the server stopped it: a page cut off is a page hidden
      state.openingNote = "";  // what a game opened says is said under its first view, or not
      if (event.code === 4404) { views.showNote("This game no longer exists. Start a new one.", true); return; }
      if (event.code >= 4400 && event.code < 4500) return;  // refused for good: the reason is shown
      showOffline(true);
      // a move sent and not answered may or may not have been played: the view that comes
      // once back shows which, and until then the player is told
      if (state.unanswered) state.offlineNote = UNANSWERED_NOTE;
      state.unanswered = 0;
      // the status line says so too, in place of a turn it can no longer vouch for
      // ("Red (computer) is thinking…"); the next view, once back, replaces it
      views.showNote(state.offlineNote, true);
      state.reconnectTimer = setTimeout(reconnectNow, state.reconnectDelay * (0.75 + Math.random() / 2));
      state.reconnectDelay = Math.min(state.reconnectDelay * 2, LAST_RECONNECT_MS);
    };
  }

  // A try to reconnect waits: make it now (the player acted, the page came back in sight,
  // the network came back), rather than at its time.
  function reconnectNow() {
    if (state.reconnectTimer) connect();
  }

  // The badge, and the board dimmed (app.css: after a moment, so that a quick reconnect
  // does not flash it): a board that looks live while moves cannot reach the game misleads.
  function showOffline(offline) {
    $("offline").hidden = !offline;
    document.body.classList.toggle("offline", offline);
  }

  function shown() { return document.visibilityState === "visible"; }

  // The page was hidden or shown: the clock holds still meanwhile (the server stops it
  // too, unless another player's page is visible: its answer says what the clock shows).
  function sayIfShown() {
    if (!shown()) views.holdClock();
    else reconnectNow();
    if (state.socket && state.socket.readyState === WebSocket.OPEN) {
      state.socket.send(JSON.stringify({ type: "visibility", visible: shown() }));
    }
  }

  // `byKey`: a move made with a key, whose quiet refusal the status line says (below)
  function send(message, { byKey = false } = {}) {
    if (message.type === "move") state.lastMoveByKey = byKey;
    if (!state.socket || state.socket.readyState !== WebSocket.OPEN) {
      // said outright, and kept said through the attempts to reconnect: a move made
      // meanwhile is not kept to be sent later, on a board that may have changed by then
      // (nor is a hint asked for, or an undo)
      const what = message.type === "move" ? "that was not played" : "that was not sent";
      state.offlineNote = `Not connected, so ${what}: reconnecting…`;
      views.showNote(state.offlineNote, true);
      reconnectNow();
      return;
    }
    state.socket.send(JSON.stringify(message));
    if (message.type === "move") state.unanswered += 1;
    const command = message.type === "command" && info.commands.find((c) => c.name === message.name);
    const what = command ? `${command.label.replace(/…$/, "")}…` : WAITING_FOR[message.type];
    if (what) progress.waitingFor(what);
  }

  function receive(message) {
    if (message.type === "clock") { views.setClock(message); return; }  // answers nothing
    if (message.type === "progress") {
      const view = views.current();
      const holder = Boolean(view && view.you.length > 0);
      progress.progressReported({ ...message, cancellable: message.cancellable && holder });
      return;
    }
    progress.doneWaiting();  // anything else answers what the page waited for
    if (message.type === "view" || message.type === "error") state.unanswered = Math.max(0, state.unanswered - 1);
    if (message.type === "progress-end") return;
    if (message.type === "view") {
      views.showView(message.view);
      answered(true);
      // it stays in the status line until the player's first step (a toast went too soon)
      if (state.openingNote) { views.showNote(state.openingNote); state.openingNote = ""; }
    } else if (message.type === "hint") {
      play("hint");
      views.showNote(`Hint: ${message.note || "try the highlighted move"}`);
    } else if (message.type === "note") {
      views.showNote(message.note);
    } else if (message.type === "open") {  // a game opened for this player (a replay)
      saveToken(message.session, message.token);
      state.openingNote = message.note;
      open(message.session);
    } else if (message.type === "error") {
      answered(false);
      // a move the game lets pass (Minesweeper's click on a number not ready to chord)
      // does nothing to see or hear; made with a key, the status line (a live region)
      // says why in plain words, for a player who cannot see that nothing changed
      if (message.quiet) { if (state.lastMoveByKey) views.showNote(message.error); return; }
      play(info.refusal_sound || "error");
      views.showRefusal(message.error, message.marks);
    }
  }

  return { sessionId, choose, chooseSeat, takeSeatNow, create, open, connect, send };
}
