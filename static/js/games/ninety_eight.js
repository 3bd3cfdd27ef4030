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
    const danger = view.total > 88 ? "danger" : view.total > 75 ? "warn" : "";
    return h(
      "div",
      { class: "center-stack row-center" },
      h("div", { class: "felt-info" }, `Deal ${view.deal_number}`),
      h("div", { class: "pile-row" }, stackNode(view.stock_count, "Stock"), pile, bigNumber("Total", view.total, danger)),
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
  goal(ctx) {
    return "Keep the total at 98 or under. K makes it 98, 10 takes 10 away, J and Q add nothing.";
  },
  summary(ctx) {
    const last = ctx.view.last_deal;
    if (!last) return null;
    const text =
      last.loser === null || last.loser === undefined
        ? "Nobody went over 98."
        : `${seatName(ctx, last.loser)} played ${cardShort(last.card)} and took the total to ${last.total}.`;
    return { key: `n98-${ctx.view.deal_number}-${ctx.view.phase === "over"}`, title: "Over 98!", body: h("p", { text }) };
  },
  resultNote(ctx) {
    const s = this.summary(ctx);
    return s ? s.body : null;
  },
};
