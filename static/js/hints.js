// "Hint": the server's suggestion for this seat (the normal bot's move), shown as a
// ribbon on its cards and said in a toast. It stands until the player moves, while its
// move is still one of their legal moves: another seat's pass in Hearts changes the
// version, not the hint. An answer that comes when its move is no longer legal is not
// shown, and the toast goes with the hint.

import { cardName } from "./cards.js";
import { h } from "./layout.js";
import { hideToast, toast } from "./panels.js";

const hint = { asked: false, shown: null, said: null };

/** Whether the hint still stands for `ctx`. */
export function hintShown(ctx) {
  const shown = hint.shown;
  if (!shown || !ctx || !ctx.legal.length) return false;
  if (shown.legalAt !== ctx.version) {
    shown.legal = ctx.legal.some((m) => JSON.stringify(m) === shown.key);
    shown.legalAt = ctx.version;
  }
  return shown.legal;
}

/** The hint's cards as hand marks, added to `marks` (a Map card -> mark); a hint that no longer
 * stands takes its toast away. */
export function addHintMarks(ctx, marks) {
  if (!hintShown(ctx)) {
    unsay();
    return marks;
  }
  for (const card of hint.shown.cards) marks.set(card, { short: "hint", label: "the hint suggests this card", kind: "hint" });
  return marks;
}

/** The standing hint's move for `ctx`, or null. */
export function hintedMove(ctx) {
  return hintShown(ctx) ? hint.shown.move : null;
}

/** The server's `hint` answer: keep it (if this page asked) and say it; `redraw` draws the hand and tools again. */
export function onHint(msg, ctx, redraw) {
  if (!ctx || !hint.asked) return;
  hint.asked = false;
  const move = msg.move || {};
  const key = JSON.stringify(move);
  // Asked at a turn the player has since left (they moved while the server thought).
  if (!ctx.legal.some((m) => JSON.stringify(m) === key)) return redraw();
  const cards = hintCards(ctx, move);
  hint.shown = { key, legalAt: ctx.version, legal: true, cards, move };
  // A card with several places to go is said with its place ("Red 3 · Play to your side · Red").
  const placed = cards.length === 1 && ctx.moves.places && ctx.moves.places.has(cards[0]);
  const label = ctx.game.moveLabel ? ctx.game.moveLabel(move, ctx) : key;
  hint.said = cards.length && !placed ? `Hint: ${cards.map(cardName).join(", ")}` : `Hint: ${label}`;
  toast(hint.said);
  redraw();
}

function unsay() {
  if (hint.said) hideToast(hint.said);
  hint.said = null;
}

/** The cards a move names: the layout's `moveCards` when it has one (a RECYCLE choice's
 * items are seats, ranks and words, not cards), else the card played or the list given. */
function hintCards(ctx, move) {
  if (ctx.game.moveCards) return ctx.game.moveCards(move, ctx);
  return typeof move.play === "string" ? [move.play] : Object.values(move).find((v) => Array.isArray(v)) || [];
}

/** The player moved, or the server refused the question: no hint stands or is awaited. */
export function forgetHint(asked = false) {
  hint.asked = false;
  if (asked) return;
  hint.shown = null;
  unsay();
}

/** The "Hint" button beside the turn banner ("Hint shown" while one stands), or null when not your turn. */
export function hintButton(ctx, send, redraw) {
  if (!(ctx.legal.length && ctx.seated && ctx.table.status === "playing")) return null;
  const asked = hintShown(ctx);
  return h("button", {
    type: "button",
    class: "btn small ghost tool",
    id: "hint-button",
    disabled: asked || hint.asked,
    onclick: () => {
      hint.asked = true;
      send({ type: "hint", id: `hint-${ctx.version}` });
      redraw();
    },
    text: asked ? "Hint shown" : "Hint",
  });
}
