// The statistics page's Backup section: download everything as one file, restore one
// (the server merges it and says what it added), and the results as CSV (a plain link).
// The file carries this browser's seat tokens of its games (the server puts in only those
// it has a seat for), so that the browser that restores it takes those seats.
import { saveToken, tokens, TOKENS_SENT } from "/static/common.js";


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

// Download what POST `path` answers to this browser's tokens, as the file it names.
async function downloadMine(path, fallbackName) {
  const response = await fetch(path, {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ tokens: Object.values(tokens()).slice(-TOKENS_SENT) }),
  });
  if (!response.ok) throw new Error((await response.json().catch(() => ({}))).error || response.statusText);
  const named = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") || "");
  const link = document.createElement("a");
  link.href = URL.createObjectURL(await response.blob());
  link.download = named ? named[1] : fallbackName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
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

// On a shared Parlour the section is the player's results as CSV alone: a backup holds
// every player's games, and is made on the server's own machine (`parlour --backup`).
function ownResultsOnly() {
  $("backup-heading").textContent = "Your results";
  $("backup-download").hidden = $("backup-restore").hidden = true;
  $("backup-intro").textContent = "Your finished games, a row each, for a spreadsheet.";
  $("results-csv").addEventListener("click", async (event) => {
    event.preventDefault();
    try { await downloadMine("/api/results.csv/mine", "parlour-results.csv"); say(""); }
    catch (error) { say(`The results could not be downloaded: ${error.message}`, true); }
  });
}

// restored(): shows the statistics again once a restore has added to them; `shared`: the
// catalog's (only this browser's own results here).
export function setUpBackup({ restored, shared }) {
  if (shared) { ownResultsOnly(); return; }
  $("backup-download").addEventListener("click", download);
  $("backup-restore").addEventListener("click", () => {
    const input = document.createElement("input");
    input.type = "file";
    input.accept = ".json,application/json";
    input.addEventListener("change", () => { if (input.files[0]) restoreFile(input.files[0], restored); });
    input.click();
  });
}
