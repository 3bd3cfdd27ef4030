// Ninety-Eight's table: the pile, its running total, the stock; between deals, who went over.

import { cardShort } from "../cards.js";
import { bigNumber, h, seatName, stackNode } from "../layout.js";
import { tableCard } from "../cards.js";

export default {
  center(ctx) {
    const { view } = ctx;
    const pile = h("div", { class: "pile", role: "group", "aria-label": `The pile: ${view.pile.length} card${view.pile.length === 1 ? "" : "s"}` });
    view.pile.slice(-4).forEach((card, i, shown) => {
      const node = tableCard(card, i === shown.length - 1 ? "top" : "under");
      node.style.setProperty("--k", shown.length - 1 - i);
      pile.append(node);
    });
    // Warn from what the server computed for your cards: some (or every) play goes over.
    const effects = view.effects || [];
    const losing = effects.filter((e) => e.loses).length;
    const danger = !effects.length || !losing ? "" : losing === effects.length ? "danger" : "warn";
    return h(
      "div",
      { class: "center-stack row-center" },
      h("div", { class: "felt-info" }, `Deal ${view.deal_number}`),
      h("div", { class: "pile-row" }, stackNode(view.stock_count, "Stock"), pile, bigNumber(`Total · max ${view.limit}`, view.total, danger)),
    );
  },
  seatExtra(ctx, seat) {
    const lives = ctx.view.lives;
    if (!lives || (ctx.table.options && ctx.table.options.lives === 1)) return null;
    return h("span", { class: "tag hearts", "aria-label": `${lives[seat]} lives`, text: "♥".repeat(Math.max(0, lives[seat])) || "out" });
  },
  bubble(move) {
    return move.play ? cardShort(move.play) : "";
  },
  /** Each card in your hand with the total it would make; the ones that go over marked red. */
  handMarks(ctx) {
    const effects = ctx.view.effects || [];
    return new Map(
      effects.map((e) => [e.card, { short: e.loses ? `✗ ${e.total}` : `→ ${e.total}`, label: e.loses ? `makes the total ${e.total}: over ${ctx.view.limit}, you lose the deal` : `makes the total ${e.total}`, kind: e.loses ? "danger" : "effect" }]),
    );
  },
  summary(ctx) {
    const last = ctx.view.last_deal;
    if (!last) return null;
    const text =
      last.loser === null || last.loser === undefined
        ? `Nobody went over ${ctx.view.limit}.`
        : `${seatName(ctx, last.loser)} played ${cardShort(last.card)} and took the total to ${last.total}.`;
    return { key: `n98-${ctx.view.deal_number}-${ctx.view.phase === "over"}`, title: `Over ${ctx.view.limit}!`, body: h("p", { text }) };
  },
  resultNote(ctx) {
    const s = this.summary(ctx);
    return s ? s.body : null;
  },
};
