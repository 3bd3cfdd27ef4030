// A finished game's replay, drawn with the table's own code in a read-only mode:
// the same felt, seats (every hand face up), centre and summaries, one state at a
// time. The server rebuilt each state with the game module (GET the page's
// data-json); this module only picks the frame to draw. No rule lives here.

import { cardName, installSuitSymbols } from "./cards.js";
import { classify } from "./hand.js";
import { h, listWords, seatName } from "./layout.js";
import { renderScores, setupDrawer } from "./panels.js";
import { showSummary } from "./sheet.js";
import { renderSeats } from "./seats.js";
import { layoutFor, layoutName } from "./games/index.js";
import { showReview } from "./review.js";

const $ = (id) => document.getElementById(id);
const root = $("replay");
const slider = $("step");
const label = $("step-label");
const dealSelect = $("deal-select");
let data = null;
let table = null;
let step = 0;
let summaryShown = null;

/** The table as the live page knew it: seats named as the table named them. */
function tableOf(body) {
  return {
    id: body.table,
    game: body.game,
    status: "playing",
    options: body.options,
    seats: body.seats.map((s, i) => ({ seat: i, name: s.name, kind: s.kind, level: s.level, connected: true })),
  };
}

function ctxAt(index) {
  const frame = data.frames[index];
  const game = layoutFor(data.game);
  return {
    table,
    you: { seat: null, host: false },
    view: frame.view,
    game,
    legal: [],
    toAct: frame.to_act,
    me: 0,
    seated: false,
    players: data.players,
    player: null,
    info: { name: data.name, goal: "" },
    prev: index ? data.frames[index - 1].view : null,
    version: index,
    moves: classify([]),
    freshLast: false,
    hands: frame.hands,
  };
}

/** What the move of this frame was, in words: "Bot 2 played Queen of spades." */
function moveText(ctx, frame) {
  if (frame.seat === null) return frame.step ? "" : "The deal, before any move";
  const who = seatName(ctx, frame.seat);
  const move = frame.move || {};
  let text = ctx.game.describe ? ctx.game.describe(move, ctx) : null;
  if (!text && typeof move.play === "string") text = `played ${cardName(move.play)}`;
  if (!text) text = ctx.game.moveLabel ? ctx.game.moveLabel(move, ctx) : JSON.stringify(move);
  const by = frame.by === "stand_in" ? " (a bot standing in)" : frame.by === "admin" ? " (staff)" : "";
  return `${who} ${text}${by}`;
}

function points(n) {
  return `${n} ${Math.abs(n) === 1 ? "point" : "points"}`;
}

/** "Ann won with 3 points; Bot 2 had 1 point and Bot 3 had 0 points." */
export function resultWords(ctx, result) {
  const winners = result.winners || [];
  if (!winners.length) return `Scores: ${listWords(result.scores.map((n, s) => `${seatName(ctx, s)} ${points(n)}`))}.`;
  const names = winners.map((s) => seatName(ctx, s));
  const each = winners.length > 1 ? " each" : "";
  let text = `${listWords(names)} won with ${points(result.scores[winners[0]])}${each}`;
  const others = result.scores.map((_, s) => s).filter((s) => !winners.includes(s));
  if (others.length) text += `; ${listWords(others.map((s) => `${seatName(ctx, s)} had ${points(result.scores[s])}`))}`;
  return `${text}.`;
}

function meta(ctx) {
  const box = $("game-meta");
  const names = table.seats.map((s) => seatName(ctx, s.seat) + (s.kind === "bot" ? ` (bot, ${s.level})` : ""));
  const result = data.result;
  box.replaceChildren(
    h("p", {}, `Players: ${names.join(" · ")}.`),
    h("p", {}, result ? resultWords(ctx, result) : "Ended by staff before the game was over."),
  );
}

function render() {
  const frame = data.frames[step];
  const ctx = ctxAt(step);
  const last = data.frames.length - 1;
  slider.value = String(step);
  label.textContent = `move ${step} of ${last}, deal ${frame.deal} of ${data.deals.length}`;
  dealSelect.value = String(frame.deal);
  document.body.dataset.step = String(step);
  renderSeats($("seats"), ctx, () => {}, ctx.game);
  const center = $("center");
  center.replaceChildren(ctx.game.center(ctx));
  const headline = center.querySelector(".felt-info");
  $("felt-info").replaceChildren(...(headline ? [headline] : []));
  $("below").replaceChildren(...(ctx.game.below ? [ctx.game.below(ctx)] : []));
  renderScores($("scores"), ctx);
  const text = moveText(ctx, frame);
  const next = frame.to_act.length ? `${frame.to_act.map((s) => seatName(ctx, s)).join(", ")} to play` : "The end";
  $("turn-banner").textContent = [text, next].filter(Boolean).join(" · ");
  // A deal's summary shows on the frame where it first appears, as the table showed it.
  const summary = ctx.game.summary ? ctx.game.summary(ctx) : null;
  const before = step ? (ctx.game.summary ? ctx.game.summary(ctxAt(step - 1)) : null) : null;
  const fresh = summary && (!before || before.key !== summary.key);
  if (fresh && summaryShown !== summary.key) showSummary($("summary"), summary, () => showSummary($("summary"), null));
  else if (!fresh) showSummary($("summary"), null);
  summaryShown = fresh ? summary.key : null;
  $("replay-status").textContent = label.textContent;
  history.replaceState(null, "", `#step=${step}`);
}

function go(to) {
  step = Math.max(0, Math.min(data.frames.length - 1, to));
  render();
}

/** The next (or previous) frame where a trick was completed, or a new deal began. */
function trickStep(direction) {
  const tricks = (i) => `${data.frames[i].deal}:${data.frames[i].view.tricks_played}`;
  let i = step;
  const here = tricks(i);
  while (i + direction >= 0 && i + direction < data.frames.length) {
    i += direction;
    if (tricks(i) !== here) {
      if (direction < 0) {
        // Back to the first frame of that trick.
        const there = tricks(i);
        while (i > 0 && tricks(i - 1) === there) i -= 1;
      }
      return i;
    }
  }
  return i;
}

function dealStep(direction) {
  const deal = data.frames[step].deal;
  const target = direction > 0 ? deal + 1 : step === data.deals[deal - 1].step ? deal - 1 : deal;
  if (target < 1) return 0;
  if (target > data.deals.length) return data.frames.length - 1;
  return data.deals[target - 1].step;
}

const moves = {
  start: () => go(0),
  back: () => go(step - 1),
  forward: () => go(step + 1),
  end: () => go(data.frames.length - 1),
  "trick-back": () => go(trickStep(-1)),
  "trick-forward": () => go(trickStep(1)),
  "deal-back": () => go(dealStep(-1)),
  "deal-forward": () => go(dealStep(1)),
};

async function main() {
  installSuitSymbols();
  setupDrawer();
  const response = await fetch(root.dataset.json, { headers: { Accept: "application/json" } });
  const body = await response.json();
  if (!response.ok) {
    $("replay-status").textContent = body.error ? body.error.message : "the replay could not be loaded";
    label.textContent = $("replay-status").textContent;
    return;
  }
  data = body;
  table = tableOf(data);
  document.body.dataset.game = data.game;
  document.body.dataset.layout = layoutName(data.game);
  const hasTricks = data.frames.some((f) => f.view && f.view.tricks_played !== undefined);
  for (const button of root.querySelectorAll("[data-trick]")) button.hidden = !hasTricks;
  slider.max = String(data.frames.length - 1);
  for (const deal of data.deals) dealSelect.append(h("option", { value: String(deal.deal), text: `${deal.deal} (move ${deal.step})` }));
  dealSelect.addEventListener("change", () => go(data.deals[Number(dealSelect.value) - 1].step));
  slider.addEventListener("input", () => go(Number(slider.value)));
  for (const button of root.querySelectorAll("[data-go]")) button.addEventListener("click", () => moves[button.dataset.go]());
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, select, textarea")) return;
    const key = { ArrowLeft: "back", ArrowRight: "forward", Home: "start", End: "end", PageUp: "deal-back", PageDown: "deal-forward" }[event.key];
    if (key) {
      event.preventDefault();
      moves[key]();
    }
  });
  meta(ctxAt(0));
  const toReview = location.hash === "#review"; // a link to the review (a player's page)
  const wanted = /step=(\d+)/.exec(location.hash);
  go(wanted ? Number(wanted[1]) : 0);
  showReview(root.dataset.review, $("review"), ctxAt, go);
  if (toReview) document.querySelector('#panel-tabs .tab[data-panel="review-panel"]')?.click();
}

main().catch((error) => {
  label.textContent = `the replay could not be loaded: ${error.message}`;
});
