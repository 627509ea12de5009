// The replay page (/replay/SID): a game's board as it was after each move, drawn by the
// server as the game's own view draws it (GET /api/games/{sid}/positions/{n}); this page
// only steps through them. ← → a move, Home and End, Space plays and pauses at the
// chosen speed, the slider or the move list jumps to any move, a swipe on the board
// steps. The move shown is in the address (#move=N), so a link opens at that move, and a
// change of the address moves the page there. Open
// to anyone once the game is over; before, to its players only (the page says so).
import { $, api, catalog as catalogOf, dealWord, inSentence, LOGO, nextTheme, scrollIntoList, toast, tokens } from "/static/common.js";
import { fitBoardToScreen } from "/static/fit.js";
import { markEdges, moveItems } from "/static/movelist.js";
import { keepEndCauseInSight } from "/static/panbox.js";
import { createPeek } from "/static/peek.js";

const SID = decodeURIComponent(location.pathname.split("/")[2] || "");
const KEPT_POSITIONS = 200;  // positions kept in the page, so that stepping back is instant
const PLAY_ICON = "M8 5v14l11-7z";
const PAUSE_ICON = "M7 5h3.5v14H7zM13.5 5H17v14h-3.5z";

const state = {
  replay: null,       // GET /api/games/{sid}/replay
  at: 0,              // the move shown
  target: 0,          // the move last asked for (keys pressed quickly step on from it)
  asked: 0,           // the last position asked for: a later answer wins
  positions: new Map(),  // ply -> position, the most recently used last
  fetching: null,     // the position request in flight, if any
  timer: 0,           // playing: the next step's timeout
  playing: false,
  endCauseInSight: null,  // after each position shown: what ended the game in the board's box's sight
};
const peek = createPeek();  // a board's look held down (the sliding puzzle's finished picture), as in play

function token() { return tokens()[SID]; }

function positionPath(ply) { return `/api/games/${encodeURIComponent(SID)}/positions/${ply}`; }

async function fetchPosition(ply) {
  const kept = state.positions.get(ply);
  if (kept) { state.positions.delete(ply); state.positions.set(ply, kept); return kept; }
  const position = await api("GET", positionPath(ply), undefined, token());
  state.positions.set(ply, position);
  if (state.positions.size > KEPT_POSITIONS) state.positions.delete(state.positions.keys().next().value);
  return position;
}

// Show the board after move `ply` (bounded to the game's moves).
async function show(ply) {
  const plies = state.replay.plies;
  ply = Math.max(0, Math.min(plies, ply));
  state.target = ply;
  const asked = ++state.asked;
  let position;
  try {
    // one request at a time, the latest asked next: a key held down asks no faster than
    // the server answers (it paces each browser's requests: a big board's positions are big)
    while (state.fetching && !state.positions.has(ply)) {
      const inFlight = state.fetching;
      await inFlight.catch(() => {});
      if (state.fetching === inFlight) state.fetching = null;
    }
    if (asked !== state.asked) return;  // a later move was chosen while this one waited
    const request = fetchPosition(ply);
    state.fetching = request;
    try { position = await request; } finally { if (state.fetching === request) state.fetching = null; }
  } catch (error) { stop(); state.target = state.at; toast(error.message); return; }
  if (asked !== state.asked) return;  // another move was chosen meanwhile
  state.at = ply;
  peek.hide();
  showBoard(position.html);
  state.endCauseInSight();  // the losing move's mine, at the far end of a box that pans, as in play
  $("board").setAttribute("aria-label", ply === 0 ? "The board at the start" : `The board after move ${ply}`);
  $("headline").textContent = position.headline;
  $("headline").className = `headline ${ply === plies ? resultClass() : ""}`;
  $("replay-count").textContent = ply === 0 ? `Start · ${plies} move${plies === 1 ? "" : "s"}` : `Move ${ply} of ${plies}`;
  $("message").textContent = moveNote(ply);
  $("rp-slider").value = String(ply);
  $("rp-slider").setAttribute("aria-valuetext", ply === 0 ? "The start" : `Move ${ply} of ${plies}`);
  for (const [id, off] of [["rp-start", ply === 0], ["rp-back", ply === 0], ["rp-forward", ply === plies], ["rp-end", ply === plies]]) $(id).disabled = off;
  markMove(ply);
  history.replaceState(null, "", `#move=${ply}`);
  if (state.playing) {
    if (ply >= plies) stop();
    else { fetchPosition(ply + 1).catch(() => {}); state.timer = setTimeout(() => show(state.at + 1), speed()); }
  }
}

// The board after a move, drawn anew. A box it pans in (.board-scroll: Minesweeper's Hard
// on an upright phone) stays where the player left it, as in play (views.js morphs the
// board in place): it went back to its top at every step, and the part of the board the
// player had panned to went out of sight.
function showBoard(html) {
  const panned = $("board").querySelector(".board-scroll");
  const left = panned?.scrollLeft, top = panned?.scrollTop;
  $("board").innerHTML = html;
  const box = $("board").querySelector(".board-scroll");
  if (box && panned) { box.scrollLeft = left; box.scrollTop = top; }
}

// The end's colour is the viewer's result, as on the game's page: Tribolo's "Green wins"
// is a loss to Blue's player and no colour to a watcher.
function resultClass() {
  const outcome = state.replay.outcome;
  return outcome === "won" ? "won" : outcome === "lost" ? "lost" : "";
}

// What the move that led here was (games with a move list), and at the end the game's
// figures: the headline above already says how it ended ("Game over: a mine").
function moveNote(ply) {
  const { replay } = state;
  const note = replay.move_list?.[ply - 1];
  const played = note ? playedWords(note) : ply === 0 ? "The start of the game." : "";
  if (ply === replay.plies && replay.status !== "playing") return [played, resultFigures()].filter(Boolean).join(" ");
  return played;
}

function playedWords(note) {
  const { replay } = state;
  const seat = replay.seats[note.seat] ?? "";
  const passes = note.passed.map((who) => `${replay.seats[who]} passes.`).join(" ");
  return `${seat} played ${note.text}.${passes ? ` ${passes}` : ""}`;
}

function resultFigures() {
  const { replay } = state;
  const figures = [["time", replay.time_shown], ...replay.end_figures.map(({ label, shown }) => [inSentence(label), shown])];
  return `At the end: ${figures.map(([label, value]) => `${label} ${value}`).join(", ")}.`;
}

function speed() { return Number($("rp-speed").value) || 1000; }

function play() {
  state.playing = true;
  setPlayButton();
  show(state.target >= state.replay.plies ? 0 : state.target + 1);  // at the end, from the start
}

function stop() {
  clearTimeout(state.timer);
  state.playing = false;
  setPlayButton();
}

function togglePlay() { if (state.playing) stop(); else play(); }

function setPlayButton() {
  $("rp-play-icon").setAttribute("d", state.playing ? PAUSE_ICON : PLAY_ICON);
  $("rp-play").setAttribute("aria-label", state.playing ? "Pause" : "Play");
  $("rp-play").title = state.playing ? "Pause (Space)" : "Play (Space)";
}

function step(to) { stop(); show(to); }

// -- the move list: games of several players ---------------------------------------------
function moveListItems(replay) {
  const start = '<li><button type="button" class="mv mv-start" data-ply="0">Start</button></li>';
  return start + replay.move_list.map((note) => moveItems(note, (seat) => replay.seats[seat] ?? "")).join("");
}

function markMove(ply) {
  if ($("movelist").hidden) return;
  for (const button of $("movelist-items").querySelectorAll(".mv[aria-current]")) button.removeAttribute("aria-current");
  const current = $("movelist-items").querySelector(`.mv[data-ply="${ply}"]`);
  if (!current) return;
  current.setAttribute("aria-current", "true");
  scrollIntoList($("movelist-items"), current);
}

// -- keys, pointer, touch ------------------------------------------------------------------
function bind() {
  $("rp-start").addEventListener("click", () => step(0));
  $("rp-back").addEventListener("click", () => step(state.target - 1));
  $("rp-forward").addEventListener("click", () => step(state.target + 1));
  $("rp-end").addEventListener("click", () => step(state.replay.plies));
  $("rp-play").addEventListener("click", togglePlay);
  $("rp-slider").addEventListener("input", () => step(Number($("rp-slider").value)));
  $("rp-speed").addEventListener("change", () => { if (state.playing) { clearTimeout(state.timer); state.timer = setTimeout(() => show(state.at + 1), speed()); } });
  $("movelist-items").addEventListener("click", (event) => {
    const button = event.target.closest(".mv");
    if (button) step(Number(button.dataset.ply));
  });
  markEdges($("movelist-items"));
  $("btn-copy").addEventListener("click", async () => {
    const link = `${location.origin}/replay/${encodeURIComponent(SID)}#move=${state.at}`;
    try { await navigator.clipboard.writeText(link); toast("Link to this replay copied"); }
    catch { window.prompt("Copy this link:", link); }
  });
  $("btn-theme").addEventListener("click", () => toast(`Theme: ${nextTheme()}`));
  peek.bind();
  document.addEventListener("keydown", onKey);
  window.addEventListener("hashchange", followAddress);
  bindSwipe();
}

function onKey(event) {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const field = event.target.closest?.("select, input");
  if (field) return;  // the slider and the speed have keys of their own
  const moves = { ArrowLeft: () => step(state.target - 1), ArrowRight: () => step(state.target + 1),
    ArrowUp: () => step(state.target - 1), ArrowDown: () => step(state.target + 1),
    Home: () => step(0), End: () => step(state.replay.plies) };
  if (event.key in moves) moves[event.key]();
  else if ((event.key === " " || event.key === "k") && !event.target.closest?.("button, a")) togglePlay();
  else if (event.key === "t" || event.key === "T") toast(`Theme: ${nextTheme()}`);
  else return;
  event.preventDefault();
}

// A swipe across the board: to the left, the next move; to the right, the one before.
function bindSwipe() {
  let from = null;
  const wrap = $("board-wrap");
  wrap.addEventListener("pointerdown", (event) => { from = { x: event.clientX, y: event.clientY }; });
  wrap.addEventListener("pointerup", (event) => {
    if (!from) return;
    const dx = event.clientX - from.x, dy = event.clientY - from.y;
    from = null;
    if (Math.abs(dx) > 40 && Math.abs(dx) > 2 * Math.abs(dy)) step(state.target + (dx < 0 ? 1 : -1));
  });
  wrap.addEventListener("pointercancel", () => { from = null; });
}

// -- the address: #move=N -------------------------------------------------------------------
// The move the address names (#move=12), or null where it names none.
function moveInAddress() {
  const written = new URLSearchParams(location.hash.slice(1)).get("move");
  const move = Number(written);
  return written !== null && written.trim() !== "" && Number.isInteger(move) ? move : null;
}

// The address changed by hand, by a link to another move of this replay, or by Back and
// Forward: the page goes there, as a link opened anew would. Its own steps write the
// address with history.replaceState, which fires no hashchange, so they never come back
// here; an address that names no move, or one beyond the game, is written as the move shown.
function followAddress() {
  const move = moveInAddress();
  if (move === null) history.replaceState(null, "", `#move=${state.target}`);
  else if (move !== state.target) step(move);
  else if (`#move=${move}` !== location.hash) history.replaceState(null, "", `#move=${move}`);
}

// -- the page ------------------------------------------------------------------------------
function refuse(error) {
  const missing = /no game session/i.test(error.message);
  $("refused-title").textContent = missing ? "There is no such game" : "This replay is not open yet";
  $("refused-reason").textContent = error.message.endsWith(".") ? error.message : `${error.message}.`;
  document.title = `${$("refused-title").textContent} · Parlour`;
  $("refused").hidden = false;
  document.body.dataset.ready = "1";
}

// The game's own display options (Ishido's shapes, Escalator's deck), as its page keeps them.
function applyDisplayOptions(info) {
  let saved = {};
  try { saved = JSON.parse(localStorage.getItem(`parlour.display.${info.name}`)) || {}; } catch { /* defaults */ }
  for (const [name, choices] of Object.entries(info.display_options || {})) {
    $("board").dataset[`opt${name[0].toUpperCase()}${name.slice(1)}`] = choices.includes(saved[name]) ? saved[name] : choices[0];
  }
}

async function start() {
  $("logo").innerHTML = LOGO;
  let replay;
  try { replay = await api("GET", `/api/games/${encodeURIComponent(SID)}/replay`, undefined, token()); }
  catch (error) { refuse(error); return; }
  state.replay = replay;
  const catalog = await catalogOf();
  const info = catalog.games.find((g) => g.name === replay.game);
  document.body.dataset.game = replay.game;
  $("game-css").href = `/games/${encodeURIComponent(replay.game)}/view.css`;  // fit.js fits again once it has come
  $("replay-title").textContent = `Replay · ${replay.title}`;
  document.title = `Replay · ${replay.title} · Parlour`;
  $("btn-stats").href = `/stats?game=${encodeURIComponent(replay.game)}`;
  if (replay.id) {
    $("game-id").textContent = replay.id;
    $("btn-play-deal").href = `/play/${encodeURIComponent(replay.game)}?id=${encodeURIComponent(replay.id)}`;
    $("btn-play-deal").hidden = false;
    if (info) $("btn-play-deal").querySelector(".label").textContent = `Play this ${dealWord(info)}`;
    if (info && !info.random_deal) $("btn-play-deal").title = "Play a game of it yourself";
  }
  // no deal to show: none kept, or a game that always starts the same (Tic Tac Toe), as in play
  if (!replay.id || (info && !info.random_deal)) {
    for (const part of document.querySelectorAll(".idbar .id-label, #game-id")) part.hidden = true;
  }
  if (info) applyDisplayOptions(info);
  $("rp-slider").max = String(replay.plies);
  if (replay.move_list) {
    $("movelist-items").innerHTML = moveListItems(replay);
    $("movelist").hidden = false;
    $("board-wrap").classList.add("with-moves");
  }
  $("replay").hidden = false;
  bind();
  fitBoardToScreen();
  state.endCauseInSight = keepEndCauseInSight($("board"));
  await show(moveInAddress() ?? 0);
  document.body.dataset.ready = "1";
}

start();
