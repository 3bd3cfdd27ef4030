// Animations that tell the story: the deal flying to the hand, the trick gathered
// toward the seat that took it as it leaves the table, and the passed cards sliding
// in from the seat that passed them. Each runs at the player's speed and none runs
// when the player turned animations off or their system asks for less motion
// (settings.animationTime gives 0). Drawing only: every fact comes from the view.

import { animationTime } from "./settings.js";

/** How many of each animation ran on this page ({deal, gather, pass}), for tests. */
export const counts = { deal: 0, gather: 0, pass: 0 };

const $ = (id) => document.getElementById(id);

function centre(node) {
  const r = node.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}

function seatNode(seat) {
  return $("seats").querySelector(`.seat[data-seat="${seat}"]`);
}

/**
 * Before the felt is redrawn: the finished trick now on it, with where each card is and
 * which seat took it, so that `after` can gather it if the new state took it away.
 */
export function before() {
  const trick = $("center").querySelector(".trick.faded");
  if (!trick) return null;
  const winner = trick.querySelector(".card.winner");
  if (!winner) return null;
  const cards = [...trick.querySelectorAll(".card")].map((node) => ({ node: node.cloneNode(true), rect: node.getBoundingClientRect() }));
  return { key: cards.map((c) => c.node.dataset.card).join(","), winner: Number(winner.dataset.seat), cards };
}

/** The trick that left the felt flies, smaller and fading, to the seat that took it. */
function gather(old) {
  const still = $("center").querySelector(".trick.faded");
  const stillKey = still ? [...still.querySelectorAll(".card")].map((n) => n.dataset.card).join(",") : null;
  const seat = seatNode(old.winner);
  const duration = animationTime(520);
  if (!old || stillKey === old.key || !seat || !duration) return;
  const to = centre(seat);
  const layer = document.createElement("div");
  layer.className = "fly-layer";
  document.body.append(layer);
  counts.gather += 1;
  let left = old.cards.length;
  for (const { node, rect } of old.cards) {
    node.style.cssText = `position:fixed;left:${rect.left}px;top:${rect.top}px;width:${rect.width}px;height:${rect.height}px;transform:none;margin:0;--card-w:${rect.width}px`;
    layer.append(node);
    const dx = to.x - (rect.left + rect.width / 2);
    const dy = to.y - (rect.top + rect.height / 2);
    const run = node.animate(
      [{ transform: "none", opacity: 0.9 }, { transform: `translate(${dx}px, ${dy}px) scale(0.35)`, opacity: 0 }],
      { duration, easing: "cubic-bezier(.4,0,.6,1)", fill: "forwards" },
    );
    run.onfinish = () => {
      left -= 1;
      if (!left) layer.remove();
    };
  }
}

/** The cards of a new deal fly to the hand from the dealer's seat, one after the other. */
function deal(ctx) {
  const cards = [...$("hand").querySelectorAll("button.card")];
  const dealer = ctx.view.dealer !== undefined && ctx.view.dealer !== null ? seatNode(ctx.view.dealer) : null;
  const duration = animationTime(380);
  if (!cards.length || !duration) return;
  const from = dealer ? centre(dealer) : centre($("felt"));
  counts.deal += 1;
  const step = animationTime(45);
  cards.forEach((card, i) => {
    const at = centre(card);
    card.firstElementChild?.animate(
      [{ transform: `translate(${from.x - at.x}px, ${from.y - at.y}px) scale(0.4)`, opacity: 0 }, { transform: "none", opacity: 1 }],
      { duration, delay: i * step, easing: "cubic-bezier(.2,.8,.2,1)", fill: "backwards" },
    );
  });
}

/** The cards passed to you slide into your hand from the seat that passed them. */
function pass(ctx) {
  const giver = ctx.view.received_from;
  const seat = giver !== null && giver !== undefined ? seatNode(giver) : null;
  const cards = [...$("hand").querySelectorAll("button.card.mark-received")];
  const duration = animationTime(650);
  if (!seat || !cards.length || !duration) return;
  const from = centre(seat);
  counts.pass += 1;
  for (const card of cards) {
    const at = centre(card);
    card.firstElementChild?.animate(
      [{ transform: `translate(${from.x - at.x}px, ${from.y - at.y}px) scale(0.5)`, opacity: 0.2 }, { transform: "none", opacity: 1 }],
      { duration, easing: "cubic-bezier(.2,.8,.2,1)" },
    );
  }
}

/** After a state is drawn: run what tells what just happened (`old` from `before`). */
export function after(ctx, old, first) {
  if (first || !ctx.view) return;
  if (old) gather(old);
  const prev = ctx.prev;
  if (!prev || prev.deal_number !== ctx.view.deal_number) deal(ctx);
  else if (prev.phase === "pass" && ctx.view.phase !== "pass" && ctx.view.received) pass(ctx);
}
