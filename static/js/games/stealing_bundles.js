// Stealing Bundles' table: the pool, the stock, and each seat's bundle (top card and size).

import { cardList, cardName, cardShort } from "../cards.js";
import { cardRow, h, listWords, seatName, stackNode } from "../layout.js";

function takeText(ctx, take) {
  const parts = [];
  if (take.stole.length) parts.push(`stole ${listWords(take.stole.map((s) => seatName(ctx, s)))}'s bundle`);
  if (take.pool.length) parts.push(`took ${take.pool.map(cardShort).join(" ")} from the pool`);
  return parts.length ? `${parts.join(" and ")} with ${cardShort(take.card)}` : "";
}

export default {
  plateScore: false, // the bundle badge shows the size, which is the score
  historyTitle: "After each round",
  historyLabel: "Round",
  center(ctx) {
    const { view } = ctx;
    const pool = view.pool.length ? cardRow(view.pool, `The pool: ${cardList(view.pool)}`, "pool") : h("div", { class: "pool empty-pool", text: "The pool is empty" });
    // What the last card took reads in the headline above the felt, where it covers
    // neither the stock's label nor a seat's bundle.
    const take = view.last_take;
    let note = null;
    if (take && view.last && take.seat === view.last.seat && take.card === view.last.move.play) {
      const text = takeText(ctx, take);
      if (text) note = h("span", { class: "felt-news", text: `${seatName(ctx, take.seat)} ${text}` });
    }
    const info = h("div", { class: "felt-info" }, `Round ${view.round} · pool`, note ? " · " : "", note);
    return h("div", { class: "center-stack" }, info, h("div", { class: "pile-row" }, stackNode(view.stock_count, "Stock"), pool));
  },
  /** A seat's bundle in one badge: its top card and its size ("Bundle Q♠ · 7"). */
  seatExtra(ctx, seat) {
    const bundle = ctx.view.bundles[seat];
    const label = bundle.top ? `Bundle: ${bundle.size} cards, ${cardName(bundle.top)} on top` : "Bundle: empty";
    const red = bundle.top && "DH".includes(bundle.top[1]);
    return h(
      "span",
      { class: "bundle-badge", role: "img", "aria-label": label, title: label },
      h("span", { class: "bundle-word", "aria-hidden": "true", text: "Bundle" }),
      bundle.top ? h("span", { class: `bundle-top${red ? " red-card" : ""}`, "aria-hidden": "true", text: cardShort(bundle.top) }) : h("span", { class: "bundle-top empty", "aria-hidden": "true", text: "—" }),
      h("span", { class: "bundle-size", "aria-hidden": "true", text: `${bundle.size}` }),
    );
  },
  bubble(move) {
    return move.play ? cardShort(move.play) : "";
  },
  describe(move, ctx) {
    const take = ctx.view.last_take;
    if (take && move.play === take.card && ctx.view.last.seat === take.seat) {
      const text = takeText(ctx, take);
      return text ? `played ${cardName(move.play)} and ${text.replace(/ with .*$/, "")}` : null;
    }
    return null;
  },
};
