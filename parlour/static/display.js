// How the page looks and sounds: the preferences (theme, sound, animations, music, and how
// long a long press lasts) and the Display dialog, the game's background music, and the game's own
// display options (e.g. Ishido's tile sets), set as data-opt-* on the board for its stylesheet.
import { $, escapeHtml, loadPrefs, LONG_PRESSES, longPressMs, nextTheme, savePrefs, THEMES, toast } from "/static/common.js";
import { createMusic } from "/static/music.js";

// info: the game's catalog entry; changed(): called when a preference or option changed
// (the menus' ticks follow it).
export function createDisplay({ info, changed }) {
  const game = info.name;
  const state = {
    music: null,  // the game's background music (GameSpec.music), if it has some
  };

  function showPrefs() {
    const prefs = loadPrefs();
    $("theme-label").textContent = THEMES.find(([key]) => key === prefs.theme)[1];
    $("btn-sound").setAttribute("aria-pressed", String(prefs.sound));
    $("btn-sound").title = prefs.sound ? "Sound is on (M turns it off)" : "Sound is off (M turns it on)";
    $("sound-icon").textContent = prefs.sound ? "🔊" : "🔇";
    $("pref-music-row").hidden = !info.music;
    if (state.music?.playing() || !prefs.sound || !prefs.music) syncMusic();  // turns it off, or keeps it going
    changed();
  }

  function cycleTheme() {
    const name = nextTheme();
    showPrefs();
    toast(`Theme: ${name}`);
  }

  function toggleSound() {
    setSound(!loadPrefs().sound);
  }

  function setSound(on) {
    savePrefs({ ...loadPrefs(), sound: on }); showPrefs();
    toast(on ? "Sound on" : "Sound off");
  }

  // -- background music (GameSpec.music): browsers let a page play sound only after the
  // player has done something, so it starts at the first click or key, and follows the
  // sound switch, the Music preference and whether the page is in sight.
  function startMusicOnGestures() {
    state.music = createMusic(info.music);
    for (const type of ["pointerdown", "keydown"]) document.addEventListener(type, syncMusic, { passive: true });
    document.addEventListener("visibilitychange", syncMusic);
  }

  function syncMusic() {
    if (!state.music) return;
    const prefs = loadPrefs();
    if (prefs.sound && prefs.music && document.visibilityState === "visible") state.music.start(); else state.music.stop();
  }

  // -- the game's own display options: data-opt-* on the board ---------------------------
  function gameOptions() {
    let saved = {};
    try { saved = JSON.parse(localStorage.getItem(`parlour.display.${game}`)) || {}; } catch { /* defaults */ }
    const chosen = {};
    for (const [name, choices] of Object.entries(info.display_options)) {
      chosen[name] = choices.includes(saved[name]) ? saved[name] : choices[0];
    }
    return chosen;
  }

  function applyGameOptions() {
    for (const [name, value] of Object.entries(gameOptions())) $("board").dataset[`opt${name[0].toUpperCase()}${name.slice(1)}`] = value;
  }

  function chooseGameOption(name, value) {
    localStorage.setItem(`parlour.display.${game}`, JSON.stringify({ ...gameOptions(), [name]: value }));
    applyGameOptions();
    changed();
  }

  function gameOptionFields() {
    const chosen = gameOptions();
    return Object.entries(info.display_options).map(([name, choices]) =>
      `<label for="opt-${name}">${escapeHtml(name[0].toUpperCase() + name.slice(1))}</label><select id="opt-${name}" data-option="${escapeHtml(name)}">`
      + choices.map((c) => `<option value="${escapeHtml(c)}" ${c === chosen[name] ? "selected" : ""}>${escapeHtml(info.display_labels[name]?.[c] ?? c)}</option>`).join("") + "</select>").join("");
  }

  // -- the Display dialog ----------------------------------------------------------------
  function openDialog() {
    const prefs = loadPrefs();
    $("game-options").innerHTML = gameOptionFields();
    for (const select of $("display-dialog").querySelectorAll("[data-option]")) {
      select.addEventListener("change", () => chooseGameOption(select.dataset.option, select.value));
    }
    $("pref-theme").value = prefs.theme;
    $("pref-sound").checked = prefs.sound;
    $("pref-animations").checked = prefs.animations;
    $("pref-music").checked = prefs.music;
    $("pref-long-press").value = String(longPressMs(prefs));
    $("display-dialog").showModal();
  }

  // binds the dialog's fields, and fills their fixed choices once (they follow the game,
  // not the preferences, which openDialog shows)
  function bindDialog() {
    $("pref-theme").innerHTML = THEMES.map(([key, label]) => `<option value="${key}">${label}</option>`).join("");
    $("pref-long-press").innerHTML = LONG_PRESSES.map(([ms, label]) => `<option value="${ms}">${label}</option>`).join("");
    // how long a finger holds the board for its second action (GameSpec.second_action)
    $("pref-long-press-row").hidden = !info.second_action;
    const update = () => {
      savePrefs({ ...loadPrefs(), theme: $("pref-theme").value, sound: $("pref-sound").checked,
        animations: $("pref-animations").checked, music: $("pref-music").checked,
        longPress: Number($("pref-long-press").value) });
      showPrefs();
      syncMusic();
    };
    for (const id of ["pref-theme", "pref-sound", "pref-animations", "pref-music", "pref-long-press"]) $(id).addEventListener("change", update);
  }

  return {
    showPrefs, cycleTheme, toggleSound, setSound, startMusicOnGestures, syncMusic,
    gameOptions, applyGameOptions, chooseGameOption, openDialog, bindDialog,
  };
}
