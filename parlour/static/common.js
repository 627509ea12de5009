// Shared by every page: display preferences, synthesised sounds, API calls, toasts.

const PREFS_KEY = "parlour.prefs";
const DEFAULTS = { theme: "auto", sound: true, animations: true, music: true, longPress: 450 };

// How long a finger holds a cell before its second action (a Minesweeper flag) is played:
// the Display dialog's Long press, as minesweeper.online lets players set it. A hold
// shorter than the one chosen is a tap.
export const LONG_PRESSES = [[300, "Short (0.3 s)"], [450, "Normal (0.45 s)"], [650, "Long (0.65 s)"]];

export function longPressMs(prefs = loadPrefs()) {
  return LONG_PRESSES.some(([ms]) => ms === prefs.longPress) ? prefs.longPress : DEFAULTS.longPress;
}

export function loadPrefs() {
  try { return { ...DEFAULTS, ...JSON.parse(localStorage.getItem(PREFS_KEY) || "{}") }; }
  catch { return { ...DEFAULTS }; }
}

export function savePrefs(prefs) {
  localStorage.setItem(PREFS_KEY, JSON.stringify(prefs));
  applyPrefs(prefs);
}

// An installed Parlour's title bar takes the theme's top bar colour (app.css: --surface).
const BAR_COLOURS = { light: "#ffffff", dark: "#21242b", "colour-blind": "#ffffff" };

export function applyPrefs(prefs = loadPrefs()) {
  const dark = matchMedia("(prefers-color-scheme: dark)").matches;
  const theme = prefs.theme === "auto" ? (dark ? "dark" : "light") : prefs.theme;
  document.documentElement.dataset.theme = theme;
  for (const meta of document.querySelectorAll('meta[name="theme-color"]')) meta.content = BAR_COLOURS[theme] || meta.content;
  const reduced = matchMedia("(prefers-reduced-motion: reduce)").matches;
  document.documentElement.dataset.anim = prefs.animations && !reduced ? "on" : "off";
}

export const THEMES = [["auto", "Auto"], ["light", "Light"], ["dark", "Dark"], ["colour-blind", "Colour-blind"]];

// T runs `change` (the next theme), on a page whose other keys are not the game's: the home
// and statistics pages (a game page's T is one of its commands).
export function onThemeKey(change) {
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.target.closest("input, select, textarea")) return;
    if (event.key.toLowerCase() === "t") { event.preventDefault(); change(); }
  });
}

// The theme after the one chosen (T, the theme button), saved and applied; its name.
// From Auto, the theme the system does not show already: on a light screen, Auto then
// Light looked the same, and the first press seemed to do nothing.
export function nextTheme() {
  const prefs = loadPrefs(), keys = THEMES.map(([key]) => key);
  const next = (theme) => keys[(keys.indexOf(theme) + 1) % keys.length];
  const shown = matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  prefs.theme = prefs.theme === "auto" && next("auto") === shown ? next(shown) : next(prefs.theme);
  savePrefs(prefs);
  return THEMES.find(([key]) => key === prefs.theme)[1];
}

// -- sounds, made with Web Audio: no files ------------------------------------------
let audio = null;
function tone(freq, start, length, type = "sine", gain = 0.12) {
  const osc = audio.createOscillator(), amp = audio.createGain();
  osc.type = type; osc.frequency.setValueAtTime(freq, audio.currentTime + start);
  amp.gain.setValueAtTime(0.0001, audio.currentTime + start);
  amp.gain.exponentialRampToValueAtTime(gain, audio.currentTime + start + 0.01);
  amp.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + start + length);
  osc.connect(amp).connect(audio.destination);
  osc.start(audio.currentTime + start); osc.stop(audio.currentTime + start + length + 0.05);
}
const SOUNDS = {
  move: () => tone(660, 0, 0.08, "triangle"),
  ai: () => tone(520, 0, 0.08, "triangle"),
  undo: () => { tone(500, 0, 0.06, "sine"); tone(380, 0.06, 0.08, "sine"); },
  redo: () => { tone(380, 0, 0.06, "sine"); tone(500, 0.06, 0.08, "sine"); },
  restart: () => tone(300, 0, 0.15, "sine"),
  hint: () => { tone(880, 0, 0.1); tone(1320, 0.08, 0.16); },
  join: () => { tone(440, 0, 0.1); tone(660, 0.1, 0.12); },
  win: () => [523, 659, 784, 1047].forEach((f, i) => tone(f, i * 0.11, 0.22, "triangle", 0.14)),
  lose: () => [392, 330, 262].forEach((f, i) => tone(f, i * 0.14, 0.25, "sawtooth", 0.05)),
  draw: () => { tone(440, 0, 0.18, "triangle"); tone(440, 0.2, 0.18, "triangle"); },
  place: () => tone(560, 0, 0.09, "triangle"),
  flip: () => { tone(700, 0, 0.05, "square", 0.04); tone(900, 0.04, 0.06, "square", 0.04); },
  slide: () => tone(320, 0, 0.07, "sine", 0.1),
  card: () => { tone(1200, 0, 0.03, "triangle", 0.05); tone(800, 0.02, 0.05, "triangle", 0.05); },
  flag: () => tone(980, 0, 0.07, "square", 0.04),
  reveal: () => tone(760, 0, 0.05, "sine", 0.08),
  boom: () => { tone(90, 0, 0.5, "sawtooth", 0.18); tone(60, 0.05, 0.6, "square", 0.1); },
  bell: () => { tone(1568, 0, 0.5, "sine", 0.1); tone(2093, 0, 0.35, "sine", 0.05); },
  error: () => { tone(220, 0, 0.16, "square", 0.05); tone(180, 0.05, 0.2, "square", 0.04); },
};
// Making the AudioContext takes the page ~10 ms: a game page makes it when the page is
// idle, not on the way from a player's first move to its sound; and only once the player
// has pressed something, since browsers refuse sound before that (and warn each time).
export function warmSounds() {
  if (!loadPrefs().sound) return;
  const make = () => whenIdle(() => { try { audio ??= new AudioContext(); } catch { /* no audio device */ } }, 3000);
  if (soundAllowed()) { make(); return; }
  for (const kind of ["pointerdown", "keydown"]) addEventListener(kind, make, { once: true, capture: true });
}

// Whether the page may make sounds yet: not before its first press or key (a computer's
// opening moves on a page just opened are silent; the browser would refuse them).
function soundAllowed() {
  return navigator.userActivation?.hasBeenActive ?? true;
}

// Run `work` once the page is idle, or after `most` ms: off the frame that shows a view.
// (Browsers without requestIdleCallback, Safari among them, run it after the frame.)
export function whenIdle(work, most) {
  if (window.requestIdleCallback) requestIdleCallback(work, { timeout: most });
  else requestAnimationFrame(() => setTimeout(work, 0));
}

// A running AudioContext keeps the page's audio thread and the browser's audio service
// busy even in silence (3 % of a core here): quiet for a while, it is suspended, and the
// next sound resumes it.
const QUIET_MS = 5000;
let quietTimer = 0;

export function play(name) {
  if (!loadPrefs().sound || !SOUNDS[name] || !soundAllowed()) return;
  try {
    audio ??= new AudioContext();
    if (audio.state === "suspended") audio.resume();
    SOUNDS[name]();
    clearTimeout(quietTimer);
    quietTimer = setTimeout(() => audio.suspend(), QUIET_MS);
  } catch { /* no audio device: stay silent */ }
}

// "running", "suspended" (quiet, or not started by the player yet), or "none" (not made)
export function soundState() {
  return audio ? audio.state : "none";
}

// -- API --------------------------------------------------------------------------
export async function api(method, path, body, token) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new Error(data.error || `request failed (${response.status})`);
  return data;
}

const TOKENS_KEY = "parlour.tokens";
export function tokens() {
  try { return JSON.parse(localStorage.getItem(TOKENS_KEY) || "{}"); } catch { return {}; }
}
export function saveToken(session, token) {
  const all = tokens(); all[session] = token;
  localStorage.setItem(TOKENS_KEY, JSON.stringify(all));
}
// The tokens sent for a player's own results or backup: as many as the server takes at
// once, the most recently kept.
const TOKENS_SENT = 10_000;
export function sentTokens() {
  return Object.values(tokens()).slice(-TOKENS_SENT);
}

// How a game's start is named to players (its catalog entry `info`): "deal", or "game"
// where every game starts the same (Tic Tac Toe), as the menus' Copy link says (commands.py).
export function dealWord(info) {
  return info.random_deal ? "deal" : "game";
}

let catalogAsked = null;
// The server's catalog (its games, and whether it is `shared`), asked once per page.
export function catalog() {
  catalogAsked ??= api("GET", "/api/catalog").catch((error) => { catalogAsked = null; throw error; });
  return catalogAsked;
}

// The player's own results (`path`: /api/stats, /api/daily, /api/replays, a game's
// records): on a shared Parlour, those of the games this browser's tokens hold a seat in
// (POST path/mine); on one player's own, all it keeps.
export async function ownResults(path, query = "", token = undefined) {
  if (!(await catalog()).shared) return await api("GET", path + query, undefined, token);
  return await api("POST", `${path}/mine${query}`, { tokens: sentTokens() }, token);
}

let toastTimer = 0;
const TOAST_MS = 2200, ACTION_TOAST_MS = 6000;
// A short note at the bottom of the screen. With `action` ({ label, run }) it carries a
// button, and stays long enough to reach it (a game just left: "Back to it"): while the
// pointer or the focus is on it, it stays.
export function toast(text, action = null) {
  const el = toastElement();
  el.textContent = text; el.classList.add("show");
  if (action) {
    const button = document.createElement("button");
    button.type = "button"; button.className = "toast-action"; button.textContent = action.label;
    button.addEventListener("click", () => { el.classList.remove("show"); action.run(); });
    el.append(button);
  }
  el.dataset.ms = String(action ? ACTION_TOAST_MS : TOAST_MS);
  hideToastLater(el);
}

const KEYS_TO_REACH_IT = new Set(["Tab", "Shift", "Control", "Alt", "Meta"]);

function toastElement() {
  let el = document.querySelector(".toast");
  if (el) return el;
  el = document.createElement("div"); el.className = "toast"; el.setAttribute("role", "status");
  const hold = () => clearTimeout(toastTimer);
  const hide = () => el.classList.remove("show");
  el.addEventListener("pointerenter", hold); el.addEventListener("focusin", hold);
  el.addEventListener("pointerleave", () => hideToastLater(el));
  el.addEventListener("focusout", () => hideToastLater(el));
  // a tap on it, or anywhere else, or a key pressed outside it (the player has moved on)
  // puts it away: on a phone it covered the bottom rows of the board just dealt for its
  // six seconds (Tab and the modifiers are a way to its button: they leave it)
  document.addEventListener("pointerdown", (event) => {
    if (!event.target.closest?.(".toast-action")) hide();
  }, { capture: true });
  document.addEventListener("keydown", (event) => {
    if (!el.contains(event.target) && !KEYS_TO_REACH_IT.has(event.key)) hide();
  }, { capture: true });
  document.body.append(el);
  return el;
}

function hideToastLater(el) {
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => el.classList.remove("show"), Number(el.dataset.ms));
}

export const $ = (id) => document.getElementById(id);

// The dot in a seat's colour by a player's name (a chip, the move list, the series, a
// seat to take), marked with its seat: a game's stylesheet may give it the seat's own
// mark (`.dot[data-mark="0"]`: Tic Tac Toe's cross, Tribolo's shapes).
export function seatDot(seat) {
  return `<span class="dot" data-mark="${seat}" aria-hidden="true"></span>`;
}

// Scrolls `list` (a move list) so that `item` is in it in sight, and nothing else: the
// element's scrollIntoView scrolls the page too (on a phone's side it hid the page's top).
// The list's scroll-padding is kept clear, as scrollIntoView keeps it (a phone's strip
// fades its edges there).
export function scrollIntoList(list, item) {
  const outer = list.getBoundingClientRect(), inner = item.getBoundingClientRect();
  const style = getComputedStyle(list);
  const pad = (side) => parseFloat(style[`scrollPadding${side}`]) || 0;  // (auto: none)
  const by = (start, end, from, to) => (start < from ? start - from : end > to ? Math.min(end - to, start - from) : 0);
  list.scrollLeft += by(inner.left, inner.right, outer.left + pad("Left"), outer.right - pad("Right"));
  list.scrollTop += by(inner.top, inner.bottom, outer.top + pad("Top"), outer.bottom - pad("Bottom"));
}

// A write that changes nothing still costs the page a style, layout and paint pass (the
// clock ticks four times a second; most of a view is as it was): these skip it.
export function set(element, property, value) {
  if (element[property] !== value) element[property] = value;
}

export function setText(element, text) {
  if (element.textContent !== text) element.textContent = text;
}

// Words written to start a sentence, set in the middle of one: "Moves" reads "moves",
// while "3BV" and "ID" stay as they are written.
export function inSentence(text) {
  return String(text).replace(/^[A-Z](?![A-Z])/, (first) => first.toLowerCase());
}

export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

export function formatTime(ms) {
  const seconds = Math.floor(ms / 1000), h = Math.floor(seconds / 3600);
  const m = Math.floor(seconds / 60) % 60, s = seconds % 60;
  return h ? `${h}:${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}` : `${m}:${String(s).padStart(2, "0")}`;
}

// Players taking turns at one screen (two or more human seats held by this page) are
// told apart by their number in the series, as the seat chips, the series row, the
// status line and the end card all name them; a rematch keeps each player's number as it
// moves them to the next seat.
export function sharedScreen(view) {
  return view.seats.filter((seat) => seat.you && seat.kind !== "ai").length > 1;
}

export function playerNumber(view, seat) {
  return `Player\u00a0${(view.series?.seats?.[seat]?.player ?? seat) + 1}`;
}

export const LOGO = `<svg viewBox="0 0 32 32" aria-hidden="true"><rect x="2" y="2" width="28" height="28" rx="7" fill="var(--accent)"/><circle cx="11" cy="11" r="4" fill="var(--accent-text)"/><rect x="17" y="7" width="8" height="8" rx="2" fill="var(--seat-3)"/><path d="M7 25l4-7 4 7z" fill="var(--seat-1)"/><circle cx="21" cy="21" r="4" fill="none" stroke="var(--accent-text)" stroke-width="2.2"/></svg>`;

applyPrefs();
matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => applyPrefs());
