// Links that ask. A deal link (`?id=ID`) starts a game and a seat link (`?session=SID`,
// `&seat=N`) takes a seat: opened from outside Parlour (another site, a pop-up, a pasted
// address), the page first says what the link will do (the game, its board in the game's
// words, who plays) and waits for the player's click; nothing is created or taken before.
// Parlour's own pages (its home page, the replay's "Play this deal", the daily deals)
// go straight in. A link to watch asks nothing: it takes nothing.
//
// How the page knows where it was opened from: `document.referrer`. The server sends
// `Referrer-Policy: same-origin`, so Parlour's own pages name themselves to it, and a page
// of another site cannot pass for one of them; a referrer stripped (`rel=noreferrer`, a
// typed or pasted address, an app shortcut) counts as outside: the page asks.
import { $, api, dealWord, escapeHtml, seatDot } from "/static/common.js";

export function openedFromParlour() {
  try { return new URL(document.referrer).origin === location.origin; } catch { return false; }
}

// The way out (Home, or Esc): to the home page, and nothing after it runs.
async function leave() {
  location.href = "/";
  await new Promise(() => {});
}

// Resolves once the player clicks "Play this deal" (or game); Home and Esc leave for the home page.
// info: the game's catalog entry; id: the link's game id.
export async function askDeal(info, id) {
  const deal = dealWord(info);  // Tic Tac Toe's link is to a game: every one starts the same
  const kicker = `A link to a ${deal}`;
  let preview;
  try {
    preview = await api("GET", `/api/links/deal?game=${encodeURIComponent(info.name)}&id=${encodeURIComponent(id)}`);
  } catch (error) {
    await show({ info, kicker, board: "", what: error.message, seats: [], actions: [] });
    await leave();  // nothing to play: only the way out
  }
  const board = preview.position ? [preview.board, "its own start position"].filter(Boolean).join(" · ") : preview.board;
  const seats = info.seats.length > 1 ? info.seats.map((name, index) => ({
    index, name, who: playerWords(info, info.default_seats[index] ?? "human", index === 0),
  })) : [];
  const chosen = await show({
    info, kicker, board, seats,
    what: `Playing it starts a new game${info.random_deal ? " of this deal" : ""} for you. Nothing has started yet.`,
    actions: [{ value: "play", label: `Play this ${deal}` }],
  });
  if (chosen !== "play") await leave();
}

// The seat the player takes (a number), or null to watch; Home and Esc leave for the home
// page. seen: the game's view (GET /api/games/SID); offered: the open seats the link offers.
export async function askSeat(info, sid, seen, offered) {
  let board = "";
  try { board = (await api("GET", `/api/links/session/${encodeURIComponent(sid)}`)).board; }
  catch { /* the seats still say what the link does */ }
  const seats = seen.seats.map((seat, index) => ({ index, name: seat.name, who: seatWords(info, seat) }));
  const chosen = await show({
    info, kicker: "An invitation to play", board, seats,
    what: "Take a seat to play, or just watch. No seat is taken until you choose.",
    actions: [{ value: "watch", label: "Just watch" },
      ...offered.map((index) => ({ value: String(index), label: `Take the ${seen.seats[index].name} seat`, seat: index }))],
  });
  if (chosen === "watch") return null;
  const seat = Number.parseInt(chosen, 10);
  if (Number.isNaN(seat)) await leave();
  return seat;
}

// Who sits at a seat of a game under way, in a player's words.
function seatWords(info, seat) {
  if (seat.open) return seat.stand_in ? "open (the computer plays it for now)" : "open";
  if (seat.kind === "ai") return `the computer${seat.level ? ` (${info.ai_level_labels[seat.level] ?? seat.level})` : ""}`;
  return "a player";
}

// Who a new game's seat is given to ("human", "open" or "ai:LEVEL"), in a player's words.
function playerWords(info, kind, first) {
  if (kind.startsWith("ai:")) return `the computer (${info.ai_level_labels[kind.slice(3)] ?? kind.slice(3)})`;
  if (kind === "open") return "open, for a friend";
  return first ? "you" : "you too";
}

// The prompt: resolves with the value of the button clicked ("" for Esc or Home). The last
// action is the main one: primary, and focused, so Enter does it.
function show({ info, kicker, board, what, seats, actions }) {
  const dialog = $("link-dialog");
  $("link-picture").innerHTML = info.thumbnail_svg;
  $("link-kicker").textContent = kicker;
  $("link-title").textContent = info.title;
  $("link-board").textContent = board;
  $("link-board").hidden = !board;
  $("link-seats").innerHTML = seats.map(({ index, name, who }) =>
    `<li style="--seat-color: var(--seat-${index})">${seatDot(index)}`
    + `<span class="link-seat-name">${escapeHtml(name)}<span class="visually-hidden">:</span></span> <span class="link-seat-who">${escapeHtml(who)}</span></li>`).join("");
  $("link-seats").hidden = seats.length === 0;
  $("link-what").textContent = what;
  const main = actions.length - 1;
  $("link-actions").innerHTML = actions.map(({ value, label, seat }, i) =>
    `<button class="btn${i === main ? " primary" : ""}${seat === undefined ? "" : " link-take"}" value="${escapeHtml(value)}"`
    + `${seat === undefined ? "" : ` style="--seat-color: var(--seat-${seat})"`}>`
    + `${seat === undefined ? "" : seatDot(seat)}${escapeHtml(label)}</button>`).join("");
  $("link-home").classList.toggle("primary", actions.length === 0);
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue), { once: true });
    dialog.returnValue = "";
    dialog.showModal();
    (actions.length ? $("link-actions").lastElementChild : $("link-home")).focus();
  });
}
