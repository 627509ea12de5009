// Daily deals: each solitaire's deal of the day (the player's local date), on the home
// page with its result once played, and on the statistics page with the days played and
// the streaks. The server says which game counts for the day and works out the streaks.
import { escapeHtml, ownResults, tokens } from "/static/common.js";

// The player's own date, as the server takes it: YYYY-MM-DD of the local calendar.
export function localToday(now = new Date()) {
  const pad = (n) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

export async function dailyDeals() {
  return await ownResults("/api/daily", `?today=${localToday()}`);
}

// How the day's result reads: "Won in 3:12", "Lost", "In progress"...
export function resultWords(today) {
  if (!today) return "";
  const help = today.assisted ? " with help" : "";
  if (today.outcome === "won") return `Won${help} in ${today.time_shown}`;
  if (today.outcome === "playing") return "In progress";
  if (today.outcome === "given_up") return "Given up (restarted)";
  return `${today.outcome[0].toUpperCase()}${today.outcome.slice(1)}${help}`;
}

function streakWords(days) {
  return `${days}-day streak`;
}

// A game's daily deal on the home page: Play, Resume, or its result (the link opens it).
function homeItem(entry) {
  const today = entry.today;
  const href = today
    ? `/play/${encodeURIComponent(entry.game)}?session=${encodeURIComponent(today.session)}`
    : `/play/${encodeURIComponent(entry.game)}?id=${encodeURIComponent(entry.id)}`;
  const state = !today ? "new" : today.outcome;
  // a game started in another browser holds its seat there: this one may only watch it
  const elsewhere = today?.outcome === "playing" && !tokens()[today.session];
  const action = !today ? "Play" : today.outcome !== "playing" ? "See it" : elsewhere ? "Watch" : "Resume";
  const result = !today ? "Not played yet" : elsewhere ? "Started in another browser" : resultWords(today);
  const streak = entry.current_streak ? `<span class="daily-streak">${streakWords(entry.current_streak)}</span>` : "";
  return `<li class="daily" data-game="${escapeHtml(entry.game)}" data-state="${escapeHtml(state)}">
    <a href="${href}">
      <span class="daily-name"><b>${escapeHtml(entry.title)}</b><span class="daily-board">${escapeHtml(entry.board)}</span></span>
      <span class="daily-result">${escapeHtml(result)}</span>${streak}
      <span class="daily-action btn${today ? "" : " primary"}">${action}</span></a></li>`;
}

export async function showHomeDaily(list, section, dateLine) {
  const report = await dailyDeals();
  list.innerHTML = report.games.map(homeItem).join("");
  const [year, month, day] = report.date.split("-").map(Number);
  dateLine.textContent = new Date(year, month - 1, day).toLocaleDateString(undefined,
    { weekday: "long", day: "numeric", month: "long" });
  section.hidden = report.games.length === 0;
}

// -- the statistics page's section: per game, the days played and won, both streaks, and
// the last days one by one
const MARKS = { won: "✓", lost: "✗", drawn: "=", given_up: "✗", playing: "…", unplayed: "·" };
const MARK_WORDS = { won: "won", lost: "lost", drawn: "drawn", given_up: "given up", playing: "in progress", unplayed: "not played" };

function dayMark(day) {
  const [year, month, date] = day.date.split("-").map(Number);
  const name = new Date(year, month - 1, date).toLocaleDateString(undefined, { weekday: "short", day: "numeric", month: "short" });
  const words = `${name}: ${MARK_WORDS[day.outcome]}${day.assisted ? " with help" : ""}`;
  return `<li class="day ${escapeHtml(day.outcome)}${day.assisted ? " assisted" : ""}" title="${escapeHtml(words)}">
    <span aria-hidden="true">${MARKS[day.outcome] ?? "·"}</span><span class="visually-hidden">${escapeHtml(words)}</span></li>`;
}

function statsRow(entry) {
  const today = entry.today ? resultWords(entry.today) : "not played yet";
  return `<tr data-game="${escapeHtml(entry.game)}"><th scope="row">${escapeHtml(entry.title)}<span class="daily-board">${escapeHtml(entry.board)} · today ${escapeHtml(today.toLowerCase())}</span></th>
    <td data-label="Days played">${entry.played}</td><td data-label="Won">${entry.won}</td>
    <td class="streak-now" data-label="Current streak">${entry.current_streak}</td><td class="streak-best" data-label="Best streak">${entry.best_streak}</td>
    <td class="recent"><ol class="days" aria-label="The last ${entry.recent.length} days">${entry.recent.map(dayMark).join("")}</ol></td></tr>`;
}

export async function showStatsDaily(section, game) {
  const report = await dailyDeals();
  const games = report.games.filter((entry) => !game || entry.game === game);
  section.hidden = games.length === 0 || games.every((entry) => entry.played === 0 && !entry.today);
  if (section.hidden) return;
  section.innerHTML = `<h2>Daily deals</h2>
    <div class="table-wrap"><table><thead><tr><th scope="col"></th><th scope="col">Days played</th><th scope="col">Won</th>
      <th scope="col">Current streak</th><th scope="col">Best streak</th><th scope="col">Last 7 days</th></tr></thead>
    <tbody>${games.map(statsRow).join("")}</tbody></table></div>
    <p class="note">A day counts once: its first game of the day's deal. Won and the streaks count the days whose deal was won without help, in a row for a streak; today's deal, until played, does not break it.</p>`;
}
