// Hearts' table: the pass, the trick, points taken this deal; between deals,
// the points each seat took and whether someone shot the moon.

import { cardList, cardShort } from "../cards.js";
import { cardRow, h, seatName, simpleTable } from "../layout.js";
import { playBubble, trickArea } from "./tricks.js";

const DIRECTION = { left: "to the left", right: "to the right", across: "across", none: "" };

export default {
  center(ctx) {
    const { view } = ctx;
    const parts = [];
    if (view.phase === "pass") {
      parts.push(h("div", { class: "felt-info" }, `Deal ${view.deal_number} · pass three cards ${DIRECTION[view.pass_direction] || view.pass_direction}`));
      const waiting = ctx.table.seats.filter((s) => !view.passed_seats.includes(s.seat)).map((s) => seatName(ctx, s.seat));
      if (view.passed) parts.push(cardRow(view.passed, "The cards you pass", "small"));
      parts.push(h("p", { class: "felt-note", text: waiting.length ? `Still choosing: ${waiting.join(", ")}` : "" }));
    } else {
      const broken = view.hearts_broken ? " · hearts broken" : "";
      const trick = view.phase === "play" ? ` · trick ${view.tricks_played + 1}` : "";
      parts.push(h("div", { class: "felt-info" }, `Deal ${view.deal_number}${trick}${broken}`));
      parts.push(trickArea(ctx));
      if (view.received && view.tricks_played === 0 && !(view.trick || []).length) {
        parts.push(h("p", { class: "felt-note", text: `You received ${view.received.map(cardShort).join(" ")}` }));
      }
    }
    return h("div", { class: "center-stack" }, ...parts);
  },
  seatExtra(ctx, seat) {
    const { view } = ctx;
    if (view.phase === "pass" && view.passed_seats.includes(seat)) return h("span", { class: "tag ok", text: "passed" });
    if (view.phase === "play" && view.points && view.points[seat]) return h("span", { class: "tag hearts", "aria-label": `${view.points[seat]} points this deal`, text: `♥ ${view.points[seat]}` });
    return null;
  },
  bubble(move) {
    return move.pass ? "" : playBubble(move);
  },
  describe(move) {
    if (move.pass) return Array.isArray(move.pass) ? `passed ${cardList(move.pass)}` : "passed three cards";
    return null;
  },
  chooseHint(multi, ctx) {
    return `Your turn: choose 3 cards to pass ${DIRECTION[ctx.view.pass_direction] || ""}`.trim();
  },
  scoreColumns(ctx) {
    return ctx.view.points ? [{ title: "This deal", values: ctx.view.points }] : [];
  },
  goal(ctx) {
    return `Lowest score wins. The game ends after a deal where someone reaches ${ctx.view.target}.`;
  },
  summary(ctx) {
    const { view } = ctx;
    if (!view.last_deal) return null;
    const { points, moon } = view.last_deal;
    const rows = [["", ...points.map((_, seat) => seatName(ctx, seat))], ["Points", ...points.map(String)]];
    const body = h("div", {}, simpleTable(rows, "Points taken last deal"));
    if (moon !== null && moon !== undefined) body.prepend(h("p", { class: "moon", text: `${seatName(ctx, moon)} shot the moon!` }));
    return { key: `hearts-${view.deal_number}-${view.phase === "over"}`, title: view.phase === "over" ? "The last deal" : `Deal ${view.deal_number - 1} is over`, body };
  },
  resultNote(ctx) {
    const s = this.summary(ctx);
    return s ? s.body : null;
  },
};
