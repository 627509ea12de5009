// Starting games: the New game dialog (a preset, the game's parameters, the seats, or a
// deal's id), a new deal like this one, the same deal again, a game with given parameters
// at once (a preset, "no-guess"...), and a picture dropped on the board or pasted, which
// opens the dialog with it. The choices last made are remembered per game.
import { $, escapeHtml, toast } from "/static/common.js";
import { bindPictureField, pictureField, UPLOAD_CHOICE, usePicture } from "/static/pictures.js";

// said when a new game has a seat for a friend (the invite link is theirs to be sent)
const INVITE_NOTE = "Copy the invite link for your friend";
// said when a key or a tap started a new game over one under way (Back returns to it too)
const LEFT_NOTE = "New game: the one you left is kept";

// info: the game's catalog entry; views: the view shown (views.js); connection: creates,
// opens and speaks to sessions (connection.js).
export function createNewGames({ info, views, connection }) {
  const game = info.name;
  const paramNamed = (name) => info.parameters.find((p) => p.name === name);
  $("new-fields").addEventListener("input", () => greyOutUnused());

  // The parameters and seats last chosen (saved when a game starts with them).
  function choices() {
    try { return JSON.parse(localStorage.getItem(`parlour.new.${game}`)) || {}; } catch { return {}; }
  }

  // A new game opened (true), or why not said (false).
  async function startSession(options) {
    try {
      await connection.open(await connection.create(options));
      return true;
    } catch (error) {
      views.showNote(error.message, true);
      return false;
    }
  }

  function openDialog() {
    const view = views.current();
    const saved = choices();
    const params = { ...(view ? view.params : {}), ...(saved.params || {}) };
    const seats = saved.seats || info.default_seats;
    const fields = [];
    const presets = Object.keys(info.presets);
    if (info.parameters.length) {
      if (presetsSayMore()) {
        fields.push(`<label for="f-preset">Preset</label><select id="f-preset">`
          + presets.map((p) => `<option value="${escapeHtml(p)}">${escapeHtml(info.preset_labels[p] ?? p)}</option>`).join("")
          + `<option value="">Custom</option></select>`);
      }
      const cropping = new Set(info.parameters.flatMap((p) => p.crop || []));  // set by the crop editor
      for (const p of info.parameters) {
        const value = params[p.name] ?? p.default;
        fields.push(cropping.has(p.name)
          ? `<input type="hidden" data-param="${p.name}" value="${escapeHtml(value)}">` : paramField(p, value));
      }
    }
    if (info.seats.length > 1) {
      info.seats.forEach((name, i) => fields.push(seatField(name, i, seats[i] || "human")));
    }
    // an id names a deal or a start position: a game with neither (Tic Tac Toe) asks for none
    if (info.random_deal || info.position_help) fields.push(`<label for="f-id">Game id</label><input id="f-id" placeholder="Optional: a deal's id" title="The id of a deal to play again (Copy link gives it); empty: a new deal" autocomplete="off">`);
    $("new-fields").innerHTML = fields.join("");
    greyOutUnused();
    $("new-error").textContent = "";
    for (const select of $("new-fields").querySelectorAll("[data-upload]")) bindPictureField(select, paramNamed(select.dataset.param));
    const preset = $("f-preset");
    if (preset) {
      preset.value = view && presets.includes(view.preset) ? view.preset : "";
      preset.addEventListener("change", () => fillPreset(preset.value));
      // a field changed by hand: the preset its values now make, else Custom ("Random
      // deals" stayed shown over a ticked "Deal only winnable games")
      $("new-fields").addEventListener("input", (event) => {
        if (event.target.matches("[data-param]")) preset.value = presetOfFields();
      });
    }
    $("new-dialog").showModal();
    $("new-start").focus();
  }

  // A preset names values of several fields (Minesweeper's Expert: rows, columns, mines):
  // where each is one choice of the fields that are all choices (Ishido's two rule sets,
  // Escalator's winnable deals), its row would offer the same choice twice.
  function presetsSayMore() {
    const ways = info.parameters.reduce(
      (count, p) => count * (p.kind === "choice" ? p.choices.length : p.kind === "bool" ? 2 : Infinity), 1);
    return ways > Object.keys(info.presets).length;
  }

  function paramField(p, value) {
    const id = `f-param-${p.name}`;
    const label = `<label for="${id}">${escapeHtml(p.label)}</label>`;
    // what the option means, under it, for every player (a title showed only to a mouse)
    const help = p.help ? `<small class="field-help" id="${id}-help">${escapeHtml(p.help[0].toUpperCase() + p.help.slice(1))}</small>` : "";
    const described = p.help ? ` aria-describedby="${id}-help"` : "";
    const choice = (c) => `<option value="${escapeHtml(c)}" ${c === value ? "selected" : ""}>${escapeHtml(p.choice_labels?.[c] ?? c)}</option>`;
    if (p.kind === "choice") {
      return label + `<select id="${id}" data-param="${p.name}"${described}>` + p.choices.map(choice).join("") + "</select>" + help;
    }
    if (p.kind === "bool") return label + `<input type="checkbox" id="${id}" data-param="${p.name}"${described} ${value ? "checked" : ""}>` + help;
    if (p.kind === "upload") return label + pictureField(p, id, value, choice) + help;  // pictures.js
    return label + `<input type="number" id="${id}" data-param="${p.name}"${described} value="${escapeHtml(value)}" min="${p.min ?? ""}" max="${p.max ?? ""}" required>` + help;
  }

  function seatField(name, index, kind) {
    const options = [["human", "You"], ["open", "A friend (invite link)"]];
    for (const level of info.ai_levels) options.push([`ai:${level}`, `Computer: ${info.ai_level_labels[level] ?? level}`]);
    return `<label for="f-seat-${index}">${escapeHtml(name)}</label><select id="f-seat-${index}" data-seat="${index}">`
      + options.map(([value, label]) => `<option value="${value}" ${value === kind ? "selected" : ""}>${escapeHtml(label)}</option>`).join("")
      + "</select>";
  }

  // A field that means nothing with the other fields' values (the sliding puzzle's steps,
  // with a shuffle that is no walk) is greyed out, its label and help with it.
  function greyOutUnused() {
    for (const p of info.parameters) {
      if (!p.only_with) continue;
      const input = $("new-fields").querySelector(`[data-param="${p.name}"]`);
      const unused = Object.entries(p.only_with).some(([name, value]) => fieldValue(paramNamed(name)) !== value);
      input.disabled = unused;
      for (const part of [$(`${input.id}-help`), $("new-fields").querySelector(`label[for="${input.id}"]`)]) {
        part?.classList.toggle("unused", unused);
      }
    }
  }

  // A parameter's value as its field holds it, in the catalog's type.
  function fieldValue(p) {
    const input = $("new-fields").querySelector(`[data-param="${p.name}"]`);
    return p.kind === "bool" ? input.checked : p.kind === "int" ? Number(input.value) : input.value;
  }

  function presetOfFields() {
    const makes = (values) => info.parameters.every((p) => fieldValue(p) === (values[p.name] ?? p.default));
    return Object.keys(info.presets).find((name) => makes(info.presets[name])) ?? "";
  }

  function fillPreset(name) {
    const values = info.presets[name];
    if (!values) return;
    for (const p of info.parameters) {
      const input = $("new-fields").querySelector(`[data-param="${p.name}"]`);
      const value = values[p.name] ?? p.default;
      if (p.kind === "bool") input.checked = Boolean(value); else input.value = value;
    }
    greyOutUnused();
  }

  // The dialog's form submitted: Start (a new game with its choices) or Cancel.
  async function startFromDialog(event) {
    event.preventDefault();
    if (event.submitter && event.submitter.value === "cancel") { $("new-dialog").close(); return; }
    const params = {};
    for (const input of $("new-fields").querySelectorAll("[data-param]")) {
      const p = paramNamed(input.dataset.param);
      params[p.name] = fieldValue(p);
      if (params[p.name] === UPLOAD_CHOICE) { $("new-error").textContent = "Choose a picture first"; return; }
    }
    const seats = [...$("new-fields").querySelectorAll("[data-seat]")].map((select) => select.value);
    const id = $("f-id")?.value.trim() ?? "";
    const chosen = { ...(info.parameters.length ? { params } : {}), ...(seats.length ? { seats } : {}) };
    try {
      const sid = await connection.create(id ? { id, ...(seats.length ? { seats } : {}) } : chosen);
      localStorage.setItem(`parlour.new.${game}`, JSON.stringify(chosen));
      $("new-dialog").close();
      // the board, not + New (where the dialog gave focus back): Enter then plays, not
      // asks for yet another game
      $("board-wrap").focus({ preventScroll: true });
      await connection.open(sid);
      if (seats.includes("open")) toast(INVITE_NOTE);
    } catch (error) {
      $("new-error").textContent = error.message;
    }
  }

  // Enter in a field starts the game, as a form's Enter does: on a select too, which
  // Chromium would open instead (Space and Alt+Down still do), and on a box to type in,
  // whose form's default button, the first, is Cancel. An open select's list takes its
  // own keys, so Enter there still chooses; a file field's Enter still browses.
  function startOnEnter(event) {
    if (event.key !== "Enter" || event.isComposing || event.altKey || event.ctrlKey
        || event.metaKey || event.shiftKey) return;
    if (!event.target.matches("select, input:not([type=file], [type=button], [type=submit], [type=reset])")) return;
    event.preventDefault();
    $("new-form").requestSubmit($("new-start"));
  }

  async function likeThis() {
    const view = views.current();
    await startOver({ params: view.params, seats: seatsOf(view) }, view);
  }

  // The same deal again: restarted in place while the game is on, else as a new game of
  // it (a finished game is kept as played: its replay, its place among past games).
  async function replay() {
    const view = views.current();
    if (view.can_restart && view.status === "playing") { connection.send({ type: "restart" }); return; }
    await startSession({ id: view.id, seats: seatsOf(view) });
  }

  // A new game at once: these parameters over the current game's (a preset, "no-guess"...),
  // and these seats, or the ones last chosen.
  async function withChoices(params, seats) {
    const view = views.current();
    const saved = choices();
    const chosen = { ...saved };
    if (info.parameters.length) chosen.params = { ...(view ? view.params : saved.params), ...params };
    if (seats && seats.length) chosen.seats = seats;
    localStorage.setItem(`parlour.new.${game}`, JSON.stringify(chosen));
    if (chosen.seats?.includes("open")) { if (await startSession(chosen)) toast(INVITE_NOTE); return; }
    await startOver(chosen, view);
  }

  // One key or tap starts these games (a preset, the face, Reshuffle), with no question:
  // a game left half played is kept (on the home page's Resume list too), and a note's
  // button goes back to it.
  async function startOver(options, view) {
    const left = connection.sessionId();
    if (!await startSession(options)) return;
    const started = connection.sessionId();
    if (view && view.status === "playing" && view.moves > 0 && view.you.length) {
      toast(LEFT_NOTE, { label: "Back to it", run: () => backTo(left, started) });
    }
  }

  // The game left, as the browser's Back would open it: the new game has its own entry in
  // the history, just after the left one's, unless the player has moved on since.
  function backTo(left, started) {
    if (connection.sessionId() === started) history.back(); else connection.open(left);
  }

  // A picture dropped on the board or pasted starts the New game dialog with it, for games
  // that take a picture.
  function bindPictureDrops() {
    if (!info.parameters.some((p) => p.kind === "upload")) return;
    const board = $("board-wrap");
    const picture = (files) => [...(files || [])].find((file) => file.type.startsWith("image/"));
    board.addEventListener("dragover", (event) => {
      if ([...event.dataTransfer.items].some((item) => item.kind === "file")) { event.preventDefault(); board.classList.add("picture-over"); }
    });
    board.addEventListener("dragleave", () => board.classList.remove("picture-over"));
    board.addEventListener("drop", (event) => {
      board.classList.remove("picture-over");
      const file = picture(event.dataTransfer.files);
      if (!file) return;
      event.preventDefault();
      withPicture(file);
    });
    document.addEventListener("paste", (event) => {
      if (event.target.closest?.("input, textarea") || document.querySelector("dialog[open]")) return;
      const file = picture(event.clipboardData?.files);
      if (file) { event.preventDefault(); withPicture(file); }
    });
  }

  function withPicture(file) {
    openDialog();
    const select = $("new-fields").querySelector("[data-upload]");
    if (select) usePicture(select, paramNamed(select.dataset.param), file);
  }

  return { choices, openDialog, startFromDialog, startOnEnter, likeThis, replay, withChoices, bindPictureDrops };
}

// Who sits where in `view`, as a new game's seats are given ("human", "open", "ai:medium"):
// a seat a friend holds in another browser is theirs again, "open" (not this page's
// "human"), for a player; a watcher's game like this one is theirs to fill.
export function seatsOf(view) {
  const mine = (seat) => !view.you.length || view.you.includes(seat);
  return view.seats.map((s, seat) => (s.kind === "ai" ? `ai:${s.level}`
    : s.open || !mine(seat) ? "open" : "human"));
}
