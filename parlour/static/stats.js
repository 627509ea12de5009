// Statistics per game, group (board, difficulty...) and mode. The server words the
// figures and draws the charts (SVG themed by the page's colours); this lays them out.
import { catalog as catalogOf, escapeHtml, LOGO, nextTheme, onThemeKey, ownResults, toast } from "/static/common.js";
import { setUpBackup } from "/static/backup.js";
import { showStatsDaily } from "/static/daily.js";
import { showPastGames } from "/static/pastgames.js";
import { packCards } from "/static/cardpack.js";

const $ = (id) => document.getElementById(id);

function figures(shown) {
  return `<dl class="figures">${shown.map((f) =>
    `<div class="figure"><dt>${escapeHtml(f.label)}</dt><dd>${escapeHtml(f.value)}</dd></div>`).join("")}</dl>`;
}

// A chart, and its figures as a table for those who cannot see it.
function chart(c) {
  const head = c.columns.map((name) => `<th scope="col">${escapeHtml(name)}</th>`).join("");
  const rows = c.rows.map(([first, ...rest]) => `<tr><th scope="row">${escapeHtml(first)}</th>${
    rest.map((cell) => `<td>${escapeHtml(cell)}</td>`).join("")}</tr>`).join("");
  return `<figure class="stat-chart">${c.svg}
    <details><summary>${escapeHtml(c.title)} as a table</summary>
      <div class="table-wrap"><table><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table></div>
    </details></figure>`;
}

// A group's card; with every game shown, its heading names the game too.
function card(g, allGames) {
  const heading = allGames ? `${escapeHtml(g.title)} <span class="group">· ${escapeHtml(g.heading)}</span>`
    : escapeHtml(g.heading);
  const players = g.players && g.players !== g.heading ? `<p class="mode">${escapeHtml(g.players)}</p>` : "";
  const note = g.note ? `<p class="note">${escapeHtml(g.note)}</p>` : "";
  return `<section class="stat-card" data-game="${escapeHtml(g.game)}" data-group="${escapeHtml(g.preset)}">
    <h2>${heading}</h2>${players}
    ${figures(g.shown)}${g.charts.map(chart).join("")}${note}
  </section>`;
}

// A game's bests side by side, a row per board or difficulty (games without help only).
function bestsTable(b, allGames) {
  if (b.rows.length < 2) return "";  // one group: its card says it
  const head = ["", ...b.columns].map((name) => `<th scope="col">${escapeHtml(name)}</th>`).join("");
  const rows = b.rows.map((r) => `<tr><th scope="row">${escapeHtml(r.heading)}${
    r.players && r.players !== r.heading ? `<span class="players">${escapeHtml(r.players)}</span>` : ""}</th>${
    r.values.map((v) => `<td>${escapeHtml(v)}</td>`).join("")}</tr>`).join("");
  return `<section class="bests stat-card" data-game="${escapeHtml(b.game)}">
    <h2>${allGames ? `${escapeHtml(b.title)}: bests` : "Bests"}</h2>
    <table><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>
    <p class="note">Games played without help only.</p></section>`;
}

// Each game's bests first, then a card per group, then how many groups are not shown.
function cardsByGame(stats, allGames) {
  const bests = new Map((stats.bests ?? []).map((b) => [b.game, bestsTable(b, allGames)]));
  const cards = new Map();
  for (const g of stats.groups) cards.set(g.game, [...(cards.get(g.game) ?? []), card(g, allGames)]);
  const more = (game) => {
    const count = stats.left_off?.[game] ?? 0;
    return count ? `<p class="note stat-card">${count} more, played less recently, not shown.</p>` : "";
  };
  return [...cards].map(([game, shown]) => (bests.get(game) ?? "") + shown.join("") + more(game))
    .join("");
}

// Back to the game: its page opens the game being played, or the last, or a new one.
function backLink(game, title) {
  const link = $("back");
  link.hidden = !game;
  if (!game) return;
  link.href = `/play/${encodeURIComponent(game)}`;
  link.title = `Play ${title}`;
  link.setAttribute("aria-label", `Play ${title}`);
}

async function show(titles) {
  const game = $("game-filter").value;
  const title = titles.get(game);
  const [stats] = await Promise.all([ownResults("/api/stats", game ? `?game=${encodeURIComponent(game)}` : ""),
    showStatsDaily($("daily"), game).catch(() => { $("daily").hidden = true; })]);  // the rest stands without it
  if (game !== $("game-filter").value) return;  // changed again meanwhile
  $("heading").textContent = title ? `Statistics — ${title}` : "Statistics";
  document.title = `${$("heading").textContent} · Parlour`;
  backLink(game, title);
  $("groups").innerHTML = stats.groups.length
    ? `<div class="stat-groups">${cardsByGame(stats, !title)}</div>`
    : `<p class="empty">No finished games yet${title ? ` of ${escapeHtml(title)}` : ""}. Play one and come back!</p>`;
  packCards($("groups").querySelector(".stat-groups"));
  await showPastGames($("past-games"), game).catch(() => { $("past-games").hidden = true; });
  document.body.dataset.ready = "1";
}

// The theme button and T, as on every other page (the charts take the page's colours).
function bindTheme() {
  const change = () => toast(`Theme: ${nextTheme()}`);
  $("btn-theme").addEventListener("click", change);
  onThemeKey(change);
}

async function start() {
  $("logo").innerHTML = LOGO;
  bindTheme();
  const catalog = await catalogOf();
  const titles = new Map(catalog.games.map((g) => [g.name, g.title]));
  const filter = $("game-filter");
  filter.innerHTML += catalog.games.map((g) => `<option value="${escapeHtml(g.name)}">${escapeHtml(g.title)}</option>`).join("");
  filter.value = new URLSearchParams(location.search).get("game") || "";
  filter.addEventListener("change", () => {
    history.replaceState(null, "", filter.value ? `/stats?game=${encodeURIComponent(filter.value)}` : "/stats");
    show(titles);
  });
  setUpBackup({ restored: () => show(titles), shared: catalog.shared });
  await show(titles);
}

start();
