// A first game that teaches: the first time a player meets a moment of a game (a pass,
// the first lead, hearts broken, the crib, a go, the show), a short tip says what to
// do and why, once per browser, until "Got it" or the player's next move. The words
// are the game's (`tips` in /api/games/); the layout says which moment it is now.

import { h } from "./layout.js";

const KEY = "cardtable-tips-seen";
const tip = { shown: null, seen: load() };

function load() {
  try {
    return new Set(JSON.parse(localStorage.getItem(KEY) || "[]"));
  } catch (error) {
    return new Set();
  }
}

function remember(id) {
  tip.seen.add(id);
  try {
    localStorage.setItem(KEY, JSON.stringify([...tip.seen]));
  } catch (error) {
    // A browser that keeps nothing shows each tip once per page instead.
  }
}

function draw() {
  const bar = document.getElementById("tip-bar");
  if (!bar) return;
  if (!tip.shown) {
    bar.replaceChildren();
    return;
  }
  bar.replaceChildren(
    h(
      "div",
      { class: "tip", role: "note", "aria-label": "Tip", "data-moment": tip.shown.moment },
      h("strong", { class: "tip-word", text: "Tip" }),
      h("span", { class: "tip-text", text: tip.shown.text }),
      h("button", { type: "button", class: "btn small", id: "tip-close", onclick: closeTip, text: "Got it" }),
    ),
  );
}

/** Close the tip shown now, if any. */
export function closeTip() {
  if (!tip.shown) return;
  tip.shown = null;
  draw();
}

/** After a state is drawn: show the tip of the moment the player meets now, the first time only. */
export function onState(ctx) {
  if (!ctx.seated || !ctx.view || ctx.table.status !== "playing" || !ctx.game.moment) {
    closeTip(); // a tip is for a seated player's moment in a running game: one who left has none
    return;
  }
  const moment = ctx.game.moment(ctx);
  const text = moment && ctx.info && ctx.info.tips ? ctx.info.tips[moment] : null;
  const id = `${ctx.table.game}:${moment}`;
  if (!text || tip.seen.has(id)) return;
  remember(id);
  tip.shown = { moment, text };
  draw();
}
