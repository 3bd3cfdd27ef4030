// The review in the replay: each player's costliest decisions, as the search weighed them after
// the game (GET /api/tables/{id}/games/{n}/review/, docs/review.md), each a button that jumps
// the replay to that move. The server decides whose reviews this visitor may see; this module
// only draws them. The replay calls `showReview` once its frames are loaded.

import { api } from "./client.js";
import { moveWords } from "./movelog.js";
import { h, seatName } from "./layout.js";

const POLL_MS = 4000;
let observing = false;

function unitWords(review, value) {
  if (review.unit === "win chance") return `${Math.round(value * 100)}%`;
  const sign = value > 0 ? "+" : "";
  return `${sign}${value.toFixed(1)} points`;
}

/** One mistake as a sentence: "You played K♠: expected +4.1 points by the deal's end; 3♣ expected +0.6 points (...)". */
export function mistakeText(ctx, review, mistake, who) {
  const mine = mistake.moves.find((m) => JSON.stringify(m.move) === JSON.stringify(mistake.chosen));
  const best = mistake.moves[0];
  const verb = review.unit === "win chance" ? "chance to win" : "expected";
  const when = review.unit === "win chance" ? "" : " by the deal's end";
  const chosen = `${who} ${moveWords(ctx, mistake.chosen)}: ${verb} ${unitWords(review, mine ? mine.points : 0)}${when}`;
  const better = `${moveWords(ctx, best.move).replace(/^played /, "")} ${verb} ${unitWords(review, best.points)}`;
  const cost = review.unit === "win chance" ? `${Math.round(mistake.cost * 100)}% less likely to win` : `costs ${mistake.cost.toFixed(1)} ± ${mistake.cost_se.toFixed(1)} points against the others`;
  return `${chosen}; ${better} (${cost}).`;
}

/** Jump the replay to `step`; on a phone, close the drawer so the table shows the move. */
function jump(go, step) {
  go(step);
  const side = document.getElementById("side");
  if (side && side.classList.contains("open")) document.getElementById("side-close").click();
}

function seatReview(ctxAt, review, yours, go) {
  const ctx = ctxAt(0);
  const name = yours ? "You" : seatName(ctx, review.seat);
  const box = h("section", { class: "rv-seat", "data-seat": String(review.seat), "data-status": review.status });
  box.append(h("h3", { text: yours ? `Your review (${seatName(ctx, review.seat)})` : `${name}'s review` }));
  if (review.status !== "done") {
    const why = review.status === "failed" ? `The review could not be made: ${review.message}` : "The review is being made: it appears here when it is ready.";
    box.append(h("p", { class: "hint", text: why }));
    return box;
  }
  const average = review.average_cost === null ? "" : `, on average ${unitWords(review, review.average_cost).replace(/^\+/, "")} lost a decision`;
  box.append(h("p", { text: `${review.reviewed} decisions weighed, ${review.mistake_count} clear mistake${review.mistake_count === 1 ? "" : "s"}${average}.` }));
  if (!review.mistakes.length) {
    box.append(h("p", { class: "hint", text: "No move was clearly worse than the best, beyond the search's noise." }));
    return box;
  }
  const list = h("ol", { class: "rv-mistakes" });
  for (const mistake of review.mistakes) {
    const text = mistakeText(ctxAt(mistake.step), review, mistake, name);
    list.append(h("li", {}, h("button", { type: "button", class: "btn small ghost rv-jump", "data-step": String(mistake.step), onclick: () => jump(go, mistake.step) }, `Move ${mistake.step}`), " ", h("span", { class: "rv-text", text })));
  }
  box.append(list);
  return box;
}

function mark(panel) {
  const step = document.body.dataset.step;
  for (const button of panel.querySelectorAll(".rv-jump")) {
    if (button.dataset.step === step) button.setAttribute("aria-current", "step");
    else button.removeAttribute("aria-current");
  }
}

/** Fetch the game's reviews and draw them in `panel`; `go(step)` moves the replay, `ctxAt(step)` its context. */
export async function showReview(url, panel, ctxAt, go) {
  if (!url || !panel) return;
  let body;
  try {
    body = await api(url);
  } catch (error) {
    panel.replaceChildren(h("p", { class: "hint", text: `No review: ${error.message}` }));
    return;
  }
  const yours = new Set(body.your_seats);
  const parts = body.reviews.map((review) => seatReview(ctxAt, review, yours.has(review.seat), go));
  if (!parts.length) parts.push(h("p", { class: "hint", text: "Nobody you can see was reviewed in this game." }));
  if (body.hidden_seats.length) parts.push(h("p", { class: "hint", text: "The other players' reviews open to everyone once the table's play is over." }));
  panel.replaceChildren(...parts);
  document.body.dataset.review = body.reviews.every((r) => r.status === "done" || r.status === "failed") ? "ready" : "pending";
  mark(panel);
  if (!observing) {
    observing = true;
    new MutationObserver(() => mark(panel)).observe(document.body, { attributes: true, attributeFilter: ["data-step"] });
  }
  if (document.body.dataset.review === "pending") setTimeout(() => showReview(url, panel, ctxAt, go), POLL_MS);
}
