// The menu bar (Game, Edit, View, Help), drawn from the commands a game declares in the
// catalog. WAI-ARIA menus: they open on click, touch and keys (Alt or F10 to the bar,
// arrows, Enter or Space, Esc), disabled entries stay readable but do nothing, and on a
// narrow screen the bar folds into one "Menu" button that lists every menu.
import { escapeHtml } from "/static/common.js";

const NARROW = matchMedia("(max-width: 600px)");
const MENU_KEYS_SHOWN = 2;  // a menu shows a command's first keys; the key table, all

// The canonical form of a key, for matching: "Ctrl+Shift+Z" and an event alike give
// "ctrl+shift+z". Shift counts only for letters and named keys ("?" is typed with Shift).
export function keyName(modifiers, key) {
  const shifted = modifiers.shift && (key.length > 1 || /^[a-z0-9]$/i.test(key));
  return [modifiers.ctrl && "ctrl", modifiers.alt && "alt", shifted && "shift", key.toLowerCase()]
    .filter(Boolean).join("+");
}

export function declaredKeyName(text) {
  const parts = text.split("+");
  const key = parts.pop() || "+";
  const has = (name) => parts.includes(name);
  return keyName({ ctrl: has("Ctrl"), alt: has("Alt"), shift: has("Shift") }, key);
}

export function eventKeyName(event) {
  let key = event.key;
  // with Alt or Ctrl some layouts (a Mac's Option) type another character: use the key's place
  const placed = /^(?:Key|Digit)(.)$/.exec(event.code || "");
  if ((event.altKey || event.ctrlKey) && placed) key = placed[1];
  return keyName({ ctrl: event.ctrlKey || event.metaKey, alt: event.altKey, shift: event.shiftKey }, key);
}

function ariaKeys(keys) {
  return keys.map((key) => key.replace(/^Ctrl\+/, "Control+").replace(/^\?$/, "Shift+?")).join(" ");
}

const EDGE_PX = 4;  // the least room between an open menu and the screen's edge

// menus: [{name, label}]; commands: the catalog's, with menu and group; state: {enabled(c),
// checked(c) -> true/false, or null for a plain entry}; run(c) carries a command out.
export function createMenus({ root, menus, commands, state, run, home }) {
  const bar = root.querySelector("[role=menubar]");
  const fold = root.querySelector(".menu-fold");
  const list = root.querySelector(".menu-list");
  const byName = new Map(commands.map((command) => [command.name, command]));
  const inMenu = (menu) => commands.filter((command) => command.menu === menu.name && command.in_menu);
  let returnFocus = null;

  function itemHtml(command) {
    const checked = state.checked(command);
    const role = command.kind === "option" ? "menuitemradio" : checked === null ? "menuitem" : "menuitemcheckbox";
    const keys = command.keys.slice(0, MENU_KEYS_SHOWN).map((key) => `<kbd>${escapeHtml(key)}</kbd>`).join("");
    return `<div role="${role}" class="menu-item" tabindex="-1" data-run="${escapeHtml(command.name)}"`
      + `${checked === null ? "" : ` aria-checked="${checked}"`} aria-disabled="true"`
      + `${command.keys.length ? ` aria-keyshortcuts="${escapeHtml(ariaKeys(command.keys))}"` : ""}>`
      + `<span class="menu-check" aria-hidden="true"></span><span class="menu-label">${escapeHtml(command.label)}</span>`
      + `<span class="menu-keys" aria-hidden="true">${keys}</span></div>`;
  }

  function itemsHtml(entries) {
    return entries.map((command, index) =>
      (index && command.group !== entries[index - 1].group ? '<div role="separator" class="menu-sep"></div>' : "")
      + itemHtml(command)).join("");
  }

  bar.innerHTML = menus.map((menu, index) =>
    `<li role="none" class="menu-top"><button type="button" role="menuitem" class="menu-title" id="menu-${menu.name}"`
    + ` aria-haspopup="menu" aria-expanded="false" aria-controls="menu-${menu.name}-list" tabindex="${index ? -1 : 0}">`
    + `${escapeHtml(menu.label)}</button><div role="menu" class="menu" id="menu-${menu.name}-list"`
    + ` aria-labelledby="menu-${menu.name}" hidden>${itemsHtml(inMenu(menu))}</div></li>`).join("");
  list.innerHTML = menus.map((menu) =>
    `<div role="group" class="menu-group" aria-labelledby="fold-${menu.name}">`
    + `<div class="menu-heading" id="fold-${menu.name}">${escapeHtml(menu.label)}</div>${itemsHtml(inMenu(menu))}</div>`).join("");

  const titles = () => [...bar.querySelectorAll(".menu-title")];
  const items = (menu) => [...menu.querySelectorAll("[data-run]")];
  const shown = () => root.querySelector(".menu:not([hidden]), .menu-list:not([hidden])");
  const titleOf = (menu) => document.getElementById(menu.getAttribute("aria-labelledby"));
  const menuOf = (title) => document.getElementById(title.getAttribute("aria-controls"));

  function focusTitle(title) {
    for (const other of titles()) other.tabIndex = other === title ? 0 : -1;
    title.focus();
  }

  function show(menu, focus) {
    const open = shown();
    if (open && open !== menu) hide(open);
    menu.hidden = false;
    keepOnScreen(menu);
    (menu === list ? fold : titleOf(menu)).setAttribute("aria-expanded", "true");
    const entries = items(menu);
    if (focus === "first") entries[0]?.focus();
    else if (focus === "last") entries[entries.length - 1]?.focus();
  }

  // A menu opened near the screen's edge is moved in to show whole (the folded one opens
  // from a button that may stand anywhere in the bar of a phone on its side).
  function keepOnScreen(menu) {
    menu.style.translate = "";
    const box = menu.getBoundingClientRect(), room = document.documentElement.clientWidth;
    const over = Math.max(0, box.right - (room - EDGE_PX)) || Math.min(0, box.left - EDGE_PX);
    if (over) menu.style.translate = `${-over}px 0`;
  }

  function hide(menu) {
    menu.hidden = true;
    (menu === list ? fold : titleOf(menu)).setAttribute("aria-expanded", "false");
  }

  function close(restore) {
    const open = shown();
    if (open) hide(open);
    if (restore) leave();
  }

  // back where the player was before the menus (the board, usually)
  function leave() {
    const target = returnFocus && returnFocus.isConnected && !root.contains(returnFocus) ? returnFocus : home;
    target?.focus({ preventScroll: true });
  }

  function activate(item) {
    if (item.getAttribute("aria-disabled") === "true") return;
    close(true);
    run(byName.get(item.dataset.run));
  }

  function step(entries, from, by) {
    const at = entries.indexOf(from);
    entries[(at + by + entries.length) % entries.length]?.focus();
  }

  function typeAhead(entries, from, letter) {
    const start = entries.indexOf(from);
    for (let i = 1; i <= entries.length; i += 1) {
      const entry = entries[(start + i) % entries.length];
      if (entry.querySelector(".menu-label").textContent.toLowerCase().startsWith(letter)) { entry.focus(); return; }
    }
  }

  function onTitleKey(event, title) {
    const all = titles(), at = all.indexOf(title), menu = menuOf(title);
    const sideways = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
    if (sideways) {
      const next = all[(at + sideways + all.length) % all.length];
      focusTitle(next);
      if (!menu.hidden) show(menuOf(next), "first");
    } else if (["ArrowDown", "Enter", " "].includes(event.key)) show(menu, "first");
    else if (event.key === "ArrowUp") show(menu, "last");
    else if (event.key === "Home") focusTitle(all[0]);
    else if (event.key === "End") focusTitle(all[all.length - 1]);
    else if (event.key === "Escape") close(true);
    else return false;
    return true;
  }

  function onItemKey(event, item) {
    const menu = item.closest(".menu, .menu-list"), entries = items(menu);
    const sideways = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
    if (event.key === "ArrowDown") step(entries, item, 1);
    else if (event.key === "ArrowUp") step(entries, item, -1);
    else if (event.key === "Home") entries[0].focus();
    else if (event.key === "End") entries[entries.length - 1].focus();
    else if (event.key === "Enter" || event.key === " ") activate(item);
    else if (event.key === "Escape") {
      hide(menu);
      if (menu === list) fold.focus(); else focusTitle(titleOf(menu));
    } else if (sideways && menu !== list) {
      const all = titles(), next = all[(all.indexOf(titleOf(menu)) + sideways + all.length) % all.length];
      focusTitle(next);
      show(menuOf(next), "first");
    } else if (event.key.length === 1 && /\S/.test(event.key) && !event.ctrlKey && !event.altKey) {
      typeAhead(entries, item, event.key.toLowerCase());
    } else return false;
    return true;
  }

  root.addEventListener("focusin", (event) => {
    if (!root.contains(event.relatedTarget)) returnFocus = event.relatedTarget;
  });
  root.addEventListener("keydown", (event) => {
    if (event.key === "Tab") { close(false); return; }
    const item = event.target.closest("[data-run]");
    const title = event.target.closest(".menu-title");
    let handled = false;
    if (item) handled = onItemKey(event, item);
    else if (title) handled = onTitleKey(event, title);
    else if (event.target === fold && (event.key === "ArrowDown" || event.key === "ArrowUp")) {
      show(list, event.key === "ArrowDown" ? "first" : "last");
      handled = true;
    } else if (event.target === fold && event.key === "Escape") {
      close(true);
      handled = true;
    }
    // the menus' keys are theirs: the page's shortcuts do not see them
    if (handled) event.preventDefault();
    event.stopPropagation();
  });
  bar.addEventListener("click", (event) => {
    const title = event.target.closest(".menu-title");
    if (title && event.detail > 0) {  // the keys (which click too) are handled above
      const menu = menuOf(title);
      focusTitle(title);
      if (menu.hidden) show(menu, null); else close(true);
    }
  });
  bar.addEventListener("pointerover", (event) => {
    const title = event.target.closest(".menu-title");
    const open = shown();
    if (title && open && open !== list && open !== menuOf(title) && event.pointerType === "mouse") {
      focusTitle(title);
      show(menuOf(title), null);
    }
  });
  root.addEventListener("click", (event) => {
    const item = event.target.closest("[data-run]");
    if (item) activate(item);
  });
  // A menu closed by the pointer or Escape, with nothing chosen, gives the keys back to
  // where the player was (the focus left on its title or on Menu kept the game's keys
  // from the page); Enter or Space on Menu (a click of detail 0) keeps it there.
  fold.addEventListener("click", (event) => {
    if (list.hidden) show(list, event.detail === 0 ? "first" : null);
    else if (event.detail > 0) close(true);
    else hide(list);
  });
  document.addEventListener("pointerdown", (event) => {
    if (!root.contains(event.target)) close(false);
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && shown() && !root.contains(event.target)) { event.preventDefault(); close(true); }
  });
  NARROW.addEventListener("change", () => close(false));

  // Alt (pressed and released alone) or F10: to the menu bar and back, as on a desktop
  let altAlone = false;
  const dialogOpen = () => document.querySelector("dialog[open]") !== null;
  document.addEventListener("keydown", (event) => {
    altAlone = event.key === "Alt";
    if (event.key === "F10" && !event.shiftKey && !event.ctrlKey && !event.altKey && !dialogOpen()) {
      event.preventDefault(); event.stopPropagation(); enter();
    }
  }, true);
  document.addEventListener("keyup", (event) => {
    if (event.key === "Alt" && altAlone && !dialogOpen()) { event.preventDefault(); enter(); }
    altAlone = false;
  }, true);
  document.addEventListener("pointerdown", () => { altAlone = false; }, true);
  addEventListener("blur", () => { altAlone = false; });

  function enter() {
    if (root.contains(document.activeElement)) { close(true); return; }
    if (NARROW.matches) { fold.focus(); show(list, "first"); } else focusTitle(titles()[0]);
  }

  return {
    // enabled and checked states, after each view and each change of preferences
    update() {
      for (const item of root.querySelectorAll("[data-run]")) {
        const command = byName.get(item.dataset.run);
        // only what changed: a write of the same value still costs a style pass
        const disabled = String(!state.enabled(command));
        if (item.getAttribute("aria-disabled") !== disabled) item.setAttribute("aria-disabled", disabled);
        const checked = state.checked(command);
        if (checked !== null && item.getAttribute("aria-checked") !== String(checked)) {
          item.setAttribute("aria-checked", String(checked));
        }
      }
    },
  };
}
