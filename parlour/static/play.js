// The game page, the same for every game: it knows no rules. The server sends views
// (markup with actions declared as data attributes); this turns clicks, right clicks,
// long presses, drags and keys into messages, and applies each new view in place.
import {
  api, applyPrefs, escapeHtml, formatTime, loadPrefs, LOGO, play, savePrefs, saveToken,
  nextTheme, set, setText, THEMES, toast, tokens, warmSounds, whenIdle,
} from "/static/common.js";
import { createMenus, declaredKeyName, eventKeyName } from "/static/menus.js";
import { morphInto, patchParts } from "/static/morph.js";
import { createMusic } from "/static/music.js";
import { createProgress } from "/static/progress.js";

const GAME = decodeURIComponent(location.pathname.split("/")[2] || "");
const $ = (id) => document.getElementById(id);
const LONG_PRESS_MS = 450;
const DRAG_THRESHOLD_PX = 6;
const SWIPE_PX = 24;

let info = null;          // this game's catalog entry
let sessionId = null;
let socket = null;
let view = null;
let viewAt = 0;           // performance.now() when `view` arrived (for the clock)
let viewCount = 0;
let shownChips = "";      // the seats' markup shown now
let reconnectDelay = 500;
let note = "";            // a hint's note or an error, shown under the board until the next view
let noteIsError = false;
let menus = null;         // the menu bar, drawn from the game's commands
let progress = null;      // the panel that shows long work after half a second
let music = null;         // the game's background music (GameSpec.music), if it has some
const keyCommands = new Map();  // a key's canonical name -> the command it runs

// -- starting -------------------------------------------------------------------------
async function start() {
  document.body.dataset.game = GAME;  // for a game's stylesheet to style the page around its board
  $("logo").innerHTML = LOGO;
  const catalog = await api("GET", "/api/catalog");
  info = catalog.games.find((g) => g.name === GAME);
  $("game-title").textContent = info.title;
  $("game-css").href = `/games/${GAME}/view.css`;
  $("btn-stats").href = `/stats?game=${encodeURIComponent(GAME)}`;
  $("rules").innerHTML = info.rules_html;
  $("keys").innerHTML = shortcutRows();
  $("about-title").textContent = `About ${info.title}`;
  $("about").innerHTML = info.about_html;
  bindCommands();
  progress = createProgress({ board: $("board-wrap"), cancel: () => send({ type: "cancel" }) });
  $("btn-hint").hidden = !info.has_hints;
  $("btn-assist").hidden = !info.has_assist;
  applyGameOptions();
  bindToolbar();
  bindBoard();
  fitBoardToScreen();
  document.addEventListener("keydown", onKey);
  bindPictureDrops();
  if (info.music) startMusicOnGestures();
  warmSounds();
  setInterval(tickClock, 250);
  showPrefs();
  try {
    await openSession(await chooseSession());
  } catch (error) {
    showNote(error.message, true);
  }
}

async function chooseSession() {
  const query = new URLSearchParams(location.search);
  if (query.get("session")) return await joinIfNeeded(query.get("session"));
  if (query.get("id")) return await createSession({ id: query.get("id") });
  const last = localStorage.getItem(`parlour.last.${GAME}`);
  if (last && tokens()[last]) {
    try {
      const seen = await api("GET", `/api/games/${last}`);
      if (seen.status === "playing") return last;
    } catch { /* gone: start afresh */ }
  }
  return await createSession(newGameChoices());
}

// An invite link: the seat it names (`&seat=N`) if open, else with one seat open, take it;
// with several, the player chooses one (or watches); with none, watch.
async function joinIfNeeded(sid) {
  if (tokens()[sid]) return sid;
  const seen = await api("GET", `/api/games/${encodeURIComponent(sid)}`);
  const open = seen.seats.map((seat, index) => ({ ...seat, index })).filter((seat) => seat.open);
  if (open.length === 0) { toast("Every seat is taken: you are watching"); return sid; }
  const named = open.find((seat) => String(seat.index) === new URLSearchParams(location.search).get("seat"));
  const seat = named ? named.index : open.length === 1 ? open[0].index : await chooseSeat(seen);
  if (seat !== null) await takeSeat(sid, seat);
  return sid;
}

// The seat the player picks in the seat dialog, or null to watch.
function chooseSeat(seen) {
  const dialog = $("seat-dialog");
  $("seat-choices").innerHTML = seen.seats.map((seat, index) => (seat.open
    ? `<button class="btn seat-choice" value="${index}" style="--seat-color: var(--seat-${index})">`
      + `<span class="dot"></span>${escapeHtml(seat.name)}${seat.stand_in ? " <small>(the computer plays it for now)</small>" : ""}</button>`
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
  if (sid === sessionId) connect();  // say hello again, with the seat's token
}

async function takeSeatNow(seat) {
  try { await takeSeat(sessionId, seat); } catch (error) { showNote(error.message, true); }
}

async function createSession(options) {
  const created = await api("POST", "/api/games", { game: GAME, ...options });
  saveToken(created.session, created.token);
  return created.session;
}

async function openSession(sid) {
  sessionId = sid;
  localStorage.setItem(`parlour.last.${GAME}`, sid);
  history.replaceState(null, "", `/play/${encodeURIComponent(GAME)}?session=${encodeURIComponent(sid)}`);
  view = null;
  connect();
}

// -- the connection ------------------------------------------------------------------
function connect() {
  if (socket) { socket.onclose = null; socket.close(); }
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(sessionId)}`);
  socket = ws;
  ws.onopen = () => {
    // the token goes in the first message, not the URL: URLs end up in logs and history
    ws.send(JSON.stringify({ type: "hello", token: tokens()[sessionId] ?? null }));
    reconnectDelay = 500; $("offline").hidden = true;
  };
  ws.onmessage = (event) => receive(JSON.parse(event.data));
  ws.onclose = (event) => {
    if (socket !== ws) return;
    if (event.code === 4404) { showNote("This game no longer exists. Start a new one.", true); return; }
    if (event.code >= 4400 && event.code < 4500) return;  // refused for good: the reason is shown
    $("offline").hidden = false;
    setTimeout(connect, reconnectDelay);
    reconnectDelay = Math.min(reconnectDelay * 2, 5000);
  };
}

// What the page says it is waiting for, should an answer take over half a second.
const WAITING_FOR = { hint: "Thinking…", move: "Working…", undo: "Working…", redo: "Working…", restart: "Working…" };

function send(message) {
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    showNote("Not connected: reconnecting…", true);
    return;
  }
  socket.send(JSON.stringify(message));
  const command = message.type === "command" && info.commands.find((c) => c.name === message.name);
  const what = command ? `${command.label.replace(/…$/, "")}…` : WAITING_FOR[message.type];
  if (what) progress.waitingFor(what);
}

function receive(message) {
  if (message.type === "progress") {
    const holder = Boolean(view && view.you.length > 0);
    progress.progressReported({ ...message, cancellable: message.cancellable && holder });
    return;
  }
  progress.doneWaiting();  // anything else answers what the page waited for
  if (message.type === "progress-end") return;
  if (message.type === "view") {
    const first = view === null;
    note = ""; noteIsError = false;
    render(message.view, first ? null : message.view.sound);
    settleDrop(true);
  } else if (message.type === "hint") {
    play("hint");
    showNote(`Hint: ${message.note || "try the highlighted move"}`);
  } else if (message.type === "note") {
    showNote(message.note);
  } else if (message.type === "open") {  // a game opened for this player (a replay)
    saveToken(message.session, message.token);
    openSession(message.session).then(() => toast(message.note));
  } else if (message.type === "error") {
    settleDrop(false);
    play(info.refusal_sound || "error");
    showNote(message.error, true);
  }
}

// -- showing a view ----------------------------------------------------------------
function render(next, sound) {
  view = next;
  viewAt = performance.now();
  showTitle(`${next.headline} · ${next.title} · Parlour`);
  const headline = $("headline");
  setText(headline, next.headline);
  set(headline, "className", `headline ${next.outcome || ""}`);
  const chips = next.seats.length > 1 ? next.seats.map(seatChip).join("") : "";
  // morphed, not rebuilt: a move changes a class or a score, not the chips
  if (chips !== shownChips) { morphInto($("seats"), chips); shownChips = chips; }
  showBoard(next);
  const holder = next.you.length > 0;  // holds a seat: not a spectator
  set($("btn-undo"), "disabled", !next.can_undo);
  set($("btn-undo"), "title", next.undo_refusal ? `Undo is off: ${next.undo_refusal}`
    : next.undo_asks ? "Ask the other player to take back your last move (U)" : "Undo (U or Ctrl+Z)");
  setText($("btn-undo").querySelector(".label"), next.undo_asks ? "Take back" : "Undo");
  showTakeback(next);
  set($("btn-redo"), "disabled", !next.can_redo);
  set($("btn-hint"), "disabled", !next.can_move);
  set($("btn-assist"), "ariaPressed", String(next.assist));
  set($("btn-assist"), "disabled", !holder);
  set($("btn-restart"), "disabled", !next.can_restart);
  // the id holds the deal: only the game's owner is sent it before the end
  setText($("game-id"), next.id ?? "shown when the game ends");
  set($("game-id"), "title", next.id ?? "");  // the whole id, where a long one is cut short
  set($("btn-copy"), "hidden", !next.id);
  set($("btn-invite"), "hidden", !(holder && next.seats.some((s) => s.open)));
  set($("assisted"), "hidden", !next.assisted);
  showEndCard(next);
  showNote(note, noteIsError);
  tickClock();
  menus.update();
  if (sound) play(soundFor(sound, next));
  viewCount += 1;
  document.body.dataset.views = String(viewCount);
}

// The tab's title says what the headline says, for a player in another tab. Written once
// the page is idle, after the view's frame: a new title costs that frame 0.3 ms (the
// browser is told of it), on every move of a game whose headline says whose turn it is.
let titleWanted = null;  // a title that waits for the page to be idle
function showTitle(text) {
  const waiting = titleWanted !== null;
  titleWanted = text;
  if (waiting) return;
  whenIdle(() => { set(document, "title", titleWanted); titleWanted = null; }, 300);
}

// The board comes whole or as a patch: the parts that changed since the last view, the
// new order of the runs of elements that moved, the ids of those gone.
function showBoard(next) {
  if (!next.parts) { morphInto($("board"), next.html); return; }
  let patched = false;
  try { patched = patchParts($("board"), next.parts, next.orders, next.gone); } catch (error) { console.error(error); }
  // out of step (should not happen): a new connection starts with a whole view
  if (!patched) connect();
}

function seatChip(seat, index) {
  const who = seat.kind === "ai" ? `Computer (${seat.level})` : seat.you ? "You"
    : seat.stand_in ? "Computer, for now" : seat.open ? "Open seat" : "Friend";
  const classes = ["seat"];
  if (view.to_move === index) classes.push("to-move");
  if (view.winners.includes(index)) classes.push("winner");
  // a player who holds no seat may sit in an open one (the computer gives it back)
  const sit = seat.open && view.you.length === 0 && view.status === "playing"
    ? `<button class="btn sit" data-take-seat="${index}" title="Play ${escapeHtml(seat.name)}">Sit here</button>`
    // a player may send each open seat its own invite link
    : seat.open && view.you.length > 0 && view.status === "playing"
      ? `<button class="btn sit" data-invite-seat="${index}" title="Copy the invite link for ${escapeHtml(seat.name)}">Invite</button>` : "";
  return `<span class="${classes.join(" ")}" style="--seat-color: var(--seat-${index})" data-seat="${index}">`
    + `<span class="dot"></span><b>${escapeHtml(seat.name)}</b><span class="who">${escapeHtml(who)}</span>`
    + `<span class="score">${seat.score}</span>${sit}`
    + "</span>";
}

// A take-back asked for: the other players answer it, the asker may withdraw it.
function showTakeback(next) {
  const request = next.takeback;
  set($("takeback"), "hidden", !request);
  if (!request) return;
  const names = request.seats.map((s) => next.seats[s].name).join(" and ");
  const others = next.seats.filter((s) => s.held && !s.you).length > 1 ? "players" : "player";
  $("takeback-text").textContent = request.waiting_for_you ? `${names} asks to take back their last move.`
    : request.yours ? `Waiting for the other ${others} to accept your take-back…`
      : `${names} asked to take back their last move.`;
  $("takeback-accept").hidden = !request.waiting_for_you;
  $("takeback-refuse").hidden = !(request.waiting_for_you || request.yours);
  $("takeback-refuse").textContent = request.yours ? "Withdraw" : "Refuse";
}

// -- the board fits the first screen ----------------------------------------------------
// The page measures the room the chrome leaves the board: the window's height less what is
// above the board (bars, headline, status line, seats) and the deal line under it, and the
// board area's width. A game's stylesheet sizes its board to var(--board-room-h) and
// var(--board-room-w) (px, on #board-wrap), so board and status fit the first screen.
const MIN_BOARD_ROOM_PX = 160;

function fitBoardToScreen() {
  const wrap = $("board-wrap");
  const measure = () => {
    const style = getComputedStyle(wrap);
    const px = (value) => Number.parseFloat(value) || 0;
    const top = wrap.getBoundingClientRect().top + window.scrollY;
    const idbar = document.querySelector(".idbar");
    const main = getComputedStyle(wrap.parentElement);
    const below = idbar.offsetHeight + px(main.rowGap) + px(main.paddingBottom);
    const height = document.documentElement.clientHeight - top - below
      - px(style.paddingTop) - px(style.paddingBottom);
    const width = wrap.clientWidth - px(style.paddingLeft) - px(style.paddingRight);
    setRoom(wrap, "--board-room-h", Math.max(MIN_BOARD_ROOM_PX, Math.floor(height)));
    setRoom(wrap, "--board-room-w", Math.max(MIN_BOARD_ROOM_PX, Math.floor(width)));
  };
  // what is above the board changes height (a status line wraps, seats appear): measure
  // again, after layout and before paint; and whenever the window changes size
  const above = new ResizeObserver(measure);
  for (const element of [document.querySelector(".topbar"), document.querySelector(".status-row"),
    $("seats"), $("takeback"), document.querySelector(".idbar")]) above.observe(element);
  window.addEventListener("resize", measure);
  measure();
}

function setRoom(wrap, name, pixels) {
  const value = `${pixels}px`;
  if (wrap.style.getPropertyValue(name) !== value) wrap.style.setProperty(name, value);
}

// -- the end of a game: the status row becomes a card with the result (the game's
// headline), whose it is, the time and the game's own figures, and what next: New game (a
// new deal like this one) or Replay (the same deal again). It sits above the board, which
// re-fits under it, so the final board stays whole in sight; ✕ or Esc puts it away.
let endCardFor = null;  // the session and line whose end the card shows (or was put away for)

function showEndCard(next) {
  if (next.status === "playing") { endCardFor = null; setEndCard(false); return; }
  const key = `${next.session}:${next.line_length}`;
  if (endCardFor === key) return;  // shown already, or put away: later views keep it so
  endCardFor = key;
  const figures = [["Time", formatTime(next.elapsed_ms)], ...next.end_figures.map(({ label, value }) => [label, value])];
  $("end-figures").innerHTML = figures.map(([label, value]) =>
    `<div><dt>${escapeHtml(label)}</dt><dd>${escapeHtml(String(value))}</dd></div>`).join("");
  $("end-replay").hidden = !(next.can_restart || next.id);
  setEndCard(true);
}

function setEndCard(shown) {
  set($("end-card"), "hidden", !shown);
  $("status-row").classList.toggle("ended", shown);
}

// Whose result it is, in a few words (the headline above is the game's own).
function endDetail(next) {
  const help = next.assisted ? " (with help)" : "";
  if (next.you.length === 0) return "The game is over.";
  if (next.seats.length > 1 && next.you.length === next.seats.length) {  // all seats at one screen
    const winners = next.winners.map((seat) => next.seats[seat].name);
    return next.status === "draw" || winners.length !== 1 ? `A draw${help}.` : `${winners[0]} won${help}. Well played!`;
  }
  if (next.outcome === "won") return next.seats.length > 1 ? `You won${help}. Well played!` : `Well played${help}!`;
  if (next.outcome === "draw") return `A draw${help}.`;
  return next.seats.length > 1 ? `You lost this one${help}.` : `Better luck with the next deal${help}.`;  // the headline says it is over
}

function hideEndCard() {
  setEndCard(false);
  $("board-wrap").focus({ preventScroll: true });
}

// The same deal again: restarted in place where the player may, else as a new game of it.
async function replayDeal() {
  if (view.can_restart) { send({ type: "restart" }); return; }
  const seats = view.seats.map((s) => (s.kind === "ai" ? `ai:${s.level}` : s.open ? "open" : "human"));
  try { await openSession(await createSession({ id: view.id, seats })); } catch (error) { showNote(error.message, true); }
}

function soundFor(sound, next) {
  if (sound === "end") return next.outcome === "won" ? "win" : next.outcome === "lost" ? "lose" : "draw";
  if (sound === "move" && next.can_move) return "ai";  // the other side just moved
  return sound;
}

function statusText() {
  if (!view) return "";
  if (view.status !== "playing") return endDetail(view);
  const mover = view.seats[view.to_move];
  if (!mover) return "";
  if (view.you.length === 0) return `You are watching. ${mover.name} to play.`;
  if (view.playing_back) return "Playing the moves out: click or press a key to take over.";
  if (view.can_move) return view.you.length > 1 && view.seats.length > 1 ? `${mover.name} to play` : "Your turn";
  if (mover.kind === "ai" || mover.stand_in) return `${mover.name} (computer) is thinking…`;
  if (mover.open) return "Waiting for a friend: send them the invite link.";
  return `Waiting for ${mover.name}…`;
}

function showNote(text, isError = false) {
  note = text; noteIsError = isError;
  const message = $("message");
  set(message, "className", `message${isError ? " error" : ""}`);
  const status = statusText();
  setText(message, text || (status === view?.headline ? "" : status));  // not said twice
}

function tickClock() {
  if (!view) return;
  const running = view.clock_running ? performance.now() - viewAt : 0;
  const elapsed = view.elapsed_ms + running;
  setText($("clock"), view.moves || view.elapsed_ms ? `⏱ ${formatTime(elapsed)}` : "");
  for (const clock of $("board").querySelectorAll("[data-clock=seconds]")) {
    const seconds = String(Math.min(999, Math.floor(elapsed / 1000))).padStart(3, "0");
    setText(clock, seconds);
  }
}

// -- commands: the menus, the keys, the toolbar ----------------------------------------
// The page's own actions. A game's commands (see the catalog) name one of these, start a
// new game, choose a display option or ask the server; `data-command` on a board names one.
const COMMANDS = {
  new: () => openNewDialog(),
  restart: () => send({ type: "restart" }),
  undo: () => send({ type: "undo" }),
  redo: () => send({ type: "redo" }),
  hint: () => send({ type: "hint" }),
  assist: () => send({ type: "assist", on: !view.assist }),
  help: () => openHelp($("help-title")),
  keys: () => openHelp($("keys-title")),
  about: () => $("about-dialog").showModal(),
  again: () => newGameLikeThis(),
  theme: () => cycleTheme(),
  display: () => openDisplayDialog(),
  sound: () => toggleSound(),
  "copy-link": () => copy(dealLink(), "Link to this deal copied"),
  "invite-link": () => copy(inviteLink(), "Invite link copied: send it to a friend"),
  stats: () => { location.href = $("btn-stats").href; },
  quit: () => { location.href = "/"; },
  api: () => { location.href = "/docs"; },
  export: () => exportGame(),
  import: () => importGame(),
  "take-seat": async () => { const seat = await chooseSeat(view); if (seat !== null) takeSeatNow(seat); },
  "leave-seat": () => { send({ type: "leave" }); toast("You left your seat: it is open, and you may take it again"); },
  mute: () => setSound(false),
  unmute: () => setSound(true),
  play: () => { for (const open of document.querySelectorAll("dialog[open]")) open.close(); syncMusic(); },
};

function bindCommands() {
  for (const command of info.commands) {
    for (const key of command.keys) keyCommands.set(declaredKeyName(key), command);
  }
  menus = createMenus({
    root: $("menus"), menus: info.menus, commands: info.commands, run: runCommand,
    state: { enabled: commandEnabled, checked: commandChecked }, home: $("board-wrap"),
  });
  menus.update();
}

function runCommand(command) {
  if (command.args.action === "undo" && !view?.can_undo && view?.undo_refusal) {
    play(info.refusal_sound || "error");
    showNote(`Undo is off: ${view.undo_refusal}`, true);  // say why rather than do nothing
    return;
  }
  if (!commandEnabled(command)) return;
  const args = command.args;
  if (command.kind === "client") COMMANDS[args.action]?.();
  else if (command.kind === "new-game") newGameWith(args.params, args.seats);
  else if (command.kind === "option") chooseGameOption(args.option, args.value);
  else if (command.kind === "server") send({ type: "command", name: command.name });
}

// What the view allows: a command does nothing while its entry (and button) is disabled.
function commandEnabled(command) {
  if (command.kind === "server") return Boolean(view?.commands?.[command.name]);
  if (command.kind !== "client") return true;
  const holder = Boolean(view && view.you.length > 0);
  switch (command.args.action) {
    case "restart": return Boolean(view?.can_restart);
    case "undo": return Boolean(view?.can_undo);
    case "redo": return Boolean(view?.can_redo);
    case "hint": return Boolean(view?.can_move);
    case "assist": return holder;
    case "copy-link": return Boolean(view?.id);
    case "invite-link": return holder && view.seats.some((s) => s.open);
    case "export": return holder && Boolean(view.id);
    case "take-seat": return !holder && view?.status === "playing" && view.seats.some((s) => s.open);
    case "leave-seat": return Boolean(view?.can_leave);
    default: return true;
  }
}

// Entries that show a tick: switches and display options (null: a plain entry).
function commandChecked(command) {
  if (command.kind === "option") return gameOptions()[command.args.option] === command.args.value;
  if (command.kind !== "client") return null;
  if (command.args.action === "assist") return Boolean(view?.assist);
  if (command.args.action === "sound") return loadPrefs().sound;
  return null;
}

// The key a player pressed, as a command; Shift+U is U when nothing takes Shift+U.
function commandForKey(event) {
  const name = eventKeyName(event);
  return keyCommands.get(name) || (event.shiftKey ? keyCommands.get(name.replace("shift+", "")) : undefined);
}

// -- toolbar, dialogs, preferences ---------------------------------------------------

function bindToolbar() {
  for (const name of ["new", "restart", "undo", "redo", "hint", "assist", "help", "sound"]) {
    $(`btn-${name}`).addEventListener("click", () => COMMANDS[name]());
  }
  $("btn-theme").addEventListener("click", () => COMMANDS.display());
  $("btn-copy").addEventListener("click", () => COMMANDS["copy-link"]());
  $("end-new").addEventListener("click", () => COMMANDS.again());
  $("end-replay").addEventListener("click", () => replayDeal());
  $("end-close").addEventListener("click", () => hideEndCard());
  $("btn-invite").addEventListener("click", () => COMMANDS["invite-link"]());
  $("seats").addEventListener("click", (event) => {
    const button = event.target.closest("[data-take-seat]");
    if (button) takeSeatNow(Number(button.dataset.takeSeat));
    const invite = event.target.closest("[data-invite-seat]");
    if (invite) {
      const seat = Number(invite.dataset.inviteSeat);
      copy(inviteLink(seat), `Invite link for ${view.seats[seat].name} copied: send it to a friend`);
    }
  });
  $("takeback-accept").addEventListener("click", () => send({ type: "takeback", accept: true }));
  $("takeback-refuse").addEventListener("click", () => send({ type: "takeback", accept: false }));
  $("new-form").addEventListener("submit", startNewGame);
  bindDisplayDialog();
}

function dealLink() { return `${location.origin}/play/${encodeURIComponent(GAME)}?id=${encodeURIComponent(view.id)}`; }
function inviteLink(seat = null) {
  const link = `${location.origin}/play/${encodeURIComponent(GAME)}?session=${encodeURIComponent(sessionId)}`;
  return seat === null ? link : `${link}&seat=${seat}`;
}

async function copy(text, done) {
  try { await navigator.clipboard.writeText(text); toast(done); }
  catch { window.prompt("Copy this link:", text); }
}

function showPrefs() {
  const prefs = loadPrefs();
  $("theme-label").textContent = THEMES.find(([key]) => key === prefs.theme)[1];
  $("btn-sound").setAttribute("aria-pressed", String(prefs.sound));
  $("btn-sound").title = prefs.sound ? "Sound is on (M turns it off)" : "Sound is off (M turns it on)";
  $("sound-icon").textContent = prefs.sound ? "🔊" : "🔇";
  $("pref-music-row").hidden = !info.music;
  if (music?.playing() || !prefs.sound || !prefs.music) syncMusic();  // turns it off, or keeps it going
  menus?.update();
}

function cycleTheme() {
  const name = nextTheme();
  showPrefs();
  toast(`Theme: ${name}`);
}

function toggleSound() {
  setSound(!loadPrefs().sound);
}

function setSound(on) {
  savePrefs({ ...loadPrefs(), sound: on }); showPrefs();
  toast(on ? "Sound on" : "Sound off");
}

// -- background music (GameSpec.music): browsers let a page play sound only after the
// player has done something, so it starts at the first click or key, and follows the
// sound switch, the Music preference and whether the page is in sight.
function startMusicOnGestures() {
  music = createMusic(info.music);
  for (const type of ["pointerdown", "keydown"]) document.addEventListener(type, syncMusic, { passive: true });
  document.addEventListener("visibilitychange", syncMusic);
}

function syncMusic() {
  if (!music) return;
  const prefs = loadPrefs();
  if (prefs.sound && prefs.music && document.visibilityState === "visible") music.start(); else music.stop();
}

// -- the game's own display options (e.g. Ishido's tile sets): data-opt-* on the board --
function gameOptions() {
  let saved = {};
  try { saved = JSON.parse(localStorage.getItem(`parlour.display.${GAME}`)) || {}; } catch { /* defaults */ }
  const chosen = {};
  for (const [name, choices] of Object.entries(info.display_options)) {
    chosen[name] = choices.includes(saved[name]) ? saved[name] : choices[0];
  }
  return chosen;
}

function applyGameOptions() {
  for (const [name, value] of Object.entries(gameOptions())) $("board").dataset[`opt${name[0].toUpperCase()}${name.slice(1)}`] = value;
}

function chooseGameOption(name, value) {
  localStorage.setItem(`parlour.display.${GAME}`, JSON.stringify({ ...gameOptions(), [name]: value }));
  applyGameOptions();
  menus.update();
}

function gameOptionFields() {
  const chosen = gameOptions();
  return Object.entries(info.display_options).map(([name, choices]) =>
    `<label for="opt-${name}">${escapeHtml(name[0].toUpperCase() + name.slice(1))}</label><select id="opt-${name}" data-option="${escapeHtml(name)}">`
    + choices.map((c) => `<option value="${escapeHtml(c)}" ${c === chosen[name] ? "selected" : ""}>${escapeHtml(info.display_labels[name]?.[c] ?? c)}</option>`).join("") + "</select>").join("");
}

function openDisplayDialog() {
  const prefs = loadPrefs();
  $("game-options").innerHTML = gameOptionFields();
  for (const select of $("display-dialog").querySelectorAll("[data-option]")) {
    select.addEventListener("change", () => chooseGameOption(select.dataset.option, select.value));
  }
  const theme = $("pref-theme");
  theme.innerHTML = THEMES.map(([key, label]) => `<option value="${key}">${label}</option>`).join("");
  theme.value = prefs.theme;
  $("pref-sound").checked = prefs.sound;
  $("pref-animations").checked = prefs.animations;
  $("pref-music").checked = prefs.music;
  $("display-dialog").showModal();
}

function bindDisplayDialog() {
  const update = () => {
    savePrefs({ ...loadPrefs(), theme: $("pref-theme").value, sound: $("pref-sound").checked,
      animations: $("pref-animations").checked, music: $("pref-music").checked });
    showPrefs();
    syncMusic();
  };
  for (const id of ["pref-theme", "pref-sound", "pref-animations", "pref-music"]) $(id).addEventListener("change", update);
}

// The key table, worked out by the server (parlour/core/keytable.py): each key once.
function shortcutRows() {
  const kbds = (keys) => keys.split(", ").map((key) => `<kbd>${escapeHtml(key)}</kbd>`).join(", ");
  return info.key_table.map(({ keys, action }) => `<tr><td>${kbds(keys)}</td><td>${escapeHtml(action)}</td></tr>`).join("");
}

// Help opens at its top (the title and the start of the rules), or at the key table;
// the heading takes the focus, so Tab reaches the links and Close, and Esc closes.
function openHelp(heading) {
  const dialog = $("help-dialog");
  dialog.showModal();
  heading.focus({ preventScroll: true });
  dialog.scrollTop = dialog.querySelector(".dialog-body").scrollTop = 0;  // whichever scrolls
  if (heading !== $("help-title")) heading.scrollIntoView({ block: "start" });
}

// -- the New game dialog ----------------------------------------------------------
function newGameChoices() {
  try { return JSON.parse(localStorage.getItem(`parlour.new.${GAME}`)) || {}; } catch { return {}; }
}

function openNewDialog() {
  const saved = newGameChoices();
  const params = { ...(view ? view.params : {}), ...(saved.params || {}) };
  const seats = saved.seats || info.default_seats;
  const fields = [];
  const presets = Object.keys(info.presets);
  if (info.parameters.length) {
    fields.push(`<label for="f-preset">Preset</label><select id="f-preset">`
      + presets.map((p) => `<option value="${escapeHtml(p)}">${escapeHtml(info.preset_labels[p] ?? p)}</option>`).join("")
      + `<option value="">Custom</option></select>`);
    const cropping = new Set(info.parameters.flatMap((p) => p.crop || []));  // set by the crop editor
    for (const p of info.parameters) {
      const value = params[p.name] ?? p.default;
      fields.push(cropping.has(p.name)
        ? `<input type="hidden" data-param="${p.name}" value="${escapeHtml(value)}">` : paramField(p, value));
    }
  }
  if (info.seats.length > 1) {
    info.seats.forEach((name, i) => fields.push(seatField(name, i, seats[i] || "human")));
  }
  fields.push(`<label for="f-id">Game id</label><input id="f-id" placeholder="Optional: a deal's id" title="The id of a deal to play again (Copy link gives it); empty: a new deal" autocomplete="off">`);
  $("new-fields").innerHTML = fields.join("");
  $("new-error").textContent = "";
  for (const select of $("new-fields").querySelectorAll("[data-upload]")) bindPictureField(select);
  const preset = $("f-preset");
  if (preset) {
    preset.value = view && presets.includes(view.preset) ? view.preset : "";
    preset.addEventListener("change", () => fillPreset(preset.value));
  }
  $("new-dialog").showModal();
  $("new-start").focus();
}

function paramField(p, value) {
  const id = `f-param-${p.name}`;
  const label = `<label for="${id}" title="${escapeHtml(p.help)}">${escapeHtml(p.label)}</label>`;
  const choice = (c) => `<option value="${escapeHtml(c)}" ${c === value ? "selected" : ""}>${escapeHtml(p.choice_labels?.[c] ?? c)}</option>`;
  if (p.kind === "choice") {
    return label + `<select id="${id}" data-param="${p.name}">` + p.choices.map(choice).join("") + "</select>";
  }
  if (p.kind === "bool") return label + `<input type="checkbox" id="${id}" data-param="${p.name}" ${value ? "checked" : ""}>`;
  if (p.kind === "upload") {  // the game's own pictures, the player's, or a new one
    const named = (p.choices || []).map(choice);
    if (!p.choices?.length) named.push(`<option value="" ${value ? "" : "selected"}>None</option>`);
    if (value && !(p.choices || []).includes(value)) named.push(`<option value="${escapeHtml(value)}" selected>Your picture</option>`);
    return label + `<div class="picture-field"><select id="${id}" data-param="${p.name}" data-upload>${named.join("")}`
      + `<option value="${UPLOAD_CHOICE}">Upload a picture…</option></select>`
      + `<input type="file" accept="image/png,image/jpeg,image/webp,image/*" hidden>`
      + (p.crop ? `<div class="crop" hidden><div class="crop-frame" title="Drag to choose what shows; wheel or slider to zoom"><div class="crop-picture"></div></div>`
        + `<label class="crop-zoom">Zoom <input type="range" min="100" max="400" step="5"></label></div>` : "")
      + "</div>";
  }
  return label + `<input type="number" id="${id}" data-param="${p.name}" value="${escapeHtml(value)}" min="${p.min ?? ""}" max="${p.max ?? ""}" required>`;
}

function seatField(name, index, kind) {
  const options = [["human", "You"], ["open", "A friend (invite link)"]];
  for (const level of info.ai_levels) options.push([`ai:${level}`, `Computer: ${info.ai_level_labels[level] ?? level}`]);
  return `<label for="f-seat-${index}">${escapeHtml(name)}</label><select id="f-seat-${index}" data-seat="${index}">`
    + options.map(([value, label]) => `<option value="${value}" ${value === kind ? "selected" : ""}>${escapeHtml(label)}</option>`).join("")
    + "</select>";
}

function fillPreset(name) {
  const values = info.presets[name];
  if (!values) return;
  for (const p of info.parameters) {
    const input = $("new-fields").querySelector(`[data-param="${p.name}"]`);
    const value = values[p.name] ?? p.default;
    if (p.kind === "bool") input.checked = Boolean(value); else input.value = value;
  }
}

async function startNewGame(event) {
  event.preventDefault();
  if (event.submitter && event.submitter.value === "cancel") { $("new-dialog").close(); return; }
  const params = {};
  for (const input of $("new-fields").querySelectorAll("[data-param]")) {
    const p = info.parameters.find((q) => q.name === input.dataset.param);
    params[p.name] = p.kind === "bool" ? input.checked : p.kind === "int" ? Number(input.value) : input.value;
    if (params[p.name] === UPLOAD_CHOICE) { $("new-error").textContent = "Choose a picture first"; return; }
  }
  const seats = [...$("new-fields").querySelectorAll("[data-seat]")].map((select) => select.value);
  const id = $("f-id").value.trim();
  const choices = { ...(info.parameters.length ? { params } : {}), ...(seats.length ? { seats } : {}) };
  try {
    const sid = await createSession(id ? { id, ...(seats.length ? { seats } : {}) } : choices);
    localStorage.setItem(`parlour.new.${GAME}`, JSON.stringify(choices));
    $("new-dialog").close();
    await openSession(sid);
    if (seats.includes("open")) toast("Copy the invite link for your friend");
  } catch (error) {
    $("new-error").textContent = error.message;
  }
}

// -- pictures: a parameter of kind "upload" -------------------------------------------
// A picture chosen, dropped on the board or pasted is scaled down in the browser and sent
// as JPEG; the game gets its id. Where the parameter has a crop (Param.crop), a preview of
// the board's shape (Param.frame) shows what the board will show: drag it, zoom it.
const UPLOAD_MAX_SIDE = 1200;
const UPLOAD_CHOICE = "\u0000upload";

async function uploadFile(file) {
  const bitmap = await createImageBitmap(file);
  const scale = Math.min(1, UPLOAD_MAX_SIDE / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(bitmap.width * scale); canvas.height = Math.round(bitmap.height * scale);
  canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.9));
  const response = await fetch("/api/uploads", { method: "POST", headers: { "Content-Type": "image/jpeg" }, body: blob });
  const data = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new Error(data.error);
  return data.upload;
}

function bindPictureField(select) {
  const field = select.closest(".picture-field");
  const file = field.querySelector("input[type=file]");
  const param = info.parameters.find((p) => p.name === select.dataset.param);
  let previous = select.value;
  select.addEventListener("change", () => {
    if (select.value === UPLOAD_CHOICE) { select.value = previous; file.click(); return; }
    previous = select.value;
    showCrop(select, param);
  });
  file.addEventListener("change", () => { if (file.files[0]) usePicture(select, file.files[0]); });
  for (const name of param.frame || []) {
    $("new-fields").querySelector(`[data-param="${name}"]`)?.addEventListener("input", () => showCrop(select, param));
  }
  bindCropEditor(select, param);
  showCrop(select, param);
}

async function usePicture(select, file) {
  $("new-error").textContent = "Uploading the picture…";
  try {
    const id = await uploadFile(file);
    let option = [...select.options].find((o) => o.value === id);
    if (!option) {
      option = new Option("Your picture", id);
      select.add(option, select.options.length - 1);  // before "Upload a picture…"
    }
    select.value = id;
    const param = info.parameters.find((p) => p.name === select.dataset.param);
    setCrop(param, 50, 50, 100);
    showCrop(select, param);
    $("new-error").textContent = "";
    select.dispatchEvent(new Event("input"));
  } catch (error) {
    $("new-error").textContent = `That picture cannot be used: ${error.message || "it could not be read"}`;
  }
}

function cropInputs(param) {
  return (param.crop || []).map((name) => $("new-fields").querySelector(`[data-param="${name}"]`));
}

function setCrop(param, x, y, zoom) {
  const inputs = cropInputs(param);
  if (inputs.length !== 3) return;
  [x, y, zoom].forEach((value, i) => { inputs[i].value = String(Math.round(value)); });
}

// The preview: the picture as the board will show it, in a frame of the board's shape.
function showCrop(select, param) {
  const crop = select.closest(".picture-field").querySelector(".crop");
  if (!crop) return;
  const uploaded = select.value && !(param.choices || []).includes(select.value);
  crop.hidden = !uploaded;
  if (!uploaded) { setCrop(param, 50, 50, 100); return; }
  const [x, y, zoom] = cropInputs(param).map((input) => Number(input.value));
  const [width, height] = (param.frame || []).map((name) => Number($("new-fields").querySelector(`[data-param="${name}"]`)?.value) || 1);
  const frame = crop.querySelector(".crop-frame");
  frame.style.aspectRatio = `${width || 1} / ${height || 1}`;
  const picture = crop.querySelector(".crop-picture");
  picture.style.backgroundImage = `url("/api/uploads/${select.value}")`;
  picture.style.backgroundPosition = `${x}% ${y}%`;
  picture.style.transformOrigin = `${x}% ${y}%`;
  picture.style.transform = `scale(${zoom / 100})`;
  crop.querySelector("input[type=range]").value = String(zoom);
}

function bindCropEditor(select, param) {
  const crop = select.closest(".picture-field").querySelector(".crop");
  if (!crop) return;
  const frame = crop.querySelector(".crop-frame");
  const current = () => cropInputs(param).map((input) => Number(input.value));
  const clamp = (value, low, high) => Math.min(high, Math.max(low, value));
  frame.addEventListener("pointerdown", (down) => {
    down.preventDefault();
    frame.setPointerCapture(down.pointerId);
    const [x0, y0, zoom] = current();
    const box = frame.getBoundingClientRect();
    // dragging the picture right shows more of its left: the kept point moves left
    const move = (event) => {
      const dx = (event.clientX - down.clientX) / box.width, dy = (event.clientY - down.clientY) / box.height;
      setCrop(param, clamp(x0 - dx * 100 / (zoom / 100), 0, 100), clamp(y0 - dy * 100 / (zoom / 100), 0, 100), zoom);
      showCrop(select, param);
    };
    const up = () => { frame.removeEventListener("pointermove", move); frame.removeEventListener("pointerup", up); };
    frame.addEventListener("pointermove", move);
    frame.addEventListener("pointerup", up);
  });
  frame.addEventListener("wheel", (event) => {
    event.preventDefault();
    const [x, y, zoom] = current();
    setCrop(param, x, y, clamp(zoom - Math.sign(event.deltaY) * 10, 100, 400));
    showCrop(select, param);
  }, { passive: false });
  crop.querySelector("input[type=range]").addEventListener("input", (event) => {
    const [x, y] = current();
    setCrop(param, x, y, Number(event.target.value));
    showCrop(select, param);
  });
}

// A picture dropped on the board or pasted starts the New game dialog with it, for games
// that take a picture.
function bindPictureDrops() {
  if (!info.parameters.some((p) => p.kind === "upload")) return;
  const board = $("board-wrap");
  const picture = (files) => [...(files || [])].find((file) => file.type.startsWith("image/"));
  board.addEventListener("dragover", (event) => {
    if ([...event.dataTransfer.items].some((item) => item.kind === "file")) { event.preventDefault(); board.classList.add("picture-over"); }
  });
  board.addEventListener("dragleave", () => board.classList.remove("picture-over"));
  board.addEventListener("drop", (event) => {
    board.classList.remove("picture-over");
    const file = picture(event.dataTransfer.files);
    if (!file) return;
    event.preventDefault();
    newGameWithPicture(file);
  });
  document.addEventListener("paste", (event) => {
    if (event.target.closest?.("input, textarea") || document.querySelector("dialog[open]")) return;
    const file = picture(event.clipboardData?.files);
    if (file) { event.preventDefault(); newGameWithPicture(file); }
  });
}

function newGameWithPicture(file) {
  openNewDialog();
  const select = $("new-fields").querySelector("[data-upload]");
  if (select) usePicture(select, file);
}

async function newGameLikeThis() {
  const seats = view.seats.map((s) => (s.kind === "ai" ? `ai:${s.level}` : s.open ? "open" : "human"));
  try { await openSession(await createSession({ params: view.params, seats })); } catch (error) { showNote(error.message, true); }
}

// A new game at once: these parameters over the current game's (a preset, "no-guess"...),
// and these seats, or the ones last chosen.
async function newGameWith(params, seats) {
  const saved = newGameChoices();
  const choices = { ...saved };
  if (info.parameters.length) choices.params = { ...(view ? view.params : saved.params), ...params };
  if (seats && seats.length) choices.seats = seats;
  localStorage.setItem(`parlour.new.${GAME}`, JSON.stringify(choices));
  try { await openSession(await createSession(choices)); } catch (error) { showNote(error.message, true); }
}

// Export: the game as a file (the server says what is in it); Import: a game from one.
async function exportGame() {
  try {
    const response = await fetch(`/api/games/${encodeURIComponent(sessionId)}/export`, {
      headers: { Authorization: `Bearer ${tokens()[sessionId]}` },
    });
    if (!response.ok) throw new Error((await response.json().catch(() => ({}))).error || response.statusText);
    const named = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") || "");
    const link = document.createElement("a");
    link.href = URL.createObjectURL(await response.blob());
    link.download = named ? named[1] : `${GAME}.parlour.json`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    toast("Game exported");
  } catch (error) {
    showNote(`The game could not be exported: ${error.message}`, true);
  }
}

function importGame() {
  const input = document.createElement("input");
  input.type = "file";
  input.accept = ".json,application/json";
  input.addEventListener("change", async () => {
    if (!input.files[0]) return;
    try {
      const response = await fetch("/api/games/import", {
        method: "POST", headers: { "Content-Type": "application/json" }, body: await input.files[0].text(),
      });
      const created = await response.json().catch(() => ({ error: response.statusText }));
      if (!response.ok) throw new Error(created.error);
      saveToken(created.session, created.token);
      if (created.view.game === GAME) await openSession(created.session);
      else location.href = `/play/${encodeURIComponent(created.view.game)}?session=${encodeURIComponent(created.session)}`;
    } catch (error) {
      showNote(`That file cannot be imported: ${error.message}`, true);
    }
  });
  input.click();
}

// -- pointer actions on the board ----------------------------------------------------
// A part of the board marked aria-disabled (e.g. a finished game) sends no moves.
function parseMove(element, name) {
  if (element.closest('[aria-disabled="true"]')) return null;
  try { return JSON.parse(element.getAttribute(name)); } catch { return null; }
}

function sendMove(move) {
  if (move) send({ type: "move", move });
}

function activate(element, alternative = false) {
  if (element.dataset.command) { COMMANDS[element.dataset.command]?.(); return; }
  if (element.dataset.preset) { newGameWith(info.presets[element.dataset.preset]); return; }
  const attribute = alternative && element.hasAttribute("data-alt-move") ? "data-alt-move" : "data-move";
  if (element.hasAttribute(attribute)) sendMove(parseMove(element, attribute));
}

function bindBoard() {
  const board = $("board-wrap");
  let suppressClick = false;  // the click that ends a long press is not a click
  let pressTimer = 0;
  let pointerKind = "mouse";
  board.addEventListener("click", (event) => {
    if (suppressClick) { suppressClick = false; return; }
    const target = event.target.closest("[data-move], [data-command], [data-preset]");
    if (target && board.contains(target)) activate(target);
  });
  board.addEventListener("contextmenu", (event) => {
    const target = event.target.closest("[data-alt-move]");
    if (!target) return;
    event.preventDefault();
    // on touch the long-press timer sends the move; a menu event as well would send it twice
    if (pointerKind === "mouse" && !suppressClick) sendMove(parseMove(target, "data-alt-move"));
  });
  board.addEventListener("pointerdown", (event) => {
    suppressClick = false;
    pointerKind = event.pointerType;
    if (event.button === 0 && !event.target.closest("[data-drag]")) {
      // a swipe: released far enough away, it is a gesture, not a click
      const from = { x: event.clientX, y: event.clientY, target: event.target };
      document.addEventListener("pointerup", (up) => {
        if (Math.hypot(up.clientX - from.x, up.clientY - from.y) >= SWIPE_PX
            && swipe(from.target, up.clientX - from.x, up.clientY - from.y)) {
          suppressClick = true;  // the click this release makes, if any, comes at once
          setTimeout(() => { suppressClick = false; }, 0);
        }
      }, { once: true });
    }
    if (event.target.closest('[aria-disabled="true"]')) return;  // sends nothing: no "uh-oh", no long press
    // "pressing" lets a game show it, e.g. Minesweeper's "uh-oh" face
    if (event.target.closest("[data-move], [data-alt-move]")) document.documentElement.classList.add("pressing");
    const target = event.target.closest("[data-alt-move]");
    if (target && event.pointerType !== "mouse") {
      pressTimer = setTimeout(() => {
        suppressClick = true;
        navigator.vibrate?.(30);
        sendMove(parseMove(target, "data-alt-move"));
      }, LONG_PRESS_MS);
    }
    const draggable = event.target.closest("[data-drag]");
    if (draggable && event.button === 0) {
      event.preventDefault();  // no text selection, which would start a native drag next time
      startDrag(draggable, event);
    }
  });
  const release = () => { document.documentElement.classList.remove("pressing"); clearTimeout(pressTimer); };
  for (const type of ["pointerup", "pointercancel", "pointerleave"]) board.addEventListener(type, release);
  board.addEventListener("pointermove", (event) => {
    if (pressTimer && (Math.abs(event.movementX) + Math.abs(event.movementY) > 8)) clearTimeout(pressTimer);
  });
}

// A swipe (or a drag) of `dx`, `dy` that began on `start`: from an element with a move toward
// an empty data-drop in line with it (a tile toward the gap), that element's move; else the
// element marked data-swipe with the swipe's direction (left, right, up, down), if any.
function swipe(start, dx, dy) {
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
      if (ahead && Math.abs(offset) < (across ? a.height : a.width) / 2) { activate(from); return true; }
    }
  }
  const keyed = board.querySelector(`[data-swipe~="${direction}"]`);
  if (keyed) { activate(keyed); return true; }
  return false;
}

// Drag and drop with pointer events (works with mouse, pen and touch alike).
let droppedGhost = null;

function settleDrop(accepted) {
  if (!droppedGhost) return;
  if (accepted) droppedGhost.ghost.remove(); else sendGhostHome(droppedGhost);
  droppedGhost = null;
}

function sendGhostHome({ ghost, home }) {
  ghost.classList.add("returning");
  ghost.style.left = `${home.left + home.width / 2}px`; ghost.style.top = `${home.top + home.height / 2}px`;
  setTimeout(() => ghost.remove(), 450);
}

function startDrag(source, down) {
  let ghost = null, over = null;
  const move = (event) => {
    if (!ghost) {
      if (Math.hypot(event.clientX - down.clientX, event.clientY - down.clientY) < DRAG_THRESHOLD_PX) return;
      ghost = source.cloneNode(true);
      ghost.removeAttribute("id");
      ghost.classList.add("drag-ghost");
      const box = source.getBoundingClientRect();
      ghost.style.width = `${box.width}px`; ghost.style.height = `${box.height}px`;
      document.body.append(ghost);
      source.classList.add("dragging");
    }
    ghost.style.left = `${event.clientX}px`; ghost.style.top = `${event.clientY}px`;
    const target = document.elementFromPoint(event.clientX, event.clientY)?.closest("[data-drop]") || null;
    if (target !== over) { over?.classList.remove("drop-target"); target?.classList.add("drop-target"); over = target; }
  };
  const up = () => {
    document.removeEventListener("pointermove", move);
    document.removeEventListener("pointerup", up);
    document.removeEventListener("pointercancel", up);
    source.classList.remove("dragging");
    over?.classList.remove("drop-target");
    if (!ghost) return;
    const suppress = (event) => { event.stopPropagation(); event.preventDefault(); };
    document.addEventListener("click", suppress, { capture: true, once: true });
    setTimeout(() => document.removeEventListener("click", suppress, { capture: true }), 0);
    const home = source.getBoundingClientRect();
    // an empty data-drop takes the dragged element's own move (several cards, one pile)
    const dropped = !over ? null
      : over.getAttribute("data-drop") === "" ? parseMove(source, "data-move") : parseMove(over, "data-drop");
    if (dropped) {  // the ghost waits where it was dropped: the answer places it or sends it back
      droppedGhost = { ghost, home };
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
const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

function onKey(event) {
  if (document.querySelector("dialog[open]")) {
    const command = event.target.closest("input, select, textarea") ? null : commandForKey(event);
    if (command?.kind === "client" && command.args.action === "play") { event.preventDefault(); runCommand(command); }
    return;
  }
  if (event.target.closest("input, select, textarea, #menus")) return;
  const key = event.key;
  if (key === "Escape" && !$("end-card").hidden) { event.preventDefault(); hideEndCard(); return; }
  if (event.ctrlKey || event.metaKey || event.altKey) {
    // Ctrl and Alt keys are the commands' (Ctrl+Z, Alt+N...); the rest stay the browser's
    const command = commandForKey(event);
    if (command) { event.preventDefault(); runCommand(command); }
    return;
  }
  const board = $("board");
  const focused = document.activeElement?.closest?.("[data-nav]");
  const focusedKeys = focused && focused.dataset.keymoves ? parseMove(focused, "data-keymoves") : null;
  if (focusedKeys && focusedKeys[key.toLowerCase()]) { event.preventDefault(); sendMove(focusedKeys[key.toLowerCase()]); return; }
  // data-key lists the keys that activate an element, e.g. "d Space"
  const name = key === " " ? "Space" : key;
  const keyed = board.querySelector(`[data-key~="${CSS.escape(name)}"]`) || board.querySelector(`[data-key~="${CSS.escape(name.toLowerCase())}"]`);
  if (keyed) { event.preventDefault(); activate(keyed); return; }
  if (ARROWS[key]) { event.preventDefault(); moveCursor(...ARROWS[key]); return; }
  if ((key === "Enter" || key === " ") && focused && board.contains(focused)) {
    event.preventDefault(); activate(focused, key === " "); return;
  }
  const command = commandForKey(event);
  if (command) { event.preventDefault(); runCommand(command); }
}

function moveCursor(dx, dy) {
  const cells = [...$("board").querySelectorAll("[data-nav]")];
  if (!cells.length) return;
  const current = document.activeElement?.closest?.("[data-nav]");
  if (!current || !cells.includes(current)) { focusCell(cells.find((c) => c.hasAttribute("data-move")) || cells[0]); return; }
  const from = centre(current);
  let best = null, bestScore = Infinity;
  for (const cell of cells) {
    if (cell === current) continue;
    const to = centre(cell);
    const along = (to.x - from.x) * dx + (to.y - from.y) * dy;
    const across = Math.abs((to.x - from.x) * dy) + Math.abs((to.y - from.y) * dx);
    if (along <= 1 || across > along * 2) continue;
    const score = along + across * 3;
    if (score < bestScore) { best = cell; bestScore = score; }
  }
  if (best) focusCell(best);
}

function centre(element) {
  const box = element.getBoundingClientRect();
  return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
}

function focusCell(cell) {
  cell.focus({ preventScroll: false });
}

addEventListener("pageshow", () => applyPrefs());
start();
