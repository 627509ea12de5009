// The home page: the unfinished games to resume (first, when there are any), every game
// with its picture, and the daily deals.
import { api, catalog as catalogOf, escapeHtml, loadPrefs, LOGO, nextTheme, onThemeKey, THEMES, toast, tokens } from "/static/common.js";
import { showHomeDaily } from "/static/daily.js";

const $ = (id) => document.getElementById(id);
const RESUME_SHOWN = 5;      // the Resume list shows the most recent; "Show all" the rest
const RESUME_ALL = 100;
const RESUME_TOKENS_SENT = 300;  // the Resume list takes this many: the most recently kept
let resumeLimit = RESUME_SHOWN;

function ago(seconds) {
  const minutes = Math.round((Date.now() / 1000 - seconds) / 60);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} h ago` : `${Math.round(hours / 24)} days ago`;
}

function gameCard(game) {
  const players = game.seats.length === 1 ? "Solitaire" : `${game.seats.length} players` + (game.ai_levels.length ? " · vs computer" : "");
  return `<a class="card" href="/play/${encodeURIComponent(game.name)}" data-game="${escapeHtml(game.name)}">
    <div class="picture">${game.thumbnail_svg}</div>
    <div class="body"><h3>${escapeHtml(game.title)}</h3><p class="sub">${escapeHtml(players)}</p></div></a>`;
}

// -- the Resume list: only games this browser holds a seat in (it proves the seat with
// the token it keeps), each with its board, players and progress, and a × to remove it
function resumeName(item) {
  return [item.title, item.summary].filter(Boolean).join(" · ");
}

function resumeItem(item) {
  const facts = [item.summary, item.players, `${item.moves} ${item.moves === 1 ? "move" : "moves"}`].filter(Boolean);
  return `<li data-session="${escapeHtml(item.session)}"><a href="/play/${encodeURIComponent(item.game)}?session=${encodeURIComponent(item.session)}">
    <b>${escapeHtml(item.title)}</b><span class="facts">${escapeHtml(facts.join(" · "))}</span>
    <span class="when">${ago(item.updated)}</span></a>
    <button type="button" class="forget" data-forget="${escapeHtml(item.session)}" data-name="${escapeHtml(resumeName(item))}"
      title="Remove from this list" aria-label="Remove ${escapeHtml(resumeName(item))} from this list">×</button></li>`;
}

async function showResume() {
  const sent = Object.values(tokens()).slice(-RESUME_TOKENS_SENT);
  const held = await api("POST", "/api/sessions/mine", { tokens: sent, limit: resumeLimit });
  $("resume").innerHTML = held.games.map(resumeItem).join("");
  $("resume-more").hidden = held.total <= held.games.length;
  $("resume-more").textContent = `Show all ${held.total}`;
  $("resume-section").hidden = held.total === 0 && $("resume-undo").hidden;
}

// Removing takes the game off this browser's list on the server (the game stays: its link
// still opens it), and can be undone at once.
async function forget(sid, name, forgotten = true) {
  const token = tokens()[sid];
  await api("POST", `/api/games/${encodeURIComponent(sid)}/forget`, { forget: forgotten }, token);
  $("resume-undo").hidden = !forgotten;
  if (forgotten) {
    $("resume-undo-text").textContent = `Removed ${name}.`;
    $("resume-undo-button").dataset.session = sid;
    $("resume-undo-button").dataset.name = name;
  }
  await showResume();
  (forgotten ? $("resume-undo-button") : $("resume").querySelector(`[data-session="${CSS.escape(sid)}"] a`))?.focus();
}

function bindResume() {
  $("resume").addEventListener("click", (event) => {
    const button = event.target.closest("[data-forget]");
    if (button) forget(button.dataset.forget, button.dataset.name).catch((error) => toast(error.message));
  });
  $("resume-undo-button").addEventListener("click", (event) => {
    const { session, name } = event.currentTarget.dataset;
    forget(session, name, false).catch((error) => toast(error.message));
  });
  $("resume-more").addEventListener("click", async () => {
    resumeLimit = RESUME_ALL;
    await showResume();
    $("resume").querySelector(`li:nth-child(${RESUME_SHOWN + 1}) a`)?.focus();  // the first one shown now
  });
}

function showTheme() {
  $("theme-label").textContent = THEMES.find(([key]) => key === loadPrefs().theme)[1];
}

function changeTheme() {
  nextTheme();
  showTheme();
}

async function start() {
  $("logo").innerHTML = LOGO;
  showTheme();
  $("btn-theme").addEventListener("click", changeTheme);
  onThemeKey(changeTheme);  // T, as on the game pages (the button's tooltip says so)
  bindResume();
  // the games are shown even if the Resume list cannot be
  const [catalog] = await Promise.all([catalogOf(), showResume().catch((error) => toast(error.message)),
    showHomeDaily($("daily"), $("daily-section"), $("daily-date")).catch((error) => toast(error.message))]);
  $("games").innerHTML = catalog.games.map(gameCard).join("");
  document.body.dataset.ready = "1";
}

start();
