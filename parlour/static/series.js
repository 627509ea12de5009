// Series and rematch, for games of several players: the series' score (a row under the
// seats from a series' second game on, and on the end card), Rematch on the end card, an
// offer to accept or decline (on the card, which comes back for it), and the move to the
// rematch once it has started: each player with their new seat's token, a spectator to
// watch it. The server says what may be done (view.series, view.rematch); this module owns
// the elements it adds to the end card and the #series row.
import { $, escapeHtml, playerNumber, saveToken, seatDot, set, setText, sharedScreen, toast } from "/static/common.js";

// send(message): to the server; open(sid): show another session; endCard: endcard.js's.
export function createSeries({ send, open, endCard }) {
  const state = {
    session: null,     // the session of the views seen
    watched: false,    // this page saw the game before its rematch started: it follows it
    offerShown: null,  // the offer the card was brought back for
    moving: false,     // on the way to the rematch
    view: null,        // the view shown
  };
  addElements();

  function addElements() {
    // (after this game's standings: the series' score adds up the games before it too)
    $("end-standings").insertAdjacentHTML("afterend",
      '<div class="end-series" id="end-series" hidden></div>'
      + '<div class="end-rematch" id="end-rematch" hidden><span id="end-rematch-text" role="status"></span>'
      + '<span class="end-rematch-actions"><button class="btn primary" id="rematch-accept" data-end-focus>Accept</button>'
      + '<button class="btn" id="rematch-decline">Decline</button></span></div>');
    $("end-actions").insertAdjacentHTML("afterbegin",
      '<button class="btn primary" id="end-rematch-offer" hidden title="Play again with the same seats; the first move passes on">Rematch</button>');
    $("end-rematch-offer").addEventListener("click", offerOrGo);
    $("rematch-accept").addEventListener("click", () => send({ type: "rematch", accept: true }));
    $("rematch-decline").addEventListener("click", () => send({ type: "rematch", accept: false }));
  }

  function show(view) {
    if (!view) return;
    state.view = view;
    if (view.session !== state.session) {
      state.session = view.session;
      state.watched = !view.rematch?.next;
      state.moving = false;
    }
    showRow(view);
    showOnCard(view);
    const next = view.rematch?.next;
    if (next && state.watched && !state.moving) go(next, "The rematch has started");
  }

  function offerOrGo() {
    const next = state.view?.rematch?.next;
    if (next) go(next, "");
    else send({ type: "rematch", accept: true });
  }

  function go(next, note) {
    state.moving = true;
    if (next.token) saveToken(next.session, next.token);
    open(next.session);
    if (note) toast(next.token ? note : `${note}: you are watching`);
  }

  // From a series' second game on, a row under the seats: each seat's player's games won,
  // drawn and lost (two seats, or on a phone: the games won, as a match's score, and the
  // draws once; "0–0–1" was read as nothing), under the player's name, as the dot's
  // colour is only the seat they hold in this game.
  function showRow(view) {
    const series = view.series;
    const row = $("series");
    const wanted = series && series.number > 1;
    set(row, "hidden", !wanted);
    if (!wanted) return;
    const names = playerNames(view);
    const drawn = drawnByAll(series);
    // (three seats or more on a phone: the dots name the others, "You" stays; "Computer,
    // Blue … Computer, Red …" ran off a 390-pixel screen)
    const named = (seat) => series.seats.length < 3 || names[seat] === "You" ? "" : ' class="long"';
    const html = `<span class="series-label"><span class="long">Series, game</span><span class="short">Game</span> ${series.number}<span class="short">, won:</span></span>`
      + byPlayer(series).map(([score, seat]) => `<span class="series-seat" style="--seat-color: var(--seat-${seat})" title="${escapeHtml(`${names[seat]}: ${counted(score)}`)}">`
        + `${seatDot(seat)}<b${named(seat)}>${escapeHtml(names[seat])}</b>`
        + `<span class="long">${escapeHtml(counted(score, drawn !== null))}</span>`
        + `<span class="short">${score.won}</span></span>`).join("")
      + (drawn ? `<span class="series-drawn">${drawn} drawn</span>` : "");
    if (row.innerHTML !== html) row.innerHTML = html;
  }

  function showOnCard(view) {
    const { series, rematch } = view;
    const scores = $("end-series");
    // a player's first game: its result says it all; from the second on, or to a watcher
    const wanted = series && view.status !== "playing" && (series.number > 1 || !view.you.length);
    set(scores, "hidden", !wanted);
    if (wanted) {
      const names = playerNames(view);
      const drawn = drawnByAll(series);
      scores.innerHTML = `<h3>${series.number > 1 ? `Series after ${series.number} games` : "Series so far"}</h3>`
        + byPlayer(series).map(([score, seat]) => `<div class="series-seat" style="--seat-color: var(--seat-${seat})">`
          + `${seatDot(seat)}<b>${escapeHtml(names[seat])}</b>`
          + `<span class="counts">${escapeHtml(counted(score, drawn !== null))}</span></div>`).join("")
        + (drawn ? `<div class="series-drawn">${drawn} drawn</div>` : "");
    }
    const offer = rematch?.offer;
    const button = $("end-rematch-offer");
    set(button, "hidden", !rematch || !(rematch.can_offer || (rematch.next && !state.watched)));
    setText(button, rematch?.next ? "Go to the rematch" : "Rematch");
    set($("end-rematch"), "hidden", !offer);
    set($("rematch-accept"), "hidden", !offer?.waiting_for_you);
    endCard.markPrimary();  // Rematch or Accept, when there, over New game
    if (!offer) return;
    const names = offer.seats.map((seat) => view.seats[seat].name).join(" and ");
    setText($("end-rematch-text"), offer.yours ? "Rematch offered: waiting for an answer."
      : offer.waiting_for_you ? `${names} offers a rematch.`
        : view.you.length ? "Rematch accepted: waiting for the other players."
          : `${names} offers a rematch.`);
    set($("rematch-decline"), "hidden", !(offer.waiting_for_you || offer.yours));
    setText($("rematch-decline"), offer.yours ? "Withdraw" : "Decline");
    // an offer for this player brings the card back, if it was put away
    const key = `${view.session}:${offer.seats.join(",")}`;
    if (offer.waiting_for_you && state.offerShown !== key) {
      if (!endCard.shown()) endCard.reopen();  // (which focuses Accept)
      // on the card already: Accept takes the focus, unless the player is busy elsewhere
      else if ($("end-card").contains(document.activeElement) || document.activeElement === document.body) {
        endCard.focusCard();
      }
    }
    state.offerShown = offer.waiting_for_you ? key : null;
  }

  return { show };
}

// The series counts games by player, and a rematch moves each player one seat up: so each
// seat's score is named by who plays it ("You", "Computer", "Opponent"), not by the seat
// ("Cross"), which another player held before. Where that does not tell them apart: one
// screen for all, or a spectator, by the player's number in the series (the server's:
// their seat in its first game), as the seat chips say; two computers (or two friends)
// by the seat each plays in this game, as the headline and the chips say ("Computer, Red").
function playerNames(view) {
  const mine = view.you.length > 0 && view.you.length < view.seats.length;
  // players taking turns at this screen (two of Tribolo's seats, say) are numbered
  const shared = sharedScreen(view);
  const names = view.seats.map((chair) => chair.kind === "ai" ? "Computer"
    : !mine || (shared && chair.you) ? "Player" : chair.you ? "You" : "Opponent");
  return names.map((name, seat) => name === "Player" ? playerNumber(view, seat)
    : names.filter((other) => other === name).length > 1 ? `${name}, ${view.seats[seat].name}` : name);
}

// Each seat's [score, seat], in the order of its player (their seat in the series' first
// game): a rematch passes the seats on, and a row in seat order swapped its names at
// every game.
function byPlayer(series) {
  return series.seats.map((score, seat) => [score, seat]).sort(([a], [b]) => a.player - b.player);
}

// The games every seat drew, where a draw is always everyone's (two seats: one's losses
// are then the other's wins, and each seat's score is its wins alone, the draws said
// once); null where seats may draw apart (three seats, two tying first).
function drawnByAll(series) {
  return series.seats.length === 2 ? series.seats[0].drawn : null;
}

// A seat's score: its wins, draws and losses; its wins alone where `winsAlone`.
function counted({ won, drawn, lost }, winsAlone) {
  const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
  if (winsAlone) return plural(won, "win", "wins");
  return `${plural(won, "win", "wins")} · ${plural(drawn, "draw", "draws")} · ${plural(lost, "loss", "losses")}`;
}
