// The seats around the felt: names, bots, presence, card backs, whose turn,
// and before the game the "Sit here", "Move here", "Remove bot" buttons.

import { backSvg, cardCorner, cardList, cardShort, isFrench, tableCard } from "./cards.js";
import { h, replaceKeeping, seatName, seatPoint } from "./layout.js";

function backsNode(count, name) {
  // No cards: nothing to draw (a lone "0" bubble read as a score), said to screen readers only.
  if (!count) return h("span", { class: "visually-hidden", text: `${name} holds no cards` });
  const box = h("div", { class: "backs", role: "img", "aria-label": `${name} holds ${count} card${count === 1 ? "" : "s"}` });
  const shown = Math.min(count, 7);
  for (let i = 0; i < shown; i++) {
    const back = h("div", { class: "mini-back", style: { "--i": i, "--n": shown } });
    back.append(backSvg());
    box.append(back);
  }
  box.append(h("span", { class: "count", "aria-hidden": "true", text: String(count) }));
  return box;
}

function faceUpHand(cards, name) {
  const box = h("div", { class: "face-up-hand", role: "group", "aria-label": `${name} holds ${cards.length ? cardList(cards) : "no cards"}` });
  for (const card of cards) {
    const node = tableCard(card, `rp-card ${isFrench(card) && "DH".includes(card[1]) ? "red-card" : "black-card"}`);
    // A phone shows the card as text, large enough to read (a card of another deck: its value).
    node.dataset.short = isFrench(card) ? cardShort(card) : cardCorner(card);
    box.append(node);
  }
  return box;
}

function controls(ctx, info, send) {
  const { table, you } = ctx;
  if (table.status !== "waiting") return null;
  const box = h("div", { class: "seat-controls" });
  const seat = info.seat;
  if (info.kind === "empty" && ctx.player) {
    if (you.seat === null || you.seat === undefined) {
      box.append(h("button", { type: "button", class: "btn small primary", onclick: () => send({ type: "sit", seat }), text: "Sit here" }));
    } else {
      // Changing seats before the start: stand up, then sit down here.
      const move = () => {
        send({ type: "stand" });
        send({ type: "sit", seat });
      };
      box.append(h("button", { type: "button", class: "btn small", onclick: move, text: "Move here" }));
    }
  } else if (info.kind === "bot" && you.host) {
    box.append(h("button", { type: "button", class: "btn small", onclick: () => send({ type: "unbot", seat }), text: "Remove bot" }));
  } else if (info.kind === "human" && seat === you.seat) {
    box.append(h("button", { type: "button", class: "btn small ghost", onclick: () => send({ type: "stand" }), text: "Leave seat" }));
  }
  return box.childElementCount ? box : null;
}

/**
 * The host's "Fill with bots" control: a level and one button that fills every empty seat.
 * The levels are the game's `bot_levels` (GET /api/games/), the ones the server accepts.
 */
export function fillControl(ctx, send) {
  const empty = ctx.table.seats.filter((s) => s.kind === "empty");
  const levels = ctx.info ? ctx.info.bot_levels : [];
  if (!ctx.you.host || ctx.table.status !== "waiting" || !empty.length || !levels.length) return null;
  const select = h("select", { id: "fill-level", class: "level" });
  for (const level of levels) select.add(new Option(level, level, level === "normal", level === "normal"));
  const fill = () => {
    for (const info of ctx.table.seats) if (info.kind === "empty") send({ type: "bot", seat: info.seat, level: select.value });
  };
  return h(
    "span",
    { class: "fill-bots" },
    h("label", { for: "fill-level", text: "Bot level" }),
    select,
    h("button", { type: "button", class: "btn", onclick: fill, text: "Fill with bots" }),
  );
}

/** Draw every seat onto `root`; `bubble(seat)` gives the last move's label for a seat. */
export function renderSeats(root, ctx, send, game) {
  const { table, view } = ctx;
  const turnSeats = new Set(table.status === "playing" ? ctx.toAct : []);
  const drawn = [];
  for (const info of table.seats) {
    const seat = info.seat;
    const mine = ctx.seated && seat === ctx.me;
    const p = seatPoint(seat, ctx.me, ctx.players, 41, 40);
    const name = info.kind === "empty" ? "Empty seat" : seatName({ ...ctx, seated: false }, seat);
    const classes = ["seat", `kind-${info.kind}`];
    if (turnSeats.has(seat)) classes.push("turn");
    if (mine) classes.push("mine");
    if (p.y > 80) classes.push("at-bottom");
    else if (p.y < 20) classes.push("at-top");
    else classes.push(p.x < 50 ? "at-left" : "at-right");
    const labelParts = [`Seat ${seat + 1}`, name];
    if (info.kind === "bot") labelParts.push(`bot, ${info.level}`);
    if (info.kind === "human") labelParts.push(info.connected ? "connected" : "away");
    if (turnSeats.has(seat)) labelParts.push("to play");
    const node = h("div", {
      class: classes.join(" "),
      role: "group",
      "aria-label": labelParts.join(", "),
      "data-seat": seat,
      style: { left: `${p.x}%`, top: `${p.y}%` },
    });
    const plate = h("div", { class: "plate" });
    if (info.kind === "human") {
      plate.append(h("span", { class: `dot ${info.connected ? "on" : "off"}`, title: info.connected ? "connected" : "away" }));
    }
    const shown = mine ? `${name} (you)` : name;
    // A registered player's name opens their page (in a new tab: the game goes on here).
    if (info.page && !ctx.hands) {
      plate.append(h("a", { class: "seat-name", href: info.page, target: "_blank", rel: "noopener", text: shown }));
    } else {
      plate.append(h("span", { class: "seat-name", text: shown }));
    }
    if (info.kind === "bot") plate.append(h("span", { class: "badge", text: info.level }));
    if (info.kind === "human" && !info.connected) plate.append(h("span", { class: "badge away", text: "away" }));
    if (view && view.dealer === seat) plate.append(h("span", { class: "dealer", title: "dealer", "aria-label": "dealer", text: "D" }));
    // A game whose seat already shows its score (a bundle's size) leaves it off the plate.
    if (view && game.plateScore !== false && Array.isArray(view.scores) && view.scores[seat] !== undefined && view.scores[seat] !== null) {
      plate.append(h("span", { class: "seat-score", "aria-label": `score ${view.scores[seat]}`, text: String(view.scores[seat]) }));
    }
    // A game's word on the plate itself (a RECYCLE game's team), so it never strays from the name.
    const tag = view && game.plateTag ? game.plateTag(ctx, seat) : null;
    if (tag) plate.append(tag);
    node.append(plate);
    // The replay shows every hand face up; the live table, others' hands as backs.
    if (ctx.hands) node.append(faceUpHand(ctx.hands[seat] || [], name));
    else if (view && !mine && Array.isArray(view.hand_counts)) node.append(backsNode(view.hand_counts[seat] || 0, name));
    if (ctx.hands) node.classList.add("rp-seat");
    const extra = view && game.seatExtra ? game.seatExtra(ctx, seat) : null;
    if (extra) node.append(extra);
    const last = view && view.last;
    if (last && last.seat === seat && table.status === "playing") {
      const label = game.bubble ? game.bubble(last.move, ctx) : "";
      if (label) node.append(h("div", { class: `bubble${ctx.freshLast ? " fresh" : ""}`, "aria-hidden": "true", text: label }));
    }
    const ctl = controls(ctx, info, send);
    if (ctl) node.append(ctl);
    drawn.push(node);
  }
  // A seat drawn as before stays the same node: a click on its buttons survives a redraw.
  replaceKeeping(root, drawn);
}
