// The game page, the same for every game: it knows no rules. The server sends views
// (markup with actions declared as data attributes); the page turns clicks, right clicks,
// long presses, drags and keys into messages, and applies each new view in place. This
// module wires the page's parts together and names the page's own actions; each part
// owns its state and is a module of its own:
//   connection.js  which session, the socket: hello, sending, receiving, reconnecting
//   links.js       a deal or seat link from outside Parlour: what it will do, and a click first
//   views.js       a view applied to the page, the note and the clock (owns the view shown)
//   input.js       pointer, long press, swipe, drag and drop, keys on the board
//   commands.js    the game's commands: the menus, their keys, enabled or not, running one
//   newgame.js     the New game dialog and new games (pictures.js: its picture crop editor)
//   endcard.js     the card at a game's end
//   series.js      a series' score, and Rematch on the end card
//   display.js     preferences, music, the game's own display options
//   movelist.js    the move list of a game of several players, and past positions
//   help.js, fit.js (the board fits the first screen), gamefile.js (export, import),
//   peek.js (hold a board's data-peek element to see what it shows: a finished picture)
//   panbox.js (a board that pans in a box of its own: a hint, what ended the game in sight)
import { $, applyPrefs, catalog as catalogOf, dealWord, LOGO, setText, toast, warmSounds } from "/static/common.js";
import { clientCommand, createCommands, keysOf, TOOLBAR_ACTIONS } from "/static/commands.js";
import { createConnection } from "/static/connection.js";
import { createDisplay } from "/static/display.js";
import { createEndCard } from "/static/endcard.js";
import { fitBoardToScreen } from "/static/fit.js";
import { exportGame, importGame } from "/static/gamefile.js";
import { openHelp, shortcutRows } from "/static/help.js";
import { createInput } from "/static/input.js";
import { createMoveList } from "/static/movelist.js";
import { createNewGames } from "/static/newgame.js";
import { createPeek } from "/static/peek.js";
import { createSeries } from "/static/series.js";
import { bindNewChoices } from "/static/newchoices.js";
import { createViews } from "/static/views.js";

const GAME = decodeURIComponent(location.pathname.split("/")[2] || "");

async function start() {
  document.body.dataset.game = GAME;  // for a game's stylesheet to style the page around its board
  $("logo").innerHTML = LOGO;
  const catalog = await catalogOf();
  const info = catalog.games.find((g) => g.name === GAME);  // this game's catalog entry
  $("game-title").textContent = info.title;
  $("game-css").href = `/games/${GAME}/view.css`;
  $("btn-stats").href = `/stats?game=${encodeURIComponent(GAME)}`;
  $("rules").innerHTML = info.rules_html;
  $("keys").innerHTML = shortcutRows(info);
  $("about-title").textContent = `About ${info.title}`;
  $("about").innerHTML = info.about_html;
  const parts = createParts(info);
  const { views, connection, newGames, display, commands, input, moveList } = parts;
  commands.bind();
  moveList.bind();
  bindNewChoices({ info, run: commands.run, current: views.current });
  $("btn-hint").hidden = !info.has_hints;
  // a game that always starts the same (Tic Tac Toe) has no deal to show or share
  if (!info.random_deal) for (const part of document.querySelectorAll(".idbar .id-label, #game-id, #btn-copy")) part.style.display = "none";
  $("btn-assist").hidden = !info.has_assist;
  // the button says what this game's assist does, as its menu entry does
  const assist = clientCommand(info, "assist");
  if (assist) $("btn-assist").title = `${assist.label}${assist.keys.length ? ` (${assist.keys[0]})` : ""}; counts as help`;
  display.applyGameOptions();
  bindToolbar({ ...parts, info });
  parts.peek.bind();
  input.bindBoard();
  fitBoardToScreen();
  input.bindKeys();
  newGames.bindPictureDrops();
  if (info.music) display.startMusicOnGestures();
  warmSounds();
  setInterval(views.tickClock, 250);
  display.showPrefs();
  try {
    await connection.open(await connection.choose(newGames.choices));
  } catch (error) {
    views.showNote(error.message, true);
  }
}

// The page's parts, each given the others it uses. A part made later is reached through
// an arrow function: none is called before every part is made (start binds nothing sooner).
function createParts(info) {
  const endCard = createEndCard({ sameDeal: Boolean(info.random_deal || info.position_help) });
  const moveList = createMoveList({ sessionId: () => connection.sessionId() });
  const peek = createPeek();
  const shown = () => {
    commands.update(); moveList.show(views.current()); series.show(views.current()); peek.hide(); input.showAltMode(); input.keepCursor();
    input.cursorToTurn(views.current());
  };
  const views = createViews({ endCard, shown, resync: () => connection.connect(), undoKeys: keysOf(info, "undo"),
    levelLabels: info.ai_level_labels, firstNote: info.first_note, moveNotes: (view) => moveList.notesWith(view) });
  // the computers' speed goes to the server with the hello: a new choice says hello again
  const speed = () => (info.display_options.computers ? display.gameOptions().computers : undefined);
  const connection = createConnection({ info, views, answered: (accepted) => input.answered(accepted),
    hello: () => (speed() ? { speed: speed() } : {}) });
  const newGames = createNewGames({ info, views, connection });
  const series = createSeries({ send: (message) => connection.send(message), open: (sid) => connection.open(sid), endCard });
  let speedSent = null;
  const display = createDisplay({ info, changed: () => {
    commands.update();
    if (speedSent !== null && speed() !== speedSent) connection.connect();
    speedSent = speed() ?? null;
  } });
  speedSent = speed() ?? null;
  const actions = pageActions({ info, views, connection, newGames, display, peek });
  const newGameWith = newGames.withChoices;
  const commands = createCommands({ info, actions, views, display, send: connection.send, newGameWith });
  const input = createInput({ info, send: connection.send, actions, commands, newGameWith, endCard,
    clearRefusal: () => views.clearRefusal(), showNote: (text) => views.showNote(text) });
  return { endCard, views, connection, newGames, display, actions, commands, input, moveList, peek };
}

// The page's own actions. A game's commands (see the catalog) name one of these, start a
// new game, choose a display option or ask the server; `data-command` on a board names one.
function pageActions({ info, views, connection, newGames, display, peek }) {
  const send = connection.send;
  return {
    new: () => newGames.openDialog(),
    restart: () => askToRestart(views.current(), () => newGames.replay()),
    undo: () => askToUndo(views.current(), () => send({ type: "undo" })),
    redo: () => send({ type: "redo" }),
    hint: () => send({ type: "hint" }),
    assist: () => send({ type: "assist", on: !views.current().assist }),
    help: () => openHelp($("help-title")),
    keys: () => openHelp($("keys-title")),
    about: () => $("about-dialog").showModal(),
    again: () => newGames.likeThis(),
    theme: () => display.cycleTheme(),
    display: () => display.openDialog(),
    sound: () => display.toggleSound(),
    "copy-link": () => copy(dealLink(views.current()), `Link to this ${dealWord(info)} copied`),
    "invite-link": () => copy(inviteLink(connection.sessionId()), "Invite link copied: send it to a friend"),
    stats: () => { location.href = $("btn-stats").href; },
    quit: () => { location.href = "/"; },
    api: () => { location.href = "/docs"; },
    export: () => exportGame({ game: GAME, sessionId: connection.sessionId(), showNote: views.showNote }),
    import: () => importGame({ game: GAME, open: connection.open, showNote: views.showNote }),
    "take-seat": async () => {
      const seat = await connection.chooseSeat(views.current());
      if (seat !== null) connection.takeSeatNow(seat);
    },
    "leave-seat": () => { send({ type: "leave" }); toast("You left your seat: it is open, and you may take it again"); },
    mute: () => display.setSound(false),
    unmute: () => display.setSound(true),
    play: () => { for (const open of document.querySelectorAll("dialog[open]")) open.close(); display.syncMusic(); },
    peek: () => peek.toggle(),
  };
}

// Restart drops the moves played, and Undo cannot bring them back: in the middle of a
// game it asks first (Enter restarts, Esc keeps playing); a finished game's deal starts
// again at once, as a new game (newgame.js).
function askToRestart(view, restart) {
  if (view?.status !== "playing" || !view.moves) { restart(); return; }
  askFirst($("restart-dialog"), (view.moves === 1
    ? "The move played so far will be lost: Undo cannot bring it back."
    : `The ${view.moves} moves played so far will be lost: Undo cannot bring them back.`)
    + (view.restart_help ? ` The game will then count as played with help: you have seen ${view.restart_help}.` : ""),
  restart);
}

// An Undo that takes back a finished game's end asks first, whether or not it makes the
// game one played with help: a stray Ctrl+Z after a win would otherwise undo it, the
// result with it (Enter undoes, Esc keeps the result). So does one in play that would make
// the game count as played with help (Ishido's, once the next tile was shown: a player
// was told only after it); the other Undos in play are done at once.
function askToUndo(view, undo) {
  if (!view || (view.status === "playing" && !view.undo_help)) { undo(); return; }
  const ended = view.status !== "playing";
  setText($("undo-title"), ended ? "Take back the end of this game?" : "Undo this move?");
  setText($("undo-keep"), ended ? "Keep the result" : "Keep playing");
  askFirst($("undo-dialog"), view.undo_help
    ? `You have seen ${view.undo_help}: taken back, this game will count as played with help in your statistics.`
    : "You play on from before its last move; the game already counts as played with help.", undo);
}

// Opens `dialog` (its <form method="dialog"> confirms with the button of value "yes") with
// `what` as its text, and runs `yes` once it is confirmed.
function askFirst(dialog, what, yes) {
  if (dialog.open) return;
  dialog.querySelector("[data-what]").textContent = what;
  dialog.returnValue = "";
  // one handler, replaced at each asking: a close event of the last asking, dispatched
  // after this one opened (Esc, then R at once), neither confirms nor uses this one up
  dialog.onclose = () => { if (!dialog.open && dialog.returnValue === "yes") yes(); };
  dialog.showModal();
}

// -- the toolbar, the seats' buttons, the take-back's, the end card's, the dialogs' -----
function bindToolbar({ info, actions, views, connection, newGames, endCard, display, commands }) {
  for (const name of TOOLBAR_ACTIONS) {
    $(`btn-${name}`).addEventListener("click", () => commands.runAction(name));
  }
  $("btn-theme").addEventListener("click", () => actions.display());
  $("btn-copy").title = `Copy a link to this ${dealWord(info)}: whoever opens it gets ${info.deal_link_note}`;
  $("btn-copy").addEventListener("click", () => actions["copy-link"]());
  $("end-new").addEventListener("click", () => actions.again());
  $("end-replay").addEventListener("click", () => newGames.replay());
  $("end-close").addEventListener("click", () => endCard.hide());
  // the game's own buttons on the end card (view.end_actions) each run one of its commands
  document.addEventListener("click", (event) => {
    const name = event.target.closest("[data-end-command]")?.dataset.endCommand;
    const command = name && info.commands.find((c) => c.name === name);
    if (command) commands.run(command);
  });
  $("btn-invite").addEventListener("click", () => actions["invite-link"]());
  $("seats").addEventListener("click", (event) => {
    const button = event.target.closest("[data-take-seat]");
    if (button) connection.takeSeatNow(Number(button.dataset.takeSeat));
    const invite = event.target.closest("[data-invite-seat]");
    if (invite) {
      const seat = Number(invite.dataset.inviteSeat);
      copy(inviteLink(connection.sessionId(), seat),
        `Invite link for ${views.current().seats[seat].name} copied: send it to a friend`);
    }
  });
  $("takeback-accept").addEventListener("click", () => connection.send({ type: "takeback", accept: true }));
  $("takeback-refuse").addEventListener("click", () => connection.send({ type: "takeback", accept: false }));
  $("new-form").addEventListener("submit", newGames.startFromDialog);
  $("new-form").addEventListener("keydown", newGames.startOnEnter);
  display.bindDialog();
}

function dealLink(view) { return `${location.origin}/play/${encodeURIComponent(GAME)}?id=${encodeURIComponent(view.id)}`; }
function inviteLink(sessionId, seat = null) {
  const link = `${location.origin}/play/${encodeURIComponent(GAME)}?session=${encodeURIComponent(sessionId)}`;
  return seat === null ? link : `${link}&seat=${seat}`;
}

async function copy(text, done) {
  try { await navigator.clipboard.writeText(text); toast(done); }
  catch { window.prompt("Copy this link:", text); }
}

addEventListener("pageshow", () => applyPrefs());
start();
