// The statistics page's past games: the last finished games (of the game chosen, or of
// all), each with a Replay link to watch it again (/replay/SID), from GET /api/replays.
import { escapeHtml, ownResults } from "/static/common.js";

const SHOWN = 20;

function when(seconds) {
  return new Date(seconds * 1000).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

function row(past, allGames) {
  const what = [allGames ? past.title : "", past.board].filter(Boolean).join(" · ");
  return `<li class="past-game" data-session="${escapeHtml(past.session)}">
    <span class="past-what"><b>${escapeHtml(what || past.title)}</b>
      <span class="past-players">${escapeHtml(past.players.charAt(0).toUpperCase() + past.players.slice(1))}</span></span>
    <span class="past-result">${escapeHtml(past.headline || past.outcome)}${past.assisted
      ? ' <span class="badge" title="Played with help (a hint, Assist or a take-back): it set no record">With help</span>' : ""}</span>
    <span class="past-figures">${past.moves} move${past.moves === 1 ? "" : "s"} · ${escapeHtml(past.time_shown)}</span>
    <time class="past-when" datetime="${new Date(past.finished * 1000).toISOString()}">${escapeHtml(when(past.finished))}</time>
    <a class="btn small" href="/replay/${encodeURIComponent(past.session)}"
       aria-label="Replay: ${escapeHtml(what || past.title)}, ${escapeHtml(when(past.finished))}">Replay</a>
  </li>`;
}

// Fill `section` with the past games of `game` ("" for every game).
export async function showPastGames(section, game) {
  const games = await ownResults("/api/replays", `?limit=${SHOWN}${game ? `&game=${encodeURIComponent(game)}` : ""}`);
  section.hidden = games.length === 0;
  section.innerHTML = `<h2 class="section" id="past-games-title">Past games</h2>
    <p class="note">Watch any of them again, move by move.</p>
    <ol class="past-games-list" aria-labelledby="past-games-title">${games.map((past) => row(past, !game)).join("")}</ol>`;
}
