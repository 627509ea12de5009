// Statistics per game, preset and mode; the server draws the charts.
import { api, escapeHtml, formatTime, LOGO } from "/static/common.js";

const $ = (id) => document.getElementById(id);

function round(value) {
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

function figure(value, label) {
  return `<div class="figure"><b>${value}</b><span>${escapeHtml(label)}</span></div>`;
}

function groupCard(g) {
  const rate = `${Math.round(g.win_rate * 100)}%`;
  const best = g.best_time_ms === null ? "–" : formatTime(g.best_time_ms);
  return `<section class="stat-card" data-game="${escapeHtml(g.game)}">
    <h3>${escapeHtml(g.title)}</h3><p class="mode">${escapeHtml(g.preset)} · ${escapeHtml(g.mode)}</p>
    <div class="figures">
      ${figure(g.played, "played")}${figure(g.won, "won")}${figure(rate, "win rate")}
      ${figure(g.current_streak, "current streak")}${figure(g.best_streak, "best streak")}${figure(best, "best time")}
      ${figure(g.best_score ?? "–", "best score")}${figure(g.drawn, "drawn")}${figure(`${g.unassisted_won}/${g.unassisted_played}`, "won unassisted")}
    </div>
    ${Object.entries(g.figures).length ? `<div class="figures">${Object.entries(g.figures).map(([name, f]) =>
      figure(`${round(f.best)} <small>/ ${round(f.mean)}</small>`, `${name}: best / mean`)).join("")}</div>` : ""}
    ${(g.over_all || []).map(overAll).join("")}
    ${g.chart_svg}
    <div class="legend"><span><i style="background:var(--won)"></i>won</span><span><i style="background:var(--lost)"></i>lost</span><span><i style="background:var(--draw)"></i>draw</span><span>pale: assisted · height: time</span></div>
  </section>`;
}

// A game's own figure over every game: a share, or how often each value came.
function overAll(f) {
  if (f.show === "share") {
    const share = f.share === null ? "–" : `${Math.round(f.share * 100)}%`;
    return `<div class="figures">${figure(share, `${f.label} (of ${f.games})`)}</div>`;
  }
  if (f.show === "fewest") {
    const shown = f.fewest === null ? "–" : `${round(f.fewest)} <small>/ ${round(f.mean)}</small>`;
    return `<div class="figures">${figure(shown, `${f.label}: fewest / mean, won unassisted`)}</div>`;
  }
  return `<div class="distribution"><p class="mode">${escapeHtml(f.label)}</p>${f.chart_svg}</div>`;
}

async function show() {
  const game = $("game-filter").value;
  const stats = await api("GET", `/api/stats${game ? `?game=${encodeURIComponent(game)}` : ""}`);
  $("groups").innerHTML = stats.groups.length ? stats.groups.map(groupCard).join("")
    : `<p class="empty">No finished games yet${game ? " of this game" : ""}. Play one and come back!</p>`;
  document.body.dataset.ready = "1";
}

async function start() {
  $("logo").innerHTML = LOGO;
  const catalog = await api("GET", "/api/catalog");
  const filter = $("game-filter");
  filter.innerHTML += catalog.games.map((g) => `<option value="${escapeHtml(g.name)}">${escapeHtml(g.title)}</option>`).join("");
  filter.value = new URLSearchParams(location.search).get("game") || "";
  filter.addEventListener("change", () => {
    history.replaceState(null, "", filter.value ? `/stats?game=${encodeURIComponent(filter.value)}` : "/stats");
    show();
  });
  await show();
}

start();
