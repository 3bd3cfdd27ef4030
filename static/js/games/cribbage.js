// Cribbage's table: the start card, the crib, the running count and the cards
// of this count, a pegging track; between deals, the itemised show.

import { cardList, cardShort, tableBack, tableCard } from "../cards.js";
import { bigNumber, cardRow, h, seatName, stackNode } from "../layout.js";

const SVG = "http://www.w3.org/2000/svg";
const PEG_COLOURS = ["#e8b923", "#5fb4ff", "#ff7a7a"];

function sideName(ctx, side) {
  return ctx.view.sides[side].map((s) => seatName(ctx, s)).join(" & ");
}

function svgEl(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.append(node);
  return node;
}

/**
 * A cribbage board: each side's track runs out along one lane and back along the
 * next (target / 2 holes a lane, in fives), to a last hole for the target.
 * Numbers every 5 (every 10 stay on a phone); two pegs a side, the front at the
 * score and the back where the front stood before its latest points.
 */
function board(ctx) {
  const { view } = ctx;
  const target = view.target;
  const lane = Math.floor(target / 2); // holes per lane: 30 or 60
  const step = 9;
  const gap = 6; // between groups of five
  const left = 22;
  const xOf = (i) => left + (i - 1) * step + Math.floor((i - 1) / 5) * gap; // i = 1..lane
  const width = xOf(lane) + 22;
  const laneH = 11;
  const sides = view.sides.length;
  const top = 16;
  const height = top + sides * (2 * laneH + 6) + 14;
  const svg = svgEl("svg", { viewBox: `0 0 ${width} ${height}`, class: "board-svg", "aria-hidden": "true", preserveAspectRatio: "xMidYMid meet" });
  // Hole n (1..target-1) of a side: out along its first lane, back along its second.
  const spot = (n, y0) => {
    if (n <= 0) return { x: left - 12, y: y0 };
    if (n >= target) return { x: left - 12, y: y0 + laneH };
    if (n <= lane) return { x: xOf(n), y: y0 };
    return { x: xOf(2 * lane + 1 - n), y: y0 + laneH };
  };
  for (let i = 5; i <= lane; i += 5) {
    const out = svgEl("text", { x: xOf(i), y: top - 5, class: `board-num${i % 10 ? " five" : ""}`, "text-anchor": "middle" }, svg);
    out.textContent = String(i);
    const back = svgEl("text", { x: xOf(lane + 1 - i), y: height - 3, class: `board-num${i % 10 ? " five" : ""}`, "text-anchor": "middle" }, svg);
    back.textContent = String(lane + i);
  }
  const pegs = view.pegs || view.sides.map((seats) => [view.scores[seats[0]], view.scores[seats[0]]]);
  view.sides.forEach((seats, side) => {
    const y0 = top + 4 + side * (2 * laneH + 6);
    svgEl("rect", { x: 4, y: y0 - 6, width: width - 8, height: 2 * laneH + 1, rx: 6, class: "board-track" }, svg);
    for (let n = 1; n < target; n++) {
      const p = spot(n, y0);
      svgEl("circle", { cx: p.x, cy: p.y, r: 1.8, class: "hole" }, svg);
    }
    const end = spot(target, y0);
    svgEl("circle", { cx: end.x, cy: end.y, r: 3, class: "hole finish" }, svg);
    const [back, front] = pegs[side];
    const colour = PEG_COLOURS[side];
    const b = spot(back, y0);
    svgEl("circle", { cx: b.x, cy: b.y, r: 3.6, fill: "none", stroke: colour, "stroke-width": 2, class: "peg back", "data-side": side, "data-hole": back }, svg);
    const f = spot(front, y0);
    svgEl("circle", { cx: f.x, cy: f.y, r: 4.4, fill: colour, class: "peg front", "data-side": side, "data-hole": front }, svg);
  });
  const label = view.sides.map((seats, side) => `${sideName(ctx, side)} ${pegs[side][1]} (back peg ${pegs[side][0]})`).join(", ");
  const legend = h(
    "div",
    { class: "board-legend", "aria-hidden": "true" },
    ...view.sides.map((seats, side) =>
      h("span", {}, h("i", { style: { background: PEG_COLOURS[side] } }), `${sideName(ctx, side)} ${view.scores[seats[0]]}`),
    ),
    h("span", { class: "board-target" }, `${target} to win`),
  );
  return h("div", { class: "board", role: "img", "aria-label": `Board to ${target}: ${label}` }, svg, legend);
}

/**
 * The cards of a count in play order, each with what it pegged above it; the line
 * saying how a finished count ended sits under the cards, in the flow (not over them).
 */
function countPile(ctx, cards, finished) {
  const label = finished ? "The count just finished" : "Cards in this count";
  const pile = h("div", { class: `count-pile${finished ? " finished" : ""}`, role: "group", "aria-label": label });
  const row = h("div", { class: "count-cards" });
  pile.append(row);
  cards.forEach(({ seat, card, count, pegged }) => {
    const node = tableCard(card);
    const scored = (pegged || []).map((p) => `${p.kind} ${p.points}`).join(", ");
    node.setAttribute("aria-label", `${seatName(ctx, seat)}: ${node.getAttribute("aria-label")}, count ${count}${scored ? `, ${scored}` : ""}`);
    node.dataset.seat = seat;
    const points = (pegged || []).reduce((sum, p) => sum + p.points, 0);
    if (points) node.append(h("span", { class: "peg-badge", title: scored, "aria-hidden": "true", text: `+${points}` }));
    row.append(node);
  });
  if (finished) {
    const last = cards[cards.length - 1];
    const go = finished.go;
    let text = last ? `Count over at ${last.count}` : "Count over";
    if (go) text += ` · ${seatName(ctx, go.seat)}: ${go.kind} ${go.points}`;
    pile.append(h("span", { class: "count-over", text }));
  }
  return pile;
}

function peggedText(ctx) {
  const { view } = ctx;
  if (!view.pegged || !view.pegged.length) return "";
  const who = seatName(ctx, view.pegged[0].seat);
  return `${who}: ${view.pegged.map((p) => `${p.kind} ${p.points}`).join(", ")}`;
}

function showTable(ctx, entry) {
  const owner = seatName(ctx, entry.seat);
  const whose = owner === "You" ? "Your" : `${owner}'s`;
  const title = entry.crib ? `${whose} crib` : `${whose} hand`;
  const list = h("ul", { class: "show-items" });
  for (const item of entry.items) {
    list.append(h("li", {}, h("span", { class: "item-kind", text: item.kind }), " ", h("span", { class: "item-cards", text: item.cards.map(cardShort).join(" ") }), h("span", { class: "item-points", text: String(item.points) })));
  }
  if (!entry.items.length) list.append(h("li", { class: "hint", text: "Nothing scores: 0 points" }));
  return h(
    "div",
    { class: "show-hand" },
    h("h3", {}, `${title}: ${entry.total}`),
    cardRow([...entry.cards, entry.start], `${title}: ${cardList(entry.cards)}, start card ${cardShort(entry.start)}`, "small show-cards"),
    list,
  );
}

export default {
  center(ctx) {
    const { view } = ctx;
    const dealer = seatName(ctx, view.dealer);
    const start = view.start ? tableCard(view.start, "start-card") : tableBack("Start card not cut yet", "start-card");
    const cut = h("div", { class: "labelled" }, start, h("span", { class: "stack-label", text: "Start" }));
    const crib = stackNode(view.crib_size, `${dealer === "You" ? "Your" : `${dealer}'s`} crib`, "crib");
    const top = h("div", { class: "pile-row crib-row" }, crib, cut);
    const parts = [h("div", { class: "felt-info" }, `Deal ${view.deal_number} · ${view.phase === "discard" ? "discard to the crib" : view.phase}`), top];
    if (view.phase === "play" || (view.phase === "show" && view.last_count)) {
      // The count in play; between counts, the one just finished stays until the next begins.
      const current = view.count_cards || [];
      const finished = !current.length && view.last_count ? view.last_count : null;
      const cards = finished ? finished.cards : current;
      if (view.phase === "play") top.append(bigNumber("Count", view.count));
      parts.push(countPile(ctx, cards, finished));
    }
    // What the last move pegged, unless the finished count beside it says so already.
    const pegged = peggedText(ctx);
    const shownGo = !(view.count_cards || []).length && view.last_count && view.last_count.go;
    const onlyGo = shownGo && (view.pegged || []).every((p) => p.kind === "go" || p.kind === "last card");
    if (pegged && !onlyGo) parts.push(h("p", { class: "felt-note", text: pegged }));
    // crib-felt: on a wide felt the crib, start and count sit in one row beside the count's cards.
    return h("div", { class: "center-stack crib-felt" }, ...parts);
  },
  below(ctx) {
    return board(ctx);
  },
  /** The moment a first-game tip may explain (tips.js; the words are the game's). */
  moment(ctx) {
    const { view } = ctx;
    if (view.phase === "discard" && ctx.moves.multi.key) return "crib";
    if (ctx.moves.others.some((move) => move.go)) return "go";
    if (view.phase === "show" && view.show && view.show.length) return "show";
    return null;
  },
  seatExtra(ctx, seat) {
    const { view } = ctx;
    if (view.phase === "discard" && !view.to_discard.includes(seat)) return h("span", { class: "tag ok", text: "discarded" });
    if (view.phase === "play" && view.gone.includes(seat)) return h("span", { class: "tag", text: "go" });
    return null;
  },
  bubble(move) {
    if (move.play) return cardShort(move.play);
    if (move.go) return "Go";
    if (move.next) return "Next deal";
    if (move.discard !== undefined) return "To the crib";
    return "";
  },
  describe(move) {
    if (move.go) return "said go";
    if (move.next) return "gathered the cards";
    if (move.discard !== undefined) return Array.isArray(move.discard) ? `put ${cardList(move.discard)} in the crib` : `put ${move.discard} card${move.discard > 1 ? "s" : ""} in the crib`;
    return null;
  },
  moveLabel(move) {
    if (move.go) return "Go";
    if (move.next) return "Deal the next hand";
    return JSON.stringify(move);
  },
  chooseHint(multi, ctx) {
    const n = multi.moves[0][multi.key].length;
    const dealer = seatName(ctx, ctx.view.dealer);
    return `Your turn: choose ${n} card${n > 1 ? "s" : ""} for ${dealer === "You" ? "your" : `${dealer}'s`} crib`;
  },
  waitText(ctx, seat) {
    if (ctx.view.phase !== "show") return null;
    const name = seatName(ctx, seat);
    return `The show: ${name} ${name === "You" ? "deal" : "deals"} next`;
  },
  summary(ctx) {
    const { view } = ctx;
    if (!view.show || !view.show.length) return null;
    const body = h("div", { class: "show" }, ...view.show.map((entry) => showTable(ctx, entry)));
    return { key: `crib-${view.deal_number}`, title: "The show", again: "The show", body };
  },
  resultNote(ctx) {
    const s = this.summary(ctx);
    return s ? s.body : null;
  },
};
