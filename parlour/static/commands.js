// The game's commands, as the catalog declares them: the menu bar drawn from them, the
// keys that run them, whether each is enabled (and ticked) in the view shown, and running
// one: a page action, a new game, a display option, or a command the server carries out.
import { $, loadPrefs, play } from "/static/common.js";
import { createMenus, declaredKeyName, eventKeyName } from "/static/menus.js";

// The toolbar's buttons, each running the client command of its name (btn-<action>).
export const TOOLBAR_ACTIONS = ["new", "restart", "undo", "redo", "hint", "assist", "help", "sound"];

// The keys of the client command running `action` in this game, the first two, as a
// title names them (["U", "Ctrl+Z"]); [] when no key runs it.
export function keysOf(info, action) {
  return clientCommand(info, action)?.keys.slice(0, 2) ?? [];
}

// The client command that runs the page's `action`, if the game has one.
export function clientCommand(info, action) {
  return info.commands.find((c) => c.kind === "client" && c.args.action === action);
}

// Whether the view allows the page's `action`: the one rule for its menu entry, its key
// and its toolbar button (views.js).
export function actionAllowed(action, view) {
  const holder = Boolean(view && view.you.length > 0);  // holds a seat: not a spectator
  switch (action) {
    case "restart": return Boolean(view?.can_restart);
    case "undo": return Boolean(view?.can_undo);
    case "redo": return Boolean(view?.can_redo);
    case "hint": return Boolean(view?.can_move) && !view.help_refusal;
    // help during play only, as Hint; and neither in a game against another person
    case "assist": return holder && view.status === "playing" && !view.help_refusal;
    case "copy-link": return Boolean(view?.id);
    case "invite-link": return holder && view.seats.some((s) => s.open);
    case "export": return holder && Boolean(view.id);
    case "take-seat": return !holder && view?.status === "playing" && view.seats.some((s) => s.open);
    case "leave-seat": return Boolean(view?.can_leave);
    default: return true;
  }
}

// info: the game's catalog entry; actions: the page's own actions by name (a client
// command names one); views: the view shown (views.js); display: the display options
// (display.js); send(message): to the server; newGameWith(params, seats): a new game now.
export function createCommands({ info, actions, views, display, send, newGameWith }) {
  const state = {
    menus: null,               // the menu bar, drawn from the game's commands
    keyCommands: new Map(),    // a key's canonical name -> the command it runs
  };

  function bind() {
    for (const command of info.commands) {
      for (const key of command.keys) state.keyCommands.set(declaredKeyName(key), command);
    }
    state.menus = createMenus({
      root: $("menus"), menus: info.menus, commands: info.commands, run,
      state: { enabled, checked }, home: $("board-wrap"),
    });
    state.menus.update();
    nameToolbarKeys();
  }

  // A toolbar button's title names the keys its command has in this game (the sliding
  // puzzle's U is the seed's "sound on", so its Undo is Ctrl+Z or Backspace, not U).
  function nameToolbarKeys() {
    for (const action of TOOLBAR_ACTIONS) {
      const button = $(`btn-${action}`);
      if (!button.title.includes("(")) continue;
      const keys = keysOf(info, action).join(" or ");
      button.title = keys ? button.title.replace(/\([^)]*\)/, `(${keys})`) : button.title.replace(/ \([^)]*\)/, "");
    }
  }

  // The menus follow the view and the preferences.
  function update() { state.menus?.update(); }

  function run(command) {
    const view = views.current();
    if (command.args.action === "undo" && !view?.can_undo && view?.undo_refusal) {
      play(info.refusal_sound || "error");
      views.showNote(`Undo is off: ${view.undo_refusal}`, true);  // say why rather than do nothing
      return;
    }
    const help = { hint: "Hint", assist: "Assist" }[command.args.action];
    if (help && view?.help_refusal) {
      views.showNote(`${help} is off: ${view.help_refusal}`, true);
      return;
    }
    if (!enabled(command)) return;
    const args = command.args;
    if (command.kind === "client") actions[args.action]?.();
    else if (command.kind === "new-game") newGameWith(args.params, args.seats);
    else if (command.kind === "option") display.chooseGameOption(args.option, args.value);
    else if (command.kind === "server") send({ type: "command", name: command.name });
  }

  // What the view allows: a command does nothing while its entry (and button) is disabled.
  function enabled(command) {
    const view = views.current();
    if (command.kind === "server") return Boolean(view?.commands?.[command.name]);
    return command.kind !== "client" || actionAllowed(command.args.action, view);
  }

  // Entries that show a tick: switches and display options (null: a plain entry).
  function checked(command) {
    if (command.kind === "option") return display.gameOptions()[command.args.option] === command.args.value;
    if (command.kind !== "client") return null;
    if (command.args.action === "assist") return Boolean(views.current()?.assist);
    if (command.args.action === "sound") return loadPrefs().sound;
    return null;
  }

  // The key a player pressed, as a command; Shift+U is U when nothing takes Shift+U.
  function forKey(event) {
    const name = eventKeyName(event);
    return state.keyCommands.get(name) || (event.shiftKey ? state.keyCommands.get(name.replace("shift+", "")) : undefined);
  }

  // A toolbar button: its command, as the menus and the keys run it (an Undo the rules
  // refuse says why), or the page's action where the game has no such command.
  function runAction(action) {
    const command = clientCommand(info, action);
    if (command) run(command); else actions[action]?.();
  }

  return { bind, update, run, forKey, runAction };
}
