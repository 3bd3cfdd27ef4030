// Geometry and small drawing helpers the game layouts share: where each seat
// sits around the felt, tricks, card rows. Drawing only, no rules.

import { cardName, tableBack, tableCard } from "./cards.js";

/** Element helper: h("div", {class: "x"}, child, "text"); children may come in nested arrays. */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) listen(node, key.slice(2), value);
    else if (key === "style" && typeof value === "object") Object.assign(node.style, value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// An h() node's listeners go through `node.handlers`, so that a node kept by
// replaceKeeping can take over the handlers of the node drawn to replace it.
function listen(node, type, handler) {
  if (!node.handlers) node.handlers = {};
  if (!(type in node.handlers)) node.addEventListener(type, (event) => node.handlers[type](event));
  node.handlers[type] = handler;
}

// Whether every control in `node` answers only through h()'s handlers: one with
// a listener of its own (a picker's) cannot be kept in place of a new one.
function adoptable(node) {
  const controls = node.matches("button, input, select, a") ? [node] : [];
  controls.push(...node.querySelectorAll("button, input, select, a"));
  return controls.every((control) => control.handlers || control.tagName === "A");
}

function adopt(kept, drawn) {
  for (const type of Object.keys(kept.handlers || {})) if (!drawn.handlers || !(type in drawn.handlers)) kept.handlers[type] = () => {};
  for (const [type, handler] of Object.entries(drawn.handlers || {})) listen(kept, type, handler);
  [...drawn.children].forEach((child, i) => adopt(kept.children[i], child));
}

/**
 * Put the `drawn` nodes in `root`, keeping each old node that is drawn the same
 * (it takes over the new one's handlers). A redraw that changes nothing (the
 * same state sent again) then neither loses a click between its press and its
 * release nor moves the keyboard focus.
 */
export function replaceKeeping(root, drawn) {
  const old = [...root.childNodes];
  if (old.length !== drawn.length) {
    root.replaceChildren(...drawn);
    return;
  }
  drawn.forEach((node, i) => {
    const same = old[i].isEqualNode(node) && (node.nodeType !== Node.ELEMENT_NODE || adoptable(node));
    if (same && node.nodeType === Node.ELEMENT_NODE) adopt(old[i], node);
    else if (!same) old[i].replaceWith(node);
  });
}

/**
 * Where a seat sits, seen from `me` at the bottom: the angle (degrees, screen
 * coordinates, 90 = bottom) and a point on an ellipse of radius r (percent).
 * Play goes to the left, so the next seat sits on the left.
 */
export function seatAngle(seat, me, players) {
  const k = (seat - me + players) % players;
  return 90 + (k * 360) / players;
}

export function seatPoint(seat, me, players, rx, ry = rx) {
  const a = (seatAngle(seat, me, players) * Math.PI) / 180;
  return { x: 50 + rx * Math.cos(a), y: 50 + ry * Math.sin(a) };
}

/** The seat's name for sentences: "You" for your own seat. */
export function seatName(ctx, seat) {
  if (seat === null || seat === undefined) return "";
  if (seat === ctx.me && ctx.seated) return "You";
  const info = ctx.table.seats[seat];
  // Bots share names ("Bot (normal)"): call them by seat, their level shows beside.
  if (info && info.kind === "bot") return `Bot ${seat + 1}`;
  return (info && info.name) || `Seat ${seat + 1}`;
}

/** Names as a sentence lists them: "Ann", "Ann and Bob", "Ann, Bob and Cy". */
export function listWords(names) {
  if (names.length < 2) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/**
 * Cards laid towards the seats that played them (a trick), each labelled with
 * its player for screen readers. `plays` is [{seat, card}] in play order.
 */
export function trickNode(ctx, plays, { winner = null, faded = false, caption = "" } = {}) {
  const box = h("div", { class: `trick${faded ? " faded" : ""}`, role: "group", "aria-label": caption || "The trick" });
  plays.forEach(({ seat, card }, i) => {
    const p = seatPoint(seat, ctx.me, ctx.players, 24, 26);
    const node = tableCard(card, seat === winner ? "winner" : "");
    node.setAttribute("aria-label", `${seatName(ctx, seat)}: ${cardName(card)}`);
    node.dataset.seat = seat;
    node.style.left = `${p.x}%`;
    node.style.top = `${p.y}%`;
    node.style.zIndex = String(i + 1);
    node.style.setProperty("--tilt", `${((seat * 37) % 11) - 5}deg`);
    box.append(node);
  });
  // Only a finished trick says who took it; the trick in play speaks for itself.
  if (caption && winner !== null) box.append(h("div", { class: "trick-caption", "aria-hidden": "true", text: caption }));
  return box;
}

/** A row of face-up cards, e.g. a pool or a crib in the show. */
export function cardRow(cards, label, extraClass = "") {
  const row = h("div", { class: `card-row ${extraClass}`.trim(), role: "group", "aria-label": label });
  for (const card of cards) row.append(tableCard(card));
  return row;
}

/** A small stack of backs with a count, e.g. a stock or a face-down crib. */
export function stackNode(count, label, extraClass = "") {
  const box = h("div", { class: `stack ${extraClass}`.trim(), role: "img", "aria-label": `${label}: ${count} card${count === 1 ? "" : "s"}` });
  const shown = Math.min(count, 4);
  for (let i = 0; i < shown; i++) {
    const back = tableBack("", "stacked");
    back.style.setProperty("--i", i);
    box.append(back);
  }
  if (!count) box.append(h("div", { class: "stack-empty", "aria-hidden": "true" }));
  box.append(h("span", { class: "stack-count", "aria-hidden": "true", text: String(count) }));
  box.append(h("span", { class: "stack-label", "aria-hidden": "true", text: label }));
  return box;
}

/** A labelled number on the felt: "Count 23", "Total 87". */
export function bigNumber(label, value, extraClass = "") {
  return h(
    "div",
    { class: `big-number ${extraClass}`.trim(), role: "status", "aria-label": `${label} ${value}` },
    h("span", { class: "big-label", "aria-hidden": "true", text: label }),
    h("span", { class: "big-value", "aria-hidden": "true", text: String(value) }),
  );
}

/** A simple table for summaries: rows of cells, the first row a header. */
export function simpleTable(rows, caption = "") {
  const table = h("table", { class: "mini-table" });
  if (caption) table.append(h("caption", { text: caption }));
  rows.forEach((row, i) => {
    const tr = h("tr");
    row.forEach((cell, j) => tr.append(h(i === 0 || j === 0 ? "th" : "td", i === 0 ? { scope: "col" } : {}, cell)));
    table.append(tr);
  });
  return table;
}
