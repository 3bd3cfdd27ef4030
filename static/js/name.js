// The "Your name" form shared by the lobby and the table page.

import { currentPlayer, setName } from "./client.js";

/** Show who is playing in the top bar. */
export function showWho(player) {
  const who = document.getElementById("who");
  if (!who) return;
  who.hidden = !player;
  who.textContent = player ? player.name : "";
}

/**
 * Resolve with the session's player; when there is none, show the name form and
 * resolve once the person has chosen a name. `onPlayer` runs for every change.
 */
export async function ensurePlayer(onPlayer = () => {}) {
  let player = null;
  try {
    player = await currentPlayer();
  } catch (error) {
    player = null;
  }
  const form = document.getElementById("name-form");
  const input = document.getElementById("name-input");
  const errorBox = document.getElementById("name-error");
  showWho(player);
  onPlayer(player);
  if (player) return player;
  form.hidden = false;
  document.body.classList.add("needs-name");
  // Someone quicker than this script may have typed a name already: keep it.
  if (!input.value) input.value = localStorage.getItem("cardtable-name") || "";
  if (document.activeElement !== input) input.focus();
  return new Promise((resolve) => {
    form.dataset.ready = "true"; // the script answers the form from here on (without it, the server does)
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      errorBox.textContent = "";
      try {
        const named = await setName(input.value.trim());
        localStorage.setItem("cardtable-name", named.name);
        form.hidden = true;
        document.body.classList.remove("needs-name");
        showWho(named);
        onPlayer(named);
        resolve(named);
      } catch (error) {
        errorBox.textContent = error.message;
      }
    });
  });
}
