// Agram's table: the trick, the deal count; between deals, who took the last trick.

import { h, seatName, trickNode } from "../layout.js";
import { playBubble, takenNote, trickArea } from "./tricks.js";

export default {
  center(ctx) {
    const { view } = ctx;
    // Tricks in a deal: those played and those still in the fullest hand.
    const tricks = view.tricks_played + Math.max(...view.hand_counts);
    const trick = view.phase === "over" ? "" : ` · trick ${Math.min(view.tricks_played + 1, tricks)} of ${tricks}`;
    const taken = takenNote(ctx);
    const info = h("div", { class: "felt-info" }, `Deal ${view.deal_number}${trick}`, taken ? " · " : "", taken);
    return h("div", { class: "center-stack" }, info, trickArea(ctx));
  },
  bubble: playBubble,
  summary(ctx) {
    const { view } = ctx;
    if (view.deal_winner === null || view.deal_winner === undefined || !view.last_trick) return null;
    const who = seatName(ctx, view.deal_winner);
    const body = h(
      "div",
      {},
      h("p", { text: `${who} won the last trick and ${who === "You" ? "score" : "scores"} a point.` }),
      h("div", { class: "summary-trick" }, trickNode(ctx, view.last_trick.cards, { winner: view.last_trick.winner, caption: "The last trick" })),
    );
    return { key: `agram-${view.deal_number}-${view.phase === "over"}`, title: view.phase === "over" ? "The last deal" : `Deal ${view.deal_number - 1} to ${who}`, body };
  },
  resultNote(ctx) {
    const s = this.summary(ctx);
    return s ? s.body : null;
  },
};
