// A game described in RECYCLE (docs/recycle.md), drawn from its view alone: the
// table's piles (face-up `vloc` and remembered `mem` cards shown, `iloc`/`hloc`
// stacks as counts), each seat's face-up piles, and how many hidden cards each
// seat holds. Your hand is your own `iloc` cards (`view.hand`). Moves are the
// legal moves: `{"play": CARD}` from the hand, `{"choice": [branch, ...items]}`
// as buttons.

import { cardName, cardShort, tableCard } from "../cards.js";
import { h, seatName, stackNode } from "../layout.js";

const FRENCH = /^[2-9TJQKA][CDHS]$/;
const SHOWN = new Set(["vloc", "mem"]);

/** A card on the felt: drawn when it is a French card, else its name on a plain card. */
function feltCard(card) {
  if (FRENCH.test(card)) return tableCard(card);
  return h("div", { class: "card text-card", role: "img", "aria-label": card, "data-card": card, text: card });
}

function words(name) {
  return name.replace(/_/g, " ").toLowerCase();
}

/** One location as a labelled pile: face-up cards in an overlapping row (the top few), else a stack.
 * `small` draws it smaller (the piles in front of the seats), with the table's existing classes. */
function pile(location, label, small = false) {
  if (SHOWN.has(location.kind) && Array.isArray(location.cards)) {
    const row = h("div", { class: `card-row pool recycle-pile${small ? " small" : ""}`, role: "group", "aria-label": `${label}: ${location.count} card${location.count === 1 ? "" : "s"}`, "data-location": label });
    location.cards.slice(-8).forEach((card) => row.append(feltCard(card)));
    if (!location.cards.length) row.append(h("span", { class: "hint", text: "empty" }));
    return h("div", { class: "recycle-place" }, h("div", { class: "felt-label", text: label }), row);
  }
  const stack = stackNode(location.count, label);
  stack.dataset.location = label;
  return stack;
}

function ownerName(ctx, owner) {
  if (owner === "game") return "";
  if (owner.startsWith("team")) return `Team ${Number(owner.slice(4)) + 1}`;
  return seatName(ctx, Number(owner));
}

/** A choice's item as words: a card's short name, a seat's name, a team, or the name given. */
function itemText(item, ctx) {
  if (typeof item === "number") return ctx ? seatName(ctx, item) : `seat ${item + 1}`;
  if (typeof item === "string" && FRENCH.test(item)) return cardShort(item);
  if (typeof item === "string" && /^team\d+$/.test(item)) return `team ${Number(item.slice(4)) + 1}`;
  return String(item);
}

export default {
  center(ctx) {
    const { view } = ctx;
    const locations = view.locations || [];
    const table = locations.filter((l) => l.owner === "game" && l.kind !== "mem");
    const remembered = locations.filter((l) => l.owner === "game" && l.kind === "mem" && l.count);
    // Face-up piles in front of the seats (tricks, bundles...); your own hand is below.
    const seats = locations.filter((l) => l.owner !== "game" && l.kind === "vloc" && l.count);
    const box = h("div", { class: "center-stack recycle-table" });
    if (view.phase === "over" && view.result && view.result.error) {
      box.append(h("p", { class: "felt-info", role: "alert", text: `The game was stopped: ${view.result.error}` }));
    }
    box.append(h("div", { class: "pile-row" }, ...table.map((l) => pile(l, words(l.name)))));
    if (remembered.length) box.append(h("div", { class: "pile-row" }, ...remembered.map((l) => pile(l, `${words(l.name)} (remembered)`))));
    if (seats.length) box.append(h("div", { class: "pile-row" }, ...seats.map((l) => pile(l, `${ownerName(ctx, l.owner)}: ${words(l.name)}`, true))));
    return box;
  },
  seatExtra(ctx, seat) {
    // Hidden cards a seat holds (its `iloc` and `hloc` locations): only their number shows.
    const held = (ctx.view.locations || [])
      .filter((l) => l.owner === String(seat) && (l.kind === "iloc" || l.kind === "hloc"))
      .reduce((sum, l) => sum + l.count, 0);
    return h("span", { class: "tag", "aria-label": `${held} hidden card${held === 1 ? "" : "s"}`, text: `${held} 🂠` });
  },
  bubble(move) {
    if (move.play) return FRENCH.test(move.play) ? cardShort(move.play) : move.play;
    return move.choice ? this.moveLabel(move) : "";
  },
  moveLabel(move, ctx = null) {
    if (!Array.isArray(move.choice)) return JSON.stringify(move);
    const [branch, ...items] = move.choice;
    const text = items.map((item) => itemText(item, ctx)).join(" · ");
    return text ? `${text}` : `Option ${branch + 1}`;
  },
  describe(move, ctx) {
    if (move.play) return `played ${FRENCH.test(move.play) ? cardName(move.play) : move.play}`;
    if (move.choice) return `chose ${this.moveLabel(move, ctx)}`;
    return null;
  },
  goal() {
    return "An experimental game, played from its RECYCLE description: the buttons and lit cards are your legal moves.";
  },
};
