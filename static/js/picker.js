// A RECYCLE choice among the subsets of some cards, as cards to pick and a Confirm
// (docs/protocol.md, "pick"). The view of the seat to act carries `pick`: per such
// part of the choice its `branch`, the `cards` that may be picked (the order the move
// lists them in), where they lie (`from`), how many (`min`, `max`), the sums of points
// the set must keep (`sums`), and whether those say everything (`exact`; else the
// server checks more and may refuse the set). The move is
// `{"choice": [branch, [the cards picked, in the pick's order]]}`; `legal_moves` may
// list a few such moves (the bots' sample): they are not drawn as buttons here.

import { cardName, cardShort } from "./cards.js";
import { h } from "./layout.js";

const FRENCH = /^[2-9TJQKA][CDHS]$/;
const OPS = { "==": "exactly", "<=": "at most", "<": "less than", ">=": "at least", ">": "more than", "!=": "not" };
const TEST = {
  "==": (a, b) => a === b,
  "!=": (a, b) => a !== b,
  "<": (a, b) => a < b,
  ">": (a, b) => a > b,
  "<=": (a, b) => a <= b,
  ">=": (a, b) => a >= b,
};
// The cards picked, kept while the same pick stands (the page draws its controls again often).
const picked = { key: null, cards: new Set() };

/** The picks of the view, for the seat to act; [] when none. */
export function picksOf(ctx) {
  return (ctx && ctx.seated && ctx.view && Array.isArray(ctx.view.pick) && ctx.legal.length && ctx.view.pick) || [];
}

/** Whether `move` is a set of one of the picks (drawn by the picker, not as a button). */
export function isPicked(ctx, move) {
  const choice = move && move.choice;
  if (!Array.isArray(choice) || choice.length !== 2 || !Array.isArray(choice[1])) return false;
  return picksOf(ctx).some((p) => p.branch === choice[0]);
}

function short(card) {
  return FRENCH.test(card) ? cardShort(card) : card;
}

function whereText(ctx, places) {
  const names = places.map((p) => (p.owner === String(ctx.me) ? `your ${p.label}` : p.owner === "game" ? `the ${p.label}` : p.label));
  return names.join(" and ");
}

/** What the cards chosen lack, in words, or "" when the pick's rules as given hold. */
function lacking(pick, chosen) {
  const n = chosen.length;
  if (n < pick.min || n > pick.max) {
    return pick.min === pick.max ? `pick ${pick.min}` : `pick ${pick.min} to ${pick.max}`;
  }
  for (const rule of pick.sums || []) {
    const total = chosen.reduce((sum, c) => sum + (rule.points[c] || 0), 0);
    if (!TEST[rule.op](total, rule.total)) return `points ${OPS[rule.op]} ${rule.total} (now ${total})`;
  }
  return "";
}

/** The status line: how many are picked, the points where the rule counts them, what is missing. */
function status(pick, chosen) {
  const parts = [`${chosen.length} picked`];
  for (const rule of pick.sums || []) {
    const total = chosen.reduce((sum, c) => sum + (rule.points[c] || 0), 0);
    parts.push(`points ${total}, ${OPS[rule.op]} ${rule.total}`);
  }
  const missing = lacking(pick, chosen);
  if (missing) parts.push(missing);
  return parts.join(" · ");
}

/** One pick as a group of card toggles, a status line and a Confirm button. */
function panel(ctx, pick, makeMove, pending) {
  const key = JSON.stringify([ctx.version, pick.branch, pick.cards]);
  if (picked.key !== key) {
    picked.key = key;
    picked.cards = new Set();
  }
  const chosen = () => pick.cards.filter((c) => picked.cards.has(c));
  const count = pick.min === pick.max ? `${pick.min}` : `${pick.min} to ${pick.max}`;
  const title = `Pick ${count} card${pick.max === 1 ? "" : "s"} from ${whereText(ctx, pick.from || [])}`;
  const line = h("p", { class: "picker-status", "aria-live": "polite" });
  const confirm = h("button", { type: "button", class: "btn primary picker-confirm", "data-branch": String(pick.branch), text: "Confirm" });
  const redraw = () => {
    const now = chosen();
    line.textContent = status(pick, now);
    // With `exact`, the rule as given is the whole rule: a set it refuses is not offered.
    confirm.disabled = pending || (pick.exact ? lacking(pick, now) !== "" : now.length < pick.min || now.length > pick.max);
    confirm.setAttribute("aria-label", `Confirm the ${now.length} card${now.length === 1 ? "" : "s"} picked`);
  };
  const cards = h("div", { class: "picker-cards" });
  // Shown in the hand's order where they are in it (the move keeps the pick's order).
  const inHand = new Map(((ctx.view && ctx.view.hand) || []).map((c, i) => [c, i]));
  const shown = [...pick.cards].sort((a, b) => (inHand.get(a) ?? 1e9) - (inHand.get(b) ?? 1e9));
  for (const card of shown) {
    const points = (pick.sums || []).length === 1 ? pick.sums[0].points[card] : null;
    const button = h("button", {
      type: "button",
      class: "btn pick-card",
      "data-card": card,
      "aria-pressed": picked.cards.has(card) ? "true" : "false",
      "aria-label": `${FRENCH.test(card) ? cardName(card) : card}${points === null ? "" : `, ${points} points`}`,
      disabled: pending,
      text: short(card),
    });
    // Toggled in place (not drawn again), so keyboard focus stays on the card.
    button.addEventListener("click", () => {
      if (picked.cards.has(card)) picked.cards.delete(card);
      else picked.cards.add(card);
      button.setAttribute("aria-pressed", picked.cards.has(card) ? "true" : "false");
      redraw();
    });
    cards.append(button);
  }
  confirm.addEventListener("click", () => {
    const move = { choice: [pick.branch, chosen()] };
    picked.key = null;
    makeMove(move);
  });
  redraw();
  return h("div", { class: "picker", role: "group", "aria-label": title }, h("p", { class: "picker-title", text: title }), cards, h("div", { class: "picker-foot" }, line, confirm));
}

/** The pickers' styles, once (the module brings its own, beside the layout's). */
function styled() {
  if (document.querySelector("link[data-picker]")) return;
  document.head.append(h("link", { rel: "stylesheet", href: new URL("../css/picker.css", import.meta.url).href, "data-picker": "" }));
}

/** The pickers of the view's picks, or null when it has none. */
export function pickers(ctx, makeMove, pending) {
  const picks = picksOf(ctx);
  if (!picks.length) return null;
  styled();
  return h("div", { class: "pickers" }, ...picks.map((pick) => panel(ctx, pick, makeMove, pending)));
}
