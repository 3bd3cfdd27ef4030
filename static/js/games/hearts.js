// Hearts' table: the pass, the trick, points taken this deal; between deals,
// the points each seat took and whether someone shot the moon.

import { cardList, cardShort } from "../cards.js";
import { cardRow, h, seatName, simpleTable, trickNode } from "../layout.js";
import { playBubble, takenNote, trickArea } from "./tricks.js";

/** Who passed you your cards, from the view's `received_from`. */
function receivedFrom(ctx) {
  const from = ctx.view.received_from;
  return from === null || from === undefined ? "Someone" : seatName(ctx, from);
}

const DIRECTION = { left: "to the left", right: "to the right", across: "across", none: "" };

export default {
  center(ctx) {
    const { view } = ctx;
    const parts = [];
    if (view.phase === "pass") {
      parts.push(h("div", { class: "felt-info" }, `Deal ${view.deal_number} · pass ${DIRECTION[view.pass_direction] || view.pass_direction}`));
      const waiting = ctx.table.seats.filter((s) => !view.passed_seats.includes(s.seat)).map((s) => seatName(ctx, s.seat));
      if (view.passed) parts.push(cardRow(view.passed, "The cards you pass", "small"));
      parts.push(h("p", { class: "felt-note", text: waiting.length ? `Still choosing: ${waiting.join(", ")}` : "" }));
    } else {
      const broken = view.hearts_broken ? " · hearts broken" : "";
      const trick = view.phase === "play" ? ` · trick ${view.tricks_played + 1}` : "";
      // During the first trick the headline also says who passed you which cards (marked in your hand).
      const received =
        view.received && view.tricks_played === 0 ? h("span", { class: "received-note", text: `${receivedFrom(ctx)} passed you ${view.received.map(cardShort).join(" ")}` }) : null;
      const taken = received ? null : takenNote(ctx);
      parts.push(h("div", { class: "felt-info" }, `Deal ${view.deal_number}${trick}${broken}`, received ? " · " : "", received, taken ? " · " : "", taken));
      parts.push(trickArea(ctx));
    }
    return h("div", { class: "center-stack" }, ...parts);
  },
  /** The moment a first-game tip may explain (tips.js; the words are the game's). */
  moment(ctx) {
    const { view, prev } = ctx;
    if (view.phase === "pass" && ctx.moves.multi.key) return "pass";
    if (view.phase === "play" && ctx.legal.length && view.tricks_played === 0 && !(view.trick || []).length) return "first_lead";
    if (view.hearts_broken && prev && prev.hearts_broken === false && prev.deal_number === view.deal_number) return "hearts_broken";
    return null;
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
    if (move.pass) return Array.isArray(move.pass) ? `passed ${cardList(move.pass)}` : `passed ${move.pass} cards`;
    return null;
  },
  chooseHint(multi, ctx) {
    const n = multi.moves[0][multi.key].length;
    return `Your turn: choose ${n} cards to pass ${DIRECTION[ctx.view.pass_direction] || ""}`.trim();
  },
  /** The cards passed to you, marked in your hand until the first trick is over. */
  handMarks(ctx) {
    const { view } = ctx;
    if (!view.received || view.phase !== "play" || view.tricks_played > 0) return null;
    const from = receivedFrom(ctx);
    return new Map(view.received.map((card) => [card, { short: `from ${from}`, label: `passed to you by ${from}`, kind: "received" }]));
  },
  historyMarks(record, seat) {
    const marks = [];
    if (record.queen === seat) marks.push("Q♠");
    if (record.moon === seat) marks.push("shot the moon");
    return marks.join(", ");
  },
  historyNote() {
    return "Q♠: took the queen of spades.";
  },
  scoreColumns(ctx) {
    return ctx.view.points ? [{ title: "This deal", values: ctx.view.points }] : [];
  },
  summary(ctx) {
    const { view } = ctx;
    if (!view.last_deal) return null;
    const { points, moon } = view.last_deal;
    const rows = [["", ...points.map((_, seat) => seatName(ctx, seat))], ["Points", ...points.map(String)]];
    const body = h("div", {}, simpleTable(rows, "Points taken last deal"));
    const record = (view.history || [])[view.history.length - 1];
    if (record && record.queen !== null && record.queen !== undefined) body.append(h("p", { class: "queen-note", text: `${seatName(ctx, record.queen)} took the Q♠.` }));
    if (moon !== null && moon !== undefined) body.prepend(h("p", { class: "moon", text: `${seatName(ctx, moon)} shot the moon!` }));
    // The deal's final trick, which the next deal took off the table at once.
    const final = view.final_trick;
    if (final) {
      const caption = `${seatName(ctx, final.winner)} took the last trick`;
      body.prepend(h("p", { class: "final-trick-caption", text: caption }), h("div", { class: "summary-trick final-trick" }, trickNode(ctx, final.cards, { winner: final.winner, caption })));
    }
    return { key: `hearts-${view.deal_number}-${view.phase === "over"}`, title: view.phase === "over" ? "The last deal" : `Deal ${view.deal_number - 1} is over`, body };
  },
  resultNote(ctx) {
    const s = this.summary(ctx);
    return s ? s.body : null;
  },
};
