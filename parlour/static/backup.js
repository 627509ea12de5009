// The statistics page's Backup section: download everything as one file, restore one
// (the server merges it and says what it added), and the results as CSV (a plain link).
// The file carries this browser's seat tokens of its games (the server puts in only those
// it has a seat for), so that the browser that restores it takes those seats.
import { saveToken, sentTokens, tokens } from "/static/common.js";

const $ = (id) => document.getElementById(id);

function say(text, isError = false) {
  const note = $("backup-note");
  note.textContent = text;
  note.classList.toggle("error", isError);
}

function count(n, one, many) {
  return `${n} ${n === 1 ? one : many}`;
}

// What a restore did, in a sentence or two.
export function restoredWords(report) {
  if (!report.games_added && !report.results_added && !report.pictures_added) {
    return report.games_already_here === 1 ? "Nothing to add: the game of this backup is already here."
      : `Nothing to add: the ${report.games_already_here} games of this backup are already here.`;
  }
  const added = [count(report.games_added, "game", "games"), count(report.results_added, "result", "results")];
  if (report.pictures_added) added.push(count(report.pictures_added, "picture", "pictures"));
  const last = added.pop();
  let words = `Restored ${added.join(", ")} and ${last}.`;
  if (report.games_already_here) {
    words += ` ${count(report.games_already_here, "game was", "games were")} already here.`;
  }
  return words;
}

// Save `blob` as a download named `name`.
function saveFile(blob, name) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

// Download what POST `path` answers to this browser's tokens, as the file it names.
async function downloadMine(path, fallbackName) {
  const response = await fetch(path, {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ tokens: sentTokens() }),
  });
  if (!response.ok) throw new Error((await response.json().catch(() => ({}))).error || response.statusText);
  const named = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") || "");
  saveFile(await response.blob(), named ? named[1] : fallbackName);
}

async function download() {
  say("Making the backup…");
  try {
    await downloadMine("/api/backup/mine", "parlour-backup.json");
    say("Backup downloaded.");
  } catch (error) {
    say(`The backup could not be made: ${error.message}`, true);
  }
}

async function restoreFile(file, restored) {
  say("Restoring: every game is replayed and checked…");
  try {
    const response = await fetch("/api/backup", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: file,
    });
    const report = await response.json().catch(() => ({ error: response.statusText }));
    if (!response.ok) throw new Error(report.error);
    // this browser holds the seats of the restored games, so it can resume them (a token
    // it keeps already for a game stays: it is the one this browser played with)
    const held = tokens();
    for (const [session, token] of Object.entries(report.tokens)) {
      if (!(session in held)) saveToken(session, token);
    }
    say(restoredWords(report));
    await restored();
  } catch (error) {
    say(`${error.message}${/[.!]$/.test(error.message) ? "" : "."} Nothing was changed.`, true);
  }
}

// The keys file: the seat tokens this browser keeps, to take the player's games (their
// statistics, daily deals, Resume list) to another browser on the same shared Parlour.
const KEYS_FORMAT = "parlour-keys";
const KEY_PART = /^[A-Za-z0-9_-]{1,64}$/;  // a session id, or a seat token

function downloadKeys() {
  const file = { format: KEYS_FORMAT, version: 1, parlour: location.origin, made: new Date().toISOString(), tokens: tokens() };
  saveFile(new Blob([JSON.stringify(file)], { type: "application/json" }),
    `parlour-keys-${location.hostname}-${file.made.slice(0, 10)}.json`);
  say("Keys downloaded. In your other browser, open this page and choose “Use keys from a file…”. "
    + "Keep the file to yourself: it plays your seats.");
}

// The keys a file holds, checked: {session: token}; an Error saying what is wrong.
export function keysOf(text, origin) {
  let file;
  try { file = JSON.parse(text); } catch { throw new Error("This is not a keys file (it is not JSON)"); }
  if (file?.format !== KEYS_FORMAT || file.version !== 1 || typeof file.tokens !== "object" || !file.tokens) {
    throw new Error("This is not a Parlour keys file");
  }
  if (file.parlour !== origin) throw new Error(`These keys are to games at ${file.parlour}, not here`);
  const entries = Object.entries(file.tokens);
  if (entries.some(([sid, token]) => !KEY_PART.test(sid) || typeof token !== "string" || !KEY_PART.test(token))) {
    throw new Error("This keys file is damaged");
  }
  return Object.fromEntries(entries);
}

async function loadKeys(file, restored) {
  try {
    const given = keysOf(await file.text(), location.origin);
    const held = tokens();
    const added = Object.entries(given).filter(([sid]) => !(sid in held));
    for (const [sid, token] of added) saveToken(sid, token);
    const already = Object.keys(given).length - added.length;
    if (!added.length) say("Nothing to add: this browser has the keys of all these games already.");
    else {
      say(`${added.length === 1 ? "Added the keys of 1 game" : `Added the keys of ${added.length} games`}`
        + `${already ? ` (${already} already here)` : ""}.`);
    }
    await restored();
  } catch (error) {
    say(`${error.message}. Nothing was changed.`, true);
  }
}

// Ask for a file (`accept`: its types), then hand it to `then`.
function pickFile(accept, then) {
  const input = document.createElement("input");
  input.type = "file";
  input.accept = accept;
  input.addEventListener("change", () => { if (input.files[0]) then(input.files[0]); });
  input.click();
}

// On a shared Parlour the section is the player's own: their results as CSV, and their
// keys to take their games to another browser. A backup holds every player's games, so
// it is made on the server's own machine (`parlour --backup`).
function ownResultsOnly(restored) {
  $("backup-heading").textContent = "Your results and keys";
  $("backup-download").hidden = $("backup-restore").hidden = true;
  $("keys-download").hidden = $("keys-load").hidden = false;
  $("backup-intro").textContent = "Your finished games as CSV, a row each, for a spreadsheet. "
    + "Your keys: the seats this browser holds here, as a file to open in another browser "
    + "(a phone, say), which then shows these games, statistics and daily deals too; a game "
    + "started later stays in the browser that started it, until you bring its keys over the same way. "
    + "Keep the file to yourself: it plays your seats.";
  $("results-csv").addEventListener("click", async (event) => {
    event.preventDefault();
    try { await downloadMine("/api/results.csv/mine", "parlour-results.csv"); say(""); }
    catch (error) { say(`The results could not be downloaded: ${error.message}`, true); }
  });
  $("keys-download").addEventListener("click", downloadKeys);
  $("keys-load").addEventListener("click", () => pickFile(".json,application/json", (file) => loadKeys(file, restored)));
}

// restored(): shows the statistics again once a restore has added to them; `shared`: the
// catalog's (only this browser's own results here).
export function setUpBackup({ restored, shared }) {
  $("backup").hidden = false;  // (shown once it says what it does on this Parlour)
  $("results-csv").href = "/api/results.csv";  // (set up: a shared Parlour's click fetches it)
  if (shared) { ownResultsOnly(restored); return; }
  $("backup-download").addEventListener("click", download);
  $("backup-restore").addEventListener("click", () => pickFile(".json,application/json", (file) => restoreFile(file, restored)));
}
