// The home page: every game with its picture, and the unfinished games to resume.
import { api, escapeHtml, loadPrefs, LOGO, savePrefs, THEMES, tokens } from "/static/common.js";

const $ = (id) => document.getElementById(id);

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

function resumeItem(item) {
  const mine = Boolean(tokens()[item.session]);
  return `<li><a href="/play/${encodeURIComponent(item.game)}?session=${encodeURIComponent(item.session)}">
    <b>${escapeHtml(item.title)}</b><span>${escapeHtml(item.mode)} · ${item.moves} moves${mine ? "" : " · watch or join"}</span>
    <span class="when">${ago(item.updated)}</span></a></li>`;
}

function showTheme() {
  $("theme-label").textContent = THEMES.find(([key]) => key === loadPrefs().theme)[1];
}

async function start() {
  $("logo").innerHTML = LOGO;
  showTheme();
  $("btn-theme").addEventListener("click", () => {
    const prefs = loadPrefs(), keys = THEMES.map(([key]) => key);
    prefs.theme = keys[(keys.indexOf(prefs.theme) + 1) % keys.length];
    savePrefs(prefs); showTheme();
  });
  const [catalog, unfinished] = await Promise.all([api("GET", "/api/catalog"), api("GET", "/api/sessions")]);
  $("games").innerHTML = catalog.games.map(gameCard).join("");
  $("resume").innerHTML = unfinished.map(resumeItem).join("");
  $("resume-section").hidden = unfinished.length === 0;
  document.body.dataset.ready = "1";
}

start();
