// The Help dialog: the game's rules (from the catalog), the key table and a link to the API.
import { $, escapeHtml } from "/static/common.js";

// The key table, worked out by the server (parlour/core/keytable.py): each key once.
export function shortcutRows(info) {
  const kbds = (keys) => keys.split(", ").map((key) => `<kbd>${escapeHtml(key)}</kbd>`).join(", ");
  return info.key_table.map(({ keys, action }) => `<tr><td>${kbds(keys)}</td><td>${escapeHtml(action)}</td></tr>`).join("");
}

// Help opens at its top (the title and the start of the rules), or at the key table;
// the heading takes the focus, so Tab reaches the links and Close, and Esc closes.
export function openHelp(heading) {
  const dialog = $("help-dialog");
  dialog.showModal();
  heading.focus({ preventScroll: true });
  dialog.scrollTop = dialog.querySelector(".dialog-body").scrollTop = 0;  // whichever scrolls
  if (heading !== $("help-title")) heading.scrollIntoView({ block: "start" });
}
