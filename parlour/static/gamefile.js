// A game as a file: Export saves the game shown (the server says what is in it); Import
// opens a game from one, on this page or on its own game's.
import { inSentence, saveToken, toast, tokens } from "/static/common.js";

// game: this page's game; sessionId: the session shown; showNote(text, isError).
export async function exportGame({ game, sessionId, showNote }) {
  try {
    const response = await fetch(`/api/games/${encodeURIComponent(sessionId)}/export`, {
      headers: { Authorization: `Bearer ${tokens()[sessionId]}` },
    });
    if (!response.ok) throw new Error((await response.json().catch(() => ({}))).error || response.statusText);
    const named = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") || "");
    const link = document.createElement("a");
    link.href = URL.createObjectURL(await response.blob());
    link.download = named ? named[1] : `${game}.parlour.json`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    toast("Game exported");
  } catch (error) {
    showNote(`The game could not be exported: ${error.message}`, true);
  }
}

// game: this page's game; open(sid): shows a session on this page; showNote(text, isError).
export function importGame({ game, open, showNote }) {
  const input = document.createElement("input");
  input.type = "file";
  input.accept = ".json,application/json";
  input.addEventListener("change", async () => {
    if (!input.files[0]) return;
    try {
      const response = await fetch("/api/games/import", {
        method: "POST", headers: { "Content-Type": "application/json" }, body: await input.files[0].text(),
      });
      const created = await response.json().catch(() => ({ error: response.statusText }));
      if (!response.ok) throw new Error(created.error);
      saveToken(created.session, created.token);
      if (created.view.game === game) await open(created.session);
      else location.href = `/play/${encodeURIComponent(created.view.game)}?session=${encodeURIComponent(created.session)}`;
    } catch (error) {
      showNote(`That file cannot be imported: ${inSentence(error.message)}`, true);
    }
  });
  input.click();
}
