// Statistics per game, group (board, difficulty...) and mode. The server words the
// figures and draws the charts (SVG themed by the page's colours); this lays them out.
import { api, escapeHtml, LOGO } from "/static/common.js";

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
  return `<section class="stat-card" data-game="${escapeHtml(g.game)}" data-group="${escapeHtml(g.preset)}">
    <h2>${heading}</h2><p class="mode">${escapeHtml(g.mode)}</p>
    ${figures(g.shown)}${g.charts.map(chart).join("")}
  </section>`;
}

async function show(titles) {
  const game = $("game-filter").value;
  const title = titles.get(game);
  const stats = await api("GET", `/api/stats${game ? `?game=${encodeURIComponent(game)}` : ""}`);
  if (game !== $("game-filter").value) return;  // changed again meanwhile
  $("heading").textContent = title ? `Statistics — ${title}` : "Statistics";
  document.title = `${$("heading").textContent} · Parlour`;
  $("groups").innerHTML = stats.groups.length
    ? `<div class="stat-groups">${stats.groups.map((g) => card(g, !title)).join("")}</div>`
    : `<p class="empty">No finished games yet${title ? ` of ${escapeHtml(title)}` : ""}. Play one and come back!</p>`;
  document.body.dataset.ready = "1";
}

async function start() {
  $("logo").innerHTML = LOGO;
  const catalog = await api("GET", "/api/catalog");
  const titles = new Map(catalog.games.map((g) => [g.name, g.title]));
  const filter = $("game-filter");
  filter.innerHTML += catalog.games.map((g) => `<option value="${escapeHtml(g.name)}">${escapeHtml(g.title)}</option>`).join("");
  filter.value = new URLSearchParams(location.search).get("game") || "";
  filter.addEventListener("change", () => {
    history.replaceState(null, "", filter.value ? `/stats?game=${encodeURIComponent(filter.value)}` : "/stats");
    show(titles);
  });
  await show(titles);
}

start();
