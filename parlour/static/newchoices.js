// The toolbar's New as a split button, for a game that names its new-game choices
// (catalog `new_choices`, e.g. Escalator's "New winnable deal" and "New random deal", Tic
// Tac Toe's opponents):
// New opens the New game dialog as for every game, ▾ offers those choices at once.
import { $, escapeHtml } from "/static/common.js";
import { seatsOf } from "/static/newgame.js";

// info: the game's catalog entry; run(command): carries a command out (commands.js);
// current(): the view shown (its kind of deal, or of opponents, is marked).
export function bindNewChoices({ info, run, current }) {
  const choices = (info.new_choices || []).map((name) => info.commands.find((c) => c.name === name)).filter(Boolean);
  const more = $("btn-new-more"), list = $("new-choices");
  if (!choices.length) return;
  more.hidden = false;
  $("new-split").classList.add("split");
  list.innerHTML = choices.map((command, index) =>
    `<div class="menu-item" role="menuitemradio" aria-checked="false" tabindex="-1" data-choice="${index}"><span class="menu-check"></span>`
    + `<span class="menu-label">${escapeHtml(command.label)}</span>`
    + `<span class="menu-keys">${command.keys.map((key) => `<kbd>${escapeHtml(key)}</kbd>`).join("")}</span></div>`).join("");
  const items = () => [...list.querySelectorAll(".menu-item")];

  function setOpen(open) {
    list.hidden = !open;
    more.setAttribute("aria-expanded", String(open));
    if (!open) return;
    const view = current();
    const params = view?.params || {};
    const seats = view ? seatsOf(view).join() : "";
    for (const item of items()) {
      const wants = choices[Number(item.dataset.choice)].args;
      const same = Object.entries(wants.params).every(([name, value]) => params[name] === value)
        && (!wants.seats.length || wants.seats.join() === seats);
      item.setAttribute("aria-checked", String(same));
    }
    (list.querySelector('[aria-checked="true"]') || items()[0]).focus();
  }

  more.addEventListener("click", () => setOpen(list.hidden));
  list.addEventListener("click", (event) => {
    const item = event.target.closest("[data-choice]");
    if (!item) return;
    setOpen(false);
    run(choices[Number(item.dataset.choice)]);
  });
  list.addEventListener("keydown", (event) => {
    const all = items(), at = all.indexOf(document.activeElement);
    if (event.key === "Escape") { event.preventDefault(); event.stopPropagation(); setOpen(false); more.focus(); }
    else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      all[(at + (event.key === "ArrowDown" ? 1 : all.length - 1)) % all.length].focus();
    } else if (event.key === "Enter" || event.key === " ") { event.preventDefault(); document.activeElement.click(); }
    event.stopPropagation();  // the board's keys stay the board's
  });
  document.addEventListener("pointerdown", (event) => {
    if (!list.hidden && !event.target.closest("#new-split")) setOpen(false);
  });
}
