// The end of a game: a card comes a beat after a move ends the game before the player's
// eyes (so that the winning line or the mines are seen first) with the result (the game's
// headline), whose it is, the final standings of a game of several seats, the time and
// the game's own figures, and what next: New game (a new deal like this one), Same deal
// again, Watch the replay (/replay/SID, replay.js), See the board, and any action a game
// adds to its row (#end-actions). It never hides the board: it floats beside it where it
// has room there (a wide screen's margin, a phone's side column), else it takes its place
// in the page's flow under the board's frame and the page scrolls to show it whole (or
// its top, where it is taller than the screen under the bar). Either way the board is not
// laid out again: it neither moves in the page nor shrinks. The card itself takes the
// focus, not one of its actions (Tab reaches them). ✕, Esc or See the board put it away
// (the focus goes back to the board); the status row then keeps the result and a "Show
// result" button that brings the card back.
import { $, escapeHtml, ownResults, playerNumber, seatDot, set, setText, sharedScreen, tokens } from "/static/common.js";

const END_BEAT_MS = 900;  // the final board alone, before the card comes

// The card's places besides its own (app.css), tried in turn: low (at the right on a wide
// screen, below a short move list), the other side of the screen, and, narrower, the
// margin beside the page's column, at its right or its left, where that has room for it.
// Where each hides some of the board, the card goes below it, in the page's flow.
const CARD_PLACES = [["low"], ["other-side"], ["beside"], ["beside", "other-side"]];
const ALL_PLACES = ["low", "other-side", "beside", "below"];
const OLDER_MOVES_WEIGHT = 0.25;  // a pixel of older moves matters less than one of the board
const LAST_MOVES = 3;  // the moves that tell how the game ended: as much as the board
const MARGIN_PX = 6;  // around what is kept in sight: a straight line's box has no height
const MOVES_ABOVE_MIN_PX = 120;  // a move list ends above the card only with this much room
// beside the column, the card is .75rem from the screen's edge (the column's padding keeps
// it as far from the board), and from 17rem wide to 22rem (its panel on a wide screen):
// narrower, its words wrap into a tall column (Ishido's margin at 1366x768 made it 181 px,
// its title three lines), and it goes under the board instead
const BESIDE_GAP_REM = 0.75, BESIDE_MIN_REM = 17, BESIDE_MAX_REM = 22;

// How much of a box (and a margin round it) the card hides, in square pixels.
function covered(card, b, margin = MARGIN_PX) {
  if (!b) return 0;
  const a = card.getBoundingClientRect();
  const across = Math.min(a.right, b.right + margin) - Math.max(a.left, b.left - margin);
  const down = Math.min(a.bottom, b.bottom + margin) - Math.max(a.top, b.top - margin);
  return Math.max(0, across) * Math.max(0, down);
}

// What the board draws, as one box: its cells, pieces, labels and pictures (the boxes of
// elements with none inside, an <svg> whole), not a frame round them, which may be as wide
// as the page beside a smaller board (Minesweeper's Easy board, 444 px in a 916-pixel
// frame at 1366x768): a card over the frame's empty corner hides nothing.
function drawnBox(board) {
  let box = null;
  for (const element of board.querySelectorAll("*")) {
    if (element.ownerSVGElement || (element.firstElementChild && element.localName !== "svg")) continue;
    const r = element.getBoundingClientRect();
    if (!r.width || !r.height) continue;  // not shown
    box = box ? { left: Math.min(box.left, r.left), top: Math.min(box.top, r.top),
      right: Math.max(box.right, r.right), bottom: Math.max(box.bottom, r.bottom) } : r;
  }
  return box;
}

// A move list beside the board that the floating `card` lies over (null: none) ends above
// it, its last moves scrolled into sight where they were: at 1280x800 Tic Tac Toe's card
// hid moves 6 to 9 of 9 (a list too short to keep a few moves above it stays whole).
function movesAbove(card) {
  const list = $("movelist");
  if (!list) return;
  list.style.removeProperty("bottom");
  if (!card) return;
  const items = list.querySelector(".movelist-items");
  const atEnd = items.scrollTop + items.clientHeight >= items.scrollHeight - 2;
  const box = list.getBoundingClientRect(), over = card.getBoundingClientRect();
  const across = over.left < box.right && over.right > box.left;
  const room = over.top - box.top - MARGIN_PX;
  if (!across || over.top >= box.bottom || room < MOVES_ABOVE_MIN_PX) return;
  list.style.bottom = `${box.bottom - over.top + MARGIN_PX + Number.parseFloat(getComputedStyle(list).bottom)}px`;
  if (atEnd) items.scrollTop = items.scrollHeight;
}

// The moves of the move list, where it stands beside the board (under it, on a phone, the
// board matters more than the strip of moves).
function movesBeside() {
  const list = $("movelist");
  if (!list || list.hidden) return [];
  if (list.getBoundingClientRect().left < $("board").getBoundingClientRect().right - 1) return [];
  return [...list.querySelectorAll(".mv, .mv-pass")];
}

// sameDeal: whether a game has a deal or a start position to play again (Tic Tac Toe has
// neither: its New game is the same game again).
export function createEndCard({ sameDeal = true } = {}) {
  const state = {
    shownFor: null,  // the session and line whose end the card shows (or was put away for)
    playingSeen: null,  // the session last shown in play: an end of it is seen as it comes
    latest: null,  // the last view of the end the card is for
    beat: 0,  // the timer that shows the card a beat after the end (0: none waiting)
    filled: null,  // the end the card was filled in for
    fills: 0,  // how many times it was filled: a records answer for an earlier one is dropped
    scrollWanted: false,  // the card just shown under the board: the page scrolls to it
    following: null,  // the page's scroll to the card ({ from, to }): it follows the card's growth
  };

  function show(next) {
    if (next.status === "playing") {
      stopBeat();
      delete $("game").dataset.end;
      state.playingSeen = next.session; state.shownFor = null; setShown(false, false);
      return;
    }
    const key = `${next.session}:${next.line_length}`;
    state.latest = next;
    if (state.shownFor === key) return;  // shown already, or put away: later views keep it so
    state.shownFor = key;
    stopBeat();
    const live = state.playingSeen === next.session;
    state.playingSeen = null;
    // a game's stylesheet may keep an end's show (Escalator's falling cards) for the end
    // the player saw come: [data-end="opened"] is a game opened, or reloaded, at its end
    $("game").dataset.end = live ? "seen" : "opened";
    // a game that ends before the player's eyes shows its final board first (the winning
    // line, the mines) for a beat; one opened finished shows its card at once
    if (live) state.beat = setTimeout(afterTheBeat, END_BEAT_MS);
    else fill(next);
  }

  // The group's records beside this game's figures ("Best time 1:02", as the statistics
  // page keeps them), and a new one said in the detail line: asked once the card is filled;
  // with them, where the game can tell, the best possible from its start ("Fewest possible 48").
  async function showRecords(next) {
    const fill = state.fills;
    let records = [];
    try {
      records = await ownResults(`/api/games/${encodeURIComponent(next.session)}/records`, "", tokens()[next.session]);
    } catch { return; }  // the card stands without them
    if (state.fills !== fill || !records.length) return;
    $("end-records").innerHTML = records.map(({ caption, shown, new: fresh }) =>
      `<div class="record${fresh ? " new" : ""}"><dt>${escapeHtml(caption[0].toUpperCase() + caption.slice(1))}</dt>`
      + `<dd>${escapeHtml(shown)}</dd></div>`).join("");
    const broken = records.filter((record) => record.new).map(({ caption }) => caption);
    // the best possible from the start, when this game scored it ("no solution is shorter")
    const met = records.map((record) => record.met).filter(Boolean).map((words) => ` ${words}`).join("");
    if (broken.length) setText($("end-detail"), `${endDetail(next)} Your new record: ${broken.join(", ")}!${met}`);
    else if (next.assisted) setText($("end-detail"), endDetail(next, { noRecord: true }));
    else if (met) setText($("end-detail"), `${endDetail(next)}${met}`);
  }

  // The beat is over: the card, unless the player opened a dialog meanwhile (New game):
  // then "Show result" offers it, rather than a card behind the dialog.
  function afterTheBeat() {
    state.beat = 0;
    if (document.querySelector("dialog[open]")) setShown(false, true);
    else fill(state.latest);
  }

  function stopBeat() { clearTimeout(state.beat); state.beat = 0; }

  // whether the card is on its way: a beat after the end (Esc then puts it away)
  function coming() { return state.beat !== 0; }

  function fill(next) {
    stopBeat();  // (a rematch offered during the beat fills it at once)
    state.filled = `${next.session}:${next.line_length}`;
    state.fills += 1;
    const card = $("end-card");
    set(card, "className", `end-card ${next.outcome || ""}`);
    setText($("end-title"), next.headline);
    setText($("end-detail"), endDetail(next));
    showStandings(next);
    const figures = [["Time", next.time_shown], ...next.end_figures.map(({ label, shown }) => [label, shown])];
    $("end-figures").innerHTML = figures.map(([label, value]) =>
      `<div><dt>${escapeHtml(label)}</dt><dd>${escapeHtml(String(value))}</dd></div>`).join("");
    $("end-records").innerHTML = "";
    showRecords(next);
    $("end-replay").hidden = !sameDeal || !(next.can_restart || next.id);
    $("end-watch").href = `/replay/${encodeURIComponent(next.session)}`;
    $("end-watch").hidden = next.line_length === 0;
    // the game's own buttons (view.end_actions), first in the actions row; play.js runs them
    for (const old of document.querySelectorAll("[data-end-command]")) old.remove();
    $("end-new").insertAdjacentHTML("beforebegin", (next.end_actions || []).map(({ label, command }) =>
      `<button class="btn primary" data-end-command="${escapeHtml(command)}">${escapeHtml(label)}</button>`).join(""));
    markPrimary();
    setShown(true, true);
    focusSoon();
  }

  // The final standings of a game of several seats: each seat's place, mark, name and
  // score in finishing order (view.places, the game's: where less is better, it says so),
  // the viewer's own seat named "You" and ringed (not where every seat is this screen's:
  // then each keeps its name). The seats' chips above the board say the scores too, but on
  // a phone the page has scrolled them under the bar by now. A game whose scores say only
  // who won (Tic Tac Toe's 1 and 0: its `scores_shown` is off, and the view's seats carry
  // no score) shows none: the headline says it all.
  function showStandings(next) {
    const list = $("end-standings");
    const { seats, places } = next;
    const scored = seats.length > 1 && places.length === seats.length && seats.every((seat) => seat.score !== null);
    set(list, "hidden", !scored);
    if (!scored) { list.innerHTML = ""; return; }
    const shared = next.you.length === seats.length;
    const order = seats.map((_, index) => index).sort((a, b) => places[a] - places[b] || a - b);
    list.innerHTML = order.map((index) => {
      const seat = seats[index], yours = seat.you && !shared;
      return `<li class="standing${yours ? " you" : ""}" style="--seat-color: var(--seat-${index})" data-seat="${index}"`
        + `><span class="place">${ordinal(places[index])}</span> ${seatDot(index)}<span class="name">`
        + `${yours ? `You<span class="visually-hidden"> (${escapeHtml(seat.name)})</span>` : escapeHtml(seat.name)}</span> `
        + `<span class="score">${escapeHtml(String(seat.score))}</span></li>`;
    }).join(" ");  // (read aloud as words apart, the card's description; the flex box shows no spaces)
  }

  // One primary action: the game's own (view.end_actions), else Rematch when it may be
  // offered or Accept when it is (series.js shows them), else New game. Asked at the fill
  // and at each view's rematch.
  function markPrimary() {
    const shown = (id) => $(id) && !$(id).hidden;  // (the card itself may be on its way)
    const first = document.querySelector("[data-end-command]") || shown("end-rematch-offer")
      || (shown("end-rematch") && shown("rematch-accept"));
    $("end-new").classList.toggle("primary", !first);
  }

  // over: the game has ended (the status row then offers the card back while it is away)
  function setShown(shown, over) {
    set($("end-card"), "hidden", !shown);
    set($("end-show"), "hidden", shown || !over);
    state.following = null;
    if (shown) requestAnimationFrame(() => keepInSight());
    else movesAbove(null);
  }

  // What ended the game (a board marks it data-end-cause: Minesweeper's exploded mine,
  // Tic Tac Toe's line and marks) stays in sight first of all; then, as far as it can,
  // what the board draws, the seats, the last moves of a move list beside it and, less,
  // its older ones. The card floats in the place that hides least (its own, if that hides
  // nothing; the first of equals): where the page's margin has room for it, a board that
  // reaches the card keeps clear of it too. Where every place lies over what the board
  // draws or what ended the game, the card goes under the board's frame, in the page's
  // flow, and the page scrolls to it: it never hides the board.
  // scroll: whether the card was just shown (a resize keeps the page's scroll as it was)
  function keepInSight(scroll = true) {
    const card = $("end-card");
    const scrolled = window.scrollY;  // (the card out of the flow a moment shortens the page)
    card.classList.remove(...ALL_PLACES);
    movesAbove(null);
    if (card.hidden) return;
    evenFigures();
    // the bar of buttons stays at the top (two rows on a phone): the card keeps below it
    const bar = document.querySelector(".topbar")?.getBoundingClientRect().bottom ?? 0;
    card.style.setProperty("--below-bar", `${Math.max(0, bar)}px`);
    // a wide screen's card starts no higher than the board's frame: over the headline it
    // hid the result it repeats ("…eared" peeked out from behind it)
    card.style.setProperty("--board-top", `${Math.max(0, bar, $("board-wrap").getBoundingClientRect().top)}px`);
    const causes = [...$("board").querySelectorAll("[data-end-cause]")];
    const moves = movesBeside();
    const besides = besidePlaces(card);
    // (weighed all together, a mine of one cell counted less than a strip of the board)
    // (the boxes, measured once: the card's places move nothing else)
    const boxes = (elements) => elements.map((element) => element.getBoundingClientRect());
    const causeBoxes = boxes(causes);
    const drawn = drawnBox($("board"));
    const kept = [drawn, ...boxes([...$("seats").children, ...moves.slice(-LAST_MOVES)])];
    const older = boxes(moves.slice(0, -LAST_MOVES));
    const hiddenOf = (all) => all.reduce((sum, box) => sum + covered(card, box), 0);
    // (over the board itself, not its margin: 1, the worst there is)
    const overBoard = () => ([...causeBoxes, drawn].some((box) => covered(card, box, 0) > 0) ? 1 : 0);
    const hidden = () => [overBoard(), hiddenOf(causeBoxes), hiddenOf(kept) + OLDER_MOVES_WEIGHT * hiddenOf(older)];
    const less = (hides, than) => {
      const differs = hides.findIndex((value, index) => value !== than[index]);
      return differs >= 0 && hides[differs] < than[differs];
    };
    let best = { place: [], hides: hidden() };
    for (const place of CARD_PLACES) {
      if (best.hides.every((value) => !value)) break;
      const beside = place.includes("beside");
      if (beside && !besides.includes(place)) continue;
      card.classList.add(...place);
      evenFigures();
      // (a narrow card too tall for the screen would scroll its actions out of sight)
      const hides = beside && card.scrollHeight > card.clientHeight + 1 ? null : hidden();
      card.classList.remove(...place);
      if (hides && less(hides, best.hides)) best = { place, hides };
    }
    const below = best.hides[0] > 0;
    card.classList.add(...(below ? ["below"] : best.place));
    evenFigures();
    if (!below && moves.length) movesAbove(card);
    if (below) window.scrollTo({ top: scrolled, behavior: "instant" });
    if (scroll) state.scrollWanted = below;
  }

  // How far the page scrolls (down; up, where it had gone past it) to bring the card under
  // the board into sight: the whole card wherever it fits between the bar of buttons and
  // the screen's foot, though the board's top then goes under the bar (the player looks at
  // the result now; the board is a scroll up), else its top just under the bar, the rest
  // a scroll away. Nothing, where the card is whole in sight already. (It stopped where
  // the board's top met the bar: Escalator's card at 1280x800 ended 58 px below the
  // screen, its record and half its actions out of sight, with the page 100 px short of
  // its end.)
  function scrollToShow(card) {
    const bar = Math.max(0, document.querySelector(".topbar")?.getBoundingClientRect().bottom ?? 0);
    const screen = document.documentElement.clientHeight;
    const box = card.getBoundingClientRect();
    if (box.top >= bar - 0.5 && box.bottom <= screen + 0.5) return 0;
    const room = screen - bar, fits = box.height <= room;
    const gap = Math.min(MARGIN_PX, Math.max(0, (room - box.height) / 2));  // above and below it
    const by = !fits ? box.top - bar : box.top < bar ? box.top - bar - gap : box.bottom + gap - screen;
    const pageEnd = document.documentElement.scrollHeight - screen - window.scrollY;
    // (a line stepped clear of the bar's edge keeps the card whole, or its top in sight)
    return clearOfTheBar(by, fits ? box.bottom - screen : by, Math.min(fits ? box.top - bar : by, pageEnd), bar);
  }

  // The page scrolls to the card (smoothly where the player's animations are on), and
  // remembers it: the card may grow once in sight (the records come a moment later, a
  // rematch is offered), and the page then follows it (the ResizeObserver below).
  function scrollToCard() {
    const by = scrollToShow($("end-card"));
    const from = window.scrollY, end = document.documentElement.scrollHeight - document.documentElement.clientHeight;
    state.following = { from, to: Math.max(0, Math.min(end, from + by)) };
    if (!by) return;
    const smooth = document.documentElement.dataset.anim === "on";
    window.scrollBy({ top: by, behavior: smooth ? "smooth" : "instant" });
  }

  // The card under the board grew (or shrank) after the page scrolled to it: the page
  // scrolls again, unless the player has taken the page over meanwhile (a wheel, a
  // finger, a key or the scroll bar: stopFollowing) or it has gone elsewhere (it is
  // neither where the scroll went nor on its way there).
  function followTheCard() {
    const follow = state.following;
    if (!follow || !shown() || !$("end-card").classList.contains("below")) return;
    const at = window.scrollY;
    if (at < Math.min(follow.from, follow.to) - 1 || at > Math.max(follow.from, follow.to) + 1) {
      state.following = null;
      return;
    }
    scrollToCard();
  }

  // The bar's edge, once the page has scrolled `by`, is not to cut through a line above
  // the board (the status line's descenders peeked out under it, 5 px of them, at
  // 1280x800): the page scrolls on until the line is hidden whole, as far as the page has
  // the room and the card stays whole (`most`), else back until it shows whole, as far as
  // the card stays whole (`least`), else as it was.
  function clearOfTheBar(by, least, most, bar) {
    const lines = linesAboveTheBoard();
    const cut = (at) => lines.find((line) => line.top < bar + at - 0.5 && line.bottom > bar + at + 0.5);
    const clear = (step, ok) => {
      let at = by;
      for (let line = cut(at); line; line = cut(at)) at = step(line);
      return ok(at) ? at : null;
    };
    return clear((line) => Math.ceil(line.bottom - bar), (at) => at <= most)
      ?? clear((line) => Math.floor(line.top - bar), (at) => at >= least) ?? by;
  }

  // The boxes and the lines of text of what stands above the board in the page's column
  // (the headline, the status line, the seats), as the screen shows them now.
  function linesAboveTheBoard() {
    const wrap = $("board-wrap"), lines = [];
    for (const part of wrap.parentElement.children) {
      if (part === wrap) break;
      const range = document.createRange();
      range.selectNodeContents(part);
      lines.push(...[...range.getClientRects()].filter((line) => line.height > 0));
    }
    return lines;
  }

  // The figures in rows as even as the card's width allows: all on one row where they
  // fit, else 3 and 2 rather than 4 and a lone fifth (a 1920-pixel screen's card: "82
  // Moves" took a line of its own).
  function evenFigures() {
    const figures = $("end-figures");
    const count = figures.children.length;
    for (let rows = 1; rows <= count; rows += 1) {
      figures.style.setProperty("--figure-columns", String(Math.ceil(count / rows)));
      if (figures.scrollWidth <= figures.clientWidth) return;
    }
  }

  // The places beside the page's column (the headline, the seats, the board's frame) whose
  // margin has room for the card: at its right, at its left; the card's width in each is
  // set as --beside-right-w, --beside-left-w (app.css).
  function besidePlaces(card) {
    const column = $("board-wrap").parentElement.getBoundingClientRect();
    const rem = Number.parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
    const room = (px) => Math.floor(Math.min(px - BESIDE_GAP_REM * rem, BESIDE_MAX_REM * rem));
    const right = room(document.documentElement.clientWidth - column.right), left = room(column.left);
    card.style.setProperty("--beside-right-w", `${right}px`);
    card.style.setProperty("--beside-left-w", `${left}px`);
    return CARD_PLACES.slice(2).filter((place) =>
      (place.includes("other-side") ? left : right) >= BESIDE_MIN_REM * rem);
  }

  // Focus after the frame that shows the card (focusing now would force the whole final
  // board's style and layout inside the view's script, before its first paint); then the
  // scroll to a card under the board (a focus stops a smooth scroll begun before it),
  // measured now: the records may have come since the card was placed.
  function focusSoon() {
    requestAnimationFrame(() => setTimeout(() => {
      if (!shown()) return;
      focusCard();
      const wanted = state.scrollWanted;
      state.scrollWanted = false;
      if (wanted) scrollToCard();
    }));
  }

  // The card itself takes the focus, not its first action: New game (or Rematch) with
  // the focus, a keyboard player's next Enter, or Space (Minesweeper's flag and chord),
  // started a new game at once and threw the result away. A screen reader reads the card
  // (a dialog, named by its title, described by its detail and standings); Tab goes on to
  // its actions. What asks for an answer takes it instead (data-end-focus: a rematch a
  // friend offers, which waits for it). Without scrolling: the card's place brought it
  // into sight.
  function focusCard() {
    const card = $("end-card");
    const asking = [...card.querySelectorAll("[data-end-focus]")].find((button) => button.checkVisibility());
    (asking || card).focus({ preventScroll: true });
  }

  function hide() {
    stopBeat();  // put away before it came: "Show result" brings it
    setShown(false, state.shownFor !== null);
    $("board-wrap").focus({ preventScroll: true });
  }

  function reopen() {
    if (state.shownFor === null) return;
    if (state.filled !== state.shownFor) { fill(state.latest); return; }
    setShown(true, true);
    focusSoon();
  }

  function shown() { return !$("end-card").hidden; }

  $("end-see").addEventListener("click", hide);
  $("end-show").addEventListener("click", reopen);
  // Enter or Space on the card itself does nothing (Space would scroll the page a screen
  // away from it); the page's keys still run (input.js: Esc puts it away)
  $("end-card").addEventListener("keydown", (event) => {
    if (event.target === event.currentTarget && (event.key === "Enter" || event.key === " ")) event.preventDefault();
  });
  new ResizeObserver(followTheCard).observe($("end-card"));
  const stopFollowing = () => { state.following = null; };
  for (const type of ["wheel", "touchstart", "keydown", "mousedown"]) {
    window.addEventListener(type, stopFollowing, { capture: true, passive: true });
  }
  // the margin beside the page's column follows the window's width: so does the card
  window.addEventListener("resize", () => { if (shown()) requestAnimationFrame(() => keepInSight(false)); });

  return { show, hide, shown, coming, reopen, focusCard, markPrimary };
}

// Whose result it is, in a few words, or what the game has to add (GameSpec.end_note:
// Escalator's verdict on a lost deal): the headline above says what it was ("Cross
// wins", "Draw Game"), so this does not say it again. A game played with help says so in
// a sentence of its own, about the player ("(with help)" after "This deal could have been
// won" read as if the deal needed it), or about the game where players share the screen
// (they are "both" above, not "you"); `noRecord`: it adds that the game sets no record.
export function endDetail(next, { noRecord = false } = {}) {
  const said = endWords(next);
  const helped = `${sharedScreen(next) ? "This game was played" : "You played it"} with help`
    + `${noRecord ? ", so it sets no record" : ""}.`;
  return next.assisted && next.you.length && !(next.shown && next.outcome === "won")
    ? `${said} ${helped}` : said;
}

function endWords(next) {
  if (next.end_note) return `${next.end_note}.`;
  if (next.you.length === 0) return "The game is over.";
  if (next.seats.length > 1 && next.you.length === next.seats.length) {  // all seats at one screen
    const shared = next.status === "draw" || next.winners.length !== 1;
    if (shared) return `Well played, ${next.seats.length === 2 ? "both" : "all"}!`;
    // (every seat is this page's here, so all are human: the winner by their number)
    return `Well played, ${playerNumber(next, next.winners[0])}!`;
  }
  if (next.shown && next.outcome === "won") return "The solver's line, played to its end.";
  if (next.outcome === "won") return "Well played!";  // the headline says who won ("You win!")
  if (next.outcome === "draw") return "Well held!";  // (a tie at the top of three is a draw too)
  const place = placeOf(next);
  if (place) return `${place}.`;
  // (not "the next deal": the end card may offer to show how this one could be won)
  return next.seats.length > 1 ? "You lost this one." : "Better luck next time.";  // the headline says it is over
}

const PLACES = ["", "First", "Second", "Third", "Fourth", "Fifth", "Sixth"];

// 1st, 2nd, 3rd, 4th... (11th to 13th too)
function ordinal(place) {
  const teen = place % 100 >= 11 && place % 100 <= 13;
  return `${place}${teen ? "th" : ["th", "st", "nd", "rd"][place % 10] || "th"}`;
}

// Where a player of one seat in a game of three or more finished, as the game places the
// seats (view.places): "Second place", "Third place, shared"; "" otherwise.
function placeOf(next) {
  if (next.seats.length < 3 || next.you.length !== 1 || !next.places.length) return "";
  const place = next.places[next.you[0]];
  const shared = next.places.filter((other) => other === place).length > 1;
  return PLACES[place] ? `${PLACES[place]} place${shared ? ", shared" : ""}` : "";
}
