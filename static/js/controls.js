// The table page's controls: the hand, the buttons under it and the tools beside the
// turn banner. They turn a person's clicks into one of the moves the server listed
// in `legal_moves`; table.js draws them again for each state.

import { cardName, cardShort } from "./cards.js";
import { chosenMove, classify, renderHand } from "./hand.js";
import { h, replaceKeeping, seatName, trickNode } from "./layout.js";
import { replayLink } from "./panels.js";
import { addHintMarks, forgetHint, hintButton, hintedMove } from "./hints.js";
import { showSummary } from "./sheet.js";
import { fillControl } from "./seats.js";
import { confirmPlays } from "./settings.js";
import { closeTip } from "./tips.js";

const CONFIRM = { pass: "Pass cards", discard: "Discard" };

const $ = (id) => document.getElementById(id);
// Given by table.js (setupControls): its page state, and how to send a message and a move.
let page = null;
let send = null;
let sendMove = null;

/** Take the page's state (table.js's `page`), `send(msg)` for any message and `sendMove(move)` for a move. */
export function setupControls(pageState, sendMessage, moveSender) {
  page = pageState;
  send = sendMessage;
  sendMove = moveSender;
}

/** Show a summary as the sheet (sheet.js); closing it leaves "Last deal" beside the banner to see it again. */
export function openSheet(summary) {
  showSummary($("summary"), summary, () => {
    showSummary($("summary"), null);
    renderTools(page.ctx);
  });
  renderTools(page.ctx);
}

function makeMove(move) {
  if (page.pending) return;
  page.pending = true;
  page.selected.clear();
  forgetHint();
  page.raised = null;
  closeTip();
  if (!$("summary").hidden) showSummary($("summary"), null);
  sendMove(move);
  drawHand(page.ctx);
  renderActions(page.ctx);
}

function chosen(ctx) {
  return chosenMove((ctx.view && ctx.view.hand) || [], ctx.moves.multi, page.selected);
}

export function drawHand(ctx) {
  const hand = (ctx && ctx.view && ctx.view.hand) || [];
  if (page.raised && !(ctx && (ctx.moves.plays.has(page.raised) || ctx.moves.places.has(page.raised)))) page.raised = null;
  const chosen = page.raised ? new Set([...page.selected, page.raised]) : page.selected;
  renderHand($("hand"), hand, ctx ? ctx.moves : classify([]), chosen, page.pending, onCard, handMarks(ctx));
  // One card raised, even where the hand holds two of its name (a deck repeating its cards).
  let raised = false;
  for (const button of $("hand").children) {
    const on = !raised && button.dataset.card === page.raised;
    raised = raised || on;
    button.classList.toggle("raised", on);
    if (!on && button.dataset.card === page.raised && !page.selected.has(page.raised)) button.classList.remove("selected");
  }
}

/** Cards to mark in the hand: the hint's card, else what the game marks (cards passed to you). */
function handMarks(ctx) {
  if (!ctx || !ctx.view) return null;
  const marks = (ctx.game.handMarks && ctx.game.handMarks(ctx)) || new Map();
  addHintMarks(ctx, marks);
  return marks;
}

function onCard(card) {
  const ctx = page.ctx;
  if (!ctx || page.pending) return;
  const { plays, places, multi } = ctx.moves;
  if (places.has(card)) {
    // A card with several places to go: a tap raises it and the buttons under the hand say
    // where it may go; a second tap lowers it.
    page.raised = page.raised === card ? null : card;
    drawHand(ctx);
    renderActions(ctx);
  } else if (plays.has(card) && confirmPlays() && page.raised !== card) {
    // A first tap raises the card; the second (or "Play") plays it: a misplaced finger costs nothing.
    page.raised = card;
    drawHand(ctx);
    renderActions(ctx);
  } else if (plays.has(card)) makeMove(plays.get(card));
  else if (multi.cards.has(card)) {
    if (page.selected.has(card)) page.selected.delete(card);
    else page.selected.add(card);
    drawHand(ctx);
    renderActions(ctx);
  }
}

/** A hint has come: a card-and-place move raises its card, so its place button (marked) shows. */
export function showHint(ctx) {
  const move = ctx && hintedMove(ctx);
  if (move && !page.pending) {
    const key = JSON.stringify(move);
    for (const [card, moves] of ctx.moves.places) {
      if (moves.some((m) => JSON.stringify(m) === key)) page.raised = card;
    }
  }
  drawHand(ctx);
  renderActions(ctx);
  renderTools(ctx);
}

/** Draw the actions bar; controls drawn the same as before stay the same nodes (replaceKeeping). */
export function renderActions(ctx) {
  replaceKeeping($("actions"), ctx ? actionNodes(ctx) : []);
}

/** What the actions bar holds for `ctx`: the start, the confirm of a chosen set, the move buttons. */
function actionNodes(ctx) {
  const nodes = [];
  const { table, you } = ctx;
  if (table.status === "waiting") {
    const empty = table.seats.filter((s) => s.kind === "empty").length;
    if (you.host && !empty) {
      nodes.push(h("button", { type: "button", class: "btn primary big", onclick: () => send({ type: "start" }), text: "Start game" }));
    } else if (you.host) {
      const fill = fillControl(ctx, send);
      nodes.push(h("p", { class: "hint", text: `${empty} empty seat${empty > 1 ? "s" : ""}: invite a friend or` }), fill);
    } else {
      nodes.push(h("p", { class: "hint", text: empty ? "Waiting for the seats to fill." : "Waiting for the host to start." }));
    }
    return nodes;
  }
  const replay = replayLink(table, "btn replay-link");
  if (replay) nodes.push(replay);
  const { multi, others, plays, places } = ctx.moves;
  if (page.raised && places.has(page.raised)) nodes.push(placeButtons(ctx, page.raised, places.get(page.raised)));
  else if (places.size) nodes.push(h("span", { class: "hint", id: "tap-a-card", text: "Tap a card, then choose where it goes." }));
  if (page.raised && plays.has(page.raised)) {
    const move = plays.get(page.raised);
    nodes.push(
      h("span", { class: "hint", text: "Tap it again, or" }),
      h("button", { type: "button", class: "btn primary", id: "play-raised", disabled: page.pending, onclick: () => makeMove(move), text: `Play ${cardShort(page.raised)}` }),
    );
  }
  if (multi.key) {
    const size = multi.moves[0][multi.key].length;
    const move = chosen(ctx);
    nodes.push(
      h("span", { class: "hint", text: `${page.selected.size} of ${size} chosen` }),
      h("button", {
        type: "button",
        class: "btn primary",
        disabled: !move || page.pending,
        onclick: () => move && makeMove(move),
        text: CONFIRM[multi.key] || multi.key.replace(/^./, (c) => c.toUpperCase()),
      }),
    );
  }
  if (others.length && ctx.game.actionButtons) nodes.push(ctx.game.actionButtons(ctx, others, makeMove, page.pending));
  else {
    for (const move of others) {
      const label = ctx.game.moveLabel ? ctx.game.moveLabel(move, ctx) : JSON.stringify(move);
      nodes.push(h("button", { type: "button", class: "btn primary", disabled: page.pending, onclick: () => makeMove(move), text: label }));
    }
  }
  return nodes;
}

/** The places the raised card may go, one button each, saying where ("Play to your side ·
 * Red", "Play to the discard"): the layout's `whereLabel` (the move's words without the card),
 * else its whole label. */
function placeButtons(ctx, card, moves) {
  const { game } = ctx;
  const name = cardName(card);
  const box = h("div", { class: "card-places", role: "group", "aria-label": `Where ${name} goes` }, h("span", { class: "hint", text: `${cardShort(card)} to:` }));
  const hinted = hintedMove(ctx);
  const hintKey = hinted && JSON.stringify(hinted);
  for (const move of moves) {
    const label = game.moveLabel ? game.moveLabel(move, ctx) : JSON.stringify(move);
    const text = game.whereLabel ? game.whereLabel(move, ctx) : label;
    const isHint = JSON.stringify(move) === hintKey;
    const button = h("button", { type: "button", class: isHint ? "btn primary hinted" : "btn primary", disabled: page.pending, onclick: () => makeMove(move), text, "data-label": label });
    if (isHint) button.title = "The hint suggests this";
    box.append(button);
  }
  return box;
}

/** The tools beside the turn banner: "Hint" on your turn, "Last trick" while there is one. */
export function renderTools(ctx) {
  const root = $("table-tools");
  root.querySelectorAll(".tool").forEach((node) => node.remove());
  if (!ctx || !ctx.view) return;
  const { view } = ctx;
  // The last summary (or the show) again, until the next one: a friend who came later sees it too.
  if (page.summary && $("summary").hidden) {
    root.append(h("button", { type: "button", class: "btn small ghost tool", id: "sheet-again", onclick: () => openSheet(page.summary), text: page.summary.again || "Last deal" }));
  }
  if (view.last_trick && view.phase === "play") {
    root.append(h("button", { type: "button", class: "btn small ghost tool", id: "last-trick-button", onclick: () => openLastTrick(ctx), text: "Last trick" }));
  }
  const hintTool = hintButton(ctx, send, () => renderTools(ctx));
  if (hintTool) root.append(hintTool);
}

/** Show the last finished trick again, with who took it, until closed. */
function openLastTrick(ctx) {
  const { cards, winner } = ctx.view.last_trick;
  const caption = winner === null || winner === undefined ? "The deal's last trick" : `${seatName(ctx, winner)} took it`;
  const close = () => {
    $("review").hidden = true;
  };
  $("review-card").replaceChildren(
    h("h2", { id: "review-title", text: "Last trick" }),
    h("p", { class: "review-caption", text: caption }),
    h("div", { class: "summary-trick review-trick" }, trickNode(ctx, cards, { winner, caption })),
    h("div", { class: "row end" }, h("button", { type: "button", class: "btn primary", onclick: close, text: "Close" })),
  );
  $("review").hidden = false;
  $("review-card").querySelector("button").focus();
}
